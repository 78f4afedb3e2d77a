"""Placeholder values the sentences of a card page share, formatted once (the card page's
``PageValues``, as ``pages/model/values.py`` has the model page's)."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from typing import Any

from tps_atlas.catalogue.cards import Card
from tps_atlas.catalogue.models import Model
from tps_atlas.estimate.fit import Fit
from tps_atlas.i18n.names import Name, card_name
from tps_atlas.i18n.phrases import Phrases


@dataclass(frozen=True)
class FastestModel:
    """The fastest model the card runs ({fast_model}, {fast_tok_s})."""
    model: str
    tok_s: str


@dataclass(frozen=True)
class LargestModel:
    """The largest model the card holds ({large_model}, {large_params}, {large_quant}, {large_need})."""
    model: str
    params: str
    quant: str
    need: str


@dataclass(frozen=True)
class CardValues:
    """The placeholder values of a card page. A card that runs no model has no ``fast`` or
    ``large``, and a sentence that asks for one stops the build (``phrases.UnknownPlaceholder``)."""
    card: Name
    vram: str
    bandwidth: str
    total: str
    fast: FastestModel | None = None
    large: LargestModel | None = None

    @cached_property
    def placeholders(self) -> dict[str, Any]:
        """The values by placeholder name, for ``Phrases.t(message, **v.placeholders)``."""
        values: dict[str, Any] = {"card": self.card, "vram": self.vram, "bandwidth": self.bandwidth,
                                  "total": self.total}
        if q := self.fast:
            values.update(fast_model=q.model, fast_tok_s=q.tok_s)
        if g := self.large:
            values.update(large_model=g.model, large_params=g.params, large_quant=g.quant, large_need=g.need)
        return values


def card_values(p: Phrases, card: Card, runs: list[tuple[Model, Fit]], models_total: int) -> CardValues:
    """``runs``: the models the card holds, fastest first."""
    f = p.fmt
    fast = large = None
    if runs:
        best, best_e = runs[0]
        largest, largest_e = max(runs, key=lambda pair: (pair[0].parameters_b, pair[1].tok_s))
        fast = FastestModel(best.name, f.tok_s(best_e.tok_s))
        large = LargestModel(largest.name, f.parameters(largest.parameters_b), largest_e.quant.name,
                             f.gb(largest_e.need_gb))
    return CardValues(card=card_name(card, p.language), vram=f.vram(card.vram_gb),
                      bandwidth=f.bandwidth(card.bandwidth_gb_s), total=f.count(models_total), fast=fast,
                      large=large)
