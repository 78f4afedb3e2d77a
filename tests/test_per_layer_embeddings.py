"""Gemma 3n and Gemma 4 "E" models keep per-layer embedding tables that each token only looks up:
they take memory but are not read per generated token, so they must not slow the estimate."""

import dataclasses
from pathlib import Path

import pytest

from tps_atlas.catalogue.models import read_model
from tps_atlas.errors import DataError
from tps_atlas.estimate.fit import estimate

ROOT = Path(__file__).resolve().parent.parent


def test_an_e_model_is_estimated_on_what_it_reads_not_on_its_tables(catalogue, settings):
    model = catalogue.models_by_id["gemma-4-e2b"]
    card = catalogue.cards_by_id["geforce-rtx-4090"]
    calibration = settings.calibration()
    with_tables = estimate(model, card, settings, calibration)
    read_everything = estimate(dataclasses.replace(model, per_layer_embedding_b=None), card, settings, calibration)
    assert model.read_parameters_b == pytest.approx(model.parameters_b - model.per_layer_embedding_b)
    # Same memory (the tables are loaded), faster decode (they are not read per token).
    assert with_tables.memory.total_gb == read_everything.memory.total_gb
    assert with_tables.tok_s > read_everything.tok_s * 1.3


def test_every_e_model_of_the_catalogue_says_how_large_its_tables_are(catalogue):
    e_models = [m for m in catalogue.models if m.id.startswith(("gemma-3n-e", "gemma-4-e"))]
    assert len(e_models) == 4
    for model in e_models:
        assert model.per_layer_embedding_b and 0 < model.read_parameters_b < model.parameters_b, model.id


def test_tables_as_large_as_the_model_are_refused_naming_the_field(tmp_path):
    text = (ROOT / "data/models/gemma-4-e2b.yaml").read_text(encoding="utf-8")
    path = tmp_path / "gemma-4-e2b.yaml"
    path.write_text(text.replace("per_layer_embedding_b: 2.349", "per_layer_embedding_b: 5.1"), encoding="utf-8")
    with pytest.raises(DataError) as error:
        read_model(path)
    message = str(error.value)
    assert "gemma-4-e2b.yaml" in message and "per_layer_embedding_b" in message and "\n" not in message
