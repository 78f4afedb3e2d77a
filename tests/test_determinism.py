"""Two builds give the same site, byte for byte (issue 7).

The session's preview site (``site`` in tests/conftest.py: ten models and four cards in four
languages, built in the repository with the session's shared cache) is built once more from a
copy of the whole project in another folder, with another hash seed and nothing shared, so that
neither a folder name, a set's order, a cached result nor the clock can creep into a page.
Every file is compared; the sitemap may differ only in its <lastmod> dates.
"""

from __future__ import annotations

import gzip
import os
import re
import sys
from pathlib import Path

import pytest

from tests.support.session import PREVIEW_CARDS, PREVIEW_MODELS, early_builds, uses
from tests.support.project_copy import copy_project, mkdocs_build

pytestmark = pytest.mark.full

LASTMOD = re.compile(rb"<lastmod>[^<]*</lastmod>")
KEY = f"{__name__}:copy"


def comparable(relative: str, data: bytes) -> bytes:
    """The bytes to compare: sitemaps without their dates (and unzipped: gzip stores a time)."""
    if relative.endswith("sitemap.xml.gz"):
        data = gzip.decompress(data)
    if relative.endswith(("sitemap.xml", "sitemap.xml.gz")):
        data = LASTMOD.sub(b"<lastmod></lastmod>", data)
    return data


def files(site: Path) -> dict[str, bytes]:
    return {path.relative_to(site).as_posix(): path.read_bytes() for path in sorted(site.rglob("*")) if path.is_file()}


def first_difference(a: bytes, b: bytes) -> str:
    at = next((i for i, (x, y) in enumerate(zip(a, b, strict=False)) if x != y), min(len(a), len(b)))
    return f"at byte {at}: {a[max(0, at - 60):at + 60]!r} / {b[max(0, at - 60):at + 60]!r}"


def _build_copy(folder: Path):
    def job() -> Path:
        project = copy_project(folder / "project", keep_models=None, card_sample=1)
        site = folder / "site"
        seed = "2" if os.environ.get("PYTHONHASHSEED") == "1" else "1"  # not the session's own
        # It works everything out itself: no score shared through the session's cache.
        result = mkdocs_build(project, site, PYTHONHASHSEED=seed, TPS_SHARED_CACHE="", TPS_CALIBRATION="seed",
                              TPS_PREVIEW=",".join(PREVIEW_MODELS + PREVIEW_CARDS))
        assert result.returncode == 0, (result.stdout + result.stderr)[-3000:]
        return site
    return job


@early_builds
def _start(items, pool, tmp_path_factory):
    """The copy's build starts before the first test, beside the session's own preview build."""
    if uses([item for item in items if getattr(item, "module", None) is sys.modules[__name__]], "two_sites"):
        pool.submit(KEY, _build_copy(tmp_path_factory.mktemp("determinism")))


@pytest.fixture(scope="module")
def two_sites(site, builds_pool, tmp_path_factory):
    return site, builds_pool.get(KEY, _build_copy(tmp_path_factory.mktemp("determinism")))


def test_both_builds_hold_the_preview_pages(two_sites):
    for built in two_sites:
        models = sorted(p.parent.name for p in (built / "models").glob("*/index.html"))
        assert models == sorted(PREVIEW_MODELS)
        assert (built / "nl" / "cards" / "geforce-rtx-4090" / "index.html").is_file()


def test_two_builds_write_the_same_files(two_sites):
    first, second = (files(site) for site in two_sites)
    assert sorted(first) == sorted(second)
    assert len(first) > 100


def test_two_builds_are_byte_identical_but_for_sitemap_dates(two_sites):
    first, second = (files(site) for site in two_sites)
    differences = []
    for relative in sorted(set(first) & set(second)):
        a, b = comparable(relative, first[relative]), comparable(relative, second[relative])
        if a != b:
            differences.append(f"{relative} {first_difference(a, b)}")
    assert not differences, f"{len(differences)} file(s) differ:\n" + "\n".join(differences[:10])
