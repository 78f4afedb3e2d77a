"""Does the estimator say yes to what ran, and no to what failed? (benchmarks/accuracy.py --verdicts)

Runs that happened: every load of data/measured/llama-cpp.tsv on one GPU (a model, a quant and a
context on a catalogue device; the rows of one load count once). A load with everything on the device
is denied when the estimator says it does not fit the device (a unified machine whose GPU holds it
only with its limit raised is counted apart: the pages say how); a load with part in RAM (its
``offload`` column) when the estimator says neither "fits" nor "runs with part in RAM" at the RAM size
the row states. Failures: every report of data/measured/out-of-memory.tsv, accepted when the estimator
says it fits (or, for a report with part in RAM, that it runs so). The model's weights are its
parameters x the quant's bits per weight for a run, the file's size for a report (what was loaded);
the KV cache is the catalogue layout's where the row names a catalogue model, else the estimate per
token; the context is what llama.cpp allocated (llama-bench: prompt + generated + depth tokens). A row
whose device column calls its host headless (a cloud GPU server) is judged without the display reserve;
a report that says flash attention was off needs the attention scores too (tps_atlas/estimate/budget.py);
a report that put a given number of layers on the device (``ngl=N``) is judged at that split.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from typing import Iterable, Sequence

from tps_atlas.catalogue.cards import Card
from tps_atlas.catalogue.load import Catalogue
from tps_atlas.catalogue.models import Model
from tps_atlas.estimate.budget import attention_scores_gb, headless_budget_gb
from tps_atlas.estimate.calibration import Calibration
from tps_atlas.estimate.memory import Memory, memory_needed
from tps_atlas.estimate.settings import Settings
from tps_atlas.estimate.fit import calibrated_memory, raised_fit, usable_gb, uses_budget
from tps_atlas.catalogue.quants import Quant
from tps_atlas.measured.runs import Run
from tps_atlas.estimate.offload import RamSettings, fixed_placement, offload_estimate
from tps_atlas.measured.oom_reports import OomReport

# "64 GB", "2x32 GB", "128 GB" in the ram column of data/measured/llama-cpp.tsv.
# A report's own split, "ngl=4": the layers it put on the device.
REPORTED_GPU_LAYERS = re.compile(r"ngl=(\d+)")
RAM_SIZE = re.compile(r"(?:(\d+)\s*x\s*)?(\d+)\s*GB")
# The memory of the device a row ran on, where its device column states it ("modified 22 GB card",
# "64 GB LPDDR5X"): runs of a chip are filed under one catalogue size; "616 GB/s" is no size.
DEVICE_SIZE = re.compile(r"(\d+(?:\.\d+)?)\s*GB(?!/s)")
# A host that drives no screen, where the row's device column says so ("RunPod cloud host, headless"):
# the card keeps no display reserve (tps_atlas/estimate/budget.py headless_budget_gb).
HEADLESS = re.compile(r"\bheadless\b", re.IGNORECASE)


@dataclass(frozen=True)
class Judged:
    """One load and what the estimator says of it."""

    kind: str            # "device" (ran on the device), "offload" (ran with part in RAM), "failed"
    label: str           # card, model, quant, context: what a reader checks
    accepted: bool       # the estimator says it runs (fits, or runs with part in RAM for offload rows)
    need_gb: float
    room_gb: float
    raised: bool = False  # accepted only once a unified machine's GPU limit is raised
    source: str = ""


@dataclass(frozen=True)
class Tally:
    total: int
    wrong: int           # runs denied, or failures accepted
    misses: tuple[Judged, ...]

    @property
    def share(self) -> float:
        return self.wrong / self.total if self.total else 0.0


def tally(judged: Iterable[Judged], kind: str) -> Tally:
    """Loads of ``kind``, and those the estimator gets wrong: a run that happened it denies (one held
    only with a raised limit counts as admitted), a failure it accepts."""
    rows = [j for j in judged if j.kind == kind]
    wrong = tuple(j for j in rows if (j.accepted if kind == "failed" else not (j.accepted or j.raised)))
    return Tally(len(rows), len(wrong), wrong)


def ram_size_gb(text: str) -> float | None:
    """The RAM size a row states ("DDR5-5867 2ch (i5-12600K, 64 GB; …)", "2x32 GB"), or None.

    >>> ram_size_gb("DDR5-5600 2ch (Ryzen 9 7900, 2x32 GB)"), ram_size_gb("DDR4 2ch (speed and size not stated)")
    (64.0, None)
    """
    match = RAM_SIZE.search(text)
    if not match:
        return None
    return float(match.group(2)) * (int(match.group(1)) if match.group(1) else 1)


def device_as_run(card: Card, device: str) -> Card:
    """The catalogue card with the memory the row's device column states, if it states one.

    >>> c = Card("c", "RTX 2080 Ti", "NVIDIA", 11, 616.0, None)
    >>> device_as_run(c, "RTX 2080 Ti (TU102, 616 GB/s, modified 22 GB card)").vram_gb
    22.0
    """
    match = DEVICE_SIZE.search(device)
    if not match:
        return card
    size = float(match.group(1))
    if card.unified and card.usable_share:
        return replace(card, system_memory_gb=size, vram_gb=round(size * card.usable_share, 1))
    return card if card.unified else replace(card, vram_gb=size)


def device_on_os(card: Card, os_name: str) -> Card:
    """A unified machine under the OS a report names: the share data/devices.yaml lists for that OS
    by default (its lowest for that OS), where it lists one; else the machine's default share."""
    shares = [s for s in card.shares if s.os.casefold().startswith(os_name.casefold())]
    if not card.unified or not card.system_memory_gb or not shares:
        return card
    defaults = [s for s in shares if "default" in s.os.casefold()] or shares
    share = min(s.share for s in defaults)
    return replace(card, usable_share=share, vram_gb=round(card.system_memory_gb * share, 1))


@dataclass(frozen=True)
class Judge:
    settings: Settings
    calibration: Calibration
    ram: RamSettings
    catalogue: Catalogue

    def model_for(self, model_id: str | None, name: str, params_b: float, active_b: float | None) -> Model:
        """The model a row loaded: the catalogue's layout where it names one, the row's sizes, no
        vision projector (llama-bench loads none)."""
        known = self.catalogue.models_by_id.get(model_id or "")
        if known is not None:
            return replace(known, parameters_b=params_b, active_parameters_b=active_b or known.active_parameters_b,
                           vision_encoder_b=None)
        return Model(model_id or "row", name, "row", True, params_b, active_b)

    def room_gb(self, card: Card, device: str) -> float:
        """What the device gives the load; on a host the row calls headless, no display reserve."""
        if HEADLESS.search(device) and uses_budget(self.settings, self.calibration):
            assert self.settings.budget is not None
            return headless_budget_gb(card, self.settings.budget)
        return usable_gb(card, self.settings, self.calibration)

    def on_device(self, kind: str, label: str, card: Card, memory: Memory, context: int,
                  candidates: Sequence[tuple[Quant, Memory]], source: str, device: str = "",
                  scores_gb: float = 0.0) -> Judged:
        """``scores_gb``: the attention scores of a load the row says ran without flash attention
        (tps_atlas/estimate/budget.py attention_scores_gb), counted under the budget rule only."""
        memory = calibrated_memory(memory, context, self.settings, self.calibration)
        if scores_gb and uses_budget(self.settings, self.calibration):
            memory = replace(memory, buffer_gb=memory.buffer_gb + scores_gb)
        room = self.room_gb(card, device)
        raised = raised_fit(card, self.settings, self.calibration, candidates, context) is not None
        return Judged(kind, label, memory.total_gb <= room, memory.total_gb, room,
                      raised and memory.total_gb > room, source)

    def with_offload(self, kind: str, label: str, card: Card, model: Model, quant: Quant, memory: Memory,
                     context: int, ram_gb: float, source: str) -> Judged:
        fitted = self.on_device(kind, label, card, memory, context, ((quant, memory),), source)
        if fitted.accepted or card.unified:
            return fitted
        system = self.ram.system(ram_gb)
        placed = offload_estimate(model, card, self.settings, self.calibration, system, self.ram, context,
                                  candidates=((quant, memory),))
        return replace(fitted, accepted=placed is not None,
                       room_gb=fitted.room_gb + (placed.ram_gb if placed else 0.0))

    def run(self, run: Run, ram_text: str) -> Judged | None:
        """A load that happened, or None when the catalogues cannot judge it (unknown card or quant;
        an offload row without its RAM size or catalogue model)."""
        card = self.catalogue.cards_by_id.get(run.card)
        card = device_as_run(card, run.device) if card else None
        quant = self.settings.known_quant(run.quant, 0)
        if card is None or quant is None or run.n_gpus != 1:
            return None
        context = run.tokens + run.depth
        model = self.model_for(run.model, run.model_name, run.params_b, run.active_b)
        memory = memory_needed(model, quant, context, self.settings)
        label = f"{run.card} · {run.model_name} · {run.quant} · {context:,} tokens"
        if not run.offload:
            return self.on_device("device", label, card, memory, context, ((quant, memory),), run.source, run.device)
        ram_gb = ram_size_gb(ram_text)
        if ram_gb is None or model.architecture is None:
            return None
        return self.with_offload("offload", label + f" · {run.offload} · {ram_gb:g} GB RAM", card, model, quant,
                                 memory, context, ram_gb, run.source)

    def report(self, report: OomReport) -> Judged | None:
        """A load that failed: weights = the file's size."""
        card = self.catalogue.cards_by_id.get(report.card)
        if card is None:
            return None
        card = device_on_os(card, report.os)
        model = self.model_for(report.model, report.model_name, report.params_b, report.active_b)
        quant = (self.settings.known_quant(report.quant, 0)
                 or Quant(report.quant, 8 * report.file_gb / report.params_b, 0))
        memory = replace(memory_needed(model, quant, report.context, self.settings), weights_gb=report.file_gb)
        label = f"{report.card} · {report.model_name} · {report.quant} · {report.context:,} tokens · {report.os}"
        scores = (attention_scores_gb(report.context, report.attention_heads)
                  if report.flash_attention == "off" and report.attention_heads else 0.0)
        if report.on_device or report.ram_gb is None or model.architecture is None:
            return self.on_device("failed", label, card, memory, report.context, ((quant, memory),), report.source,
                                  report.device, scores)
        label += f" · {report.offload} · {report.ram_gb:g} GB RAM"
        split = REPORTED_GPU_LAYERS.fullmatch(report.offload)
        if split:
            return self.with_split(label, card, model, memory, report.context, int(split.group(1)), report)
        return self.with_offload("failed", label, card, model, quant, memory, report.context, report.ram_gb,
                                 report.source)

    def with_split(self, label: str, card: Card, model: Model, memory: Memory, context: int, gpu_layers: int,
                   report: OomReport) -> Judged:
        """A failure at the report's own -ngl split is judged at that split: would the estimator put
        that many layers on the device? (A machine that runs the model with fewer layers there does
        not make the reported load one that should have run.)"""
        assert model.architecture is not None
        layers = model.architecture.layers
        memory = calibrated_memory(memory, context, self.settings, self.calibration)
        placed = fixed_placement(model, layers, memory, "layers", layers - gpu_layers)
        room = self.room_gb(card, report.device)
        return Judged("failed", label, placed.gpu_gb <= room, placed.gpu_gb, room, False, report.source)


def judge_all(judge: Judge, runs: Sequence[Run], ram_texts: dict[int, str],
              reports: Sequence[OomReport]) -> tuple[list[Judged], int]:
    """Every load judged once (the rows of one load — card, model, quant, context, placement — count
    once), and how many rows could not be judged."""
    judged: dict[tuple, Judged] = {}
    left = 0
    for run in runs:
        key = (run.card, run.model_name, run.quant, run.params_b, run.tokens + run.depth, run.offload)
        if key in judged:
            continue
        result = judge.run(run, ram_texts.get(run.line, ""))
        if result is None:
            left += 1
        else:
            judged[key] = result
    failures = []
    for report in reports:
        result = judge.report(report)
        if result is None:
            left += 1
        else:
            failures.append(result)
    return list(judged.values()) + failures, left
