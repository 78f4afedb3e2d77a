"""The feed of each language (``feed.xml``, Atom): the pages whose answer moved since the published
snapshot (``moved.py``: a model that now runs on a device, a speed that moved by more than its range),
then the models most recently added to the catalogue, newest first, each linking to its page in that
language. Pure: the build (tps_atlas/mkdocs/site.py) writes what ``feed_xml`` returns.
"""

from __future__ import annotations

import datetime as dt
from xml.sax.saxutils import escape

from tps_atlas.catalogue.load import Catalogue
from tps_atlas.catalogue.models import Model
from tps_atlas.i18n.names import card_name
from tps_atlas.i18n.phrases import N_, NP_, Phrases
from tps_atlas.pages.moved import Move

ATOM = "http://www.w3.org/2005/Atom"
# Enough to cover a month of additions; a reader's client keeps what it has already seen.
ENTRIES = 50
# TRANSLATORS: the title of the site's news feed, as a feed reader lists it.
TITLE = N_("TPS Atlas: models added to the catalogue")
# TRANSLATORS: one entry of the news feed; {model} is a model's name, {params} its parameter count in
# words, {date} the day it joined the catalogue. Example: "DeepSeek V4 Flash (284 billion parameters)
# is in the catalogue since December 2, 2026: which GPU runs it, and how fast."
ENTRY = N_("{model} ({params} parameters) is in the catalogue since {date}: which GPU runs it, and how fast.")
# TRANSLATORS: a sentence of a news-feed entry about a model page whose answer changed; {device} is a GPU
# or machine (with {device:nom}, {device:dat}... for its article), {speed} a speed with its unit.
# Example: "Now runs on the GeForce RTX 4060: 24 tok/s."
NOW_RUNS = N_("Now runs on the {device}: {speed}.")
# TRANSLATORS: a sentence of a news-feed entry about a model page whose answer changed; {old} and {new}
# are speeds with their unit, {device} as above. Example: "Speed on the GeForce RTX 4090 moved from
# 41 tok/s to 55 tok/s."
SPEED_MOVED = N_("Speed on the {device} moved from {old} to {new}.")
# TRANSLATORS: ends a news-feed entry that names only the first few devices whose answer changed.
MORE_MOVED = NP_("And {count} more device.", "And {count} more devices.")
# How many devices one entry about a moved page names (a new calibration can move hundreds).
MOVES_NAMED = 5


def recently_added(models: tuple[Model, ...], limit: int = ENTRIES) -> list[Model]:
    """Models with an ``added`` date, newest first (then by name), at most ``limit``.

    >>> a = Model("a", "Alpha", "a.yaml", True, 1.0, added=dt.date(2026, 12, 1))
    >>> b = Model("b", "Beta", "b.yaml", True, 1.0, added=dt.date(2026, 12, 2))
    >>> [m.id for m in recently_added((a, b, Model("c", "Gamma", "c.yaml", True, 1.0)))]
    ['b', 'a']
    """
    dated = [m for m in models if m.added]
    return sorted(dated, key=lambda m: (-m.added.toordinal() if m.added else 0, m.name.casefold()))[:limit]


def moved_summary(p: Phrases, moves: list[Move], names: dict[str, str]) -> str:
    """One entry's text: what moved on the first few devices, and how many more. ``names``: device id ->
    its name as sold (with its article in the languages that give one)."""
    f = p.fmt
    said = []
    for m in moves[:MOVES_NAMED]:
        device = card_name(names.get(m.device, m.device), p.language)
        if m.what == "runs" or m.old_tok_s is None:
            said.append(str(p.t(NOW_RUNS, device=device, speed=f.tok_s(m.new_tok_s)).unescape()))
        else:
            said.append(str(p.t(SPEED_MOVED, device=device, old=f.tok_s(m.old_tok_s),
                                new=f.tok_s(m.new_tok_s)).unescape()))
    if len(moves) > MOVES_NAMED:
        said.append(str(p.n(MORE_MOVED, len(moves) - MOVES_NAMED).unescape()))
    return " ".join(said)


def feed_xml(p: Phrases, catalogue: Catalogue, base_url: str, moves: tuple[Move, ...] = (),
             today: dt.date | None = None) -> str:
    """The Atom feed of ``p``'s language; ``base_url`` is that language's root (…/nl/). ``moves`` are
    the answers that moved since the published snapshot, dated ``today`` (the build's date)."""
    f = p.fmt
    models = recently_added(catalogue.models)
    updated = max((m.added for m in models if m.added), default=dt.date(2026, 1, 1))
    if moves and today:
        updated = max(updated, today)
    title = p.gettext(TITLE)
    lines = ['<?xml version="1.0" encoding="utf-8"?>',
             f'<feed xmlns="{ATOM}" xml:lang="{p.language}">',
             f"<title>{escape(title)}</title>",
             f'<link rel="self" href="{escape(base_url)}feed.xml"/>',
             f'<link rel="alternate" href="{escape(base_url)}"/>',
             f"<id>{escape(base_url)}feed.xml</id>",
             f"<updated>{_stamp(updated)}</updated>"]
    by_model: dict[str, list[Move]] = {}
    for move in moves:
        by_model.setdefault(move.model, []).append(move)
    names = {c.id: c.name for c in catalogue.cards}
    for model in catalogue.models:
        if model.id not in by_model:
            continue
        url = f"{base_url}models/{model.id}/"
        day = today or updated
        lines += ["<entry>", f"<title>{escape(model.name)}</title>", f'<link href="{escape(url)}"/>',
                  f"<id>{escape(url)}#moved-{day.isoformat()}</id>", f"<updated>{_stamp(day)}</updated>",
                  f"<summary>{escape(moved_summary(p, by_model[model.id], names))}</summary>", "</entry>"]
    for m in models:
        url = f"{base_url}models/{m.id}/"
        summary = p.t(ENTRY, model=m.name, params=f.words(m.parameters_b * 1e9),
                      date=f.day(m.added)).unescape() if m.added else ""
        lines += ["<entry>", f"<title>{escape(m.name)}</title>", f'<link href="{escape(url)}"/>',
                  f"<id>{escape(url)}</id>", f"<updated>{_stamp(m.added or updated)}</updated>",
                  f"<summary>{escape(summary)}</summary>", "</entry>"]
    lines.append("</feed>")
    return "\n".join(lines) + "\n"


def _stamp(day: dt.date) -> str:
    return f"{day.isoformat()}T00:00:00Z"
