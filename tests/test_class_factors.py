"""Per-class backend and quant-family factors (data/estimator.yaml, tps_atlas/measured/accuracy.py).

A class's efficiency is for its reference backend and the K-quants; ``quant_factors`` scale it for
other quant families in every estimate (pages, command, calculator), ``backend_factors`` only when a
measured run on another backend is scored.
"""

from __future__ import annotations

import dataclasses
import json
import math
from pathlib import Path

import pytest

from tps_atlas.measured import accuracy, fitting
from tps_atlas.catalogue.cards import Card
from tps_atlas.catalogue.models import Model
from tps_atlas.errors import DataError
from tps_atlas.estimate.calibration import SpeedClass
from tps_atlas.estimate.memory import memory_needed
from tps_atlas.estimate.settings import read_settings
from tps_atlas.estimate.speed import tokens_per_second
from tps_atlas.web.data import site_data, write_site_data
from tps_atlas.measured.runs import Run

from tests.support.paths import ROOT
from tests.support.cli import run
from tests.support.node import NODE, run_node

FACTOR_CARD = "apple-m4-max-128gb"  # apple-m4 keeps a legacy factor (Q4_0, Q8_0 against the K-quants)
MODEL = "llama-3.2-3b"


# ------------------------------------------------------------------ fitting

def synthetic_rows(settings, efficiency: float, overhead_ms: float, factors: dict[tuple[str, str], float]):
    """Runs of three cards of one made-up class, measured exactly as the model says, with a
    known factor for each (backend, quant family) named in ``factors``."""
    rows = []
    for n, bandwidth in enumerate((224.0, 256.0, 320.0)):
        card = Card(f"test-card-{n}", f"Test Card {n}", "AMD", 8, bandwidth, None, architecture="Test Arch")
        for backend, quant_name in (("Vulkan", "Q4_K_M"), ("Vulkan", "Q8_0"), ("ROCm", "Q4_K_M"),
                                    ("Vulkan", "Q3_K_M")):
            quant = settings.quant(quant_name)
            for params in (1.5, 7.0):
                factor = factors.get((backend, quant.family), 1.0)
                read_gb = params * quant.bits_per_weight / 8
                tok_s = 1 / (read_gb / (bandwidth * efficiency * factor) + overhead_ms / 1000)
                run_ = Run(len(rows) + 2, card.id, card.name, backend, "b1", "2026-01-01", None, "M", params, None,
                           quant_name, "tg", 128, 0, tok_s, 1, "", "https://example.org/")
                model = Model("m", "M", "m.yaml", True, params)
                rows.append(fitting.Row(run_, model, quant, card, 0.0, tok_s))
    return rows


def test_the_fit_recovers_known_backend_and_quant_factors(settings):
    efficiency, overhead_ms = 0.6, 3.0
    legacy, rocm = 1.5, 0.7
    rows = synthetic_rows(settings, efficiency, overhead_ms, {("Vulkan", "legacy"): legacy, ("ROCm", "k"): rocm})
    test_class = SpeedClass("test", ("AMD",), ("Test Arch",), (), 0.5, 4.0, 1.0, 1.0, 0.5, 2.0)
    calibration = dataclasses.replace(settings.calibration("measured"), classes=(test_class,), kv_read_factor=0.0)
    fit = fitting.fit_class(test_class, rows, [], calibration, overhead_ms)
    # Vulkan has most runs: it is the reference, as K-quants are.
    assert fit.factors.backend == "Vulkan"
    assert fit.factors.backends == {"ROCm": pytest.approx(rocm, rel=0.01)}
    assert fit.factors.families == {"legacy": pytest.approx(legacy, rel=0.01)}
    assert fit.efficiency == pytest.approx(efficiency, rel=0.01) and fit.overhead_ms == overhead_ms


def test_a_factor_seen_on_one_device_only_is_not_fitted(settings):
    rows = synthetic_rows(settings, 0.6, 3.0, {("Vulkan", "legacy"): 1.5})
    one_device = [r for r in rows if r.quant.family != "legacy" or r.card.id == "test-card-0"]
    test_class = SpeedClass("test", ("AMD",), ("Test Arch",), (), 0.5, 4.0, 1.0, 1.0, 0.5, 2.0)
    calibration = dataclasses.replace(settings.calibration("measured"), classes=(test_class,), kv_read_factor=0.0)
    assert "legacy" not in fitting.fit_class(test_class, one_device, [], calibration, 3.0).factors.families


# ------------------------------------------------------------------ the estimate

def factor_row(quant: str) -> dict:
    code, out, err = run("estimate", MODEL, "--quant", quant, "--json")
    assert code == 0, err
    row = next(r for r in json.loads(out)["rows"] if r["card_id"] == FACTOR_CARD)
    assert row["quant"] == quant and row["fit"] in ("comfortable", "tight")
    return row


def test_a_card_reads_legacy_quants_at_its_class_factor(catalogue, settings):
    """The estimate's efficiency at Q8_0 (legacy) over that at Q4_K_M is the class's legacy factor."""
    measured = settings.calibration("measured")
    card, model = catalogue.card(FACTOR_CARD), catalogue.model(MODEL)
    cls = measured.speed_class(card)
    assert cls.name == "apple-m4" and cls.quant_factors.get("legacy", 1.0) != 1.0

    def efficiency(quant_name: str) -> float:
        quant = settings.quant(quant_name)
        tok_s = factor_row(quant_name)["tok_s"]
        kv = memory_needed(model, quant, settings.context_tokens, settings).kv_gb * measured.kv_read_factor
        read = model.read_parameters_b * quant.bits_per_weight / 8
        return (read + kv) / (card.bandwidth_gb_s * (1 / tok_s - cls.overhead_ms / 1000))

    assert efficiency("Q4_K_M") == pytest.approx(cls.efficiency, rel=1e-3)
    assert efficiency("Q8_0") / efficiency("Q4_K_M") == pytest.approx(cls.quant_factors["legacy"], rel=1e-3)


def test_backend_factors_apply_only_to_measured_runs_on_that_backend(catalogue, settings):
    # The committed fit keeps no backend factor (none lowered its class's held-out error): one is set here.
    measured = settings.calibration("measured")
    ada = next(c for c in measured.classes if c.name == "nvidia-ada")
    speed_class = dataclasses.replace(ada, backend_factors={"Vulkan": 0.8})
    measured = dataclasses.replace(measured, classes=tuple(speed_class if c is ada else c for c in measured.classes))
    backend, factor = "Vulkan", 0.8
    card = next(c for c in catalogue.cards if measured.speed_class(c) is speed_class)
    model, quant = catalogue.model(MODEL), settings.quant("Q4_K_M")
    plain = tokens_per_second(model, quant, card, measured)
    assert tokens_per_second(model, quant, card, measured, backend=speed_class.backend) == plain
    other = tokens_per_second(model, quant, card, measured, backend=backend)
    assert (other > plain) == (factor > 1)


# ------------------------------------------------------------------ bad input

def bad_settings(tmp_path: Path, old: str, new: str) -> str:
    text = (ROOT / "data" / "estimator.yaml").read_text(encoding="utf-8")
    assert old in text
    path = tmp_path / "data" / "estimator.yaml"
    path.parent.mkdir()
    path.write_text(text.replace(old, new, 1), encoding="utf-8")
    with pytest.raises(DataError) as error:
        read_settings(path)
    message = str(error.value)
    assert "\n" not in message and "data/estimator.yaml" in message
    return message


def test_a_factor_out_of_range_is_refused(tmp_path):
    message = bad_settings(tmp_path, "backend: Vulkan,\n", "backend: Vulkan, backend_factors: {SYCL: 5.0},\n")
    assert ".backend_factors.SYCL: expected a number of at most 3" in message


def test_an_unknown_quant_family_is_refused(tmp_path):
    message = bad_settings(tmp_path, "quant_factors: {legacy:", "quant_factors: {legacyy: 1.2, legacy:")
    assert ".quant_factors.legacyy: expected a quant family other than the reference one" in message


def test_an_unknown_backend_is_refused(tmp_path):
    message = bad_settings(tmp_path, "backend: Metal,", "backend: OpenCL,")
    assert ".backend: expected one of CUDA, ROCm, Vulkan, Metal, SYCL, CPU, found 'OpenCL'" in message


def test_a_quant_without_family_is_refused(tmp_path):
    message = bad_settings(tmp_path, "  i: [IQ4_XS, IQ4_NL]\n", "  i: [IQ4_NL]\n")
    assert "quant_families: expected a family for every quant of quants and other_quant_bits, found 'IQ4_XS'" \
        in message


# ------------------------------------------------------------------ the calculator

@pytest.mark.skipif(NODE is None, reason="node is not installed (scripts/test installs it)")
def test_the_calculator_applies_the_quant_factor_as_python_does(tmp_path, catalogue, settings):
    from tps_atlas.estimate.fit import estimate

    exported = write_site_data(tmp_path, site_data(catalogue, settings))
    cases = [{"model": MODEL, "card": FACTOR_CARD, "context": context, "floor": quant, "ceiling": quant,
              "calibration": "measured", "kv": "f16"}
             for quant in ("Q8_0", "Q4_0", "Q4_K_M", "IQ4_XS") for context in (4096, 8192)]
    answers = run_node("estimates", cases, exported)
    for case, js in zip(cases, answers, strict=True):
        py = estimate(catalogue.model(MODEL), catalogue.card(FACTOR_CARD), settings, settings.calibration("measured"),
                      context=case["context"], floor=case["floor"], ceiling=case["ceiling"])
        assert js["quant"] == py.quant.name == case["floor"]
        assert math.isclose(js["tok_s"], py.tok_s, rel_tol=1e-9), case
    q8, q4 = (next(a for c, a in zip(cases, answers, strict=True) if c["floor"] == q and c["context"] == 4096)
              for q in ("Q8_0", "Q4_K_M"))
    # Q8_0 reads 1.8 times the bytes of Q4_K_M; the legacy factor makes up part of it.
    assert q8["tok_s"] / q4["tok_s"] > 4.84 / 8.57


def fitted_class(settings, rows):
    test_class = SpeedClass("test", ("AMD",), ("Test Arch",), (), 0.5, 4.0, 1.0, 1.0, 0.5, 2.0)
    calibration = dataclasses.replace(settings.calibration("measured"), classes=(test_class,), kv_read_factor=0.0)
    fits = fitting.fit_classes(rows, [], calibration, 3.0)
    return accuracy.keep_factors_that_help(rows, [], fitting.apply(calibration, fits), 3.0).classes[0]


def test_a_factor_that_holds_on_every_device_is_kept(settings):
    kept = fitted_class(settings, synthetic_rows(settings, 0.6, 3.0, {("Vulkan", "legacy"): 1.5}))
    assert kept.quant_factors == {"legacy": pytest.approx(1.5, rel=0.01)}

