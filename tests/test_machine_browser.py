"""My machine in a real browser (#28, "Done when"): a 3090 and a 3060 12 GB with 64 GB of DDR4 chosen in the
picker; a 70B model's page names both GPUs, the speed and the --tensor-split command; the same link in a fresh
browser gives the same answer; the machine page lists every model; untrusted links are answered with one plain
sentence in the page's language. Screenshots at 390 and 1366 px go to test-output/.
"""

from __future__ import annotations


import pytest

from tps_atlas.catalogue.load import load_catalogue
from tps_atlas.estimate.machine_verdict import machine_command, machine_verdict, parse_machine
from tps_atlas.estimate.settings import load_settings
from tps_atlas.i18n.phrases import Phrases
from tps_atlas.web.machine_ui import machine_labels

from tests.support.browser import CHROMIUM, OUTPUT, new_context, served_build

pytestmark = [pytest.mark.browser,
              pytest.mark.skipif(not CHROMIUM.exists(), reason="Debian's chromium is not installed (scripts/test)")]

MODEL = "llama-3.3-70b"
LINK = "geforce-rtx-3090,geforce-rtx-3060-12gb~64~ddr4-3200-2ch"


def _build(folder):
    from tests.support.site_build import build_site

    return lambda: (folder, build_site(folder, calibration=load_settings().default_calibration,
                                       extra_env={"TPS_PREVIEW": MODEL + ",qwen3-32b"}))


machine_server = served_build(__name__, "machine_server", _build, "machine-browser")


def ready(page):
    page.wait_for_selector("html[data-tps-machine=ready]", state="attached", timeout=30000)


def choose(page, slot: int, query: str, card_id: str):
    page.fill(f"#tps-machine-gpu-{slot}", query)
    page.click(f'.tps-machine-slot[data-slot="{slot}"] button[data-card="{card_id}"]')


def python_answer():
    catalogue, settings = load_catalogue(), load_settings()
    calibration = settings.calibration()
    model = catalogue.model(MODEL).for_calibration(calibration.name)
    v = machine_verdict(model, parse_machine(LINK, catalogue.cards_by_id, settings), settings, calibration)
    return v, machine_command(model, v.estimate, settings.context_tokens)


@pytest.mark.parametrize("width", (1366, 390))
def test_a_3090_and_a_3060_with_64_gb_of_ddr4_answer_for_a_70b_model(browser, machine_server, width):
    v, command = python_answer()
    assert v.kind in ("fits", "offload")
    errors: list[str] = []
    context = new_context(browser, machine_server, viewport={"width": width, "height": 900})
    page = context.new_page()
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(machine_server + "machine/")
    ready(page)
    choose(page, 0, "3090", "geforce-rtx-3090")
    choose(page, 1, "3060 12", "geforce-rtx-3060-12gb")
    page.fill("#tps-machine-ram", "64")
    page.select_option("#tps-machine-kind", "ddr4-3200-2ch")
    page.click(".tps-machine-save")
    page.wait_for_selector(".tps-machine-table")
    # The machine page lists every model of the catalogue, each once, in one of the three groups.
    listed = page.eval_on_selector_all(".tps-machine-table tbody tr", "rows => rows.map(r => r.dataset.model)")
    assert sorted(listed) == sorted(m.id for m in load_catalogue().models)
    assert "machine=" + LINK in page.url
    page.screenshot(path=str(OUTPUT / f"machine-page-{width}.png"), full_page=False)

    page.goto(machine_server + f"models/{MODEL}/")
    ready(page)
    box = page.wait_for_selector(".tps-mymachine p")
    text = page.inner_text(".tps-mymachine")
    assert "GeForce RTX 3090" in text and "GeForce RTX 3060 12 GB" in text
    assert f"{v.estimate.tok_s:.1f} tok/s" in text, text
    assert command in text and "--tensor-split" in command
    box.scroll_into_view_if_needed()
    page.screenshot(path=str(OUTPUT / f"machine-answer-{width}.png"), full_page=False)
    link = page.get_attribute(".tps-machine-link", "href")
    context.close()

    fresh = new_context(browser, machine_server, viewport={"width": width, "height": 900})
    other = fresh.new_page()
    other.goto(machine_server + f"models/{MODEL}/" + link)
    ready(other)
    other.wait_for_selector(".tps-mymachine p")
    assert other.inner_text(".tps-mymachine") == text
    fresh.close()
    assert not errors


@pytest.mark.parametrize("language", ("en", "nl"))
@pytest.mark.parametrize("link", ["nope,geforce-rtx-3090", ",".join(["geforce-rtx-3090"] * 5),
                                  "geforce-rtx-3090~99999999", "geforce-rtx-3090~64~<script>window.pwned=1</script>",
                                  '"><img src=x onerror="window.pwned=1">'])
def test_an_untrusted_machine_link_is_one_plain_sentence_and_the_usual_view(browser, machine_server, language, link):
    from urllib.parse import quote

    prefix = "" if language == "en" else f"{language}/"
    context = new_context(browser, machine_server)
    page = context.new_page()
    page.goto(machine_server + f"{prefix}models/{MODEL}/?machine=" + quote(link))
    ready(page)
    page.wait_for_selector(".tps-machine-bad")
    assert page.inner_text(".tps-machine-bad") == machine_labels(Phrases(language))["bad_link"]
    assert page.evaluate("window.pwned") is None
    assert page.query_selector(".tps-mymachine img, .tps-mymachine script") is None
    assert page.query_selector(".tps-mymachine .tps-machine-command") is None
    # The machine page too: the message, the empty builder, no ranking of a machine from the link.
    page.goto(machine_server + f"{prefix}machine/?machine=" + quote(link))
    ready(page)
    assert page.inner_text(".tps-machine-bad") == machine_labels(Phrases(language))["bad_link"]
    assert page.query_selector(".tps-machine-table") is None and page.evaluate("window.pwned") is None
    context.close()


def test_a_measured_run_of_the_same_gpus_is_shown_beside_the_estimate(browser, machine_server):
    context = new_context(browser, machine_server)
    page = context.new_page()
    three = "geforce-rtx-3090,geforce-rtx-3060-12gb,geforce-rtx-3060-12gb"
    page.goto(machine_server + f"de/models/qwen3-32b/?machine={three}")
    ready(page)
    measured = page.wait_for_selector(".tps-machine-measured")
    text = measured.inner_text()
    assert text.startswith("Gemessen auf diesen GPUs") and "13,0 tok/s" in text and "Mai 2025" in text, text
    assert measured.query_selector("a").get_attribute("href").startswith("https://redlib.private.coffee/")
    # No run of these GPUs for the 70B model: nothing is claimed.
    page.goto(machine_server + f"models/{MODEL}/?machine={three}")
    ready(page)
    page.wait_for_selector(".tps-mymachine p")
    assert page.query_selector(".tps-machine-measured") is None
    context.close()
