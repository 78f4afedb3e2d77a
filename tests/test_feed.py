"""Issue 27, what changed where readers look: each language's feed (feed.xml, Atom) lists the models
most recently added to the catalogue, linking to their pages in that language, and a model page says
since when the model is in the catalogue."""

from __future__ import annotations

import dataclasses
import datetime as dt
import xml.etree.ElementTree as ET

import pytest

from tps_atlas.catalogue.load import Catalogue, Portal
from tps_atlas.catalogue.models import read_model
from tps_atlas.errors import DataError
from tps_atlas.i18n.phrases import LANGUAGES, Phrases
from tps_atlas.mkdocs.render import Renderer
from tps_atlas.pages.feed import feed_xml

from tests.support.site_build import visible_text as visible

ATOM = "{http://www.w3.org/2005/Atom}"
BASE = "https://tps-atlas.example.org/"


def parsed(language: str, catalogue) -> ET.Element:
    root = BASE + ("" if language == "en" else f"{language}/")
    return ET.fromstring(feed_xml(Phrases(language), catalogue, root).encode("utf-8"))


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_feed_lists_the_newest_additions_first_with_their_pages_in_the_language(catalogue, language):
    feed = parsed(language, catalogue)
    entries = feed.findall(f"{ATOM}entry")
    newest = max(m.added for m in catalogue.models if m.added)
    assert entries and entries[0].findtext(f"{ATOM}updated") == f"{newest.isoformat()}T00:00:00Z"
    days = [e.findtext(f"{ATOM}updated") for e in entries]
    assert days == sorted(days, reverse=True)
    added_last = {m.name for m in catalogue.models if m.added == newest}
    first = entries[0]
    model = next(m for m in catalogue.models if m.name == first.findtext(f"{ATOM}title"))
    assert model.name in added_last
    prefix = "" if language == "en" else f"{language}/"
    assert first.find(f"{ATOM}link").get("href") == f"{BASE}{prefix}models/{model.id}/"
    assert model.name in first.findtext(f"{ATOM}summary")
    assert Phrases(language).fmt.day(newest) in first.findtext(f"{ATOM}summary")


def test_the_feed_is_written_in_each_language(catalogue):
    titles = {language: parsed(language, catalogue).findtext(f"{ATOM}title") for language in LANGUAGES}
    assert titles["en"] == "TPS Atlas: models added to the catalogue"
    assert len(set(titles.values())) == len(LANGUAGES)
    summaries = {language: parsed(language, catalogue).find(f"{ATOM}entry").findtext(f"{ATOM}summary")
                 for language in LANGUAGES}
    assert "since" in summaries["en"] and "sinds" in summaries["nl"] and "depuis" in summaries["fr"] \
        and "seit" in summaries["de"]


def test_a_name_with_markup_characters_stays_text_in_the_feed(catalogue):
    odd = dataclasses.replace(catalogue.model("llama-3.1-8b"), id="odd", name="Odd <b> & Co",
                              added=dt.date(2026, 12, 2))
    feed = parsed("en", Catalogue(cards=catalogue.cards, models=(odd,)))
    assert feed.find(f"{ATOM}entry").findtext(f"{ATOM}title") == "Odd <b> & Co"


@pytest.mark.parametrize("language, expected", [("en", "in the catalogue since December 2, 2026"),
                                                ("de", "seit dem 2. Dezember 2026 im Katalog")])
def test_a_model_page_says_since_when_it_is_in_the_catalogue(catalogue, settings, language, expected):
    model = dataclasses.replace(catalogue.model("qwen3-14b"), added=dt.date(2026, 12, 2))
    small = Catalogue(cards=catalogue.cards[:3], models=(model,))
    page = visible(Renderer(language, small, settings, Portal((), (), (), recent_models=1)).render_model(model.id))
    assert expected in page


def test_an_added_date_in_the_future_is_refused(tmp_path):
    path = tmp_path / "tiny.yaml"
    path.write_text("id: tiny\nname: Tiny\nweights: open\nparameters_b: 7\nadded: 2999-01-01\n", encoding="utf-8")
    with pytest.raises(DataError, match="added: expected a date no later than"):
        read_model(path)


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_models_index_links_its_language_s_feed(site, language):
    """A link in the page: a <link rel="alternate"> in every head made Material fetch a sitemap on every load."""
    prefix = "" if language == "en" else f"{language}/"
    index = (site / prefix / "models" / "index.html").read_text(encoding="utf-8")
    feed = ET.fromstring((site / prefix / "feed.xml").read_bytes())
    assert f'<a href="../feed.xml" type="application/atom+xml">{feed.findtext(f"{ATOM}title")}</a>' in \
        index.replace("&#39;", "'")
    assert feed.get("{http://www.w3.org/XML/1998/namespace}lang") == language
    assert 'rel="alternate" type="application/atom+xml"' not in index
