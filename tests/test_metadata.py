"""lazyarr._metadata reads entry points as importlib.metadata does (without importing
it): the same entry points, in the same order, from the same distributions."""

import importlib.metadata
import os
import subprocess
import sys
import zipfile

import pytest

from lazyarr import _metadata


@pytest.fixture(autouse=True)
def backend():
    """No backend runs here: once."""
    yield None


def _described(points):
    return [(p.name, p.value, p.group, p.dist.name, p.dist.version) for p in points]


def _dist(root, folder, name, version, entry_points=None):
    info = root / folder
    info.mkdir(parents=True)
    (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {name}\nVersion: {version}\n"
                                   "Summary: a test\n\nName: not a header\n")
    if entry_points is not None:
        (info / "entry_points.txt").write_text(entry_points)


@pytest.mark.parametrize("group", ["lazyarr.backends", "console_scripts", "pytest11", "none"])
def test_the_installed_entry_points_are_importlib_metadatas(group):
    assert _described(_metadata.entry_points(group)) == _described(
        importlib.metadata.entry_points(group=group))


def test_distributions_of_one_name_count_once_first_on_the_path(tmp_path, monkeypatch):
    first, second = tmp_path / "first", tmp_path / "second"
    _dist(first, "Some_Plugin-1.0.dist-info", "Some_Plugin", "1.0",
          "# a comment\n[lazyarr.test]\none = mod_a:Thing.attr\n\n[other]\nx = y\n")
    _dist(second, "some.plugin-2.0.dist-info", "some.plugin", "2.0",
          "[lazyarr.test]\none = mod_b:Thing\n")
    _dist(second, "other_plugin.egg-info", "other-plugin", "0.3",
          "[lazyarr.test]\n two =  mod_c \n[lazyarr.test.more]\nthree = d\n")
    _dist(second, "no_entry_points-1.dist-info", "no-entry-points", "1")
    monkeypatch.syspath_prepend(str(second))
    monkeypatch.syspath_prepend(str(first))
    importlib.invalidate_caches()
    ours = _described(_metadata.entry_points("lazyarr.test"))
    assert ours == _described(importlib.metadata.entry_points(group="lazyarr.test"))
    assert ours == [("one", "mod_a:Thing.attr", "lazyarr.test", "Some_Plugin", "1.0"),
                    ("two", "mod_c", "lazyarr.test", "other-plugin", "0.3")]


def test_load_imports_the_module_and_follows_the_attributes(tmp_path, monkeypatch):
    _dist(tmp_path, "loadme-1.dist-info", "loadme", "1",
          "[lazyarr.test]\nit = loadme_mod:Outer.inner\n")
    (tmp_path / "loadme_mod.py").write_text("class Outer:\n    inner = 42\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.delitem(sys.modules, "loadme_mod", raising=False)
    (point,) = _metadata.entry_points("lazyarr.test")
    assert point.load() == 42


def test_a_zip_on_the_path_is_read_by_importlib_metadata(tmp_path, monkeypatch):
    archive = tmp_path / "plugins.zip"
    with zipfile.ZipFile(archive, "w") as z:
        z.writestr("zipped-1.0.dist-info/METADATA", "Name: zipped\nVersion: 1.0\n")
        z.writestr("zipped-1.0.dist-info/entry_points.txt", "[lazyarr.test]\nz = zmod:Z\n")
    monkeypatch.syspath_prepend(str(archive))
    points = _metadata.entry_points("lazyarr.test")
    assert [(p.name, p.value, p.dist.name) for p in points] == [("z", "zmod:Z", "zipped")]


def test_a_scan_is_used_again_until_what_it_read_changes(tmp_path, monkeypatch):
    """The group's entry points are read again only where a sys.path entry's listing or
    an `entry_points.txt` changed: a file rewritten in place, a distribution added."""
    root = tmp_path / "root"
    _dist(root, "first-1.dist-info", "first", "1", "[lazyarr.test]\na = mod:A\n")
    monkeypatch.syspath_prepend(str(root))
    reads = []
    real = _metadata._read

    def counted(path):
        reads.append(path)
        return real(path)
    monkeypatch.setattr(_metadata, "_read", counted)

    def names():
        return [p.name for p in _metadata.entry_points("lazyarr.test")]
    assert names() == ["a"]
    assert reads
    reads.clear()
    assert names() == ["a"]
    assert reads == []
    points = root / "first-1.dist-info" / "entry_points.txt"
    points.write_text("[lazyarr.test]\nb = mod:B\n")
    info = points.stat()
    os.utime(points, ns=(info.st_atime_ns, info.st_mtime_ns + 1_000_000_000))
    assert names() == ["b"]
    _dist(root, "second-1.dist-info", "second", "1", "[lazyarr.test]\nc = mod:C\n")
    stat = root.stat()
    os.utime(root, ns=(stat.st_atime_ns, stat.st_mtime_ns + 1_000_000_000))
    assert sorted(names()) == ["b", "c"]
    assert _described(_metadata.entry_points("lazyarr.test")) == _described(
        importlib.metadata.entry_points(group="lazyarr.test"))


def test_reading_them_does_not_import_importlib_metadata():
    code = ("import sys; from lazyarr import _metadata; _metadata.entry_points('lazyarr.backends'); "
            "print('importlib.metadata' in sys.modules)")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "False"
