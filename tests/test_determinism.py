"""Two clean builds give the same site, byte for byte (issue 7).

Two copies of the project (three models, a sample of the cards: see test_bad_input.py)
in different folders are built at the same time, with different hash seeds, so that
neither a folder name, a set's order nor the clock can creep into a page. Every file is
compared; the sitemap may differ only in its <lastmod> dates.
"""

from __future__ import annotations

import gzip
import re
import sys
from pathlib import Path

import pytest

from .conftest import early_builds, uses
from .project_copy import copy_project, mkdocs_build

pytestmark = pytest.mark.full

LASTMOD = re.compile(rb"<lastmod>[^<]*</lastmod>")


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


def _build(seed: str, folder: Path):
    def job() -> Path:
        project = copy_project(folder / f"project-{seed}")
        site = folder / "site"
        # Each works everything out itself: no score shared through the session's cache.
        result = mkdocs_build(project, site, PYTHONHASHSEED=seed, TPS_SHARED_CACHE="")
        assert result.returncode == 0, (result.stdout + result.stderr)[-3000:]
        return site
    return job


@early_builds
def _start(items, pool, tmp_path_factory):
    """Both builds start before the first test, at the same time, in different folders."""
    if uses([item for item in items if getattr(item, "module", None) is sys.modules[__name__]], "two_sites"):
        for seed in ("1", "2"):
            pool.submit(f"{__name__}:{seed}", _build(seed, tmp_path_factory.mktemp(f"determinism-{seed}")))


@pytest.fixture(scope="module")
def two_sites(builds_pool, tmp_path_factory):
    return tuple(builds_pool.get(f"{__name__}:{seed}", _build(seed, tmp_path_factory.mktemp(f"determinism-{seed}")))
                 for seed in ("1", "2"))


def test_the_copies_build_their_own_small_catalogue(two_sites):
    first, _ = two_sites
    models = sorted(p.parent.name for p in (first / "models").glob("*/index.html"))
    assert models == ["glm-130b", "glm-4.5", "llama-3.1-8b"]  # the copy's data, not the repository's


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
