"""YAML read strictly: duplicate keys, impossible dates, deep nesting, alias bombs and files
that are too large or not regular files are refused, each with its line (``load_yaml``).

Every data file goes through ``load_yaml`` and then ``tps_atlas.records.fields.FieldReader``.
"""

from __future__ import annotations

import stat
from pathlib import Path
from typing import Any, Callable

import yaml
import yaml.parser
import yaml.reader
import yaml.scanner
from yaml.composer import Composer
from yaml.constructor import SafeConstructor
from yaml.resolver import Resolver

from tps_atlas.errors import DataError


class _PythonEvents(yaml.reader.Reader, yaml.scanner.Scanner, yaml.parser.Parser):
    """PyYAML's own reader, scanner and parser, in Python: the events libyaml gives."""

    def __init__(self, stream):
        yaml.reader.Reader.__init__(self, stream)
        yaml.scanner.Scanner.__init__(self)
        yaml.parser.Parser.__init__(self)


# libyaml's parser, several times quicker than PyYAML's own. Only its events are used: the
# nodes are composed here in Python (``_Strict.compose_node``), where the nesting limit stops a
# deep file; libyaml's own composer recurses in C and brings the process down on a list 50,000
# deep. Its errors are never shown: their wording and even which limit trips first change with
# the libyaml release (PyYAML 6.0.4's stops 1,000 brackets deep while scanning ahead), so a file
# it refuses is read again by the Python parser, whose answer is the one reported.
if yaml.__with_libyaml__:
    from yaml._yaml import CParser as _FastEvents
else:
    class _FastEvents(_PythonEvents):  # type: ignore[no-redef]
        """PyYAML built without libyaml: its Python parser is the fast one too."""

class _ValueProblem(Exception):
    """A field given twice, or a value YAML cannot construct (2022-02-30), with where it is."""

    def __init__(self, node: yaml.Node, expected: str, found: str, key: Any = None):
        super().__init__(expected)
        self.node, self.expected, self.found, self.key = node, expected, found, key

    @property
    def field(self) -> str:
        mark = self.node.start_mark
        if self.key is not None:
            return f"{self.key} (line {mark.line + 1})"
        return f"line {mark.line + 1}, column {mark.column + 1}"


# Data files are small (the largest model file is a few KB): anything larger is a mistake,
# and a device such as /dev/zero or a pipe is never read at all.
MAX_FILE_BYTES = 1_000_000
# Our records nest three levels deep; a deeper file would only exhaust the parser's stack.
MAX_DEPTH = 32
# Values after alias expansion: nine aliases of nine aliases... would fill the memory.
MAX_NODES = 100_000



def read_text_file(path: Path, limit: int = MAX_FILE_BYTES) -> str:
    """A regular UTF-8 file of at most ``limit`` bytes; anything else is a DataError."""
    try:
        info = path.stat()
    except FileNotFoundError:
        found = "a link to a missing file" if path.is_symlink() else "no such file"
        raise DataError(path, "(file)", "a readable file", found) from None
    except OSError as error:
        raise DataError(path, "(file)", "a readable file", error.strerror) from None
    if not stat.S_ISREG(info.st_mode):
        kind = "a folder" if stat.S_ISDIR(info.st_mode) else "a device, pipe or socket"
        raise DataError(path, "(file)", "a regular file", kind)
    if info.st_size > limit:
        raise DataError(path, "(file)", f"a file of at most {limit:,} bytes", f"{info.st_size:,} bytes")
    try:
        with open(path, "rb") as handle:
            data = handle.read(limit + 1)
    except OSError as error:
        raise DataError(path, "(file)", "a readable file", error.strerror) from None
    if len(data) > limit:
        raise DataError(path, "(file)", f"a file of at most {limit:,} bytes", "more")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        raise DataError(path, "(file)", "UTF-8 text") from None


class _StructureProblem(Exception):
    """A file nested too deeply, or one whose aliases expand beyond reason."""

    def __init__(self, mark, expected: str):
        super().__init__(expected)
        self.mark, self.expected = mark, expected


# What a value of each YAML type must look like, for the message.
_TAG_EXPECTED = {
    "tag:yaml.org,2002:timestamp": "a date that exists, written YYYY-MM-DD",
    "tag:yaml.org,2002:int": "a whole number",
    "tag:yaml.org,2002:float": "a number",
}


class _Strict(Composer, SafeConstructor, Resolver):
    """``yaml.safe_load``, except that a key given twice in one mapping is an error
    (PyYAML keeps the last one silently) and so is a value YAML recognises but cannot
    build, such as the date 2022-02-30 (PyYAML raises a bare ValueError). Nesting
    and alias expansion are limited (``MAX_DEPTH``, ``MAX_NODES``). The events come from the
    parser class mixed in after it (``StrictLoader``, ``_PythonStrictLoader``).
    """

    # From the parser class it is mixed with.
    peek_event: Callable[[], Any]
    dispose: Callable[[], None]

    def __init__(self):
        Composer.__init__(self)
        SafeConstructor.__init__(self)
        Resolver.__init__(self)
        self._depth = 0

    def compose_node(self, parent, index):
        self._depth += 1
        try:
            if self._depth > MAX_DEPTH:
                event = self.peek_event()  # the node's first event: Composer only calls this with one there
                assert event is not None
                raise _StructureProblem(event.start_mark, f"at most {MAX_DEPTH} levels of nesting")
            return super().compose_node(parent, index)
        finally:
            self._depth -= 1

    def get_single_data(self):
        node = self.get_single_node()
        if node is None:
            return None
        _expanded_size(node, {})
        return self.construct_document(node)

    def construct_object(self, node, deep=False):
        try:
            return super().construct_object(node, deep=deep)
        except ValueError:  # YAML's own errors are not ValueErrors; Python's wording of it is not shown
            expected = _TAG_EXPECTED.get(node.tag, "a value YAML can read")
            raise _ValueProblem(node, expected, str(node.value)) from None

    def construct_mapping(self, node, deep=False):
        if isinstance(node, yaml.MappingNode):
            first: dict = {}
            for key_node, _ in node.value:
                if key_node.tag == "tag:yaml.org,2002:merge":
                    continue
                key = self.construct_object(key_node, deep=True)
                try:
                    if key in first:
                        raise _ValueProblem(key_node, f"each field once (it is also on line {first[key]})",
                                            "a second value", key)
                    first[key] = key_node.start_mark.line + 1
                except TypeError:  # an unhashable key: SafeLoader reports it below
                    pass
        try:
            return super().construct_mapping(node, deep=deep)
        except _ValueProblem as problem:
            if problem.key is None:
                problem.key = next((k.value for k, v in node.value if v is problem.node), None)
            raise


class StrictLoader(_Strict, _FastEvents):
    """The strict loader on libyaml's events (PyYAML's where it was built without libyaml)."""

    def __init__(self, stream):
        _FastEvents.__init__(self, stream)
        _Strict.__init__(self)


class _PythonStrictLoader(_Strict, _PythonEvents):
    """The strict loader on PyYAML's Python events: the one whose refusals are reported."""

    def __init__(self, stream):
        _PythonEvents.__init__(self, stream)
        _Strict.__init__(self)


def parse_yaml(text: str, loader: type[_Strict] = StrictLoader) -> Any:
    """The value of one YAML document, read strictly; a refusal is worded the same whichever
    parser and libyaml release read it first.

    >>> parse_yaml("layers: 40")
    {'layers': 40}
    >>> parse_yaml("authors: " + "[" * 50_000)
    Traceback (most recent call last):
    ...
    tps_atlas.records.strict_yaml._StructureProblem: at most 32 levels of nesting
    """
    try:
        return _load_with(loader, text)
    except yaml.YAMLError:
        if loader is _PythonStrictLoader:
            raise
    return _load_with(_PythonStrictLoader, text)  # raises the Python parser's own refusal


def _load_with(loader: type[_Strict], text: str) -> Any:
    instance = None
    try:
        instance = loader(text)  # type: ignore[call-arg]
        return instance.get_single_data()
    finally:
        if instance is not None:
            instance.dispose()


def _expanded_size(node: yaml.Node, sizes: dict[int, int]) -> int:
    """Nodes of the value once every alias is copied out; too many is an error."""
    key = id(node)
    if key in sizes:
        if sizes[key] < 0:
            raise _StructureProblem(node.start_mark, "a value that does not contain itself")
        return sizes[key]
    sizes[key] = -1
    size = 1
    if isinstance(node, yaml.SequenceNode):
        size += sum(_expanded_size(item, sizes) for item in node.value)
    elif isinstance(node, yaml.MappingNode):
        size += sum(_expanded_size(k, sizes) + _expanded_size(v, sizes) for k, v in node.value)
    if size > MAX_NODES:
        raise _StructureProblem(node.start_mark, f"at most {MAX_NODES:,} values once aliases are expanded")
    sizes[key] = size
    return size


def load_yaml(path: Path, loader: type[_Strict] = StrictLoader) -> Any:
    """Parse one YAML file; a syntax error becomes a DataError with the line.

    Duplicate keys and impossible values (a 30th of February) are errors too.
    """
    text = read_text_file(path)
    try:
        return parse_yaml(text, loader)
    except _ValueProblem as problem:
        raise DataError(path, problem.field, problem.expected, problem.found) from None
    except _StructureProblem as problem:
        raise DataError(path, f"line {problem.mark.line + 1}, column {problem.mark.column + 1}",
                        problem.expected) from None
    except yaml.YAMLError as error:
        mark = getattr(error, "problem_mark", None)
        where = f"line {mark.line + 1}, column {mark.column + 1}" if mark else "(syntax)"
        found = getattr(error, "problem", None) or str(error)
        raise DataError(path, where, "valid YAML", found) from None
