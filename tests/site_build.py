"""Build the site once per test session, into a temporary folder, and read its pages."""

from __future__ import annotations

import html
import os
import re
import subprocess
import sys
from concurrent.futures import Future, ThreadPoolExecutor
from pathlib import Path
from typing import Callable

ROOT = Path(__file__).resolve().parent.parent


def build_site(destination: Path, calibration: str = "seed",
               extra_env: dict | None = None) -> subprocess.CompletedProcess:
    # The build settings of the environment the tests run in must not change what they read.
    env = {**os.environ, "TPS_CALIBRATION": calibration, "TPS_PREVIEW": "", "SITE_URL": "https://tps-atlas.example.org/",
           "TPS_BUILD_NL": "true", "TPS_BUILD_FR": "true", "TPS_BUILD_DE": "true", "NO_MKDOCS_2_WARNING": "1",
           **(extra_env or {})}
    return subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "--quiet", "-d", str(destination)],
                          cwd=ROOT, env=env, capture_output=True, text=True)


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
    body = re.sub(r"<(script|style)\b.*?</\1>", " ", body, flags=re.S)
    return html.unescape(re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", body)))
