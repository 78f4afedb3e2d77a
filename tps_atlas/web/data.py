"""What the in-browser calculator needs, as JSON: one asset per site, one small label set per page.

``site_data`` is the single source of truth the browser reads: every constant and
calibration of ``data/estimator.yaml``, the card catalogue and, of each model, only
what the estimator uses (parameters, active parameters, attention layout).
``docs/assets/calculator.js`` implements the formulas of ``tps_atlas/estimate/`` (memory, speed, fit) on
it; ``tests/test_parity.py`` holds the two to the same answers.

``page_labels`` is what one model page adds: its sentences and labels, already
translated and formatted here (the browser formats only numbers and months).

>>> from tps_atlas.catalogue.load import load_catalogue
>>> from tps_atlas.estimate.settings import load_settings
>>> data = site_data(load_catalogue(), load_settings(), "seed")
>>> data["calibration"], data["settings"]["fit"]
('seed', {'fits': 0.9, 'comfortable': 0.75, 'smallest_shortfall_gb': 0.1})
>>> data["models"]["glm-130b"]["parameters_b"]
130.0
"""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

from tps_atlas.records import vocabulary
from tps_atlas.pages.card import CONTEXT_LIMIT
from tps_atlas.estimate.budget import (BUFFER_REFERENCE_TOKENS, GB_PER_GIB, LOGIT_BYTES, UBATCH_TOKENS, MemoryBudget,
                                     device_budget_gb, keeps_display, raised_limit)
from tps_atlas.catalogue.cards import Card
from tps_atlas.measured.mixed_runs import load_mixed_runs
from tps_atlas.catalogue.load import Catalogue
from tps_atlas.catalogue.models import Model
from tps_atlas.estimate.calibration import Calibration
from tps_atlas.estimate.settings import Settings
from tps_atlas.measured.runs import MeasuredIndex, Run, chip_of, load_runs
from tps_atlas.i18n.names import browser_forms, card_kind
from tps_atlas.pages.model.headline import (DEVICES_RUN_IT, FASTEST_DEVICE, FASTEST_ENTIRELY, NO_DEVICE, NONE_RUN_IT,
                                             RUN_PARTS, ALL_ENTIRELY, ALL_IN_RAM, SMALLEST_CARD, SMALLEST_DEVICE)
from tps_atlas.pages.model.builder import FIT_LABELS
from tps_atlas.pages.model.rows import (MEASURED, MEASURED_DEPTH, MEASURED_DETAIL, MEASURED_DETAIL_NO_BUILD,
                                        MEASURED_EMPTY, MEASURED_OTHER, fit_label)
from tps_atlas.pages.model.working import WORKING_CHECK, WORKING_TITLE, working_lines
from tps_atlas.i18n.phrases import N_, Phrases
from tps_atlas.estimate.offload import RamSettings, load_ram
from tps_atlas.pages.offload import (DETAIL_EXPERTS, DETAIL_LAYERS, OFFLOAD_LINES_COMMON, OFFLOAD_LINES_EXPERTS,
                                     OFFLOAD_LINES_LAYERS, OFFLOAD_TITLE, RUN_IT, ram_kind_name)
from tps_atlas.estimate.verdict import SMALLEST_SHORTFALL_GB
from tps_atlas.pages.verdict_text import RAISED_CELL

ASSET_PATH = "assets/tps-data.json"
# The card pages' words, one file per language (the 824 card pages of a language share it).
CARD_LABELS_PATH = "assets/tps-cards.{language}.json"
FORMAT_VERSION = 1


def calibration_data(c: Calibration) -> dict:
    return {
        # The seed's own rules (the shortfall's quant: calculator.js shortfallOf) go by the name.
        "name": c.name,
        "description": c.description,
        "quant_efficiency": dict(c.quant_efficiency),
        "vendor_factors": dict(c.vendor_factors),
        "architecture_factors": dict(c.architecture_factors),
        "memory_type_factors": dict(c.memory_type_factors),
        "overhead_ms": c.overhead_ms,
        "range": {"low": c.range_low, "high": c.range_high},
        "confidence": c.confidence,
        "kv_read_factor": c.kv_read_factor, "prompt_moe_factor": c.prompt_moe_factor,
        "fit_rule": c.fit_rule,
        "classes": [{"name": k.name, "vendors": list(k.vendors), "architectures": list(k.architectures),
                     "memory_types": list(k.memory_types), "efficiency": k.efficiency,
                     "overhead_ms": k.overhead_ms, "prompt_efficiency": k.prompt_efficiency,
                     "prompt_flop_per_byte": k.prompt_flop_per_byte,
                     "prompt_kv_flop_per_byte": k.prompt_kv_flop_per_byte,
                     # Backend factors only score measured runs: the pages estimate the class's backend.
                     "backend": k.backend, "quant_factors": dict(k.quant_factors),
                     "range": {"low": k.range_low, "high": k.range_high}} for k in c.classes],
    }


def settings_data(s: Settings) -> dict:
    return {
        "context_tokens": s.context_tokens,
        "min_quality": s.min_quality,
        "max_quality": s.max_quality,
        # A card that cannot hold a model is short by what this quant (or the floor, if better) needs.
        "shortfall_quant": s.shortfall_quant,
        "reading_speed_tok_s": s.reading_speed_tok_s,
        "vram_tiers_gb": list(s.vram_tiers_gb),
        # Sets of identical cards offered where one card cannot hold a model (docs/assets/verdict.js).
        "multi_gpu_counts": list(s.multi_gpu_counts),
        "fit": {"fits": s.fits, "comfortable": s.comfortable,
                # A device short by less than this is still said to be short by it (verdict.Shortfall.shown_gb).
                "smallest_shortfall_gb": SMALLEST_SHORTFALL_GB},
        # The memory budget of calibrations with fit_rule "budget" (tps_atlas/estimate/budget.py): the buffer's growth
        # with context and GiB to GB (each card's budget and raised limit are in its record).
        **({"budget": {"gb_per_gib": GB_PER_GIB, "buffer_base_gb": s.budget.buffer_base_gb,
                       "buffer_per_1k_tokens_gb": s.budget.buffer_per_1k_tokens_gb,
                       "buffer_reference_tokens": BUFFER_REFERENCE_TOKENS,
                       "buffer_reference_vocab": s.budget.buffer_reference_vocab,
                       "ubatch_tokens": UBATCH_TOKENS, "logit_bytes": LOGIT_BYTES}} if s.budget else {}),
        "memory": {
            "compute_buffer_gb": s.compute_buffer_gb,
            "kv_estimate_gb_per_1k_tokens": s.kv_estimate_gb_per_1k_tokens,
            "kv_bytes_per_element": dict(s.kv_bytes_per_element),
            "default_kv_precision": s.default_kv_precision,
            "vision_encoder_bits_per_weight": s.vision_bits_per_weight,
        },
        # A machine of several GPUs (tps_atlas/estimate/machine.py): its limits, handoff and what each OS keeps.
        **({"machine": {"max_cards": s.machine.max_cards, "max_ram_gb": s.machine.max_ram_gb,
                        "handoff_ms": s.machine.handoff_ms, "default_os": s.machine.default_os,
                        "os": [{"id": o.id, "name": o.name, "ram_keeps_gb": o.ram_keeps_gb,
                                "display_reserve_gb": o.display_reserve_gb} for o in s.machine.systems]}}
           if s.machine else {}),
        # Best quality first, as in data/estimator.yaml: the order is the rank.
        "quants": [{"name": q.name, "bits_per_weight": q.bits_per_weight, "family": q.family,
                    **({"native_only": True} if q.native_only else {})}
                   for q in s.quants],
    }


def card_data(c: Card, budget: MemoryBudget | None = None) -> dict:
    raised = raised_limit(c, budget) if budget else None
    return {
        # What the device gives under the memory budget, decided here once (tps_atlas/estimate/budget.py).
        **({"budget_gb": device_budget_gb(c, budget)} if budget else {}),
        # The display reserve inside budget_gb: a machine keeps it on its main GPU only (estimate/machine.py).
        **({"display_gb": budget.display_reserve_gb} if budget and keeps_display(c, budget) else {}),
        **({"raised": {"method": raised.method, "os": raised.os, "budget_gb": raised.budget_gb}} if raised else {}),
        "id": c.id,
        "name": c.name,
        "vendor": c.vendor,
        "vram_gb": c.vram_gb,
        "bandwidth_gb_s": c.bandwidth_gb_s,
        "released": c.released.isoformat() if c.released else None,
        "memory_type": c.memory_type,
        "architecture": c.architecture,
        **({"aliases": list(c.aliases)} if c.aliases else {}),
        "compute_tflops": c.compute_tflops,
        "chip": chip_of(c),
        "unified": c.unified,
        # The "My device" answer words a graphics card and a machine or chip differently (tps_atlas/web/ui.py).
        "kind": c.kind,
        # How a sentence names it (gpu, processor, computer): the calculator's {card:dat} (tps_atlas/i18n/names.py).
        "name_kind": card_kind(c.name),
    }


def ram_data(r: RamSettings) -> dict:
    """data/ram.yaml: the RAM beside the card, for models that do not fit it (tps_atlas/estimate/offload.py)."""
    return {
        "default": {"size_gb": r.default_size_gb, "kind": r.default_kind},
        "os_reserve_gb": r.os_reserve_gb, "os_keeps_gb": r.os_keeps_gb, "best_quant": r.best_quant,
        "efficiency": r.efficiency,
        "overhead_ms": r.overhead_ms, "range": {"low": r.range_low, "high": r.range_high},
        "pcie_gb_s": r.pcie_gb_s, "batch_tokens": r.batch_tokens,
        "kinds": [{"id": k.id, "bandwidth_gb_s": k.bandwidth_gb_s} for k in r.kinds],
    }


def model_data(m: Model) -> dict:
    arch = m.architecture
    return {
        "name": m.name,   # the machine page ranks every model by name (docs/assets/machine.js)
        "parameters_b": m.parameters_b,
        "active_parameters_b": m.active_parameters_b,
        "read_parameters_b": m.read_parameters_b,
        **({"vision_encoder_b": m.vision_encoder_b} if m.vision_encoder_b else {}),
        **({"native_format": m.native_format} if m.native_format else {}),
        # Offload (tps_atlas/estimate/offload.py) tells the routed experts from the rest.
        "experts_total": m.experts_total,
        "experts_active": m.experts_active,
        "architecture": {k: v for k, v in dataclasses.asdict(arch).items() if v is not None} if arch else None,
    }


def measured_data(catalogue: Catalogue, runs: tuple[Run, ...]) -> dict:
    """Per model, the decode runs its rows may show (tps_atlas/measured/runs.py), ranked as Python ranks
    them after model and card: the browser picks the same run as the pages."""
    index = MeasuredIndex(runs, catalogue.cards_by_id, catalogue.models_by_id)
    out = {}
    for model in catalogue.models:
        found = []
        for (chip, _), chip_runs in index.by_chip.items():
            for run in chip_runs:
                if index.matches(run, model):
                    found.append((index.rank_key(run), chip, run))
        if found:
            found.sort(key=lambda item: item[0])
            out[model.id] = [{"chip": chip, "card": run.card, "quant": run.quant, "own": run.model == model.id,
                              "rank": rank, "tok_s": run.tok_s, "backend": run.backend, "build": run.build,
                              "depth": run.depth,
                              "date": run.date, "source": run.source, "model_name": run.model_name}
                             for rank, (_, chip, run) in enumerate(found)]
    return out


def site_data(catalogue: Catalogue, settings: Settings, calibration: str | None = None,
              runs: tuple[Run, ...] | None = None) -> dict:
    """Everything the browser estimator reads. ``calibration`` is the one the site's pages use;
    all of them are exported (the parity test runs each)."""
    used = settings.calibration(calibration)
    catalogue = catalogue.for_calibration(used.name)
    return {
        "version": FORMAT_VERSION,
        "calibration": used.name,
        "settings": settings_data(settings),
        "calibrations": {name: calibration_data(c) for name, c in settings.calibrations.items()},
        # In catalogue order (vendor, then name): the order the pages rank from.
        "cards": [card_data(c, settings.budget) for c in catalogue.cards],
        "models": {m.id: model_data(m) for m in catalogue.models},
        "measured": measured_data(catalogue, load_runs() if runs is None else runs),
        "ram": ram_data(load_ram()),
        # Layer-split runs on machines of different GPUs, shown beside a machine's estimate (docs/assets/machine.js).
        "mixed_measured": [{"cards": list(r.cards), "model": r.model, "quant": r.quant, "tok_s": r.tok_s,
                            "date": r.date, "source": r.source}
                           for r in load_mixed_runs() if r.split_mode == "layer" and r.quant],
    }


def script_safe_json(value, **dumps_options) -> str:
    """JSON with no '<', '>' or '&', even inside strings (JSON reads the escapes back): safe in a
    <script> element and in a file whose names are data.

    >>> script_safe_json({"name": "</script>&"})
    '{"name": "\\\\u003c/script\\\\u003e\\\\u0026"}'
    """
    text = json.dumps(value, ensure_ascii=False, sort_keys=True, **dumps_options)
    return text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")


def write_json(site_dir: Path, relative: str, data) -> Path:
    """One JSON file of the built site, compact and script-safe (the calculator's assets, the open data)."""
    path = Path(site_dir) / relative
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(script_safe_json(data, separators=(",", ":")), encoding="utf-8")
    return path


def write_site_data(site_dir: Path, data: dict) -> Path:
    """Write the asset once for the whole site (every language reads the same file)."""
    return write_json(site_dir, ASSET_PATH, data)


# ---------------------------------------------------------------- one page

def plural_runs(phrases: Phrases, forms: tuple[str, str], largest: int) -> list[tuple[int, str]]:
    """The form gettext picks for every count from 0 to ``largest``, as runs: [(first count, text)].

    The browser looks up the last run that starts at or below its count: the language's own
    plural rule, worked out here, with no rule to copy into JavaScript.

    >>> plural_runs(Phrases("en"), ("device runs it", "devices run it"), 5)
    [(0, 'devices run it'), (1, 'device runs it'), (2, 'devices run it')]
    >>> [start for start, _ in plural_runs(Phrases("fr"), ("device runs it", "devices run it"), 5)]
    [0, 2]
    """
    runs: list[tuple[int, str]] = []
    for count in range(largest + 1):
        text = phrases.catalogue.ngettext(forms[0], forms[1], count)
        if not runs or runs[-1][1] != text:
            runs.append((count, text))
    return runs


# Shown when the context asked for is longer than the model reads (its max_context).
# TRANSLATORS: a warning above the figures; {model} is a model, {max_context} and {context} numbers of tokens.
# Example: 'Llama 2 7B reads at most 4,096 tokens of context: at 32,768 tokens these figures are beyond what it
# can use.'
BEYOND_CONTEXT = N_("{model} reads at most {max_context} tokens of context: at {context} tokens these figures "
                    "are beyond what it can use.")


def context_warning(phrases: Phrases, model: Model, context: int | str) -> str:
    """The warning for ``context`` (empty when the model reads that much); ``context="{context}"``
    leaves the placeholder for the browser.

    >>> from tps_atlas.catalogue.models import Architecture
    >>> layout = Architecture(4, "gqa", 1, 64, max_context=2048)
    >>> old = Model("m", "Old & Small", "m.yaml", True, 1.0, architecture=layout)
    >>> context_warning(Phrases("en"), old, 4096)  # doctest: +ELLIPSIS
    'Old &amp; Small reads at most 2,048 tokens of context: at 4,096 tokens these figures are beyond what ...'
    >>> context_warning(Phrases("en"), old, 4096).endswith("what it can use.")
    True
    >>> context_warning(Phrases("en"), old, 2048)
    ''
    """
    limit = model.architecture.max_context if model.architecture else None
    if limit is None or (isinstance(context, int) and context <= limit):
        return ""
    f = phrases.fmt
    shown = f.count(context) if isinstance(context, int) else context
    return str(phrases.t(BEYOND_CONTEXT, model=model.name, max_context=f.count(limit), context=shown))


def page_labels(phrases: Phrases, model: Model, settings: Settings, cards_total: int,
                confidence: str, headers: list[str]) -> dict:
    """The translated words one model page's calculator shows; numbers are formatted in the browser."""
    p, f = phrases, phrases.fmt
    return {
        "language": p.language,
        "model": model.id,
        "defaults": {"context": settings.context_tokens, "floor": settings.quant(settings.min_quality).name,
                     "ceiling": settings.quant(settings.max_quality).name,
                     "ram": load_ram().default_size_gb, "ram_kind": load_ram().default_kind},
        "fit": {key: fit_label(phrases, key) for key in FIT_LABELS},
        "confidence": confidence,
        "devices_run": plural_runs(p, DEVICES_RUN_IT, cards_total),
        "run_parts": p.gettext(RUN_PARTS),
        "all_entirely": p.gettext(ALL_ENTIRELY),
        "all_in_ram": p.gettext(ALL_IN_RAM),
        "no_device": p.gettext(NO_DEVICE),
        "none_run": p.gettext(NONE_RUN_IT),
        "smallest": p.gettext(SMALLEST_CARD),
        "smallest_device": p.gettext(SMALLEST_DEVICE),
        "fastest": p.gettext(FASTEST_DEVICE),
        "fastest_entirely": p.gettext(FASTEST_ENTIRELY),
        # TRANSLATORS: {model} is a model's name. Example: 'No card in our catalogue can run Kimi K2 at these
        # settings.'
        "no_fit": str(p.t(N_("No device in our catalogue can run {model} at these settings."), model=model.name)),
        "units": f.browser_units(),
        "headers": headers,
        "max_context": model.architecture.max_context if model.architecture else None,
        "beyond_context": context_warning(p, model, "{context}"),
        # The worked example's parameter count, in words as the page writes it ("8.2 billion").
        "read_params": f.parameters(model.read_parameters_b),
        # Phrases of the worked example any row can show; the browser fills the placeholders.
        "working": {"title": p.gettext(WORKING_TITLE),
                    "lines": [p.gettext(line) for line in working_lines(model, False)],
                    "class_lines": [p.gettext(line) for line in working_lines(model, True)],
                    "check": p.gettext(WORKING_CHECK),
                    "speed_classes": {k: p.term(label) for k, label in vocabulary.SPEED_CLASSES.items()}},
        "measured": {"text": p.gettext(MEASURED), "other": p.gettext(MEASURED_OTHER),
                     "detail": p.gettext(MEASURED_DETAIL), "detail_no_build": p.gettext(MEASURED_DETAIL_NO_BUILD),
                     "empty": p.gettext(MEASURED_EMPTY), "depth": p.gettext(MEASURED_DEPTH)},
        # Rows that run with part of the model in system RAM (tps_atlas/pages/offload.py).
        "offload": {"experts": p.gettext(DETAIL_EXPERTS), "layers": p.gettext(DETAIL_LAYERS),
                    "title": p.gettext(OFFLOAD_TITLE),
                    "experts_lines": [p.gettext(line) for line in OFFLOAD_LINES_EXPERTS + OFFLOAD_LINES_COMMON],
                    "layers_lines": [p.gettext(line) for line in OFFLOAD_LINES_LAYERS + OFFLOAD_LINES_COMMON]},
        "run": p.gettext(RUN_IT),
        # The forms of a card's name (tps_atlas/i18n/names.py) the worked example's titles ask for: {card:acc}.
        "names": browser_forms(p.language),
    }


# ---------------------------------------------------------------- card pages

# What the card tables (tps_atlas/mkdocs/templates/card_tables.html) say when the inputs change.
# The headings are the template's own phrases (extracted from it), looked up here unmarked.
CARD_HEADERS = {"models": ("Fit", "Speed", "Model", "Parameters", "Needs", "Quantization"),
                "offload": ("Speed", "Model", "Parameters", "Needs", "Quantization", "In system memory"),
                "misses": ("Model", "Short by", "Needs", "Quantization", "Parameters")}
CARD_HEADINGS = {"offload_heading": "Models it runs with offload", "misses_heading": "Models it cannot hold"}
CARD_NONE_FIT = N_("None of the models we track fits on it at these settings.")
# The offload table's introduction once the reader has set the RAM (no longer "a typical gaming PC").
# TRANSLATORS: only graphics cards offload, so {card} is always one (the browser fills it: no case);
# {ram_size}, {ram_kind} and {ram_bandwidth} the system memory chosen. Example: "These models do not fit on
# the GeForce RTX 4090 alone but run with part of them in system memory, worked out for 128 GB of 2-channel
# DDR5-6000 (96.0 GB/s). ..."
CARD_OFFLOAD_INTRO_CHOSEN = N_("These models do not fit on the {card} alone but run with part of them in system "
                               "memory, worked out for {ram_size} of {ram_kind} ({ram_bandwidth}). The more "
                               "of a model sits in RAM, the slower it runs.")


def card_labels(phrases: Phrases, catalogue: Catalogue, confidence: str) -> dict:
    """The words of every card page of one language, for the browser's card calculator: one file
    per language instead of a copy in each of the 824 pages. Numbers are formatted in the browser;
    the parameter counts here, as the pages write them."""
    p, f, g = phrases, phrases.fmt, phrases.gettext
    return {
        "language": p.language,
        "units": f.browser_units(),
        "confidence": confidence,
        "fit": {key: fit_label(phrases, key) for key in FIT_LABELS},
        "headers": {name: [g(h) for h in headers] for name, headers in CARD_HEADERS.items()},
        **{key: g(text) for key, text in CARD_HEADINGS.items()},
        "none_fit": g(CARD_NONE_FIT),
        "raised_cell": g(RAISED_CELL),
        "context_limit": g(CONTEXT_LIMIT),
        "offload_intro": g(CARD_OFFLOAD_INTRO_CHOSEN),
        "ram_kinds": {k.id: ram_kind_name(p, k) for k in load_ram().kinds},
        "measured": {"text": g(MEASURED), "other": g(MEASURED_OTHER), "detail": g(MEASURED_DETAIL),
                     "detail_no_build": g(MEASURED_DETAIL_NO_BUILD), "empty": g(MEASURED_EMPTY),
                     "depth": g(MEASURED_DEPTH)},
        "offload": {"experts": g(DETAIL_EXPERTS), "layers": g(DETAIL_LAYERS)},
        # Per model: name and parameters as a table cell (every table of a card page writes them so).
        "models": {m.id: [m.name, f.parameters_short(m.parameters_b)]
                   for m in catalogue.models},
    }


def write_card_labels(site_dir: Path, language: str, labels: dict) -> Path:
    return write_json(site_dir, CARD_LABELS_PATH.format(language=language), labels)
