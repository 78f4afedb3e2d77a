"""The strict YAML loader words a refusal the same whichever parser, and whichever libyaml
release, read the file first (issue 22: PyYAML 6.0.4's libyaml stops deep nesting itself).
"""

from __future__ import annotations

import pytest
import yaml

from tps_atlas.records import strict_yaml as records
from tps_atlas.errors import DataError


class _EarlyNestingLimit(records._PythonEvents):
    """A parser that refuses nesting before our limit does, in its own words, as libyaml
    0.2.5 bundled with PyYAML 6.0.4 does (at 1,000 brackets, while scanning ahead)."""

    def fetch_flow_collection_start(self, TokenClass):
        if self.flow_level >= 3:
            mark = self.get_mark()
            raise yaml.scanner.ScannerError("while increasing flow level", mark,
                                            "exceeded maximum nesting depth", mark)
        super().fetch_flow_collection_start(TokenClass)


class _EarlyLimitLoader(records._Strict, _EarlyNestingLimit):
    def __init__(self, stream):
        _EarlyNestingLimit.__init__(self, stream)
        records._Strict.__init__(self)


LOADERS = {
    "libyaml (as installed)": records.StrictLoader,
    "PyYAML's Python parser": records._PythonStrictLoader,
    "a parser with its own, lower limit": _EarlyLimitLoader,
}


def refusal(tmp_path, text: str, loader) -> str:
    path = tmp_path / "model.yaml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(DataError) as caught:
        records.load_yaml(path, loader)
    return str(caught.value).replace(str(tmp_path), "<dir>")


@pytest.mark.parametrize("loader", LOADERS.values(), ids=LOADERS.keys())
@pytest.mark.parametrize("depth", [33, 5_000, 50_000])
def test_deep_nesting_is_refused_in_our_words_by_every_parser(tmp_path, loader, depth):
    message = refusal(tmp_path, "name: x\nauthors: " + "[" * depth + "\n", loader)
    assert message == "<dir>/model.yaml: line 2, column 41: expected at most 32 levels of nesting"


@pytest.mark.parametrize("text", [
    "name: [unclosed\n",
    "name: a: b\n",
    "name:\n\t- tab\n",
    "name: 'open\n",
    "- a\nb: c\n",
])
def test_a_syntax_error_reads_the_same_from_every_parser(tmp_path, text):
    messages = {name: refusal(tmp_path, text, loader) for name, loader in LOADERS.items()}
    assert len(set(messages.values())) == 1, messages
    message = messages["libyaml (as installed)"]
    assert message.startswith("<dir>/model.yaml: line ") and ": expected valid YAML, found " in message
    assert "\n" not in message


def test_an_impossible_date_is_named_without_pythons_wording(tmp_path):
    message = refusal(tmp_path, "released: 2022-02-30\n", records.StrictLoader)
    assert message == ("<dir>/model.yaml: released (line 1): expected a date that exists, written YYYY-MM-DD, "
                       "found '2022-02-30'")
