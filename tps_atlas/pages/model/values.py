"""Placeholder values many sentences of a model page share, formatted once."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from typing import Any

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


@dataclass(frozen=True)
class Smallest:
    """The smallest card that holds the model ({small_card}, {small_vram}, ...)."""
    card: Name
    vram: str
    quant: str
    need: str
    tok_s: str
    memory: str   # "24 GB of memory", or a machine's GPU share


@dataclass(frozen=True)
class Fastest:
    """The fastest card ({fast_card}, {fast_tok_s}, ...), with its range."""
    card: Name
    tok_s: str
    vram: str
    quant: str
    bandwidth: str
    low: str
    high: str


@dataclass(frozen=True)
class Missed:
    """The card that comes closest without holding the model ({miss_card}, {shortfall}, ...)."""
    card: Name
    vram: str
    need: str
    quant: str
    shortfall: str


@dataclass(frozen=True)
class PageValues:
    """The placeholder values many sentences of a model page share, formatted once. What the
    figures do not have (no card holds the model: no ``small``) is None, and a sentence that
    asks for it stops the build (``phrases.UnknownPlaceholder``) instead of printing "{small_card}"."""
    model: str
    params: str
    total: str
    fit_count: str
    context: str
    floor: str
    active: str | None = None
    small: Smallest | None = None
    fast: Fastest | None = None
    median: str | None = None
    miss: Missed | None = None
    organisation: Name | None = None
    month: str | None = None

    @cached_property
    def placeholders(self) -> dict[str, Any]:
        """The values by placeholder name, for ``Phrases.t(message, **v.placeholders)``."""
        values: dict[str, Any] = {"model": self.model, "params": self.params, "total": self.total,
                                     "fit_count": self.fit_count, "context": self.context, "floor": self.floor}
        optional = {"active": self.active, "median": self.median, "organisation": self.organisation,
                    "month": self.month}
        values.update((name, value) for name, value in optional.items() if value is not None)
        if s := self.small:
            values.update(small_card=s.card, small_vram=s.vram, small_quant=s.quant, small_need=s.need,
                          small_tok_s=s.tok_s, small_memory=s.memory)
        if q := self.fast:
            values.update(fast_card=q.card, fast_tok_s=q.tok_s, fast_vram=q.vram, fast_quant=q.quant,
                          fast_bandwidth=q.bandwidth, fast_low=q.low, fast_high=q.high)
        if n := self.miss:
            values.update(miss_card=n.card, miss_vram=n.vram, miss_need=n.need, miss_quant=n.quant,
                          shortfall=n.shortfall)
        return values


def common(c: PageContext, m: Model, fig: ModelFigures) -> PageValues:
    f, language = c.f, c.p.language
    s, q, n = fig.smallest, fig.fastest, fig.nearest_miss
    return PageValues(
        model=m.name, params=f.parameters(m.parameters_b), total=f.count(fig.cards_total),
        fit_count=f.count(fig.cards_fit), context=f.count(fig.context), floor=fig.floor,
        active=f.parameters(m.active_parameters_b) if m.active_parameters_b else None,
        small=Smallest(card_name(s.card, language), f.vram(s.card.vram_gb), s.quant.name, f.gb(s.need_gb),
                       f.tok_s(s.tok_s), str(c.p.t(MEMORY_UNIFIED if s.card.unified else MEMORY,
                                                    vram=f.vram(s.card.vram_gb)))) if s else None,
        fast=Fastest(card_name(q.card, language), f.tok_s(q.tok_s), f.vram(q.card.vram_gb), q.quant.name,
                     f.bandwidth(q.card.bandwidth_gb_s), f.integer(q.tok_s_low),
                     f.integer(q.tok_s_high)) if q else None,
        median=f.tok_s(fig.median_tok_s) if fig.median_tok_s is not None else None,
        miss=Missed(card_name(n.card, language), f.vram(n.card.vram_gb), f.gb(n.need_gb), n.quant_name,
                    f.gb(n.shown_gb)) if n else None,
        organisation=organisations(c, m) if m.organisations else None,
        month=f.month(m.published) if m.published else None,
    )
