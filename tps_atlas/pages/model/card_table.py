"""The table of cards on a model page and the lists beside it: fastest, smallest, chart."""

from __future__ import annotations

from markupsafe import Markup

from tps_atlas.catalogue.models import Model
from tps_atlas.estimate.fit import Fit
from tps_atlas.pages.figures import ModelFigures, Reach
from tps_atlas.estimate.offload import OffloadEstimate
from tps_atlas.pages.offload import offload_detail
from tps_atlas.i18n.phrases import N_, NP_
from tps_atlas.pages.model.context import PageContext
from tps_atlas.pages.model.values import PageValues
from tps_atlas.pages.model.rows import Row, card_href, fit_label, measured_mark

EXTREMES = 10            # rows in "the ten fastest"
SMALLEST_SHOWN = 5


def row(c: PageContext, e: Fit, m: Model | None = None) -> Row:
    f, card = c.f, e.card
    return Row(
        card=card.name, card_id=card.id, href=card_href(card), vendor=card.vendor, vram=f.vram(card.vram_gb),
        bandwidth=f.bandwidth(card.bandwidth_gb_s),
        released=f.month(card.released) if card.released else "",
        need=f.gb(e.need_gb), quant=e.quant.name, fit=fit_label(c.p, e.fit), fit_key=e.fit,
        tok_s=f.tok_s(e.tok_s), tok_range=f.tok_range(e.tok_s_low, e.tok_s_high),
        measured=measured_mark(c.p, c.measured(m, e), m) if m and e.fit != "offload" else None,
        offload=offload_detail(c.p, e) if isinstance(e, OffloadEstimate) else "")


def no_fit(c: PageContext, fig: ModelFigures, v: PageValues) -> Markup | None:
    # TRANSLATORS: {model} is the model's name. Example: "No card in our
    # catalogue can run GLM-5 at these settings."
    return None if fig.rows else c.p.t(N_("No device in our catalogue can run {model} at these settings."),
                                       **v.placeholders)


def disclaimer(c: PageContext) -> Markup:
    return c.p.t(N_("Speeds are estimates for a single request (one conversation at a time), worked "
                    "out from memory bandwidth, model size and quantization. Real throughput varies "
                    "with the inference software and its version. Figures published by hardware "
                    "vendors measure many simultaneous requests and are much higher."))


def smallest(c: PageContext, fig: ModelFigures) -> list[Row]:
    """The cards with least memory, in the one order the "smallest card" tile reads too."""
    return [row(c, e) for e in fig.smallest_rows[:SMALLEST_SHOWN]]


def list_titles(c: PageContext, m: Model, fig: ModelFigures) -> tuple[Markup, Markup]:
    """The headings of the fastest and smallest lists, for as many cards as they hold (Markup: the
    template must not escape the escaped model name again)."""
    p = c.p
    if fig.reach is Reach.ONE:
        # Others may run it with part of it in RAM: "holds it entirely" stays true beside them.
        # TRANSLATORS: {model} is the model's name; the device may be a card or a machine. Example: "Only one
        # device holds DeepSeek-V3 entirely" (the chart's singular title is "The only device that holds …").
        return p.t(N_("Only one device holds {model} entirely"), model=m.name), Markup("")
    fastest = min(fig.cards_fit, EXTREMES)
    # TRANSLATORS: {model} is the model's name; {count} is a count (small ones
    # in words; cards and machines). Example: "The ten fastest devices for GLM-130B"
    return (c.n_words(NP_("The fastest device for {model}", "The {count} fastest devices for {model}"), fastest,
                      model=m.name),
            # TRANSLATORS: {model} is the model's name; {count} is a count (small ones
            # in words; cards and machines). Example: "The five smallest devices that hold GLM-130B entirely"
            c.n_words(NP_("The smallest device that holds {model} entirely",
                          "The {count} smallest devices that hold {model} entirely"),
                      min(fig.cards_fit, SMALLEST_SHOWN), model=m.name))


def chart(c: PageContext, m: Model, fig: ModelFigures) -> dict:
    items = [(e.card.name, e.tok_s, c.f.tok_s(e.tok_s)) for e in fig.rows[:EXTREMES]]
    if not items:
        return {"chart_items": [], "chart_title": "", "chart_summary": ""}
    return {"chart_items": items,
            # TRANSLATORS: {model} is the model's name; {count} is a count (small ones
            # in words; the singular is said of the only device; cards and
            # machines). Example: "The ten fastest devices for GLM-130B"
            # Markup, not str: the chart template would escape the escaped name again.
            "chart_title": c.n_words(NP_("The only device that holds {model} entirely",
                                         "The {count} fastest devices for {model}"), len(items), model=m.name),
            # TRANSLATORS: {model} is the model's name; {items} is cards with their
            # speeds. Example: "Estimated tokens per second of the fastest devices for
            # GLM-130B: AMD Instinct MI300A (128 GB) (31.2 tok/s), H100 NVL 94
            # GB (29.6 tok/s), H800 SXM5 (26.9 tok/s), H100 SXM5 80 GB (26.9 tok/s),
            # B300 (26.1 tok/s), B200 (26.1 tok/s), H200 NVL (23.2 tok/s), H200 SXM
            # 141 GB (23.2 tok/s), Radeon Instinct MI350X (20.8 tok/s), and Radeon
            # Instinct MI355X (20.8 tok/s)."
            "chart_summary": (c.n_words(NP_("Estimated tokens per second of the only device that holds {model} "
                                            "entirely: {items}.",
                                            "Estimated tokens per second of the {count} fastest devices for {model}: "
                                            "{items}."), len(items), model=m.name,
                                    # TRANSLATORS: {card} is a card's name; {tok_s} is a speed in tokens per
                                    # second. Example: "AMD Instinct MI300A (128 GB) (31.2 tok/s)"
                                    items=c.f.names(str(c.p.t(N_("{card} ({tok_s})"), card=name, tok_s=value))
                                                    for name, _, value in items)))}
