"""Scoring the machine estimator (``estimate/machine.py``) on the measured mixed-card runs.

Each layer-split run is estimated on its own cards with the split it used (its ``--tensor-split``
proportions, else llama.cpp's default: in proportion to each card's room at the run's context), at its
quant and its KV cache at the run's mean depth. Runs in another split mode (row, tensor) or at a quant
whose bits per weight are not known are listed, not scored.
"""

from __future__ import annotations

import statistics
from dataclasses import dataclass, replace
from typing import Sequence

from tps_atlas.catalogue.load import load_catalogue
from tps_atlas.estimate.fit import calibrated_memory
from tps_atlas.estimate.machine import layer_split, main_gpu, make_machine, rooms, split_decode
from tps_atlas.estimate.machine_settings import MachineSettings
from tps_atlas.estimate.memory import Memory, memory_needed
from tps_atlas.estimate.offload import load_ram
from tps_atlas.estimate.settings import Settings, load_settings
from tps_atlas.measured.mixed_runs import MixedRun, load_mixed_runs

# Bytes per KV element of the cache types the runs used beside the estimator's (llama.cpp's block sizes:
# q4_0 stores 32 values in 18 bytes).
EXTRA_KV_BYTES = {"q4_0": 18 / 32}


@dataclass(frozen=True)
class MixedPair:
    run: MixedRun
    estimate: float | None
    low: float | None
    high: float | None
    why_not: str | None = None   # why the run is not scored

    @property
    def error(self) -> float:
        assert self.estimate is not None
        return abs(self.estimate / self.run.tok_s - 1)

    @property
    def inside(self) -> bool:
        return self.low is not None and self.high is not None and self.low <= self.run.tok_s <= self.high


def run_memory(run: MixedRun, settings: Settings, tokens: int, quant) -> Memory:
    model = load_catalogue().model(run.model).for_calibration("measured")
    kv = run.kv_cache or "f16"
    if kv in settings.kv_bytes_per_element:
        return memory_needed(model, quant, tokens, settings, kv)
    memory = memory_needed(model, quant, tokens, settings, "f16")
    return replace(memory, kv_gb=memory.kv_gb * EXTRA_KV_BYTES[kv] / settings.kv_bytes_per_element["f16"])


def estimate_run(run: MixedRun, settings: Settings, limits: MachineSettings | None = None) -> MixedPair:
    """The estimate of one run on its own cards and split, or why it is not scored."""
    if run.split_mode != "layer":
        return MixedPair(run, None, None, None, f"-sm {run.split_mode}: the estimator models the layer split")
    quant = settings.known_quant(run.quant, len(settings.quants)) if run.quant else None
    if quant is None:
        return MixedPair(run, None, None, None, "quant not stated" if not run.quant else f"bits of {run.quant} unknown")
    catalogue = load_catalogue()
    if run.model not in catalogue.models_by_id or any(c not in catalogue.cards_by_id for c in run.cards):
        return MixedPair(run, None, None, None, "model or card not in the catalogue")
    model = catalogue.model(run.model).for_calibration("measured")
    calibration = settings.calibration("measured")
    limits = limits or settings.machine
    assert limits is not None
    ram = load_ram()
    machine = make_machine([catalogue.cards_by_id[c] for c in run.cards], ram.system(), limits.os_budget(), limits,
                           "data/measured/mixed-cards.tsv", "cards")
    layers = model.architecture.layers if model.architecture else 100
    main = run.main_gpu if run.main_gpu is not None else main_gpu(machine, quant, calibration)
    context = run.context or settings.context_tokens
    at_context = calibrated_memory(run_memory(run, settings, context, quant), context, settings, calibration)
    room = rooms(machine, at_context, settings, main)
    counts = None
    if run.tensor_split is not None:
        counts = layer_split(layers, 1e-9, run.tensor_split)
    else:
        counts = layer_split(layers, (at_context.weights_gb + at_context.kv_gb) / layers, room) \
            or layer_split(layers, 1e-9, [max(r, 0.01) for r in room])
    assert counts is not None
    at_depth = run_memory(run, settings, max(run.depth, 1), quant)
    _, tok_s = split_decode(model, machine, quant, at_depth, counts, room, main, calibration, limits)
    ranges = [calibration.speed_range(c) for c in machine.cards]
    return MixedPair(run, tok_s, tok_s * min(r[0] for r in ranges), tok_s * max(r[1] for r in ranges))


def score_mixed(settings: Settings | None = None, handoff_ms: float | None = None) -> list[MixedPair]:
    settings = settings or load_settings()
    limits = settings.machine
    assert limits is not None
    if handoff_ms is not None:
        limits = replace(limits, handoff_ms=handoff_ms)
    return [estimate_run(run, settings, limits) for run in load_mixed_runs()]


def median_error(pairs: Sequence[MixedPair]) -> float:
    scored = [p.error for p in pairs if p.estimate is not None]
    return statistics.median(scored) if scored else float("nan")


HANDOFF_GRID = tuple(step / 4 for step in range(0, 41))   # 0 to 10 ms by quarters


def fit_handoff(settings: Settings | None = None, steps: Sequence[float] = HANDOFF_GRID) -> tuple[float, float]:
    """The per-card handoff (ms) with the least median error on the scored runs, and that error."""
    return min(((h, median_error(score_mixed(settings, h))) for h in steps), key=lambda t: (round(t[1], 4), t[0]))
