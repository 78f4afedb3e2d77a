"""The top of a model page: title, description, meta line, introduction and figure tiles."""

from __future__ import annotations

from markupsafe import Markup

from ..catalogue import Model
from ..figures import ModelFigures
from ..phrases import N_, NP_
from .context import PageContext


def title(c: PageContext, v: dict) -> str:
    return str(c.p.t(N_("{model}: which GPUs run it, and how fast"), **v))


def badge(c: PageContext, m: Model) -> str:
    return c.p.gettext(N_("Open weights")) if m.open_weights else c.p.gettext(N_("API only"))


def meta(c: PageContext, m: Model, v: dict) -> list[str]:
    p, f = c.p, c.f
    out = [f.names(m.organisations)] if m.organisations else []
    out.append(str(p.t(N_("{params} parameters"), params=v["params"])))
    if m.published:
        out.append(v["month"])
    if m.checked:
        out.append(str(p.t(N_("data last checked {date}"), date=f.day(m.checked))))
    return out


def intro(c: PageContext, m: Model, v: dict) -> Markup:
    return c.p.pick(m.id + ":intro", (
        N_("Every card below is rated for {model} at the context length and minimum quality you "
           "choose. Speed is an estimate for a single request, worked out from the card's memory "
           "bandwidth and the size of the model once compressed."),
        N_("We rate every card we know for {model}, at your context length and quality floor. The "
           "speed shown is for one request at a time, estimated from how fast the card reads its "
           "memory and how large the compressed model is."),
    ), **v)


def description(c: PageContext, fig: ModelFigures, v: dict) -> Markup:
    if fig.fastest:
        return c.p.n(NP_("{model} runs on only {count} of the {total} GPUs we track: the {fast_card} "
                         "({small_vram}), at about {fast_tok_s}.",
                         "{model} runs on {count} of the {total} GPUs we track. Fastest: {fast_card} at about "
                         "{fast_tok_s}; smallest: {small_card}, with {small_vram}."),
                     fig.cards_fit, **v)
    return c.p.t(N_("{model} ({params} parameters) fits on none of the {total} GPUs we track: what it "
                    "needs, and what to do instead."), **v)


def tiles(c: PageContext, fig: ModelFigures, v: dict) -> list[tuple[str, str, str]]:
    p = c.p
    out = [
        (str(p.n(NP_("card can run it", "cards can run it"), fig.cards_fit)), v["fit_count"], ""),
        (str(p.n(NP_("card in the catalogue", "cards in the catalogue"), fig.cards_total)), v["total"], ""),
    ]
    if fig.smallest:
        out.append((p.gettext(N_("Smallest card that fits")), v["small_card"],
                    " · ".join((v["small_vram"], v["small_quant"], v["small_tok_s"]))))
        out.append((p.gettext(N_("Fastest card")), v["fast_card"], " · ".join((v["fast_tok_s"], v["fast_vram"]))))
    return out
