"""The six steps of "How to choose a GPU for {model}"."""

from __future__ import annotations

from markupsafe import Markup

from ..catalogue import Model
from ..figures import ModelFigures
from ..phrases import N_
from .context import PageContext


def steps(c: PageContext, m: Model, fig: ModelFigures, v: dict) -> list[tuple[str, Markup]]:
    p, g = c.p, c.p.gettext
    if fig.smallest:
        if fig.smallest_most_compressed:
            # TRANSLATORS: {model} is the model's name; {small_need} is the memory the
            # model needs there; {small_quant} is the quantization it runs there.
            # Example: "GLM-130B needs about 64.2 GB at Q3_K_M, the most compressed
            # version any card here runs, on the smallest card that fits. Memory is
            # the gate: a card holds the model or it does not."
            need = p.t(N_("{model} needs about {small_need} at {small_quant}, the most compressed version any card "
                          "here runs, on the smallest card that fits. Memory is the gate: a card holds the model "
                          "or it does not."), **v)
        else:
            # TRANSLATORS: {model} is the model's name; {small_need} is the memory the
            # model needs there; {small_quant} is the quantization it runs there.
            # Example: "DeepSeek-V3 needs about 328.7 GB at Q3_K_M, the version the
            # smallest card that fits runs. Memory is the gate: a card holds the model
            # or it does not."
            need = p.t(N_("{model} needs about {small_need} at {small_quant}, the version the smallest card that "
                          "fits runs. Memory is the gate: a card holds the model or it does not."), **v)
        # TRANSLATORS: {small_quant} is the quantization it runs there. Example:
        # "Compression lets a model fit smaller cards at some cost in accuracy;
        # the smallest card that fits uses Q3_K_M. A quality floor drops the cards
        # that only fit by compressing further than you want."
        quality = p.t(N_("Compression lets a model fit smaller cards at some cost in accuracy; the smallest "
                         "card that fits uses {small_quant}. A quality floor drops the cards that only fit by "
                         "compressing further than you want."), **v)
        # TRANSLATORS: {fast_card} is the fastest card; {fast_tok_s} is its speed. A
        # name takes its article and case: {fast_card:nom}, {fast_card:dat}, French
        # {fast_card:a}, {fast_card:de} (macros/names.py); the bare {fast_card} is
        # the name alone. Example: "Generation is limited by memory bandwidth, so
        # the order by speed is not the order of a gaming benchmark. The card at the
        # top is the AMD Instinct MI300A (128 GB), at 31.2 tok/s."
        rank = p.t(N_("Generation is limited by memory bandwidth, so the order by speed is not the order of a "
                      "gaming benchmark. The card at the top is the {fast_card}, at {fast_tok_s}."), **v)
    else:
        # TRANSLATORS: {model} is the model's name; {miss_need} is the memory the
        # model needs; {miss_quant} is the quantization it is measured at;
        # {miss_usable} is the memory a fit may use on that card; {miss_share} is
        # that share of its memory (90 %); {miss_vram} is that card's memory.
        # Example: "GLM-5 needs about 451.0 GB even at Q4_K_M, more than the 345.6
        # GB usable on the largest card we track (90% of its 384 GB). Memory is
        # the gate: a card holds the model or it does not."
        need = p.t(N_("{model} needs about {miss_need} even at {miss_quant}, more than the {miss_usable} usable on "
                      "the largest card we track ({miss_share} of its {miss_vram}). Memory is the gate: a card "
                      "holds the model or it does not."), **v)
        # TRANSLATORS: {model} is the model's name. Example: "Compression lets a
        # model fit smaller cards at some cost in accuracy. For GLM-5 even strong
        # compression is not enough for a single card."
        quality = p.t(N_("Compression lets a model fit smaller cards at some cost in accuracy. For {model} "
                         "even strong compression is not enough for a single card.") , **v)
        rank = p.t(N_("Generation is limited by memory bandwidth, so once cards fit, the order by speed "
                      "follows bandwidth, not a gaming benchmark."))
    return [
        (g(N_("Check what it needs before anything else")), need),
        (g(N_("Set the context length you will use")),
         # TRANSLATORS: {context} is the context length in tokens. Example: "Set
         # the context to what you will really use (4,096 tokens by default). The
         # cache grows with the conversation, and it is the usual reason a card
         # that looked fine stops fitting."
         p.t(N_("Set the context to what you will really use ({context} tokens by default). The cache grows "
                "with the conversation, and it is the usual reason a card that looked fine stops fitting."),
             **v)),
        (g(N_("Decide how much compression you accept")), quality),
        (g(N_("Rank by throughput, not by spec sheet")), rank),
        (g(N_("Read the fit column last")),
         p.t(N_("A tight fit runs but leaves no room for a longer conversation; comfortable means you can "
                "raise the context later. That difference matters more than a few tokens per second."))),
        (g(N_("See what else the card runs")),
         p.t(N_("Every card name links to its own page, with the same calculation across the whole model "
                "catalogue. A card is usually bought for more than one model."))),
    ]
