"""Every test runs once per built-in backend: the backend is a parameter of the
harness, so a new backend reuses the whole differential suite.

LAZYARR_TEST_BACKENDS=numpy,xla picks the backends (default: numpy, the reference);
LAZYARR_EXAMPLES sets hypothesis examples per test (default 40).
"""

import os

import pytest
from hypothesis import HealthCheck, settings

import lazyarr
from lazyarr import _backend

settings.register_profile(
    "ci", max_examples=int(os.environ.get("LAZYARR_EXAMPLES", "40")), deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
    derandomize=True)
settings.load_profile("ci")

_wanted = os.environ.get("LAZYARR_TEST_BACKENDS", "numpy").split(",")
BACKENDS = [name for name in _wanted if name in _backend.available()]


@pytest.fixture(params=BACKENDS, autouse=True)
def backend(request):
    with lazyarr.use_backend(request.param):
        yield request.param
