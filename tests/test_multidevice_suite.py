"""The differential suite on four simulated CPU devices, with every array split over
them (LAZYARR_SHARD_MIN_BYTES=0): a second pytest run, in its own process because XLA
reads XLA_FLAGS=--xla_force_host_platform_device_count=4 when jax starts.

To keep CI's cost to a couple of minutes it runs a sample of every chapter's tests
(each module's every SAMPLE-th test, at 2 hypothesis examples per 40). The whole
suite runs the same way by hand:

    XLA_FLAGS=--xla_force_host_platform_device_count=4 LAZYARR_TEST_BACKENDS='xla:cpu*4' \\
    LAZYARR_SHARD_MIN_BYTES=0 python -m pytest -n 2 tests/
"""

from __future__ import annotations

import pytest

import subsuite
SAMPLE = 6
# One module per chapter of the API, plus views, mutation, printing and the scheduler.
MODULES = ["creation", "elementwise", "reductions", "accumulate", "manipulation", "indexing",
           "selection", "sorting", "statistics", "linalg", "fft", "random", "mutation",
           "views", "printing", "core", "io", "polynomial", "manipulation_elements",
           "index_arrays", "bit_packing", "windows"]


@pytest.mark.once("xla")  # (its inner run is XLA's; skipped where XLA is not installed)
def test_differential_suite_on_four_devices(tmp_path):
    subsuite.run([f"tests/test_{m}.py" for m in MODULES],
                 dict(XLA_FLAGS="--xla_force_host_platform_device_count=4",
                      LAZYARR_TEST_BACKENDS="xla:cpu*4", LAZYARR_SHARD_MIN_BYTES="0",
                      LAZYARR_TEST_SAMPLE=str(SAMPLE), LAZYARR_EXAMPLES="2",
                      LAZYARR_CACHE_DIR=str(tmp_path)),
                 minimum=300)
