"""The estimator's rules beyond the seed figures: MoE, KV cache, quant choice, thresholds."""

import dataclasses

import pytest

from tps_atlas.catalogue.models import Architecture
from tps_atlas.estimate.fit import estimate, verdict
from tps_atlas.estimate.memory import kv_cache_gb, memory_needed
from tps_atlas.pages.figures import model_figures


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


# ------------------------------------------------------------ ladder, ceiling, native format, vision

def test_default_ceiling_is_q8_0_and_f16_is_reached_on_request(catalogue, settings):
    llama = catalogue.model("llama-3.1-8b")
    big = catalogue.card("h100-sxm5-80gb")
    assert estimate(llama, big, settings, settings.calibration()).quant.name == "Q8_0"
    f16 = estimate(llama, big, settings, settings.calibration(), ceiling="F16")
    assert f16.quant.name == "F16"
    # 16 bits a weight: 8.03B parameters are 16.06 GB before the KV cache and buffer
    assert f16.memory.weights_gb == pytest.approx(llama.parameters_b * 2)


def test_q4_0_and_mxfp4_are_never_chosen_automatically(settings):
    names = [q.name for q in settings.allowed_quants(floor="Q3_K_M", ceiling="F16")]
    assert names[0] == "F16" and "MXFP4" not in names
    # Q4_0 is ranked below IQ4_XS but larger: whenever it fits, IQ4_XS fits first
    assert settings.quant("Q4_0").bits_per_weight > settings.quant("IQ4_XS").bits_per_weight
    assert names.index("Q4_0") > names.index("IQ4_XS")


def test_a_native_format_is_the_only_one_offered(catalogue, settings):
    model = dataclasses.replace(catalogue.model("llama-3.1-8b"), native_format="MXFP4")
    f = model_figures(model, catalogue.cards, settings, floor="Q8_0", ceiling="F16")
    assert f.quant_levels == ("MXFP4",)
    assert f.nearest_miss is None or f.nearest_miss.quant_name == "MXFP4"


def test_vision_encoder_counts_at_f16_in_memory_not_in_speed(catalogue, settings):
    base = catalogue.model("llama-3.1-8b")
    vision = dataclasses.replace(base, vision_encoder_b=0.4)
    card = catalogue.card("geforce-rtx-4090")
    plain, seeing = estimate(base, card, settings, settings.calibration()), estimate(vision, card, settings,
                                                                                 settings.calibration())
    assert seeing.quant == plain.quant
    assert seeing.need_gb - plain.need_gb == pytest.approx(0.8)  # 0.4B x 2 bytes
    assert seeing.tok_s == plain.tok_s


def test_linear_attention_layers_keep_no_kv_cache():
    hybrid = Architecture(layers=48, attention="gqa", kv_heads=2, head_dim=256, linear_attention_layers=36)
    full = Architecture(layers=12, attention="gqa", kv_heads=2, head_dim=256)
    assert kv_cache_gb(hybrid, 262144, 2.0) == kv_cache_gb(full, 262144, 2.0)
    all_windowed = dataclasses.replace(hybrid, sliding_window=4096)  # the 12 attention layers, all windowed
    assert kv_cache_gb(all_windowed, 262144, 2.0) == pytest.approx(2 * 2 * 256 * 2.0 * 12 * 4096 / 1e9)
    windowed = dataclasses.replace(hybrid, sliding_window=4096, sliding_window_layers=6)
    assert kv_cache_gb(windowed, 262144, 2.0) == pytest.approx(
        2 * 2 * 256 * 2.0 * (6 * 262144 + 6 * 4096) / 1e9)
