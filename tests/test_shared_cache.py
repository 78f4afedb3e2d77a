"""TPS_SHARED_CACHE: results worked out once and read by the other processes of a test session.
Its files are pickles, so a folder others can write to is refused."""


import pytest

from tps_atlas import cache as shared_cache
from tps_atlas.errors import DataError


def test_a_folder_others_can_write_to_is_refused_naming_the_variable(tmp_path, monkeypatch):
    folder = tmp_path / "open"
    folder.mkdir()
    folder.chmod(0o777)
    monkeypatch.setenv(shared_cache.VARIABLE, str(folder))
    with pytest.raises(DataError) as error:
        shared_cache.shared("test", (), lambda: 1)
    assert "TPS_SHARED_CACHE" in str(error.value) and "\n" not in str(error.value)
    assert not list(folder.iterdir())


def test_a_private_folder_hands_the_first_result_to_later_calls(tmp_path, monkeypatch):
    monkeypatch.setenv(shared_cache.VARIABLE, str(tmp_path / "cache"))
    calls = []
    first = shared_cache.shared("test", ("a",), lambda: calls.append(1) or {"answer": 42})
    again = shared_cache.shared("test", ("a",), lambda: calls.append(1) or {"answer": 0})
    assert first == again == {"answer": 42} and calls == [1]
    assert oct((tmp_path / "cache").stat().st_mode & 0o777) == oct(0o700)
