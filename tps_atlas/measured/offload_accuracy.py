"""The offload estimate against measured offload runs (rows of data/measured/llama-cpp.tsv with an
``offload`` column): each run is placed as its flags placed it (``n-cpu-moe=N``, ``ngl=N``,
``ot=exps``), on its RAM (``measured_ram`` in data/ram.yaml maps the table's text to a kind),
and estimated at its context depth. Runs whose RAM kind or model is not known are listed, not
scored. ``fit`` searches the RAM efficiency (decode) and PCIe rate (prompt) that minimise the
median error. Used by benchmarks/accuracy.py --offload.
"""

from __future__ import annotations

import statistics
from dataclasses import dataclass, replace
from typing import Sequence

from tps_atlas.catalogue.cards import Card
from tps_atlas.catalogue.models import Model
from tps_atlas.catalogue.load import load_catalogue
from tps_atlas.estimate.memory import Memory, memory_needed
from tps_atlas.estimate.settings import Settings, load_settings
from tps_atlas.catalogue.quants import Quant
from tps_atlas.measured.runs import MEASURED_FILE, Run, load_runs
from tps_atlas.estimate.offload import (OffloadWorking, Placement, RamKind, RamSettings, System, fixed_placement,
                                        load_ram, offload_working, prompt_seconds)


@dataclass(frozen=True)
class Placeable:
    """What placing a run needs: its card, its model with a recorded layout, and its quant."""

    card: Card
    model: Model
    layers: int
    quant: Quant


@dataclass(frozen=True)
class OffloadRun:
    """A measured offload run, with what the catalogues know of it (None: not known)."""

    run: Run
    ram_text: str
    card: Card | None
    model: Model | None
    quant: Quant | None
    kind: RamKind | None

    @property
    def placeable(self) -> Placeable | None:
        if self.card is None or self.model is None or self.model.architecture is None or self.quant is None:
            return None
        return Placeable(self.card, self.model, self.model.architecture.layers, self.quant)

    @property
    def why_not(self) -> str:
        if self.card is None:
            return "card not in the catalogue"
        if self.model is None or self.model.architecture is None:
            return "model not in the catalogue"
        if self.quant is None:
            return "quant unknown"
        return "RAM kind not stated"


def ram_texts(path=MEASURED_FILE) -> dict[int, str]:
    """The ``ram`` column by line number (tps_atlas/measured/runs.py keeps no RAM)."""
    texts = {}
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        cells = line.split("\t")
        if len(cells) > 16 and not line.startswith("#"):
            texts[number] = cells[16]
    return texts


def quant_named(name: str, settings: Settings) -> Quant | None:
    return settings.known_quant(name, len(settings.quants))


def offload_runs(runs: Sequence[Run] | None = None, ram: RamSettings | None = None) -> list[OffloadRun]:
    catalogue = load_catalogue()
    settings = load_settings()
    ram = ram or load_ram()
    texts = ram_texts()
    models = {m.id: m for m in catalogue.models}
    result = []
    for run in runs if runs is not None else load_runs():
        if not run.offload:
            continue
        text = texts.get(run.line, "")
        result.append(OffloadRun(run, text, catalogue.cards_by_id.get(run.card), models.get(run.model or ""),
                                 quant_named(run.quant, settings), ram.kind_of_measured(text)))
    return result


def placement_of(p: Placeable, run: Run, context: int) -> tuple[Memory, Placement]:
    settings = load_settings()
    memory = memory_needed(p.model, p.quant, max(1, context), settings)
    flag, _, value = run.offload.partition("=")
    if flag == "n-cpu-moe":
        return memory, fixed_placement(p.model, p.layers, memory, "experts", int(value))
    if flag == "ot":       # every expert tensor in RAM
        return memory, fixed_placement(p.model, p.layers, memory, "experts", p.layers)
    return memory, fixed_placement(p.model, p.layers, memory, "layers", p.layers - int(value))


@dataclass(frozen=True)
class OffloadPair:
    item: OffloadRun
    estimate: float
    working: OffloadWorking | None

    @property
    def measured(self) -> float:
        return self.item.run.tok_s

    @property
    def error(self) -> float:
        return abs(self.estimate / self.measured - 1)


def estimate_run(r: OffloadRun, ram: RamSettings) -> OffloadPair | None:
    """The estimate of a run, or None when it cannot be scored (``why_not``): decode needs the
    RAM kind; a prompt's cost is the copy over PCIe, whatever the RAM."""
    settings = load_settings()
    calibration = settings.calibration()
    run, p = r.run, r.placeable
    if p is None:
        return None
    if run.test == "tg":
        if r.kind is None:
            return None
        memory, placement = placement_of(p, run, int(run.mean_depth))
        working = offload_working(placement, memory, p.quant, p.card, calibration, System(0, r.kind), ram)
        return OffloadPair(r, 1 / working.seconds_per_token, working)
    memory, placement = placement_of(p, run, run.tokens)
    seconds = prompt_seconds(p.model, p.card, calibration, placement, ram, run.tokens, memory.kv_gb)
    return OffloadPair(r, run.tokens / seconds if seconds else float("nan"), None)


def score(ram: RamSettings | None = None, test: str = "tg") -> tuple[list[OffloadPair], list[OffloadRun]]:
    """(pairs of scored runs, runs left out) for decode (tg) or prompt (pp)."""
    ram = ram or load_ram()
    pairs, left = [], []
    for r in offload_runs(ram=ram):
        if r.run.test == test:
            pair = estimate_run(r, ram)
            if pair is None:
                left.append(r)
            else:
                pairs.append(pair)
    return pairs, left


def median_error(pairs: Sequence[OffloadPair]) -> float:
    return statistics.median(p.error for p in pairs) if pairs else float("nan")


def fit(ram: RamSettings | None = None) -> RamSettings:
    """RAM efficiency (decode) and PCIe rate (prompt) with the least median error; a grid, as
    there are few runs."""
    ram = ram or load_ram()
    best = min((median_error(score(replace(ram, efficiency=e / 100))[0]), e / 100) for e in range(20, 101, 2))
    ram = replace(ram, efficiency=best[1])
    best = min((median_error(score(replace(ram, pcie_gb_s=g), "pp")[0]), g) for g in range(8, 41))
    return replace(ram, pcie_gb_s=float(best[1]))
