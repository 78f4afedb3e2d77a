"""Edits that make a project copy's data or translations bad or hostile, and how the refusal must read."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

import yaml


def hostile_catalogue(project: Path) -> None:
    hostile_data(project)
    add_model("img-name", name="<img src=x onerror=alert(4)>", authors=["</script><script>alert(5)</script>"],
              organisations=["'><svg onload=alert(6)>"])(project)

def edit_text(project: Path, relative: str, old: str, new: str) -> None:
    path = project / relative
    text = path.read_text(encoding="utf-8")
    assert old in text, f"{relative} no longer contains {old!r}: update this case"
    path.write_text(text.replace(old, new, 1), encoding="utf-8")

def model_path(project: Path, model_id: str) -> Path:
    return project / "data" / "models" / f"{model_id}.yaml"

def set_field(model_id: str, name: str, value: str):
    """An edit: the top-level line ``name: ...`` of a model file becomes ``name: value``."""
    def edit(project: Path) -> None:
        path = model_path(project, model_id)
        text = path.read_text(encoding="utf-8")
        pattern = re.compile(rf"^{re.escape(name)}:.*$", re.M)
        line = f"{name}: {value}"
        text = pattern.sub(lambda _: line, text, count=1) if pattern.search(text) else text + line + "\n"
        path.write_text(text, encoding="utf-8")
    return edit

def write_file(relative: str, content: str | bytes):
    def edit(project: Path) -> None:
        path = project / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(content, bytes):
            path.write_bytes(content)
        else:
            path.write_text(content, encoding="utf-8")
    return edit

def model_yaml(model_id: str, **fields) -> str:
    record = {"id": model_id, "name": model_id.replace("-", " ").title(), "weights": "open",
              "parameters_b": 7, "organisations": ["Example Lab"],
              "sources": [{"title": "Example paper", "url": "https://example.org/paper"}]}
    record.update(fields)
    return yaml.safe_dump(record, allow_unicode=True, sort_keys=False)

def add_model(model_id: str, **fields):
    return write_file(f"data/models/{model_id}.yaml", model_yaml(model_id, **fields))

def replace(relative: str, old: str, new: str):
    return lambda project: edit_text(project, relative, old, new)

def both(*edits):
    def edit(project: Path) -> None:
        for one in edits:
            one(project)
    return edit

def set_translation(project: Path, language: str, msgid: str, *msgstr: str) -> None:
    """Give ``msgid`` new translation(s) in the copy's catalogue (one msgstr, or plural forms)."""
    path = project / "locales" / language / "LC_MESSAGES" / "messages.po"
    lines = path.read_text(encoding="utf-8").split("\n")
    start = lines.index(f'msgid "{msgid}"') if f'msgid "{msgid}"' in lines else None
    assert start is not None, f"{language}: no msgid {msgid!r} any more: update this case"
    end = start + 1
    while end < len(lines) and lines[end].strip():
        end += 1
    head, in_msgstr = [], False
    for line in lines[start:end]:  # msgid lines and their continuations; msgstr lines go
        in_msgstr = line.startswith("msgstr") or (in_msgstr and line.startswith('"'))
        if not in_msgstr:
            head.append(line)
    if len(msgstr) == 1 and not any(line.startswith("msgid_plural") for line in head):
        body = [f"msgstr {json.dumps(msgstr[0], ensure_ascii=False)}"]
    else:
        body = [f"msgstr[{i}] {json.dumps(form, ensure_ascii=False)}" for i, form in enumerate(msgstr)]
    lines[start:end] = head + body
    flags = start - 1  # a fuzzy translation is not used: the new one is not fuzzy
    while flags >= 0 and lines[flags].startswith("#"):
        if lines[flags].startswith("#,"):
            rest = [f.strip() for f in lines[flags][2:].split(",") if f.strip() != "fuzzy"]
            lines[flags] = "#, " + ", ".join(rest) if rest else "#"
        flags -= 1
    path.write_text("\n".join(lines), encoding="utf-8")

def po_line_after(language: str, msgid: str, change: Callable[[str], str]):
    """An edit: the line after ``msgid "..."`` (its msgstr) in a copy's catalogue becomes ``change(line)``."""
    def edit(project: Path) -> None:
        path = project / "locales" / language / "LC_MESSAGES" / "messages.po"
        lines = path.read_text(encoding="utf-8").split("\n")
        assert f'msgid "{msgid}"' in lines, f"{language}: no msgid {msgid!r} any more: update this case"
        at = lines.index(f'msgid "{msgid}"') + 1
        lines[at] = change(lines[at])
        path.write_text("\n".join(lines), encoding="utf-8")
    return edit

MODELS = "data/models"

ESTIMATOR = "data/estimator.yaml"

CORRECTIONS = "data/gpu-corrections.yaml"

DEVICES = "data/devices.yaml"

UI = "data/ui.yaml"

LINE = r"line \d+, column \d+"

@dataclass
class Bad:
    edit: Callable[[Path], None]
    file: str                  # as the message shows it: relative to the copy
    field: str                 # a regular expression for the field part of the message
    expected: str              # words of the "expected ..." part
    env: dict = field(default_factory=dict)

def lit(text: str) -> str:
    return re.escape(text)

def assert_clear_message(message: str, case: Bad) -> None:
    where = re.compile(rf"^{re.escape(case.file)}: {case.field}: expected ")
    assert where.search(message), f"file and field not named as {where.pattern!r}:\n{message}"
    assert case.expected in message.split(": expected ", 1)[1], message
    assert "\n" not in message and len(message) < 1000, message

HOSTILE_FIELDS = {
    "organisations": ["{{ config }}", "<script>alert(1)</script>"],
    "authors": ['{% include "x" %}', "{{ 7*7 }}", "<img src=x onerror=alert(2)>"],
    "license": "{{ config }}",
    "training_hardware": "{# hidden #}{{ config.site_name }}",
    "base_model": '{% include "x" %}',
    "numerical_format": "<b>FP16</b>",
    "reference": {"title": "{{ config }} & <script>alert(1)</script>", "url": "https://example.org/?a=1&b=2"},
}

HOSTILE_SOURCE = "{{ config }} <script>alert(1)</script> {% include 'x' %} "

SHOWN = [("organisations", 0), ("organisations", 1), ("authors", 0), ("authors", 1), ("authors", 2),
         ("license", None), ("training_hardware", None), ("base_model", None), ("numerical_format", None),
         ("reference", "title")]

def hostile_fields(project: Path) -> None:
    add_model("hostile-fields", name="Hostile Fields 7B", **HOSTILE_FIELDS)(project)
    add_model("tongyi-qianwen", name="通义千问", organisations=["阿里巴巴"], authors=["周靖人", "Jingren Zhou"],
              countries=["CN"], sources=[{"title": "通义千问 技术报告", "url": "https://example.org/qwen"}])(project)
    add_model("largest-allowed", name="Largest Allowed", parameters_b=10_000)(project)
    add_model("smallest-thing", name="Smallest Thing", parameters_b=0.001)(project)
    edit_text(project, DEVICES, 'source: "Apple M1 Max announcement', 'source: "' + HOSTILE_SOURCE)

def hostile_names(project: Path) -> None:
    add_model("script-name", name="<script>alert(1)</script>")(project)
    add_model("quote-name", name='Evil" onmouseover="alert(3)" data-pwned=\'1')(project)
    add_model("ampersand-name", name="Q&A <3 7B")(project)

def jinja_names(project: Path) -> None:
    add_model("config-name", name="{{ config }}")(project)
    add_model("include-name", name='{% include "x" %}')(project)
    edit_text(project, DEVICES, 'name: "Apple M1 Max (32 GB)"', 'name: "{{ config }} M1 Max (32 GB)"')

def hostile_translations(project: Path) -> None:
    set_translation(project, "nl", "{model}: which GPUs run it, and how fast", "{model}: {{ config }}")
    # Controls: the same entries, edited the same way but harmless, do reach the pages.
    set_translation(project, "fr", "{model}: which GPUs run it, and how fast", "{model} : titre de contrôle")
    set_translation(project, "de", "Fastest device", "Schnellste Karte (Kontrolle)")
    set_translation(project, "de", "Which GPUs can run {model}?", "Welche GPUs können {modell} ausführen?")
    set_translation(project, "fr", "device runs it", "appareil le fait tourner", "appareils le font tourner")

def hostile_data(project: Path) -> None:
    hostile_fields(project)
    hostile_names(project)
    jinja_names(project)
