"""The one error type the catalogue, the estimator and the phrase checks raise.

Every message names the file, the field and what was expected, so that a
person can fix the input without reading a traceback.
"""

from __future__ import annotations

import os
import reprlib

# A value quoted in a message is cut short: a 10 KB name or a list nested 5,000 deep must
# not become the message (repr() of an alias bomb alone would exhaust the memory).
_quote = reprlib.Repr()
_quote.maxstring = _quote.maxother = _quote.maxlong = 80
_quote.maxlevel = 3
_quote.maxlist = _quote.maxtuple = _quote.maxdict = _quote.maxset = 6


class DataError(Exception):
    """Bad input: ``file``, ``field`` and what was ``expected`` (and what was found)."""

    def __init__(self, file: object, field: str, expected: str, found: object = None):
        self.file = display_path(file)
        self.field = field
        self.expected = expected
        self.found = found
        message = f"{self.file}: {field}: expected {expected}"
        if found is not None:
            message += f", found {quote(found)}"
        super().__init__(message)


def quote(value: object) -> str:
    """``repr(value)``, shortened.

    >>> quote("x" * 200)[:12], len(quote("x" * 200)) < 100
    ("'xxxxxxxxxxx", True)
    """
    return _quote.repr(value)


def display_path(file: object) -> str:
    """A path relative to the working folder where it lies below it, for short messages.

    Links are not followed: a dangling editor lock file is named, not its target.
    """
    from pathlib import Path

    text = str(file)
    try:
        return str(Path(os.path.abspath(text)).relative_to(Path.cwd()))
    except (ValueError, OSError):
        return text
