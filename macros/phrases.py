"""Sentences in one language, from the gettext catalogues in ``locales/``.

The ``.po`` files are read directly (compiled in memory, nothing committed);
a message a language lacks falls back to English, then to the source text.
Placeholders are named, ``{model}``; their values are escaped, the sentence
itself is trusted markup from the catalogue (``tps-atlas i18n check`` keeps its
markup identical to the source).

>>> nl = Phrases("nl")
>>> fr = Phrases("fr")
>>> cards = ("card can run it", "cards can run it")
>>> fr.n(cards, 0) == fr.n(cards, 1) != fr.n(cards, 2)
True
"""

from __future__ import annotations

import gettext
import io
import re
import zlib
from functools import lru_cache
from pathlib import Path

from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po
from markupsafe import Markup, escape

from .errors import DataError
from .formatting import Formatter

LOCALES_DIR = Path(__file__).resolve().parent.parent / "locales"
LANGUAGES = ("en", "nl", "fr", "de")
DOMAIN = "messages"
PLACEHOLDER = re.compile(r"\{(\w+)\}")
TAG = re.compile(r"</?[a-zA-Z][^>]*>")
# Jinja's delimiters: a sentence must never carry template code into a page.
TEMPLATE_SYNTAX = re.compile(r"\{[{%#]|[}%#]\}")


def N_(message: str) -> str:
    """Mark a phrase for extraction; it is translated where it is used."""
    return message


def NP_(singular: str, plural: str) -> tuple[str, str]:
    """Mark a singular and plural pair for extraction, for ``Phrases.n``."""
    return singular, plural


def placeholders(text: str) -> set[str]:
    return set(PLACEHOLDER.findall(text))


def tags(text: str) -> list[str]:
    return sorted(TAG.findall(text))


def template_syntax(text: str) -> set[str]:
    return set(TEMPLATE_SYNTAX.findall(text))


def same_markup(source, translated) -> bool:
    """Every translated form has the source's HTML tags and no template syntax it lacks.

    A sentence goes into the page as trusted markup: a translation must not bring its own.

    >>> same_markup("<strong>{model}</strong> runs", "<strong>{model}</strong> draait")
    True
    >>> same_markup("{model} runs", "{model} draait<script>alert(1)</script>")
    False
    >>> same_markup("{model} runs", "{{ config }} draait")
    False
    """
    sources = tuple(source) if isinstance(source, (tuple, list)) else (source,)
    targets = tuple(translated) if isinstance(translated, (tuple, list)) else (translated,)
    allowed = set().union(*(template_syntax(s) for s in sources))
    return all(not t or (tags(t) == tags(sources[0]) and template_syntax(t) <= allowed) for t in targets)


def po_path(language: str, locales_dir: Path = LOCALES_DIR) -> Path:
    return locales_dir / language / "LC_MESSAGES" / f"{DOMAIN}.po"


PO_STRING = r'"(?:[^"\\]|\\.)*"'
PO_LINE = re.compile(rf'^(?:(msgctxt|msgid|msgid_plural|msgstr)(?:\[(\d+)\])?[ \t]+)?{PO_STRING}[ \t]*$')


def check_po_syntax(path: Path, text: str) -> None:
    """The line syntax of a .po file, as GNU msgfmt reads it. Babel's reader lets most
    mistakes pass: it cuts an unclosed string short, ignores a second msgstr and reads
    ``msgstr x`` as empty.

    >>> check_po_syntax(Path("nl.po"), 'msgid "Fastest card"\\nmsgstr "Snelste kaart"\\n')
    >>> check_po_syntax(Path("nl.po"), 'msgid "Fastest card"\\nmsgstr "Snelste kaart\\n')
    Traceback (most recent call last):
    ...
    macros.errors.DataError: nl.po: line 2: expected valid .po syntax (keyword "text", or "text" continuing it), found 'msgstr "Snelste kaart'
    """
    def error(expected: str) -> DataError:
        return DataError(path, f"line {number}", expected, stripped[:80])

    previous = None  # the last keyword read: msgctxt, msgid, msgid_plural, msgstr, msgstr[]
    forms = 0
    number, stripped = 0, ""
    for number, line in enumerate(text.splitlines(), 1):
        stripped = line.strip()
        if not stripped or stripped.startswith("#"):
            continue
        match = PO_LINE.match(stripped)
        if not match:
            raise error('valid .po syntax (keyword "text", or "text" continuing it)')
        keyword, index = match.groups()
        if keyword is None:
            if previous is None:
                raise error("a keyword (msgid, msgstr) before the text")
        elif index is not None and keyword != "msgstr":
            raise error(f"{keyword} without an index")
        elif keyword in ("msgctxt", "msgid"):
            if previous in ("msgctxt", "msgid", "msgid_plural") and not (keyword == "msgid" and previous == "msgctxt"):
                raise error("a msgstr after each msgid")
        elif keyword == "msgid_plural":
            if previous != "msgid":
                raise error("msgid_plural right after its msgid")
        elif index is None:
            if previous == "msgid_plural":
                raise error("msgstr[0], msgstr[1]... after msgid_plural")
            if previous != "msgid":
                raise error("one msgstr per msgid")
        else:
            if previous == "msgid":
                raise error("msgid_plural before msgstr[0]")
            forms = forms + 1 if previous == "msgstr[]" else 0
            if previous not in ("msgid_plural", "msgstr[]") or int(index) != forms:
                raise error(f"msgstr[{forms}]")
        if keyword:
            previous = "msgstr[]" if index is not None else keyword
    if previous in ("msgctxt", "msgid", "msgid_plural"):
        stripped = "(end of file)"
        raise error("a msgstr after each msgid")


def read_catalog(path: Path, language: str):
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        raise DataError(path, "(file)", f"the phrase catalogue of {language!r}") from None
    try:
        check_po_syntax(path, data.decode("utf-8"))
    except UnicodeDecodeError:
        raise DataError(path, "(file)", "UTF-8 text") from None
    try:
        return read_po(io.BytesIO(data), locale=language, abort_invalid=True)
    except Exception as error:  # babel's PoFileError and friends
        raise DataError(path, f"line {getattr(error, 'lineno', '?')}", "valid .po syntax", str(error)) from None


@lru_cache(maxsize=None)
def translations(language: str, locales_dir: str = str(LOCALES_DIR)) -> gettext.NullTranslations:
    """The language's catalogue, with English (then the source text) behind it."""
    chain = gettext.NullTranslations()
    for lang in ([language, "en"] if language != "en" else ["en"])[::-1]:
        catalog = read_catalog(po_path(lang, Path(locales_dir)), lang)
        # Drop translations whose placeholders or markup differ from the source: never a broken
        # page, never markup or template code that is not in the source (English is used instead).
        for message in list(catalog):
            if message.id and message.string and not (consistent(message.id, message.string)
                                                      and same_markup(message.id, message.string)):
                message.string = "" if isinstance(message.id, str) else ("",) * len(message.string)
        buffer = io.BytesIO()
        write_mo(buffer, catalog, use_fuzzy=False)
        buffer.seek(0)
        layer = gettext.GNUTranslations(buffer)
        layer.add_fallback(chain)
        chain = layer
    return chain


def consistent(source, translated) -> bool:
    """Every translated form uses exactly the source's placeholders.

    Plural forms may each leave names out, as long as together they use them all.

    >>> consistent("{model} runs", "{model} draait"), consistent("{model} runs", "{modell} läuft")
    (True, False)
    """
    sources = tuple(source) if isinstance(source, (tuple, list)) else (source,)
    targets = tuple(translated) if isinstance(translated, (tuple, list)) else (translated,)
    expected = set().union(*(placeholders(s) for s in sources))
    if len(sources) == 1:
        return all(not t or placeholders(t) == expected for t in targets)
    # Plural forms: no form invents a name; together they use every name but {count}
    # (a singular may say "one card", a plural form may say what the singular leaves out).
    found = [placeholders(t) for t in targets if t]
    return all(f <= expected for f in found) and (not found or set().union(*found) >= expected - {"count"})


def fill(text: str, params: dict) -> Markup:
    """Put escaped values into a trusted sentence; only ``{name}`` placeholders exist."""
    def value(match: re.Match) -> str:
        name = match.group(1)
        return str(escape(params[name])) if name in params else match.group(0)
    return Markup(PLACEHOLDER.sub(value, text))


class Phrases:
    """Translate and fill sentences for one language."""

    def __init__(self, language: str, locales_dir: Path | None = None):
        if language not in LANGUAGES:
            raise DataError("mkdocs.yml", "language", "one of " + ", ".join(LANGUAGES), language)
        self.language = language
        self.fmt = Formatter(language)
        self.catalogue = translations(language, str(locales_dir or LOCALES_DIR))

    @property
    def locale_name(self) -> str:
        """The language's own name for itself: Nederlands, Français."""
        name = self.fmt.locale.get_display_name(self.fmt.locale)
        return name[:1].upper() + name[1:]

    def gettext(self, message: str) -> str:
        return self.catalogue.gettext(message)

    def t(self, message: str, **params) -> Markup:
        return fill(self.catalogue.gettext(message), params)

    def n(self, forms: tuple[str, str], count: int, **params) -> Markup:
        """The form the language's plural rule picks for ``count`` (French: 0 and 1 singular)."""
        params.setdefault("count", self.fmt.count(count))
        return fill(self.catalogue.ngettext(forms[0], forms[1], count), params)

    def pick(self, seed: str, variants: tuple[str, ...], **params) -> Markup:
        """One of several wordings, the same one every build for the same seed."""
        choice = variants[zlib.crc32(seed.encode("utf-8")) % len(variants)]
        return self.t(choice, **params)

    def term(self, label: str) -> str:
        return self.catalogue.gettext(label)
