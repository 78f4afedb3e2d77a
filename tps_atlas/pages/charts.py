"""Bar charts drawn at build time as inline SVG: geometry only, text comes formatted.

>>> bars = bar_chart([("A", 10.0, "10 tok/s"), ("B", 5.0, "5 tok/s")])
>>> [round(b.width) for b in bars.bars], bars.height
([380, 190], 68)
"""

from __future__ import annotations

from dataclasses import dataclass

WIDTH = 640
LABEL_WIDTH = 190       # room for the card or model name left of the bars
VALUE_WIDTH = 70        # room for the value right of the longest bar
BAR_HEIGHT = 22
GAP = 8


@dataclass(frozen=True)
class Bar:
    label: str
    value_label: str
    y: float
    width: float


@dataclass(frozen=True)
class BarChart:
    bars: tuple[Bar, ...]
    width: int
    height: int
    bar_x: int
    bar_height: int


def bar_chart(items: list[tuple[str, float, str]]) -> BarChart:
    """Horizontal bars for ``(label, value, value label)``, longest value full width."""
    largest = max((value for _, value, _ in items), default=0) or 1
    span = WIDTH - LABEL_WIDTH - VALUE_WIDTH
    bars = tuple(Bar(label, value_label, GAP + i * (BAR_HEIGHT + GAP), span * value / largest)
                 for i, (label, value, value_label) in enumerate(items))
    return BarChart(bars, WIDTH, GAP + len(items) * (BAR_HEIGHT + GAP), LABEL_WIDTH, BAR_HEIGHT)
