"""No English left in the device notes of a translated card page: each OS label of a machine's memory
shares is in the page's language (de review: "Windows (older Intel drivers): 50 % des Arbeitsspeichers"),
and the sources beside them stay English quotations, marked lang="en"."""

from __future__ import annotations

import re

import pytest

from tps_atlas.pages.card import CardPageBuilder
from tps_atlas.catalogue.load import Catalogue, Portal
from tps_atlas.i18n.data_text import device_os
from tps_atlas.pages.figures import EstimateTable
from tps_atlas.i18n.phrases import Phrases

# Words of the English labels that no translated label keeps (product and setting names may stay).
ENGLISH = re.compile(r"\b(older|drivers?|default|raised|set in|or later|graphics driver)\b", re.I)


@pytest.mark.parametrize("language", ("nl", "fr", "de"))
def test_every_memory_share_label_is_in_the_page_language(catalogue, language):
    p = Phrases(language)
    labels = {share.os for card in catalogue.cards for share in card.shares}
    assert any(ENGLISH.search(label) for label in labels)   # the check has English to find
    left = sorted(label for label in labels if ENGLISH.search(str(device_os(p, label))))
    assert left == [], left
    assert not any('lang="en"' in str(device_os(p, label)) for label in labels)


@pytest.mark.parametrize("language, label", [
    ("de", "Windows (ältere Intel-Treiber)"), ("nl", "Windows (oudere Intel-stuurprogramma's)"),
    ("fr", "Windows (pilotes Intel plus anciens)"),
])
def test_a_translated_card_page_words_the_os_and_quotes_the_source(catalogue, settings, seed, language, label):
    card = catalogue.card("intel-arc-140v-16gb")
    models = (catalogue.model("llama-3.1-8b"),)
    table = EstimateTable(models, (card,), settings, seed)
    page = CardPageBuilder(Phrases(language), Catalogue(cards=(card,), models=models), table,
                           Portal(models, (card,), models)).build(card)
    shown = {str(os): str(source) for os, _, source in page.shares}
    assert label in shown, shown
    assert all(source.startswith('<span lang="en">') for source in shown.values()), shown
    assert not any(ENGLISH.search(os) for os in shown), shown
