"""Style checks of `tps-atlas i18n check`: what makes a translated page read as generated.

Each finding is one line naming the file, the line of the entry and the entry:

- a sentence that starts with a count placeholder ("{count} kaarten ..."): a sentence never
  starts with a digit, so the translator rephrases ("Op {count} kaarten ...");
- English words left in a nl/fr/de entry (a compact stop-list of English words that no
  translation needs; the field's own terms, GPU, MoE, KV ..., and the licence names of
  data/licences.yaml, proper nouns, are allowed);
- French: an ordinary space (or none) before a unit (Go, tok/s, ms, %) or before : ; ? ! »;
- an entry with placeholders and no translators' comment (``#.``) saying what they hold;
- a generic noun put before a card's name to dodge its article ("auf der Grafikkarte {card}",
  which calls an Apple M3 Ultra a graphics card): the translation should write ``{card:dat}``
  (tps_atlas/i18n/names.py).
(``strict_context=False`` leaves the last two out, for tests of one class at a time.)

>>> starts_with_count("{count} kaarten halen dat.")
True
>>> starts_with_count("Op {count} kaarten haalt het model dat."), starts_with_count("Klaar. {count} stuks")
(False, True)
>>> english_words("Source : the model card", "fr"), english_words("GPU met MoE-gewichten", "nl")
(['the', 'model card'], [])
>>> english_words("Research and Development License (weights)", "nl", ("Research and Development License",))
['weights']
>>> french_spacing("Débit : {tok_s} tok/s") == ["' tok/s'", "' :'"]
True
>>> noun_before_name("Läuft {model} auf der Grafikkarte {card}?", "de"), noun_before_name("auf {card:dat}", "de")
(['Grafikkarte {card}'], [])
"""

from __future__ import annotations

import re
from pathlib import Path

from tps_atlas.i18n.phrases import FORMS_CONTEXT, PLACEHOLDER, TAG
from tps_atlas.records.licences import licence_names

# Placeholders that hold a number (a count, a size, a speed), so a sentence starting with
# one starts with a digit.
NUMERIC = re.compile(r"^(count|cards|total|fit_count|models|levels|layers|most|reading|rows|share|median"
                     r"|amount|tokens|params|active|flop|context|one|two|eight|value"
                     r"|\w*_?(need|vram|tok_s|params|shortfall|bandwidth|range|count))$")
SENTENCE_START = re.compile(r"(?:^|[.!?]\s+|<(?:p|li|h\d|td|th)[^>]*>)\{(\w+)\}")

# English words no nl, fr or de sentence needs. Words that are also words of one of the
# languages (nl "of", "over", "is"; de "was", "an"; fr "on", "plus") are left out on purpose.
ENGLISH = ("the", "and", "with", "which", "card", "cards", "weights", "model card", "than", "these",
           "those", "only", "when", "where", "your", "you", "does", "fits", "runs", "speed",
           "memory", "other", "about", "this", "that", "from", "into", "made", "shortfall",
           "calibration", "seed", "measured", "their", "its", "derived", "routed", "announcement")
ENGLISH_WORDS = re.compile(r"(?<![\w-])(" + "|".join(re.escape(w) for w in sorted(ENGLISH, key=len, reverse=True))
                           + r")(?![\w-])", re.I)
# The field's own terms, in every language; each language may add its own.
ALLOWED = ("GPU", "GPUs", "tok/s", "MoE", "KV", "GQA", "MLA", "MHA", "MQA", "llama.cpp", "Hugging Face",
           "mixture-of-experts", "Mixture-of-Experts", "grouped-query attention", "Grouped-Query Attention",
           "multi-head latent attention", "Multi-Head Latent Attention", "multi-head attention",
           "multi-query attention", "Multi-Head Attention", "Multi-Query Attention", "dense", "Material for MkDocs",
           # Settings named as the vendor names them (AMD Adrenalin, Windows 11 with Intel graphics).
           "Variable Graphics Memory", "Shared GPU Memory Override")
ALLOWED_BY_LANGUAGE = {"nl": ("sliding window", "latent attention"), "fr": (),
                       "de": ("Sliding Window", "Latent Attention")}

# French units and the punctuation that takes a (narrow) no-break space before it.
FRENCH_UNITS = re.compile(r"(?:\d|\})( ?)(Go/s|Go|Mo|To|tok/s|ms|%|FLOP|kW|W|Md)(?![\w/])")
FRENCH_PUNCTUATION = re.compile(r"(?<![\s\u00a0\u202f])( ?)([:;?!»])(?![/\d])")
NO_BREAK = "\u00a0\u202f"

# Placeholders that hold a card's or machine's name, and the generic nouns a translation may put
# before one instead of giving the name its article.
NAME_PLACEHOLDERS = r"(?:card|peer|fast_card|small_card|device)"
GENERIC_NOUNS = {"de": r"Grafikkarte|Karte|Beschleuniger", "fr": r"carte", "nl": r"kaart|grafische kaart"}


def plain(text: str) -> str:
    """The words of a sentence: no markup, placeholders, entities or addresses."""
    text = TAG.sub(" ", text)
    text = re.sub(r"https?://\S+|&\w+;|`[^`]*`", " ", text)
    return PLACEHOLDER.sub("0", text)


def starts_with_count(text: str) -> bool:
    return any(NUMERIC.match(name) for name in SENTENCE_START.findall(text.strip()))


def is_sentence(text: str) -> bool:
    """A source phrase that is a sentence (it ends like one), not a label or a table value."""
    return bool(re.search(r"[.!?](</\w+>)?$", text.strip()))


def english_words(text: str, language: str, names: tuple[str, ...] = ()) -> list[str]:
    """English words of a translation, leaving out the field's terms and ``names``, proper nouns such
    as licence names (data/licences.yaml) whose words are not a translator's to change."""
    text = plain(text)
    # File paths and commands (data/measured/llama-cpp.tsv) are quoted as they are.
    text = re.sub(r"\S*[/.]\S*[/.]\S*", " ", text)
    for term in sorted(ALLOWED + ALLOWED_BY_LANGUAGE.get(language, ()) + names, key=len, reverse=True):
        text = text.replace(term, " ")
    # Longest first in the pattern: "model card" is one finding, not also "card".
    return [m.group(1).lower() for m in ENGLISH_WORDS.finditer(text)]


def french_spacing(text: str) -> list[str]:
    """Places in a French sentence where a unit or : ; ? ! » lacks its no-break space."""
    text = TAG.sub("", text)
    text = re.sub(r"https?://\S+|&\w+;", " ", text)
    text = re.sub(r"\{(\w+):\w+\}", r"{\1}", text)  # a name's case, {card:nom}, is not a colon
    found = []
    for match in FRENCH_UNITS.finditer(text):
        found.append(repr(match.group(1) + match.group(2)))
    for match in FRENCH_PUNCTUATION.finditer(text):
        found.append(repr(match.group(1) + match.group(2)))
    return found


def noun_before_name(text: str, language: str) -> list[str]:
    """Generic nouns right before a card's name placeholder: 'die Grafikkarte {card}'."""
    nouns = GENERIC_NOUNS.get(language)
    if not nouns:
        return []
    pattern = re.compile(rf"\b(?:{nouns})\s+\{{{NAME_PLACEHOLDERS}\}}", re.I)
    return [m.group(0) for m in pattern.finditer(text)]


def check_style(catalog, path: Path, language: str, strict_context: bool = False) -> list[str]:
    """Style problems of one read catalogue, as 'file:line: problem: entry' lines."""
    problems = []
    for message in catalog:
        if not message.id:
            continue
        where = f"{path}:{message.lineno}"
        sources = message.id if isinstance(message.id, (tuple, list)) else (message.id,)
        label = sources[0][:60]
        forms = [f for f in (message.string if isinstance(message.string, (tuple, list)) else (message.string,)) if f]
        has_placeholders = any(PLACEHOLDER.search(s) for s in sources)
        if strict_context and has_placeholders and not message.auto_comments:
            problems.append(f"{where}: no translators' comment (#.) saying what the placeholders hold: {label!r}")
        # A name's forms are data, not a sentence: i18n_cli checks them as forms.
        if language == "en" or not forms or (message.context or "").startswith(FORMS_CONTEXT):
            continue
        # Labels and table values ("{count} models", "{value} ms") may start with their number.
        if is_sentence(sources[-1]) and any(starts_with_count(form) for form in forms):
            problems.append(f"{where}: a sentence starts with a number placeholder; rephrase so that it "
                            f"does not start with a digit: {label!r}")
        words = sorted({w for form in forms for w in english_words(form, language, licence_names())})
        if words:
            problems.append(f"{where}: English word(s) left in the translation ({', '.join(words)}): {label!r}")
        nouns = sorted({n for form in forms for n in noun_before_name(form, language)})
        if strict_context and nouns:
            problems.append(f"{where}: a generic noun before a card's name ({', '.join(nouns)}); give the name "
                            f"its article with a case, {{card:dat}} (tps_atlas/i18n/names.py): {label!r}")
        if language == "fr":
            spaces = sorted({s for form in forms for s in french_spacing(form)})
            if spaces:
                problems.append(f"{where}: no-break space (U+00A0 or U+202F) missing before "
                                f"{', '.join(spaces)}: {label!r}")
    return problems
