"""Measured runs beside estimates, prompt speed and decode that slows with context.

Measurements: data/measured/llama-cpp.tsv (tps_atlas/measured/runs.py). The pairs the tests look at
are found in the data, not written here: the first model row that has a measured run.
"""

from __future__ import annotations

import contextlib
import io
import json
import re
import sys
from functools import lru_cache

import pytest

from tps_atlas.cli import main as cli
from tps_atlas.catalogue.load import load_catalogue
from tps_atlas.errors import DataError
from tps_atlas.pages.figures import EstimateTable
from tps_atlas.measured.runs import COLUMNS, MeasuredIndex, load_runs, read_runs
from tps_atlas.i18n.phrases import LANGUAGES, Phrases
from tps_atlas.pages.model.rows import measured_note
from tps_atlas.records.vocabulary import SPEED_CLASSES

from tests.support.paths import ROOT
from tests.support.session import default_estimates, early_builds, uses
from tests.support.site_build import build_site, page_path, stamped_published_site, visible_text

GOOD = ["geforce-rtx-4090", "RTX 4090", "CUDA", "b6123", "2025-08-01", "llama-3-8b", "Llama 3 8B", "8", "",
        "Q4_K_M", "tg", "128", "0", "150.5", "1", "", "", "https://example.org/run", ""]


def write_table(tmp_path, *rows):
    path = tmp_path / "runs.tsv"
    lines = ["# comment", "\t".join(COLUMNS)] + ["\t".join(row) for row in rows]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def test_a_good_table_reads_into_typed_runs(tmp_path):
    run, = read_runs(write_table(tmp_path, GOOD))
    assert (run.card, run.backend, run.tok_s, run.tokens, run.depth, run.line) == \
        ("geforce-rtx-4090", "CUDA", 150.5, 128, 0, 3)
    assert run.mean_depth == 64 and run.on_one_gpu


@pytest.mark.parametrize("column, value, expected", [
    ("tok_s", "fast", "a number"),
    ("backend", "OpenCL", "one of CUDA"),
    ("date", "2025-13-01", "a real date"),
    ("source", "javascript:alert(1)", "a web address"),
    ("test", "bench", "tg or pp"),
    ("active_b", "9", "at most params_b"),
])
def test_bad_cells_name_file_line_and_column(tmp_path, column, value, expected):
    row = list(GOOD)
    row[COLUMNS.index(column)] = value
    path = write_table(tmp_path, GOOD, row)
    with pytest.raises(DataError) as error:
        read_runs(path)
    message = str(error.value)
    assert "\n" not in message
    assert f"runs.tsv:4: {column}: expected {expected}" in message


def test_a_short_line_and_a_wrong_header_are_one_line_errors(tmp_path):
    with pytest.raises(DataError, match=r"runs.tsv:3: \(line\): expected 19 tab-separated columns"):
        read_runs(write_table(tmp_path, GOOD[:5]))
    path = tmp_path / "header.tsv"
    path.write_text("card\tdevice\n", encoding="utf-8")
    with pytest.raises(DataError, match=r"header.tsv:1: \(header\): expected the columns card device"):
        read_runs(path)


def test_the_command_says_which_line_is_bad(tmp_path, monkeypatch, capsys):
    from tps_atlas.measured import runs as measured

    row = list(GOOD)
    row[COLUMNS.index("tok_s")] = "-3"
    (tmp_path / "data" / "measured").mkdir(parents=True)
    table = write_table(tmp_path / "data" / "measured", GOOD, row)
    monkeypatch.setattr(measured, "MEASURED_FILE", table.rename(tmp_path / "data" / "measured" / "llama-cpp.tsv"))
    monkeypatch.chdir(tmp_path)  # the message names the file from the working folder, as the command does
    measured.load_runs.cache_clear()
    try:
        status = cli.main(["estimate", "llama-3.1-8b", "--json"])
    finally:
        measured.load_runs.cache_clear()
    out, err = capsys.readouterr()
    assert status == 2 and out == ""
    assert err.strip().splitlines() == [
        "tps-atlas: data/measured/llama-cpp.tsv:4: tok_s: expected a number above 0, found '-3'"]


# ---------------------------------------------------------------- which run a row shows

def default_table() -> EstimateTable:
    """Every model on every card with the default calibration (the one the preview is built with)."""
    return default_estimates()


@lru_cache(maxsize=None)
def first_measured_pair():
    """The first (model, estimate, run) of the catalogue with a measured run beside it, or None."""
    table = default_table()
    for model in load_catalogue().models:
        for e in table.figures[model.id].rows:
            run = table.measured(model, e)
            if run:
                return model, e, run
    return None


@pytest.fixture(scope="module")
def table():
    return default_table()


@pytest.fixture(scope="module")
def measured_pair():
    pair = first_measured_pair()
    if pair is None:
        pytest.skip("no model row has a measured run at its quant")
    return pair


def test_a_row_shows_a_run_of_its_quant_on_its_chip(measured_pair, catalogue):
    model, e, run = measured_pair
    assert run.quant == e.quant.name and run.test == "tg" and run.on_one_gpu
    assert run.card == e.card.id or catalogue.card(run.card).vram_gb != e.card.vram_gb
    assert run.model == model.id or abs(run.params_b / model.parameters_b - 1) <= 0.05


def test_a_different_quant_or_size_shows_no_run(catalogue):
    model = catalogue.model("llama-3-8b")
    card = catalogue.card("geforce-rtx-4090")
    runs = [r for r in load_runs() if r.card == card.id and r.test == "tg" and r.model == model.id]
    if not runs:
        pytest.skip("no run of llama-3-8b on the RTX 4090")
    index = MeasuredIndex(runs, catalogue.cards_by_id, catalogue.models_by_id)
    assert index.find(model, runs[0].quant, card) is not None
    assert index.find(model, "IQ4_XS" if runs[0].quant != "IQ4_XS" else "Q6_K", card) is None
    assert index.find(catalogue.model("llama-3-70b"), runs[0].quant, card) is None


# ---------------------------------------------------------------- the command

def estimate_json(*args):
    """``tps-atlas estimate ... --json``, in this process (tests/test_cli.py runs it as a command)."""
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        status = cli.main(["estimate", *args, "--json"])
    assert status == 0, err.getvalue()
    return json.loads(out.getvalue())


def test_command_rows_carry_prompt_speed_time_to_first_token_and_measured(measured_pair):
    model, e, run = measured_pair
    out = estimate_json(model.id, "--quant", e.quant.name)
    row = next(r for r in out["rows"] if r["card_id"] == e.card.id)
    assert row["measured"] == {"tok_s": run.tok_s, "backend": run.backend, "build": run.build, "date": run.date,
                               "source": run.source, "model_name": run.model_name, "depth": run.depth}
    assert row["prompt_tok_s"] > row["tok_s"]
    assert row["ttft_s"] == pytest.approx(out["context"] / row["prompt_tok_s"], rel=0.01)
    assert any(r["measured"] is None for r in out["rows"])


def test_command_decodes_slower_at_32k_than_at_4k():
    short = estimate_json("llama-3.1-8b", "--quant", "Q4_K_M", "--context", "4096")
    long = estimate_json("llama-3.1-8b", "--quant", "Q4_K_M", "--context", "32768")
    speeds = {r["card_id"]: r["tok_s"] for r in short["rows"]}
    compared = [(speeds[r["card_id"]], r["tok_s"]) for r in long["rows"] if r["card_id"] in speeds]
    assert len(compared) > 100
    assert all(b < a for a, b in compared)
    ttft = {r["card_id"]: r["ttft_s"] for r in short["rows"]}
    assert all(r["ttft_s"] > ttft[r["card_id"]] for r in long["rows"] if r["card_id"] in ttft)


# ---------------------------------------------------------------- built pages

def _preview_job(site):
    def job():
        published = stamped_published_site()  # holds these pages as they are published
        if published:
            return published, None
        model, e, _ = first_measured_pair()
        return site, build_site(site, calibration="", extra_env={"TPS_PREVIEW": f"{model.id},{e.card.id}"})
    return job


@early_builds
def _start(items, pool, tmp_path_factory):
    mine = [item for item in items if getattr(item, "module", None) is sys.modules[__name__]]
    if uses(mine, "preview") and first_measured_pair():
        pool.submit(f"{__name__}:preview", _preview_job(tmp_path_factory.mktemp("measured-site")))


@pytest.fixture(scope="module")
def preview(builds_pool, tmp_path_factory, measured_pair):
    """The measured pair's model and card pages, in all four languages (default calibration): the
    published site's when scripts/build stamped it, else a preview of the two built now."""
    site, result = builds_pool.get(f"{__name__}:preview", _preview_job(tmp_path_factory.mktemp("measured-site")))
    assert result is None or result.returncode == 0, result.stderr[-3000:]
    return site


@pytest.mark.parametrize("language", LANGUAGES)
def test_measured_figures_show_on_model_and_card_pages(preview, measured_pair, table, language):
    model, e, run = measured_pair
    p = Phrases(language)
    f = p.fmt
    # A model page's table shows the rows with part in RAM too: its note counts every speed shown.
    figures = table.figures[model.id]
    for kind, page_id, rows in (("models", model.id, [*figures.rows, *figures.offload]),
                                ("cards", e.card.id, [x for _, x in table.card_rows(e.card.id)[0]])):
        # A card page's note follows its three tables and names the one it counts.
        page = page_path(preview, language, kind, page_id).read_text(encoding="utf-8")
        marks = re.findall(r'<small class="tps-measured">(.*?)</small>', page)
        assert marks, (kind, language)
        assert any(f.tok_s(run.tok_s) in mark and f'href="{run.source}"' in mark and run.backend in mark
                   for mark in marks)
        text = visible_text(page)
        note = measured_note(p, len(marks), len(rows), below_tables=kind == "cards")
        assert re.sub(r"\s+", " ", str(note)) in text


def test_worked_figure_names_the_class_and_its_constants(preview, measured_pair, table, settings):
    model, _, _ = measured_pair
    page = visible_text(page_path(preview, "en", "models", model.id).read_text(encoding="utf-8"))
    fastest = table.figures[model.id].fastest
    speed_class = settings.calibration().speed_class(fastest.card)
    f = Phrases("en").fmt
    label = Phrases("en").term(SPEED_CLASSES[speed_class.name])  # "data-centre cards with HBM memory"
    assert (f"Devices of the class “{label}” reach about {f.percent(speed_class.efficiency)} of it and "
            f"spend {f.decimal(speed_class.overhead_ms, 2)} ms per token on fixed costs") in page
    assert f"KV cache read per token with {f.count(settings.context_tokens)} tokens of context" in page


def test_built_pages_decode_slower_at_32k_than_at_4k(tmp_path):
    """The model page's card table, rendered as the build renders it, from an estimator file whose
    context_tokens is 4,096 and then 32,768 (in this process: no build of a copy per context)."""
    from tps_atlas.catalogue.load import Catalogue, Portal
    from tps_atlas.estimate.settings import read_settings
    from tps_atlas.mkdocs.render import Renderer

    full = load_catalogue()
    # One card in ten is plenty to compare (the table of every card is the calculator's, test_parity).
    catalogue = Catalogue(cards=full.cards[::10], models=(full.model("llama-3.1-8b"),))
    speeds = {}
    for context in (4096, 32768):
        settings_file = tmp_path / f"estimator-{context}.yaml"
        text = (ROOT / "data" / "estimator.yaml").read_text(encoding="utf-8")
        changed = re.sub(r"(?m)^context_tokens: \d+", f"context_tokens: {context}", text)
        settings_file.write_text(changed, encoding="utf-8")
        settings = read_settings(settings_file)
        assert settings.context_tokens == context
        page = Renderer("en", catalogue, settings, Portal((), (), ())).render_model_table("llama-3.1-8b")
        # Verdict, speed, card, memory, need, quant, ...: the speed and the quant of each row.
        rows = re.findall(r'<tr data-card="([^"]+)"><td class="tps-fit-\w+">[^<]*</td><td>([\d,.]+) tok/s'
                          r'.*?<td>((?:Q|IQ)[^<]*)</td>', page)
        speeds[context] = {card: (float(tok.replace(",", "")), quant) for card, tok, quant in rows}
    same = [(speeds[4096][c], speeds[32768][c]) for c in speeds[32768]
            if c in speeds[4096] and speeds[4096][c][1] == speeds[32768][c][1]]
    assert len(same) >= 5
    assert all(long[0] < short[0] for short, long in same)


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_calculator_writes_the_built_table_with_its_measured_marks(preview, measured_pair, language):
    from tests.support.node import NODE, built_page_parts, run_node

    if NODE is None:
        pytest.skip("node is not installed (scripts/test installs it)")
    model, _, _ = measured_pair
    parts = built_page_parts(preview, language, model.id)
    answer, = run_node("page", [{"labels": parts["labels"], "total_tile": parts["total_tile"]}],
                       preview / "assets" / "tps-data.json")
    assert 'class="tps-measured"' in answer["rows_html"]
    assert answer["rows_html"] == parts["rows_html"]


@pytest.mark.parametrize("old, new, field, expected", [
    (re.compile(r"(name: nvidia-ada, .*?efficiency: )[\d.]+", re.S), r"\g<1>0",
     "calibrations.measured.classes[3].efficiency", "a number above 0"),
    ("vendors: [NVIDIA], architectures: [Ada Lovelace]", "vendors: [Nvidia], architectures: [Ada Lovelace]",
     "calibrations.measured.classes[3].vendors", "items from NVIDIA, AMD, Intel, Apple"),
    ("\n    kv_read_factor: ", "\n    kv_read_factor: -", "calibrations.measured.kv_read_factor",
     "a number of at least 0"),
    ("{name: nvidia-older, vendors: [NVIDIA],", "{name: nvidia-older, vendors: [NVIDIA], architectures: [Kepler],",
     "calibrations.measured.classes", "a class for every other NVIDIA card"),
])
def test_bad_class_constants_are_one_line_errors(tmp_path, old, new, field, expected):
    from tps_atlas.estimate.settings import read_settings

    text = (ROOT / "data" / "estimator.yaml").read_text(encoding="utf-8")
    changed = old.sub(new, text, count=1) if isinstance(old, re.Pattern) else text.replace(old, new, 1)
    assert changed != text
    path = tmp_path / "estimator.yaml"
    path.write_text(changed, encoding="utf-8")
    with pytest.raises(DataError) as error:
        read_settings(path)
    message = str(error.value)
    assert "\n" not in message and field in message and expected in message, message


@pytest.mark.parametrize("language", ["en", "fr"])
def test_the_calculator_works_out_a_row_as_the_page_does(preview, measured_pair, table, language):
    """The worked example of the class model (class, KV cache read, prompt) is the built page's, word for word."""
    from tests.support.node import NODE, built_page_parts, run_node

    if NODE is None:
        pytest.skip("node is not installed (scripts/test installs it)")
    model, _, _ = measured_pair
    fastest = table.figures[model.id].fastest
    page = page_path(preview, language, "models", model.id).read_text(encoding="utf-8")
    built = re.search(r'<details class="tps-working"><summary>.*?</summary>\n<ul>(.*?)</ul>', page, re.S).group(1)
    parts = built_page_parts(preview, language, model.id)
    js, = run_node("working", [{"labels": parts["labels"], "card": fastest.card.id}],
                   preview / "assets" / "tps-data.json")
    assert re.search(r"<ul>(.*?)</ul>", js, re.S).group(1) == built
    assert built.count("<li>") == 7
    # One line names the llama.cpp backend the class's efficiency is for.
    assert table.calibration.speed_class(fastest.card).backend in built
