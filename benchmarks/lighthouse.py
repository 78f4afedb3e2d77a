"""Lighthouse's mobile scores of one page of each kind, in each language.

    python3 benchmarks/lighthouse.py [--site DIR] [--runs 3] [--only REGEX] [--save DIR] [--check]

Lighthouse (pinned in package.json, installed from package-lock.json by ``npm ci``: ``bash
scripts/test`` does it) drives Debian's Chromium (``CHROME_PATH``, default /usr/bin/chromium)
with its default mobile preset: a Moto G Power's screen, simulated slow 4G and a 4x slower CPU.
Nothing is downloaded while it runs. Without --site it builds a preview (``PAGES``' model and
card pages; the home page and the indexes are the real ones) into a temporary folder.

The site is served on 127.0.0.1 with gzip, as any host of a static site sends it. Each page is
measured --runs times and the median of each figure is printed: performance, accessibility,
best practices and SEO (0-100), LCP (s), CLS and TBT (ms), then each audit that failed in any
run. Lighthouse's simulated throttling scales what the machine itself takes: on a loaded
machine the performance figures are lower and noisier than a phone's would be.

--check exits with status 1 unless every page meets the goals (``GOALS``).
"""

from __future__ import annotations

import argparse
import functools
import gzip
import http.server
import io
import json
import os
import re
import statistics
import subprocess
import sys
import tempfile
import threading
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
LIGHTHOUSE = ROOT / "node_modules" / "lighthouse" / "cli" / "index.js"
LANGUAGES = ("", "nl/", "fr/", "de/")
# One page of each kind: the largest model page (the table with most rows), a typical one, a card.
LARGEST_MODEL, TYPICAL_MODEL, CARD = "llama-3.2-1b", "llama-3.1-8b", "geforce-rtx-4090"
PAGES = ("", f"models/{LARGEST_MODEL}/", f"models/{TYPICAL_MODEL}/", f"cards/{CARD}/", "models/", "cards/",
         "methodology/")
CATEGORIES = ("performance", "accessibility", "best-practices", "seo")
# The goals of issue #29: scores at least, LCP and CLS at most.
GOALS = {"performance": 95, "accessibility": 100, "best-practices": 100, "seo": 100}
MAX_LCP_S, MAX_CLS = 2.0, 0.02
COMPRESSED = {".html", ".css", ".js", ".json", ".svg", ".xml", ".txt"}


@dataclass(frozen=True)
class Run:
    scores: dict[str, int]
    lcp_s: float
    cls: float
    tbt_ms: float
    failed: tuple[str, ...]


class GzipHandler(http.server.SimpleHTTPRequestHandler):
    """Static files, text ones gzipped when the browser accepts it (as a static host does)."""

    def log_message(self, *args):
        pass

    def send_head(self):
        path = Path(self.translate_path(self.path))
        if path.is_dir():
            if not self.path.split("?")[0].endswith("/"):
                return super().send_head()
            path = path / "index.html"
        if path.suffix not in COMPRESSED or "gzip" not in self.headers.get("Accept-Encoding", "") or not path.is_file():
            return super().send_head()
        body = _gzipped(path)
        self.send_response(200)
        self.send_header("Content-Type", self.guess_type(str(path)))
        self.send_header("Content-Encoding", "gzip")
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Cache-Control", "max-age=600")
        self.end_headers()
        return io.BytesIO(body)


@functools.lru_cache(maxsize=512)
def _gzipped(path: Path) -> bytes:
    return gzip.compress(path.read_bytes(), 6)


def build(destination: Path) -> None:
    env = {**os.environ, "TPS_PREVIEW": ",".join((LARGEST_MODEL, TYPICAL_MODEL, CARD)), "NO_MKDOCS_2_WARNING": "1"}
    subprocess.run([sys.executable, "-m", "mkdocs", "build", "--quiet", "-d", str(destination)], cwd=ROOT,
                   env=env, check=True)


def lighthouse(url: str, chrome: str, save: Path | None = None) -> Run:
    result = subprocess.run(
        ["node", str(LIGHTHOUSE), url, "--quiet", "--output=json", "--output-path=stdout",
         "--only-categories=" + ",".join(CATEGORIES),
         "--chrome-flags=--headless=new --no-sandbox --disable-gpu --no-first-run --disable-background-networking"],
        env={**os.environ, "CHROME_PATH": chrome}, capture_output=True, text=True, timeout=300)
    if result.returncode != 0:
        raise SystemExit(f"lighthouse failed on {url}: {result.stderr.strip()[-2000:]}")
    report = json.loads(result.stdout)
    if save:
        save.write_text(result.stdout)
    audits = report["audits"]
    failed = []
    for name in CATEGORIES[1:]:
        for ref in report["categories"][name]["auditRefs"]:
            audit = audits[ref["id"]]
            if ref["weight"] and audit["score"] is not None and audit["score"] < 1:
                failed.append(ref["id"])
    return Run(scores={name: round(100 * (report["categories"][name]["score"] or 0)) for name in CATEGORIES},
               lcp_s=audits["largest-contentful-paint"]["numericValue"] / 1000,
               cls=audits["cumulative-layout-shift"]["numericValue"],
               tbt_ms=audits["total-blocking-time"]["numericValue"], failed=tuple(failed))


def report_path(folder: Path | None, page: str, run: int) -> Path | None:
    """Where --save keeps one run's report: ``models-llama-3.2-1b.1.json`` (the home page: ``home``)."""
    if not folder:
        return None
    folder.mkdir(parents=True, exist_ok=True)
    return folder / f"{page.strip('/').replace('/', '-') or 'home'}.{run + 1}.json"


def meets(scores: dict[str, float], lcp_s: float, cls: float) -> bool:
    return all(scores[name] >= goal for name, goal in GOALS.items()) and lcp_s <= MAX_LCP_S and cls <= MAX_CLS


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--site", type=Path, help="a built site (default: build a preview of the pages measured)")
    parser.add_argument("--runs", type=int, default=3, help="runs per page; the median is printed (default 3)")
    parser.add_argument("--only", default="", help="only the pages whose address (without the leading /) "
                                                   "matches this regular expression, e.g. '^(nl/)?models/'")
    parser.add_argument("--save", type=Path, help="keep each run's Lighthouse report (JSON, with every audit's "
                                                  "diagnostics) in this folder, named after the page and run")
    parser.add_argument("--check", action="store_true", help="exit with status 1 unless every page meets the goals")
    args = parser.parse_args()
    chrome = os.environ.get("CHROME_PATH", "/usr/bin/chromium")
    if not LIGHTHOUSE.is_file():
        print(f"benchmarks/lighthouse.py: {LIGHTHOUSE} is missing; run `npm ci` in {ROOT} (bash scripts/test does)",
              file=sys.stderr)
        return 2
    if not Path(chrome).is_file():
        print(f"benchmarks/lighthouse.py: CHROME_PATH: no browser at {chrome}", file=sys.stderr)
        return 2
    with tempfile.TemporaryDirectory() as tmp:
        site = args.site or Path(tmp) / "site"
        if not args.site:
            build(site)
        httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(GzipHandler, directory=str(site)))
        threading.Thread(target=httpd.serve_forever, daemon=True).start()
        base = f"http://127.0.0.1:{httpd.server_address[1]}/"
        pages = [language + page for language in LANGUAGES for page in PAGES if re.search(args.only, language + page)]
        print(f"Lighthouse mobile preset, median of {args.runs} run(s) per page; load average before: "
              f"{' '.join(f'{x:.1f}' for x in os.getloadavg())}")
        print("| page | perf | a11y | best pr. | SEO | LCP s | CLS | TBT ms | failed audits |")
        print("|---|---|---|---|---|---|---|---|---|")
        all_met = True
        for page in pages:
            runs = [lighthouse(base + page, chrome, report_path(args.save, page, run)) for run in range(args.runs)]
            scores = {name: statistics.median(run.scores[name] for run in runs) for name in CATEGORIES}
            lcp = statistics.median(run.lcp_s for run in runs)
            cls = statistics.median(run.cls for run in runs)
            tbt = statistics.median(run.tbt_ms for run in runs)
            failed = sorted({audit for run in runs for audit in run.failed})
            all_met &= meets(scores, lcp, cls)
            print(f"| /{page} | " + " | ".join(f"{scores[name]:g}" for name in CATEGORIES) +
                  f" | {lcp:.2f} | {cls:.3f} | {tbt:.0f} | {' '.join(failed) or '-'} |", flush=True)
        httpd.shutdown()
    print(f"load average after: {' '.join(f'{x:.1f}' for x in os.getloadavg())}")
    return 1 if args.check and not all_met else 0


if __name__ == "__main__":
    sys.exit(main())
