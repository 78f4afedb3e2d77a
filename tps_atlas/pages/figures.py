"""The figures a model page (or a command) shows, over the whole card catalogue.

``model_figures`` runs the estimator for every card once and derives the
headline numbers from those rows: cards that fit, smallest, fastest, median
speed, cards at reading speed, quant levels, nearest miss and the fastest card
of each VRAM tier.
"""

from __future__ import annotations

import enum
import statistics
from dataclasses import dataclass, field
from typing import Sequence

from tps_atlas.cache import on_clear
from tps_atlas.catalogue.cards import Card
from tps_atlas.catalogue.load import Catalogue
from tps_atlas.catalogue.models import Model
from tps_atlas.estimate.calibration import Calibration
from tps_atlas.estimate.fit import Estimate, Fit, Miss, candidate_memories, estimate, speed_order
from tps_atlas.estimate.memory import Memory
from tps_atlas.estimate.settings import Settings
from tps_atlas.catalogue.quants import Quant
from tps_atlas.measured.runs import MeasuredIndex, Run, load_runs
from tps_atlas.estimate.offload import OffloadEstimate, System, load_ram, offload_candidates, offload_estimate
from tps_atlas.estimate.verdict import Fits, MultiCard, Shortfall, Verdict, decide, missed_by, multi_card, shown_tok_s
from tps_atlas.estimate.offload import ram_room

# The shortfall of a card that cannot hold a model (tps_atlas/estimate/verdict.py): the page figures' name for it.
NearestMiss = Shortfall
# A model that at most this many devices hold gets the smallest set of identical devices too: for
# every other reader, a set is the way to run it on their own kind of device.
FEW_DEVICES = 5

__all__ = ["EstimateTable", "ModelFigures", "MultiCard", "NearestMiss", "Reach", "SizeClass", "model_figures",
           "missed_by", "multi_card", "nearest_miss", "smallest_order"]


class Reach(enum.Enum):
    """How many cards of the catalogue run a model. Each has its own sentences: no "half of
    the cards" or "the ten fastest" over one card, no "the slowest" beside the only one."""

    NONE = "none"      # no single card holds it
    ONE = "one"        # exactly one card does
    SOME = "some"      # more than one, not all
    EVERY = "every"    # every card in the catalogue

    @classmethod
    def of(cls, fitting: int, total: int) -> Reach:
        """
        >>> Reach.of(0, 824), Reach.of(1, 824), Reach.of(2, 824), Reach.of(824, 824)
        (<Reach.NONE: 'none'>, <Reach.ONE: 'one'>, <Reach.SOME: 'some'>, <Reach.EVERY: 'every'>)
        """
        if fitting <= 0:
            return cls.NONE
        if fitting == 1:
            return cls.ONE
        return cls.EVERY if fitting >= total else cls.SOME


class SizeClass(enum.Enum):
    """What a model's size means for the cards people have, from the real share of cards that
    run it and the real memory of the smallest one."""

    NO_SINGLE_CARD = "none"    # no card holds it
    MOST_CARDS = "most"        # at least half of the catalogue runs it
    CONSUMER = "consumer"      # fewer than half, but a card of consumer memory does
    BEYOND_CONSUMER = "beyond" # only cards with more memory than any consumer card

    @classmethod
    def of(cls, fitting: int, total: int, smallest_vram_gb: float | None, consumer_vram_gb: float) -> SizeClass:
        """
        >>> SizeClass.of(262, 824, 16, 24), SizeClass.of(500, 824, 8, 24), SizeClass.of(20, 824, 48, 24)
        (<SizeClass.CONSUMER: 'consumer'>, <SizeClass.MOST_CARDS: 'most'>, <SizeClass.BEYOND_CONSUMER: 'beyond'>)
        """
        if not fitting or smallest_vram_gb is None:
            return cls.NO_SINGLE_CARD
        if smallest_vram_gb > consumer_vram_gb:
            return cls.BEYOND_CONSUMER
        return cls.MOST_CARDS if 2 * fitting >= total else cls.CONSUMER


@dataclass(frozen=True)
class ModelFigures:
    model: Model
    context: int
    floor: str
    calibration: Calibration
    cards_total: int
    rows: tuple[Fit, ...]             # fitting cards, fastest first
    misses: tuple[Miss, ...]          # cards that cannot run it
    median_tok_s: float | None
    reading_speed_cards: int
    quant_levels: tuple[str, ...]     # distinct quants among fitting cards, best first
    smallest: Fit | None
    fastest: Fit | None
    slowest: Fit | None
    nearest_miss: NearestMiss | None
    tiers: dict[int, Fit | None]
    system: System                    # the RAM beside each card, for offload
    multi: MultiCard | None = None
    ceiling: str | None = None        # the quality ceiling (least compressed quant allowed)
    kv_precision: str | None = None
    # Cards it does not fit that run it with part of it in system RAM (``system``), fastest first.
    offload: tuple[OffloadEstimate, ...] = ()
    # What the verdict of a card needs beyond the rows: the settings, the candidate quants and the
    # quant asked for (None: the ladder).
    settings: Settings | None = None
    candidates: tuple[tuple[Quant, Memory], ...] = ()
    quant: str | None = None
    _verdicts: dict[str, Verdict] = field(default_factory=dict, compare=False, repr=False)
    _by_card: dict[str, Estimate] = field(default_factory=dict, compare=False, repr=False)

    @property
    def cards_fit(self) -> int:
        return len(self.rows)

    @property
    def cards_offload(self) -> int:
        return len(self.offload)

    @property
    def cards_run(self) -> int:
        """The devices that run it, entirely or with part of it in RAM: every row of the table."""
        return len(self.rows) + len(self.offload)

    def verdict(self, card: Card) -> Verdict:
        """The verdict for one card of the catalogue at these figures' settings (worked out once)."""
        if card.id not in self._verdicts:
            self._verdicts[card.id] = self._decide(card)
        return self._verdicts[card.id]

    def _decide(self, card: Card) -> Verdict:
        assert self.settings is not None, "figures made by model_figures carry their settings"
        if not self._by_card:
            self._by_card.update((e.card.id, e) for e in self.misses + self.rows + self.offload)
        found = self._by_card.get(card.id)
        offload = found if isinstance(found, OffloadEstimate) else None
        # The estimate of the device alone: a fit, or a miss with what a raised GPU limit would hold.
        alone: Estimate = found if found is not None and offload is None else Miss(card)
        shortfall = None
        if not alone.fits:
            shortfall = missed_by(self.model, card, self.settings, self.context, self.floor, self.kv_precision,
                                  self.quant, self.ceiling, self.calibration)
        ram_free = max(0.0, ram_room(self.system, load_ram(), self.settings, self.calibration))
        return decide(self.model, card, self.settings, self.calibration, self.context, alone, offload,
                      shortfall, self.candidates, ram_free)

    @property
    def reach(self) -> Reach:
        return Reach.of(self.cards_fit, self.cards_total)

    @property
    def smallest_rows(self) -> tuple[Fit, ...]:
        """The fitting cards, least memory first: the tile's "smallest card" is the first of
        this list, so tile and list always name the same card."""
        return tuple(sorted(self.rows, key=smallest_order))

    @property
    def smallest_most_compressed(self) -> bool:
        """Whether the smallest card's quant is the most compressed one any fitting card uses
        (only then may a sentence call it "the most compressed version")."""
        return bool(self.smallest and len(self.quant_levels) > 1
                    and self.smallest.quant.name == self.quant_levels[-1])

    def size_class(self, consumer_vram_gb: float) -> SizeClass:
        """``consumer_vram_gb``: the most memory a consumer card has (the largest VRAM tier)."""
        return SizeClass.of(self.cards_fit, self.cards_total,
                            self.smallest.card.vram_gb if self.smallest else None, consumer_vram_gb)

    @property
    def one_quant(self) -> bool:
        """Whether every fitting card runs the same quant. Only then does the order by speed
        follow the order by memory bandwidth across the whole list; otherwise a card with more
        memory takes a less compressed version and can fall behind one with less bandwidth, and
        sentences comparing speed with bandwidth say "at the same quantization"."""
        return len(self.quant_levels) <= 1

    @property
    def fastest_has_most_bandwidth(self) -> bool:
        """Whether the fastest card is also the one with the most memory bandwidth among the
        fitting cards (only then is it fastest "thanks to" its bandwidth)."""
        fastest = self.fastest
        return fastest is not None and all(e.card.bandwidth_gb_s <= fastest.card.bandwidth_gb_s for e in self.rows)


def smallest_order(e: Fit) -> tuple:
    """Least memory first; among equal memory, the fastest (as the tables order), then the newest:
    the oldest would name cards current llama.cpp builds no longer support (a 2010 Quadro 6000)."""
    return (e.card.vram_gb,) + speed_order(e)


def nearest_miss(model: Model, misses: Sequence[Miss], settings: Settings,
                 context: int, floor: str, kv_precision: str | None,
                 quant_name: str | None = None, ceiling: str | None = None,
                 calibration: Calibration | None = None) -> NearestMiss | None:
    """The largest card that cannot run it, and by how much it falls short."""
    if not misses:
        return None
    card = max(misses, key=lambda e: (e.card.vram_gb, e.card.bandwidth_gb_s,
                                      e.card.released or 0)).card
    return missed_by(model, card, settings, context, floor, kv_precision, quant_name, ceiling, calibration)


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
    ceiling_name = settings.quant(ceiling or settings.max_quality).name
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
        # by the speed as shown: a row reading "10.0 tok/s" is at reading speed
        reading_speed_cards=sum(shown_tok_s(s) >= settings.reading_speed_tok_s for s in speeds),
        quant_levels=tuple(settings.quants[r].name for r in quant_ranks),
        smallest=min(rows, key=smallest_order) if rows else None,  # the first of smallest_rows
        fastest=rows[0] if rows else None,
        slowest=rows[-1] if rows else None,
        nearest_miss=nearest_miss(model, misses, settings, context, floor, kv_precision, quant, ceiling_name,
                                  calibration),
        tiers=tiers,
        multi=multi_card(model, cards, settings, calibration, candidates, context,
                         frozenset(e.card.id for e in rows)) if len(rows) <= FEW_DEVICES else None,
        ceiling=ceiling_name,
        kv_precision=kv_precision,
        offload=offload,
        system=system,
        settings=settings,
        candidates=candidates,
        quant=quant,
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
        self._card_rows: dict[str, tuple[list[tuple[Model, Fit]], list[tuple[Model, NearestMiss]]]] = {}
        self._card_offload: dict[str, list] = {}

    def measured(self, model: Model, e: Fit) -> Run | None:
        """The measured run shown beside an estimate, if any."""
        return self.measured_index.find(model, e.quant.name, e.card)

    def models_run(self, card_id: str) -> int:
        """The models a card holds entirely (``models_offload``: those it runs with part in RAM)."""
        return sum(1 for _, e in self.by_card[card_id] if e.fits)

    def models_offload(self, card_id: str) -> int:
        return len(self.offload_by_card[card_id])

    def verdict(self, model_id: str, card: Card) -> Verdict:
        """The verdict for a model on a card at the default settings."""
        return self.figures[model_id].verdict(card)

    def card_offload(self, card_id: str) -> list[tuple[Model, OffloadEstimate]]:
        """The models a card runs with offload at the default RAM, fastest first."""
        if card_id not in self._card_offload:
            self._card_offload[card_id] = self._sorted_offload(card_id)
        return list(self._card_offload[card_id])

    def _sorted_offload(self, card_id: str) -> list[tuple[Model, OffloadEstimate]]:
        return sorted(self.offload_by_card[card_id], key=lambda pair: (-pair[1].tok_s, pair[0].name.casefold()))

    def card_rows(self, card_id: str) -> tuple[list[tuple[Model, Fit]], list[tuple[Model, NearestMiss]]]:
        """The models a card runs (fastest first) and those it cannot hold (closest first).

        Worked out once per card (each language's card page reads it; copies, to keep it as it is)."""
        if card_id not in self._card_rows:
            self._card_rows[card_id] = self._sorted_rows(card_id)
        runs, misses = self._card_rows[card_id]
        return list(runs), list(misses)

    def _sorted_rows(self, card_id: str) -> tuple[list[tuple[Model, Fit]], list[tuple[Model, NearestMiss]]]:
        runs = sorted(((m, e) for m, e in self.by_card[card_id] if e.fits),
                      key=lambda pair: (-pair[1].tok_s, pair[0].name.casefold()))
        misses = []
        for model, e in self.by_card[card_id]:
            if not e.fits:
                f = self.figures[model.id]
                v = f.verdict(e.card)
                assert not isinstance(v, Fits)
                misses.append((model, v.shortfall))
        misses.sort(key=lambda pair: (pair[1].shortfall_gb, pair[0].name.casefold()))
        return runs, misses


_tables: dict[tuple[int, int, str], EstimateTable] = {}
on_clear(_tables.clear)  # the build clears it first (tps_atlas/cache.py)


def estimate_table(catalogue: Catalogue, settings: Settings, calibration: str) -> EstimateTable:
    """Estimates do not depend on the language: work them out once for all four (each model with the
    layout recorded for ``calibration``)."""
    catalogue = catalogue.for_calibration(calibration)
    key = (id(catalogue), id(settings), calibration)
    if key not in _tables:
        _tables[key] = EstimateTable(catalogue.models, catalogue.cards, settings, settings.calibration(calibration),
                                     load_runs())
    return _tables[key]
