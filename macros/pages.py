"""The model page's public entry points; the page itself is built by ``model_page``."""

from __future__ import annotations

from .model_page import (FIT_LABELS, MEASURED, MEASURED_DEPTH, MEASURED_DETAIL, MEASURED_DETAIL_NO_BUILD,
                         MEASURED_EMPTY, MEASURED_OTHER, WORKING_CHECK, WORKING_TITLE,
                         Group, MeasuredMark,
                         ModelPage, ModelPageBuilder, Row, card_href, fit_label, fit_sentence, measured_mark,
                         measured_note, working_lines)

__all__ = ["FIT_LABELS", "MEASURED", "MEASURED_DEPTH", "MEASURED_DETAIL", "MEASURED_DETAIL_NO_BUILD",
           "MEASURED_EMPTY", "MEASURED_OTHER", "WORKING_CHECK", "WORKING_TITLE",
           "Group", "MeasuredMark",
           "ModelPage", "ModelPageBuilder", "Row", "card_href", "fit_label", "fit_sentence", "measured_mark",
           "measured_note", "working_lines"]
