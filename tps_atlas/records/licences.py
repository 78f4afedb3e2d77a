"""Licence names (data/licences.yaml): proper nouns that a page keeps as they are in every language.

>>> names = licence_names()
>>> "NVIDIA Internal Scientific Research and Development Model License" in names, "weights" in names
(True, False)
>>> licence_name("DeepSeek Model License (weights), MIT (code)", names)
'DeepSeek Model License'
>>> licence_name("Our own terms", names) is None
True
"""

from __future__ import annotations

from pathlib import Path

from tps_atlas.cache import cached
from tps_atlas.paths import DATA_DIR
from tps_atlas.records.fields import FieldReader
from tps_atlas.records.strict_yaml import load_yaml

LICENCES_FILE = DATA_DIR / "licences.yaml"


@cached(maxsize=4)
def licence_names(path: Path = LICENCES_FILE) -> tuple[str, ...]:
    """The names, longest first (so that "Modified MIT License" is matched before "MIT")."""
    reader = FieldReader(path, load_yaml(path))
    names = reader.texts("names")
    reader.finish()
    if not names:
        raise reader.error("names", "at least one licence name")
    twice = next((n for n in names if names.count(n) > 1), None)
    if twice is not None:
        raise reader.error("names", "each name once", twice)
    return tuple(sorted(names, key=len, reverse=True))


def licence_name(licence: str, names: tuple[str, ...]) -> str | None:
    """The listed name a model's licence text starts with, or None."""
    return next((n for n in names if licence == n or licence.startswith((n + " ", n + ","))), None)
