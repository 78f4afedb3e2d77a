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
        need = p.t(N_("{model} needs about {small_need} at {small_quant}, the most compressed version the "
                      "smallest card uses. Memory is the gate: a card holds the model or it does not."), **v)
        quality = p.t(N_("Compression lets a model fit smaller cards at some cost in accuracy; the smallest "
                         "card that fits uses {small_quant}. A quality floor drops the cards that only fit by "
                         "compressing further than you want."), **v)
        rank = p.t(N_("Generation is limited by memory bandwidth, so the order by speed is not the order of a "
                      "gaming benchmark. The card at the top is the {fast_card}, at {fast_tok_s}."), **v)
    else:
        need = p.t(N_("{model} needs about {miss_need} even at {miss_quant}, more than the largest card "
                      "we track holds. Memory is the gate: a card holds the model or it does not."), **v)
        quality = p.t(N_("Compression lets a model fit smaller cards at some cost in accuracy. For {model} "
                         "even strong compression is not enough for a single card.") , **v)
        rank = p.t(N_("Generation is limited by memory bandwidth, so once cards fit, the order by speed "
                      "follows bandwidth, not a gaming benchmark."))
    return [
        (g(N_("Check what it needs before anything else")), need),
        (g(N_("Set the context length you will use")),
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
