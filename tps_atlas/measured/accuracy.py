"""Scoring the estimator on measured llama.cpp runs: leave one device out.

Every chip's runs are predicted by constants fitted without that chip (its class refitted,
factors included; ``kv_read_factor`` and the class's backend held), which is how a card nobody
measured is estimated. The fit itself, and where the runs come from, are in
``tps_atlas.measured.fitting``; the methodology page shows these scores.
"""

from __future__ import annotations

import dataclasses
import math
import statistics
from typing import Callable, Sequence

from tps_atlas.cache import cached, shared
from tps_atlas.estimate.calibration import Calibration
from tps_atlas.estimate.settings import load_settings
from tps_atlas.estimate.speed import prompt_tokens_per_second, tokens_per_second
from tps_atlas.measured.fitting import (Row, apply, class_of, fit_class, fit_classes, fit_prompt, fit_shared,
                                        has_factors, load_rows)
from tps_atlas.measured.prompt_fit import held_globals, with_globals


# ---------------------------------------------------------------- scoring

def percentile(values: Sequence[float], share: float) -> float:
    ordered = sorted(values)
    position = (len(ordered) - 1) * share
    low, high = math.floor(position), math.ceil(position)
    return ordered[low] + (ordered[high] - ordered[low]) * (position - low)


@dataclasses.dataclass(frozen=True)
class Pair:
    row: Row
    estimate: float
    low: float
    high: float

    @property
    def error(self) -> float:
        return abs(self.estimate / self.row.measured - 1)

    @property
    def inside(self) -> bool:
        return self.low <= self.row.measured <= self.high


@dataclasses.dataclass(frozen=True)
class Score:
    runs: int
    devices: int
    median: float
    p90: float
    inside: float

    def line(self) -> str:
        return (f"runs {self.runs:4d}, devices {self.devices:3d}, median |error| {self.median:6.1%}, "
                f"p90 {self.p90:6.1%}, inside range {self.inside:6.1%}")


def score(pairs: Sequence[Pair]) -> Score | None:
    if not pairs:
        return None
    errors = [p.error for p in pairs]
    return Score(len(pairs), len({p.row.chip for p in pairs}), statistics.median(errors),
                 percentile(errors, 0.9), sum(p.inside for p in pairs) / len(pairs))


def decode_pair(r: Row, calibration: Calibration) -> Pair:
    tok_s = tokens_per_second(r.model, r.quant, r.card, calibration, r.kv_gb, r.run.backend)
    low, high = calibration.speed_range(r.card)
    return Pair(r, tok_s, tok_s * low, tok_s * high)


def prompt_pair(r: Row, calibration: Calibration) -> Pair | None:
    tok_s = prompt_tokens_per_second(r.model, r.card, calibration, r.kv_gb)
    if tok_s is None:
        return None
    low, high = calibration.speed_range(r.card)
    return Pair(r, tok_s, tok_s * low, tok_s * high)


def estimates(rows: Sequence[Row], calibration: Calibration) -> list[Pair]:
    return [decode_pair(r, calibration) for r in rows]


def leave_one_device_out(tg: Sequence[Row], pp: Sequence[Row], calibration: Calibration,
                         shared_overhead_ms: float) -> tuple[list[Pair], list[Pair]]:
    """Each chip's decode and prompt runs estimated by classes fitted without that chip.

    The class ranges are the calibration's (the ones the pages show); ``kv_read_factor`` is held.
    The prompt's MoE factor and attention FLOP per KV byte are refitted without the chip too.
    """
    tg_pairs, pp_pairs = [], []
    chips = {r.chip: r.card for r in list(tg) + list(pp)}
    for chip, card in sorted(chips.items()):
        # Classes are fitted independently: only the held chip's class changes without it.
        speed_class = class_of(card, calibration.classes)
        # A class with factors refits them for the held chip's backends and quant families too,
        # from the other chips' runs; one without stays without.
        own = ([r for r in tg if class_of(r.card, calibration.classes) is speed_class]
               if has_factors(speed_class) else [])
        others_pp = [r for r in pp if r.chip != chip]
        prompt = fit_prompt(others_pp, calibration) if any(r.chip == chip for r in pp) else held_globals(calibration)
        held = apply(with_globals(calibration, prompt), {speed_class.name: fit_class(
            speed_class, [r for r in tg if r.chip != chip], others_pp, calibration, shared_overhead_ms, own,
            prompt=prompt)})
        tg_pairs += [decode_pair(r, held) for r in tg if r.chip == chip]
        pp_pairs += [p for p in (prompt_pair(r, held) for r in pp if r.chip == chip) if p]
    return tg_pairs, pp_pairs


def class_name(pair: Pair, calibration: Calibration) -> str:
    speed_class = calibration.speed_class(pair.row.card)
    return speed_class.name if speed_class else pair.row.card.vendor


@dataclasses.dataclass(frozen=True)
class Accuracy:
    overall: Score | None
    prompt: Score | None
    by_class: dict[str, Score]
    by_class_backend: dict[tuple[str, str], Score]
    pairs: tuple[Pair, ...]
    prompt_by_class: dict[str, Score] = dataclasses.field(default_factory=dict)
    prompt_pairs: tuple[Pair, ...] = ()


def grouped(pairs: Sequence[Pair], key: Callable[[Pair], object]) -> dict:
    groups: dict = {}
    for pair in pairs:
        groups.setdefault(key(pair), []).append(pair)
    return {k: score(v) for k, v in sorted(groups.items())}


@cached(maxsize=4)
def accuracy(calibration_name: str | None = None) -> Accuracy | None:
    """Leave-one-device-out scores of a calibration with hardware classes (None for others)."""
    settings = load_settings()
    calibration = settings.calibration(calibration_name)
    if not calibration.classes:
        return None
    tg, _ = load_rows("tg")
    pp, _ = load_rows("pp")
    tg_pairs, pp_pairs = leave_one_device_out(tg, pp, calibration, calibration.overhead_ms)
    return Accuracy(score(tg_pairs), score(pp_pairs),
                    grouped(tg_pairs, lambda p: class_name(p, calibration)),
                    grouped(tg_pairs, lambda p: (class_name(p, calibration), p.row.run.backend)),
                    tuple(tg_pairs), grouped(pp_pairs, lambda p: class_name(p, calibration)), tuple(pp_pairs))


def suggested_range(pairs: Sequence[Pair], thin: float = 1.0) -> tuple[float, float]:
    """A class's range from leave-one-device-out errors: the 5th and 95th percentiles of the log
    ratio, widened by 1/devices (thin data) and ``thin`` (borrowed runs), never narrower than
    +-12 % nor wider than 0.3x-3x."""
    ratios = [math.log(p.row.measured / p.estimate) for p in pairs]
    devices = len({p.row.chip for p in pairs})
    grow = (1 + 1 / devices) * thin
    low = max(math.log(0.3), min(-0.12, percentile(ratios, 0.05)) * grow)
    high = min(math.log(3), max(0.12, percentile(ratios, 0.95)) * grow)
    return round(math.exp(low), 2), round(math.exp(high), 2)


def shared_accuracy(calibration_name: str | None = None) -> Accuracy | None:
    """``accuracy(calibration_name)``, worked out once by the processes sharing ``TPS_SHARED_CACHE``."""
    return shared("accuracy", (calibration_name,), lambda: accuracy(calibration_name))


def keep_factors_that_help(tg: Sequence[Row], pp: Sequence[Row], calibration: Calibration,
                           shared_overhead_ms: float) -> Calibration:
    """Each class with its backend and quant-family factors only where they lower its
    leave-one-device-out median error; else its constants fitted without any.

    Runs of one backend or quant often come from one source and build as well: a factor fitted
    on them can carry that source's speed to devices it never measured, which only held-out
    devices show.
    """
    plain = apply(calibration, {c.name: fit_class(c, tg, pp, calibration, shared_overhead_ms, factor_rows=())
                                for c in calibration.classes if has_factors(c)})
    # Decode only: the prompt runs would be scored for nothing.
    with_factors = _class_medians(leave_one_device_out(tg, [], calibration, shared_overhead_ms)[0], calibration)
    without = _class_medians(leave_one_device_out(tg, [], plain, shared_overhead_ms)[0], plain)
    classes = tuple(mine if with_factors.get(mine.name, math.inf) < without.get(mine.name, math.inf) else bare
                    for mine, bare in zip(calibration.classes, plain.classes, strict=True))
    return dataclasses.replace(calibration, classes=classes)


def _class_medians(pairs: Sequence[Pair], calibration: Calibration) -> dict[str, float]:
    return {name: s.median for name, s in grouped(pairs, lambda p: class_name(p, calibration)).items()}


def fit_all(tg: Sequence[Row], pp: Sequence[Row], calibration: Calibration) -> tuple[float, float, Calibration]:
    """(kv_read_factor, shared overhead, calibration with fitted classes) from scratch."""
    # (loss, overhead) of each KV read factor of the grid: the first with the least loss
    (_, overhead), kv = min(((fit_shared(tg, calibration.classes, step / 4), step / 4) for step in range(0, 17)),
                            key=lambda pair: pair[0][0])
    prompt = fit_prompt(pp, calibration)
    base = dataclasses.replace(calibration, kv_read_factor=kv, prompt_moe_factor=prompt.moe_factor)
    fitted = apply(base, fit_classes(tg, pp, base, overhead, prompt))
    return kv, overhead, keep_factors_that_help(tg, pp, fitted, overhead)
