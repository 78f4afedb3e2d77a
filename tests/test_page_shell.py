"""What the built pages' HTML holds so that the first paint needs no script (tps_atlas/mkdocs/page_shell.py):
the header's device button and the device picker in the page's language, a named search dialog,
the phone layout's column labels on every table, deferred scripts, and only the scripts a page uses."""

from __future__ import annotations

import html
import re

import pytest

from tps_atlas.i18n.phrases import LANGUAGES, Phrases

from tests.support.site_build import page_path

SCRIPT = re.compile(r"<script src=\"([^\"]+)\"([^>]*)>")


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_header_button_and_the_picker_are_in_the_html_in_the_pages_language(site, language):
    p = Phrases(language)
    model = page_path(site, language, "models", "llama-3.1-8b").read_text(encoding="utf-8")
    home = page_path(site, language).read_text(encoding="utf-8")
    choose = html.escape(p.gettext("Choose your GPU or machine"), quote=True)
    for page in (model, home):
        header = page[page.index("<header"):page.index("</header>")]
        assert f'<span class="tps-device-name">{choose}</span>' in header
        assert html.escape(p.gettext("My device")) in header
    assert 'id="tps-answer-search"' in model and f'for="tps-answer-search">{choose}</label>' in model
    assert html.escape(p.gettext("Which GPU or machine do you have? Choose it once and every model page "
                                 "answers for it.")) in model
    assert 'id="tps-home-search"' in home


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_search_dialog_has_the_search_fields_name(site, language):
    page = page_path(site, language, "methodology").read_text(encoding="utf-8")
    field = re.search(r'class="md-search__input" name="query" aria-label="([^"]+)"', page).group(1)
    assert f'role="dialog" aria-label="{field}"' in page


def test_every_table_carries_its_column_names_for_the_phone_layout(site):
    page = page_path(site, "fr", "cards", "geforce-rtx-4090").read_text(encoding="utf-8")
    tables = re.findall(r'<table class="tps-table[^>]*style="([^"]*)"[^>]*>.*?<thead><tr>(.*?)</tr>', page, re.S)
    assert len(tables) == page.count('<table class="tps-table') >= 2
    for style, head in tables:
        names = [re.sub(r"<[^>]*>.*", "", cell, flags=re.S).strip()
                 for cell in re.findall(r"<th(?:\s[^>]*)?>(.*?)</th>", head, re.S)]
        labels = re.findall(r'--tps-h\d+: "([^"]*)"', html.unescape(style))
        assert labels == [html.unescape(name) for name in names] and all(labels)


def test_scripts_are_deferred_and_a_page_loads_only_those_it_uses(site):
    home = SCRIPT.findall(page_path(site, "en").read_text(encoding="utf-8"))
    models = SCRIPT.findall(page_path(site, "en", "models").read_text(encoding="utf-8"))
    assert all("defer" in attributes for _, attributes in home + models)
    assert not any(src.endswith("browse.js") for src, _ in home)  # no filter, no table
    assert [src.rsplit("/", 1)[1] for src, _ in models][-5:] == ["calculator.js", "browse.js", "verdict.js",
                                                                  "device.js", "machine.js"]


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_colour_scheme_toggles_are_named_in_the_pages_language(site, language):
    p = Phrases(language)
    page = page_path(site, language, "models", "llama-3.1-8b").read_text(encoding="utf-8")
    form = page[page.index('data-md-component="palette"'):]
    form = form[:form.index("</form>")]
    for name in ("Switch to the dark scheme", "Switch to the light scheme"):
        words = html.escape(p.gettext(name), quote=True)
        assert f'aria-label="{words}"' in form and f'title="{words}"' in form
    if language != "en":
        assert "Switch to the" not in form


def test_a_model_tables_first_layout_holds_its_first_page_of_rows_and_the_html_every_row(site):
    """The head's rule leaves out rows past data/ui.yaml's page length until calculator.js takes over;
    the rows themselves are all in the HTML, unmarked."""
    from tps_atlas.mkdocs.render import ui_settings
    rows = ui_settings().table_page_rows
    model = page_path(site, "en", "models", "llama-3.2-1b").read_text(encoding="utf-8")
    head = model[:model.index("</head>")]
    assert f"tr:nth-child(n+{rows + 1}) {{ display: none; }}" in head and ":not(:has(~ .tps-more))" in head
    assert model.count('<tr data-card="') > rows
    card = page_path(site, "en", "cards", "geforce-rtx-4090").read_text(encoding="utf-8")
    assert "nth-child" not in card[:card.index("</head>")]
