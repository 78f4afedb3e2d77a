"""The verdict of a model on a device (tps_atlas/estimate/verdict.py): one record, decided once from the
estimator's rows, that the pages and the command line only word."""

from __future__ import annotations

import re

import pytest

from tps_atlas.estimate.fit import usable_gb

from tps_atlas.pages.figures import model_figures
from tps_atlas.i18n.formatting import Formatter
from tps_atlas.estimate.verdict import Fits, Multi, NoRun, Offload, Reason, shown_tok_s


@pytest.fixture(scope="module")
def figures(catalogue, settings):
    return {m: model_figures(catalogue.model(m), catalogue.cards, settings)
            for m in ("gpt-oss-120b", "kimi-k2", "llama-3.1-70b", "deepseek-r1", "falcon-7b", "qwen3-235b-a22b")}


def test_each_row_of_the_table_is_the_verdict_of_its_card(figures, catalogue):
    f = figures["gpt-oss-120b"]
    for e in f.rows:
        v = f.verdict(e.card)
        assert isinstance(v, Fits) and v.estimate is e and v.fit == e.fit
    for o in f.offload:
        v = f.verdict(o.card)
        assert isinstance(v, Offload) and v.estimate is o
    listed = {e.card.id for e in f.rows + f.offload}
    assert all(f.verdict(card).kind in ("multi", "none") for card in catalogue.cards if card.id not in listed)


def test_gpt_oss_is_short_at_its_native_format_only(figures, catalogue, settings):
    f = figures["gpt-oss-120b"]
    rtx_4090 = f.verdict(catalogue.card("geforce-rtx-4090"))
    assert isinstance(rtx_4090, Offload)
    s = rtx_4090.shortfall
    assert s.quant_name == "MXFP4" and not s.at_floor
    assert s.shortfall_gb == pytest.approx(s.need_gb - usable_gb(rtx_4090.card, settings, settings.calibration()))
    assert s.need_gb == pytest.approx(rtx_4090.estimate.need_gb)   # the table's own MXFP4 figure
    short = [f.verdict(c) for c in catalogue.cards if not isinstance(f.verdict(c), Fits)]
    assert {v.shortfall.quant_name for v in short} == {"MXFP4"}


def test_no_shortfall_is_zero_or_less(figures, catalogue):
    for f in figures.values():
        for card in catalogue.cards:
            v = f.verdict(card)
            if not isinstance(v, Fits):
                assert v.shortfall.shortfall_gb > 0, (f.model.id, card.id)


def test_a_shortfall_is_measured_at_the_floor_where_the_model_has_no_native_format(figures, catalogue, settings):
    f = figures["kimi-k2"]
    assert f.nearest_miss.quant_name == settings.min_quality and f.nearest_miss.at_floor
    # The set the page names holds the model at a quant no more compressed than the floor, and the
    # shortfall the page quotes is at that same floor: 2 × 288 GB against the floor's need, not Q4_K_M's.
    mi350x = f.verdict(catalogue.card("radeon-instinct-mi350x"))
    assert isinstance(mi350x, Multi) and mi350x.count == 2
    assert mi350x.shortfall.need_gb <= settings.fits * 2 * 288
    assert f.multi.count == 2 and f.multi.cheapest.card.vram_gb == min(
        f.verdict(c).estimate.card.vram_gb for c in catalogue.cards
        if isinstance(f.verdict(c), Multi) and f.verdict(c).count == 2)


def test_the_seed_calibration_keeps_the_seed_pages_shortfall_quant(catalogue, settings, seed):
    f = model_figures(catalogue.model("kimi-k2"), catalogue.cards, settings, seed)
    assert f.nearest_miss.quant_name == settings.shortfall_quant and not f.nearest_miss.at_floor


def test_a_machine_without_separate_ram_never_offloads(figures, catalogue):
    f = figures["qwen3-235b-a22b"]
    spark = f.verdict(catalogue.card("nvidia-dgx-spark-128gb"))
    assert isinstance(spark, NoRun) and spark.reason is Reason.NO_SYSTEM_RAM
    assert all(not isinstance(f.verdict(c), (Offload, Multi)) for c in catalogue.cards if c.unified)


def test_a_model_only_a_few_devices_hold_gets_a_set_of_the_others(figures):
    f = figures["deepseek-r1"]
    assert 1 <= f.cards_fit <= 5 and f.multi is not None
    held = {e.card.id for e in f.rows}
    assert f.multi.cheapest.card.id not in held and not f.multi.cheapest.card.unified
    assert figures["llama-3.1-70b"].multi is None   # many cards hold it: no set offered


def test_a_context_above_the_models_maximum_is_carried_by_every_verdict(figures, catalogue):
    f = figures["falcon-7b"]
    limit = f.model.architecture.max_context
    assert limit < f.context
    assert {f.verdict(c).beyond_context for c in catalogue.cards} == {limit}
    assert {figures["llama-3.1-70b"].verdict(c).beyond_context for c in catalogue.cards} == {None}


@pytest.mark.parametrize("language", ["en", "de"])
def test_reading_speed_is_counted_by_the_speed_as_shown(language):
    """A threshold is tested on the number a reader sees: "10.0 tok/s" reaches ten."""
    f = Formatter(language)
    for value in (9.94, 9.95, 9.9965, 10.0, 10.04, 99.96, 100.4):
        shown = float(re.sub(r"[^\d,.]", "", f.tok_s(value)).replace(".", "").replace(",", ".")
                      if language == "de" else re.sub(r"[^\d.]", "", f.tok_s(value)))
        assert (shown_tok_s(value) >= 10) == (shown >= 10), (value, f.tok_s(value))
        assert shown_tok_s(value) == pytest.approx(shown), (value, f.tok_s(value))
