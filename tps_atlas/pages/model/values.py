"""Placeholder values many sentences of a model page share, formatted once."""

from __future__ import annotations

from tps_atlas.catalogue.models import Model
from tps_atlas.pages.figures import ModelFigures
from tps_atlas.i18n.names import Name, card_name, joined_name, organisation_name
from tps_atlas.i18n.phrases import N_
from tps_atlas.pages.model.context import PageContext

# TRANSLATORS: {vram} is a card's memory, in "with {small_memory}". Example:
# "24 GB of memory"
MEMORY = N_("{vram} of memory")
# TRANSLATORS: {vram} is the share of a machine's memory its GPU may use (the
# machine's name already says the whole, "Apple M2 Max (96 GB)"), in "with
# {small_memory}". Example: "72 GB usable by the GPU"
MEMORY_UNIFIED = N_("{vram} usable by the GPU")


def organisations(c: PageContext, m: Model) -> Name:
    """The organisations that made a model, as one name a sentence can decline."""
    return joined_name((organisation_name(o, c.p.language) for o in m.organisations), c.p.language)


def common(c: PageContext, m: Model, fig: ModelFigures) -> dict:
    f = c.f
    values: dict[str, object] = {"model": m.name, "params": f.parameters(m.parameters_b),
                                 "total": f.count(fig.cards_total), "fit_count": f.count(fig.cards_fit),
                                 "context": f.count(fig.context), "floor": fig.floor}
    if m.active_parameters_b:
        values["active"] = f.parameters(m.active_parameters_b)
    if fig.smallest:
        s = fig.smallest
        values.update(small_card=card_name(s.card, c.p.language), small_vram=f.vram(s.card.vram_gb),
                      small_quant=s.quant.name, small_need=f.gb(s.need_gb),
                      small_tok_s=f.tok_s(s.tok_s),
                      small_memory=str(c.p.t(MEMORY_UNIFIED if s.card.unified else MEMORY,
                                             vram=f.vram(s.card.vram_gb))))
    if fig.fastest:
        q = fig.fastest
        values.update(fast_card=card_name(q.card, c.p.language), fast_tok_s=f.tok_s(q.tok_s),
                      fast_vram=f.vram(q.card.vram_gb), fast_quant=q.quant.name,
                      fast_bandwidth=f.bandwidth(q.card.bandwidth_gb_s),
                      fast_low=f.integer(q.tok_s_low), fast_high=f.integer(q.tok_s_high))
    if fig.median_tok_s is not None:
        values["median"] = f.tok_s(fig.median_tok_s)
    if fig.nearest_miss:
        n = fig.nearest_miss
        values.update(miss_card=card_name(n.card, c.p.language), miss_vram=f.vram(n.card.vram_gb),
                      miss_need=f.gb(n.need_gb), miss_quant=n.quant_name,
                      shortfall=f.gb(n.shown_gb))
    if m.organisations:
        values["organisation"] = organisations(c, m)
    if m.published:
        values["month"] = f.month(m.published)
    return values
