"""Names inside sentences, with the article, gender and case their language needs.

A sentence keeps a name's placeholder, ``{card}``. A translation that needs the name with its
article writes the case after a colon: ``{card:nom}`` (die GeForce RTX 4090, la Radeon, de H100),
``{card:acc}``, ``{card:dat}`` (auf dem Apple M3 Ultra), ``{card:gen}``, French ``{card:a}`` (à la,
au, à l') and ``{card:de}`` (de la, du, de l'), ``{card:Nom}`` (capitalised, to start a sentence:
Die GeForce RTX 4090), and ``{country:in}`` (in de Verenigde Staten, aux
États-Unis, in den Vereinigten Staaten). The bare ``{card}`` stays the name alone, as tables,
titles and lists want it (an entry's ``name`` form, where it has one: Alibaba (équipe Qwen)).

Which words each case takes is data a translator edits: one catalogue entry per kind of name,
``msgctxt "name forms: gpu"``, ``msgid "nom: the {name}"``, whose translation lists the cases of
the language separated by ``|``: ``"nom: die {name} | acc: die {name} | dat: der {name} | gen: der
{name}"``. A form may leave ``{name}`` out and say the whole name (``"nom: l’université
Tsinghua"``). A case the language does not list falls back to ``nom``, and ``nom`` to the name.
French elides le/la/de before a vowel (l’Apple M3 Ultra, à l’Instinct MI300X, d’OpenAI) by rule.

Cards get the forms of their kind (``card_kind``: gpu, processor or computer, from
data/names.yaml); organisations and countries the forms of their own entry (``NAME_FORMS``) or,
lacking one, of ``organisation`` (the bare name: companies take no article).

``Name`` carries the bare name and its forms; ``phrases.fill`` puts ``name.form(case)`` where a
translation writes ``{placeholder:case}``. ``card_phrase``, ``organisation_phrase`` and
``country_phrase`` return one form as text.

>>> card_phrase("GeForce RTX 4090", "de", "dat"), card_phrase("Apple M3 Ultra (512 GB)", "de", "dat")
('der GeForce RTX 4090', 'dem Apple M3 Ultra (512 GB)')
>>> card_phrase("GeForce RTX 4090", "fr", "a"), card_phrase("Apple M3 Ultra (512 GB)", "fr", "nom")
('à la GeForce RTX 4090', 'l’Apple M3 Ultra (512 GB)')
>>> card_phrase("NVIDIA DGX Spark (GB10, 128 GB)", "fr", "a"), card_phrase("GeForce RTX 4090", "nl", "dat")
('au NVIDIA DGX Spark (GB10, 128 GB)', 'de GeForce RTX 4090')
>>> organisation_phrase("Tsinghua University", "fr", "nom"), organisation_phrase("OpenAI", "fr", "de")
('l’université Tsinghua', 'd’OpenAI')
>>> country_phrase("US", "nl", "in"), country_phrase("US", "fr", "in"), country_phrase("CN", "de", "in")
('in de Verenigde Staten', 'aux États-Unis', 'in China')
>>> joined_name([organisation_name("Tsinghua University", "de"), organisation_name("Zhipu AI", "de")],
...             "de").form("dat")
'der Tsinghua-Universität und Zhipu AI'
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

from tps_atlas.cache import cached
from tps_atlas.errors import DataError
from tps_atlas.i18n.forms import parse_forms
from tps_atlas.i18n.phrases import translations
from tps_atlas.paths import DATA_DIR
from tps_atlas.records.strict_yaml import load_yaml

NAMES_FILE = DATA_DIR / "names.yaml"
# The placeholders the code fills with a Name, so that a translation may write them with a case.
NAME_PLACEHOLDERS = frozenset({"card", "fast_card", "small_card", "miss_card", "peer", "device", "organisation",
                               "country"})
CARD_KINDS = ("gpu", "processor", "computer")


def NC_(context: str, message: str) -> tuple[str, str]:
    """Mark a phrase with its msgctxt for extraction; it is translated where it is used."""
    return context, message


# How each entry reads (its translators' comment repeats it): one "case: words" per case,
# separated by "|". Cases: nom (subject, or every use in a language without cases), acc, dat,
# gen (German), a and de (French: with à, with de), in (a place). A sentence asks for one with
# {card:dat}; a case left out falls back to nom.
NAME_FORMS: dict[str, tuple[str, str]] = {
    # TRANSLATORS: the forms of a graphics processor's or accelerator's name
    # in a sentence, one "case: words" per case, separated by "|"; {name} is
    # the name (GeForce RTX 4090, H100 PCIe). Cases: nom, acc, dat, gen
    # (German), a and de (French: with à, with de), in (a place); list those
    # your language needs, the others fall back to nom. Sentences ask for one
    # with {card:dat}. Example (de): "nom: die {name} | dat: der {name}" gives
    # "auf der GeForce RTX 4090".
    "gpu": NC_("name forms: gpu", "nom: the {name}"),
    # TRANSLATORS: the forms of a processor with its GPU on the chip (not a
    # graphics card), as for "name forms: gpu"; {name} is the name. Example
    # (de): "nom: der {name} | dat: dem {name}" gives "auf dem Apple M3 Ultra
    # (512 GB)".
    "processor": NC_("name forms: processor", "nom: the {name}"),
    # TRANSLATORS: the forms of a whole computer's name, as for "name forms:
    # gpu"; {name} is the name. Example (de): "nom: der {name} | dat: dem
    # {name}" gives "auf dem NVIDIA DGX Spark".
    "computer": NC_("name forms: computer", "nom: the {name}"),
    # TRANSLATORS: the forms of an organisation without an entry of its own (a
    # company: OpenAI, Meta AI), as for "name forms: gpu"; {name} is its name.
    # Example (fr): "nom: {name} | de: de {name}" gives "d’OpenAI" (French
    # elides de and le/la before a vowel by itself).
    "organisation": NC_("name forms: organisation", "nom: {name}"),
    # TRANSLATORS: the forms of this university's name, as for "name forms:
    # gpu"; {name} is its English name, a form may translate it instead; the
    # "name" form is the bare name of tables and lists. Example (fr): "name:
    # Université Tsinghua | nom: l’université Tsinghua".
    "Tsinghua University": NC_("name forms: Tsinghua University", "nom: {name}"),
    # TRANSLATORS: the forms of this institute's name, as for "name forms:
    # gpu"; {name} is its English name. Example (de): "nom: das {name} | dat:
    # dem {name}".
    "Technology Innovation Institute": NC_("name forms: Technology Innovation Institute", "nom: the {name}"),
    # TRANSLATORS: the forms of this institute's name, as for "name forms:
    # gpu"; {name} is its English name. Example (de): "nom: das {name} | dat:
    # dem {name}".
    "Allen Institute for AI": NC_("name forms: Allen Institute for AI", "nom: the {name}"),
    # TRANSLATORS: the forms of "Alibaba (Qwen Team)", the company and its
    # team, as for "name forms: gpu"; {name} is the English name. Example
    # (fr): "nom: Alibaba (équipe Qwen)".
    "Alibaba (Qwen Team)": NC_("name forms: Alibaba (Qwen Team)", "nom: {name}"),
    # TRANSLATORS: the forms of a country's name, as for "name forms: gpu";
    # {name} is its name in your language (CLDR: United States). Example (nl):
    # "nom: de {name} | in: in de {name}".
    "US": NC_("name forms: US", "nom: the {name} | in: in the {name}"),
    # TRANSLATORS: as for "name forms: US"; {name} is China in your language.
    # Example (fr): "nom: la {name} | in: en {name}".
    "CN": NC_("name forms: CN", "nom: {name} | in: in {name}"),
    # TRANSLATORS: as for "name forms: US"; {name} is the United Kingdom in
    # your language. Example (nl): "nom: het {name} | in: in het {name}".
    "GB": NC_("name forms: GB", "nom: the {name} | in: in the {name}"),
    # TRANSLATORS: as for "name forms: US"; {name} is France in your language.
    # Example (fr): "nom: la {name} | in: en {name}".
    "FR": NC_("name forms: FR", "nom: {name} | in: in {name}"),
    # TRANSLATORS: as for "name forms: US"; {name} is the United Arab Emirates
    # in your language. Example (fr): "nom: les {name} | in: aux {name}".
    "AE": NC_("name forms: AE", "nom: the {name} | in: in the {name}"),
    # TRANSLATORS: as for "name forms: US"; {name} is South Korea in your
    # language. Example (fr): "nom: la {name} | in: en {name}".
    "KR": NC_("name forms: KR", "nom: {name} | in: in {name}"),
    # TRANSLATORS: as for "name forms: US"; {name} is Canada in your language.
    # Example (fr): "nom: le {name} | in: au {name}".
    "CA": NC_("name forms: CA", "nom: {name} | in: in {name}"),
}

# French: le/la (and à la, de la, au, du) before a vowel become l', à l', de l'; de becomes d'.
# The typographic apostrophe, as the French catalogue writes it.
FRENCH_ELISION = ((re.compile(r"\b(?:à la|au) $"), "à l’"), (re.compile(r"\b(?:de la|du) $"), "de l’"),
                  (re.compile(r"\b(?:la|le) $", re.I), "l’"), (re.compile(r"\bde $"), "d’"))
FRENCH_VOWEL = re.compile(r"^[AEIOUYÂÀÉÈÊÎÏÔÛaeiouyâàéèêîïôû]")


def elide(language: str, words: str, name: str) -> str:
    """French elision before a name that starts with a vowel (an h stays: la H100)."""
    if language != "fr" or "{name}" not in words or not FRENCH_VOWEL.match(name):
        return words
    before, after = words.split("{name}", 1)
    for pattern, replacement in FRENCH_ELISION:
        if pattern.search(before):
            before = pattern.sub(replacement, before)
            break
    return before + "{name}" + after


@dataclass(frozen=True)
class Name:
    """A name and its forms in one language; ``str()`` is the bare name."""
    text: str
    forms: dict[str, str] = field(default_factory=dict, compare=False)

    def __str__(self) -> str:
        return self.forms.get("name") or self.text

    def form(self, case: str) -> str:
        """The name in ``case``; a capitalised case (``Nom``) starts a sentence: Die GeForce."""
        if case[:1].isupper():
            found = self.form(case.lower())
            return found[:1].upper() + found[1:]
        if case == "name":
            return str(self)
        return self.forms.get(case) or self.forms.get("nom") or self.text


def _pgettext(language: str, context: str, message: str) -> str:
    return translations(language).pgettext(context, message)


def _name(text: str, language: str, key: str, fallback: str) -> Name:
    entry = NAME_FORMS.get(key) or NAME_FORMS[fallback]
    translated = _pgettext(language, *entry)
    try:
        forms = parse_forms(translated)
    except ValueError:  # a broken entry (i18n check names it) reads as the source's forms
        forms = parse_forms(entry[1])
    return Name(text, {case: elide(language, words, text).replace("{name}", text)
                       for case, words in forms.items()})


@cached(maxsize=None)
def card_patterns(path: Path = NAMES_FILE) -> tuple[tuple[str, tuple[re.Pattern, ...]], ...]:
    data = load_yaml(path) or {}
    out = []
    for number, entry in enumerate(data.get("card_kinds") or []):
        where = f"card_kinds[{number}]"
        if not isinstance(entry, dict) or entry.get("kind") not in CARD_KINDS:
            raise DataError(path, f"{where}.kind", "one of " + ", ".join(CARD_KINDS), entry)
        patterns = []
        for pattern in entry.get("names") or ():
            try:
                patterns.append(re.compile(pattern))
            except (re.error, TypeError):  # Python's own wording of the error is not shown: it changes
                raise DataError(path, f"{where}.names", "regular expressions", repr(pattern)) from None
        out.append((entry["kind"], tuple(patterns)))
    return tuple(out)


def card_kind(name: str) -> str:
    """gpu, processor or computer (data/names.yaml).

    >>> card_kind("Radeon Instinct MI300X"), card_kind("AMD Ryzen AI Max+ 395 (Radeon 8060S, 128 GB)")
    ('gpu', 'processor')
    """
    for kind, patterns in card_patterns():
        if any(p.search(name) for p in patterns):
            return kind
    return "gpu"


def card_name(card, language: str) -> Name:
    """A card (a catalogue Card or its name) with the forms of its kind."""
    text = card if isinstance(card, str) else card.name
    return _name(text, language, card_kind(text), "gpu")


def memory_in_name(card) -> bool:
    """A graphics card whose name as sold states its memory ("GeForce RTX 3060 12 GB"): a tile or list
    beside the name leaves the size out rather than say it again in another unit ("12 GB · 12 GiB").
    A machine's name states its RAM, not the GPU's share, so the share is still shown beside it.

    >>> from types import SimpleNamespace as S
    >>> memory_in_name(S(name="GeForce RTX 3060 12 GB", vram_gb=12, unified=False))
    True
    >>> memory_in_name(S(name="GeForce RTX 4090", vram_gb=24, unified=False))
    False
    >>> memory_in_name(S(name="Apple M3 Max (48 GB)", vram_gb=36, unified=True))
    False
    """
    return not card.unified and bool(re.search(rf"(?<![\d.]){card.vram_gb:g} ?GB\b", card.name))


def organisation_name(organisation: str, language: str) -> Name:
    return _name(organisation, language, organisation, "organisation")


def country_name(code: str, language: str) -> Name:
    """A country (ISO 3166 code) by its CLDR name, with its article: de Verenigde Staten."""
    from babel import Locale
    text = Locale.parse(language).territories.get(code, code)
    return _name(text, language, code, "organisation")


def joined_name(names, language: str) -> Name:
    """Several names as one (Tsinghua University and Zhipu AI), each in the case asked for."""
    from babel.lists import format_list
    names = list(names)
    cases = set().union(*(n.forms for n in names)) if names else set()
    return Name(format_list([n.text for n in names], locale=language),
                {case: format_list([n.form(case) for n in names], locale=language) for case in cases})


def browser_forms(language: str) -> dict:
    """Each card kind's forms as words around ``{name}``, for a name that starts with a vowel and
    one that does not (French elision), so the calculator can fill ``{card:acc}`` in the browser.

    >>> browser_forms("fr")["kinds"]["processor"]["vowel"]["a"]
    'à l’{name}'
    """
    kinds = {}
    for kind in CARD_KINDS:
        context, message = NAME_FORMS[kind]
        try:
            forms = parse_forms(_pgettext(language, context, message))
        except ValueError:  # as _name: a broken entry reads as the source's forms
            forms = parse_forms(message)
        kinds[kind] = {start: {case: elide(language, words, example) for case, words in forms.items()}
                       for start, example in (("vowel", "A"), ("other", "B"))}
    return {"kinds": kinds, "vowel": FRENCH_VOWEL.pattern}


def card_phrase(card, language: str, case: str = "nom") -> str:
    return card_name(card, language).form(case)


def organisation_phrase(organisation: str, language: str, case: str = "nom") -> str:
    return organisation_name(organisation, language).form(case)


def country_phrase(code: str, language: str, case: str = "nom") -> str:
    return country_name(code, language).form(case)
