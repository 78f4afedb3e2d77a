"""The context of a model page: everything it shows, as translated, formatted text.

A page context is plain data; the template only lays it out. Every fact a sentence states is
decided in ``figures`` (pure, no MkDocs); the section modules here only word it:

- ``headline``: title, description, meta line, introduction, figure tiles;
- ``card_table``: the rows of the table, the fastest and smallest lists, the chart;
- ``working``: how one estimate was worked out;
- ``specification``: every recorded field, in groups, and the sources;
- ``hardware``: the size class and what the numbers mean;
- ``about``: who made it, how fast it runs and why, what went into building it;
- ``guide``: the six steps of choosing a card;
- ``faq``: the questions and answers.

Which sections and questions appear depends on the record and the figures: nothing is shown
for a fact that is not known.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from typing import Callable

from markupsafe import Markup

from tps_atlas.catalogue.models import Model
from tps_atlas.estimate.fit import Fit
from tps_atlas.estimate.settings import Settings
from tps_atlas.pages.figures import ModelFigures
from tps_atlas.measured.runs import Run
from tps_atlas.pages.offload import offload_working, reference_offload
from tps_atlas.i18n.phrases import Phrases
from tps_atlas.pages.model import about, card_table, faq, guide, hardware, headline, specification
from tps_atlas.pages.model.context import PageContext, no_run
from tps_atlas.pages.model.rows import (FIT_LABELS, MEASURED, MEASURED_DEPTH, MEASURED_DETAIL, MEASURED_DETAIL_NO_BUILD,
                                        MEASURED_EMPTY, MEASURED_OTHER, MeasuredMark, Row, card_href, fit_label,
                                        fit_sentence, measured_mark, measured_note)
from tps_atlas.pages.model.specification import Group
from tps_atlas.pages.model.values import common
from tps_atlas.pages.model.working import WORKING_CHECK, WORKING_TITLE, working, working_lines

__all__ = ["FIT_LABELS", "MEASURED", "MEASURED_DEPTH", "MEASURED_DETAIL", "MEASURED_DETAIL_NO_BUILD",
           "MEASURED_EMPTY", "MEASURED_OTHER", "WORKING_CHECK", "WORKING_TITLE",
           "Group", "MeasuredMark",
           "ModelPage", "ModelPageBuilder", "PageContext", "Row", "card_href", "fit_label", "fit_sentence",
           "measured_mark", "measured_note", "working_lines"]


@dataclass
class ModelPage:
    language: str
    model: Model
    title: str
    description: str
    badge: str
    meta: list[str]
    intro: Markup
    tiles: list[tuple[str, str, str]]        # (label, main, detail)
    no_fit: Markup | None
    rows: list[Row]
    disclaimer: Markup
    groups: list[Group]
    fastest: list[Row]
    smallest: list[Row]
    numbers: list[tuple[str, str]]
    size_class: Markup
    numbers_text: list[Markup]
    about: list[Markup]
    speed: list[Markup]
    building: list[Markup]
    steps: list[tuple[str, Markup]]
    faq: list[tuple[str, Markup]]
    source: list[tuple[str, str, str | None]]
    chart_items: list[tuple[str, float, str]]
    chart_title: str
    chart_summary: str
    workings: list[tuple[str, list[Markup], str, str]]  # title, lines, check, command
    measured_note: Markup | None = None
    fastest_title: str = ""
    smallest_title: str = ""                 # empty: no list of the smallest (one card runs it)
    # The sentence before the six steps: "the table above" only over a table with rows.
    steps_intro: str = ""


class ModelPageBuilder:
    """Builds the model pages of one language."""

    def __init__(self, phrases: Phrases, settings: Settings, newest_published: dt.date | None,
                 split_speeds: dict[int, float], measured: Callable[[Model, Fit], Run | None] | None = None):
        self.context = PageContext(phrases, settings, newest_published, split_speeds, measured or no_run)
        self.p = phrases
        self.f = phrases.fmt

    def row(self, e: Fit, m: Model | None = None) -> Row:
        return card_table.row(self.context, e, m)

    def build(self, m: Model, fig: ModelFigures) -> ModelPage:
        c, p = self.context, self.p
        v = common(c, m, fig)
        rows = [card_table.row(c, e, m) for e in fig.rows]
        offload_rows = [card_table.row(c, e, m) for e in fig.offload]
        reference = reference_offload(fig.offload)
        fastest_title, smallest_title = card_table.list_titles(c, m, fig)
        return ModelPage(
            language=p.language,
            model=m,
            title=headline.title(c, v),
            description=str(headline.description(c, fig, v)),
            badge=headline.badge(c, m),
            meta=headline.meta(c, m, v),
            intro=headline.intro(c, m, v),
            tiles=headline.tiles(c, fig, v),
            no_fit=card_table.no_fit(c, fig, v),
            rows=rows + offload_rows,
            disclaimer=card_table.disclaimer(c),
            groups=specification.groups(c, m),
            fastest=rows[:card_table.EXTREMES],
            smallest=card_table.smallest(c, fig) if smallest_title else [],
            fastest_title=fastest_title,
            smallest_title=smallest_title,
            numbers=hardware.numbers(c, fig, v),
            size_class=hardware.size_class(c, m, fig, v),
            numbers_text=hardware.numbers_text(c, fig, v),
            about=about.about(c, m, v),
            speed=about.speed(c, m, fig, v),
            building=about.building(c, m, v),
            steps=guide.steps(c, m, fig, v),
            steps_intro=guide.intro(c, fig),
            faq=faq.faq(c, m, fig, v),
            source=specification.source(c, m),
            workings=[working(c, m, e, fig) for e in dict.fromkeys(x for x in (fig.fastest, fig.smallest) if x)]
            + ([offload_working(p, m, reference, fig.context, fig.kv_precision)] if reference else []),
            # Every speed the table shows, the rows with part in RAM too (they carry no measured mark).
            measured_note=(measured_note(p, sum(r.measured is not None for r in rows), len(rows) + len(fig.offload))
                           if rows else None),
            **card_table.chart(c, m, fig),
        )





