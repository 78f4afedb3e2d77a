"""The ``measured`` calibration (hardware classes) against measured llama.cpp runs.

Measurements: data/measured/llama-cpp.tsv, scored leaving one device out (tps_atlas/measured/accuracy.py,
the same code as benchmarks/accuracy.py and the methodology page).
"""

import dataclasses

import pytest

from tps_atlas.measured import accuracy, fitting
from tps_atlas.estimate.fit import estimate
from tps_atlas.estimate.speed import prompt_tokens_per_second, tokens_per_second


@pytest.fixture(scope="module")
def measured(settings):
    return settings.calibration("measured")


@pytest.fixture(scope="module")
def result():
    # What the methodology pages show: the builds of this session read the same score.
    return accuracy.shared_accuracy("measured")


def test_every_card_falls_in_a_class_of_its_vendor_or_memory(catalogue, measured):
    for card in catalogue.cards:
        speed_class = measured.speed_class(card)
        assert speed_class is not None, card.id
        assert card.vendor in speed_class.vendors or (card.memory_type or "") in speed_class.memory_types, card.id


def test_fixed_cost_slows_small_models_more(catalogue, settings, measured):
    # Same card: the 8B model runs further below the bandwidth bound than the 70B one.
    card, q4 = catalogue.card("geforce-rtx-4090"), settings.quant("Q4_K_M")
    small, large = catalogue.model("llama-3-8b"), catalogue.model("llama-3-70b")
    bound = lambda m: card.bandwidth_gb_s / (m.read_parameters_b * q4.bits_per_weight / 8)  # noqa: E731
    assert tokens_per_second(small, q4, card, measured) / bound(small) < \
        tokens_per_second(large, q4, card, measured) / bound(large)


def test_moe_reads_active_parameters(catalogue, settings, measured):
    # Decode reads the active experts, so Mixtral 8x7B runs as fast as a dense model of 12.9B;
    # prompt processing, too, works on the active parameters, at the FLOP cost the measured MoE
    # prompt runs show (routing, and each expert a small share of the batch).
    mixtral = catalogue.model("mixtral-8x7b")
    dense = dataclasses.replace(mixtral, parameters_b=mixtral.active_parameters_b,
                                active_parameters_b=None, experts_total=None, experts_active=None)
    card, q4 = catalogue.card("a100-sxm4-80gb"), settings.quant("Q4_K_M")
    assert tokens_per_second(mixtral, q4, card, measured) == pytest.approx(
        tokens_per_second(dense, q4, card, measured))
    assert 1.5 < measured.prompt_moe_factor < 4
    assert prompt_tokens_per_second(mixtral, card, measured) == pytest.approx(
        prompt_tokens_per_second(dense, card, measured) / measured.prompt_moe_factor)


def test_longer_context_reads_more_and_waits_longer(catalogue, settings, measured):
    model, card = catalogue.model("llama-3.1-8b"), catalogue.card("geforce-rtx-4090")
    short, long = (estimate(model, card, settings, measured, context=c, quant="Q4_K_M") for c in (4096, 32768))
    assert long.tok_s < short.tok_s
    # Eight times the prompt, and each of its tokens attends to a cache eight times as long.
    assert long.prompt_tok_s < 0.8 * short.prompt_tok_s
    assert long.ttft_s > 8 * short.ttft_s
    assert short.ttft_s == pytest.approx(4096 / short.prompt_tok_s)


def test_prompt_speed_follows_peak_compute_within_a_class(catalogue, measured):
    model = catalogue.model("llama-3.1-8b")
    ada = [c for c in catalogue.cards if c.architecture == "Ada Lovelace" and c.compute_tflops
           and measured.speed_class(c).name == measured.speed_class(catalogue.card("geforce-rtx-4090")).name]
    slow, fast = min(ada, key=lambda c: c.compute_tflops), max(ada, key=lambda c: c.compute_tflops)
    assert prompt_tokens_per_second(model, fast, measured) / prompt_tokens_per_second(model, slow, measured) == \
        pytest.approx(fast.compute_tflops / slow.compute_tflops)


def test_ranges_are_per_class(catalogue, measured):
    ranges = {measured.speed_range(c) for c in catalogue.cards}
    assert len(ranges) > 3
    assert all(low < 1 < high for low, high in ranges)


def test_leave_one_device_out_error_meets_the_targets(result):
    assert result.overall.runs >= 100 and result.overall.devices >= 20
    assert result.overall.median <= 0.15
    assert result.overall.inside >= 0.80


@pytest.mark.xfail(reason="issue 11 target not reached yet: the Xe-LPG iGPU class rests on one run on one device "
                          "(no second public run with its memory stated outside the sources reserved for "
                          "independent checks) and is 58 % off (benchmarks/accuracy.py prints it)", strict=True)
def test_no_class_is_above_25_percent(result):
    assert all(s.median <= 0.25 for s in result.by_class.values()), result.by_class


def test_methodology_scores_come_from_the_benchmark_code(result, measured):
    tg, _ = fitting.load_rows("tg")
    pairs, _ = accuracy.leave_one_device_out(tg, [], measured, measured.overhead_ms)
    assert accuracy.score(pairs).median == pytest.approx(result.overall.median)


def test_measured_beats_seed(seed, result):
    tg, _ = fitting.load_rows("tg")
    seed_rows = [r for r in tg if r.quant.name in seed.quant_efficiency]
    assert result.overall.median < accuracy.score(accuracy.estimates(seed_rows, seed)).median


def test_seed_calibration_has_no_fixed_cost_classes_or_context_term(seed):
    assert seed.overhead_ms == 0 and seed.memory_type_factors == {}
    assert seed.classes == () and seed.kv_read_factor == 0


def test_every_hardware_class_has_a_label_in_each_language():
    from tps_atlas.estimate.settings import load_settings
    from tps_atlas.i18n.phrases import Phrases
    from tps_atlas.records.vocabulary import SPEED_CLASSES
    settings = load_settings()
    names = {k.name for c in settings.calibrations.values() for k in c.classes}
    assert names and names <= set(SPEED_CLASSES), names - set(SPEED_CLASSES)
    hbm = SPEED_CLASSES["hbm-datacentre"]
    assert Phrases("de").term(hbm) == "NVIDIA-Rechenzentrumskarten mit HBM-Speicher"
    assert Phrases("fr").term(hbm) == "cartes NVIDIA de centre de données à mémoire HBM"
    assert Phrases("nl").term(hbm) == "NVIDIA-datacenterkaarten met HBM-geheugen"


def test_benchmark_prints_moe_dense_and_depth_apart_and_the_worst_runs(capsys):
    import importlib.util
    import re
    from pathlib import Path

    path = Path(__file__).resolve().parent.parent / "benchmarks" / "accuracy.py"
    spec = importlib.util.spec_from_file_location("accuracy_benchmark", path)
    bench = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(bench)
    summary = bench.main([])
    out = capsys.readouterr().out
    runs = {key: int(n) for key, n in re.findall(r"^  (MoE|dense|depth 0|depth > 0) +runs +(\d+),", out, re.M)}
    assert runs["MoE"] + runs["dense"] == summary["runs"]
    assert runs["depth 0"] + runs["depth > 0"] == summary["runs"]
    worst = [int(e) for e in re.findall(r"^ +(\d+)% line +\d+ ", out, re.M)]
    assert len(worst) == bench.WORST and worst == sorted(worst, reverse=True)
    assert worst[0] >= summary["logo_p90"] * 100


def test_prompt_leave_one_device_out_error(result):
    # Prompt runs scored like decode, each device by constants fitted without it (its MoE factor and
    # attention cost too): benchmarks/accuracy.py prints 18.7 % (24.2 % before the MoE and attention terms).
    assert result.prompt.runs >= 300 and result.prompt.devices >= 50
    assert result.prompt.median <= 0.20
    assert result.prompt.p90 <= 0.65


def test_longer_prompts_are_slower_per_token_as_the_measured_runs_are(result):
    # An RTX 4090 measured at 512 and 8,192 prompt tokens (Meta-Llama-3-8B): the estimate falls with
    # the prompt as the runs do.
    runs = sorted((p for p in result.prompt_pairs if p.row.chip == "geforce-rtx-4090"
                   and p.row.quant.name == "Q4_K_M"), key=lambda p: p.row.run.tokens)
    assert len(runs) >= 3
    first, last = runs[0], runs[-1]
    measured, estimated = last.row.measured / first.row.measured, last.estimate / first.estimate
    assert measured < 0.7 and estimated == pytest.approx(measured, rel=0.25)


@pytest.mark.xfail(reason="issue 26 target not reached: the AMD APU class's three devices disagree four-fold on "
                          "prompt speed per byte of bandwidth (a 28 W Radeon 890M on a 2025 AMDVLK build against "
                          "a Radeon 8060S and an 890M on 2026 RADV builds), 45 % held out", strict=True)
def test_prompt_median_meets_the_issue_target(result):
    assert result.prompt.median <= 0.15


def test_methodology_shows_each_class_prompt_constants_and_error(settings, result):
    from tps_atlas.i18n.phrases import Phrases
    from tps_atlas.pages.browse import methodology
    from tps_atlas.records.vocabulary import SPEED_CLASSES
    phrases = Phrases("en")
    f, measured = phrases.fmt, settings.calibration("measured")
    page = methodology(phrases, settings, measured)
    assert page["prompt_moe"] == f.decimal(measured.prompt_moe_factor, 2)
    assert page["prompt_score"]["median"] == f.percent(result.prompt.median)
    rows = {c["name"]: c for c in page["classes"]}
    for name in ("nvidia-ada", "apple-m3", "amd-apu"):
        row, constants = rows[phrases.term(SPEED_CLASSES[name])], measured.classes[
            [c.name for c in measured.classes].index(name)]
        assert row["attention"] == f.decimal(constants.prompt_kv_flop_per_byte, 1)
        assert row["prompt_median"] == f.percent(result.prompt_by_class[name].median)
