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


def N_(message: str) -> str:
    """Mark a phrase for extraction; it is translated where it is used."""
    return message


def NP_(singular: str, plural: str) -> tuple[str, str]:
    """Mark a singular and plural pair for extraction, for ``Phrases.n``."""
    return singular, plural


def placeholders(text: str) -> set[str]:
    return set(PLACEHOLDER.findall(text))


def po_path(language: str, locales_dir: Path = LOCALES_DIR) -> Path:
    return locales_dir / language / "LC_MESSAGES" / f"{DOMAIN}.po"


def read_catalog(path: Path, language: str):
    try:
        with open(path, "rb") as handle:
            return read_po(handle, locale=language, abort_invalid=True)
    except FileNotFoundError:
        raise DataError(path, "(file)", f"the phrase catalogue of {language!r}") from None
    except Exception as error:  # babel's PoFileError and friends
        raise DataError(path, f"line {getattr(error, 'lineno', '?')}", "valid .po syntax", str(error)) from None


@lru_cache(maxsize=None)
def translations(language: str, locales_dir: str = str(LOCALES_DIR)) -> gettext.NullTranslations:
    """The language's catalogue, with English (then the source text) behind it."""
    chain = gettext.NullTranslations()
    for lang in ([language, "en"] if language != "en" else ["en"])[::-1]:
        catalog = read_catalog(po_path(lang, Path(locales_dir)), lang)
        # Drop translations whose placeholders differ from the source: never a broken page.
        for message in list(catalog):
            if message.id and message.string and not consistent(message.id, message.string):
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
