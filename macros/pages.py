"""The context of a model page: everything it shows, as translated, formatted text.

A page context is plain data; the template only lays it out. Which sections
and questions appear depends on the record and the figures: nothing is shown
for a fact that is not known.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from typing import Callable

from markupsafe import Markup

from . import vocabulary
from .catalogue import Card, Model
from .estimator import Estimate, Settings, speed_working
from .figures import ModelFigures
from .measured import Run
from .phrases import N_, NP_, Phrases
from .commands import row_command
from .offload import OffloadEstimate
from .offload_pages import (offload_detail, offload_explanation, offload_faq, offload_working,
                            reference_offload)

# How one estimate was worked out: shown under the headline figures, and by the browser
# calculator for any row (the same phrases, filled there).
WORKING_TITLE = N_("How the figure for the {card} was worked out")
WORKING_LINES = (
    N_("Weights read per token: {params} parameters × {bits} bits ÷ 8 = {read}."),
    N_("Memory bandwidth {bandwidth}, of which this kind of card reaches about {efficiency}."),
    N_("Time per token: {read} ÷ ({bandwidth} × {efficiency}) + {overhead} ms = {ms} ms, so about {tok_s}."),
    N_("Memory: weights {weights} + KV cache {kv} + buffer {buffer} = {need}, against {vram} on the card."),
)
# The same, for a calibration with hardware classes: the class, the KV cache read at the context
# and the prompt. The lines with the same place in both lists say the same kind of thing.
WORKING_CLASS_LINES = (
    N_("Weights read per token: {params} parameters × {bits} bits ÷ 8 = {read}."),
    N_("KV cache read per token with {context} tokens of context: {kv} × {kv_factor} = {kv_read}."),
    N_("Memory bandwidth {bandwidth}. Cards of the class “{speed_class}” reach about {efficiency} of it and "
       "spend {overhead} ms per token on fixed costs (kernel launches, synchronisation, sampling); both "
       "fitted on measured llama.cpp runs."),
    N_("Time per token: ({read} + {kv_read}) ÷ ({bandwidth} × {efficiency}) + {overhead} ms = {ms} ms, "
       "so about {tok_s}."),
    N_("Reading the prompt is bound by compute: about {prompt_tok_s}, so a prompt of {context} tokens "
       "takes about {ttft} before the first token appears."),
    N_("Memory: weights {weights} + KV cache {kv} + buffer {buffer} = {need}, against {vram} on the card."),
)
# A measured run beside an estimate (model and card tables).
MEASURED = N_("measured: {tok_s}")
MEASURED_OTHER = N_("measured with {model}: {tok_s}")
MEASURED_DETAIL = N_("{backend}, build {build}, {month}, {context}")
MEASURED_DETAIL_NO_BUILD = N_("{backend}, {month}, {context}")
# The context the run started from: estimates are at the page's context, often longer.
MEASURED_EMPTY = N_("empty context")
MEASURED_DEPTH = N_("{depth} tokens already in context")
WORKING_CHECK = N_("To check it on your own card, run llama.cpp's benchmark on the same quantization:")
# The memory line of a vision-language model: its vision encoder is loaded beside the weights.
WORKING_MEMORY_VISION = N_("Memory: weights {weights} + vision encoder {vision} + KV cache {kv} + buffer {buffer} "
                           "= {need}, against {vram} on the card.")


def working_lines(model: Model, classes: bool) -> tuple[str, ...]:
    """The worked example's phrases for a model, by kind of calibration (``classes``: hardware
    classes); a vision encoder adds a term to the memory line, which comes last."""
    lines = WORKING_CLASS_LINES if classes else WORKING_LINES
    return lines[:-1] + (WORKING_MEMORY_VISION,) if model.vision_encoder_b else lines

FIT_LABELS = {"comfortable": N_("Comfortable"), "tight": N_("Tight"), "none": N_("Does not fit"),
              "offload": N_("With offload")}

SMALL_CARD_GB = 24       # the largest memory of a consumer card: "small enough"
OLD_MODEL_YEARS = 2      # older than this against the newest model: say capability has moved on
EXTREMES = 10            # rows in "the ten fastest"
SMALLEST_SHOWN = 5


def fit_label(phrases: Phrases, fit: str) -> str:
    """The table label of a verdict; the same word in every table and sentence."""
    return phrases.gettext(FIT_LABELS[fit])


def fit_sentence(phrases: Phrases, fit: str) -> Markup:
    return phrases.t(N_("The fit is comfortable.")) if fit == "comfortable" else phrases.t(N_("The fit is tight."))


def card_href(card: Card) -> str:
    """Card pages sit at /<lang>/cards/<id>/, beside /<lang>/models/<id>/."""
    return f"../../cards/{card.id}/"


@dataclass
class MeasuredMark:
    text: str
    detail: str
    href: str


def measured_mark(phrases: Phrases, run: Run | None, model: Model) -> MeasuredMark | None:
    """The measured figure beside an estimate, with backend, build, date and its source."""
    if run is None:
        return None
    f = phrases.fmt
    year, month = (int(part) for part in run.date.split("-")[:2])
    context = phrases.t(MEASURED_DEPTH, depth=f.count(run.depth)) if run.depth else phrases.t(MEASURED_EMPTY)
    values = dict(tok_s=f.tok_s(run.tok_s), model=run.model_name, backend=run.backend, build=run.build,
                  month=f.month(dt.date(year, month, 1)), context=context)
    text = phrases.t(MEASURED if run.model == model.id else MEASURED_OTHER, **values)
    detail = phrases.t(MEASURED_DETAIL_NO_BUILD if run.build == "unknown" else MEASURED_DETAIL, **values)
    return MeasuredMark(str(text), str(detail), run.source)


def measured_note(phrases: Phrases, count: int, total: int) -> Markup:
    """How many of a table's speeds have a measurement beside them."""
    if not count:
        return phrases.t(N_("None of the speeds in this table has been measured yet: all are estimates."))
    return phrases.n(NP_("{count} of the {total} speeds in this table has a measured llama.cpp run beside it; "
                         "the others are estimates.",
                         "{count} of the {total} speeds in this table have a measured llama.cpp run beside "
                         "them; the others are estimates."), count, total=phrases.fmt.count(total))


@dataclass
class Row:
    card: str
    card_id: str
    href: str
    vendor: str
    vram: str
    bandwidth: str
    released: str
    need: str
    quant: str
    fit: str
    fit_key: str
    tok_s: str
    tok_range: str
    measured: MeasuredMark | None = None
    offload: str = ""      # where the model sits, for a card that runs it with offload


@dataclass
class Group:
    title: str
    blurb: str
    fields: list[tuple[str, str]]


@dataclass
class ModelPage:
    language: str
    model: Model
    title: str
    description: str
    badge: str
    meta: list[str]
    intro: Markup
    tiles: list[tuple[str, str, str]]        # (label, main, detail)
    no_fit: Markup | None
    rows: list[Row]
    disclaimer: Markup
    groups: list[Group]
    fastest: list[Row]
    smallest: list[Row]
    numbers: list[tuple[str, str]]
    size_class: Markup
    numbers_text: list[Markup]
    about: list[Markup]
    speed: list[Markup]
    building: list[Markup]
    steps: list[tuple[str, Markup]]
    faq: list[tuple[str, Markup]]
    source: list[tuple[str, str, str | None]]
    chart_items: list[tuple[str, float, str]]
    chart_title: str
    chart_summary: str
    workings: list[tuple[str, list[Markup], str, str]]  # title, lines, check, command
    measured_note: Markup | None = None


class ModelPageBuilder:
    def __init__(self, phrases: Phrases, settings: Settings, newest_published: dt.date | None,
                 split_speeds: dict[int, float], measured: Callable[[Model, Estimate], Run | None] | None = None):
        self.p = phrases
        self.f = phrases.fmt
        self.settings = settings
        self.newest_published = newest_published
        self.split_speeds = split_speeds  # measured tok/s on 1, 2, ... identical cards
        self.measured = measured or (lambda model, e: None)

    # ------------------------------------------------------------ helpers
    def row(self, e: Estimate, m: Model | None = None) -> Row:
        c = e.card
        return Row(
            card=c.name, card_id=c.id, href=card_href(c), vendor=c.vendor, vram=self.f.vram(c.vram_gb),
            bandwidth=self.f.bandwidth(c.bandwidth_gb_s),
            released=self.f.month(c.released) if c.released else "",
            need=self.f.gb(e.need_gb) if e.need_gb is not None else "",
            quant=e.quant.name if e.quant else "", fit=fit_label(self.p, e.fit), fit_key=e.fit,
            tok_s=self.f.tok_s(e.tok_s) if e.tok_s else "",
            tok_range=self.f.tok_range(e.tok_s_low, e.tok_s_high) if e.tok_s else "",
            measured=measured_mark(self.p, self.measured(m, e), m) if m and e.fit != "offload" else None,
            offload=offload_detail(self.p, e) if isinstance(e, OffloadEstimate) else "")

    def terms(self, table: dict[str, str], keys) -> str:
        return self.f.names([self.p.term(table[k]) for k in keys])

    def common(self, m: Model, fig: ModelFigures) -> dict:
        """Placeholder values many sentences share, formatted once."""
        values = {"model": m.name, "params": self.f.parameters(m.parameters_b),
                  "total": self.f.count(fig.cards_total), "fit_count": self.f.count(fig.cards_fit),
                  "context": self.f.count(fig.context), "floor": fig.floor}
        if m.active_parameters_b:
            values["active"] = self.f.parameters(m.active_parameters_b)
        if fig.smallest:
            s = fig.smallest
            values.update(small_card=s.card.name, small_vram=self.f.vram(s.card.vram_gb),
                          small_quant=s.quant.name, small_need=self.f.gb(s.need_gb),
                          small_tok_s=self.f.tok_s(s.tok_s))
        if fig.fastest:
            q = fig.fastest
            values.update(fast_card=q.card.name, fast_tok_s=self.f.tok_s(q.tok_s),
                          fast_vram=self.f.vram(q.card.vram_gb), fast_quant=q.quant.name,
                          fast_bandwidth=self.f.bandwidth(q.card.bandwidth_gb_s),
                          fast_range=self.f.tok_range(q.tok_s_low, q.tok_s_high))
        if fig.median_tok_s is not None:
            values["median"] = self.f.tok_s(fig.median_tok_s)
        if fig.nearest_miss:
            n = fig.nearest_miss
            values.update(miss_card=n.card.name, miss_vram=self.f.vram(n.card.vram_gb),
                          miss_need=self.f.gb(n.need_gb), miss_quant=n.quant_name,
                          shortfall=self.f.gb(n.shortfall_gb))
        if m.organisations:
            values["organisation"] = self.f.names(m.organisations)
        if m.published:
            values["month"] = self.f.month(m.published)
        return values

    # ------------------------------------------------------------ sections
    def build(self, m: Model, fig: ModelFigures) -> ModelPage:
        p, f = self.p, self.f
        v = self.common(m, fig)
        rows = [self.row(e, m) for e in fig.rows]
        offload_rows = [self.row(e, m) for e in fig.offload]
        smallest = sorted(fig.rows, key=lambda e: (e.card.vram_gb, -(e.tok_s or 0)))[:SMALLEST_SHOWN]
        meta = [f.names(m.organisations)] if m.organisations else []
        meta.append(str(p.t(N_("{params} parameters"), params=v["params"])))
        if m.published:
            meta.append(v["month"])
        if m.checked:
            meta.append(str(p.t(N_("data last checked {date}"), date=f.day(m.checked))))
        return ModelPage(
            language=p.language,
            model=m,
            title=str(p.t(N_("{model}: which GPUs run it, and how fast"), **v)),
            description=str(self.description(m, fig, v)),
            badge=p.gettext(N_("Open weights")) if m.open_weights else p.gettext(N_("API only")),
            meta=meta,
            intro=p.pick(m.id + ":intro", (
                N_("Every card below is rated for {model} at the context length and minimum quality you "
                   "choose. Speed is an estimate for a single request, worked out from the card's memory "
                   "bandwidth and the size of the model once compressed."),
                N_("We rate every card we know for {model}, at your context length and quality floor. The "
                   "speed shown is for one request at a time, estimated from how fast the card reads its "
                   "memory and how large the compressed model is."),
            ), **v),
            tiles=self.tiles(fig, v),
            no_fit=None if fig.rows else p.t(N_("No card in our catalogue can run {model} at these settings."), **v),
            rows=rows + offload_rows,
            disclaimer=p.t(N_("Speeds are estimates for a single request (one conversation at a time), worked "
                              "out from memory bandwidth, model size and quantization. Real throughput varies "
                              "with the inference software and its version. Figures published by hardware "
                              "vendors measure many simultaneous requests and are much higher.")),
            groups=self.groups(m),
            fastest=rows[:EXTREMES],
            smallest=[self.row(e) for e in smallest],
            numbers=self.numbers(fig, v),
            size_class=self.size_class(m, fig, v),
            numbers_text=self.numbers_text(fig, v),
            about=self.about(m, v),
            speed=self.speed(m, fig, v),
            building=self.building(m, v),
            steps=self.steps(m, fig, v),
            faq=self.faq(m, fig, v),
            source=self.source(m),
            workings=[self.working(m, e, fig) for e in dict.fromkeys(x for x in (fig.fastest, fig.smallest) if x)]
            + ([offload_working(p, m, reference_offload(fig.offload), fig.context, fig.kv_precision)]
               if fig.offload else []),
            measured_note=measured_note(p, sum(r.measured is not None for r in rows), len(rows)) if rows else None,
            **self.chart(m, fig),
        )

    def working(self, m: Model, e: Estimate, fig: ModelFigures) -> tuple[str, list[Markup], str, str]:
        """How one estimate was worked out, step by step, and the command that checks it."""
        p, f = self.p, self.f
        memory = e.memory
        w = speed_working(m, e.quant, e.card, fig.calibration, memory.kv_gb)
        values = dict(params=f.parameters(m.read_parameters_b), bits=f.decimal(e.quant.bits_per_weight, 2),
                      read=f.gb(w.read_gb, 2), bandwidth=f.bandwidth(w.bandwidth_gb_s),
                      efficiency=f.percent(w.efficiency), overhead=f.decimal(w.overhead_ms, 2),
                      ms=f.decimal(w.seconds_per_token * 1000, 2), tok_s=f.tok_s(e.tok_s),
                      weights=f.gb(memory.weights_gb), kv=f.gb(memory.kv_gb, 2), buffer=f.gb(memory.buffer_gb),
                      vision=f.gb(memory.vision_gb), need=f.gb(memory.total_gb), vram=f.vram(e.card.vram_gb),
                      context=f.count(fig.context), kv_factor=f.decimal(fig.calibration.kv_read_factor, 2),
                      kv_read=f.gb(w.kv_read_gb, 2), speed_class=w.class_name or "",
                      prompt_tok_s=f.tok_s(e.prompt_tok_s) if e.prompt_tok_s else "",
                      ttft=f.seconds(e.ttft_s) if e.ttft_s else "")
        lines = [p.t(line, **values) for line in working_lines(m, bool(w.class_name))]
        title = p.t(WORKING_TITLES[e.card.kind], card=e.card.name)
        command = f"llama-bench -m {m.id}-{e.quant.name}.gguf -p 0 -n 128 -ngl 99"
        return title, lines, command, row_command(m, e, fig.context, fig.kv_precision)

    def chart(self, m: Model, fig: ModelFigures) -> dict:
        items = [(e.card.name, e.tok_s, self.f.tok_s(e.tok_s)) for e in fig.rows[:EXTREMES]]
        if not items:
            return {"chart_items": [], "chart_title": "", "chart_summary": ""}
        return {"chart_items": items,
                "chart_title": (self.p.t(N_("The ten fastest cards for {model}"), model=m.name)),
                "chart_summary": (self.p.t(N_("Estimated tokens per second of the fastest cards for {model}: "
                                                 "{items}."), model=m.name,
                                              items=self.f.names(f"{name} {value}" for name, _, value in items)))}

    def description(self, m: Model, fig: ModelFigures, v: dict) -> Markup:
        if fig.fastest:
            return self.p.n(NP_("{model} runs on only {count} of the {total} GPUs we track: the {fast_card} "
                   "({small_vram}), at about {fast_tok_s}.",
                "{model} runs on {count} of the {total} GPUs we track. Fastest: {fast_card} at about "
                   "{fast_tok_s}; smallest: {small_card}, with {small_vram}."),
                fig.cards_fit, **v)
        return self.p.t(N_("{model} ({params} parameters) fits on none of the {total} GPUs we track: what it "
                           "needs, and what to do instead."), **v)

    def tiles(self, fig: ModelFigures, v: dict) -> list[tuple[str, str, str]]:
        p = self.p
        tiles = [
            (str(p.n(NP_("card can run it",
                "cards can run it"), fig.cards_fit)), v["fit_count"], ""),
            (str(p.n(NP_("card in the catalogue",
                "cards in the catalogue"), fig.cards_total)), v["total"], ""),
        ]
        if fig.smallest:
            tiles.append((p.gettext(N_("Smallest card that fits")), v["small_card"],
                          " · ".join((v["small_vram"], v["small_quant"], v["small_tok_s"]))))
            tiles.append((p.gettext(N_("Fastest card")), v["fast_card"],
                          " · ".join((v["fast_tok_s"], v["fast_vram"]))))
        return tiles

    def groups(self, m: Model) -> list[Group]:
        p, f = self.p, self.f
        g = p.gettext

        def keep(*pairs):
            return [(g(label), value) for label, value in pairs if value not in (None, "", ())]

        def yes_no(flag):
            return None if flag is None else g(N_("yes")) if flag else g(N_("no"))

        origin = keep(
            (N_("Organisation"), f.names(m.organisations)),
            (N_("Organisation type"), self.terms(vocabulary.ORGANISATION_TYPES, m.organisation_types)),
            (N_("Country"), f.names(f.territory(c) for c in m.countries)),
            (N_("Published"), f.day(m.published) if m.published else None),
            (N_("Authors"), f.names(m.authors)),
        )
        purpose = keep(
            (N_("Domain"), self.terms(vocabulary.DOMAINS, m.domains)),
            (N_("Tasks"), self.terms(vocabulary.TASKS, m.tasks)),
            (N_("Base model"), m.base_model),
            (N_("Number format of the weights"), m.numerical_format),
        )
        size = keep(
            (N_("Parameters"), f.parameters(m.parameters_b)),
            (N_("Active parameters per token"), f.parameters(m.active_parameters_b) if m.active_parameters_b else None),
            (N_("Experts"), str(p.t(N_("{active} of {total} per token"), active=f.count(m.experts_active),
                                     total=f.count(m.experts_total))) if m.experts_total else None),
            (N_("Training data"), str(p.t(N_("{amount} tokens"), amount=f.tokens(m.training_tokens)))
             if m.training_tokens else None),
            (N_("Epochs"), f.decimal(m.epochs, 0 if m.epochs.is_integer() else 1) if m.epochs else None),
            (N_("Batch size"), str(p.t(N_("{tokens} tokens"), tokens=f.count(m.batch_size))) if m.batch_size else None),
            (N_("Vision encoder"), str(p.t(N_("{params}, loaded beside the model at F16"),
                                           params=f.parameters(m.vision_encoder_b))) if m.vision_encoder_b else None),
            (N_("Format it ships in"), str(p.t(N_("{quant}, the only format we rate it in"), quant=m.native_format))
             if m.native_format else None),
        )
        arch = m.architecture
        if arch:
            size += keep(
                (N_("Layers"), f.count(arch.layers)),
                (N_("Attention"), p.term(vocabulary.ATTENTION_KINDS[arch.attention])),
                (N_("Key-value heads"), f.count(arch.kv_heads) if arch.kv_heads else None),
                (N_("Layers without a KV cache (linear attention)"),
                 f.count(arch.linear_attention_layers) if arch.linear_attention_layers else None),
                (N_("Sliding window"), str(p.t(N_("{tokens} tokens"), tokens=f.count(arch.sliding_window)))
                 if arch.sliding_window else None),
            )
        compute = keep(
            (N_("Training compute"), f.flop(m.training_compute_flop) if m.training_compute_flop else None),
            (N_("How it was established"), self.terms(vocabulary.COMPUTE_METHODS, m.compute_methods)),
            (N_("Fine-tuning compute"), f.flop(m.finetune_compute_flop) if m.finetune_compute_flop else None),
            (N_("Training hardware"), m.training_hardware),
        )
        run = keep(
            (N_("Chips used"), f.count(m.chips) if m.chips else None),
            (N_("Chip-hours"), f.count(m.chip_hours) if m.chip_hours else None),
            (N_("Wall-clock time"), str(p.n(NP_("{count} hour", "{count} hours"), round(m.wall_clock_hours)))
             if m.wall_clock_hours else None),
            (N_("Hardware utilisation"), " · ".join(x for x in (
                f"MFU {f.percent(m.mfu)}" if m.mfu else "", f"HFU {f.percent(m.hfu)}" if m.hfu else "") if x)),
            (N_("Power draw"), f"{f.decimal(m.power_kw, 1)} kW" if m.power_kw else None),
            (N_("Compute cost"), str(p.t(N_("{amount} US dollars"), amount=f.count(m.compute_cost_usd)))
             if m.compute_cost_usd else None),
        )
        availability = keep(
            (N_("Weights"), g(N_("open, downloadable")) if m.open_weights else g(N_("not published"))),
            (N_("Access"), p.term(vocabulary.ACCESS[m.access]) if m.access else None),
            (N_("Licence"), m.license),
            (N_("Training code"), p.term(vocabulary.TRAINING_CODE[m.training_code]) if m.training_code else None),
            (N_("Hugging Face"), m.huggingface),
        )
        classification = keep(
            (N_("Base model (not fine-tuned)"), yes_no(m.is_base_model)),
            (N_("Probably above 10²³ FLOP"), yes_no(m.above_1e23_flop)),
            (N_("Why it is tracked"), self.terms(vocabulary.WHY_TRACKED, m.why_tracked)),
            (N_("Confidence in the record"), p.term(vocabulary.CONFIDENCE[m.confidence]) if m.confidence else None),
            (N_("Citations"), f.count(m.citations) if m.citations is not None else None),
        )
        sources = keep(
            (N_("Reference"), m.reference.title if m.reference else None),
            (N_("Last updated"), f.day(m.last_updated) if m.last_updated else None),
        )
        groups = [
            (N_("Origin"), N_("Who built this model, where, and when it was published."), origin),
            (N_("What it does"), N_("The kinds of problem the model was built for. A model can have several."),
             purpose),
            (N_("Size"), N_("How large the model is and how much data it was trained on. The parameter count "
                            "decides whether it fits on a given card."), size),
            (N_("Training compute"), N_("The arithmetic done to train the model, in floating-point operations. It "
                                        "measures what the training cost, not how fast the finished model answers."),
             compute),
            (N_("The training run"), N_("What training took physically: which chips, how many, for how long, and "
                                        "how much power."), run),
            (N_("Availability"), N_("Whether you can get the model and run it on your own hardware, which decides "
                                    "whether the figures on this page apply to you."), availability),
            (N_("Classification"), N_("Labels given by the dataset this record comes from, and how "
                                      "confident that dataset is of the entry."), classification),
            (N_("Sources"), N_("Where this record comes from and when it was last checked."), sources),
        ]
        return [Group(g(title), g(blurb), fields) for title, blurb, fields in groups if fields]

    def numbers(self, fig: ModelFigures, v: dict) -> list[tuple[str, str]]:
        g = self.p.gettext
        if not fig.smallest:
            return []
        return [(g(N_("Smallest card that fits")), v["small_card"]), (g(N_("Memory needed")), v["small_need"]),
                (g(N_("Fastest")), v["fast_tok_s"])]

    def size_class(self, m: Model, fig: ModelFigures, v: dict) -> Markup:
        p = self.p
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

    def multi_text(self, fig: ModelFigures, v: dict) -> list[Markup]:
        """The smallest set of identical cards that holds a model no single card holds."""
        p, f, multi = self.p, self.f, fig.multi
        if not multi:
            return [p.t(N_("Not even a set of {most} identical cards in our catalogue holds it: it needs a "
                           "cluster."), most=f.count(max(self.settings.multi_gpu_counts)))]

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
        return out + self.split_note()

    def split_note(self) -> list[Markup]:
        speeds, example, f = self.split_speeds, self.settings.multi_gpu_example, self.f
        if not all(n in speeds for n in (1, 2, 8)):
            return []
        return [self.p.t(N_("Splitting a model across cards buys memory, not speed: its layers run one after "
                            "the other. In measured llama.cpp runs, {example} at {quant} made {one} on one "
                            "{card}, {two} on two and {eight} on eight."),
                         example=example["label"], quant=example["quant"], card=example["card"],
                         one=f.tok_s(speeds[1]), two=f.tok_s(speeds[2]), eight=f.tok_s(speeds[8]))]

    def numbers_text(self, fig: ModelFigures, v: dict) -> list[Markup]:
        p = self.p
        if not fig.smallest:
            return self.multi_text(fig, v)
        return [
            p.n(NP_("{count} card in our catalogue can hold it.",
                "{count} cards in our catalogue can hold it."), fig.cards_fit),
            p.t(N_("The smallest is the {small_card} with {small_vram} of memory: it runs {model} at {small_quant} "
                   "and produces about {small_tok_s}."), **v),
            p.t(N_("The fastest is the {fast_card}, at about {fast_tok_s} thanks to a memory bandwidth of "
                   "{fast_bandwidth}."), **v),
        ]

    def about(self, m: Model, v: dict) -> list[Markup]:
        p, f = self.p, self.f
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
                           types=self.terms(vocabulary.ORGANISATION_TYPES, m.organisation_types)))
        if m.domains or m.tasks:
            out.append(p.t(N_("Domain: {domains}. Recorded tasks: {tasks}."),
                           domains=self.terms(vocabulary.DOMAINS, m.domains) or "–",
                           tasks=self.terms(vocabulary.TASKS, m.tasks) or "–"))
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

    def speed(self, m: Model, fig: ModelFigures, v: dict) -> list[Markup]:
        p = self.p
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
                           layers=self.f.count(m.architecture.layers)))
        else:
            out.append(p.t(N_("Memory here is estimated from the model's size, because its attention layout is "
                              "not recorded: the figures are indicative, and least reliable at long context.")))
        if fig.offload:
            out += offload_explanation(p, m, fig.system, True)
        return out

    def building(self, m: Model, v: dict) -> list[Markup]:
        p, f = self.p, self.f
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
                           reasons=self.terms(vocabulary.WHY_TRACKED, m.why_tracked)))
        return out

    def steps(self, m: Model, fig: ModelFigures, v: dict) -> list[tuple[str, Markup]]:
        p, g = self.p, self.p.gettext
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

    def faq(self, m: Model, fig: ModelFigures, v: dict) -> list[tuple[str, Markup]]:
        p, f = self.p, self.f
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
            ask(N_("Who made {model}?"), self.about(m, v)[0] if m.published else
                p.t(N_("It was published by {organisation}."), **v))
        if m.published:
            answer = p.t(N_("It was published in {month}."), **v)
            if self.newest_published and (self.newest_published - m.published).days > 365 * OLD_MODEL_YEARS:
                answer = Markup(f"{answer} ") + p.t(N_("Capability per parameter has improved a lot since, so a "
                                                      "newer model of the same size often makes better use of "
                                                      "the same hardware."))
            ask(N_("When was {model} released?"), answer)
        if m.domains or m.tasks:
            ask(N_("What is {model} used for?"),
                p.t(N_("Its domain is {domains}; the recorded tasks are {tasks}. These are what it was built "
                       "for, not a limit on what it will attempt."),
                    domains=self.terms(vocabulary.DOMAINS, m.domains) or "–",
                    tasks=self.terms(vocabulary.TASKS, m.tasks) or "–"))
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
                + Markup(" ") + Markup(" ").join(self.split_note()))
        else:
            ask(N_("How many GPUs does {model} need?"), Markup(" ").join(self.multi_text(fig, v)))
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

    def source(self, m: Model) -> list[tuple[str, str, str | None]]:
        g, f = self.p.gettext, self.f
        out = []
        if m.reference:
            out.append((g(N_("Original publication")), m.reference.title, m.reference.url))
        for s in m.sources:
            if not m.reference or s.title != m.reference.title:
                out.append((g(N_("Source")), s.title, s.url))
        if m.huggingface:
            out.append((g(N_("Hugging Face")), m.huggingface, m.huggingface_url))
        if m.last_updated:
            out.append((g(N_("Last update of the record")), f.day(m.last_updated), None))
        if m.checked:
            out.append((g(N_("Data last checked")), f.day(m.checked), None))
        return out

# A machine or chip (Apple M4 Max, DGX Spark) is no graphics card: French and German word it without the card's article.
WORKING_TITLES = {"discrete": WORKING_TITLE, "unified": N_("How the figure on {card} was worked out")}
