"""`tps-atlas i18n extract | update | check`: the translators' workflow.

extract  collects every phrase of the code and templates into locales/messages.pot
update   merges the template into each language's messages.po (new phrases appear
         untranslated, changed ones fuzzy)
check    fails, listing file:line and the problem, on untranslated or fuzzy entries,
         placeholders missing, added or renamed, a wrong number of plural forms,
         markup that differs from the source, or what GNU msgfmt --check-format finds;
         then the style classes of i18n_style (a sentence starting with a number, English
         words left, French no-break spaces, entries with placeholders but no translators'
         comment, a generic noun before a card's name); in English, a msgstr other than its msgid;
         and the calques of each language's glossary (locales/<lang>/glossary.yaml, tps_atlas/i18n/glossary.py)
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from pathlib import Path

from babel import Locale
from babel.messages.frontend import CommandLineInterface
from babel.messages.plurals import get_plural

from tps_atlas.errors import DataError
from tps_atlas.i18n.forms import CASES, forms_problem
from tps_atlas.i18n.names import NAME_PLACEHOLDERS
from tps_atlas.i18n.phrases import (DOMAIN, FORMS_CONTEXT, LANGUAGES, consistent, markup_problem, placeholders, po_path,
                                    template_syntax)
from tps_atlas.i18n.po import read_catalog
from tps_atlas.paths import LOCALES_DIR

ROOT = LOCALES_DIR.parent
KEYWORDS = ["-k", "N_", "-k", "NP_:1,2", "-k", "NC_:1c,2", "-k", "NPC_:1c,2,3"]
# The phrases whose placeholders the browser fills (device.js and calculator.js).
BROWSER_FILLED = ("tps_atlas/web/ui.py", "tps_atlas/web/data.py")
# A code comment starting with this tag, right above a phrase, reaches the translators as "#.".
COMMENT_TAG = "TRANSLATORS:"


def pybabel(*args: str) -> None:
    CommandLineInterface().run(["pybabel", "-q", *args])


def extract(locales_dir: Path = LOCALES_DIR) -> Path:
    pot = (locales_dir / f"{DOMAIN}.pot").resolve()
    # Run from the project root so that the template records relative locations.
    previous = os.getcwd()
    os.chdir(ROOT)
    try:
            pybabel("extract", "-F", "babel.cfg", *KEYWORDS, "-c", COMMENT_TAG, "--no-wrap", "--sort-by-file",
                "--project", "TPS Atlas", "--copyright-holder", "TPS Atlas",
                "--msgid-bugs-address", "translators@tps-atlas.invalid", "-o", str(pot), ".")
    finally:
        os.chdir(previous)
    tidy_template(pot)
    return pot


def tidy_template(pot: Path) -> None:
    """One translators' comment per entry, wrapped as a paragraph: Babel keeps each code line as
    its own comment and wraps each again, which cuts sentences into fragments. And the entries
    that are not Python format strings for GNU msgfmt (nor Poedit, nor Weblate) say so: a name's
    case ({card:dat}, tps_atlas/i18n/names.py) reads to them as a broken format spec, and the forms of a
    name may leave {name} out. Our own check covers their placeholders and cases instead."""
    from babel.messages.pofile import read_po, write_po
    with pot.open("rb") as file:
        catalog = read_po(file)
    for message in catalog:
        if len(message.auto_comments) > 1:
            message.auto_comments = [" ".join(c.strip() for c in message.auto_comments)]
        forms = bool(message.context and message.context.startswith(FORMS_CONTEXT))
        ids = message.id if isinstance(message.id, (list, tuple)) else (message.id,)
        if forms or any(placeholders(text) & NAME_PLACEHOLDERS for text in ids):
            message.flags.discard("python-brace-format")
            message.flags.add("no-python-brace-format")
    with pot.open("wb") as file:
        write_po(file, catalog, width=0, sort_by_file=True)


def update(locales_dir: Path = LOCALES_DIR) -> None:
    pot = locales_dir / f"{DOMAIN}.pot"
    for language in LANGUAGES:
        if po_path(language, locales_dir).exists():
            pybabel("update", "-i", str(pot), "-d", str(locales_dir), "-D", DOMAIN, "-l", language,
                    "--no-wrap", "--ignore-obsolete")
        else:
            pybabel("init", "-i", str(pot), "-d", str(locales_dir), "-D", DOMAIN, "-l", language, "--no-wrap")
        drop_contradicting_flags(po_path(language, locales_dir))


# Babel's update keeps an entry's old flags beside the template's: "no-python-brace-format,
# python-brace-format" would leave msgfmt checking what the template says it must not.
BOTH_FLAGS = re.compile(r"^(#,.*\bno-python-brace-format\b.*?)(?:, python-brace-format\b|\bpython-brace-format, )",
                        re.M)


def drop_contradicting_flags(path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    tidy = BOTH_FLAGS.sub(r"\1", text)
    if tidy != text:
        path.write_text(tidy, encoding="utf-8")


def check_catalogue(path: Path, language: str) -> list[str]:
    """Every problem of one .po file, as 'file:line: problem' lines."""
    try:
        catalog = read_catalog(path, language)
    except DataError as error:
        return [str(error)] + msgfmt_check(path)
    problems = []
    expected_plurals = get_plural(Locale.parse(language)).num_plurals
    if catalog.num_plurals != expected_plurals:
        problems.append(f"{path}:1: Plural-Forms header has nplurals={catalog.num_plurals}, "
                        f"{language} needs {expected_plurals}")
    for message in catalog:
        if not message.id:
            continue
        where = f"{path}:{message.lineno}"
        label = (message.id[0] if isinstance(message.id, (tuple, list)) else message.id)[:60]
        forms = message.string if isinstance(message.string, (tuple, list)) else (message.string,)
        if message.fuzzy:
            problems.append(f"{where}: fuzzy (review it, then remove the fuzzy flag): {label!r}")
        filled = sum(1 for form in forms if form)
        plural = isinstance(message.id, (tuple, list))
        if plural and filled > 0 and (filled != expected_plurals or len(forms) != expected_plurals):
            # Babel pads missing msgstr[N] with empty strings: some forms filled means some missing.
            problems.append(f"{where}: {filled} plural forms given, {language} needs {expected_plurals}: {label!r}")
            continue
        if not filled:
            problems.append(f"{where}: untranslated: {label!r}")
            continue
        # English is the source: an English msgstr other than its msgid is a leftover of a merge that
        # matched another entry ("older NVIDIA cards" shown as "Filter devices").
        if language == "en" and tuple(forms) != (tuple(message.id) if plural else (message.id,)):
            problems.append(f"{where}: the English msgstr differs from its msgid: {label!r}")
        if message.context and message.context.startswith(FORMS_CONTEXT):
            problem = forms_problem(message.string) if isinstance(message.string, str) else "a plural"
            if problem or not consistent(message.id, message.string, message.context):
                problems.append(f"{where}: name forms (msgctxt {message.context!r}) should read "
                                f"'case: words | case: words', using no placeholder but {{name}}: "
                                f"{problem or 'another placeholder'}")
            continue
        if not consistent(message.id, message.string):
            source = placeholders(message.id[-1] if isinstance(message.id, (tuple, list)) else message.id)
            found = set().union(*(placeholders(f) for f in forms))
            problems.append(f"{where}: placeholders differ from the source: expected "
                            f"{{{', '.join(sorted(source))}}}, found {{{', '.join(sorted(found))}}}: {label!r}")
        cases = {c for form in forms for c in re.findall(r"\{\w+:(\w+)\}", form)}
        unknown = sorted(c for c in cases if c.lower() not in CASES)
        # Sentences the browser fills (device.js, calculator.js) know only the bare {name}.
        if cases and any(path in BROWSER_FILLED for path, _ in message.locations):
            problems.append(f"{where}: a case after a name ({{name:case}}) in a sentence the browser fills, which "
                            f"knows only the bare name: word it without an article: {label!r}")
        if unknown:
            problems.append(f"{where}: unknown case(s) {', '.join(unknown)} after a name (cases: "
                            f"{', '.join(CASES)}; capitalised to start a sentence): {label!r}")
        problem = markup_problem(message.id, message.string)
        if problem:
            problems.append(f"{where}: markup differs from the source ({problem}): {label!r}")
        sources = message.id if isinstance(message.id, (tuple, list)) else (message.id,)
        allowed = set().union(*(template_syntax(s) for s in sources))
        if any(template_syntax(form) - allowed for form in forms):
            problems.append(f"{where}: template syntax ({{{{ }}}}, {{% %}}, {{# #}}) the source does not have: "
                            f"{label!r}")
    return problems + msgfmt_check(path)


def msgfmt_check(path: Path) -> list[str]:
    """GNU msgfmt's own syntax and format checks, where gettext is installed."""
    if not shutil.which("msgfmt"):
        return []
    result = subprocess.run(["msgfmt", "--check-format", "-o", "/dev/null", str(path)],
                            capture_output=True, text=True)
    if result.returncode == 0:
        return []
    # Keep its file:line reports; drop the summary ("msgfmt: found 1 fatal error").
    return [line for line in result.stderr.splitlines() if line.startswith(f"{path}:")]


def check(locales_dir: Path = LOCALES_DIR, languages=LANGUAGES, strict_context: bool = True) -> list[str]:
    problems = []
    for language in languages:
        problems += check_catalogue(po_path(language, locales_dir), language)
        problems += style_check(po_path(language, locales_dir), language, strict_context)
        problems += glossary_check(po_path(language, locales_dir), language, locales_dir)
    return problems


def glossary_check(path: Path, language: str, locales_dir: Path = LOCALES_DIR) -> list[str]:
    """The calques of the language's glossary (locales/<lang>/glossary.yaml) found in its msgstrs."""
    from tps_atlas.i18n.glossary import calque_problems, glossary_path, read_glossary
    try:
        glossary = read_glossary(glossary_path(locales_dir, language), language)
    except DataError as error:
        return [str(error)]
    try:
        catalog = read_catalog(path, language)
    except DataError:
        return []   # check_catalogue says why
    return calque_problems(catalog, path, glossary)


def style_check(path: Path, language: str, strict_context: bool = False) -> list[str]:
    """The style classes of one .po file (nothing if it does not read: check_catalogue says why)."""
    from tps_atlas.i18n.style import check_style  # loaded when used: check_catalogue does not need it
    try:
        catalog = read_catalog(path, language)
    except DataError:
        return []
    return check_style(catalog, path, language, strict_context)


def run(args) -> int:
    locales_dir = Path(args.locales) if args.locales else LOCALES_DIR
    if args.action == "extract":
        print(f"wrote {extract(locales_dir)}")
    elif args.action == "update":
        update(locales_dir)
        print("updated " + ", ".join(str(po_path(lang, locales_dir)) for lang in LANGUAGES))
    else:
        problems = check(locales_dir, args.language or LANGUAGES)
        for problem in problems:
            print(problem)
        if problems:
            print(f"{len(problems)} problem(s) in the phrase catalogues")
            return 1
        print("phrase catalogues OK: " + ", ".join(args.language or LANGUAGES))
    return 0


def add_i18n_commands(sub) -> None:
    i18n = sub.add_parser("i18n", help="phrase catalogues: extract, update, check")
    i18n.add_argument("action", choices=("extract", "update", "check"))
    i18n.add_argument("--locales", metavar="DIR", help="the locales folder (default: locales/)")
    i18n.add_argument("--language", action="append", choices=LANGUAGES, help="check only this language")
    i18n.set_defaults(run=run)
