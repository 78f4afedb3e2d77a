"""Verdicts in words: the sentences that say what a verdict record (tps_atlas/estimate/verdict.py) decided.

Card pages, model pages and their questions word a verdict through these functions only, so a
shortfall is said at one quant, "even at" only where that quant is the floor, and a machine is
never called a card.
"""

from __future__ import annotations

from markupsafe import Markup

from tps_atlas.catalogue.cards import Card
from tps_atlas.catalogue.models import Model
from tps_atlas.pages.offload import ram_values
from tps_atlas.i18n.phrases import N_, Phrases
from tps_atlas.estimate.verdict import Multi, NoRun, Offload, Shortfall, Verdict
from tps_atlas.estimate.budget import keeps_display
from tps_atlas.estimate.calibration import Calibration
from tps_atlas.estimate.fit import usable_gb, uses_budget
from tps_atlas.estimate.settings import Settings

# A device that cannot hold the model, on its own page ("Can the {card} run {model}?").
# TRANSLATORS: {quant} is a quantization (Q3_K_M), the most compressed one allowed, {model} a model name,
# {need} the memory it needs there, {shortfall} how much more than {usable}, the memory usable on this card:
# {basis} why (90% of its 24 GB). Example: "No. Even at Q3_K_M Llama 3.1 70B needs about 36.3 GB, 14.7 GB more than the
# 21.6 GB usable on this card (90% of its 24 GB)."
NO_EVEN_AT = N_("No. Even at {quant} {model} needs about {need}, {shortfall} more than the {usable} "
                "usable on this card ({basis}).")
# TRANSLATORS: as the sentence before, where {quant} is the only format the model ships in (MXFP4), so
# no "even". Example: "No. At MXFP4 gpt-oss-120b needs about 62.7 GB, 41.1 GB more than the 21.6 GB usable on
# this card (90% of its 24 GB)."
NO_AT = N_("No. At {quant} {model} needs about {need}, {shortfall} more than the {usable} usable on this "
           "card ({basis}).")
# TRANSLATORS: the same for a machine that shares its memory with the processor (never "card"): {usable}
# is what its GPU may use, {basis} why (90% of its 24 GB). Example: "No. Even at Q3_K_M Qwen3 235B-A22B needs about
# 116.1 GB, 24.0 GB more than the 92.2 GB its GPU may use (75% of its 128 GB)."
NO_EVEN_AT_MACHINE = N_("No. Even at {quant} {model} needs about {need}, {shortfall} more than the {usable} "
                        "its GPU may use ({basis}).")
# TRANSLATORS: as the sentence before, where {quant} is the only format the model ships in. Example: "No. At
# MXFP4 gpt-oss-120b needs about 62.7 GB, 30.3 GB more than the 32.4 GB its GPU may use (67% of its 48 GB)."
NO_AT_MACHINE = N_("No. At {quant} {model} needs about {need}, {shortfall} more than the {usable} its GPU may "
                   "use ({basis}).")
# TRANSLATORS: a card that runs the model only with part of it in system RAM: first what the card alone
# lacks. {quant} is the most compressed quantization allowed, {model} a model, {need} memory, {shortfall}
# how much more than {usable} ({basis}). Example: "Not entirely on the card: even at Q3_K_M
# Llama 3.1 70B needs about 36.3 GB, 14.7 GB more than the 21.6 GB usable on it (90% of its 24 GB)."
PARTLY_EVEN_AT = N_("Not entirely on the card: even at {quant} {model} needs about {need}, {shortfall} more "
                    "than the {usable} usable on it ({basis}).")
# TRANSLATORS: as the sentence before, where {quant} is the only format the model ships in. Example: "Not
# entirely on the card: at MXFP4 gpt-oss-120b needs about 62.7 GB, 41.1 GB more than the 21.6 GB usable on it
# (90% of its 24 GB)."
PARTLY_AT = N_("Not entirely on the card: at {quant} {model} needs about {need}, {shortfall} more than the "
               "{usable} usable on it ({basis}).")
# TRANSLATORS: after the sentence before; {ram_size} is system memory (64 GB), {ram_kind} its kind (2-channel
# DDR5-6000), {quant} the quantization it runs at, {ram} the part of the model in RAM (23.1 GB), {tok_s} a
# speed. Example: "With 64 GB of 2-channel DDR5-6000 it runs at Q4_K_M with part of it in RAM (23.1 GB), at
# about 2.2 tok/s."
RUNS_WITH_RAM = N_("With {ram_size} of {ram_kind} it runs at {quant} with part of it in RAM ({ram}), at about "
                   "{tok_s}.")
# TRANSLATORS: after a "No." on a card page: a set of identical cards of this kind holds it. {number} is
# how many, in words (two), {quant} a quantization, {need} the memory of the whole model, {tok_s} a speed;
# --tensor-split is a llama.cpp option, kept as it is. Example: "A set of two of them holds it: at Q3_K_M it
# needs about 489.5 GB in all and would run at about 151 tok/s, split with --tensor-split."
SET_HOLDS = N_("A set of {number} of them holds it: at {quant} it needs about {need} in all and would run at "
               "about {tok_s}, split with --tensor-split.")
# TRANSLATORS: after a "No." on the page of a machine that shares its memory with the processor: nothing to
# move into system RAM. Example: "Its memory is all the system has, so no part of the model can move to
# system RAM."
NO_SYSTEM_RAM = N_("Its memory is all the system has, so no part of the model can move to system RAM.")

# TRANSLATORS: after the sentence before, on the page of a machine whose GPU may be allowed more of the memory:
# {limit} is that larger limit, {os} the system where it can be raised (macOS, Linux), {quant} a quantization,
# {need} memory, {tok_s} a speed. Example: "With its GPU allowed 120 GiB on Linux, it runs at Q3_K_M (it needs
# about 104.2 GiB), at about 14 tok/s; this page explains how to raise the limit."
RAISED_RUNS = N_("With its GPU allowed {limit} on {os}, it runs at {quant} (it needs about {need}), at about "
                 "{tok_s}; this page explains how to raise the limit.")
# TRANSLATORS: a table cell under "Does not run" (or in the table of models a machine cannot hold), beside a
# quantization and a speed: the machine runs the model once its GPU memory limit is raised.
RAISED_CELL = N_("With the GPU limit raised")

# TRANSLATORS: in brackets after "the {usable} usable on this card", under the seed's rule: {share} is the
# share of the card's memory a fit may use, {vram} its memory. Example: "90% of its 24 GB".
BASIS_SHARE = N_("{share} of its {vram}")
# TRANSLATORS: the same for a machine whose GPU also drives the screen (a Mac, a laptop's integrated GPU):
# the screen's share comes off the GPU's. Example: "75% of its 64 GB, less what the screen keeps".
BASIS_SHARE_SCREEN = N_("{share} of its {vram}, less what the screen keeps")
# TRANSLATORS: in brackets after "the {usable} usable on this card", under the memory budget: {vram} is the
# card's memory as labelled. Example: "its 24 GiB less what the driver and the screen keep".
BASIS_BUDGET = N_("its {vram} less what the driver and the screen keep")
# TRANSLATORS: the same for a card that drives no screen (a laptop GPU, a data-centre board). Example: "its
# 80 GiB less what the driver keeps".
BASIS_BUDGET_HEADLESS = N_("its {vram} less what the driver keeps")
# TRANSLATORS: the same for a machine that shares its memory (never "card") whose share is not recorded.
BASIS_BUDGET_MACHINE = N_("the default limit of its GPU")


def machine_basis(p: Phrases, card: Card, keeps_screen: bool) -> Markup:
    """Why a machine's GPU may use what it may: its recorded share of the machine's memory (less what the
    screen keeps), or its default limit where no share is recorded."""
    if not (card.usable_share and card.system_memory_gb):
        return p.t(BASIS_BUDGET_MACHINE)
    return p.t(BASIS_SHARE_SCREEN if keeps_screen else BASIS_SHARE, share=p.fmt.percent(card.usable_share),
               vram=p.fmt.vram(card.system_memory_gb))


def shortfall_values(p: Phrases, model: Model, card: Card, s: Shortfall) -> dict:
    f = p.fmt
    vram = f.vram(card.vram_gb)
    if s.usable_share is not None:
        basis = p.t(BASIS_SHARE, share=f.percent(s.usable_share), vram=vram)
    elif card.unified:
        basis = machine_basis(p, card, s.keeps_display)
    else:
        basis = p.t(BASIS_BUDGET if s.keeps_display else BASIS_BUDGET_HEADLESS, vram=vram)
    return dict(quant=s.quant_name, model=model.name, need=f.gb(s.need_gb), shortfall=f.gb(s.shown_gb),
                usable=f.gb(s.usable_gb), basis=basis)


# TRANSLATORS: a graphics card's specification, beside "Graphics memory (VRAM)"; {vram} is its memory as
# labelled, {usable} what a model may fill (the figure the answers on the page use), {basis} why, as in
# "the {usable} usable on this card ({basis})". Example: "8 GiB, of which a model may use 7.1 GiB (its 8 GiB
# less what the driver and the screen keep)".
USABLE_SPEC = N_("{vram}, of which a model may use {usable} ({basis})")
# TRANSLATORS: the same for a desktop card under the memory budget, where the basis would repeat {vram}.
# Example: "12 GiB, of which a model may use 11.1 GiB; the driver and the screen keep the rest".
SPEC_DRIVER_SCREEN = N_("{vram}, of which a model may use {usable}; the driver and the screen keep the rest")
# TRANSLATORS: the same for a card that drives no screen (a laptop GPU, a data-centre board).
SPEC_DRIVER = N_("{vram}, of which a model may use {usable}; the driver keeps the rest")


def usable_spec(p: Phrases, card: Card, settings: Settings, calibration: Calibration) -> Markup:
    """A card's memory and the part of it a model may fill, worded as the page's answers word it."""
    f = p.fmt
    vram = f.vram(card.vram_gb)
    if uses_budget(settings, calibration) and card.unified:
        # A machine: its GPU's share (the specification's figure) less what the screen keeps, as its answers say.
        assert settings.budget is not None
        basis = machine_basis(p, card, keeps_display(card, settings.budget))
    elif uses_budget(settings, calibration):
        assert settings.budget is not None
        # The card's memory once: what the rest is kept for, not "its 12 GiB less …" beside "12 GiB".
        return p.t(SPEC_DRIVER_SCREEN if keeps_display(card, settings.budget) else SPEC_DRIVER, vram=vram,
                   usable=f.gb(usable_gb(card, settings, calibration)))
    else:
        basis = p.t(BASIS_SHARE, share=f.percent(settings.fits), vram=vram)
    return p.t(USABLE_SPEC, vram=vram, usable=f.gb(usable_gb(card, settings, calibration)), basis=basis)


def short_sentence(p: Phrases, model: Model, card: Card, s: Shortfall, partly: bool = False) -> Markup:
    """What the device alone lacks, at the one quant of the rule; "even" only at the floor."""
    if partly:
        phrase = PARTLY_EVEN_AT if s.at_floor else PARTLY_AT
    elif card.unified:
        phrase = NO_EVEN_AT_MACHINE if s.at_floor else NO_AT_MACHINE
    else:
        phrase = NO_EVEN_AT if s.at_floor else NO_AT
    return p.t(phrase, **shortfall_values(p, model, card, s))


def cannot_hold_answer(p: Phrases, model: Model, v: Verdict) -> Markup:
    """A card page's answer to "Can the {card} run {model}?" for a device that cannot hold it alone."""
    f = p.fmt
    if isinstance(v, Offload):
        o = v.estimate
        return (short_sentence(p, model, v.card, v.shortfall, partly=True) + Markup(" ")
                + p.t(RUNS_WITH_RAM, quant=o.quant.name, ram=f.gb(o.placement.ram_gb), tok_s=f.tok_s(o.tok_s),
                      **ram_values(p, o.system)))
    assert isinstance(v, (Multi, NoRun))
    answer = short_sentence(p, model, v.card, v.shortfall)
    if isinstance(v, Multi):
        e = v.estimate
        answer += Markup(" ") + p.t(SET_HOLDS, number=f.count_words(v.count), quant=e.quant.name,
                                    need=f.gb(e.need_gb), tok_s=f.tok_s(e.tok_s))
    elif v.card.unified:
        answer += Markup(" ") + p.t(NO_SYSTEM_RAM)
        if v.raised:
            e = v.raised.estimate
            answer += Markup(" ") + p.t(RAISED_RUNS, limit=f.gb(v.raised.limit.budget_gb), os=v.raised.limit.os,
                                        quant=e.quant.name, need=f.gb(e.need_gb), tok_s=f.tok_s(e.tok_s))
    return answer
