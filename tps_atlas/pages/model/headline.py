"""The top of a model page: title, description, meta line, introduction and figure tiles."""

from __future__ import annotations

from markupsafe import Markup

from tps_atlas.catalogue.models import Model
from tps_atlas.pages.figures import ModelFigures, Reach
from tps_atlas.i18n.phrases import N_, NP_
from tps_atlas.i18n.names import memory_in_name
from tps_atlas.pages.model.context import PageContext
from tps_atlas.pages.model.values import PageValues


def title(c: PageContext, v: PageValues) -> str:
    # TRANSLATORS: {model} is the model's name. Example: "GLM-130B: which GPUs
    # run it, and how fast"
    return str(c.p.t(N_("{model}: which GPUs run it, and how fast"), **v.placeholders))


def badge(c: PageContext, m: Model) -> str:
    return c.p.gettext(N_("Open weights")) if m.open_weights else c.p.gettext(N_("API only"))


def meta(c: PageContext, m: Model, v: PageValues) -> list[str]:
    p, f = c.p, c.f
    out = [str(v.organisation)] if v.organisation else []
    # TRANSLATORS: {params} is its parameter count in words (130 billion).
    # Example: "130 billion parameters"
    out.append(str(p.t(N_("{params} parameters"), params=v.params)))
    if v.month:
        out.append(v.month)
    if m.checked:
        # TRANSLATORS: {date} is a date. Example: "data last checked November 30,
        # 2026"
        out.append(str(p.t(N_("data last checked {date}"), date=f.day(m.checked))))
    if m.added:
        # TRANSLATORS: {date} is the day the model joined our catalogue. Example: "in the catalogue since
        # December 2, 2026"
        out.append(str(p.t(N_("in the catalogue since {date}"), date=f.day(m.added))))
    return out


def intro(c: PageContext, m: Model, v: PageValues) -> Markup:
    return c.p.pick(m.id + ":intro", (
        # TRANSLATORS: {model} is the model's name. Example: "Every device below is
        # rated for GLM-5 at the context length and minimum quality you choose.
        # Speed is an estimate for a single request, worked out from the device's
        # memory bandwidth and the size of the model once compressed."
        N_("Every device below is rated for {model} at the context length and minimum quality you "
           "choose. Speed is an estimate for a single request, worked out from the device's memory "
           "bandwidth and the size of the model once compressed."),
        # TRANSLATORS: {model} is the model's name. Example: "We rate every device
        # we know for GLM-130B, at your context length and quality floor. The
        # speed shown is for one request at a time, estimated from how fast the
        # device reads its memory and how large the compressed model is."
        N_("We rate every device we know for {model}, at your context length and quality floor. The "
           "speed shown is for one request at a time, estimated from how fast the device reads its "
           "memory and how large the compressed model is."),
    ), **v.placeholders)


def description(c: PageContext, fig: ModelFigures, v: PageValues) -> Markup:
    """The page's summary; where cards run it with part of it in RAM, it says how many more do."""
    text = held_description(c, fig, v)
    if not fig.cards_offload:
        return text
    # TRANSLATORS: after the page's summary of the cards that hold a model; {count} (small ones in words)
    # is the number of devices that run it with part of it in system RAM. Example: "With part of it in system RAM, 233
    # more run it."
    return text + Markup(" ") + c.n_words(NP_("With part of it in system RAM, {count} more runs it.",
                                              "With part of it in system RAM, {count} more run it."),
                                          fig.cards_offload)


def held_description(c: PageContext, fig: ModelFigures, v: PageValues) -> Markup:
    # "Fits entirely": others may run it with part of it in RAM (the page's first tile counts them).
    if fig.reach is Reach.ONE:
        # TRANSLATORS: {model} is the model's name; {total} is the number of cards
        # in the catalogue; {fast_card} is the only card that runs it (its name may
        # carry its memory); {fast_tok_s} is its speed. A name takes its article and
        # case: {fast_card:nom}, {fast_card:dat}, French {fast_card:a},
        # {fast_card:de} (tps_atlas/i18n/names.py); the bare {fast_card} is the name alone.
        # Example: "DeepSeek-V3 fits entirely on a single one of the 829 devices we track: the
        # Apple M3 Ultra (512 GB), at about 25.4 tok/s."
        return c.p.t(N_("{model} fits entirely on a single one of the {total} devices we track: the {fast_card}, "
                        "at about {fast_tok_s}."), **v.placeholders)
    if fig.fastest:
        # TRANSLATORS: {model} is the model's name; {count} is a count (small ones
        # in words); {total} is the number of cards in the catalogue; {fast_card} is
        # the fastest card; {small_vram} is that card's memory; {fast_tok_s} is its
        # speed; {small_card} is the smallest card that runs it. A name takes its
        # article and case: {fast_card:nom}, {fast_card:dat}, French {fast_card:a},
        # {fast_card:de} (tps_atlas/i18n/names.py); the bare {fast_card} is the name alone.
        # Example: "GLM-130B fits entirely on 45 of the 829 devices we track. Fastest: AMD
        # Instinct MI300A (128 GB) at about 31.2 tok/s; smallest: Apple M2 Max
        # (96 GB), with 72 GB."
        return c.n_words(NP_("{model} fits entirely on only {count} of the {total} devices we track: the "
                             "{fast_card} ({small_vram}), at about {fast_tok_s}.",
                             "{model} fits entirely on {count} of the {total} devices we track. Fastest: "
                             "{fast_card} at about {fast_tok_s}; smallest: {small_card}, with {small_vram}."),
                         fig.cards_fit, **v.placeholders)
    # TRANSLATORS: {model} is the model's name; {params} is its parameter
    # count in words (130 billion); {total} is the number of cards in the
    # catalogue. Example: "GLM-5 (744 billion parameters) fits on none of the
    # 829 devices we track: what it needs, and what to do instead."
    return c.p.t(N_("{model} ({params} parameters) fits on none of the {total} devices we track: what it "
                    "needs, and what to do instead."), **v.placeholders)


# The first tile: every device that runs the model, and its two parts (the browser redraws it with the
# same labels, tps_atlas/web/data.py).
# TRANSLATORS: a headline tile's label under a count of devices (cards and machines) that run the model,
# entirely or with part in RAM. Example: "278 / devices run it".
DEVICES_RUN_IT = NP_("device runs it", "devices run it")
# TRANSLATORS: under that tile: {fit} devices hold the model entirely, {offload} run it with part of it in
# system RAM. Example: "45 entirely, 233 with part in RAM".
RUN_PARTS = N_("{fit} entirely, {offload} with part in RAM")
# TRANSLATORS: under that tile in its place where every device that runs the model holds it entirely (none
# needs RAM): never "828 entirely, 0 with part in RAM". Example: "828 / devices run it / all of them entirely".
ALL_ENTIRELY = N_("all of them entirely")
# TRANSLATORS: under that tile in its place where no device holds the model entirely and every one that runs
# it keeps part of it in system RAM. Example: "233 / devices run it / all with part in RAM".
ALL_IN_RAM = N_("all with part in RAM")
# TRANSLATORS: the first tile where no device (card or machine) runs the model at the settings: the tile's
# large text, in place of a 0, above the label 'runs it'. Example: "No device / runs it".
NO_DEVICE = N_("No device")
# TRANSLATORS: the label under "No device" in that tile (French "Aucun appareil / ne le fait tourner").
NONE_RUN_IT = N_("runs it")
SMALLEST_CARD = N_("Smallest card that fits")
FASTEST_DEVICE = N_("Fastest device")
# TRANSLATORS: the tile's label in its place where a device that runs the model with part of it in RAM is
# faster than every device that holds it entirely: the tile names the fastest of the latter.
FASTEST_ENTIRELY = N_("Fastest holding it entirely")
# TRANSLATORS: the tile's label where the smallest device that holds the model is a machine sharing its
# memory (a Mac, a Ryzen AI Max), never called a card.
SMALLEST_DEVICE = N_("Smallest device that fits")


def run_parts(c: PageContext, fig: ModelFigures) -> str:
    """The first tile's two parts; a part of none is not counted ("all of them entirely")."""
    if not fig.cards_offload:
        return c.p.gettext(ALL_ENTIRELY)
    if not fig.cards_fit:
        return c.p.gettext(ALL_IN_RAM)
    return str(c.p.t(RUN_PARTS, fit=c.p.fmt.count(fig.cards_fit), offload=c.p.fmt.count(fig.cards_offload)))


def tiles(c: PageContext, fig: ModelFigures, v: PageValues) -> list[tuple[str, str, str]]:
    # The first tile is redrawn by the browser after an input change (calculator.js tilesHtml), byte for
    # byte as built (tests/test_parity.py): its wording changes there and here together.
    p, f = c.p, c.p.fmt
    first = ((p.gettext(NONE_RUN_IT), p.gettext(NO_DEVICE), "") if not fig.cards_run else
             (str(p.n(DEVICES_RUN_IT, fig.cards_run)), f.count(fig.cards_run), run_parts(c, fig)))
    out = [first, (str(p.n(NP_("device in the catalogue", "devices in the catalogue"), fig.cards_total)), v.total, "")]
    if fig.smallest and fig.fastest and v.small and v.fast:
        label = SMALLEST_DEVICE if fig.smallest.card.unified else SMALLEST_CARD
        # The size once: not beside a name that states it as sold (tps_atlas/i18n/names.py memory_in_name).
        small_vram = () if memory_in_name(fig.smallest.card) else (v.small.vram,)
        fast_vram = () if memory_in_name(fig.fastest.card) else (v.fast.vram,)
        out.append((p.gettext(label), str(v.small.card), " · ".join((*small_vram, v.small.quant, v.small.tok_s))))
        # An offload row can beat every fit (an HBM card beside a slow unified machine): then "fastest device"
        # would be false for the table below; the tile says what it names.
        beaten = bool(fig.offload) and fig.offload[0].tok_s > fig.fastest.tok_s
        out.append((p.gettext(FASTEST_ENTIRELY if beaten else FASTEST_DEVICE), str(v.fast.card),
                    " · ".join((v.fast.tok_s, *fast_vram))))
    return out
