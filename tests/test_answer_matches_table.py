"""Over the whole built site, in every language: the "My device" answer of each model page, for
each device, says what that device's row of the page's own table says.

The answer is the browser's (docs/assets/verdict.js under Node, the long-lived driver of
tests/js/parity.js, fed the page's own labels and the site's data file): its verdict, quant,
speed, range and memory must be the row's, the sentences must print them, and a device the table
does not list must get "no" or a set of cards, with a shortfall above zero.
"""

from __future__ import annotations

import html
import json
import re
import time
from collections import Counter
from pathlib import Path

import pytest

from tps_atlas.i18n.phrases import LANGUAGES

from tests.support.node import NODE, run_node

pytestmark = [pytest.mark.full, pytest.mark.skipif(NODE is None, reason="node is not installed (scripts/test)")]

UI = re.compile(r'<script type="application/json" id="tps-ui">(.*?)</script>', re.S)
LABELS = re.compile(r'<script type="application/json" class="tps-calculator">(.*?)</script>', re.S)
ANSWER = re.compile(r'<div class="tps-mydevice" data-model="([^"]+)" data-name="([^"]*)"')
TABLE = re.compile(r'<table class="tps-table[^"]*" data-model="[^"]+"[^>]*>.*?<tbody>(.*?)</tbody>', re.S)
ROW_FIT = {"comfortable": ("fits", "comfortable"), "tight": ("fits", "tight"), "offload": ("offload", None)}


def text_of(cell: str) -> str:
    return html.unescape(re.sub(r"<[^>]+>", "", cell))


def table_rows(page: str) -> dict[str, tuple]:
    """Each card's row of a model page's table as built: (kind, fit, quant, speed, range, need)."""
    body = TABLE.search(page)
    rows = {}
    for chunk in (body.group(1).split('<tr data-card="')[1:] if body else ()):
        card, rest = chunk.split('"', 1)
        cells = rest[1:].split("</td><td")
        fit = re.search(r'class="tps-fit-(\w+)"', cells[0]).group(1)
        speed, _, after = cells[1].partition(" <small>")
        kind, fit_kind = ROW_FIT[fit]
        quant, need = (text_of(cells[i].split(">", 1)[1]) for i in (5, 4))
        rows[html.unescape(card)] = (kind, fit_kind, quant, text_of(speed.split(">", 1)[1]),
                                     text_of(after.split("</small>", 1)[0]), need)
    return rows


def model_pages(site: Path, language: str) -> list[Path]:
    root = site if language == "en" else site / language
    return sorted((root / "models").glob("*/index.html"))


def test_every_answer_box_says_its_row(full_site):
    data = full_site / "assets" / "tps-data.json"
    started = time.perf_counter()
    counted: Counter = Counter()
    problems: list = []
    node_ms = 0.0
    for language in LANGUAGES:
        pages = model_pages(full_site, language)
        assert pages, language
        cases, tables = [], []
        for path in pages:
            page = path.read_text(encoding="utf-8")
            answer = ANSWER.search(page)
            assert answer, path
            labels = json.loads(LABELS.search(page).group(1))
            defaults = labels["defaults"]
            cases.append({"model": html.unescape(answer.group(1)), "name": html.unescape(answer.group(2)),
                          "ui": json.loads(UI.search(page).group(1)),
                          "options": {"context": defaults["context"], "floor": defaults["floor"],
                                      "ceiling": defaults["ceiling"], "ram": defaults["ram"],
                                      "ram_kind": defaults["ram_kind"]}})
            tables.append(table_rows(page))
        node_started = time.perf_counter()
        answers = run_node("answers", cases, data)
        node_ms += (time.perf_counter() - node_started) * 1000
        for case, rows, per_card in zip(cases, tables, answers, strict=True):
            assert set(rows) <= {a[0] for a in per_card}, case["model"]  # every row is a device of the data
            for card, kind, fit, quant, speed, range_text, need, shown, shortfall in per_card:
                counted[kind] += 1
                row = rows.get(card)
                where = (language, case["model"], card)
                if row is None:
                    ok = kind in ("none", "multi") and shortfall is not None and shortfall > 0
                else:
                    ok = (kind, fit, quant, speed, range_text, need) == row
                if not (ok and shown):
                    problems.append((where, row, (kind, fit, quant, speed, range_text, need, shown, shortfall)))
    elapsed = time.perf_counter() - started
    print(f"\nanswer box = table row: {sum(counted.values())} answers over {len(LANGUAGES)} languages "
          f"({dict(counted)}) in {elapsed:.1f} s, of which Node {node_ms / 1000:.1f} s; {len(problems)} differ")
    assert not problems, problems[:10]
    # Every kind of verdict is met on the real site.
    assert min(counted[k] for k in ("fits", "offload", "multi", "none")) > 0, counted
