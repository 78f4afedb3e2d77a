"""The questions and answers of a model page (also its FAQ structured data)."""

from __future__ import annotations

from markupsafe import Markup

from tps_atlas.records import vocabulary
from tps_atlas.catalogue.models import Model
from tps_atlas.pages.figures import ModelFigures, Reach, SizeClass
from tps_atlas.i18n.names import card_name
from tps_atlas.pages.offload import offload_faq
from tps_atlas.i18n.phrases import N_, NP_
from tps_atlas.pages.model.context import PageContext
from tps_atlas.pages.model.values import PageValues
from tps_atlas.pages.model.hardware import consumer_vram_gb, multi_text, split_note
from tps_atlas.pages.model.tiers import best_offload, tier_offload, two_gpus_few
from tps_atlas.pages.model.rows import fit_sentence

OLD_MODEL_YEARS = 2      # older than this against the newest model: say capability has moved on

# TRANSLATORS: as "About {miss_need} at {miss_quant}, more than the largest card we track…", where the
# largest is a machine sharing its memory (never "card"); {miss_vram} is what its GPU may use. Example:
# "About 489.5 GB at Q3_K_M, more than the largest device we track can give it (its GPU may use 384 GB)."
VRAM_LARGEST_MACHINE = N_("About {miss_need} at {miss_quant}, more than the largest device we track can give it "
                          "(its GPU may use {miss_vram}).")
# TRANSLATORS: as "The smallest card in our catalogue that holds it is the {small_card}…", where the
# smallest is a machine sharing its memory (never "card"); {small_card} is its name, {small_memory} what
# its GPU may use ("384 GB usable by the GPU"). Example: "The smallest device in our catalogue that holds
# it is the Apple M3 Ultra (512 GB), with 384 GB usable by the GPU. It runs the model at Q3_K_M in about
# 328.7 GB and produces about 25.4 tok/s."
SMALLEST_MACHINE_ANSWER = N_("The smallest device in our catalogue that holds it is the {small_card}, with "
                             "{small_memory}. It runs the model at {small_quant} in about {small_need} and "
                             "produces about {small_tok_s}.")
# TRANSLATORS: as "About {small_need} at {small_quant}, which is what the smallest card…", where the smallest
# is a machine sharing its memory. Example: "About 328.7 GB at Q3_K_M, which is what the smallest device that
# runs it uses. Less compression needs more: the memory column is worked out per device, because each gets
# the least-compressed version it can hold."
VRAM_MACHINE_ANSWER = N_("About {small_need} at {small_quant}, which is what the smallest device that runs it "
                         "uses. Less compression needs more: the memory column is worked out per device, "
                         "because each gets the least-compressed version it can hold.")


def faq(c: PageContext, m: Model, fig: ModelFigures, v: PageValues) -> list[tuple[str, Markup]]:
    p, f = c.p, c.f
    qa: list[tuple[str, Markup]] = []
    smallest_machine = bool(fig.smallest and fig.smallest.card.unified)

    def ask(question: str, answer: Markup, **extra):
        qa.append((p.t(question, **v.placeholders, **extra), answer))

    if m.is_moe:
        # TRANSLATORS: {model} is the model's name. Example: "How many parameters
        # does GLM-130B have?"
        ask(N_("How many parameters does {model} have?"),
            # TRANSLATORS: {params} is its parameter count in words (130 billion);
            # {active} is the parameters active per token, in words. Example: "It
            # has 671 billion in total, of which about 37 billion are active for each
            # token: it is a mixture-of-experts model. The total decides the memory it
            # needs; the active part decides its speed."
            p.t(N_("It has {params} in total, of which about {active} are active for each token: it is a "
                   "mixture-of-experts model. The total decides the memory it needs; the active part "
                   "decides its speed."), **v.placeholders))
    else:
        # TRANSLATORS: {model} is the model's name. Example: "How many parameters
        # does GLM-130B have?"
        ask(N_("How many parameters does {model} have?"),
            # TRANSLATORS: {params} is its parameter count in words (130 billion).
            # Example: "It has 130 billion, all of them used for every token: it is a
            # dense model. That total decides how much memory it needs, roughly half a
            # gigabyte per billion parameters at the compression most people use."
            p.t(N_("It has {params}, all of them used for every token: it is a dense model. That total decides "
                   "how much memory it needs, roughly half a gigabyte per billion parameters at the "
                   "compression most people use."), **v.placeholders))
    if m.organisations:
        # TRANSLATORS: {model} is the model's name. Example: "Who made GLM-130B?"
        # Not the about section's first sentence again: the month has a question of its own.
        ask(N_("Who made {model}?"),
            # TRANSLATORS: {organisation} is the organisations that made it. A name
            # takes its article and case: {organisation:nom}, {organisation:dat}, French
            # {organisation:a}, {organisation:de} (tps_atlas/i18n/names.py); the bare
            # {organisation} is the name alone. The plural form is for two or more
            # organisations (de: "Entwickelt haben es"). Example: "It was made by
            # Tsinghua University."
            p.n(NP_("It was made by {organisation}.", "It was made by {organisation}."),
                len(m.organisations), **v.placeholders))
    if m.published:
        # TRANSLATORS: {month} is the month it was published. Example: "It was
        # published in August 2022."
        answer = p.t(N_("It was published in {month}."), **v.placeholders)
        if c.newest_published and (c.newest_published - m.published).days > 365 * OLD_MODEL_YEARS:
            answer = Markup(f"{answer} ") + p.t(N_("Capability per parameter has improved a lot since, so a "
                                                  "newer model of the same size often makes better use of "
                                                  "the same hardware."))
        # TRANSLATORS: {model} is the model's name. Example: "When was GLM-130B
        # released?"
        ask(N_("When was {model} released?"), answer)
    if m.domains or m.tasks:
        # One domain or task is "its domain is", "the recorded task is"; several the plural.
        used = []
        if m.domains:
            # TRANSLATORS: {domains} is its domains (one, or several: the plural
            # form). Example: "Its domain is language."
            used.append(p.n(NP_("Its domain is {domains}.", "Its domains are {domains}."), len(m.domains),
                            domains=c.terms(vocabulary.DOMAINS, m.domains)))
        if m.tasks:
            # TRANSLATORS: {tasks} is its tasks (one, or several: the plural
            # form). Example: "The recorded tasks are text generation (language
            # modelling) and translation."
            used.append(p.n(NP_("The recorded task is {tasks}.", "The recorded tasks are {tasks}."),
                            len(m.tasks), tasks=c.terms(vocabulary.TASKS, m.tasks)))
        used.append(p.t(N_("That is what it was built for; it can be put to other uses too.")))
        # TRANSLATORS: {model} is the model's name. Example: "What is GLM-130B
        # used for?"
        ask(N_("What is {model} used for?"), Markup(" ").join(used))
    if m.open_weights:
        # TRANSLATORS: {model} is the model's name. Example: "Where can I download
        # GLM-130B?"
        ask(N_("Where can I download {model}?"),
            # TRANSLATORS: {repo} is its Hugging Face repository id. Example: "The
            # weights are published on Hugging Face under deepseek-ai/DeepSeek-V3.
            # This site works out hardware needs; it does not host model files."
            p.t(N_("The weights are published on Hugging Face under {repo}. This site works out hardware "
                   "needs; it does not host model files."), repo=m.huggingface) if m.huggingface else
            p.t(N_("The weights are published, though we have no repository link for them. This site works "
                   "out hardware needs; it does not host model files.")))
    if m.training_compute_flop:
        # TRANSLATORS: {model} is the model's name. Example: "How much compute
        # went into training GLM-130B?"
        ask(N_("How much compute went into training {model}?"),
            # TRANSLATORS: {flop} is training compute in FLOP. Example: "About 3.5 ×
            # 10²³ FLOP. That measures what producing the model cost and says nothing
            # about how fast it answers: inference speed comes from memory bandwidth."
            p.t(N_("About {flop}. That measures what producing the model cost and says nothing about how "
                   "fast it answers: inference speed comes from memory bandwidth."),
                flop=f.flop(m.training_compute_flop)))
    if fig.nearest_miss:
        # TRANSLATORS: {model} is the model's name. Example: "Can I run GLM-130B
        # if it does not fit on my GPU?"
        ask(N_("Can I run {model} if it does not fit on my GPU?"), offload_faq(p, m, fig, v))
    if fig.cards_fit and fig.multi:
        # TRANSLATORS: {model} is the model's name. Example: "Would two GPUs run
        # GLM-130B faster?"
        ask(N_("Would two GPUs run {model} faster?"), two_gpus_few(c, fig))
    elif fig.cards_fit:
        # TRANSLATORS: {model} is the model's name. Example: "Would two GPUs run
        # GLM-130B faster?"
        ask(N_("Would two GPUs run {model} faster?"),
            # TRANSLATORS: {count} is a count of devices, graphics cards and machines (small ones in words).
            # Example: "Not where one GPU already holds it: a second one only helps when one cannot hold the
            # model. In our catalogue, 45 devices hold it on their own."
            c.n_words(NP_("Not where one GPU already holds it: a second one only helps when one cannot hold the "
                          "model. In our catalogue, {count} device holds it on its own.",
                          "Not where one GPU already holds it: a second one only helps when one cannot hold the "
                          "model. In our catalogue, {count} devices hold it on their own."), fig.cards_fit)
            + Markup(" ") + Markup(" ").join(split_note(c)))
    else:
        # TRANSLATORS: {model} is the model's name. Example: "How many GPUs does
        # GLM-5 need?"
        ask(N_("How many GPUs does {model} need?"), how_many_gpus(c, fig))
    if len(fig.quant_levels) > 1:
        ask(N_("Why does the quantization differ between devices?"),
            # TRANSLATORS: {count} is a count (small ones in words); {levels} is the
            # quantizations in use. Example: "Each device is shown with the
            # least-compressed version it can hold, so devices with more memory get
            # the more accurate one. Here, six levels are in use: Q8_0, Q6_K, Q5_K_M, Q4_K_M,
            # IQ4_XS, and Q3_K_M."
            c.n_words(NP_("Each device is shown with the least-compressed version it can hold, so devices with more "
                    "memory get the more accurate one. Here, {count} level is in use: {levels}.",
                    "Each device is shown with the least-compressed version it can hold, so devices with more "
                    "memory get the more accurate one. Here, {count} levels are in use: {levels}."),
                len(fig.quant_levels), levels=f.names(fig.quant_levels)))
    if fig.fastest:
        ask(N_("How accurate are these speed estimates?"),
            # TRANSLATORS: {fast_low} is the low end of its speed range; {fast_high} is
            # the high end; {fast_card} is the fastest card. A name takes its article
            # and case: {fast_card:nom}, {fast_card:dat}, French {fast_card:a},
            # {fast_card:de} (tps_atlas/i18n/names.py); the bare {fast_card} is the name alone.
            # {fast_tok_s} its speed. Example: "They are estimates with a wide margin
            # of error, which is why each comes with a range. The fastest figure
            # here, about 31.2 tok/s on the AMD Instinct MI300A (128 GB), could lie
            # anywhere between 19 and 50 tok/s. The same model on the same device runs
            # 30 to 50 per cent faster or slower with another inference program or version."
            p.t(N_("They are estimates with a wide margin of error, which is why each comes with a range. The "
                   "fastest figure here, about {fast_tok_s} on the {fast_card}, could lie anywhere between "
                   "{fast_low} and {fast_high} tok/s. The same model on the same device runs 30 to 50 per cent "
                   "faster or slower with another inference program or version."), **v.placeholders))
        # TRANSLATORS: {model} is the model's name. Example: "Which GPU do I need
        # for GLM-130B?"
        ask(N_("Which GPU do I need for {model}?"),
            # TRANSLATORS: {small_card} is the smallest card that runs it;
            # {small_memory} is that card's memory ("24 GB of memory", or for a machine
            # sharing its memory "72 GB usable by the GPU"); {small_quant} is the
            # quantization it runs there; {small_need} is the memory the model needs
            # there; {small_tok_s} is its speed there. A name takes its article and
            # case: {small_card:nom}, {small_card:dat}, French {small_card:a},
            # {small_card:de} (tps_atlas/i18n/names.py); the bare {small_card} is the name
            # alone. Example: "The smallest card in our catalogue that holds it is the
            # Radeon Pro W6800, with 32 GB of memory. It runs the model at Q3_K_M in about
            # 29.8 GB and produces about 9.5 tok/s." (A machine has its own entry.)
            p.t(N_("The smallest card in our catalogue that holds it is the {small_card}, with {small_memory}. "
                   "It runs the model at {small_quant} in about {small_need} and produces about "
                   "{small_tok_s}.") if not smallest_machine else SMALLEST_MACHINE_ANSWER, **v.placeholders)
            + Markup(" ") + how_many_run_it(c, fig))
        # TRANSLATORS: {model} is the model's name. Example: "How fast is GLM-130B
        # on a GPU?"
        ask(N_("How fast is {model} on a GPU?"), how_fast(c, fig, v))
        # TRANSLATORS: {model} is the model's name. Example: "How much VRAM does
        # GLM-130B need?"
        ask(N_("How much VRAM does {model} need?"),
            # TRANSLATORS: {small_need} is the memory the model needs there;
            # {small_quant} is the quantization it runs there. Example: "About 64.2 GB
            # at Q3_K_M, which is what the smallest card that runs it uses. Less
            # compression needs more: the memory column is worked out per device,
            # because each device gets the least-compressed version it can hold."
            p.t(N_("About {small_need} at {small_quant}, which is what the smallest card that runs it uses. "
                   "Less compression needs more: the memory column is worked out per device, because each "
                   "device gets the least-compressed version it can hold.") if not smallest_machine else
                VRAM_MACHINE_ANSWER, **v.placeholders))
    elif fig.nearest_miss:
        # TRANSLATORS: {model} is the model's name. Example: "How much VRAM does
        # GLM-130B need?"
        ask(N_("How much VRAM does {model} need?"),
            # TRANSLATORS: {miss_need} is the memory the model needs; {miss_quant} is
            # the quantization it is measured at; {miss_vram} is the memory of the
            # largest card we track (a card never gives all of it to a model: the
            # driver keeps some). Example: "About 451.0 GB at Q4_K_M, more than the
            # largest card we track (384 GB) can give it."
            p.t(N_("About {miss_need} at {miss_quant}, more than the largest card we track ({miss_vram}) can give "
                   "it.") if not fig.nearest_miss.card.unified else
                VRAM_LARGEST_MACHINE, **v.placeholders))
    if m.open_weights:
        # TRANSLATORS: {model} is the model's name. Example: "Is GLM-130B open
        # source?"
        ask(N_("Is {model} open source?"),
            p.t(N_("Its weights are published, so you can download it and run it on your own hardware. Open "
                   "weights are not open source in the full sense, though: that would also cover the "
                   "training data and the training code.")))
    if fig.size_class(consumer_vram_gb(c)) in (SizeClass.MOST_CARDS, SizeClass.CONSUMER):
        for tier, e in fig.tiers.items():
            tier_text = f.vram(tier)
            # TRANSLATORS: {model} is the model's name; {tier} is a memory size (16
            # GB). Example: "Can I run Llama 3.2 1B on a 8 GB GPU?"
            question = N_("Can I run {model} on a {tier} GPU?")
            o = best_offload(fig, tier)
            if e is None and o is not None:
                ask(question, tier_offload(c, tier_text, o), tier=tier_text)
                continue
            if e is None:
                # TRANSLATORS: {tier} is a memory size (16 GB). Example: "No: no card of
                # exactly 8 GB in our catalogue runs it at these settings."
                ask(question, p.t(N_("No: no card of exactly {tier} in our catalogue runs it at these settings."),
                                  tier=tier_text), tier=tier_text)
                continue
            fit = fit_sentence(p, e.fit)
            # TRANSLATORS: {tier} is a memory size (16 GB); {card} is a card's name;
            # {quant} is a quantization (Q4_K_M); {need} is memory needed; {tok_s} is a
            # speed in tokens per second. A name takes its article and case: {card:nom},
            # {card:dat}, French {card:a}, {card:de} (tps_atlas/i18n/names.py); the bare {card}
            # is the name alone. Example: "Yes. The fastest 8 GB card, the CMP 170HX 8
            # GB, runs it at Q8_0 in about 2.0 GB and produces roughly 513 tok/s."
            ask(question, p.t(N_("Yes. The fastest {tier} card, the {card}, runs it at {quant} in about "
                                 "{need} and produces roughly {tok_s}."),
                              tier=tier_text, card=card_name(e.card, p.language), quant=e.quant.name,
                              need=f.gb(e.need_gb), tok_s=f.tok_s(e.tok_s)) + Markup(" ") + fit,
                tier=tier_text)
    return qa


def how_many_run_it(c: PageContext, fig: ModelFigures) -> Markup:
    """How many cards run it, in the sentence its reach calls for."""
    p = c.p
    if fig.cards_offload:
        # (before "the only card": others run it with part of it in RAM)
        return how_many_with_ram(c, fig)
    if fig.reach is Reach.ONE and fig.smallest and fig.smallest.card.unified:
        # TRANSLATORS: where the only device that runs the model is a machine sharing its memory (an Apple
        # Mac): never "card".
        return p.t(N_("It is the only device that can run it."))
    if fig.reach is Reach.ONE:
        return p.t(N_("It is the only card that can run it."))
    if fig.reach is Reach.EVERY:
        return p.t(N_("Every device in our catalogue can run it."))
    # TRANSLATORS: {count} is a count of devices, cards and machines (small ones in
    # words). Example: "In all, five devices can run it."
    return c.n_words(NP_("In all, {count} device can run it.", "In all, {count} devices can run it."), fig.cards_fit)


def how_many_with_ram(c: PageContext, fig: ModelFigures) -> Markup:
    """How many devices run it, where some run it with part of it in RAM: both kinds, as the table lists."""
    # TRANSLATORS: {count} is the number of devices (cards and machines, small ones in words) that
    # run it, entirely or with part of it in system RAM; {fit} and {offload}
    # are numbers in digits. Example: "In all, 278 devices run it: 45 entirely, 233 with
    # part of it in RAM." ("In all, five devices run it: 3 entirely, 2 with part of it in RAM.")
    return c.n_words(NP_("In all, {count} device runs it: {fit} entirely, {offload} with part of it in RAM.",
                         "In all, {count} devices run it: {fit} entirely, {offload} with part of it in RAM."),
                     fig.cards_run, fit=c.f.count(fig.cards_fit), offload=c.f.count(fig.cards_offload))


def how_fast(c: PageContext, fig: ModelFigures, v: PageValues) -> Markup:
    """The fastest card and how many reach reading speed; over one card, that card alone."""
    p = c.p
    if fig.reach is Reach.ONE:
        # TRANSLATORS: {fast_card} is the fastest card; {fast_tok_s} is its speed. A
        # name takes its article and case: {fast_card:nom}, {fast_card:dat}, French
        # {fast_card:a}, {fast_card:de} (tps_atlas/i18n/names.py); the bare {fast_card} is
        # the name alone. Example: "Only the Apple M3 Ultra (512 GB) holds it entirely, at
        # about 25.4 tok/s: above reading speed, about ten tokens per second."
        speed = (N_("Only the {fast_card} holds it entirely, at about {fast_tok_s}: above reading speed, about "
                    "ten tokens per second.") if fig.reading_speed_cards else
                 # TRANSLATORS: {fast_card} is the fastest card; {fast_tok_s} is its speed. A
                 # name takes its article and case: {fast_card:nom}, {fast_card:dat}, French
                 # {fast_card:a}, {fast_card:de} (tps_atlas/i18n/names.py); the bare {fast_card} is
                 # the name alone. Example: "Only the AMD Instinct MI300A (128 GB)
                 # holds it entirely, at about 31.2 tok/s: below reading speed, about ten tokens per
                 # second."
                 N_("Only the {fast_card} holds it entirely, at about {fast_tok_s}: below reading speed, about "
                    "ten tokens per second."))
        return p.t(speed, **v.placeholders)
    slowest = fig.slowest or fig.fastest
    assert slowest is not None  # Reach.SOME or EVERY: cards hold it
    # TRANSLATORS: {fast_card} is the fastest card; {fast_tok_s} is its speed. A
    # name takes its article and case: {fast_card:nom}, {fast_card:dat}, French
    # {fast_card:a}, {fast_card:de} (tps_atlas/i18n/names.py); the bare {fast_card} is
    # the name alone; {slow_card} and {slow_tok_s} the same for the slowest that
    # holds it. Example: "It depends on the device. The fastest we compute is the
    # AMD Instinct MI300A (128 GB) at about 31.2 tok/s; the slowest that holds
    # it, the Intel Arc 130V (32 GB), manages about 3.8 tok/s."
    first = p.t(N_("It depends on the device. The fastest we compute is the {fast_card} at about {fast_tok_s}; "
                   "the slowest that holds it, the {slow_card}, manages about {slow_tok_s}."),
                slow_card=card_name(slowest.card, p.language), slow_tok_s=c.f.tok_s(slowest.tok_s), **v.placeholders)
    if not fig.reading_speed_cards:
        return first + Markup(" ") + p.t(N_("None of them reaches reading speed, about ten tokens per second."))
    if fig.reading_speed_cards == fig.cards_fit:
        # Not "of the 46 that hold it, 46 reach it".
        # TRANSLATORS: {fit_count} is the number of devices (cards and machines) that hold it (two or more;
        # small ones in words).
        # Example: "All 46 devices that hold it reach reading speed, about ten tokens per second."
        return first + Markup(" ") + p.t(N_("All {fit_count} devices that hold it reach reading speed, about ten "
                                            "tokens per second."), fit_count=c.card_count(fig.cards_fit))
    # TRANSLATORS: {count} is a count (small ones in words), {fit_count} the number of devices (cards and
    # machines) that hold it.
    # Example: "Of the 45 devices that hold it, 31 reach reading speed, about ten tokens per second."
    reading = NP_("Of the {fit_count} devices that hold it, {count} reaches reading speed, about ten tokens per "
                  "second.",
                  "Of the {fit_count} devices that hold it, {count} reach reading speed, about ten tokens per "
                  "second.")
    return first + Markup(" ") + c.n_words(reading, fig.reading_speed_cards,
                                            fit_count=c.card_count(fig.cards_fit))


def how_many_gpus(c: PageContext, fig: ModelFigures) -> Markup:
    """The set of cards a model needs, in short: the section above has the whole paragraph."""
    multi, f = fig.multi, c.f
    if not multi:
        return multi_text(c, fig)[0]
    e = multi.cheapest
    # TRANSLATORS: {number} is the number of identical cards in words (two, 13);
    # {count} the same number in digits, the factor of "{count} × {card}"; {card}
    # a card's name, {card_vram} the memory of each. A name takes its article
    # and case: {card:nom}, {card:dat}, French {card:a}, {card:de}
    # (tps_atlas/i18n/names.py); the bare {card} is the name alone. Example: "At least
    # two: the smallest set of identical cards that holds it is 2 × Radeon
    # Instinct MI355X (288 GB each); the section above gives the command that
    # splits it across them."
    return c.p.t(N_("At least {number}: the smallest set of identical cards that holds it is {count} × {card} "
                    "({card_vram} each); the section above gives the command that splits it across them."),
                 number=f.count_words(multi.count), count=f.count(multi.count), card=card_name(e.card, c.p.language),
                 card_vram=f.vram(multi.card_vram_gb(e)))
