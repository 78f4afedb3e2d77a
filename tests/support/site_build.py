"""Build the site once per test session, into a temporary folder, and read its pages."""

from __future__ import annotations

import html
import os
import re
import subprocess
import sys
import threading
from concurrent.futures import Future, ThreadPoolExecutor
from pathlib import Path
from typing import Callable

from tps_atlas.mkdocs import stamp as site_stamp

from tests.support.paths import ROOT



# The settings a build of the tests starts from: a setting of the environment the tests run in
# must not change what they read.
TEST_SETTINGS = {"TPS_PREVIEW": "", "SITE_URL": "https://tps-atlas.example.org/", "TPS_BUILD_NL": "true",
                 "TPS_BUILD_FR": "true", "TPS_BUILD_DE": "true"}


def build_site(destination: Path, calibration: str = "seed",
               extra_env: dict | None = None) -> subprocess.CompletedProcess:
    return _mkdocs_build(destination, {**os.environ, "TPS_CALIBRATION": calibration, **TEST_SETTINGS,
                                       **(extra_env or {})})


def build_published_site(destination: Path) -> subprocess.CompletedProcess:
    """The whole site as ``scripts/build`` writes it in a shell that sets nothing: every build
    setting unset, so that mkdocs.yml's defaults apply (``PUBLISHED_SETTINGS``)."""
    return _mkdocs_build(destination, {name: value for name, value in os.environ.items()
                                       if name not in site_stamp.SETTINGS})


def _mkdocs_build(destination: Path, env: dict[str, str]) -> subprocess.CompletedProcess:
    """``mkdocs build --strict`` of the repository into ``destination``, in environment ``env``."""
    return subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "--quiet", "-d", str(destination)],
                          cwd=ROOT, env={**env, "NO_MKDOCS_2_WARNING": "1"}, capture_output=True, text=True)


PUBLISHED_SITE = ROOT / "site"
PUBLISHED_SETTINGS: dict[str, str] = {}
_stamp_lock = threading.Lock()
_stamp_holds: list[bool] = []  # worked out once a session: it reads every file of the site


def stamped_published_site() -> Path | None:
    """The site ``scripts/build`` wrote, while its stamp holds (tps_atlas/mkdocs/stamp.py), else None."""
    with _stamp_lock:
        if not _stamp_holds:
            _stamp_holds.append(site_stamp.holds(PUBLISHED_SITE, PUBLISHED_SETTINGS))
    return PUBLISHED_SITE if _stamp_holds[0] else None


def read_published_site() -> bool:
    """Whether this session's whole-site tests read the stamped site (for its summary)."""
    return _stamp_holds == [True]


def published_site(fallback: Path) -> tuple[Path, subprocess.CompletedProcess | None]:
    """The stamped site ``scripts/build`` wrote, else the same site built into ``fallback`` now,
    with the build's result."""
    stamped = stamped_published_site()
    return (stamped, None) if stamped else (fallback, build_published_site(fallback))


class ParallelBuilds:
    """Builds run in the background, a worker per CPU; ``get`` waits for one.

    The session's pool (``conftest.builds_pool``) starts every build the selected tests need
    before the first test, so that they run beside the tests that need no build."""

    def __init__(self):
        # Not one more: the tests themselves are the longest chain (the builds are done before
        # they are needed), so a third build on two cores would only slow the tests down.
        self.pool = ThreadPoolExecutor(max_workers=os.cpu_count() or 1)
        self.futures: dict[str, Future] = {}

    def submit(self, key: str, job: Callable[[], object]) -> None:
        if key not in self.futures:
            self.futures[key] = self.pool.submit(job)

    def get(self, key: str, job: Callable[[], object] | None = None):
        """The result of build ``key``; started now (``job``) if nothing started it."""
        if key not in self.futures and job is not None:
            self.submit(key, job)
        return self.futures[key].result()

    def close(self) -> None:
        self.pool.shutdown(wait=True, cancel_futures=True)


def page_path(site: Path, language: str, *parts: str) -> Path:
    prefix = [] if language == "en" else [language]
    return site.joinpath(*prefix, *parts, "index.html")


def visible_text(page_html: str) -> str:
    """The words a reader sees in the page's content, whitespace folded."""
    start = page_html.find('<article')
    body = page_html[start:] if start >= 0 else page_html
    body = re.sub(r"<[^>]+>", " ", re.sub(r"<(script|style)\b.*?</\1>", " ", body, flags=re.S))
    # Whitespace runs folded to one space (split and join: many times quicker than a pattern).
    folded = " ".join(body.split())
    return html.unescape((" " if body[:1].isspace() else "") + folded + (" " if folded and body[-1:].isspace() else ""))
