"""Public out-of-memory reports (data/measured/out-of-memory.tsv) as typed, validated records.

Each row is one load that failed for want of memory: the model file (size, quant), the context it
was asked for, the device, the OS and backend, what was placed where (``offload``: nothing for every
layer on the device, else llama.cpp's flags and ``ram_gb``), whether flash attention was on (and the
model's query heads where it was off), what failed, and the source. Bad input
ends in one line naming the file, the line, the column and what was expected (as tps_atlas/measured/runs.py
does for the runs that happened).

Pure: knows nothing of pages.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from tps_atlas.cache import cached
from tps_atlas.paths import DATA_DIR
from tps_atlas.catalogue.limits import ID_PATTERN, URL_PATTERN
from tps_atlas.errors import DataError
from tps_atlas.records.vocabulary import BACKENDS
from tps_atlas.measured.runs import read_table

OOM_FILE = DATA_DIR / "measured" / "out-of-memory.tsv"
OOM_COLUMNS = ("card", "device", "os", "backend", "model", "model_name", "params_b", "active_b", "quant",
               "file_gb", "context", "offload", "ram_gb", "flash_attention", "attention_heads", "failed", "source",
               "notes")
# Flash attention as the load ran: on, off (llama.cpp had none before May 2024; -fa not given to a
# build whose default was off), or empty where the report does not say.
FLASH_ATTENTION = ("on", "off", "")
OPERATING_SYSTEMS = ("Linux", "Windows", "macOS")
# What ran out: the weights, the KV cache, the compute buffer (llama.cpp's three allocations), or RAM.
FAILURES = ("weights", "kv-cache", "compute-buffer", "ram")
MAX_CONTEXT_TOKENS = 100_000_000


@dataclass(frozen=True)
class OomReport:
    line: int
    card: str            # catalogue card id
    device: str          # as the report names it
    os: str
    backend: str
    model: str | None    # catalogue model id, when it is that model
    model_name: str
    params_b: float
    active_b: float | None
    quant: str
    file_gb: float       # the GGUF file(s), decimal GB
    context: int         # tokens of context asked for (-c)
    offload: str         # "" = every layer on the device; else the flags (ngl=N, n-cpu-moe=N)
    ram_gb: float | None
    failed: str          # one of FAILURES
    source: str
    flash_attention: str = ""           # one of FLASH_ATTENTION
    attention_heads: int | None = None  # query heads of the model (its config), where flash attention is off

    @property
    def on_device(self) -> bool:
        return not self.offload


def _parse(path: Path, number: int, row: dict[str, str]) -> OomReport:
    def fail(column: str, expected: str, found: object = None) -> DataError:
        return DataError(f"{path}:{number}", column, expected, found)

    def number_of(column: str, required: bool = True, integer: bool = False) -> float | None:
        text = row[column].strip()
        if not text:
            if required:
                raise fail(column, "a number")
            return None
        try:
            value = int(text) if integer else float(text)
        except ValueError:
            raise fail(column, "a whole number" if integer else "a number", text) from None
        if not value > 0 or value != value:
            raise fail(column, "a number above 0", text)
        return value

    for column in ("card", "device", "os", "backend", "model_name", "quant", "failed", "source"):
        if not row[column].strip():
            raise fail(column, "a value")
    if not ID_PATTERN.match(row["card"]):
        raise fail("card", "a card id (lower-case letters, digits, '-' and '.')", row["card"])
    if row["model"] and not ID_PATTERN.match(row["model"]):
        raise fail("model", "a catalogue model id or nothing", row["model"])
    if row["os"] not in OPERATING_SYSTEMS:
        raise fail("os", "one of " + ", ".join(OPERATING_SYSTEMS), row["os"])
    if row["backend"] not in BACKENDS:
        raise fail("backend", "one of " + ", ".join(BACKENDS), row["backend"])
    if row["failed"] not in FAILURES:
        raise fail("failed", "one of " + ", ".join(FAILURES), row["failed"])
    if row["flash_attention"] not in FLASH_ATTENTION:
        raise fail("flash_attention", "on, off or nothing", row["flash_attention"])
    heads = number_of("attention_heads", required=row["flash_attention"] == "off", integer=True)
    if not URL_PATTERN.match(row["source"]):
        raise fail("source", "a web address starting with https:// or http://", row["source"])
    params = number_of("params_b")
    active = number_of("active_b", required=False)
    if active is not None and params is not None and active > params:
        raise fail("active_b", f"at most params_b ({params:g})", active)
    context = number_of("context", integer=True)
    if context is not None and context > MAX_CONTEXT_TOKENS:
        raise fail("context", f"at most {MAX_CONTEXT_TOKENS:,} tokens", context)
    offload = row["offload"].strip()
    ram = number_of("ram_gb", required=bool(offload))
    assert params is not None and context is not None
    file_gb = number_of("file_gb")
    assert file_gb is not None
    return OomReport(line=number, card=row["card"], device=row["device"], os=row["os"], backend=row["backend"],
                     model=row["model"] or None, model_name=row["model_name"], params_b=params, active_b=active,
                     quant=row["quant"], file_gb=file_gb, context=int(context), offload=offload, ram_gb=ram,
                     failed=row["failed"], source=row["source"], flash_attention=row["flash_attention"],
                     attention_heads=int(heads) if heads is not None else None)


def read_reports(path: Path) -> tuple[OomReport, ...]:
    return tuple(_parse(path, number, row) for number, row in read_table(path, OOM_COLUMNS))


@cached(maxsize=4)
def load_reports(path: str | None = None) -> tuple[OomReport, ...]:
    return read_reports(Path(path) if path else OOM_FILE)
