"""The one error type the catalogue, the estimator and the phrase checks raise.

Every message names the file, the field and what was expected, so that a
person can fix the input without reading a traceback.
"""

from __future__ import annotations


class DataError(Exception):
    """Bad input: ``file``, ``field`` and what was ``expected`` (and what was found)."""

    def __init__(self, file: str, field: str, expected: str, found: object = None):
        self.file = display_path(file)
        self.field = field
        self.expected = expected
        self.found = found
        message = f"{self.file}: {field}: expected {expected}"
        if found is not None:
            message += f", found {found!r}"
        super().__init__(message)


def display_path(file: object) -> str:
    """A path relative to the working folder where it lies below it, for short messages."""
    from pathlib import Path

    text = str(file)
    try:
        return str(Path(text).resolve().relative_to(Path.cwd()))
    except (ValueError, OSError):
        return text
