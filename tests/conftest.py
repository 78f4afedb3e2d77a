from __future__ import annotations

import gc
import os
import shutil
import tempfile
from pathlib import Path
from typing import Callable

import pytest

from tps_atlas.catalogue.load import load_catalogue
from tps_atlas.estimate.settings import load_settings

from tests.support.browser import new_context, serving
from tests.support.paths import ROOT
from tests.support.session import (EARLY_BUILDS, PREVIEW_CARDS, PREVIEW_MODELS, default_estimates, early_builds,
                                   run_tps_atlas, uses)



def pytest_configure(config):
    # The session's builds and tests load the catalogue and score the calibration leaving one
    # device out once, not once each (tps_atlas/cache.py); results are filed under a hash of
    # their inputs, so a folder set beforehand is safe to share.
    from tps_atlas.cache import VARIABLE

    if not os.environ.get(VARIABLE):
        folder = tempfile.mkdtemp(prefix="tps-shared-")
        os.environ[VARIABLE] = folder
        config.add_cleanup(lambda: shutil.rmtree(folder, ignore_errors=True))


# Fixtures that hand a test a build the session started in the background (``early_builds``).
BUILT = frozenset({"site", "full_site", "built_site", "two_sites", "build", "built_bad", "preview",
                   "hostile_server", "whole_site_problems"})


def pytest_collection_modifyitems(items):
    """Tests that read a build go last, each group in its own order: the builds then run on the
    other core beside the tests that need none, instead of being waited for."""
    items.sort(key=lambda item: bool(BUILT & set(getattr(item, "fixturenames", ()))))


@pytest.fixture(scope="session")
def catalogue():
    return load_catalogue()


@pytest.fixture(scope="session")
def settings():
    return load_settings()


@pytest.fixture(scope="session")
def seed(settings):
    return settings.calibration("seed")




@pytest.fixture(scope="session")
def estimates():
    """``default_estimates()``: a ``tps_atlas.pages.figures.EstimateTable`` (``.figures[model_id]``, ``.card_rows``)."""
    return default_estimates()












@pytest.fixture(scope="session")
def builds_pool():
    from tests.support.site_build import ParallelBuilds

    pool = ParallelBuilds()
    yield pool
    pool.close()


SITE_FIXTURES = ("site", "full_site", "built_site")


def _needed_at(items, start: Callable) -> int:
    """Where the first test of a starter's builds comes: builds start in the order tests need them."""
    for index, item in enumerate(items):
        if start.__module__ == __name__:
            if any(name in getattr(item, "fixturenames", ()) for name in SITE_FIXTURES):
                return index
        elif getattr(getattr(item, "module", None), "__name__", None) == start.__module__:
            return index
    return len(items)


# The longest builds start first: the tests that read a build all come last (see
# pytest_collection_modifyitems), so what counts is when the last build is done.
LONGEST_FIRST = ("tests.conftest", "tests.test_determinism", "tests.test_hostile_browser", "tests.test_bad_input")


def _rank(start: Callable) -> int:
    return LONGEST_FIRST.index(start.__module__) if start.__module__ in LONGEST_FIRST else len(LONGEST_FIRST)


@pytest.fixture(scope="session", autouse=True)
def _start_builds(request, builds_pool, tmp_path_factory):
    items = request.session.items
    for start in sorted(EARLY_BUILDS.values(), key=lambda start: (_rank(start), _needed_at(items, start))):
        start(items, builds_pool, tmp_path_factory)
    # What the session keeps to its end (catalogue, estimate tables: millions of objects) is out
    # of the collector's way: every full collection would walk it again, for nothing.
    gc.freeze()


def pytest_terminal_summary(terminalreporter):
    from tests.support.site_build import PUBLISHED_SITE, read_published_site

    if read_published_site():
        terminalreporter.write_line(f"The whole-site tests read {PUBLISHED_SITE}: its stamp from scripts/build holds.")


def pytest_sessionfinish(session):
    gc.freeze()  # pytest collects five times at its end: of the whole heap, now nothing


def _preview_job(folder: Path) -> Callable:
    from tests.support.site_build import build_site

    return lambda: (folder, build_site(folder, calibration="seed",
                                       extra_env={"TPS_PREVIEW": ",".join(PREVIEW_MODELS + PREVIEW_CARDS)}))


def _full_job(folder: Path) -> Callable:
    from tests.support.site_build import published_site
    from tests.support.whole_site import run_checks

    def job():
        site, result = published_site(folder)
        built = result is None or result.returncode == 0
        return site, result, run_checks(site) if built else None
    return job


@early_builds
def _sites(items, pool, tmp_path_factory):
    # Folders are made here, in this thread: tmp_path_factory is not thread-safe.
    if uses(items, "full_site"):
        pool.submit("full_site", _full_job(tmp_path_factory.mktemp("full-site")))
    # The browser tests ask for ``site`` only when no TPS_BROWSER_SITE was built beforehand.
    if uses(items, "site") or (uses(items, "built_site") and not os.environ.get("TPS_BROWSER_SITE")):
        pool.submit("site", _preview_job(tmp_path_factory.mktemp("site")))


@pytest.fixture(scope="session")
def site(builds_pool, tmp_path_factory):
    """A few model and card pages in four languages, built once with the seed calibration."""
    destination, result = builds_pool.get("site", _preview_job(tmp_path_factory.mktemp("site")))
    assert result.returncode == 0, result.stderr[-3000:]
    return destination


@pytest.fixture(scope="session")
def full_site(builds_pool, tmp_path_factory):
    """The whole site (every model and card page) as it is published, for links, the sitemap and
    checks over every page; tests that use it are marked ``full`` (CI runs them in a step of
    their own). It is the site ``scripts/build`` wrote when its stamp holds, else built here."""
    destination, result, _ = builds_pool.get("full_site", _full_job(tmp_path_factory.mktemp("full-site")))
    assert result is None or result.returncode == 0, result.stderr[-3000:]
    return destination


@pytest.fixture(scope="session")
def whole_site_problems(full_site, builds_pool) -> dict[str, list[str]]:
    """What the checks over every page of ``full_site`` found (tests/support/whole_site.py), by check."""
    return builds_pool.get("full_site")[2]


@pytest.fixture(scope="module")
def built_site(request):
    """The preview site (the session's build), or TPS_BROWSER_SITE: a site built beforehand, e.g. a
    preview with the pages the browser tests open, while working on the pages' scripts."""
    prebuilt = os.environ.get("TPS_BROWSER_SITE")
    return Path(prebuilt) if prebuilt else request.getfixturevalue("site")


@pytest.fixture(scope="session")
def axe_script() -> str:
    """axe-core's browser script, from node_modules (package-lock.json; ``bash scripts/test`` runs npm ci)."""
    path = ROOT / "node_modules" / "axe-core" / "axe.min.js"
    if not path.is_file():
        pytest.skip(f"{path} is missing: run `npm ci` (bash scripts/test does)")
    return path.read_text(encoding="utf-8")


@pytest.fixture(scope="module")
def browser():
    """Debian's Chromium, headless, once per browser test module (tests/support/browser.py has its
    path and switches; screenshots go to test-output/)."""
    from playwright import sync_api

    from tests.support.browser import CHROMIUM, CHROMIUM_ARGS, OUTPUT

    OUTPUT.mkdir(exist_ok=True)
    with sync_api.sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        yield chromium
        chromium.close()




@pytest.fixture
def tps_atlas():
    return run_tps_atlas



@pytest.fixture(scope="module")
def server(built_site):
    with serving(built_site) as address:
        yield address


@pytest.fixture
def context(browser, server):
    context = new_context(browser, server)
    yield context
    context.close()


@pytest.fixture(scope="session")
def site_phrases(settings):
    """The phrases a built page of a language uses: memory in the unit of the calibration it was built
    with (default: the site's; GiB under the memory budget), so a figure formatted here is the page's."""
    from tps_atlas.i18n.phrases import Phrases

    return lambda language, calibration=None: Phrases(language, memory=settings.calibration(calibration).memory_unit)


@pytest.fixture(scope="module")
def base_card(catalogue):
    """The real record the page tests' made-up cards start from (tests/support/cards.py)."""
    return catalogue.card("geforce-rtx-4090")
