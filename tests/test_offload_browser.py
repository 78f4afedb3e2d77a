"""Offload in a real browser: on a model page, the calculator's system-RAM inputs (size and kind)
change the verdict and the figure of a card that runs the model only with part of it in RAM, and
the browser's figure is the Python estimator's for the same inputs.

Uses the browser fixtures of tests/conftest.py (the preview site on a local server, Chromium);
the screenshot goes to test-output/.
"""

from __future__ import annotations

import pytest

from tps_atlas.catalogue.load import load_catalogue
from tps_atlas.estimate.offload import load_ram
from tps_atlas.estimate.settings import load_settings
from tps_atlas.i18n.phrases import Phrases
from tps_atlas.pages.figures import model_figures
from tps_atlas.pages.offload import offload_detail

from tests.support.browser import CHROMIUM, OUTPUT, address, open_page, show_all, table_rows

pytestmark = [pytest.mark.browser,
              pytest.mark.skipif(not CHROMIUM.exists(), reason="Debian's chromium is not installed (scripts/test)")]

# GLM-4.5 (355B, a mixture of experts) is in the preview set and fits no 24 GB card: with the
# default 64 GB of RAM it does not fit card + RAM either; with 256 GB it runs with offload.
MODEL, CARD, BIG_RAM, SLOW_KIND = "glm-4.5", "geforce-rtx-4090", 256, "ddr4-3200-2ch"


def python_offload(calibration: str, tokens: int, size: float, kind: str):
    """The Python estimator's offload estimate of the card, as the model page computes it, or None."""
    catalogue, settings = load_catalogue(), load_settings()
    fig = model_figures(catalogue.model(MODEL), catalogue.cards, settings, settings.calibration(calibration),
                        context=tokens, system=load_ram().system(size, kind))
    assert all(e.card.id != CARD for e in fig.rows)   # it does not fit the card alone
    return next((o for o in fig.offload if o.card.id == CARD), None)


def card_row(page) -> dict | None:
    """The card's row as shown (all rows of a long table): verdict, figure, range and where the model sits."""
    show_all(page)
    return page.evaluate("""card => {
        const row = document.querySelector(`table.tps-table tbody tr[data-card="${card}"]`);
        if (!row || row.hidden) return null;
        const speed = row.cells[1], range = speed.querySelector('small:not(.tps-offload)'),
              where = speed.querySelector('.tps-offload');
        return { fit_key: row.cells[0].className, fit: row.cells[0].textContent,
                 tok_s: speed.firstChild && speed.firstChild.nodeType === 3 ? speed.firstChild.textContent.trim() : '',
                 range: range ? range.textContent : '', where: where ? where.textContent : '' };
    }""", CARD)


def expected_row(p: Phrases, o) -> dict:
    return {"fit_key": "tps-fit-offload", "fit": p.gettext("With offload"), "tok_s": p.fmt.tok_s(o.tok_s),
            "range": p.fmt.tok_range(o.tok_s_low, o.tok_s_high), "where": offload_detail(p, o)}


def test_ram_size_and_kind_change_the_offload_row(context, server, site_phrases):  # noqa: F811 (fixtures)
    ram = load_ram()
    errors: list[str] = []
    page = open_page(context, f"{server}models/{MODEL}/", errors)
    calibration = page.evaluate("() => window.tpsCalculator.data.calibration")
    p = site_phrases("en", calibration)
    tokens = int(page.input_value("input[name=context]"))
    assert float(page.input_value("input[name=ram]")) == ram.default_size_gb
    assert page.input_value("select[name=ramkind]") == ram.default_kind

    # Default RAM: the card cannot run it; listed with every card, it says so.
    assert python_offload(calibration, tokens, ram.default_size_gb, ram.default_kind) is None
    assert card_row(page) is None
    page.check("input[name=all]")
    assert card_row(page)["fit_key"] == "tps-fit-none"

    # More RAM: the same card now runs it with offload, at the Python estimator's figure.
    fast = python_offload(calibration, tokens, BIG_RAM, ram.default_kind)
    assert fast is not None
    page.fill("input[name=ram]", str(BIG_RAM))
    shown = card_row(page)
    assert shown == expected_row(p, fast)
    offload_rows = [r for r in table_rows(page) if r["fit_key"] == "tps-fit-offload"]
    assert any(r["card"] == CARD for r in offload_rows)

    # Slower RAM: the same placement, a lower figure, again the Python one.
    slow = python_offload(calibration, tokens, BIG_RAM, SLOW_KIND)
    page.select_option("select[name=ramkind]", SLOW_KIND)
    shown_slow = card_row(page)
    assert shown_slow == expected_row(p, slow)
    assert slow.tok_s < fast.tok_s and shown_slow["tok_s"] != shown["tok_s"]
    assert shown_slow["where"] == shown["where"]          # RAM speed moves no layer

    url = address(page)
    assert f"ram={BIG_RAM}" in url and f"ramkind={SLOW_KIND}" in url
    page.evaluate("""card => { const row = document.querySelector(`tr[data-card="${card}"]`);
        row.scrollIntoView({block: 'center'}); }""", CARD)
    page.screenshot(path=str(OUTPUT / "offload-ram-256-ddr4.png"))
    assert not errors, errors
