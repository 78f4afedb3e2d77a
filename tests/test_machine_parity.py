"""The browser's machine estimator (docs/assets/calculator.js, under Node) against Python's (#28).

Random machines of one to four GPUs, RAM sizes, kinds and OSes, on random models and contexts: the same
verdict kind, quant, speed, layer split, command and reason; and the same answer to untrusted links.
"""

from __future__ import annotations

import random

import pytest

from tps_atlas.errors import DataError
from tps_atlas.estimate.machine import MachineFit, MachineOffload
from tps_atlas.estimate.machine_verdict import machine_link, machine_verdict, parse_machine, verdict_command
from tps_atlas.estimate.offload import load_ram
from tps_atlas.estimate.verdict import NoRun
from tps_atlas.web.data import site_data, write_site_data

from tests.support.node import NODE, run_node

pytestmark = pytest.mark.skipif(NODE is None, reason="node is not installed (scripts/test installs it)")
CASES = 400
SEED = 20261202


@pytest.fixture(scope="module")
def exported(tmp_path_factory, catalogue, settings):
    return write_site_data(tmp_path_factory.mktemp("machine-export"), site_data(catalogue, settings))


def random_link(rng: random.Random, discrete: list, settings) -> str:
    cards = ",".join(rng.choice(discrete).id for _ in range(rng.choice([1, 2, 2, 2, 3, 4])))
    ram = load_ram()
    parts = [cards, str(rng.choice([8, 16, 32, 64, 96, 128, 256])), rng.choice(ram.kinds).id,
             rng.choice(settings.machine.os_ids)]
    return "~".join(parts[:rng.choice([1, 2, 3, 4])])


def test_js_machine_verdict_matches_python(exported, catalogue, settings):
    rng = random.Random(SEED)
    calibration = settings.calibration()
    discrete = [c for c in catalogue.cards if not c.unified and c.vram_gb >= 4]
    models = list(catalogue.models)
    cases = []
    for _ in range(CASES):
        cases.append({"model": rng.choice(models).id, "link": random_link(rng, discrete, settings),
                      "context": rng.choice([4096, 4096, 16384, 65536]), "kv": rng.choice([None, "q8_0"])})
    cases.append({"model": "llama-3.3-70b", "link": "geforce-rtx-3090,geforce-rtx-3060-12gb~64~ddr4-3200-2ch",
                  "context": 4096, "kv": None})
    answers = run_node("machines", cases, exported)
    kinds = set()
    for case, js in zip(cases, answers, strict=True):
        model = catalogue.model(case["model"]).for_calibration(calibration.name)
        machine = parse_machine(case["link"], catalogue.cards_by_id, settings)
        v = machine_verdict(model, machine, settings, calibration, case["context"], kv_precision=case["kv"])
        where = f"{case}"
        kinds.add((v.kind, len(machine.cards) > 1))
        assert js["kind"] == v.kind, where
        assert js["link"] == machine_link(machine, load_ram(), settings)
        if isinstance(v, NoRun):
            assert js["reason"] == v.reason.value and js["quant"] == v.shortfall.quant_name, where
            assert js["need_gb"] == pytest.approx(v.shortfall.need_gb, rel=1e-9), where
            continue
        e = v.estimate
        assert js["quant"] == e.quant.name and js["tok_s"] == pytest.approx(e.tok_s, rel=1e-9), where
        assert js["need_gb"] == pytest.approx(e.need_gb, rel=1e-9), where
        if isinstance(e, (MachineFit, MachineOffload)):
            assert js["tensor_split"] == list(e.tensor_split) and js["main_gpu"] == e.main_gpu, where
        assert js["command"] == verdict_command(model, v, case["context"], case["kv"]), where
    # The cases reach every kind, on one card and on several.
    assert {("fits", True), ("offload", True), ("none", True), ("fits", False), ("offload", False),
            ("none", False)} <= kinds


@pytest.mark.parametrize("link", [
    "nope", ",".join(["geforce-rtx-3090"] * 5), "geforce-rtx-3090~99999999", "geforce-rtx-3090~-1",
    "geforce-rtx-3090~64~<script>alert(1)</script>", "<img src=x onerror=alert(1)>", "geforce-rtx-3090~64~ddr4~beos",
    "x" * 401, "geforce-rtx-3090~1e3", "geforce-rtx-3090~64~ddr5-6000-2ch~linux~more", "",
])
def test_js_refuses_the_links_python_refuses(exported, catalogue, settings, link):
    with pytest.raises(DataError):
        parse_machine(link, catalogue.cards_by_id, settings)
    [answer] = run_node("machines", [{"model": "llama-3.1-8b", "link": link}], exported)
    assert answer.get("error")
