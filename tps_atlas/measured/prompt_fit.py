"""Fitting prompt processing (pp runs of data/measured/llama-cpp.tsv) per hardware class.

A prompt is compute bound: per token, two FLOP per active parameter (a mixture of experts' times
``moe_factor``) plus ``kv_flop_per_byte`` FLOP per byte of the KV cache at the prompt's mean depth,
at the share of the card's peak FLOP/s its class reaches (``prompt_efficiency``; FLOP per byte of
bandwidth, ``prompt_flop_per_byte``, where the catalogue has no TFLOPS figure).

Each constant is fitted where the runs separate it from the others:

- ``moe_factor``: on devices with both dense and MoE prompt runs (on their class's backend), the
  device's median log(measured / estimate) of its dense runs less that of its MoE runs; the median
  over the devices (all cards: routing and small per-expert batches are the runtime's, not a class's).
- ``kv_flop_per_byte``, per backend (its attention kernels): on runs of one model, device, backend and
  quant at several prompt lengths or depths, the value that flattens log(measured / estimate) along
  them (least squares); from two devices or more of the backend, else from all of them.
- the class's efficiency: the device-weighted median (each device's median, then the median over the
  devices) of measured / estimate at unit efficiency, on runs on each class's own backend; from its
  own runs where they come from two devices or more, else its group's, its vendor's, everyone's.

``benchmarks/accuracy.py`` scores it leaving one device out: all three are refitted without the device.
"""

from __future__ import annotations

import dataclasses
import math
import statistics
from typing import Sequence

from tps_atlas.estimate.calibration import Calibration, SpeedClass

MIN_DEVICES = 2            # devices a constant needs at a level before it is fitted there
KV_FLOP_RANGE = (0.0, 100.0)  # FLOP per KV byte searched (golden section)
ROUNDS = 3                 # moe_factor and kv_flop_per_byte are fitted in turn
FALLBACK = (0.3, 100.0)    # prompt_efficiency, prompt_flop_per_byte with no runs at all


@dataclasses.dataclass(frozen=True)
class PromptGlobals:
    moe_factor: float
    kv_by_backend: dict[str, float]
    kv_default: float

    def kv_for(self, backend: str | None) -> float:
        return self.kv_by_backend.get(backend or "", self.kv_default)


def _flop(r, moe: float, kv: float) -> float:
    """FLOP per token of a run (row of tps_atlas.measured.fitting) at unit efficiency."""
    return 2 * r.model.read_parameters_b * 1e9 * (moe if r.model.is_moe else 1.0) + kv * r.kv_gb * 1e9


def _unit(r) -> float:
    """Measured speed x FLOP per token / the card's peak (or its bandwidth): the class constant
    that run alone would give, with the FLOP of ``_flop`` at moe 1 and kv 0."""
    peak = r.card.compute_tflops * 1e12 if r.card.compute_tflops else r.card.bandwidth_gb_s * 1e9
    return r.measured / peak


def _backend_of(card, classes: Sequence[SpeedClass]) -> str | None:
    """The backend of the card's class (the first that matches, as tps_atlas.measured.fitting.class_of)."""
    return next((c.backend for c in classes if c.matches(card)), None)


def _on_own_backend(r, classes: Sequence[SpeedClass]) -> bool:
    backend = _backend_of(r.card, classes)
    return backend is None or r.run.backend == backend


def fit_moe_factor(rows, kv: float) -> float:
    per_chip: dict[str, dict[bool, list[float]]] = {}
    for r in rows:
        per_chip.setdefault(r.chip, {True: [], False: []})[r.model.is_moe].append(
            math.log(_unit(r) * _flop(r, 1.0, kv)))
    gaps = [statistics.median(v[False]) - statistics.median(v[True]) for v in per_chip.values() if v[True] and v[False]]
    return max(1.0, math.exp(statistics.median(gaps))) if len(gaps) >= MIN_DEVICES else 1.0


def _series(rows) -> list[list]:
    """Runs of one model, device, backend and quant at more than one KV cache size."""
    groups: dict[tuple, list] = {}
    for r in rows:
        groups.setdefault((r.chip, r.run.model_name, r.run.backend, r.quant.name), []).append(r)
    return [g for g in groups.values() if len({round(r.kv_gb, 3) for r in g}) > 1]


def _golden(f, low: float, high: float, steps: int = 30) -> float:
    ratio = (math.sqrt(5) - 1) / 2
    a, b = low, high
    for _ in range(steps):
        c, d = b - ratio * (b - a), a + ratio * (b - a)
        if f(c) < f(d):
            b = d
        else:
            a = c
    return (a + b) / 2


def fit_kv_flop(rows, moe: float) -> float | None:
    """FLOP per KV byte that flattens each series; None with series from fewer than MIN_DEVICES devices."""
    series = _series(rows)
    if len({g[0].chip for g in series}) < MIN_DEVICES:
        return None

    def spread(kv: float) -> float:
        total = 0.0
        for g in series:
            logs = [math.log(_unit(r) * _flop(r, moe, kv)) for r in g]
            mean = sum(logs) / len(logs)
            total += sum((x - mean) ** 2 for x in logs) / len(logs)
        return total

    return _golden(spread, *KV_FLOP_RANGE)


def fit_prompt_globals(pp, classes: Sequence[SpeedClass]) -> PromptGlobals:
    own = [r for r in pp if _on_own_backend(r, classes)]
    moe, kv = 1.0, 0.0
    for _ in range(ROUNDS):
        moe = fit_moe_factor(own, kv)
        kv = fit_kv_flop(pp, moe) or 0.0
    by_backend = {}
    for backend in sorted({r.run.backend for r in pp}):
        fitted = fit_kv_flop([r for r in pp if r.run.backend == backend], moe)
        if fitted is not None:
            by_backend[backend] = fitted
    return PromptGlobals(moe, by_backend, kv)


def held_globals(calibration: Calibration) -> PromptGlobals:
    """The calibration's own prompt constants, as fitted (classes carry their backend's)."""
    return PromptGlobals(calibration.prompt_moe_factor,
                         {c.backend: c.prompt_kv_flop_per_byte for c in calibration.classes if c.backend}, 0.0)


def _device_median(rows, moe: float, kv_of) -> float:
    per_chip: dict[str, list[float]] = {}
    for r in rows:
        per_chip.setdefault(r.chip, []).append(_unit(r) * _flop(r, moe, kv_of(r)))
    return statistics.median(statistics.median(v) for v in per_chip.values())


def fit_class_prompt(speed_class: SpeedClass, levels: Sequence[Sequence], classes: Sequence[SpeedClass],
                     g: PromptGlobals) -> tuple[float, float, float]:
    """(prompt_efficiency, prompt_flop_per_byte, prompt_kv_flop_per_byte) of one class; ``levels``:
    the pp runs of its own class, its group, its vendor and all cards."""
    def kv_of(r) -> float:
        return g.kv_for(_backend_of(r.card, classes))

    found = []
    for with_tflops, fallback in zip((True, False), FALLBACK, strict=True):
        value = fallback
        for level in levels:
            rows = [r for r in level if bool(r.card.compute_tflops) == with_tflops and _on_own_backend(r, classes)]
            if len({r.chip for r in rows}) >= MIN_DEVICES:
                value = _device_median(rows, g.moe_factor, kv_of)
                break
        found.append(value)
    return found[0], found[1], g.kv_for(speed_class.backend)


def with_globals(calibration: Calibration, g: PromptGlobals) -> Calibration:
    return dataclasses.replace(calibration, prompt_moe_factor=g.moe_factor)

