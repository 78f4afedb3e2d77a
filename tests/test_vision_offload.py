"""A vision model's encoder (llama.cpp's mmproj, at F16) sits on the GPU: in an offload row what is
on the card and what is in RAM add up to the row's "Needs", and the card is never overfilled."""

import contextlib
import datetime as dt
import io
import json

import pytest

from tps_atlas.cli import main as cli
from tps_atlas.estimate.fit import usable_gb
from tps_atlas.web.data import site_data, write_site_data
from tps_atlas.pages.figures import model_figures
from tps_atlas.pages.model.builder import ModelPageBuilder
from tps_atlas.i18n.phrases import Phrases

from tests.support.node import NODE, run_node

# The review's models whose offload rows overfilled the card (Llama 3.2 11B Vision on 8 GB cards,
# Qwen2.5-VL 7B on 6 GB laptops, Gemma 3 27B on 12 GB cards), each on the card of its offload rows
# with the most memory: where the encoder is the largest part of what the card can take.
MODELS = ("llama-3.2-11b-vision", "qwen2.5-vl-7b", "gemma-3-27b")


def estimate_rows(model_id):
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        assert cli.main(["estimate", model_id, "--json"]) == 0
    return json.loads(out.getvalue())["rows"]


def largest_offload_row(model_id):
    return max((r for r in estimate_rows(model_id) if r["fit"] == "offload"), key=lambda r: r["vram_gb"])


@pytest.mark.parametrize("model_id", MODELS)
def test_card_and_ram_hold_what_the_row_needs(catalogue, settings, model_id):
    row = largest_offload_row(model_id)
    card_id = row["card_id"]
    model = catalogue.model(model_id)
    encoder_gb = model.vision_encoder_b * settings.vision_bits_per_weight / 8
    assert row["fit"] == "offload" and encoder_gb > 0.5
    assert row["vram_used_gb"] + row["ram_gb"] == pytest.approx(row["need_gb"], abs=0.015)
    card = catalogue.cards_by_id[card_id]
    assert row["vram_used_gb"] <= usable_gb(card, settings, settings.calibration()) + 0.005
    assert row["vram_used_gb"] > encoder_gb


def test_the_model_page_row_puts_the_rest_in_ram(catalogue, settings):
    """The 8 GB card's row shows in RAM what the card cannot hold of the 8.6 GB it needs."""
    p = Phrases("en")
    model = catalogue.model("llama-3.2-11b-vision")
    fig = model_figures(model, catalogue.cards, settings)
    card_id = largest_offload_row("llama-3.2-11b-vision")["card_id"]
    on_card = next(o for o in fig.offload if o.card.id == card_id)
    page = ModelPageBuilder(p, settings, dt.date(2026, 1, 1), {}).build(model, fig)
    row = next(r for r in page.rows if r.card_id == card_id)
    assert p.fmt.gb(on_card.need_gb) in row.need
    assert p.fmt.gb(on_card.need_gb - on_card.placement.gpu_gb) in row.offload
    assert on_card.placement.gpu_gb <= usable_gb(on_card.card, settings, settings.calibration()) + 0.005


@pytest.fixture(scope="module")
def exported(tmp_path_factory, catalogue, settings):
    return write_site_data(tmp_path_factory.mktemp("export-vision"), site_data(catalogue, settings))


@pytest.mark.skipif(NODE is None, reason="node is not installed (scripts/test installs it)")
def test_the_browser_places_the_encoder_on_the_card(exported, settings):
    pairs = [(m, largest_offload_row(m)["card_id"]) for m in MODELS]
    cases = [{"model": m, "card": c, "context": 4096, "floor": "Q3_K_M", "kv": "f16", "ram": 64,
              "ram_kind": "ddr5-6000-2ch", "calibration": settings.default_calibration} for m, c in pairs]
    for (model_id, card_id), js in zip(pairs, run_node("offload", cases, exported), strict=True):
        py = next(r for r in estimate_rows(model_id) if r["card_id"] == card_id)
        assert js["fit"] == "offload"
        assert js["gpu_gb"] + js["ram_gb"] == pytest.approx(js["need_gb"], abs=1e-9)
        assert (round(js["gpu_gb"], 2), round(js["ram_gb"], 2)) == (py["vram_used_gb"], py["ram_gb"])
