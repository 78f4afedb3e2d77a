"""A machine of different GPUs and the RAM beside them (#28): the estimator, its evidence, the command line."""

import json
import re
from pathlib import Path

import pytest

from tests.support.cli import run
from tps_atlas.catalogue.load import load_catalogue
from tps_atlas.errors import DataError
from tps_atlas.estimate.machine import MachineFit, MachineOffload
from tps_atlas.estimate.machine_verdict import machine_command, machine_link, machine_verdict, parse_machine
from tps_atlas.estimate.offload import load_ram
from tps_atlas.estimate.settings import load_settings
from tps_atlas.estimate.verdict import Fits, NoRun, Offload, Reason
from tps_atlas.measured.mixed_accuracy import score_mixed
from tps_atlas.measured.mixed_runs import COLUMNS, load_mixed_runs, read_mixed_runs
from tps_atlas.pages.figures import model_figures

PAIR = "geforce-rtx-3090,geforce-rtx-3060-12gb"


def verdict_for(model_id: str, link: str):
    catalogue, settings = load_catalogue(), load_settings()
    calibration = settings.calibration()
    model = catalogue.model(model_id).for_calibration(calibration.name)
    return model, machine_verdict(model, parse_machine(link, catalogue.cards_by_id, settings), settings, calibration)


def test_a_70b_model_splits_across_a_3090_and_a_3060_in_proportion_to_their_room():
    model, v = verdict_for("llama-3.3-70b", PAIR + "~64~ddr4-3200-2ch")
    assert isinstance(v, Fits) and isinstance(v.estimate, MachineFit)
    e = v.estimate
    assert [s.card.id for s in e.shares] == PAIR.split(",")
    layers = [s.layers for s in e.shares]
    assert sum(layers) == model.architecture.layers
    # The 24 GB card takes about twice the layers of the 12 GB one, and neither is filled past its budget.
    assert 1.8 < layers[0] / layers[1] < 2.4
    assert all(s.used_gb <= s.budget_gb for s in e.shares)
    # A token passes through both cards: its time is theirs added, plus one handoff.
    handoff = load_settings().machine.handoff_ms
    assert 1000 / e.tok_s == pytest.approx(sum(s.ms for s in e.shares) + handoff)
    command = machine_command(model, e, 4096)
    assert f"--tensor-split {layers[0]},{layers[1]}" in command and "--main-gpu 0" in command


def test_the_split_is_slower_than_the_fast_card_and_faster_than_the_slow_one_on_a_model_both_hold():
    catalogue, settings = load_catalogue(), load_settings()
    calibration = settings.calibration()
    model = catalogue.model("llama-3.1-8b").for_calibration(calibration.name)
    figures = model_figures(model, catalogue.cards, settings, calibration, quant="Q4_K_M")
    speed = {e.card.id: e.tok_s for e in figures.rows}
    _, v = verdict_for("llama-3.1-8b", PAIR)
    both = machine_verdict(model, parse_machine(PAIR, catalogue.cards_by_id, settings), settings, calibration,
                           quant="Q4_K_M").estimate
    assert v.kind == "fits"
    assert speed["geforce-rtx-3060-12gb"] < both.tok_s < speed["geforce-rtx-3090"]


def test_one_card_is_the_card_pages_verdict():
    catalogue, settings = load_catalogue(), load_settings()
    calibration = settings.calibration()
    for model_id in ("llama-3.3-70b", "gpt-oss-120b", "qwen3-32b"):
        model = catalogue.model(model_id).for_calibration(calibration.name)
        card = catalogue.cards_by_id["geforce-rtx-3090"]
        page = model_figures(model, catalogue.cards, settings, calibration).verdict(card)
        _, mine = verdict_for(model_id, "geforce-rtx-3090")
        assert mine.kind == page.kind
        if hasattr(page, "estimate"):
            assert mine.estimate.tok_s == pytest.approx(page.estimate.tok_s)
            assert mine.estimate.quant == page.estimate.quant


def test_a_moe_model_keeps_experts_in_ram_beside_both_cards():
    model, v = verdict_for("gpt-oss-120b", PAIR + "~64")
    assert isinstance(v, Offload) and isinstance(v.estimate, MachineOffload)
    command = machine_command(model, v.estimate, 4096)
    assert "--n-cpu-moe " in command and "--tensor-split " in command
    assert 0 < v.estimate.placement.ram_gb < 64 * 1.07
    # Less RAM, no room for the experts: it does not run, for want of memory.
    _, small = verdict_for("deepseek-r1", PAIR + "~8")
    assert isinstance(small, NoRun) and small.reason is Reason.MEMORY and small.machine is not None


def test_the_os_changes_what_the_main_card_and_the_ram_keep():
    _, windows = verdict_for("qwen3-32b", PAIR)
    _, server = verdict_for("qwen3-32b", PAIR + "~~~linux-headless")
    assert server.estimate.shares[0].budget_gb == pytest.approx(windows.estimate.shares[0].budget_gb + 0.5)
    assert server.estimate.shares[1].budget_gb == pytest.approx(windows.estimate.shares[1].budget_gb)


@pytest.mark.parametrize("link, field_text", [
    ("nope", "a GPU id of the catalogue"),
    (",".join(["geforce-rtx-3090"] * 5), "1 to 4 GPU ids"),
    (PAIR + "~99999999", "a RAM size"),
    (PAIR + "~-4", "a RAM size"),
    (PAIR + "~64~<script>alert(1)</script>", "a kind of RAM"),
    ("<img src=x onerror=alert(1)>", "a GPU id"),
    (PAIR + "~64~ddr4-3200-2ch~beos", "an OS"),
    ("x" * 500, "at most 400 characters"),
    ("geforce-rtx-3090,apple-m4-max-128gb", "unified-memory machine stands alone"),
])
def test_an_untrusted_machine_link_is_one_error_naming_it(link, field_text):
    catalogue = load_catalogue()
    if "apple" in link:
        link = "geforce-rtx-3090," + next(c.id for c in catalogue.cards if c.unified)
    with pytest.raises(DataError) as error:
        parse_machine(link, catalogue.cards_by_id, load_settings())
    assert error.value.file == "link" and error.value.field == "machine" and field_text in str(error.value)


def test_a_machine_link_reads_back():
    catalogue, settings = load_catalogue(), load_settings()
    for link in (PAIR, PAIR + "~32", PAIR + "~64~ddr4-3200-2ch~linux"):
        assert machine_link(parse_machine(link, catalogue.cards_by_id, settings), load_ram(), settings) == link


def test_the_mixed_runs_are_read_and_scored():
    runs = load_mixed_runs()
    catalogue = load_catalogue()
    assert len(runs) >= 10 and all(r.source.startswith("https://") for r in runs)
    assert all(c in catalogue.cards_by_id for r in runs for c in r.cards)
    scored = [p for p in score_mixed() if p.estimate is not None]
    assert len(scored) >= 10 and all(p.run.split_mode == "layer" for p in scored)


@pytest.mark.parametrize("column, value, expected", [
    ("cards", "geforce-rtx-3090", "2 to 8 card ids"),
    ("split_mode", "diagonal", "one of layer, row, tensor"),
    ("tensor_split", "1,x", "numbers, comma-separated"),
    ("tok_s", "fast", "a speed in tok/s"),
    ("source", "a forum", "a web address"),
    ("kv_cache", "q2", "one of f16, q8_0, q4_0"),
])
def test_a_bad_mixed_run_names_file_row_and_column(tmp_path: Path, column, value, expected):
    good = dict(zip(COLUMNS, ["geforce-rtx-3090,geforce-rtx-3060-12gb", "3090 + 3060", "CUDA", "b1", "2026-01",
                              "llama-bench", "qwen3-32b", "Qwen3 32B", "Q4_K_M", "layer", "2,1", "", "", "", "",
                              "20.5", "https://example.org/run", ""], strict=True))
    good[column] = value
    path = tmp_path / "mixed.tsv"
    path.write_text("# a comment\n" + "\t".join(COLUMNS) + "\n" + "\t".join(good.values()) + "\n")
    with pytest.raises(DataError) as error:
        read_mixed_runs(path)
    assert error.value.file.endswith("mixed.tsv:3") and error.value.field == column and expected in str(error.value)


def test_the_command_line_answers_for_a_machine():
    code, out, _ = run("estimate", "llama-3.3-70b", "--cards", PAIR, "--ram", "64", "--ram-kind", "ddr4-3200-2ch",
                       "--json")
    assert code == 0
    data = json.loads(out)
    assert data["kind"] == "fits" and [c["card_id"] for c in data["machine"]["cards"]] == PAIR.split(",")
    assert data["tok_s"] > 5 and "--tensor-split" in data["command"] and data["machine"]["link"] == \
        PAIR + "~64~ddr4-3200-2ch"
    code, out, _ = run("estimate", "qwen3-32b", "--cards", "geforce-rtx-3090,geforce-rtx-3060-12gb,"
                       "geforce-rtx-3060-12gb")
    assert code == 0 and "measured: 13 tok/s" in out and "--tensor-split 32,16,16" in out
    # Memory in the pages' unit: a 3090's budget is a little under its 24 GiB, not "24.8 GB".
    assert re.search(r"GeForce RTX 3090: \d+ layers, [\d.]+ of 2[23]\.\d GiB", out), out


@pytest.mark.parametrize("args, option", [
    (["--cards", "nope"], "--cards"),
    (["--cards", ",".join(["geforce-rtx-3090"] * 5)], "--cards"),
    (["--cards", "geforce-rtx-3090", "--ram", "1e9"], "--ram"),
    (["--cards", "geforce-rtx-3090", "--ram", "nan"], "--ram"),
    (["--cards", "geforce-rtx-3090", "--os", "beos"], "--os"),
    (["--cards", "<script>"], "--cards"),
    (["--os", "linux"], "--os"),
])
def test_a_bad_machine_option_is_one_line_and_exit_2(args, option):
    code, out, err = run("estimate", "llama-3.3-70b", *args)
    assert code == 2 and not out
    assert len(err.strip().splitlines()) == 1 and f"command line: {option}:" in err
