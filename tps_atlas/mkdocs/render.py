"""Render page contexts through our Jinja templates, in one language.

Autoescaping is on: every value from data is escaped where it lands. Data is
only ever a value here, never template source.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from jinja2 import Environment, FileSystemLoader, StrictUndefined, select_autoescape
from markupsafe import Markup

from tps_atlas.cache import cached
from tps_atlas.pages import browse
from tps_atlas.i18n.data_text import DataText
from tps_atlas.measured.runs import split_speeds
from tps_atlas.pages.feed import TITLE as FEED_TITLE
from tps_atlas.pages.card import CardPage, CardPageBuilder
from tps_atlas.catalogue.load import Catalogue, Portal
from tps_atlas.pages.charts import bar_chart
from tps_atlas.pages.figures import estimate_table
from tps_atlas.estimate.settings import Settings
from tps_atlas.web.data import context_warning, page_labels, script_safe_json
from tps_atlas.pages.model.working import WORKING_CHECK
from tps_atlas.pages.model.builder import ModelPage, ModelPageBuilder
from tps_atlas.pages.offload import offload_methodology, ram_inputs
from tps_atlas.i18n.phrases import N_, Phrases
from tps_atlas.records.fields import FieldReader
from tps_atlas.records.strict_yaml import load_yaml
from tps_atlas.paths import DATA_DIR, TEMPLATES
from tps_atlas.web.ui import ui_labels
from tps_atlas.web.machine_ui import machine_methodology

# The card table's column headings: the built table's, and the browser calculator's on a
# page whose static table is empty.
# Verdict and speed first: what a reader looks for, and all a phone shows on a row's first line.
TABLE_HEADERS = (N_("Fit"), N_("Speed"), N_("Device"), N_("VRAM"), N_("Needs"), N_("Quantization"),
                 N_("Bandwidth"), N_("Released"))
CONFIDENCE_LABELS = {"low": N_("low confidence"), "medium": N_("medium confidence"),
                     "high": N_("high confidence")}
UI_SETTINGS = DATA_DIR / "ui.yaml"


@dataclass(frozen=True)
class UiSettings:
    memory_filters_gb: tuple[int, ...]
    table_page_rows: int
    context_tokens_range: tuple[int, ...]


@cached(maxsize=None)
def ui_settings(path: Path = UI_SETTINGS) -> UiSettings:
    """The controls' settings (data/ui.yaml), checked like every other data file."""
    r = FieldReader(path, load_yaml(path))
    settings = UiSettings(memory_filters_gb=r.integers("memory_filters_gb"),
                          table_page_rows=r.integer("table_page_rows", minimum=1),
                          context_tokens_range=r.integers("context_tokens_range"))
    if len(settings.context_tokens_range) != 2 or settings.context_tokens_range[0] > settings.context_tokens_range[1]:
        raise r.error("context_tokens_range", "[smallest, largest]", list(settings.context_tokens_range))
    r.finish()
    return settings


@cached(maxsize=None)
def environment() -> Environment:
    env = Environment(loader=FileSystemLoader(TEMPLATES), autoescape=select_autoescape(default=True),
                      undefined=StrictUndefined)
    env.filters["json_script"] = json_script
    return env


def json_script(value) -> Markup:
    """JSON safe inside a <script> element: no '<', '>' or '&' can close it."""
    return Markup(script_safe_json(value))


class Renderer:
    """Every page of one language, from one catalogue and one calibration."""

    def __init__(self, language: str, catalogue: Catalogue, settings: Settings, portal: Portal,
                 calibration: str | None = None):
        self.calibration = settings.calibration(calibration)
        self.phrases = p = Phrases(language, memory=self.calibration.memory_unit)
        self.settings = settings
        self.portal = portal
        self.catalogue = catalogue = catalogue.for_calibration(self.calibration.name)
        self.table = estimate_table(catalogue, settings, self.calibration.name)
        newest = max((m.published for m in catalogue.models if m.published), default=None)
        self.models = ModelPageBuilder(p, settings, newest, split_speeds(settings.multi_gpu_example, catalogue),
                                       self.table.measured)
        self.cards = CardPageBuilder(p, catalogue, self.table, portal)
        self.data_text = DataText(p, catalogue.models)
        self.confidence = p.gettext(CONFIDENCE_LABELS[self.calibration.confidence])
        self._model_pages: dict[str, ModelPage] = {}
        self._card_pages: dict[str, CardPage] = {}
        self._ui_script: Markup | None = None
        self._card_forms: dict[bool, Markup] = {}

    def render(self, template: str, **context) -> str:
        return environment().get_template(template).render(_=self.phrases.t, data_text=self.data_text, **context)

    def chart(self, chart_id: str, items, title: str, summary: str, caption: bool = True) -> Markup:
        """``caption``: the summary shown under the chart too; off where a list of the same items
        follows (a model page's ten fastest), so a reader does not meet them three times."""
        if not items:
            return Markup("")
        return Markup(self.render("chart.html", chart=bar_chart(items), chart_id=chart_id,
                                  title=title, summary=summary, caption=caption))

    # ---------------------------------------------------------------- models
    def model_page(self, model_id: str) -> ModelPage:
        if model_id not in self._model_pages:
            model = self.catalogue.model(model_id)
            self._model_pages[model_id] = self.models.build(model, self.table.figures[model_id])
        return self._model_pages[model_id]

    def faq_json_ld(self, page: ModelPage) -> dict:
        """schema.org FAQPage with the visible questions and answers, word for word."""
        return {"@context": "https://schema.org", "@type": "FAQPage", "inLanguage": self.phrases.language,
                "mainEntity": [{"@type": "Question", "name": Markup(question).striptags(),
                                "acceptedAnswer": {"@type": "Answer", "text": Markup(answer).striptags()}}
                               for question, answer in page.faq]}

    def calculator_inputs(self) -> dict:
        """The calculator's inputs with their default values (model and card pages)."""
        p = self.phrases
        return {
            "context": self.settings.context_tokens,
            "floor": self.settings.min_quality,
            "ceiling": self.settings.max_quality,
            "quants": [q.name for q in self.settings.quants if not q.native_only],
            # "At least N GB": a reader with a 32 GB card also wants the 48 and 80 GB ones.
            # TRANSLATORS: a memory filter's label; {size} is a memory size. Example: 'at least 24 GB'.
            "tiers": [{"value": t, "label": p.t(N_("at least {size}"), size=p.fmt.vram(t))}
                      for t in ui_settings().memory_filters_gb],
            "context_range": ui_settings().context_tokens_range,
            # the default precision first
            "kv": sorted(self.settings.kv_bytes_per_element, key=lambda k: k != self.settings.default_kv_precision),
            **ram_inputs(p),
        }

    def render_model(self, model_id: str) -> str:
        page = self.model_page(model_id)
        p = self.phrases
        inputs = self.calculator_inputs()
        chart = self.chart("chart-" + model_id, page.chart_items, page.chart_title, page.chart_summary,
                           caption=False)
        calculator = page_labels(p, page.model, self.settings, len(self.catalogue.cards), self.confidence,
                                 self.table_headers())
        warning = Markup(context_warning(p, page.model, self.settings.context_tokens))
        return self.render("model.html", page=page, inputs=inputs, chart=chart, context_warning=warning,
                           json_ld=self.faq_json_ld(page), calculator=calculator,
                           working_check=p.gettext(WORKING_CHECK))

    def table_headers(self) -> list[str]:
        return [self.phrases.gettext(header) for header in TABLE_HEADERS]

    def render_model_table(self, model_id: str) -> str:
        """The card table, put in after Markdown and search have seen the page (it is large)."""
        return self.render("model_table.html", page=self.model_page(model_id), confidence=self.confidence,
                           headers=self.table_headers())

    def ui_script(self) -> Markup:
        """The shared controls' words (tps_atlas/web/ui.py), once per page, for docs/assets/device.js."""
        if self._ui_script is None:
            labels = ui_labels(self.phrases, ui_settings(), len(self.catalogue.cards))
            labels["page_rows"] = ui_settings().table_page_rows
            self._ui_script = Markup('<script type="application/json" id="tps-ui">') + json_script(labels) + \
                Markup("</script>")
        return self._ui_script

    # ----------------------------------------------------------------- cards
    def card_page(self, card_id: str) -> CardPage:
        if card_id not in self._card_pages:
            self._card_pages[card_id] = self.cards.build(self.catalogue.card(card_id))
        return self._card_pages[card_id]

    def render_card_tables(self, card_id: str) -> str:
        return self.render("card_tables.html", page=self.card_page(card_id), confidence=self.confidence)

    def render_card(self, card_id: str) -> str:
        page = self.card_page(card_id)
        chart = self.chart("chart-" + card_id, page.chart_items, page.chart_title, page.chart_summary)
        return self.render("card.html", page=page, chart=chart, form=self.card_form(page.card.unified))

    def card_form(self, unified: bool) -> Markup:
        """The card pages' inputs (no system RAM for a machine that shares it): once per language and kind,
        not once per page."""
        if unified not in self._card_forms:
            self._card_forms[unified] = Markup(self.render("card_form.html", inputs=self.calculator_inputs(),
                                                           unified=unified))
        return self._card_forms[unified]

    # ---------------------------------------------------------------- browse
    def render_home(self) -> str:
        return self.render("home.html", home=browse.home(self.phrases, self.catalogue, self.table, self.portal))

    def render_models_index(self) -> str:
        return self.render("models_index.html", models=browse.models_index(self.phrases, self.catalogue, self.table),
                           feed_title=self.phrases.gettext(FEED_TITLE))

    def render_cards_index(self) -> str:
        return self.render("cards_index.html", vendors=browse.cards_index(self.phrases, self.catalogue, self.table))

    def render_methodology(self) -> str:
        return self.render("methodology.html", m=browse.methodology(self.phrases, self.settings, self.calibration),
                           o=offload_methodology(self.phrases), mm=machine_methodology(self.phrases))
