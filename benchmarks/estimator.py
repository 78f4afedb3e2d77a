"""Estimator speed: one model against the whole card catalogue, and every model x card x quant.

Run: python3 benchmarks/estimator.py
Targets on the 2-core reference machine: under 50 ms and under 1 s.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tps_atlas.catalogue.load import load_catalogue  # noqa: E402
from tps_atlas.estimate.fit import candidate_memories, estimate  # noqa: E402
from tps_atlas.estimate.settings import load_settings  # noqa: E402
from tps_atlas.pages.figures import model_figures  # noqa: E402


def best_of(runs: int, work) -> float:
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        work()
        times.append(time.perf_counter() - start)
    return min(times)


def main() -> None:
    catalogue = load_catalogue()
    settings = load_settings()
    calibration = settings.calibration()
    model = catalogue.model("glm-130b")
    one = best_of(5, lambda: model_figures(model, catalogue.cards, settings, calibration))

    def everything():
        for m in catalogue.models:
            for quant in settings.quants:
                candidates = candidate_memories(m, settings, quant=quant.name)
                for card in catalogue.cards:
                    estimate(m, card, settings, calibration, candidates=candidates)

    pairs = len(catalogue.models) * len(catalogue.cards) * len(settings.quants)
    full = best_of(3, everything)
    print(f"cards={len(catalogue.cards)} models={len(catalogue.models)} quants={len(settings.quants)}")
    print(f"one model x all cards (page figures): {one * 1000:.1f} ms (target < 50 ms)")
    print(f"all models x all cards x all quants ({pairs:,} estimates): {full * 1000:.0f} ms (target < 1000 ms)")
    print(f"one_model_ms={one * 1000:.1f} all_ms={full * 1000:.0f}")


if __name__ == "__main__":
    main()
