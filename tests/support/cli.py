"""The tps-atlas command, run as a command."""

from __future__ import annotations

from tests.support.session import run_tps_atlas


run = run_tps_atlas
