"""Issue 10 on the pages, rendered in-process on a small catalogue (no site build): when the data
was last checked, recently added models, a unified machine's memory share and how to raise it,
a vision encoder in the worked example, the Hugging Face link."""

from __future__ import annotations

import dataclasses
import html
import re

import pytest

from tps_atlas.catalogue.load import Catalogue, Portal
from tps_atlas.catalogue.cards import load_cards
from tps_atlas.mkdocs.render import Renderer

from tests.support.paths import FIXTURES


def visible(page: str) -> str:
    return re.sub(r"\s+", " ", html.unescape(re.sub(r"<[^>]+>", " ", page)))


@pytest.fixture(scope="module")
def small(catalogue):
    cards = {c.id: c for c in load_cards(devices=FIXTURES / "devices.yaml")}
    chosen = [cards[i] for i in ("geforce-rtx-4090", "geforce-rtx-3060-12gb", "test-m4-pro-24gb",
                                 "test-890m-32gb", "geforce-rtx-4070-mobile")]
    llama = catalogue.model("llama-3.1-8b")
    vision = dataclasses.replace(llama, id="llama-vision", name="Llama Vision", vision_encoder_b=0.4)
    models = [llama, vision, catalogue.model("qwen3-14b"), catalogue.model("glm-130b")]
    return Catalogue(cards=tuple(chosen), models=tuple(models))


def renderer(small, settings, language):
    return Renderer(language, small, settings, Portal((), (), (), recent_models=2))


@pytest.mark.parametrize("language, expected", [("en", "data last checked November 29, 2026"),
                                                ("nl", "gegevens laatst gecontroleerd op 29 november 2026")])
def test_a_model_page_says_when_its_data_was_checked(small, settings, language, expected):
    page = visible(renderer(small, settings, language).render_model("qwen3-14b"))
    assert expected in page


def test_the_hugging_face_repository_is_linked(small, settings):
    page = renderer(small, settings, "en").render_model("qwen3-14b")
    repo = small.model("qwen3-14b").huggingface
    assert "/" in repo and f'href="https://huggingface.co/{repo}"' in page


def test_a_vision_encoder_is_a_term_of_the_memory_sum(small, settings):
    page = visible(renderer(small, settings, "en").render_model("llama-vision"))
    # Memory is written in GiB, as VRAM is sold: 400 million F16 weights are 0.8 GB, 0.7 GiB.
    match = re.search(r"Memory: weights ([\d.]+) GiB \+ vision encoder ([\d.]+) GiB \+ KV cache ([\d.]+) GiB "
                      r"\+ buffer ([\d.]+) GiB = ([\d.]+) GiB", page)
    assert match, page[:500]
    weights, vision, kv, buffer, need = map(float, match.groups())
    assert vision == round(0.4e9 * 2 / 2**30, 1) and abs(weights + vision + kv + buffer - need) <= 0.15
    assert "Vision encoder 400 million, loaded beside the model at F16" in page


def test_a_unified_machine_page_gives_the_share_per_os_and_how_to_raise_it(small, settings):
    page = renderer(small, settings, "en").render_card("test-m4-pro-24gb")
    text = visible(page)
    assert "macOS 13–15: 66.7% of system memory" in text and "macOS 26: 75% of system memory" in text
    assert '(<a href="https://example.org/macos-26" rel="nofollow noopener">https://example.org/macos-26</a>)' in page
    assert "<code>sudo sysctl iogpu.wired_limit_mb=&lt;MB&gt;</code>" in page
    assert "Data last checked November 2026" in text
    amd = renderer(small, settings, "de").render_card("test-890m-32gb")
    assert "<code>amdgpu.gttsize</code>" in amd and "<code>ttm.pages_limit</code>" in amd
    assert "Kernelparametern" in amd
    discrete = visible(renderer(small, settings, "en").render_card("geforce-rtx-4090"))
    assert "How much memory the GPU may use" not in discrete


def test_home_and_models_index_put_the_newest_models_first(small, settings):
    r = renderer(small, settings, "en")
    home = visible(r.render_home())
    recent = home[home.index("Recently added"):home.index("Popular models")]
    assert recent.index("Qwen3 14B") < recent.index("Llama 3.1 8B") and "GLM-130B" not in recent
    index = visible(r.render_models_index())
    order = [index.index(name) for name in ("Qwen3 14B", "Llama 3.1 8B", "GLM-130B")]
    assert order == sorted(order)


def test_the_cards_index_filter_knows_the_names_cards_are_sold_under(small, settings):
    page = renderer(small, settings, "en").render_cards_index()
    assert 'data-search="GeForce RTX 4070 Laptop GPU RTX 4070 Laptop"' in page


def test_links_in_a_source_text_open_no_attribute_and_run_nothing():
    from tps_atlas.pages.card import linked
    out = str(linked('see https://e.org/a"onmouseover="alert(1) and javascript:alert(2) <script>x</script>'))
    assert '<a href="https://e.org/a" rel="nofollow noopener">https://e.org/a</a>' in out
    assert "<script>" not in out and 'href="javascript' not in out and '"onmouseover' not in out
