"""What every section of a model page reads: the language, the settings and the few
site-wide facts (newest model, measured multi-card speeds, measured runs)."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field
from typing import Callable

from ..catalogue import Model
from ..estimator import Estimate, Settings
from ..formatting import Formatter
from ..measured import Run
from ..phrases import Phrases


def no_run(model: Model, e: Estimate) -> Run | None:
    return None


@dataclass(frozen=True)
class PageContext:
    p: Phrases
    settings: Settings
    newest_published: dt.date | None
    split_speeds: dict[int, float]   # measured tok/s on 1, 2, ... identical cards
    measured: Callable[[Model, Estimate], Run | None] = field(default=no_run)

    @property
    def f(self) -> Formatter:
        return self.p.fmt

    def terms(self, table: dict[str, str], keys) -> str:
        return self.f.names([self.p.term(table[k]) for k in keys])
