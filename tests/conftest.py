import csv
from pathlib import Path

import pytest

from macros.catalogue import load_catalogue
from macros.estimator import load_settings

ROOT = Path(__file__).resolve().parent.parent
FIXTURES = Path(__file__).resolve().parent / "fixtures"


@pytest.fixture(scope="session")
def catalogue():
    return load_catalogue()


@pytest.fixture(scope="session")
def settings():
    return load_settings()


@pytest.fixture(scope="session")
def seed(settings):
    return settings.calibration("seed")


def seed_rows():
    with open(FIXTURES / "seed-rows.tsv", encoding="utf-8") as handle:
        lines = [line for line in handle if not line.startswith("#")]
    return list(csv.DictReader(lines, delimiter="\t"))


# The pages the page tests read: a preview build (TPS_PREVIEW) of these models and cards in all
# four languages, over the whole catalogue (figures, indexes and the home page are the real ones).
PREVIEW_MODELS = ("glm-130b", "glm-4.1v-thinking", "glm-4.5", "glm-5", "mixtral-8x7b", "llama-3.1-8b",
                  "qwen3-30b-a3b", "deepseek-r1", "falcon-7b",
                  "llama-3.2-1b")  # the largest table: the browser tests' phone and timing cases
PREVIEW_CARDS = ("h100-nvl-94gb", "apple-m4-max-128gb", "geforce-rtx-4090", "radeon-instinct-mi300x")


@pytest.fixture(scope="session")
def site(tmp_path_factory):
    """A few model and card pages in four languages, built once with the seed calibration."""
    from .site_build import build_site

    destination = tmp_path_factory.mktemp("site")
    result = build_site(destination, calibration="seed",
                        extra_env={"TPS_PREVIEW": ",".join(PREVIEW_MODELS + PREVIEW_CARDS)})
    assert result.returncode == 0, result.stderr[-3000:]
    return destination


@pytest.fixture(scope="session")
def full_site(tmp_path_factory):
    """The whole site (every model and card page), for links, the sitemap and checks over every
    page; tests that use it are marked ``full`` (CI runs them in a step of their own)."""
    from .site_build import build_site

    destination = tmp_path_factory.mktemp("full-site")
    result = build_site(destination, calibration="seed")
    assert result.returncode == 0, result.stderr[-3000:]
    return destination
