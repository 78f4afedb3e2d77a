"""The MkDocs side is a plugin class (tps_atlas/mkdocs/plugin.py) with the build's state on it,
registered through pyproject.toml's entry point and named in mkdocs.yml; its warnings go to the
MkDocs logger, so ``mkdocs build --strict`` fails on one."""

from __future__ import annotations

import logging
import subprocess
import sys
import textwrap
import tomllib
from importlib.metadata import entry_points
from types import SimpleNamespace

import pytest
import yaml
from mkdocs.exceptions import PluginError

from tests.support.paths import ROOT
from tests.support.project_copy import copy_project
from tps_atlas.mkdocs import plugin as plugin_module
from tps_atlas.mkdocs.plugin import TpsAtlasPlugin


class Loader(yaml.SafeLoader):
    """mkdocs.yml as text: its !ENV tags read as the list they hold."""


Loader.add_constructor("!ENV", lambda loader, node: loader.construct_sequence(node)
                       if isinstance(node, yaml.SequenceNode) else loader.construct_scalar(node))


def test_mkdocs_yml_names_the_plugin_and_no_hook_file():
    config = yaml.load((ROOT / "mkdocs.yml").read_text(encoding="utf-8"), Loader=Loader)
    names = [next(iter(p)) if isinstance(p, dict) else p for p in config["plugins"]]
    assert names[-1] == "tps-atlas" and "hooks" not in config
    assert config["plugins"][-1]["tps-atlas"]["calibration"] == ["TPS_CALIBRATION", ""]


def test_the_entry_point_is_the_plugin_class():
    declared = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    assert declared["project"]["entry-points"]["mkdocs.plugins"] == {
        "tps-atlas": "tps_atlas.mkdocs.plugin:TpsAtlasPlugin"}
    (found,) = entry_points(group="mkdocs.plugins").select(name="tps-atlas")
    assert found.load() is TpsAtlasPlugin


def test_each_plugin_has_its_own_state():
    one, two = TpsAtlasPlugin(), TpsAtlasPlugin()
    one.page_html["en/models/x.md"] = "<p>x</p>"
    one.site_pages.append("models/x/")
    assert two.page_html == {} and two.site_pages == []


def test_a_planted_bad_value_in_the_browser_data_stops_the_build_in_one_line(monkeypatch):
    """on_config makes and checks the browser's data before anything is written."""
    plugin = TpsAtlasPlugin()
    plugin.load_config({"calibration": ""})
    monkeypatch.setattr(plugin_module.site, "check_settings", lambda config, calibration: None)
    monkeypatch.setattr(plugin_module.site, "renderer", lambda language, calibration: None)
    real = plugin_module.site_data

    def bad_data(*args):
        data = real(*args)
        data["models"]["llama-3.1-8b"]["architecture"]["layers"] = "32"
        return data

    monkeypatch.setattr(plugin_module, "site_data", bad_data)
    with pytest.raises(PluginError) as error:
        plugin.on_config(SimpleNamespace(plugins={}))
    assert str(error.value) == (
        "TPS Atlas: assets/tps-data.json: $.models.llama-3.1-8b.architecture.layers: expected a value the "
        "schema tps_atlas/web/schemas/tps-data.json accepts: integer, found '32'")
    assert plugin.browser_data == {}


def test_a_warning_goes_to_the_mkdocs_logger_strict_counts(tmp_path, monkeypatch, caplog):
    plugin = TpsAtlasPlugin()
    monkeypatch.setattr(plugin_module.site, "finish_site", lambda *args: False)  # no search index written
    with caplog.at_level(logging.WARNING):
        plugin.finish(SimpleNamespace(site_dir=str(tmp_path), site_url=""))
    (record,) = caplog.records
    # mkdocs --strict counts the warnings of the "mkdocs" logger and its children.
    assert record.levelno == logging.WARNING and record.name.startswith("mkdocs.plugins.")
    assert "search/search_index.json" in record.getMessage()


# The build of a project copy, with one value of the browser's data planted wrong.
PLANTED_BUILD = textwrap.dedent("""
    import sys
    from mkdocs.__main__ import cli
    from tps_atlas.mkdocs import plugin

    real = plugin.site_data
    def bad(*args):
        data = real(*args)
        data["cards"][0]["bandwidth_gb_s"] = "fast"
        return data
    plugin.site_data = bad
    cli(["build", "--strict", "--quiet", "-d", sys.argv[1]])
""")


@pytest.mark.full
def test_a_build_with_a_bad_browser_value_stops_and_writes_nothing(tmp_path):
    project = copy_project(tmp_path / "project")
    path = [str(project / "_shim"), str(project)] if (project / "_shim").is_dir() else [str(project)]
    env = {"PYTHONPATH": ":".join(path), "NO_MKDOCS_2_WARNING": "1", "TPS_PREVIEW": "glm-4.5",
           "PATH": "/usr/bin:/bin"}
    site = tmp_path / "site"
    result = subprocess.run([sys.executable, "-c", PLANTED_BUILD, str(site)], cwd=project, env=env,
                            capture_output=True, text=True, timeout=900)
    assert result.returncode != 0
    errors = [line for line in result.stderr.splitlines() if "tps-data.json" in line]
    assert len(errors) == 1 and "$.cards[0] (" in errors[0] and ").bandwidth_gb_s: expected" in errors[0], \
        result.stderr[-2000:]
    assert "Traceback" not in result.stderr
    assert not site.exists() or not any(site.iterdir())
