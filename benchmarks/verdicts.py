"""Runs that happened the estimator denies, failures it accepts, and the pairs the memory budget moves.

Run: python3 benchmarks/verdicts.py            (the same as python3 benchmarks/accuracy.py --verdicts)

Before = the measured calibration judged by the seed's rule (need <= 0.90 x VRAM, 8 GB of RAM kept);
after = the memory budget (tps_atlas/estimate/budget.py). Counting: tps_atlas/measured/verdict_check.py.
Pair moves: every
model on every device of the catalogue at the default settings (4,096 tokens, Q3_K_M floor, Q8_0
ceiling, 64 GB of DDR5-6000 beside a card), each verdict before and after: fits, offload, none,
raised (a unified machine that holds it once its GPU limit is raised; none before the budget).
"""

from __future__ import annotations

import sys
from collections import Counter
from dataclasses import replace
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tps_atlas.catalogue.load import load_catalogue  # noqa: E402
from tps_atlas.estimate.calibration import Calibration  # noqa: E402
from tps_atlas.estimate.settings import Settings, load_settings  # noqa: E402
from tps_atlas.estimate.fit import candidate_memories, estimate  # noqa: E402
from tps_atlas.measured.runs import load_runs  # noqa: E402
from tps_atlas.estimate.offload import RamSettings, load_ram, offload_candidates, offload_estimate  # noqa: E402
from tps_atlas.measured.offload_accuracy import ram_texts  # noqa: E402
from tps_atlas.measured.oom_reports import OOM_FILE, load_reports  # noqa: E402
from tps_atlas.measured.verdict_check import Judge, judge_all, tally  # noqa: E402

KINDS = (("device", "runs that happened, every layer on the device, denied"),
         ("offload", "runs that happened with part in RAM, denied"),
         ("failed", "reported out-of-memory failures, accepted"))


def verdict_counts(calibration: Calibration, settings: Settings, ram: RamSettings, show: bool) -> dict[str, float]:
    judged, left = judge_all(Judge(settings, calibration, ram, load_catalogue()), load_runs(), ram_texts(),
                             load_reports())
    summary: dict[str, float] = {}
    for kind, label in KINDS:
        t = tally(judged, kind)
        raised = sum(1 for j in judged if j.kind == kind and j.raised and not j.accepted)
        # Admitted, not denied: the pages say "yes, with the GPU allowed N GB" and how.
        extra = f"; {raised} more held only with the GPU limit raised" if raised and kind != "failed" else ""
        print(f"  {label}: {t.wrong} of {t.total} ({t.share:.1%}){extra}")
        if show:
            for miss in t.misses:
                print(f"      {miss.label}: needs {miss.need_gb:.2f} GB, room {miss.room_gb:.2f} GB  {miss.source}")
        summary |= {f"{kind}_total": t.total, f"{kind}_wrong": t.wrong, f"{kind}_share": t.share}
    print(f"  rows that cannot be judged (card, quant, model layout or RAM size unknown): {left}")
    return summary


def verdict_of(model, card, settings: Settings, calibration: Calibration, ram: RamSettings, candidates,
               offload_memories) -> str:
    e = estimate(model, card, settings, calibration, candidates=candidates)
    if e.fits:
        return "fits"
    if getattr(e, "raised", None) is not None:
        return "raised"
    if not card.unified and offload_estimate(model, card, settings, calibration, ram.system(), ram,
                                             candidates=offload_memories) is not None:
        return "offload"
    return "none"


def pair_moves(settings: Settings, calibration: Calibration, ram: RamSettings) -> Counter:
    """(before, after) -> pairs, over every model and device at the default settings."""
    catalogue = load_catalogue()
    before_rule = replace(calibration, fit_rule="share")
    moves: Counter = Counter()
    for model in catalogue.models:
        candidates = candidate_memories(model, settings)
        offload_memories = offload_candidates(model, settings, ram, settings.context_tokens)
        for card in catalogue.cards:
            moves[verdict_of(model, card, settings, before_rule, ram, candidates, offload_memories),
                  verdict_of(model, card, settings, calibration, ram, candidates, offload_memories)] += 1
    return moves


def verdict_report(moves: bool = True) -> dict[str, float]:
    settings, ram = load_settings(), load_ram()
    calibration = settings.calibration()
    print("\nverdicts over every measured run (data/measured/llama-cpp.tsv) and out-of-memory report "
          f"({OOM_FILE.relative_to(ROOT)}):")
    print("before (the seed's rule: need <= 0.90 x VRAM, 8 GB of RAM kept):")
    before = verdict_counts(replace(calibration, fit_rule="share"), settings, ram, show=False)
    print("after (the memory budget, tps_atlas/estimate/budget.py):")
    after = verdict_counts(calibration, settings, ram, show=True)
    summary = {f"before_{k}": v for k, v in before.items()} | {f"after_{k}": v for k, v in after.items()}
    if moves:
        counted = pair_moves(settings, calibration, ram)
        print("\n(model, device) pairs at the default settings, verdict before -> after:")
        for (old, new), n in sorted(counted.items(), key=lambda item: -item[1]):
            print(f"  {old:8} -> {new:8} {n:7,}{'' if old != new else '  (unchanged)'}")
        summary["pairs_moved"] = sum(n for (old, new), n in counted.items() if old != new)
    return summary


if __name__ == "__main__":
    result = verdict_report()
    print(" ".join(f"{k}={v:.4f}" if isinstance(v, float) else f"{k}={v}" for k, v in result.items()))
