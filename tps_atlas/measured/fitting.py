"""Fitting the estimator's hardware classes on measured llama.cpp runs (scored in
``tps_atlas.measured.accuracy``).

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

"""

from __future__ import annotations

import dataclasses
import math
import statistics
from functools import partial
from typing import Callable, Iterable, Sequence

from tps_atlas.catalogue.cards import Card
from tps_atlas.catalogue.models import Model
from tps_atlas.catalogue.load import load_catalogue
from tps_atlas.estimate.calibration import FACTOR_RANGE, Calibration, SpeedClass
from tps_atlas.estimate.settings import Settings, load_settings
from tps_atlas.estimate.memory import kv_cache_gb
from tps_atlas.catalogue.quants import Quant
from tps_atlas.measured.runs import MEASURED_FILE, Run, chip_of, load_runs
from tps_atlas.measured.prompt_fit import PromptGlobals, fit_class_prompt, fit_prompt_globals, held_globals

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
    kv_gb: float          # KV cache (f16) at the run's mean depth (a prompt's: over its tokens too)
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
        # A prompt's tokens attend to a cache that grows over the prompt too: its mean is at
        # depth + tokens / 2 (a prompt's depth alone decides whether it is kept, as before).
        depth = run.mean_depth if test == "tg" else run.depth + run.tokens / 2
        if model.architecture:
            kv = kv_cache_gb(model.architecture, round(depth), kv_bytes)
        else:
            kv = settings.kv_estimate_gb_per_1k_tokens * depth / 1000
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
    prompt_kv_flop_per_byte: float = 0.0


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
              reference_family: str | None = None, prompt: PromptGlobals | None = None) -> ClassFit:
    """Constants of one class: from its own runs, else its group's, its vendor's, everyone's.

    Efficiency and overhead, then a factor for each backend and quant family of ``factor_rows``
    (default: the class's own runs) other than its reference backend (the class's ``backend``,
    else the one with most runs) and ``reference_family``, in turn until the factors settle.
    Prompt constants: ``tps_atlas.measured.prompt_fit``, with ``prompt``'s MoE factor and attention
    FLOP per KV byte (default: the calibration's own).
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
    prompt_efficiency, flop_per_byte, kv_flop = fit_class_prompt(speed_class, widen(pp), classes,
                                                                 prompt or held_globals(calibration))
    return ClassFit(efficiency, overhead, prompt_efficiency, flop_per_byte, decode[1], factors, kv_flop)


def fit_classes(tg: Sequence[Row], pp: Sequence[Row], calibration: Calibration,
                shared_overhead_ms: float, prompt: PromptGlobals | None = None) -> dict[str, ClassFit]:
    """Constants for every class of ``calibration``; thin classes take their vendor's."""
    return {c.name: fit_class(c, tg, pp, calibration, shared_overhead_ms, prompt=prompt) for c in calibration.classes}


def fit_prompt(pp: Sequence[Row], calibration: Calibration) -> PromptGlobals:
    """The prompt constants shared by the classes (MoE factor, attention FLOP per KV byte by backend)."""
    return fit_prompt_globals(pp, calibration.classes)


def _clipped(factors: dict[str, float]) -> dict[str, float]:
    return {k: min(FACTOR_RANGE[1], max(FACTOR_RANGE[0], v)) for k, v in factors.items()}


def apply(calibration: Calibration, fits: dict[str, ClassFit]) -> Calibration:
    classes = tuple(dataclasses.replace(c, efficiency=fits[c.name].efficiency, overhead_ms=fits[c.name].overhead_ms,
                                        prompt_efficiency=fits[c.name].prompt_efficiency,
                                        prompt_flop_per_byte=fits[c.name].prompt_flop_per_byte,
                                        prompt_kv_flop_per_byte=fits[c.name].prompt_kv_flop_per_byte,
                                        backend=fits[c.name].factors.backend,
                                        backend_factors=_clipped(fits[c.name].factors.backends),
                                        quant_factors=_clipped(fits[c.name].factors.families))
                    if c.name in fits else c for c in calibration.classes)
    return dataclasses.replace(calibration, classes=classes)


def has_factors(speed_class: SpeedClass) -> bool:
    return bool(speed_class.backend_factors or speed_class.quant_factors)
