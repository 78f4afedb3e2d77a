"""The constants of a machine of several GPUs (``machine:`` in data/estimator.yaml), read into a record.

Kept apart from ``settings.py`` so that the machine estimator (``machine.py``) and the browser's
data read them without the rest of the estimator's settings.

>>> from tps_atlas.estimate.settings import load_settings
>>> m = load_settings().machine
>>> m.max_cards, m.os_budget("windows").ram_keeps_gb
(4, 6.0)
"""

from __future__ import annotations

from dataclasses import dataclass

from tps_atlas.records.fields import FieldReader


@dataclass(frozen=True)
class OsBudget:
    """What one operating system keeps of a machine: of the RAM, and of the GPU that drives the screen."""

    id: str                    # windows | linux | linux-headless (the --os value and the link's)
    name: str                  # as a page names it
    ram_keeps_gb: float        # GB the OS keeps of the modules' binary GB (ram.yaml os_keeps_gb on Windows)
    display_reserve_gb: float  # GB the desktop keeps on the main GPU (0: nothing drives a screen)


@dataclass(frozen=True)
class MachineSettings:
    max_cards: int             # GPUs one machine may list (the picker's and the link's limit)
    max_ram_gb: float          # the most system RAM a machine may state (a link above it is absurd)
    handoff_ms: float          # per token, for every card past the first that holds layers
    default_os: str
    systems: tuple[OsBudget, ...]

    def os_budget(self, name: str | None = None) -> OsBudget:
        wanted = (name or self.default_os).casefold()
        for system in self.systems:
            if system.id == wanted:
                return system
        raise KeyError(name)

    @property
    def os_ids(self) -> tuple[str, ...]:
        return tuple(s.id for s in self.systems)


def read_machine(r: FieldReader) -> MachineSettings:
    systems = []
    for s in r.mappings("os"):
        systems.append(OsBudget(s.text("id"), s.text("name"), s.number("ram_keeps_gb", minimum=0, maximum=1000),
                                s.number("display_reserve_gb", minimum=0, maximum=16)))
        s.finish()
    machine = MachineSettings(
        max_cards=r.integer("max_cards", minimum=1, maximum=16),
        max_ram_gb=r.number("max_ram_gb", above=0, maximum=100_000),
        handoff_ms=r.number("handoff_ms", minimum=0, maximum=1000),
        default_os=r.text("default_os"),
        systems=tuple(systems),
    )
    r.finish()
    ids = [s.id for s in systems]
    if not ids or len(set(ids)) != len(ids):
        raise r.error("os", "at least one OS, each id once", ", ".join(ids))
    if machine.default_os not in ids:
        raise r.error("default_os", "one of " + ", ".join(ids), machine.default_os)
    return machine
