"""A name's forms in a language: ``"nom: die {name} | dat: der {name}"``, one per case a
sentence may ask for (``{card:dat}``). Parsed here, in a leaf module, because both the phrase
catalogues (checking a translation, ``phrases.consistent``) and the names (``names.py``, which
word them) need the same reading.
"""

from __future__ import annotations

import re

CASES = ("name", "nom", "acc", "dat", "gen", "a", "de", "in")
FORM = re.compile(r"^\s*(\w+)\s*:\s*(.*?)\s*$")


def parse_forms(text: str) -> dict[str, str]:
    """``"nom: die {name} | dat: der {name}"`` as a mapping; a problem raises ValueError.

    >>> parse_forms("nom: die {name} | dat: der {name}")
    {'nom': 'die {name}', 'dat': 'der {name}'}
    >>> parse_forms("die {name}")
    Traceback (most recent call last):
    ...
    ValueError: 'die {name}' is not 'case: words'
    """
    forms: dict[str, str] = {}
    for part in text.split("|"):
        match = FORM.match(part)
        if not match:
            raise ValueError(f"{part.strip()!r} is not 'case: words'")
        case, words = match.groups()
        if case not in CASES:
            raise ValueError(f"unknown case {case!r} (cases: {', '.join(CASES)})")
        if case in forms:
            raise ValueError(f"case {case!r} given twice")
        forms[case] = words
    if "nom" not in forms:
        raise ValueError("no 'nom' form")
    return forms


def forms_problem(text: str) -> str | None:
    """What is wrong with a translated forms entry, or None (for `tps-atlas i18n check`)."""
    try:
        parse_forms(text)
    except ValueError as error:
        return str(error)
    return None
