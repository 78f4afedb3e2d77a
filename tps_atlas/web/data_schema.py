"""The browser's data held to its JSON Schema (``schemas/tps-data.json``) before it is written.

``site_data`` is made from records already checked on load, so a value the schema refuses is a
slip in the code that turns them into JSON (a renamed key, a string where the calculator does
arithmetic), which the browser would otherwise meet as NaN on a reader's page. The check uses the
open data's validator (``web/api/schema.py``: the keywords it knows, and plain text in every
string); the schema is not published, the browser's data being no interface of the site's.

>>> from tps_atlas.catalogue.load import load_catalogue
>>> from tps_atlas.estimate.settings import load_settings
>>> from tps_atlas.web.data import site_data
>>> data = checked_site_data(site_data(load_catalogue(), load_settings()))
>>> data["cards"][0]["vram_gb"] = "96 GB"
>>> checked_site_data(data)
Traceback (most recent call last):
...
tps_atlas.errors.DataError: assets/tps-data.json: $.cards[0] (radeon-instinct-mi100).vram_gb: expected \
a value the schema tps_atlas/web/schemas/tps-data.json accepts: number, found '96 GB'
"""

from __future__ import annotations

import json
import re
from pathlib import Path

from tps_atlas.cache import cached
from tps_atlas.errors import DataError
from tps_atlas.paths import PACKAGE
from tps_atlas.web.api.schema import problems
from tps_atlas.web.data import ASSET_PATH

SCHEMA = Path(__file__).resolve().parent / "schemas" / "tps-data.json"
LIST_ITEM = re.compile(r"^\$\.cards\[(\d+)\]")


@cached(maxsize=None)
def browser_schema() -> dict:
    return json.loads(SCHEMA.read_text(encoding="utf-8"))


def checked_site_data(data: dict) -> dict:
    """``data``, once the schema accepts it; else a DataError naming the file and the key (a card by
    its id as well as its place in the list)."""
    as_read = json.loads(json.dumps(data))  # as the browser reads it: a tuple is an array
    found = problems(as_read, browser_schema(), limit=1)
    if not found:
        return data
    where, _, what = found[0].partition(": ")
    where = LIST_ITEM.sub(lambda m: f"{m.group(0)} ({as_read['cards'][int(m.group(1))].get('id')})", where)
    expected, _, value = what.partition(", found ")
    raise DataError(ASSET_PATH, where, f"a value the schema {SCHEMA.relative_to(PACKAGE.parent).as_posix()} "
                    f"accepts: {expected.removeprefix('expected ')}", found_value(value))


def found_value(text: str) -> object:
    """The value the validator quotes as JSON, for DataError to quote once (None: it quoted none)."""
    try:
        return json.loads(text) if text else None
    except ValueError:
        return text
