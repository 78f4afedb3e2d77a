"""The API's JSON Schemas (``schemas/*.json``, published beside the files) and a validator for the
part of JSON Schema (2020-12) they use.

Why not the ``jsonschema`` package: it would bring four packages into the build's lock, one of them
(rpds-py) compiled for every platform the lock covers, to check six keywords our own schemas use.
The validator refuses a schema with any other keyword, so a schema can never ask for a check that
is silently skipped.

Besides the schema, every string of every file is held to the API's own rule: plain text, no
control or bidirectional control character (``records.unsafe_character``, as the catalogue is).

>>> schema = {"type": "object", "required": ["id"], "additionalProperties": False,
...           "properties": {"id": {"type": "string", "pattern": "^[a-z]+$"}}}
>>> problems({"id": "ok"}, schema)
[]
>>> problems({"id": "No", "x": 1}, schema)
["$.id: 'No' does not match ^[a-z]+$", '$.x: not allowed here']
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from tps_atlas.cache import cached
from tps_atlas.records.fields import unsafe_character

SCHEMAS = Path(__file__).resolve().parent / "schemas"
SCHEMA_NAMES = ("index", "model", "device", "moved")
KEYWORDS = frozenset({"$schema", "$id", "$defs", "$ref", "title", "description", "type", "properties",
                      "required", "additionalProperties", "propertyNames", "items", "enum", "pattern",
                      "minimum"})
# Schemas whose keywords were checked, by id (each kept here, so that its id is never another's).
_known: dict[int, dict] = {}
TYPES = {"object": dict, "array": list, "string": str, "boolean": bool, "null": type(None)}


@cached(maxsize=None)
def definitions() -> dict:
    return json.loads((SCHEMAS / "api.json").read_text(encoding="utf-8"))


@cached(maxsize=None)
def load_schema(name: str) -> dict:
    """The published schema of one kind of file: the shared definitions, pointing at its own."""
    shared = definitions()
    return {"$schema": shared["$schema"], "title": f"{shared['title']}: {name}",
            "description": shared["description"], "$ref": f"#/$defs/{name}", "$defs": shared["$defs"]}


def is_type(value: Any, kind: str) -> bool:
    if kind == "integer":
        return isinstance(value, int) and not isinstance(value, bool)
    if kind == "number":
        return isinstance(value, int | float) and not isinstance(value, bool)
    return isinstance(value, TYPES[kind])


def problems(value: Any, schema: dict, where: str = "$", root: dict | None = None, limit: int = 20) -> list[str]:
    """What is wrong with ``value`` under ``schema`` (empty: nothing), at most ``limit`` lines."""
    found: list[str] = []
    _check(value, schema, where, root or schema, found, limit)
    return found


def _check(value: Any, schema: dict, where: str, root: dict, found: list[str], limit: int) -> None:
    if len(found) >= limit:
        return
    if not schema:  # a value with no schema of its own: still plain text all through
        if isinstance(value, str):
            _plain(value, where, found)
        elif isinstance(value, dict | list):
            for key, item in (value.items() if isinstance(value, dict) else enumerate(value)):
                _check(item, schema, f"{where}.{key}", root, found, limit)
        return
    if id(schema) not in _known:
        _known[id(schema)] = _checked_schema(schema)
    if "$ref" in schema:
        _check(value, root["$defs"][schema["$ref"].removeprefix("#/$defs/")], where, root, found, limit)
        return
    kinds = schema.get("type")
    if kinds is not None:
        kinds = [kinds] if isinstance(kinds, str) else kinds
        if not any(is_type(value, k) for k in kinds):
            found.append(f"{where}: expected {' or '.join(kinds)}, found {json.dumps(value)[:60]}")
            return
    if isinstance(value, str):
        _plain(value, where, found)
        if "pattern" in schema and not re.search(schema["pattern"], value):
            found.append(f"{where}: {value[:60]!r} does not match {schema['pattern']}")
    if "enum" in schema and value not in schema["enum"]:
        found.append(f"{where}: one of {schema['enum']}, found {json.dumps(value)[:60]}")
    if "minimum" in schema and is_type(value, "number") and value < schema["minimum"]:
        found.append(f"{where}: at least {schema['minimum']}, found {value}")
    if isinstance(value, list) and "items" in schema:
        for i, item in enumerate(value):
            _check(item, schema["items"], f"{where}[{i}]", root, found, limit)
    if isinstance(value, dict):
        for key in schema.get("required", ()):
            if key not in value:
                found.append(f"{where}: {key} is required")
        properties = schema.get("properties", {})
        extra = schema.get("additionalProperties", True)
        names = schema.get("propertyNames")
        for key, item in value.items():
            if names is not None:
                _check(key, names, f"{where} key {key!r}", root, found, limit)
            if key in properties:
                _check(item, properties[key], f"{where}.{key}", root, found, limit)
            elif extra is False:
                found.append(f"{where}.{key}: not allowed here")
            elif isinstance(extra, dict):
                _check(item, extra, f"{where}.{key}", root, found, limit)
            else:
                _check(item, {}, f"{where}.{key}", root, found, limit)  # still plain text
    elif isinstance(value, list) and "items" not in schema:
        for i, item in enumerate(value):
            _check(item, {}, f"{where}[{i}]", root, found, limit)


def _checked_schema(schema: dict) -> dict:
    """``schema``, once its keywords are known to be ones this validator checks."""
    unknown = set(schema) - KEYWORDS
    if unknown:
        raise ValueError(f"schema keyword(s) the validator does not check: {', '.join(sorted(unknown))}")
    if "$ref" in schema:
        if not schema["$ref"].startswith("#/$defs/"):
            raise ValueError(f"only local references (#/$defs/...), not {schema['$ref']}")
        if set(schema) - {"$ref", "$schema", "$defs", "title", "description"}:
            raise ValueError("a $ref with other checks beside it: put them in the definition")
    return schema


def _plain(text: str, where: str, found: list[str]) -> None:
    bad = unsafe_character(text, allow_newlines=True)
    if bad:
        found.append(f"{where}: plain text without control characters, found {bad}")


def check(value: Any, name: str) -> list[str]:
    """``value`` against the published schema ``name`` (SCHEMA_NAMES)."""
    return problems(value, load_schema(name))
