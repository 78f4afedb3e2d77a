"""What a model needs in memory at a context: weights, KV cache, vision encoder
(the method is in ``tps_atlas.estimate.fit``).
"""

from __future__ import annotations

from dataclasses import dataclass

from tps_atlas.catalogue.models import Architecture, LatentCache, Model
from tps_atlas.catalogue.quants import Quant
from tps_atlas.errors import DataError
from tps_atlas.estimate.settings import Settings


# ---------------------------------------------------------------- memory

def weights_gb(parameters_b: float, quant: Quant) -> float:
    return parameters_b * quant.bits_per_weight / 8


def kv_cache_gb(arch: Architecture, context: int, bytes_per_element: float) -> float:
    """KV cache of a recorded attention layout at ``context`` tokens.

    Grouped-query (and multi-head, multi-query) layers keep a key and a value of
    ``kv_heads x head_dim`` per token; sliding-window layers keep at most their
    window; latent attention keeps one compressed vector per token and layer;
    linear-attention (and SSM) layers keep a fixed state and no per-token cache.

    >>> llama_8b = Architecture(layers=32, attention="gqa", kv_heads=8, head_dim=128)
    >>> round(kv_cache_gb(llama_8b, 4096, 2.0), 3)
    0.537
    """
    if arch.attention == "csa":
        return compressed_cache_gb(arch, context, bytes_per_element)
    cache = arch.cache
    if isinstance(cache, LatentCache):
        per_token_layer = (cache.kv_lora_rank + cache.rope_head_dim) * bytes_per_element
        return (arch.layers - (arch.linear_attention_layers or 0)) * context * per_token_layer / 1e9
    per_token_layer = 2 * cache.kv_heads * cache.head_dim * bytes_per_element
    linear_layers = arch.linear_attention_layers or 0
    if not arch.sliding_window:
        window_layers = 0
    elif arch.sliding_window_layers is None:
        window_layers = arch.layers - linear_layers  # every attention layer is windowed
    else:
        window_layers = arch.sliding_window_layers
    full_layers = arch.layers - window_layers - linear_layers
    window_tokens = min(context, arch.sliding_window or context)
    return per_token_layer * (full_layers * context + window_layers * window_tokens) / 1e9


def compressed_cache_gb(arch: Architecture, context: int, bytes_per_element: float) -> float:
    """Compressed attention (DeepSeek V4), as llama.cpp keeps it: one vector per token that is both
    key and value (so no second copy for the value), for the last ``sliding_window`` tokens on every
    layer; and on the compressed layers one such vector per ``ratio`` tokens of the whole context,
    with the indexer's key beside it where the layer has one. DeepSeek V4 Flash at its full
    1,048,576 tokens, F16:

    >>> from tps_atlas.catalogue.models import Compression
    >>> flash = Architecture(layers=43, attention="csa", kv_heads=1, head_dim=512, sliding_window=128,
    ...     compressed_layers=(Compression(21, 4, 128), Compression(20, 128)))
    >>> round(compressed_cache_gb(flash, 1048576, 2.0), 2), round(compressed_cache_gb(flash, 4096, 2.0), 3)
    (7.22, 0.034)
    """
    vector = (arch.kv_heads or 1) * (arch.head_dim or 0)
    attending = arch.layers - (arch.linear_attention_layers or 0)
    elements = attending * min(context, arch.sliding_window or context) * vector
    for group in arch.compressed_layers or ():
        entries = -(-context // group.ratio)
        elements += group.layers * entries * (vector + (group.indexer_head_dim or 0))
    return elements * bytes_per_element / 1e9


@dataclass(frozen=True)
class Memory:
    weights_gb: float
    kv_gb: float
    buffer_gb: float
    from_architecture: bool
    vision_gb: float = 0.0  # vision encoder, F16
    vocab_size: int | None = None  # the model's, which the budget's compute buffer grows with

    @property
    def total_gb(self) -> float:
        return self.weights_gb + self.kv_gb + self.buffer_gb + self.vision_gb


def memory_needed(model: Model, quant: Quant, context: int, settings: Settings,
                  kv_precision: str | None = None) -> Memory:
    precision = kv_precision or settings.default_kv_precision
    if precision not in settings.kv_bytes_per_element:
        raise DataError(settings.file, "memory.kv_bytes_per_element",
                        "one of " + ", ".join(settings.kv_bytes_per_element), precision)
    bytes_per_element = settings.kv_bytes_per_element[precision]
    if model.architecture:
        kv = kv_cache_gb(model.architecture, context, bytes_per_element)
    else:
        scale = bytes_per_element / settings.kv_bytes_per_element[settings.default_kv_precision]
        kv = settings.kv_estimate_gb_per_1k_tokens * context / 1000 * scale
    return Memory(weights_gb(model.parameters_b, quant), kv, settings.compute_buffer_gb,
                  model.architecture is not None, vision_gb(model, settings),
                  model.architecture.vocab_size if model.architecture else None)


def vision_gb(model: Model, settings: Settings) -> float:
    """The vision encoder, loaded apart from the language model at F16 (llama.cpp's mmproj)."""
    return (model.vision_encoder_b or 0.0) * settings.vision_bits_per_weight / 8
