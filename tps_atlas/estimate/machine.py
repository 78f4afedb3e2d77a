"""A machine: one to four GPUs of any mix and the system RAM beside them, and how llama.cpp runs a model on it.

The method (methodology page, "Your machine"; constants in data/estimator.yaml ``machine:``):

1. **Room on each card**: its memory budget (``budget.device_budget_gb``, the display reserve of the
   machine's OS kept on the main GPU only) less its own compute buffer; the main GPU also holds the
   vision encoder.
2. **Layer split** (``-sm layer``, llama.cpp's default): whole layers, each with its weights and its
   KV cache, go to the cards in proportion to their room (``--tensor-split``, written as the layer
   counts), never more than a card holds. The main GPU (``--main-gpu``) is the fastest card.
3. **Decode**: a token passes through the cards one after another::

       seconds per token = sum over cards of (bytes read by its layers / (bandwidth x class efficiency)
                                              + its layers' share of its class's fixed cost)
                           + handoff_ms x (cards holding layers - 1)

4. **RAM**: when the cards together cannot hold every layer, a mixture of experts keeps the routed
   experts of some layers in RAM (``--n-cpu-moe``), a dense model whole layers (``-ngl``), as on one
   card (``offload.py``), and RAM's term and fixed cost are added.

One card alone is the single-device estimator (``fit.estimate``, ``offload.offload_estimate``) at the
machine's RAM and OS. Pure: no pages, no formatting.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace
from typing import Sequence

from tps_atlas.catalogue.cards import Card
from tps_atlas.catalogue.models import Model
from tps_atlas.catalogue.quants import Quant
from tps_atlas.errors import DataError
from tps_atlas.estimate.budget import device_budget_gb, headless_budget_gb, ram_room_gb
from tps_atlas.estimate.calibration import Calibration
from tps_atlas.estimate.fit import Fit, FitKind, calibrated_memory, memory_gb
from tps_atlas.estimate.machine_settings import MachineSettings, OsBudget
from tps_atlas.estimate.memory import Memory
from tps_atlas.estimate.offload import (OffloadEstimate, OffloadWorking, Placement, RamSettings, System,
                                        routed_experts, split_experts)
from tps_atlas.estimate.settings import Settings
from tps_atlas.estimate.speed import prompt_tokens_per_second


@dataclass(frozen=True)
class Machine:
    """The GPUs in the order llama.cpp numbers them (CUDA0 first), the RAM and the OS."""

    cards: tuple[Card, ...]
    system: System
    os: OsBudget

    @property
    def name(self) -> str:
        return " + ".join(c.name for c in self.cards)

    @property
    def ids(self) -> tuple[str, ...]:
        return tuple(c.id for c in self.cards)


def make_machine(cards: Sequence[Card], system: System, os: OsBudget, limits: MachineSettings,
                 where: str = "command line", field: str = "--cards") -> Machine:
    """A machine from cards already found in the catalogue; ``where``/``field`` name the input in errors."""
    if not 1 <= len(cards) <= limits.max_cards:
        raise DataError(where, field, f"1 to {limits.max_cards} GPU ids", len(cards))
    for card in cards:
        if card.unified and len(cards) > 1:
            raise DataError(where, field, "GPUs of one machine (a unified-memory machine stands alone)", card.id)
    if not 0 < system.size_gb <= limits.max_ram_gb:
        raise DataError(where, "--ram" if where == "command line" else "ram",
                        f"a RAM size in GB above 0 and at most {limits.max_ram_gb:g}", system.size_gb)
    return Machine(tuple(cards), system, os)


def main_gpu(machine: Machine, model_quant: Quant, calibration: Calibration) -> int:
    """The fastest card (most bandwidth reached), the first of equals: it drives the screen too."""
    speeds = [c.bandwidth_gb_s * calibration.factor(model_quant, c) for c in machine.cards]
    return speeds.index(max(speeds))


@dataclass(frozen=True)
class CardShare:
    """One card's part of a split: its layers, what they and its buffers fill, its time per token."""

    card: Card
    layers: int
    budget_gb: float      # what llama.cpp may allocate on it (its buffer and, on the main GPU, the encoder included)
    used_gb: float        # its layers' weights and KV cache, its buffer, the encoder on the main GPU
    read_gb: float        # weights and KV cache it reads per token
    ms: float             # its time per token, its share of the class's fixed cost included


@dataclass(frozen=True)
class _Split:
    """The machine, the layers each of its cards holds, and the main GPU."""

    machine: Machine | None = None
    shares: tuple[CardShare, ...] = ()
    main_gpu: int = 0

    @property
    def tensor_split(self) -> tuple[int, ...]:
        return tuple(s.layers for s in self.shares)


@dataclass(frozen=True)
class MachineFit(_Split, Fit):
    """A machine that holds every layer on its cards (``fit`` comfortable or tight)."""


@dataclass(frozen=True)
class MachineOffload(_Split, OffloadEstimate):
    """A machine whose cards together hold part of the model, the rest in RAM (``placement`` is the
    machine's: its ``gpu_gb`` all the cards', its working's card term the sum of theirs)."""


MachineEstimate = MachineFit | MachineOffload


def card_budget(card: Card, settings: Settings, os: OsBudget, main: bool) -> float:
    """What llama.cpp may allocate on one card of the machine: only the main GPU keeps the desktop."""
    assert settings.budget is not None
    headless = headless_budget_gb(card, settings.budget)
    return headless - os.display_reserve_gb if main and headless > device_budget_gb(card, settings.budget) \
        else headless


def rooms(machine: Machine, memory: Memory, settings: Settings, main: int) -> list[float]:
    """What each card's layers may fill: its budget less its compute buffer (the encoder on the main GPU)."""
    return [card_budget(c, settings, machine.os, i == main) - memory.buffer_gb - (memory.vision_gb if i == main else 0)
            for i, c in enumerate(machine.cards)]


def layer_split(layers: int, layer_gb: float, room: Sequence[float]) -> list[int] | None:
    """Whole layers per card in proportion to its room, never more than it holds; None if they do not fit.

    >>> layer_split(80, 0.5, [24.0, 11.0])     # 48 + 22 of 70 places for 80 layers: too few
    >>> layer_split(80, 0.4, [24.0, 11.0])
    [55, 25]
    """
    caps = [max(0, math.floor(r / layer_gb + 1e-9)) if layer_gb > 0 else layers for r in room]
    if sum(caps) < layers:
        return None
    total = sum(max(r, 0.0) for r in room)
    targets = [layers * max(r, 0.0) / total for r in room]
    counts = [min(cap, math.floor(t)) for cap, t in zip(caps, targets, strict=True)]
    while sum(counts) < layers:
        spare = [i for i in range(len(room)) if counts[i] < caps[i]]
        i = max(spare, key=lambda j: (targets[j] - counts[j], -j))
        counts[i] += 1
    return counts


def card_shares(machine: Machine, counts: Sequence[int], layers: int, per_layer_gb: float, read_gb: float,
                room: Sequence[float], memory: Memory, main: int, quant: Quant,
                calibration: Calibration) -> tuple[CardShare, ...]:
    """Each card's part once its layer counts are known: ``read_gb`` is what all the cards' layers read."""
    shares = []
    for i, (card, n) in enumerate(zip(machine.cards, counts, strict=True)):
        part = n / layers
        reads = read_gb * part
        ms = 1000 * reads / (card.bandwidth_gb_s * calibration.factor(quant, card)) + calibration.overhead(card) * part
        always = memory.buffer_gb + (memory.vision_gb if i == main else 0.0)
        shares.append(CardShare(card, n, room[i] + always, n * per_layer_gb + always, reads, ms))
    return tuple(shares)


def handoff_ms(shares: Sequence[CardShare], limits: MachineSettings) -> float:
    return limits.handoff_ms * max(0, sum(1 for s in shares if s.layers) - 1)


def speed_range(machine: Machine, calibration: Calibration) -> tuple[float, float]:
    """The widest of the cards' class ranges: the split is as uncertain as its least-known card."""
    ranges = [calibration.speed_range(c) for c in machine.cards]
    return min(r[0] for r in ranges), max(r[1] for r in ranges)


def machine_prompt(model: Model, shares: Sequence[CardShare], layers: int, calibration: Calibration,
                   kv_gb: float = 0.0) -> float | None:
    """Prompt tok/s: each card computes its layers' share of every batch, one card after another
    (``kv_gb``: the KV cache at the prompt's mean depth, half the context's)."""
    seconds = 0.0
    for s in shares:
        if s.layers:
            speed = prompt_tokens_per_second(model, s.card, calibration, kv_gb)
            if not speed:
                return None
            seconds += s.layers / layers / speed
    return 1 / seconds if seconds else None


def split_decode(model: Model, machine: Machine, quant: Quant, memory: Memory, counts: Sequence[int],
                 room: Sequence[float], main: int, calibration: Calibration,
                 limits: MachineSettings) -> tuple[tuple[CardShare, ...], float]:
    """Each card's part and the decode speed of every layer on the cards, ``counts`` layers each."""
    layers = sum(counts)
    per_layer = (memory.weights_gb + memory.kv_gb) / layers
    read = memory.weights_gb * model.read_parameters_b / model.parameters_b + memory.kv_gb * calibration.kv_read_factor
    shares = card_shares(machine, counts, layers, per_layer, read, room, memory, main, quant, calibration)
    return shares, 1000 / (sum(s.ms for s in shares) + handoff_ms(shares, limits))


def machine_memory(memory: Memory, cards: int) -> Memory:
    """What the machine needs: every card holds its own compute buffer."""
    return replace(memory, buffer_gb=memory.buffer_gb * cards)


def machine_fit(model: Model, machine: Machine, settings: Settings, calibration: Calibration, context: int,
                candidates: Sequence[tuple[Quant, Memory]]) -> MachineFit | None:
    """The least-compressed candidate quant whose every layer the cards hold, or None."""
    assert settings.machine is not None
    layers = model.architecture.layers if model.architecture else None
    total_memory = sum(memory_gb(c, settings, calibration) for c in machine.cards)
    for quant, raw in candidates:
        memory = calibrated_memory(raw, context, settings, calibration)
        main = main_gpu(machine, quant, calibration)
        room = rooms(machine, memory, settings, main)
        n_layers = layers or 100   # a model without its layout recorded: split in hundredths
        per_layer = (memory.weights_gb + memory.kv_gb) / n_layers
        counts = layer_split(n_layers, per_layer, room)
        if counts is None:
            continue
        shares, tok_s = split_decode(model, machine, quant, memory, counts, room, main, calibration,
                                     settings.machine)
        need = machine_memory(memory, len(machine.cards))
        fit: FitKind = "comfortable" if need.total_gb <= settings.comfortable * total_memory else "tight"
        low, high = speed_range(machine, calibration)
        prompt = machine_prompt(model, shares, n_layers, calibration, memory.kv_gb / 2)
        return MachineFit(machine.cards[main], quant, need, tok_s, tok_s * low, tok_s * high, fit, prompt,
                          context / prompt if prompt else None, machine, shares, main)
    return None


def ram_free_gb(machine: Machine) -> float:
    """The RAM llama.cpp may fill beside the cards: what the machine's OS keeps, not ram.yaml's (Windows's)."""
    return ram_room_gb(machine.system.size_gb, machine.os.ram_keeps_gb)


def machine_offload(model: Model, machine: Machine, settings: Settings, calibration: Calibration,
                    context: int, ram: RamSettings,
                    candidates: Sequence[tuple[Quant, Memory]]) -> MachineOffload | None:
    """The best quant that runs with the cards full and the rest in RAM, or None."""
    if not model.architecture or any(c.unified for c in machine.cards):
        return None
    layers = model.architecture.layers
    ram_free = ram_free_gb(machine)
    for quant, raw in candidates:
        memory = calibrated_memory(raw, context, settings, calibration)
        found = _offload_at(model, machine, settings, calibration, context, ram, memory, quant, layers, ram_free)
        if found is not None:
            return found
    return None


def _offload_at(model: Model, machine: Machine, settings: Settings, calibration: Calibration, context: int,
                ram: RamSettings, memory: Memory, quant: Quant, layers: int, ram_free: float) -> MachineOffload | None:
    assert settings.machine is not None
    main = main_gpu(machine, quant, calibration)
    room = rooms(machine, memory, settings, main)
    kv_read = memory.kv_gb * calibration.kv_read_factor
    experts = routed_experts(model)
    placement: Placement | None = None
    counts: list[int] | None = None
    gpu_read = 0.0
    per_layer = 0.0
    if experts is not None:
        split = split_experts(model, layers, memory, experts)
        always = (split.shared_gb + memory.kv_gb) / layers   # each layer's attention, shared weights, KV cache
        for cpu in range(1, layers + 1):
            per_layer = always + split.layer_gb * (layers - cpu) / layers
            counts = layer_split(layers, per_layer, room)
            if counts is not None:
                ram_gb = cpu * split.layer_gb
                if ram_gb > ram_free:
                    return None
                vram_read = split.shared_gb + (layers - cpu) * split.layer_gb * experts.read_share
                gpu_read = vram_read + kv_read
                placement = Placement("experts", layers, cpu, per_layer * layers, ram_gb, vram_read,
                                      cpu * split.layer_gb * experts.read_share, 1.0)
                break
    if placement is None:
        per_layer = (memory.weights_gb + memory.kv_gb) / layers
        caps = [max(0, math.floor(r / per_layer)) for r in room]
        on_gpus = min(layers - 1, sum(caps))
        if on_gpus < 1:
            return None
        counts = layer_split(on_gpus, per_layer, room)
        assert counts is not None
        read = memory.weights_gb * model.read_parameters_b / model.parameters_b
        share = on_gpus / layers
        ram_gb = (layers - on_gpus) * per_layer
        if ram_gb > ram_free:
            return None
        gpu_read = read * share + kv_read * share
        placement = Placement("layers", layers, layers - on_gpus, on_gpus * per_layer, ram_gb, read * share,
                              read * (1 - share), share)
    assert counts is not None
    gpu_layers = sum(counts)
    shares = card_shares(machine, counts, gpu_layers, per_layer, gpu_read, room, memory, main, quant, calibration)
    placement = replace(placement, gpu_gb=sum(s.used_gb for s in shares))
    card_ms = sum(s.ms for s in shares) + handoff_ms(shares, settings.machine)
    ram_read = placement.ram_read_gb + kv_read * (1 - placement.kv_gpu_share)
    # The machine's working: its card term is the sum of the cards' (an effective bandwidth at efficiency 1).
    working = OffloadWorking(gpu_read, 1000 * gpu_read / card_ms if card_ms else 1.0, 1.0, ram_read,
                             machine.system.kind.bandwidth_gb_s, ram.efficiency, ram.overhead_ms)
    tok_s = 1 / working.seconds_per_token
    prompt = machine_prompt(model, shares, gpu_layers, calibration, memory.kv_gb / 2)
    ttft = None
    if prompt:
        ttft = context / prompt + math.ceil(context / ram.batch_tokens) * placement.ram_gb / ram.pcie_gb_s
    return MachineOffload(machine.cards[main], quant, machine_memory(memory, len(machine.cards)), tok_s,
                          tok_s * ram.range_low, tok_s * ram.range_high, "offload",
                          context / ttft if ttft else None, ttft, placement, machine.system, working,
                          machine, shares, main)


def machine_usable_gb(machine: Machine, settings: Settings, main: int = 0) -> float:
    """All the cards' budgets together: what the machine's shortfall is measured against."""
    return sum(card_budget(c, settings, machine.os, i == main) for i, c in enumerate(machine.cards))
