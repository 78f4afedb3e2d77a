"""Card pages in a real browser: their calculator inputs re-rate every model on the card as the
Python estimator would, the phone header keeps the site's name readable, and the "My device" answer
for a machine (Apple M4 Max) reads without a card's article in French and German.

The site is a preview of two card pages and one model page, built with the default (measured)
calibration: its speeds fall as the context grows (the seed calibration's do not). Screenshots go
to test-output/.
"""

from __future__ import annotations

import re

import pytest

from tps_atlas.catalogue.load import load_catalogue
from tps_atlas.estimate.offload import load_ram
from tps_atlas.estimate.settings import load_settings
from tps_atlas.i18n.phrases import Phrases
from tps_atlas.pages.card import context_limit
from tps_atlas.pages.figures import model_figures

from tests.support.browser import CHROMIUM, OUTPUT, new_context, serving, sync_api  # noqa: F401  (sync_api: skip without playwright)

CARD = "geforce-rtx-4090"
MACHINE = "apple-m4-max-128gb"
MODEL = "llama-3.1-8b"
OFFLOAD_MODEL = "gpt-oss-120b"   # a mixture of experts the 24 GB card runs only with offload
PHONE = {"width": 390, "height": 844}

pytestmark = [pytest.mark.browser,
              pytest.mark.skipif(not CHROMIUM.exists(), reason="Debian's chromium is not installed (scripts/test)")]


@pytest.fixture(scope="module")
def measured_site(tmp_path_factory):
    from tests.support.site_build import build_site

    destination = tmp_path_factory.mktemp("card-site")
    result = build_site(destination, calibration="measured",
                        extra_env={"TPS_PREVIEW": ",".join((MODEL, CARD, MACHINE))})
    assert result.returncode == 0, result.stderr[-3000:]
    return destination


@pytest.fixture(scope="module")
def server(measured_site):
    with serving(measured_site) as address:
        yield address


def open_card(context, url: str, errors: list):
    page = context.new_page()
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(url)
    page.wait_for_selector("form.tps-card-inputs[data-state=ready]", state="attached", timeout=20000)
    return page


def settle(page) -> None:
    """Wait until the card calculator has drawn the view of the form's inputs."""
    page.wait_for_selector("form.tps-card-inputs[data-state=ready]", state="attached", timeout=20000)


def row_of(page, table: str, model_id: str) -> str:
    """The visible text of a model's row in one of the card page's tables ("" when it has none)."""
    return page.evaluate("""([table, id]) => {
        const link = document.querySelector(`table.${table} a[href$="/models/${id}/"]`);
        return link ? link.closest('tr').innerText : '';
    }""", [table, model_id])


def speed_of(row: str) -> str:
    found = re.search(r"[\d.,]+\s*tok/s", row)
    assert found, row
    return found.group(0)


def python_row(model_id: str, context: int | None = None, ram_gb: float | None = None, ram_kind: str | None = None):
    """What the Python estimator gives the model on the card (None when it has no such row)."""
    catalogue, settings = load_catalogue(), load_settings()
    figures = model_figures(catalogue.model(model_id), catalogue.cards, settings, settings.calibration(),
                            context=context, system=load_ram().system(ram_gb, ram_kind))
    for e in figures.rows + figures.offload:
        if e.card.id == CARD:
            return e
    return None


def python_card_rows(context: int, f) -> list[tuple[str, str, str]]:
    """The card's table of the models it holds at ``context``, as Python orders and writes it (``f``: the
    page's formatter)."""
    catalogue, settings = load_catalogue(), load_settings()
    rows = []
    for model in catalogue.models:
        e = next(e for e in model_figures(model, [catalogue.card(CARD)], settings, settings.calibration(),
                                          context=context).rows + (None,) if e is None or e.card.id == CARD)
        if e is not None:
            rows.append((e.tok_s, model.name.casefold(), model.id, f.tok_s(e.tok_s), e.quant.name))
    return [row[2:] for row in sorted(rows, key=lambda row: (-row[0], row[1]))]


def page_card_rows(page) -> list[tuple[str, str, str]]:
    return [tuple(row) for row in page.eval_on_selector_all("table.tps-models-table tbody tr", """
        rows => rows.map(row => [row.cells[2].querySelector('a').getAttribute('href').split('/').slice(-2, -1)[0],
        row.cells[1].firstChild.textContent.trim(), row.cells[5].textContent])""")]


def shot(page, name: str) -> None:
    page.screenshot(path=str(OUTPUT / name))


def test_context_re_rates_the_card_table_as_python_does(site_phrases, browser, server):
    errors: list[str] = []
    context = new_context(browser, server)
    page = open_card(context, f"{server}cards/{CARD}/", errors)
    f = site_phrases("en").fmt
    built = speed_of(row_of(page, "tps-models-table", MODEL))
    assert built == f.tok_s(python_row(MODEL).tok_s)

    page.fill("input[name=context]", "32,768")
    settle(page)
    page.wait_for_function("() => location.search.includes('context=32768')")
    longer = speed_of(row_of(page, "tps-models-table", MODEL))
    expected = python_row(MODEL, context=32768)
    assert longer == f.tok_s(expected.tok_s)
    assert float(longer.split()[0].replace(",", "")) < float(built.split()[0].replace(",", ""))
    # Every row: the same models in the same order, at the same speed and quant.
    rows = python_card_rows(32768, site_phrases("en").fmt)
    assert page_card_rows(page) == rows
    # Models that read less than 32,768 tokens say so beside their figure, as the built page would.
    notes = dict(page.eval_on_selector_all("table.tps-models-table tbody tr", """rows => rows
        .filter(row => row.querySelector('.tps-context-limit')).map(row => [
            row.cells[2].querySelector('a').getAttribute('href').split('/').slice(-2, -1)[0],
            row.querySelector('.tps-context-limit').textContent])"""))
    catalogue = load_catalogue()
    limits = {model_id: context_limit(Phrases("en"), catalogue.model(model_id), 32768) for model_id, _, _ in rows}
    assert notes == {model_id: note for model_id, note in limits.items() if note} and notes
    # The quant column follows too, and a reload of the recorded address shows the same view.
    assert expected.quant.name in row_of(page, "tps-models-table", MODEL)
    page.locator("form.tps-card-inputs").scroll_into_view_if_needed()
    shot(page, "card-calculator-desktop-32k.png")
    page.reload()
    settle(page)
    assert page.input_value("input[name=context]") == "32768"
    assert speed_of(row_of(page, "tps-models-table", MODEL)) == longer
    # Back to the default: the built tables again.
    page.fill("input[name=context]", "4096")
    settle(page)
    assert speed_of(row_of(page, "tps-models-table", MODEL)) == built
    assert not errors
    context.close()


def test_ram_inputs_change_an_offload_row(site_phrases, browser, server):
    errors: list[str] = []
    context = new_context(browser, server)
    page = open_card(context, f"{server}cards/{CARD}/", errors)
    f = site_phrases("en").fmt
    before = row_of(page, "tps-offload-table", OFFLOAD_MODEL)
    default = python_row(OFFLOAD_MODEL)
    assert default.fit == "offload" and speed_of(before) == f.tok_s(default.tok_s)

    page.select_option("select[name=ramkind]", "ddr5-4800-8ch")
    settle(page)
    after = row_of(page, "tps-offload-table", OFFLOAD_MODEL)
    faster = python_row(OFFLOAD_MODEL, ram_kind="ddr5-4800-8ch")
    assert speed_of(after) == f.tok_s(faster.tok_s) != speed_of(before)
    # The table's introduction names the RAM now assumed.
    assert "8-channel" in page.inner_text(".tps-card-tables")

    # Too little RAM: the model leaves the offload table for the table of models the card cannot hold.
    page.fill("input[name=ram]", "16")
    settle(page)
    assert python_row(OFFLOAD_MODEL, ram_gb=16, ram_kind="ddr5-4800-8ch") is None
    assert row_of(page, "tps-offload-table", OFFLOAD_MODEL) == ""
    # ... short by what Python's nearest miss says for this card.
    from tps_atlas.estimate.fit import estimate
    from tps_atlas.pages.figures import nearest_miss

    catalogue, settings = load_catalogue(), load_settings()
    model, card = catalogue.model(OFFLOAD_MODEL), catalogue.card(CARD)
    miss = nearest_miss(model, [estimate(model, card, settings, settings.calibration())], settings,
                        settings.context_tokens, settings.min_quality, None, calibration=settings.calibration())
    cells = row_of(page, "tps-misses-table", OFFLOAD_MODEL).split("\t")
    assert cells[1:4] == [f.gb(miss.shortfall_gb), f.gb(miss.need_gb), miss.quant_name], cells
    assert not errors
    context.close()


def test_phone_header_and_card_page_fit_390_px(browser, server):
    errors: list[str] = []
    context = new_context(browser, server, viewport=PHONE)
    page = open_card(context, f"{server}cards/{CARD}/", errors)
    page.wait_for_selector(".tps-device-button")
    header = page.evaluate("""() => {
        const name = document.querySelector('.md-header__topic .md-ellipsis');
        const box = name.getBoundingClientRect();
        const device = document.querySelector('.tps-device-button');
        const button = device.getBoundingClientRect();
        // What a tap at either end of the name would hit: the name itself, not a button over it.
        const middle = box.top + box.height / 2;
        const ends = [box.left + 2, box.right - 2].map(x => name.contains(document.elementFromPoint(x, middle)));
        return {text: name.textContent.trim(), width: box.width, needed: name.scrollWidth, left: box.left,
                right: box.right, ends: ends, button_left: button.left, button_right: button.right,
                button_text: device.innerText, button_clipped: device.scrollWidth > device.clientWidth,
                page_width: document.documentElement.scrollWidth,
                view: window.innerWidth};
    }""")
    assert header["text"] == "TPS Atlas"
    # The whole name shows (no ellipsis), and nothing sits on top of it.
    assert header["needed"] <= header["width"] + 0.5, header
    assert header["left"] >= 0 and header["right"] <= header["button_left"], header
    assert header["ends"] == [True, True], header
    assert header["button_right"] <= header["view"], header
    assert header["button_text"].strip() == "My device" and not header["button_clipped"], header
    assert header["page_width"] <= header["view"], header
    shot(page, "card-calculator-phone-header.png")

    page.fill("input[name=context]", "32768")
    settle(page)
    assert page.evaluate("() => document.documentElement.scrollWidth") <= PHONE["width"]
    page.locator("table.tps-models-table").scroll_into_view_if_needed()
    shot(page, "card-calculator-phone-32k.png")
    assert not errors
    context.close()


@pytest.mark.parametrize("language", ["fr", "de", "nl"])
def test_machine_answer_has_no_card_article(browser, server, language):
    context = new_context(browser, server)
    page = context.new_page()
    page.goto(f"{server}{language}/models/{MODEL}/?card={MACHINE}")
    answer = page.locator(".tps-mydevice .tps-answer-main")
    answer.wait_for(timeout=20000)
    answer.scroll_into_view_if_needed()
    shot(page, f"card-calculator-machine-answer-{language}.png")
    text = answer.inner_text()
    machine = load_catalogue().card(MACHINE).name
    assert machine in text
    for wrong in ("la Apple", "La Apple", "die Apple", "Die Apple", "Grafikkarte Apple", "de Apple"):
        assert wrong not in text, text
    # The machine's own page names it as a machine, not as a graphics card.
    page.goto(f"{server}{language}/cards/{MACHINE}/")
    own_page = page.inner_text("article")
    assert machine in own_page
    # "der Apple M4 Max" (the chip, masculine) and "l’Apple M4 Max" are right; a card's article is not.
    for wrong in ("la Apple", "La Apple", "die Apple", "Die Apple", "Grafikkarte Apple"):
        assert wrong not in own_page, wrong
    # The device column of the card page a machine owner reads is worded for a machine too.
    page.evaluate(f"() => localStorage.setItem('tps-atlas-device', '{MACHINE}')")
    page.goto(f"{server}{language}/cards/{CARD}/")
    heading = page.locator("table.tps-models-table th.tps-yours")
    heading.wait_for(timeout=20000)
    for wrong in ("Ihrer Apple", "votre Apple M"):
        assert wrong not in heading.inner_text()
    assert machine in heading.inner_text()
    context.close()


@pytest.mark.full
def test_hostile_model_names_redrawn_on_a_card_page_run_no_script(browser, tmp_path_factory):
    """The card calculator writes model names into the page: as text, never as markup."""
    from tests.support.project_copy import copy_project, mkdocs_build
    from tests.support.hostile import hostile_catalogue

    folder = tmp_path_factory.mktemp("hostile-card")
    project = copy_project(folder / "project")
    hostile_catalogue(project)
    result = mkdocs_build(project, folder / "site")
    assert result.returncode == 0, (result.stdout + result.stderr)[-3000:]
    with serving(folder / "site") as address:
        context = new_context(browser, address)
        page = context.new_page()
        dialogs: list[str] = []
        page.on("dialog", lambda dialog: (dialogs.append(dialog.message), dialog.dismiss()))
        for language in ("", "nl/"):
            page.goto(f"{address}{language}cards/apple-m1-max-32gb/")  # a card the project copy keeps
            page.wait_for_selector("form.tps-card-inputs[data-state=ready]", state="attached", timeout=20000)
            page.fill("input[name=context]", "8192")
            settle(page)
            assert "<img src=x onerror=alert(4)>" in page.inner_text(".tps-card-tables")
            assert page.locator(".tps-card-tables img").count() == 0
        page.wait_for_timeout(300)
        assert dialogs == []
        context.close()
