"""axe-core in Chromium on one page of each kind, in each language: no violation of the rules
Lighthouse's accessibility score is made of (WCAG 2.0-2.2 A and AA, and axe's best practices),
on a phone's screen, after the pages' scripts ran, in the light and the dark colour scheme; then the
device picker and a table row's worked example used with the keyboard alone, and the same check on
what they opened.

The pages are those benchmarks/lighthouse.py measures (its ``PAGES``), from the preview build.
"""

from __future__ import annotations

import pytest

from tps_atlas.i18n.phrases import LANGUAGES

from tests.support.browser import CHROMIUM, new_context, serving, sync_api  # noqa: F401  (sync_api: skip without playwright)

pytestmark = [pytest.mark.browser,
              pytest.mark.skipif(not CHROMIUM.exists(), reason="Debian's chromium is not installed (scripts/test)")]

PHONE = {"width": 412, "height": 823}
LARGEST_MODEL, TYPICAL_MODEL, CARD = "llama-3.2-1b", "llama-3.1-8b", "geforce-rtx-4090"
PAGES = ("", f"models/{LARGEST_MODEL}/", f"models/{TYPICAL_MODEL}/", f"cards/{CARD}/", "models/", "cards/",
         "methodology/")
# The rule tags Lighthouse runs axe with.
TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa", "best-practice"]


@pytest.fixture(scope="module")
def server(built_site):
    with serving(built_site) as address:
        yield address


@pytest.fixture
def phone(browser, server):
    context = new_context(browser, server, viewport=PHONE, is_mobile=True, has_touch=True)
    yield context
    context.close()


def violations(page, axe_script: str) -> list[str]:
    """Each rule axe finds broken, with the first few elements that break it."""
    if not page.evaluate("() => !!window.axe"):
        page.add_script_tag(content=axe_script)
    found = page.evaluate("""async tags => {
        // A transition still running (the header's page title fading in) is not what a reader reads.
        await Promise.all(document.getAnimations().map(a => a.finished.catch(() => null)));
        const result = await axe.run(document, {runOnly: {type: 'tag', values: tags}, resultTypes: ['violations']});
        return result.violations.map(v => v.id + ' (' + v.nodes.length + '): ' +
            v.nodes.slice(0, 3).map(n => n.target.join(' ') + ' - ' +
                                    n.failureSummary.split('\\n').slice(1, 2).join('')).join('; '));
    }""", TAGS)
    return found


def prefix(language: str) -> str:
    return "" if language == "en" else language + "/"


def open_settled(context, url: str):
    page = context.new_page()
    page.goto(url)
    page.wait_for_load_state("networkidle")
    return page


# A reader's system asks for a scheme (prefers-color-scheme); Material shows it: default or slate.
SCHEMES = {"light": "default", "dark": "slate"}


@pytest.mark.parametrize("scheme", SCHEMES)
@pytest.mark.parametrize("language", LANGUAGES)
def test_no_page_of_the_set_breaks_an_accessibility_rule(browser, server, axe_script, language, scheme):
    context = new_context(browser, server, viewport=PHONE, is_mobile=True, has_touch=True, color_scheme=scheme)
    found = {}
    try:
        for path in PAGES:
            page = open_settled(context, f"{server}{prefix(language)}{path}")
            shown = page.get_attribute("body", "data-md-color-scheme")
            problems = violations(page, axe_script)
            if shown != SCHEMES[scheme]:
                problems.append(f"the page shows the {shown} scheme")
            if problems:
                found["/" + prefix(language) + path] = problems
            page.close()
    finally:
        context.close()
    assert not found, found


def test_the_scheme_toggle_is_named_in_the_pages_language_and_switches(browser, server, axe_script):
    """The header's toggle says what it does in Dutch; pressed, the page turns dark and stays readable.
    (On a phone the header leaves it out: the phone's own setting chooses.)"""
    tablet = new_context(browser, server, viewport={"width": 768, "height": 1024})
    phone_header = new_context(browser, server, viewport=PHONE, is_mobile=True, has_touch=True)
    try:
        page = open_settled(phone_header, f"{server}nl/models/{TYPICAL_MODEL}/")
        assert not page.locator("label[for=__palette_1]").is_visible()
        check_toggle(open_settled(tablet, f"{server}nl/models/{TYPICAL_MODEL}/"), axe_script)
    finally:
        tablet.close()
        phone_header.close()


def check_toggle(page, axe_script: str) -> None:
    toggle = page.locator("label[for=__palette_1]")
    assert toggle.get_attribute("title") == "Overschakelen naar het donkere kleurenschema"
    toggle.click()
    page.wait_for_function("() => document.body.getAttribute('data-md-color-scheme') === 'slate'")
    back = page.locator("label[for=__palette_0]")
    assert back.get_attribute("title") == "Overschakelen naar het lichte kleurenschema"
    assert not violations(page, axe_script)


def test_the_device_picker_and_a_row_work_from_the_keyboard_and_say_what_they_did(phone, server, axe_script):
    """Tab to the header's device button, Enter opens its named dialog with the search field
    focused; typing lists devices, Enter picks the first; the model page's answer is then a live
    region with the answer in it. A row's fit is a button whose state says if its working is open."""
    page = open_settled(phone, f"{server}fr/models/{TYPICAL_MODEL}/")
    button = page.locator(".tps-device-button")
    button.focus()
    page.keyboard.press("Enter")
    dialog = page.locator("#tps-device-panel")
    assert button.get_attribute("aria-expanded") == "true" and dialog.is_visible()
    assert dialog.get_attribute("role") == "dialog" and dialog.get_attribute("aria-label")
    assert page.evaluate("() => document.activeElement.id") == "tps-device-search"
    assert not violations(page, axe_script)
    page.keyboard.type("RTX 4090")
    page.wait_for_selector("#tps-device-panel button[data-card]")
    page.keyboard.press("Enter")
    answer = page.locator(".tps-mydevice")
    page.wait_for_selector(".tps-mydevice .tps-answer-main")
    assert answer.get_attribute("aria-live") == "polite" and "4090" in answer.inner_text()
    assert page.evaluate("() => document.activeElement.classList.contains('tps-mydevice')")
    assert "4090" in button.inner_text() and button.get_attribute("aria-expanded") == "false"
    toggle = page.locator("table.tps-table tbody tr[data-card] button.tps-row-toggle").first
    toggle.focus()
    page.keyboard.press("Enter")
    assert toggle.get_attribute("aria-expanded") == "true" and page.locator("tr.tps-working-row").count() == 1
    assert not violations(page, axe_script)
