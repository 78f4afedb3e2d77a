"""Cards made up for the page tests: a real record with another name, memory and bandwidth."""

from __future__ import annotations

import dataclasses
import datetime as dt


def card(base, name: str, vram_gb: float, bandwidth: float, released=dt.date(2023, 1, 1)):
    """A discrete card of the given memory and bandwidth, otherwise like ``base``."""
    return dataclasses.replace(base, id=name.lower().replace(" ", "-"), name=name, vram_gb=vram_gb,
                               bandwidth_gb_s=bandwidth, released=released, unified=False,
                               system_memory_gb=None, usable_share=None, chip=None, aliases=())
