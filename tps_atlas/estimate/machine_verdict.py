"""The verdict for a machine (``machine.py``): the same record the pages word for one device, decided once,
the command that reproduces it, and a machine read from its short form (a ``?machine=`` link).

The short form: ``ID[,ID…][~RAM_GB[~RAM_KIND[~OS]]]``, card ids of the catalogue in llama.cpp's device
order, then optionally the RAM in GB, its kind (an id of data/ram.yaml) and the OS (an id of
estimator.yaml ``machine.os``): ``geforce-rtx-3090,geforce-rtx-3060-12gb~64~ddr4-3200-2ch~linux``.
"""

from __future__ import annotations

import re
from dataclasses import replace
from typing import Mapping

from tps_atlas.catalogue.cards import Card
from tps_atlas.catalogue.models import Model
from tps_atlas.errors import DataError
from tps_atlas.estimate.calibration import Calibration
from tps_atlas.estimate.commands import llama_server
from tps_atlas.estimate.fit import Fit, calibrated_memory, candidate_memories, estimate, uses_budget
from tps_atlas.estimate.machine import (Machine, MachineFit, MachineOffload, machine_fit, machine_memory,
                                        machine_offload, machine_usable_gb, main_gpu, make_machine, ram_free_gb)
from tps_atlas.estimate.memory import memory_needed
from tps_atlas.estimate.offload import OffloadEstimate, RamSettings, load_ram, offload_candidates, offload_estimate, \
    ram_room
from tps_atlas.estimate.settings import Settings
from tps_atlas.estimate.verdict import (Fits, Multi, NoRun, Offload, Reason, Shortfall, Verdict, beyond_context,
                                        decide, missed_by, shortfall_quant)

MAX_LINK = 400   # characters of a ?machine= value: four ids, a size, a kind and an OS fit in far fewer
_ID = re.compile(r"^[a-z0-9][a-z0-9._-]{0,79}$")
_SIZE = re.compile(r"^[0-9]{1,6}(\.[0-9]{1,2})?$")


def machine_settings_for(machine: Machine, settings: Settings, ram: RamSettings) -> tuple[Settings, RamSettings]:
    """The settings of one device under the machine's OS: its display reserve, the RAM it keeps."""
    assert settings.budget is not None
    return (replace(settings, budget=replace(settings.budget, display_reserve_gb=machine.os.display_reserve_gb)),
            replace(ram, os_keeps_gb=machine.os.ram_keeps_gb))


def machine_verdict(model: Model, machine: Machine, settings: Settings, calibration: Calibration,
                    context: int | None = None, floor: str | None = None, quant: str | None = None,
                    kv_precision: str | None = None, ceiling: str | None = None,
                    ram: RamSettings | None = None) -> Verdict:
    """Runs on the cards, runs with part in RAM, or does not run (one reason): never a set of other cards."""
    ram = ram or load_ram()
    context = context or settings.context_tokens
    floor = settings.quant(floor or settings.min_quality).name
    if not uses_budget(settings, calibration):
        raise DataError("command line", "--calibration", "a calibration with the memory budget (fit: budget) "
                        "for a machine", calibration.name)
    settings, ram = machine_settings_for(machine, settings, ram)
    candidates = candidate_memories(model, settings, context, floor, quant, kv_precision, ceiling)
    offloads = offload_candidates(model, settings, ram, context, floor, quant, kv_precision)
    if len(machine.cards) == 1:
        return _one_device(model, machine, settings, calibration, context, floor, quant, kv_precision, ceiling,
                           ram, candidates, offloads)
    beyond = beyond_context(model, context)
    found = machine_fit(model, machine, settings, calibration, context, candidates)
    if found is not None:
        return Fits(found.card, found, beyond, machine=machine)
    shortfall = machine_shortfall(model, machine, settings, calibration, context, floor, quant, kv_precision,
                                  ceiling)
    offload = machine_offload(model, machine, settings, calibration, context, ram, offloads)
    if offload is not None:
        return Offload(offload.card, offload, shortfall, beyond, machine=machine)
    return NoRun(shortfall.card, no_run_reason(model, shortfall, ram_free_gb(machine)),
                 shortfall, beyond, machine=machine)


def _one_device(model, machine, settings, calibration, context, floor, quant, kv_precision, ceiling, ram,
                candidates, offloads) -> Verdict:
    """One card: the single-device estimator at the machine's RAM and OS, a set of others not offered."""
    card = machine.cards[0]
    alone = estimate(model, card, settings, calibration, context, candidates=candidates)
    offload = shortfall = None
    if not alone.fits:
        offload = offload_estimate(model, card, settings, calibration, machine.system, ram, context,
                                   candidates=offloads)
        shortfall = missed_by(model, card, settings, context, floor, kv_precision, quant, ceiling, calibration)
    ram_free = max(0.0, ram_room(machine.system, ram, settings, calibration))
    verdict = decide(model, card, settings, calibration, context, alone, offload, shortfall, candidates, ram_free)
    if isinstance(verdict, Multi):
        verdict = NoRun(card, no_run_reason(model, verdict.shortfall, ram_free), verdict.shortfall,
                        verdict.beyond_context)
    return replace(verdict, machine=machine)


def no_run_reason(model: Model, shortfall: Shortfall, ram_free_gb: float) -> Reason:
    if shortfall.need_gb > shortfall.usable_gb + ram_free_gb:
        return Reason.MEMORY
    return Reason.PLACEMENT if model.architecture else Reason.NO_LAYOUT


def machine_shortfall(model: Model, machine: Machine, settings: Settings, calibration: Calibration, context: int,
                      floor: str, quant_name: str | None, kv_precision: str | None,
                      ceiling: str | None) -> Shortfall:
    """How far all the cards together fall short of holding the model, at the quant a shortfall is told at."""
    quant, at_floor = shortfall_quant(model, settings, floor, ceiling, quant_name)
    memory = calibrated_memory(memory_needed(model, quant, context, settings, kv_precision), context, settings,
                               calibration)
    need = machine_memory(memory, len(machine.cards)).total_gb
    main = main_gpu(machine, quant, calibration)
    usable = machine_usable_gb(machine, settings, main)
    return Shortfall(machine.cards[main], quant.name, need, need - usable, usable, None, at_floor,
                     keeps_display=machine.os.display_reserve_gb > 0)


def machine_command(model: Model, e: Fit, context: int, kv_precision: str | None = None) -> str:
    """The llama-server line that runs it as the verdict says: the layer counts as ``--tensor-split``."""
    if isinstance(e, (MachineFit, MachineOffload)):
        placement = e.placement if isinstance(e, MachineOffload) else None
        return llama_server(model, e.quant.name, context, kv_precision, placement,
                            split=e.tensor_split, main_gpu=e.main_gpu)
    placement = e.placement if isinstance(e, OffloadEstimate) else None
    return llama_server(model, e.quant.name, context, kv_precision, placement)


def verdict_command(model: Model, v: Verdict, context: int, kv_precision: str | None = None) -> str | None:
    if isinstance(v, (Fits, Offload)):
        return machine_command(model, v.estimate, context, kv_precision)
    return None


def parse_machine(text: str, cards_by_id: Mapping[str, Card], settings: Settings, ram: RamSettings | None = None,
                  where: str = "link", field: str = "machine") -> Machine:
    """A machine from its short form; anything else is one DataError naming ``where`` and ``field``."""
    ram = ram or load_ram()
    limits = settings.machine
    assert limits is not None
    if not isinstance(text, str) or not text or len(text) > MAX_LINK:
        raise DataError(where, field, f"ID[,ID…][~RAM_GB[~KIND[~OS]]] of at most {MAX_LINK} characters",
                        text[:40] if isinstance(text, str) else text)
    parts = text.split("~")
    if len(parts) > 4:
        raise DataError(where, field, "at most four parts: cards~RAM_GB~KIND~OS", text)
    ids = parts[0].split(",")
    if len(ids) > limits.max_cards:
        raise DataError(where, field, f"1 to {limits.max_cards} GPU ids", len(ids))
    cards = []
    for card_id in ids:
        if not _ID.match(card_id) or card_id not in cards_by_id:
            raise DataError(where, field, "a GPU id of the catalogue (tps-atlas cards)", card_id)
        cards.append(cards_by_id[card_id])
    size: float | None = None
    if len(parts) > 1 and parts[1]:
        if not _SIZE.match(parts[1]) or not 0 < float(parts[1]) <= limits.max_ram_gb:
            raise DataError(where, field, f"a RAM size in GB above 0 and at most {limits.max_ram_gb:g}", parts[1])
        size = float(parts[1])
    kind = parts[2] if len(parts) > 2 and parts[2] else None
    if kind is not None and kind not in {k.id for k in ram.kinds}:
        raise DataError(where, field, "a kind of RAM: one of " + ", ".join(k.id for k in ram.kinds), kind)
    os_id = parts[3] if len(parts) > 3 and parts[3] else None
    if os_id is not None and os_id not in limits.os_ids:
        raise DataError(where, field, "an OS: one of " + ", ".join(limits.os_ids), os_id)
    return make_machine(cards, ram.system(size, kind), limits.os_budget(os_id), limits, where, field)


def machine_link(machine: Machine, ram: RamSettings, settings: Settings) -> str:
    """The short form of a machine, defaults left out from the end."""
    assert settings.machine is not None
    parts = [",".join(machine.ids), f"{machine.system.size_gb:g}", machine.system.kind.id, machine.os.id]
    defaults = ["", f"{ram.default_size_gb:g}", ram.default_kind, settings.machine.default_os]
    while len(parts) > 1 and parts[-1] == defaults[len(parts) - 1]:
        parts.pop()
    return "~".join(parts)

