"""Names inside translated sentences take their article, gender and case (tps_atlas/i18n/names.py), and
`tps-atlas i18n check` reads a name's forms and the cases translations ask for."""

from __future__ import annotations

import html
import re

import pytest

from tps_atlas.errors import DataError
from tps_atlas.i18n.check import check_catalogue, msgfmt_check
from tps_atlas.i18n.names import card_kind, card_name, card_patterns, country_phrase, joined_name, organisation_name
from tps_atlas.i18n.phrases import Phrases

HEADER = '''msgid ""
msgstr ""
"Content-Type: text/plain; charset=utf-8\\n"
"Language: {lang}\\n"
"Plural-Forms: {plural}\\n"

'''

APPLE, RTX, SPARK = "Apple M3 Ultra (512 GB)", "GeForce RTX 4090", "NVIDIA DGX Spark (GB10, 128 GB)"


@pytest.mark.parametrize("language, card, expected", [
    ("de", RTX, "Läuft Llama 3.1 8B auf der GeForce RTX 4090?"),
    ("de", APPLE, "Läuft Llama 3.1 8B auf dem Apple M3 Ultra (512 GB)?"),
    ("nl", APPLE, "Draait Llama 3.1 8B op de Apple M3 Ultra (512 GB)?"),
    ("fr", APPLE, "Peut-on faire tourner Llama 3.1 8B sur l’Apple M3 Ultra (512 GB)\u00a0?"),
    ("fr", SPARK, "Peut-on faire tourner Llama 3.1 8B sur le NVIDIA DGX Spark (GB10, 128 GB)\u00a0?"),
])
def test_a_card_page_question_gives_the_card_its_article(language, card, expected):
    p = Phrases(language)
    assert str(p.t("Can the {card} run {model}?", card=card_name(card, language), model="Llama 3.1 8B")) == expected


def test_no_translation_calls_a_processor_a_graphics_card():
    p = Phrases("de")
    sentence = str(p.t("The fastest models on the {card}", card=card_name(APPLE, "de")))
    assert sentence == "Die schnellsten Modelle auf dem Apple M3 Ultra (512 GB)" and "Grafikkarte" not in sentence


def test_a_sentence_may_start_with_the_name_and_its_article():
    p = Phrases("de")
    sentence = str(p.t("The {card} ({vram}) runs it at {quant} at about {tok_s} ({range} tok/s), with {ram} in RAM.",
                       card=card_name(APPLE, "de"), vram="384 GB", quant="Q8_0", tok_s="9 tok/s", range="8–10",
                       ram="1 GB"))
    assert sentence.startswith("Der Apple M3 Ultra (512 GB) (384 GB) erreicht")


def test_the_bare_placeholder_stays_the_name():
    assert str(Phrases("fr").t("{card}: which models it runs, and how fast", card=card_name(RTX, "fr"))) \
        .startswith("GeForce RTX 4090\u00a0:")


@pytest.mark.parametrize("name, kind", [(RTX, "gpu"), ("Radeon Instinct MI300X", "gpu"), ("H100 PCIe", "gpu"),
                                        (APPLE, "processor"), ("AMD Ryzen AI Max+ 395 (Radeon 8060S, 128 GB)",
                                                               "processor"), ("Xeon Phi 7120P", "processor"),
                                        (SPARK, "computer")])
def test_each_card_has_the_kind_of_its_name(name, kind):
    assert card_kind(name) == kind


def test_organisations_and_countries_take_their_own_forms():
    assert organisation_name("Tsinghua University", "de").form("dat") == "der Tsinghua-Universität"
    assert organisation_name("OpenAI", "fr").form("de") == "d’OpenAI"
    assert str(organisation_name("Alibaba (Qwen Team)", "fr")) == "Alibaba (équipe Qwen)"
    assert [country_phrase("US", lang, "in") for lang in ("nl", "fr", "de")] == [
        "in de Verenigde Staten", "aux États-Unis", "in den Vereinigten Staaten"]
    both = joined_name([organisation_name("Technology Innovation Institute", "fr"),
                        organisation_name("OpenAI", "fr")], "fr")
    assert both.form("nom") == "le Technology Innovation Institute et OpenAI"


def test_a_bad_kind_in_names_yaml_is_one_line(tmp_path):
    path = tmp_path / "names.yaml"
    path.write_text("card_kinds:\n  - kind: graphics card\n    names: ['x']\n", encoding="utf-8")
    with pytest.raises(DataError) as error:
        card_patterns(path)
    message = str(error.value)
    assert "names.yaml" in message and "card_kinds[0].kind" in message and "\n" not in message


def catalogue(tmp_path, body, lang="de"):
    path = tmp_path / f"{lang}.po"
    plural = ("nplurals=3; plural=(n == 0 || n == 1) ? 0 : n != 0 && n % 1000000 == 0 ? 1 : 2;" if lang == "fr"
              else "nplurals=2; plural=(n != 1);")
    path.write_text(HEADER.format(lang=lang, plural=plural) + body, encoding="utf-8")
    return path


def test_a_case_after_a_name_passes_every_check(tmp_path):
    # The flag `i18n extract` gives an entry with a name placeholder (see the test below).
    body = ('#, no-python-brace-format\nmsgid "Can the {card} run {model}?"\n'
            'msgstr "Läuft {model} auf {card:dat}?"\n')
    path = catalogue(tmp_path, body)
    assert check_catalogue(path, "de") == [] and msgfmt_check(path) == []


def test_extract_flags_entries_with_names_as_no_python_format(tmp_path):
    from tps_atlas.i18n.check import tidy_template
    pot = tmp_path / "messages.pot"
    pot.write_text('#, python-brace-format\nmsgid "Can the {card} run {model}?"\nmsgstr ""\n\n'
                   '#, python-brace-format\nmsgid "{model} needs {need}."\nmsgstr ""\n', encoding="utf-8")
    tidy_template(pot)
    text = pot.read_text(encoding="utf-8")
    # msgfmt (and Poedit, Weblate) would read {card:dat} as a broken format spec; {model} alone stays checked.
    assert '#, no-python-brace-format\nmsgid "Can the {card}' in text
    assert '#, python-brace-format\nmsgid "{model} needs' in text


def test_an_unknown_case_is_reported_with_file_line_and_entry(tmp_path):
    body = 'msgid "Can the {card} run {model}?"\nmsgstr "Läuft {model} auf {card:dativ}?"\n'
    problems = check_catalogue(catalogue(tmp_path, body), "de")
    assert len(problems) == 1 and "unknown case(s) dativ" in problems[0] and "Can the {card} run" in problems[0]
    assert f"de.po:{len(HEADER.splitlines()) + 1}:" in problems[0]


def test_name_forms_may_say_the_name_in_their_own_words(tmp_path):
    body = ('#, no-python-brace-format\nmsgctxt "name forms: Tsinghua University"\nmsgid "nom: {name}"\n'
            'msgstr "nom: l’université Tsinghua | de: de l’université Tsinghua"\n')
    path = catalogue(tmp_path, body, "fr")
    assert check_catalogue(path, "fr") == [] and msgfmt_check(path) == []


@pytest.mark.parametrize("msgstr, expected", [("die {name}", "is not 'case: words'"),
                                              ("nom: die {name} | dativ: der {name}", "unknown case 'dativ'"),
                                              ("dat: der {name}", "no 'nom' form"),
                                              ("nom: die {card}", "another placeholder")])
def test_broken_name_forms_are_reported(tmp_path, msgstr, expected):
    body = f'msgctxt "name forms: gpu"\nmsgid "nom: the {{name}}"\nmsgstr "{msgstr}"\n'
    problems = check_catalogue(catalogue(tmp_path, body), "de")
    assert len(problems) == 1 and expected in problems[0] and "name forms" in problems[0], problems


def style(tmp_path, body, lang, strict=False):
    from tps_atlas.i18n.check import style_check
    return style_check(catalogue(tmp_path, body, lang), lang, strict)


def test_a_generic_noun_before_a_card_name_is_reported_in_strict_mode(tmp_path):
    body = 'msgid "Can the {card} run {model}?"\nmsgstr "Läuft {model} auf der Grafikkarte {card}?"\n'
    assert style(tmp_path, body, "de") == []
    problems = style(tmp_path, "#. TRANSLATORS: {card} is a card.\n" + body, "de", strict=True)
    assert len(problems) == 1 and "generic noun before a card's name (Grafikkarte {card})" in problems[0]
    assert f"de.po:{len(HEADER.splitlines()) + 2}:" in problems[0] and "Can the {card} run" in problems[0]
    fixed = ('#. TRANSLATORS: {card} is a card.\nmsgid "Can the {card} run {model}?"\n'
             'msgstr "Läuft {model} auf {card:dat}?"\n')
    assert style(tmp_path, fixed, "de", strict=True) == []


def test_a_case_is_not_a_french_colon(tmp_path):
    body = 'msgid "Can the {card} run {model}?"\nmsgstr "Peut-on faire tourner {model} sur {card:nom}\u00a0?"\n'
    assert style(tmp_path, body, "fr") == []


def test_english_model_data_left_untranslated_is_reported(tmp_path):
    body = ('msgctxt "model data: numerical_format"\nmsgid "MXFP4 (MoE weights), BF16 (other weights)"\n'
            'msgstr "MXFP4 (MoE weights), BF16 (other weights)"\n')
    problems = style(tmp_path, body, "nl")
    assert len(problems) == 1 and "English word(s) left in the translation (other, weights)" in problems[0]


class FakeModel:
    def __init__(self, **fields):
        self.__dict__.update({"reference": None, "sources": (), "numerical_format": None, "license": None, **fields})


class FakeSource:
    def __init__(self, title):
        self.title = title


def test_data_text_is_translated_or_quoted_as_english():
    from tps_atlas.i18n.data_text import DataText
    model = FakeModel(numerical_format="MXFP4 (MoE weights), BF16 (other weights)", license="Apache 2.0",
                      sources=(FakeSource("gpt-oss-20b model card"),))
    de = DataText(Phrases("de"), [model])
    assert de("MXFP4 (MoE weights), BF16 (other weights)") == "MXFP4 (MoE-Gewichte), BF16 (übrige Gewichte)"
    assert str(de("gpt-oss-20b model card")) == '<span lang="en">gpt-oss-20b model card</span>'
    assert str(de("Apache 2.0")) == '<span lang="en">Apache 2.0</span>'
    assert de("130 Mrd.") == "130 Mrd."
    assert DataText(Phrases("en"), [model])("gpt-oss-20b model card") == "gpt-oss-20b model card"


def test_every_model_data_text_is_in_the_catalogue():
    """A new licence or weight format in data/models must be extracted and translated."""
    from tps_atlas.catalogue.load import load_catalogue
    from tps_atlas.i18n.data_text import CONTEXT, TRANSLATED_FIELDS
    from tps_atlas.i18n.phrases import translations
    missing = []
    for lang in ("nl", "fr", "de"):
        catalogue = translations(lang)
        for m in load_catalogue().models:
            for name in TRANSLATED_FIELDS:
                value = getattr(m, name)
                # pgettext returns the msgid itself when the entry is missing or empty
                marker = catalogue.pgettext(CONTEXT + name, value) if value else None
                if value and marker is value:
                    missing.append(f"{lang}: {m.id}.{name}")
    assert not missing, missing


def test_a_case_in_a_sentence_the_browser_fills_is_reported(tmp_path):
    body = ('#: tps_atlas/web/ui.py:44\nmsgid "On your {device}"\nmsgstr "Auf {device:dat}"\n')
    problems = check_catalogue(catalogue(tmp_path, body), "de")
    assert len(problems) == 1 and "the browser fills" in problems[0] and "On your {device}" in problems[0]


def test_an_entry_without_context_is_named_by_file_line_and_entry(tmp_path):
    body = 'msgid "MIT (derived from {model})"\nmsgstr "MIT (derived from {model})"\n'
    problems = style(tmp_path, body, "nl", strict=True)
    line = len(HEADER.splitlines()) + 1
    assert [p.split(": ", 1)[1].split(":")[0] for p in problems] == ["no translators' comment (#.) saying what the "
                                                                     "placeholders hold", "English word(s) left in "
                                                                     "the translation (derived, from)"]
    assert all(f"nl.po:{line}: " in p and "'MIT (derived from {model})'" in p for p in problems)


@pytest.mark.parametrize("language, expected, wrong", [
    ("de", "Läuft Llama 3.1 8B auf dem Apple M4 Max (128 GB)?", "Grafikkarte Apple"),
    ("fr", "Peut-on faire tourner Llama 3.1 8B sur l’Apple M4 Max (128 GB)\u00a0?", "la Apple"),
    ("nl", "Draait Llama 3.1 8B op de Apple M4 Max (128 GB)?", "kaart Apple"),
])
def test_a_machine_page_gives_its_name_the_article_of_a_chip(site, language, expected, wrong):
    from tests.support.site_build import page_path
    page = page_path(site, language, "cards", "apple-m4-max-128gb").read_text(encoding="utf-8")
    text = html.unescape(re.sub(r"<[^>]+>", "", page))
    assert expected in text and wrong not in text
    # The source notes quote English pages: marked as English, and the label says so.
    assert re.search(r'<dd><span lang="en">[^<]*Apple', page)
    assert Phrases(language).gettext("Source of these figures (in English)") in text
