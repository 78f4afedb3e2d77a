"""The figures a model page (or a command) shows, over the whole card catalogue.

``model_figures`` runs the estimator for every card once and derives the
headline numbers from those rows: cards that fit, smallest, fastest, median
speed, cards at reading speed, quant levels, nearest miss and the fastest card
of each VRAM tier.
"""

from __future__ import annotations

import statistics
from dataclasses import dataclass, replace
from typing import Sequence

from .catalogue import Card, Model
from .estimator import (Calibration, Estimate, Settings, candidate_memories, estimate, memory_needed,
                        speed_order)
from .measured import MeasuredIndex, Run
from .offload import OffloadEstimate, System, load_ram, offload_candidates, offload_estimate


@dataclass(frozen=True)
class NearestMiss:
    card: Card
    quant_name: str
    need_gb: float
    shortfall_gb: float


@dataclass(frozen=True)
class MultiCard:
    """The smallest set of identical cards that holds a model no single card holds.

    Estimates are of the set, as one card with ``count`` times the memory: layers
    split across cards run one after another, so the speed is a single card's.
    """

    count: int
    cheapest: Estimate   # the set with the least memory per card
    fastest: Estimate

    def card_vram_gb(self, e: Estimate) -> float:
        return e.card.vram_gb / self.count


@dataclass(frozen=True)
class ModelFigures:
    model: Model
    context: int
    floor: str
    calibration: Calibration
    cards_total: int
    rows: tuple[Estimate, ...]        # fitting cards, fastest first
    misses: tuple[Estimate, ...]      # cards that cannot run it
    median_tok_s: float | None
    reading_speed_cards: int
    quant_levels: tuple[str, ...]     # distinct quants among fitting cards, best first
    smallest: Estimate | None
    fastest: Estimate | None
    slowest: Estimate | None
    nearest_miss: NearestMiss | None
    tiers: dict[int, Estimate | None]
    multi: MultiCard | None = None
    ceiling: str | None = None        # the quality ceiling (least compressed quant allowed)
    kv_precision: str | None = None
    # Cards it does not fit that run it with part of it in system RAM (``system``), fastest first.
    offload: tuple[OffloadEstimate, ...] = ()
    system: System | None = None

    @property
    def cards_fit(self) -> int:
        return len(self.rows)


def smallest_order(e: Estimate) -> tuple:
    """Least memory first; among equal memory, the oldest card (the cheapest way in)."""
    released = e.card.released.toordinal() if e.card.released else 0
    return (e.card.vram_gb, released, e.card.name.casefold())


def nearest_miss(model: Model, misses: Sequence[Estimate], settings: Settings,
                 context: int, floor: str, kv_precision: str | None,
                 quant_name: str | None = None) -> NearestMiss | None:
    """The largest card that cannot run it, and by how much it falls short."""
    if not misses:
        return None
    card = max(misses, key=lambda e: (e.card.vram_gb, e.card.bandwidth_gb_s,
                                      e.card.released or 0)).card
    if model.native_format or quant_name:
        # the one quant every card was judged at
        quant = settings.quant(model.native_format or quant_name)
    else:
        shortfall_quant = settings.quant(settings.shortfall_quant)
        floor_quant = settings.quant(floor)
        quant = min(shortfall_quant, floor_quant, key=lambda q: q.rank)
    need = memory_needed(model, quant, context, settings, kv_precision).total_gb
    return NearestMiss(card, quant.name, need, need - settings.fits * card.vram_gb)


def multi_card(model: Model, cards: Sequence[Card], settings: Settings, calibration: Calibration,
               candidates, context: int) -> MultiCard | None:
    for count in settings.multi_gpu_counts:
        options = []
        for card in cards:
            pooled = replace(card, vram_gb=card.vram_gb * count)
            e = estimate(model, pooled, settings, calibration, context, candidates=candidates)
            if e.fits:
                options.append(e)
        if options:
            return MultiCard(count, min(options, key=lambda e: (e.card.vram_gb, speed_order(e))),
                             min(options, key=speed_order))
    return None


def model_figures(model: Model, cards: Sequence[Card], settings: Settings,
                  calibration: Calibration | None = None, context: int | None = None,
                  floor: str | None = None, quant: str | None = None,
                  kv_precision: str | None = None, ceiling: str | None = None,
                  system: System | None = None) -> ModelFigures:
    calibration = calibration or settings.calibration()
    context = context or settings.context_tokens
    floor = settings.quant(floor or settings.min_quality).name
    candidates = candidate_memories(model, settings, context, floor, quant, kv_precision, ceiling)
    estimates = [estimate(model, card, settings, calibration, context, candidates=candidates) for card in cards]
    rows = tuple(sorted((e for e in estimates if e.fits), key=speed_order))
    misses = tuple(sorted((e for e in estimates if not e.fits),
                          key=lambda e: (-e.card.vram_gb, e.card.name.casefold())))
    speeds = [e.tok_s for e in rows]
    tiers = {}
    for tier in settings.vram_tiers_gb:
        same_memory = [e for e in rows if e.card.vram_gb == tier]
        tiers[tier] = same_memory[0] if same_memory else None
    quant_ranks = sorted({e.quant.rank for e in rows})
    ram = load_ram()
    system = system or ram.system()
    offload_memories = offload_candidates(model, settings, ram, context, floor, quant, kv_precision) if misses else ()
    offload = tuple(sorted((o for o in (offload_estimate(model, e.card, settings, calibration, system, ram, context,
                                                          candidates=offload_memories) for e in misses) if o),
                           key=speed_order))
    return ModelFigures(
        model=model,
        context=context,
        floor=floor,
        calibration=calibration,
        cards_total=len(cards),
        rows=rows,
        misses=misses,
        median_tok_s=statistics.median(speeds) if speeds else None,
        reading_speed_cards=sum(s >= settings.reading_speed_tok_s for s in speeds),
        quant_levels=tuple(settings.quants[r].name for r in quant_ranks),
        smallest=min(rows, key=smallest_order) if rows else None,
        fastest=rows[0] if rows else None,
        slowest=rows[-1] if rows else None,
        nearest_miss=nearest_miss(model, misses, settings, context, floor, kv_precision, quant),
        tiers=tiers,
        multi=None if rows else multi_card(model, cards, settings, calibration, candidates, context),
        ceiling=settings.quant(ceiling or settings.max_quality).name,
        kv_precision=kv_precision,
        offload=offload,
        system=system,
    )


class EstimateTable:
    """Every model on every card, worked out once; read by model or by card."""

    def __init__(self, models: Sequence[Model], cards: Sequence[Card], settings: Settings,
                 calibration: Calibration, runs: Sequence[Run] = ()):
        self.settings = settings
        self.calibration = calibration
        self.measured_index = MeasuredIndex(runs, {c.id: c for c in cards}, {m.id: m for m in models})
        self.figures = {m.id: model_figures(m, cards, settings, calibration) for m in models}
        self.by_card: dict[str, list[tuple[Model, Estimate]]] = {c.id: [] for c in cards}
        self.offload_by_card: dict[str, list[tuple[Model, OffloadEstimate]]] = {c.id: [] for c in cards}
        for f in self.figures.values():
            for e in f.rows + f.misses:
                self.by_card[e.card.id].append((f.model, e))
            for o in f.offload:
                self.offload_by_card[o.card.id].append((f.model, o))

    def measured(self, model: Model, e: Estimate) -> Run | None:
        """The measured run shown beside an estimate, if any."""
        return self.measured_index.find(model, e.quant.name, e.card) if e.quant else None

    def models_run(self, card_id: str) -> int:
        return sum(1 for _, e in self.by_card[card_id] if e.fits)

    def card_offload(self, card_id: str) -> list[tuple[Model, OffloadEstimate]]:
        """The models a card runs with offload at the default RAM, fastest first."""
        return sorted(self.offload_by_card[card_id], key=lambda pair: (-pair[1].tok_s, pair[0].name.casefold()))

    def card_rows(self, card_id: str) -> tuple[list[tuple[Model, Estimate]], list[tuple[Model, NearestMiss]]]:
        """The models a card runs (fastest first) and those it cannot hold (closest first)."""
        runs = sorted(((m, e) for m, e in self.by_card[card_id] if e.fits),
                      key=lambda pair: (-pair[1].tok_s, pair[0].name.casefold()))
        misses = []
        for model, e in self.by_card[card_id]:
            if not e.fits:
                f = self.figures[model.id]
                misses.append((model, nearest_miss(model, [e], self.settings, f.context, f.floor, None)))
        misses.sort(key=lambda pair: (pair[1].shortfall_gb, pair[0].name.casefold()))
        return runs, misses
