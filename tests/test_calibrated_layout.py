"""GLM-130B's published attention layout (70 layers, 96 heads, no GQA) is recorded for the measured
calibration; the seed calibration keeps the seed pages' estimate from size, and their figures."""

import pytest

from tps_atlas.catalogue.models import read_model
from tps_atlas.errors import DataError
from tps_atlas.estimate.memory import memory_needed

from tests.support.paths import ROOT


def test_the_measured_calibration_gets_glm_130b_s_layout(catalogue, settings):
    measured = catalogue.model("glm-130b").for_calibration("measured")
    arch = measured.architecture
    assert (arch.layers, arch.attention, arch.kv_heads, arch.head_dim, arch.max_context) == (70, "mha", 96, 128, 2048)
    memory = memory_needed(measured, settings.quant("Q4_K_M"), 4096, settings)
    # 2 x 96 heads x 128 x 2 bytes x 70 layers x 4,096 tokens: about 14 GB, not the 0.18 GB estimated from size.
    assert memory.from_architecture and 13.5 < memory.kv_gb < 14.5
    assert memory.total_gb > 0.9 * 94  # so no longer "tight" on the 94 GB H100 NVL at Q4_K_M


def test_the_seed_calibration_keeps_the_seed_page_s_memory(catalogue, settings):
    seed = catalogue.model("glm-130b").for_calibration("seed")
    assert seed.architecture is None
    memory = memory_needed(seed, settings.quant("Q4_K_M"), 4096, settings)
    assert round(memory.kv_gb, 2) == 0.18 and round(memory.total_gb, 1) == 79.3  # the seed page's 79.3 GB


def test_a_layout_for_an_unknown_calibration_is_refused(tmp_path):
    text = (ROOT / "data" / "models" / "glm-130b.yaml").read_text(encoding="utf-8")
    path = tmp_path / "glm-130b.yaml"
    path.write_text(text.replace("calibrations: [measured]", "calibrations: [fastest]"), encoding="utf-8")
    with pytest.raises(DataError) as error:
        read_model(path)
    assert "calibrations" in str(error.value) and "fastest" in str(error.value)
