"""A model record drafted from a Hugging Face ``config.json`` (``tps-atlas catalogue add-model``).

The parameters are counted from the shapes the config gives, layer by layer: the embedding and
the output head, attention (grouped-query, multi-head latent, or linear attention such as Gated
DeltaNet), the feed-forward blocks (dense, or routed and shared experts) and the norms; the
vision encoder on its own. The active parameters are what one token reads: the routed experts it
is sent to, everything else but the input embedding (a lookup of one row), as model cards count
them. What a config cannot say (organisation, country, publication date, licence, training
compute) is left as a gap that ``tps-atlas catalogue check`` reports until it is filled.

>>> draft = draft_model({"model_type": "llama", "hidden_size": 4096, "num_hidden_layers": 32,
...     "num_attention_heads": 32, "num_key_value_heads": 8, "intermediate_size": 14336,
...     "vocab_size": 128256, "max_position_embeddings": 131072, "tie_word_embeddings": False},
...     "config.json", "llama-3.1-8b")
>>> round(draft.parameters_b, 2), draft.layout.attention, draft.layout.kv_heads, draft.layout.head_dim
(8.03, 'gqa', 8, 128)
"""

from __future__ import annotations

import datetime as dt
import json
import os
import re
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from tps_atlas.paths import DATA_DIR
from tps_atlas.catalogue.limits import (ID_PATTERN, MAX_EXPERTS, MAX_HEAD_DIM, MAX_HEADS, MAX_LAYERS,
                                        MAX_VOCABULARY, MIN_VOCABULARY, name_key)
from tps_atlas.catalogue.models import Architecture, load_models, read_model
from tps_atlas.errors import DataError
from tps_atlas.catalogue.hf_files import read_card, read_config
from tps_atlas.catalogue.draft_layout import (MAX_WIDTH, Config, block_pattern, conv_parameters,
                                              hybrid_block_parameters, kda_parameters, layer_flags,
                                              layout as draft_layout, lfm2_ff_width)
from tps_atlas.records.vocabulary import GAP_FIELDS

# A model card's figure further than this from the count is worth a look before the draft is used.
CARD_TOLERANCE = 0.05


@dataclass(frozen=True)
class Draft:
    id: str
    name: str
    parameters_b: float
    active_parameters_b: float | None
    experts_total: int | None
    experts_active: int | None
    vision_encoder_b: float | None
    native_format: str | None
    layout: Architecture   # as the record's architecture: mapping
    huggingface: str | None
    license: str | None
    notes: tuple[str, ...]             # what the drafter assumed or noticed, written as comments
    gaps: tuple[str, ...]


def draft_model(config: dict, file: str | Path, model_id: str, card: dict | None = None,
                card_text: str = "", name: str | None = None) -> Draft:
    """The draft record of one config (``card``: the model card's front matter and text; ``name``:
    the model's name, else one made from the id, left as a gap)."""
    if not ID_PATTERN.match(model_id):
        raise DataError("command line", "--id", "lower-case letters, digits, '-' and '.'", model_id)
    root = Config(file, config)
    text = root.mapping("text_config", required=False) or root
    text = Config(file, text.data, text.prefix)
    notes: list[str] = []
    hidden = text.width("hidden_size")
    assert hidden is not None
    layers = text.integer("num_hidden_layers", minimum=1, maximum=MAX_LAYERS)
    vocabulary = text.integer("vocab_size", minimum=MIN_VOCABULARY, maximum=MAX_VOCABULARY)
    heads = text.integer("num_attention_heads", minimum=1, maximum=MAX_HEADS)
    kv_heads = text.integer("num_key_value_heads", required=False, minimum=1, maximum=MAX_HEADS) or heads
    if heads % kv_heads:
        raise text.error("num_key_value_heads", f"a divisor of num_attention_heads ({heads})", kv_heads)
    head_dim = text.integer("head_dim", required=False, minimum=1, maximum=MAX_HEAD_DIM) \
        or text.integer("attention_head_dim", required=False, minimum=1, maximum=MAX_HEAD_DIM)
    if head_dim is None and "kv_lora_rank" in text.data:  # latent attention: heads have their own sizes
        head_dim = 0
    elif head_dim is None:
        if hidden % heads:
            raise text.error("num_attention_heads", f"a divisor of hidden_size ({hidden:,}) when head_dim "
                             "is not given", heads)
        head_dim = hidden // heads
    layout = draft_layout(text, layers, vocabulary, heads, kv_heads, head_dim, notes)
    blocks = block_pattern(text, layers)
    if blocks is not None:         # Nemotron-H: the pattern's blocks hold attention, Mamba-2 and MLP
        attention, mlp = hybrid_block_parameters(text, blocks, hidden, heads, kv_heads, head_dim), _FeedForward(
            0, 0, None, None)
    else:
        attention = _attention_parameters(text, layout, hidden, heads, kv_heads, head_dim)
        mlp = _feed_forward(text, layers, hidden, notes)
    tied = text.boolean("tie_word_embeddings", required=False)
    if tied is None:
        tied = root.boolean("tie_word_embeddings", required=False)
    if tied is None:
        tied = True  # transformers' default
        notes.append("tie_word_embeddings is not given: the output head is counted as the embedding, "
                     "transformers' default")
    embedding = vocabulary * hidden
    norms = (2 * layers + 1) * hidden
    total = embedding * (1 if tied else 2) + attention + mlp.total + norms
    active = None
    if mlp.experts is not None:
        active = total - mlp.inactive - (0 if tied else embedding)
    for field in ("num_nextn_predict_layers", "mtp_num_hidden_layers"):
        if text.integer(field, required=False, minimum=0, maximum=MAX_LAYERS):
            notes.append(f"the multi-token prediction layers ({field}) are not counted: llama.cpp does not run them")
    vision = _vision_parameters(root, notes)
    parameters_b = total / 1e9
    _check_card_figure(card_text, parameters_b, notes)
    license_id = (card or {}).get("license") if isinstance((card or {}).get("license"), str) else None
    return Draft(
        id=model_id, name=name or _name(model_id), parameters_b=parameters_b,
        active_parameters_b=None if active is None else active / 1e9,
        experts_total=mlp.experts, experts_active=mlp.experts_active,
        vision_encoder_b=vision / 1e9 if isinstance(vision, int) else None,
        native_format=_native_format(root, text, notes), layout=layout,
        huggingface=_repository(root), license=license_id, notes=tuple(notes),
        gaps=tuple(f for f in GAP_FIELDS if not (f == "license" and license_id or f == "name" and name
                                                 or f == "vision_encoder_b" and vision != "unknown")),
    )


def _attention_parameters(text: Config, layout: Architecture, hidden: int, heads: int, kv_heads: int,
                          head_dim: int) -> int:
    if layout.attention == "csa":
        # Low-rank queries, one key-value head, and the output projected in o_groups groups through
        # o_lora_rank; the compressors, the indexer and the hyper-connections (under 1%) are not counted.
        rank = text.integer("q_lora_rank", minimum=1, maximum=MAX_WIDTH)
        o_rank = text.integer("o_lora_rank", minimum=1, maximum=MAX_WIDTH)
        groups = text.integer("o_groups", minimum=1, maximum=MAX_HEADS)
        if heads % groups:
            raise text.error("o_groups", f"a divisor of num_attention_heads ({heads})", groups)
        per_layer = (hidden * rank + rank * heads * head_dim + hidden * kv_heads * head_dim
                     + heads * head_dim * o_rank + groups * o_rank * hidden)
        return per_layer * layout.layers
    if layout.attention == "mla":
        nope = text.integer("qk_nope_head_dim", minimum=1, maximum=MAX_HEAD_DIM)
        rope = layout.rope_head_dim or 0
        value = text.integer("v_head_dim", minimum=1, maximum=MAX_HEAD_DIM)
        q_rank = text.integer("q_lora_rank", required=False, minimum=1, maximum=MAX_WIDTH)
        kv_rank = layout.kv_lora_rank or 0
        query = hidden * q_rank + q_rank * heads * (nope + rope) if q_rank else hidden * heads * (nope + rope)
        per_layer = query + hidden * (kv_rank + rope) + kv_rank * heads * (nope + value) + heads * value * hidden
        if text.boolean("mla_use_output_gate", required=False):   # Kimi K3: a gate of the heads' output
            per_layer += hidden * heads * value
        linear = layout.linear_attention_layers or 0
        return per_layer * (layout.layers - linear) + (kda_parameters(text, hidden) * linear if linear else 0)
    # A gated attention output (Qwen3-Next, Qwen3.5 and later: attn_output_gate) doubles the query
    # projection: it also gives the gate.
    gate = 2 if text.boolean("attn_output_gate", required=False) else 1
    # MiMo: values narrower than keys (v_head_dim), and its sliding-window layers with KV heads of their own.
    value_dim = text.integer("v_head_dim", required=False, minimum=1, maximum=MAX_HEAD_DIM) or head_dim
    windowed = layout.sliding_window_layers or 0
    window_kv = text.integer("swa_num_key_value_heads", required=False, minimum=1, maximum=MAX_HEADS) or kv_heads

    def layer(kv: int) -> int:
        return heads * head_dim * hidden * gate + heads * value_dim * hidden + hidden * kv * (head_dim + value_dim)
    full = layer(kv_heads)
    linear_layers = layout.linear_attention_layers or 0
    linear = 0
    if linear_layers and "conv_L_cache" in text.data:    # LFM2: the cache-less layers are convolutions
        linear = conv_parameters(text, hidden)
    elif linear_layers:
        key_heads = text.integer("linear_num_key_heads", minimum=1, maximum=MAX_HEADS)
        value_heads = text.integer("linear_num_value_heads", minimum=1, maximum=MAX_HEADS)
        key_dim = text.integer("linear_key_head_dim", minimum=1, maximum=MAX_HEAD_DIM)
        value_dim = text.integer("linear_value_head_dim", minimum=1, maximum=MAX_HEAD_DIM)
        kernel = text.integer("linear_conv_kernel_dim", required=False, minimum=1, maximum=64) or 4
        keys, values = key_heads * key_dim, value_heads * value_dim
        linear = (hidden * (2 * keys + 2 * values) + hidden * 2 * value_heads
                  + (2 * keys + values) * kernel + values * hidden)
    return full * (layout.layers - linear_layers - windowed) + layer(window_kv) * windowed + linear * linear_layers


@dataclass(frozen=True)
class _FeedForward:
    total: int
    inactive: int                # routed experts a token is not sent to, over all layers
    experts: int | None
    experts_active: int | None


def _feed_forward(text: Config, layers: int, hidden: int, notes: list[str]) -> _FeedForward:
    experts = next((v for v in (text.integer(k, required=False, minimum=1, maximum=MAX_EXPERTS)
                                for k in ("n_routed_experts", "num_experts", "num_local_experts")) if v), None)
    intermediate = lfm2_ff_width(text) or text.width("intermediate_size", required=experts is None)
    if experts is None:
        assert intermediate is not None
        return _FeedForward(3 * hidden * intermediate * layers, 0, None, None)
    # Configs name it three ways (transformers, gpt-oss, Kimi).
    key = next((k for k in ("num_experts_per_tok", "experts_per_token", "num_experts_per_token") if k in text.data),
               "num_experts_per_tok")
    active = text.integer(key, minimum=1, maximum=MAX_EXPERTS)
    if active > experts:
        raise text.error(key, f"at most the number of experts ({experts})", active)
    expert_width = text.width("moe_intermediate_size", required=intermediate is None) or intermediate
    assert expert_width is not None
    # Kimi K3's latent experts work on a narrower width, projected down and up once per layer.
    latent = text.width("routed_expert_hidden_size", required=False)
    expert = 3 * (latent or hidden) * expert_width
    shared_count = next((v for v in (text.integer(k, required=False, minimum=0, maximum=MAX_EXPERTS)
                                     for k in ("n_shared_experts", "num_shared_experts")) if v), 0)
    shared = shared_count * 3 * hidden * expert_width
    shared += 3 * hidden * (text.width("shared_expert_intermediate_size", required=False) or 0)
    # DeepSeek names the leading dense layers first_k_dense_replace, LFM2-MoE num_dense_layers.
    dense_key = "num_dense_layers" if "num_dense_layers" in text.data else "first_k_dense_replace"
    dense_layers = text.integer(dense_key, required=False, minimum=0, maximum=layers) or 0
    only_dense = text.data.get("mlp_only_layers") or []
    text.seen.add("mlp_only_layers")
    if not isinstance(only_dense, list) or not all(isinstance(i, int) and 0 <= i < layers for i in only_dense):
        raise text.error("mlp_only_layers", f"a list of layer numbers below {layers}", only_dense)
    dense_layers = max(dense_layers, len(set(only_dense)))
    if "moe_layer_freq" in text.data and isinstance(text.data["moe_layer_freq"], list):   # MiMo: 0 marks a dense layer
        dense_layers = max(dense_layers, layers - sum(layer_flags(text, "moe_layer_freq", layers)))
    if dense_layers and intermediate is None:
        raise text.error("intermediate_size", "the width of the dense layers (first_k_dense_replace)")
    moe_layers = layers - dense_layers
    router = hidden * experts + (2 * hidden * latent if latent else 0)
    total = moe_layers * (experts * expert + shared + router) + dense_layers * 3 * hidden * (intermediate or 0)
    if dense_layers:
        notes.append(f"the first {dense_layers} layers are dense (width {intermediate:,}), the other "
                     f"{moe_layers} mixtures of {experts} experts")
    return _FeedForward(total, moe_layers * (experts - active) * expert, experts, active)


def _vision_parameters(root: Config, notes: list[str]) -> int | None | Literal["unknown"]:
    """The vision encoder's parameters; "unknown" where its config names its sizes in a way this
    drafter does not read (Kimi's vt_ fields): then vision_encoder_b is left as a gap."""
    vision = root.mapping("vision_config", required=False)
    if vision is None:
        return None
    vision = Config(vision.file, vision.data, vision.prefix)
    if "hidden_size" not in vision.data or "intermediate_size" not in vision.data:
        notes.append("vision_config does not give hidden_size and intermediate_size: the vision encoder's size "
                     "is a gap to fill from the model card")
        return "unknown"
    width = vision.width("hidden_size")
    assert width is not None
    depth = vision.integer("depth", required=False, minimum=1, maximum=MAX_LAYERS) \
        or vision.integer("num_hidden_layers", minimum=1, maximum=MAX_LAYERS)
    inner = vision.width("intermediate_size")
    assert inner is not None
    gated = vision.text("hidden_act", required=False) == "silu"     # SwiGLU blocks have three matrices
    block = 4 * width * width + (3 if gated else 2) * width * inner
    patch = vision.integer("patch_size", required=False, minimum=1, maximum=1024) or 14
    frames = vision.integer("temporal_patch_size", required=False, minimum=1, maximum=64) or 1
    embed = 3 * patch * patch * frames * width
    out = vision.width("out_hidden_size", required=False)
    merge = vision.integer("spatial_merge_size", required=False, minimum=1, maximum=64) or 1
    projector = 0
    if out:                                   # a patch merger: merge x merge patches into one token
        merged = width * merge * merge
        projector = merged * merged + merged * out
    notes.append("the vision encoder is counted from vision_config's blocks and patch embedding; "
                 "the projector only where the config gives its width")
    return depth * block + embed + projector


def _native_format(root: Config, text: Config, notes: list[str]) -> str | None:
    """MXFP4 where the weights ship in it: gpt-oss (quant_method mxfp4), or Kimi K3's experts in
    compressed-tensors' mxfp4-pack-quantized format (its text_config holds the quantization)."""
    quantization = root.mapping("quantization_config", required=False) \
        or text.mapping("quantization_config", required=False)
    if quantization is None:
        return None
    method = quantization.text("quant_method", required=False)
    packing = quantization.data.get("format")
    quantization.seen.add("format")
    if method and method.lower() == "mxfp4" or isinstance(packing, str) and packing.startswith("mxfp4"):
        return "MXFP4"
    notes.append(f"the weights ship quantized ({method}); llama.cpp's quants of them are rated")
    return None


def _repository(root: Config) -> str | None:
    name = root.data.get("_name_or_path")
    root.seen.add("_name_or_path")
    if isinstance(name, str) and re.fullmatch(r"[A-Za-z0-9][\w.-]*/[\w.-]+", name):
        return name
    return None


def _name(model_id: str) -> str:
    return " ".join(part.upper() if len(part) <= 3 and part[-1:] == "b" else part.capitalize()
                    for part in model_id.split("-"))


def _check_card_figure(card_text: str, counted_b: float, notes: list[str]) -> None:
    """The model card's own parameter figure ("Number of Parameters: 8.2B"), beside the count."""
    match = re.search(r"(?:number of )?parameters?[^:\n]{0,40}:\s*([\d.]+)\s*([BM])\b", card_text, re.IGNORECASE)
    if not match:
        return
    figure = float(match.group(1)) / (1000 if match.group(2).upper() == "M" else 1)
    if figure > 0 and abs(counted_b - figure) / figure > CARD_TOLERANCE:
        notes.append(f"the model card gives {figure:g}B parameters; counted from the config: {counted_b:.2f}B")


def render(draft: Draft, source: str, today: dt.date) -> str:
    """The draft as a model file, with what the drafter assumed as comments."""
    lines = [f"# Drafted on {today.isoformat()} by `tps-atlas catalogue add-model` from {source}.",
             "# Check every value against the config and the model card, fill the gaps, then remove",
             "# each from `gaps:` (`tps-atlas catalogue check` lists them until then)."]
    lines += [f"# Note: {note}." for note in draft.notes]
    lines += [f"id: {draft.id}", f"name: {json.dumps(draft.name)}", "weights: open",
              f"parameters_b: {_figure(draft.parameters_b)}"]
    if draft.active_parameters_b is not None:
        lines.append(f"active_parameters_b: {_figure(draft.active_parameters_b)}")
    if draft.experts_total is not None:
        lines += [f"experts_total: {draft.experts_total}", f"experts_active: {draft.experts_active}"]
    if draft.vision_encoder_b is not None:
        lines.append(f"vision_encoder_b: {_figure(draft.vision_encoder_b)}")
    if draft.native_format:
        lines.append(f"native_format: {draft.native_format}")
    lines.append("architecture:")
    for field in ("layers", "vocab_size", "attention", "kv_heads", "head_dim", "sliding_window",
                  "sliding_window_layers", "linear_attention_layers", "kv_lora_rank", "rope_head_dim", "max_context"):
        value = getattr(draft.layout, field)
        if value is not None:
            lines.append(f"  {field}: {value}")
    if draft.layout.compressed_layers:
        lines.append("  compressed_layers:")
        for group in draft.layout.compressed_layers:
            lines.append(f"    - {{layers: {group.layers}, ratio: {group.ratio}"
                         + (f", indexer_head_dim: {group.indexer_head_dim}" if group.indexer_head_dim else "") + "}")
    if draft.huggingface:
        lines += [f"huggingface: {draft.huggingface}", "sources:",
                  f"  - title: {json.dumps(draft.huggingface.split('/')[1] + ' config.json')}",
                  f"    url: https://huggingface.co/{draft.huggingface}/blob/main/config.json"]
    if draft.license:
        lines.append(f"license: {json.dumps(draft.license)}")
    lines.append("gaps: [" + ", ".join(draft.gaps) + "]")
    return "\n".join(lines) + "\n"


def _figure(value: float) -> str:
    """Three significant figures, as the catalogue records them (8.03, 671, 0.417)."""
    return f"{float(f'{value:.3g}'):g}"


def write_draft(config_path: Path, card_path: Path | None, model_id: str | None, name: str | None,
                models_dir: Path | None = None, force: bool = False, today: dt.date | None = None) -> Path:
    """Draft ``<models_dir>/<id>.yaml`` from a config; nothing is written unless the record reads
    back as a valid model file whose name no other model has."""
    models_dir = Path(models_dir or DATA_DIR / "models")
    if not models_dir.is_dir():
        raise DataError(models_dir, "(folder)", "a folder of model files")
    config = read_config(config_path)
    card, card_text = read_card(card_path) if card_path else ({}, "")
    model_id = model_id or _id_from(config)
    draft = draft_model(config, config_path, model_id, card, card_text, name)
    target = models_dir / f"{model_id}.yaml"
    if (target.exists() or target.is_symlink()) and not force:
        raise DataError(target, "(file)", "an id not in the catalogue yet (--force replaces the record)",
                        "a record of that id")
    text = render(draft, config_path.name, today or dt.date.today())
    others = [m for m in load_models(models_dir) if m.id != model_id] if any(models_dir.glob("*.yaml")) else []
    with tempfile.TemporaryDirectory(dir=models_dir, prefix=".draft-") as folder:
        staged = Path(folder) / target.name
        staged.write_text(text, encoding="utf-8")
        model = read_model(staged)
        clash = next((m for m in others if name_key(m.name) == name_key(model.name)), None)
        if clash is not None:
            raise DataError("command line", "--name", f"a name no other model has (also in {clash.file})",
                            model.name)
        os.replace(staged, target)
    return target


def _id_from(config: dict) -> str:
    repository = config.get("_name_or_path")
    if isinstance(repository, str) and "/" in repository:
        candidate = repository.rsplit("/", 1)[1].lower()
        if ID_PATTERN.match(candidate):
            return candidate
    raise DataError("command line", "--id", "the record's id (the config names no repository to take it from)")
