"""The quant ladder: the quantizations a model can be run at, best quality first
(``quants`` in data/estimator.yaml).

It lives with the catalogue, not the estimator, because a model file names one of them
(``native_format``) and is checked against it when it is read; the estimator's settings read
the ladder through the same ``read_quants``.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from tps_atlas.cache import cached
from tps_atlas.paths import DATA_DIR
from tps_atlas.records.fields import FieldReader
from tps_atlas.records.strict_yaml import load_yaml


@dataclass(frozen=True)
class Quant:
    name: str
    bits_per_weight: float
    rank: int  # 0 = best quality
    # Offered only to models whose weights ship in it (MXFP4: gpt-oss).
    native_only: bool = False
    family: str = ""  # legacy, k, i, mx, float (quant_families in data/estimator.yaml)


def read_quants(r: FieldReader) -> list[Quant]:
    """The ``quants`` list of the settings file ``r`` reads (without their families)."""
    quants = []
    for rank, q in enumerate(r.mappings("quants")):
        quants.append(Quant(q.text("name"), q.number("bits_per_weight", above=0, minimum=0.5, maximum=32), rank,
                            q.boolean("native_only", required=False) or False))
        q.finish()
    if not quants:
        raise r.error("quants", "at least one quantization")
    seen = set()
    for quant in quants:
        if quant.name.casefold() in seen:
            raise r.error("quants", "each quant name once", quant.name)
        seen.add(quant.name.casefold())
    return quants


@cached(maxsize=4)
def ladder_names(path: str | None = None) -> tuple[str, ...]:
    """The names of the ladder in data/estimator.yaml (only its ``quants`` are read here: the rest
    of the file is the estimator's, checked when its settings are loaded)."""
    settings_file = Path(path) if path else DATA_DIR / "estimator.yaml"
    return tuple(q.name for q in read_quants(FieldReader(settings_file, load_yaml(settings_file))))
