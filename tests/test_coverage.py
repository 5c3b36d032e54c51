"""The coverage command: what lazyarr implements of NumPy, and what falls back."""

import subprocess
import sys

import numpy
import pytest

import lazyarr
from lazyarr import coverage


@pytest.fixture(autouse=True)
def backend():
    """Coverage does not depend on the backend: run once."""
    yield None


def test_every_numpy_callable_is_counted_once():
    for module_name, kinds in coverage.table().items():
        implemented, missing = kinds["all"]
        module = numpy if module_name == "numpy" else getattr(numpy, module_name.split(".")[1])
        assert sorted(implemented + missing) == coverage.public_callables(module)
        assert set(kinds["array"][0]) <= set(implemented)


def test_implemented_names_are_lazyarr_functions():
    for module_name, kinds in coverage.table().items():
        namespace = module_name.partition(".")[2]
        module = getattr(lazyarr, namespace) if namespace else lazyarr
        for name in kinds["all"][0]:
            assert callable(getattr(module, name)), (module_name, name)


def test_linalg_and_fft_are_complete():
    table = coverage.table()
    assert table["numpy.linalg"]["all"][1] == []
    assert table["numpy.fft"]["all"][1] == []


def test_the_command_prints_the_table():
    done = subprocess.run([sys.executable, "-m", "lazyarr.coverage", "--list"],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    linalg_row = next(line for line in done.stdout.splitlines()
                      if line.startswith("| numpy.linalg |"))
    assert linalg_row.endswith("(100.0%) |")
    assert "Fallback in numpy (" in done.stdout


def test_every_fallback_has_its_reason():
    """A name that falls back says why (coverage.FALLBACK_REASONS), and a reason names
    only names that do fall back."""
    missing = {name for kinds in coverage.table().values() for name in kinds["all"][1]}
    assert {name for name in missing if coverage.fallback_reason(name) is None} == set()
    listed = {name for names in coverage.FALLBACK_REASONS for name in names}
    assert listed <= missing, listed - missing
