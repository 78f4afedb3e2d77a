"""Measured llama.cpp runs on machines of different GPUs (data/measured/mixed-cards.tsv) as typed records.

The columns are described at the top of the file. Bad input ends in one line naming the file, the row
and the column and what was expected. ``find_mixed_run`` picks the run a page shows beside a machine's
estimate: the same cards in any order, the same model at the same quant, the layer split.

Pure: knows nothing of pages or MkDocs.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import Sequence

from tps_atlas.cache import cached
from tps_atlas.catalogue.limits import ID_PATTERN, URL_PATTERN
from tps_atlas.errors import DataError
from tps_atlas.measured.runs import read_table
from tps_atlas.paths import DATA_DIR
from tps_atlas.records.vocabulary import BACKENDS

MIXED_FILE = DATA_DIR / "measured" / "mixed-cards.tsv"
COLUMNS = ("cards", "devices", "backend", "build", "date", "runtime", "model", "model_name", "quant", "split_mode",
           "tensor_split", "main_gpu", "context", "kv_cache", "depth", "tok_s", "source", "notes")
SPLIT_MODES = ("layer", "row", "tensor")
KV_CACHES = ("f16", "q8_0", "q4_0")
DATE = re.compile(r"^\d{4}(-\d{2}(-\d{2})?)?$")
NUMBER = re.compile(r"^\d{1,7}(\.\d{1,3})?$")
MAX_CARDS = 8


@dataclass(frozen=True)
class MixedRun:
    row: int
    cards: tuple[str, ...]
    devices: str
    backend: str
    build: str
    date: str
    model: str
    model_name: str
    quant: str | None                    # None: the source does not say
    split_mode: str
    tensor_split: tuple[float, ...] | None   # None: llama.cpp's default split
    main_gpu: int | None
    context: int | None
    kv_cache: str | None
    depth: int
    tok_s: float
    source: str

    @property
    def same_machine_key(self) -> tuple[str, ...]:
        return tuple(sorted(self.cards))


def _parse(path: Path, number: int, row: dict[str, str]) -> MixedRun:
    def fail(column: str, expected: str, found: object = None) -> DataError:
        return DataError(f"{path}:{number}", column, expected, found)

    def whole(column: str, required: bool = False) -> int | None:
        text = row[column].strip()
        if not text and not required:
            return None
        if not text.isdigit() or len(text) > 9:
            raise fail(column, "a whole number" + ("" if required else " or nothing"), text)
        return int(text)

    for column in ("cards", "devices", "backend", "build", "date", "model", "model_name", "split_mode", "tok_s",
                   "source"):
        if not row[column].strip():
            raise fail(column, "a value")
    cards = tuple(row["cards"].split(","))
    if not 2 <= len(cards) <= MAX_CARDS or not all(ID_PATTERN.match(c) for c in cards):
        raise fail("cards", f"2 to {MAX_CARDS} card ids, comma-separated", row["cards"])
    if len(set(cards)) < 2:
        raise fail("cards", "at least two different cards (a set of one kind belongs in llama-cpp.tsv)", row["cards"])
    if not ID_PATTERN.match(row["model"]):
        raise fail("model", "a catalogue model id", row["model"])
    if row["backend"] not in BACKENDS:
        raise fail("backend", "one of " + ", ".join(BACKENDS), row["backend"])
    if not DATE.match(row["date"]):
        raise fail("date", "YYYY, YYYY-MM or YYYY-MM-DD", row["date"])
    if row["split_mode"] not in SPLIT_MODES:
        raise fail("split_mode", "one of " + ", ".join(SPLIT_MODES), row["split_mode"])
    split_text = row["tensor_split"].strip()
    split: tuple[float, ...] | None = None
    if split_text and split_text != "default":
        values = split_text.split(",")
        if len(values) != len(cards) or not all(NUMBER.match(v) for v in values) or not any(float(v) for v in values):
            raise fail("tensor_split", f"'default', nothing, or {len(cards)} numbers, comma-separated", split_text)
        split = tuple(float(v) for v in values)
    main = whole("main_gpu")
    if main is not None and main >= len(cards):
        raise fail("main_gpu", f"a device number below {len(cards)}", main)
    kv = row["kv_cache"].strip() or None
    if kv is not None and kv not in KV_CACHES:
        raise fail("kv_cache", "one of " + ", ".join(KV_CACHES) + " or nothing", kv)
    if not NUMBER.match(row["tok_s"]) or float(row["tok_s"]) <= 0:
        raise fail("tok_s", "a speed in tok/s above 0", row["tok_s"])
    if not URL_PATTERN.match(row["source"]):
        raise fail("source", "a web address starting with https:// or http://", row["source"])
    return MixedRun(number, cards, row["devices"], row["backend"], row["build"], row["date"], row["model"],
                    row["model_name"], row["quant"].strip() or None, row["split_mode"], split, main,
                    whole("context"), kv, whole("depth") or 0, float(row["tok_s"]), row["source"])


def read_mixed_runs(path: Path) -> tuple[MixedRun, ...]:
    """Every row of the table (measured.runs.read_table: the header, the cells, file and line named)."""
    return tuple(_parse(path, number, {column: cell.strip() for column, cell in row.items()})
                 for number, row in read_table(path, COLUMNS))


@cached(maxsize=4)
def load_mixed_runs(path: str | None = None) -> tuple[MixedRun, ...]:
    return read_mixed_runs(Path(path) if path else MIXED_FILE)


def check_known(runs: Sequence[MixedRun], card_ids: set[str], model_ids: set[str], path: Path = MIXED_FILE) -> None:
    """Every run names cards and a model of the catalogue."""
    for run in runs:
        for card in run.cards:
            if card not in card_ids:
                raise DataError(f"{path}:{run.row}", "cards", "card ids of the catalogue", card)
        if run.model not in model_ids:
            raise DataError(f"{path}:{run.row}", "model", "a model id of the catalogue", run.model)


def find_mixed_run(runs: Sequence[MixedRun], card_ids: Sequence[str], model_id: str, quant: str) -> MixedRun | None:
    """The measured layer-split run of this model at this quant on these cards (in any order), the newest."""
    key = tuple(sorted(card_ids))
    found = [r for r in runs if r.same_machine_key == key and r.model == model_id and r.quant == quant
             and r.split_mode == "layer"]
    return max(found, key=lambda r: (r.date, r.row)) if found else None
