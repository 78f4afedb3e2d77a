"""Table rows, verdict labels and measured marks: shared by the model and card pages."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

from markupsafe import Markup

from tps_atlas.catalogue.cards import Card
from tps_atlas.catalogue.models import Model
from tps_atlas.measured.runs import Run
from tps_atlas.i18n.phrases import N_, NP_, Phrases

FIT_LABELS = {"comfortable": N_("Comfortable"), "tight": N_("Tight"), "none": N_("Does not fit"),
              "offload": N_("With offload")}

# A measured run beside an estimate (model and card tables).
# TRANSLATORS: {tok_s} is a measured speed with its unit. Example:
# "measured: 29.6 tok/s"
MEASURED = N_("measured: {tok_s}")
# TRANSLATORS: {model} is the model that was measured (same architecture
# and size), {tok_s} its speed. Example: "measured with Llama 3.1 8B
# Instruct: 92.4 tok/s"
MEASURED_OTHER = N_("measured with {model}: {tok_s}")
# TRANSLATORS: {backend} is the llama.cpp backend (CUDA, ROCm, Vulkan,
# Metal), {build} its build number, {month} the month of the run,
# {context} the context it started from. Example: "CUDA, build b6123,
# August 2025, empty context"
MEASURED_DETAIL = N_("{backend}, build {build}, {month}, {context}")
# TRANSLATORS: as the entry with a build, for a run whose build is
# unknown. Example: "Metal, March 2025, 4,096 tokens already in context"
MEASURED_DETAIL_NO_BUILD = N_("{backend}, {month}, {context}")
# The context the run started from: estimates are at the page's context, often longer.
MEASURED_EMPTY = N_("empty context")
# TRANSLATORS: {depth} is a number of tokens. Example: "4,096 tokens
# already in context"
MEASURED_DEPTH = N_("{depth} tokens already in context")


def fit_label(phrases: Phrases, fit: str) -> str:
    """The table label of a verdict; the same word in every table and sentence."""
    return phrases.gettext(FIT_LABELS[fit])


def fit_sentence(phrases: Phrases, fit: str) -> Markup:
    return phrases.t(N_("The fit is comfortable.")) if fit == "comfortable" else phrases.t(N_("The fit is tight."))


def card_href(card: Card) -> str:
    """Card pages sit at /<lang>/cards/<id>/, beside /<lang>/models/<id>/."""
    return f"../../cards/{card.id}/"


@dataclass
class MeasuredMark:
    text: str
    detail: str
    href: str


def measured_mark(phrases: Phrases, run: Run | None, model: Model) -> MeasuredMark | None:
    """The measured figure beside an estimate, with backend, build, date and its source."""
    if run is None:
        return None
    f = phrases.fmt
    year, month = (int(part) for part in run.date.split("-")[:2])
    context = phrases.t(MEASURED_DEPTH, depth=f.count(run.depth)) if run.depth else phrases.t(MEASURED_EMPTY)
    values = dict(tok_s=f.tok_s(run.tok_s), model=run.model_name, backend=run.backend, build=run.build,
                  month=f.month(dt.date(year, month, 1)), context=context)
    text = phrases.t(MEASURED if run.model == model.id else MEASURED_OTHER, **values)
    detail = phrases.t(MEASURED_DETAIL_NO_BUILD if run.build == "unknown" else MEASURED_DETAIL, **values)
    return MeasuredMark(str(text), str(detail), run.source)


def measured_note(phrases: Phrases, count: int, total: int, below_tables: bool = False) -> Markup:
    """How many of a table's speeds have a measurement beside them. ``below_tables``: the note follows
    several tables (a card page's runs, offload and misses), so it names the one it counts."""
    if below_tables:
        if not count:
            return phrases.t(N_("None of the speeds in the table of the models it runs has been measured yet: "
                                "all are estimates."))
        # TRANSLATORS: as the next entry, on a card page, where the note follows several tables and counts
        # the speeds of the first ('Models it runs'). Example: "Of the 109 speeds in the table of the models
        # it runs, three have a measured llama.cpp run beside them; the others are estimates."
        return phrases.n_words(NP_("Of the {total} speeds in the table of the models it runs, {count} has a "
                                   "measured llama.cpp run beside it; the others are estimates.",
                                   "Of the {total} speeds in the table of the models it runs, {count} have a "
                                   "measured llama.cpp run beside them; the others are estimates."),
                               count, total=phrases.fmt.count(total))
    if not count:
        return phrases.t(N_("None of the speeds in this table has been measured yet: all are estimates."))
    # TRANSLATORS: {count} speeds of the {total} in the table have a measured run
    # beside them ({count} in words up to twelve: "one", "ten", 13). Example: "Of
    # the 154 speeds in this table, ten have a measured llama.cpp run beside
    # them; the others are estimates."
    return phrases.n_words(NP_("Of the {total} speeds in this table, {count} has a measured llama.cpp run beside it; "
                         "the others are estimates.",
                         "Of the {total} speeds in this table, {count} have a measured llama.cpp run beside them; "
                         "the others are estimates."), count, total=phrases.fmt.count(total))


@dataclass
class Row:
    card: str
    card_id: str
    href: str
    vendor: str
    vram: str
    bandwidth: str
    released: str
    need: str
    quant: str
    fit: str
    fit_key: str
    tok_s: str
    tok_range: str
    measured: MeasuredMark | None = None
    offload: str = ""      # where the model sits, for a card that runs it with offload
