"""Issue 27: the feed lists the pages whose answer moved since the published snapshot
(data/published-answers.tsv, written by `tps-atlas catalogue snapshot`): a model that now runs on a device
it did not, a speed that moved by more than its range; each entry in the feed's language."""

from __future__ import annotations

import datetime as dt
import subprocess
import sys
import xml.etree.ElementTree as ET

import pytest

from tps_atlas.errors import DataError
from tps_atlas.i18n.phrases import Phrases
from tps_atlas.pages.feed import feed_xml
from tps_atlas.pages.figures import estimate_table
from tps_atlas.pages.moved import answers_of, moved_pages, read_snapshot, snapshot_text

ATOM = "{http://www.w3.org/2005/Atom}"
BASE = "https://tps-atlas.example.org/"
DAY = dt.date(2026, 12, 2)
MODEL = "llama-3.1-8b"


@pytest.fixture(scope="module")
def current(catalogue, settings):
    calibration = settings.calibration(None).name
    cat = catalogue.for_calibration(calibration)
    table = estimate_table(cat, settings, calibration)
    model = next(m for m in cat.models if m.id == MODEL)
    return cat, table, model, answers_of(table, [model], cat.cards)


def entries(language, cat, moves):
    root = BASE + ("" if language == "en" else f"{language}/")
    feed = ET.fromstring(feed_xml(Phrases(language), cat, root, moves, DAY).encode("utf-8"))
    return [e for e in feed.findall(f"{ATOM}entry") if "#moved-" in e.findtext(f"{ATOM}id")]


def test_a_moved_answer_is_an_entry_in_english_and_dutch(current, tmp_path):
    cat, table, model, answers = current
    row = answers[MODEL]
    gained, slowed = sorted(row)[:2]
    published = {MODEL: {d: v for d, v in row.items() if d != gained}}
    published[MODEL][slowed] = (row[slowed][0] / 2, 0, 0)
    path = tmp_path / "published-answers.tsv"
    path.write_text(snapshot_text(published, [c.id for c in cat.cards]), encoding="utf-8")
    moves = moved_pages(table, [model], cat.cards, path)
    assert {(m.device, m.what) for m in moves} == {(gained, "runs"), (slowed, "speed")}
    names = {c.id: c.name for c in cat.cards}
    english, = entries("en", cat, moves)
    assert english.findtext(f"{ATOM}title") == model.name
    assert english.find(f"{ATOM}link").get("href") == f"{BASE}models/{MODEL}/"
    summary = english.findtext(f"{ATOM}summary")
    assert f"Now runs on the {names[gained]}" in summary
    assert f"Speed on the {names[slowed]} moved from" in summary
    dutch, = entries("nl", cat, moves)
    assert dutch.find(f"{ATOM}link").get("href") == f"{BASE}nl/models/{MODEL}/"
    text = dutch.findtext(f"{ATOM}summary")
    assert "Draait nu op" in text and names[gained] in text and "verschoven van" in text
    assert "Now runs" not in text


def test_nothing_moved_gives_no_entry(current, tmp_path):
    cat, table, model, answers = current
    path = tmp_path / "published-answers.tsv"
    path.write_text(snapshot_text(answers, [c.id for c in cat.cards]), encoding="utf-8")
    moves = moved_pages(table, [model], cat.cards, path)
    assert moves == ()
    assert entries("en", cat, moves) == [] and entries("de", cat, moves) == []
    assert moved_pages(table, [model], cat.cards, tmp_path / "none.tsv") == ()


@pytest.mark.parametrize("text, where", [
    ("not a snapshot\n", "line 1"),
    ("# tps-atlas published answers 1\nmodels a b\n", "line 2"),
    ("# tps-atlas published answers 1\n@devices\ta b\nm\t12 -\nm\t1 2\n", "line 4"),
    ("# tps-atlas published answers 1\n@devices\ta b\nm\t12\n", "line 3"),
    ("# tps-atlas published answers 1\n@devices\ta b\nm\tfast -\n", "line 3"),
])
def test_a_bad_snapshot_is_one_line_naming_the_file_and_line(tmp_path, text, where):
    path = tmp_path / "published-answers.tsv"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(DataError) as caught:
        read_snapshot(path)
    message = str(caught.value)
    assert "published-answers.tsv" in message and where in message and "\n" not in message


def test_the_snapshot_command_writes_what_the_build_reads(tmp_path):
    path = tmp_path / "answers.tsv"
    done = subprocess.run([sys.executable, "-m", "tps_atlas", "catalogue", "snapshot", "--out", str(path)],
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    published, devices = read_snapshot(path)
    assert MODEL in published and published[MODEL] and len(devices) > 100
    assert path.stat().st_size < 1_500_000
