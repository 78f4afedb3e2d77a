"""A glossary per language (``locales/<lang>/glossary.yaml``): the terms the language's own tech press
uses (c't and heise, Les Numériques and Next, Tweakers) and the calques to avoid.

``tps-atlas i18n check`` reports a calque of the glossary found in any msgstr of that language, one line
each: the file and line of the entry, its msgid, the calque and the term to use. The file is read with
the project's strict YAML reader; a wrong field is one clear line naming the file and the field.

>>> g = Glossary("de", (), (Calque(("Passung",), "Passt?", "a machine-tolerance term"),))
>>> [(c.found, c.use) for c in g.calques_in("Spalte „Passung“ zuletzt lesen")]
[('Passung', 'Passt?')]
>>> g.calques_in("Passt es? Die Anpassung")   # a word inside another word is not the calque
[]
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from tps_atlas.i18n.phrases import TAG
from tps_atlas.records.fields import FieldReader
from tps_atlas.records.strict_yaml import load_yaml

GLOSSARY_FILE = "glossary.yaml"


@dataclass(frozen=True)
class Term:
    """A term as the language's tech press writes it: ``en`` the English source term, ``use`` the word."""
    en: str
    use: str
    press: str = ""      # where it is written so (c't, Tweakers, Les Numériques ...)


@dataclass(frozen=True)
class Calque:
    """Words a translation must not use (``forms``: the calque as it may appear), and what to write."""
    forms: tuple[str, ...]
    use: str
    why: str = ""

    def pattern(self) -> re.Pattern:
        # Whole words only, any case, any run of spaces: "Passung" is not "Anpassung".
        words = "|".join(r"\s+".join(map(re.escape, form.split())) for form in self.forms)
        return re.compile(rf"(?<![\w-])(?:{words})(?![\w-])", re.I)


@dataclass(frozen=True)
class Found:
    found: str
    use: str


@dataclass(frozen=True)
class Glossary:
    language: str
    terms: tuple[Term, ...]
    calques: tuple[Calque, ...]

    def calques_in(self, text: str) -> list[Found]:
        text = TAG.sub(" ", text)
        return [Found(m.group(0), c.use) for c in self.calques for m in c.pattern().finditer(text)]


def glossary_path(locales_dir: Path, language: str) -> Path:
    return locales_dir / language / GLOSSARY_FILE


def read_glossary(path: Path, language: str) -> Glossary:
    """The glossary of one language; a missing file is an empty glossary (English has none)."""
    if not path.exists():
        return Glossary(language, (), ())
    top = FieldReader(path, load_yaml(path))
    terms = []
    for r in top.mappings("terms"):
        terms.append(Term(r.text("en"), r.text("use"), r.text("press", False) or ""))
        r.finish()
    calques = []
    for r in top.mappings("avoid"):
        forms = r.texts("calque")
        if not forms:
            raise r.error("calque", "the calque as it appears (text, or a list of its forms)")
        calques.append(Calque(forms, r.text("use"), r.text("why", False) or ""))
        r.finish()
    top.finish()
    return Glossary(language, tuple(terms), tuple(calques))


def calque_problems(catalog, path: Path, glossary: Glossary) -> list[str]:
    """One line per calque of the glossary in a msgstr: file:line, the msgid, the calque, the term to use."""
    problems = []
    for message in catalog:
        if not message.id or not message.string:
            continue
        label = (message.id[0] if isinstance(message.id, (tuple, list)) else message.id)[:60]
        forms = message.string if isinstance(message.string, (tuple, list)) else (message.string,)
        seen = set()
        for form in forms:
            for found in glossary.calques_in(form or ""):
                if found.found.casefold() not in seen:
                    seen.add(found.found.casefold())
                    problems.append(f"{path}:{message.lineno}: glossary calque in {label!r}: "
                                    f"{found.found!r}, write {found.use!r} ({glossary_path_name(path)})")
    return problems


def glossary_path_name(po: Path) -> str:
    """The glossary beside a catalogue (locales/de/LC_MESSAGES/messages.po -> locales/de/glossary.yaml)."""
    return str(po.parent.parent / GLOSSARY_FILE)
