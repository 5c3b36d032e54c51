"""The differential suite with each of the other execution tiers forced (the suite
itself runs every program compiled: conftest's LAZYARR_TEST_TIER=compile). A second
pytest run per tier, on both built-in backends: the scheduler's own tests in full and
a sample of every chapter. The whole suite runs the same way by hand (auto, interpret
or opbyop; README.md says how long each took):

    LAZYARR_TEST_TIER=interpret python -m pytest -n 2 tests/
"""

from __future__ import annotations

import pytest

import subsuite

SAMPLE = 6
WHOLE = ["core", "tiers", "ledger", "mutation", "views", "observe"]
CHAPTERS = ["creation", "elementwise", "reductions", "accumulate", "manipulation", "indexing",
            "selection", "sorting", "statistics", "linalg", "fft", "random", "printing", "io",
            "polynomial", "manipulation_elements", "index_arrays", "bit_packing", "windows"]


@pytest.mark.once("numpy")  # (the inner run has both backends)
@pytest.mark.parametrize("tier", ["auto", "interpret"])
def test_suite_under_a_forced_tier(tier, tmp_path):
    env = dict(LAZYARR_TEST_TIER=tier, LAZYARR_TEST_BACKENDS="numpy,xla",
               LAZYARR_CACHE_DIR=str(tmp_path))
    subsuite.run([f"tests/test_{m}.py" for m in WHOLE], env, minimum=500)
    subsuite.run([f"tests/test_{m}.py" for m in CHAPTERS],
                 dict(env, LAZYARR_TEST_SAMPLE=str(SAMPLE), LAZYARR_EXAMPLES="5"), minimum=300)
