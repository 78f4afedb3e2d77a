"""Sentences in one language, from the gettext catalogues in ``locales/``.

The ``.po`` files are read directly (compiled in memory, nothing committed);
a message a language lacks falls back to English, then to the source text.
Placeholders are named, ``{model}``; their values are escaped, the sentence
itself is trusted markup from the catalogue: a translation whose markup differs
from its source's (a tag, an attribute, a comment, a stray ``<``) stops the build,
as it fails ``tps-atlas i18n check``.

>>> nl = Phrases("nl")
>>> fr = Phrases("fr")
>>> cards = ("device runs it", "devices run it")
>>> fr.n(cards, 0) == fr.n(cards, 1) != fr.n(cards, 2)
True
"""

from __future__ import annotations

import gettext
import io
import re
import zlib
from pathlib import Path
from typing import Iterable

from babel.messages.mofile import write_mo
from markupsafe import Markup, escape

from tps_atlas.cache import cached
from tps_atlas.errors import DataError, quote
from tps_atlas.paths import LOCALES_DIR
from tps_atlas.i18n.formatting import Formatter
from tps_atlas.i18n.forms import forms_problem
from tps_atlas.i18n.po import read_catalog


LANGUAGES = ("en", "nl", "fr", "de")
DOMAIN = "messages"
# A placeholder is a name, optionally with the case a translation wants it in ({card:dat},
# tps_atlas/i18n/names.py); group 1 is the name.
PLACEHOLDER = re.compile(r"\{(\w+)(?::(\w+))?\}")
# A complete tag: '<' inside one means the first was never closed.
TAG = re.compile(r"</?[a-zA-Z][^<>]*>")


# Jinja's delimiters: a sentence must never carry template code into a page.
TEMPLATE_SYNTAX = re.compile(r"\{[{%#]|[}%#]\}")


def N_(message: str) -> str:
    """Mark a phrase for extraction; it is translated where it is used."""
    return message


def NP_(singular: str, plural: str) -> tuple[str, str]:
    """Mark a singular and plural pair for extraction, for ``Phrases.n``."""
    return singular, plural


def NPC_(context: str, singular: str, plural: str) -> tuple[str, str, str]:
    """Mark a singular and plural pair with its msgctxt, for ``Phrases.npgettext``: a label whose
    singular is also an entry of its own ("Organisation", a column heading)."""
    return context, singular, plural


def placeholders(text: str) -> set[str]:
    """The names of a sentence's placeholders; a case ({card:dat}) is the same placeholder.

    >>> sorted(placeholders("{model} auf {card:dat}"))
    ['card', 'model']
    """
    return {match.group(1) for match in PLACEHOLDER.finditer(text)}


def tags(text: str) -> list[str]:
    return sorted(TAG.findall(text))


def template_syntax(text: str) -> set[str]:
    return set(TEMPLATE_SYNTAX.findall(text))


def markup_problem(source, translated) -> str | None:
    """How a translation's markup differs from its source's, or None.

    Every form must have exactly the source's tags (same attributes, written the same), and
    outside them no ``<``, ``>``, ``"`` or backtick the source lacks: that refuses added tags, comments
    (``<!--``) and a tag left open (``<img src=x onerror=...`` with no ``>``).

    >>> markup_problem("<strong>{model}</strong> runs", "<strong>{model}</strong> draait")
    >>> markup_problem("{model} runs", "{model} draait<script>alert(1)</script>")
    "tags ['</script>', '<script>'], the source has none"
    >>> markup_problem("All models", "Alle modellen<img src=x onerror=alert(2) ")
    "a '<' outside the source's tags (an unterminated tag or a comment)"
    """
    sources = tuple(source) if isinstance(source, (tuple, list)) else (source,)
    targets = tuple(translated) if isinstance(translated, (tuple, list)) else (translated,)
    expected = tags(sources[0])
    outside = TAG.sub("", sources[0])
    for target in targets:
        if not target:
            continue
        found = tags(target)
        if found != expected:
            return f"tags {found}, the source has {expected or 'none'}"
        rest = TAG.sub("", target)
        for char, what in (("<", "an unterminated tag or a comment"), (">", "a stray tag end"),
                           ('"', "it would end an attribute: use typographic quotes"),
                           ("`", "it would end an attribute in old browsers")):
            if rest.count(char) > outside.count(char):
                return f"a {char!r} outside the source's tags ({what})"
    return None


def same_markup(source, translated) -> bool:
    """Every translated form has the source's markup and no template syntax it lacks.

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
    return markup_problem(source, translated) is None and all(
        not t or template_syntax(t) <= allowed for t in targets)


def po_path(language: str, locales_dir: Path = LOCALES_DIR) -> Path:
    return locales_dir / language / "LC_MESSAGES" / f"{DOMAIN}.po"


# The msgctxt of a name's article forms (tps_atlas/i18n/names.py), checked as forms, not as a sentence.
FORMS_CONTEXT = "name forms: "


@cached(maxsize=None)
def translations(language: str, locales_dir: str = str(LOCALES_DIR)) -> gettext.NullTranslations:
    """The language's catalogue, with English (then the source text) behind it."""
    chain = gettext.NullTranslations()
    for lang in ([language, "en"] if language != "en" else ["en"])[::-1]:
        catalog = read_catalog(po_path(lang, Path(locales_dir)), lang)
        path = po_path(lang, Path(locales_dir))
        for message in list(catalog):
            if not (message.id and message.string):
                continue
            # Markup a translation adds would be live on the page: refuse the catalogue.
            problem = markup_problem(message.id, message.string)
            if problem:
                label = message.id[0] if isinstance(message.id, (tuple, list)) else message.id
                raise DataError(path, f"line {message.lineno} (msgid {quote(label)})",
                                "only the markup of the source (tps-atlas i18n check)", problem)
            # Other slips (a renamed placeholder, template code) fall back to English: never a
            # broken page, never template code that is not in the source.
            if not (consistent(message.id, message.string, message.context)
                    and same_markup(message.id, message.string)):
                message.string = "" if isinstance(message.id, str) else ("",) * len(message.string)
        buffer = io.BytesIO()
        write_mo(buffer, catalog, use_fuzzy=False)
        buffer.seek(0)
        layer = gettext.GNUTranslations(buffer)
        layer.add_fallback(chain)
        chain = layer
    return chain


def consistent(source, translated, context: str | None = None) -> bool:
    """Every translated form uses exactly the source's placeholders.

    Plural forms may each leave names out, as long as together they use them all. A name's
    forms (msgctxt "name forms: ...", tps_atlas/i18n/names.py) may say the name in their own words, so
    they need only read as forms and use no other placeholder.

    >>> consistent("{model} runs", "{model} draait"), consistent("{model} runs", "{modell} läuft")
    (True, False)
    >>> consistent("nom: {name}", "nom: l'université Tsinghua", "name forms: Tsinghua University")
    True
    """
    if context and context.startswith(FORMS_CONTEXT):
        return (isinstance(translated, str) and forms_problem(translated) is None
                and placeholders(translated) <= {"name"})
    sources = tuple(source) if isinstance(source, (tuple, list)) else (source,)
    targets = tuple(translated) if isinstance(translated, (tuple, list)) else (translated,)
    expected = set().union(*(placeholders(s) for s in sources))
    if len(sources) == 1:
        return all(not t or placeholders(t) == expected for t in targets)
    # Plural forms: no form invents a name; together they use every name but {count}
    # (a singular may say "one card", a plural form may say what the singular leaves out).
    found = [placeholders(t) for t in targets if t]
    return all(f <= expected for f in found) and (not found or set().union(*found) >= expected - {"count"})


class UnknownPlaceholder(ValueError):
    """A sentence asks for a value its caller did not give: the build stops, naming both, rather
    than print "{fast_card}" on a page. (A placeholder the browser fills is given as itself:
    ``context="{context}"``.)"""

    def __init__(self, msgid: str, name: str, given: Iterable[str]):
        super().__init__(f"phrase {quote(msgid)}: no value for {{{name}}} "
                         f"(given: {', '.join(sorted(given)) or 'none'})")
        self.msgid, self.name = msgid, name


def fill(text: str, params: dict, msgid: str | None = None) -> Markup:
    """Put escaped values into a trusted sentence; only ``{name}`` placeholders exist.

    ``{name:case}`` takes that form of a value that has forms (``names.Name``), else the value.
    A placeholder without a value raises ``UnknownPlaceholder`` naming ``msgid`` (the English
    sentence the translation is of) and the placeholder.

    >>> from tps_atlas.i18n.names import Name
    >>> str(fill("auf {card:dat} mit {vram:dat}", {"card": Name("M3", {"dat": "dem M3"}), "vram": "<9>"}))
    'auf dem M3 mit &lt;9&gt;'
    >>> fill("Snelste: {card}.", {"tok_s": "9"}, "Fastest: {card}.")
    Traceback (most recent call last):
    ...
    tps_atlas.i18n.phrases.UnknownPlaceholder: phrase 'Fastest: {card}.': no value for {card} (given: tok_s)
    """
    def value(match: re.Match) -> str:
        name, case = match.groups()
        if name not in params:
            raise UnknownPlaceholder(msgid or text, name, params)
        found = params[name]
        if case and hasattr(found, "form"):
            found = found.form(case)
        return str(escape(found))
    return Markup(PLACEHOLDER.sub(value, text))


class Phrases:
    """Translate and fill sentences for one language."""

    def __init__(self, language: str, locales_dir: Path | None = None, memory: tuple[str, float] = ("GB", 1.0)):
        if language not in LANGUAGES:
            raise DataError("mkdocs.yml", "language", "one of " + ", ".join(LANGUAGES), language)
        self.language = language
        self.fmt = Formatter(language, memory)
        self.catalogue = translations(language, str(locales_dir or LOCALES_DIR))

    @property
    def locale_name(self) -> str:
        """The language's own name for itself: Nederlands, Français."""
        name = self.fmt.locale.get_display_name(self.fmt.locale) or self.language
        return name[:1].upper() + name[1:]

    def gettext(self, message: str) -> str:
        return self.catalogue.gettext(message)

    def t(self, message: str, **params) -> Markup:
        return fill(self.catalogue.gettext(message), params, message)

    def n(self, forms: tuple[str, str], count: int, **params) -> Markup:
        """The form the language's plural rule picks for ``count`` (French: 0 and 1 singular)."""
        params.setdefault("count", self.fmt.count(count))
        return fill(self.catalogue.ngettext(forms[0], forms[1], count), params, forms[count != 1])

    def n_words(self, forms: tuple[str, str], count: int, **params) -> Markup:
        """``n`` with a small ``{count}`` written as a word ("two of them", "Davon lesen zwei")."""
        params.setdefault("count", self.fmt.count_words(count))
        return fill(self.catalogue.ngettext(forms[0], forms[1], count), params, forms[count != 1])

    def pick(self, seed: str, variants: tuple[str, ...], **params) -> Markup:
        """One of several wordings, the same one every build for the same seed."""
        choice = variants[zlib.crc32(seed.encode("utf-8")) % len(variants)]
        return self.t(choice, **params)

    def pgettext(self, context: str, message: str) -> str:
        return self.catalogue.pgettext(context, message)

    def npgettext(self, forms: tuple[str, str, str], count: int) -> str:
        return self.catalogue.npgettext(forms[0], forms[1], forms[2], count)

    def term(self, label: str) -> str:
        """A vocabulary label, with its msgctxt where it has one (vocabulary.Term)."""
        context = getattr(label, "context", None)
        return self.catalogue.pgettext(context, label) if context else self.catalogue.gettext(label)
