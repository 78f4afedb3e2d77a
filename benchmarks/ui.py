"""How fast the largest model page answers an input, and how much a model page downloads first.

    python3 benchmarks/ui.py [--site DIR] [--changes 10]

Without --site it builds a one-model preview (llama-3.2-1b, the table with the most rows, English
only) into a temporary folder. It serves the site on 127.0.0.1, opens the page in Debian's Chromium
(Playwright) and prints:

- input to paint: from a change of the context field (the input event) to the next frame painted
  after the page updated, median of ``--changes`` different values;
- bytes the page transfers before any interaction (HTML, CSS, scripts, the calculator's data), as
  served (no compression) and as gzip would send them.
"""

from __future__ import annotations

import argparse
import functools
import gzip
import http.server
import os
import statistics
import subprocess
import sys
import tempfile
import threading
from pathlib import Path
from urllib.parse import urlparse

ROOT = Path(__file__).resolve().parent.parent
MODEL = "llama-3.2-1b"
CHROMIUM = "/usr/bin/chromium"


def input_to_paint(page, changes: int = 10) -> list[float]:
    """Milliseconds from each context change to the next paint, measured in the page."""
    return page.evaluate("""async changes => {
        const field = document.querySelector('input[name=context]'), times = [];
        const painted = () => new Promise(done => requestAnimationFrame(() => setTimeout(done, 0)));
        await painted();
        for (let i = 1; i <= changes; i++) {
            field.value = String(4096 + 1024 * i);
            const started = performance.now();
            field.dispatchEvent(new Event('input', {bubbles: true}));
            field.dispatchEvent(new Event('change', {bubbles: true}));
            await painted();
            times.push(performance.now() - started);
        }
        return times; }""", changes)


class QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args):
        pass


def build(destination: Path) -> None:
    env = {**os.environ, "TPS_PREVIEW": MODEL, "TPS_BUILD_NL": "false", "TPS_BUILD_FR": "false",
           "TPS_BUILD_DE": "false", "NO_MKDOCS_2_WARNING": "1"}
    subprocess.run([sys.executable, "-m", "mkdocs", "build", "--quiet", "-d", str(destination)], cwd=ROOT,
                   env=env, check=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--site", type=Path, help="a built site (default: build a preview of the largest page)")
    parser.add_argument("--changes", type=int, default=10)
    args = parser.parse_args()
    from playwright.sync_api import sync_playwright

    with tempfile.TemporaryDirectory() as tmp:
        site = args.site or Path(tmp) / "site"
        if not args.site:
            build(site)
        httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(QuietHandler, directory=str(site)))
        threading.Thread(target=httpd.serve_forever, daemon=True).start()
        base = f"http://127.0.0.1:{httpd.server_address[1]}/"
        requested: list[str] = []
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=CHROMIUM, args=["--headless", "--no-sandbox"])
            context = browser.new_context(viewport={"width": 390, "height": 844})
            context.route("**/*", lambda route: route.continue_() if route.request.url.startswith(base)
                          else route.abort())
            page = context.new_page()
            page.on("request", lambda request: requested.append(request.url))
            page.goto(f"{base}models/{MODEL}/")
            page.wait_for_selector("form.tps-inputs[data-state=ready]", state="attached")
            page.wait_for_load_state("networkidle")
            loaded = list(requested)
            times = input_to_paint(page, args.changes)
            handler = page.evaluate("() => window.tpsCalculator.last.total_ms")
            rows = page.evaluate("() => [window.tpsCalculator.last.shown, window.tpsCalculator.last.rows]")
            browser.close()
        httpd.shutdown()
        raw = packed = 0
        for url in loaded:
            path = site / urlparse(url).path.lstrip("/")
            if path.is_dir():
                path = path / "index.html"
            if path.is_file():
                data = path.read_bytes()
                raw += len(data)
                packed += len(gzip.compress(data, 6))
    print(f"input to paint on /models/{MODEL}/ ({rows[0]} of {rows[1]} rows drawn): median "
          f"{statistics.median(times):.1f} ms over {len(times)} changes (min {min(times):.1f}, max {max(times):.1f}); "
          f"the last update's own work {handler:.1f} ms")
    print(f"transferred before interaction: {len(loaded)} requests, {raw / 1024:.0f} KiB as served, "
          f"{packed / 1024:.0f} KiB gzipped")
    for url in loaded:
        print("  " + url.replace(base, "/"))


if __name__ == "__main__":
    main()
