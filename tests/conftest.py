"""Every test runs once per built-in backend: the backend is a parameter of the
harness, so a new backend reuses the whole differential suite.

LAZYARR_TEST_BACKENDS=numpy,xla picks the backends (default: every built-in backend
that is installed). Hypothesis runs 40 examples per test on the NumPy reference and 10
on XLA, where each new shape is a compile; LAZYARR_EXAMPLES sets one count for all.
"""

import contextlib
import warnings
import os

import numpy as np
import pytest
from hypothesis import HealthCheck, settings

import lazyarr
from lazyarr import _backend

settings.register_profile(
    "ci", max_examples=40, deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
    derandomize=True)
settings.load_profile("ci")

_wanted = os.environ.get("LAZYARR_TEST_BACKENDS", "numpy,xla").split(",")
BACKENDS = [name for name in _wanted if name in _backend.available()]
_EXAMPLES = {"numpy": 40, "xla": 10}


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


@pytest.fixture(params=BACKENDS, autouse=True)
def backend(request):
    count = int(os.environ.get("LAZYARR_EXAMPLES", _EXAMPLES.get(request.param, 10)))
    with lazyarr.use_backend(request.param), _examples(request.function, count):
        yield request.param


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
