"""Models that do not fit the card but fit card + system RAM: where llama.cpp puts each part,
and how fast it then runs.

The method, as on the methodology page ("Offload"):

1. **Room**: the card offers what a model that fits may fill (``fit.usable_gb``), the RAM
   its size minus ``os_reserve_gb`` (the seed's rule), or, under the memory budget, its binary
   gigabytes minus ``os_keeps_gb`` (data/ram.yaml). A discrete card only: a unified-memory machine has one pool.
2. **Placement**, as llama.cpp's flags do it:

   - Mixture of experts (``--n-cpu-moe N``): attention, shared weights, the KV cache, the
     buffers and a vision model's encoder (the mmproj file, which llama.cpp loads on the GPU)
     stay on the card; so do as many layers' routed experts as fit; the experts of the
     other N layers live in RAM. The routed-expert parameters are
     ``(total - active) x experts_total / (experts_total - experts_active)`` (the inactive
     parameters are all routed experts), spread evenly over ``architecture.layers``.
   - Dense models, and mixtures of experts whose shared part alone overflows the card
     (``-ngl N``): whole layers (weights and their KV cache) on the card beside the buffers and
     the vision encoder, the rest in RAM.

   Either way, what is on the card plus what is in RAM is the memory the model needs.

3. **Decode**: every token reads what it uses where it lies::

       seconds per token = VRAM bytes read / (card bandwidth x the card class's efficiency)
                           + RAM bytes read / (RAM bandwidth x RAM efficiency)
                           + the class's fixed cost + the offload's fixed cost

   A mixture of experts reads its shared weights and ``experts_active / experts_total`` of the
   experts in each place; a dense model reads all weights. The range is RAM's ``range``.
4. **Prompt**: llama.cpp copies the weights held in RAM to the card once per batch of prompt
   tokens and computes there: time = the card's compute time + ``ceil(tokens / batch_tokens)``
   copies of the RAM part at ``pcie_gb_s``. Prompt tok/s and time to first token are worked out
   at the chosen context.

Pure: nothing here formats or knows about pages.

>>> ram = load_ram()
>>> ram.kind("DDR5-6000-2ch").bandwidth_gb_s
96.0
>>> round(routed_experts(Model("m", "M", "m.yaml", True, 116.8, 5.1, 128, 4)).parameters_b, 1)
115.3
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from pathlib import Path

from tps_atlas.cache import cached
from tps_atlas.paths import DATA_DIR
from tps_atlas.catalogue.cards import Card
from tps_atlas.catalogue.models import Model
from tps_atlas.errors import DataError
from tps_atlas.estimate.budget import ram_room_gb
from tps_atlas.estimate.calibration import Calibration
from tps_atlas.estimate.fit import Fit, calibrated_memory, usable_gb, uses_budget
from tps_atlas.estimate.memory import Memory, memory_needed
from tps_atlas.estimate.settings import Settings
from tps_atlas.estimate.speed import prompt_tokens_per_second
from tps_atlas.catalogue.quants import Quant
from tps_atlas.records.fields import FieldReader
from tps_atlas.records.strict_yaml import load_yaml

RAM_FILE = DATA_DIR / "ram.yaml"


@dataclass(frozen=True)
class RamKind:
    id: str
    name: str
    bandwidth_gb_s: float
    source: str
    memory: str = ""      # DDR5-6000
    channels: int = 2     # 64-bit channels


@dataclass(frozen=True)
class RamSettings:
    file: str
    default_size_gb: float
    default_kind: str
    os_reserve_gb: float        # the seed's rule: RAM kept, of the size as sold
    best_quant: str
    efficiency: float
    overhead_ms: float
    range_low: float
    range_high: float
    pcie_gb_s: float
    batch_tokens: int
    kinds: tuple[RamKind, ...]
    measured_ram: tuple[tuple[str, str], ...]   # (text the measured table starts with, kind id)
    faq_cards: tuple[str, ...] = ()             # cards the pages quote first (the FAQ's answer)
    # The memory budget's rule (calibrations with fit: budget): GB the OS keeps of the modules' binary GB.
    os_keeps_gb: float = 0.0

    def kind(self, name: str) -> RamKind:
        for kind in self.kinds:
            if kind.id.casefold() == str(name).casefold():
                return kind
        raise DataError(self.file, "kinds", "one of " + ", ".join(k.id for k in self.kinds), name)

    def system(self, size_gb: float | None = None, kind: str | None = None) -> System:
        return System(self.default_size_gb if size_gb is None else size_gb,
                      self.kind(kind or self.default_kind))

    def kind_of_measured(self, text: str) -> RamKind | None:
        for prefix, kind in self.measured_ram:
            if text.startswith(prefix):
                return self.kind(kind)
        return None


@dataclass(frozen=True)
class System:
    """The RAM beside the card."""

    size_gb: float
    kind: RamKind


def read_ram(path: Path) -> RamSettings:
    r = FieldReader(path, load_yaml(path))
    default = r.mapping("default")
    spread = r.mapping("range")
    kinds = []
    for k in r.mappings("kinds"):
        kinds.append(RamKind(k.text("id"), k.text("name"), k.number("bandwidth_gb_s", above=0, maximum=10_000),
                             k.text("source"), k.text("memory"), k.integer("channels", minimum=1)))
        k.finish()
    measured = []
    for m in r.mappings("measured_ram"):
        measured.append((m.text("text"), m.text("kind")))
        m.finish()
    ram = RamSettings(
        file=str(path),
        default_size_gb=default.number("size_gb", above=0, maximum=100_000),
        default_kind=default.text("kind"),
        os_reserve_gb=r.number("os_reserve_gb", minimum=0, maximum=1000),
        os_keeps_gb=r.number("os_keeps_gb", minimum=0, maximum=1000),
        best_quant=r.text("best_quant"),
        efficiency=r.number("efficiency", above=0, maximum=1),
        overhead_ms=r.number("overhead_ms", minimum=0, maximum=1000),
        range_low=spread.number("low", above=0, maximum=1),
        range_high=spread.number("high", minimum=1, maximum=100),
        pcie_gb_s=r.number("pcie_gb_s", above=0, maximum=10_000),
        batch_tokens=r.integer("batch_tokens", minimum=1),
        kinds=tuple(kinds),
        measured_ram=tuple(measured),
        faq_cards=r.texts("faq_cards"),
    )
    for reader in (default, spread, r):
        reader.finish()
    if not kinds:
        raise r.error("kinds", "at least one kind of RAM")
    ids = [k.id for k in kinds]
    for kind in kinds:
        if ids.count(kind.id) > 1:
            raise r.error("kinds", "each id once", kind.id)
    for reader, field, value in ((default, "kind", ram.default_kind),
                                 *((r, "measured_ram", kind) for _, kind in measured)):
        if value not in ids:
            raise reader.error(field, "one of " + ", ".join(ids), value)
    return ram


@cached(maxsize=4)
def load_ram(path: str | None = None) -> RamSettings:
    return read_ram(Path(path) if path else RAM_FILE)


# ---------------------------------------------------------------- placement

@dataclass(frozen=True)
class RoutedExperts:
    """A mixture of experts' routed experts: what ``--n-cpu-moe`` moves to RAM."""

    parameters_b: float   # all routed experts, billions
    read_share: float     # the share of them a token reads: experts_active / experts_total


def routed_experts(model: Model) -> RoutedExperts | None:
    """The routed experts: None for a dense model (or an incomplete record)."""
    total, active = model.parameters_b, model.active_parameters_b
    experts, used = model.experts_total, model.experts_active
    if not active or not experts or not used or experts <= used or active >= total:
        return None
    return RoutedExperts(min(total, (total - active) * experts / (experts - used)), used / experts)


@dataclass(frozen=True)
class Placement:
    mode: str             # "experts" (--n-cpu-moe) | "layers" (-ngl)
    layers: int
    cpu_layers: int       # expert layers (experts) or whole layers (layers) held in RAM
    gpu_gb: float         # on the card: weights, KV cache, buffers and the vision encoder
    ram_gb: float         # in RAM: weights (and, for layers, their KV cache)
    vram_read_gb: float   # weights read per token from the card
    ram_read_gb: float    # weights read per token from RAM
    kv_gpu_share: float   # share of the KV cache on the card

    @property
    def gpu_layers(self) -> int:
        return self.layers - self.cpu_layers


def ram_room(system: System, ram: RamSettings, settings: Settings, calibration: Calibration | None = None) -> float:
    """System RAM llama.cpp may fill beside the card: the size less the seed's reserve, or under the
    memory budget the modules' binary gigabytes less what the OS keeps (``budget.ram_room_gb``)."""
    if uses_budget(settings, calibration):
        return ram_room_gb(system.size_gb, ram.os_keeps_gb)
    return system.size_gb - ram.os_reserve_gb


def place(model: Model, memory: Memory, card: Card, settings: Settings, system: System,
          ram: RamSettings, calibration: Calibration | None = None) -> Placement | None:
    """Where each part goes, or None when card and RAM together cannot hold it.

    >>> from tps_atlas.catalogue.models import Architecture
    >>> from tps_atlas.estimate.settings import load_settings
    >>> moe = Model("m", "M", "m.yaml", True, 100.0, 19.0, 10, 1, Architecture(layers=10, attention="gqa"))
    >>> p = place(moe, Memory(50.0, 1.0, 0.5, True), Card("c", "C", "NVIDIA", 24, 1000.0, None),
    ...           load_settings(), System(64, load_ram().kind("ddr5-6000-2ch")), load_ram())
    >>> p.mode, p.cpu_layers, round(p.ram_gb, 1)   # 5 GB shared + 4.5 GB per expert layer
    ('experts', 7, 31.5)
    """
    if card.unified or not model.architecture or card.vram_gb <= 0:
        return None
    layers = model.architecture.layers
    gpu_room = usable_gb(card, settings, calibration)
    ram_free = ram_room(system, ram, settings, calibration)
    experts = routed_experts(model)
    if experts is not None:
        split = split_experts(model, layers, memory, experts)
        if split.on_card <= gpu_room:
            gpu_layers = min(layers, math.floor((gpu_room - split.on_card) / split.layer_gb))
            placement = fixed_placement(model, layers, memory, "experts", layers - gpu_layers)
            if placement.cpu_layers == 0 or placement.ram_gb > ram_free:
                return None
            return placement
    layer_gb = (memory.weights_gb + memory.kv_gb) / layers
    gpu_layers = min(layers - 1, math.floor((gpu_room - on_card_always(memory)) / layer_gb))
    if gpu_layers < 1:
        return None
    placement = fixed_placement(model, layers, memory, "layers", layers - gpu_layers)
    return placement if placement.ram_gb <= ram_free else None


@dataclass(frozen=True)
class ExpertSplit:
    on_card: float     # shared weights, KV cache, buffers and vision encoder, GB
    shared_gb: float
    layer_gb: float    # one layer's routed experts, GB


def split_experts(model: Model, layers: int, memory: Memory, experts: RoutedExperts) -> ExpertSplit:
    experts_gb = memory.weights_gb * experts.parameters_b / model.parameters_b
    shared_gb = memory.weights_gb - experts_gb
    return ExpertSplit(shared_gb + memory.kv_gb + on_card_always(memory), shared_gb, experts_gb / layers)


def on_card_always(memory: Memory) -> float:
    """What stays on the card whatever the split: the compute buffers and the vision encoder
    (llama.cpp loads the mmproj on the GPU; no flag moves it with the layers)."""
    return memory.buffer_gb + memory.vision_gb


def fixed_placement(model: Model, layers: int, memory: Memory, mode: str, cpu_layers: int) -> Placement:
    """The placement of a model of ``layers`` layers with ``cpu_layers`` expert layers (mode
    "experts") or whole layers (mode "layers") in RAM: what a given --n-cpu-moe or -ngl does."""
    cpu_layers = max(0, min(layers, cpu_layers))
    gpu_layers = layers - cpu_layers
    experts = routed_experts(model)
    if mode == "experts" and experts is not None:
        split = split_experts(model, layers, memory, experts)
        read_share = experts.read_share
        return Placement("experts", layers, cpu_layers, split.on_card + gpu_layers * split.layer_gb,
                         cpu_layers * split.layer_gb, split.shared_gb + gpu_layers * split.layer_gb * read_share,
                         cpu_layers * split.layer_gb * read_share, 1.0)
    layer_gb = (memory.weights_gb + memory.kv_gb) / layers
    read_gb = memory.weights_gb * model.read_parameters_b / model.parameters_b
    return Placement("layers", layers, cpu_layers, gpu_layers * layer_gb + on_card_always(memory),
                     cpu_layers * layer_gb, read_gb * gpu_layers / layers, read_gb * cpu_layers / layers,
                     gpu_layers / layers)


# ---------------------------------------------------------------- speed

@dataclass(frozen=True)
class OffloadWorking:
    """The terms of one offload estimate, for showing how it was worked out."""

    vram_read_gb: float       # weights + KV cache read per token on the card
    card_bandwidth_gb_s: float
    card_efficiency: float
    ram_read_gb: float        # weights (+ KV cache) read per token in RAM
    ram_bandwidth_gb_s: float
    ram_efficiency: float
    overhead_ms: float        # the class's fixed cost + the offload's

    @property
    def card_ms(self) -> float:
        return 1000 * self.vram_read_gb / (self.card_bandwidth_gb_s * self.card_efficiency)

    @property
    def ram_ms(self) -> float:
        return 1000 * self.ram_read_gb / (self.ram_bandwidth_gb_s * self.ram_efficiency)

    @property
    def seconds_per_token(self) -> float:
        return (self.card_ms + self.ram_ms + self.overhead_ms) / 1000


def offload_working(placement: Placement, memory: Memory, quant: Quant, card: Card,
                    calibration: Calibration, system: System, ram: RamSettings) -> OffloadWorking:
    kv_read = memory.kv_gb * calibration.kv_read_factor
    return OffloadWorking(
        placement.vram_read_gb + kv_read * placement.kv_gpu_share, card.bandwidth_gb_s,
        calibration.factor(quant, card),
        placement.ram_read_gb + kv_read * (1 - placement.kv_gpu_share), system.kind.bandwidth_gb_s,
        ram.efficiency, calibration.overhead(card) + ram.overhead_ms)


def prompt_seconds(model: Model, card: Card, calibration: Calibration, placement: Placement,
                   ram: RamSettings, tokens: int, kv_gb: float = 0.0) -> float | None:
    """Time to process a prompt of ``tokens``: the card's compute time (``kv_gb``: the KV cache
    of the ``tokens``, half of which each attends to on average) plus one copy of the RAM part
    over PCIe per batch."""
    on_card = prompt_tokens_per_second(model, card, calibration, kv_gb / 2)
    if not on_card:
        return None
    copies = math.ceil(tokens / ram.batch_tokens)
    return tokens / on_card + copies * placement.ram_gb / ram.pcie_gb_s


@dataclass(frozen=True)
class OffloadEstimate(Fit):
    """A card that runs the model with part of it in system RAM (``fit`` is "offload")."""

    placement: Placement
    system: System
    working: OffloadWorking

    @property
    def ram_gb(self) -> float:
        return self.placement.ram_gb

    @property
    def vram_used_gb(self) -> float:
        return self.placement.gpu_gb


def offload_quants(model: Model, settings: Settings, ram: RamSettings, floor: str | None,
                   quant: str | None) -> tuple[Quant, ...]:
    """Quants to try, best first: the one asked for; else the model's native format where the
    ladder has it; else from ``best_quant`` down to the floor."""
    if quant:
        return (settings.quant(quant),)
    native = getattr(model, "native_format", None)
    if native and native.casefold() in {q.name.casefold() for q in settings.quants}:
        return (settings.quant(native),)
    ceiling = settings.quant(ram.best_quant).rank
    return tuple(q for q in settings.allowed_quants(floor) if q.rank >= ceiling)


def offload_candidates(model: Model, settings: Settings, ram: RamSettings, context: int,
                       floor: str | None = None, quant: str | None = None,
                       kv_precision: str | None = None) -> tuple[tuple[Quant, Memory], ...]:
    """The quants offload may use, best first, with the memory each needs: the same for every
    card, so a page works them out once."""
    return tuple((q, memory_needed(model, q, context, settings, kv_precision))
                 for q in offload_quants(model, settings, ram, floor, quant))


def offload_estimate(model: Model, card: Card, settings: Settings, calibration: Calibration,
                     system: System, ram: RamSettings | None = None, context: int | None = None,
                     floor: str | None = None, quant: str | None = None,
                     kv_precision: str | None = None,
                     candidates: tuple[tuple[Quant, Memory], ...] | None = None) -> OffloadEstimate | None:
    """The best offload for a card the model does not fit, or None. ``candidates`` must have
    been worked out at ``context``."""
    ram = ram or load_ram()
    context = context or settings.context_tokens
    if candidates is None:
        candidates = offload_candidates(model, settings, ram, context, floor, quant, kv_precision)
    for candidate, memory in candidates:
        memory = calibrated_memory(memory, context, settings, calibration)
        placement = place(model, memory, card, settings, system, ram, calibration)
        if placement is None:
            continue
        working = offload_working(placement, memory, candidate, card, calibration, system, ram)
        tok_s = 1 / working.seconds_per_token
        ttft = prompt_seconds(model, card, calibration, placement, ram, context, memory.kv_gb)
        return OffloadEstimate(card, candidate, memory, tok_s, tok_s * ram.range_low, tok_s * ram.range_high,
                               "offload", context / ttft if ttft else None, ttft,
                               placement, system, working)
    return None
