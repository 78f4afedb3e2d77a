"""What the numbers mean on a model page: the size class, the smallest and fastest card, and
the set of cards a model needs when no single card holds it."""

from __future__ import annotations

from markupsafe import Markup

from tps_atlas.catalogue.models import Model
from tps_atlas.estimate.commands import row_command
from tps_atlas.pages.figures import ModelFigures, Reach, SizeClass
from tps_atlas.i18n.names import card_name
from tps_atlas.i18n.phrases import N_, NP_
from tps_atlas.pages.model.context import PageContext
from tps_atlas.pages.model.values import PageValues


def consumer_vram_gb(c: PageContext) -> float:
    """The most memory a consumer card has: the largest of the card sizes readers ask about."""
    return max(c.settings.vram_tiers_gb)


def numbers(c: PageContext, fig: ModelFigures, v: PageValues) -> list[tuple[str, str]]:
    g = c.p.gettext
    if not fig.smallest or not v.small or not v.fast:
        return []
    # TRANSLATORS: a label when the smallest device that holds the model is a machine sharing its memory
    # (an Apple Mac, a Ryzen AI Max), not a graphics card.
    smallest = N_("Smallest device that fits") if fig.smallest.card.unified else N_("Smallest card that fits")
    return [(g(smallest), str(v.small.card)), (g(N_("Memory needed")), v.small.need),
            (g(N_("Fastest")), v.fast.tok_s)]


def size_class(c: PageContext, m: Model, fig: ModelFigures, v: PageValues) -> Markup:
    """What the model's size means for the cards people have: read from the real share of cards
    that run it and the real memory of the smallest one (``SizeClass``)."""
    p = c.p
    size = fig.size_class(consumer_vram_gb(c))
    if size is SizeClass.NO_SINGLE_CARD:
        return p.pick(m.id + ":size", (
            # TRANSLATORS: {params} is its parameter count in words (130 billion);
            # {model} is the model's name. Example: "At 744 billion parameters, GLM-5
            # is larger than any single card we track can hold. Running it means
            # splitting it across several cards or renting hardware built for it."
            N_("At {params} parameters, {model} is larger than any single card we track can hold. Running it "
               "means splitting it across several cards or renting hardware built for it."),
            # TRANSLATORS: {model} is the model's name; {params} is its parameter
            # count in words (130 billion). Example: "GLM-130B has 130 billion
            # parameters: more than any one card in our catalogue holds. It runs split
            # across several cards, or on rented datacenter hardware."
            N_("{model} has {params} parameters: more than any one card in our catalogue holds. It runs split "
               "across several cards, or on rented datacenter hardware."),
        ), **v.placeholders)
    if size is SizeClass.MOST_CARDS and 10 * fig.cards_fit < 9 * fig.cards_total:
        # Half to nine in ten of the devices: "rarely the obstacle" would be false for the rest.
        # TRANSLATORS: {params} is its parameter count in words (8.8 billion); {model} is the model's name.
        # The sentence after it gives the count. Example: "With 8.8 billion parameters, Qwen3-VL 8B fits on
        # most of the devices we track, though not on those with the least memory."
        return p.t(N_("With {params} parameters, {model} fits on most of the devices we track, though not on "
                      "those with the least memory."), **v.placeholders)
    if size is SizeClass.MOST_CARDS:
        return p.pick(m.id + ":size", (
            # TRANSLATORS: {params} is its parameter count in words (130 billion);
            # {model} is the model's name. Example: "With 1.2 billion parameters,
            # Llama 3.2 1B is small enough that hardware is rarely the obstacle,
            # including on cards that are several years old."
            N_("With {params} parameters, {model} is small enough that hardware is rarely the obstacle, "
               "including on cards that are several years old."),
            # TRANSLATORS: {model} is the model's name; {params} is its parameter
            # count in words (130 billion). Example: "GLM-130B has 130 billion
            # parameters, which makes it small enough for most cards, older ones
            # included: hardware is rarely what stops you running it."
            N_("{model} has {params} parameters, which makes it small enough for most cards, older ones "
               "included: hardware is rarely what stops you running it."),
        ), **v.placeholders)
    if size is SizeClass.CONSUMER:
        # The smallest may be a laptop's integrated GPU given part of the system memory (18.2 GB of a 32 GB
        # machine): the sentence names the memory the GPU can use, not a card size, and counts the devices
        # (a third is not "fewer than half"); the numbers section then does not count them again.
        # TRANSLATORS: {params} is its parameter count in words (30.5 billion); {model} is the model's name;
        # {small_memory} is the smallest device's memory ("24 GB of memory", or for a machine sharing its
        # memory "18.2 GB usable by the GPU"); {fit_count} and {total} are numbers of devices, {fit_count}
        # less than half of {total}. Example: "With 30.5 billion parameters, Qwen3 30B-A3B needs at least
        # 18.2 GB usable by the GPU: 165 of the 829 devices we track hold it entirely."
        return p.n(NP_("With {params} parameters, {model} needs at least {small_memory}: {fit_count} of the "
                       "{total} devices we track holds it entirely.",
                       "With {params} parameters, {model} needs at least {small_memory}: {fit_count} of the "
                       "{total} devices we track hold it entirely."), fig.cards_fit, **v.placeholders)
    # Only devices with more memory than the largest tier hold it. Whether a consumer card is among them
    # (a 32 GB GeForce RTX 5090) is the table's to show, and the sentence after this one names the smallest.
    # TRANSLATORS: {params} is its parameter count in words (671 billion); {model} is the model's name;
    # {tier} is a memory size (24 GB). Example: "With 46.7 billion parameters, Mixtral 8x7B does not fit on
    # a card with 24 GB or less."
    return p.t(N_("With {params} parameters, {model} does not fit on a card with {tier} or less."),
               tier=c.f.vram(consumer_vram_gb(c)), **v.placeholders)


def multi_text(c: PageContext, fig: ModelFigures) -> list[Markup]:
    """The smallest set of identical cards that holds a model no single card holds."""
    p, f, multi = c.p, c.f, fig.multi
    if not multi:
        # TRANSLATORS: {most} is the largest set counted, in words up to twelve.
        # Example: "Not even a set of eight identical cards in our catalogue holds
        # it: it needs a cluster."
        return [p.t(N_("Not even a set of {most} identical cards in our catalogue holds it: it needs a "
                       "cluster."), most=f.count_words(max(c.settings.multi_gpu_counts)))]

    def values(e):
        return dict(count=f.count(multi.count), card=card_name(e.card, c.p.language),
                    card_vram=f.vram(multi.card_vram_gb(e)),
                    quant=e.quant.name, need=f.gb(e.need_gb), tok_s=f.tok_s(e.tok_s))
    # TRANSLATORS: {count} is a count (small ones in words); {card} is a card's
    # name; {card_vram} is each card's memory; {quant} is a quantization
    # (Q4_K_M); {need} is memory needed; {tok_s} is a speed in tokens per
    # second. A name takes its article and case: {card:nom}, {card:dat}, French
    # {card:a}, {card:de} (tps_atlas/i18n/names.py); the bare {card} is the name alone.
    # Example: "The smallest set of identical cards that holds it is 2 × Radeon
    # Instinct MI325X (256 GB each): at Q4_K_M it needs about 451.0 GB in all
    # and would run at about 114 tok/s."
    out = [p.t(N_("The smallest set of identical cards that holds it is {count} × {card} ({card_vram} each): "
                  "at {quant} it needs about {need} in all and would run at about {tok_s}."),
               **values(multi.cheapest))]
    # The command that splits it over the set (llama.cpp spreads the layers evenly).
    command = row_command(fig.model, multi.cheapest, fig.context, fig.kv_precision, multi.count)
    out.append(p.t(N_("To run it on that set:")) + Markup(' <code class="tps-command">{}</code>').format(command))
    if multi.fastest.card.id != multi.cheapest.card.id:
        # TRANSLATORS: {number} is the number of cards in words (two, 13); {count}
        # the same number in digits, the factor of "{count} × {card}"; {card} is a
        # card's name; {tok_s} is a speed in tokens per second. A name takes its
        # article and case: {card:nom}, {card:dat}, French {card:a}, {card:de}
        # (tps_atlas/i18n/names.py); the bare {card} is the name alone. Example: "The
        # fastest set of two cards is 2 × B300, at about 195 tok/s."
        out.append(p.t(N_("The fastest set of {number} cards is {count} × {card}, at about {tok_s}."),
                       number=f.count_words(multi.count), **values(multi.fastest)))
    return out + split_note(c)


def split_note(c: PageContext) -> list[Markup]:
    speeds, example, f = c.split_speeds, c.settings.multi_gpu_example, c.f
    if not all(n in speeds for n in (1, 2, 8)):
        return []
    # TRANSLATORS: {example} is the measured example model; {quant} is a
    # quantization (Q4_K_M); {one} is its speed on one card; {card} is a card's
    # name; {two} is on two; {eight} is on eight. A name takes its article and
    # case: {card:nom}, {card:dat}, French {card:a}, {card:de}
    # (tps_atlas/i18n/names.py); the bare {card} is the name alone. Example: "Splitting
    # a model across cards buys memory, not speed: its layers run one after the
    # other. In measured llama.cpp runs, Llama 3 8B at Q4_K_M made 131 tok/s on
    # one GeForce RTX 4090, 125 tok/s on two and 118 tok/s on eight."
    return [c.p.t(N_("Splitting a model across cards buys memory, not speed: its layers run one after "
                        "the other. In measured llama.cpp runs, {example} at {quant} made {one} on one "
                        "{card}, {two} on two and {eight} on eight."),
                     example=example["label"], quant=example["quant"], card=card_name(example["card"], c.p.language),
                     one=f.tok_s(speeds[1]), two=f.tok_s(speeds[2]), eight=f.tok_s(speeds[8]))]


def numbers_text(c: PageContext, fig: ModelFigures, v: PageValues) -> list[Markup]:
    """What the numbers mean; where only a few devices hold the model, the set of cards that runs it
    on the others follows."""
    if fig.reach is Reach.NONE:
        return multi_text(c, fig)
    return single_text(c, fig, v) + (multi_text(c, fig) if fig.multi else [])


def single_text(c: PageContext, fig: ModelFigures, v: PageValues) -> list[Markup]:
    p = c.p
    if fig.reach is Reach.ONE:
        # TRANSLATORS: {small_card} is the smallest card that runs it;
        # {small_memory} is that card's memory ("24 GB of memory", or for a machine
        # sharing its memory "72 GB usable by the GPU"); {model} is the model's
        # name; {small_quant} is the quantization it runs there; {small_tok_s} is
        # its speed there. A name takes its article and case: {small_card:nom},
        # {small_card:dat}, French {small_card:a}, {small_card:de}
        # (tps_atlas/i18n/names.py); the bare {small_card} is the name alone. Example: "Only
        # one device in our catalogue can hold it: the Apple M3 Ultra (512 GB), with
        # 384 GB usable by the GPU, which runs DeepSeek-V3 at Q3_K_M and produces
        # about 25.4 tok/s."
        return [p.t(N_("Only one device in our catalogue can hold it: the {small_card}, with {small_memory}, "
                       "which runs {model} at {small_quant} and produces about {small_tok_s}."), **v.placeholders)]
    if fig.reach is Reach.EVERY:
        out = [p.t(N_("Every device in our catalogue can hold it."))]
    elif fig.size_class(consumer_vram_gb(c)) is SizeClass.CONSUMER:
        out = []  # the size sentence just before has given the count ("165 of the 829 devices")
    else:
        # Cards and machines alike: "devices", as the headline tile counts them.
        # TRANSLATORS: {fit_count} is the number of devices that hold it entirely (two or more; up to twelve
        # in words). Example: "In our catalogue, 45 devices can hold it entirely.", "In our catalogue, five
        # devices can hold it entirely."
        out = [p.t(N_("In our catalogue, {fit_count} devices can hold it entirely."),
                   **{**v.placeholders, "fit_count": c.card_count(fig.cards_fit)})]
    # TRANSLATORS: {small_card} is the smallest card that runs it;
    # {small_memory} is that card's memory ("24 GB of memory", or for a machine
    # sharing its memory "72 GB usable by the GPU"); {model} is the model's
    # name; {small_quant} is the quantization it runs there; {small_tok_s} is
    # its speed there. A name takes its article and case: {small_card:nom},
    # {small_card:dat}, French {small_card:a}, {small_card:de}
    # (tps_atlas/i18n/names.py); the bare {small_card} is the name alone. Example: "The
    # smallest is the Apple M2 Max (96 GB), with 72 GB usable by the GPU: it
    # runs GLM-130B at Q3_K_M and produces about 3.5 tok/s."
    out.append(p.t(N_("The smallest is the {small_card}, with {small_memory}: it runs {model} at "
                      "{small_quant} and produces about {small_tok_s}."), **v.placeholders))
    if fig.fastest_has_most_bandwidth:
        # TRANSLATORS: {fast_card} is the fastest card; {fast_tok_s} is its speed;
        # {fast_bandwidth} is its memory bandwidth. A name takes its article and
        # case: {fast_card:nom}, {fast_card:dat}, French {fast_card:a},
        # {fast_card:de} (tps_atlas/i18n/names.py); the bare {fast_card} is the name alone.
        # Example: "The fastest is the AMD Instinct MI300A (128 GB), at
        # about 31.2 tok/s thanks to a memory bandwidth of 5,325 GB/s."
        out.append(p.t(N_("The fastest is the {fast_card}, at about {fast_tok_s} thanks to a memory bandwidth of "
                          "{fast_bandwidth}."), **v.placeholders))
    else:
        # TRANSLATORS: {fast_card} is the fastest card; {fast_tok_s} is its speed;
        # {fast_quant} is the quantization it runs there. A name takes its article
        # and case: {fast_card:nom}, {fast_card:dat}, French {fast_card:a},
        # {fast_card:de} (tps_atlas/i18n/names.py); the bare {fast_card} is the name alone.
        # Example: "The fastest is the AMD Instinct MI300A (128 GB), at
        # about 31.2 tok/s at Q4_K_M. Speed follows memory bandwidth only at the
        # same quantization: devices with more bandwidth that hold a less compressed
        # version can come out slower."
        out.append(p.t(N_("The fastest is the {fast_card}, at about {fast_tok_s} at {fast_quant}. Speed follows "
                          "memory bandwidth only at the same quantization: devices with more bandwidth that hold "
                          "a less compressed version can come out slower."), **v.placeholders))
    return out
