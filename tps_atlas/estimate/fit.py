"""How fast a model runs on a card, and whether it fits: the estimator, one pair at a time.

The method, as on the methodology page:

1. **Memory needed** = weights + KV cache + compute buffer.
   Weights are ``parameters x bits per weight / 8``. The KV cache comes from the
   attention layout when the record has one (``kv_cache_gb``), otherwise from a
   per-token estimate; both grow with the context length.
   A vision-language model adds its vision encoder at F16 (llama.cpp's mmproj file).
2. **Fit**: under the seed calibration a quant fits when ``need <= fits x VRAM`` (0.90); under a
   calibration with ``fit: budget`` (measured) when need, with llama.cpp's compute buffer at the
   context, is within the device's memory budget (``tps_atlas/estimate/budget.py``: VRAM less what the driver
   and a display keep; a unified machine's GPU share per OS). Each card gets the
   least-compressed quant that fits, between the quality ceiling (``max_quality``) and
   the quality floor. A model that ships in one format (``native_format``) gets only that.
3. **Verdict**: comfortable when ``need <= comfortable x VRAM`` (0.75), else tight.
4. **Speed** (one request, decoding): generation reads every weight it uses once per
   token, so ``tok/s = bandwidth / bytes read per token x efficiency``. A
   mixture-of-experts model reads only its active parameters. The range is
   ``low``–``high`` times the estimate.

   Each calibration in ``data/estimator.yaml`` sets the efficiency:

   - ``seed`` (the public calculator's formula): efficiency = quant efficiency x
     vendor factor x architecture factor; no fixed cost.
   - ``measured`` (fitted on measured single-GPU llama.cpp runs,
     ``data/measured/llama-cpp.tsv``; ``benchmarks/accuracy.py --fit`` prints its
     constants, which are pasted into the YAML): every card falls in a hardware
     class (``classes``: vendor, architecture generation, memory type; the first
     that matches), and time per token is a memory-bound part plus the class's
     fixed cost::

         seconds per token = (weights read + kv_read_factor x KV cache at the context)
                             / (bandwidth x class efficiency) + class overhead_ms / 1000
         tok/s = 1 / seconds per token

     The KV cache is read for every new token, so a row at 32,768 tokens is slower
     than at 4,096. ``overhead_ms`` is the per-token cost that does not shrink with
     the model (kernel launches, synchronisation, sampling); it is why small models
     run further below the bandwidth bound than large ones. Bytes read already scale
     with bits per weight, so the quant efficiencies are all 1; a class's
     ``quant_factors`` scale its efficiency for a family of formats whose kernels reach
     another share of the bandwidth (``quant_families``: Metal reads legacy Q4_0/Q8_0 and F16
     faster than K-quants on Apple M2-M4). The constants are for the class's ``backend``; its
     ``backend_factors`` serve only to score measured runs on others. The range is the
     class's (its leave-one-device-out error, wider where the class rests on few
     devices). No constant belongs to one card.

5. **Prompt** (calibrations with classes): compute bound, two FLOP per active
   parameter and token: ``prompt tok/s = peak TFLOPS x class prompt_efficiency /
   (2 x active parameters x (prompt_moe_factor for a mixture of experts) +
   prompt_kv_flop_per_byte x the KV cache at half the context)`` (``prompt_flop_per_byte x
   bandwidth`` for machines without a TFLOPS figure); time to first token = context /
   prompt tok/s, so a prompt twice as long waits more than twice as long.

   Optional keys (``memory_type_factors``, ``overhead_ms``, ``classes``,
   ``kv_read_factor``) default to none and 0, which leaves a calibration on the plain
   formula.

Nothing here formats or knows about pages: it returns records.

>>> from tps_atlas.estimate.memory import weights_gb
>>> from tps_atlas.estimate.settings import load_settings
>>> settings = load_settings()
>>> settings.quant("Q4_K_M").bits_per_weight
4.84
>>> round(weights_gb(130, settings.quant("Q4_K_M")), 2)
78.65
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import ClassVar, Iterable, Literal

from tps_atlas.estimate.budget import (RaisedLimit, compute_buffer_gb, device_budget_gb, labelled_memory_gb,
                                     raised_limit)
from tps_atlas.catalogue.cards import Card
from tps_atlas.catalogue.models import Model
from tps_atlas.catalogue.quants import Quant
from tps_atlas.estimate.calibration import Calibration
from tps_atlas.estimate.memory import Memory, memory_needed
from tps_atlas.estimate.settings import Settings
from tps_atlas.estimate.speed import prompt_tokens_per_second, tokens_per_second


FIT_LABELS = ("comfortable", "tight", "none")
# Whether a quant fits a card: comfortably, tightly, or not at all.
Verdict = Literal["comfortable", "tight", "none"]
# How a card runs a model: the whole of it on the card (comfortable or tight), or part of it in
# system RAM (offload).
FitKind = Literal["comfortable", "tight", "offload"]


# ---------------------------------------------------------------- one pair

@dataclass(frozen=True)
class Fit:
    """A card that runs the model: the quant it gets, what that needs, and how fast it goes."""

    card: Card
    quant: Quant
    memory: Memory
    tok_s: float
    tok_s_low: float
    tok_s_high: float
    fit: FitKind
    prompt_tok_s: float | None   # None with a calibration without hardware classes
    ttft_s: float | None         # time to first token: a prompt filling the context
    fits: ClassVar[Literal[True]] = True

    @property
    def need_gb(self) -> float:
        return self.memory.total_gb


@dataclass(frozen=True)
class Miss:
    """A card that cannot run the model: no quant, no speed. What it would need is known only
    when one quant was in question (``memory``)."""

    card: Card
    memory: Memory | None = None
    # A unified machine whose GPU would hold it once its memory limit is raised: how, and at which quant.
    raised: RaisedFit | None = None
    fit: ClassVar[Literal["none"]] = "none"
    fits: ClassVar[Literal[False]] = False
    # A row's cells that stay empty for a card that cannot run it.
    quant: ClassVar[None] = None
    tok_s: ClassVar[None] = None
    tok_s_low: ClassVar[None] = None
    tok_s_high: ClassVar[None] = None
    prompt_tok_s: ClassVar[None] = None
    ttft_s: ClassVar[None] = None

    @property
    def need_gb(self) -> float | None:
        return self.memory.total_gb if self.memory else None


# One card's answer: ``e.fits`` (or ``e.fit != "none"``) tells a Fit from a Miss.
Estimate = Fit | Miss


@dataclass(frozen=True)
class RaisedFit:
    """A model a unified machine runs only with its GPU's memory limit raised."""

    limit: RaisedLimit
    quant: Quant
    need_gb: float


def uses_budget(settings: Settings, calibration: Calibration | None) -> bool:
    return calibration is not None and calibration.fit_rule == "budget" and settings.budget is not None


def usable_gb(card: Card, settings: Settings, calibration: Calibration | None = None) -> float:
    """What a model may fill on the device: ``fits`` x VRAM (the seed's rule), or the device's
    memory budget (tps_atlas/estimate/budget.py) under a calibration with ``fit: budget``."""
    if uses_budget(settings, calibration):
        assert settings.budget is not None
        return device_budget_gb(card, settings.budget)
    return settings.fits * card.vram_gb


def memory_gb(card: Card, settings: Settings, calibration: Calibration | None = None) -> float:
    """The device's memory in the decimal GB needs are counted in: the budget reads its label as the
    binary gigabytes it is sold in; the seed's rule reads it as it is written."""
    return labelled_memory_gb(card) if uses_budget(settings, calibration) else card.vram_gb


def calibrated_memory(memory: Memory, context: int, settings: Settings,
                      calibration: Calibration | None = None) -> Memory:
    """The memory a run needs under ``calibration``: with the budget rule, llama.cpp's compute
    buffer at this context and for the model's vocabulary in place of the flat buffer."""
    if not uses_budget(settings, calibration):
        return memory
    assert settings.budget is not None
    return replace(memory, buffer_gb=compute_buffer_gb(context, settings.budget, memory.vocab_size))


def verdict(need_gb: float, vram_gb: float, settings: Settings, usable: float | None = None) -> Verdict:
    """Comfortable, tight or none: ``usable`` is what the device gives (``usable_gb``; by default
    the seed's ``fits`` x VRAM). Comfortable leaves a quarter of the VRAM for a longer context."""
    if need_gb > (settings.fits * vram_gb if usable is None else usable):
        return "none"
    return "comfortable" if need_gb <= settings.comfortable * vram_gb else "tight"


def raised_fit(card: Card, settings: Settings, calibration: Calibration | None,
               candidates: Iterable[tuple[Quant, Memory]], context: int) -> RaisedFit | None:
    """The best quant a unified machine holds once its GPU limit is raised (budget rule only)."""
    if not uses_budget(settings, calibration) or not card.unified:
        return None
    assert settings.budget is not None
    limit = raised_limit(card, settings.budget)
    if limit is None:
        return None
    for quant, memory in candidates:
        need = calibrated_memory(memory, context, settings, calibration).total_gb
        if need <= limit.budget_gb:
            return RaisedFit(limit, quant, need)
    return None


def candidate_memories(model: Model, settings: Settings, context: int | None = None,
                       floor: str | None = None, quant: str | None = None,
                       kv_precision: str | None = None,
                       ceiling: str | None = None) -> tuple[tuple[Quant, Memory], ...]:
    """The quants a card may get, best first, with the memory each needs.

    The same for every card, so a page computes them once. A model that ships in one
    format is offered only in it, whatever the floor, ceiling or quant asked for.
    """
    context = context or settings.context_tokens
    if model.native_format or not quant:
        quants = settings.model_quants(model, floor, ceiling)
    else:
        quants = (settings.quant(quant),)
    return tuple((q, memory_needed(model, q, context, settings, kv_precision)) for q in quants)


def estimate(model: Model, card: Card, settings: Settings, calibration: Calibration,
             context: int | None = None, floor: str | None = None,
             quant: str | None = None, kv_precision: str | None = None,
             candidates: tuple[tuple[Quant, Memory], ...] | None = None,
             ceiling: str | None = None) -> Estimate:
    """The estimate for one card: the least-compressed allowed quant that fits.

    With ``quant`` the card is judged at that one quant instead. ``candidates`` must have been
    worked out at ``context`` (the default context when None).
    """
    context = context or settings.context_tokens
    if candidates is None:  # (an empty tuple is an answer: nothing is allowed)
        candidates = candidate_memories(model, settings, context, floor, quant, kv_precision, ceiling)
    usable, total = usable_gb(card, settings, calibration), memory_gb(card, settings, calibration)
    for candidate, memory in candidates:
        memory = calibrated_memory(memory, context, settings, calibration)
        fit = verdict(memory.total_gb, total, settings, usable)
        if fit != "none":
            tok_s = tokens_per_second(model, candidate, card, calibration, memory.kv_gb)
            low, high = calibration.speed_range(card)
            # A prompt that fills the context attends, on average, to half its KV cache.
            prompt = prompt_tokens_per_second(model, card, calibration, memory.kv_gb / 2)
            return Fit(card, candidate, memory, tok_s, tok_s * low, tok_s * high, fit,
                       prompt, context / prompt if prompt else None)
    # Not fitting: the memory it would need is known only when one quant was in question.
    only = calibrated_memory(candidates[0][1], context, settings, calibration) if len(candidates) == 1 else None
    return Miss(card, only, raised_fit(card, settings, calibration, candidates, context))


def speed_order(e: Fit) -> tuple:
    """Fastest first; on equal speed the newest card first, then by name."""
    released = e.card.released.toordinal() if e.card.released else 0
    return (-(round(e.tok_s, 6) if e.tok_s else -1.0), -released, e.card.name.casefold())
