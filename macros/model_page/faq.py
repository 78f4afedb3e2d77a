"""The questions and answers of a model page (also its FAQ structured data)."""

from __future__ import annotations

from markupsafe import Markup

from .. import vocabulary
from ..catalogue import Model
from ..figures import ModelFigures
from ..offload_pages import offload_faq
from ..phrases import N_, NP_
from .about import about
from .context import PageContext
from .hardware import SMALL_CARD_GB, multi_text, split_note
from .rows import fit_sentence

OLD_MODEL_YEARS = 2      # older than this against the newest model: say capability has moved on


def faq(c: PageContext, m: Model, fig: ModelFigures, v: dict) -> list[tuple[str, Markup]]:
    p, f = c.p, c.f
    qa: list[tuple[str, Markup]] = []

    def ask(question: str, answer: Markup, **extra):
        qa.append((p.t(question, **v, **extra), answer))

    if m.is_moe:
        ask(N_("How many parameters does {model} have?"),
            p.t(N_("{params} in total, of which about {active} are active for each token: it is a "
                   "mixture-of-experts model. The total decides the memory it needs; the active part "
                   "decides its speed."), **v))
    else:
        ask(N_("How many parameters does {model} have?"),
            p.t(N_("{params}, all of them used for every token: it is a dense model. That total decides "
                   "how much memory it needs, roughly half a gigabyte per billion parameters at the "
                   "compression most people use."), **v))
    if m.organisations:
        ask(N_("Who made {model}?"), about(c, m, v)[0] if m.published else
            p.t(N_("It was published by {organisation}."), **v))
    if m.published:
        answer = p.t(N_("It was published in {month}."), **v)
        if c.newest_published and (c.newest_published - m.published).days > 365 * OLD_MODEL_YEARS:
            answer = Markup(f"{answer} ") + p.t(N_("Capability per parameter has improved a lot since, so a "
                                                  "newer model of the same size often makes better use of "
                                                  "the same hardware."))
        ask(N_("When was {model} released?"), answer)
    if m.domains or m.tasks:
        ask(N_("What is {model} used for?"),
            p.t(N_("Its domain is {domains}; the recorded tasks are {tasks}. These are what it was built "
                   "for, not a limit on what it will attempt."),
                domains=c.terms(vocabulary.DOMAINS, m.domains) or "–",
                tasks=c.terms(vocabulary.TASKS, m.tasks) or "–"))
    if m.open_weights:
        ask(N_("Where can I download {model}?"),
            p.t(N_("The weights are published on Hugging Face under {repo}. This site works out hardware "
                   "needs; it does not host model files."), repo=m.huggingface) if m.huggingface else
            p.t(N_("The weights are published, though we have no repository link for them. This site works "
                   "out hardware needs; it does not host model files.")))
    if m.training_compute_flop:
        ask(N_("How much compute went into training {model}?"),
            p.t(N_("About {flop}. That measures what producing the model cost and says nothing about how "
                   "fast it answers: inference speed comes from memory bandwidth."),
                flop=f.flop(m.training_compute_flop)))
    if fig.nearest_miss:
        ask(N_("Can I run {model} if it does not fit on my GPU?"), offload_faq(p, m, fig, v))
    if fig.cards_fit:
        ask(N_("Would two GPUs run {model} faster?"),
            p.n(NP_("No. A second card only helps when one card cannot hold the model; {count} card in our "
                    "catalogue can.",
                    "No. A second card only helps when one card cannot hold the model; {count} cards in our "
                    "catalogue can."), fig.cards_fit)
            + Markup(" ") + Markup(" ").join(split_note(c)))
    else:
        ask(N_("How many GPUs does {model} need?"), Markup(" ").join(multi_text(c, fig, v)))
    if len(fig.quant_levels) > 1:
        ask(N_("Why does the quantization differ between cards?"),
            p.n(NP_("Each card is shown with the least-compressed version it can hold, so larger cards get "
                   "the more accurate one. {count} level is in use here.",
            "Each card is shown with the least-compressed version it can hold, so larger cards get "
                   "the more accurate one. {count} levels are in use here: {levels}."),
                len(fig.quant_levels), levels=f.names(fig.quant_levels)))
    if fig.fastest:
        ask(N_("How accurate are these speed estimates?"),
            p.t(N_("They are estimates with real error margins, which is why each comes with a range. The "
                   "fastest result here, for example, is {fast_range} tok/s on the {fast_card}. The same "
                   "model on the same card varies by thirty to fifty per cent with the inference software "
                   "and its version."), **v))
        ask(N_("Which GPU do I need for {model}?"),
            p.t(N_("The smallest card in our catalogue that holds it is the {small_card} with {small_vram}. "
                   "It runs the model at {small_quant} in about {small_need} and produces about "
                   "{small_tok_s}."), **v) + Markup(" ") +
            p.n(NP_("{count} card can run it in all.",
            "{count} cards can run it in all."), fig.cards_fit))
        ask(N_("How fast is {model} on a GPU?"),
            p.t(N_("It depends on the card. The fastest we compute is the {fast_card} at about {fast_tok_s}; "
                   "the slowest that still runs it manages far less."), **v) + Markup(" ") +
            p.n(NP_("{count} card reaches reading speed, about ten tokens per second.",
            "{count} cards reach reading speed, about ten tokens per second."), fig.reading_speed_cards))
        ask(N_("How much VRAM does {model} need?"),
            p.t(N_("About {small_need} at {small_quant}, which is what the smallest card that runs it uses. "
                   "Less compression needs more: the memory column is worked out per card, because each "
                   "card gets the least-compressed version it can hold."), **v))
    elif fig.nearest_miss:
        ask(N_("How much VRAM does {model} need?"),
            p.t(N_("About {miss_need} at {miss_quant}, more than any single card we track holds."), **v))
    if m.open_weights:
        ask(N_("Is {model} open source?"),
            p.t(N_("Its weights are published, so you can download it and run it on your own hardware. Open "
                   "weights are not open source in the full sense, though: that would also cover the "
                   "training data, the training code and the terms of use.")))
    if fig.smallest and fig.smallest.card.vram_gb <= SMALL_CARD_GB:
        for tier, e in fig.tiers.items():
            tier_text = f.vram(tier)
            question = N_("Can I run {model} on a {tier} GPU?")
            if e is None:
                ask(question, p.t(N_("Not on a card of exactly {tier} in our catalogue at these settings."),
                                  tier=tier_text), tier=tier_text)
                continue
            fit = fit_sentence(p, e.fit)
            ask(question, p.t(N_("Yes. The fastest {tier} card, the {card}, runs it at {quant} in about "
                                 "{need} and produces roughly {tok_s}."),
                              tier=tier_text, card=e.card.name, quant=e.quant.name,
                              need=f.gb(e.need_gb), tok_s=f.tok_s(e.tok_s)) + Markup(" ") + fit,
                tier=tier_text)
    return qa
