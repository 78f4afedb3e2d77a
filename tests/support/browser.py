"""Chromium and a local server for the browser tests, and how they read a page."""

from __future__ import annotations

import contextlib
import functools
import http.server
import re
import sys
import threading
from pathlib import Path
from typing import Callable

import pytest

from tests.support.paths import ROOT
from tests.support.session import early_builds, uses


sync_api = pytest.importorskip("playwright.sync_api", reason="playwright is not installed (pip install -e '.[test]')")

CHROMIUM = Path("/usr/bin/chromium")

CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run"]

OUTPUT = ROOT / "test-output"

MODEL = "glm-4.1v-thinking"

class QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args):
        pass

class LocalServer(http.server.ThreadingHTTPServer):
    daemon_threads = True

    def handle_error(self, request, client_address):
        # A page closed while it was loading leaves a broken pipe: not an error of the site.
        if not isinstance(sys.exc_info()[1], ConnectionError):
            super().handle_error(request, client_address)

@contextlib.contextmanager
def serving(site: Path):
    """A built site over HTTP on 127.0.0.1, from a thread; yields its address."""
    httpd = LocalServer(("127.0.0.1", 0), functools.partial(QuietHandler, directory=str(site)))
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{httpd.server_address[1]}/"
    finally:
        httpd.shutdown()
        httpd.server_close()
        thread.join(timeout=10)

def served_build(module: str, fixture: str, job: Callable[[Path], Callable], folder: str):
    """A test module's own site: built in the background from the session's start (``early_builds``)
    when one of the module's tests asks for ``fixture``, then served for the module. ``job(folder)``
    returns the build (a callable giving the site and the finished process); the module assigns the
    returned fixture to the name ``fixture``."""
    def start(items, pool, tmp_path_factory):
        if uses([item for item in items if getattr(item, "module", None) is sys.modules[module]], fixture):
            pool.submit(f"{module}:site", job(tmp_path_factory.mktemp(folder)))

    start.__module__ = module
    early_builds(start)

    @pytest.fixture(scope="module", name=fixture)
    def server(builds_pool, tmp_path_factory):
        site, result = builds_pool.get(f"{module}:site", job(tmp_path_factory.mktemp(folder)))
        assert result.returncode == 0, (result.stdout + result.stderr)[-3000:]
        with serving(site) as address:
            yield address

    return server

def new_context(browser, server, **options):
    context = browser.new_context(**{"viewport": {"width": 1280, "height": 1000}, **options})
    # Only the local site: no web fonts or anything else from outside.
    context.route("**/*", lambda route: route.continue_() if route.request.url.startswith(server)
                  else route.abort())
    return context

def open_page(context, url: str, errors: list | None = None):
    page = context.new_page()
    if errors is not None:
        page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(url)
    page.wait_for_selector("form.tps-inputs[data-state=ready]", state="attached", timeout=20000)
    return page

def table_rows(page) -> list[dict]:
    """The card table as shown: one dict per visible row."""
    return page.eval_on_selector_all("table.tps-table tbody tr[data-card]", """rows => rows
        .filter(row => !row.hidden).map(row => ({
        card: row.dataset.card, name: row.cells[2].querySelector('a').textContent,
        href: row.cells[2].querySelector('a').getAttribute('href'),
        speed: row.cells[1].textContent, need: row.cells[4].textContent, quant: row.cells[5].textContent,
        fit_key: row.cells[0].className, fit: row.cells[0].textContent}))""")

def address(page) -> str:
    """The page's address once the calculator has recorded the view (250 ms after the last change;
    timers run in order, so one set later for longer runs after it)."""
    return page.evaluate("() => new Promise(done => setTimeout(() => done(location.href), 300))")

def show_all(page) -> None:
    """Press the long table's "show all" button, if it has one."""
    button = page.locator(".tps-more:not([hidden]) button")
    if button.count():
        button.click()
        # Rows kept hidden are shown at once; a table drawn anew comes a moment later, with the button
        # gone. Give that moment on a loaded machine (the assertions that follow say what is wrong).
        with contextlib.suppress(sync_api.TimeoutError):
            page.locator(".tps-more:not([hidden]) button").wait_for(state="detached", timeout=5000)

def row_of(page, card_id: str) -> dict | None:
    """A card's row in the model page's table as built (shown or kept for "show all"), or None
    when the table does not list it (the card cannot run the model)."""
    show_all(page)
    selector = f'table.tps-table tbody tr[data-card="{card_id}"]'
    if not page.locator(selector).count():
        # On a loaded machine a first "show all" can be lost while the calculator redraws: press it
        # again if it is still there, and give the row a moment before saying the table leaves it out.
        show_all(page)
        with contextlib.suppress(sync_api.TimeoutError):
            page.wait_for_selector(selector, state="attached", timeout=5000)
    return page.evaluate("""card => {
        const row = document.querySelector(`table.tps-table tbody tr[data-card="${card}"]`);
        if (!row) return null;
        const speed = row.cells[1];
        return { fit_key: row.cells[0].className.replace('tps-fit-', ''),
                 tok_s: speed.firstChild.nodeType === 3 ? speed.firstChild.textContent.trim() : '',
                 range: (speed.querySelector('small:not(.tps-offload):not(.tps-measured)') || {}).textContent || '',
                 where: (speed.querySelector('.tps-offload') || {}).textContent || '',
                 need: row.cells[4].textContent, quant: row.cells[5].textContent };
    }""", card_id)

def answer_kind(page) -> dict:
    """What the answer box says, as classes: its verdict and, where it fits, how well."""
    page.wait_for_selector(".tps-mydevice .tps-answer-main", timeout=20000)
    return page.evaluate("""() => {
        const box = document.querySelector('.tps-mydevice');
        const main = box.querySelector('.tps-answer-main');
        const fit = box.querySelector('[class^="tps-fit-"]');
        return { kind: main.className.replace('tps-answer-main tps-answer-', ''),
                 fit: fit ? fit.className.replace('tps-fit-', '') : null,
                 command: (box.querySelector('code.tps-command') || {}).textContent || '' };
    }""")

def assert_answer_says_the_row(page, card_id: str) -> dict | None:
    """The answer box says what the card's row of the same page says: the same verdict, quant,
    speed and range (a card the table leaves out cannot run it alone nor with offload)."""
    row, said = row_of(page, card_id), answer_kind(page)
    text = plain(answer_text(page))
    if row is None:
        assert said["kind"] in ("no", "multi"), (said, text)
        return None
    if row["fit_key"] == "offload":
        assert said["kind"] == "offload" and said["fit"] == "offload", (said, text)
    else:
        assert said == {**said, "kind": "yes", "fit": row["fit_key"]}, (said, row, text)
    range_text = plain(row["range"]).replace(" ", "")
    assert plain(row["tok_s"]) in text and row["quant"] in text and range_text in text.replace(" ", ""), (row, text)
    return row

def plain(text: str) -> str:
    return re.sub(r"\s+", " ", text.replace("\u202f", " ").replace("\xa0", " ")).strip()

def answer_text(page) -> str:
    page.wait_for_selector(".tps-mydevice .tps-answer-main", timeout=20000)
    return page.inner_text(".tps-mydevice .tps-answer-main")
