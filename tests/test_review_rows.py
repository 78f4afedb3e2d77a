"""Review rows of the language reviews that a reader checks across pages."""

import re

import pytest

from macros.browse import methodology
from macros.phrases import Phrases

READING_SENTENCE = ("Reading speed is about ten tokens per second; {count} card reaches it.",
                    "Reading speed is about ten tokens per second; {count} cards reach it.")


@pytest.mark.parametrize("language", ["en", "nl", "fr", "de"])
def test_methodology_states_reading_speed_as_the_model_pages_do(language, settings):
    # fr review row 32: "10 jetons par seconde" on the methodology, "dix jetons" on model pages.
    p = Phrases(language)
    reading = methodology(p, settings)["reading"]
    model_page = str(p.n(READING_SENTENCE, 36))
    assert not re.search(r"\d", reading)
    assert re.search(rf"\b{re.escape(reading)}\b", model_page), (reading, model_page)
