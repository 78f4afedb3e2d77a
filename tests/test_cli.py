"""The tps-atlas command: listings, estimates, JSON, and clear errors for bad input."""

import json
import subprocess
import sys

import pytest

from tests.support.cli import run
from tests.support.paths import ROOT

VALID = """id: tiny
name: Tiny
weights: open
parameters_b: 7
sources: [{title: a paper}]
"""




def run_installed(*args, cwd=ROOT):
    result = subprocess.run([sys.executable, "-m", "tps_atlas", *args], cwd=cwd,
                            capture_output=True, text=True)
    return result.returncode, result.stdout, result.stderr


def test_estimate_json_shape():
    code, out, _ = run("estimate", "glm-130b", "--calibration", "seed", "--json")
    assert code == 0
    data = json.loads(out)
    assert data["model"] == "glm-130b" and data["context"] == 4096 and data["min_quality"] == "Q3_K_M"
    # Seed figures proper are in test_seed_figures; the catalogue here also holds added machines.
    fitting = [r for r in data["rows"] if r["fit"] in ("comfortable", "tight")]
    assert data["cards_fit"] >= 38 and data["cards_fit"] == len(fitting)
    # Cards that run it only with part of it in system RAM follow those that hold it.
    assert [r["fit"] for r in data["rows"]] == [r["fit"] for r in fitting] + ["offload"] * data["cards_offload"]
    assert data["quant_levels"] == len({row["quant"] for row in fitting}) >= 5
    assert data["fastest"] == fitting[0]
    h100 = next(row for row in fitting if row["card"] == "H100 NVL 94 GB")
    assert h100["tok_s"] == pytest.approx(29.6, abs=0.05)  # the seed pages' fastest card
    assert data["nearest_miss"]["shortfall_gb"] == pytest.approx(21.7, abs=0.05)
    row = h100
    assert set(row) == {"card", "card_id", "vendor", "vram_gb", "bandwidth_gb_s", "released", "quant",
                        "need_gb", "tok_s", "tok_s_low", "tok_s_high", "prompt_tok_s", "ttft_s", "measured",
                        "fit", "command", "verdict"}
    assert row["verdict"]["kind"] == "fits" and row["verdict"]["fit"] == row["fit"]
    assert row["released"] == "2023-03" and row["fit"] == "tight" and row["card_id"] == "h100-nvl-94gb"


def test_estimate_all_adds_cards_that_do_not_fit(catalogue, settings):
    # The largest model of the catalogue: no single device holds it at the floor (checked first, as
    # the memory budget decides it), so --all lists every card as not running it.
    from tps_atlas.estimate.fit import estimate

    largest = max(catalogue.models, key=lambda m: m.parameters_b)
    assert not any(estimate(largest, card, settings, settings.calibration()).fits for card in catalogue.cards)
    data = json.loads(run("estimate", largest.id, "--all", "--json")[1])
    assert data["cards_fit"] == 0 and len(data["rows"]) == data["cards_total"]
    assert {r["fit"] for r in data["rows"]} == {"none"} and {r["quant"] for r in data["rows"]} == {None}


def test_every_row_carries_its_verdict_and_the_shortfall_at_the_native_format():
    data = json.loads(run("estimate", "gpt-oss-120b", "--all", "--json")[1])
    kinds = {r["card_id"]: r["verdict"] for r in data["rows"]}
    assert kinds["geforce-rtx-4090"]["kind"] == "offload"
    # gpt-oss ships only in MXFP4: every shortfall is measured there, and none is zero or less.
    short = [v for v in kinds.values() if v["kind"] != "fits"]
    assert short and {v["shortfall_quant"] for v in short} == {"MXFP4"}
    assert min(v["shortfall_gb"] for v in short) > 0
    assert {v["reason"] for v in short if v["kind"] == "none"} <= {"memory", "no_system_ram", "no_layout"}
    assert data["nearest_miss"]["quant"] == "MXFP4"
    assert data["cards_run"] == data["cards_fit"] + data["cards_offload"]


def test_a_model_no_card_holds_is_short_at_the_floor_and_names_the_smallest_set():
    data = json.loads(run("estimate", "kimi-k2", "--all", "--json")[1])
    miss = data["nearest_miss"]
    assert miss["quant"] == data["min_quality"]
    multi = data["multi"]
    # The set the model page names: the least memory per device, not the fastest.
    assert multi["rule"] == "smallest" and multi["count"] >= 2
    sets = [r for r in data["rows"] if r["verdict"]["kind"] == "multi" and r["verdict"]["count"] == multi["count"]]
    assert min(r["vram_gb"] for r in sets) == next(r["vram_gb"] for r in sets if r["card_id"] == multi["card_id"])
    assert multi["fastest"]["tok_s"] >= multi["tok_s"]
    # That set's own row says the same count and the command splits over it.
    own = next(r["verdict"] for r in data["rows"] if r["card_id"] == multi["card_id"])
    assert own["count"] == multi["count"] and "--tensor-split" in own["command"]


def test_estimate_at_one_quant():
    data = json.loads(run("estimate", "glm-4.1v-thinking", "--quant", "Q8_0", "--all", "--json")[1])
    assert {r["quant"] for r in data["rows"] if r["fit"] != "none"} == {"Q8_0"}
    assert all(r["tok_s"] is None for r in data["rows"] if r["fit"] == "none")


def test_human_output_is_an_aligned_table():
    code, out, _ = run("estimate", "glm-130b", "--calibration", "seed")
    lines = out.splitlines()
    header = next(i for i, line in enumerate(lines) if line.startswith("tok/s"))
    assert set(lines[header + 1]) <= {"-", " "}
    h100 = next(line for line in lines[header + 2:] if "H100 NVL 94 GB" in line)
    assert "29.6" in h100
    assert lines[header].index("card") == h100.index("H100 NVL")
    assert lines[header].index("quant") == h100.index("Q4_K_M")


def test_models_and_cards_listings():
    code, out, _ = run("models", "--json")
    assert code == 0 and "glm-130b" in {m["id"] for m in json.loads(out)}
    code, out, _ = run_installed("cards", "--search", "H100 NVL", "--json")  # once through `python3 -m tps_atlas`
    assert code == 0 and [c["card_id"] for c in json.loads(out)] == ["h100-nvl-94gb"]


def test_model_file_outside_the_catalogue(tmp_path):
    path = tmp_path / "tiny.yaml"
    path.write_text(VALID)
    data = json.loads(run("estimate", "--model-file", str(path), "--json")[1])
    assert data["model"] == "tiny" and data["cards_fit"] > 500


BAD_MODELS = {
    "malformed YAML": ("id: tiny\nname: [unclosed\n", "line", "valid YAML"),
    "missing field": (VALID.replace("parameters_b: 7\n", ""), "parameters_b", "a value"),
    "mistyped field": (VALID.replace("parameters_b: 7", "parameters_b: seven"), "parameters_b", "a number"),
    "misspelt field": (VALID.replace("parameters_b", "paramaters_b"), "paramaters_b", "misspelt as"),
    "zero parameters": (VALID.replace("parameters_b: 7", "parameters_b: 0"), "parameters_b", "above 0"),
    "negative parameters": (VALID.replace("parameters_b: 7", "parameters_b: -3"), "parameters_b", "above 0"),
    "active above total": (VALID + "active_parameters_b: 9\n", "active_parameters_b", "at most parameters_b"),
    "unknown vocabulary": (VALID + "tasks: [dancing]\n", "tasks", "items from"),
    "wrong id": (VALID.replace("id: tiny", "id: other"), "id", "the file name"),
}


@pytest.mark.parametrize("case", BAD_MODELS, ids=list(BAD_MODELS))
def test_bad_model_files_exit_2_naming_file_and_field(tmp_path, case):
    text, field, expected = BAD_MODELS[case]
    path = tmp_path / "tiny.yaml"
    path.write_text(text)
    code, out, err = run("estimate", "--model-file", str(path))
    assert code == 2 and out == ""
    assert len(err.strip().splitlines()) == 1
    assert "tiny.yaml" in err and field in err and expected in err
    assert "Traceback" not in err


@pytest.mark.parametrize("args, field, expected", [
    (["estimate", "no-such-model"], "id", "the id of a model"),
    (["estimate", "glm-130b", "--quant", "Q9_K"], "--quant", "one of F16, Q8_0"),
    (["estimate", "glm-130b", "--min-quality", "Q2"], "--min-quality", "one of F16, Q8_0"),
    (["estimate", "glm-130b", "--max-quality", "Q9"], "--max-quality", "one of F16, Q8_0"),
    (["estimate", "glm-130b", "--quant", "MXFP4"], "--quant",
     "a quant other than MXFP4 (offered only for models that ship in it)"),
    (["estimate", "glm-130b", "--context", "0"], "--context", "a whole number of tokens from 1"),
    (["estimate", "glm-130b", "--calibration", "nope"], "--calibration", "one of seed"),
])
def test_bad_arguments_exit_2(args, field, expected):
    code, _, err = run(*args)
    assert code == 2 and field in err and expected in err and "Traceback" not in err
    assert len(err.strip().splitlines()) == 1, err


def test_max_quality_f16_gives_unquantized_weights():
    code, out, _ = run("estimate", "llama-3.1-8b", "--max-quality", "F16", "--json")
    assert code == 0
    data = json.loads(out)
    assert data["fastest"]["quant"] == "F16" and data["quant_levels"] >= 4
    code, out, _ = run("estimate", "llama-3.1-8b", "--json")
    assert {row["quant"] for row in json.loads(out)["rows"]} <= {"Q8_0", "Q6_K", "Q5_K_M", "Q4_K_M", "IQ4_XS",
                                                                  "Q3_K_M"}


def test_a_native_format_model_is_judged_only_in_it(tmp_path):
    path = tmp_path / "tiny.yaml"
    path.write_text(VALID + "native_format: MXFP4\n")
    code, out, _ = run("estimate", "--model-file", str(path), "--json")
    assert code == 0 and {row["quant"] for row in json.loads(out)["rows"]} == {"MXFP4"}
    code, out, err = run("estimate", "--model-file", str(path), "--quant", "Q8_0")
    assert code == 2 and out == "" and "--quant: expected MXFP4 (tiny ships only in that format)" in err


def test_catalogue_check_passes_and_names_what_it_looked_at():
    code, out, err = run("catalogue", "check")
    assert code == 0, out + err
    assert out.strip().endswith("0 to fix or accept")
