"""The Node driver of the parity tests (tests/js/parity.js) and the built page parts it compares."""

from __future__ import annotations

import atexit
import json
import re
import select
import shutil
import subprocess
from pathlib import Path

import pytest

from tests.support.paths import ROOT
from tests.support.site_build import page_path


NODE = shutil.which("node")

DRIVER = ROOT / "tests" / "js" / "parity.js"

_node: list[subprocess.Popen] = []  # one Node for the session: starting one per request cost seconds

def _node_process() -> subprocess.Popen:
    if not _node or _node[0].poll() is not None:
        _node[:] = [subprocess.Popen([NODE, str(DRIVER)], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=subprocess.PIPE, text=True, encoding="utf-8")]
        atexit.register(_node[0].kill)
    return _node[0]

def run_node(task: str, cases: list, data_path: Path | None) -> list:
    """The driver's answers (tests/js/parity.js) to ``cases`` of ``task``, on the data at ``data_path``."""
    node = _node_process()
    assert node.stdin and node.stdout and node.stderr
    node.stdin.write(json.dumps({"data": str(data_path) if data_path else None, "task": task, "cases": cases}) + "\n")
    node.stdin.flush()
    ready, _, _ = select.select([node.stdout], [], [], 300)
    line = node.stdout.readline() if ready else ""
    if not line:
        node.kill()
        pytest.fail(f"Node gave no answer to {task}: {node.stderr.read()[-3000:]}")
    reply = json.loads(line)
    assert "error" not in reply, reply.get("error", "")[-3000:]
    return reply["answers"]

def built_page_parts(site: Path, language: str, model_id: str) -> dict:
    page = page_path(site, language, "models", model_id).read_text(encoding="utf-8")
    labels = json.loads(re.search(r'<script type="application/json" class="tps-calculator">(.*?)</script>',
                                  page).group(1))
    tbody = re.search(r'<table class="tps-table[^"]*" data-model="[^"]+"[^>]*>.*?<tbody>(.*?)</tbody>', page, re.S)
    start = page.index('<div class="tps-tiles">') + len('<div class="tps-tiles">')
    tiles = page[start:page.index("\n</div>", start) + 1]
    return {"labels": labels, "rows_html": tbody.group(1) if tbody else None, "tiles_html": tiles,
            "total_tile": tiles.split("\n")[2]}
