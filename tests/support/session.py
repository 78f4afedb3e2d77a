"""What the session shares: the preview set, the background builds' helpers, the estimate
table and the command run in-process."""

from __future__ import annotations

import csv
import functools
from typing import Callable

from tps_atlas.catalogue.load import load_catalogue
from tps_atlas.estimate.settings import load_settings

from tests.support.paths import FIXTURES


@functools.lru_cache(maxsize=1)
def default_estimates():
    """Every catalogue model on every card with the default calibration: the build's own table
    (``tps_atlas.pages.figures.estimate_table``), worked out once per session for every test that reads it."""
    from tps_atlas.pages.figures import estimate_table

    settings = load_settings()
    return estimate_table(load_catalogue(), settings, settings.calibration().name)

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

# Builds the selected tests need start in the background before the first test (two cores: a
# build runs beside the tests that need none). Test modules add theirs with ``early_builds``:
# name -> function(items, pool, tmp_path_factory) that submits the builds those items need.
EARLY_BUILDS: dict[str, Callable] = {}

def early_builds(function: Callable) -> Callable:
    EARLY_BUILDS[function.__module__ + "." + function.__name__] = function
    return function

def uses(items, fixture: str) -> bool:
    return any(fixture in getattr(item, "fixturenames", ()) for item in items)

def run_tps_atlas(*args: str) -> tuple[int, str, str]:
    """``tps-atlas`` in this process (a subprocess per case would load the catalogues each time):
    ``run_tps_atlas("estimate", "glm-130b")`` gives (status, stdout, stderr)."""
    import contextlib
    import io

    from tps_atlas.cli import main as cli

    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            code = cli.main(list(args))
        except SystemExit as stop:  # argparse's own mistakes
            code = stop.code
    return int(code or 0), out.getvalue(), err.getvalue()
