"""The attention layout of a Hugging Face ``config.json``, layer by layer (``tps-atlas catalogue
add-model``, tps_atlas/catalogue/model_draft.py): full, sliding-window and linear-attention layers
(``layer_types``, a window pattern, a full-attention interval, MiMo's hybrid_layer_pattern, LFM2's
short convolutions), latent attention with Kimi's linear_attn_config, DeepSeek V4's compressed
attention (compress_ratios) and Nemotron-H's block pattern (hybrid_override_pattern: Mamba-2,
attention and MLP blocks, each a layer of llama.cpp); and the parameters of the layers that are not
attention (Mamba-2, Kimi Delta Attention, LFM2's convolutions and feed-forward width).
"""

from __future__ import annotations

from dataclasses import replace

from tps_atlas.catalogue.limits import MAX_CONTEXT, MAX_HEAD_DIM, MAX_LAYERS
from tps_atlas.catalogue.models import Architecture, Compression
from tps_atlas.records.fields import FieldReader

MAX_WIDTH = 1_000_000          # hidden and intermediate sizes: today's widest is 18,432


class Config(FieldReader):
    """A config's fields, with the bounds every size of a real model is far inside."""

    def width(self, field: str, required: bool = True) -> int | None:
        return self.integer(field, required=required, minimum=1, maximum=MAX_WIDTH)


def layout(text: Config, layers: int, vocabulary: int, heads: int, kv_heads: int, head_dim: int,
           notes: list[str]) -> Architecture:
    return replace(_layout(text, layers, heads, kv_heads, head_dim, notes), vocab_size=vocabulary)


def _layout(text: Config, layers: int, heads: int, kv_heads: int, head_dim: int, notes: list[str]) -> Architecture:
    blocks = block_pattern(text, layers)
    if blocks is not None:
        kind = "mha" if kv_heads == heads else "mqa" if kv_heads == 1 else "gqa"
        notes.append(f"hybrid_override_pattern: {blocks['mamba']} Mamba-2, {blocks['mlp']} MLP and "
                     f"{blocks['attention']} attention blocks; only the attention blocks keep a KV cache")
        return Architecture(layers=layers, attention=kind, kv_heads=kv_heads, head_dim=head_dim,
                            max_context=max_context(text), linear_attention_layers=layers - blocks["attention"])
    if "compress_ratios" in text.data:
        return _compressed_layout(text, layers, kv_heads, head_dim, notes)
    kv_lora = text.integer("kv_lora_rank", required=False, minimum=1, maximum=MAX_HEAD_DIM)
    if kv_lora is not None:
        rope = text.integer("qk_rope_head_dim", minimum=0, maximum=MAX_HEAD_DIM)
        return Architecture(layers=layers, attention="mla", kv_heads=None, head_dim=None,
                      max_context=max_context(text), kv_lora_rank=kv_lora, rope_head_dim=rope,
                      linear_attention_layers=_kimi_linear_layers(text, layers, notes))
    kind = "mha" if kv_heads == heads else "mqa" if kv_heads == 1 else "gqa"
    window, windowed, linear = _layer_kinds(text, layers, notes)
    return Architecture(layers=layers, attention=kind, kv_heads=kv_heads, head_dim=head_dim,
                  max_context=max_context(text), sliding_window=window,
                  sliding_window_layers=windowed, linear_attention_layers=linear)


def _compressed_layout(text: Config, layers: int, kv_heads: int, head_dim: int, notes: list[str]) -> Architecture:
    """DeepSeek V4: compress_ratios gives each layer's ratio (0: the sliding window alone), one more
    entry for the multi-token-prediction layer; the indexer's keys go with the finest ratio, the
    sparse one (CSA), not the heavy one (HCA)."""
    ratios = text.data.get("compress_ratios")
    if not isinstance(ratios, list) or len(ratios) not in (layers, layers + 1) \
            or not all(isinstance(r, int) and not isinstance(r, bool) and 0 <= r <= MAX_CONTEXT for r in ratios):
        raise text.error("compress_ratios", f"a list of {layers} compression ratios (num_hidden_layers), "
                         "whole numbers of at least 0", ratios)
    window = text.integer("sliding_window", minimum=1, maximum=MAX_CONTEXT)
    counts = {r: ratios[:layers].count(r) for r in sorted(set(ratios[:layers])) if r}
    if any(r == 1 for r in counts):
        raise text.error("compress_ratios", "ratios of 0 (no compression) or at least 2", 1)
    indexer = text.integer("index_head_dim", required=False, minimum=1, maximum=MAX_HEAD_DIM)
    finest = min(counts, default=None)
    groups = tuple(Compression(n, r, indexer if r == finest else None) for r, n in counts.items())
    notes.append(f"compressed attention: every layer keeps a window of {window:,} tokens; "
                 + ", ".join(f"{g.layers} layers one entry per {g.ratio} tokens" for g in groups)
                 + (f", with an indexer key of {indexer} on those of ratio {finest}" if indexer and finest else ""))
    return Architecture(layers=layers, attention="csa", kv_heads=kv_heads, head_dim=head_dim,
                        max_context=max_context(text), sliding_window=window, compressed_layers=groups or None)


def _kimi_linear_layers(text: Config, layers: int, notes: list[str]) -> int | None:
    """Kimi Linear and Kimi K3: linear_attn_config names the Kimi Delta Attention layers (a fixed
    state, no KV cache) beside the latent-attention ones (full_attn_layers)."""
    linear = text.mapping("linear_attn_config", required=False)
    if linear is None:
        return None
    kinds = {}
    for field in ("kda_layers", "full_attn_layers"):
        value = linear.data.get(field)
        linear.seen.add(field)
        if not isinstance(value, list) or not all(isinstance(i, int) and 1 <= i <= layers for i in value) \
                or len(set(value)) != len(value):
            raise linear.error(field, f"a list of distinct layer numbers from 1 to {layers}", value)
        kinds[field] = set(value)
    kda, full = kinds["kda_layers"], kinds["full_attn_layers"]
    if kda & full or len(kda | full) != layers:
        raise linear.error("kda_layers", f"with full_attn_layers, each of the {layers} layers once (num_hidden_layers)")
    notes.append(f"{len(kinds['kda_layers'])} Kimi Delta Attention layers keep a fixed state and no KV cache; "
                 f"{len(kinds['full_attn_layers'])} keep a latent-attention cache")
    return len(kinds["kda_layers"]) or None


def max_context(text: Config) -> int | None:
    return text.integer("max_position_embeddings", required=False, minimum=1, maximum=MAX_CONTEXT)


def _layer_kinds(text: Config, layers: int, notes: list[str]) -> tuple[int | None, int | None, int | None]:
    """Sliding-window size, windowed layers and linear-attention layers."""
    kinds = text.data.get("layer_types")
    text.seen.add("layer_types")
    if kinds is not None:
        if not isinstance(kinds, list) or len(kinds) != layers or not all(isinstance(k, str) for k in kinds):
            raise text.error("layer_types", f"a list of {layers} layer kinds (num_hidden_layers)", kinds)
        unknown = sorted(set(kinds) - set(LAYER_KINDS))
        if unknown:
            raise text.error("layer_types", "layer kinds among " + ", ".join(LAYER_KINDS), unknown[0])
        windowed = sum(k == "sliding_attention" for k in kinds)
        linear = sum(LAYER_KINDS[k] == "cacheless" for k in kinds)
    elif "hybrid_layer_pattern" in text.data:    # MiMo: 1 marks a sliding-window layer, 0 a global one
        windowed, linear = sum(layer_flags(text, "hybrid_layer_pattern", layers)), 0
    elif "full_attn_idxs" in text.data:          # LFM2's first configs: the attention layers by number
        attention = text.data["full_attn_idxs"]
        text.seen.add("full_attn_idxs")
        if not isinstance(attention, list) or not attention or len(set(attention)) != len(attention) \
                or not all(isinstance(i, int) and not isinstance(i, bool) and 0 <= i < layers for i in attention):
            raise text.error("full_attn_idxs", f"distinct layer numbers from 0 to {layers - 1}", attention)
        windowed, linear = 0, layers - len(attention)
    else:
        windowed = linear = 0
        pattern = text.integer("sliding_window_pattern", required=False, minimum=1, maximum=MAX_LAYERS)
        interval = text.integer("full_attention_interval", required=False, minimum=1, maximum=MAX_LAYERS)
        if pattern is not None:
            windowed = layers - layers // pattern    # every pattern-th layer is global
        elif interval is not None:
            linear = layers - layers // interval     # every interval-th layer keeps a KV cache
    window = text.integer("sliding_window", required=False, minimum=1, maximum=MAX_CONTEXT)
    if text.boolean("use_sliding_window", required=False) is False:
        window = None if not windowed else window
    elif window is not None and not windowed and kinds is None:
        windowed = layers                            # Mistral: every layer windowed
    if windowed and window is None:
        raise text.error("sliding_window", "the window size of the sliding-window layers")
    if window is not None and not windowed:
        notes.append(f"sliding_window {window:,} is given but no layer uses it")
        window = None
    return window, windowed or None, linear or None


# The layer_types a config may give: those with a per-token cache, and those without (linear
# attention, LFM2's short convolutions, Mamba), which llama.cpp gives a fixed state.
LAYER_KINDS = {"full_attention": "cache", "sliding_attention": "window", "linear_attention": "cacheless",
               "conv": "cacheless", "mamba": "cacheless"}


def layer_flags(text: Config, field: str, layers: int) -> list[int]:
    """A list of one 0 or 1 per layer (MiMo's hybrid_layer_pattern and moe_layer_freq)."""
    flags = text.data.get(field)
    text.seen.add(field)
    if not isinstance(flags, list) or len(flags) != layers or not all(f in (0, 1) and not isinstance(f, bool)
                                                                       for f in flags):
        raise text.error(field, f"a list of {layers} flags, 0 or 1 (num_hidden_layers)", flags)
    return flags


def lfm2_ff_width(text: Config) -> int | None:
    """LFM2's feed-forward width: block_ff_dim (or intermediate_size) cut to 2/3, scaled by its
    multiplier and rounded up to block_multiple_of when block_auto_adjust_ff_dim is set, as the
    model builds it (LFM2-1.2B: 12,288 gives 8,192); None for other models."""
    if text.text("model_type", required=False) != "lfm2":
        return None
    width = text.integer("block_ff_dim", required=False, minimum=1, maximum=MAX_WIDTH) \
        or text.integer("intermediate_size", minimum=1, maximum=MAX_WIDTH)
    if text.boolean("block_auto_adjust_ff_dim", required=False):
        width = int(2 * width / 3)
        multiplier = text.number("block_ffn_dim_multiplier", required=False, above=0, maximum=100)
        if multiplier:
            width = int(multiplier * width)
        step = text.integer("block_multiple_of", required=False, minimum=1, maximum=MAX_WIDTH) or 1
        width = step * -(-width // step)
    return width


def conv_parameters(text: Config, hidden: int) -> int:
    """One LFM2 short-convolution layer: an input projection to three gates' width, the depthwise
    convolution over conv_L_cache tokens and the output projection."""
    kernel = text.integer("conv_L_cache", minimum=1, maximum=64)
    return 3 * hidden * hidden + hidden * kernel + hidden * hidden


# Nemotron-H's blocks: each is a layer of llama.cpp; only the attention blocks keep a KV cache.
BLOCKS = {"M": "mamba", "*": "attention", "-": "mlp"}


def block_pattern(text: Config, layers: int) -> dict[str, int] | None:
    """The blocks of a hybrid_override_pattern by kind (mamba, attention, mlp), or None without one."""
    pattern = text.text("hybrid_override_pattern", required=False)
    if pattern is None:
        return None
    if len(pattern) != layers or set(pattern) - set(BLOCKS):
        raise text.error("hybrid_override_pattern", f"{layers} blocks (num_hidden_layers), each M (Mamba-2), "
                         "* (attention) or - (MLP)", pattern[:40])
    counts = {kind: pattern.count(char) for char, kind in BLOCKS.items()}
    if not counts["attention"]:
        raise text.error("hybrid_override_pattern", "at least one attention block (*)", pattern[:40])
    return counts


def hybrid_block_parameters(text: Config, blocks: dict[str, int], hidden: int, heads: int, kv_heads: int,
                            head_dim: int) -> int:
    """Nemotron-H's Mamba-2, attention and MLP blocks (relu2: two matrices, not gated)."""
    mamba_heads = text.integer("mamba_num_heads", minimum=1, maximum=100_000)
    inner = mamba_heads * text.integer("mamba_head_dim", minimum=1, maximum=MAX_HEAD_DIM)
    groups_state = text.integer("n_groups", minimum=1, maximum=MAX_LAYERS) \
        * text.integer("ssm_state_size", minimum=1, maximum=100_000)
    kernel = text.integer("conv_kernel", required=False, minimum=1, maximum=64) or 4
    mamba = (hidden * (2 * inner + 2 * groups_state + mamba_heads) + (inner + 2 * groups_state) * kernel
             + 3 * mamba_heads + inner + inner * hidden)
    attention = 2 * hidden * heads * head_dim + 2 * hidden * kv_heads * head_dim
    intermediate = text.integer("intermediate_size", minimum=1, maximum=MAX_WIDTH)
    matrices = 2 if text.text("mlp_hidden_act", required=False) in ("relu2", "gelu", "relu") else 3
    return (blocks["mamba"] * mamba + blocks["attention"] * attention
            + blocks["mlp"] * matrices * hidden * intermediate)


def kda_parameters(text: Config, hidden: int) -> int:
    """One Kimi Delta Attention layer: query, key, value, output gate and output of num_heads x head_dim,
    the forget gate (full rank, or through a head_dim rank), the beta gate and the short convolutions."""
    linear = text.mapping("linear_attn_config")
    heads = linear.integer("num_heads", minimum=1, maximum=MAX_LAYERS)
    head_dim = linear.integer("head_dim", minimum=1, maximum=MAX_HEAD_DIM)
    kernel = linear.integer("short_conv_kernel_size", required=False, minimum=1, maximum=64) or 4
    width = heads * head_dim
    full_rank = linear.boolean("use_full_rank_gate", required=False)
    gate = hidden * width if full_rank else hidden * head_dim + head_dim * width
    return 3 * hidden * width + 2 * gate + hidden * heads + width * hidden + 3 * width * kernel
