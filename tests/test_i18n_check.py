"""`tps-atlas i18n check` passes on our catalogues and catches each kind of translator mistake."""

import shutil

import pytest

from tps_atlas.i18n.check import check_catalogue
from tps_atlas.i18n.phrases import LANGUAGES, Phrases, translations

from tests.support.paths import ROOT

HEADER = '''msgid ""
msgstr ""
"Content-Type: text/plain; charset=utf-8\\n"
"Language: {lang}\\n"
"Plural-Forms: {plural}\\n"

'''
PLURALS = {"nl": "nplurals=2; plural=(n != 1);",
           "fr": "nplurals=3; plural=(n == 0 || n == 1) ? 0 : n != 0 && n % 1000000 == 0 ? 1 : 2;"}


def catalogue(tmp_path, body, lang="nl"):
    path = tmp_path / f"{lang}.po"
    path.write_text(HEADER.format(lang=lang, plural=PLURALS[lang]) + body, encoding="utf-8")
    return path


def command(capsys, *argv: str) -> tuple[int, str, str]:
    """``tps-atlas ...`` in this process: its exit status, standard output and error."""
    from tps_atlas.cli import main as cli

    try:
        status = cli.main(list(argv))
    except SystemExit as stop:  # argparse's own mistakes
        status = stop.code
    out, err = capsys.readouterr()
    return status, out, err


def test_committed_catalogues_pass(capsys):
    status, out, _ = command(capsys, "i18n", "check")
    assert status == 0, out
    assert "phrase catalogues OK" in out


def test_a_clean_catalogue_passes(tmp_path):
    path = catalogue(tmp_path, 'msgid "{model} runs"\nmsgstr "{model} draait"\n')
    assert check_catalogue(path, "nl") == []


MISTAKES = {
    "untranslated": ('msgid "Fastest device"\nmsgstr ""\n', "untranslated"),
    "fuzzy": ('#, fuzzy\nmsgid "Fastest device"\nmsgstr "Snelste kaart"\n', "fuzzy"),
    "renamed placeholder": ('msgid "{model} runs"\nmsgstr "{modell} draait"\n', "placeholders differ"),
    "missing placeholder": ('msgid "{model} on {card}"\nmsgstr "{model} draait"\n', "placeholders differ"),
    "added placeholder": ('msgid "{model} runs"\nmsgstr "{model} draait op {card}"\n', "placeholders differ"),
    "markup differs": ('msgid "<strong>{model}</strong> runs"\nmsgstr "<em>{model}</em> draait"\n', "markup differs"),
    "syntax error": ('msgid "Fastest card\nmsgstr "Snelste kaart"\n', "end-of-line within string"),
    "syntax error babel sees": ('msgid "Fastest device"\nmsgstr "Snelste kaart"\nmsgstr "twice"\n', "po"),
}


@pytest.mark.parametrize("case", MISTAKES, ids=list(MISTAKES))
def test_each_mistake_is_reported_with_file_and_line(tmp_path, case):
    body, expected = MISTAKES[case]
    path = catalogue(tmp_path, body)
    problems = check_catalogue(path, "nl")
    assert problems and any(expected in p for p in problems), problems
    assert all(str(path.name) in p for p in problems)
    assert any(f"{path}:" in p or "line" in p for p in problems)


def test_wrong_number_of_plural_forms(tmp_path):
    body = ('msgid "{count} card"\nmsgid_plural "{count} cards"\n'
            'msgstr[0] "{count} carte"\nmsgstr[1] "{count} cartes"\n')
    problems = check_catalogue(catalogue(tmp_path, body, "fr"), "fr")
    assert any("plural forms" in p and "needs 3" in p for p in problems), problems


def test_wrong_plural_header(tmp_path):
    path = tmp_path / "fr.po"
    path.write_text(HEADER.format(lang="fr", plural="nplurals=2; plural=(n > 1);"), encoding="utf-8")
    assert any("nplurals=2" in p for p in check_catalogue(path, "fr"))


# Style classes (tps_atlas/i18n/style.py): what makes a translated page read as generated.

def style_problems(tmp_path, body, lang="nl", strict_context=False):
    from tps_atlas.i18n.check import style_check
    path = tmp_path / f"{lang}.po"
    plural = PLURALS.get(lang, "nplurals=2; plural=(n != 1);")
    path.write_text(HEADER.format(lang=lang, plural=plural) + body, encoding="utf-8")
    problems = style_check(path, lang, strict_context)
    assert all(f"{path}:" in p for p in problems), problems
    return problems


STYLE = {
    "sentence starts with a count": (
        "nl", 'msgid "{count} cards reach reading speed."\nmsgstr "{count} kaarten halen leestempo."\n',
        "starts with a number placeholder"),
    "count after a full stop": (
        "de", 'msgid "It fits. {count} cards run it."\nmsgstr "Es passt. {count} Grafikkarten schaffen das."\n',
        "starts with a number placeholder"),
    "English words left": (
        "fr", 'msgid "Source: {model} model card"\nmsgstr "Source\u00a0: {model} model card"\n',
        "English word(s) left in the translation (model card)"),
    "English article and noun": (
        "de", 'msgid "MXFP4 (MoE weights)"\nmsgstr "MXFP4 (MoE weights)"\n', "(weights)"),
    "a remark left in English beside a licence name": (
        "nl", 'msgid "NVIDIA Internal Scientific Research and Development Model '
              'License (weights)"\nmsgstr "NVIDIA Internal Scientific Research and Development Model License '
              '(weights)"\n', "English word(s) left in the translation (weights)"),
    "French unit with a breaking space": (
        "fr", 'msgid "{value} ms"\nmsgstr "{value} ms"\n', "no-break space (U+00A0 or U+202F) missing before ' ms'"),
    "French colon without a space": (
        "fr", 'msgid "Speed: {tok_s}"\nmsgstr "Vitesse: {tok_s}"\n', "missing before ':'"),
    "French question mark with a breaking space": (
        "fr", 'msgid "Can it run {model}?"\nmsgstr "Peut-elle faire tourner {model} ?"\n', "missing before ' ?'"),
}


@pytest.mark.parametrize("case", STYLE, ids=list(STYLE))
def test_each_style_class_is_reported_with_file_line_and_entry(tmp_path, case):
    lang, body, expected = STYLE[case]
    problems = style_problems(tmp_path, body, lang)
    msgid = body.split('"')[1]
    assert len(problems) == 1 and expected in problems[0] and msgid[:40] in problems[0], problems
    assert f"{lang}.po:{len(HEADER.splitlines()) + 1}:" in problems[0]


CLEAN = {
    "count inside the sentence": (
        "nl", 'msgid "{count} cards reach reading speed."\nmsgstr "Op {count} kaarten haalt het model leestempo."\n'),
    "a table value may start with its number": ("de", 'msgid "{params} parameters"\nmsgstr "{params} Parameter"\n'),
    "field terms": ("nl", 'msgid "{model} uses grouped-query attention (GQA)."\n'
                          'msgstr "{model} gebruikt grouped-query attention (GQA) op de GPU."\n'),
    "Dutch of and French on are not English": (
        "nl", 'msgid "{model} or {card}"\nmsgstr "{model} of {card}"\n'),
    "French no-break spaces": (
        "fr", 'msgid "Speed on {card}: {tok_s}?"\n'
              'msgstr "Débit sur {card}\u00a0: {value}\u202fms, {share}\u00a0%\u00a0?"\n'),
    "an address keeps its colon": ("fr", 'msgid "See {url}"\nmsgstr "Voir https://example.org/{url}"\n'),
    # A licence's name is a proper noun (data/licences.yaml): its "and" is not left untranslated.
    "a licence name kept as it is": (
        "de", 'msgctxt "model data: license"\nmsgid "NVIDIA Internal Scientific Research and Development Model '
              'License"\nmsgstr "NVIDIA Internal Scientific Research and Development Model License"\n'),
}


@pytest.mark.parametrize("case", CLEAN, ids=list(CLEAN))
def test_natural_translations_pass_the_style_checks(tmp_path, case):
    lang, body = CLEAN[case]
    assert style_problems(tmp_path, body, lang) == []


def test_missing_translators_context_is_reported_only_when_asked(tmp_path):
    bare = 'msgid "{count} cards run {model}."\nmsgstr "Op {count} kaarten draait {model}."\n'
    assert style_problems(tmp_path, bare) == []
    problems = style_problems(tmp_path, bare, strict_context=True)
    assert len(problems) == 1 and "no translators' comment (#.)" in problems[0] and "{count} cards run" in problems[0]
    explained = "#. TRANSLATORS: {count} is a number of cards, {model} a model name.\n" + bare
    assert style_problems(tmp_path, explained, strict_context=True) == []
    assert style_problems(tmp_path, 'msgid "Fastest device"\nmsgstr "Snelste kaart"\n', strict_context=True) == []


def test_the_cli_requires_translators_context(capsys, tmp_path):
    locales = tmp_path / "locales"
    shutil.copytree(ROOT / "locales", locales)
    po = locales / "nl" / "LC_MESSAGES" / "messages.po"
    text = po.read_text(encoding="utf-8")
    # The comment of an entry with a placeholder taken away: the check names it.
    entry = text.index('msgid "No device in our catalogue can run {model} at these settings."')
    start = text.rindex("\n\n", 0, entry) + 2
    end = text.index("#:", start)
    po.write_text(text[:start] + text[end:], encoding="utf-8")
    status, out, _ = command(capsys, "i18n", "check", "--locales", str(locales), "--language", "nl")
    assert "no translators' comment" in out and "messages.po:" in out and status == 1


def test_extract_keeps_translators_comments(tmp_path):
    from tps_atlas.i18n.check import COMMENT_TAG, KEYWORDS, pybabel
    source = tmp_path / "page.py"
    source.write_text(f'# {COMMENT_TAG} {{count}} is a number of cards.\nN_("{{count}} cards")\n', encoding="utf-8")
    pot = tmp_path / "messages.pot"
    pybabel("extract", *KEYWORDS, "-c", COMMENT_TAG, "-o", str(pot), str(source))
    assert f"#. {COMMENT_TAG} {{count}} is a number of cards." in pot.read_text(encoding="utf-8")


def test_the_cli_fails_and_lists_problems(tmp_path, capsys):
    locales = tmp_path / "locales"
    shutil.copytree(ROOT / "locales", locales)
    po = locales / "de" / "LC_MESSAGES" / "messages.po"
    text = po.read_text(encoding="utf-8")
    po.write_text(text.replace('"{model}', '"{modell}', 1), encoding="utf-8")
    status, out, _ = command(capsys, "i18n", "check", "--locales", str(locales))
    assert status == 1
    assert "messages.po:" in out and "placeholders differ" in out


def locales_with(tmp_path, language, msgid, msgstr):
    """A copy of our catalogues where one message of one language is replaced."""
    locales = tmp_path / "locales"
    shutil.copytree(ROOT / "locales", locales)
    po = locales / language / "LC_MESSAGES" / "messages.po"
    lines = po.read_text(encoding="utf-8").split("\n")
    at = lines.index(f'msgid "{msgid}"')
    lines[at + 1] = f'msgstr "{msgstr}"'
    po.write_text("\n".join(lines), encoding="utf-8")
    return locales


def test_a_missing_translation_falls_back_to_english(tmp_path):
    locales = locales_with(tmp_path, "nl", "Fastest device", "")
    assert Phrases("nl", locales).gettext("Fastest device") == "Fastest device"
    assert Phrases("nl").gettext("Fastest device") != "Fastest device"


def test_a_broken_placeholder_never_reaches_a_page(tmp_path):
    locales = locales_with(tmp_path, "nl", "Which GPUs can run {model}?", "Welke GPU's draaien {modell}?")
    assert str(Phrases("nl", locales).t("Which GPUs can run {model}?", model="X")) == "Which GPUs can run X?"


def test_values_are_escaped_in_sentences():
    sentence = Phrases("en").t("Which GPUs can run {model}?", model="<script>alert(1)</script>")
    assert "<script>" not in sentence and "&lt;script&gt;" in sentence


@pytest.mark.parametrize("language", [language for language in LANGUAGES if language != "en"])
def test_every_language_has_its_own_catalogue(language):
    catalogue = translations(language)
    assert catalogue.info()["language"] == language
    assert catalogue.gettext("All models") not in ("", "All models")
