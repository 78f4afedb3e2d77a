"""Read YAML mappings into typed values, with errors that name file and field.

>>> reader = FieldReader("m.yaml", {"layers": 40, "name": "GLM"})
>>> reader.integer("layers", minimum=1)
40
>>> reader.integer("heads", required=False) is None
True
>>> reader.text("layers")
Traceback (most recent call last):
...
macros.errors.DataError: m.yaml: layers: expected text, found 40
"""

from __future__ import annotations

import datetime as dt
import difflib
import math
from pathlib import Path
from typing import Any, Iterable

import yaml

from .errors import DataError


class _ValueProblem(Exception):
    """A field given twice, or a value YAML cannot construct (2022-02-30), with where it is."""

    def __init__(self, node: yaml.Node, expected: str, found: str, key: Any = None):
        super().__init__(expected)
        self.node, self.expected, self.found, self.key = node, expected, found, key

    @property
    def field(self) -> str:
        mark = self.node.start_mark
        if self.key is not None:
            return f"{self.key} (line {mark.line + 1})"
        return f"line {mark.line + 1}, column {mark.column + 1}"


# What a value of each YAML type must look like, for the message.
_TAG_EXPECTED = {
    "tag:yaml.org,2002:timestamp": "a date that exists, written YYYY-MM-DD",
    "tag:yaml.org,2002:int": "a whole number",
    "tag:yaml.org,2002:float": "a number",
}


class StrictLoader(yaml.SafeLoader):
    """``yaml.safe_load``, except that a key given twice in one mapping is an error
    (PyYAML keeps the last one silently) and so is a value YAML recognises but cannot
    build, such as the date 2022-02-30 (PyYAML raises a bare ValueError)."""

    def construct_object(self, node, deep=False):
        try:
            return super().construct_object(node, deep=deep)
        except ValueError as error:  # YAML's own errors are not ValueErrors
            expected = _TAG_EXPECTED.get(node.tag, "a value YAML can read")
            raise _ValueProblem(node, expected, f"{node.value}: {error}") from None

    def construct_mapping(self, node, deep=False):
        if isinstance(node, yaml.MappingNode):
            first: dict = {}
            for key_node, _ in node.value:
                if key_node.tag == "tag:yaml.org,2002:merge":
                    continue
                key = self.construct_object(key_node, deep=True)
                try:
                    if key in first:
                        raise _ValueProblem(key_node, f"each field once (it is also on line {first[key]})",
                                            "a second value", key)
                    first[key] = key_node.start_mark.line + 1
                except TypeError:  # an unhashable key: SafeLoader reports it below
                    pass
        try:
            return super().construct_mapping(node, deep=deep)
        except _ValueProblem as problem:
            if problem.key is None:
                problem.key = next((k.value for k, v in node.value if v is problem.node), None)
            raise


def load_yaml(path: Path) -> Any:
    """Parse one YAML file; a syntax error becomes a DataError with the line.

    Duplicate keys and impossible values (a 30th of February) are errors too.
    """
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as error:
        raise DataError(path, "(file)", "a readable file", error.strerror) from None
    except UnicodeDecodeError:
        raise DataError(path, "(file)", "UTF-8 text") from None
    try:
        return yaml.load(text, Loader=StrictLoader)  # noqa: S506 (a SafeLoader)
    except _ValueProblem as problem:
        raise DataError(path, problem.field, problem.expected, problem.found) from None
    except yaml.YAMLError as error:
        mark = getattr(error, "problem_mark", None)
        where = f"line {mark.line + 1}, column {mark.column + 1}" if mark else "(syntax)"
        problem = getattr(error, "problem", None) or str(error)
        raise DataError(path, where, "valid YAML", problem) from None


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

    def text(self, field: str, required: bool = True) -> str | None:
        value = self._get(field, required)
        if value is None:
            return None
        if not isinstance(value, str) or not value.strip():
            raise self.error(field, "text", value)
        return value.strip()

    def number(self, field: str, required: bool = True, minimum: float | None = None,
               maximum: float | None = None, above: float | None = None) -> float | None:
        value = self._get(field, required)
        if value is None:
            return None
        if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
            raise self.error(field, "a number", value)
        if above is not None and value <= above:
            raise self.error(field, f"a number above {above:g}", value)
        if minimum is not None and value < minimum:
            raise self.error(field, f"a number of at least {minimum:g}", value)
        if maximum is not None and value > maximum:
            raise self.error(field, f"a number of at most {maximum:g}", value)
        return float(value)

    def integer(self, field: str, required: bool = True, minimum: int | None = None) -> int | None:
        value = self._get(field, required)
        if value is None:
            return None
        if isinstance(value, bool) or not isinstance(value, int):
            raise self.error(field, "a whole number", value)
        if minimum is not None and value < minimum:
            raise self.error(field, f"a whole number of at least {minimum}", value)
        return value

    def boolean(self, field: str, required: bool = True) -> bool | None:
        value = self._get(field, required)
        if value is None:
            return None
        if not isinstance(value, bool):
            raise self.error(field, "true or false", value)
        return value

    def date(self, field: str, required: bool = True) -> dt.date | None:
        value = self._get(field, required)
        if value is None:
            return None
        if isinstance(value, dt.datetime) or not isinstance(value, dt.date):
            raise self.error(field, "a date written YYYY-MM-DD", value)
        return value

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
        if not isinstance(value, list) or not all(isinstance(v, str) and v.strip() for v in value):
            raise self.error(field, "a list of text items", value)
        if allowed is not None:
            allowed = list(allowed)
            for item in value:
                if item not in allowed:
                    raise self.error(field, "items from " + ", ".join(allowed), item)
        return tuple(v.strip() for v in value)

    def integers(self, field: str, minimum: int = 1) -> tuple[int, ...]:
        value = self._get(field, False)
        if value is None:
            return ()
        if not isinstance(value, list) or not all(
                isinstance(v, int) and not isinstance(v, bool) and v >= minimum for v in value):
            raise self.error(field, f"a list of whole numbers of at least {minimum}", value)
        return tuple(value)

    def mapping(self, field: str, required: bool = True) -> "FieldReader | None":
        value = self._get(field, required)
        if value is None:
            return None
        return FieldReader(self.file, value, self.name(field))

    def mappings(self, field: str) -> list["FieldReader"]:
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
