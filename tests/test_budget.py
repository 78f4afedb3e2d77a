"""The memory budget (tps_atlas/estimate/budget.py): what a run needs and what a device gives, the pairs the issue
names, the out-of-memory reports' reader, and the counting of benchmarks/accuracy.py --verdicts."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from tps_atlas.estimate.budget import attention_scores_gb
from tps_atlas.errors import DataError
from tps_atlas.estimate.fit import calibrated_memory, estimate, usable_gb
from tps_atlas.estimate.memory import memory_needed
from tps_atlas.estimate.offload import load_ram, offload_estimate
from tps_atlas.measured.oom_reports import OOM_COLUMNS, load_reports, read_reports
from tps_atlas.measured.verdict_check import Judge, Judged, device_as_run, device_on_os, tally


@pytest.fixture
def measured(settings):
    return settings.calibration("measured")


@pytest.fixture
def seed_rule(measured):
    """The measured speeds judged by the seed's fit rule: what the site said before the budget."""
    return dataclasses.replace(measured, fit_rule="share")


def test_seed_keeps_the_seed_rule(catalogue, settings, seed):
    card = catalogue.card("geforce-rtx-3090")
    assert usable_gb(card, settings, seed) == pytest.approx(settings.fits * card.vram_gb)
    memory = memory_needed(catalogue.model("qwen3.6-35b-a3b"), settings.quant("Q4_K_M"), 65536, settings)
    assert calibrated_memory(memory, 65536, settings, seed) == memory  # the flat buffer


def test_a_3090_runs_qwen3_6_35b_a3b_at_q4_k_m_as_measured(catalogue, settings, measured, seed_rule):
    """The issue's first case: 160 tok/s measured with every layer on the card; the old rule said offload."""
    model, card = catalogue.model("qwen3.6-35b-a3b"), catalogue.card("geforce-rtx-3090")
    before = estimate(model, card, settings, seed_rule, quant="Q4_K_M")
    after = estimate(model, card, settings, measured, quant="Q4_K_M")
    assert not before.fits and after.fits
    # 24 GiB less CUDA's context and the desktop's share: more than 0.90 x 24 GB, less than 24 GiB.
    assert settings.fits * 24 < usable_gb(card, settings, measured) < 24 * 1.073741824
    assert after.need_gb <= usable_gb(card, settings, measured)


def test_a_display_costs_a_desktop_card_memory_a_laptop_card_keeps(catalogue, settings, measured):
    desktop, laptop = catalogue.card("geforce-rtx-4060"), catalogue.card("geforce-rtx-4060-mobile")
    assert desktop.vram_gb == laptop.vram_gb
    gap = usable_gb(laptop, settings, measured) - usable_gb(desktop, settings, measured)
    assert gap == pytest.approx(settings.budget.display_reserve_gb)


def test_a_mac_keeps_its_screen_inside_its_gpu_limit(catalogue, settings, measured):
    """macOS counts the window server's GPU memory within the GPU's limit: a 64 GB Mac gives 48 GiB
    less the desktop's share. Llama 3.3 70B Q5_K_M (49.95 GB) at 2,048 tokens failed so on a Mac mini
    M4 Pro 64 GB (ollama issue 8331); the limit alone would have held it."""
    mac = catalogue.card("apple-m4-pro-64gb")
    assert usable_gb(mac, settings, measured) == pytest.approx(
        mac.system_memory_gb * mac.usable_share * 1.073741824 - settings.budget.display_reserve_gb)
    failed = [j for j in judged_reports(catalogue, settings, measured) if "ollama/issues/8331" in j.source]
    assert len(failed) == 1 and not failed[0].accepted and failed[0].room_gb < failed[0].need_gb


def judged_reports(catalogue, settings, measured) -> list[Judged]:
    judge = Judge(settings, measured, load_ram(), catalogue)
    return [j for j in (judge.report(r) for r in load_reports()) if j is not None]


def test_a_larger_vocabulary_needs_a_larger_buffer_under_the_budget(catalogue, settings, measured, seed):
    """Gemma 3's 262,208-token vocabulary holds 512 x 133,952 more F32 logits than Llama 3's 128,256:
    0.27 GB more compute buffer at the same context; the seed keeps its flat buffer for both."""
    q4 = settings.quant("Q4_K_M")
    gemma, llama = (memory_needed(catalogue.model(m), q4, 4096, settings) for m in ("gemma-3-27b", "llama-3.1-8b"))
    assert (gemma.vocab_size, llama.vocab_size) == (262208, 128256)
    extra = calibrated_memory(gemma, 4096, settings, measured).buffer_gb - \
        calibrated_memory(llama, 4096, settings, measured).buffer_gb
    assert extra == pytest.approx(512 * (262208 - 128256) * 4 / 1e9)
    assert calibrated_memory(gemma, 4096, settings, seed).buffer_gb == settings.compute_buffer_gb
    small = memory_needed(catalogue.model("llama-2-7b"), q4, 4096, settings)  # 32,000 tokens: the floor
    assert calibrated_memory(small, 4096, settings, measured).buffer_gb == pytest.approx(settings.budget.buffer_base_gb)


def test_the_buffer_grows_with_context_only_under_the_budget(catalogue, settings, measured):
    model = catalogue.model("llama-3.1-8b")
    short, long = (calibrated_memory(memory_needed(model, settings.quant("Q4_K_M"), n, settings), n, settings,
                                     measured) for n in (4096, 65536))
    assert short.buffer_gb == pytest.approx(settings.compute_buffer_gb)  # the same need at the default context
    assert long.buffer_gb > short.buffer_gb


def test_gpt_oss_120b_offloads_on_an_8_gb_laptop_card_with_64_gb(catalogue, settings, measured, seed_rule):
    """The issue's offload case (18 to 20 tok/s measured): denied by the old 8 GB RAM reserve."""
    ram = load_ram()
    model, card = catalogue.model("gpt-oss-120b"), catalogue.card("geforce-rtx-4060-mobile")
    assert offload_estimate(model, card, settings, seed_rule, ram.system(64), ram) is None
    placed = offload_estimate(model, card, settings, measured, ram.system(64), ram)
    assert placed is not None and placed.quant.name == "MXFP4"
    assert placed.placement.gpu_gb <= usable_gb(card, settings, measured)
    assert placed.placement.ram_gb <= 64 * 1.073741824 - ram.os_keeps_gb


def test_strix_halo_holds_qwen3_235b_q3_k_m_once_linux_gives_the_gpu_more(catalogue, settings, measured):
    """Measured on Linux with the GTT raised; by default (96 GB) the answer is no, and says how."""
    model, card = catalogue.model("qwen3-235b-a22b"), catalogue.card("amd-ryzen-ai-max-plus-395-128gb")
    e = estimate(model, card, settings, measured, quant="Q3_K_M")
    assert not e.fits and e.raised is not None
    assert e.raised.limit.os == "Linux" and e.raised.quant.name == "Q3_K_M"
    assert usable_gb(card, settings, measured) < e.raised.need_gb <= e.raised.limit.budget_gb
    assert estimate(model, card, settings, settings.calibration("seed"), quant="Q3_K_M").raised is None


def test_a_host_the_row_calls_headless_keeps_no_display_reserve(catalogue, settings, measured, seed_rule):
    """A cloud GPU server drives no screen: its desktop card gets the display reserve back; a laptop card
    kept none to begin with, and the seed's rule knows no reserve at all."""
    judge, seed_judge = (Judge(settings, c, load_ram(), catalogue) for c in (measured, seed_rule))
    desktop, laptop = catalogue.card("geforce-rtx-4080"), catalogue.card("geforce-rtx-4060-mobile")
    headless = "4080 16GB (RunPod cloud host, headless)"
    assert judge.room_gb(desktop, headless) - judge.room_gb(desktop, "4080 16GB") == pytest.approx(
        settings.budget.display_reserve_gb)
    assert judge.room_gb(desktop, "") == usable_gb(desktop, settings, measured)
    assert judge.room_gb(laptop, headless) == judge.room_gb(laptop, "")
    assert seed_judge.room_gb(desktop, headless) == seed_judge.room_gb(desktop, "")


def test_a_run_whose_row_states_its_memory_is_judged_on_that_machine(catalogue, settings, measured):
    """A chip sold in several sizes, filed under the smallest: where the row's device column states
    more memory, the run is judged on that machine (same chip, same bandwidth, its share of more)."""
    filed = catalogue.card("apple-m1-8gb")
    stated = device_as_run(filed, "Apple M1 7-core GPU, at least 16 GB by its own figures")
    assert stated.system_memory_gb == 16 and stated.bandwidth_gb_s == filed.bandwidth_gb_s
    assert stated.vram_gb == pytest.approx(16 * filed.usable_share, abs=0.05)
    context = 640  # llama-bench pp512 + tg128
    q8 = memory_needed(catalogue.model("llama-2-7b"), settings.quant("Q8_0"), context, settings)
    need = calibrated_memory(q8, context, settings, measured).total_gb
    assert usable_gb(filed, settings, measured) < need <= usable_gb(stated, settings, measured)
    assert device_as_run(filed, "Apple M1 7-core GPU") == filed


def test_a_report_on_linux_is_judged_at_the_linux_share(catalogue):
    card = catalogue.card("amd-ryzen-ai-max-plus-395-128gb")
    assert device_on_os(card, "Linux").vram_gb == pytest.approx(64.0)   # amdgpu's default GTT: half
    assert device_on_os(card, "Windows").vram_gb == pytest.approx(96.0)
    assert device_on_os(catalogue.card("geforce-rtx-3090"), "Linux") == catalogue.card("geforce-rtx-3090")


def judged(kind: str, accepted: bool, raised: bool = False) -> Judged:
    return Judged(kind, f"{kind} {accepted} {raised}", accepted, 10.0, 9.0, raised)


def test_tally_counts_denied_runs_and_accepted_failures():
    rows = ([judged("device", True)] * 7 + [judged("device", False)] * 2 + [judged("device", False, raised=True)]
            + [judged("offload", True)] * 3 + [judged("failed", False)] * 3 + [judged("failed", True)])
    device, offload, failed = (tally(rows, kind) for kind in ("device", "offload", "failed"))
    # A run held only with a raised GPU limit is admitted (the pages say how), not denied.
    assert (device.total, device.wrong, device.share) == (10, 2, 0.2)
    assert all(not m.accepted and not m.raised for m in device.misses)
    assert (offload.total, offload.wrong, offload.share) == (3, 0, 0.0)
    assert (failed.total, failed.wrong, failed.share) == (4, 1, 0.25) and failed.misses[0].accepted
    assert tally([], "device").share == 0.0


def test_the_reports_name_a_catalogue_device_and_their_source(catalogue):
    reports = load_reports()
    assert len(reports) >= 20  # issue 23: at least 20 public reports, each with the file size and device
    assert all(r.card in catalogue.cards_by_id and r.source.startswith("https://") for r in reports)
    assert all(r.model is None or r.model in catalogue.models_by_id for r in reports)


def write_report(tmp_path: Path, **cells: str) -> Path:
    row = {"card": "geforce-rtx-3090", "device": "RTX 3090", "os": "Linux", "backend": "CUDA", "model": "",
           "model_name": "M", "params_b": "8", "active_b": "", "quant": "Q4_K_M", "file_gb": "4.9",
           "context": "4096", "offload": "", "ram_gb": "", "flash_attention": "", "attention_heads": "",
           "failed": "weights", "source": "https://x.org/1", "notes": ""} | cells
    path = tmp_path / "oom.tsv"
    path.write_text("# a comment\n" + "\t".join(OOM_COLUMNS) + "\n" + "\t".join(row[c] for c in OOM_COLUMNS) + "\n",
                    encoding="utf-8")
    return path


def test_a_load_without_flash_attention_needs_the_attention_scores(tmp_path, catalogue, settings, measured,
                                                                    seed_rule):
    """The score matrix grows with the context for every query head, past the context the buffer's base
    figure is quoted at; with flash attention on, or under the seed's rule, nothing is added."""
    judge, seed_judge = (Judge(settings, c, load_ram(), catalogue) for c in (measured, seed_rule))
    cells = {"card": "geforce-rtx-2080", "params_b": "1.24", "file_gb": "0.66", "attention_heads": "32"}

    def need(j: Judge, context: int, flash_attention: str) -> float:
        (report,) = read_reports(write_report(tmp_path, context=str(context), flash_attention=flash_attention,
                                              **cells))
        judged_report = j.report(report)
        assert judged_report is not None
        return judged_report.need_gb

    long_context = 131072
    added = need(judge, long_context, "off") - need(judge, long_context, "on")
    assert added == pytest.approx(attention_scores_gb(long_context, 32)) and added > 8.0
    assert need(judge, settings.context_tokens, "off") == need(judge, settings.context_tokens, "on")
    assert need(seed_judge, long_context, "off") == need(seed_judge, long_context, "on")


def test_a_report_with_its_own_layer_split_is_judged_at_that_split(tmp_path, catalogue, settings, measured):
    """DeepSeek-V3 Q4_K_M (404 GB) on an RTX 3090 with 640 GB of RAM runs with part in RAM, but four of
    its 61 layers alone are more than the card holds (ollama issue 8447: 28,426.68 MiB asked for):
    the report's -ngl 4 is refused, and the same machine with no split given still runs it."""
    judge = Judge(settings, measured, load_ram(), catalogue)
    cells = {"model": "deepseek-v3", "params_b": "671", "active_b": "37", "file_gb": "404.42",
             "context": "2048", "ram_gb": "640"}

    def judged(offload: str) -> Judged:
        (report,) = read_reports(write_report(tmp_path, offload=offload, **cells))
        result = judge.report(report)
        assert result is not None
        return result

    split = judged("ngl=4")
    assert not split.accepted and 26 < split.need_gb < 30 and split.need_gb > split.room_gb
    assert judged("n-cpu-moe=61").accepted


def test_a_good_report_reads(tmp_path):
    (report,) = read_reports(write_report(tmp_path))
    assert (report.line, report.context, report.file_gb, report.on_device) == (3, 4096, 4.9, True)


@pytest.mark.parametrize("cells, column, expected", [
    ({"os": "BeOS"}, "os", "one of Linux, Windows, macOS"),
    ({"failed": "everything"}, "failed", "one of weights"),
    ({"context": "4k"}, "context", "a whole number"),
    ({"file_gb": "-2"}, "file_gb", "a number above 0"),
    ({"offload": "ngl=20"}, "ram_gb", "a number"),
    ({"source": "github.com/x"}, "source", "a web address"),
    ({"active_b": "9"}, "active_b", "at most params_b"),
    ({"flash_attention": "maybe"}, "flash_attention", "on, off or nothing"),
    ({"flash_attention": "off"}, "attention_heads", "a number"),
])
def test_a_bad_report_names_file_line_and_column(tmp_path, cells, column, expected):
    path = write_report(tmp_path, **cells)
    with pytest.raises(DataError) as error:
        read_reports(path)
    message = str(error.value)
    assert f"{path}:3" in message and column in message and expected in message
