"""The pages word the verdict (tps_atlas/estimate/verdict.py) and decide nothing again: the page contexts,
in the four languages, against the figures of the build's own table."""

from __future__ import annotations

import re
import shutil

import pytest

from tps_atlas.pages.card import CardPageBuilder
from tps_atlas.catalogue.load import load_portal
from tps_atlas.pages.model.builder import ModelPageBuilder
from tps_atlas.i18n.names import card_name
from tps_atlas.i18n.phrases import Phrases
from tps_atlas.estimate.verdict import Multi, Offload

from tests.support.site_build import page_path

LANGUAGES = ("en", "nl", "fr", "de")


def plain(markup) -> str:
    return re.sub(r"<[^>]+>", "", str(markup))


def faq(page) -> dict[str, str]:
    return {plain(q): plain(a) for q, a in page.faq}


@pytest.fixture(scope="module")
def card_page(catalogue, estimates):
    portal = load_portal(catalogue)

    def build(card_id: str, language: str):
        return CardPageBuilder(Phrases(language), catalogue, estimates, portal).build(catalogue.card(card_id))
    return build


@pytest.fixture(scope="module")
def model_page(settings, estimates):
    def build(model_id: str, language: str = "en"):
        return ModelPageBuilder(Phrases(language), settings, None, {}).build(
            estimates.figures[model_id].model, estimates.figures[model_id])
    return build


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_card_that_runs_a_model_with_ram_is_not_told_no(card_page, catalogue, estimates, language):
    p = Phrases(language)
    answers = faq(card_page("geforce-rtx-4090", language))
    question = plain(p.t("Can the {card} run {model}?", card=card_name(catalogue.card("geforce-rtx-4090"), language),
                         model="gpt-oss-120b"))
    answer = answers[question]
    v = estimates.verdict("gpt-oss-120b", catalogue.card("geforce-rtx-4090"))
    assert isinstance(v, Offload)
    # What the card alone lacks, at MXFP4 (no "even": it is the only format), then the speed with RAM.
    assert p.fmt.gb(v.shortfall.shortfall_gb) in answer and p.fmt.tok_s(v.estimate.tok_s) in answer
    assert "MXFP4" in answer and "Q3_K_M" not in answer
    assert not answer.startswith(plain(p.t("No. At {quant} {model} needs about {need}", quant="MXFP4",
                                           model="gpt-oss-120b", need="")).split(" ")[0] + " ")
    if language == "en":
        assert answer.startswith("Not entirely on the card: at MXFP4") and "even" not in answer


def test_even_at_only_at_the_floor(card_page, catalogue, estimates, settings):
    answer = faq(card_page("geforce-rtx-4090", "en"))["Can the GeForce RTX 4090 run Llama 3.1 70B?"]
    v = estimates.verdict("llama-3.1-70b", catalogue.card("geforce-rtx-4090"))
    assert v.shortfall.quant_name == settings.min_quality
    assert f"even at {settings.min_quality}" in answer and "Q4_K_M Llama" not in answer
    assert f"runs at {v.estimate.quant.name} with part of it in RAM" in answer


@pytest.mark.parametrize("language", LANGUAGES)
def test_models_it_cannot_hold_are_short_at_the_one_rule(card_page, catalogue, estimates, language):
    page = card_page("h200-sxm-141gb", language)
    kimi = next(r for r in page.misses if r.model == "Kimi K2")
    v = estimates.verdict("kimi-k2", catalogue.card("h200-sxm-141gb"))
    assert kimi.quant == v.shortfall.quant_name == estimates.figures["kimi-k2"].floor
    assert kimi.shortfall == Phrases(language).fmt.gb(v.shortfall.shortfall_gb)


def test_the_memory_tier_answer_is_the_best_row_of_that_tier(model_page, estimates):
    fig = estimates.figures["gpt-oss-20b"]
    answers = faq(model_page("gpt-oss-20b"))
    for tier in (8, 12, 16):
        answer = answers.get(f"Can I run gpt-oss-20b on a {tier} GB GPU?")
        if answer is None:
            continue
        fits = fig.tiers[tier]
        best = fits or next((o for o in fig.offload if o.card.vram_gb == tier), None)
        if best is None:
            assert answer.startswith("No")
            continue
        assert best.card.name in answer and Phrases("en").fmt.tok_s(best.tok_s) in answer
        if not fits:
            assert answer.startswith("Not entirely on the card, but with part of it in system RAM, yes")


@pytest.mark.parametrize("language", LANGUAGES)
def test_two_gpus_for_a_model_only_a_few_devices_hold(model_page, estimates, language):
    fig = estimates.figures["deepseek-r1"]
    assert fig.multi is not None
    p = Phrases(language)
    answer = faq(model_page("deepseek-r1", language))[plain(p.t("Would two GPUs run {model} faster?",
                                                               model="DeepSeek-R1"))]
    e = fig.multi.cheapest
    assert f"{fig.multi.count} × {e.card.name}" in answer and p.fmt.tok_s(e.tok_s) in answer
    assert not answer.startswith(p.gettext("No").split()[0] + ".")


def test_kimi_k2_needs_the_same_figure_as_its_set_and_no_longer_reads_as_impossible(model_page, estimates):
    fig = estimates.figures["kimi-k2"]
    page = model_page("kimi-k2")
    step_one = plain(page.steps[0][1])
    set_text = plain(page.numbers_text[0])
    assert f"even at {fig.floor}" in step_one and "Q4_K_M" not in step_one
    assert Phrases("en").fmt.gb(fig.nearest_miss.need_gb) in step_one
    assert f"at {fig.multi.cheapest.quant.name} it needs about" in set_text
    # The largest device short of it is a machine: never "card".
    assert fig.nearest_miss.card.unified and "largest device we track" in step_one
    assert "table above" not in page.steps_intro


@pytest.mark.parametrize("language", LANGUAGES)
def test_counts_name_both_kinds_as_the_table_lists_them(model_page, estimates, language):
    fig = estimates.figures["gpt-oss-120b"]
    p = Phrases(language)
    answers = " ".join(faq(model_page("gpt-oss-120b", language)).values())
    sentence = plain(p.n(("In all, {count} device runs it: {fit} entirely, {offload} with part of it in RAM.",
                          "In all, {count} devices run it: {fit} entirely, {offload} with part of it in RAM."),
                         fig.cards_run, fit=p.fmt.count(fig.cards_fit), offload=p.fmt.count(fig.cards_offload)))
    assert sentence in answers
    assert len(model_page("gpt-oss-120b", language).rows) == fig.cards_run


def test_offload_rows_flag_a_context_the_model_cannot_read(card_page, estimates, settings):
    page = card_page("geforce-rtx-4080", "de")
    # the models of the table as its calibration reads them (GLM-130B's recorded layout: 2,048 tokens)
    short = {f.model.name for f in estimates.figures.values()
             if f.model.architecture and (f.model.architecture.max_context or 10**9) < settings.context_tokens}
    falcon = [r for r in page.offload_rows if r.model.startswith("Falcon")]
    assert falcon and all("2.048" in r.limit for r in falcon)
    assert all(bool(r.limit) == (r.model in short) for r in page.offload_rows)


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_card_a_set_of_which_holds_the_model_is_told_so(catalogue, estimates, language):
    from tps_atlas.pages.verdict_text import cannot_hold_answer

    v = estimates.verdict("kimi-k2", catalogue.card("radeon-instinct-mi350x"))
    assert isinstance(v, Multi)
    p = Phrases(language)
    answer = plain(cannot_hold_answer(p, catalogue.model("kimi-k2"), v))
    assert p.fmt.count_words(v.count) in answer and p.fmt.tok_s(v.estimate.tok_s) in answer
    assert "--tensor-split" in answer and p.fmt.gb(v.shortfall.shortfall_gb) in answer


# ------------------------------------------------------------------ the whole-site check


def copied(site, destination, *pages):
    for language, *parts in pages:
        source = page_path(site, language, *parts)
        target = page_path(destination, language, *parts)
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(source, target)
    return destination


def test_the_whole_site_check_finds_a_page_that_contradicts_its_own_table(site, tmp_path):
    """Pages of the preview build agree with themselves; change one sentence or count in each and the
    check (tests/support/whole_site_verdicts.py, run over every page by the full tests) names it."""
    from tests.support.whole_site_verdicts import Checker

    pages = [("en", "models", "qwen3-30b-a3b"), ("en", "cards", "geforce-rtx-4090"), ("en", "models"),
             ("en", "cards"), ("en",)]
    assert Checker(copied(site, tmp_path / "as-built", *pages), "en").run() == []
    changed = copied(site, tmp_path / "changed", *pages)
    model = page_path(changed, "en", "models", "qwen3-30b-a3b")
    text = model.read_text(encoding="utf-8")
    # The 16 GB answer now names a speed that is not its row's.
    text, n = re.subn(r"(Can I run Qwen3 30B-A3B on a 16 GB GPU\?</h3>\n<p>[^<]*?)(\d+(?:\.\d+)?) tok/s",
                      r"\g<1>1.0 tok/s", text, count=1)
    assert n == 1
    # ... and one device more than the table shows reaches reading speed.
    head, faq_part = text.split('id="faq"', 1)
    faq_part, n = re.subn(r"(devices that hold it, |All )(\d+)( reach| devices that hold it reach)",
                          lambda m: f"{m.group(1)}{int(m.group(2)) + 1}{m.group(3)}", faq_part, count=1)
    assert n == 1
    text = head + 'id="faq"' + faq_part
    model.write_text(text, encoding="utf-8")
    card = page_path(changed, "en", "cards", "geforce-rtx-4090")
    card.write_text(card.read_text(encoding="utf-8").replace("</h1>", "</h1><p>It needs 1 GB even at Q4_K_M, so.</p>",
                                                             1), "utf-8")
    index = page_path(changed, "en", "models")
    index.write_text(re.sub(r'(<a href="qwen3-30b-a3b/">.*?<td data-value=")(\d+)(">)',
                            lambda m: m.group(1) + str(int(m.group(2)) + 1) + m.group(3),
                            index.read_text(encoding="utf-8"), count=1, flags=re.S), "utf-8")
    found = Checker(changed, "en").run()
    assert any(p.startswith("models/qwen3-30b-a3b: Can I run Qwen3 30B-A3B on a 16 GB GPU?") for p in found), found
    assert "cards/geforce-rtx-4090: 'even at Q4_K_M' with the floor at Q3_K_M" in found, found
    assert any(p.startswith("models index: qwen3-30b-a3b counts") for p in found), found
    assert any(p.startswith("models/qwen3-30b-a3b: the reading-speed count is not the") for p in found), found
    assert len(found) == 4, found


@pytest.mark.full
@pytest.mark.parametrize("language", LANGUAGES)
def test_every_page_agrees_with_its_own_table(whole_site_problems, language):
    """Every model, card, index and home page of the whole site (tests/support/whole_site_verdicts.py)."""
    problems = whole_site_problems[f"verdicts-{language}"]
    assert not problems, problems[:20]


@pytest.mark.parametrize(("language", "before", "after"), [("en", " (", ")"), ("nl", " met ", ""), ("de", " (", ")")])
def test_the_card_pages_fastest_models_give_each_speed_beside_its_model(card_page, language, before, after):
    # "SmolLM2 135M (466 tok/s), Gemma 3 270M (460 tok/s)", as model pages list devices; not a name run into a speed.
    page = card_page("geforce-rtx-4090", language)
    summary = plain(page.chart_summary)
    for name, _, speed in page.chart_items[:2]:
        assert f"{name}{before}{speed}{after}" in summary, summary
