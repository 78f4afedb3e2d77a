"""The feed of each language (``feed.xml``, Atom): the models most recently added to the catalogue,
newest first, each linking to its page in that language. Pure: the build (tps_atlas/mkdocs/site.py)
writes what ``feed_xml`` returns.
"""

from __future__ import annotations

import datetime as dt
from xml.sax.saxutils import escape

from tps_atlas.catalogue.load import Catalogue
from tps_atlas.catalogue.models import Model
from tps_atlas.i18n.phrases import N_, Phrases

ATOM = "http://www.w3.org/2005/Atom"
# Enough to cover a month of additions; a reader's client keeps what it has already seen.
ENTRIES = 50
# TRANSLATORS: the title of the site's news feed, as a feed reader lists it.
TITLE = N_("TPS Atlas: models added to the catalogue")
# TRANSLATORS: one entry of the news feed; {model} is a model's name, {params} its parameter count in
# words, {date} the day it joined the catalogue. Example: "DeepSeek V4 Flash (284 billion parameters)
# is in the catalogue since December 2, 2026: which GPU runs it, and how fast."
ENTRY = N_("{model} ({params} parameters) is in the catalogue since {date}: which GPU runs it, and how fast.")


def recently_added(models: tuple[Model, ...], limit: int = ENTRIES) -> list[Model]:
    """Models with an ``added`` date, newest first (then by name), at most ``limit``.

    >>> a = Model("a", "Alpha", "a.yaml", True, 1.0, added=dt.date(2026, 12, 1))
    >>> b = Model("b", "Beta", "b.yaml", True, 1.0, added=dt.date(2026, 12, 2))
    >>> [m.id for m in recently_added((a, b, Model("c", "Gamma", "c.yaml", True, 1.0)))]
    ['b', 'a']
    """
    dated = [m for m in models if m.added]
    return sorted(dated, key=lambda m: (-m.added.toordinal() if m.added else 0, m.name.casefold()))[:limit]


def feed_xml(p: Phrases, catalogue: Catalogue, base_url: str) -> str:
    """The Atom feed of ``p``'s language; ``base_url`` is that language's root (…/nl/)."""
    f = p.fmt
    models = recently_added(catalogue.models)
    updated = max((m.added for m in models if m.added), default=dt.date(2026, 1, 1))
    title = p.gettext(TITLE)
    lines = ['<?xml version="1.0" encoding="utf-8"?>',
             f'<feed xmlns="{ATOM}" xml:lang="{p.language}">',
             f"<title>{escape(title)}</title>",
             f'<link rel="self" href="{escape(base_url)}feed.xml"/>',
             f'<link rel="alternate" href="{escape(base_url)}"/>',
             f"<id>{escape(base_url)}feed.xml</id>",
             f"<updated>{_stamp(updated)}</updated>"]
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
