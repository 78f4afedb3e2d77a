"""The built site in a real browser: Debian's Chromium, driven by Playwright, on a local server.

The calculator recomputes a model page as its inputs change, the address records the
view, the material search of a translated page finds that language's pages, and a page
reads fully without JavaScript. Screenshots of each state go to test-output/.
"""

from __future__ import annotations

import functools
import http.server
import json
import re
import statistics
import sys
import threading
from pathlib import Path

import pytest

from macros.phrases import LANGUAGES, Phrases

from .conftest import ROOT

sync_api = pytest.importorskip("playwright.sync_api", reason="playwright is not installed (pip install -e '.[test]')")

CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run"]
OUTPUT = ROOT / "test-output"
MODEL = "glm-4.1v-thinking"

pytestmark = [pytest.mark.browser,
              pytest.mark.skipif(not CHROMIUM.exists(), reason="Debian's chromium is not installed (scripts/test)")]


class QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args):
        pass


class LocalServer(http.server.ThreadingHTTPServer):
    daemon_threads = True

    def handle_error(self, request, client_address):
        # A page closed while it was loading leaves a broken pipe: not an error of the site.
        if not isinstance(sys.exc_info()[1], ConnectionError):
            super().handle_error(request, client_address)


@pytest.fixture(scope="module")
def server(site):
    """The built site over HTTP on 127.0.0.1, from a thread."""
    httpd = LocalServer(("127.0.0.1", 0), functools.partial(QuietHandler, directory=str(site)))
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{httpd.server_address[1]}/"
    httpd.shutdown()
    httpd.server_close()
    thread.join(timeout=10)


@pytest.fixture(scope="module")
def browser():
    OUTPUT.mkdir(exist_ok=True)
    with sync_api.sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        yield chromium
        chromium.close()


def new_context(browser, server, **options):
    context = browser.new_context(**{"viewport": {"width": 1280, "height": 1000}, **options})
    # Only the local site: no web fonts or anything else from outside.
    context.route("**/*", lambda route: route.continue_() if route.request.url.startswith(server)
                  else route.abort())
    return context


@pytest.fixture
def context(browser, server):
    context = new_context(browser, server)
    yield context
    context.close()


def open_page(context, url: str, errors: list | None = None):
    page = context.new_page()
    if errors is not None:
        page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(url)
    page.wait_for_selector("form.tps-inputs[data-state=ready]", state="attached", timeout=20000)
    return page


def table_rows(page) -> list[dict]:
    """The card table as shown: one dict per visible row."""
    return page.eval_on_selector_all("table.tps-table tbody tr", """rows => rows.map(row => ({
        card: row.dataset.card, name: row.cells[1].querySelector('a').textContent,
        href: row.cells[1].querySelector('a').getAttribute('href'),
        speed: row.cells[0].textContent, need: row.cells[5].textContent, quant: row.cells[6].textContent,
        fit_key: row.cells[7].className, fit: row.cells[7].textContent}))""")


def built_rows_total(page) -> list:
    """Every card of the catalogue, as the calculator's data lists them."""
    return page.evaluate("() => window.tpsCalculator.data.cards.map(c => c.id)")


def tiles(page) -> list[str]:
    return page.eval_on_selector_all(".tps-tiles .tps-tile-main", "els => els.map(e => e.textContent)")


def gb(text: str) -> float:
    return float(re.sub(r"[^\d.]", "", text.replace(",", "")))


def screenshot(page, name: str) -> None:
    page.evaluate("() => { document.getElementById('figures').scrollIntoView(); window.scrollBy(0, -60); }")
    page.screenshot(path=str(OUTPUT / name))


def recompute_times(page, runs: int = 15) -> list[float]:
    """Milliseconds to recompute every card and redraw the table and tiles, timed in the page."""
    return page.evaluate("""runs => {
        const times = [];
        for (let i = 0; i < runs; i++) {
            const started = performance.now();
            window.tpsCalculator.update(true);  // recompute, not a cached answer
            times.push(performance.now() - started);
        }
        return times;
    }""", runs)


def test_calculator_recomputes_the_card_table(context, server):
    errors: list[str] = []
    page = open_page(context, f"{server}models/{MODEL}/", errors)
    fit_label = {key: Phrases("en").gettext(text) for key, text in
                 (("comfortable", "Comfortable"), ("tight", "Tight"), ("none", "Does not fit"))}
    built = table_rows(page)
    built_html = page.inner_html("table.tps-table tbody")
    built_fit = int(tiles(page)[0].replace(",", ""))
    assert len(built) == built_fit > 100
    need_built = {r["card"]: gb(r["need"]) for r in built}

    # The default inputs recomputed in the browser give the built table, to the byte.
    times = recompute_times(page)
    assert page.inner_html("table.tps-table tbody") == built_html
    # The estimator alone, on every card of the catalogue, with a context not computed before.
    compute = page.evaluate("""model => { const calc = window.tpsCalculator, times = [];
        for (let i = 1; i <= 15; i++) {
            const started = performance.now();
            calc.modelFigures(calc.data, model, {context: 4096 + i});
            times.push(performance.now() - started);
        }
        return times; }""", MODEL)
    cards = page.evaluate("() => window.tpsCalculator.data.cards.length")
    report = (f"recompute all {cards} cards and redraw the tiles and {len(built)} rows: median "
              f"{statistics.median(times):.1f} ms (min {min(times):.1f}, max {max(times):.1f}, {len(times)} runs); "
              f"estimator alone: median {statistics.median(compute):.1f} ms (min {min(compute):.1f}, "
              f"max {max(compute):.1f})")
    print("\n" + report)
    (OUTPUT / "recompute-time.txt").write_text(report + "\n", encoding="utf-8")

    # A long context: fewer cards fit, and every card needs more memory.
    page.fill("input[name=context]", "131072")
    long = table_rows(page)
    assert 0 < len(long) < len(built)
    assert int(tiles(page)[0].replace(",", "")) == len(long)
    assert all(gb(r["need"]) > need_built[r["card"]] for r in long)
    assert all(r["fit"] == fit_label[r["fit_key"].removeprefix("tps-fit-")] for r in long)
    assert {r["fit_key"] for r in long} <= {"tps-fit-comfortable", "tps-fit-tight"}
    assert "context=131072" in page.url
    assert page.locator(".tps-working").first.is_hidden()  # the worked examples are for the defaults
    screenshot(page, "1-context-131072.png")

    # Minimum quality Q8_0: no row shows another quant.
    page.select_option("select[name=floor]", "Q8_0")
    q8 = table_rows(page)
    assert q8 and {r["quant"] for r in q8} == {"Q8_0"}
    assert len(q8) <= len(long)
    assert "floor=Q8_0" in page.url
    screenshot(page, "2-floor-q8_0.png")

    # Search: only H100 rows remain.
    page.fill("input[name=search]", "H100")
    h100 = table_rows(page)
    assert h100 and all("H100" in r["name"] for r in h100)
    assert all(r["href"] == f"../../cards/{r['card']}/" for r in h100)
    screenshot(page, "3-search-h100.png")

    # Cards that cannot run it: every H100 runs it, so none is added; without the search they appear,
    # after those that can, with their verdict.
    page.check("input[name=all]")
    assert table_rows(page) == h100
    page.fill("input[name=search]", "")
    everything = table_rows(page)
    misses = [r for r in everything if r["fit_key"] == "tps-fit-none"]
    assert misses and all(r["fit"] == fit_label["none"] and r["quant"] == "" for r in misses)
    assert everything[:len(q8)] == q8 and len(everything) == len(q8) + len(misses) == len(built_rows_total(page))
    # Show where the cards that fit end and those that do not begin.
    page.evaluate("""() => { const first = document.querySelector('table.tps-table tr .tps-fit-none');
        first.parentElement.previousElementSibling.previousElementSibling.scrollIntoView();
        window.scrollBy(0, -60); }""")
    page.screenshot(path=str(OUTPUT / "4-all-cards.png"))

    # The address reproduces the view.
    query = dict(part.split("=", 1) for part in page.url.split("?", 1)[1].split("&"))
    assert query == {"context": "131072", "floor": "Q8_0", "all": "1"}
    again = open_page(context, page.url, errors)
    assert table_rows(again) == everything
    assert again.input_value("input[name=context]") == "131072" and again.is_checked("input[name=all]")
    assert again.input_value("select[name=floor]") == "Q8_0"
    assert not errors, errors


@pytest.mark.parametrize("language", LANGUAGES)
def test_browser_numbers_match_the_built_page(context, server, language):
    """Chromium's Intl formats the table as Babel did: recompute with the defaults, compare."""
    prefix = "" if language == "en" else f"{language}/"
    page = open_page(context, f"{server}{prefix}models/glm-130b/")
    built = page.inner_html("table.tps-table tbody")
    built_tiles = page.inner_html(".tps-tiles")
    page.evaluate("() => window.tpsCalculator.update()")
    assert page.inner_html("table.tps-table tbody") == built
    assert page.inner_html(".tps-tiles") == built_tiles
    page.fill("input[name=context]", "8192")
    text = page.inner_text("table.tps-table tbody")
    if language == "nl":
        assert "3.940 GB/s" in text and "maart 2023" in text
    if language == "fr":
        assert "3\u202f940\u00a0Go/s" in text


def test_a_model_no_card_runs_can_list_the_cards(context, server):
    """GLM-5 fits no card: no table was built; ticking "all" makes one, every row not fitting."""
    page = open_page(context, f"{server}fr/models/glm-5/")
    assert page.locator("table.tps-table").count() == 0
    page.check("input[name=all]")
    rows = table_rows(page)
    assert len(rows) > 800 and {r["fit"] for r in rows} == {Phrases("fr").gettext("Does not fit")}
    assert page.locator(".tps-nofit").is_visible()
    headers = page.eval_on_selector_all("table.tps-table th", "els => els.map(e => e.textContent)")
    french = Phrases("fr")
    assert headers[0] == f'{french.gettext("Speed")} {french.gettext("low confidence")}'
    assert headers[1] == french.gettext("Card")


def test_dutch_search_finds_dutch_pages(browser, server):
    """Material's search on /nl/ reads the Dutch index and links to Dutch pages."""
    context = new_context(browser, server, viewport={"width": 800, "height": 1000})
    try:
        page = context.new_page()
        page.goto(f"{server}nl/")
        page.click("label.md-header__button[for=__search]")  # the search button of the header
        page.keyboard.type("hoeveel VRAM GLM-130B")
        page.wait_for_selector(".md-search-result__item", timeout=20000)
        page.wait_for_function("() => document.querySelectorAll('.md-search-result__item').length > 5")
        results = page.eval_on_selector_all(".md-search-result__item a", """links => links.map(a =>
            [a.href, (a.querySelector('h1, h2') || {textContent: ''}).textContent.trim()])""")
        page.click(".md-search-result__item:first-child .md-search-result__more summary")  # the page's other hits
        page.screenshot(path=str(OUTPUT / "5-search-nl.png"))
    finally:
        context.close()
    assert results and all(href.startswith(f"{server}nl/") for href, _ in results), results[:5]
    question = str(Phrases("nl").t("How much VRAM does {model} need?", model="GLM-130B"))
    assert question in [title for _, title in results[:5]], results[:5]


def test_a_page_reads_fully_without_javascript(browser, server, site):
    context = new_context(browser, server, java_script_enabled=False)
    try:
        page = context.new_page()
        page.goto(f"{server}nl/models/glm-130b/")
        rows = table_rows(page)
        text = page.inner_text("article")
        page.locator("#cards").scroll_into_view_if_needed()
        page.screenshot(path=str(OUTPUT / "6-no-javascript.png"), full_page=False)
        form_visible = page.locator("form.tps-inputs").is_visible()
    finally:
        context.close()
    built = (site / "nl" / "models" / "glm-130b" / "index.html").read_text(encoding="utf-8")
    assert len(rows) == built.count("<tr data-card=") > 40
    assert "29,6 tok/s" in text and "3.940 GB/s" in text
    assert str(Phrases("nl").t("How much VRAM does {model} need?", model="GLM-130B")) in text
    assert not form_visible  # inputs that need JavaScript are not offered without it
    labels = json.loads(re.search(r'class="tps-calculator">(.*?)</script>', built).group(1))
    assert labels["language"] == "nl" and labels["model"] == "glm-130b"


def test_a_row_shows_how_its_figure_was_worked_out(context, server):
    """A click on a row opens its worked example, in the page's language; a second click closes it."""
    page = open_page(context, f"{server}nl/models/glm-130b/")
    row = page.locator("table.tps-table tbody tr[data-card='h100-nvl-94gb']")
    row.locator("td").first.click()
    working = page.locator("tr.tps-working-row")
    assert working.count() == 1
    text = working.inner_text()
    dutch = Phrases("nl")
    assert str(dutch.t("How the figure for the {card} was worked out", card="H100 NVL 94 GB")) in text
    assert "3.940 GB/s" in text and "llama-bench -m glm-130b-Q4_K_M.gguf" in text
    row.locator("td").first.click()
    assert page.locator("tr.tps-working-row").count() == 0


def test_a_quantized_kv_cache_needs_less_memory(context, server):
    page = open_page(context, f"{server}models/llama-3.1-8b/")
    page.fill("input[name=context]", "65536")  # an 8.6 GB f16 cache, 4.6 GB at q8_0
    before = page.inner_text("table.tps-table tbody tr[data-card='geforce-rtx-4090']")
    page.select_option("select[name=kv]", "q8_0")
    after = page.inner_text("table.tps-table tbody tr[data-card='geforce-rtx-4090']")
    assert "17,7 GB" not in before and "17.7 GB" in before and "13.7 GB" in after
    assert "kv=q8_0" in page.url
