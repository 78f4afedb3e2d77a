"""The calibrations of data/estimator.yaml: the hardware (speed) classes and their constants,
each checked as it is read (the method is in ``tps_atlas.estimate.fit``).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Iterable

from tps_atlas.catalogue.limits import VENDORS
from tps_atlas.catalogue.cards import Card
from tps_atlas.catalogue.quants import Quant
from tps_atlas.records.vocabulary import BACKENDS
from tps_atlas.records.fields import FieldReader
from tps_atlas.estimate.budget import GB_PER_GIB


# Bounds of the constants, each well beyond any sensible setting: a KV element is at most
# 4 bytes (f32), a speed range wider than 100x says nothing, and a card set larger than
# 1,024 GPUs is a cluster, not a card.
MAX_KV_BYTES = 8
MAX_RANGE_HIGH = 100
MAX_BUFFER_GB = 1_000
MAX_KV_GB_PER_1K = 100
MAX_READING_SPEED = 10_000
MAX_GPUS = 1_024
# A class's backend or quant-family factor: llama.cpp backends and block formats differ by a few
# times at most; a factor outside this says the run or the class is wrong, not the backend.
FACTOR_RANGE = (0.2, 3.0)
# How a calibration judges a fit: the seed's share of VRAM, or the memory budget (tps_atlas/estimate/budget.py).
FIT_RULES = ("share", "budget")




@dataclass(frozen=True)
class SpeedClass:
    """Cards that reach the same share of their bandwidth: a vendor, architecture generations
    and memory types (empty: any). The first class of a calibration that matches a card is its."""

    name: str
    vendors: tuple[str, ...]
    architectures: tuple[str, ...]
    memory_types: tuple[str, ...]
    efficiency: float           # share of the bandwidth reached reading weights and KV cache
    overhead_ms: float          # fixed cost per generated token
    prompt_efficiency: float    # share of the card's peak TFLOPS reached processing a prompt
    # Cards with no TFLOPS figure (machines added by hand): prompt FLOP per byte of bandwidth.
    prompt_flop_per_byte: float
    range_low: float
    range_high: float
    # Classes of a group lend each other their runs when one has too few (fitting only).
    group: str | None = None
    # The llama.cpp backend the constants are for (what the pages estimate), and the efficiency
    # of other backends and quant families as a multiple of it. Backend factors only score
    # measured runs; quant factors apply to every estimate.
    backend: str | None = None
    backend_factors: dict[str, float] = field(default_factory=dict)
    quant_factors: dict[str, float] = field(default_factory=dict)
    # Attention in a prompt: FLOP per byte of the KV cache at the prompt's mean depth, on top of the
    # weights' (0: none). Attention kernels reach a smaller share of the peak than weight products, and
    # how much smaller depends on the backend's kernels.
    prompt_kv_flop_per_byte: float = 0.0

    def factor_for(self, quant: Quant, backend: str | None = None) -> float:
        """Efficiency at this quant (and backend) as a multiple of the class's efficiency."""
        on_backend = self.backend_factors.get(backend, 1.0) if backend and backend != self.backend else 1.0
        return self.quant_factors.get(quant.family, 1.0) * on_backend

    def matches(self, card: Card) -> bool:
        return ((not self.vendors or card.vendor in self.vendors)
                and (not self.architectures or (card.architecture or "") in self.architectures)
                and (not self.memory_types or (card.memory_type or "") in self.memory_types))


@dataclass(frozen=True)
class Calibration:
    name: str
    description: str
    quant_efficiency: dict[str, float]
    vendor_factors: dict[str, float]
    architecture_factors: dict[str, float]
    range_low: float
    range_high: float
    confidence: str
    # Efficiency by memory type, used instead of the vendor factor when the card's type is listed.
    memory_type_factors: dict[str, float] = field(default_factory=dict)
    # Fixed cost per generated token, in milliseconds (0: the plain bandwidth formula).
    overhead_ms: float = 0.0
    # Hardware classes, each with its own constants; they take the place of the factors above.
    classes: tuple[SpeedClass, ...] = ()
    # Share of the KV cache at the chosen context read per generated token (0: no context term).
    kv_read_factor: float = 0.0
    # How a quant is judged to fit: "share" (need <= fit.fits x VRAM, the seed's rule) or "budget"
    # (tps_atlas/estimate/budget.py: the device's real budget against need with llama.cpp's compute buffer).
    fit_rule: str = "share"
    # A mixture of experts in a prompt: its active parameters cost this many times the FLOP time of a
    # dense model's (each expert gets a small share of the batch, and tokens are routed; 1: none).
    prompt_moe_factor: float = 1.0
    # The class of each (vendor, architecture, memory type) met so far: what ``matches`` reads.
    _class_of: dict[tuple[str, str, str], SpeedClass | None] = field(default_factory=dict, init=False,
                                                                    repr=False, compare=False)

    @property
    def memory_unit(self) -> tuple[str, float]:
        """The unit its pages write memory in: the budget counts memory as it is sold, in binary
        gigabytes; the seed's rule compares decimal needs with the card's label."""
        return ("GiB", GB_PER_GIB) if self.fit_rule == "budget" else ("GB", 1.0)

    def speed_class(self, card: Card) -> SpeedClass | None:
        key = (card.vendor, card.architecture or "", card.memory_type or "")
        if key not in self._class_of:
            self._class_of[key] = next((c for c in self.classes if c.matches(card)), None)
        return self._class_of[key]

    def factor(self, quant: Quant, card: Card, backend: str | None = None) -> float:
        """Share of the bandwidth bound a card reaches at this quant (before any fixed cost), on
        its class's backend unless ``backend`` names another."""
        speed_class = self.speed_class(card)
        if speed_class:
            return (self.quant_efficiency.get(quant.name, 1.0) * speed_class.efficiency
                    * speed_class.factor_for(quant, backend))
        class_factor = self.memory_type_factors.get(card.memory_type or "")
        if class_factor is None:
            class_factor = self.vendor_factors[card.vendor]
        return (self.quant_efficiency[quant.name]
                * class_factor
                * self.architecture_factors.get(card.architecture or "", 1.0))

    def overhead(self, card: Card) -> float:
        speed_class = self.speed_class(card)
        return speed_class.overhead_ms if speed_class else self.overhead_ms

    def speed_range(self, card: Card) -> tuple[float, float]:
        speed_class = self.speed_class(card)
        return (speed_class.range_low, speed_class.range_high) if speed_class else (self.range_low, self.range_high)




def read_calibration(name: str, r: FieldReader, quants: tuple[Quant, ...], families: Iterable[str] = (),
                     reference_family: str = "k") -> Calibration:
    def factors(name: str, required_keys: Iterable[str], known_as: str | None = None) -> dict[str, float]:
        required_keys = list(required_keys)
        mapping = r.mapping(name, required=bool(required_keys))
        if mapping is None:
            return {}
        values = {}
        for key in list(mapping.data):
            if known_as and str(key) not in required_keys:
                raise mapping.error(str(key), f"{known_as} ({', '.join(required_keys)})", "an unknown key")
            values[str(key)] = mapping.number(key, above=0, maximum=2)
        mapping.finish()
        for key in required_keys:
            if key not in values:
                raise mapping.error(key, "a factor for every entry", "missing")
        return values

    range_reader = r.mapping("range")
    factor_families = [f for f in families if f != reference_family]
    classes = tuple(read_speed_class(c, factor_families) for c in r.mappings("classes"))
    # With hardware classes the per-quant and per-vendor factors are optional (1 where left out).
    calibration = Calibration(
        name=name,
        description=r.text("description"),
        quant_efficiency=factors("quant_efficiency", [] if classes else [q.name for q in quants],
                                 None if classes else "a quant of quants"),
        vendor_factors=factors("vendor_factors", [] if classes else VENDORS, None if classes else "a vendor"),
        architecture_factors=factors("architecture_factors", ()),
        range_low=range_reader.number("low", above=0, maximum=1),
        range_high=range_reader.number("high", minimum=1, maximum=MAX_RANGE_HIGH),
        confidence=r.choice("confidence", ("low", "medium", "high")),
        memory_type_factors=factors("memory_type_factors", ()),
        overhead_ms=r.number("overhead_ms", required=False, minimum=0, maximum=1000) or 0.0,
        classes=classes,
        kv_read_factor=r.number("kv_read_factor", required=False, minimum=0, maximum=10) or 0.0,
        fit_rule=r.choice("fit", FIT_RULES, required=False) or "share",
        prompt_moe_factor=r.number("prompt_moe_factor", required=False, minimum=1, maximum=10) or 1.0,
    )
    range_reader.finish()
    r.finish()
    names = [c.name for c in calibration.classes]
    for speed_class in calibration.classes:
        if names.count(speed_class.name) > 1:
            raise r.error("classes", "each class name once", speed_class.name)
    for vendor in VENDORS:
        if calibration.classes and not any(c.vendors in ((), (vendor,)) and not c.architectures
                                           and not c.memory_types for c in calibration.classes):
            raise r.error("classes", f"a class for every other {vendor} card (vendor only, no architectures)")
    return calibration


def read_class_factors(r: FieldReader, field_name: str, allowed: Iterable[str], what: str) -> dict[str, float]:
    """A mapping of factors (backend or quant family -> multiple of the class's efficiency)."""
    mapping = r.mapping(field_name, required=False)
    if mapping is None:
        return {}
    allowed = list(allowed)
    values = {}
    for key in list(mapping.data):
        if str(key) not in allowed:
            raise mapping.error(str(key), f"{what} ({', '.join(allowed)})", "an unknown key")
        values[str(key)] = mapping.number(key, minimum=FACTOR_RANGE[0], maximum=FACTOR_RANGE[1])
    mapping.finish()
    return values


def read_speed_class(r: FieldReader, factor_families: Iterable[str] = ()) -> SpeedClass:
    range_reader = r.mapping("range")
    backend = r.choice("backend", BACKENDS, required=False)
    backend_factors = read_class_factors(r, "backend_factors", [b for b in BACKENDS if b != backend],
                                         "a backend other than the class's own")
    if backend_factors and backend is None:
        raise r.error("backend", "the backend the class's constants are for, beside backend_factors")
    speed_class = SpeedClass(
        name=r.text("name"),
        vendors=r.texts("vendors", VENDORS),
        architectures=r.texts("architectures"),
        memory_types=r.texts("memory_types"),
        efficiency=r.number("efficiency", above=0, maximum=2),
        overhead_ms=r.number("overhead_ms", minimum=0, maximum=1000),
        prompt_efficiency=r.number("prompt_efficiency", above=0, maximum=10),
        prompt_flop_per_byte=r.number("prompt_flop_per_byte", above=0, maximum=100_000),
        range_low=range_reader.number("low", above=0, maximum=1),
        range_high=range_reader.number("high", minimum=1, maximum=100),
        group=r.text("group", required=False),
        backend=backend,
        backend_factors=backend_factors,
        quant_factors=read_class_factors(r, "quant_factors", factor_families,
                                         "a quant family other than the reference one"),
        prompt_kv_flop_per_byte=r.number("prompt_kv_flop_per_byte", required=False, minimum=0,
                                         maximum=1000) or 0.0,
    )
    range_reader.finish()
    r.finish()
    return speed_class
