"""What every built page gets around Material's own markup, after MkDocs wrote it: the first
paint of a phone should need no script to move it, and every control should have a name.

- the header's "My device" button, in the HTML (docs/assets/device.js only relabels it once a
  device is chosen), so that it does not push the header's other buttons aside after load;
- a name for Material's search dialog (its own label of the search field, in the page's language);
- the colour-scheme toggle's names in the page's language (mkdocs.yml names them in English);
- only the scripts the page uses: browse.js on pages with a filter or a table, no other; Material's
  bundle deferred like ours (mkdocs.yml), in the same order, so that no script holds up the first paint;
- each table's column names as the custom properties the phone layout labels its cells with
  (what calculator.js's labelColumns sets), so that the labels are there before any script runs;
- a model table's rows past its first page (data/ui.yaml table_page_rows) left out of the first
  layout, as calculator.js hides them once it runs: the HTML holds every row (for search engines,
  readers without scripts and the open-data checks), but a phone lays out hundreds of rows fewer.
"""

from __future__ import annotations

import html
import re
from collections.abc import Callable

from markupsafe import Markup, escape

from tps_atlas.i18n.phrases import N_

SEARCH_BUTTON = '<label class="md-header__button md-icon" for="__search">'
SEARCH_DIALOG = '<div class="md-search" data-md-component="search" role="dialog">'
SEARCH_FIELD_LABEL = re.compile(r'<input type="text" class="md-search__input" name="query" aria-label="([^"]*)"')
BROWSE_SCRIPT = re.compile(r'<script src="[^"]*assets/browse\.js"( defer)?></script>\s*')
# What assets/browse.js works on: a filter field, a table whose columns label its cells on a phone.
USES_BROWSE = re.compile(r'class="tps-filter"|<table class="tps-table|class="tps-sortable')
MATERIAL_BUNDLE = re.compile(r'(<script src="[^"]*assets/javascripts/bundle\.[0-9a-f]+\.min\.js")>')
TABLE_HEAD = re.compile(r'<table class="tps-table[^"]*"(?P<rest>[^>]*)>(?P<inner>.*?)</thead>', re.S)
HEADER_CELL = re.compile(r"<th(?:\s[^>]*)?>(.*?)</th>", re.S)
FIRST_NODE = re.compile(r"\s*(?:<(?P<tag>[a-z]+)[^>]*>(?P<element>.*?)</(?P=tag)>|(?P<text>[^<]+))", re.S)
MARKUP = re.compile(r"<[^>]*>")
# The names mkdocs.yml gives the palette toggles (theme.palette[].toggle.name), as Material writes them.
PALETTE_NAMES = (N_("Switch to the dark scheme"), N_("Switch to the light scheme"))
MODEL_TABLE = '<table class="tps-table tps-cards-table"'
# Until calculator.js has put its "show all" button after the table (.tps-more), the rows past the
# first page are not drawn; with scripts off (.no-js) every row shows. A browser without :has()
# drops the rule and draws every row, as before.
FIRST_ROWS_STYLE = ("<style>html:not(.no-js) .tps-cards-table:not(:has(~ .tps-more)) > tbody > "
                    "tr:nth-child(n+{first_hidden}) {{ display: none; }}</style>")


def device_button(my_device: str, choose: str) -> Markup:
    """The header button as device.js labels it while no device is chosen."""
    return Markup('<button type="button" class="tps-device-button tps-device-none" aria-expanded="false" '
                  'title="{choose}"><span class="tps-device-caption">{caption}</span> '
                  '<span class="tps-device-name">{choose}</span></button>').format(caption=my_device, choose=choose)


def css_string(text: str) -> str:
    """``text`` as a CSS string, as JSON.stringify writes it (the value labelColumns sets)."""
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", " ") + '"'


def column_labels(table: re.Match) -> str:
    """The table's opening tag with ``--tps-hN`` set to the first text of each column's header."""
    labels = []
    for number, cell in enumerate(HEADER_CELL.findall(table.group("inner")), start=1):
        first = FIRST_NODE.match(cell)
        text = "" if not first else first.group("text") or MARKUP.sub("", first.group("element") or "")
        labels.append(f"--tps-h{number}: {css_string(html.unescape(text).strip())}")
    if not labels or "style=" in table.group(0).split(">", 1)[0]:
        return table.group(0)
    opening, rest = table.group(0).split(">", 1)
    return f'{opening} style="{escape("; ".join(labels))}">{rest}'


def first_rows_style(page_rows: int) -> str:
    """The head's rule that draws a model table's first ``page_rows`` rows only."""
    return FIRST_ROWS_STYLE.format(first_hidden=page_rows + 1)


def palette_names(output: str, gettext: Callable[[str], str]) -> str:
    """The colour-scheme toggles named in the page's language (as title and aria-label)."""
    for name in PALETTE_NAMES:
        for attribute in ("title", "aria-label"):
            output = output.replace(f'{attribute}="{name}"', f'{attribute}="{escape(gettext(name))}"')
    return output


def finish_shell(output: str, button: Markup, page_rows: int | None = None,
                 gettext: Callable[[str], str] | None = None) -> str:
    """The header button, the search dialog's name, the scripts this page uses, the tables' labels,
    a model table's first rows only in the first layout (given its page length) and the
    colour-scheme toggles' names (given the page's gettext)."""
    if gettext:
        output = palette_names(output, gettext)
    if page_rows and MODEL_TABLE in output:
        output = output.replace("</head>", first_rows_style(page_rows) + "</head>", 1)
    output = output.replace(SEARCH_BUTTON, str(button) + SEARCH_BUTTON, 1)
    label = SEARCH_FIELD_LABEL.search(output)
    if label:
        # The label is already escaped for an attribute, as Material wrote it.
        output = output.replace(SEARCH_DIALOG, SEARCH_DIALOG[:-1] + f' aria-label="{label.group(1)}">', 1)
    if not USES_BROWSE.search(output):
        output = BROWSE_SCRIPT.sub("", output, count=1)
    output = MATERIAL_BUNDLE.sub(r"\1 defer>", output, count=1)
    return TABLE_HEAD.sub(column_labels, output)

