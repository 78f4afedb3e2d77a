"""The lock files pin what pyproject.toml asks for, and the tests run on exactly that set."""

from __future__ import annotations

import importlib.metadata
import re
import tomllib
from pathlib import Path

import pytest
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

ROOT = Path(__file__).resolve().parent.parent
BUILD_LOCK, TEST_LOCK = ROOT / "requirements.txt", ROOT / "requirements-test.txt"
PROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))


def locked(path: Path) -> dict[str, list[tuple[Requirement, int]]]:
    """Each package of a lock file: its pins (one per environment marker) and their hash count."""
    text = re.sub(r"\\\n", " ", path.read_text(encoding="utf-8"))
    pins: dict[str, list[tuple[Requirement, int]]] = {}
    for line in text.splitlines():
        line = line.split("#", 1)[0].strip()
        if not line:
            continue
        hashes = len(re.findall(r"--hash=sha256:[0-9a-f]{64}", line))
        requirement = Requirement(re.sub(r"\s*--hash=\S+", "", line))
        pins.setdefault(canonicalize_name(requirement.name), []).append((requirement, hashes))
    return pins


def pinned_version(requirement: Requirement) -> str:
    (specifier,) = requirement.specifier
    assert specifier.operator == "==", requirement
    return specifier.version


BUILD, TEST = locked(BUILD_LOCK), locked(TEST_LOCK)


def test_every_pin_is_exact_and_hash_checked():
    for name, pins in {**BUILD, **TEST}.items():
        for requirement, hashes in pins:
            pinned_version(requirement)
            assert hashes >= 1, f"{name} has no --hash"


def declared(extra: str | None = None) -> list[Requirement]:
    project = PROJECT["project"]
    names = project["dependencies"] if extra is None else project["optional-dependencies"][extra]
    return [Requirement(text) for text in names] + [Requirement(t) for t in PROJECT["build-system"]["requires"]]


@pytest.mark.parametrize("lock, requirements", [(BUILD, declared()), (TEST, declared() + declared("test"))],
                         ids=["requirements.txt", "requirements-test.txt"])
def test_the_lock_pins_every_declared_package_within_its_range(lock, requirements):
    for requirement in requirements:
        pins = lock.get(canonicalize_name(requirement.name))
        assert pins, f"{requirement.name} is in pyproject.toml but not locked: run bash scripts/update-lock"
        for pin, _ in pins:
            assert requirement.specifier.contains(pinned_version(pin), prereleases=True), \
                f"{pin} is outside pyproject.toml's {requirement}: run bash scripts/update-lock"


def test_the_build_lock_has_the_test_locks_versions():
    for name, pins in BUILD.items():
        assert sorted(map(str, (p for p, _ in pins))) == sorted(map(str, (p for p, _ in TEST[name]))), name


def test_the_tests_run_on_the_locked_versions():
    for name, pins in TEST.items():
        for requirement, _ in pins:
            if requirement.marker is None or requirement.marker.evaluate():
                assert importlib.metadata.version(name) == pinned_version(requirement), \
                    f"{name} is not the locked version: bash scripts/test reinstalls the locked set"
