"""About a model: who made it, how fast it runs and why, what went into building it."""

from __future__ import annotations

from markupsafe import Markup

from tps_atlas.records import vocabulary
from tps_atlas.catalogue.models import Model
from tps_atlas.pages.figures import ModelFigures, Reach
from tps_atlas.i18n.names import country_name, joined_name
from tps_atlas.pages.offload import offload_explanation
from tps_atlas.i18n.phrases import N_, NP_
from tps_atlas.pages.model.context import PageContext
from tps_atlas.pages.model.values import PageValues


def about(c: PageContext, m: Model, v: PageValues) -> list[Markup]:
    p = c.p
    out = []
    if m.organisations and m.published:
        if m.countries:
            # TRANSLATORS: {model} is the model's name; {month} is the month it was
            # published; {organisation} is the organisations that made it; {country} is
            # their countries. A name takes its article and case: {organisation:nom},
            # {organisation:dat}, French {organisation:a}, {organisation:de},
            # {country:in} (in a place) (tps_atlas/i18n/names.py); the bare {organisation} is
            # the name alone. The plural form is for two or more organisations (de:
            # "Herausgeber sind"). Example: "GLM-130B was published in August 2022 by
            # Tsinghua University, based in China."
            out.append(p.n(NP_("{model} was published in {month} by {organisation}, based {country:in}.",
                               "{model} was published in {month} by {organisation}, based {country:in}."),
                           len(m.organisations),
                           country=joined_name((country_name(code, p.language) for code in m.countries),
                                               p.language), **v.placeholders))
        else:
            # TRANSLATORS: {model} is the model's name; {organisation} is the
            # organisations that made it; {month} is the month it was published. A name
            # takes its article and case: {organisation:nom}, {organisation:dat}, French
            # {organisation:a}, {organisation:de} (tps_atlas/i18n/names.py); the bare
            # {organisation} is the name alone. The plural form is for two or more
            # organisations. Example: "GLM-130B was published by Tsinghua University
            # in August 2022."
            out.append(p.n(NP_("{model} was published by {organisation} in {month}.",
                               "{model} was published by {organisation} in {month}."), len(m.organisations),
                      **v.placeholders))
    # The organisation's type is the specification's (a field there, not a sentence of its own here).
    # One domain or task reads "Domain:", "Recorded task:"; several the plural.
    recorded = []
    if m.domains:
        # TRANSLATORS: {domains} is its domains (one, or several: the plural
        # form). Example: "Domain: language."
        recorded.append(p.n(NP_("Domain: {domains}.", "Domains: {domains}."), len(m.domains),
                            domains=c.terms(vocabulary.DOMAINS, m.domains)))
    if m.tasks:
        # TRANSLATORS: {tasks} is its tasks (one, or several: the plural form).
        # Example: "Recorded tasks: text generation (language modelling) and
        # translation."
        recorded.append(p.n(NP_("Recorded task: {tasks}.", "Recorded tasks: {tasks}."), len(m.tasks),
                            tasks=c.terms(vocabulary.TASKS, m.tasks)))
    if recorded:
        out.append(Markup(" ").join(recorded))
    if m.base_model:
        # Only what the record says (its base_model): not why or how it was built on it.
        # TRANSLATORS: {base} is the model it was built on. Example: "It was built
        # on an existing model, Mistral Small 3.1 (24B)."
        out.append(p.t(N_("It was built on an existing model, {base}."), base=m.base_model))
    if m.open_weights:
        if m.access in ("open-restricted", "open-non-commercial"):
            # Not "for as long as you like, without an account": its licence restricts its use.
            # The kind of access is the specification's; the sentence says what it means.
            text = p.t(N_("Its weights are published, under a licence that restricts their use: read its terms "
                          "before you build on it. Once downloaded, it runs on your own hardware."))
        else:
            text = p.pick(m.id + ":weights", (
                N_("Its weights are published, so once downloaded it runs on your own hardware, offline, with no "
                   "account and no provider to depend on."),
                # TRANSLATORS: {model} is the model's name. Example: "The weights are
                # open: you can download Llama 3.2 1B and run it on your own hardware for
                # as long as you like, without an account."
                N_("The weights are open: you can download {model} and run it on your own hardware for as long as "
                   "you like, without an account."),
            ), **v.placeholders)
        if m.huggingface:
            # TRANSLATORS: {repo} is its Hugging Face repository id. Example: "On
            # Hugging Face it is published under deepseek-ai/DeepSeek-V3."
            text = Markup(f"{text} ") + p.t(N_("On Hugging Face it is published under {repo}."),
                                              repo=m.huggingface)
        out.append(text)
    else:
        out.append(p.t(N_("Its weights are not published: it can only be used through its maker's service, "
                          "so the figures on this page are for reference.")))
    return out


def speed(c: PageContext, m: Model, fig: ModelFigures, v: PageValues) -> list[Markup]:
    p = c.p
    out = []
    reach = fig.reach
    if reach is Reach.ONE:
        if fig.reading_speed_cards:
            # TRANSLATORS: {fast_card} is the fastest card; {fast_tok_s} is its speed. A
            # name takes its article and case: {fast_card:nom}, {fast_card:dat}, French
            # {fast_card:a}, {fast_card:de} (tps_atlas/i18n/names.py); the bare {fast_card} is
            # the name alone. Example: "Only the Apple M3 Ultra (512 GB) holds it, and
            # it runs it at about 25.4 tok/s: above reading speed, which is about ten
            # tokens per second."
            out.append(p.t(N_("Only the {fast_card} holds it, and it runs it at about {fast_tok_s}: above reading "
                              "speed, which is about ten tokens per second."), **v.placeholders))
        else:
            # TRANSLATORS: {fast_card} is the fastest card; {fast_tok_s} is its speed. A
            # name takes its article and case: {fast_card:nom}, {fast_card:dat}, French
            # {fast_card:a}, {fast_card:de} (tps_atlas/i18n/names.py); the bare {fast_card} is
            # the name alone. Example: "Only the AMD Instinct MI300A (128 GB)
            # holds it, and it runs it at about 31.2 tok/s: below reading speed, which
            # is about ten tokens per second."
            out.append(p.t(N_("Only the {fast_card} holds it, and it runs it at about {fast_tok_s}: below reading "
                              "speed, which is about ten tokens per second."), **v.placeholders))
    elif reach in (Reach.SOME, Reach.EVERY):
        # The median: half reach it or more, and "more than" would be false for the half that sits on it.
        # TRANSLATORS: {median} is the median speed over the cards that run it.
        # Example: "Half of the devices that hold it manage 13.5 tok/s or more."
        out.append(p.t(N_("Half of the devices that hold it manage {median} or more."), **v.placeholders))
        if fig.reading_speed_cards:
            # TRANSLATORS: {count} is a count (small ones in words). Example: "Reading
            # speed is about ten tokens per second; 31 devices reach it."
            out.append(c.n_words(NP_("Reading speed is about ten tokens per second; {count} device reaches it.",
                               "Reading speed is about ten tokens per second; {count} devices reach it."),
                           fig.reading_speed_cards))
        else:
            out.append(p.t(N_("Reading speed is about ten tokens per second; none of these devices reaches it.")))
    if m.is_moe:
        out.append(p.pick(m.id + ":moe", (
            # TRANSLATORS: {model} is the model's name; {params} is its parameter
            # count in words (130 billion); {active} is the parameters active per
            # token, in words. Example: "Mixtral 8x7B is a mixture-of-experts model:
            # of its 46.7 billion parameters it reads only the active experts, about
            # 12.9 billion, for each token. That is why it runs much faster than a
            # dense model of the same size, while every expert still has to fit in
            # memory."
            N_("{model} is a mixture-of-experts model: of its {params} parameters it reads only the "
               "active experts, about {active}, for each token. That is why it runs much faster than a "
               "dense model of the same size, while every expert still has to fit in memory."),
            # TRANSLATORS: {model} is the model's name; {active} is the parameters
            # active per token, in words; {params} is its parameter count in words
            # (130 billion). Example: "As a mixture-of-experts model, DeepSeek-V3
            # sends each token through only a few of its experts: about 37 billion of
            # its 671 billion parameters are read per token. Memory must hold all of
            # them; speed depends on the active part."
            N_("As a mixture-of-experts model, {model} sends each token through only a few of its experts: "
               "about {active} of its {params} parameters are read per token. Memory must hold all of them; "
               "speed depends on the active part."),
        ), **v.placeholders))
    else:
        # Not "follows bandwidth almost exactly": two cards of the same bandwidth differ by the share of it
        # their hardware class reaches (RTX 4090 and RTX 3090 Ti, 1,010 GB/s each: 43.0 and 38.3 tok/s).
        # TRANSLATORS: {model} is the model's name. Example: "Being dense, Llama 3.2 1B reads every weight
        # for each token it generates, so its speed on a device depends above all on that device's memory
        # bandwidth and on how much of it devices of that class reach."
        dense = N_("Being dense, {model} reads every weight for each token it generates, so its speed on a device "
                   "depends above all on that device's memory bandwidth and on how much of it devices of that "
                   "class reach.")
        # TRANSLATORS: as "Being dense, {model} reads every weight…", where devices run different quantizations.
        # Example: "Being dense, GLM-130B reads every weight for each token it generates, so at the same
        # quantization its speed on a device depends above all on that device's memory bandwidth and on how
        # much of it devices of that class reach."
        dense_quants = N_("Being dense, {model} reads every weight for each token it generates, so at the same "
                          "quantization its speed on a device depends above all on that device's memory "
                          "bandwidth and on how much of it devices of that class reach.")
        out.append(p.t(dense if fig.one_quant else dense_quants, **v.placeholders))
    cacheless = m.architecture.linear_attention_layers if m.architecture else None
    if m.architecture and cacheless:
        arch = m.architecture
        # Layers with linear attention, a state-space block or a cache borrowed from another layer
        # keep no KV cache of their own: "GQA in 64 layers" would be false where 48 of them do not.
        # TRANSLATORS: {attention} is its attention layout (grouped-query attention); {kv_layers} and
        # {layers} are numbers of layers, {count} the number of the others (which the plural form
        # follows). Example: "Memory here is computed from the model's attention layout
        # (grouped-query attention in 16 of its 64 layers; the other 48 keep no KV cache), so the KV
        # cache grows exactly as it will at your context length."
        out.append(p.n(NP_("Memory here is computed from the model's attention layout ({attention} in "
                           "{kv_layers} of its {layers} layers; the other {count} keeps no KV cache), so the "
                           "KV cache grows exactly as it will at your context length.",
                           "Memory here is computed from the model's attention layout ({attention} in "
                           "{kv_layers} of its {layers} layers; the other {count} keep no KV cache), so the "
                           "KV cache grows exactly as it will at your context length."),
                       cacheless,
                       attention=p.term(vocabulary.ATTENTION_KINDS[arch.attention]),
                       kv_layers=c.f.count(arch.layers - cacheless),
                       layers=c.f.count(arch.layers)))
    elif m.architecture:
        # TRANSLATORS: {attention} is its attention layout (grouped-query
        # attention); {layers} is its number of layers. Example: "Memory here is
        # computed from the model's attention layout (multi-head latent attention,
        # 61 layers), so the KV cache grows exactly as it will at your context
        # length."
        out.append(p.t(N_("Memory here is computed from the model's attention layout ({attention}, "
                          "{layers} layers), so the KV cache grows exactly as it will at your context "
                          "length."),
                       attention=p.term(vocabulary.ATTENTION_KINDS[m.architecture.attention]),
                       layers=c.f.count(m.architecture.layers)))
    else:
        out.append(p.t(N_("Memory here is estimated from the model's size, because its attention layout is "
                          "not recorded: the figures are indicative, and least reliable at long context.")))
    if fig.offload:
        out += offload_explanation(p, m, fig.system, fig.offload)
    return out


def building(c: PageContext, m: Model, v: PageValues) -> list[Markup]:
    p, f = c.p, c.f
    out = []
    if m.training_compute_flop and m.training_hardware:
        # TRANSLATORS: {flop} is training compute in FLOP; {hardware} is the
        # training hardware as recorded. Example: "Training took about 3.5 × 10²³
        # FLOP, on hardware recorded as NVIDIA A100 SXM4 40 GB. That measures what
        # producing the model cost; it has no bearing on how fast it answers."
        out.append(p.t(N_("Training took about {flop}, on hardware recorded as {hardware}. That measures what "
                          "producing the model cost; it has no bearing on how fast it answers."),
                       flop=f.flop(m.training_compute_flop), hardware=m.training_hardware))
    elif m.training_compute_flop:
        # TRANSLATORS: {flop} is training compute in FLOP. Example: "Training took
        # about 7.1 × 10²³ FLOP. That measures what producing the model cost; it
        # has no bearing on how fast it answers."
        out.append(p.t(N_("Training took about {flop}. That measures what producing the model cost; it has "
                          "no bearing on how fast it answers."), flop=f.flop(m.training_compute_flop)))
    elif m.training_hardware:
        # TRANSLATORS: {hardware} is the training hardware as recorded. Example:
        # "It was trained on hardware recorded as NVIDIA H100 80 GB."
        out.append(p.t(N_("It was trained on hardware recorded as {hardware}."), hardware=m.training_hardware))
    if m.training_tokens:
        # TRANSLATORS: {tokens} is a number of tokens. Example: "The training
        # corpus held about 152 billion tokens."
        out.append(p.t(N_("The training corpus held about {tokens} tokens."), tokens=f.count(m.training_tokens)))
    if m.why_tracked:
        # TRANSLATORS: {reasons} is why the dataset tracks it. Example: "Why it is
        # tracked in the underlying dataset: it improved on the state of the art."
        out.append(p.t(N_("Why it is tracked in the underlying dataset: {reasons}."),
                       reasons=c.terms(vocabulary.WHY_TRACKED, m.why_tracked)))
    return out
