"""Estimator accuracy against measured llama.cpp decode speeds (data/measured-llama-cpp.tsv).

Only single-GPU rows are used; rows whose GPU has no catalogue card, directly or through
``GPU_ALIASES``, are skipped. ``score`` gives the median and 90th-percentile absolute
relative error and the share of measurements inside the shown range. The methodology page
and ``benchmarks/accuracy.py`` both read it from here.
"""

from __future__ import annotations

import csv
import dataclasses
import math
import statistics
from pathlib import Path

from .catalogue import DATA_DIR, Card, Model, load_catalogue
from .estimator import Calibration, Quant, load_settings, tokens_per_second

MEASUREMENTS = DATA_DIR / "measured-llama-cpp.tsv"

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


def split_speeds(example: dict[str, str], path: Path = MEASUREMENTS) -> dict[int, float]:
    """Measured tok/s of one model on 1, 2, 4 ... identical cards (the layers split across them)."""
    speeds = {}
    with open(path, newline="", encoding="utf-8") as handle:
        for line in csv.DictReader(handle, delimiter="\t"):
            if (line["model"], line["quant"], line["gpu_name"]) == (example["model"], example["quant"], example["gpu"]):
                speeds[int(line["n_gpus"])] = float(line["tg_tokens_per_s"])
    return speeds
