"""Hugging Face files read as untrusted input: a model's ``config.json`` and its model card.

Both are refused with one line naming the file and the key (or line) when they are not what a
real model ships: malformed or truncated JSON, a key given twice, NaN, nesting deeper than any
config has, a file larger than a config could be, a model card whose front matter is not YAML.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import yaml

from tps_atlas.errors import DataError
from tps_atlas.records.strict_yaml import _StructureProblem, _ValueProblem, parse_yaml, read_text_file

# A config.json is a few KB; a model card a few hundred.
MAX_CONFIG_BYTES = 1_000_000
MAX_CARD_BYTES = 2_000_000
MAX_JSON_DEPTH = 32


def read_config(path: Path) -> dict:
    """A config.json as a mapping: strict JSON (no NaN, no key twice; Infinity as a bound), nested at most 32 deep."""
    text = read_text_file(path, MAX_CONFIG_BYTES)
    depth = _json_depth(text)
    if depth > MAX_JSON_DEPTH:
        raise DataError(path, "(structure)", f"at most {MAX_JSON_DEPTH} levels of nesting", f"{depth:,} levels")

    def no_constant(name: str):
        # Nemotron-H's time_step_limit is [0.0, Infinity]: a bound, kept (every size read is bounded
        # below it); NaN is no value at all.
        if name in ("Infinity", "-Infinity"):
            return float(name.lower())
        raise ValueError(name)

    def pairs(items: list[tuple[str, Any]]) -> dict:
        keys = [k for k, _ in items]
        twice = next((k for k in keys if keys.count(k) > 1), None)
        if twice is not None:
            raise _JsonProblem(twice, "each key once")
        return dict(items)

    try:
        value = json.loads(text, parse_constant=no_constant, object_pairs_hook=pairs)
    except _JsonProblem as problem:
        raise DataError(path, problem.key, problem.expected, "a second value") from None
    except json.JSONDecodeError as error:
        raise DataError(path, f"line {error.lineno}, column {error.colno}", "valid JSON") from None
    except ValueError as error:
        raise DataError(path, "(value)", "a finite number", str(error)) from None
    if not isinstance(value, dict):
        raise DataError(path, "(top level)", "a JSON object of settings")
    return value


class _JsonProblem(Exception):
    def __init__(self, key: str, expected: str):
        super().__init__(expected)
        self.key, self.expected = key, expected


def _json_depth(text: str) -> int:
    """The deepest nesting of brackets outside strings (json.loads would recurse that deep).

    >>> _json_depth('{"a": [1, {"b": "[[["}]}')
    3
    """
    depth = deepest = 0
    in_string = escaped = False
    for char in text:
        if in_string:
            if escaped:
                escaped = False
            elif char == "\\":
                escaped = True
            elif char == '"':
                in_string = False
        elif char == '"':
            in_string = True
        elif char in "[{":
            depth += 1
            deepest = max(deepest, depth)
        elif char in "]}":
            depth -= 1
    return deepest


def read_card(path: Path) -> tuple[dict, str]:
    """A model card (README.md): its YAML front matter, read strictly, and its text."""
    text = read_text_file(path, MAX_CARD_BYTES)
    match = re.match(r"---\r?\n(.*?)\r?\n---\r?\n", text, re.DOTALL)
    if not match:
        return {}, text
    front = _front_matter(path, match.group(1))
    return front, text[match.end():]


def _front_matter(path: Path, yaml_text: str) -> dict:
    try:
        value = parse_yaml(yaml_text)
    except (_ValueProblem, _StructureProblem, yaml.YAMLError):
        raise DataError(path, "(front matter)", "valid YAML between the --- lines") from None
    if value is None:
        return {}
    if not isinstance(value, dict):
        raise DataError(path, "(front matter)", "a mapping of fields")
    return value
