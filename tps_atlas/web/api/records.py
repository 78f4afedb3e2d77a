"""The API's records: the catalogue and the estimate table as plain JSON values.

Every figure is the estimator's, read from the verdict ``tps_atlas/estimate/verdict.py`` decided for the pair
(``EstimateTable.verdict``): nothing is worked out again here. A verdict is serialised generically
(``plain``), field by field, so a field the verdict gains reaches the API without a change here;
the flat keys beside it (``kind``, ``quant``, ``need_gb``, ``tok_s``...) are the ones the pages show.
Numbers stay numbers (rounded to ``DIGITS`` decimals), dates are ISO 8601, keys are English, and
every string is the catalogue's own text: plain text, never HTML.

>>> plain(Quant("Q4_K_M", 4.8, 4))
'Q4_K_M'
>>> plain({"a": 10 / 3, "b": (dt.date(2025, 8, 1), Reason.MEMORY, None), "c": 0.0041234})
{'a': 3.33, 'b': ['2025-08-01', 'memory', None], 'c': 0.00412}
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import enum
from dataclasses import dataclass
from typing import Any

from tps_atlas.estimate.budget import MemoryBudget
from tps_atlas.catalogue.cards import Card
from tps_atlas.catalogue.load import Catalogue
from tps_atlas.catalogue.models import Model
from tps_atlas.estimate.commands import fit_command
from tps_atlas.catalogue.quants import Quant
from tps_atlas.estimate.settings import Settings
from tps_atlas.web.data import card_data, model_data
from tps_atlas.pages.figures import EstimateTable, ModelFigures
from tps_atlas.measured.runs import Run
from tps_atlas.estimate.offload import OffloadEstimate, RamKind
from tps_atlas.estimate.verdict import Fits, Multi, NoRun, Offload, Reason, Verdict  # noqa: F401 (Reason: doctest)
from tps_atlas.web.api.open_data import Moves

API_VERSION = 1
API_ROOT = "api/v1"
DIGITS = 2
# The verdict's fields the pair gives flat (the device is the pair's key).
FLAT_FIELDS = frozenset({"card", "estimate", "shortfall", "reason", "raised"})
# Model fields the API leaves out: where the record is filed, what a draft still lacks, and the
# layout of another calibration (the figures are worked out with ``architecture``).
MODEL_FIELDS_LEFT_OUT = frozenset({"file", "gaps", "calibrated_architecture"})


def plain(value: Any, digits: int | None = DIGITS) -> Any:
    """``value`` as JSON values: a record of the catalogue named by its id (a quant by its name),
    any other dataclass field by field with its ``kind``, enums by value, floats rounded to
    ``digits`` decimals (the estimates; None keeps a catalogue figure as it is recorded)."""
    if isinstance(value, Card | Model | RamKind):
        return value.id
    if isinstance(value, Quant):
        return value.name
    if isinstance(value, enum.Enum):
        return value.value
    if isinstance(value, bool | int | str) or value is None:
        return value
    if isinstance(value, float):
        if digits is None or value == 0:
            return value
        # Below 1 (a time to first token of 0.004 s) the digits that say something, not zeros.
        return round(value, digits) if abs(value) >= 1 else float(f"{value:.{digits + 1}g}")
    if isinstance(value, dt.date):
        return value.isoformat()
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        kind = getattr(type(value), "kind", None)
        return {**({"kind": kind} if isinstance(kind, str) else {}),
                **{f.name: plain(getattr(value, f.name), digits) for f in dataclasses.fields(value)}}
    if isinstance(value, dict):
        return {str(k): plain(v, digits) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [plain(v, digits) for v in value]
    raise TypeError(f"no plain form for {type(value).__name__}")


def page_url(kind: str, item_id: str) -> str:
    """The English page of a model or device, from the site's root (the other languages add /nl/...)."""
    return f"/{'models' if kind == 'model' else 'cards'}/{item_id}/"


def api_url(kind: str, item_id: str) -> str:
    return f"/{API_ROOT}/{kind}s/{item_id}.json"


def run_record(run: Run) -> dict:
    """A measured run with its source, as data/measured/llama-cpp.tsv has it (``line`` aside)."""
    return {f.name: plain(getattr(run, f.name), None) for f in dataclasses.fields(run) if f.name != "line"}


@dataclass(frozen=True)
class PairContext:
    """What every pair of one model shares: its figures (settings, context, KV precision)."""

    figures: ModelFigures
    table: EstimateTable


def pair_record(context: PairContext, card: Card, with_command: bool = True) -> dict:
    """One (model, device) pair at the default settings: the verdict's kind and the figures the pages
    show, flat; keys without a value are left out. Any other field of the verdict record (beyond the
    device, its estimate and its shortfall, given flat here) follows as it is, generically."""
    f = context.figures
    v: Verdict = context.table.verdict(f.model.id, card)
    record: dict[str, Any] = {"kind": v.kind}
    if isinstance(v, NoRun):
        record.update(fit="none", quant=v.shortfall.quant_name, need_gb=plain(v.shortfall.need_gb),
                      reason=v.reason.value)
        if v.raised:  # what the machine runs once its GPU limit is raised, as the pages word it
            record["raised"] = v.raised.fields(plain)
    else:
        e = v.estimate
        record.update(fit=e.fit, quant=e.quant.name, need_gb=plain(e.need_gb), tok_s=plain(e.tok_s),
                      tok_s_low=plain(e.tok_s_low), tok_s_high=plain(e.tok_s_high),
                      prompt_tok_s=plain(e.prompt_tok_s), ttft_s=plain(e.ttft_s))
        if isinstance(e, OffloadEstimate):
            record["ram_gb"] = plain(e.ram_gb)
        if with_command:
            record["command"] = fit_command(f.model, e, f.context, f.kv_precision,
                                            v.count if isinstance(v, Multi) else 1)
    if isinstance(v, Offload | Multi | NoRun):
        record["shortfall_gb"] = plain(v.shortfall.shown_gb)
    if isinstance(v, Fits):
        run = context.table.measured(f.model, v.estimate)
        if run:
            record["measured"] = run_record(run)
    for name in (field.name for field in dataclasses.fields(v)):
        if name not in FLAT_FIELDS:
            record[name] = plain(getattr(v, name))
    return {k: value for k, value in record.items() if value is not None}


def settings_record(figures: ModelFigures) -> dict:
    """The default settings every figure is worked out at."""
    return {"context_tokens": figures.context, "min_quality": figures.floor, "max_quality": figures.ceiling,
            "kv_precision": figures.kv_precision or (figures.settings.default_kv_precision if figures.settings
                                                     else None),
            "calibration": figures.calibration.name,
            "ram": {"size_gb": figures.system.size_gb, "kind": figures.system.kind.id}}


def model_fields(model: Model) -> dict:
    """The model's record: its catalogue fields (those it has) and what the estimator reads of it."""
    fields = {f.name: plain(getattr(model, f.name), None) for f in dataclasses.fields(model)
              if f.name not in MODEL_FIELDS_LEFT_OUT and getattr(model, f.name) not in (None, ())}
    return {**fields, **{k: plain(v, None) for k, v in model_data(model).items() if v is not None}}


def device_fields(card: Card, budget: MemoryBudget | None) -> dict:
    """The device's record: the calculator's (``export.card_data``) and its shares of memory."""
    extra = {"system_memory_gb": card.system_memory_gb, "usable_share": card.usable_share,
             "shares": card.shares, "raise_method": card.raise_method, "source": card.source,
             "checked": card.checked}
    # Figures as recorded; the budget and the raised limit, worked out, rounded as the estimates are.
    return {**{k: plain(v, DIGITS if k in ("budget_gb", "raised") else None)
               for k, v in card_data(card, budget).items() if v is not None},
            **{k: plain(v, None) for k, v in extra.items() if v not in (None, ())}}


def model_record(table: EstimateTable, catalogue: Catalogue, model: Model) -> dict:
    figures = table.figures[model.id]
    context = PairContext(figures, table)
    return {"api_version": API_VERSION, "type": "model", "id": model.id, "page": page_url("model", model.id),
            "model": model_fields(model), "settings": settings_record(figures),
            "devices_total": figures.cards_total, "devices_fit": figures.cards_fit,
            "devices_run": figures.cards_run,
            "devices": {card.id: pair_record(context, card) for card in catalogue.cards}}


def device_record(table: EstimateTable, catalogue: Catalogue, card: Card, settings: Settings) -> dict:
    """A device and every model on it; each pair is the one its model's file holds, without the
    command (``models/<id>.json`` has it)."""
    models = {}
    for model in catalogue.models:
        models[model.id] = pair_record(PairContext(table.figures[model.id], table), card, with_command=False)
    return {"api_version": API_VERSION, "type": "device", "id": card.id, "page": page_url("device", card.id),
            "device": device_fields(card, settings.budget),
            "models_fit": table.models_run(card.id), "models_offload": table.models_offload(card.id),
            "models": models}


def moved_record(kind: str, old_id: str, new_id: str | None, reason: str) -> dict:
    return {"api_version": API_VERSION, "type": "moved", "kind": kind, "id": old_id, "moved_to": new_id,
            "url": api_url(kind, new_id) if new_id else None, "reason": reason}


def index_record(catalogue: Catalogue, figures: ModelFigures, moves: Moves, built: dt.date, version: str,
                 files: dict[str, str]) -> dict:
    """What exists: every model and device with its file, the ids that moved, the build's date and
    the catalogue's version (a digest of data/)."""
    return {"api_version": API_VERSION, "type": "index", "built": built.isoformat(), "catalogue_version": version,
            "settings": settings_record(figures),
            "models": [{"id": m.id, "name": m.name, "url": api_url("model", m.id), "page": page_url("model", m.id)}
                       for m in catalogue.models],
            "devices": [{"id": c.id, "name": c.name, "vendor": c.vendor, "url": api_url("device", c.id),
                         "page": page_url("device", c.id)} for c in catalogue.cards],
            "moved": [{"kind": m.kind, "id": m.old_id, "moved_to": m.new_id,
                       "url": api_url(m.kind, m.old_id)} for m in moves.all],
            "files": files}
