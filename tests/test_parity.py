"""The browser calculator (docs/assets/calculator.js, run under Node) against the Python estimator.

Both read the same exported data (tps_atlas/web/data.py). On random (model, card, context,
quality floor) cases, with every calibration, they must pick the same quant and verdict,
and agree on memory and speed to the displayed precision; its number formatting must be
Babel's, and on a built page it must reproduce the static table and tiles exactly.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import json
import math
import random
from collections import Counter

import pytest

from tps_atlas.catalogue.load import Catalogue
from tps_atlas.estimate.fit import estimate
from tps_atlas.i18n.formatting import Formatter
from tps_atlas.i18n.phrases import LANGUAGES
from tps_atlas.pages.figures import model_figures
from tps_atlas.web.data import site_data, write_site_data

from tests.support.paths import ROOT
from tests.support.node import NODE, built_page_parts, run_node
from tests.support.site_build import page_path

CASES = 1200          # per calibration
SEED = 20250105

pytestmark = pytest.mark.skipif(NODE is None, reason="node is not installed (scripts/test installs it)")








def variants(model) -> list:
    """The layouts only some records have, on copies of a catalogue model: a vision encoder, a
    native format, linear-attention layers (with the sliding-window layers kept)."""
    out = [dataclasses.replace(model, id=model.id + "-vision", name=model.name + " V", vision_encoder_b=0.4),
           dataclasses.replace(model, id=model.id + "-native", name=model.name + " N", native_format="MXFP4")]
    arch = model.architecture
    if arch:
        free = arch.layers - (arch.sliding_window_layers or 0)
        out.append(dataclasses.replace(model, id=model.id + "-linear", name=model.name + " L",
                                       architecture=dataclasses.replace(arch, linear_attention_layers=free * 3 // 4)))
        if arch.attention != "mla":  # a window on every attention layer, beside linear layers
            out.append(dataclasses.replace(model, id=model.id + "-swlinear", name=model.name + " SL",
                                           architecture=dataclasses.replace(
                                               arch, sliding_window=1024, sliding_window_layers=None,
                                               linear_attention_layers=arch.layers // 2)))
    return out


@pytest.fixture(scope="module")
def extended(catalogue, settings):
    """The catalogue plus variants of a few models (sliding window, MLA, MoE, dense, no layout), as the
    default calibration reads it: the calibration the data file is exported for."""
    chosen = ["gemma-2-9b", "deepseek-r1", "qwen3-30b-a3b", "llama-3.1-8b", "glm-130b"]
    extra = [v for model_id in chosen if model_id in catalogue.models_by_id
             for v in variants(catalogue.model(model_id))]
    return Catalogue(cards=catalogue.cards, models=catalogue.models + tuple(extra)).for_calibration(
        settings.default_calibration)


def comparable(models, calibration, settings):
    """The models a case under ``calibration`` may pick: the data file carries each model's layout for the
    calibration it is exported for, so a layout recorded for some calibrations only is compared there."""
    return [m for m in models if m.calibrated_architecture is None or calibration == settings.default_calibration]


@pytest.fixture(scope="module")
def exported(tmp_path_factory, extended, settings):
    """The exported data, written as the build writes it."""
    folder = tmp_path_factory.mktemp("export")
    return write_site_data(folder, site_data(extended, settings))


def random_context(rng: random.Random) -> int:
    if rng.random() < 0.4:
        return rng.choice([256, 512, 1024, 2048, 4096, 8192, 16384, 32768, 65536, 131072, 262144, 1048576])
    return int(round(2 ** rng.uniform(8, 19)))  # 256 to 524,288 tokens, any integer


def one_decimal(value):
    return None if value is None else round(value, 1)


def test_js_estimator_matches_python_on_random_cases(exported, extended, settings):
    catalogue = extended
    rng = random.Random(SEED)
    quants = [q.name for q in settings.quants]
    variant_models = [m for m in catalogue.models if m.id.endswith(("-vision", "-native", "-linear", "-swlinear"))]
    cases = []
    for calibration in settings.calibrations:
        for _ in range(CASES):
            model = rng.choice(variant_models if rng.random() < 0.3 else comparable(catalogue.models, calibration,
                                                                                     settings))
            cases.append({"model": model.id, "card": rng.choice(catalogue.cards).id,
                          "context": random_context(rng), "floor": rng.choice(quants), "calibration": calibration,
                          "kv": rng.choice(sorted(settings.kv_bytes_per_element)),
                          "ceiling": rng.choice(quants + [None, None])})
    answers = run_node("estimates", cases, exported)
    assert len(answers) == len(cases)

    mismatches, exact, verdicts = [], Counter(), Counter()
    for case, js in zip(cases, answers, strict=True):
        py = estimate(catalogue.model(case["model"]), catalogue.card(case["card"]), settings,
                      settings.calibration(case["calibration"]), context=case["context"], floor=case["floor"],
                      kv_precision=case["kv"], ceiling=case["ceiling"])
        verdicts[case["calibration"], py.fit] += 1
        expected = {"quant": py.quant.name if py.quant else None, "fit": py.fit,
                    "need_gb": one_decimal(py.need_gb), "tok_s": one_decimal(py.tok_s),
                    "tok_s_low": one_decimal(py.tok_s_low), "tok_s_high": one_decimal(py.tok_s_high),
                    "prompt_tok_s": one_decimal(py.prompt_tok_s), "ttft_s": one_decimal(py.ttft_s)}
        found = {key: (one_decimal(js[key]) if key not in ("quant", "fit") else js[key]) for key in expected}
        if found != expected:
            mismatches.append((case, expected, found))
        for key in ("need_gb", "tok_s"):
            exact[key] += js[key] == getattr(py, key)
    print(f"\nparity: {len(cases)} cases ({CASES} per calibration: {', '.join(settings.calibrations)}); "
          f"quant, verdict, memory and tok/s (1 decimal) equal in {len(cases) - len(mismatches)}; "
          f"bit-identical floats: memory {exact['need_gb']}, tok/s {exact['tok_s']}; verdicts {dict(verdicts)}")
    assert not mismatches, mismatches[:5]
    # The random cases reach every verdict with every calibration.
    for calibration in settings.calibrations:
        for fit in ("comfortable", "tight", "none"):
            assert verdicts[calibration, fit] >= 20, (calibration, fit, verdicts)


def test_decode_slows_with_context_in_python_and_js(exported, extended, settings):
    catalogue = extended  # as the data file has it
    """At 32,768 tokens of context a card decodes slower than at 4,096 (same quant), in both."""
    pairs = [("llama-3-8b", "geforce-rtx-4090"), ("qwen3-30b-a3b", "apple-m2-ultra-192gb"),
             ("llama-3-70b", "h100-pcie-80gb")]
    pairs = [(m, c) for m, c in pairs if m in catalogue.models_by_id and c in catalogue.cards_by_id]
    # One quant at both contexts (floor = ceiling): the longer context may otherwise move a card down a quant.
    cases = [{"model": m, "card": c, "context": context, "floor": "Q4_K_M", "ceiling": "Q4_K_M", "kv": "f16"}
             for m, c in pairs for context in (4096, 32768)]
    cases = [dict(case, calibration=settings.default_calibration) for case in cases]
    answers = run_node("estimates", cases, exported)
    for i in range(0, len(cases), 2):
        short, long = answers[i], answers[i + 1]
        case = cases[i]
        py = [estimate(catalogue.model(case["model"]), catalogue.card(case["card"]), settings,
                       settings.calibration(), context=context, quant=short["quant"])
              for context in (4096, 32768)]
        assert short["quant"] == long["quant"]
        assert long["tok_s"] < short["tok_s"] and py[1].tok_s < py[0].tok_s
        assert round(long["tok_s"], 1) == round(py[1].tok_s, 1)
        assert long["ttft_s"] > short["ttft_s"]


def test_js_raised_limit_matches_python(exported, extended, settings):
    catalogue = extended  # as the data file has it
    """A unified machine that holds a model only with its GPU limit raised: the same OS, budget, quant
    and need in both (the answer "yes on Linux, with the GPU allowed N GB")."""
    unified = [c for c in catalogue.cards if c.unified and c.raise_method]
    models = [m for m in catalogue.models if 20 <= m.parameters_b <= 400]
    rng = random.Random(SEED + 4)
    cases = [{"model": rng.choice(models).id, "card": rng.choice(unified).id, "context": rng.choice([4096, 32768]),
              "floor": "Q3_K_M", "kv": "f16", "calibration": settings.default_calibration} for _ in range(400)]
    answers = run_node("estimates", cases, exported)
    raised = 0
    for case, js in zip(cases, answers, strict=True):
        py = estimate(catalogue.model(case["model"]), catalogue.card(case["card"]), settings, settings.calibration(),
                      context=case["context"], floor=case["floor"], kv_precision=case["kv"])
        if py.fits or py.raised is None:
            assert js["raised"] is None, case
            continue
        raised += 1
        assert js["fit"] == "none" and js["raised"]["os"] == py.raised.limit.os, case
        assert js["raised"]["quant"] == py.raised.quant.name, case
        assert round(js["raised"]["budget_gb"], 2) == round(py.raised.limit.budget_gb, 2), case
        assert round(js["raised"]["need_gb"], 2) == round(py.raised.need_gb, 2), case
        assert py.raised.need_gb <= py.raised.limit.budget_gb
    assert raised >= 20


def test_js_figures_rank_cards_as_python_does(exported, extended, settings):
    """Over the whole catalogue: the same fitting cards in the same order, the same misses,
    smallest and fastest card (the table and tiles of a page)."""
    catalogue = extended
    rng = random.Random(SEED + 1)
    quants = [q.name for q in settings.quants]
    cases = [{"model": "glm-4.1v-thinking", "context": 131072, "floor": "Q8_0", "calibration": "seed"},
             {"model": "llama-3.1-8b-vision", "context": 8192, "floor": "Q3_K_M", "ceiling": "F16",
              "calibration": "measured"},
             {"model": "qwen3-30b-a3b-native", "context": 32768, "floor": "Q8_0", "calibration": "measured"}]
    for calibration in settings.calibrations:
        for _ in range(15):
            cases.append({"model": rng.choice(comparable(catalogue.models, calibration, settings)).id,
                          "context": random_context(rng), "floor": rng.choice(quants), "calibration": calibration,
                          "ceiling": rng.choice(quants + [None])})
    answers = run_node("figures", cases, exported)
    for case, js in zip(cases, answers, strict=True):
        fig = model_figures(catalogue.model(case["model"]), catalogue.cards, settings,
                            settings.calibration(case["calibration"]), context=case["context"], floor=case["floor"],
                            ceiling=case.get("ceiling"))
        assert js["cards_total"] == fig.cards_total
        assert js["rows"] == [e.card.id for e in fig.rows], case
        assert js["misses"] == [e.card.id for e in fig.misses], case
        assert js["smallest"] == (fig.smallest.card.id if fig.smallest else None), case
        assert js["fastest"] == (fig.fastest.card.id if fig.fastest else None), case


def format_calls(rng: random.Random) -> list:
    values = [0.05, 0.125, 0.25, 0.45, 2.5, 2.675, 9.95, 12.25, 99.95, 99.96, 100, 999.5, 1000, 1234.5, 3940,
              29.6, 8000, 0.0051]
    values += [round(10 ** rng.uniform(-2, 5), rng.choice([1, 2, 3, 6])) for _ in range(150)]
    calls = []
    for v in values:
        calls += [["decimal", v, 1], ["decimal", v, 2], ["integer", v], ["tokS", v], ["gb", v], ["gb", v, 2],
                  ["vram", v], ["bandwidth", v], ["tokRange", v * 0.6, v * 1.6], ["count", v]]
    calls += [["vram", v] for v in (4, 6, 8, 11.5, 24, 94, 141, 192, 512)]
    calls += [["month", f"{year}-{month:02d}-15"] for year in (2010, 2023) for month in range(1, 13)]
    return calls


PY_METHODS = {"decimal": "decimal", "integer": "integer", "tokS": "tok_s", "gb": "gb", "vram": "vram",
              "bandwidth": "bandwidth", "tokRange": "tok_range", "count": "count", "month": "month"}


def test_js_numbers_and_months_match_babel():
    calls = format_calls(random.Random(SEED + 2))
    cases = [{"language": lang, "units": {" ": Formatter(lang).unit_space, "GB": Formatter(lang).unit("GB"),
                                          "GB/s": Formatter(lang).unit("GB/s")},
              "calls": calls} for lang in LANGUAGES]
    answers = run_node("format", cases, None)
    for case, texts in zip(cases, answers, strict=True):
        f = Formatter(case["language"])
        for (method, *args), text in zip(calls, texts, strict=True):
            if method == "month":
                args = [dt.date.fromisoformat(args[0])]
            assert text == getattr(f, PY_METHODS[method])(*args), (case["language"], method, args)
    nl = dict(zip((json.dumps(c) for c in calls), answers[LANGUAGES.index("nl")], strict=True))
    assert nl[json.dumps(["tokS", 29.6])] == "29,6 tok/s" and nl[json.dumps(["bandwidth", 3940])] == "3.940 GB/s"
    assert nl[json.dumps(["month", "2023-03-15"])] == "maart 2023"
    fr = dict(zip((json.dumps(c) for c in calls), answers[LANGUAGES.index("fr")], strict=True))
    assert fr[json.dumps(["bandwidth", 3940])] == "3\u202f940\u00a0Go/s"




@pytest.mark.parametrize("language", LANGUAGES)
def test_js_reproduces_the_built_table_and_tiles(site, language):
    """With the default inputs the calculator writes, byte for byte, what the build wrote."""
    data = site / "assets" / "tps-data.json"
    models = ["glm-4.1v-thinking", "glm-130b", "qwen3-30b-a3b", "deepseek-r1", "glm-5"]
    parts = [built_page_parts(site, language, m) for m in models]
    answers = run_node("page", [{"labels": p["labels"], "total_tile": p["total_tile"]} for p in parts], data)
    for model_id, p, js in zip(models, parts, answers, strict=True):
        if p["rows_html"] is None:  # no card runs it: no table was built
            assert js["rows_html"] == "\n", model_id
        else:
            assert js["rows_html"] == p["rows_html"], model_id
        assert js["tiles_html"] == p["tiles_html"], model_id


def test_data_is_written_once_for_the_whole_site(site, catalogue, settings):
    assets = sorted(p.relative_to(site).as_posix() for p in site.rglob("tps-data.json"))
    assert assets == ["assets/tps-data.json"]
    written = json.loads((site / "assets" / "tps-data.json").read_text(encoding="utf-8"))
    assert written == json.loads(json.dumps(site_data(catalogue, settings, "seed")))
    assert written["calibration"] == "seed"  # the calibration the site was built with
    for language, depth in (("en", "../../"), ("nl", "../../../")):
        page = page_path(site, language, "models", "glm-130b").read_text(encoding="utf-8")
        assert f'<script src="{depth}assets/calculator.js" defer></script>' in page


def test_js_offload_matches_python(exported, extended, settings):
    catalogue = extended  # as the data file has it
    """Cards a model does not fit: the same placement, RAM, speed and command line in both, for
    random RAM sizes and kinds; and the RAM inputs change the answer."""
    from tps_atlas.estimate.commands import row_command
    from tps_atlas.estimate.offload import load_ram, offload_estimate

    ram = load_ram()
    rng = random.Random(SEED + 3)
    large = [m for m in catalogue.models if m.parameters_b >= 20]
    small_cards = [c for c in catalogue.cards if c.vram_gb <= 24]
    cases = []
    for _ in range(400):
        cases.append({"model": rng.choice(large).id, "card": rng.choice(small_cards).id,
                      "context": rng.choice([2048, 4096, 8192, 32768]), "floor": "Q3_K_M",
                      "kv": rng.choice(sorted(settings.kv_bytes_per_element)),
                      "ram": rng.choice([16, 32, 64, 96, 128, 192, 256]), "ram_kind": rng.choice(ram.kinds).id,
                      "calibration": settings.default_calibration})
    answers = run_node("offload", cases, exported)
    offloaded = 0
    for case, js in zip(cases, answers, strict=True):
        model, card = catalogue.model(case["model"]), catalogue.card(case["card"])
        fitted = estimate(model, card, settings, settings.calibration(), context=case["context"],
                          floor=case["floor"], kv_precision=case["kv"])
        if fitted.fits:
            assert js["fit"] == fitted.fit, case
            continue
        py = offload_estimate(model, card, settings, settings.calibration(), ram.system(case["ram"], case["ram_kind"]),
                              ram, case["context"], case["floor"], kv_precision=case["kv"])
        if py is None:
            assert js["fit"] == "none", case
            continue
        offloaded += 1
        assert (js["fit"], js["quant"], js["mode"], js["cpu_layers"]) == (
            "offload", py.quant.name, py.placement.mode, py.placement.cpu_layers), case
        for key, value in (("tok_s", py.tok_s), ("tok_s_low", py.tok_s_low), ("tok_s_high", py.tok_s_high),
                           ("ram_gb", py.placement.ram_gb), ("gpu_gb", py.placement.gpu_gb),
                           ("ttft_s", py.ttft_s), ("need_gb", py.need_gb)):
            assert round(js[key], 2) == round(value, 2), (case, key)
        assert js["command"] == row_command(model, py, case["context"], case["kv"]), case
    assert offloaded >= 100


def test_js_offload_rows_follow_the_ram_inputs(exported, extended, settings):
    catalogue = extended  # as the data file has it
    """The table's offload rows, for a slow and a fast RAM and a small one, as Python ranks them."""
    from tps_atlas.estimate.offload import load_ram

    ram = load_ram()
    cases = [{"model": "gpt-oss-120b", "context": 4096, "floor": "Q3_K_M", "ram": size, "ram_kind": kind,
              "calibration": settings.default_calibration}
             for size, kind in ((64, "ddr4-3200-2ch"), (64, "ddr5-4800-8ch"), (32, "ddr5-6000-2ch"))]
    cases.append({"model": "llama-3.3-70b", "context": 8192, "floor": "Q4_K_M", "ram": 128,
                  "ram_kind": "ddr5-6000-2ch", "calibration": settings.default_calibration})
    answers = run_node("figures", cases, exported)
    for case, js in zip(cases, answers, strict=True):
        fig = model_figures(catalogue.model(case["model"]), catalogue.cards, settings, context=case["context"],
                            floor=case["floor"], system=ram.system(case["ram"], case["ram_kind"]))
        assert js["offload"] == [o.card.id for o in fig.offload], case
    slow, fast, small = answers[0]["offload"], answers[1]["offload"], answers[2]["offload"]
    # 71 GB at Q4_K_M: a 24 GB card with 64 GB of RAM runs it, with 32 GB it does not.
    assert "geforce-rtx-4090" in slow and "geforce-rtx-4090" in fast and "geforce-rtx-4090" not in small
    assert len(small) < len(slow)


# ---------------------------------------------------------------- the verdict (docs/assets/verdict.js)

# Pairs of every kind the review of 2026-12-01 met (classes A, B, D, G, H): fits, MoE and dense
# offload, a set of cards where no single one holds it, unified memory, gpt-oss in its one format,
# a console, a context beyond the model's maximum.
VERDICT_PAIRS = [
    ("llama-3.1-8b", "geforce-rtx-3060-12gb", {}), ("qwen2.5-32b", "geforce-rtx-4090", {}),
    ("gpt-oss-120b", "geforce-rtx-4090", {}), ("qwen3.5-35b-a3b", "geforce-rtx-4070", {}),
    ("qwen3-30b-a3b", "geforce-rtx-4060-mobile", {}), ("glm-4.5-air", "geforce-rtx-3090", {}),
    ("llama-3.1-70b", "geforce-rtx-4090", {}), ("llama-3.1-70b", "geforce-rtx-4090", {"ram": 16}),
    ("mistral-large-2", "geforce-rtx-3090", {}), ("llama-3.1-405b", "radeon-instinct-mi300x", {}),
    ("kimi-k2", "radeon-instinct-mi350x", {}), ("kimi-k2", "h200-sxm-141gb", {}),
    ("glm-5", "radeon-instinct-mi325x", {}),
    ("glm-5", "b200", {}), ("deepseek-r1", "h100-sxm5-80gb", {}), ("kimi-k2", "geforce-rtx-4090", {}),
    ("deepseek-r1", "apple-m3-ultra-512gb", {}), ("kimi-k2", "apple-m3-ultra-512gb", {}),
    ("gpt-oss-120b", "amd-ryzen-ai-max-plus-395-128gb", {}), ("gpt-oss-120b", "apple-m4-pro-48gb", {}),
    ("qwen3-235b-a22b", "nvidia-dgx-spark-128gb", {}),
    ("gpt-oss-20b", "geforce-rtx-3060-12gb", {}), ("gpt-oss-120b", "radeon-instinct-mi210", {}),
    ("gpt-oss-120b", "rtx-pro-5000-72gb-blackwell", {"context": 131072}),
    ("gpt-oss-120b", "geforce-rtx-4090", {"floor": "Q8_0"}), ("gpt-oss-120b", "apple-m4-pro-48gb", {"floor": "Q8_0"}),
    ("gpt-oss-120b", "nintendo-switch-2", {}), ("lfm2-350m", "nintendo-switch-2", {}),
    ("falcon-7b", "geforce-rtx-4090", {}), ("falcon-40b", "geforce-rtx-4090", {"context": 32768}),
    ("qwen3-30b-a3b", "geforce-rtx-3060-12gb", {"kv": "q8_0", "context": 32768}),
    ("qwen3-30b-a3b", "geforce-rtx-4090", {"ram": 128, "ram_kind": "ddr5-4800-8ch", "context": 131072}),
]


def python_verdict(model, card, settings, ram, case: dict) -> dict:
    """The verdict record of tps_atlas/estimate/verdict.py (decide, from the estimate alone, the offload estimate, the
    shortfall and the RAM room), in the driver's terms."""
    from tps_atlas.estimate.commands import row_command
    from tps_atlas.estimate.fit import candidate_memories
    from tps_atlas.estimate.offload import offload_estimate, ram_room
    from tps_atlas.estimate.verdict import Fits, Multi, NoRun, Offload, decide, missed_by

    calibration = settings.calibration(case["calibration"])
    context, kv, ceiling = case["context"], case["kv"], case["ceiling"]
    floor = settings.quant(case["floor"] or settings.min_quality).name
    system = ram.system(case["ram"], case["ram_kind"])
    candidates = candidate_memories(model, settings, context, floor, None, kv, ceiling)
    alone = estimate(model, card, settings, calibration, context=context, floor=floor, kv_precision=kv,
                     candidates=candidates, ceiling=ceiling)
    offload = None if alone.fits else offload_estimate(model, card, settings, calibration, system, ram, context,
                                                       floor, kv_precision=kv)
    shortfall = None if alone.fits else missed_by(model, card, settings, context, floor, kv, None, ceiling,
                                                  calibration)
    v = decide(model, card, settings, calibration, context, alone, offload, shortfall, candidates,
               max(0.0, ram_room(system, ram, settings, calibration)))
    out = {"kind": v.kind, "beyond_context": v.beyond_context is not None, "count": 1, "reason": None,
           "shortfall_quant": None, "shortfall_gb": None, "mode": None, "cpu_layers": None, "fit": None,
           "raised": None}
    if isinstance(v, (Multi, NoRun)):  # the answer box words the shortfall of these two
        out.update(shortfall_quant=v.shortfall.quant_name, shortfall_gb=v.shortfall.shown_gb)
    if isinstance(v, (Fits, Offload)):
        e = v.estimate
        placement = getattr(e, "placement", None)
        return {**out, "fit": v.fit if isinstance(v, Fits) else None, "quant": e.quant.name, "need_gb": e.need_gb,
                "tok_s": e.tok_s, "command": row_command(model, e, context, kv),
                "mode": placement.mode if placement else None,
                "cpu_layers": placement.cpu_layers if placement else None}
    if isinstance(v, Multi):
        return {**out, "count": v.count, "quant": v.estimate.quant.name, "need_gb": v.estimate.need_gb,
                "tok_s": v.estimate.tok_s, "command": row_command(model, v.estimate, context, kv, gpus=v.count)}
    assert isinstance(v, NoRun)
    raised = v.raised and {"os": v.raised.limit.os, "quant": v.raised.estimate.quant.name,
                           "tok_s": round(v.raised.estimate.tok_s, 1)}
    return {**out, "reason": v.reason.value, "quant": None, "need_gb": v.shortfall.need_gb, "tok_s": None,
            "command": None, "raised": raised or None}


def test_js_verdict_matches_python(exported, extended, settings):
    catalogue = extended  # as the data file has it
    """docs/assets/verdict.js (what the "My device" answer and the "On your …" column say) equals
    the Python estimator's verdict on the pairs above and on random ones, with random RAM, KV
    precision, floor, ceiling and context; every kind and every reason comes up."""
    from tps_atlas.estimate.offload import load_ram

    ram = load_ram()
    rng = random.Random(SEED + 4)
    quants = [q.name for q in settings.quants if not q.native_only]
    base = {"context": settings.context_tokens, "floor": None, "ceiling": None, "kv": None,
            "ram": ram.default_size_gb, "ram_kind": ram.default_kind, "calibration": settings.default_calibration}
    cases = [{**base, **extra, "model": m, "card": c} for m, c, extra in VERDICT_PAIRS
             if m in catalogue.models_by_id and c in catalogue.cards_by_id]
    assert len(cases) == len(VERDICT_PAIRS), "a pair of the review is no longer in the catalogue"
    for _ in range(1500):
        cases.append({"model": rng.choice(catalogue.models).id, "card": rng.choice(catalogue.cards).id,
                      "context": rng.choice([2048, 4096, 8192, 32768, 131072, 262144]),
                      "floor": rng.choice(quants + [None]), "ceiling": rng.choice(quants[:4] + [None, None]),
                      "kv": rng.choice(sorted(settings.kv_bytes_per_element) + [None]),
                      "ram": rng.choice([0, 16, 32, 64, 128, 256]), "ram_kind": rng.choice(ram.kinds).id,
                      "calibration": settings.default_calibration})
    answers = run_node("verdicts", cases, exported)
    kinds, reasons, beyond = Counter(), Counter(), 0
    for case, js in zip(cases, answers, strict=True):
        py = python_verdict(catalogue.model(case["model"]), catalogue.card(case["card"]), settings, ram, case)
        for key in ("kind", "fit", "quant", "count", "command", "mode", "cpu_layers", "shortfall_quant",
                    "beyond_context", "raised"):
            assert js[key] == py[key], (case, key, js[key], py[key])
        if js["kind"] == "none":  # the browser names a reason for every device short alone; the record, for "none"
            assert js["reason"] == py["reason"], (case, js["reason"], py["reason"])
            assert js[key] == py[key], (case, key, js[key], py[key])
        for key in ("need_gb", "tok_s", "shortfall_gb"):
            assert one_decimal(js[key]) == one_decimal(py[key]), (case, key, js[key], py[key])
        if js["kind"] in ("none", "multi"):
            assert js["shortfall_gb"] > 0, case  # never "0.0 GB more" nor "-2.4 GB more"
        kinds[js["kind"]] += 1
        reasons[js["reason"]] += 1
        beyond += js["beyond_context"]
    print(f"\nverdict parity: {len(cases)} cases, kinds {dict(kinds)}, reasons {dict(reasons)}, "
          f"beyond context {beyond}")
    assert min(kinds[k] for k in ("fits", "offload", "multi", "none")) >= 5, kinds
    assert min(reasons[r] for r in ("no_system_ram", "memory")) >= 1, reasons
    assert sum(1 for a in answers if a["raised"]) >= 1, "no case runs only with a raised GPU limit"
    assert beyond >= 5
    named = {(c["model"], c["card"], json.dumps({k: c[k] for k in ("context", "floor", "ram")})): a["kind"]
             for c, a in zip(cases, answers, strict=False)}
    default = json.dumps({"context": settings.context_tokens, "floor": None, "ram": ram.default_size_gb})
    # The review's flagship pairs (issue #23): the table's answer, not "No".
    assert named["gpt-oss-120b", "geforce-rtx-4090", default] == "offload"
    assert named["qwen3.5-35b-a3b", "geforce-rtx-4070", default] == "offload"
    assert named["kimi-k2", "radeon-instinct-mi350x", default] == "multi"
    assert named["glm-5", "radeon-instinct-mi325x", default] == "multi"


@pytest.mark.parametrize("card_id", ["amd-ryzen-ai-max-plus-395-128gb", "apple-m4-max-128gb", "geforce-rtx-4090",
                                     "h200-sxm-141gb"])
def test_the_card_calculator_words_the_misses_as_the_card_page(exported, estimates, settings, card_id):
    """The card calculator's table of models a device cannot hold (docs/assets/calculator.js cardFigures,
    redrawn on every input change) has the card page's rows: the same quant and shortfall as the verdict,
    and, on a machine whose GPU limit can be raised, the same raised run."""
    from tps_atlas.estimate.verdict import NoRun

    _, misses = estimates.card_rows(card_id)
    offloaded = {m.id for m, _ in estimates.card_offload(card_id)}
    expected = {}
    for model, miss in misses:
        if model.id in offloaded:
            continue
        v = estimates.verdict(model.id, miss.card)
        raised = v.raised if isinstance(v, NoRun) else None
        expected[model.id] = (miss.quant_name, round(miss.shown_gb, 1),
                              (raised.limit.os, raised.estimate.quant.name, round(raised.estimate.tok_s, 1))
                              if raised else None)
    base = {"context": settings.context_tokens, "floor": None, "ceiling": None, "kv": None, "ram": None,
            "ram_kind": None, "calibration": settings.default_calibration, "card": card_id}
    [rows] = run_node("card_misses", [base], exported)
    shown = {model: (quant, round(short, 1), (raised[0], raised[1], round(raised[2], 1)) if raised else None)
             for model, quant, short, raised in rows if model in expected}
    assert shown == expected
    if card_id.startswith("amd-ryzen"):
        assert shown["qwen3-235b-a22b"][2] and shown["qwen3-235b-a22b"][2][0] == "Linux"


def test_js_device_search_ranks_as_python(exported, extended):
    """The device picker's search (calculator.js searchCards, used by device.js) lists the same
    devices in the same order as tps_atlas.catalogue.cards.search_cards, on names, their ends,
    single words, vendors, ids, aliases, odd spacing and full-width letters."""
    from tps_atlas.catalogue.cards import search_cards

    rng = random.Random(SEED)
    cards = list(extended.cards)
    queries = ["RTX 4090", "  h100   NVL ", "ｒｔｘ ４０９０", "m4 max", "radeon", "Apple", "instinct mi300x",
               "4060 ti 16", "Arc", "x", "", "no such device"]
    for card in rng.sample(cards, 60):
        words = card.name.split()
        queries += [card.name, " ".join(words[-2:]), rng.choice(words), card.id[:6], card.vendor.lower()]
        queries += list(card.aliases[:1])
    cases = [{"query": q, "limit": 8} for q in queries]
    answers = run_node("search", cases, exported)
    expected = [[c.id for c in search_cards(cards, q, 8)] for q in queries]
    mismatches = [(q, js, py) for q, js, py in zip(queries, answers, expected, strict=True) if js != py]
    assert not mismatches, f"{len(mismatches)} of {len(queries)} searches differ, first: {mismatches[:3]}"
    assert expected[0][:1] == ["geforce-rtx-4090"]  # the exact name first, before the RTX 4090 D


# ------------------------------------------------------------ function by function
#
# Every function docs/assets/calculator.js and verdict.js export is either a decision, paired here with
# its Python twin and the test of this module that compares the two on generated cases, or named as no
# decision, with why. A new export that is neither fails test_every_browser_export_is_paired_or_named.

@dataclasses.dataclass(frozen=True)
class Twin:
    python: str                 # "module:attribute" of the Python function the JS one mirrors
    compared_by: str = "test_each_decision_agrees_with_its_twin"   # a test of this module


DIRECT = "test_each_decision_agrees_with_its_twin"
MACHINES = "tests/test_machine_parity.py::test_js_machine_verdict_matches_python"
TWINS = {
    ("calculator", "quant"): Twin("tps_atlas.estimate.settings:Settings.quant"),
    ("calculator", "allowedQuants"): Twin("tps_atlas.estimate.settings:Settings.allowed_quants"),
    ("calculator", "modelQuants"): Twin("tps_atlas.estimate.settings:Settings.model_quants"),
    ("calculator", "weightsGb"): Twin("tps_atlas.estimate.memory:weights_gb"),
    ("calculator", "kvCacheGb"): Twin("tps_atlas.estimate.memory:kv_cache_gb"),
    ("calculator", "memoryNeeded"): Twin("tps_atlas.estimate.memory:memory_needed"),
    ("calculator", "speedClass"): Twin("tps_atlas.estimate.calibration:Calibration.speed_class"),
    ("calculator", "efficiency"): Twin("tps_atlas.estimate.calibration:Calibration.factor"),
    ("calculator", "tokensPerSecond"): Twin("tps_atlas.estimate.speed:tokens_per_second"),
    ("calculator", "promptTokensPerSecond"): Twin("tps_atlas.estimate.speed:prompt_tokens_per_second"),
    ("calculator", "usableGb"): Twin("tps_atlas.estimate.fit:usable_gb"),
    ("calculator", "memoryInName"): Twin("tps_atlas.i18n.names:memory_in_name"),
    ("calculator", "pooledCard"): Twin("tps_atlas.estimate.verdict:pooled"),
    ("calculator", "calibratedMemory"): Twin("tps_atlas.estimate.fit:calibrated_memory"),
    ("calculator", "verdict"): Twin("tps_atlas.estimate.fit:verdict"),
    ("calculator", "candidateMemories"): Twin("tps_atlas.estimate.fit:candidate_memories"),
    ("calculator", "estimate"): Twin("tps_atlas.estimate.fit:estimate"),
    ("calculator", "ramRoomGb"): Twin("tps_atlas.estimate.offload:ram_room"),
    ("calculator", "place"): Twin("tps_atlas.estimate.offload:place"),
    ("calculator", "offloadCandidates"): Twin("tps_atlas.estimate.offload:offload_candidates"),
    ("calculator", "ramSystem"): Twin("tps_atlas.estimate.offload:RamSettings.system"),
    ("calculator", "shortfallOf"): Twin("tps_atlas.estimate.verdict:missed_by"),
    ("calculator", "roundDecimal"): Twin("builtins:round"),
    ("calculator", "foldName"): Twin("tps_atlas.catalogue.limits:name_key"),
    ("calculator", "estimateOne"): Twin("tps_atlas.estimate.fit:estimate",
                                        "test_js_estimator_matches_python_on_random_cases"),
    ("calculator", "raisedRun"): Twin("tps_atlas.estimate.verdict:raised_run", "test_js_verdict_matches_python"),
    ("calculator", "offloadEstimate"): Twin("tps_atlas.estimate.offload:offload_estimate",
                                            "test_js_offload_matches_python"),
    ("calculator", "llamaServer"): Twin("tps_atlas.estimate.commands:row_command", "test_js_offload_matches_python"),
    ("calculator", "modelFigures"): Twin("tps_atlas.pages.figures:model_figures",
                                         "test_js_figures_rank_cards_as_python_does"),
    ("calculator", "cardFigures"): Twin("tps_atlas.pages.figures:EstimateTable.card_rows",
                                        "test_the_card_calculator_words_the_misses_as_the_card_page"),
    ("calculator", "searchCards"): Twin("tps_atlas.catalogue.cards:search_cards",
                                        "test_js_device_search_ranks_as_python"),
    ("verdict", "decide"): Twin("tps_atlas.estimate.verdict:decide", "test_js_verdict_matches_python"),
    # The machine of several GPUs: compared in tests/test_machine_parity.py on random machines and bad links.
    ("calculator", "layerSplit"): Twin("tps_atlas.estimate.machine:layer_split", MACHINES),
    ("calculator", "machineVerdict"): Twin("tps_atlas.estimate.machine_verdict:machine_verdict", MACHINES),
    ("calculator", "machineCommand"): Twin("tps_atlas.estimate.machine_verdict:machine_command", MACHINES),
    ("calculator", "machineLink"): Twin("tps_atlas.estimate.machine_verdict:machine_link", MACHINES),
    ("calculator", "machineOs"): Twin("tps_atlas.estimate.machine_settings:MachineSettings.os_budget", MACHINES),
    ("calculator", "parseMachine"): Twin("tps_atlas.estimate.machine_verdict:parse_machine",
                                         "tests/test_machine_parity.py::test_js_refuses_the_links_python_refuses"),
    ("verdict", "forKind"): Twin("tps_atlas.catalogue.cards:Card.kind"),
}
# Exports that decide nothing a Python function decides: each with where it is checked instead.
NOT_DECISIONS = {
    ("calculator", "Formatter"): "Babel's formatting, not a decision: test_js_numbers_and_months_match_babel",
    ("calculator", "escapeHtml"): "HTML escaping of the page part",
    ("calculator", "fillPhrase"): "puts values into a phrase already translated (tps_atlas/i18n/phrases.py fill)",
    ("calculator", "cardName"): "a card's name with the forms tps_atlas/i18n/names.py browser_forms exported",
    ("calculator", "pluralText"): "picks a plural form Python precomputed (web/data.py plural_runs)",
    ("calculator", "pluralLabel"): "the same function as pluralText",
    ("calculator", "parseContext"): "reads the reader's context input",
    ("calculator", "readState"): "reads the page's address",
    ("calculator", "queryString"): "writes the page's address",
    ("calculator", "visibleRows"): "the reader's filter over rows already decided (the built table shows them all)",
    ("calculator", "rowHtml"): "renders a row: test_js_reproduces_the_built_table_and_tiles",
    ("calculator", "rowsHtml"): "renders the rows: test_js_reproduces_the_built_table_and_tiles",
    ("calculator", "tilesHtml"): "renders the tiles: test_js_reproduces_the_built_table_and_tiles",
    ("calculator", "workingHtml"): "renders the worked example (tests/test_page_logic.py and the working task)",
    ("calculator", "cardTablesHtml"): "renders a card page's tables (tests/test_card_calculator_browser.py)",
    ("calculator", "cardHref"): "a link to a card page",
    ("verdict", "answerHtml"): "words a decided verdict: test_answer_matches_table.py",
    ("verdict", "cellHtml"): "words a decided verdict in the table's cell: test_answer_matches_table.py",
}


def test_every_browser_export_is_paired_or_named():
    exported_functions = {tuple(pair) for pair in run_node("exports", [], None)}
    assert not set(TWINS) & set(NOT_DECISIONS)
    assert sorted(exported_functions - set(TWINS) - set(NOT_DECISIONS)) == [], \
        "a new export of calculator.js or verdict.js: pair it in TWINS (with a case) or name it in NOT_DECISIONS"
    assert sorted((set(TWINS) | set(NOT_DECISIONS)) - exported_functions) == []  # no stale entry


def python_function(path: str):
    import importlib

    module, _, attribute = path.partition(":")
    found = importlib.import_module(module)
    for part in attribute.split("."):
        found = getattr(found, part)
    return found


@pytest.mark.parametrize("name", sorted(TWINS))
def test_every_twin_is_a_python_function_compared_by_a_test_here(name):
    twin = TWINS[name]
    found = python_function(twin.python)
    assert callable(found) or isinstance(found, property), twin.python
    if "::" in twin.compared_by:  # a test of another module, named by file and function
        path, test = twin.compared_by.split("::")
        assert f"\ndef {test}(" in (ROOT / path).read_text(encoding="utf-8"), twin.compared_by
    else:
        assert twin.compared_by.startswith("test_") and callable(globals().get(twin.compared_by)), twin.compared_by
    assert twin.compared_by != DIRECT or name[1] in GENERATORS, f"{name[1]}: no case generator in GENERATORS"


# --- the cases of the decisions compared one function at a time. Each generator gives, for a seeded
# random world, [(JS arguments (references the driver resolves), what Python answers, shaped as `pick`
# shapes the JS answer)].

@dataclasses.dataclass
class World:
    catalogue: Catalogue
    settings: object
    ram: object
    rng: random.Random

    def model(self):
        return self.rng.choice(self.catalogue.models)

    def card(self):
        return self.rng.choice(self.catalogue.cards)

    def calibration(self):
        return self.settings.calibration(self.rng.choice(sorted(self.settings.calibrations)))

    def quant(self):
        return self.rng.choice(self.settings.quants)

    def kv(self):
        return self.rng.choice(sorted(self.settings.kv_bytes_per_element))

    def floor_ceiling(self):
        names = [q.name for q in self.settings.quants]
        return self.rng.choice(names), self.rng.choice(names + [None])

    def system(self):
        return self.ram.system(self.rng.choice([8.0, 16.0, 32.0, 64.0, 128.0]),
                               self.rng.choice([k.id for k in self.ram.kinds]))


def quant_json(q):
    return None if q is None else {"name": q.name, "bits_per_weight": q.bits_per_weight, "rank": q.rank,
                                   "native_only": q.native_only, "family": q.family}


def memory_json(m):
    return {"weights_gb": m.weights_gb, "kv_gb": m.kv_gb, "buffer_gb": m.buffer_gb, "vision_gb": m.vision_gb,
            "total_gb": m.total_gb}


def pick_memory(js):
    return {key: js[key] for key in ("weights_gb", "kv_gb", "buffer_gb", "vision_gb", "total_gb")}


def ref(kind, value=1):
    return {"$" + kind: value}


def case_quant(w):
    name = w.quant().name
    spelt = w.rng.choice([name, name.lower()])
    return [ref("settings"), spelt], quant_json(w.settings.quant(spelt)), None


def case_allowed_quants(w):
    floor, ceiling = w.floor_ceiling()
    return [ref("settings"), floor, ceiling], [q.name for q in w.settings.allowed_quants(floor, ceiling)], \
        lambda js: [q["name"] for q in js]


def case_model_quants(w):
    m, (floor, ceiling) = w.model(), w.floor_ceiling()
    return [ref("settings"), ref("model", m.id), floor, ceiling], \
        [q.name for q in w.settings.model_quants(m, floor, ceiling)], lambda js: [q["name"] for q in js]


def case_weights_gb(w):
    from tps_atlas.estimate.memory import weights_gb

    m, q = w.model(), w.quant()
    return [m.parameters_b, ref("quant", q.name)], weights_gb(m.parameters_b, q), None


def case_kv_cache_gb(w):
    from tps_atlas.estimate.memory import kv_cache_gb

    m = w.rng.choice([m for m in w.catalogue.models if m.architecture])
    context, per_element = random_context(w.rng), w.settings.kv_bytes_per_element[w.kv()]
    return [ref("arch", m.id), context, per_element], kv_cache_gb(m.architecture, context, per_element), None


def case_memory_needed(w):
    from tps_atlas.estimate.memory import memory_needed

    m, q, context, kv = w.model(), w.quant(), random_context(w.rng), w.kv()
    return [ref("model", m.id), ref("quant", q.name), context, ref("settings"), kv], \
        memory_json(memory_needed(m, q, context, w.settings, kv)), pick_memory


def case_speed_class(w):
    c, card = w.calibration(), w.card()
    found = c.speed_class(card)
    return [ref("calibration", c.name), ref("card", card.id)], found and found.name, lambda js: js and js["name"]


def case_efficiency(w):
    c, q, card = w.calibration(), w.quant(), w.card()
    return [ref("calibration", c.name), ref("quant", q.name), ref("card", card.id)], c.factor(q, card), None


def case_tokens_per_second(w):
    from tps_atlas.estimate.speed import tokens_per_second

    m, q, card, c = w.model(), w.quant(), w.card(), w.calibration()
    kv = w.rng.choice([0.0, w.rng.uniform(0, 40)])
    return [ref("model", m.id), ref("quant", q.name), ref("card", card.id), ref("calibration", c.name), kv], \
        tokens_per_second(m, q, card, c, kv), None


def case_prompt_tokens_per_second(w):
    from tps_atlas.estimate.speed import prompt_tokens_per_second

    m, card, c = w.model(), w.card(), w.calibration()
    return [ref("model", m.id), ref("card", card.id), ref("calibration", c.name)], \
        prompt_tokens_per_second(m, card, c), None


def case_usable_gb(w):
    from tps_atlas.estimate.fit import usable_gb

    card, c = w.card(), w.calibration()
    return [ref("card", card.id), ref("settings"), ref("calibration", c.name)], usable_gb(card, w.settings, c), None


def case_memory_in_name(w):
    from tps_atlas.i18n.names import memory_in_name

    card = w.card()
    return [ref("card", card.id)], memory_in_name(card), None


def case_pooled_card(w):
    from tps_atlas.estimate.budget import device_budget_gb
    from tps_atlas.estimate.verdict import pooled

    card, count = w.rng.choice([c for c in w.catalogue.cards if not c.unified]), w.rng.choice([2, 3, 4, 8])
    set_of = pooled(card, count)
    return [ref("card", card.id), count, ref("settings")], \
        {"vram_gb": set_of.vram_gb, "budget_gb": device_budget_gb(set_of, w.settings.budget)}, \
        lambda js: {"vram_gb": js["vram_gb"], "budget_gb": js["budget_gb"]}


def case_calibrated_memory(w):
    from tps_atlas.estimate.fit import calibrated_memory
    from tps_atlas.estimate.memory import memory_needed

    m, q, context, kv, c = w.model(), w.quant(), random_context(w.rng), w.kv(), w.calibration()
    memory = memory_needed(m, q, context, w.settings, kv)
    return [ref("memory", [m.id, q.name, context, kv]), context, ref("settings"), ref("calibration", c.name)], \
        memory_json(calibrated_memory(memory, context, w.settings, c)), pick_memory


def case_verdict(w):
    from tps_atlas.estimate.fit import verdict

    vram = w.card().vram_gb
    need = vram * w.rng.uniform(0.3, 1.2)
    usable = w.rng.choice([None, vram * w.rng.uniform(0.8, 1.05)])
    return [need, vram, ref("settings"), usable], verdict(need, vram, w.settings, usable), None


def case_candidate_memories(w):
    from tps_atlas.estimate.fit import candidate_memories

    m, context, kv, (floor, ceiling) = w.model(), random_context(w.rng), w.kv(), w.floor_ceiling()
    found = candidate_memories(m, w.settings, context, floor, kv_precision=kv, ceiling=ceiling)
    return [ref("model", m.id), ref("settings"), context, floor, kv, ceiling], \
        [(q.name, memory_json(memory)) for q, memory in found], \
        lambda js: [(c["quant"]["name"], pick_memory(c["memory"])) for c in js]


def case_estimate(w):
    m, card, c, context, kv, (floor, ceiling) = (w.model(), w.card(), w.calibration(), random_context(w.rng),
                                                 w.kv(), w.floor_ceiling())
    e = estimate(m, card, w.settings, c, context=context, floor=floor, kv_precision=kv, ceiling=ceiling)
    return [ref("model", m.id), ref("card", card.id), ref("settings"), ref("calibration", c.name),
            ref("candidates", [m.id, context, floor, kv, ceiling]), context], \
        {"fit": e.fit, "quant": e.quant.name if e.quant else None, "need_gb": e.need_gb,
         "tok_s": e.tok_s if e.fit != "none" else None}, \
        lambda js: {"fit": js["fit"], "quant": js["quant"]["name"] if js["quant"] else None,
                    "need_gb": js["need_gb"], "tok_s": js["tok_s"] if js["fit"] != "none" else None}


def case_ram_room_gb(w):
    from tps_atlas.estimate.offload import ram_room

    system, c = w.system(), w.calibration()
    return [ref("system", [system.size_gb, system.kind.id]), ref("settings"), ref("ram"), ref("calibration", c.name)], \
        ram_room(system, w.ram, w.settings, c), None


def case_place(w):
    from tps_atlas.estimate.fit import calibrated_memory
    from tps_atlas.estimate.memory import memory_needed
    from tps_atlas.estimate.offload import place

    m = w.rng.choice([m for m in w.catalogue.models if m.architecture])
    card = w.rng.choice([c for c in w.catalogue.cards if not c.unified])
    q, context, kv, c, system = w.quant(), random_context(w.rng), w.kv(), w.calibration(), w.system()
    memory = memory_needed(m, q, context, w.settings, kv)
    # The JS takes the memory as its callers hand it over: calibrated first (offloadEstimate).
    if memory != calibrated_memory(memory, context, w.settings, c):
        c = w.settings.calibration("seed")
    p = place(m, memory, card, w.settings, system, w.ram, c)
    return [ref("model", m.id), ref("memory", [m.id, q.name, context, kv]), ref("card", card.id), ref("settings"),
            ref("system", [system.size_gb, system.kind.id]), ref("ram"), ref("calibration", c.name)], \
        p and {"mode": p.mode, "cpu_layers": p.cpu_layers, "gpu_gb": p.gpu_gb, "ram_gb": p.ram_gb}, \
        lambda js: js and {key: js[key] for key in ("mode", "cpu_layers", "gpu_gb", "ram_gb")}


def case_offload_candidates(w):
    from tps_atlas.estimate.offload import offload_candidates

    m, context, kv, (floor, _) = w.model(), random_context(w.rng), w.kv(), w.floor_ceiling()
    found = offload_candidates(m, w.settings, w.ram, context, floor, kv_precision=kv)
    return [ref("model", m.id), ref("settings"), ref("ram"), context, floor, kv], \
        [(q.name, memory_json(memory)) for q, memory in found], \
        lambda js: [(c["quant"]["name"], pick_memory(c["memory"])) for c in js]


def case_ram_system(w):
    size = w.rng.choice([None, 24.0, 96.0])
    kind = w.rng.choice([None] + [k.id for k in w.ram.kinds])
    system = w.ram.system(size, kind)
    return [ref("data"), {"ramGb": size, "ramKind": kind}], \
        {"size_gb": system.size_gb, "kind": system.kind.id}, \
        lambda js: {"size_gb": js["size_gb"], "kind": js["kind"]["id"]}


def case_shortfall_of(w):
    from tps_atlas.estimate.verdict import missed_by

    m, card, c, context, kv, (floor, ceiling) = (w.model(), w.card(), w.calibration(), random_context(w.rng),
                                                 w.kv(), w.floor_ceiling())
    s = missed_by(m, card, w.settings, context, floor, kv, ceiling=ceiling, calibration=c)
    return [ref("model", m.id), ref("card", card.id), ref("settings"), ref("calibration", c.name), context, floor,
            kv, ceiling], {"quant": s.quant_name, "need_gb": s.need_gb, "shortfall_gb": s.shortfall_gb,
                           "shown_gb": s.shown_gb}, \
        lambda js: {"quant": js["quant"]["name"], "need_gb": js["need_gb"], "shortfall_gb": js["shortfall_gb"],
                    "shown_gb": js["shown_gb"]}


def case_round_decimal(w):
    """As a decimal string: the number the formatter writes (ties included: 0.125 to 0.12)."""
    digits = w.rng.choice([0, 1, 2])
    value = w.rng.choice([w.rng.uniform(-50, 2000), w.rng.randrange(-400, 4000) / 8, w.rng.randrange(0, 999) / 1000])
    return [value, digits], f"{round(value, digits):.{digits}f}".replace("-0.00", "0.00").replace("-0.0", "0.0"), None


def case_fold_name(w):
    from tps_atlas.catalogue.limits import name_key

    text = w.rng.choice([w.card().name, "ＲＴＸ\u200b 4090", "Radeon\u00a0RX 7900 XTX", "GeForce RTX\u2009PRO"])
    return [text], name_key(text), None


def case_for_kind(w):
    card = w.card()
    phrases = {"discrete": "a card", "unified": "a machine"}
    return [phrases, ref("card", card.id)], phrases.get(card.kind, phrases["discrete"]), None


GENERATORS = {
    "quant": case_quant, "allowedQuants": case_allowed_quants, "modelQuants": case_model_quants,
    "weightsGb": case_weights_gb, "kvCacheGb": case_kv_cache_gb, "memoryNeeded": case_memory_needed,
    "speedClass": case_speed_class, "efficiency": case_efficiency, "tokensPerSecond": case_tokens_per_second,
    "promptTokensPerSecond": case_prompt_tokens_per_second, "usableGb": case_usable_gb,
    "memoryInName": case_memory_in_name,
    "pooledCard": case_pooled_card, "calibratedMemory": case_calibrated_memory, "verdict": case_verdict,
    "candidateMemories": case_candidate_memories, "estimate": case_estimate, "ramRoomGb": case_ram_room_gb,
    "place": case_place, "offloadCandidates": case_offload_candidates, "ramSystem": case_ram_system,
    "shortfallOf": case_shortfall_of, "roundDecimal": case_round_decimal, "foldName": case_fold_name,
    "forKind": case_for_kind,
}
CASES_PER_FUNCTION = 150


def same(found, expected) -> bool:
    """Equal, floats to 12 significant digits (an order of operations apart, not a formula)."""
    if isinstance(expected, float) and isinstance(found, int | float) and not isinstance(found, bool):
        return math.isclose(found, expected, rel_tol=1e-12, abs_tol=1e-12)
    if isinstance(expected, dict) and isinstance(found, dict):
        return expected.keys() == found.keys() and all(same(found[k], expected[k]) for k in expected)
    if isinstance(expected, list | tuple) and isinstance(found, list | tuple):
        return len(found) == len(expected) and all(same(f, e) for f, e in zip(found, expected, strict=True))
    return found == expected


@pytest.mark.parametrize("name", sorted(name for (_, name), twin in TWINS.items() if twin.compared_by == DIRECT))
def test_each_decision_agrees_with_its_twin(name, exported, extended, settings):
    from tps_atlas.estimate.offload import load_ram

    module = next(m for (m, n) in TWINS if n == name)
    world = World(extended, settings, load_ram(), random.Random(f"{SEED}-{name}"))
    cases = [GENERATORS[name](world) for _ in range(CASES_PER_FUNCTION)]
    answers = run_node("call", [{"module": module, "fn": name, "args": args} for args, _, _ in cases], exported)
    wrong = []
    for (args, expected, pick), js in zip(cases, answers, strict=True):
        found = js if pick is None or (isinstance(js, dict) and "error" in js) else pick(js)
        if not same(found, expected):
            wrong.append((args, expected, found))
    assert wrong == [], f"{len(wrong)} of {len(cases)} cases differ, e.g. {wrong[:3]}"


def test_js_compressed_attention_cache_matches_python(exported, extended, settings):
    """DeepSeek V4's compressed attention (a window on every layer, entries every 4 or 128 tokens):
    the same need in both, from a short context to the full million, at each KV precision."""
    models = [m for m in ("deepseek-v4-flash", "deepseek-v4-pro") if m in extended.models_by_id]
    cards = [c for c in ("apple-m3-ultra-512gb", "geforce-rtx-4090") if c in extended.cards_by_id]
    assert models and cards
    cases = [{"model": m, "card": c, "context": context, "floor": "Q3_K_M", "ceiling": "Q4_K_M", "kv": kv,
              "calibration": settings.default_calibration}
             for m in models for c in cards for context in (4096, 131072, 1048576)
             for kv in sorted(settings.kv_bytes_per_element)]
    answers = run_node("estimates", cases, exported)
    for case, js in zip(cases, answers, strict=True):
        py = estimate(extended.model(case["model"]), extended.card(case["card"]), settings, settings.calibration(),
                      context=case["context"], floor=case["floor"], ceiling=case["ceiling"], kv_precision=case["kv"])
        assert (js["quant"], js["fit"], one_decimal(js["need_gb"])) == (
            py.quant.name if py.quant else None, py.fit, one_decimal(py.need_gb)), case
