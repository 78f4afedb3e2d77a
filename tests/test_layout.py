"""The package's layout holds: data flows one way through its folders, no module imports
itself back (imports inside functions included), and no module grows past about 400 lines
(the caches: tests/test_caches.py).

The import graph is read from the source with ``ast``, so a cycle hidden in a function (the
"imported late" kind) counts like any other. Check it by hand with:
``python -m pytest tests/test_layout.py -q``."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parent.parent / "tps_atlas"
# The stages, each importing only from stages before it (the README's table of contents).
STAGES = ("errors", "paths", "cache", "records", "catalogue", "estimate", "measured", "i18n", "pages", "web",
          "cli", "mkdocs", "__main__")
MAX_LINES = 400


def module_name(path: Path) -> str:
    parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


MODULES = {module_name(p): p for p in sorted(PACKAGE.rglob("*.py"))}


def imports_of(name: str) -> set[str]:
    """The package's modules ``name`` imports, at the top or inside a function."""
    path = MODULES[name]
    package = name.split(".") if path.name == "__init__.py" else name.split(".")[:-1]
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom):
            base = ".".join(package[:len(package) - node.level + 1] + [node.module or ""]).strip(".") \
                if node.level else node.module or ""
            found |= {f"{base}.{alias.name}" if f"{base}.{alias.name}" in MODULES else base for alias in node.names}
    return {m for m in found if m in MODULES and m != name}


GRAPH = {name: imports_of(name) for name in MODULES}


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        for w in sorted(graph[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return found


def stage(name: str) -> str:
    return name.split(".")[1] if "." in name else name


def test_no_module_imports_itself_back():
    assert cycles(GRAPH) == []


def test_the_cycle_check_finds_a_cycle_made_inside_a_function():
    graph = {**GRAPH, "tps_atlas.records.fields": GRAPH["tps_atlas.records.fields"] | {"tps_atlas.mkdocs.site"}}
    assert any("tps_atlas.records.fields" in c and "tps_atlas.mkdocs.site" in c for c in cycles(graph))


def test_package_files_import_nothing():
    """An ``__init__`` that imported its modules would sit in a cycle with each of them."""
    assert {name for name in MODULES if MODULES[name].name == "__init__.py" and GRAPH[name]} == set()


@pytest.mark.parametrize("name", sorted(set(MODULES) - {"tps_atlas"}))
def test_a_module_imports_only_earlier_stages(name):
    mine = STAGES.index(stage(name))
    later = sorted(m for m in GRAPH[name] if stage(m) != stage(name) and STAGES.index(stage(m)) > mine)
    assert later == [], f"{name} ({stage(name)}) imports from a later stage: {later}"


def test_every_module_is_in_a_stage():
    assert {stage(name) for name in MODULES if name != "tps_atlas"} <= set(STAGES)


def test_no_module_is_over_400_lines():
    sizes = {name: len(path.read_text(encoding="utf-8").splitlines()) for name, path in MODULES.items()}
    assert {name: n for name, n in sizes.items() if n > MAX_LINES} == {}


def test_tests_share_helpers_through_support_and_fixtures_through_conftest():
    """No test module imports another test module or conftest.py: helpers are in tests/support/,
    fixtures in tests/conftest.py."""
    tests = PACKAGE.parent / "tests"
    found = []
    for path in sorted(tests.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom):
                module = ("." * node.level) + (node.module or "")
                leaf = module.rsplit(".", 1)[-1]
                names = [a.name for a in node.names] if not node.module or leaf in ("tests", "") else [leaf]
                found += [f"{path.relative_to(tests)}: {module} {n}" for n in names
                          if n.startswith("test_") or n == "conftest"]
            elif isinstance(node, ast.Import):
                found += [f"{path.relative_to(tests)}: {a.name}" for a in node.names
                          if a.name.rsplit(".", 1)[-1].startswith("test_") or a.name.endswith("conftest")]
    assert found == []
