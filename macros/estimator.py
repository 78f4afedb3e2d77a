"""How fast a model runs on a card, and whether it fits: the estimator, one pair at a time.

The method, as on the methodology page:

1. **Memory needed** = weights + KV cache + compute buffer.
   Weights are ``parameters x bits per weight / 8``. The KV cache comes from the
   attention layout when the record has one (``kv_cache_gb``), otherwise from a
   per-token estimate; both grow with the context length.
   A vision-language model adds its vision encoder at F16 (llama.cpp's mmproj file).
2. **Fit**: under the seed calibration a quant fits when ``need <= fits x VRAM`` (0.90); under a
   calibration with ``fit: budget`` (measured) when need, with llama.cpp's compute buffer at the
   context, is within the device's memory budget (``macros/budget.py``: VRAM less what the driver
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

from dataclasses import dataclass, field, replace
from functools import lru_cache
from pathlib import Path
from typing import ClassVar, Iterable, Literal

from .budget import (GB_PER_GIB, MemoryBudget, RaisedLimit, compute_buffer_gb, device_budget_gb, raised_limit,
                     read_budget)
from .catalogue import (DATA_DIR, MAX_CARD_MEMORY_GB, MAX_CONTEXT, VENDORS, Architecture, Card, LatentCache,
                        Model)
from .errors import DataError
from .measured import BACKENDS
from .records import FieldReader, load_yaml

FIT_LABELS = ("comfortable", "tight", "none")
# Whether a quant fits a card: comfortably, tightly, or not at all.
Verdict = Literal["comfortable", "tight", "none"]
# How a card runs a model: the whole of it on the card (comfortable or tight), or part of it in
# system RAM (offload).
FitKind = Literal["comfortable", "tight", "offload"]
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
# How a calibration judges a fit: the seed's share of VRAM, or the memory budget (macros/budget.py).
FIT_RULES = ("share", "budget")


@dataclass(frozen=True)
class Quant:
    name: str
    bits_per_weight: float
    rank: int  # 0 = best quality
    # Offered only to models whose weights ship in it (MXFP4: gpt-oss).
    native_only: bool = False
    family: str = ""  # legacy, k, i, mx, float (quant_families in data/estimator.yaml)


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
    # (macros/budget.py: the device's real budget against need with llama.cpp's compute buffer).
    fit_rule: str = "share"
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


@dataclass(frozen=True)
class Settings:
    file: str
    context_tokens: int
    min_quality: str
    max_quality: str
    reading_speed_tok_s: float
    vram_tiers_gb: tuple[int, ...]
    multi_gpu_counts: tuple[int, ...]
    multi_gpu_example: dict[str, str]
    fits: float
    comfortable: float
    shortfall_quant: str
    compute_buffer_gb: float
    kv_estimate_gb_per_1k_tokens: float
    vision_bits_per_weight: float
    kv_bytes_per_element: dict[str, float]
    default_kv_precision: str
    quants: tuple[Quant, ...]
    calibrations: dict[str, Calibration]
    default_calibration: str
    other_quant_bits: dict[str, float] = field(default_factory=dict)
    quant_families: dict[str, str] = field(default_factory=dict)   # quant name (upper case) -> family
    reference_quant_family: str = "k"
    budget: MemoryBudget | None = None   # fit.budget: the rule of calibrations with fit: budget

    def family_of(self, name: str) -> str:
        return self.quant_families.get(name.upper(), "")

    def known_quant(self, name: str, rank: int) -> Quant | None:
        """A quant of the ladder, or one only measured runs use (at ``rank``), or None."""
        for quant in self.quants:
            if quant.name.casefold() == name.casefold():
                return quant
        bits = self.other_quant_bits.get(name.upper())
        return Quant(name, bits, rank, family=self.family_of(name)) if bits else None

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

    def allowed_quants(self, floor: str | Quant | None = None,
                       ceiling: str | Quant | None = None) -> tuple[Quant, ...]:
        """The quants a card may get, best first: from the ceiling down to the floor (a floor
        above the ceiling lifts it), without the formats only some models ship in."""
        floor_quant = floor if isinstance(floor, Quant) else self.quant(floor or self.min_quality)
        ceiling_quant = ceiling if isinstance(ceiling, Quant) else self.quant(ceiling or self.max_quality)
        top = min(ceiling_quant.rank, floor_quant.rank)
        return tuple(q for q in self.quants if top <= q.rank <= floor_quant.rank and not q.native_only)

    def model_quants(self, model: Model, floor: str | Quant | None = None,
                     ceiling: str | Quant | None = None) -> tuple[Quant, ...]:
        """What a model is offered in: its native format alone, or the allowed quants."""
        if model.native_format:
            return (self.quant(model.native_format),)
        return self.allowed_quants(floor, ceiling)


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


def read_quant_families(r: FieldReader, known: Iterable[str]) -> tuple[dict[str, str], str]:
    """(quant name in upper case -> family, the reference family): every known quant in one family."""
    families = r.mapping("quant_families")
    known = [k.upper() for k in known]
    family_of: dict[str, str] = {}
    for family in list(families.data):
        for name in families.texts(family):
            if name.upper() not in known:
                raise families.error(str(family), "quants of quants or other_quant_bits", name)
            if name.upper() in family_of:
                raise families.error(str(family), "each quant in one family", name)
            family_of[name.upper()] = str(family)
    families.finish()
    for name in known:
        if name not in family_of:
            raise r.error("quant_families", "a family for every quant of quants and other_quant_bits", name)
    reference = r.choice("reference_quant_family", [str(f) for f in families.data])
    return family_of, reference


def read_settings(path: Path) -> Settings:
    r = FieldReader(path, load_yaml(path))
    quants = []
    for rank, q in enumerate(r.mappings("quants")):
        quants.append(Quant(q.text("name"), q.number("bits_per_weight", above=0, minimum=0.5, maximum=32), rank,
                            q.boolean("native_only", required=False) or False))
        q.finish()
    if not quants:
        raise r.error("quants", "at least one quantization")
    seen = set()
    for quant in quants:
        if quant.name.casefold() in seen:
            raise r.error("quants", "each quant name once", quant.name)
        seen.add(quant.name.casefold())
    other_bits = read_bits(r.mapping("other_quant_bits", required=False))
    family_of, reference_family = read_quant_families(r, [q.name for q in quants] + list(other_bits))
    ladder = tuple(replace(q, family=family_of[q.name.upper()]) for q in quants)
    families = sorted(set(family_of.values()))
    fit = r.mapping("fit")
    budget_reader = fit.mapping("budget", required=False)
    memory = r.mapping("memory")
    kv_bytes = memory.mapping("kv_bytes_per_element")
    calibrations = r.mapping("calibrations")
    settings = Settings(
        file=str(path),
        context_tokens=r.integer("context_tokens", minimum=1, maximum=MAX_CONTEXT),
        min_quality=r.text("min_quality"),
        max_quality=r.text("max_quality"),
        reading_speed_tok_s=r.number("reading_speed_tok_s", above=0, maximum=MAX_READING_SPEED),
        vram_tiers_gb=r.integers("vram_tiers_gb", maximum=int(MAX_CARD_MEMORY_GB)),
        multi_gpu_counts=r.integers("multi_gpu_counts", minimum=2, maximum=MAX_GPUS, required=True),
        multi_gpu_example=read_example(r.mapping("multi_gpu_example")),
        fits=fit.number("fits", above=0, maximum=1),
        comfortable=fit.number("comfortable", above=0, maximum=1),
        shortfall_quant=fit.text("shortfall_quant"),
        compute_buffer_gb=memory.number("compute_buffer_gb", minimum=0, maximum=MAX_BUFFER_GB),
        kv_estimate_gb_per_1k_tokens=memory.number("kv_estimate_gb_per_1k_tokens", minimum=0,
                                                   maximum=MAX_KV_GB_PER_1K),
        vision_bits_per_weight=memory.number("vision_encoder_bits_per_weight", above=0, maximum=32),
        kv_bytes_per_element={str(k): kv_bytes.number(k, above=0, maximum=MAX_KV_BYTES) for k in list(kv_bytes.data)},
        default_kv_precision=memory.text("default_kv_precision"),
        quants=ladder,
        calibrations={str(name): read_calibration(str(name), calibrations.mapping(name), ladder, families,
                                                  reference_family)
                      for name in list(calibrations.data)},
        default_calibration=r.text("default_calibration"),
        other_quant_bits=other_bits,
        quant_families=family_of,
        reference_quant_family=reference_family,
        budget=read_budget(budget_reader) if budget_reader is not None else None,
    )
    for reader in (fit, kv_bytes, memory, calibrations, r):
        reader.finish()
    for name, calibration in settings.calibrations.items():
        if calibration.fit_rule == "budget" and settings.budget is None:
            raise calibrations.error(f"{name}.fit", "fit.budget in the file, for the budget rule", "budget")
    if settings.comfortable > settings.fits:
        raise fit.error("comfortable", f"at most fits ({settings.fits})", settings.comfortable)
    names = [q.name for q in quants]
    for reader, key, value in ((r, "min_quality", settings.min_quality), (r, "max_quality", settings.max_quality),
                               (fit, "shortfall_quant", settings.shortfall_quant)):
        if value.casefold() not in {n.casefold() for n in names}:
            raise reader.error(key, "one of " + ", ".join(names), value)
    if settings.quant(settings.max_quality).rank > settings.quant(settings.min_quality).rank:
        raise r.error("max_quality", f"a quant at or above min_quality ({settings.min_quality})",
                      settings.max_quality)
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
    window; latent attention keeps one compressed vector per token and layer;
    linear-attention (and SSM) layers keep a fixed state and no per-token cache.

    >>> llama_8b = Architecture(layers=32, attention="gqa", kv_heads=8, head_dim=128)
    >>> round(kv_cache_gb(llama_8b, 4096, 2.0), 3)
    0.537
    """
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


@dataclass(frozen=True)
class Memory:
    weights_gb: float
    kv_gb: float
    buffer_gb: float
    from_architecture: bool
    vision_gb: float = 0.0  # vision encoder, F16

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
                  model.architecture is not None, vision_gb(model, settings))


def vision_gb(model: Model, settings: Settings) -> float:
    """The vision encoder, loaded apart from the language model at F16 (llama.cpp's mmproj)."""
    return (model.vision_encoder_b or 0.0) * settings.vision_bits_per_weight / 8


# ---------------------------------------------------------------- speed

def tokens_per_second(model: Model, quant: Quant, card: Card, calibration: Calibration,
                      kv_gb: float = 0.0, backend: str | None = None) -> float:
    """Decode speed of one request: bandwidth over the bytes read per token, plus any fixed cost.

    ``kv_gb`` is the KV cache at the chosen context: each new token reads it (``kv_read_factor``
    of it), so a row at 32,768 tokens is slower than at 4,096. ``backend`` (scoring a measured
    run) applies the class's factor for a backend other than the one its constants are for.

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
    working = speed_working(model, quant, card, calibration, kv_gb, backend)
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
    backend: str | None = None  # the llama.cpp backend the class's efficiency is for

    @property
    def seconds_per_token(self) -> float:
        return (self.read_gb + self.kv_read_gb) / (self.bandwidth_gb_s * self.efficiency) + self.overhead_ms / 1000


def speed_working(model: Model, quant: Quant, card: Card, calibration: Calibration,
                  kv_gb: float = 0.0, backend: str | None = None) -> SpeedWorking:
    speed_class = calibration.speed_class(card)
    return SpeedWorking(weights_gb(model.read_parameters_b, quant), card.bandwidth_gb_s,
                        calibration.factor(quant, card, backend), calibration.overhead(card),
                        kv_gb * calibration.kv_read_factor, speed_class.name if speed_class else None,
                        speed_class.backend if speed_class else None)


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
    return class_prompt_tokens_per_second(model, card, speed_class) if speed_class else None


def class_prompt_tokens_per_second(model: Model, card: Card, speed_class: SpeedClass) -> float:
    """Prompt processing speed with the constants of ``speed_class``."""
    if card.compute_tflops:
        flop_s = card.compute_tflops * 1e12 * speed_class.prompt_efficiency
    else:
        flop_s = card.bandwidth_gb_s * 1e9 * speed_class.prompt_flop_per_byte
    return flop_s / (2 * model.read_parameters_b * 1e9)


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
    memory budget (macros/budget.py) under a calibration with ``fit: budget``."""
    if uses_budget(settings, calibration):
        assert settings.budget is not None
        return device_budget_gb(card, settings.budget)
    return settings.fits * card.vram_gb


def memory_gb(card: Card, settings: Settings, calibration: Calibration | None = None) -> float:
    """The device's memory in the decimal GB needs are counted in: the budget reads its label as the
    binary gigabytes it is sold in; the seed's rule reads it as it is written."""
    return card.vram_gb * (GB_PER_GIB if uses_budget(settings, calibration) else 1.0)


def calibrated_memory(memory: Memory, context: int, settings: Settings,
                      calibration: Calibration | None = None) -> Memory:
    """The memory a run needs under ``calibration``: with the budget rule, llama.cpp's compute
    buffer at this context in place of the flat buffer (the same at the default context)."""
    if not uses_budget(settings, calibration):
        return memory
    assert settings.budget is not None
    return replace(memory, buffer_gb=compute_buffer_gb(context, settings.budget))


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
            prompt = prompt_tokens_per_second(model, card, calibration)
            return Fit(card, candidate, memory, tok_s, tok_s * low, tok_s * high, fit,
                       prompt, context / prompt if prompt else None)
    # Not fitting: the memory it would need is known only when one quant was in question.
    only = calibrated_memory(candidates[0][1], context, settings, calibration) if len(candidates) == 1 else None
    return Miss(card, only, raised_fit(card, settings, calibration, candidates, context))


def speed_order(e: Fit) -> tuple:
    """Fastest first; on equal speed the newest card first, then by name."""
    released = e.card.released.toordinal() if e.card.released else 0
    return (-(round(e.tok_s, 6) if e.tok_s else -1.0), -released, e.card.name.casefold())
