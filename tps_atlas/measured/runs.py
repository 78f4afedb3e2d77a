"""Measured llama.cpp runs (data/measured/llama-cpp.tsv) as typed, validated records.

The table's format is in PLAN.md ("Measured runs"). Bad input ends in one line naming the
file, the line, the column and what was expected. ``find_run`` picks the run a page shows
beside an estimate: the same model (or one of the same size and kind) at the same quant on the
same device (or a device with the same chip), decoding on one GPU with everything on it.

Pure: knows nothing of pages or MkDocs.
"""

from __future__ import annotations

import datetime as dt
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Sequence

from tps_atlas.cache import cached
from tps_atlas.paths import DATA_DIR
from tps_atlas.catalogue.limits import ID_PATTERN, URL_PATTERN
from tps_atlas.catalogue.cards import Card
from tps_atlas.catalogue.models import Model
from tps_atlas.errors import DataError
from tps_atlas.records.vocabulary import BACKENDS

MEASURED_FILE = DATA_DIR / "measured" / "llama-cpp.tsv"
COLUMNS = ("card", "device", "backend", "build", "date", "model", "model_name", "params_b", "active_b",
           "quant", "test", "tokens", "depth", "tok_s", "n_gpus", "offload", "ram", "source", "notes")
TESTS = ("tg", "pp")
# Same size: total (and, for mixture-of-experts, active) parameters within this share.
SIZE_TOLERANCE = 0.05
DATE_PATTERN = re.compile(r"^\d{4}-\d{2}(-\d{2})?$")


@dataclass(frozen=True)
class Run:
    line: int
    card: str
    device: str
    backend: str
    build: str
    date: str                 # YYYY-MM-DD or YYYY-MM
    model: str | None         # catalogue id, when the run is of it (or the same architecture and size)
    model_name: str
    params_b: float
    active_b: float | None
    quant: str
    test: str                 # tg | pp
    tokens: int
    depth: int
    tok_s: float
    n_gpus: int
    offload: str
    source: str

    @property
    def is_moe(self) -> bool:
        return self.active_b is not None

    @property
    def read_b(self) -> float:
        return self.active_b or self.params_b

    @property
    def mean_depth(self) -> float:
        """Tokens in the KV cache on average over the test (a tg run grows it as it goes)."""
        return self.depth + (self.tokens / 2 if self.test == "tg" else 0)

    @property
    def on_one_gpu(self) -> bool:
        return self.n_gpus == 1 and not self.offload


def _parse(path: Path, number: int, row: dict[str, str]) -> Run:
    def fail(column: str, expected: str, found: object = None):
        return DataError(f"{path}:{number}", column, expected, found)

    def number_of(column: str, kind=float, minimum: float = 0, required: bool = True, above: bool = False):
        text = row[column].strip()
        if not text:
            if required:
                raise fail(column, "a number")
            return None
        try:
            value = kind(text)
        except ValueError:
            raise fail(column, "a whole number" if kind is int else "a number", text) from None
        if value < minimum or (above and value == minimum) or value != value:
            raise fail(column, f"a number {'above' if above else 'at least'} {minimum:g}", text)
        return value

    for column in ("card", "device", "backend", "build", "date", "model_name", "quant", "test", "source"):
        if not row[column].strip():
            raise fail(column, "a value")
    if not ID_PATTERN.match(row["card"]):
        raise fail("card", "a card id (lower-case letters, digits, '-' and '.')", row["card"])
    if row["model"] and not ID_PATTERN.match(row["model"]):
        raise fail("model", "a catalogue model id or nothing", row["model"])
    if row["backend"] not in BACKENDS:
        raise fail("backend", "one of " + ", ".join(BACKENDS), row["backend"])
    if row["test"] not in TESTS:
        raise fail("test", "tg or pp", row["test"])
    if not DATE_PATTERN.match(row["date"]):
        raise fail("date", "YYYY-MM-DD or YYYY-MM", row["date"])
    try:
        dt.date.fromisoformat(row["date"] if len(row["date"]) == 10 else row["date"] + "-01")
    except ValueError:
        raise fail("date", "a real date", row["date"]) from None
    if not URL_PATTERN.match(row["source"]):
        raise fail("source", "a web address starting with https:// or http://", row["source"])
    params = number_of("params_b", above=True)
    active = number_of("active_b", required=False, above=True)
    if active is not None and active > params:
        raise fail("active_b", f"at most params_b ({params:g})", active)
    return Run(
        line=number, card=row["card"], device=row["device"], backend=row["backend"], build=row["build"],
        date=row["date"], model=row["model"] or None, model_name=row["model_name"], params_b=params,
        active_b=active, quant=row["quant"], test=row["test"], tokens=number_of("tokens", int, 1),
        depth=number_of("depth", int, 0), tok_s=number_of("tok_s", above=True),
        n_gpus=number_of("n_gpus", int, 1), offload=row["offload"].strip(), source=row["source"])


def read_table(path: Path, columns: tuple[str, ...]) -> list[tuple[int, dict[str, str]]]:
    """The rows of a tab-separated table with a header of exactly ``columns`` (``#`` lines and blank
    lines skipped), each with its line number; anything else is a DataError naming file and line."""
    try:
        text = Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as error:
        raise DataError(path, "(file)", "a readable UTF-8 table", type(error).__name__) from None
    lines = [(n, line) for n, line in enumerate(text.splitlines(), 1) if line.strip() and not line.startswith("#")]
    if not lines:
        raise DataError(path, "(header)", "a header line: " + " ".join(columns))
    header_number, header = lines[0]
    names = header.split("\t")
    if tuple(names) != columns:
        raise DataError(f"{path}:{header_number}", "(header)", "the columns " + " ".join(columns),
                        " ".join(names))
    rows = []
    for number, line in lines[1:]:
        cells = line.split("\t")
        if len(cells) != len(columns):
            raise DataError(f"{path}:{number}", "(line)", f"{len(columns)} tab-separated columns", len(cells))
        rows.append((number, dict(zip(columns, cells, strict=True))))
    return rows


def read_runs(path: Path) -> tuple[Run, ...]:
    return tuple(_parse(path, number, row) for number, row in read_table(path, COLUMNS))


@cached(maxsize=4)
def load_runs(path: str | None = None) -> tuple[Run, ...]:
    file = Path(path) if path else MEASURED_FILE
    return read_runs(file) if file.exists() or file != MEASURED_FILE else ()


def chip_of(card: Card) -> str:
    """Cards that share a chip (same GPU, same bandwidth) share measurements."""
    return getattr(card, "chip", None) or card.id


def same_size(run: Run, model: Model, models_by_id: dict[str, Model] | None = None) -> bool:
    """Same size and kind; when the run names a catalogue model with a recorded attention layout,
    that layout must be the model's too (a 14B Qwen is not a 14B Phi)."""
    other = (models_by_id or {}).get(run.model or "")
    if other and other.architecture and model.architecture:
        mine, theirs = model.architecture, other.architecture
        if (mine.layers, mine.attention, mine.kv_heads, mine.head_dim) != \
                (theirs.layers, theirs.attention, theirs.kv_heads, theirs.head_dim):
            return False
    if abs(run.params_b / model.parameters_b - 1) > SIZE_TOLERANCE:
        return False
    run_active, model_active = run.active_b, model.active_parameters_b
    if run_active is None or model_active is None:
        return run_active is None and model_active is None  # a dense run is no mixture of experts'
    return abs(run_active / model_active - 1) <= SIZE_TOLERANCE


class MeasuredIndex:
    """Decode runs on one GPU, found by chip and quant."""

    def __init__(self, runs: Sequence[Run], cards_by_id: dict[str, Card],
                 models_by_id: dict[str, Model] | None = None):
        self.cards_by_id = cards_by_id
        self.models_by_id = models_by_id or {}
        self.by_chip: dict[tuple[str, str], list[Run]] = {}
        for run in runs:
            card = cards_by_id.get(run.card)
            if card is None or run.test != "tg" or not run.on_one_gpu:
                continue
            self.by_chip.setdefault((chip_of(card), run.quant.casefold()), []).append(run)

    def find(self, model: Model, quant: str, card: Card) -> Run | None:
        """The run to show beside the estimate, or None.

        Preferred: the model itself over one of the same size, the card itself over another of
        its chip, the shallowest context, then the newest run.
        """
        candidates = [r for r in self.by_chip.get((chip_of(card), quant.casefold()), ()) if self.matches(r, model)]
        if not candidates:
            return None
        return min(candidates, key=lambda r: (r.model != model.id, r.card != card.id, self.rank_key(r)))

    def matches(self, run: Run, model: Model) -> bool:
        return run.model == model.id or same_size(run, model, self.models_by_id)

    @staticmethod
    def rank_key(run: Run) -> tuple:
        return (run.mean_depth, _negated(run.date), run.line)


def _negated(date: str) -> tuple[int, ...]:
    return tuple(-int(part) for part in date.split("-"))


def split_speeds(example: dict[str, str], catalogue, runs: Sequence[Run] | None = None) -> dict[int, float]:
    """Measured tok/s of one model on 1, 2, 4 ... identical cards (the layers split across them):
    the example's model, quant and card, decoding from an empty context, the shortest test."""
    card = next((c for c in catalogue.cards if c.name == example["card"]), None)
    speeds: dict[int, tuple[int, float]] = {}
    for run in load_runs() if runs is None else runs:
        if (card and run.card == card.id and run.model_name == example["model"] and run.quant == example["quant"]
                and run.test == "tg" and run.depth == 0 and not run.offload
                and (run.n_gpus not in speeds or run.tokens < speeds[run.n_gpus][0])):
            speeds[run.n_gpus] = (run.tokens, run.tok_s)
    return {n: tok_s for n, (_, tok_s) in speeds.items()}
