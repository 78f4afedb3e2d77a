"""The browser's data (assets/tps-data.json) is described by a JSON Schema
(tps_atlas/web/schemas/tps-data.json) that the build holds it to before writing it: a value the
calculator would read wrong stops the build with one line naming the file and the key."""

from __future__ import annotations

import copy

import pytest

from tps_atlas.errors import DataError
from tps_atlas.web.data import site_data
from tps_atlas.web.data_schema import browser_schema, checked_site_data


@pytest.fixture(scope="module")
def data(catalogue, settings):
    return site_data(catalogue, settings)


def test_the_data_of_every_calibration_is_what_the_schema_describes(catalogue, settings):
    for name in settings.calibrations:
        checked_site_data(site_data(catalogue, settings, name))


def test_every_object_of_the_schema_says_which_keys_it_takes():
    """A key site_data gains (or renames) is refused until the schema describes it."""
    open_objects = []

    def walk(schema, where):
        if isinstance(schema, dict):
            kinds = schema.get("type")
            if (kinds == "object" or isinstance(kinds, list) and "object" in kinds) \
                    and "additionalProperties" not in schema:
                open_objects.append(where)
            for key, value in schema.items():
                walk(value, f"{where}/{key}")
        elif isinstance(schema, list):
            for i, value in enumerate(schema):
                walk(value, f"{where}/{i}")

    walk(browser_schema(), "#")
    assert open_objects == []


def planted(data, where, value):
    bad = copy.deepcopy(data)
    *path, last = where
    target = bad
    for key in path:
        target = target[key]
    target[last] = value
    return bad


@pytest.mark.parametrize("where, value, key, expected", [
    (("cards", 0, "vram_gb"), "96 GB", "$.cards[0] ({first_card}).vram_gb", "number"),
    (("models", "llama-3.1-8b", "parameters_b"), -8.0, "$.models.llama-3.1-8b.parameters_b", "at least 0"),
    (("models", "llama-3.1-8b", "layer_count"), 32, "$.models.llama-3.1-8b.layer_count", "not allowed here"),
    (("settings", "fit", "fits"), None, "$.settings.fit.fits", "number"),
    (("ram", "kinds", 0, "id"), "DDR5 6000", "$.ram.kinds[0].id", "does not match"),
])
def test_a_planted_bad_value_is_one_line_naming_the_file_and_the_key(data, where, value, key, expected):
    with pytest.raises(DataError) as error:
        checked_site_data(planted(data, where, value))
    message = str(error.value)
    assert "\n" not in message
    key = key.format(first_card=data["cards"][0]["id"])  # the error names the entry by its id
    assert message.startswith(f"assets/tps-data.json: {key}: expected a value the schema "
                              "tps_atlas/web/schemas/tps-data.json accepts: ")
    assert expected in message


def test_a_missing_key_is_named(data):
    bad = copy.deepcopy(data)
    del bad["ram"]["pcie_gb_s"]
    with pytest.raises(DataError, match=r"^assets/tps-data\.json: \$\.ram: .*pcie_gb_s is required"):
        checked_site_data(bad)
