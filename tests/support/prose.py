"""How translated prose is checked: paragraphs, sentences starting with a digit, implied counts."""

from __future__ import annotations

import html
import re

from tps_atlas.catalogue.load import load_catalogue
from tps_atlas.i18n.phrases import Phrases

from tests.support.site_build import page_path


def implied_count_problems(page_html: str, language: str) -> list[str]:
    """Sentences that imply more cards than a page lists: "half of the cards" beside a single
    card, "the ten fastest" over fewer than ten."""
    p = Phrases(language)
    fastest = page_html.split('id="extremes"', 1)[1].split("</ol>", 1)[0] if 'id="extremes"' in page_html else ""
    listed = fastest.count("<li>")
    problems = []
    half = p.gettext("Half of the devices that hold it manage {median} or more.").split("{")[0].strip()
    if listed == 1 and any(half in para for para in paragraphs(page_html)):
        problems.append(f"{half!r} over one card")
    ten = {"en": "ten fastest", "nl": "tien snelste", "fr": "dix", "de": "zehn schnellsten"}[language]
    if 0 < listed < 10 and re.search(rf"<h3>[^<]*\b{ten}\b", fastest):
        problems.append(f"{ten!r} above {listed} card(s)")
    return problems

def site_problems(site, language: str) -> list[str]:
    """Over every nl/fr/de model and card page: no sentence starting with a digit, no "130B" in
    prose (test_prose's checks), no "half of"/"ten fastest" over fewer cards."""
    catalogue = load_catalogue()
    # A name with ". <digit>" in it ("GeForce GTX 1060 6 GB Rev. 2") is not a sentence end.
    dotted = [n for n in [c.name for c in catalogue.cards] + [m.name for m in catalogue.models]
              if re.search(r"[.!?]\s\d", n)]
    problems = []
    for kind, ids in (("models", [m.id for m in catalogue.models]), ("cards", [c.id for c in catalogue.cards])):
        for item in ids:
            text = page_path(site, language, kind, item).read_text(encoding="utf-8")
            for n in dotted:
                if n in text:
                    text = text.replace(n, re.sub(r"([.!?])\s", r"\1", n))
            problems += [f"{kind}/{item}: {p}" for p in prose_problems(text, language)]
            if kind == "models":
                problems += [f"{kind}/{item}: {p}" for p in implied_count_problems(text, language)]
    return problems

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
