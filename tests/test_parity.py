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
import random
from collections import Counter

import pytest

from tps_atlas.catalogue.load import Catalogue
from tps_atlas.estimate.fit import estimate
from tps_atlas.i18n.formatting import Formatter
from tps_atlas.i18n.phrases import LANGUAGES
from tps_atlas.pages.figures import model_figures
from tps_atlas.web.data import site_data, write_site_data

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
