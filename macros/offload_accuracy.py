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

from .catalogue import Card, Model, load_catalogue
from .estimator import Quant, Settings, load_settings, memory_needed
from .measured import MEASURED_FILE, Run, load_runs
from .offload import (OffloadWorking, RamKind, RamSettings, System, fixed_placement, load_ram,
                      offload_working, prompt_seconds)


@dataclass(frozen=True)
class OffloadRun:
    run: Run
    ram_text: str
    card: Card | None
    model: Model | None
    quant: Quant | None
    kind: RamKind | None

    @property
    def scored(self) -> bool:
        """Decode needs the RAM kind; a prompt's cost is the copy over PCIe, whatever the RAM."""
        needed = (self.card, self.model, self.quant) + ((self.kind,) if self.run.test == "tg" else ())
        return None not in needed and self.model.architecture is not None

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
    """The ``ram`` column by line number (macros/measured.py keeps no RAM)."""
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


def placement_of(r: OffloadRun, context: int):
    settings = load_settings()
    memory = memory_needed(r.model, r.quant, max(1, context), settings)
    layers = r.model.architecture.layers
    flag, _, value = r.run.offload.partition("=")
    if flag == "n-cpu-moe":
        return memory, fixed_placement(r.model, memory, "experts", int(value))
    if flag == "ot":       # every expert tensor in RAM
        return memory, fixed_placement(r.model, memory, "experts", layers)
    return memory, fixed_placement(r.model, memory, "layers", layers - int(value))


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


def estimate_run(r: OffloadRun, ram: RamSettings) -> OffloadPair:
    settings = load_settings()
    calibration = settings.calibration()
    run = r.run
    if run.test == "tg":
        memory, placement = placement_of(r, int(run.mean_depth))
        working = offload_working(placement, memory, r.quant, r.card, calibration, System(0, r.kind), ram)
        return OffloadPair(r, 1 / working.seconds_per_token, working)
    memory, placement = placement_of(r, run.tokens)
    seconds = prompt_seconds(r.model, r.card, calibration, placement, ram, run.tokens)
    return OffloadPair(r, run.tokens / seconds if seconds else float("nan"), None)


def score(ram: RamSettings | None = None, test: str = "tg") -> tuple[list[OffloadPair], list[OffloadRun]]:
    """(pairs of scored runs, runs left out) for decode (tg) or prompt (pp)."""
    ram = ram or load_ram()
    items = [r for r in offload_runs(ram=ram) if r.run.test == test]
    return [estimate_run(r, ram) for r in items if r.scored], [r for r in items if not r.scored]


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
