"""What model and card pages say about offload: the row detail, the worked figure, the
explanation, the FAQ answer and the card page's table. Every sentence comes from the catalogue;
the figures from tps_atlas/estimate/offload.py.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Callable, Sequence
from urllib.parse import urlsplit

from markupsafe import Markup

from tps_atlas.catalogue.models import Model
from tps_atlas.estimate.commands import fit_command
from tps_atlas.estimate.offload import OffloadEstimate, RamKind, System, load_ram
from tps_atlas.i18n.names import card_name
from tps_atlas.i18n.phrases import N_, NP_, Phrases
from tps_atlas.pages.model.values import PageValues

SMALL_CARD_GB = 24   # the largest consumer card: the offload figure a reader most likely needs

# The row detail under an offload figure (model and card tables, and the browser's table).
# TRANSLATORS: a table row's detail for a mixture of experts; {cpu_layers} and {layers} are numbers of layers,
# {ram} memory. Example: 'experts of 26 of 36 layers in RAM (40.2 GB)'.
DETAIL_EXPERTS = N_("experts of {cpu_layers} of {layers} layers in RAM ({ram})")
# TRANSLATORS: a table row's detail for a dense model; {cpu_layers} and {layers} are numbers of layers, {ram}
# memory. Example: '40 of 80 layers in RAM (21.3 GB)'.
DETAIL_LAYERS = N_("{cpu_layers} of {layers} layers in RAM ({ram})")

# TRANSLATORS: a heading; {card} is the card's name (with {card:nom}, {card:acc}... for its article). Example:
# 'How the figure for the GeForce RTX 4090 with offload was worked out'.
OFFLOAD_TITLE = N_("How the figure for the {card} with offload was worked out")
OFFLOAD_LINES_EXPERTS = (
    # TRANSLATORS: --n-cpu-moe is a llama.cpp option, kept as it is; {cpu_layers}, {gpu_layers} are numbers of
    # layers, {vram_used} and {ram} memory. Example: 'Placement (--n-cpu-moe 26): attention, ..., the experts of
    # 10 layers on the card, 22.1 GB in all; the experts of the other 26 layers in system memory, 40.2 GB.'
    N_("Placement (--n-cpu-moe {cpu_layers}): attention, the shared weights, the KV cache and the experts of "
       "{gpu_layers} layers on the card, {vram_used} in all; the experts of the other {cpu_layers} layers in "
       "system memory, {ram}."),
    # TRANSLATORS: {vram_read} and {ram_read} are memory read per token (1.20 GB), {used} and {experts} numbers
    # of experts. Example: 'Read per token: 1.20 GB from the card and 0.85 GB from system memory, as a token
    # uses only 4 of the 128 experts of each layer.'
    N_("Read per token: {vram_read} from the card and {ram_read} from system memory, as a token uses only "
       "{used} of the {experts} experts of each layer."),
)
OFFLOAD_LINES_LAYERS = (
    # TRANSLATORS: -ngl is a llama.cpp option, kept as it is; {gpu_layers}, {layers}, {cpu_layers} are numbers
    # of layers, {vram_used} and {ram} memory. Example: 'Placement (-ngl 40): 40 of 80 layers with their KV
    # cache on the card, 22.0 GB in all; the other 40 in system memory, 21.3 GB.'
    N_("Placement (-ngl {gpu_layers}): {gpu_layers} of {layers} layers with their KV cache on the card, "
       "{vram_used} in all; the other {cpu_layers} in system memory, {ram}."),
    # TRANSLATORS: {vram_read} and {ram_read} are memory read per token. Example: 'Read per token: 21.3 GB from
    # the card and 21.3 GB from system memory, as every token passes through every layer.'
    N_("Read per token: {vram_read} from the card and {ram_read} from system memory, as every token passes "
       "through every layer."),
)
OFFLOAD_LINES_COMMON = (
    # TRANSLATORS: a formula: {vram_read}, {ram_read} memory, {bandwidth}, {ram_bandwidth} bandwidths,
    # {efficiency}, {ram_efficiency} percentages, {overhead} and {ms} milliseconds (numbers), {tok_s} a speed.
    # Example: 'Time per token: 1.20 GB ÷ (1,008 GB/s × 70 %) + ... + 2.00 ms = 12.35 ms, so about 81 tok/s.'
    N_("Time per token: {vram_read} ÷ ({bandwidth} × {efficiency}) + {ram_read} ÷ ({ram_bandwidth} × "
       "{ram_efficiency}) + {overhead} ms = {ms} ms, so about {tok_s}."),
    # TRANSLATORS: {context} and {batch} are numbers of tokens, {pcie} a bandwidth (25 GB/s), {ttft} a time in
    # seconds. Example: 'A prompt of 32,768 tokens: the card computes it, after copying ... (about 25 GB/s) once
    # per batch of 512 tokens; about 40 s before the first token.'
    N_("A prompt of {context} tokens: the card computes it, after copying the part in system memory over "
       "PCIe (about {pcie}) once per batch of {batch} tokens; about {ttft} before the first token."),
)
RUN_IT = N_("To run it with this row's settings:")


def ram_kind_name(p: Phrases, kind: RamKind) -> str:
    """The kind of RAM as running text names it ("worked out for 64 GB of 2-channel DDR5-6000")."""
    # TRANSLATORS: a kind of system memory inside a sentence, after "64 GB of" ("worked out for 64 GB of
    # {ram_kind}"); {count} is its number of channels, {memory} its type (DDR5-6000). The drop-down's
    # label is the entry "{memory}, {count} channels". Example: '2-channel DDR5-6000'.
    return str(p.n(NP_("{count}-channel {memory}", "{count}-channel {memory}"), kind.channels,
                   memory=kind.memory))


def ram_kind_label(p: Phrases, kind: RamKind) -> str:
    """The kind of RAM as a drop-down's option names it ("DDR5-6000, 2 channels")."""
    # TRANSLATORS: an option of the drop-down "Kind of system RAM"; {memory} is its type (DDR5-6000), {count}
    # its number of channels. Example: 'DDR5-6000, 2 channels'.
    return str(p.n(NP_("{memory}, {count} channel", "{memory}, {count} channels"), kind.channels,
                   memory=kind.memory))


def ram_inputs(p: Phrases) -> dict:
    """The RAM inputs of a model page's form: size (GB, as the browser reads it) and kind."""
    ram = load_ram()
    size = ram.default_size_gb
    return {"ram": int(size) if float(size).is_integer() else size, "ram_kind": ram.default_kind,
            "ram_kinds": [{"value": k.id, "label": f"{ram_kind_label(p, k)} ({p.fmt.bandwidth(k.bandwidth_gb_s)})"}
                          for k in ram.kinds]}


def ram_values(p: Phrases, system: System) -> dict:
    f = p.fmt
    ram = load_ram()
    return dict(ram_size=f.vram(system.size_gb), ram_kind=ram_kind_name(p, system.kind),
                ram_bandwidth=f.bandwidth(system.kind.bandwidth_gb_s), reserve=f.vram(ram.os_reserve_gb))


def offload_detail(p: Phrases, e: OffloadEstimate) -> str:
    pl = e.placement
    return str(p.t(DETAIL_EXPERTS if pl.mode == "experts" else DETAIL_LAYERS, cpu_layers=p.fmt.count(pl.cpu_layers),
                   layers=p.fmt.count(pl.layers), ram=p.fmt.gb(pl.ram_gb)))


def offload_working(p: Phrases, m: Model, e: OffloadEstimate, context: int,
                    kv_precision: str | None) -> tuple[str, list[Markup], str, str]:
    """Title, lines, the llama-bench line that checks it and the llama-server line that runs it."""
    f, pl, w = p.fmt, e.placement, e.working
    ram = load_ram()
    values = dict(card=card_name(e.card, p.language), cpu_layers=f.count(pl.cpu_layers),
                  gpu_layers=f.count(pl.gpu_layers),
                  layers=f.count(pl.layers), vram_used=f.gb(pl.gpu_gb), ram=f.gb(pl.ram_gb),
                  vram_read=f.gb_read(w.vram_read_gb, 2), ram_read=f.gb_read(w.ram_read_gb, 2),
                  used=f.count(m.experts_active or 0), experts=f.count(m.experts_total or 0),
                  bandwidth=f.bandwidth(w.card_bandwidth_gb_s), efficiency=f.percent(w.card_efficiency),
                  ram_bandwidth=f.bandwidth(w.ram_bandwidth_gb_s), ram_efficiency=f.percent(w.ram_efficiency),
                  overhead=f.decimal(w.overhead_ms, 2), ms=f.decimal(w.seconds_per_token * 1000, 2),
                  tok_s=f.tok_s(e.tok_s), context=f.count(context), pcie=f.bandwidth(ram.pcie_gb_s),
                  batch=f.count(ram.batch_tokens), ttft=f.seconds(e.ttft_s) if e.ttft_s else "")
    lines = OFFLOAD_LINES_EXPERTS if pl.mode == "experts" else OFFLOAD_LINES_LAYERS
    placement = (f"-ngl 99 -ncmoe {pl.cpu_layers}" if pl.mode == "experts" else f"-ngl {pl.gpu_layers}")
    check = f"llama-bench -m {m.id}-{e.quant.name}.gguf -p 0 -n 128 {placement}"
    return (str(p.t(OFFLOAD_TITLE, card=values["card"])),
            [p.t(line, **values) for line in lines + OFFLOAD_LINES_COMMON],
            check, fit_command(m, e, context, kv_precision))


def reference_offload(offload: Sequence[OffloadEstimate]) -> OffloadEstimate | None:
    """The offload row a reader most likely needs: the first of ``faq_cards`` (data/ram.yaml) that
    runs it with offload, else the fastest consumer-sized card, else the fastest."""
    by_card = {o.card.id: o for o in offload}
    for card_id in load_ram().faq_cards:
        if card_id in by_card:
            return by_card[card_id]
    small = [o for o in offload if o.card.vram_gb <= SMALL_CARD_GB]
    return next(iter(small or offload), None)


def offload_explanation(p: Phrases, m: Model, system: System, offload: Sequence[OffloadEstimate]) -> list[Markup]:
    """How offload works for this kind of model, the fastest figure the page has for it (``offload``:
    the page's offload rows, fastest first) and the RAM the pages assume."""
    v = dict(model=m.name, **ram_values(p, system))
    out = []
    if m.is_moe:
        # TRANSLATORS: {model} is a model's name; --n-cpu-moe is a llama.cpp option, kept as it is. Example:
        # 'On a card too small for it, gpt-oss-120b can still run with part of it in system memory (RAM). ...'
        # Not "where no card holds it": on most of these pages many devices hold it.
        out.append(p.t(N_("On a card too small for it, {model} can still run with part of it in system memory (RAM). "
                          "llama.cpp keeps attention, the shared weights and the KV cache on the card and moves "
                          "the experts of as many layers as needed to RAM (--n-cpu-moe). A token uses only a few "
                          "experts, so only a small part of what sits in RAM is read for each token: slower than "
                          "on the card, but often still usable."), **v))
    else:
        # Not "falls to a few tokens per second" as a rule: with little in RAM a dense model keeps most of
        # its speed (GLM-4.1V on a GTX 980 Ti, 0.8 GB in RAM: 25.9 tok/s); the page's own fastest row says how
        # fast it gets, and system RAM is a third of a mid-range card's bandwidth, not always "a tenth".
        # TRANSLATORS: {model} is a model's name; -ngl is a llama.cpp option, kept as it is. Example: 'On a card
        # too small for it, Llama 3.1 70B can still run with some of its layers in system memory (RAM, -ngl). ...'
        out.append(p.t(N_("On a card too small for it, {model} can still run with some of its layers in system "
                          "memory (RAM, -ngl). Being dense, it reads every layer for every token, and system "
                          "memory is several times slower than a card's own: the more layers sit in RAM, the "
                          "slower it runs."), **v))
    if offload and not m.is_moe:
        # TRANSLATORS: {card} is a card's name (with {card:nom}... for its article), {tok_s} a speed, {ram}
        # the part in RAM. Example: 'With part of it in RAM, the fastest here is the GeForce GTX
        # 980 Ti: about 25.9 tok/s, with 0.8 GB in RAM.'
        out.append(p.t(N_("With part of it in RAM, the fastest here is the {card}: about {tok_s}, with {ram} in "
                          "RAM."), card=card_name(offload[0].card, p.language), tok_s=p.fmt.tok_s(offload[0].tok_s),
                       ram=p.fmt.gb(offload[0].placement.ram_gb)))
    if offload:
        # TRANSLATORS: {ram_size} and {reserve} are memory sizes (64 GB, 8 GB), {ram_kind} a kind of memory
        # (2-channel DDR5-6000), {ram_bandwidth} its bandwidth. Example: 'Cards marked “With offload” are worked
        # out for 64 GB of 2-channel DDR5-6000 (96.0 GB/s), a typical gaming PC, of which 8 GB is left to the
        # operating system.'
        out.append(p.t(N_("Cards marked “With offload” are worked out for {ram_size} of {ram_kind} "
                          "({ram_bandwidth}), a typical gaming PC, of which {reserve} is left to the operating "
                          "system."), **v))
    return out


def offload_faq(p: Phrases, m: Model, fig, v: PageValues) -> Markup:
    """The answer to "Can I run {model} if it does not fit on my GPU?": the figure for the nearest card."""
    f = p.fmt
    by_card = {o.card.id: o for o in fig.offload}
    ram_v = ram_values(p, fig.system)
    nearest = by_card.get(fig.nearest_miss.card.id) if fig.nearest_miss else None
    picks = list(dict.fromkeys(x for x in (reference_offload(fig.offload), nearest) if x))
    if not picks and not m.architecture:
        # TRANSLATORS: {model} is a model's name. Example: 'We work out no figure with part of GLM-130B in
        # system memory: its layers are not recorded, so there is no telling how llama.cpp would split it.'
        return p.t(N_("We work out no figure with part of {model} in system memory: its layers are not recorded, "
                      "so there is no telling how llama.cpp would split it."), model=m.name)
    if not picks and fig.misses and all(miss.card.unified for miss in fig.misses):
        # Every device it misses shares one memory pool with the processor: no separate RAM to move part to.
        # TRANSLATORS: {model} is a model's name. Example: 'Every graphics card we track holds Llama 3.2 3B
        # entirely. The devices it does not fit share their memory with the processor, so there is no separate
        # RAM to move part of it to.'
        return p.t(N_("Every graphics card we track holds {model} entirely. The devices it does not fit share their "
                      "memory with the processor, so there is no separate RAM to move part of it to."), model=m.name)
    if not picks:
        # TRANSLATORS: {ram_size} and {miss_need} are memory sizes, {miss_quant} a quantization. Example: 'Not
        # with 64 GB of system memory: at Q3_K_M it needs about 450 GB, more than any card we track holds
        # together with that memory.'
        return p.t(N_("Not with {ram_size} of system memory: at {miss_quant} it needs about {miss_need}, more "
                      "than any card we track holds together with that memory."), **v.placeholders, **ram_v)
    sentences = [p.t(N_("Yes, with part of it in system memory (RAM), as the rows marked “With offload” show."))]
    for o in picks:
        values = dict(card=card_name(o.card, p.language), vram=f.vram(o.card.vram_gb), quant=o.quant.name,
                      tok_s=f.tok_s(o.tok_s),
                      range=f.tok_range(o.tok_s_low, o.tok_s_high), ram=f.gb(o.placement.ram_gb), **ram_v)
        # TRANSLATORS: {ram_size} memory (64 GB), {ram_kind} its kind, {card} the card's name (with
        # {card:nom}... for its article), {vram} its memory, {quant} a quantization, {tok_s} a speed, {range} a
        # range of speeds (3.1–5.2), {ram} the part in RAM. Example: 'With 64 GB of 2-channel DDR5-6000, the
        # GeForce RTX 4090 (24 GB) runs it at MXFP4 at about 25 tok/s (18–31 tok/s), with 40.2 GB in RAM.'
        sentences.append(p.t(N_("With {ram_size} of {ram_kind}, the {card} ({vram}) runs it at {quant} at about "
                                "{tok_s} ({range} tok/s), with {ram} in RAM.") if o is picks[0] else
                             # TRANSLATORS: as the sentence before, without the RAM: {card} is the card's name
                             # (starting a sentence: {card:Nom}). Example: 'The GeForce RTX 5090 (32 GB) runs it
                             # at MXFP4 at about 30 tok/s (22–37 tok/s), with 35.0 GB in RAM.'
                             N_("The {card} ({vram}) runs it at {quant} at about {tok_s} ({range} tok/s), with "
                                "{ram} in RAM."), **values))
    reading = fig.settings.reading_speed_tok_s if fig.settings else 10.0
    if not m.is_moe and picks[0].tok_s < reading:
        # Only under a figure below reading speed: above it, "the low figure" would be false.
        # TRANSLATORS: after a speed below reading speed, for a dense model.
        sentences.append(p.t(N_("A dense model reads all of its layers for every token, those in RAM too: hence "
                                "the low figure.")))
    return Markup(" ").join(sentences)


@dataclass
class OffloadCardRow:
    model: str
    href: str
    params: str
    quant: str
    need: str
    tok_s: str
    tok_range: str
    detail: str
    command: str
    limit: str = ""     # the model reads less context than the figure and the command assume


def card_offload_rows(p: Phrases, pairs: Sequence[tuple[Model, OffloadEstimate]], context: int,
                      limit_of: Callable[[Model], str] = lambda m: "") -> list[OffloadCardRow]:
    f = p.fmt
    return [OffloadCardRow(m.name, f"../../models/{m.id}/", f.parameters_short(m.parameters_b),
                           o.quant.name, f.gb(o.need_gb), f.tok_s(o.tok_s), f.tok_range(o.tok_s_low, o.tok_s_high),
                           offload_detail(p, o), fit_command(m, o, context), limit_of(m))
            for m, o in pairs]


def card_offload_intro(p: Phrases, system: System, card) -> Markup:
    # TRANSLATORS: {card} is the card's name (with {card:acc}... for its article), {ram_size}, {ram_kind},
    # {ram_bandwidth} the system memory assumed. Example: 'These models do not fit on the GeForce RTX 4090 alone
    # but run with part of them in system memory, worked out for 64 GB of 2-channel DDR5-6000 (96.0 GB/s), ...'
    return p.t(N_("These models do not fit on the {card} alone but run with part of them in system memory, "
                  "worked out for {ram_size} of {ram_kind} ({ram_bandwidth}), a typical gaming PC. "
                  "The more of a model sits in RAM, the slower it runs."),
               card=card_name(card, p.language), **ram_values(p, system))


def source_url(source: str) -> str:
    found = re.search(r"https?://\S+", source)
    return found.group(0) if found else ""


def offload_methodology(p: Phrases) -> dict:
    """The methodology page's section on offload: constants, RAM kinds and the measured error."""
    from tps_atlas.measured.offload_accuracy import median_error, score

    f, ram = p.fmt, load_ram()
    decode, _ = score(ram, "tg")
    prompt, _ = score(ram, "pp")
    return {
        "reserve": f.vram(ram.os_reserve_gb), "efficiency": f.percent(ram.efficiency),
        "overhead": f.decimal(ram.overhead_ms, 2), "pcie": f.bandwidth(ram.pcie_gb_s),
        "batch": f.count(ram.batch_tokens), "best_quant": ram.best_quant,
        "range": f"{f.decimal(ram.range_low, 2)}× – {f.decimal(ram.range_high, 2)}×",
        "decode_median": f.percent(median_error(decode)), "decode_runs": f.count(len(decode)),
        "prompt_median": f.percent(median_error(prompt)), "prompt_runs": f.count(len(prompt)),
        "default": ram_values(p, ram.system()),
        # The source's address, shown by its site's name (the rest of it is English working).
        "kinds": [(ram_kind_name(p, k), f.bandwidth(k.bandwidth_gb_s), source_url(k.source),
                   urlsplit(source_url(k.source)).netloc) for k in ram.kinds],
    }
