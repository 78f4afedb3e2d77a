"""A unified machine that runs a model only once its GPU may use more of its memory is told so,
with what it runs at and how, in every place that words its verdict (issue #23: "yes on Linux,
with the GPU allowed 120 GB of system memory: how" instead of a bare "No").

And memory is written in the unit it is sold in: no row that fits reads as needing more than its
card holds.
"""

from __future__ import annotations

import json
import re

import pytest

from tps_atlas.pages.card import CardPageBuilder
from tps_atlas.catalogue.load import load_portal
from tps_atlas.i18n.phrases import Phrases
from tps_atlas.estimate.verdict import NoRun

from tests.support.whole_site_verdicts import memory_problems

LANGUAGES = ("en", "nl", "fr", "de")
MODEL, MACHINE = "qwen3-235b-a22b", "amd-ryzen-ai-max-plus-395-128gb"


def plain(markup) -> str:
    return re.sub(r"<[^>]+>", "", str(markup))


@pytest.fixture(scope="module")
def raised(catalogue, estimates):
    v = estimates.verdict(MODEL, catalogue.card(MACHINE))
    assert isinstance(v, NoRun) and v.raised, "the machine should run it with its GPU limit raised"
    return v


def test_the_ryzen_ai_max_runs_qwen3_235b_on_linux_with_the_limit_raised(raised, catalogue):
    """The public run of issue #23: Qwen3 235B-A22B at Q3_K_M on a 128 GB Ryzen AI Max+ 395 under Linux."""
    assert raised.raised.limit.os == "Linux"
    assert raised.raised.estimate.quant.name == "Q3_K_M"
    card = catalogue.card(MACHINE)
    # More than the default share, less than the whole memory.
    assert card.vram_gb < raised.raised.limit.budget_gb / 1.073741824 < card.system_memory_gb
    assert raised.shortfall.shown_gb > 0


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_machine_page_says_what_the_raised_limit_gives(raised, catalogue, estimates, settings, language):
    p = Phrases(language, memory=settings.calibration().memory_unit)
    page = CardPageBuilder(p, catalogue, estimates, load_portal(catalogue)).build(catalogue.card(MACHINE))
    row = next(r for r in page.misses if r.model == "Qwen3 235B-A22B")
    e = raised.raised.estimate
    assert row.raised is not None
    assert plain(row.raised) == " · ".join([p.gettext("With the GPU limit raised"), e.quant.name, p.fmt.tok_s(e.tok_s)])


def test_the_cannot_hold_answer_names_the_os_the_limit_and_the_speed(raised, catalogue, settings):
    from tps_atlas.pages.verdict_text import cannot_hold_answer

    for language in LANGUAGES:
        p = Phrases(language, memory=settings.calibration().memory_unit)
        answer = plain(cannot_hold_answer(p, catalogue.model(MODEL), raised))
        e = raised.raised.estimate
        for shown in ("Linux", p.fmt.gb(raised.raised.limit.budget_gb), e.quant.name, p.fmt.tok_s(e.tok_s),
                      p.fmt.gb(e.need_gb)):
            assert shown in answer, (language, shown, answer)
        assert p.fmt.unit("GiB") in answer


def test_the_command_line_gives_the_raised_run(tps_atlas):
    code, out, _ = tps_atlas("estimate", MODEL, "--json", "--all")
    assert code == 0
    row = next(r for r in json.loads(out)["rows"] if r["card_id"] == MACHINE)
    assert row["verdict"]["kind"] == "none"
    assert row["verdict"]["raised"]["os"] == "Linux" and row["verdict"]["raised"]["quant"] == "Q3_K_M"
    assert row["verdict"]["raised"]["tok_s"] > 0


def test_a_fitting_row_never_needs_more_than_its_card_in_the_pages_unit(estimates, settings):
    """Every fitting pair of the catalogue, as a page writes its memory cells."""
    f = Phrases("en", memory=settings.calibration().memory_unit).fmt
    assert f.memory_unit == "GiB"
    over = [(m, e.card.id, f.gb(e.need_gb), f.vram(e.card.vram_gb))
            for m, figures in estimates.figures.items() for e in figures.rows
            if float(f.gb(e.need_gb).split()[0].replace(",", "")) > e.card.vram_gb]
    assert not over, over[:5]


def test_the_whole_site_check_finds_a_need_above_its_card():
    row = ('<tr data-card="c"><td class="tps-fit-tight">Krap</td><td>9 tok/s <small>5–9</small></td>'
           '<td><a href="x">C</a> <small>V</small></td><td>{vram}</td><td>{need}</td><td>Q4_K_M</td></tr>')
    assert memory_problems(row.format(vram="24 GB", need="24,5 GB"), "nl")
    assert memory_problems(row.format(vram="24\u00a0Go", need="25,8\u00a0Go"), "fr")
    assert not memory_problems(row.format(vram="24 GiB", need="23,4 GiB"), "de")
    assert not memory_problems(row.format(vram="1.024 GiB", need="999,5 GiB"), "de")
