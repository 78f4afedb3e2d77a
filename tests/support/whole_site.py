"""Checks over every page of the whole site: links, English left on translated pages, prose.

They read a few hundred megabytes of HTML, so the session runs them in a process of their own
as soon as the whole site is there (``run_checks``), beside the tests that need no build; the
tests (marked ``full``) then only look at the problems found. ``python3 -m tests.whole_site SITE
links`` (or ``pages``) prints one part's.
"""

from __future__ import annotations

import functools
import gc
import json
import posixpath
import re
import subprocess
import sys
from html import unescape
from pathlib import Path
from urllib.parse import unquote, urlsplit

from tps_atlas.catalogue.load import load_catalogue

from tests.support.paths import ROOT
from tests.support.site_build import page_path, visible_text

TRANSLATED = ("nl", "fr", "de")
ENGLISH_MONTHS = ("January", "February", "March", "April", "June", "July", "August",
                  "September", "October", "November", "December")


# Every href and src, however its value is quoted (attribute names in lower case, as every
# template writes them). Text cannot fake one: an escaped quote (href=&quot;...) does not match,
# and the value is unescaped as a browser would.
LINK = re.compile(r"""\s(?:href|src)\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'=<>`]+))""")


def links_of(html: str) -> set[str]:
    """The link targets of a page, as a browser reads them.

    >>> sorted(links_of('<a href="../a/">x</a> <img src=b.png>' + "<a href='c?x=1&amp;y=2'>"))
    ['../a/', 'b.png', 'c?x=1&y=2']
    >>> links_of('<p>href=&quot;nowhere&quot;</p> <a href="">')
    set()
    """
    if html.count("href=") + html.count("src=") == html.count(' href="') + html.count(' src="'):
        # Every one written as the templates write them: splitting is quicker than the pattern.
        values = {part[:part.find('"')] for attribute in (' href="', ' src="')
                  for part in html.split(attribute)[1:]}
    else:
        values = {value for match in LINK.finditer(html) for value in match.groups()}
    return {unescape(value) if "&" in value else value for value in values if value}


def target_of(page: str, link: str, folders: set[str]) -> str | None:
    """The file, relative to the site, that a link on ``page`` (relative to the site) opens;
    None for a link that leaves the site or stays on the page.

    >>> target_of("nl/models/x/index.html", "../../cards/y/#fit", {"nl/cards/y"})
    'nl/cards/y/index.html'
    >>> target_of("index.html", "assets/tps.css", set()), target_of("index.html", "https://a.b/", set())
    ('assets/tps.css', None)
    """
    return _target(*_climbed(_folders_above(page), link), frozenset(folders))


def _folders_above(page: str) -> list[str]:
    """The page's folder, its parent, ... up to the site's root ("")."""
    names = page.split("/")[:-1]
    return ["/".join(names[:len(names) - up]) for up in range(len(names) + 1)]


@functools.lru_cache(maxsize=None)
def _leading_ups(link: str) -> int:
    up = 0
    while link.startswith("../", 3 * up):
        up += 1
    return up


def _climbed(above: list[str], link: str) -> tuple[str, str]:
    """The folder and link that open the same file with no "../" in front: sibling pages then
    ask the same question ("nl/cards/a" and "nl/cards/b" both go to "nl" for "../../models/x/")."""
    up = min(_leading_ups(link), len(above) - 1)
    return above[up], link[3 * up:]


def _target(folder: str, link: str, folders: frozenset[str]) -> str | None:
    parts = urlsplit(link)
    if parts.scheme or parts.netloc or link.startswith(("#", "mailto:", "data:")):
        return None
    path = unquote(parts.path)
    if not path:
        return None
    target = posixpath.normpath(path.lstrip("/") if path.startswith("/") else posixpath.join(folder, path))
    if path.endswith("/") or target in folders or target == ".":
        return posixpath.normpath(posixpath.join(target, "index.html"))
    return target


def _entries(site: Path) -> list[tuple[str, bool]]:
    """Every file and folder of the site (relative to it), and whether it is a file."""
    return [(path.relative_to(site).as_posix(), path.is_file()) for path in site.rglob("*")]


def broken_links(site: Path, entries: list[tuple[str, bool]] | None = None) -> list[str]:
    """Every internal link of the site's pages whose file is missing, as "page -> link"."""
    entries = _entries(site) if entries is None else entries
    files = {name for name, is_file in entries if is_file}
    folders = frozenset(name for name, is_file in entries if not is_file)
    broken = []
    # A million links, a few thousand different targets: each worked out once.
    targets: dict[tuple[str, str], str | None] = {}
    for page in (name for name in files if name.endswith(".html")):
        above = _folders_above(page)
        for link in links_of((site / page).read_text(encoding="utf-8")):
            key = _climbed(above, link)
            target = targets[key] if key in targets else targets.setdefault(key, _target(*key, folders))
            if target is not None and target not in files:
                broken.append(f"{page} -> {link}")
    return sorted(broken)


def english_leftovers(site: Path, language: str) -> list[str]:
    """Translated model pages: no English month, no stray "..", no unfilled {placeholder}."""
    from babel import Locale

    own_months = set(Locale.parse(language).months["format"]["wide"].values())
    foreign = [m for m in ENGLISH_MONTHS if m not in own_months]  # German also says "April"
    english_month = re.compile(rf"\b(?:{'|'.join(foreign)})\b")
    problems = []
    for model in load_catalogue().models:
        text = visible_text(page_path(site, language, "models", model.id).read_text(encoding="utf-8"))
        # The pattern only where a month's letters are there at all: searching for it is slow.
        found = english_month.search(text) if any(month in text for month in foreign) else None
        problems += [f"models/{model.id}: English month {found.group()}"] if found else []
        problems += [f"models/{model.id}: '..'"] if ".." in text else []
        found = re.search(r"\{\w+\}", text)
        problems += [f"models/{model.id}: placeholder {found.group()}"] if found else []
    return problems


def link_problems(site: Path) -> dict[str, list[str]]:
    entries = _entries(site)
    pages = sum(is_file and name.endswith(".html") for name, is_file in entries)
    return {"links": broken_links(site, entries), "pages": [] if pages > 3000 else [f"only {pages} pages"]}


def page_problems(site: Path) -> dict[str, list[str]]:
    from tests.support.prose import site_problems

    found = {}
    for language in TRANSLATED:
        found[f"english-{language}"] = english_leftovers(site, language)
        found[f"prose-{language}"] = site_problems(site, language)
    return found


def verdicts(site: Path) -> dict[str, list[str]]:
    from tests.support.whole_site_verdicts import verdict_problems

    return verdict_problems(site)


# Each part in a process of its own, at the same time: two cores read the site in half the time.
PARTS = {"links": link_problems, "pages": page_problems, "verdicts": verdicts}


def run_checks(site: Path) -> dict[str, list[str]]:
    """Every check, by name ("links", "pages", "english-<language>", "prose-<language>",
    "verdicts-<language>"), found by
    processes of their own: the tests' process has its own work meanwhile (the session starts
    this beside the tests, see tests/conftest.py)."""
    processes = [subprocess.Popen([sys.executable, "-m", "tests.support.whole_site", str(site), part], cwd=ROOT,
                                  stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True) for part in PARTS]
    found: dict[str, list[str]] = {}
    for process in processes:
        out, err = process.communicate()
        if process.returncode != 0:
            raise RuntimeError(err[-3000:])
        found.update(json.loads(out))
    return found


if __name__ == "__main__":
    gc.disable()  # short-lived, and what it reads holds no cycles: nothing for the collector to do
    print(json.dumps(PARTS[sys.argv[2]](Path(sys.argv[1]))))
