"""The settings of data/estimator.yaml, read and checked once: the quant ladder with its families,
the memory constants, the fit rule and the calibrations (``tps_atlas.estimate.calibration``).
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Iterable

from tps_atlas.cache import cached
from tps_atlas.estimate.budget import (MemoryBudget, read_budget)
from tps_atlas.estimate.machine_settings import MachineSettings, read_machine
from tps_atlas.paths import DATA_DIR
from tps_atlas.catalogue.limits import MAX_CARD_MEMORY_GB, MAX_CONTEXT
from tps_atlas.catalogue.models import Model
from tps_atlas.catalogue.quants import Quant, read_quants
from tps_atlas.errors import DataError
from tps_atlas.records.fields import FieldReader
from tps_atlas.records.strict_yaml import load_yaml
from tps_atlas.estimate.calibration import (MAX_BUFFER_GB, MAX_GPUS, MAX_KV_BYTES, MAX_KV_GB_PER_1K, MAX_READING_SPEED,
                                            Calibration, read_calibration)


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
    machine: MachineSettings | None = None   # machine: several GPUs and the RAM beside them (machine.py)

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
    quants = read_quants(r)
    other_bits = read_bits(r.mapping("other_quant_bits", required=False))
    family_of, reference_family = read_quant_families(r, [q.name for q in quants] + list(other_bits))
    ladder = tuple(replace(q, family=family_of[q.name.upper()]) for q in quants)
    families = sorted(set(family_of.values()))
    fit = r.mapping("fit")
    budget_reader = fit.mapping("budget", required=False)
    memory = r.mapping("memory")
    kv_bytes = memory.mapping("kv_bytes_per_element")
    calibrations = r.mapping("calibrations")
    machine = r.mapping("machine", required=False)
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
        machine=read_machine(machine) if machine is not None else None,
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


@cached(maxsize=8)
def load_settings(path: str | None = None) -> Settings:
    return read_settings(Path(path) if path else DATA_DIR / "estimator.yaml")
