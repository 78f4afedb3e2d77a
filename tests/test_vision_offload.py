"""A vision model's encoder (llama.cpp's mmproj, at F16) sits on the GPU: in an offload row what is
on the card and what is in RAM add up to the row's "Needs", and the card is never overfilled."""

import datetime as dt
import json

import pytest

from macros import cli
from macros.export import site_data, write_site_data
from macros.figures import model_figures
from macros.model_page import ModelPageBuilder
from macros.phrases import Phrases

from .test_parity import NODE, run_node

# (model, card): the review's rows that overfilled the card (an 8 GB card, a 6 GB laptop card, and
# a 12 GB card with a larger encoder).
PAIRS = [("llama-3.2-11b-vision", "geforce-rtx-3060-8gb"), ("qwen2.5-vl-7b", "geforce-rtx-4050-mobile"),
         ("gemma-3-27b", "geforce-rtx-3060-12gb")]


def offload_row(capsys, model_id, card_id):
    assert cli.main(["estimate", model_id, "--json"]) == 0
    return next(r for r in json.loads(capsys.readouterr().out)["rows"] if r["card_id"] == card_id)


@pytest.mark.parametrize("model_id, card_id", PAIRS)
def test_card_and_ram_hold_what_the_row_needs(capsys, catalogue, settings, model_id, card_id):
    row = offload_row(capsys, model_id, card_id)
    model = catalogue.model(model_id)
    encoder_gb = model.vision_encoder_b * settings.vision_bits_per_weight / 8
    assert row["fit"] == "offload" and encoder_gb > 0.5
    assert row["vram_used_gb"] + row["ram_gb"] == pytest.approx(row["need_gb"], abs=0.015)
    assert row["vram_used_gb"] <= settings.fits * row["vram_gb"]
    assert row["vram_used_gb"] > encoder_gb


def test_the_model_page_row_puts_the_rest_in_ram(catalogue, settings):
    """The 8 GB card's row shows in RAM what the card cannot hold of the 8.6 GB it needs."""
    p = Phrases("en")
    model = catalogue.model("llama-3.2-11b-vision")
    fig = model_figures(model, catalogue.cards, settings)
    on_8gb = next(o for o in fig.offload if o.card.id == "geforce-rtx-3060-8gb")
    page = ModelPageBuilder(p, settings, dt.date(2026, 1, 1), {}).build(model, fig)
    row = next(r for r in page.rows if r.card_id == "geforce-rtx-3060-8gb")
    assert p.fmt.gb(on_8gb.need_gb) in row.need
    assert p.fmt.gb(on_8gb.need_gb - on_8gb.placement.gpu_gb) in row.offload
    assert on_8gb.placement.gpu_gb <= settings.fits * 8


@pytest.fixture(scope="module")
def exported(tmp_path_factory, catalogue, settings):
    return write_site_data(tmp_path_factory.mktemp("export-vision"), site_data(catalogue, settings))


@pytest.mark.skipif(NODE is None, reason="node is not installed (scripts/test installs it)")
def test_the_browser_places_the_encoder_on_the_card(exported, settings, capsys):
    cases = [{"model": m, "card": c, "context": 4096, "floor": "Q3_K_M", "kv": "f16", "ram": 64,
              "ram_kind": "ddr5-6000-2ch", "calibration": settings.default_calibration} for m, c in PAIRS]
    for (model_id, card_id), js in zip(PAIRS, run_node("offload", cases, exported), strict=True):
        py = offload_row(capsys, model_id, card_id)
        assert js["fit"] == "offload"
        assert js["gpu_gb"] + js["ram_gb"] == pytest.approx(js["need_gb"], abs=1e-9)
        assert (round(js["gpu_gb"], 2), round(js["ram_gb"], 2)) == (py["vram_used_gb"], py["ram_gb"])
