"""The header's "My device" button says its words whole in every language, at 1366 and 390 px.

French and German cut it ("Choisissez votre GPU ou votre ma…", "Wählen Sie Ihre GPU oder Ihren R…"):
a fixed width with an ellipsis. Measured as a reader sees it: the button's scrollWidth within its
clientWidth, no ellipsis on it or its parts, and inside the window.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from tps_atlas.i18n.phrases import LANGUAGES

from tests.support.browser import CHROMIUM, OUTPUT, new_context, serving, sync_api  # noqa: F401  (sync_api: skip without playwright)

pytestmark = [pytest.mark.browser,
              pytest.mark.skipif(not CHROMIUM.exists(), reason="Debian's chromium is not installed (scripts/test)")]

WIDTHS = {"1366": {"width": 1366, "height": 900}, "390": {"width": 390, "height": 844}}
DEVICE = "radeon-instinct-mi300x"   # a long name for the chosen state


@pytest.fixture(scope="module")
def server(request):
    """The session's preview site (or TPS_BROWSER_SITE, built beforehand) over HTTP."""
    prebuilt = os.environ.get("TPS_BROWSER_SITE")
    site = Path(prebuilt) if prebuilt else request.getfixturevalue("site")
    with serving(site) as address:
        yield address


MEASURE = """() => {
    const button = document.querySelector('.tps-device-button');
    const box = button.getBoundingClientRect();
    const parts = [button, ...button.querySelectorAll('span')].filter(e => e.getClientRects().length);
    return {text: button.innerText, scroll: button.scrollWidth, client: button.clientWidth,
            ellipsis: parts.some(e => getComputedStyle(e).textOverflow === 'ellipsis'
                                      && e.scrollWidth > e.clientWidth),
            clipped: parts.filter(e => e.scrollWidth > e.clientWidth + 0.5).map(e => e.className),
            left: box.left, right: box.right, view: window.innerWidth,
            // The site's name beside it stays whole too (the button must not push it into an ellipsis).
            title_cut: (t => t.scrollWidth > t.clientWidth + 0.5)(
                document.querySelector('.md-header__topic .md-ellipsis'))};
}"""


@pytest.mark.parametrize("width", WIDTHS)
@pytest.mark.parametrize("language", LANGUAGES)
def test_the_device_button_is_never_cut_off(browser, server, language, width):
    prefix = "" if language == "en" else f"{language}/"
    context = new_context(browser, server, viewport=WIDTHS[width])
    try:
        for chosen in (False, True):
            page = context.new_page()
            if chosen:
                page.add_init_script(f"window.localStorage.setItem('tps-atlas-device', '{DEVICE}')")
            page.goto(f"{server}{prefix}models/glm-4.1v-thinking/")
            page.wait_for_selector(".tps-device-button")
            if chosen:
                page.wait_for_function("!document.querySelector('.tps-device-button')"
                                       ".classList.contains('tps-device-none')")
            found = page.evaluate(MEASURE)
            page.locator(".md-header").screenshot(path=str(OUTPUT / f"header-{language}-{width}-{chosen}.png"))
            assert found["scroll"] <= found["client"], found
            assert not found["ellipsis"] and not found["clipped"], found
            assert found["left"] >= 0 and found["right"] <= found["view"], found
            assert not found["title_cut"], found
            page.close()
    finally:
        context.close()
