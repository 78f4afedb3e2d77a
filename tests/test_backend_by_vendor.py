"""The llama.cpp backend a page names for a card is one that runs on the card's vendor: ROCm or
Vulkan on AMD (never CUDA on an Instinct), SYCL or Vulkan on Intel, Metal on Apple."""

import pytest

from tps_atlas.estimate.fit import estimate
from tps_atlas.pages.figures import model_figures
from tps_atlas.pages.model.context import PageContext
from tps_atlas.pages.model.working import working
from tps_atlas.i18n.phrases import Phrases

BACKENDS = {"NVIDIA": {"CUDA"}, "AMD": {"ROCm", "Vulkan"}, "Intel": {"SYCL", "Vulkan"}, "Apple": {"Metal"}}


def test_every_card_is_estimated_for_a_backend_of_its_vendor(catalogue, settings):
    calibration = settings.calibration("measured")
    wrong = {(c.id, calibration.speed_class(c).backend) for c in catalogue.cards
             if calibration.speed_class(c).backend not in BACKENDS[c.vendor]}
    assert not wrong


@pytest.mark.parametrize("card_id, backend", [("radeon-instinct-mi350x", "ROCm"), ("radeon-instinct-mi300x", "ROCm"),
                                              ("amd-instinct-mi300a-128gb", "ROCm"),
                                              ("data-center-gpu-max-1550", "SYCL"), ("h100-nvl-94gb", "CUDA")])
def test_data_centre_cards_are_split_by_vendor(catalogue, settings, card_id, backend):
    assert settings.calibration("measured").speed_class(catalogue.card(card_id)).backend == backend


@pytest.mark.parametrize("language, said, unsaid", [
    ("en", "llama.cpp's ROCm backend", "CUDA"),
    ("de", "ROCm-Backend", "CUDA"),
    ("fr", "ROCm", "CUDA"),
    ("nl", "ROCm", "CUDA"),
])
def test_the_worked_figure_for_an_instinct_card_names_rocm(catalogue, settings, language, said, unsaid):
    model, card = catalogue.model("llama-3.1-8b"), catalogue.card("radeon-instinct-mi350x")
    fig = model_figures(model, (card,), settings)
    e = estimate(model, card, settings, fig.calibration)
    _, lines, _, _ = working(PageContext(Phrases(language), settings, None, {}), model, e, fig)
    backend_line = next(str(line) for line in lines if "Backend" in str(line) or "backend" in str(line))
    assert said in backend_line and unsaid not in backend_line
