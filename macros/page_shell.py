"""What every built page gets around Material's own markup, after MkDocs wrote it: the first
paint of a phone should need no script to move it, and every control should have a name.

- the header's "My device" button, in the HTML (docs/assets/device.js only relabels it once a
  device is chosen), so that it does not push the header's other buttons aside after load;
- a name for Material's search dialog (its own label of the search field, in the page's language);
- only the scripts the page uses: browse.js on pages with a filter or a table, no other.
"""

from __future__ import annotations

import re

from markupsafe import Markup

SEARCH_BUTTON = '<label class="md-header__button md-icon" for="__search">'
SEARCH_DIALOG = '<div class="md-search" data-md-component="search" role="dialog">'
SEARCH_FIELD_LABEL = re.compile(r'<input type="text" class="md-search__input" name="query" aria-label="([^"]*)"')
BROWSE_SCRIPT = re.compile(r'<script src="[^"]*assets/browse\.js"( defer)?></script>\s*')
# What assets/browse.js works on: a filter field, a table whose columns label its cells on a phone.
USES_BROWSE = re.compile(r'class="tps-filter"|<table class="tps-table|class="tps-sortable')


def device_button(my_device: str, choose: str) -> Markup:
    """The header button as device.js labels it while no device is chosen."""
    return Markup('<button type="button" class="tps-device-button tps-device-none" aria-expanded="false" '
                  'title="{choose}"><span class="tps-device-caption">{caption}</span> '
                  '<span class="tps-device-name">{choose}</span></button>').format(caption=my_device, choose=choose)


def finish_shell(output: str, button: Markup) -> str:
    """The header button, the search dialog's name, the scripts this page uses."""
    output = output.replace(SEARCH_BUTTON, str(button) + SEARCH_BUTTON, 1)
    label = SEARCH_FIELD_LABEL.search(output)
    if label:
        # The label is already escaped for an attribute, as Material wrote it.
        output = output.replace(SEARCH_DIALOG, SEARCH_DIALOG[:-1] + f' aria-label="{label.group(1)}">', 1)
    if not USES_BROWSE.search(output):
        output = BROWSE_SCRIPT.sub("", output, count=1)
    return output

