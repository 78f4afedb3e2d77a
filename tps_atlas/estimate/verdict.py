"""The verdict: what happens when a model runs on one device at given settings, decided once.

One record per (model, device, settings), of one of four kinds:

- ``Fits``: the model runs entirely on the device (``fit`` is comfortable or tight);
- ``Offload``: it runs with part of it in system RAM (placement, speed);
- ``Multi``: this device cannot hold it, a set of ``count`` identical ones can;
- ``NoRun``: it does not run, for one ``reason``, short by ``shortfall`` at the quant the table
  would show (the model's native format, else the most compressed allowed quant).

A machine of several GPUs (``machine.py``) gets the same kinds, with ``machine`` set: ``Fits`` when
its cards hold the model, ``Offload`` with part in its RAM, ``NoRun``; ``card`` is then its main GPU.

Nothing here knows MkDocs, a language or a page: the pages, the command line and the browser
word these records and decide nothing again. The order of the kinds is the order of the
question a reader asks: on the device alone, then with the RAM beside it, then with more of it.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, replace
from typing import Callable, ClassVar, Literal, Sequence

from tps_atlas.catalogue.cards import Card
from tps_atlas.catalogue.models import Model
from tps_atlas.estimate.calibration import Calibration
from tps_atlas.estimate.fit import Estimate, Fit, calibrated_memory, estimate, speed_order, usable_gb, uses_budget
from tps_atlas.estimate.memory import Memory, memory_needed
from tps_atlas.estimate.settings import Settings
from tps_atlas.catalogue.quants import Quant
from tps_atlas.estimate.offload import OffloadEstimate
from tps_atlas.estimate.budget import GB_PER_GIB, RaisedLimit, keeps_display
from tps_atlas.estimate.fit import Miss
from tps_atlas.estimate.machine import Machine


class Reason(enum.Enum):
    """Why a model does not run on a device (one reason, the first that holds)."""

    MEMORY = "memory"              # device and the RAM beside it together hold too little
    NO_SYSTEM_RAM = "no_system_ram"  # the device's memory is all there is: nothing to offload into
    NO_LAYOUT = "no_layout"        # the model's layers are not recorded: no offload worked out
    PLACEMENT = "placement"        # together they would hold it, but no split of its layers fits the device


SMALLEST_SHORTFALL_GB = 0.1


@dataclass(frozen=True)
class Shortfall:
    """How far one device falls short of holding a model on its own. The shortfall is against the
    memory a fit may use (``usable_gb``: the device's budget, or the seed's share of it), at ``quant_name``:
    the model's native format, the quant asked for, or the most compressed allowed quant."""

    card: Card
    quant_name: str
    need_gb: float
    shortfall_gb: float
    usable_gb: float = 0.0
    usable_share: float | None = 1.0   # the seed's share of VRAM; None under the memory budget
    at_floor: bool = False   # measured at the most compressed allowed quant ("even at" is true)
    keeps_display: bool = False   # under the memory budget: part of the usable memory is kept for a screen

    @property
    def shown_gb(self) -> float:
        """The shortfall as a page or the command line states it: a device short by less than a
        tenth of a gigabyte is still short, never "0.0 GB" (at most 0.1 GB more than the truth)."""
        return max(self.shortfall_gb, SMALLEST_SHORTFALL_GB)


# The calibration that reproduces the seed pages: under it a shortfall is measured as they measured
# it, at ``shortfall_quant`` (or the floor, if higher), so that their figures stay exact.
SEED_CALIBRATION = "seed"


def shortfall_quant(model: Model, settings: Settings, floor: str, ceiling: str | None,
                    quant_name: str | None, seed_rules: bool = False) -> tuple[Quant, bool]:
    """The quant a shortfall is measured at, and whether it is the floor: the native format, else
    the one quant asked for, else the most compressed quant the table may show."""
    if model.native_format:
        return settings.quant(model.native_format), False
    if quant_name:
        return settings.quant(quant_name), False
    if seed_rules:
        floor_quant = settings.quant(floor)
        quant = min(settings.quant(settings.shortfall_quant), floor_quant, key=lambda q: q.rank)
        return quant, quant == floor_quant
    allowed = settings.model_quants(model, floor, ceiling)
    return (allowed[-1], True) if allowed else (settings.quant(floor), True)


def missed_by(model: Model, card: Card, settings: Settings, context: int, floor: str,
              kv_precision: str | None, quant_name: str | None = None,
              ceiling: str | None = None, calibration: Calibration | None = None) -> Shortfall:
    """How far a device that cannot hold the model falls short, by the fit rule of ``calibration``
    (the seed's share of VRAM, or the memory budget: ``fit.usable_gb``)."""
    seed_rules = calibration is not None and calibration.name == SEED_CALIBRATION
    quant, at_floor = shortfall_quant(model, settings, floor, ceiling, quant_name, seed_rules)
    need = calibrated_memory(memory_needed(model, quant, context, settings, kv_precision), context, settings,
                             calibration).total_gb
    usable = usable_gb(card, settings, calibration)
    budget = settings.budget if uses_budget(settings, calibration) else None
    share = None if budget else settings.fits
    return Shortfall(card, quant.name, need, need - usable, usable, share, at_floor,
                     keeps_display=bool(budget and keeps_display(card, budget)))


@dataclass(frozen=True)
class Fits:
    """It runs entirely on the device."""

    card: Card
    estimate: Fit
    beyond_context: int | None = None   # the model's max_context, when the context is above it
    machine: Machine | None = None   # the machine of several GPUs this verdict is for
    kind: ClassVar[Literal["fits"]] = "fits"

    @property
    def fit(self) -> str:
        return self.estimate.fit   # "comfortable" | "tight"


@dataclass(frozen=True)
class Offload:
    """It runs with part of it in system RAM; ``shortfall`` is that of the device alone."""

    card: Card
    estimate: OffloadEstimate
    shortfall: Shortfall
    beyond_context: int | None = None
    machine: Machine | None = None   # the machine of several GPUs this verdict is for
    kind: ClassVar[Literal["offload"]] = "offload"


@dataclass(frozen=True)
class Multi:
    """The device cannot hold it alone (``shortfall``); ``count`` identical ones can (``estimate`` is
    the set's, as one device with ``count`` times the memory: layers run one after another)."""

    card: Card
    count: int
    estimate: Fit
    shortfall: Shortfall
    beyond_context: int | None = None
    kind: ClassVar[Literal["multi"]] = "multi"


@dataclass(frozen=True)
class RaisedRun:
    """What a unified machine runs once its GPU may use more of the memory than by default: the
    limit (under which OS, how much) and the estimate at it."""

    limit: RaisedLimit
    estimate: Fit

    def fields(self, number: Callable[[float], object]) -> dict:
        """The record as the command line and the open data give it, figures through ``number``
        (each adapter rounds its own way)."""
        return {"os": self.limit.os, "method": self.limit.method, "limit_gb": number(self.limit.budget_gb),
                "quant": self.estimate.quant.name, "need_gb": number(self.estimate.need_gb),
                "tok_s": number(self.estimate.tok_s)}


@dataclass(frozen=True)
class NoRun:
    """It does not run: one reason, and the shortfall of the device alone; ``raised`` where a unified
    machine runs it once its GPU limit is raised (the pages say so and how, never a bare "No")."""

    card: Card
    reason: Reason
    shortfall: Shortfall
    beyond_context: int | None = None
    raised: RaisedRun | None = None
    machine: Machine | None = None   # the machine of several GPUs this verdict is for
    kind: ClassVar[Literal["none"]] = "none"


Verdict = Fits | Offload | Multi | NoRun


def beyond_context(model: Model, context: int) -> int | None:
    """The model's maximum context, when ``context`` is above it (every place showing the pair says so)."""
    limit = model.architecture.max_context if model.architecture else None
    return limit if limit is not None and context > limit else None


def pooled(card: Card, count: int) -> Card:
    """A set of ``count`` identical devices, as one with ``count`` times the memory."""
    return replace(card, vram_gb=card.vram_gb * count)


def device_set(model: Model, card: Card, settings: Settings, calibration: Calibration,
               candidates: tuple[tuple[Quant, Memory], ...], context: int) -> tuple[int, Fit] | None:
    """The fewest identical devices of this kind (``multi_gpu_counts``) that hold the model, or None.
    Machines sharing their memory with the processor are not split across (``--tensor-split`` is
    for the GPUs of one machine)."""
    found = multi_card(model, [card], settings, calibration, candidates, context)
    return (found.count, found.cheapest) if found else None


def decide(model: Model, card: Card, settings: Settings, calibration: Calibration, context: int,
           alone: Estimate, offload: OffloadEstimate | None, shortfall: Shortfall | None,
           candidates: tuple[tuple[Quant, Memory], ...], ram_free_gb: float = 0.0) -> Verdict:
    """The verdict from what the estimator already worked out for this device: the estimate on the
    device alone, the offload estimate (None where none runs), the shortfall of a miss, and the system
    RAM llama.cpp may fill beside it (``offload.ram_room``)."""
    beyond = beyond_context(model, context)
    if alone.fits:
        return Fits(card, alone, beyond)
    assert shortfall is not None, "a device that cannot hold the model has a shortfall"
    if offload is not None:
        return Offload(card, offload, shortfall, beyond)
    found = device_set(model, card, settings, calibration, candidates, context)
    if found:
        return Multi(card, found[0], found[1], shortfall, beyond)
    if card.unified or card.kind != "discrete":
        reason = Reason.NO_SYSTEM_RAM
    elif shortfall.need_gb > shortfall.usable_gb + ram_free_gb:
        reason = Reason.MEMORY
    elif not model.architecture:
        reason = Reason.NO_LAYOUT
    else:
        reason = Reason.PLACEMENT
    return NoRun(card, reason, shortfall, beyond, raised_run(model, card, settings, calibration, context, alone,
                                                             candidates))


def raised_run(model: Model, card: Card, settings: Settings, calibration: Calibration, context: int,
               alone: Estimate, candidates: tuple[tuple[Quant, Memory], ...]) -> RaisedRun | None:
    """The estimate once the GPU limit is raised, where that makes the model fit: the device with the
    raised limit as its memory (a unified machine's budget is its GPU's share)."""
    raised = alone.raised if isinstance(alone, Miss) else None
    if raised is None:
        return None
    at_limit = estimate(model, replace(card, vram_gb=raised.limit.budget_gb / GB_PER_GIB), settings, calibration,
                        context, candidates=candidates)
    return RaisedRun(raised.limit, at_limit) if isinstance(at_limit, Fit) else None


@dataclass(frozen=True)
class MultiCard:
    """The smallest set of identical devices that holds a model no single device, or only a few,
    hold. ``cheapest`` is the rule every place names (the least memory per device; among equal, the
    fastest); ``fastest`` is said beside it, labelled as such."""

    count: int
    cheapest: Fit
    fastest: Fit
    rule: ClassVar[str] = "smallest"

    def card_vram_gb(self, e: Fit) -> float:
        return e.card.vram_gb / self.count


def multi_card(model: Model, cards: Sequence[Card], settings: Settings, calibration: Calibration,
               candidates: tuple[tuple[Quant, Memory], ...], context: int,
               exclude: frozenset[str] = frozenset()) -> MultiCard | None:
    """The smallest set of identical devices (of those not in ``exclude``: the ones that hold the model
    alone) that holds the model."""
    if not candidates:
        return None
    least = min(memory.total_gb for _, memory in candidates)
    for count in settings.multi_gpu_counts:
        options = []
        for card in cards:
            if card.unified or card.id in exclude or least > usable_gb(pooled(card, count), settings, calibration):
                continue
            e = estimate(model, pooled(card, count), settings, calibration, context, candidates=candidates)
            if e.fits:
                options.append(e)
        if options:
            return MultiCard(count, min(options, key=lambda e: (e.card.vram_gb, speed_order(e))),
                             min(options, key=speed_order))
    return None


def shown_tok_s(value: float) -> float:
    """A speed as the pages show it (one decimal up to 100 tok/s, whole above): a threshold is
    tested on this, so "10.0 tok/s" is never counted below ten."""
    return round(value, 1) if value < 100 else round(value)
