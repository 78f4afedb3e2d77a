"""The table of cards on a model page and the lists beside it: fastest, smallest, chart."""

from __future__ import annotations

from markupsafe import Markup

from ..catalogue import Model
from ..estimator import Estimate
from ..figures import ModelFigures
from ..offload import OffloadEstimate
from ..offload_pages import offload_detail
from ..phrases import N_
from .context import PageContext
from .rows import Row, card_href, fit_label, measured_mark

EXTREMES = 10            # rows in "the ten fastest"
SMALLEST_SHOWN = 5


def row(c: PageContext, e: Estimate, m: Model | None = None) -> Row:
    f, card = c.f, e.card
    return Row(
        card=card.name, card_id=card.id, href=card_href(card), vendor=card.vendor, vram=f.vram(card.vram_gb),
        bandwidth=f.bandwidth(card.bandwidth_gb_s),
        released=f.month(card.released) if card.released else "",
        need=f.gb(e.need_gb) if e.need_gb is not None else "",
        quant=e.quant.name if e.quant else "", fit=fit_label(c.p, e.fit), fit_key=e.fit,
        tok_s=f.tok_s(e.tok_s) if e.tok_s else "",
        tok_range=f.tok_range(e.tok_s_low, e.tok_s_high) if e.tok_s else "",
        measured=measured_mark(c.p, c.measured(m, e), m) if m and e.fit != "offload" else None,
        offload=offload_detail(c.p, e) if isinstance(e, OffloadEstimate) else "")


def no_fit(c: PageContext, fig: ModelFigures, v: dict) -> Markup | None:
    return None if fig.rows else c.p.t(N_("No card in our catalogue can run {model} at these settings."), **v)


def disclaimer(c: PageContext) -> Markup:
    return c.p.t(N_("Speeds are estimates for a single request (one conversation at a time), worked "
                    "out from memory bandwidth, model size and quantization. Real throughput varies "
                    "with the inference software and its version. Figures published by hardware "
                    "vendors measure many simultaneous requests and are much higher."))


def smallest(c: PageContext, fig: ModelFigures) -> list[Row]:
    ordered = sorted(fig.rows, key=lambda e: (e.card.vram_gb, -(e.tok_s or 0)))
    return [row(c, e) for e in ordered[:SMALLEST_SHOWN]]


def chart(c: PageContext, m: Model, fig: ModelFigures) -> dict:
    items = [(e.card.name, e.tok_s, c.f.tok_s(e.tok_s)) for e in fig.rows[:EXTREMES]]
    if not items:
        return {"chart_items": [], "chart_title": "", "chart_summary": ""}
    return {"chart_items": items,
            "chart_title": (c.p.t(N_("The ten fastest cards for {model}"), model=m.name)),
            "chart_summary": (c.p.t(N_("Estimated tokens per second of the fastest cards for {model}: "
                                       "{items}."), model=m.name,
                                    items=c.f.names(f"{name} {value}" for name, _, value in items)))}
