"""The estimator's rules beyond the seed figures: MoE, KV cache, quant choice, thresholds."""

import dataclasses

import pytest

from macros.catalogue import Architecture
from macros.estimator import estimate, kv_cache_gb, memory_needed, verdict
from macros.figures import model_figures


def test_fit_and_comfort_thresholds(settings):
    # The calibration note's boundary cases.
    assert verdict(7.2, 8, settings) == "tight"
    assert verdict(79.3, 80, settings) == "none"
    assert verdict(139.9, 192, settings) == "comfortable"
    assert verdict(109.6, 141, settings) == "tight"


def test_moe_speed_reads_active_parameters(catalogue, settings, seed):
    glm45 = catalogue.model("glm-4.5")
    as_dense = dataclasses.replace(glm45, active_parameters_b=None, experts_total=None, experts_active=None)
    card = catalogue.card("b300")
    moe, dense = estimate(glm45, card, settings, seed), estimate(as_dense, card, settings, seed)
    assert moe.quant == dense.quant and moe.need_gb == dense.need_gb  # memory holds every expert
    assert moe.tok_s == pytest.approx(dense.tok_s * 355 / 32)


def test_floor_hides_more_compressed_quants(catalogue, settings, seed):
    f = model_figures(catalogue.model("glm-4.1v-thinking"), catalogue.cards, settings, seed, floor="Q8_0")
    assert f.quant_levels == ("Q8_0",)
    assert all(e.card.vram_gb * 0.9 >= e.need_gb for e in f.rows)


def test_longer_context_needs_more_memory_and_fewer_cards(catalogue, settings, seed):
    model = catalogue.model("glm-4.1v-thinking")
    short = model_figures(model, catalogue.cards, settings, seed)
    long = model_figures(model, catalogue.cards, settings, seed, context=131072)
    assert long.cards_fit < short.cards_fit
    assert long.smallest.need_gb > short.smallest.need_gb


def test_kv_cache_from_layouts():
    # Llama 3.1 8B: 32 layers x 8 KV heads x 128 x 2 (K and V) x 2 bytes = 128 KiB per token.
    gqa = Architecture(layers=32, attention="gqa", kv_heads=8, head_dim=128)
    assert kv_cache_gb(gqa, 8192, 2) == pytest.approx(32 * 8 * 128 * 2 * 2 * 8192 / 1e9)
    # Half the layers limited to a 4,096-token window (Gemma 2 style).
    swa = dataclasses.replace(gqa, sliding_window=4096, sliding_window_layers=16)
    assert kv_cache_gb(swa, 8192, 2) == pytest.approx(kv_cache_gb(gqa, 8192, 2) * 0.75)
    # Latent attention keeps (kv_lora_rank + rope_head_dim) per token and layer.
    mla = Architecture(layers=61, attention="mla", kv_lora_rank=512, rope_head_dim=64)
    assert kv_cache_gb(mla, 1000, 2) == pytest.approx(61 * 576 * 2 * 1000 / 1e9)


def test_quantized_kv_cache_halves_the_cache(catalogue, settings):
    model = catalogue.model("glm-130b")
    quant = settings.quant("Q4_K_M")
    f16 = memory_needed(model, quant, 32768, settings, "f16")
    q8 = memory_needed(model, quant, 32768, settings, "q8_0")
    assert q8.kv_gb == pytest.approx(f16.kv_gb * 1.0625 / 2)
    assert not f16.from_architecture


def test_fixed_quant_reports_every_card(catalogue, settings, seed):
    f = model_figures(catalogue.model("glm-130b"), catalogue.cards, settings, seed, quant="Q8_0")
    assert {e.quant.name for e in f.rows} == {"Q8_0"}
    assert all(e.need_gb == pytest.approx(139.9, rel=0.02) for e in f.rows + f.misses)
    assert all(e.tok_s is None for e in f.misses)
