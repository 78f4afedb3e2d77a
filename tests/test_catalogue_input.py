"""Bad catalogue input of issue 10, in-process: each a DataError of one line naming the file and
the field, raised while reading (before anything is written); the command exits 2 with that line."""

from __future__ import annotations

from pathlib import Path

import pytest

from tps_atlas.catalogue.cards import load_cards
from tps_atlas.catalogue.models import read_model
from tps_atlas.catalogue.check import check_catalogue
from tps_atlas.errors import DataError

from tests.support.paths import FIXTURES

MODEL = """id: tiny
name: Tiny
weights: open
parameters_b: 7
sources: [{title: a paper}]
"""
LAYOUT = """architecture:
  layers: 32
  vocab_size: 128256
  attention: gqa
  kv_heads: 8
  head_dim: 128
"""


def model_file(tmp_path: Path, extra: str) -> Path:
    path = tmp_path / "tiny.yaml"
    path.write_text(MODEL + extra, encoding="utf-8")
    return path


def error_of(call) -> str:
    with pytest.raises(DataError) as info:
        call()
    message = str(info.value)
    assert "\n" not in message
    return message


@pytest.mark.parametrize("extra, field, expected", [
    (LAYOUT.replace("  head_dim: 128\n", ""), "architecture.head_dim", "a value (the field is required)"),
    (LAYOUT.replace("  layers: 32\n", ""), "architecture.layers", "a value (the field is required)"),
    (LAYOUT.replace("  vocab_size: 128256\n", ""), "architecture.vocab_size", "a value (the field is required)"),
    (LAYOUT.replace("vocab_size: 128256", "vocab_size: 12"), "architecture.vocab_size", "at least 256"),
    (LAYOUT + "  linear_attention_layers: 40\n", "architecture.linear_attention_layers", "at most layers"),
    (LAYOUT + "  sliding_window: 4096\n  sliding_window_layers: 16\n  linear_attention_layers: 24\n",
     "architecture.linear_attention_layers", "at most layers minus sliding_window_layers (16)"),
    (LAYOUT.replace("gqa", "csa") + "  sliding_window: 128\n", "architecture.compressed_layers",
     "the compressed layers of compressed attention (csa)"),
    (LAYOUT + "  compressed_layers: [{layers: 8, ratio: 4}]\n", "architecture.compressed_layers",
     "no compressed layers unless attention is csa"),
    (LAYOUT.replace("gqa", "csa") + "  sliding_window: 128\n  compressed_layers: [{layers: 20, ratio: 4}, "
     "{layers: 20, ratio: 128}]\n", "architecture.compressed_layers", "at most 32 layers in all"),
    (LAYOUT.replace("gqa", "csa") + "  sliding_window: 128\n  compressed_layers: [{layers: 8, ratio: 1}]\n",
     "architecture.compressed_layers[0].ratio", "at least 2"),
    (LAYOUT.replace("gqa", "csa") + "  compressed_layers: [{layers: 8, ratio: 4}]\n", "architecture.sliding_window",
     "the window every layer of compressed attention (csa) keeps"),
    ("native_format: FP8\n", "native_format", "a quant of the ladder in data/estimator.yaml"),
    ("huggingface: Qwen\n", "huggingface", "a full Hugging Face repository id"),
    ("vision_encoder_b: -1\n", "vision_encoder_b", "a number above 0"),
    ("checked: 2026-13-01\n", "checked", "a date that exists"),
])
def test_a_bad_model_field_is_one_line_naming_file_and_field(tmp_path, extra, field, expected):
    message = error_of(lambda: read_model(model_file(tmp_path, extra)))
    assert message.startswith(f"{tmp_path / 'tiny.yaml'}: {field}"), message
    assert expected in message


def test_a_native_format_is_read_in_the_ladder_spelling(tmp_path):
    model = read_model(model_file(tmp_path, "native_format: mxfp4\nhuggingface: openai/gpt-oss-20b\n"))
    assert model.native_format == "MXFP4"
    assert model.huggingface_url == "https://huggingface.co/openai/gpt-oss-20b"


def devices_file(tmp_path: Path, old: str, new: str) -> Path:
    text = (FIXTURES / "devices.yaml").read_text(encoding="utf-8")
    assert old in text
    path = tmp_path / "devices.yaml"
    path.write_text(text.replace(old, new, 1), encoding="utf-8")
    return path


@pytest.mark.parametrize("old, new, field, expected", [
    ('  geforce-rtx-4070-mobile: ["GeForce RTX 4070 Laptop GPU", "RTX 4070 Laptop"]',
     '  geforce-rtx-4070-mobile: ["GeForce RTX 4070 Laptop GPU", "RTX 4070 Laptop"]\n'
     '  geforce-rtx-4070-max-q: ["RTX 4070 Laptop"]',
     "aliases (geforce-rtx-4070-m", "a name of one card only (it also names geforce-rtx-4070-m"),
    ('    usable_share: 0.5\n', '', "devices[1].usable_share", "a value (the field is required)"),
    ('    raise: linux-amdgpu\n', '    raise: bios\n', "devices[1].raise", "one of macos, linux-amdgpu, windows"),
    ('    kind: discrete\n', '', "devices[2].kind", "a value (the field is required)"),
    ('  geforce-rtx-4070-mobile:', '  geforce-rtx-9999-mobile:', "aliases.geforce-rtx-9999-mobile",
     "the id of a card in the catalogue"),
    ('name: "Test Arc Pro B70"', 'name: "GeForce RTX 4090"', "devices (test-arc-pro-b70).name",
     "a name no other card has"),
])
def test_a_bad_device_is_one_line_naming_file_and_field(tmp_path, old, new, field, expected):
    path = devices_file(tmp_path, old, new)
    message = error_of(lambda: load_cards(devices=path))
    assert message.startswith(f"{path}: {field}"), message
    assert expected in message


@pytest.mark.parametrize("section, field, expected", [
    ("remove:\n  - {card: geforce-rtx-9999, reason: typo}\n", "remove[0].card", "the id of a card"),
    ("remove:\n  - {card: gb10}\n", "remove[0].reason", "a value (the field is required)"),
])
def test_a_bad_removal_is_one_line(tmp_path, section, field, expected):
    path = tmp_path / "corrections.yaml"
    path.write_text(section, encoding="utf-8")
    message = error_of(lambda: load_cards(path))
    assert message.startswith(f"{path}: {field}") and expected in message


def test_an_acceptance_of_an_unknown_card_is_one_line(tmp_path, catalogue):
    path = tmp_path / "corrections.yaml"
    path.write_text("accepted:\n  - {check: duplicate, cards: [geforce-rtx-9999], reason: x}\n", encoding="utf-8")
    message = error_of(lambda: check_catalogue(catalogue.cards, path))
    assert message.startswith(f"{path}: accepted[0].cards") and "geforce-rtx-9999" in message


def test_the_command_stops_on_a_bad_model_file_with_one_line(tmp_path, capsys):
    from tps_atlas.cli import main as cli

    path = model_file(tmp_path, "native_format: FP8\n")
    status = cli.main(["estimate", "--model-file", str(path)])  # in this process (test_cli runs the command)
    out, err = capsys.readouterr()
    assert status == 2 and out == ""
    assert err.count("\n") == 1 and "native_format: expected a quant of the ladder" in err
