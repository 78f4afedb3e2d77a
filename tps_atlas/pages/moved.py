"""Pages whose answer moved since the last publication: a model that now runs on a device it did not,
or a speed that left the range the published page gave. The published answers are a committed snapshot,
``data/published-answers.tsv``, written by ``tps-atlas catalogue snapshot`` when the site is published;
every build compares the estimator's answers (the verdicts of ``tps_atlas/estimate/verdict.py`` at
the default settings) with it, and the feed (``feed.py``) lists what moved. Pure but for the file.

The file, one line per model, kept small for git (about half a megabyte: a speed at two significant
digits, or ``-``, for each device in the order of the second line)::

    # tps-atlas published answers 1
    @devices<TAB>id id id …                 every device the snapshot knew (a new device is no "move")
    model-id<TAB>12 - 3.4 …                 tok/s on each of those devices, ``-`` where it did not run

A speed moved when it differs from the published one by more than half the width of its range.

>>> old = {"m": {"a": 10.0}}
>>> [(x.device, x.what) for x in moves(old, {"a", "b"}, {"m": {"a": (13.0, 11, 15), "b": (5.0, 4, 6)}})]
[('a', 'speed'), ('b', 'runs')]
>>> moves(old, {"a"}, {"m": {"a": (10.5, 9.5, 11.5)}})
[]
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Iterable, Mapping

from tps_atlas.errors import DataError
from tps_atlas.paths import DATA_DIR

SNAPSHOT = DATA_DIR / "published-answers.tsv"
HEADER = "# tps-atlas published answers 1"
MAX_BYTES = 4_000_000

# model id -> device id -> (tok/s, low, high), for the devices the model runs on.
Answers = dict[str, dict[str, tuple[float, float, float]]]
# What the snapshot keeps: model id -> device id -> published tok/s.
Published = dict[str, dict[str, float]]


@dataclass(frozen=True)
class Move:
    model: str
    device: str
    what: str                      # "runs": runs now, did not; "speed": moved by more than its range
    old_tok_s: float | None
    new_tok_s: float


def answers_of(table, models: Iterable, cards: Iterable) -> Answers:
    """Every model's speed and range on each device it runs on (fits, several cards, or offload)."""
    out: Answers = {}
    cards = tuple(cards)
    for model in models:
        row: dict[str, tuple[float, float, float]] = {}
        for card in cards:
            v = table.verdict(model.id, card)
            if v.kind != "none":
                e = v.estimate
                row[card.id] = (float(e.tok_s), float(e.tok_s_low), float(e.tok_s_high))
        out[model.id] = row
    return out


def _g(value: float) -> str:
    return f"{value:.2g}"


def snapshot_text(answers: Answers, devices: Iterable[str]) -> str:
    order = sorted(devices)
    lines = [HEADER, "@devices\t" + " ".join(order)]
    for model_id in sorted(answers):
        row = answers[model_id]
        lines.append(model_id + "\t" + " ".join(_g(row[d][0]) if d in row else "-" for d in order))
    return "\n".join(lines) + "\n"


def write_snapshot(path: Path, answers: Answers, devices: Iterable[str]) -> None:
    path.write_text(snapshot_text(answers, devices), encoding="utf-8")


def read_snapshot(path: Path) -> tuple[Published, set[str]] | None:
    """The published speeds and the devices they cover; None when no snapshot was ever written.
    A malformed file raises DataError naming the line and what it should hold."""
    if not path.exists():
        return None
    if path.stat().st_size > MAX_BYTES:
        raise DataError(path, "size", f"at most {MAX_BYTES:,} bytes")
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except UnicodeDecodeError:
        raise DataError(path, "encoding", "UTF-8 text") from None
    if not lines or lines[0] != HEADER:
        raise DataError(path, "line 1", f"the header {HEADER!r}", lines[0] if lines else "")
    if len(lines) < 2 or not lines[1].startswith("@devices\t"):
        raise DataError(path, "line 2", "'@devices', a tab and the device ids", lines[1] if len(lines) > 1 else "")
    order = lines[1].split("\t", 1)[1].split()
    published: Published = {}
    for number, line in enumerate(lines[2:], start=3):
        model_id, tab, rest = line.partition("\t")
        values = rest.split()
        if not tab or not model_id or model_id in published or len(values) != len(order):
            raise DataError(path, f"line {number}", f"a model id not seen before, a tab and {len(order)} "
                            "speeds or '-' (one for each device of line 2)", line[:80])
        row: dict[str, float] = {}
        for device, value in zip(order, values, strict=True):
            if value == "-":
                continue
            try:
                tok = float(value)
            except ValueError:
                tok = -1.0
            if not 0 < tok < 1e6:
                raise DataError(path, f"line {number}", "a speed in tok/s or '-'", value)
            row[device] = tok
        published[model_id] = row
    return published, set(order)


def moves(old: Published, old_devices: set[str], new: Mapping[str, Mapping[str, tuple[float, float, float]]]
          ) -> list[Move]:
    """What moved, by model then device: a device the model now runs on that the snapshot knew and the
    model did not run on, or a speed outside the published range. New models and devices are the feed's
    "added" entries, not moves; a model that no longer runs somewhere is left to the page."""
    found: list[Move] = []
    for model_id in sorted(new):
        if model_id not in old:
            continue
        before = old[model_id]
        for device, (tok, low, high) in sorted(new[model_id].items()):
            if device not in old_devices:
                continue
            if device not in before:
                found.append(Move(model_id, device, "runs", None, tok))
            else:
                was = before[device]
                if abs(tok - was) > (high - low) / 2:
                    found.append(Move(model_id, device, "speed", was, tok))
    return found


def moved_pages(table, models: Iterable, cards: Iterable, path: Path = SNAPSHOT) -> tuple[Move, ...]:
    """The moves of the estimator's answers (``table``: the default calibration's) against the
    snapshot at ``path``; none while no snapshot was written."""
    snapshot = read_snapshot(path)
    if snapshot is None:
        return ()
    published, devices = snapshot
    models = [m for m in models if m.id in published]
    cards = [c for c in cards if c.id in devices]
    return tuple(moves(published, devices, answers_of(table, models, cards)))
