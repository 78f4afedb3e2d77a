"""Pages built from a hostile catalogue, in Chromium: no script of the data ever runs (issue 14).

A small copy of the project gets models and a card whose names, authors and sources carry
script (``<script>``, ``<img onerror>``, quotes that would end an attribute, template code).
Hostile translations cannot be built at all (tests/test_hostile_input.py), so the data is what
reaches the pages. Every page is loaded, the calculator redrawn and the search typed into;
any dialog (alert, confirm, prompt) fails the test.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.support.browser import CHROMIUM, CHROMIUM_ARGS, served_build
from tests.support.hostile import hostile_catalogue
from tests.support.project_copy import copy_project, mkdocs_build

sync_api = pytest.importorskip("playwright.sync_api", reason="playwright is not installed (pip install -e '.[test]')")

pytestmark = [pytest.mark.browser, pytest.mark.full,
              pytest.mark.skipif(not CHROMIUM.exists(), reason="Debian's chromium is not installed (scripts/test)")]

SCRIPTED = ("script-name", "quote-name", "hostile-fields", "img-name", "config-name")




def _build(folder: Path):
    def job():
        project = copy_project(folder / "project")
        hostile_catalogue(project)
        site = folder / "site"
        return site, mkdocs_build(project, site)
    return job


hostile_server = served_build(__name__, "hostile_server", _build, "hostile-browser")


@pytest.fixture(scope="module")
def browser_page(hostile_server):
    with sync_api.sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        context = chromium.new_context(viewport={"width": 1280, "height": 1000})
        context.route("**/*", lambda route: route.continue_() if route.request.url.startswith(hostile_server)
                      else route.abort())
        one = context.new_page()
        dialogs: list[str] = []
        one.on("dialog", lambda dialog: (dialogs.append(dialog.message), dialog.dismiss()))
        yield one, dialogs
        chromium.close()


@pytest.mark.parametrize("language", ["", "nl/"])
@pytest.mark.parametrize("model_id", SCRIPTED)
def test_a_hostile_model_page_runs_no_script(hostile_server, browser_page, language, model_id):
    page, dialogs = browser_page
    dialogs.clear()
    page.goto(f"{hostile_server}{language}models/{model_id}/")
    page.wait_for_selector("form.tps-inputs[data-state=ready]", state="attached", timeout=20000)
    page.fill("input[name=context]", "8192")  # the calculator redraws the table and tiles
    page.check("input[name=all]")
    page.wait_for_timeout(300)
    assert dialogs == []
    # The "My device" answer writes the model's name into its sentences: as text, never as markup.
    # A graphics card of the copy's sample and a machine: their answers word the name differently.
    graphics = page.evaluate("() => window.tpsCalculator.loadData().then(d => d.cards.find(c => c.kind === "
                             "'discrete' && c.vram_gb >= 12).id)")
    for card in (graphics, "apple-m1-max-32gb"):
        page.goto(f"{hostile_server}{language}models/{model_id}/?card={card}")
        page.wait_for_selector(".tps-mydevice .tps-answer-main", timeout=20000)
        page.wait_for_timeout(300)
        markup = page.eval_on_selector(".tps-mydevice", "b => b.querySelectorAll('img, script, svg, iframe').length")
        assert markup == 0, card
    assert dialogs == []


@pytest.mark.parametrize("path", ["", "models/", "cards/", "nl/models/", "cards/apple-m1-max-32gb/"])
def test_hostile_names_in_lists_and_card_pages_run_no_script(hostile_server, browser_page, path):
    page, dialogs = browser_page
    dialogs.clear()
    page.goto(f"{hostile_server}{path}")
    page.wait_for_load_state("load")
    page.wait_for_timeout(300)
    assert dialogs == []


def test_searching_for_a_hostile_name_runs_no_script(hostile_server, browser_page):
    page, dialogs = browser_page
    dialogs.clear()
    page.goto(f"{hostile_server}models/")
    page.click("input.md-search__input")  # a wide window shows the search field itself
    page.keyboard.type("script alert img onerror")
    page.wait_for_selector(".md-search-result__item", timeout=20000)
    page.wait_for_timeout(500)
    assert dialogs == []


def test_the_control_a_live_alert_is_seen(hostile_server, browser_page):
    """The check can fail: a script that does run is caught."""
    page, dialogs = browser_page
    dialogs.clear()
    page.goto(f"{hostile_server}models/")
    page.evaluate("() => { const s = document.createElement('img'); s.src = 'x'; s.onerror = () => alert(7);"
                  " document.body.append(s); }")
    page.wait_for_timeout(500)
    assert dialogs == ["7"]


def test_the_calculator_warns_beyond_the_models_context(hostile_server, browser_page):
    page, dialogs = browser_page
    page.goto(f"{hostile_server}models/llama-3.1-8b/")
    page.wait_for_selector("form.tps-inputs[data-state=ready]", state="attached", timeout=20000)
    warning = page.locator(".tps-context-warning")
    assert warning.is_hidden()
    page.fill("input[name=context]", "200000")
    page.wait_for_function("() => !document.querySelector('.tps-context-warning').hidden")
    assert warning.inner_text() == ("Llama 3.1 8B reads at most 131,072 tokens of context: at 200,000 tokens "
                                    "these figures are beyond what it can use.")
    page.fill("input[name=context]", "131072")
    page.wait_for_function("() => document.querySelector('.tps-context-warning').hidden")
