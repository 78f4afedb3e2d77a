"""Read YAML mappings into typed values, with errors that name file and field.

>>> reader = FieldReader("m.yaml", {"layers": 40, "name": "GLM"})
>>> reader.integer("layers", minimum=1)
40
>>> reader.integer("heads", required=False) is None
True
>>> reader.text("layers")
Traceback (most recent call last):
...
tps_atlas.errors.DataError: m.yaml: layers: expected text, found 40
"""

from __future__ import annotations

import datetime as dt
import difflib
import math
import re
from pathlib import Path
from typing import Any, Iterable, Literal, overload


from tps_atlas.errors import DataError


# Numbers without a field-specific range: far above any real quantity we record (training
# compute is about 1e26 FLOP), far below where float arithmetic overflows.
MAX_NUMBER = 1e30
MAX_INTEGER = 10**9
MAX_TEXT = 2_000
# Characters that reorder or hide the text around them: an unterminated right-to-left
# override turns the rest of a <title> around.
BIDI_CONTROLS = frozenset("\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")
# Unicode's control characters (category Cc) are exactly these two ranges.
_UNSAFE = re.compile("[\x00-\x1f\x7f-\x9f" + "".join(sorted(BIDI_CONTROLS)) + "]")


def unsafe_character(text: str, allow_newlines: bool = False) -> str | None:
    """The first control or bidirectional control character of ``text``, named, or None.

    >>> unsafe_character("GLM-130B"), unsafe_character("Ctl\x1b[2J"), unsafe_character("a\u202eb")
    (None, 'U+001B (a control character)', 'U+202E (a bidirectional control)')
    """
    for match in _UNSAFE.finditer(text):
        char = match.group()
        if char in BIDI_CONTROLS:
            return f"U+{ord(char):04X} (a bidirectional control)"
        if not (allow_newlines and char in "\n\t"):
            return f"U+{ord(char):04X} (a control character)"
    return None



def describe(value: Any, prefix: str = "") -> str:
    """What was found instead of a mapping, in words."""
    if value is None:
        return "nothing" if prefix else "an empty file"
    kinds = {bool: "true or false", str: "text", list: "a list", int: "a number", float: "a number"}
    return next((kind for t, kind in kinds.items() if isinstance(value, t)), type(value).__name__)


class FieldReader:
    """Typed access to one mapping of a data file; remembers which keys were read."""

    def __init__(self, file: str | Path, data: Any, prefix: str = ""):
        self.file = str(file)
        self.prefix = prefix
        if not isinstance(data, dict):
            raise DataError(self.file, prefix or "(top level)", "a mapping of fields", describe(data, prefix))
        self.data = data
        self.seen: set[str] = set()

    def name(self, field: str) -> str:
        return f"{self.prefix}.{field}" if self.prefix else field

    def error(self, field: str, expected: str, found: Any = None) -> DataError:
        return DataError(self.file, self.name(field), expected, found)

    def _get(self, field: str, required: bool) -> Any:
        self.seen.add(field)
        value = self.data.get(field)
        if value is None and required:
            near = difflib.get_close_matches(field, [str(k) for k in self.data], n=1)
            found = f"misspelt as {near[0]!r}?" if near and near[0] != field else None
            raise self.error(field, "a value (the field is required)", found)
        return value

    @overload
    def text(self, field: str, required: Literal[True] = ..., max_length: int = ...) -> str: ...
    @overload
    def text(self, field: str, required: bool, max_length: int = ...) -> str | None: ...

    def text(self, field: str, required: bool = True, max_length: int = MAX_TEXT) -> str | None:
        value = self._get(field, required)
        if value is None:
            return None
        if not isinstance(value, str) or not value.strip():
            raise self.error(field, "text", value)
        return self._checked_text(field, value.strip(), max_length)

    def _checked_text(self, field: str, value: str, max_length: int = MAX_TEXT) -> str:
        if len(value) > max_length:
            raise self.error(field, f"text of at most {max_length:,} characters", f"{len(value):,} characters")
        bad = unsafe_character(value, allow_newlines=True)
        if bad:
            raise self.error(field, "text without control or bidirectional control characters", bad)
        return value

    @overload
    def number(self, field: str, required: Literal[True] = ..., minimum: float | None = ...,
               maximum: float | None = ..., above: float | None = ...) -> float: ...
    @overload
    def number(self, field: str, required: bool, minimum: float | None = ...,
               maximum: float | None = ..., above: float | None = ...) -> float | None: ...

    def number(self, field: str, required: bool = True, minimum: float | None = None,
               maximum: float | None = None, above: float | None = None) -> float | None:
        value = self._get(field, required)
        if value is None:
            return None
        # An int is compared exactly, never converted: a 400-digit one would overflow a float.
        if isinstance(value, bool) or not isinstance(value, (int, float)) or (
                isinstance(value, float) and not math.isfinite(value)):
            raise self.error(field, "a number", value)
        if maximum is None:
            maximum = MAX_NUMBER
        if above is not None and value <= above:
            raise self.error(field, f"a number above {above:g}", value)
        if minimum is not None and value < minimum:
            raise self.error(field, f"a number of at least {minimum:g}", value)
        if maximum is not None and value > maximum:
            raise self.error(field, f"a number of at most {maximum:g}", value)
        return float(value)

    @overload
    def integer(self, field: str, required: Literal[True] = ..., minimum: int | None = ...,
                maximum: int = ...) -> int: ...
    @overload
    def integer(self, field: str, required: bool, minimum: int | None = ..., maximum: int = ...) -> int | None: ...

    def integer(self, field: str, required: bool = True, minimum: int | None = None,
                maximum: int = MAX_INTEGER) -> int | None:
        value = self._get(field, required)
        if value is None:
            return None
        if isinstance(value, bool) or not isinstance(value, int):
            raise self.error(field, "a whole number", value)
        if minimum is not None and value < minimum:
            raise self.error(field, f"a whole number of at least {minimum}", value)
        if value > maximum:
            raise self.error(field, f"a whole number of at most {maximum:,}", value)
        return value

    @overload
    def boolean(self, field: str, required: Literal[True] = ...) -> bool: ...
    @overload
    def boolean(self, field: str, required: bool) -> bool | None: ...

    def boolean(self, field: str, required: bool = True) -> bool | None:
        value = self._get(field, required)
        if value is None:
            return None
        if not isinstance(value, bool):
            raise self.error(field, "true or false", value)
        return value

    @overload
    def date(self, field: str, required: Literal[True] = ..., latest: dt.date | None = ...) -> dt.date: ...
    @overload
    def date(self, field: str, required: bool, latest: dt.date | None = ...) -> dt.date | None: ...

    def date(self, field: str, required: bool = True, latest: dt.date | None = None) -> dt.date | None:
        value = self._get(field, required)
        if value is None:
            return None
        if isinstance(value, dt.datetime) or not isinstance(value, dt.date):
            raise self.error(field, "a date written YYYY-MM-DD", value)
        if latest is not None and value > latest:
            raise self.error(field, f"a date no later than {latest.isoformat()}", value.isoformat())
        return value

    @overload
    def choice(self, field: str, allowed: Iterable[str], required: Literal[True] = ...) -> str: ...
    @overload
    def choice(self, field: str, allowed: Iterable[str], required: bool) -> str | None: ...

    def choice(self, field: str, allowed: Iterable[str], required: bool = True) -> str | None:
        value = self._get(field, required)
        if value is None:
            return None
        allowed = list(allowed)
        if value not in allowed:
            raise self.error(field, "one of " + ", ".join(allowed), value)
        return value

    def texts(self, field: str, allowed: Iterable[str] | None = None) -> tuple[str, ...]:
        """A list of text items (a single text is taken as a list of one)."""
        value = self._get(field, False)
        if value is None:
            return ()
        if isinstance(value, str):
            value = [value]
        if isinstance(value, list) and any(isinstance(v, bool) for v in value):
            # YAML 1.1 reads NO, yes, on and off as true or false: Norway's code needs quotes.
            raise self.error(field, "a list of text items (quote words YAML reads as true or false, "
                             "such as \"NO\" or \"ON\")", value)
        if not isinstance(value, list) or not all(isinstance(v, str) and v.strip() for v in value):
            raise self.error(field, "a list of text items", value)
        for item in value:
            self._checked_text(field, item.strip())
        if allowed is not None:
            allowed = list(allowed)
            for item in value:
                if item not in allowed:
                    raise self.error(field, "items from " + ", ".join(allowed), item)
        return tuple(v.strip() for v in value)

    def integers(self, field: str, minimum: int = 1, maximum: int = MAX_INTEGER,
                 required: bool = False) -> tuple[int, ...]:
        value = self._get(field, required)
        if value is None:
            return ()
        if not isinstance(value, list) or not all(
                isinstance(v, int) and not isinstance(v, bool) and minimum <= v <= maximum for v in value):
            raise self.error(field, f"a list of whole numbers from {minimum} to {maximum:,}", value)
        if required and not value:
            raise self.error(field, "at least one whole number", value)
        return tuple(value)

    @overload
    def mapping(self, field: str, required: Literal[True] = ...) -> FieldReader: ...
    @overload
    def mapping(self, field: str, required: bool) -> FieldReader | None: ...

    def mapping(self, field: str, required: bool = True) -> FieldReader | None:
        value = self._get(field, required)
        if value is None:
            return None
        return FieldReader(self.file, value, self.name(field))

    def mappings(self, field: str) -> list[FieldReader]:
        value = self._get(field, False)
        if value is None:
            return []
        if not isinstance(value, list):
            raise self.error(field, "a list of mappings", value)
        return [FieldReader(self.file, item, f"{self.name(field)}[{i}]") for i, item in enumerate(value)]

    def finish(self) -> None:
        """Reject fields nobody read: a misspelt key must not vanish silently."""
        unknown = sorted(set(map(str, self.data)) - self.seen)
        if unknown:
            known = ", ".join(sorted(self.seen))
            raise self.error(unknown[0], f"a known field ({known})", "unknown field")
