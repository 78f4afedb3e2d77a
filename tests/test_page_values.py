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
