"""data/open-data.yaml: the data's licence, its citation line and the ids that moved, checked on load.

>>> settings = load_open_data(load_catalogue())
>>> settings.licence_name, settings.moves.find("device", "switch-2-gpu").new_id
('CC BY 4.0', 'nintendo-switch-2')
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from tps_atlas.paths import DATA_DIR  # noqa: F401 (doctest)
from tps_atlas.catalogue.limits import ID_PATTERN, URL_PATTERN  # noqa: F401 (doctest)
from tps_atlas.catalogue.load import Catalogue, load_catalogue  # noqa: F401 (doctest)
from tps_atlas.records.fields import FieldReader
from tps_atlas.records.strict_yaml import load_yaml

OPEN_DATA = DATA_DIR / "open-data.yaml"
CITATION_FIELDS = ("version", "built", "url")


@dataclass(frozen=True)
class Move:
    kind: str            # model | device
    old_id: str
    new_id: str | None   # None: removed, with nothing in its place
    reason: str


@dataclass(frozen=True)
class Moves:
    all: tuple[Move, ...] = ()

    def find(self, kind: str, old_id: str) -> Move | None:
        return next((m for m in self.all if m.kind == kind and m.old_id == old_id), None)


@dataclass(frozen=True)
class OpenData:
    licence_name: str
    licence_url: str
    citation: str        # with {version}, {built} and {url}
    moves: Moves

    def cite(self, version: str, built: str, url: str) -> str:
        return self.citation.format(version=version, built=built, url=url)


def read_moves(r: FieldReader, catalogue: Catalogue) -> Moves:
    current: dict[str, dict[str, object]] = {"model": dict(catalogue.models_by_id),
                                             "device": dict(catalogue.cards_by_id)}
    moves: list[Move] = []
    for kind in ("device", "model"):
        for entry in r.mappings(kind + "s"):
            old_id = entry.text("id")
            if not ID_PATTERN.match(old_id):
                raise entry.error("id", "an id of lower-case letters, digits, '-' and '.'", old_id)
            if old_id in current[kind]:
                raise entry.error("id", f"an id no {kind} of the catalogue has (this one still exists)", old_id)
            if any(m.kind == kind and m.old_id == old_id for m in moves):
                raise entry.error("id", "each old id once", old_id)
            new_id = entry.text("to", required=False)
            if new_id is not None and new_id not in current[kind]:
                raise entry.error("to", f"the id of a {kind} in the catalogue, or no 'to' for one removed", new_id)
            moves.append(Move(kind, old_id, new_id, entry.text("reason")))
            entry.finish()
    r.finish()
    return Moves(tuple(moves))


def load_open_data(catalogue: Catalogue, path: Path = OPEN_DATA) -> OpenData:
    r = FieldReader(path, load_yaml(path))
    licence = r.mapping("licence")
    name, url = licence.text("name"), licence.text("url")
    if not URL_PATTERN.match(url):
        raise licence.error("url", "an http(s) address", url)
    licence.finish()
    citation = r.text("citation")
    try:
        citation.format(**dict.fromkeys(CITATION_FIELDS, ""))
    except (KeyError, IndexError, ValueError):
        raise r.error("citation", "text whose placeholders are " + ", ".join(f"{{{k}}}" for k in CITATION_FIELDS),
                      citation) from None
    moves = read_moves(r.mapping("moved"), catalogue)
    r.finish()
    return OpenData(name, url, citation, moves)
