"""The ``measured`` calibration against measured llama.cpp decode speeds.

Measurements: data/measured-llama-cpp.tsv (single-GPU rows; see benchmarks/accuracy.py).
"""

import dataclasses
import importlib.util
import sys

import pytest

from macros.estimator import estimate, tokens_per_second

from .conftest import ROOT

spec = importlib.util.spec_from_file_location("accuracy", ROOT / "benchmarks" / "accuracy.py")
accuracy = importlib.util.module_from_spec(spec)
sys.modules.setdefault("accuracy", accuracy)
spec.loader.exec_module(accuracy)


@pytest.fixture(scope="module")
def measured(settings):
    return settings.calibration("measured")


@pytest.mark.parametrize("model_id, card_id, tok_s, within", [
    ("llama-3-8b", "geforce-rtx-4090", 130.58, 0.05),          # consumer NVIDIA, GDDR6X
    ("llama-3-70b", "a100-sxm4-80gb", 24.61, 0.10),            # datacenter NVIDIA, HBM2e
    ("llama-3.2-3b", "radeon-rx-7900-xt", 108.58, 0.30),       # AMD (Vulkan): the loosest class
    ("llama-3-70b", "apple-m2-ultra-192gb", 12.48, 0.10),      # Apple unified memory
    ("llama-3.1-70b", "nvidia-dgx-spark-128gb", 4.71, 0.15),   # GB10, LPDDR5X
])
def test_measured_cases_fall_inside_the_shown_range(catalogue, settings, measured, model_id, card_id, tok_s,
                                                    within):
    e = estimate(catalogue.model(model_id), catalogue.card(card_id), settings, measured, quant="Q4_K_M")
    assert e.tok_s_low <= tok_s <= e.tok_s_high
    assert e.tok_s == pytest.approx(tok_s, rel=within)


def test_fixed_cost_slows_small_models_more(catalogue, settings, measured):
    # Same card: the 8B model runs further below the bandwidth bound than the 70B one.
    card, q4 = catalogue.card("geforce-rtx-4090"), settings.quant("Q4_K_M")
    small, large = catalogue.model("llama-3-8b"), catalogue.model("llama-3-70b")
    bound = lambda m: card.bandwidth_gb_s / (m.read_parameters_b * q4.bits_per_weight / 8)  # noqa: E731
    assert tokens_per_second(small, q4, card, measured) / bound(small) < \
        tokens_per_second(large, q4, card, measured) / bound(large)


def test_moe_reads_active_parameters(catalogue, settings, measured):
    # No MoE model is among the measurements; the rule is the estimator's: decode reads
    # the active experts, so Mixtral 8x7B runs as fast as a dense model of 12.9B.
    mixtral = catalogue.model("mixtral-8x7b")
    dense = dataclasses.replace(mixtral, parameters_b=mixtral.active_parameters_b,
                                active_parameters_b=None, experts_total=None, experts_active=None)
    card, q4 = catalogue.card("a100-sxm4-80gb"), settings.quant("Q4_K_M")
    assert tokens_per_second(mixtral, q4, card, measured) == pytest.approx(
        tokens_per_second(dense, q4, card, measured))


def test_measured_calibration_meets_the_accuracy_targets(measured):
    rows, _, skipped = accuracy.load_rows()
    assert len(rows) >= 45 and skipped == ["M1 7-Core GPU 8GB"]
    assert measured.range_low >= 0.6 and measured.range_high <= 1.6
    s = accuracy.score(accuracy.estimates(rows, measured), measured)
    assert s.median < 0.15
    assert s.p90 < 0.40
    assert s.inside >= 0.90


def test_measured_beats_seed(seed, measured):
    rows, _, _ = accuracy.load_rows()
    assert accuracy.score(accuracy.estimates(rows, measured), measured).median < \
        accuracy.score(accuracy.estimates(rows, seed), seed).median


def test_seed_calibration_has_no_fixed_cost(seed):
    assert seed.overhead_ms == 0 and seed.memory_type_factors == {}
