"""The dataset download: every (model, device) pair at the default settings, and the measured runs
with their sources, as CSV. The pairs are the API's own records (``records.pair_record``), one
row each: the same figures as /api/v1/, flat.

>>> rows = pair_rows({"m": {"devices": {"d": {"kind": "none", "fit": "none", "quant": "Q3_K_M",
...                                            "need_gb": 9.5, "shortfall_gb": 1.5, "reason": "memory"}}}})
>>> csv_text(PAIR_COLUMNS, rows).splitlines()[1]
'm,d,none,none,Q3_K_M,9.5,,,,,,,,1.5,memory,,,'
"""

from __future__ import annotations

import csv
import io
from typing import Iterable, Mapping

PAIR_COLUMNS = ("model", "device", "kind", "fit", "quant", "need_gb", "tok_s", "tok_s_low", "tok_s_high",
                "prompt_tok_s", "ttft_s", "ram_gb", "count", "shortfall_gb", "reason", "beyond_context",
                "measured_tok_s", "measured_source")
RUN_COLUMNS = ("card", "device", "backend", "build", "date", "model", "model_name", "params_b", "active_b", "quant",
               "test", "tokens", "depth", "tok_s", "n_gpus", "offload", "source")


def pair_rows(model_records: Mapping[str, dict]) -> Iterable[dict]:
    """One row per pair of every model record, in the records' order."""
    for model_id, record in model_records.items():
        for device_id, pair in record["devices"].items():
            measured = pair.get("measured") or {}
            yield {**pair, "model": model_id, "device": device_id, "measured_tok_s": measured.get("tok_s"),
                   "measured_source": measured.get("source")}


def csv_text(columns: tuple[str, ...], rows: Iterable[Mapping]) -> str:
    """CSV with a header line; numbers as Python writes them (a point, no thousands separator), an
    absent value as an empty field."""
    out = io.StringIO()
    writer = csv.DictWriter(out, columns, extrasaction="ignore", lineterminator="\n")
    writer.writeheader()
    for row in rows:
        writer.writerow({k: ("" if row.get(k) is None else row[k]) for k in columns})
    return out.getvalue()
