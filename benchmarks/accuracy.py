"""Estimator accuracy against measured llama.cpp decode speeds, for each calibration.

Run: python3 benchmarks/accuracy.py           (score every calibration in data/estimator.yaml)
     python3 benchmarks/accuracy.py --fit     (also refit the ``measured`` constants and print them)

Data: data/measured-llama-cpp.tsv (copied from the team's reference folder; each row keeps
its ``source``), read through macros/accuracy.py. Only single-GPU rows (n_gpus = 1) are used, and only at quants the
estimator knows (data/estimator.yaml ``quants``); F16 rows are scored separately for the
``measured`` calibration as an out-of-sample check (16 bits per weight, quant efficiency 1).
Rows whose GPU has no catalogue card, directly or through ``GPU_ALIASES``, are skipped and listed.

Per calibration it prints: rows used, median and 90th-percentile absolute relative error
|estimate / measured - 1|, the share of measurements inside the shown range (low x .. high x
the estimate), and for ``measured`` the leave-one-GPU-out errors (refit without each card,
predict that card). The last line is key=value for scripts.
"""

from __future__ import annotations

import argparse
import dataclasses
import math
import statistics
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from macros.accuracy import MEASUREMENTS, Row, estimates, load_rows, score  # noqa: E402
from macros.catalogue import Card  # noqa: E402
from macros.estimator import Calibration, load_settings  # noqa: E402



# ---------------------------------------------------------------- fitting the measured form

def card_class(card: Card, memory_types: tuple[str, ...]) -> str:
    return card.memory_type if card.memory_type in memory_types else card.vendor


def _golden(f, low: float, high: float, steps: int = 60) -> float:
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


def fit(rows: list[Row], memory_types: tuple[str, ...]) -> tuple[dict[str, float], float]:
    """Least squares on log(estimate / measured): one efficiency per card class, one overhead.

    Classes are the memory types listed (HBM) and otherwise the vendor. For a given overhead
    the classes are independent, so each efficiency is a one-dimensional search; the overhead
    is searched on a 0.01 ms grid.
    """
    groups: dict[str, list[tuple[float, float, float]]] = {}
    for r in rows:
        gb = r.model.read_parameters_b * r.quant.bits_per_weight / 8
        groups.setdefault(card_class(r.card, memory_types), []).append((gb, r.card.bandwidth_gb_s, r.measured))

    def class_loss(points, efficiency, overhead_s):
        return sum(math.log(1 / (gb / (bw * efficiency) + overhead_s) / m) ** 2 for gb, bw, m in points)

    best = None
    for step in range(0, 601):
        overhead_s = step / 100 / 1000
        efficiencies, total = {}, 0.0
        for name, points in groups.items():
            e = _golden(lambda x: class_loss(points, x, overhead_s), 0.05, 2.0)
            efficiencies[name] = e
            total += class_loss(points, e, overhead_s)
        if best is None or total < best[0]:
            best = (total, efficiencies, overhead_s * 1000)
    return best[1], best[2]


def fitted_calibration(base: Calibration, efficiencies: dict[str, float], overhead_ms: float,
                       memory_types: tuple[str, ...]) -> Calibration:
    """``base`` with fitted constants; a class missing from the fit gets the median efficiency."""
    fallback = statistics.median(efficiencies.values())
    vendors = {v: efficiencies.get(v, fallback) for v in base.vendor_factors}
    memory = {t: efficiencies.get(t, fallback) for t in memory_types}
    return dataclasses.replace(base, vendor_factors=vendors, memory_type_factors=memory,
                               overhead_ms=overhead_ms)


def leave_one_gpu_out(rows: list[Row], base: Calibration) -> list[tuple[float, float]]:
    memory_types = tuple(base.memory_type_factors)
    pairs = []
    for name in sorted({r.card.name for r in rows}):
        train = [r for r in rows if r.card.name != name]
        held = [r for r in rows if r.card.name == name]
        calibration = fitted_calibration(base, *fit(train, memory_types), memory_types)
        pairs += estimates(held, calibration)
    return pairs


# ---------------------------------------------------------------- report

def main(argv: list[str] | None = None) -> dict[str, float]:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--fit", action="store_true", help="refit the measured constants and print them")
    args = parser.parse_args(argv)
    settings = load_settings()
    rows, f16_rows, skipped = load_rows()
    print(f"measurements: {MEASUREMENTS.relative_to(ROOT)}; single-GPU rows at estimator quants: "
          f"{len(rows)}; F16 rows: {len(f16_rows)}; skipped (no card): {', '.join(skipped) or 'none'}")
    summary: dict[str, float] = {}
    for name, calibration in settings.calibrations.items():
        s = score(estimates(rows, calibration), calibration)
        print(f"{name:9} range {calibration.range_low:g}x-{calibration.range_high:g}x: {s.line()}")
        summary |= {f"{name}_rows": s.rows, f"{name}_median": s.median, f"{name}_p90": s.p90,
                    f"{name}_inside": s.inside}
    if "measured" in settings.calibrations:
        measured = settings.calibration("measured")
        logo = score(leave_one_gpu_out(rows, measured), measured)
        print(f"measured  leave-one-GPU-out: {logo.line()}")
        with_f16 = dataclasses.replace(measured, quant_efficiency={**measured.quant_efficiency, "F16": 1.0})
        f16 = score(estimates(f16_rows, with_f16), measured)
        print(f"measured  F16 rows (not fitted): {f16.line()}")
        summary |= {"measured_logo_median": logo.median, "measured_logo_p90": logo.p90,
                    "measured_logo_inside": logo.inside, "measured_f16_median": f16.median,
                    "measured_f16_p90": f16.p90}
        if args.fit:
            memory_types = tuple(measured.memory_type_factors)
            efficiencies, overhead = fit(rows, memory_types)
            print("fitted: overhead_ms: %.2f; efficiencies: %s" % (
                overhead, ", ".join(f"{k}: {v:.3f}" for k, v in sorted(efficiencies.items()))))
    print(" ".join(f"{k}={v:.4f}" if isinstance(v, float) else f"{k}={v}" for k, v in summary.items()))
    return summary


if __name__ == "__main__":
    main()
