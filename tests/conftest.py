"""Every test runs once per built-in backend: the backend is a parameter of the
harness, so a new backend reuses the whole differential suite.

LAZYARR_TEST_BACKENDS=numpy,xla,example picks the backends (default: those three, where
installed). The example backend (backends/example, the proof of the backend contract)
runs the modules of `EXAMPLE_SLICE` unless it is named explicitly, when it runs all.
Hypothesis runs 40 examples per test on the NumPy reference and 10 on XLA, where each
new shape is a compile; LAZYARR_EXAMPLES sets one count for all.
"""

import contextlib
import warnings
import os

import numpy as np
import pytest
from hypothesis import HealthCheck, settings

import lazyarr
from lazyarr import _backend, _cuts, _eager, _flush, _settings

settings.register_profile(
    "ci", max_examples=40, deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
    derandomize=True)
settings.load_profile("ci")

_chosen = os.environ.get("LAZYARR_TEST_BACKENDS", "")
# An entry may name a device as LAZYARR_BACKEND does: "xla:cpu*4" runs the tests of
# backend "xla" on a mesh of four CPU devices (tests/test_multidevice_suite.py).
_wanted = [entry.partition(":") for entry in (_chosen or "numpy,xla,example").split(",")]
_OPTIONS = {name: {"device": device} for name, _, device in _wanted if device}
BACKENDS = [name for name, _, _ in _wanted if name in _backend.available()]
_EXAMPLES = {"numpy": 40, "xla": 10, "example": 10}

# A representative slice of the differential suite for the example backend: every kind
# of primitive (elementwise, reductions, structural, mutation, sorting, checked linalg
# and index errors), views, and the scheduler's own tests.
EXAMPLE_SLICE = {"test_core", "test_elementwise", "test_reductions", "test_indexing",
                 "test_mutation", "test_views", "test_sorting", "test_linalg"}


# LAZYARR_TEST_SAMPLE=N keeps every N-th test of each module (deterministically): the
# multi-device run (tests/test_multidevice_suite.py) covers every chapter at a fraction
# of the cost.
SAMPLE = int(os.environ.get("LAZYARR_TEST_SAMPLE", "1"))


def _sample(config, items):
    kept, dropped, seen = [], [], {}
    for item in items:
        rank = seen[item.module.__name__] = seen.get(item.module.__name__, -1) + 1
        (kept if rank % SAMPLE == 0 else dropped).append(item)
    config.hook.pytest_deselected(items=dropped)
    items[:] = kept


def pytest_configure(config):
    config.addinivalue_line(
        "markers", "once(backend=None): run under one backend's parametrization only (see "
                   "`_once`)")


def _once(config, items):
    """A test marked `once` does not depend on the harness backend (it starts processes
    that choose their own, or checks what no backend changes): it runs under the
    parametrization of the backend the mark names (by default the first one tested),
    and its others are deselected, not run again. Where the named backend is not among
    those tested, the test is kept once and skipped, saying so."""
    kept, dropped = [], []
    for item in items:
        mark = item.get_closest_marker("once")
        backend = getattr(getattr(item, "callspec", None), "params", {}).get("backend")
        if mark is None or backend is None:
            kept.append(item)
            continue
        wanted = mark.args[0] if mark.args else BACKENDS[0]
        if backend == wanted:
            kept.append(item)
        elif backend == BACKENDS[0] and wanted not in BACKENDS:
            item.add_marker(pytest.mark.skip(
                reason=f"runs under the {wanted} backend, which is not among those tested"))
            kept.append(item)
        else:
            dropped.append(item)
    if dropped:
        config.hook.pytest_deselected(items=dropped)
        items[:] = kept


def pytest_collection_modifyitems(config, items):
    """Tests marked `once` run under one backend (`_once`); runs on the example backend
    outside its slice are deselected (unless chosen)."""
    if SAMPLE > 1:
        _sample(config, items)
    _once(config, items)
    if "example" in BACKENDS and _chosen:
        return
    kept, dropped = [], []
    for item in items:
        params = getattr(getattr(item, "callspec", None), "params", {})
        outside = item.module.__name__.rpartition(".")[2] not in EXAMPLE_SLICE
        (dropped if params.get("backend") == "example" and outside else kept).append(item)
    if dropped:
        config.hook.pytest_deselected(items=dropped)
        items[:] = kept


@contextlib.contextmanager
def _examples(test, count: int):
    """Run hypothesis test `test` with `count` examples for every 40 it asks for.
    Hypothesis fixes its settings when it decorates a test, so the per-backend count
    replaces them for this call."""
    current = getattr(test, "_hypothesis_internal_use_settings", None)
    if current is None or count == 40:
        yield
        return
    scaled = max(1, current.max_examples * count // 40)
    test._hypothesis_internal_use_settings = settings(current, max_examples=scaled)
    try:
        yield
    finally:
        test._hypothesis_internal_use_settings = current


TIER = os.environ.get("LAZYARR_TEST_TIER", "compile")


@pytest.fixture(params=BACKENDS, autouse=True)
def backend(request, monkeypatch):
    count = int(os.environ.get("LAZYARR_EXAMPLES", _EXAMPLES.get(request.param, 10)))
    # The switches are set through lazyarr's API (its environment variables are read at
    # import; they are set too, for the scripts a test runs); a test's own
    # set_tier/set_eager is undone when the test ends.
    monkeypatch.setenv("LAZYARR_TIER", TIER)
    # Each test starts with no structure or line seen: whether a scalar or a write's
    # position is compiled in, or a slice takes its position at run time, depends on
    # what its structure or line took before (`_flush._Known`, `_flush._moving`), not
    # on other tests.
    monkeypatch.setattr(_flush, "_programs", {})
    for seen in (_flush._site_starts, _flush._site_most, _flush._moving_sites):
        seen.clear()
    # Nor a widened eager bound from another test's loop of changing shapes (`_eager`).
    _eager.WIDE[0] = _cuts._loose_cuts[0] = 0
    with lazyarr.use_tier(TIER), lazyarr.use_eager(_settings.eager()), \
            lazyarr.use_backend(request.param, **_OPTIONS.get(request.param, {})), \
            _examples(request.function, count):
        yield request.param


@pytest.fixture
def compile_tier(monkeypatch):
    """For tests of what compiling does (compiles, caches, compile logs): every program
    is compiled before it runs, whatever tier the suite forces (in the scripts a test
    runs too)."""
    monkeypatch.setenv("LAZYARR_TIER", "compile")
    with lazyarr.use_tier("compile"):
        yield


@pytest.fixture
def lazy_graph(monkeypatch):
    """For tests of the pending graph itself (flush counts and causes, deferred errors,
    cuts, explain, program keys) on small arrays: operations are recorded, never
    computed at once (lazyarr._eager), whatever tier the suite forces (in the scripts a
    test runs too)."""
    monkeypatch.setenv("LAZYARR_EAGER", "0")
    with lazyarr.use_eager(False):
        yield


@pytest.fixture
def quiet_warnings():
    """NumPy's RuntimeWarnings (overflow, invalid values) are expected in generated
    tests; lazyarr raises none (see docs/semantics.md)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        yield


@pytest.fixture
def no_fallback(monkeypatch):
    """For tests of functions that must run lazily: the counted fallback raises instead
    of running NumPy's. Complex-to-real cast warnings are NumPy's and lazyarr's alike
    (the values are what is compared)."""
    monkeypatch.setenv("LAZYARR_FALLBACK", "raise")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", np.exceptions.ComplexWarning)
        yield
