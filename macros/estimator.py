"""How fast a model runs on a card, and whether it fits: the estimator, one pair at a time.

The method, as on the methodology page:

1. **Memory needed** = weights + KV cache + compute buffer.
   Weights are ``parameters x bits per weight / 8``. The KV cache comes from the
   attention layout when the record has one (``kv_cache_gb``), otherwise from a
   per-token estimate; both grow with the context length.
2. **Fit**: a quant fits when ``need <= fits x VRAM`` (0.90). Each card gets the
   least-compressed quant that fits, no lower than the quality floor.
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
     with bits per weight, so the quant efficiencies are all 1. The range is the
     class's (its leave-one-device-out error, wider where the class rests on few
     devices). No constant belongs to one card.

5. **Prompt** (calibrations with classes): compute bound, two FLOP per active
   parameter and token: ``prompt tok/s = peak TFLOPS x class prompt_efficiency /
   (2 x active parameters)`` (``prompt_flop_per_byte x bandwidth`` for machines
   without a TFLOPS figure); time to first token = context / prompt tok/s.

   Optional keys (``memory_type_factors``, ``overhead_ms``, ``classes``,
   ``kv_read_factor``) default to none and 0, which leaves a calibration on the plain
   formula.

Nothing here formats or knows about pages: it returns records.

>>> settings = load_settings()
>>> settings.quant("Q4_K_M").bits_per_weight
4.84
>>> round(weights_gb(130, settings.quant("Q4_K_M")), 2)
78.65
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Iterable

from .catalogue import DATA_DIR, VENDORS, Architecture, Card, Model
from .errors import DataError
from .records import FieldReader, load_yaml

FIT_LABELS = ("comfortable", "tight", "none")


@dataclass(frozen=True)
class Quant:
    name: str
    bits_per_weight: float
    rank: int  # 0 = best quality


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

    def speed_class(self, card: Card) -> SpeedClass | None:
        for speed_class in self.classes:
            if speed_class.matches(card):
                return speed_class
        return None

    def factor(self, quant: Quant, card: Card) -> float:
        """Share of the bandwidth bound a card reaches at this quant (before any fixed cost)."""
        speed_class = self.speed_class(card)
        if speed_class:
            return self.quant_efficiency.get(quant.name, 1.0) * speed_class.efficiency
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


@dataclass(frozen=True)
class Settings:
    file: str
    context_tokens: int
    min_quality: str
    reading_speed_tok_s: float
    vram_tiers_gb: tuple[int, ...]
    multi_gpu_counts: tuple[int, ...]
    multi_gpu_example: dict[str, str]
    fits: float
    comfortable: float
    shortfall_quant: str
    compute_buffer_gb: float
    kv_estimate_gb_per_1k_tokens: float
    kv_bytes_per_element: dict[str, float]
    default_kv_precision: str
    quants: tuple[Quant, ...]
    calibrations: dict[str, Calibration]
    default_calibration: str
    other_quant_bits: dict[str, float] = field(default_factory=dict)

    def quant(self, name: str) -> Quant:
        for quant in self.quants:
            if quant.name.casefold() == str(name).casefold():
                return quant
        raise DataError(self.file, "quants", "one of " + ", ".join(q.name for q in self.quants), name)

    def calibration(self, name: str | None = None) -> Calibration:
        name = name or self.default_calibration
        if name not in self.calibrations:
            raise DataError(self.file, "calibrations", "one of " + ", ".join(self.calibrations), name)
        return self.calibrations[name]

    def allowed_quants(self, floor: str | Quant | None = None) -> tuple[Quant, ...]:
        floor_quant = floor if isinstance(floor, Quant) else self.quant(floor or self.min_quality)
        return tuple(q for q in self.quants if q.rank <= floor_quant.rank)


def read_calibration(name: str, r: FieldReader, quants: tuple[Quant, ...]) -> Calibration:
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
    classes = tuple(read_speed_class(c) for c in r.mappings("classes"))
    # With hardware classes the per-quant and per-vendor factors are optional (1 where left out).
    calibration = Calibration(
        name=name,
        description=r.text("description"),
        quant_efficiency=factors("quant_efficiency", [] if classes else [q.name for q in quants],
                                 None if classes else "a quant of quants"),
        vendor_factors=factors("vendor_factors", [] if classes else VENDORS, None if classes else "a vendor"),
        architecture_factors=factors("architecture_factors", ()),
        range_low=range_reader.number("low", above=0, maximum=1),
        range_high=range_reader.number("high", minimum=1),
        confidence=r.choice("confidence", ("low", "medium", "high")),
        memory_type_factors=factors("memory_type_factors", ()),
        overhead_ms=r.number("overhead_ms", required=False, minimum=0, maximum=1000) or 0.0,
        classes=classes,
        kv_read_factor=r.number("kv_read_factor", required=False, minimum=0, maximum=10) or 0.0,
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


def read_speed_class(r: FieldReader) -> SpeedClass:
    range_reader = r.mapping("range")
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
    )
    range_reader.finish()
    r.finish()
    return speed_class


def read_bits(r: FieldReader | None) -> dict[str, float]:
    if r is None:
        return {}
    bits = {str(k).upper(): r.number(k, above=0, maximum=32) for k in list(r.data)}
    r.finish()
    return bits


def read_example(r: FieldReader) -> dict[str, str]:
    example = {key: r.text(key) for key in ("model", "quant", "gpu", "label", "card")}
    r.finish()
    return example


def read_settings(path: Path) -> Settings:
    r = FieldReader(path, load_yaml(path))
    quants = []
    for rank, q in enumerate(r.mappings("quants")):
        quants.append(Quant(q.text("name"), q.number("bits_per_weight", above=0, maximum=32), rank))
        q.finish()
    if not quants:
        raise r.error("quants", "at least one quantization")
    seen = set()
    for quant in quants:
        if quant.name.casefold() in seen:
            raise r.error("quants", "each quant name once", quant.name)
        seen.add(quant.name.casefold())
    quants = tuple(quants)
    fit = r.mapping("fit")
    memory = r.mapping("memory")
    kv_bytes = memory.mapping("kv_bytes_per_element")
    calibrations = r.mapping("calibrations")
    settings = Settings(
        file=str(path),
        context_tokens=r.integer("context_tokens", minimum=1),
        min_quality=r.text("min_quality"),
        reading_speed_tok_s=r.number("reading_speed_tok_s", above=0),
        vram_tiers_gb=r.integers("vram_tiers_gb"),
        multi_gpu_counts=r.integers("multi_gpu_counts", minimum=2),
        multi_gpu_example=read_example(r.mapping("multi_gpu_example")),
        fits=fit.number("fits", above=0, maximum=1),
        comfortable=fit.number("comfortable", above=0, maximum=1),
        shortfall_quant=fit.text("shortfall_quant"),
        compute_buffer_gb=memory.number("compute_buffer_gb", minimum=0),
        kv_estimate_gb_per_1k_tokens=memory.number("kv_estimate_gb_per_1k_tokens", minimum=0),
        kv_bytes_per_element={k: kv_bytes.number(k, above=0) for k in list(kv_bytes.data)},
        default_kv_precision=memory.text("default_kv_precision"),
        quants=quants,
        calibrations={str(name): read_calibration(str(name), calibrations.mapping(name), quants)
                      for name in list(calibrations.data)},
        default_calibration=r.text("default_calibration"),
        other_quant_bits=read_bits(r.mapping("other_quant_bits", required=False)),
    )
    for reader in (fit, kv_bytes, memory, calibrations, r):
        reader.finish()
    if settings.comfortable > settings.fits:
        raise fit.error("comfortable", f"at most fits ({settings.fits})", settings.comfortable)
    names = [q.name for q in quants]
    for reader, key, value in ((r, "min_quality", settings.min_quality), (fit, "shortfall_quant", settings.shortfall_quant)):
        if value.casefold() not in {n.casefold() for n in names}:
            raise reader.error(key, "one of " + ", ".join(names), value)
    if settings.default_calibration not in settings.calibrations:
        raise r.error("default_calibration", "one of " + ", ".join(settings.calibrations), settings.default_calibration)
    if settings.default_kv_precision not in settings.kv_bytes_per_element:
        raise memory.error("default_kv_precision", "a key of kv_bytes_per_element",
                           settings.default_kv_precision)
    return settings


@lru_cache(maxsize=8)
def load_settings(path: str | None = None) -> Settings:
    return read_settings(Path(path) if path else DATA_DIR / "estimator.yaml")


# ---------------------------------------------------------------- memory

def weights_gb(parameters_b: float, quant: Quant) -> float:
    return parameters_b * quant.bits_per_weight / 8


def kv_cache_gb(arch: Architecture, context: int, bytes_per_element: float) -> float:
    """KV cache of a recorded attention layout at ``context`` tokens.

    Grouped-query (and multi-head, multi-query) layers keep a key and a value of
    ``kv_heads x head_dim`` per token; sliding-window layers keep at most their
    window; latent attention keeps one compressed vector per token and layer.

    >>> llama_8b = Architecture(layers=32, attention="gqa", kv_heads=8, head_dim=128)
    >>> round(kv_cache_gb(llama_8b, 4096, 2.0), 3)
    0.537
    """
    if arch.attention == "mla":
        per_token_layer = (arch.kv_lora_rank + arch.rope_head_dim) * bytes_per_element
        return arch.layers * context * per_token_layer / 1e9
    per_token_layer = 2 * arch.kv_heads * arch.head_dim * bytes_per_element
    window_layers = arch.sliding_window_layers if arch.sliding_window else 0
    if arch.sliding_window and arch.sliding_window_layers is None:
        window_layers = arch.layers
    full_layers = arch.layers - window_layers
    window_tokens = min(context, arch.sliding_window or context)
    return per_token_layer * (full_layers * context + window_layers * window_tokens) / 1e9


@dataclass(frozen=True)
class Memory:
    weights_gb: float
    kv_gb: float
    buffer_gb: float
    from_architecture: bool

    @property
    def total_gb(self) -> float:
        return self.weights_gb + self.kv_gb + self.buffer_gb


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
                  model.architecture is not None)


# ---------------------------------------------------------------- speed

def tokens_per_second(model: Model, quant: Quant, card: Card, calibration: Calibration,
                      kv_gb: float = 0.0) -> float:
    """Decode speed of one request: bandwidth over the bytes read per token, plus any fixed cost.

    ``kv_gb`` is the KV cache at the chosen context: each new token reads it (``kv_read_factor``
    of it), so a row at 32,768 tokens is slower than at 4,096.

    >>> import dataclasses
    >>> card = Card("x", "X", "NVIDIA", 24, 1000.0, None, memory_type="GDDR6X")
    >>> model = Model("m", "M", "m.yaml", True, 10.0)
    >>> q4 = Quant("Q4_K_M", 4.8, 0)
    >>> plain = Calibration("c", "", {"Q4_K_M": 1.0}, {"NVIDIA": 0.8}, {}, 0.6, 1.6, "low")
    >>> round(tokens_per_second(model, q4, card, plain), 2)  # 1000 / 6 GB x 0.8
    133.33
    >>> timed = dataclasses.replace(plain, overhead_ms=2.5)  # 7.5 ms + 2.5 ms per token
    >>> round(tokens_per_second(model, q4, card, timed), 2)
    100.0
    >>> long = dataclasses.replace(timed, kv_read_factor=1.0)  # + 2 GB of KV cache: 10 ms + 2.5 ms
    >>> round(tokens_per_second(model, q4, card, long, kv_gb=2.0), 2)
    80.0
    """
    working = speed_working(model, quant, card, calibration, kv_gb)
    if not working.overhead_ms and not working.kv_read_gb:
        return card.bandwidth_gb_s / working.read_gb * working.efficiency
    return 1.0 / working.seconds_per_token


@dataclass(frozen=True)
class SpeedWorking:
    """The terms of one speed estimate, for showing how it was worked out."""

    read_gb: float          # weights read per token
    bandwidth_gb_s: float
    efficiency: float       # share of the bandwidth reached
    overhead_ms: float      # fixed cost per token
    kv_read_gb: float = 0.0  # KV cache read per token at the chosen context
    class_name: str | None = None

    @property
    def seconds_per_token(self) -> float:
        return (self.read_gb + self.kv_read_gb) / (self.bandwidth_gb_s * self.efficiency) + self.overhead_ms / 1000


def speed_working(model: Model, quant: Quant, card: Card, calibration: Calibration,
                  kv_gb: float = 0.0) -> SpeedWorking:
    speed_class = calibration.speed_class(card)
    return SpeedWorking(weights_gb(model.read_parameters_b, quant), card.bandwidth_gb_s,
                        calibration.factor(quant, card), calibration.overhead(card),
                        kv_gb * calibration.kv_read_factor, speed_class.name if speed_class else None)


def prompt_tokens_per_second(model: Model, card: Card, calibration: Calibration) -> float | None:
    """Prompt processing is compute bound: two FLOP per active parameter and token, against the
    share of the card's peak its class reaches (or FLOP per byte of bandwidth where the catalogue
    has no TFLOPS figure). None for a calibration without hardware classes.

    >>> c = SpeedClass("x", (), (), (), 0.8, 1.0, 0.5, 100.0, 0.7, 1.4)
    >>> cal = Calibration("c", "", {}, {}, {}, 0.6, 1.6, "low", classes=(c,))
    >>> card = Card("x", "X", "NVIDIA", 24, 1000.0, None, compute_tflops=80.0)
    >>> round(prompt_tokens_per_second(Model("m", "M", "m.yaml", True, 8.0), card, cal))  # 40e12 / 16e9
    2500
    """
    speed_class = calibration.speed_class(card)
    if speed_class is None:
        return None
    if card.compute_tflops:
        flop_s = card.compute_tflops * 1e12 * speed_class.prompt_efficiency
    else:
        flop_s = card.bandwidth_gb_s * 1e9 * speed_class.prompt_flop_per_byte
    return flop_s / (2 * model.read_parameters_b * 1e9)


# ---------------------------------------------------------------- one pair

@dataclass(frozen=True)
class Estimate:
    card: Card
    quant: Quant | None
    memory: Memory | None
    tok_s: float | None
    tok_s_low: float | None
    tok_s_high: float | None
    fit: str  # comfortable | tight | none
    prompt_tok_s: float | None = None
    ttft_s: float | None = None   # time to first token: a prompt filling the context

    @property
    def need_gb(self) -> float | None:
        return self.memory.total_gb if self.memory else None

    @property
    def fits(self) -> bool:
        return self.fit != "none"


def verdict(need_gb: float, vram_gb: float, settings: Settings) -> str:
    if need_gb > settings.fits * vram_gb:
        return "none"
    return "comfortable" if need_gb <= settings.comfortable * vram_gb else "tight"


def candidate_memories(model: Model, settings: Settings, context: int | None = None,
                       floor: str | None = None, quant: str | None = None,
                       kv_precision: str | None = None) -> tuple[tuple[Quant, Memory], ...]:
    """The quants a card may get, best first, with the memory each needs.

    The same for every card, so a page computes them once.
    """
    context = context or settings.context_tokens
    quants = (settings.quant(quant),) if quant else settings.allowed_quants(floor)
    return tuple((q, memory_needed(model, q, context, settings, kv_precision)) for q in quants)


def estimate(model: Model, card: Card, settings: Settings, calibration: Calibration,
             context: int | None = None, floor: str | None = None,
             quant: str | None = None, kv_precision: str | None = None,
             candidates: tuple[tuple[Quant, Memory], ...] | None = None) -> Estimate:
    """The estimate for one card: the least-compressed allowed quant that fits.

    With ``quant`` the card is judged at that one quant instead. ``candidates`` must have been
    worked out at ``context`` (the default context when None).
    """
    context = context or settings.context_tokens
    candidates = candidates or candidate_memories(model, settings, context, floor, quant, kv_precision)
    for candidate, memory in candidates:
        fit = verdict(memory.total_gb, card.vram_gb, settings)
        if fit != "none":
            tok_s = tokens_per_second(model, candidate, card, calibration, memory.kv_gb)
            low, high = calibration.speed_range(card)
            prompt = prompt_tokens_per_second(model, card, calibration)
            return Estimate(card, candidate, memory, tok_s, tok_s * low, tok_s * high, fit,
                            prompt, context / prompt if prompt else None)
    # Not fitting: the memory it would need is known only when one quant was in question.
    return Estimate(card, None, candidates[0][1] if len(candidates) == 1 else None,
                    None, None, None, "none")


def speed_order(e: Estimate) -> tuple:
    """Fastest first; on equal speed the newest card first, then by name."""
    released = e.card.released.toordinal() if e.card.released else 0
    return (-(round(e.tok_s, 6) if e.tok_s else -1.0), -released, e.card.name.casefold())
