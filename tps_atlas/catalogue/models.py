"""The models: ``data/models/<id>.yaml``, one file per model, each read into a ``Model`` with
its attention layout (``Architecture``) and sources.
"""

from __future__ import annotations

import datetime as dt
import re
from dataclasses import dataclass, replace
from pathlib import Path

from tps_atlas.records import vocabulary
from tps_atlas.catalogue.quants import ladder_names
from tps_atlas.errors import DataError
from tps_atlas.paths import DATA_DIR
from tps_atlas.records.fields import FieldReader
from tps_atlas.records.strict_yaml import load_yaml
from tps_atlas.catalogue.limits import (HUGGINGFACE_PATTERN, HUGGINGFACE_URL, ID_PATTERN, MAX_CONTEXT, MAX_EXPERTS,
                                        MAX_HEADS, MAX_HEAD_DIM, MAX_LAYERS, MAX_NAME, MAX_PARAMETERS_B,
                                        MAX_VOCABULARY, MIN_PARAMETERS_B, MIN_VOCABULARY, RESERVED_IDS,
                                        URL_PATTERN, name_key)


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
class Compression:
    """Layers of compressed attention (DeepSeek V4) that keep one entry of ``head_dim`` per
    ``ratio`` tokens, beside their sliding window: its compressed sparse attention every 4 tokens,
    with a lightning-indexer key of ``indexer_head_dim`` per entry to choose the entries it reads;
    its heavily compressed attention every 128, read whole."""

    layers: int
    ratio: int
    indexer_head_dim: int | None = None


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
    # Tokens of the vocabulary: the logits llama.cpp reserves its compute buffer for grow with it.
    vocab_size: int | None = None
    # Compressed attention (attention "csa"): every layer keeps its last ``sliding_window`` tokens
    # as one shared key-value vector of ``kv_heads x head_dim``; these layers keep compressed ones too.
    compressed_layers: tuple[Compression, ...] | None = None
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
    added: dt.date | None = None             # when the record entered the catalogue (the feed, the page)
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

def read_compression(reader: FieldReader, layers: int) -> Compression:
    group = Compression(layers=reader.integer("layers", minimum=1, maximum=layers),
                        ratio=reader.integer("ratio", minimum=2, maximum=MAX_CONTEXT),
                        indexer_head_dim=reader.integer("indexer_head_dim", required=False, minimum=1,
                                                        maximum=MAX_HEAD_DIM))
    reader.finish()
    return group


def read_architecture(reader: FieldReader) -> Architecture:
    attention = reader.choice("attention", vocabulary.ATTENTION_KINDS)
    layers = reader.integer("layers", minimum=1, maximum=MAX_LAYERS)
    compressed = tuple(read_compression(g, layers) for g in reader.mappings("compressed_layers"))
    if attention == "csa" and not compressed:
        raise reader.error("compressed_layers", "the compressed layers of compressed attention (csa): "
                           "a list of layers and ratio")
    if compressed and attention != "csa":
        raise reader.error("compressed_layers", "no compressed layers unless attention is csa", attention)
    arch = Architecture(
        layers=layers,
        vocab_size=reader.integer("vocab_size", minimum=MIN_VOCABULARY, maximum=MAX_VOCABULARY),
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
        compressed_layers=compressed or None,
        calibrations=reader.texts("calibrations", vocabulary.CALIBRATIONS),
    )
    reader.finish()
    if compressed and sum(g.layers for g in compressed) > layers - (arch.linear_attention_layers or 0):
        raise reader.error("compressed_layers", f"at most {layers - (arch.linear_attention_layers or 0)} layers "
                           "in all (layers less linear_attention_layers)", sum(g.layers for g in compressed))
    if attention == "csa" and (arch.sliding_window is None or arch.sliding_window_layers is not None):
        raise reader.error("sliding_window", "the window every layer of compressed attention (csa) keeps, "
                           "without sliding_window_layers")
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
        added=r.date("added", required=False, latest=dt.date.today()),
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
