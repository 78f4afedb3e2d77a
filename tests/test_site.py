"""The built portal: links, card pages, sitemap, search per language, metadata."""

import json
import re

import pytest
from markupsafe import escape

from tps_atlas.catalogue.load import load_catalogue
from tps_atlas.i18n.phrases import LANGUAGES, Phrases

from tests.support.site_build import page_path, visible_text
from tests.support.whole_site import broken_links


def test_a_missing_page_or_file_is_a_broken_link(tmp_path):
    (tmp_path / "models" / "a").mkdir(parents=True)
    (tmp_path / "models" / "a" / "index.html").write_text(
        '<a href="../b/">B</a> <a href="../a/#x">A</a> <img src="/assets/gone.png"> <a href="https://x.org/">', "utf-8")
    assert broken_links(tmp_path) == ["models/a/index.html -> ../b/", "models/a/index.html -> /assets/gone.png"]


@pytest.mark.full
def test_every_internal_link_resolves(whole_site_problems):
    assert not whole_site_problems["pages"]  # the whole site: some thousands of pages
    broken = whole_site_problems["links"]
    assert not broken, broken[:20]


@pytest.mark.full
def test_sitemap_lists_every_model_and_card_page_with_alternates(full_site):
    site = full_site
    sitemap = (site / "sitemap.xml").read_text(encoding="utf-8")
    catalogue = load_catalogue()
    locs = set(re.findall(r"<loc>([^<]+)</loc>", sitemap))
    for language in LANGUAGES:
        prefix = "" if language == "en" else f"{language}/"
        for model in catalogue.models:
            assert f"https://tps-atlas.example.org/{prefix}models/{model.id}/" in locs
        for card in catalogue.cards:
            assert f"https://tps-atlas.example.org/{prefix}cards/{card.id}/" in locs
    entry = sitemap.split("<loc>https://tps-atlas.example.org/nl/models/glm-130b/</loc>")[1].split("</url>")[0]
    for language in LANGUAGES:
        assert f'hreflang="{language}"' in entry
    assert 'href="https://tps-atlas.example.org/fr/models/glm-130b/"' in entry


def test_h100_nvl_card_page_lists_glm_130b(site):
    nl = visible_text(page_path(site, "nl", "cards", "h100-nvl-94gb").read_text(encoding="utf-8"))
    # The row: speed and range, model, size, memory needed, quant.
    assert re.search(r"29,6 tok/s 18–47 GLM-130B 130 mld\. 79,3 GB Q4_K_M ", nl)
    en = visible_text(page_path(site, "en", "cards", "h100-nvl-94gb").read_text(encoding="utf-8"))
    assert "29.6 tok/s" in en and "79.3 GB" in en


def test_card_pages_link_back_to_models(site):
    page = page_path(site, "de", "cards", "h100-nvl-94gb").read_text(encoding="utf-8")
    assert 'href="../../models/glm-130b/"' in page


def test_dutch_search_index_holds_dutch_faq_answers_only(site):
    index = json.loads((site / "nl" / "search" / "search_index.json").read_text(encoding="utf-8"))
    assert index["config"]["lang"] == ["nl"]
    question = str(Phrases("nl").t("How much VRAM does {model} need?", model="GLM-130B"))
    entries = [d for d in index["docs"] if d["location"].startswith("models/glm-130b/#") and d["title"] == question]
    assert len(entries) == 1
    assert "64,2 GB" in entries[0]["text"] and "Q3_K_M" in entries[0]["text"]
    english = str(Phrases("en").t("How much VRAM does {model} need?", model="GLM-130B"))
    assert not any(d["title"] == english for d in index["docs"])
    # The large card table stays out of the index: a card ranked below the ten fastest is nowhere.
    assert not any("A800 PCIe 80 GB" in d["text"] for d in index["docs"]
                   if d["location"].startswith("models/glm-130b/"))
    assert "A800 PCIe 80 GB" in visible_text(page_path(site, "nl", "models", "glm-130b").read_text("utf-8"))
    root = json.loads((site / "search" / "search_index.json").read_text(encoding="utf-8"))
    assert not any(d["location"].startswith(("nl/", "fr/", "de/")) for d in root["docs"])


def test_translated_pages_search_their_own_index(site):
    page = page_path(site, "nl", "models", "glm-130b").read_text(encoding="utf-8")
    config = json.loads(re.search(r'<script id="__config" type="application/json">(.*?)</script>', page).group(1))
    assert config["base"] == "../../../nl/"  # the trailing slash keeps search/search_index.json in nl/


@pytest.mark.parametrize("language", LANGUAGES)
def test_faq_json_ld_matches_the_visible_faq(site, language):
    page = page_path(site, language, "models", "glm-4.1v-thinking").read_text(encoding="utf-8")
    data = json.loads(re.search(r'<script type="application/ld\+json">(.*?)</script>', page, re.S).group(1))
    assert data["@type"] == "FAQPage" and data["inLanguage"] == language
    text = visible_text(page)
    assert len(data["mainEntity"]) >= 10
    for item in data["mainEntity"]:
        assert re.sub(r"\s+", " ", item["name"]) in text
        assert re.sub(r"\s+", " ", item["acceptedAnswer"]["text"]) in text


def test_language_switcher_stays_on_the_same_model(site):
    page = page_path(site, "fr", "models", "mixtral-8x7b").read_text(encoding="utf-8")
    alternates = {lang: href for href, lang in
                  re.findall(r'<link rel="alternate" href="([^"]+)" hreflang="(\w\w)">', page)}
    assert alternates["de"].endswith("de/models/mixtral-8x7b/")
    assert alternates["en"].endswith("models/mixtral-8x7b/")
    assert '<link rel="canonical" href="https://tps-atlas.example.org/fr/models/mixtral-8x7b/">' in page


@pytest.mark.parametrize("language", LANGUAGES)
def test_titles_and_descriptions_are_per_language(site, language):
    page = page_path(site, language, "models", "glm-130b").read_text(encoding="utf-8")
    phrases = Phrases(language)
    title = str(phrases.t("{model}: which GPUs run it, and how fast", model="GLM-130B"))
    assert f"<title>{title}" in page.replace("&#39;", "'")
    assert re.search(r'<meta name="description" content="[^"]*GLM-130B', page)
    models_index = page_path(site, language, "models").read_text(encoding="utf-8")
    assert f"<h1>{phrases.gettext('All models')}</h1>" in models_index


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_navigation_names_every_hand_made_page_in_the_pages_language(site, language):
    """Including the pages a language has its own file for (docs/fr/methodology.md, since #30)."""
    page = page_path(site, language, "models").read_text(encoding="utf-8")
    for title in ("How we estimate", "All models", "All devices"):
        shown = Phrases(language).gettext(title)
        assert re.search(r'class="md-nav__link[^"]*"[^>]*>\s*(?:<span[^>]*>\s*)?' + re.escape(str(escape(shown))),
                         page), (language, shown)
    if language != "en":
        assert ">Methodology<" not in page and "How we estimate" not in page


def test_charts_have_a_text_alternative(site):
    page = page_path(site, "nl", "models", "glm-130b").read_text(encoding="utf-8")
    svg = re.search(r"<svg viewBox.*?</svg>", page, re.S).group(0)
    assert 'role="img"' in svg and "<title" in svg and "<desc" in svg
    assert "29,6 tok/s" in svg


def test_browse_pages_in_every_language(site):
    for language in LANGUAGES:
        models = visible_text(page_path(site, language, "models").read_text(encoding="utf-8"))
        cards = visible_text(page_path(site, language, "cards").read_text(encoding="utf-8"))
        home = page_path(site, language).read_text(encoding="utf-8")
        assert "GLM-130B" in models and "Mixtral 8x7B" in models
        assert "H100 NVL 94 GB" in cards and "Apple M4 Max (128 GB)" in cards
        assert 'href="models/llama-3.1-8b/"' in home and 'href="cards/geforce-rtx-4090/"' in home


def test_methodology_renders_the_constants_live(site):
    nl = visible_text(page_path(site, "nl", "methodology").read_text(encoding="utf-8"))
    assert "90%" in nl and "75%" in nl and "8,57" in nl and "4.096" in nl
    # The calibrations by their Dutch names, not the ids of data/estimator.yaml (seed, measured).
    assert "Startkalibratie" in nl and "Aangepaste kalibratie" in nl and "measured" not in nl.replace("measured/", "")


@pytest.mark.parametrize("language", LANGUAGES)
def test_model_count_unified_memory_and_multi_gpu_answers_in_every_language(site, language):
    phrases = Phrases(language)
    fmt = phrases.fmt
    home = visible_text(page_path(site, language).read_text(encoding="utf-8"))
    assert fmt.count(len(load_catalogue().models)) in home and len(load_catalogue().models) >= 60
    mac = visible_text(page_path(site, language, "cards", "apple-m4-max-128gb").read_text(encoding="utf-8"))
    def folded(text):
        return re.sub(r"\s+", " ", text)
    assert phrases.gettext("Unified memory") in mac
    m4_max = load_catalogue().card("apple-m4-max-128gb")
    assert folded(fmt.percent(m4_max.usable_share)) in mac and folded(fmt.vram(m4_max.vram_gb)) in mac
    glm5 = visible_text(page_path(site, language, "models", "glm-5").read_text(encoding="utf-8"))
    question = folded(str(phrases.t("How many GPUs does {model} need?", model="GLM-5")))
    assert question in glm5
    answer = glm5.split(question, 1)[1][:1200]
    assert "2 × " in answer
    # The measured two-card run is quoted once, in the section on several cards above the FAQ.
    assert folded(fmt.tok_s(124.65)) in glm5.split(question, 1)[0]


def test_english_left_on_a_translated_page_is_reported(tmp_path, catalogue):
    from tests.support.whole_site import english_leftovers

    first, second = catalogue.models[:2]
    pages = {first.id: "Uitgebracht in March 2024.", second.id: "Draait op {count} kaarten."}
    for model in catalogue.models:
        page = tmp_path / "nl" / "models" / model.id / "index.html"
        page.parent.mkdir(parents=True)
        page.write_text(f"<article><p>{pages.get(model.id, 'Uitgebracht in maart 2024.')}</p></article>", "utf-8")
    assert english_leftovers(tmp_path, "nl") == [f"models/{first.id}: English month March",
                                                 f"models/{second.id}: placeholder {{count}}"]
