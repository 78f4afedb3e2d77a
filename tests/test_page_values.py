"""A model page's shared values are a typed record (tps_atlas/pages/model/values.py), and a
sentence asking for a value nobody gave stops the build naming the sentence and the placeholder,
instead of printing "{fast_card}" to readers (tps_atlas/i18n/phrases.py fill)."""

from __future__ import annotations

import pytest

from tps_atlas.i18n.phrases import N_, Phrases, UnknownPlaceholder
from tps_atlas.pages.figures import model_figures
from tps_atlas.pages.model.context import PageContext
from tps_atlas.pages.model.values import common


@pytest.mark.parametrize("language", ["en", "fr"])
def test_a_misspelt_placeholder_stops_with_the_msgid_and_the_name(language):
    message = N_("Only the {fast_card} holds it, and it runs it at about {fast_tok_s}: above reading speed, "
                 "which is about ten tokens per second.")
    with pytest.raises(UnknownPlaceholder) as error:
        Phrases(language).t(message, fast_cards="GeForce RTX 4090", fast_tok_s="30 tok/s")
    assert "Only the {fast_card} holds it" in str(error.value) and "no value for {fast_card}" in str(error.value)
    assert "(given: fast_cards, fast_tok_s)" in str(error.value)


def test_a_sentence_about_the_smallest_card_stops_when_no_card_holds_the_model(catalogue, settings):
    model = max(catalogue.models, key=lambda m: m.parameters_b)
    calibration = settings.calibration()
    tiny = [c for c in catalogue.cards if c.vram_gb <= 8 and not c.unified][:3]
    fig = model_figures(model, tiny, settings, calibration)
    assert fig.smallest is None
    p = Phrases("de")
    v = common(PageContext(p, settings, None, {}), model, fig)
    assert v.small is None and "small_card" not in v.placeholders and v.placeholders["model"] == model.name
    with pytest.raises(UnknownPlaceholder, match=r"no value for \{small_card\}"):
        p.t(N_("The smallest is the {small_card}, with {small_memory}: it runs {model} at {small_quant} and "
               "produces about {small_tok_s}."), **v.placeholders)


def test_a_card_page_names_its_largest_and_fastest_model_from_the_table(catalogue, estimates):
    """The card page's values (tps_atlas/pages/card_values.py): the largest model is the one with
    the most parameters among those the card holds, the fastest the first of the table's rows."""
    from tps_atlas.pages.card_values import card_values

    card = catalogue.cards_by_id["geforce-rtx-4090"]
    runs, _ = estimates.card_rows(card.id)
    v = card_values(Phrases("en"), card, runs, len(catalogue.models))
    assert v.vram == "24 GB" and v.total == str(len(catalogue.models))
    assert v.fast is not None and v.fast.model == runs[0][0].name
    assert v.large is not None and v.large.model == max(runs, key=lambda r: r[0].parameters_b)[0].name
    assert v.placeholders["large_model"] == v.large.model and str(v.placeholders["card"]) == "GeForce RTX 4090"


def test_a_sentence_about_the_largest_model_stops_on_a_card_that_holds_none(catalogue):
    from tps_atlas.pages.card_values import card_values

    card = min(catalogue.cards, key=lambda c: c.vram_gb)
    p = Phrases("fr")
    v = card_values(p, card, [], len(catalogue.models))
    assert v.large is None and v.fast is None and "large_model" not in v.placeholders
    with pytest.raises(UnknownPlaceholder, match=r"no value for \{large_model\}"):
        p.t(N_("{large_model}, with {large_params} parameters: at {large_quant} it needs about {large_need} of the "
               "{vram} available."), **v.placeholders)
