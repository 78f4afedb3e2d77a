"""A model page names cards, organisations and countries with the article and case its language
needs (tps_atlas/i18n/names.py): der Apple M4 Max, auf dem Apple M4 Max, l’Apple M4 Max, in de Verenigde
Staten; never a machine called a graphics card ("die Grafikkarte Apple ...").

The page context is built in process over chosen cards (fast); the organisation and country
sentences, and every Apple machine named in prose, are read from the preview build (``site``).
"""

from __future__ import annotations

import dataclasses
import re

import pytest

from tps_atlas.pages.figures import Reach, model_figures
from tps_atlas.pages.model.builder import ModelPageBuilder
from tps_atlas.i18n.phrases import Phrases

from tests.support.session import PREVIEW_MODELS
from tests.support.site_build import page_path
from tests.support.prose import paragraphs

APPLE_ID = "apple-m4-max-128gb"   # a preview card; a processor (data/names.yaml), not a graphics card


def page_text(catalogue, settings, seed, model_id: str, cards, language: str) -> str:
    """Every sentence of the page context that names a card: the figures' prose, the answers,
    the description and the worked examples' titles."""
    figs = model_figures(catalogue.model(model_id), cards, settings, seed)
    page = ModelPageBuilder(Phrases(language), settings, None, {}).build(figs.model, figs)
    parts = [*page.speed, *page.numbers_text, *page.about, *(answer for _, answer in page.faq),
             *(step for _, step in page.steps), *(title for title, *_ in page.workings)]
    text = " ".join(re.sub(r"<[^>]+>", "", str(part)) for part in parts) + " " + page.description
    return text.replace("&#39;", "'").replace("&amp;", "&")


@pytest.fixture(scope="module")
def apple(catalogue):
    return catalogue.card(APPLE_ID)


@pytest.fixture(scope="module")
def alone(catalogue, apple):
    """The Apple machine and a card too small for GLM-130B: the machine is the only one that runs it."""
    small = dataclasses.replace(catalogue.card("geforce-rtx-4090"), id="tiny-4gb", name="Tiny 4 GB", vram_gb=4)
    return [apple, small]


def test_the_model_runs_on_the_apple_machine_alone(catalogue, settings, seed, alone, apple):
    figs = model_figures(catalogue.model("glm-130b"), alone, settings, seed)
    assert figs.reach is Reach.ONE and figs.fastest.card.id == apple.id


def test_german_gives_the_apple_machine_its_masculine_article_in_each_case(catalogue, settings, seed, alone, apple):
    text = page_text(catalogue, settings, seed, "glm-130b", alone, "de")
    name = apple.name
    assert f"Nur der {name} fasst es" in text                    # nominative
    assert f"Nur auf dem {name} läuft es" in text                # dative after auf
    assert f"So wurde der Wert für den {name} berechnet" in text  # accusative after für
    assert f"Ganz oben steht der {name}" in text
    assert "die Apple" not in text and "Grafikkarte Apple" not in text


def test_german_gives_a_graphics_card_its_feminine_article(catalogue, settings, seed):
    rtx = catalogue.card("geforce-rtx-4090")
    small = dataclasses.replace(rtx, id="tiny-2gb", name="Tiny 2 GB", vram_gb=2)
    text = page_text(catalogue, settings, seed, "llama-3.1-8b", [rtx, small], "de")
    assert f"Nur die {rtx.name} fasst es" in text and f"Nur auf der {rtx.name} läuft es" in text
    assert f"So wurde der Wert für die {rtx.name} berechnet" in text
    assert f"Grafikkarte {rtx.name}" not in text


def test_french_elides_the_article_before_the_apple_machine(catalogue, settings, seed, alone, apple):
    text = page_text(catalogue, settings, seed, "glm-130b", alone, "fr")
    name = apple.name
    assert f"Un seul appareil peut l’accueillir\u00a0: l’{name}" in text
    assert f"Détail du calcul pour l’{name}" in text
    assert f"En tête figure l’{name}" in text
    assert not re.search(r"\b(?:la|le|carte) Apple", text), text


def test_dutch_names_the_apple_machine_with_de_and_not_as_a_card(catalogue, settings, seed, alone, apple):
    text = page_text(catalogue, settings, seed, "glm-130b", alone, "nl")
    assert f"Alleen op de {apple.name} past het in zijn geheel" in text
    assert f"Zo is het cijfer voor de {apple.name} berekend" in text
    assert f"kaart {apple.name}" not in text and f"de de {apple.name}" not in text


# The preview build: what a reader of the translated pages sees.

IN_THE_US = {"nl": "in de Verenigde Staten", "fr": "aux États-Unis", "de": "in den Vereinigten Staaten"}


@pytest.fixture(scope="module")
def us_model(catalogue):
    found = [m for m in (catalogue.model(i) for i in PREVIEW_MODELS) if m.countries == ("US",) and m.published]
    assert found, "a preview model made in the United States"
    return found[0]


@pytest.mark.parametrize("language", sorted(IN_THE_US))
def test_the_about_sentence_says_where_the_maker_is_with_its_preposition(site, us_model, language):
    text = " ".join(paragraphs(page_path(site, language, "models", us_model.id).read_text(encoding="utf-8")))
    organisation = us_model.organisations[0]
    sentence = next((s for s in re.split(r"(?<=[.!?])\s+", text) if us_model.name in s and organisation in s
                     and IN_THE_US[language] in s), None)
    assert sentence, f"no sentence naming {us_model.name}, {organisation} and {IN_THE_US[language]!r}"
    assert "(" + IN_THE_US[language].split()[-1] not in sentence  # not "(Verenigde Staten)"


@pytest.mark.parametrize("language, right, wrong", [
    ("de", r"\b(?:der|dem|den|des) Apple M\d", r"\b(?:die|Grafikkarte|Karte) Apple"),
    ("fr", r"\bl’Apple M\d", r"\b(?:la|le|carte) Apple"),
    ("nl", r"\bde Apple M\d", r"\b(?:kaart|het) Apple"),
])
def test_an_apple_machine_named_in_preview_prose_takes_its_own_article(site, language, right, wrong):
    named = 0
    for model_id in PREVIEW_MODELS:
        for paragraph in paragraphs(page_path(site, language, "models", model_id).read_text(encoding="utf-8")):
            assert not re.search(wrong, paragraph), (model_id, paragraph)
            named += len(re.findall(right, paragraph))
    assert named, "the preview model pages name an Apple machine in a sentence, with its article"


@pytest.mark.parametrize("language, expected", [
    ("de", "So wurde der Wert für den {name} berechnet"),
    ("fr", "Détail du calcul pour l’{name}"),
    ("nl", "Zo is het cijfer voor de {name} berekend"),
])
def test_the_calculator_names_a_row_s_machine_as_the_page_does(site, apple, language, expected):
    """A row's worked example, filled in the browser, declines the name as the built page does."""
    from tests.support.node import NODE, built_page_parts, run_node

    if NODE is None:
        pytest.skip("node is not installed (scripts/test installs it)")
    labels = built_page_parts(site, language, "llama-3.1-8b")["labels"]
    js, = run_node("working", [{"labels": labels, "card": apple.id}], site / "assets" / "tps-data.json")
    title = re.sub(r"<[^>]+>", "", js.split("</strong>")[0])
    assert title == expected.format(name=apple.name), title
