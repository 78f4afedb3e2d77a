"""Estimator accuracy against measured llama.cpp decode speeds, for each calibration.

Run: python3 benchmarks/accuracy.py           (score every calibration in data/estimator.yaml)
     python3 benchmarks/accuracy.py --fit     (also refit the ``measured`` constants and print them)

Data: tests/fixtures/measured-llama-cpp.tsv (copied from the team's reference folder; each
row keeps its ``source``). Only single-GPU rows (n_gpus = 1) are used, and only at quants the
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
import csv
import dataclasses
import math
import statistics
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from macros.catalogue import Card, Model, load_catalogue  # noqa: E402
from macros.estimator import Calibration, Quant, load_settings, tokens_per_second  # noqa: E402

MEASUREMENTS = ROOT / "tests" / "fixtures" / "measured-llama-cpp.tsv"

# Measurement GPU names -> catalogue card names, where they are not spelt the same.
# Chips sold in several memory sizes map to a card with the same bandwidth.
GPU_ALIASES = {
    "3070 8GB": "GeForce RTX 3070",
    "3080 10GB": "GeForce RTX 3080",
    "3080 Ti 12GB": "GeForce RTX 3080 Ti",
    "4070 Ti 12GB": "GeForce RTX 4070 Ti",
    "4080 16GB": "GeForce RTX 4080",
    "3090 24GB": "GeForce RTX 3090",
    "4090 24GB": "GeForce RTX 4090",
    "RTX 4000 Ada 20GB": "RTX 4000 Ada Generation",
    "RTX 5000 Ada 32GB": "RTX 5000 Ada Generation",
    "RTX A6000 48GB": "RTX A6000",
    "RTX 6000 Ada 48GB": "RTX 6000 Ada Generation",
    "A40 48GB": "A40 PCIe",
    "L40S 48GB": "L40S",
    "A100 PCIe 80GB": "A100 PCIe 80 GB",
    "A100 SXM 80GB": "A100 SXM4 80 GB",
    "H100 PCIe 80GB": "H100 PCIe 80 GB",
    "M1 Max 32-Core GPU 64GB": "Apple M1 Max (64 GB)",
    "M2 Ultra 76-Core GPU 192GB": "Apple M2 Ultra (192 GB)",
    "M3 Max 40-Core GPU 64GB": "Apple M3 Max (128 GB)",  # same 400 GB/s chip; no 64 GB card
    "NVIDIA GeForce RTX 4070 Ti": "GeForce RTX 4070 Ti",
    "NVIDIA RTX A4000": "RTX A4000",
    "NVIDIA GeForce RTX 3060 12GB": "GeForce RTX 3060 12 GB",
    "NVIDIA GB10 (Dell Pro Max / DGX Spark class)": "NVIDIA DGX Spark (GB10, 128 GB)",
    "Apple M3 Ultra (Mac Studio 512GB)": "Apple M3 Ultra (512 GB)",
    "AMD Radeon AI Pro R9700": "Radeon AI PRO R9700",
    "AMD Radeon RX 7900 XT": "Radeon RX 7900 XT",
    "AMD Radeon RX 6700 XT": "Radeon RX 6700 XT",
    "AMD Radeon RX 580": "Radeon RX 580",
    "Intel Arc B580": "Arc B580",
}

F16 = Quant("F16", 16.0, -1)


@dataclasses.dataclass(frozen=True)
class Row:
    source: str
    model: Model
    quant: Quant
    card: Card
    measured: float


def _key(text: str) -> str:
    return "".join(ch for ch in text.casefold() if ch.isalnum())


def load_rows(path: Path = MEASUREMENTS) -> tuple[list[Row], list[Row], list[str]]:
    """(rows at estimator quants, F16 rows, skipped GPU names) of the single-GPU measurements."""
    catalogue, settings = load_catalogue(), load_settings()
    cards = {card.name: card for card in catalogue.cards}
    models = {_key(m.name): m for m in catalogue.models} | {_key(m.id): m for m in catalogue.models}
    known, f16, skipped = [], [], []
    with open(path, newline="", encoding="utf-8") as handle:
        for line in csv.DictReader(handle, delimiter="\t"):
            if int(line["n_gpus"]) != 1:
                continue
            card = cards.get(line["gpu_name"]) or cards.get(GPU_ALIASES.get(line["gpu_name"], ""))
            if card is None:
                skipped.append(line["gpu_name"])
                continue
            params = float(line["params_billion"])
            # Mixture-of-experts: read the active parameters, from the catalogue's record.
            record = models.get(_key(line["model"]))
            active = record.active_parameters_b if record else None
            model = Model(_key(line["model"]), line["model"], str(path.name), True, params, active)
            if line["quant"] == "F16":
                f16.append(Row(line["source"], model, F16, card, float(line["tg_tokens_per_s"])))
                continue
            quant = settings.quant(line["quant"])
            known.append(Row(line["source"], model, quant, card, float(line["tg_tokens_per_s"])))
    return known, f16, skipped


# ---------------------------------------------------------------- scoring

def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    position = (len(ordered) - 1) * share
    low, high = math.floor(position), math.ceil(position)
    return ordered[low] + (ordered[high] - ordered[low]) * (position - low)


@dataclasses.dataclass(frozen=True)
class Score:
    rows: int
    median: float
    p90: float
    inside: float

    def line(self) -> str:
        return (f"rows {self.rows}, median |error| {self.median:.1%}, p90 {self.p90:.1%}, "
                f"inside range {self.inside:.1%}")


def score(pairs: list[tuple[float, float]], calibration: Calibration) -> Score:
    """``pairs`` of (estimate, measured)."""
    errors = [abs(est / measured - 1) for est, measured in pairs]
    inside = [est * calibration.range_low <= measured <= est * calibration.range_high
              for est, measured in pairs]
    return Score(len(pairs), statistics.median(errors), percentile(errors, 0.9),
                 sum(inside) / len(inside))


def estimates(rows: list[Row], calibration: Calibration) -> list[tuple[float, float]]:
    return [(tokens_per_second(r.model, r.quant, r.card, calibration), r.measured) for r in rows]


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
