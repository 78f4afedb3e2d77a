"""The stamp that lets the whole-site tests read the site scripts/build wrote (tps_atlas/mkdocs/stamp.py):
it holds only while sources, settings and every file of the site are as they were."""

import pytest

from tps_atlas.mkdocs import stamp as site_stamp


@pytest.fixture
def project(tmp_path, monkeypatch):
    root = tmp_path / "project"
    (root / "data").mkdir(parents=True)
    (root / "data" / "portal.yaml").write_text("title: A\n", encoding="utf-8")
    (root / "mkdocs.yml").write_text("site_name: A\n", encoding="utf-8")
    site = root / "site"
    (site / "models" / "a").mkdir(parents=True)
    (site / "models" / "a" / "index.html").write_text("<p>12 tok/s</p>", encoding="utf-8")
    monkeypatch.setattr(site_stamp, "ROOT", root)
    stamp_file = tmp_path / "stamp.json"
    site_stamp.stamp(site, {}, stamp_file)
    return root, site, stamp_file


def test_a_fresh_stamp_holds(project):
    root, site, stamp_file = project
    assert site_stamp.holds(site, {}, stamp_file)


def test_a_changed_page_breaks_the_stamp(project):
    root, site, stamp_file = project
    (site / "models" / "a" / "index.html").write_text("<p>13 tok/s</p>", encoding="utf-8")
    assert not site_stamp.holds(site, {}, stamp_file)


def test_a_changed_source_breaks_the_stamp(project):
    root, site, stamp_file = project
    (root / "data" / "portal.yaml").write_text("title: B\n", encoding="utf-8")
    assert not site_stamp.holds(site, {}, stamp_file)


def test_another_setting_breaks_the_stamp(project):
    root, site, stamp_file = project
    assert not site_stamp.holds(site, {"SITE_URL": "https://example.net/"}, stamp_file)
    assert not site_stamp.holds(site, {"TPS_PREVIEW": "glm-130b"}, stamp_file)
    assert site_stamp.holds(site, {"TPS_SHARED_CACHE": "/tmp/x"}, stamp_file)  # changes no page


def test_a_copy_of_the_site_elsewhere_is_not_the_stamped_one(project, tmp_path):
    import shutil

    root, site, stamp_file = project
    shutil.copytree(site, tmp_path / "elsewhere")
    assert not site_stamp.holds(tmp_path / "elsewhere", {}, stamp_file)


def test_a_damaged_stamp_does_not_hold(project):
    root, site, stamp_file = project
    stamp_file.write_text("[1, 2", encoding="utf-8")
    assert not site_stamp.holds(site, {}, stamp_file)


def test_the_command_wants_a_built_folder(capsys, tmp_path):
    assert site_stamp.main([str(tmp_path / "missing")]) == 2
    assert capsys.readouterr().err.count("\n") == 1


def test_test_packages_installed_after_the_build_leave_the_stamp_alone():
    packages = site_stamp.build_packages()
    assert any(package.startswith("mkdocs==") for package in packages)
    assert not any(package.startswith(("pytest==", "playwright==", "mypy==")) for package in packages)
