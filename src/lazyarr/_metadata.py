"""The installed distributions' entry points of one group, read as
`importlib.metadata.entry_points(group=...)` reads them, without importing
importlib.metadata where the standard path finder is the only one that finds
distributions: that import (email, zipfile, csv, pathlib, ...) measured 15 ms of a
first flush's 17 ms against the scan's 2 ms, paid by every script whose first flush
loads a backend.

The rules are importlib.metadata's (Python 3.10-3.13): the `*.dist-info` and
`*.egg-info` directories of each `sys.path` entry, in order; of the distributions with
the same normalized name (from the directory's name) the first wins;
`entry_points.txt` read in sections of `name = value` lines. Anything else (a zip file
on sys.path, another finder of distributions on `sys.meta_path`) goes to
importlib.metadata itself.

A scan is kept per group and used again while it would read the same: each `sys.path`
entry's listing is kept with the entry's modification time, and the group's entry
points with the modification times of the `entry_points.txt` files they came from
(checked by one `stat` each). A first flush asked two or three times (the backend's
entry point, its folders, the default's name) at 1.7-2.1 ms a scan.
"""

from __future__ import annotations

import functools
import importlib
import importlib.machinery
import os
import re
import sys

_PATTERN = re.compile(r"(?P<module>[\w.]+)\s*(:\s*(?P<attr>[\w.]+)\s*)?((?P<extras>\[.*\])\s*)?$")


class Distribution:
    """What an entry point says of its distribution: `name` and `version`, read from
    the metadata file's headers when first asked for."""

    def __init__(self, path: str):
        self._path = path

    @functools.cached_property
    def _headers(self) -> dict[str, str]:
        headers: dict[str, str] = {}
        for filename in ("METADATA", "PKG-INFO"):
            text = _read(os.path.join(self._path, filename))
            if text is None:
                continue
            for line in text.splitlines():
                if not line.strip():
                    break  # the headers end at the first blank line
                key, sep, value = line.partition(":")
                if sep and not line[0].isspace():
                    headers.setdefault(key.strip(), value.strip())
            break
        return headers

    @property
    def name(self):
        return self._headers.get("Name")

    @property
    def version(self):
        return self._headers.get("Version")


class EntryPoint:
    """One `name = value` line of a distribution's `entry_points.txt`."""

    def __init__(self, name: str, value: str, group: str, dist: Distribution):
        self.name, self.value, self.group, self.dist = name, value, group, dist

    def load(self):
        """The object the value names ("module:attr.attr"), its module imported."""
        match = _PATTERN.match(self.value)
        module = importlib.import_module(match.group("module"))
        attrs = filter(None, (match.group("attr") or "").split("."))
        return functools.reduce(getattr, attrs, module)

    def __repr__(self) -> str:
        return f"EntryPoint(name={self.name!r}, value={self.value!r}, group={self.group!r})"


def _read(path: str) -> str | None:
    try:
        with open(path, encoding="utf-8") as file:
            return file.read()
    except (FileNotFoundError, IsADirectoryError, NotADirectoryError, PermissionError):
        return None


def _normalize(name: str) -> str:
    """PEP 503 normalization, with underscores (importlib.metadata's `Prepared`)."""
    return re.sub(r"[-_.]+", "-", name).lower().replace("-", "_")


# os.path.abspath of a sys.path entry -> (its st_mtime_ns, its distributions, as
# `_distributions_in` gives them); group -> (the `_stamps` it was read under, its points)
_LISTINGS: dict[str, tuple] = {}
_SCANS: dict[str, tuple] = {}


def _distributions_in(root: str):
    """(normalized name, directory) of each distribution in sys.path entry `root`, listed
    again only when its modification time changed; [] where it does not exist, None
    where it exists but cannot be listed (a zip file) or is an unpacked egg (then
    importlib.metadata reads it)."""
    where = os.path.abspath(root or ".")
    try:
        mtime = os.stat(where).st_mtime_ns
    except OSError:
        return []
    known = _LISTINGS.get(where)
    if known is not None and known[0] == mtime:
        return known[1]
    try:
        children = os.listdir(where)
    except OSError:
        return None
    by_name: dict[str, list[str]] = {}
    for child in children:
        low = child.lower()
        if low.endswith((".dist-info", ".egg-info")):
            name = _normalize(low.rpartition(".")[0].partition("-")[0])
            by_name.setdefault(name, []).append(os.path.join(where, child))
        elif low == "egg-info" and os.path.basename(where).lower().endswith(".egg"):
            return None  # an unpacked egg: importlib.metadata's legacy rules
    found = [(name, path) for name, paths in by_name.items() for path in paths]
    _LISTINGS[where] = (mtime, found)
    return found


def _metadata_directories():
    """(normalized name, directory) of each distribution on sys.path, in
    importlib.metadata's order; None where a path entry is not a directory that can be
    listed (a zip file: importlib.metadata reads it)."""
    found = []
    for root in sys.path:
        listed = _distributions_in(root)
        if listed is None:
            return None
        found.extend(listed)
    return found


def _stamps(files: list[str]) -> tuple:
    """The files and their modification times (None for one that is not there): what a
    group's scan read, to be compared with a later one's."""
    stamps = []
    for path in files:
        try:
            stamps.append(os.stat(path).st_mtime_ns)
        except OSError:
            stamps.append(None)
    return tuple(files), tuple(stamps)


def _standard_finders_only() -> bool:
    """Whether the standard path finder is the only one on sys.meta_path that finds
    distributions (as importlib.metadata asks each finder)."""
    from_path = getattr(importlib.machinery.PathFinder, "find_distributions", None)
    for finder in sys.meta_path:
        finds = getattr(finder, "find_distributions", None)
        if finds is not None and getattr(finds, "__func__", finds) is not getattr(
                from_path, "__func__", from_path):
            return False
    return True


def _parse(text: str, group: str, dist: Distribution) -> list[EntryPoint]:
    points, section = [], None
    for line in map(str.strip, text.splitlines()):
        if not line or line.startswith("#"):
            continue
        if line.startswith("[") and line.endswith("]"):
            section = line.strip("[]")
        elif section == group and "=" in line:
            name, _, value = line.partition("=")
            points.append(EntryPoint(name.strip(), value.strip(), group, dist))
    return points


def entry_points(group: str) -> list:
    """The entry points of `group`, from each distribution once (the first of a name
    on sys.path), as `importlib.metadata.entry_points(group=group)` gives them."""
    directories = _metadata_directories() if _standard_finders_only() else None
    if directories is None:
        import importlib.metadata  # noqa: PLC0415  (the standard library, rarely needed)
        return list(importlib.metadata.entry_points(group=group))
    files, seen = [], set()
    for name, path in directories:
        if name not in seen:
            seen.add(name)
            files.append(os.path.join(path, "entry_points.txt"))
    stamps = _stamps(files)
    known = _SCANS.get(group)
    if known is not None and known[0] == stamps:
        return list(known[1])
    points = []
    for file in files:
        text = _read(file)
        if text:
            points.extend(_parse(text, group, Distribution(os.path.dirname(file))))
    _SCANS[group] = (stamps, points)
    return list(points)
