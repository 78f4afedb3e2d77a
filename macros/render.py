"""Render page contexts through our Jinja templates, in one language.

Autoescaping is on: every value from data is escaped where it lands. Data is
only ever a value here, never template source.
"""

from __future__ import annotations

import datetime as dt
from functools import lru_cache
from pathlib import Path

from jinja2 import Environment, FileSystemLoader, StrictUndefined, select_autoescape

from .catalogue import Catalogue, Model
from .estimator import Settings
from .figures import model_figures
from .pages import ModelPage, ModelPageBuilder
from .phrases import N_, Phrases

CONFIDENCE_LABELS = {"low": N_("low confidence"), "medium": N_("medium confidence"),
                     "high": N_("high confidence")}
TEMPLATES = Path(__file__).resolve().parent / "templates"


@lru_cache(maxsize=None)
def environment() -> Environment:
    return Environment(loader=FileSystemLoader(TEMPLATES), autoescape=select_autoescape(default=True),
                       undefined=StrictUndefined, trim_blocks=False, lstrip_blocks=False)


class Renderer:
    """Model pages of one language, from one catalogue and one calibration."""

    def __init__(self, language: str, catalogue: Catalogue, settings: Settings, calibration: str | None = None):
        self.phrases = Phrases(language)
        self.catalogue = catalogue
        self.settings = settings
        self.calibration = settings.calibration(calibration)
        newest = max((m.published for m in catalogue.models if m.published), default=None)
        self.builder = ModelPageBuilder(self.phrases, settings, newest)

    def model_page(self, model: Model) -> ModelPage:
        figures = model_figures(model, self.catalogue.cards, self.settings, self.calibration)
        return self.builder.build(model, figures)

    def render_model_list(self) -> str:
        rows = []
        for model in self.catalogue.models:
            figures = model_figures(model, self.catalogue.cards, self.settings, self.calibration)
            rows.append({"id": model.id, "name": model.name,
                         "params": self.phrases.fmt.parameters(model.parameters_b),
                         "organisation": self.phrases.fmt.names(model.organisations),
                         "fit": self.phrases.fmt.count(figures.cards_fit)})
        return environment().get_template("home.html").render(models=rows, _=self.phrases.t)

    def render_model(self, model_id: str) -> str:
        page = self.model_page(self.catalogue.model(model_id))
        p = self.phrases
        inputs = {
            "context": self.settings.context_tokens,
            "floor": self.settings.min_quality,
            "quants": [q.name for q in self.settings.quants],
            "tiers": [{"value": t, "label": p.fmt.vram(t)} for t in self.settings.vram_tiers_gb],
        }
        confidence = p.gettext(CONFIDENCE_LABELS[self.calibration.confidence])
        return environment().get_template("model.html").render(
            page=page, inputs=inputs, confidence=confidence, _=p.t)
