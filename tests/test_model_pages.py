"""The built model pages, read as a reader would, in all four languages."""

import pytest

from tps_atlas.catalogue.load import load_catalogue

from tests.support.site_build import page_path, visible_text

LANGUAGES = ("en", "nl", "fr", "de")


def text(site, language, model_id):
    return visible_text(page_path(site, language, "models", model_id).read_text(encoding="utf-8"))


@pytest.mark.full
def test_every_model_has_a_page_in_every_language(full_site):
    site = full_site
    for model in load_catalogue().models:
        for language in LANGUAGES:
            assert page_path(site, language, "models", model.id).is_file(), (language, model.id)


def test_dutch_glm_130b_formats_numbers_and_months(site):
    nl = text(site, "nl", "glm-130b")
    assert "29,6 tok/s" in nl and "3.940 GB/s" in nl and "augustus 2022" in nl
    assert "29.6 tok/s" not in nl and "3,940 GB/s" not in nl


def test_french_glm_5_uses_the_singular_for_zero_and_skips_the_training_run(site):
    fr = text(site, "fr", "glm-5")
    page = page_path(site, "fr", "models", "glm-5").read_text(encoding="utf-8")
    from tps_atlas.i18n.phrases import Phrases
    phrases = Phrases("fr")
    zero = str(phrases.n(("device runs it", "devices run it"), 0))
    one = str(phrases.n(("device runs it", "devices run it"), 1))
    many = str(phrases.n(("device runs it", "devices run it"), 2))
    assert zero == one != many  # French: 0 takes the singular
    # No device runs it: the tile says so in words, not "0 appareil le fait tourner".
    assert "Aucun appareil ne le fait tourner" in fr and zero not in fr
    run_heading = phrases.gettext("The training run")
    assert run_heading != "The training run"
    assert f"<h3>{run_heading}</h3>" not in page  # GLM-5 records no chips, hours, power or cost
    assert phrases.t("No device in our catalogue can run {model} at these settings.", model="GLM-5") in fr
    assert "<table" not in page.split('class="tps-page')[1]  # no empty card table


def test_german_glm_41v_answers_the_small_card_questions(site):
    from tps_atlas.i18n.phrases import Phrases
    de = text(site, "de", "glm-4.1v-thinking")
    phrases = Phrases("de")
    for tier, card in ((8, "CMP 170HX 8 GB"), (12, "GeForce RTX 3080"), (16, "Tesla V100 SXM2 16 GB"),
                       (24, "GeForce RTX 5090 D V2")):
        question = str(phrases.t("Can I run {model} on a {tier} GPU?", model="GLM-4.1V-Thinking",
                                 tier=f"{tier} GB"))
        assert question in de
        answer = de.split(question, 1)[1][:400]
        assert card in answer
    assert "125 tok/s" in de and "53,2 tok/s" in de


def test_english_glm_45_explains_mixture_of_experts(site):
    en = text(site, "en", "glm-4.5")
    assert "mixture-of-experts" in en and "32 billion" in en and "355 billion" in en
    assert "dense model" not in en


@pytest.mark.full
@pytest.mark.parametrize("language", ["nl", "fr", "de"])
def test_translated_pages_have_no_english_months_stray_dots_or_placeholders(whole_site_problems, language):
    found = whole_site_problems[f"english-{language}"]  # tests/support/whole_site.py: english_leftovers
    assert not found, found[:10]


@pytest.mark.parametrize("language", LANGUAGES)
def test_card_names_link_to_card_pages(site, language):
    page = page_path(site, language, "models", "glm-130b").read_text(encoding="utf-8")
    assert 'href="../../cards/h100-nvl-94gb/"' in page


def test_sections_without_data_are_left_out(site):
    from tps_atlas.i18n.phrases import Phrases
    de = page_path(site, "de", "models", "glm-4.1v-thinking").read_text(encoding="utf-8")
    # No training-run facts are recorded for GLM-4.1V-Thinking: no heading for them.
    assert f'<h3>{Phrases("de").gettext("The training run")}</h3>' not in de
    nl = page_path(site, "nl", "models", "glm-130b").read_text(encoding="utf-8")
    assert f'<h3>{Phrases("nl").gettext("The training run")}</h3>' in nl


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_context_beyond_the_models_maximum_is_flagged(site, language):
    from tps_atlas.i18n.phrases import Phrases
    fmt = Phrases(language).fmt
    warning = str(Phrases(language).t(
        "{model} reads at most {max_context} tokens of context: at {context} tokens these figures are beyond "
        "what it can use.", model="Falcon-7B", max_context=fmt.count(2048), context=fmt.count(4096)))
    falcon = page_path(site, language, "models", "falcon-7b").read_text(encoding="utf-8")
    assert f'<p class="tps-context-warning" role="note">{warning}</p>' in falcon  # 4,096 > 2,048 tokens
    llama = page_path(site, language, "models", "llama-3.1-8b").read_text(encoding="utf-8")
    assert '<p class="tps-context-warning" role="note" hidden></p>' in llama  # 131,072 tokens: no warning
