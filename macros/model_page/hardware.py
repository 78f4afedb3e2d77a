"""What the numbers mean on a model page: the size class, the smallest and fastest card, and
the set of cards a model needs when no single card holds it."""

from __future__ import annotations

from markupsafe import Markup

from ..catalogue import Model
from ..commands import row_command
from ..figures import ModelFigures
from ..phrases import N_, NP_
from .context import PageContext

SMALL_CARD_GB = 24       # the largest memory of a consumer card: "small enough"


def numbers(c: PageContext, fig: ModelFigures, v: dict) -> list[tuple[str, str]]:
    g = c.p.gettext
    if not fig.smallest:
        return []
    return [(g(N_("Smallest card that fits")), v["small_card"]), (g(N_("Memory needed")), v["small_need"]),
            (g(N_("Fastest")), v["fast_tok_s"])]


def size_class(c: PageContext, m: Model, fig: ModelFigures, v: dict) -> Markup:
    p = c.p
    if not fig.smallest:
        return p.pick(m.id + ":size", (
            N_("At {params} parameters, {model} is larger than any single card we track can hold. Running it "
               "means splitting it across several cards or renting hardware built for it."),
            N_("{model} has {params} parameters: more than any one card in our catalogue holds. It runs split "
               "across several cards, or on rented datacenter hardware."),
        ), **v)
    if fig.smallest.card.vram_gb <= SMALL_CARD_GB:
        return p.pick(m.id + ":size", (
            N_("With {params} parameters, {model} is small enough that hardware is rarely the obstacle, "
               "including on cards that are several years old."),
            N_("{model} has {params} parameters, which makes it small enough for most cards, older ones "
               "included: hardware is rarely what stops you running it."),
            N_("At {params} parameters, {model} fits on ordinary consumer cards, even ones a few "
               "years old."),
        ), **v)
    return p.pick(m.id + ":size", (
        N_("With {params} parameters, {model} is beyond consumer cards: it needs a card bought for the job "
           "rather than one you already have."),
        N_("{model} has {params} parameters. That puts it out of reach of consumer cards, in the range where "
           "you buy a card for this model rather than reuse one."),
    ), **v)


def multi_text(c: PageContext, fig: ModelFigures, v: dict) -> list[Markup]:
    """The smallest set of identical cards that holds a model no single card holds."""
    p, f, multi = c.p, c.f, fig.multi
    if not multi:
        return [p.t(N_("Not even a set of {most} identical cards in our catalogue holds it: it needs a "
                       "cluster."), most=f.count(max(c.settings.multi_gpu_counts)))]

    def values(e):
        return dict(count=f.count(multi.count), card=e.card.name, card_vram=f.vram(multi.card_vram_gb(e)),
                    quant=e.quant.name, need=f.gb(e.need_gb), tok_s=f.tok_s(e.tok_s))
    out = [p.t(N_("The smallest set of identical cards that holds it is {count} × {card} ({card_vram} each): "
                  "at {quant} it needs about {need} in all and would run at about {tok_s}."),
               **values(multi.cheapest))]
    # The command that splits it over the set (llama.cpp spreads the layers evenly).
    command = row_command(fig.model, multi.cheapest, fig.context, fig.kv_precision, multi.count)
    out.append(p.t(N_("To run it on that set:")) + Markup(' <code class="tps-command">{}</code>').format(command))
    if multi.fastest.card.id != multi.cheapest.card.id:
        out.append(p.t(N_("The fastest set of {count} cards is {count} × {card}, at about {tok_s}."),
                       **values(multi.fastest)))
    return out + split_note(c)


def split_note(c: PageContext) -> list[Markup]:
    speeds, example, f = c.split_speeds, c.settings.multi_gpu_example, c.f
    if not all(n in speeds for n in (1, 2, 8)):
        return []
    return [c.p.t(N_("Splitting a model across cards buys memory, not speed: its layers run one after "
                        "the other. In measured llama.cpp runs, {example} at {quant} made {one} on one "
                        "{card}, {two} on two and {eight} on eight."),
                     example=example["label"], quant=example["quant"], card=example["card"],
                     one=f.tok_s(speeds[1]), two=f.tok_s(speeds[2]), eight=f.tok_s(speeds[8]))]


def numbers_text(c: PageContext, fig: ModelFigures, v: dict) -> list[Markup]:
    p = c.p
    if not fig.smallest:
        return multi_text(c, fig, v)
    return [
        p.n(NP_("{count} card in our catalogue can hold it.",
            "{count} cards in our catalogue can hold it."), fig.cards_fit),
        p.t(N_("The smallest is the {small_card} with {small_vram} of memory: it runs {model} at {small_quant} "
               "and produces about {small_tok_s}."), **v),
        p.t(N_("The fastest is the {fast_card}, at about {fast_tok_s} thanks to a memory bandwidth of "
               "{fast_bandwidth}."), **v),
    ]
