"""About a model: who made it, how fast it runs and why, what went into building it."""

from __future__ import annotations

from markupsafe import Markup

from .. import vocabulary
from ..catalogue import Model
from ..figures import ModelFigures
from ..offload_pages import offload_explanation
from ..phrases import N_, NP_
from .context import PageContext


def about(c: PageContext, m: Model, v: dict) -> list[Markup]:
    p, f = c.p, c.f
    out = []
    if m.organisations and m.published:
        country = f.names(f.territory(c) for c in m.countries)
        if country:
            out.append(p.t(N_("{model} was published in {month} by {organisation}, based in {country}."),
                           country=country, **v))
        else:
            out.append(p.t(N_("{model} was published by {organisation} in {month}."), **v))
    if m.organisation_types:
        out.append(p.t(N_("Type of organisation: {types}."),
                       types=c.terms(vocabulary.ORGANISATION_TYPES, m.organisation_types)))
    if m.domains or m.tasks:
        out.append(p.t(N_("Domain: {domains}. Recorded tasks: {tasks}."),
                       domains=c.terms(vocabulary.DOMAINS, m.domains) or "–",
                       tasks=c.terms(vocabulary.TASKS, m.tasks) or "–"))
    if m.base_model:
        out.append(p.t(N_("It was built on an existing model, {base}, the usual way a specialised model is "
                          "made."), base=m.base_model))
    if m.open_weights:
        text = p.pick(m.id + ":weights", (
            N_("Its weights are published, so once downloaded it runs on your own hardware, offline, with no "
               "account and no provider to depend on."),
            N_("The weights are open: you can download {model} and run it on your own hardware for as long as "
               "you like, without an account."),
        ), **v)
        if m.huggingface:
            text = Markup(f"{text} ") + p.t(N_("On Hugging Face it is published under {repo}."),
                                              repo=m.huggingface)
        out.append(text)
    else:
        out.append(p.t(N_("Its weights are not published: it can only be used through its maker's service, "
                          "so the figures on this page are for reference.")))
    return out


def speed(c: PageContext, m: Model, fig: ModelFigures, v: dict) -> list[Markup]:
    p = c.p
    out = []
    if fig.median_tok_s is not None:
        out.append(p.t(N_("Half of the cards that hold it manage more than {median}."), **v))
        out.append(p.n(NP_("Reading speed is about ten tokens per second; {count} card reaches it.",
            "Reading speed is about ten tokens per second; {count} cards reach it."),
                       fig.reading_speed_cards))
    if m.is_moe:
        out.append(p.pick(m.id + ":moe", (
            N_("{model} is a mixture-of-experts model: of its {params} parameters it reads only the "
               "active experts, about {active}, for each token. That is why it runs much faster than a "
               "dense model of the same size, while every expert still has to fit in memory."),
            N_("As a mixture-of-experts model, {model} sends each token through only a few of its experts: "
               "about {active} of its {params} parameters are read per token. Memory must hold all of them; "
               "speed depends on the active part."),
        ), **v))
    else:
        out.append(p.pick(m.id + ":dense", (
            N_("{model} is a dense model: it reads all of its weights for every token, which is why the "
               "order by speed follows the order by memory bandwidth so closely."),
            N_("Being dense, {model} reads every weight for each token it generates, so its speed on a card "
               "follows that card's memory bandwidth almost exactly."),
        ), **v))
    if m.architecture:
        out.append(p.t(N_("Memory here is computed from the model's attention layout ({attention}, "
                          "{layers} layers), so the KV cache grows exactly as it will at your context "
                          "length."),
                       attention=p.term(vocabulary.ATTENTION_KINDS[m.architecture.attention]),
                       layers=c.f.count(m.architecture.layers)))
    else:
        out.append(p.t(N_("Memory here is estimated from the model's size, because its attention layout is "
                          "not recorded: the figures are indicative, and least reliable at long context.")))
    if fig.offload:
        out += offload_explanation(p, m, fig.system, True)
    return out


def building(c: PageContext, m: Model, v: dict) -> list[Markup]:
    p, f = c.p, c.f
    out = []
    if m.training_compute_flop and m.training_hardware:
        out.append(p.t(N_("Training took about {flop}, on hardware recorded as {hardware}. That measures what "
                          "producing the model cost; it has no bearing on how fast it answers."),
                       flop=f.flop(m.training_compute_flop), hardware=m.training_hardware))
    elif m.training_compute_flop:
        out.append(p.t(N_("Training took about {flop}. That measures what producing the model cost; it has "
                          "no bearing on how fast it answers."), flop=f.flop(m.training_compute_flop)))
    elif m.training_hardware:
        out.append(p.t(N_("It was trained on hardware recorded as {hardware}."), hardware=m.training_hardware))
    if m.training_tokens:
        out.append(p.t(N_("The training corpus held about {tokens} tokens."), tokens=f.count(m.training_tokens)))
    if m.why_tracked:
        out.append(p.t(N_("Why it is tracked in the underlying dataset: {reasons}."),
                       reasons=c.terms(vocabulary.WHY_TRACKED, m.why_tracked)))
    return out
