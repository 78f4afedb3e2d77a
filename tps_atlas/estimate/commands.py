"""The llama-server command line that reproduces a row: the GGUF at the row's quant, the layers
on the card (``-ngl``), the expert layers in RAM (``--n-cpu-moe``), the context (``-c``), a q8_0
KV cache (``-ctk/-ctv``, which needs flash attention) and the split over identical cards
(``--tensor-split``).

>>> from tps_atlas.catalogue.load import Model
>>> m = Model("gpt-oss-120b", "gpt-oss-120b", "m.yaml", True, 116.8)
>>> llama_server(m, "Q4_K_M", 4096)
'llama-server -m gpt-oss-120b-Q4_K_M.gguf -c 4096 -ngl 99'
>>> llama_server(m, "Q4_K_M", 8192, "q8_0", gpus=2)
'llama-server -m gpt-oss-120b-Q4_K_M.gguf -c 8192 -ngl 99 --tensor-split 1,1 -fa on -ctk q8_0 -ctv q8_0'
>>> llama_server(m, "Q4_K_M", 4096, split=(24, 12), main_gpu=0)   # a machine of two different cards
'llama-server -m gpt-oss-120b-Q4_K_M.gguf -c 4096 -ngl 99 --tensor-split 24,12 --main-gpu 0'
"""

from __future__ import annotations

from typing import Sequence

from tps_atlas.catalogue.models import Model
from tps_atlas.estimate.fit import Estimate, Fit
from tps_atlas.estimate.offload import OffloadEstimate, Placement

ALL_LAYERS = 99   # llama.cpp's way of saying "every layer on the card"


def gguf_name(model: Model, quant: str) -> str:
    """The file name the command loads; the reader downloads the GGUF of that quant."""
    return f"{model.id}-{quant}.gguf"


def llama_server(model: Model, quant: str, context: int, kv_precision: str | None = None,
                 placement: Placement | None = None, gpus: int = 1, split: Sequence[int] | None = None,
                 main_gpu: int | None = None) -> str:
    parts = ["llama-server", "-m", gguf_name(model, quant), "-c", str(context)]
    if placement is None or placement.mode == "experts":
        parts += ["-ngl", str(ALL_LAYERS)]
    else:
        parts += ["-ngl", str(placement.gpu_layers)]
    if placement is not None and placement.mode == "experts":
        parts += ["--n-cpu-moe", str(placement.cpu_layers)]
    if split is not None and len(split) > 1:
        parts += ["--tensor-split", ",".join(str(n) for n in split)]
        if main_gpu is not None:
            parts += ["--main-gpu", str(main_gpu)]
    elif gpus > 1:
        parts += ["--tensor-split", ",".join(["1"] * gpus)]
    if kv_precision and kv_precision != "f16":
        parts += ["-fa", "on", "-ctk", kv_precision, "-ctv", kv_precision]
    return " ".join(parts)


def row_command(model: Model, estimate: Estimate, context: int, kv_precision: str | None = None,
                gpus: int = 1) -> str | None:
    """The command for an estimate row (None when the card cannot run the model)."""
    return fit_command(model, estimate, context, kv_precision, gpus) if estimate.fits else None


def fit_command(model: Model, fit: Fit, context: int, kv_precision: str | None = None, gpus: int = 1) -> str:
    """The command that runs the model as a card that runs it does."""
    return llama_server(model, fit.quant.name, context, kv_precision,
                        fit.placement if isinstance(fit, OffloadEstimate) else None, gpus)
