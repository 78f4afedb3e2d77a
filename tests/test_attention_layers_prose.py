"""The memory paragraph counts the layers that keep a KV cache apart from those that keep none
(linear attention, state-space blocks): "GQA in 64 layers" is false where 48 of them have no cache."""

import datetime as dt

import pytest

from tps_atlas.pages.figures import model_figures
from tps_atlas.pages.model.builder import ModelPageBuilder
from tps_atlas.i18n.phrases import Phrases


def speed_prose(catalogue, settings, model_id, language):
    model = catalogue.model(model_id)
    fig = model_figures(model, catalogue.cards[:40], settings)
    page = ModelPageBuilder(Phrases(language), settings, dt.date(2026, 1, 1), {}).build(model, fig)
    return " ".join(str(s) for s in page.speed)


@pytest.mark.parametrize("language, said, unsaid", [
    ("en", "grouped-query attention in 16 of its 64 layers; the other 48 keep no KV cache", "64 layers)"),
    ("de", "in 16 der 64 Schichten; die übrigen 48 haben keinen eigenen KV-Cache", "in 64 Schichten"),
    ("fr", "dans 16 de ses 64 couches\u00a0; les 48 autres ne gardent aucun cache KV", "sur 64 couches"),
    ("nl", "in 16 van de 64 lagen; de overige 48 houden geen eigen KV-cache bij", "in 64 lagen"),
])
def test_qwen36_27b_counts_its_cached_layers(catalogue, settings, language, said, unsaid):
    arch = catalogue.model("qwen3.6-27b").architecture
    assert (arch.layers, arch.linear_attention_layers) == (64, 48)
    prose = speed_prose(catalogue, settings, "qwen3.6-27b", language)
    assert said in prose and unsaid not in prose


def test_a_model_whose_every_layer_caches_keeps_the_plain_sentence(catalogue, settings):
    prose = speed_prose(catalogue, settings, "llama-3.1-8b", "en")
    assert "(grouped-query attention, 32 layers)" in prose and "keep no KV cache" not in prose
