"""The six steps of "How to choose a GPU for {model}"."""

from __future__ import annotations

from markupsafe import Markup

from tps_atlas.catalogue.models import Model
from tps_atlas.pages.figures import ModelFigures
from tps_atlas.i18n.phrases import N_
from tps_atlas.pages.model.context import PageContext
from tps_atlas.pages.model.values import PageValues


def intro(c: PageContext, fig: ModelFigures) -> str:
    """The sentence before the steps: over an empty table, what the check found instead."""
    over_table = N_("The table above has already checked every device we know against this model. Getting to "
                    "your answer takes six steps.")
    # TRANSLATORS: before the six steps, on the page of a model no device holds (the table is empty).
    over_nothing = N_("We have already checked every device we know against this model: none holds it on its "
                      "own. Getting to your answer takes six steps.")
    return c.p.gettext(over_table if fig.rows or fig.offload else over_nothing)


def steps(c: PageContext, m: Model, fig: ModelFigures, v: PageValues) -> list[tuple[str, Markup]]:
    p, g = c.p, c.p.gettext
    machine = bool(fig.smallest and fig.smallest.card.unified)
    if fig.smallest:
        if machine:
            # TRANSLATORS: as "{model} needs about {small_need} at {small_quant}, the version the smallest card
            # that fits runs…", where the smallest is a machine sharing its memory (never "card"). Example:
            # "DeepSeek-V3 needs about 328.7 GB at Q3_K_M, the version the smallest device that holds it runs."
            need = p.t(N_("{model} needs about {small_need} at {small_quant}, the version the smallest device that "
                          "holds it runs."), **v.placeholders)
        elif fig.smallest_most_compressed:
            # TRANSLATORS: {model} is the model's name; {small_need} is the memory the
            # model needs there; {small_quant} is the quantization it runs there.
            # Example: "GLM-130B needs about 64.2 GB at Q3_K_M, the most compressed
            # version any device here runs, on the smallest card that fits."
            need = p.t(N_("{model} needs about {small_need} at {small_quant}, the most compressed version any "
                          "device here runs, on the smallest card that fits."), **v.placeholders)
        else:
            # TRANSLATORS: {model} is the model's name; {small_need} is the memory the
            # model needs there; {small_quant} is the quantization it runs there.
            # Example: "DeepSeek-V3 needs about 328.7 GB at Q3_K_M, the version the
            # smallest card that fits runs."
            need = p.t(N_("{model} needs about {small_need} at {small_quant}, the version the smallest card that "
                          "fits runs."), **v.placeholders)
        # "A card holds it or it does not" is false beside rows that run with part in RAM.
        if fig.offload:
            # TRANSLATORS: after the memory a model needs, on a page whose table has rows "With offload".
            gate = N_("Memory is the gate: what does not fit on the card has to go to system RAM, which is "
                      "much slower.")
        elif machine:
            # TRANSLATORS: as "Memory is the gate: a card holds the model or it does not.", where the smallest
            # that holds it is a machine sharing its memory.
            gate = N_("Memory is the gate: a device holds the model or it does not.")
        else:
            gate = N_("Memory is the gate: a card holds the model or it does not.")
        need = need + Markup(" ") + p.t(gate)
        # TRANSLATORS: as "Compression lets a model fit smaller cards…", where the smallest is a machine
        # sharing its memory. Example: "Compression lets a model fit smaller devices at some cost in
        # accuracy; the smallest device that holds it uses Q3_K_M. A quality floor drops the devices that
        # only fit by compressing further than you want."
        quality_machine = N_("Compression lets a model fit smaller devices at some cost in accuracy; the smallest "
                             "device that holds it uses {small_quant}. A quality floor drops the devices that only "
                             "fit by compressing further than you want.")
        # TRANSLATORS: {small_quant} is the quantization it runs there. Example:
        # "Compression lets a model fit smaller cards at some cost in accuracy;
        # the smallest card that fits uses Q3_K_M. A quality floor drops the cards
        # that only fit by compressing further than you want."
        quality_card = N_("Compression lets a model fit smaller cards at some cost in accuracy; the smallest "
                          "card that fits uses {small_quant}. A quality floor drops the cards that only fit by "
                          "compressing further than you want.")
        quality = p.t(quality_machine if machine else quality_card, **v.placeholders)
        # TRANSLATORS: {fast_card} is the fastest card; {fast_tok_s} is its speed. A
        # name takes its article and case: {fast_card:nom}, {fast_card:dat}, French
        # {fast_card:a}, {fast_card:de} (tps_atlas/i18n/names.py); the bare {fast_card} is
        # the name alone. Example: "Generation is limited by memory bandwidth, so
        # the order by speed is not the order of a gaming benchmark. The device at
        # the top is the AMD Instinct MI300A (128 GB), at 31.2 tok/s."
        rank = p.t(N_("Generation is limited by memory bandwidth, so the order by speed is not the order of a "
                      "gaming benchmark. The device at the top is the {fast_card}, at {fast_tok_s}."),
                   **v.placeholders)
    else:
        # TRANSLATORS: {model} is the model's name; {miss_need} is the memory the
        # model needs; {miss_quant} is the quantization it is measured at (here the
        # most compressed one allowed, hence "even"); {miss_vram} is the memory of
        # the largest card we track (a card never gives all of it to a model: the
        # driver keeps some). Example: "GLM-5 needs about 364.5 GB even at Q3_K_M,
        # more than the largest card we track (384 GB) can give it. Memory is the
        # gate: a card holds the model or it does not."
        at_floor = N_("{model} needs about {miss_need} even at {miss_quant}, more than the largest card we track "
                      "({miss_vram}) can give it. Memory is the gate: a card holds the model or it does not.")
        # TRANSLATORS: as the sentence before, where {miss_quant} is the only format the model
        # ships in (or the one asked for), so no "even". Example: "gpt-oss-120b needs about 62.7 GB
        # at MXFP4, more than the largest card we track (64 GB) can give it. Memory is the gate: a
        # card holds the model or it does not."
        at_quant = N_("{model} needs about {miss_need} at {miss_quant}, more than the largest card we track "
                      "({miss_vram}) can give it. Memory is the gate: a card holds the model or it does not.")
        # TRANSLATORS: as "{model} needs about {miss_need} even at {miss_quant}…", where the largest device
        # is a machine sharing its memory (never "card"); {miss_vram} is what its GPU may use. Example:
        # "Kimi K2 needs about 489.5 GB even at Q3_K_M, more than the largest device we track can give it
        # (its GPU may use 384 GB). Memory is the gate: a device holds the model or it does not."
        at_floor_machine = N_("{model} needs about {miss_need} even at {miss_quant}, more than the largest device we "
                              "track can give it (its GPU may use {miss_vram}). Memory is the gate: a device holds "
                              "the model or it does not.")
        # TRANSLATORS: as the sentence before, where {miss_quant} is the only format the model ships in (or
        # the one asked for), so no "even". Example: "gpt-oss-120b needs about 62.7 GB at MXFP4, more than
        # the largest device we track can give it (its GPU may use 57.6 GB). Memory is the gate: a device
        # holds the model or it does not."
        at_quant_machine = N_("{model} needs about {miss_need} at {miss_quant}, more than the largest device we track "
                              "can give it (its GPU may use {miss_vram}). Memory is the gate: a device holds the "
                              "model or it does not.")
        miss = fig.nearest_miss
        machine = bool(miss and miss.card.unified)
        if miss and miss.at_floor:
            need = p.t(at_floor_machine if machine else at_floor, **v.placeholders)
        else:
            need = p.t(at_quant_machine if machine else at_quant, **v.placeholders)
        # TRANSLATORS: {model} is the model's name. Example: "Compression lets a
        # model fit smaller devices at some cost in accuracy. For GLM-5 even strong
        # compression is not enough for a single device."
        quality = p.t(N_("Compression lets a model fit smaller devices at some cost in accuracy. For {model} "
                         "even strong compression is not enough for a single device."), **v.placeholders)
        rank = p.t(N_("Generation is limited by memory bandwidth, so once devices fit, the order by speed is "
                      "not the order of a gaming benchmark."))
    # The table and the index list graphics cards and machines alike: "device", never "card".
    linked = N_("Every device name links to its own page, with the same calculation across the whole model "
                "catalogue. A device is usually bought for more than one model.")
    # TRANSLATORS: step six on the page of a model no device holds (its table is empty, so no device name
    # on the page is a link). Example: "Every device has its own page, listed in the devices index, with
    # the same calculation across the whole model catalogue. A device is usually bought for more than one
    # model."
    unlinked = N_("Every device has its own page, listed in the devices index, with the same calculation across "
                  "the whole model catalogue. A device is usually bought for more than one model.")
    return [
        (g(N_("Check what it needs before anything else")), need),
        (g(N_("Set the context length")),
         # TRANSLATORS: {context} is the context length in tokens. Example: "Choose
         # what you will really use (4,096 tokens by default). The cache grows with
         # the conversation, and it is the usual reason a device that looked fine
         # stops fitting."
         p.t(N_("Choose what you will really use ({context} tokens by default). The cache grows with the "
                "conversation, and it is the usual reason a device that looked fine stops fitting."),
             **v.placeholders)),
        (g(N_("Decide how much compression you accept")), quality),
        (g(N_("Rank by speed, not by spec sheet")), rank),
        (g(N_("Read the fit column last")),
         p.t(N_("A tight fit runs but leaves no room for a longer conversation; comfortable means you can "
                "raise the context later. That difference matters more than a few tokens per second."))),
        (g(N_("See what else the device runs")), p.t(linked if fig.rows or fig.offload else unlinked)),
    ]
