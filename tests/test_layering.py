"""The layering of lazyarr and of the built-in XLA backend's package, read from their
imports (docs/layers.py): no import cycle, no import of the package inside a function,
every file under 1,000 lines, and docs/architecture.md's layer tables as the code has
them."""

from __future__ import annotations

import importlib.util
import pathlib

import pytest

ROOT = pathlib.Path(__file__).resolve().parent.parent
_spec = importlib.util.spec_from_file_location("layers", ROOT / "docs" / "layers.py")
layers = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(layers)

# Imports inside functions that are known and owned elsewhere: the core asks the
# built-in XLA backend for its devices until backends describe their own (issue 16).
KNOWN_INSIDE: set = set()  # (module, imported module) pairs allowed inside a function


PACKAGES = pytest.mark.parametrize("package", layers.PACKAGES, ids=lambda p: p.name)


@PACKAGES
def test_no_import_cycle(package):
    graph, _ = layers.imports(package)
    assert layers.cycles(graph) == []


@PACKAGES
def test_no_import_of_the_package_inside_a_function(package):
    _, inside = layers.imports(package)
    found = [f"{m}:{line} imports {t}" for m, line, t in inside if (m, t) not in KNOWN_INSIDE]
    assert found == []


def test_the_cycle_check_finds_cycles():
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}, "e": set()}
    assert layers.cycles(graph) == [["a", "b", "c"]]
    assert layers.layers({"a": {"b"}, "b": set()}) == [(0, "b", []), (1, "a", ["b"])]


def test_every_module_is_layered():
    graph, _ = layers.imports()
    assert "lazyarr._array" in graph and "lazyarr._api.common" in graph
    graph, _ = layers.imports(layers.XLA_PACKAGE)
    assert "lazyarr_xla.lowering" in graph and "lazyarr_xla.lowering_common" in graph
    assert "lazyarr_xla.lowering_common" in graph["lazyarr_xla.lowering_complex"]


@PACKAGES
def test_every_module_is_under_1000_lines(package):
    long = {m: n for m, p in layers.modules(package).items()
            if (n := len(p.read_text().splitlines())) >= 1000}
    assert long == {}


def test_the_array_handle_imports_no_chapter():
    graph, _ = layers.imports()
    below = graph["lazyarr._array"]
    assert not any(m.startswith("lazyarr._api") or m == "lazyarr._dispatch" for m in below)


def test_architecture_page_shows_the_layers_of_the_code():
    page = layers.PAGE.read_text()
    assert layers.page_with_table(page) == page, "run: python docs/layers.py --write"
