"""The glossary per language (locales/<lang>/glossary.yaml) and the check that reports its calques."""

from __future__ import annotations

import shutil

import pytest

from tps_atlas.errors import DataError
from tps_atlas.i18n.glossary import glossary_path, read_glossary
from tps_atlas.i18n.check import check, glossary_check
from tps_atlas.paths import LOCALES_DIR
from tps_atlas.i18n.phrases import po_path

TRANSLATED = ("nl", "fr", "de")


@pytest.fixture
def locales(tmp_path):
    """A copy of the phrase catalogues and glossaries, to plant faults in."""
    copy = tmp_path / "locales"
    shutil.copytree(LOCALES_DIR, copy)
    return copy


@pytest.mark.parametrize("language", TRANSLATED)
def test_each_language_has_a_glossary_of_press_terms_and_calques(language):
    glossary = read_glossary(glossary_path(LOCALES_DIR, language), language)
    english = {term.en for term in glossary.terms}
    # The terms the issue names: quantisation, KV cache, offload, VRAM, fit words, device vs card.
    for needed in ("quantization", "KV cache", "VRAM", "graphics card", "device (cards and machines together)"):
        assert needed in english, (language, needed)
    assert any(term.en.startswith("offload") for term in glossary.terms)
    assert all(term.press for term in glossary.terms)
    assert len(glossary.calques) >= 10


@pytest.mark.parametrize("language", TRANSLATED)
def test_the_catalogues_use_none_of_their_glossary_calques(language):
    assert glossary_check(po_path(language), language) == []


@pytest.mark.parametrize("language, msgid, planted, calque, use", [
    ("de", "Fit", "Passung", "Passung", "Passt?"),
    ("de", "Comfortable", "Komfortabel", "Komfortabel", "Mit Reserve"),
    ("fr", "Worked out for this model", "Calculé pour ce modèle", "Calculé pour ce modèle",
     "Résultats pour ce modèle"),
    ("nl", "Chip-hours", "Chip-uren", "Chip-uren", "Chipuren"),
])
def test_a_planted_calque_is_reported_on_one_line(locales, language, msgid, planted, calque, use):
    po = po_path(language, locales)
    text = po.read_text(encoding="utf-8")
    entry = f'msgid "{msgid}"\nmsgstr "'
    start = text.index(entry) + len(entry)
    end = text.index('"\n', start)
    po.write_text(text[:start] + planted + text[end:], encoding="utf-8")
    found = [line for line in check(locales, [language]) if "glossary calque" in line]
    assert len(found) == 1, found
    line = found[0]
    assert line.startswith(f"{po}:") and repr(msgid) in line and repr(calque) in line and repr(use) in line


def test_a_calque_inside_a_longer_word_is_not_reported(locales):
    po = po_path("de", locales)
    text = po.read_text(encoding="utf-8")
    entry = 'msgid "Fit"\nmsgstr "'
    start = text.index(entry) + len(entry)
    end = text.index('"\n', start)
    po.write_text(text[:start] + "Anpassung" + text[end:], encoding="utf-8")
    assert not [line for line in check(locales, ["de"]) if "glossary calque" in line]


def test_a_glossary_with_a_wrong_field_is_one_clear_line(locales):
    path = glossary_path(locales, "fr")
    path.write_text("terms:\n  - {en: quantization, usee: quantification}\n", encoding="utf-8")
    with pytest.raises(DataError) as error:
        read_glossary(path, "fr")
    assert str(error.value).startswith(f"{path}: terms[0].use")
    found = [line for line in check(locales, ["fr"]) if str(path) in line]
    assert found and "terms[0].use" in found[0] and "Traceback" not in found[0]


def test_an_english_msgstr_other_than_its_msgid_is_reported(locales):
    # "older NVIDIA cards" had become "Filter devices" in every language, the English catalogue included.
    po = po_path("en", locales)
    text = po.read_text(encoding="utf-8")
    po.write_text(text.replace('msgid "older NVIDIA cards"\nmsgstr "older NVIDIA cards"',
                               'msgid "older NVIDIA cards"\nmsgstr "Filter devices"'), encoding="utf-8")
    found = check(locales, ["en"])
    assert any("English msgstr differs from its msgid" in line and "older NVIDIA cards" in line for line in found)
