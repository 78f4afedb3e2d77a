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


@pytest.fixture(scope="session")
def site(tmp_path_factory):
    """The whole site, built once with the seed calibration (the seed pages' figures)."""
    from .site_build import build_site

    destination = tmp_path_factory.mktemp("site")
    result = build_site(destination, calibration="seed")
    assert result.returncode == 0, result.stderr[-3000:]
    return destination
