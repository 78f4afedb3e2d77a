"""Fitting and scoring the estimator's hardware classes on measured llama.cpp runs.

Runs come from data/measured/llama-cpp.tsv (``tps_atlas.measured.runs``): decode (tg) and prompt (pp)
runs on one GPU with everything on it, on a card of the catalogue, at a quant whose bits per
weight we know. ``benchmarks/accuracy.py`` prints the fit (constants to paste into
data/estimator.yaml; nothing is fitted at build time) and the scores; the methodology page
shows the same leave-one-device-out scores, computed here.

Decode, per class: seconds per token = (weights + kv_read_factor x KV cache at the run's mean
depth) / (bandwidth x efficiency) + overhead. Fitted by a robust (Huber) least squares on
log(estimate / measured): for a given ``kv_read_factor`` the classes are independent, each a
search over overhead (0.25 ms grid, pulled towards the all-card overhead so that a class with
one model size keeps a sensible value) and efficiency (golden section). A class with runs on
fewer than ``MIN_DEVICES`` devices takes its group's constants (else its vendor's).

Backends and quant families: a class's efficiency is for its reference backend (its ``backend``,
else the one with most runs) and the reference quant family (K-quants). Runs on other backends or
in other families (legacy Q4_0/Q8_0, I-quants, MXFP4, F16) get a factor on the efficiency: the
device-weighted median of log(measured / estimate) of their runs less that of the reference runs,
on the narrowest of own class, group, vendor and all cards where both come from ``MIN_DEVICES``
devices (else none). Efficiency and overhead (on runs scaled by the factors) and the factors are
fitted in turn, a few rounds. Quant factors enter every estimate; backend factors only the scores.

Leave one device out: every chip's runs are predicted by constants fitted without that chip
(its class refitted, factors included; ``kv_read_factor`` and the class's backend held), which is
how a card nobody measured is estimated.
"""

from __future__ import annotations

import dataclasses
import math
import statistics
from functools import lru_cache, partial
from typing import Callable, Iterable, Sequence

from tps_atlas.catalogue.load import Card, Model, load_catalogue
from tps_atlas.estimate.settings import (FACTOR_RANGE, Calibration, Quant, Settings, SpeedClass, kv_cache_gb,
                                         load_settings, class_prompt_tokens_per_second, prompt_tokens_per_second,
                                         tokens_per_second)
from tps_atlas.measured.runs import MEASURED_FILE, Run, chip_of, load_runs

MIN_DEVICES = 2          # a class needs runs on this many chips for constants of its own
HUBER_DELTA = 0.15       # residuals (log) beyond this count linearly: a few odd runs do not steer the fit
OVERHEAD_PULL = 0.02     # penalty per ms^2 away from the all-card overhead, per run
MAX_EFFICIENCY = 1.0     # no card reads faster than its bandwidth: a fit above it trades against the overhead
DEPTH_NEEDS_LAYOUT = 1024  # tokens of context beyond which a run's KV cache must come from a recorded layout
OVERHEAD_GRID_MS = [step / 4 for step in range(0, 49)]
COARSE_STEP = 4          # fit_decode first tries every fourth overhead of the grid
FACTOR_ROUNDS = 3        # efficiency and backend/quant factors are fitted in turn, at most this often
FACTOR_TOLERANCE = 0.01  # ... until no factor moves by more than this (log)


@dataclasses.dataclass(frozen=True)
class Row:
    run: Run
    model: Model
    quant: Quant
    card: Card
    kv_gb: float          # KV cache (f16) at the run's mean depth
    measured: float

    @property
    def chip(self) -> str:
        return chip_of(self.card)


def quant_of(name: str, settings: Settings) -> Quant | None:
    return settings.known_quant(name, -1)


def load_rows(test: str = "tg", runs: Sequence[Run] | None = None) -> tuple[list[Row], list[str]]:
    """(usable rows of one test, reasons rows were left out)."""
    catalogue, settings = load_catalogue(), load_settings()
    runs = load_runs() if runs is None else runs
    rows, skipped = [], []
    kv_bytes = settings.kv_bytes_per_element[settings.default_kv_precision]
    for run in runs:
        if run.test != test or not run.on_one_gpu:
            continue
        card = catalogue.cards_by_id.get(run.card)
        quant = quant_of(run.quant, settings)
        if card is None or quant is None:
            skipped.append(f"line {run.line}: " + ("card " + run.card if card is None else "quant " + run.quant))
            continue
        record = catalogue.models_by_id.get(run.model or "")
        if run.mean_depth > DEPTH_NEEDS_LAYOUT and not (record and record.architecture):
            # Deep in a context whose KV cache we cannot size (hybrid and linear-attention models
            # keep far less than the size-based guess): it would teach the fit nothing true.
            skipped.append(f"line {run.line}: depth {run.depth} without an attention layout")
            continue
        model = Model(run.model or run.model_name, run.model_name, str(MEASURED_FILE.name), True, run.params_b,
                      run.active_b, architecture=record.architecture if record else None,
                      per_layer_embedding_b=record.per_layer_embedding_b if record else None)
        if model.architecture:
            kv = kv_cache_gb(model.architecture, round(run.mean_depth), kv_bytes)
        else:
            kv = settings.kv_estimate_gb_per_1k_tokens * run.mean_depth / 1000
        rows.append(Row(run, model, quant, card, kv, run.tok_s))
    return rows, skipped


# ---------------------------------------------------------------- fitting

def _golden(f: Callable[[float], float], low: float, high: float, steps: int = 40) -> float:
    ratio = (math.sqrt(5) - 1) / 2
    a, b = low, high
    c, d = b - ratio * (b - a), a + ratio * (b - a)
    fc, fd = f(c), f(d)
    for _ in range(steps):
        if fc < fd:
            b, d, fd = d, c, fc
            c = b - ratio * (b - a)
            fc = f(c)
        else:
            a, c, fc = c, d, fd
            d = a + ratio * (b - a)
            fd = f(d)
    return (a + b) / 2


@dataclasses.dataclass(frozen=True)
class Factors:
    """A class's reference backend and its efficiency on other backends and quant families, as
    multiples of its own (none: the same)."""

    backend: str | None = None
    backends: dict[str, float] = dataclasses.field(default_factory=dict)
    families: dict[str, float] = dataclasses.field(default_factory=dict)

    def of(self, r: Row, leave_out: str = "") -> float:
        """The row's factor; ``leave_out`` ("backend" or "family") leaves that part at 1."""
        backend = 1.0 if leave_out == "backend" or r.run.backend == self.backend else \
            self.backends.get(r.run.backend, 1.0)
        family = 1.0 if leave_out == "family" else self.families.get(r.quant.family, 1.0)
        return backend * family

    def close_to(self, other: Factors) -> bool:
        return all(abs(math.log(mine.get(k, 1.0) / theirs.get(k, 1.0))) < FACTOR_TOLERANCE
                   for mine, theirs in ((self.backends, other.backends), (self.families, other.families))
                   for k in set(mine) | set(theirs))


NO_FACTORS = Factors()


def _memory_seconds(r: Row, kv_read_factor: float) -> float:
    """Seconds per token reading weights and KV cache at the full bandwidth."""
    return (r.model.read_parameters_b * r.quant.bits_per_weight / 8 + kv_read_factor * r.kv_gb) / r.card.bandwidth_gb_s


def _points(rows: Sequence[Row], kv_read_factor: float,
            factors: Factors = NO_FACTORS) -> list[tuple[float, float, float]]:
    """(seconds per token at efficiency 1 without overhead, measured tok/s, weight) per row, the
    first on the row's backend and quant family (``factors``) as if on the class's own.

    Each device weighs the same in all (its runs share one weight): a card measured forty
    times does not outvote the others of its class.
    """
    per_chip: dict[str, int] = {}
    for r in rows:
        per_chip[r.chip] = per_chip.get(r.chip, 0) + 1
    return [(_memory_seconds(r, kv_read_factor) / factors.of(r), r.measured, 1 / per_chip[r.chip]) for r in rows]


def _loss(points, efficiency: float, overhead_s: float) -> float:
    """Huber loss of the log errors, each row weighted: the fit's inner loop (millions of calls
    a build), written out for speed."""
    total, log, delta = 0.0, math.log, HUBER_DELTA
    for x, measured, w in points:
        r = abs(log(measured * (x / efficiency + overhead_s)))
        total += w * (r * r if r <= delta else delta * (2 * r - delta))
    return total


def _loss_at(points, overhead_s: float, efficiency: float) -> float:
    return _loss(points, efficiency, overhead_s)


def fit_decode(rows: Sequence[Row], kv_read_factor: float, pull_to_ms: float | None,
               factors: Factors = NO_FACTORS) -> tuple[float, float]:
    """(efficiency, overhead_ms) of one group of rows, each on its backend and quant family.

    The overhead is searched on every fourth step of the grid, then on the steps around the best
    one (the loss has one valley along it): a fifth of the work of the whole grid.
    """
    points = _points(rows, kv_read_factor, factors)
    weight = sum(w for _, _, w in points)
    tried: dict[int, tuple[float, float]] = {}

    def at(step: int) -> tuple[float, float]:
        if step not in tried:
            overhead_ms = OVERHEAD_GRID_MS[step]
            e = _golden(partial(_loss_at, points, overhead_ms / 1000), 0.05, MAX_EFFICIENCY)
            total = _loss(points, e, overhead_ms / 1000)
            if pull_to_ms is not None:
                total += OVERHEAD_PULL * weight * (overhead_ms - pull_to_ms) ** 2 / 10
            tried[step] = (total, e)
        return tried[step]

    coarse = min(range(0, len(OVERHEAD_GRID_MS), COARSE_STEP), key=lambda step: (at(step)[0], step))
    near = range(max(0, coarse - COARSE_STEP + 1), min(len(OVERHEAD_GRID_MS), coarse + COARSE_STEP))
    best = min(near, key=lambda step: (at(step)[0], step))
    return at(best)[1], OVERHEAD_GRID_MS[best]


def fit_shared(rows: Sequence[Row], classes: Sequence[SpeedClass], kv_read_factor: float) -> tuple[float, float]:
    """(loss, overhead_ms) with one overhead for all classes, each its own efficiency."""
    groups = group_rows(rows, classes)

    def loss(overhead_ms: float) -> float:
        total = 0.0
        for group in groups.values():
            points = _points(group, kv_read_factor)
            e = _golden(partial(_loss_at, points, overhead_ms / 1000), 0.05, MAX_EFFICIENCY, steps=30)
            total += _loss(points, e, overhead_ms / 1000)
        return total

    return min(((loss(overhead_ms), overhead_ms) for overhead_ms in OVERHEAD_GRID_MS[::2]), key=lambda b: b[0])


def class_of(card: Card, classes: Sequence[SpeedClass]) -> SpeedClass:
    for speed_class in classes:
        if speed_class.matches(card):
            return speed_class
    raise ValueError(card.id)  # read_calibration guarantees a catch-all class per vendor


def group_rows(rows: Iterable[Row], classes: Sequence[SpeedClass]) -> dict[str, list[Row]]:
    groups: dict[str, list[Row]] = {}
    for r in rows:
        groups.setdefault(class_of(r.card, classes).name, []).append(r)
    return groups


@dataclasses.dataclass(frozen=True)
class ClassFit:
    efficiency: float
    overhead_ms: float
    prompt_efficiency: float
    prompt_flop_per_byte: float
    own: bool            # fitted on its own runs (else its group's, vendor's or everyone's)
    factors: Factors = NO_FACTORS


def _prompt_ratio(rows: Sequence[Row], with_tflops: bool) -> float | None:
    """Median measured / estimated prompt speed at unit prompt constants."""
    ratios = []
    unit = SpeedClass("unit", (), (), (), 1.0, 0.0, 1.0, 1.0, 1.0, 1.0)
    for r in rows:
        if bool(r.card.compute_tflops) != with_tflops:
            continue
        estimate = class_prompt_tokens_per_second(r.model, r.card, unit)
        ratios.append(r.measured / estimate)
    return statistics.median(ratios) if ratios else None


def _factor_root(r: Row, kv_read_factor: float, efficiency: float, overhead_ms: float, other: float) -> float:
    """The multiple of the class's efficiency at which the estimate of this run meets the
    measurement (``other``: the run's factor in the other dimension, backend or family)."""
    left = 1 / r.measured - overhead_ms / 1000
    root = _memory_seconds(r, kv_read_factor) / (other * efficiency * left) if left > 0 else FACTOR_RANGE[1]
    return min(FACTOR_RANGE[1], max(FACTOR_RANGE[0], root))


def fit_factor(levels: Sequence[Sequence[Row]], matches: Callable[[Row], bool],
               is_reference: Callable[[Row], bool], dimension: str, kv_read_factor: float,
               efficiency: float, overhead_ms: float, factors: Factors) -> float | None:
    """exp(median log(measured / estimate)) of the matching runs, less the same of the reference
    runs (the class's backend or quant family), on the narrowest level where each come from
    ``MIN_DEVICES`` devices; None when no level has them. Measured against its reference runs, a
    factor borrowed from a wider level does not take on how far that level's other classes are
    from this one. ``dimension`` ("backend" or "family") is the factor fitted, the other one
    held at ``factors``."""
    def median_log(runs: Sequence[Row]) -> float:
        # Each device counts once (the median of its runs): one card measured often, or oddly,
        # does not set the factor.
        per_chip: dict[str, list[float]] = {}
        for r in runs:
            per_chip.setdefault(r.chip, []).append(math.log(_factor_root(r, kv_read_factor, efficiency, overhead_ms,
                                                                         factors.of(r, dimension))))
        return statistics.median(statistics.median(logs) for logs in per_chip.values())

    for level in levels:
        runs = [r for r in level if matches(r)]
        reference = [r for r in level if is_reference(r)]
        if min(len({r.chip for r in runs}), len({r.chip for r in reference})) >= MIN_DEVICES:
            return math.exp(median_log(runs) - median_log(reference))
    return None


def reference_backend(rows: Sequence[Row]) -> str | None:
    """The backend with most runs (on a tie, the first by name)."""
    counts: dict[str, int] = {}
    for r in rows:
        counts[r.run.backend] = counts.get(r.run.backend, 0) + 1
    return min(counts, key=lambda b: (-counts[b], b)) if counts else None


def fit_factors(levels: Sequence[Sequence[Row]], wanted: Sequence[Row], backend: str | None,
                reference_family: str, kv_read_factor: float, efficiency: float, overhead_ms: float,
                factors: Factors) -> Factors:
    """Factors for the backends and quant families of ``wanted`` other than the reference ones."""
    def backend_of(r: Row) -> str:
        return r.run.backend

    def family_of(r: Row) -> str:
        return r.quant.family

    fitted: dict[str, dict[str, float]] = {"backend": {}, "family": {}}
    for dimension, key, reference in (("backend", backend_of, backend), ("family", family_of, reference_family)):
        for name in sorted({key(r) for r in wanted} - {reference, ""}):
            f = fit_factor(levels, partial(_has, key, name), partial(_has, key, reference), dimension,
                           kv_read_factor, efficiency, overhead_ms, factors)
            if f is not None:
                fitted[dimension][name] = f
    return Factors(backend, fitted["backend"], fitted["family"])


def _has(key: Callable[[Row], str], value: str | None, r: Row) -> bool:
    return key(r) == value


def fit_class(speed_class: SpeedClass, tg: Sequence[Row], pp: Sequence[Row], calibration: Calibration,
              shared_overhead_ms: float, factor_rows: Sequence[Row] | None = None,
              reference_family: str | None = None) -> ClassFit:
    """Constants of one class: from its own runs, else its group's, its vendor's, everyone's.

    Efficiency and overhead, then a factor for each backend and quant family of ``factor_rows``
    (default: the class's own runs) other than its reference backend (the class's ``backend``,
    else the one with most runs) and ``reference_family``, in turn until the factors settle.
    """
    classes, kv = calibration.classes, calibration.kv_read_factor
    reference_family = reference_family or load_settings().reference_quant_family

    def widen(rows: Sequence[Row]) -> list[list[Row]]:
        own = [r for r in rows if class_of(r.card, classes) is speed_class]
        group = [r for r in rows if speed_class.group and class_of(r.card, classes).group == speed_class.group]
        vendor = [r for r in rows if not speed_class.vendors or r.card.vendor in speed_class.vendors]
        return [own, group, vendor, list(rows)]

    levels = widen(tg)
    decode = next(((group, i == 0) for i, group in enumerate(levels)
                   if len({r.chip for r in group}) >= MIN_DEVICES), (None, False))
    factors = Factors(speed_class.backend or reference_backend(decode[0] or []))
    if decode[0]:
        efficiency, overhead = fit_decode(decode[0], kv, shared_overhead_ms)
        wanted = levels[0] if factor_rows is None else factor_rows
        for _ in range(FACTOR_ROUNDS if wanted else 0):
            refit = fit_factors(levels, wanted, factors.backend, reference_family, kv, efficiency, overhead, factors)
            if refit.close_to(factors):
                break
            factors = refit
            efficiency, overhead = fit_decode(decode[0], kv, shared_overhead_ms, factors)
    else:
        efficiency, overhead = 0.7, shared_overhead_ms
    prompt = []
    for with_tflops, fallback in ((True, 0.3), (False, 100.0)):
        ratio = None
        for group in widen(pp):
            ratio = _prompt_ratio(group, with_tflops)
            if ratio:
                break
        prompt.append(ratio or fallback)
    return ClassFit(efficiency, overhead, prompt[0], prompt[1], decode[1], factors)


def fit_classes(tg: Sequence[Row], pp: Sequence[Row], calibration: Calibration,
                shared_overhead_ms: float) -> dict[str, ClassFit]:
    """Constants for every class of ``calibration``; thin classes take their vendor's."""
    return {c.name: fit_class(c, tg, pp, calibration, shared_overhead_ms) for c in calibration.classes}


def _clipped(factors: dict[str, float]) -> dict[str, float]:
    return {k: min(FACTOR_RANGE[1], max(FACTOR_RANGE[0], v)) for k, v in factors.items()}


def apply(calibration: Calibration, fits: dict[str, ClassFit]) -> Calibration:
    classes = tuple(dataclasses.replace(c, efficiency=fits[c.name].efficiency, overhead_ms=fits[c.name].overhead_ms,
                                        prompt_efficiency=fits[c.name].prompt_efficiency,
                                        prompt_flop_per_byte=fits[c.name].prompt_flop_per_byte,
                                        backend=fits[c.name].factors.backend,
                                        backend_factors=_clipped(fits[c.name].factors.backends),
                                        quant_factors=_clipped(fits[c.name].factors.families))
                    if c.name in fits else c for c in calibration.classes)
    return dataclasses.replace(calibration, classes=classes)


def fit_all(tg: Sequence[Row], pp: Sequence[Row], calibration: Calibration) -> tuple[float, float, Calibration]:
    """(kv_read_factor, shared overhead, calibration with fitted classes) from scratch."""
    # (loss, overhead) of each KV read factor of the grid: the first with the least loss
    (_, overhead), kv = min(((fit_shared(tg, calibration.classes, step / 4), step / 4) for step in range(0, 17)),
                            key=lambda pair: pair[0][0])
    base = dataclasses.replace(calibration, kv_read_factor=kv)
    return kv, overhead, keep_factors_that_help(tg, pp, apply(base, fit_classes(tg, pp, base, overhead)), overhead)


def has_factors(speed_class: SpeedClass) -> bool:
    return bool(speed_class.backend_factors or speed_class.quant_factors)


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
    tok_s = prompt_tokens_per_second(r.model, r.card, calibration)
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
        held = apply(calibration, {speed_class.name: fit_class(
            speed_class, [r for r in tg if r.chip != chip], [r for r in pp if r.chip != chip],
            calibration, shared_overhead_ms, own)})
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


def grouped(pairs: Sequence[Pair], key: Callable[[Pair], object]) -> dict:
    groups: dict = {}
    for pair in pairs:
        groups.setdefault(key(pair), []).append(pair)
    return {k: score(v) for k, v in sorted(groups.items())}


@lru_cache(maxsize=4)
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
                    tuple(tg_pairs), grouped(pp_pairs, lambda p: class_name(p, calibration)))


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
