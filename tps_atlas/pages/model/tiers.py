"""Answers of a model page's questions that read the rows with offload and the sets of cards: the
memory-tier question ("Can I run it on a 12 GB GPU?") and "Would two GPUs run it faster?" where only
a few devices hold the model."""

from __future__ import annotations

from markupsafe import Markup

from tps_atlas.pages.figures import ModelFigures
from tps_atlas.i18n.names import card_name
from tps_atlas.estimate.offload import OffloadEstimate
from tps_atlas.pages.offload import ram_values
from tps_atlas.i18n.phrases import N_, NP_
from tps_atlas.pages.model.context import PageContext
from tps_atlas.pages.model.hardware import split_note


def best_offload(fig: ModelFigures, tier: int) -> OffloadEstimate | None:
    """The fastest row of cards with exactly ``tier`` GB that runs the model with part of it in RAM
    (the offload rows are fastest first, as the table lists them)."""
    return next((o for o in fig.offload if o.card.vram_gb == tier), None)


def tier_offload(c: PageContext, tier: str, o: OffloadEstimate) -> Markup:
    """No card of the tier holds it entirely; the fastest of them runs it with part of it in RAM."""
    f = c.f
    # TRANSLATORS: the answer to "Can I run {model} on a {tier} GPU?" where no card of that memory holds
    # it entirely but they run it with part of it in system RAM. {tier} is a memory size (12 GB), {card} the
    # fastest such card (with {card:nom}, {card:dat}… for its article), {quant} a quantization, {tok_s} a
    # speed, {ram} the part in RAM, {ram_size} and {ram_kind} the system memory assumed. Example: "Not
    # entirely on the card, but with part of it in system RAM, yes: the fastest 12 GB card, the GeForce RTX
    # 3080 12 GB, runs it at MXFP4 at about 61.9 tok/s, with 1.3 GB in 64 GB of 2-channel DDR5-6000."
    return c.p.t(N_("Not entirely on the card, but with part of it in system RAM, yes: the fastest {tier} card, "
                    "the {card}, runs it at {quant} at about {tok_s}, with {ram} in {ram_size} of {ram_kind}."),
                 tier=tier, card=card_name(o.card, c.p.language), quant=o.quant.name, tok_s=f.tok_s(o.tok_s),
                 ram=f.gb(o.placement.ram_gb), **ram_values(c.p, o.system))


def two_gpus_few(c: PageContext, fig: ModelFigures) -> Markup:
    """"Would two GPUs run it faster?" for a model that only a few devices hold: a set is how the
    others run it (``fig.multi``: the smallest set of identical cards, of those that cannot hold it alone)."""
    p, f, multi = c.p, c.f, fig.multi
    assert multi is not None
    e = multi.cheapest
    # TRANSLATORS: {count} is how many devices (cards and machines) hold the model alone, in words when
    # small. Example: "A second card adds memory, not speed; one device in our catalogue holds it alone."
    alone = c.n_words(NP_("A second card adds memory, not speed; {count} device in our catalogue holds it alone.",
                          "A second card adds memory, not speed; {count} devices in our catalogue hold it alone."),
                      fig.cards_fit)
    # TRANSLATORS: {count} is the number of identical cards (the factor of "{count} × {card}"), {card} a
    # card's name, {card_vram} the memory of each, {quant} a quantization, {need} the memory of the whole
    # model, {tok_s} a speed. Example: "Where one device is not enough, a set of identical cards is the way:
    # the smallest that holds it is 2 × Radeon Instinct MI300X (192 GB each), at Q3_K_M in about 328.7 GB in
    # all, at about 106 tok/s."
    sets = p.t(N_("Where one device is not enough, a set of identical cards is the way: the smallest that holds it "
                  "is {count} × {card} ({card_vram} each), at {quant} in about {need} in all, at about {tok_s}."),
               count=f.count(multi.count), card=card_name(e.card, p.language), card_vram=f.vram(multi.card_vram_gb(e)),
               quant=e.quant.name, need=f.gb(e.need_gb), tok_s=f.tok_s(e.tok_s))
    return Markup(" ").join([alone, sets, *split_note(c)])
