"""Everything the package caches in-process goes through one registry (tps_atlas/cache.py), and
the build clears it first: ``mkdocs serve`` rebuilds in the same process after a file is
saved, and the second build must read the files as they are now."""

from __future__ import annotations

import ast
import importlib
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from tests.support.project_copy import copy_project

PACKAGE = Path(__file__).resolve().parent.parent / "tps_atlas"
SOURCES = {p: ast.parse(p.read_text(encoding="utf-8")) for p in sorted(PACKAGE.rglob("*.py"))}


def test_every_in_process_cache_is_registered():
    """``functools.lru_cache``/``cache`` only inside tps_atlas/cache.py: everything else uses
    ``cache.cached``, which ``cache.clear_all`` (the build's first step) forgets."""
    direct = []
    for path, tree in SOURCES.items():
        name = path.relative_to(PACKAGE.parent).as_posix()
        if name == "tps_atlas/cache.py":
            continue
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and node.module == "functools":
                direct += [f"{name}: {a.name}" for a in node.names if a.name in ("lru_cache", "cache")]
            elif isinstance(node, ast.Attribute) and node.attr in ("lru_cache", "cache") \
                    and isinstance(node.value, ast.Name) and node.value.id == "functools":
                direct.append(f"{name}: functools.{node.attr}")
    assert direct == []


def test_clear_all_forgets_every_cache():
    from tps_atlas import cache

    for path in SOURCES:
        parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
        if parts[-1] != "__main__":
            importlib.import_module(".".join(parts[:-1] if parts[-1] == "__init__" else parts))
    trees = list(SOURCES.values())
    decorated = sum(isinstance(d, ast.Call) and getattr(d.func, "id", "") == "cached"
                    for tree in trees for node in ast.walk(tree) if isinstance(node, ast.FunctionDef)
                    for d in node.decorator_list)
    stores = sum(isinstance(node, ast.Expr) and isinstance(node.value, ast.Call)
                 and getattr(node.value.func, "id", "") == "on_clear" for tree in trees for node in tree.body)
    assert decorated >= 10 and cache.registered() == decorated + stores

    from tps_atlas.estimate.offload import load_ram

    load_ram()
    assert load_ram.cache_info().currsize == 1
    cache.clear_all()
    assert load_ram.cache_info().currsize == 0


# Two builds in one process, as ``mkdocs serve`` makes them, with data/ram.yaml edited between.
TWO_BUILDS = textwrap.dedent("""
    import re, sys
    from pathlib import Path
    from mkdocs.commands.build import build
    from mkdocs.config import load_config

    def text(site):  # the RAM the page's calculator starts from
        page = (Path(site) / "models" / "glm-4.5" / "index.html").read_text(encoding="utf-8")
        return sorted(set(re.findall(r'"ram": (\\d+)\\.0, "ram_kind"', page)))

    build(load_config("mkdocs.yml", site_dir=sys.argv[1]))
    ram = Path("data/ram.yaml")
    ram.write_text(ram.read_text(encoding="utf-8").replace("default: {size_gb: 64,", "default: {size_gb: 96,"),
                   encoding="utf-8")
    build(load_config("mkdocs.yml", site_dir=sys.argv[2]))
    print(text(sys.argv[1]), text(sys.argv[2]))
""")


@pytest.mark.full
def test_a_second_build_in_the_same_process_reads_the_edited_ram_file(tmp_path):
    project = copy_project(tmp_path / "project")
    assert "default: {size_gb: 64," in (project / "data" / "ram.yaml").read_text(encoding="utf-8")
    path = [str(project / "_shim"), str(project)] if (project / "_shim").is_dir() else [str(project)]
    env = {"PYTHONPATH": ":".join(path), "NO_MKDOCS_2_WARNING": "1", "TPS_PREVIEW": "glm-4.5",
           "TPS_BUILD_NL": "false", "TPS_BUILD_FR": "false", "TPS_BUILD_DE": "false", "PATH": "/usr/bin:/bin"}
    result = subprocess.run([sys.executable, "-c", TWO_BUILDS, str(tmp_path / "one"), str(tmp_path / "two")],
                            cwd=project, env=env, capture_output=True, text=True, timeout=900)
    assert result.returncode == 0, result.stderr[-3000:]
    assert result.stdout.split("\n")[-2] == "['64'] ['96']", result.stdout[-2000:]
