"""The memory budget of the measured calibration: what a run really needs, what a device really gives.

The seed calibration keeps the seed's rule (a quant fits when need <= ``fit.fits`` x VRAM). A
calibration with ``fit: budget`` (data/estimator.yaml) uses this instead:

- **Need** = weights + KV cache of the recorded attention layout + llama.cpp's compute buffer + the
  vision projector. The compute buffer is ``buffer.base_gb`` at the default context (llama.cpp's
  default micro-batch of 512 tokens) and grows by ``buffer.per_1k_tokens_gb`` for every thousand
  tokens of context above it: the attention scratch and the mask are sized for the whole context.
  It also holds the logits of a whole micro-batch (llama.cpp reserves the graph for every token of
  it as an output): F32 per token of the vocabulary, so a vocabulary larger than
  ``buffer.reference_vocab`` (the one the base figure holds) adds its extra tokens' share.
- **Budget** of a discrete card = VRAM (sold in binary gigabytes: a "24 GB" card holds 24 GiB)
  less what the driver keeps (``driver_reserve_gb``) and, on a card that drives a display, what the
  desktop keeps (``display_reserve_gb``). Laptop GPUs (the display hangs off the integrated GPU)
  and data-centre boards keep no display.
- **Budget** of a unified-memory machine = the share its GPU may use on the machine's default OS
  (``usable_share`` in data/devices.yaml) of its memory, less the display's share: its GPU drives the
  screen, and macOS counts the window server's GPU memory within that limit (a Mac mini M4 Pro 64 GB
  failed with 0.4 GB to spare by the limit alone: ollama issue 8331). ``raised_limit`` says what the GPU may be
  allowed once the limit is raised (macOS ``iogpu.wired_limit_mb``, Linux amdgpu GTT through
  ``ttm.pages_limit``, Windows' shared-memory setting), so a page can say "yes, with the GPU
  allowed N GB: how" instead of a bare "no".

Pure: no pages, no formatting.
"""

from __future__ import annotations

from dataclasses import dataclass

from tps_atlas.catalogue.limits import MAX_VOCABULARY, MIN_VOCABULARY, RAISE_METHODS
from tps_atlas.catalogue.cards import Card
from tps_atlas.records.fields import FieldReader

# A gibibyte in the decimal gigabytes every need is counted in.
GB_PER_GIB = 1.073741824
# The context every buffer figure is quoted at (data/estimator.yaml's context_tokens).
BUFFER_REFERENCE_TOKENS = 4096
# llama.cpp's default micro-batch (n_ubatch), the batch its compute buffer is reserved for.
UBATCH_TOKENS = 512
# Attention scores are F32 (4 bytes) when flash attention is off: llama.cpp builds the whole
# n_ubatch x n_ctx x n_head score matrix of one layer (ggml_mul_mat of K and Q, then soft_max).
SCORE_BYTES = 4
# Logits are F32 too: one per vocabulary token for each token of the micro-batch.
LOGIT_BYTES = 4


@dataclass(frozen=True)
class MemoryBudget:
    driver_reserve_gb: float
    display_reserve_gb: float
    no_display_words: tuple[str, ...]          # a card named with one keeps no display (Laptop, Tesla)
    no_display_memory_types: tuple[str, ...]   # nor a card with this memory (HBM: data-centre boards)
    buffer_base_gb: float
    buffer_per_1k_tokens_gb: float
    buffer_reference_vocab: int                # the vocabulary whose logits buffer_base_gb holds
    # Raised limits: what the OS keeps for itself once the GPU's share is raised, per method.
    raise_keeps_gb: dict[str, float]
    raise_os: dict[str, str]                   # the OS a page names for each method


@dataclass(frozen=True)
class RaisedLimit:
    """What a unified machine's GPU may use once its limit is raised, and under which OS."""

    method: str        # macos | linux-amdgpu | windows (catalogue.RAISE_METHODS)
    os: str            # the OS as a page names it: macOS, Linux, Windows
    budget_gb: float   # decimal GB, as every need


def read_budget(r: FieldReader) -> MemoryBudget:
    buffer = r.mapping("buffer")
    keeps = r.mapping("raise_keeps_gb")
    names = r.mapping("raise_os")
    budget = MemoryBudget(
        driver_reserve_gb=r.number("driver_reserve_gb", minimum=0, maximum=16),
        display_reserve_gb=r.number("display_reserve_gb", minimum=0, maximum=16),
        no_display_words=r.texts("no_display_words"),
        no_display_memory_types=r.texts("no_display_memory_types"),
        buffer_base_gb=buffer.number("base_gb", minimum=0, maximum=100),
        buffer_per_1k_tokens_gb=buffer.number("per_1k_tokens_gb", minimum=0, maximum=10),
        buffer_reference_vocab=buffer.integer("reference_vocab", minimum=MIN_VOCABULARY, maximum=MAX_VOCABULARY),
        raise_keeps_gb={m: keeps.number(m, minimum=0, maximum=1000) for m in RAISE_METHODS if m != "windows"},
        raise_os={m: names.text(m) for m in RAISE_METHODS},
    )
    for reader in (buffer, keeps, names, r):
        reader.finish()
    return budget


def compute_buffer_gb(context: int, budget: MemoryBudget, vocab_size: int | None = None) -> float:
    """llama.cpp's compute buffer at ``context`` tokens for a model of ``vocab_size`` tokens (None:
    a layout not recorded, the reference vocabulary's).

    >>> b = MemoryBudget(0.45, 0.5, (), (), 0.5, 0.012, 128256, {}, {})
    >>> compute_buffer_gb(4096, b), round(compute_buffer_gb(65536, b), 3)
    (0.5, 1.237)
    >>> round(compute_buffer_gb(4096, b, 262144), 3), compute_buffer_gb(4096, b, 32000)
    (0.774, 0.5)
    """
    extra = max(0, context - BUFFER_REFERENCE_TOKENS) / 1000
    return budget.buffer_base_gb + budget.buffer_per_1k_tokens_gb * extra + logits_gb(vocab_size, budget)


def logits_gb(vocab_size: int | None, budget: MemoryBudget) -> float:
    """What a vocabulary beyond the reference one adds to the buffer: its extra tokens' logits for a
    whole micro-batch. A smaller vocabulary is not taken off: the base figure is a floor, not fitted
    per model.

    >>> b = MemoryBudget(0.45, 0.5, (), (), 0.5, 0.012, 128256, {}, {})
    >>> round(logits_gb(256000, b), 3), logits_gb(None, b)
    (0.262, 0.0)
    """
    extra_tokens = max(0, (vocab_size or 0) - budget.buffer_reference_vocab)
    return UBATCH_TOKENS * extra_tokens * LOGIT_BYTES / 1e9


def attention_scores_gb(context: int, attention_heads: int) -> float:
    """What a load without flash attention adds to the compute buffer beyond the reference context:
    the score matrix of one layer grows with every token of context for each query head. The
    buffer's base figure covers it up to the reference context; flash attention never builds it (the
    pages assume llama.cpp's default, flash attention on where the backend has it).

    Evidence: a 1B Llama 3.2 (32 heads) at 131,072 tokens without -fa asked for 8,849.72 MiB of
    compute buffer, 512 x 131,072 x 32 x 4 bytes = 8,192 MiB of it the scores; with -fa it ran
    (https://github.com/ggml-org/llama.cpp/issues/10052).

    >>> round(attention_scores_gb(131072, 32), 2), attention_scores_gb(4096, 32)
    (8.32, 0.0)
    """
    extra_tokens = max(0, context - BUFFER_REFERENCE_TOKENS)
    return UBATCH_TOKENS * extra_tokens * attention_heads * SCORE_BYTES / 1e9


def keeps_display(card: Card, budget: MemoryBudget) -> bool:
    """A GPU that may drive the screen keeps part of its memory for it: a desktop card, and a machine
    that shares its memory (its GPU always drives the screen, and on macOS the GPU's limit counts
    every process's GPU memory, the window server's too)."""
    if (card.memory_type or "") in budget.no_display_memory_types:
        return False
    name = _words(card.name)
    return not any(_words(word) in name for word in budget.no_display_words)


def _words(text: str) -> str:
    """Whole words, hyphens as spaces, padded so that "A2" does not match "A2000"."""
    return " " + " ".join(text.casefold().replace("-", " ").split()) + " "


def labelled_memory_gb(card: Card) -> float:
    """The device's memory in decimal GB: its label counts binary gigabytes, as memory is sold.

    >>> round(labelled_memory_gb(Card("c", "GeForce RTX 3090", "NVIDIA", 24, 936.0, None)), 2)
    25.77
    """
    return card.vram_gb * GB_PER_GIB


def device_budget_gb(card: Card, budget: MemoryBudget) -> float:
    """What llama.cpp may allocate on the device, in decimal GB.

    >>> b = MemoryBudget(0.45, 0.5, ("Laptop",), ("HBM3",), 0.5, 0.0, 128256, {}, {})
    >>> round(device_budget_gb(Card("c", "GeForce RTX 3090", "NVIDIA", 24, 936.0, None), b), 2)
    24.82
    >>> round(device_budget_gb(Card("c", "GeForce RTX 4070 Laptop GPU", "NVIDIA", 8, 256.0, None), b), 2)
    8.14
    >>> mac = Card("m", "Apple M4 Pro 64 GB", "Apple", 48, 273.0, None, unified=True)
    >>> round(device_budget_gb(mac, b), 2)
    51.04
    """
    display = budget.display_reserve_gb if keeps_display(card, budget) else 0.0
    memory = labelled_memory_gb(card)
    if card.unified:
        # The share a unified GPU may use is the OS's limit: no driver reserve beside it.
        return memory - display
    return memory - budget.driver_reserve_gb - display


def headless_budget_gb(card: Card, budget: MemoryBudget) -> float:
    """What llama.cpp may allocate on a host that drives no screen (a cloud GPU server): the device's
    budget without the display reserve. Only a measured run or report can say its host is headless;
    the pages assume a desktop.

    >>> b = MemoryBudget(0.45, 0.5, ("Laptop",), ("HBM3",), 0.5, 0.0, 128256, {}, {})
    >>> round(headless_budget_gb(Card("c", "GeForce RTX 3090", "NVIDIA", 24, 936.0, None), b), 2)
    25.32
    """
    return device_budget_gb(card, budget) + (budget.display_reserve_gb if keeps_display(card, budget) else 0.0)


def raised_limit(card: Card, budget: MemoryBudget) -> RaisedLimit | None:
    """The GPU's budget once its share is raised, where the machine allows more than by default."""
    if not card.unified or not card.raise_method or not card.system_memory_gb:
        return None
    method = card.raise_method
    if method == "windows":
        shares = [s.share for s in card.shares if s.os.casefold().startswith("windows")]
        memory = max(shares, default=0.0) * card.system_memory_gb
    else:
        memory = card.system_memory_gb - budget.raise_keeps_gb[method]
    raised = memory * GB_PER_GIB
    if raised <= device_budget_gb(card, budget) + 0.05:
        return None
    return RaisedLimit(method, budget.raise_os[method], raised)


def ram_room_gb(size_gb: float, keeps_gb: float) -> float:
    """System RAM llama.cpp may fill beside the card: the modules (binary GB) less what the OS keeps.

    >>> round(ram_room_gb(64, 4.0), 1)
    64.7
    """
    return size_gb * GB_PER_GIB - keeps_gb
