"""What the commands print: aligned tables for a reader, JSON records for a script
(``--json``), rounded the same way.
"""

from __future__ import annotations

from typing import AbstractSet, Sequence

from tps_atlas.catalogue.cards import Card
from tps_atlas.catalogue.models import Model
from tps_atlas.estimate.fit import Estimate, Fit
from tps_atlas.pages.figures import ModelFigures
from tps_atlas.measured.runs import MeasuredIndex, Run
from tps_atlas.estimate.commands import fit_command, row_command
from tps_atlas.estimate.offload import OffloadEstimate
from tps_atlas.estimate.verdict import Fits, Multi, NoRun, Verdict


def table(headers: Sequence[str], rows: Sequence[Sequence[object]], right: AbstractSet[int] = frozenset()) -> str:
    """An aligned plain-text table; columns in ``right`` are right-aligned."""
    cells = [[str(h) for h in headers]] + [["" if v is None else str(v) for v in row] for row in rows]
    widths = [max(len(row[i]) for row in cells) for i in range(len(headers))]
    lines = []
    for row in cells:
        lines.append("  ".join(v.rjust(w) if i in right else v.ljust(w)
                               for i, (v, w) in enumerate(zip(row, widths, strict=True))).rstrip())
    lines.insert(1, "  ".join("-" * w for w in widths))
    return "\n".join(lines)


def card_json(card: Card) -> dict:
    return {"card": card.name, "card_id": card.id, "vendor": card.vendor,
            "vram_gb": card.vram_gb, "bandwidth_gb_s": card.bandwidth_gb_s,
            "released": card.released_month}


def rounded(value: float | None, digits: int = 2) -> float | None:
    return round(value, digits) if value is not None else None


def run_json(run: Run | None) -> dict | None:
    if run is None:
        return None
    return {"tok_s": run.tok_s, "backend": run.backend, "build": run.build, "date": run.date,
            "source": run.source, "model_name": run.model_name, "depth": run.depth}


def offload_json(e: Estimate) -> dict:
    """Keys of a row that runs with part of the model in system RAM."""
    if not isinstance(e, OffloadEstimate):
        return {}
    p = e.placement
    return {"ram_gb": rounded(p.ram_gb), "vram_used_gb": rounded(p.gpu_gb),
            "n_cpu_moe": p.cpu_layers if p.mode == "experts" else None,
            "ngl": p.gpu_layers if p.mode == "layers" else None}


def verdict_json(v: Verdict, model: Model, context: int, kv_precision: str | None) -> dict:
    """The verdict of a row: its kind; for a device that cannot hold the model alone, the shortfall
    (at the native format, else the most compressed allowed quant) and, for ``none``, the one reason;
    for ``multi``, the set of identical devices that holds it."""
    out: dict = {"kind": v.kind, "reason": None, "shortfall_gb": None,
                 "quant": v.estimate.quant.name if not isinstance(v, NoRun) else v.shortfall.quant_name,
                 "beyond_max_context": v.beyond_context}
    if not isinstance(v, Fits):
        out.update(shortfall_gb=round(v.shortfall.shown_gb, 2), shortfall_quant=v.shortfall.quant_name)
    if isinstance(v, NoRun):
        out["reason"] = v.reason.value
        out["raised"] = v.raised.fields(rounded) if v.raised else None
    if isinstance(v, Fits):
        out["fit"] = v.fit
    if isinstance(v, Multi):
        out.update(count=v.count, tok_s=rounded(v.estimate.tok_s), need_gb=rounded(v.estimate.need_gb),
                   command=fit_command(model, v.estimate, context, kv_precision, v.count))
    return out


def row_json(e: Estimate, measured: Run | None = None, command: str | None = None) -> dict:
    return {**card_json(e.card),
            "quant": e.quant.name if e.quant else None,
            "need_gb": rounded(e.need_gb),
            "tok_s": rounded(e.tok_s),
            "tok_s_low": rounded(e.tok_s_low),
            "tok_s_high": rounded(e.tok_s_high),
            "prompt_tok_s": rounded(e.prompt_tok_s, 1),
            "ttft_s": rounded(e.ttft_s, 3),
            "measured": run_json(measured),
            "fit": e.fit,
            **offload_json(e),
            "command": command}


def context_warnings(model: Model, context: int) -> list[str]:
    """What the figures cannot be trusted for: a context beyond what the model reads."""
    limit = model.architecture.max_context if model.architecture else None
    if limit is not None and context > limit:
        return [f"context {context:,} tokens is above {model.name}'s maximum of {limit:,} tokens: "
                "the model cannot use it, and the memory figures are extrapolated"]
    return []


def figures_json(f: ModelFigures, include_misses: bool, warnings: Sequence[str] = (),
                 index: MeasuredIndex | None = None) -> dict:
    miss = f.nearest_miss
    offloaded = {o.card.id for o in f.offload}
    rows = list(f.rows) + list(f.offload) + ([e for e in f.misses if e.card.id not in offloaded]
                                             if include_misses else [])

    def row(e: Estimate) -> dict:
        measured = index.find(f.model, e.quant.name, e.card) if index and e.quant and e.fit != "offload" else None
        return {**row_json(e, measured, row_command(f.model, e, f.context, f.kv_precision)),
                "verdict": verdict_json(f.verdict(e.card), f.model, f.context, f.kv_precision)}

    multi = None
    if f.multi:
        count = f.multi.count

        def one_set(e: Fit) -> dict:
            return {"card": e.card.name, "card_id": e.card.id, "quant": e.quant.name, "tok_s": rounded(e.tok_s),
                    "need_gb": rounded(e.need_gb),
                    "command": fit_command(f.model, e, f.context, f.kv_precision, count)}
        # The set the model page names (the least memory per device); the fastest set beside it.
        multi = {"rule": f.multi.rule, "count": count, **one_set(f.multi.cheapest),
                 "fastest": one_set(f.multi.fastest)}

    return {
        "model": f.model.id,
        "context": f.context,
        "min_quality": f.floor,
        "max_quality": f.ceiling,
        "calibration": f.calibration.name,
        "cards_total": f.cards_total,
        "cards_fit": f.cards_fit,
        "cards_run": f.cards_run,
        "median_tok_s": round(f.median_tok_s, 2) if f.median_tok_s is not None else None,
        "reading_speed_cards": f.reading_speed_cards,
        "quant_levels": len(f.quant_levels),
        "smallest": row(f.smallest) if f.smallest else None,
        "fastest": row(f.fastest) if f.fastest else None,
        "nearest_miss": {"card": miss.card.name, "card_id": miss.card.id, "vram_gb": miss.card.vram_gb,
                         "shortfall_gb": round(miss.shown_gb, 2), "quant": miss.quant_name,
                         "need_gb": round(miss.need_gb, 2)} if miss else None,
        "ram": {"size_gb": f.system.size_gb, "kind": f.system.kind.id, "name": f.system.kind.name,
                "bandwidth_gb_s": f.system.kind.bandwidth_gb_s},
        "cards_offload": len(f.offload),
        "multi": multi,
        "rows": [row(e) for e in rows],
        "warnings": list(warnings),
    }


def number(value: float | None, digits: int = 1) -> str:
    return "" if value is None else f"{value:,.{digits}f}"


def print_figures(f: ModelFigures, include_misses: bool, index: MeasuredIndex | None = None) -> None:
    # Memory in the pages' unit: GiB under the memory budget, as VRAM and RAM are sold.
    unit, gb_per_unit = f.calibration.memory_unit

    def memory(gb: float | None) -> str:
        return number(None if gb is None else gb / gb_per_unit)

    print(f"{f.model.name}: {f.cards_run} of {f.cards_total} devices run it, {f.cards_fit} entirely and "
          f"{f.cards_offload} with part in RAM "
          f"(context {f.context:,} tokens, quality {f.ceiling} down to {f.floor}, calibration {f.calibration.name})")
    if f.fastest and f.smallest and f.smallest.quant:
        print(f"fastest: {f.fastest.card.name} {number(f.fastest.tok_s)} tok/s; "
              f"smallest: {f.smallest.card.name} ({number(f.smallest.card.vram_gb, 0)} {unit}, "
              f"{f.smallest.quant.name}, {memory(f.smallest.need_gb)} {unit}); "
              f"median {number(f.median_tok_s)} tok/s; {f.reading_speed_cards} at reading speed")
    if f.nearest_miss:
        m = f.nearest_miss
        print(f"nearest miss: {m.card.name} ({number(m.card.vram_gb, 0)} {unit}), "
              f"{memory(m.shown_gb)} {unit} short at {m.quant_name}")
    offloaded = {o.card.id for o in f.offload}
    rows = list(f.rows) + list(f.offload) + ([e for e in f.misses if e.card.id not in offloaded]
                                             if include_misses else [])
    if f.offload:
        print(f"with offload to {number(f.system.size_gb, 0)} {unit} of {f.system.kind.name}: "
              f"{len(f.offload)} more cards")
    if f.multi:
        e = f.multi.cheapest
        print(f"smallest set of identical cards: {f.multi.count} x {e.card.name}, {e.quant.name}, "
              f"{number(e.tok_s)} tok/s")

    def measured(e: Estimate) -> str:
        run = (index.find(f.model, e.quant.name, e.card) if index and e.quant and e.fit != "offload"
               else None)
        return f"{number(run.tok_s)} ({run.backend} {run.date})" if run else ""

    print(table(
        ["tok/s", "range", "measured", "prompt tok/s", f"TTFT s @{f.context:,}", "card", "vendor", f"VRAM {unit}",
         "GB/s", "released", f"need {unit}", "quant", "fit"],
        [[number(e.tok_s), f"{number(e.tok_s_low, 0)}-{number(e.tok_s_high, 0)}" if e.tok_s else "",
          measured(e), number(e.prompt_tok_s, 0), number(e.ttft_s, 2),
          e.card.name, e.card.vendor, number(e.card.vram_gb, 0), number(e.card.bandwidth_gb_s, 0),
          e.card.released_month, memory(e.need_gb), e.quant.name if e.quant else "", e.fit]
         for e in rows],
        right={0, 3, 4, 7, 8, 10}))
