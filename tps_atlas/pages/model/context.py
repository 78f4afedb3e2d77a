"""What every section of a model page reads: the language, the settings and the few
site-wide facts (newest model, measured multi-card speeds, measured runs)."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field
from typing import Callable

from tps_atlas.catalogue.models import Model
from tps_atlas.estimate.fit import Fit
from tps_atlas.estimate.settings import Settings
from tps_atlas.i18n.formatting import Formatter
from tps_atlas.measured.runs import Run
from markupsafe import Markup

from tps_atlas.i18n.phrases import Phrases, fill


def no_run(model: Model, e: Fit) -> Run | None:
    return None


@dataclass(frozen=True)
class PageContext:
    p: Phrases
    settings: Settings
    newest_published: dt.date | None
    split_speeds: dict[int, float]   # measured tok/s on 1, 2, ... identical cards
    measured: Callable[[Model, Fit], Run | None] = field(default=no_run)

    @property
    def f(self) -> Formatter:
        return self.p.fmt

    def terms(self, table: dict[str, str], keys) -> str:
        return self.f.names([self.p.term(table[k]) for k in keys])

    def card_count(self, count: int) -> str:
        """A count of cards for prose: small counts as words, feminine where the language's word
        for a card is (une carte, eine Grafikkarte)."""
        return self.f.count_words(count, feminine=True)

    def n_words(self, forms: tuple[str, str], number: int, feminine: bool = False, **params) -> Markup:
        """``Phrases.n`` with ``{count}`` in words where it is small ("five levels", "une carte")."""
        params["count"] = self.f.count_words(number, feminine=feminine)
        return fill(self.p.catalogue.ngettext(forms[0], forms[1], number), params, forms[number != 1])
