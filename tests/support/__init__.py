"""Helpers the tests share (fixtures are in tests/conftest.py)."""
