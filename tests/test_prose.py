"""Numbers in the running text of every translated model and card page read as a native writer
writes them: no sentence starts with a digit, no parameter or token count as "130B" or as a
twelve-digit string, and French keeps a number and its unit together with a no-break space."""

from __future__ import annotations

import html
import re

import pytest

from tps_atlas.catalogue.load import load_catalogue

from .site_build import page_path

# Paragraphs of running text; the figure tiles ("49", "72 GB · Q3_K_M") are not sentences.
PARAGRAPH = re.compile(r"<p\b(?![^>]*tps-tile)[^>]*>(.*?)</p>", re.S)
# A sentence starts at the start of a paragraph or after . ! ? and a space.
DIGIT_START = re.compile(r"(?:^|[.!?]\s)(\d[^.!?]{0,40})")
# "130B parameters", "met 40B", "671B": a count written the English way. In a model name
# (GLM-130B, Llama 3.1 8B, Qwen3 30B-A3B) the word before is capitalised or has a digit.
BARE_BILLIONS = re.compile(r"(?:^|(\S+) )(\d+(?:[.,]\d+)?B)\b(?!-)( [pP]aramet|( de)? param[eè]t)?")
LONG_DIGITS = re.compile(r"\d{1,3}(?:[.,\u202f\u00a0 ]\d{3}){3,}")  # 1.000.000.000 and longer
TAG = re.compile(r"<[^>]+>")
FRENCH_UNIT = re.compile(r"\d (?:Go|Go/s|tok/s|ms|%)(?![\w/])")


def paragraphs(page_html: str) -> list[str]:
    """The running text of a page: its paragraphs, tags removed, entities decoded."""
    text = page_html[page_html.find("<article"):]
    return [html.unescape(TAG.sub("", p)).strip() for p in PARAGRAPH.findall(text)]


def prose_problems(page_html: str, language: str) -> list[str]:
    problems = []
    for paragraph in paragraphs(page_html):
        for match in DIGIT_START.finditer(paragraph):
            problems.append(f"sentence starts with a digit: {match.group(1)!r}")
        problems += [f"count written as {m.group(2)!r}" for m in BARE_BILLIONS.finditer(paragraph)
                     if m.group(3) or not (m.group(1) and (m.group(1)[0].isupper() or re.search(r"\d", m.group(1))))]
        problems += [f"unreadable digit string {m.group(0)!r}" for m in LONG_DIGITS.finditer(paragraph)]
        if language == "fr":
            problems += [f"breaking space before a unit: {m.group(0)!r}" for m in FRENCH_UNIT.finditer(paragraph)]
    return problems


def test_the_checks_find_what_they_look_for():
    page = ("<article><p>Met 130B parameters past GLM-130B. 36 kaarten halen 14.800.000.000.000 tokens, "
            "à 20 Go et 29,6 tok/s.</p><p>Llama 3.1 8B en Qwen3 30B-A3B draaien op 2,0\u00a0Go; "
            "zo'n 37B van de 671B.</p></article>")
    found = prose_problems(page, "fr")
    assert any("starts with a digit: '36 kaarten" in p for p in found)
    assert [p.split("'")[1] for p in found if "count written" in p] == ["130B", "37B", "671B"]
    assert any("14.800.000.000.000" in p for p in found)
    assert sum("breaking space" in p for p in found) == 2


@pytest.mark.parametrize("language", ["nl", "fr", "de"])
def test_numbers_in_translated_prose_read_natively(site, language):
    catalogue = load_catalogue()
    pages = [page_path(site, language, "models", m.id) for m in catalogue.models]
    pages += [page_path(site, language, "cards", c.id) for c in catalogue.cards]
    problems = []
    for page in pages:
        if page.exists():
            problems += [f"{page.relative_to(site)}: {p}"
                         for p in prose_problems(page.read_text(encoding="utf-8"), language)]
    assert not problems, f"{len(problems)} problem(s), first: " + "; ".join(problems[:8])


@pytest.mark.parametrize("language", ["nl", "fr", "de"])
def test_translators_guide_and_theme_strings_read_in_the_language(site, language):
    from tps_atlas.i18n.phrases import Phrases
    page = page_path(site, language, "translators").read_text(encoding="utf-8")
    title = Phrases(language).gettext("Translators' guide")
    assert title != "Translators' guide" and re.search(rf"<h1[^>]*>{re.escape(title)}", page)
    assert "Every sentence on TPS Atlas comes from a phrase catalogue" not in page
    assert "Made with" not in page  # Material's English footer line
    if language == "nl":  # Material's own Dutch has "1 overeenkomende document"
        assert "1 overeenkomend document" in page and "1 overeenkomende document" not in page
