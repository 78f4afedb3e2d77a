"""Text from the data files on a translated page: translated through the catalogue, or kept as
an English quotation marked ``lang="en"``.

Two kinds of data text reach a model page. Descriptions we write ourselves (a model's
``numerical_format``, "MXFP4 (MoE weights), BF16 (other weights)", and its ``license``, "DeepSeek
Model License (weights), MIT (code)") are catalogue entries with msgctxt "model data:
numerical_format" or "model data: license", extracted from data/models/*.yaml by
``extract_model_data`` (babel.cfg); a translator writes them in the language, keeping the names
of formats and licences. Titles of the documents we cite (``reference`` and ``sources`` titles)
and the cards' ``source`` notes are quotations of English pages: they stay as they are, inside
``<span lang="en">``, and the page says they are in English.

>>> from markupsafe import Markup
>>> str(english("GLM-130B repository", "nl"))
'<span lang="en">GLM-130B repository</span>'
>>> english("GLM-130B repository", "en")
'GLM-130B repository'
"""

from __future__ import annotations

from markupsafe import Markup, escape

from tps_atlas.records.strict_yaml import load_yaml

# Fields of a model record whose text we wrote and translate; the msgctxt names the field.
TRANSLATED_FIELDS = ("numerical_format", "license")
CONTEXT = "model data: "
# The operating systems (and driver settings) of a unified machine's memory shares, which we wrote
# ("Windows (older Intel drivers)"): translated on the card pages, their sources quoted in English.
OS_CONTEXT = "device data: os"


def device_os(phrases, value: str) -> str:
    """An OS label of data/devices.yaml in the page's language. A label the same in every language is a
    name (macOS 26, Windows), not an English quotation; i18n check reports one left untranslated."""
    return phrases.pgettext(OS_CONTEXT, value)


def english(text, language: str):
    """An English quotation on a page in ``language``: marked so that readers and screen readers
    know it (escaped; Markup stays Markup)."""
    if language == "en" or not text:
        return text
    return Markup('<span lang="en">{}</span>').format(escape(text) if not isinstance(text, Markup) else text)


class DataText:
    """Translate a model page's data values in one language (a Jinja global of the templates)."""

    def __init__(self, phrases, models):
        self.p = phrases
        self.fields: dict[str, str] = {}
        self.quoted: set[str] = set()
        for m in models:
            for name in TRANSLATED_FIELDS:
                value = getattr(m, name, None)
                if isinstance(value, str) and value:
                    self.fields.setdefault(value, name)
            if m.reference:
                self.quoted.add(m.reference.title)
            self.quoted.update(s.title for s in m.sources)

    @property
    def translated(self) -> bool:
        """The page is not in English: say that the quoted titles are."""
        return self.p.language != "en"

    def __call__(self, value):
        """The value in the page's language, an English quotation marked as such, or the value."""
        if not isinstance(value, str) or isinstance(value, Markup):
            return value
        language = self.p.language
        if value in self.fields:
            translated = self.p.pgettext(CONTEXT + self.fields[value], value)
            return translated if translated != value or language == "en" else english(value, language)
        if value in self.quoted:
            return english(value, language)
        return value


def extract_model_data(fileobj, keywords, comment_tags, options):
    """Babel extractor (babel.cfg): the translated fields of one model file, with their context."""
    import tempfile
    from pathlib import Path

    raw = fileobj.read()
    with tempfile.NamedTemporaryFile("wb", suffix=".yaml", delete=False) as copy:
        copy.write(raw)
    try:
        data = load_yaml(Path(copy.name)) or {}
    finally:
        Path(copy.name).unlink()
    for name in TRANSLATED_FIELDS:
        value = data.get(name)
        if isinstance(value, str) and value:
            comment = {
                "numerical_format": "TRANSLATORS: the number format a model's weights were published in, "
                                    "as our data file describes it. Keep format names (BF16, MXFP4), "
                                    "translate the rest: 'MXFP4 (MoE weights), BF16 (other weights)' is "
                                    "'MXFP4 (MoE-Gewichte), BF16 (übrige Gewichte)' in German.",
                "license": "TRANSLATORS: a model's licence, as our data file gives it. Keep the licence's "
                           "own name (Apache 2.0, Llama 3.1 Community License), translate our remarks: "
                           "'DeepSeek Model License (weights), MIT (code)' is 'DeepSeek Model License "
                           "(gewichten), MIT (code)' in Dutch.",
            }[name]
            lines = raw.decode("utf-8").splitlines()
            line = next((n for n, text in enumerate(lines, 1) if text.startswith(f"{name}:")), 1)
            yield line, "NC_", (CONTEXT + name, value), [comment]


def extract_device_data(fileobj, keywords, comment_tags, options):
    """Babel extractor (babel.cfg): each distinct OS label of data/devices.yaml's memory shares."""
    import re

    seen = set()
    for number, line in enumerate(fileobj.read().decode("utf-8").splitlines(), 1):
        for label in re.findall(r'\bos: "([^"]+)"', line):
            if label not in seen:
                seen.add(label)
                yield number, "NC_", (OS_CONTEXT, label), [
                    "TRANSLATORS: an operating system, with the driver or setting that decides how much of a "
                    "machine's memory its GPU may use, as our device data names it (card pages, 'How much "
                    "memory the GPU may use'). Keep product and setting names (Adrenalin, ttm.pages_limit), "
                    "translate the rest: 'Windows (older Intel drivers)' is 'Windows (ältere Intel-Treiber)'."]
