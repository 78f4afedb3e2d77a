"""`tps-atlas catalogue add-model`: a model record drafted from a Hugging Face config.json, held to
the hand-checked records of the same models, and refusing bad configs with one line."""

from __future__ import annotations

import json

import pytest

from tps_atlas.catalogue.load import Catalogue
from tps_atlas.catalogue.models import read_model

from tests.support.paths import FIXTURES, ROOT

CONFIGS = FIXTURES / "configs"
MODELS = ROOT / "data" / "models"

# Each real config beside the hand-checked record of the same model (data/models).
ARCHITECTURES = {
    "dense GQA": ("llama-3.1-8b.json", "llama-3.1-8b"),
    "sliding window + vision encoder": ("gemma-3-27b-it.json", "gemma-3-27b"),
    "MoE with MLA": ("deepseek-v3.json", "deepseek-v3"),
    "hybrid linear attention MoE": ("qwen3-next-80b-a3b.json", "qwen3-next-80b-a3b"),
    "vision-language": ("qwen2.5-vl-7b-instruct.json", "qwen2.5-vl-7b"),
    "MoE in MXFP4, alternating window": ("gpt-oss-20b.json", "gpt-oss-20b"),
    "Qwen3.8: hybrid linear attention MoE, gated attention": ("qwen3.8-2.4t-a95b.json", "qwen3.8-2.4t-a95b"),
    "Qwen3.8 27B: dense hybrid with a vision encoder": ("qwen3.8-27b.json", "qwen3.8-27b"),
    "DeepSeek V4: compressed sparse attention, MoE": ("deepseek-v4-flash.json", "deepseek-v4-flash"),
    "Kimi K3: Kimi Delta Attention beside latent attention, latent experts in MXFP4": ("kimi-k3.json", "kimi-k3"),
    "Nemotron-H: Mamba-2, MLP and attention blocks": ("nemotron-h-56b.json", "nemotron-h-56b"),
    "LFM2: short convolutions beside attention, a feed-forward width cut to 2/3": ("lfm2-1.2b.json", "lfm2-1.2b"),
    "MiMo: 5 windowed layers to 1 global, values narrower than keys, MoE": ("mimo-v2-flash.json", "mimo-v2-flash"),
    "LFM2-MoE: short convolutions, the first layers dense (num_dense_layers)": ("lfm2.5-8b-a1b.json", "lfm2.5-8b-a1b"),
}


@pytest.fixture
def add(tps_atlas):
    def draft(models_dir, config, *options):
        return tps_atlas("catalogue", "add-model", str(config), "--models-dir", str(models_dir), *options)
    return draft


@pytest.mark.parametrize("config, record", ARCHITECTURES.values(), ids=ARCHITECTURES.keys())
def test_a_draft_agrees_with_the_hand_checked_record(tmp_path, config, record, add):
    code, out, err = add(tmp_path, CONFIGS / config, "--id", record, "--name", f"Draft of {record}")
    assert (code, err) == (0, ""), err
    assert f"wrote {tmp_path / (record + '.yaml')}" in out
    draft, checked = read_model(tmp_path / f"{record}.yaml"), read_model(MODELS / f"{record}.yaml")
    assert draft.parameters_b == pytest.approx(checked.parameters_b, rel=0.02)
    assert (draft.experts_total, draft.experts_active) == (checked.experts_total, checked.experts_active)
    if checked.active_parameters_b:
        # Model cards round the active count (Qwen3-Next: "3B activated"; counted, 3.46B).
        assert draft.active_parameters_b == pytest.approx(checked.active_parameters_b, rel=0.2)
    assert (draft.vision_encoder_b is None) == (checked.vision_encoder_b is None)
    if checked.vision_encoder_b:
        assert draft.vision_encoder_b == pytest.approx(checked.vision_encoder_b, rel=0.03)
    assert draft.native_format == checked.native_format
    kept = ("layers", "attention", "kv_heads", "head_dim", "sliding_window", "sliding_window_layers",
            "linear_attention_layers", "kv_lora_rank", "rope_head_dim", "compressed_layers", "vocab_size")
    assert {f: getattr(draft.architecture, f) for f in kept} == {f: getattr(checked.architecture, f) for f in kept}
    assert "name" not in draft.gaps and {"organisations", "published", "license"} <= set(draft.gaps)


def estimate_row(tps_atlas, *model, card="geforce-rtx-4090"):
    code, out, err = tps_atlas("estimate", *model, "--json")
    assert code == 0, err
    return next(r for r in json.loads(out)["rows"] if r["card_id"] == card)


ON_24_GB = ("dense GQA", "sliding window + vision encoder", "Qwen3.8 27B: dense hybrid with a vision encoder")


@pytest.mark.parametrize("config, record", [ARCHITECTURES[a] for a in ON_24_GB], ids=ON_24_GB)
def test_the_drafted_record_gives_the_hand_checked_memory_and_speed_on_a_24_gb_card(tmp_path, config, record, add,
                                                                                    tps_atlas):
    add(tmp_path, CONFIGS / config, "--id", record, "--name", "Drafted")
    drafted = estimate_row(tps_atlas, "--model-file", str(tmp_path / f"{record}.yaml"))
    checked = estimate_row(tps_atlas, record)
    assert drafted["quant"] == checked["quant"] and drafted["fit"] == checked["fit"]
    assert drafted["need_gb"] == pytest.approx(checked["need_gb"], rel=0.02)
    assert drafted["tok_s"] == pytest.approx(checked["tok_s"], rel=0.02)


def test_the_gaps_are_reported_by_the_catalogue_check_until_filled(tmp_path, monkeypatch, catalogue, add,
                                                                   tps_atlas):
    from tps_atlas.cli import commands as cli
    add(tmp_path, CONFIGS / "llama-3.1-8b.json", "--id", "llama-drafted")
    path = tmp_path / "llama-drafted.yaml"
    text = path.read_text()
    assert text.endswith("gaps: [name, organisations, organisation_types, countries, published, license, "
                         "training_compute_flop, checked]\n")

    def check_with_draft():
        drafted = Catalogue(catalogue.cards, catalogue.models + (read_model(path),))
        monkeypatch.setattr(cli, "load_catalogue", lambda: drafted)
        return tps_atlas("catalogue", "check")

    code, out, _ = check_with_draft()
    assert code == 1 and f"gap: {path}: name to be filled (then removed from gaps:)" in out.splitlines()
    assert "8 gaps in drafted model records" in out
    filled = text.replace('name: "Llama Drafted"', 'name: "Llama 3.1 8B (drafted)"').replace("gaps: [name, ", "gaps: [")
    path.write_text(filled)
    code, out, _ = check_with_draft()
    assert code == 1 and "7 gaps in drafted model records" in out and ": name to be filled" not in out
    path.write_text(filled.replace("gaps: [organisations, organisation_types, countries, published, license, "
                                   "training_compute_flop, checked]\n", ""))
    code, out, _ = check_with_draft()
    assert code == 0 and "gap" not in out


def test_the_real_catalogue_has_no_gaps(tps_atlas):
    code, out, _ = tps_atlas("catalogue", "check")
    assert code == 0 and "gap:" not in out


def test_an_existing_record_is_kept_without_force(tmp_path, add):
    add(tmp_path, CONFIGS / "llama-3.1-8b.json", "--id", "llama-3.1-8b")
    target = tmp_path / "llama-3.1-8b.yaml"
    target.write_text(target.read_text().replace("layers: 32", "layers: 33"))
    before = target.read_text()
    code, _, err = add(tmp_path, CONFIGS / "llama-3.1-8b.json", "--id", "llama-3.1-8b")
    assert code == 2 and err == (f"tps-atlas: {target}: (file): expected an id not in the catalogue yet "
                                 "(--force replaces the record), found 'a record of that id'\n")
    assert target.read_text() == before
    assert add(tmp_path, CONFIGS / "llama-3.1-8b.json", "--id", "llama-3.1-8b", "--force")[0] == 0
    assert "layers: 32" in target.read_text()


LLAMA = json.loads((CONFIGS / "llama-3.1-8b.json").read_text())


def config_with(**changes):
    return json.dumps({**LLAMA, **changes})


BAD_CONFIGS = {
    "malformed": ('{"hidden_size": 4096,, }', "line 1, column 22", "valid JSON"),
    "truncated": (config_with()[:200], "line", "valid JSON"),
    "huge": (" " * 1_000_001 + "{}", "(file)", "a file of at most 1,000,000 bytes"),
    "nested 5,000 deep": ('{"a": ' + "[" * 5000 + "]" * 5000 + "}", "(structure)", "at most 32 levels of nesting"),
    "a key twice": ('{"hidden_size": 1, "hidden_size": 2}', "hidden_size", "each key once"),
    "NaN": (config_with(rope_theta=float("nan")), "(value)", "a finite number"),
    "negative width": (config_with(hidden_size=-4096), "hidden_size", "a whole number of at least 1"),
    "heads that do not divide the width": (config_with(num_attention_heads=48), "num_attention_heads",
                                           "a divisor of hidden_size (4,096) when head_dim is not given"),
    "KV heads that do not divide the heads": (config_with(num_key_value_heads=5), "num_key_value_heads",
                                              "a divisor of num_attention_heads (32)"),
    "layer kinds that do not add up": (config_with(layer_types=["full_attention"] * 31), "layer_types",
                                       "a list of 32 layer kinds (num_hidden_layers)"),
    "more active experts than experts": (config_with(num_local_experts=8, num_experts_per_tok=9),
                                         "num_experts_per_tok", "at most the number of experts (8)"),
    "a width that is text": (config_with(hidden_size="4096"), "hidden_size", "a whole number"),
    "a list, not settings": ("[1, 2]", "(top level)", "a JSON object of settings"),
    "compression ratios that do not add up": (config_with(compress_ratios=[0, 4, 128]), "compress_ratios",
                                              "a list of 32 compression ratios (num_hidden_layers)"),
    "a compression ratio of 1": (config_with(compress_ratios=[1] * 32, sliding_window=128), "compress_ratios",
                                 "ratios of 0 (no compression) or at least 2"),
    "a block pattern that does not add up": (config_with(hybrid_override_pattern="M-*"), "hybrid_override_pattern",
                                             "32 blocks (num_hidden_layers), each M (Mamba-2), * (attention)"),
    "a block pattern without attention": (config_with(hybrid_override_pattern="M-" * 16), "hybrid_override_pattern",
                                          "at least one attention block (*)"),
    "a layer kind no model has": (config_with(layer_types=["full_attention"] * 31 + ["teleport"]), "layer_types",
                                  "layer kinds among full_attention, sliding_attention, linear_attention, conv"),
    "attention layers past the last": (config_with(full_attn_idxs=[2, 40]), "full_attn_idxs",
                                       "distinct layer numbers from 0 to 31"),
    "a window pattern that does not add up": (config_with(hybrid_layer_pattern=[0, 1] * 8, sliding_window=128),
                                              "hybrid_layer_pattern", "a list of 32 flags, 0 or 1"),
    "a layer both delta and latent attention": (
        config_with(kv_lora_rank=512, qk_rope_head_dim=64, linear_attn_config={
            "kda_layers": list(range(1, 17)), "full_attn_layers": list(range(16, 33))}),
        "linear_attn_config.kda_layers", "with full_attn_layers, each of the 32 layers once"),
}


@pytest.mark.parametrize("text, field, expected", BAD_CONFIGS.values(), ids=BAD_CONFIGS.keys())
def test_a_bad_config_is_refused_with_one_line_and_nothing_written(tmp_path, text, field, expected, add):
    config = tmp_path / "config.json"
    config.write_text(text)
    models = tmp_path / "models"
    models.mkdir()
    code, out, err = add(models, config, "--id", "bad-model")
    assert code == 2 and out == "" and err.count("\n") == 1, err
    assert err.startswith(f"tps-atlas: {config}: {field}") and f"expected {expected}" in err, err
    assert list(models.iterdir()) == []


def test_the_model_card_gives_the_licence_and_its_parameter_figure_is_checked(tmp_path, add):
    card = tmp_path / "README.md"
    card.write_text("---\nlicense: llama3.1\npipeline_tag: text-generation\n---\n# Llama\n\n"
                    "Number of Parameters: 9.5B\n")
    code, _, err = add(tmp_path, CONFIGS / "llama-3.1-8b.json", "--id", "llama-card", "--card", str(card))
    assert code == 0, err
    text = (tmp_path / "llama-card.yaml").read_text()
    assert 'license: "llama3.1"' in text and "license" not in text.splitlines()[-1]
    assert "# Note: the model card gives 9.5B parameters; counted from the config: 8.03B." in text
    card.write_text("---\nlicense: [unclosed\n---\ntext\n")
    code, out, err = add(tmp_path, CONFIGS / "llama-3.1-8b.json", "--id", "llama-card2", "--card", str(card))
    assert code == 2 and err == f"tps-atlas: {card}: (front matter): expected valid YAML between the --- lines\n"
    assert not (tmp_path / "llama-card2.yaml").exists()


def test_a_compressed_attention_draft_keeps_the_cache_llama_cpp_keeps(tmp_path, add, settings):
    """DeepSeek V4 Flash at its full million tokens: every layer's 128-token window, and one entry per
    4 (with the indexer's key) or per 128 tokens on the compressed layers, a key that is also the
    value: 7.2 GB at F16, where keys and values of every token on every layer would be 92 GB."""
    from tps_atlas.estimate.memory import memory_needed
    add(tmp_path, CONFIGS / "deepseek-v4-flash.json", "--id", "deepseek-v4-flash", "--name", "Drafted V4")
    text = (tmp_path / "deepseek-v4-flash.yaml").read_text()
    assert "  compressed_layers:\n    - {layers: 21, ratio: 4, indexer_head_dim: 128}\n" \
           "    - {layers: 20, ratio: 128}\n" in text
    model, quant, context = read_model(tmp_path / "deepseek-v4-flash.yaml"), settings.quant("Q4_K_M"), 1_048_576
    by_hand = (43 * 128 * 512 + 21 * (context // 4) * (512 + 128) + 20 * (context // 128) * 512) * 2 / 1e9
    assert memory_needed(model, quant, context, settings, "f16").kv_gb == pytest.approx(by_hand)
    assert 7.1 < by_hand < 7.3
    assert memory_needed(model, quant, context, settings, "q8_0").kv_gb < by_hand * 0.6
