"""A stamp that says what a built site was built from, so that it need not be built again.

``scripts/build`` stamps the site it writes. The whole-site tests read that site instead of
building their own (about two minutes here) when its stamp still holds: the same sources
(``data/``, ``locales/``, ``tps_atlas/``, the pages and templates), the same build settings, the
same Python and packages, and not one file of the site changed since. Anything else, and they
build it themselves, so a stale site is never what they check.

Usage: ``python3 -m tps_atlas.mkdocs.stamp SITE_DIR`` (after a successful ``mkdocs build``).
"""

from __future__ import annotations

import hashlib
import importlib.metadata
import json
import os
import re
import sys
import tomllib
from collections.abc import Mapping
from pathlib import Path

from tps_atlas.paths import ROOT

SOURCES = ("mkdocs.yml", "babel.cfg", "docs", "overrides", "data", "locales", "tps_atlas")
# The environment variables that change what a build writes (mkdocs.yml and tps_atlas/mkdocs/site.py read them).
SETTINGS = ("SITE_URL", "TPS_PREVIEW", "TPS_CALIBRATION", "TPS_BUILD_NL", "TPS_BUILD_FR", "TPS_BUILD_DE")
STAMP = ROOT / ".cache" / "site-stamp.json"
PYPROJECT = ROOT / "pyproject.toml"


def _files(folder: Path) -> list[Path]:
    return sorted(path for path in folder.rglob("*")
                  if path.is_file() and "__pycache__" not in path.parts and path.suffix != ".mo")


def _digest_files(digest, folder: Path, base: Path) -> None:
    for path in _files(folder):
        digest.update(path.relative_to(base).as_posix().encode() + b"\0" + path.read_bytes() + b"\0")


def sources_digest(environ: Mapping[str, str]) -> str:
    """What a build's output follows from: sources, the settings in ``environ``, Python and packages."""
    digest = hashlib.sha256()
    for part in SOURCES:
        path = ROOT / part
        if path.is_dir():
            _digest_files(digest, path, ROOT)
        elif path.is_file():
            digest.update(part.encode() + b"\0" + path.read_bytes() + b"\0")
    digest.update(json.dumps({name: environ.get(name) for name in SETTINGS}).encode())
    digest.update("\n".join([sys.version, *build_packages()]).encode())
    return digest.hexdigest()


def build_packages() -> list[str]:
    """The packages a build runs on: pyproject.toml's dependencies and theirs, with versions
    ("mkdocs==1.6.1"). Test packages installed after the build change none of them.

    >>> any(package.startswith("mkdocs-material==") for package in build_packages())
    True
    """
    project = tomllib.loads(PYPROJECT.read_text(encoding="utf-8"))["project"]
    wanted, found = list(project["dependencies"]), {}
    while wanted:
        requirement, _, marker = wanted.pop().partition(";")
        name = re.match(r"[A-Za-z0-9][A-Za-z0-9._-]*", requirement.strip())
        key = name.group().lower().replace("_", "-").replace(".", "-") if name else ""
        if not key or key in found or "extra" in marker:
            continue
        try:
            dist = importlib.metadata.distribution(key)
        except importlib.metadata.PackageNotFoundError:
            continue
        found[key] = dist.version
        wanted += dist.requires or []
    return sorted(f"{key}=={version}" for key, version in found.items())


def site_digest(site: Path) -> str:
    digest = hashlib.sha256()
    _digest_files(digest, site, site)
    return digest.hexdigest()


def stamp(site: Path, environ: Mapping[str, str], stamp_file: Path = STAMP) -> None:
    """Record that ``site`` was just built from the sources as they are, with ``environ``'s settings."""
    stamp_file.parent.mkdir(parents=True, exist_ok=True)
    record = {"site": str(site.resolve()), "sources": sources_digest(environ), "files": site_digest(site)}
    part = stamp_file.with_suffix(".part")
    part.write_text(json.dumps(record, indent=1) + "\n", encoding="utf-8")
    os.replace(part, stamp_file)


def holds(site: Path, environ: Mapping[str, str], stamp_file: Path = STAMP) -> bool:
    """Whether ``site`` is what a build with ``environ``'s settings would write from the sources now.

    >>> holds(Path("/nonexistent"), {}, Path("/nonexistent/stamp.json"))
    False
    """
    try:
        record = json.loads(stamp_file.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return False
    return (isinstance(record, dict) and site.is_dir() and record.get("site") == str(site.resolve())
            and record.get("sources") == sources_digest(environ) and record.get("files") == site_digest(site))


def main(arguments: list[str]) -> int:
    if len(arguments) != 1 or not Path(arguments[0]).is_dir():
        print("usage: python3 -m tps_atlas.mkdocs.stamp SITE_DIR (a folder mkdocs build has just written)",
              file=sys.stderr)
        return 2
    stamp(Path(arguments[0]), os.environ)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
