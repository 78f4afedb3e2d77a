"""Write the open data into a built site: /api/v1/ (index, a file per model and device, a record per
id that moved, the schemas), the dataset (/api/v1/dataset/) and /llms.txt.

Every record is held to its schema before the first file is written: a record that fails stops
the build with one line naming the file and the key, and no API file is written.
"""

from __future__ import annotations

import datetime as dt
import gzip
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Collection

from tps_atlas.catalogue.load import Catalogue
from tps_atlas.errors import DataError
from tps_atlas.estimate.settings import Settings
from tps_atlas.web.data import write_json
from tps_atlas.pages.figures import EstimateTable
from tps_atlas.measured.runs import load_runs
from tps_atlas.cache import data_digest
from tps_atlas.web.api import dataset, records, schema
from tps_atlas.web.api.open_data import OpenData

PAIRS_CSV = f"{records.API_ROOT}/dataset/pairs.csv.gz"
RUNS_CSV = f"{records.API_ROOT}/dataset/measured-runs.csv"
SCHEMA_PATH = records.API_ROOT + "/schema/{name}.json"


@dataclass(frozen=True)
class Written:
    """What was written: files by path from the site's root, with their sizes in bytes."""

    sizes: dict[str, int]

    @property
    def total(self) -> int:
        return sum(self.sizes.values())


def build_date() -> dt.date:
    """Today (UTC), or the day of SOURCE_DATE_EPOCH for a build that must be reproducible."""
    epoch = os.environ.get("SOURCE_DATE_EPOCH", "").strip()
    if epoch.isdigit():
        return dt.datetime.fromtimestamp(int(epoch), dt.UTC).date()
    return dt.datetime.now(dt.UTC).date()


def checked(relative: str, record: dict, name: str) -> tuple[str, dict]:
    found = schema.check(record, name)
    if found:
        where, _, what = found[0].partition(": ")
        raise DataError(relative, where, f"a record the schema {SCHEMA_PATH.format(name=name)} accepts: {what}")
    return relative, record


def api_records(table: EstimateTable, catalogue: Catalogue, settings: Settings, open_data: OpenData,
                site_url: str = "", only: Collection[str] = ()) -> list[tuple[str, dict]]:
    """Every file of /api/v1/ as (path, record), each checked against its schema; ``only``: the ids
    a preview builds (empty: every model and device)."""
    models = [m for m in catalogue.models if not only or m.id in only]
    cards = [c for c in catalogue.cards if not only or c.id in only]
    shown = Catalogue(tuple(cards), tuple(models))
    files = {**{f"schema_{name}": "/" + SCHEMA_PATH.format(name=name) for name in schema.SCHEMA_NAMES},
             "pairs_csv": "/" + PAIRS_CSV, "runs_csv": "/" + RUNS_CSV, "llms_txt": "/llms.txt"}
    out = [checked(f"{records.API_ROOT}/models/{m.id}.json", records.model_record(table, catalogue, m), "model")
           for m in models]
    out += [checked(f"{records.API_ROOT}/devices/{c.id}.json",
                    records.device_record(table, catalogue, c, settings), "device") for c in cards]
    out += [checked(records.api_url(m.kind, m.old_id).lstrip("/"),
                    records.moved_record(m.kind, m.old_id, m.new_id, m.reason), "moved") for m in open_data.moves.all]
    figures = table.figures[catalogue.models[0].id]
    index = records.index_record(shown, figures, open_data.moves, build_date(), data_digest(), files)
    index["licence"] = {"name": open_data.licence_name, "url": open_data.licence_url}
    index["citation"] = open_data.cite(index["catalogue_version"], index["built"], site_url)
    out.append(checked(f"{records.API_ROOT}/index.json", index, "index"))
    return out


def write_open_data(site_dir: Path, table: EstimateTable, catalogue: Catalogue, settings: Settings,
                    open_data: OpenData, site_url: str, only: Collection[str] = ()) -> Written:
    site_dir = Path(site_dir)
    files = api_records(table, catalogue, settings, open_data, site_url, only)
    sizes: dict[str, int] = {}
    for relative, record in files:
        sizes[relative] = write_json(site_dir, relative, record).stat().st_size
    for name in schema.SCHEMA_NAMES:
        relative = SCHEMA_PATH.format(name=name)
        sizes[relative] = write_json(site_dir, relative, schema.load_schema(name)).stat().st_size
    model_records = {r["id"]: r for _, r in files if r["type"] == "model"}
    pairs = dataset.csv_text(dataset.PAIR_COLUMNS, dataset.pair_rows(model_records)).encode("utf-8")
    runs = dataset.csv_text(dataset.RUN_COLUMNS, (records.run_record(run) for run in load_runs())).encode("utf-8")
    index = files[-1][1]
    for relative, data in ((PAIRS_CSV, gzip.compress(pairs, mtime=0)), (RUNS_CSV, runs),
                           ("llms.txt", llms_txt(index, site_url).encode("utf-8"))):
        path = site_dir / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(data)
        sizes[relative] = len(data)
    return Written(sizes)


def site_sizes(site: Path) -> tuple[int, int]:
    """Bytes of every file of a built site, and of the open data among them (/api/, /llms.txt):
    issue 30 holds the second to 15 % on top of the rest (benchmarks/build.py prints both)."""
    total = api = 0
    for path in Path(site).rglob("*"):
        if path.is_file():
            size = path.stat().st_size
            total += size
            relative = path.relative_to(site)
            if relative.parts[0] == "api" or relative == Path("llms.txt"):
                api += size
    return total, api


def llms_txt(index: dict, site_url: str) -> str:
    """/llms.txt (llmstxt.org): what the site is and where its data is, for language-model tools."""
    base = site_url.rstrip("/")
    s = index["settings"]
    return "\n".join([
        "# TPS Atlas",
        "",
        "> Which GPU or machine runs which open-weight language model, and how fast: for every model and "
        "every device, the quantization that fits, the memory it needs and the speed in tokens per second "
        "with a range, from one estimator. Pages in English, Dutch (/nl/), French (/fr/) and German (/de/).",
        "",
        f"Figures are estimates at the default settings ({s['context_tokens']} tokens of context, quantization "
        f"from {s['max_quality']} down to {s['min_quality']}, calibration {s['calibration']}, "
        f"{s['ram']['size_gb']:g} GB of {s['ram']['kind']} beside a graphics card), except measured llama.cpp runs, "
        "given with their sources. Numbers in the API are plain JSON numbers: decimal GB, tokens per second, "
        "seconds.",
        f"Data licence: {index['licence']['name']} ({index['licence']['url']}). "
        f"Cite as: {index['citation']}",
        "",
        "## API (JSON, version 1)",
        "",
        f"- [Index]({base}/{records.API_ROOT}/index.json): every model and device with its file, the ids that "
        "moved, the build's date and the catalogue's version",
        f"- [A model]({base}/{records.API_ROOT}/models/llama-3.1-8b.json): the model and, for every device, the "
        "verdict (fits, offload, multi, none), quantization, memory needed, speed with its range, prompt speed, "
        "measured run and llama-server command; models/<id>.json for any id of the index",
        f"- [A device]({base}/{records.API_ROOT}/devices/geforce-rtx-4090.json): the device and every model on it; "
        "devices/<id>.json",
        f"- [JSON Schemas]({base}/{records.API_ROOT}/schema/index.json): schema/index.json, model.json, "
        "device.json, moved.json (an old id answers with where it went)",
        "",
        "## Dataset",
        "",
        f"- [Every model on every device, CSV, gzip]({base}/{PAIRS_CSV}): one row per pair, the API's figures",
        f"- [Measured runs, CSV]({base}/{RUNS_CSV}): every llama.cpp run we compare with, with its source",
        "",
        "## Pages",
        "",
        f"- [Use our data]({base}/data/): the API and the dataset, for people",
        f"- [How we estimate]({base}/methodology/): the formulas, constants and measured accuracy",
        f"- [All models]({base}/models/) and [all devices]({base}/cards/)",
        "",
    ])
