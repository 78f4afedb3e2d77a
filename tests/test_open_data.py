"""Open data (issue 30): the API files say what the pages say, every file passes its published
schema, the dataset holds the same figures, an id that moved answers with where it went, and a
hostile catalogue entry never reaches a file."""

from __future__ import annotations

import csv
import dataclasses
import gzip
import io
import json
import re
from pathlib import Path

import pytest

from tps_atlas.web.api import schema
from tps_atlas.web.api.open_data import load_open_data
from tps_atlas.web.api.writer import api_records, site_sizes
from tps_atlas.catalogue.limits import ID_PATTERN
from tps_atlas.catalogue.load import Catalogue
from tps_atlas.errors import DataError
from tps_atlas.web.data import script_safe_json
from tps_atlas.pages.figures import EstimateTable

from tests.support.session import PREVIEW_CARDS, PREVIEW_MODELS
from tests.support.paths import ROOT
from tests.support.project_copy import copy_project, mkdocs_build

API = Path("api/v1")
# A row of a model page's table: device, fit, speed, need, quantization (tps_atlas/mkdocs/templates/model_table.html).
MODEL_ROW = re.compile(r'<tr data-card="([^"]+)"><td class="tps-fit-([a-z]+)">[^<]*</td><td>([^<]*?) <small>.*?'
                       r'</td><td><a [^>]*>[^<]*</a> <small>[^<]*</small></td><td>[^<]*</td><td>([^<]*)</td>'
                       r'<td>([^<]*)</td>')
# A row of a card page's table of models it runs: fit, speed, model, need, quantization.
CARD_ROW = re.compile(r'<tr><td class="tps-fit-([a-z]+)">[^<]*</td><td>([^<]*?) <small>.*?</td>'
                      r'<td><a href="../../models/([^/]+)/">[^<]*</a></td><td>[^<]*</td><td>([^<]*)</td>'
                      r'<td>([^<]*)</td></tr>')


def figure(text: str) -> tuple[float, int]:
    """'1,234.5 tok/s' as the page wrote it: the number and its decimals."""
    number = text.split()[0].replace(",", "")
    return float(number), len(number.partition(".")[2])


def assert_shown(text: str, value: float, what: str) -> None:
    shown, decimals = figure(text)
    # The page rounds the estimator's figure; the API keeps two decimals of it.
    assert abs(shown - value) <= 0.5 * 10 ** -decimals + 0.006, f"{what}: the page shows {text}, the API {value}"


def read(site: Path, relative: str) -> dict:
    return json.loads((site / relative).read_text(encoding="utf-8"))


def test_the_api_gives_the_figures_the_model_pages_show(site):
    compared = 0
    for model_id in PREVIEW_MODELS:
        record = read(site, f"api/v1/models/{model_id}.json")
        page = (site / "models" / model_id / "index.html").read_text(encoding="utf-8")
        rows = MODEL_ROW.findall(page)
        compared += len(rows)
        for card_id, fit, tok_s, need, quant in rows:
            pair = record["devices"][card_id]
            assert (pair["fit"], pair["quant"]) == (fit, quant), (model_id, card_id)
            assert_shown(tok_s, pair["tok_s"], f"{model_id} on {card_id}")
            assert_shown(need, pair["need_gb"], f"{model_id} on {card_id}")
        runs = {card_id for card_id, pair in record["devices"].items() if pair["kind"] in ("fits", "offload")}
        assert runs == {row[0] for row in rows}, f"{model_id}: the table and the API name other devices"
    assert compared > 1000  # every row of ten tables, the largest of them with hundreds


def test_the_api_gives_the_figures_the_device_pages_show(site):
    for card_id in PREVIEW_CARDS:
        record = read(site, f"api/v1/devices/{card_id}.json")
        page = (site / "cards" / card_id / "index.html").read_text(encoding="utf-8")
        rows = CARD_ROW.findall(page)
        assert rows, f"no table rows found on the page of {card_id}"
        for fit, tok_s, model_id, need, quant in rows:
            pair = record["models"][model_id]
            assert (pair["kind"], pair["fit"], pair["quant"]) == ("fits", fit, quant), (card_id, model_id)
            assert_shown(tok_s, pair["tok_s"], f"{model_id} on {card_id}")
            assert_shown(need, pair["need_gb"], f"{model_id} on {card_id}")
        assert len(rows) == record["models_fit"]


def test_every_api_file_passes_the_schema_published_beside_it(site):
    published = {name: read(site, f"api/v1/schema/{name}.json") for name in schema.SCHEMA_NAMES}
    files = sorted((site / API).rglob("*.json"))
    checked = 0
    for path in files:
        if path.parent.name == "schema":
            continue
        record = json.loads(path.read_text(encoding="utf-8"))
        assert schema.problems(record, published[record["type"]]) == [], path
        assert b"<" not in path.read_bytes(), f"{path}: markup characters are written escaped"
        checked += 1
    index = read(site, "api/v1/index.json")
    # Every model and device the index lists has its file, and every id that moved its record.
    listed = [item["url"] for item in index["models"] + index["devices"] + index["moved"]]
    assert all((site / url.lstrip("/")).is_file() for url in listed + list(index["files"].values()))
    assert checked == len(listed) + 1
    assert {m["id"] for m in index["models"]} == set(PREVIEW_MODELS)
    assert re.fullmatch(r"\d{4}-\d{2}-\d{2}", index["built"]) and index["catalogue_version"] in index["citation"]


def test_an_id_that_moved_answers_with_where_it_went(site):
    record = read(site, "api/v1/devices/switch-2-gpu.json")
    assert (record["type"], record["moved_to"]) == ("moved", "nintendo-switch-2")
    assert record["url"] == "/api/v1/devices/nintendo-switch-2.json"


def test_the_dataset_holds_the_api_figures_and_the_measured_runs_their_sources(site):
    with gzip.open(site / API / "dataset" / "pairs.csv.gz", "rt", encoding="utf-8") as handle:
        rows = list(csv.DictReader(handle))
    assert len(rows) == len(PREVIEW_MODELS) * read(site, "api/v1/models/glm-5.json")["devices_total"]
    record = read(site, "api/v1/models/llama-3.1-8b.json")
    for row in rows:
        if row["model"] == "llama-3.1-8b":
            pair = record["devices"][row["device"]]
            assert row["kind"] == pair["kind"] and float(row["need_gb"]) == pair["need_gb"]
            assert (float(row["tok_s"]) if row["tok_s"] else None) == pair.get("tok_s")
    runs = list(csv.DictReader(io.StringIO((site / API / "dataset" / "measured-runs.csv").read_text("utf-8"))))
    assert runs and all(run["source"].strip() and run["tok_s"] for run in runs)


def test_llms_txt_names_the_api_and_the_dataset_with_links_that_resolve(site):
    text = (site / "llms.txt").read_text(encoding="utf-8")
    assert text.startswith("# TPS Atlas\n\n> ")
    links = re.findall(r"\]\(https://tps-atlas\.example\.org/([^)]*)\)", text)
    assert "api/v1/index.json" in links and any(link.endswith(".csv.gz") for link in links)
    for link in links:
        target = site / link
        assert target.is_file() or (target / "index.html").is_file() or "models/" in link or "devices/" in link, link


@pytest.mark.parametrize("language, prefix, title", [("en", "", "Use our data"), ("nl", "nl/", "Onze data gebruiken"),
                                                      ("fr", "fr/", "Utiliser nos données"),
                                                      ("de", "de/", "Unsere Daten nutzen")])
def test_the_methodology_page_links_to_the_data_page_in_every_language(site, language, prefix, title):
    methodology = (site / prefix / "methodology" / "index.html").read_text(encoding="utf-8")
    assert f'<a href="../data/">{title}</a>' in methodology
    page = (site / prefix / "data" / "index.html").read_text(encoding="utf-8")
    for href in re.findall(r'href="(\.\./[^"]*(?:api|llms)[^"]*)"', page):
        assert ((site / prefix / "data") / href).resolve().is_file(), (language, href)


# ------------------------------------------------------------------ safe to consume

def test_ids_match_the_catalogues_one_pattern():
    assert schema.definitions()["$defs"]["id"]["pattern"] == ID_PATTERN.pattern


def test_the_validator_refuses_what_the_schema_does_not_allow():
    good = {"kind": "none", "fit": "none", "quant": "Q3_K_M", "need_gb": 9.5}
    pair = {"$ref": "#/$defs/pair", "$defs": schema.definitions()["$defs"]}
    assert schema.problems(good, pair) == []
    assert schema.problems({**good, "need_gb": "9,5"}, pair) == ['$.need_gb: expected number or null, found "9,5"']
    assert schema.problems({**good, "quant": "Q3\u202e"}, pair) == [
        "$.quant: plain text without control characters, found U+202E (a bidirectional control)"]
    device = {"$ref": "#/$defs/device", "$defs": schema.definitions()["$defs"]}
    assert any("does not match" in p for p in schema.problems({"id": "../x"}, device))
    with pytest.raises(ValueError, match="oneOf"):
        schema.problems(1, {"oneOf": []})


def test_a_name_with_markup_reaches_the_api_as_the_same_plain_text(catalogue, settings, estimates):
    name = '<img src=x onerror="alert(1)"> & Co'
    model = dataclasses.replace(catalogue.model("llama-3.1-8b"), name=name)
    cards = tuple(catalogue.card(c) for c in PREVIEW_CARDS)
    small = Catalogue(cards, (model,))
    table = EstimateTable(small.models, small.cards, settings, estimates.calibration)
    files = dict(api_records(table, small, settings, load_open_data(catalogue)))
    text = script_safe_json(files["api/v1/models/llama-3.1-8b.json"])
    assert "<" not in text and "&" not in text
    assert json.loads(text)["model"]["name"] == name
    assert json.loads(script_safe_json(files["api/v1/index.json"]))["models"][0]["name"] == name


def test_a_move_to_an_id_the_catalogue_lacks_is_one_line(tmp_path, catalogue):
    path = tmp_path / "open-data.yaml"
    text = (ROOT / "data" / "open-data.yaml").read_text(encoding="utf-8")
    path.write_text(text.replace("to: nintendo-switch-2,", "to: nintendo-switch-9,"), encoding="utf-8")
    with pytest.raises(DataError) as error:
        load_open_data(catalogue, path)
    assert "open-data.yaml: moved.devices[0].to: expected the id of a device in the catalogue" in str(error.value)
    path.write_text(text.replace("id: gb10,", "id: geforce-rtx-4090,"), encoding="utf-8")
    with pytest.raises(DataError, match="this one still exists"):
        load_open_data(catalogue, path)


def test_a_hostile_catalogue_entry_stops_the_build_and_no_api_file_carries_it(tmp_path):
    project = copy_project(tmp_path / "project", card_sample=40)
    hostile = "Evil\u202eModel"
    (project / "data" / "models" / "evil.yaml").write_text(
        f'id: evil\nname: "{hostile}"\nweights: open\nparameters_b: 7\norganisations: [Example Lab]\n'
        'sources: [{title: Example, url: "https://example.org/"}]\n', encoding="utf-8")
    result = mkdocs_build(project, tmp_path / "site")
    assert result.returncode != 0
    assert "evil.yaml: name: expected text without control or bidirectional control characters" in result.stderr
    assert "Traceback" not in result.stderr
    written = [p for p in (tmp_path / "site").rglob("*") if p.is_file()] if (tmp_path / "site").exists() else []
    assert not any("api" in p.relative_to(tmp_path / "site").parts for p in written)
    assert not any(hostile.encode() in p.read_bytes() for p in written)


@pytest.mark.full
def test_the_open_data_adds_at_most_15_percent_to_the_published_site(full_site):
    total, api = site_sizes(full_site)
    assert api > 0 and api / (total - api) <= 0.15, f"the open data is {api:,} of {total:,} bytes"


def test_a_machine_that_runs_a_model_with_its_gpu_limit_raised_says_so_in_the_api(catalogue, settings, estimates):
    """The raised run the pages word ("on Linux, with the limit raised to …") is in the pair record, valid."""
    small = Catalogue((catalogue.card("amd-ryzen-ai-max-plus-395-128gb"), catalogue.card("geforce-rtx-4090")),
                      (catalogue.model("qwen3-235b-a22b"),))
    table = EstimateTable(small.models, small.cards, settings, estimates.calibration)
    files = dict(api_records(table, small, settings, load_open_data(catalogue)))
    record = json.loads(script_safe_json(files["api/v1/models/qwen3-235b-a22b.json"]))
    pair = record["devices"]["amd-ryzen-ai-max-plus-395-128gb"]
    verdict = table.verdict("qwen3-235b-a22b", small.card("amd-ryzen-ai-max-plus-395-128gb"))
    assert pair["kind"] == "none" and pair["raised"]["os"] == "Linux" and pair["raised"]["quant"] == "Q3_K_M"
    assert pair["raised"]["tok_s"] == round(verdict.raised.estimate.tok_s, 2)
    model = {"$ref": "#/$defs/model", "$defs": schema.definitions()["$defs"]}
    assert schema.problems(record, model) == []
