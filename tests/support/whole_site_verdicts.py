"""Every page agrees with itself, in every language: what a sentence says against the table on
the same page (issue 23, part 4). One pass over the built model, card, index and home pages.

Each check reads the page as a reader would: the rows of its table (card, fit, speed as shown),
its questions and answers, its counts; the catalogue gives only what the page cannot show (a
card's memory, whether a device is a machine sharing its memory).
"""

from __future__ import annotations

import html
import re
from dataclasses import dataclass
from pathlib import Path

from babel.numbers import parse_decimal

from tps_atlas.catalogue.load import load_catalogue, load_portal
from tps_atlas.estimate.settings import load_settings
from tps_atlas.i18n.names import card_name
from tps_atlas.i18n.phrases import Phrases

from tests.support.site_build import page_path

LANGUAGES = ("en", "nl", "fr", "de")
# "Even at {quant}" in each language's own words (the catalogue's "even at" sentences).
EVEN_AT = {"en": r"\beven at", "nl": r"\bzelfs in", "fr": r"\bmême en", "de": r"\bselbst in"}

ROW = re.compile(r'<tr data-card="([^"]+)"><td class="tps-fit-(\w+)">[^<]*</td><td>([^<]+?) <small>')
# A fitting row's memory cells: the card's and what the model needs there, in one unit.
FIT_MEMORY = re.compile(r'<tr data-card="([^"]+)"><td class="tps-fit-(?:comfortable|tight)">.*?</td><td>.*?</td>'
                        r'<td>.*?</td><td>([^<]+)</td><td>([^<]+)</td>')
QA = re.compile(r'<h3 id="faq-\d+">(.*?)</h3>\n<p>(.*?)</p>', re.S)
TAG = re.compile(r"<[^>]+>")
CARD_TABLE_ROW = re.compile(r'<tr><td class="tps-fit-\w+">')
OFFLOAD_ROW = re.compile(r'<tr><td>([^<]+?) <small>[^<]*</small></td><td><a href="../../models/([^/]+)/">')


def plain(markup: str) -> str:
    return html.unescape(TAG.sub("", markup))


@dataclass(frozen=True)
class Row:
    card_id: str
    fit: str        # comfortable | tight | offload
    tok_s: str      # as shown


def model_rows(page: str) -> list[Row]:
    return [Row(card, fit, html.unescape(tok_s)) for card, fit, tok_s in ROW.findall(page)]


def number(shown: str, language: str) -> float:
    """A figure as a page prints it ("21,1 Gio", "1.234,5 GiB", "24 GB"), as a number."""
    digits = shown.split("\u00a0")[0].split(" ")[0] if language != "fr" else shown.rsplit("\u00a0", 1)[0]
    digits = digits.replace("\u202f", "").replace("\u00a0", "")
    if language in ("nl", "de"):
        digits = digits.replace(".", "").replace(",", ".")
    elif language == "fr":
        digits = digits.replace(",", ".")
    else:
        digits = digits.replace(",", "")
    return float(digits)


def memory_problems(page: str, language: str) -> list[str]:
    """No row that fits its card reads as needing more than the card holds (one memory unit)."""
    return [f"{card}: needs {html.unescape(need)} of {html.unescape(vram)} and is said to fit"
            for card, vram, need in FIT_MEMORY.findall(page)
            if number(html.unescape(need), language) > number(html.unescape(vram), language)]


def even_at_problems(text: str, language: str, floor: str) -> list[str]:
    """"Even at Q" is true only where Q is the floor (the most compressed allowed quant)."""
    found = re.findall(EVEN_AT[language] + r" (\S+?)[ ,]", text, re.IGNORECASE)
    return [f"'even at {quant}' with the floor at {floor}" for quant in found if quant != floor]


class Checker:
    def __init__(self, site: Path, language: str):
        self.site, self.language = site, language
        self.p = Phrases(language)
        self.f = self.p.fmt
        self.catalogue = load_catalogue()
        self.settings = load_settings()
        self.cards = self.catalogue.cards_by_id
        self.floor = self.settings.min_quality
        machines = sorted((c.name for c in self.catalogue.cards if c.unified), key=len, reverse=True)
        self.machine_name = re.compile("|".join(re.escape(n) for n in machines)) if machines else None
        p = self.p
        # The sentences whose words the checks look for, in the page's language.
        self.smallest_card = self.prefix("The smallest card in our catalogue that holds it is the {small_card}, with "
                                         "{small_memory}. It runs the model at {small_quant} in about {small_need} "
                                         "and produces about {small_tok_s}.")
        self.largest_card = self.prefix("About {miss_need} at {miss_quant}, more than the {miss_usable} usable on the "
                                        "largest card we track ({miss_share} of its {miss_vram}).",
                                        after="{miss_usable}")
        self.table_above = p.gettext("The table above has already checked every device we know against this model. "
                                     "Getting to your answer takes six steps.")
        # Where the language already says "device" in the card's sentence, it names a machine rightly.
        for machine_variant in ("The smallest device in our catalogue that holds it is the {small_card}, with "
                                "{small_memory}. It runs the model at {small_quant} in about {small_need} and "
                                "produces about {small_tok_s}.",):
            if self.prefix(machine_variant) == self.smallest_card:
                self.smallest_card = ""
        if self.prefix("About {miss_need} at {miss_quant}, more than the {miss_usable} usable on the largest device "
                       "we track ({miss_share} of its {miss_vram}).", after="{miss_usable}") == self.largest_card:
            self.largest_card = ""
        only_card, only_device = (p.gettext("It is the only card that can run it."),
                                  p.gettext("It is the only device that can run it."))
        self.only_card = only_card if only_card != only_device else ""
        self.no = p.gettext("No. Even at {quant} {model} needs about {need}, {shortfall} more than the {usable} "
                            "usable on this card ({share} of its {vram}).").split(" ")[0]

    def prefix(self, msgid: str, after: str | None = None, plural: bool = False) -> str:
        """The translated words of a sentence before its first placeholder (or after ``after``)."""
        text = (self.p.catalogue.ngettext(msgid, msgid, 2) if plural else self.p.gettext(msgid))
        if after:
            text = text.split(after, 1)[1]
        return text.split("{", 1)[0].strip()

    # -------------------------------------------------------------- model pages

    def model_page(self, model) -> tuple[list[str], tuple[int, int]]:
        page = page_path(self.site, self.language, "models", model.id).read_text(encoding="utf-8")
        rows = model_rows(page)
        fit = sum(r.fit != "offload" for r in rows)
        offload = len(rows) - fit
        answers = {plain(q): plain(a) for q, a in QA.findall(page)}
        text = plain(page[page.find("<article"):])
        out = even_at_problems(text, self.language, self.floor)
        out += memory_problems(page, self.language)
        if not rows and self.table_above in text:
            out.append("'the table above' over an empty table")
        held = [r for r in rows if r.fit != "offload"]
        if len(held) == 1 and self.cards[held[0].card_id].unified and self.only_card and self.only_card in text:
            out.append(f"a machine called the only card: {self.only_card!r}")
        out += self.tier_problems(model, rows, answers)
        out += self.count_problems(rows, fit, offload, answers, model)
        if self.machine_name:
            for start in (self.smallest_card, self.largest_card):
                at = text.find(start) if start else -1
                if at >= 0 and self.machine_name.search(text[at + len(start): at + len(start) + 90]):
                    out.append(f"a machine called a card: {text[at: at + len(start) + 60]!r}")
        return [f"models/{model.id}: {problem}" for problem in out], (fit, offload)

    def tier_problems(self, model, rows: list[Row], answers: dict[str, str]) -> list[str]:
        """Each "Can I run it on a N GB GPU?" answer names the best row of cards of that memory
        (the first in the table: those that hold it, then those with part in RAM, fastest first)."""
        out = []
        for tier in self.settings.vram_tiers_gb:
            question = plain(str(self.p.t("Can I run {model} on a {tier} GPU?", model=model.name,
                                          tier=self.f.vram(tier))))
            answer = answers.get(question)
            if answer is None:
                continue
            best = next((r for r in rows if self.cards[r.card_id].vram_gb == tier), None)
            if best is None:
                if any(self.cards[r.card_id].vram_gb == tier for r in rows):
                    out.append(f"{question}: no row named")
                continue
            name = self.cards[best.card_id].name
            if name not in answer or best.tok_s not in answer:
                out.append(f"{question}: {answer!r} is not the row {name} {best.tok_s}")
        return out

    def count_problems(self, rows: list[Row], fit: int, offload: int, answers: dict[str, str], model) -> list[str]:
        out = []
        text = " ".join(answers.values())
        if offload and fit:
            # (the count of devices in words where small, its parts in digits)
            said = self.in_words(("In all, {count} device runs it: {fit} entirely, {offload} with part of it in "
                                  "RAM.", "In all, {count} devices run it: {fit} entirely, {offload} with part "
                                  "of it in RAM."), fit + offload, feminine=False, fit=self.f.count(fit),
                                 offload=self.f.count(offload))
            if said not in text:
                out.append(f"no count of both kinds equal to the table ({fit} + {offload})")
        elif 1 < fit < len(self.cards) and not offload:
            said = self.in_words(("In all, {count} device can run it.", "In all, {count} devices can run it."), fit,
                                 feminine=False)
            if said not in text:
                out.append(f"no count equal to the table's {fit} rows")
        reading = sum(self.speed(r.tok_s) >= self.settings.reading_speed_tok_s for r in rows if r.fit != "offload")
        if reading and fit > 1:
            said = self.in_words(("Of the {fit_count} devices that hold it, {count} reaches reading speed, about ten "
                                  "tokens per second.", "Of the {fit_count} devices that hold it, {count} reach "
                                  "reading speed, about ten tokens per second."), reading,
                                 fit_count=self.f.count_words(fit, feminine=True))
            if reading == fit:
                said = plain(str(self.p.t("All {fit_count} devices that hold it reach reading speed, about ten tokens "
                                          "per second.", fit_count=self.f.count_words(fit, feminine=True))))
            if said not in text:
                out.append(f"the reading-speed count is not the {reading} rows shown at {self.f.tok_s(10)} or more")
        return out

    def in_words(self, forms: tuple[str, str], count: int, feminine: bool = True, **others: str) -> str:
        """A count sentence as the model page words it (small counts in words, in the gender of its noun:
        a card's, or a device's with ``feminine=False``); ``others``: the values of its other placeholders."""
        text = self.p.catalogue.ngettext(forms[0], forms[1], count).replace("{count}",
                                                                           self.f.count_words(count, feminine=feminine))
        for name, value in others.items():
            text = text.replace("{" + name + "}", value)
        return plain(text)

    def speed(self, shown: str) -> float:
        """A speed as the table shows it ("10.0 tok/s", "1.234 tok/s"), read back as a number."""
        return float(parse_decimal(shown.split("tok/s")[0].strip().replace("\u202f", "\u00a0"),
                                   locale=self.language))

    # -------------------------------------------------------------- card pages

    def card_page(self, card) -> tuple[list[str], tuple[int, int]]:
        page = page_path(self.site, self.language, "cards", card.id).read_text(encoding="utf-8")
        fit = len(CARD_TABLE_ROW.findall(page))
        offloaded = {model_id: html.unescape(tok_s) for tok_s, model_id in OFFLOAD_ROW.findall(page)}
        text = plain(page[page.find("<article"):])
        out = even_at_problems(text, self.language, self.floor)
        models = self.catalogue.models_by_id
        for question, answer in ((plain(q), plain(a)) for q, a in QA.findall(page)):
            for model_id, tok_s in offloaded.items():
                asked = plain(str(self.p.t("Can the {card} run {model}?", card=card_name(card, self.language),
                                           model=models[model_id].name)))
                if question == asked and (answer.split(" ")[0] == self.no or tok_s not in answer):
                    out.append(f"{question}: {answer[:80]!r} beside the row with part in RAM at {tok_s}")
        misses = page[page.find("tps-misses-table"):]
        for short in re.findall(r'</a></td><td>([^<]+)</td>', misses.split("</table>", 1)[0]):
            if short.startswith(("-", "0,0", "0.0")):
                out.append(f"a shortfall of {short}")
        return [f"cards/{card.id}: {problem}" for problem in out], (fit, len(offloaded))

    # -------------------------------------------------------------- indexes and home

    def both(self, count_phrase: tuple[str, str], fit: int, offload: int) -> str:
        return plain(str(self.p.n(count_phrase, fit + offload, fit=self.f.count(fit), offload=self.f.count(offload))))

    def index_problems(self, model_counts: dict[str, tuple[int, int]],
                       card_counts: dict[str, tuple[int, int]]) -> list[str]:
        out = []
        index = page_path(self.site, self.language, "models").read_text(encoding="utf-8")
        for model_id, value in re.findall(r'<tr><td><a href="([^"/]+)/">.*?<td data-value="[^"]*">[^<]*</td>'
                                          r'<td data-value="[^"]*">[^<]*</td><td data-value="(\d+)">', index):
            if model_id in model_counts and int(value) != sum(model_counts[model_id]):
                out.append(f"models index: {model_id} counts {value}, its table lists {sum(model_counts[model_id])}")
        cards = page_path(self.site, self.language, "cards").read_text(encoding="utf-8")
        for card_id, said in re.findall(r'<a href="([^"/]+)/">[^<]+</a> · [^<·]+ · ([^<]+)</li>', cards):
            if card_id not in card_counts:
                continue
            fit, offload = card_counts[card_id]
            expected = (self.both(("{count} model: {fit} entirely, {offload} with part in RAM",
                                   "{count} models: {fit} entirely, {offload} with part in RAM"), fit, offload)
                        if offload else plain(str(self.p.n(("{count} model", "{count} models"), fit))))
            if plain(said) != expected:
                out.append(f"cards index: {card_id} says {plain(said)!r}, its page lists {fit} + {offload}")
        home = page_path(self.site, self.language).read_text(encoding="utf-8")
        portal = load_portal(self.catalogue)
        for card in (c for c in portal.featured_cards if c.id in card_counts):
            fit, offload = card_counts[card.id]
            if offload and self.both(("runs {count} model: {fit} entirely, {offload} with part in RAM",
                                      "runs {count} models: {fit} entirely, {offload} with part in RAM"),
                                     fit, offload) not in plain(home):
                out.append(f"home: {card.id} not counted as its page lists ({fit} + {offload})")
        for model in (m for m in portal.featured_models if m.id in model_counts):
            fit, offload = model_counts[model.id]
            if offload and fit and self.both(("runs on {count} device: {fit} entirely, {offload} with part in RAM",
                                              "runs on {count} devices: {fit} entirely, {offload} with part in "
                                              "RAM"), fit, offload) not in plain(home):
                out.append(f"home: {model.id} not counted as its page lists ({fit} + {offload})")
        return out

    def run(self) -> list[str]:
        problems: list[str] = []
        model_counts, card_counts = {}, {}
        # A preview build has some pages only (the link check finds a page missing from the whole site).
        for model in self.catalogue.models:
            if page_path(self.site, self.language, "models", model.id).exists():
                found, model_counts[model.id] = self.model_page(model)
                problems += found
        for card in self.catalogue.cards:
            if page_path(self.site, self.language, "cards", card.id).exists():
                found, card_counts[card.id] = self.card_page(card)
                problems += found
        return problems + self.index_problems(model_counts, card_counts)


def verdict_problems(site: Path) -> dict[str, list[str]]:
    """What each language's pages say against their own tables, by "verdicts-<language>"."""
    return {f"verdicts-{language}": Checker(site, language).run() for language in LANGUAGES}
