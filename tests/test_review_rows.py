"""Review rows of the language reviews that a reader checks across pages."""

import re

import pytest

from tps_atlas.pages.browse import methodology
from tps_atlas.i18n.phrases import Phrases

READING_SENTENCE = ("Reading speed is about ten tokens per second; {count} device reaches it.",
                    "Reading speed is about ten tokens per second; {count} devices reach it.")


@pytest.mark.parametrize("language", ["en", "nl", "fr", "de"])
def test_methodology_states_reading_speed_as_the_model_pages_do(language, settings):
    # fr review row 32: "10 jetons par seconde" on the methodology, "dix jetons" on model pages.
    p = Phrases(language)
    reading = methodology(p, settings)["reading"]
    model_page = str(p.n(READING_SENTENCE, 36))
    assert not re.search(r"\d", reading)
    assert re.search(rf"\b{re.escape(reading)}\b", model_page), (reading, model_page)


@pytest.mark.parametrize("language, team", [("fr", "équipe Qwen"), ("de", "Qwen-Team"), ("nl", "Qwen-team")])
def test_the_specification_names_the_maker_as_the_prose_does(catalogue, settings, seed, language, team):
    # fr review row 7: the prose said "Alibaba (équipe Qwen)", the specification "Alibaba (Qwen Team)".
    from tps_atlas.pages.figures import model_figures
    from tps_atlas.pages.model.builder import ModelPageBuilder
    figs = model_figures(catalogue.model("qwen3-30b-a3b"), [catalogue.card("geforce-rtx-4090")], settings, seed)
    page = ModelPageBuilder(Phrases(language), settings, None, {}).build(figs.model, figs)
    fields = dict(field for group in page.groups for field in group.fields)
    organisation = Phrases(language).gettext("Organisation")
    assert team in fields[organisation] and "Qwen Team" not in fields[organisation]
    assert any(team in str(sentence) for sentence in page.about)
