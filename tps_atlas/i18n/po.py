"""A language's .po file, read strictly before Babel sees it: its size, its header (the plural
rule, UTF-8) and its syntax, each fault one line naming the file and the line.
"""

from __future__ import annotations

import gettext
import io
import re
from pathlib import Path

from babel.messages.pofile import read_po

from tps_atlas.errors import DataError
from tps_atlas.records.strict_yaml import read_text_file


MAX_PO_BYTES = 5_000_000


PO_STRING = r'"(?:[^"\\]|\\.)*"'
PO_LINE = re.compile(rf'^(?:(msgctxt|msgid|msgid_plural|msgstr)(?:\[(\d+)\])?[ \t]+)?{PO_STRING}[ \t]*$')


HEADER_FIELD = re.compile(r'^"(Plural-Forms|Content-Type):\s*(.*?)(?:\\n)?"\s*$')
PLURAL_FORMS = re.compile(r"^\s*nplurals\s*=\s*(\d+)\s*;\s*plural\s*=\s*(.+?)\s*;?\s*$")


def check_po_header(path: Path, text: str) -> int | None:
    """The header's charset and Plural-Forms, as gettext reads them; returns nplurals.

    >>> check_po_header(Path("nl.po"), 'msgid ""\\nmsgstr ""\\n"Plural-Forms: nplurals=2; plural=(n != 1);\\\\n"\\n')
    2
    >>> check_po_header(Path("nl.po"),  # doctest: +ELLIPSIS
    ...                 'msgid ""\\nmsgstr ""\\n"Plural-Forms: nplurals=2; plural=(n != 1;\\\\n"\\n')
    Traceback (most recent call last):
    ...
    tps_atlas.errors.DataError: nl.po: line 3 (Plural-Forms): expected a plural expression gettext ..., found '(n != 1'
    """
    nplurals = None
    for number, line in enumerate(text.splitlines()[:40], 1):
        match = HEADER_FIELD.match(line.strip())
        if not match:
            continue
        name, value = match.groups()
        where = f"line {number} ({name})"
        if name == "Content-Type":
            charset = re.search(r"charset\s*=\s*([^\s;]+)", value)
            if charset and charset.group(1).casefold().replace("_", "-") not in ("utf-8", "utf8", "charset"):
                raise DataError(path, where, "charset=UTF-8", charset.group(1))
            continue
        forms = PLURAL_FORMS.match(value)
        if not forms:
            raise DataError(path, where, "nplurals=N; plural=EXPRESSION;", value)
        try:
            gettext.c2py(forms.group(2))
        except (ValueError, SyntaxError, RecursionError):
            raise DataError(path, where, "a plural expression gettext can read", forms.group(2)) from None
        nplurals = int(forms.group(1))
        if not 1 <= nplurals <= 6:
            raise DataError(path, where, "nplurals from 1 to 6", nplurals)
    return nplurals


def check_po_syntax(path: Path, text: str, nplurals: int | None = None) -> None:
    """The line syntax of a .po file, as GNU msgfmt reads it. Babel's reader lets most
    mistakes pass: it cuts an unclosed string short, ignores a second msgstr and reads
    ``msgstr x`` as empty.

    >>> check_po_syntax(Path("nl.po"), 'msgid "Fastest device"\\nmsgstr "Snelste kaart"\\n')
    >>> check_po_syntax(Path("nl.po"), 'msgid "Fastest device"\\nmsgstr "Snelste kaart\\n')  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    tps_atlas.errors.DataError: nl.po: line 2: expected valid .po syntax ..., found 'msgstr "Snelste kaart'
    """
    def error(expected: str) -> DataError:
        return DataError(path, f"line {number}", expected, stripped[:80])

    previous = None  # the last keyword read: msgctxt, msgid, msgid_plural, msgstr, msgstr[]
    forms = 0
    number, stripped = 0, ""
    # Each (context, msgid) once: gettext would silently use one of two translations.
    seen: dict[tuple[str, str], int] = {}
    context, key, key_line = "", "", 0

    def entry_done() -> None:
        if (context, key) in seen:
            raise DataError(path, f"line {key_line}", f"each msgid once (it is also on line {seen[context, key]})",
                            key[:80])
        seen[context, key] = key_line
    for number, line in enumerate(text.splitlines(), 1):
        stripped = line.strip()
        if not stripped or stripped.startswith("#"):
            continue
        match = PO_LINE.match(stripped)
        if not match:
            raise error('valid .po syntax (keyword "text", or "text" continuing it)')
        keyword, index = match.groups()
        quoted = stripped[stripped.index('"') + 1:stripped.rindex('"')]
        if keyword == "msgctxt":
            context = quoted
        elif keyword == "msgid":
            if previous != "msgctxt":
                context = ""
            key, key_line = quoted, number
        elif keyword is None and previous in ("msgctxt", "msgid"):
            if previous == "msgctxt":
                context += quoted
            else:
                key += quoted
        if keyword in ("msgstr", "msgid_plural") and previous == "msgid":
            entry_done()
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
            if nplurals is not None and forms >= nplurals:
                raise error(f"at most msgstr[{nplurals - 1}] (the header says nplurals={nplurals})")
        if keyword:
            previous = "msgstr[]" if index is not None else keyword
    if previous in ("msgctxt", "msgid", "msgid_plural"):
        stripped = "(end of file)"
        raise error("a msgstr after each msgid")


def read_catalog(path: Path, language: str):
    if not path.exists() and not path.is_symlink():
        raise DataError(path, "(file)", f"the phrase catalogue of {language!r}")
    text = read_text_file(path, MAX_PO_BYTES)
    check_po_syntax(path, text, check_po_header(path, text))
    data = text.encode("utf-8")
    try:
        return read_po(io.BytesIO(data), locale=language, abort_invalid=True)
    except Exception as error:  # babel's PoFileError and friends; their wording changes with Babel
        raise DataError(path, f"line {getattr(error, 'lineno', '?')}", "valid .po syntax",
                        "an entry the .po reader refuses") from None
