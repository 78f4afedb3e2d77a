"""The "My device" answer in a real browser, for the pairs of issue #23: it says what the same
page's table says (with offload, on a set of cards, or why not), in the page's language, and
follows every input the reader changes. Screenshots at 390 and 1366 px go to test-output/.

Its own preview build (the models and cards below, four languages, the default calibration),
started in the background before the first test.
"""

from __future__ import annotations


import pytest

from tps_atlas.catalogue.load import load_catalogue
from tps_atlas.estimate.offload import load_ram, offload_estimate
from tps_atlas.estimate.settings import load_settings
from tps_atlas.i18n.phrases import N_, Phrases

from tests.support.browser import (CHROMIUM, OUTPUT, address, answer_kind, answer_text, assert_answer_says_the_row,
                                   new_context, plain, row_of, served_build)

pytestmark = [pytest.mark.browser,
              pytest.mark.skipif(not CHROMIUM.exists(), reason="Debian's chromium is not installed (scripts/test)")]

MODELS = ("gpt-oss-120b", "qwen3.5-35b-a3b", "kimi-k2", "glm-5", "falcon-7b")
CARDS = ("geforce-rtx-4090", "geforce-rtx-4070", "radeon-instinct-mi350x", "radeon-instinct-mi325x")
WIDTHS = (390, 1366)
OFFLOAD_ANSWER = N_("Yes, with part of it in system memory (RAM): the {device} runs {model} at {quant}, at about "
                    "{speed} (range {range} tok/s).")


def _build(folder):
    from tests.support.site_build import build_site

    calibration = load_settings().default_calibration
    return lambda: (folder, build_site(folder, calibration=calibration,
                                       extra_env={"TPS_PREVIEW": ",".join(MODELS + CARDS)}))


verdict_server = served_build(__name__, "verdict_server", _build, "verdict-browser")


def open_answer(context, url: str, errors: list):
    page = context.new_page()
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(url)
    page.wait_for_selector("form.tps-inputs[data-state=ready]", state="attached", timeout=20000)
    answer_text(page)
    return page


def settled(page) -> None:
    """Wait until the calculator has redrawn and the answer followed (both run off timers)."""
    address(page)


def python_offload(model_id: str, card_id: str):
    catalogue, settings, ram = load_catalogue(), load_settings(), load_ram()
    return offload_estimate(catalogue.model(model_id), catalogue.card(card_id), settings, settings.calibration(),
                            ram.system(), ram)


@pytest.mark.parametrize("width", WIDTHS)
@pytest.mark.parametrize("language, model_id, card_id", [("en", "gpt-oss-120b", "geforce-rtx-4090"),
                                                         ("nl", "qwen3.5-35b-a3b", "geforce-rtx-4070")])
def test_the_issue_pairs_run_with_offload_as_their_row_says(browser, verdict_server, site_phrases, language, model_id,
                                                            card_id, width):
    errors: list[str] = []
    context = new_context(browser, verdict_server, viewport={"width": width, "height": 900})
    try:
        prefix = "" if language == "en" else f"{language}/"
        page = open_answer(context, f"{verdict_server}{prefix}models/{model_id}/?card={card_id}", errors)
        row = assert_answer_says_the_row(page, card_id)
        assert row and row["fit_key"] == "offload"
        o = python_offload(model_id, card_id)
        catalogue, p = load_catalogue(), site_phrases(language)
        f = p.fmt
        main = plain(page.inner_text(".tps-mydevice .tps-answer-main"))
        assert main == plain(str(p.t(OFFLOAD_ANSWER, device=catalogue.card(card_id).name,
                                     model=catalogue.model(model_id).name, quant=o.quant.name, speed=f.tok_s(o.tok_s),
                                     range=f.tok_range(o.tok_s_low, o.tok_s_high))))
        # What sits in RAM: the row's figures; the command is the row's, with its --n-cpu-moe.
        detail = plain(page.inner_text(".tps-mydevice .tps-fit-offload"))
        assert f.count(o.placement.cpu_layers) in detail and plain(f.gb(o.placement.ram_gb)) in detail
        assert f"--n-cpu-moe {o.placement.cpu_layers}" in answer_kind(page)["command"]
        for wrong in ("Q3_K_M", "Nee", "No:"):
            assert wrong not in plain(answer_text(page))
        assert page.evaluate("() => document.documentElement.scrollWidth") <= width
        page.locator(".tps-mydevice").screenshot(path=str(OUTPUT / f"verdict-{language}-{model_id}-{width}.png"))
    finally:
        context.close()
    assert not errors, errors


def test_the_answer_follows_every_input(browser, verdict_server):
    """Typed context, floor, ceiling, RAM size and kind, KV precision: after each, the answer says
    what the redrawn row says; gpt-oss is quoted in MXFP4 whatever the floor."""
    errors: list[str] = []
    context = new_context(browser, verdict_server)
    try:
        card = "geforce-rtx-4090"
        page = open_answer(context, f"{verdict_server}models/gpt-oss-120b/?card={card}", errors)
        steps = [("fill", "input[name=context]", "32768"), ("select", "select[name=floor]", "Q8_0"),
                 ("select", "select[name=ceiling]", "Q4_K_M"), ("select", "select[name=ramkind]", "ddr4-3200-2ch"),
                 ("select", "select[name=kv]", "q8_0"), ("fill", "input[name=ram]", "16")]
        seen = []
        for action, selector, value in steps:
            if action == "fill":
                page.fill(selector, value)
            else:
                page.select_option(selector, value)
            settled(page)
            row = assert_answer_says_the_row(page, card)
            text = plain(answer_text(page))
            assert "MXFP4" in text and "Q8_0" not in text and "Q3_K_M" not in text, (selector, text)
            seen.append(row["fit_key"] if row else answer_kind(page)["kind"])
        # 16 GB of RAM leaves too little beside one card: the row goes, and the answer offers a set of them.
        assert seen[:-1] == ["offload"] * (len(steps) - 1) and seen[-1] == "multi", seen
        assert "--tensor-split" in answer_kind(page)["command"] and "--n-cpu-moe" not in answer_kind(page)["command"]
        assert "ram=16" in page.url
    finally:
        context.close()
    assert not errors, errors


@pytest.mark.parametrize("language, model_id, card_id", [("en", "kimi-k2", "radeon-instinct-mi350x"),
                                                         ("nl", "glm-5", "radeon-instinct-mi325x")])
def test_a_model_no_card_holds_is_answered_with_a_set_of_cards(browser, verdict_server, language, model_id, card_id):
    errors: list[str] = []
    context = new_context(browser, verdict_server, viewport={"width": 390, "height": 900})
    try:
        prefix = "" if language == "en" else f"{language}/"
        page = open_answer(context, f"{verdict_server}{prefix}models/{model_id}/?card={card_id}", errors)
        said = answer_kind(page)
        assert said["kind"] == "multi" and "--tensor-split 1,1" in said["command"], said
        name = load_catalogue().card(card_id).name
        assert f"2 × {name}" in plain(answer_text(page))
        # The page's own multi-GPU paragraph names the same card.
        assert name in page.inner_text("article")
        assert row_of(page, card_id) is None
        page.locator(".tps-mydevice").screenshot(path=str(OUTPUT / f"verdict-multi-{language}-{model_id}.png"))
    finally:
        context.close()
    assert not errors, errors


def test_a_context_beyond_the_model_is_flagged_in_the_answer(browser, verdict_server):
    errors: list[str] = []
    context = new_context(browser, verdict_server)
    try:
        for language, room in (("en", "longer context"), ("de", "längeren Kontext")):
            prefix = "" if language == "en" else f"{language}/"
            page = open_answer(context, f"{verdict_server}{prefix}models/falcon-7b/?card=geforce-rtx-4090", errors)
            assert_answer_says_the_row(page, "geforce-rtx-4090")
            warning = plain(page.inner_text(".tps-mydevice .tps-context-limit"))
            assert plain(Phrases(language).fmt.count(2048)) in warning
            assert room not in plain(answer_text(page)) and room not in page.inner_text(".tps-mydevice")
            page.close()
    finally:
        context.close()
    assert not errors, errors


def test_the_models_index_says_with_offload_for_the_remembered_card(browser, verdict_server):
    context = new_context(browser, verdict_server)
    try:
        page = context.new_page()
        page.goto(verdict_server)
        page.evaluate("() => localStorage.setItem('tps-atlas-device', 'geforce-rtx-4090')")
        for language in ("", "fr/"):
            page.goto(f"{verdict_server}{language}models/")
            page.wait_for_selector("#tps-models th.tps-yours")
            marks = dict(page.eval_on_selector_all("#tps-models tbody tr", """rows => rows.map(r =>
                [r.cells[0].textContent, r.querySelector('td.tps-yours').textContent])"""))
            p = Phrases(language.strip("/") or "en")
            o = python_offload("gpt-oss-120b", "geforce-rtx-4090")
            assert plain(marks["gpt-oss-120b"]) == plain(f"{p.gettext('With offload')} · {o.quant.name} · "
                                                         f"{p.fmt.tok_s(o.tok_s)}")
            assert marks["Kimi K2"] == p.gettext("Does not fit")
    finally:
        context.close()


def test_a_card_pages_column_follows_its_inputs(browser, verdict_server):
    """The "On your …" column of another card's page words the remembered card's verdict for the
    page's inputs: with offload at the default RAM, a set of cards once the RAM is too small."""
    context = new_context(browser, verdict_server)
    try:
        page = context.new_page()
        page.goto(verdict_server)
        page.evaluate("() => localStorage.setItem('tps-atlas-device', 'geforce-rtx-4090')")
        page.goto(f"{verdict_server}cards/radeon-instinct-mi350x/")
        page.wait_for_selector("table.tps-models-table th.tps-yours")

        def cell() -> str:
            return plain(page.evaluate("""() => Array.from(document.querySelectorAll('table.tps-models-table tbody tr'))
                .find(r => r.cells[2].textContent === 'gpt-oss-120b').querySelector('td.tps-yours').textContent"""))

        o = python_offload("gpt-oss-120b", "geforce-rtx-4090")
        assert cell() == plain(f"With offload · {o.quant.name} · {Phrases('en').fmt.tok_s(o.tok_s)}")
        page.fill("input[name=ram]", "16")
        page.wait_for_function("() => document.querySelector('form.tps-card-inputs').dataset.state === 'ready' && "
                               "location.search.includes('ram=16')")
        settled(page)
        assert cell().startswith("With 4 cards · MXFP4 · "), cell()
    finally:
        context.close()
