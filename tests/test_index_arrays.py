"""NumPy's indexing routines that generate index arrays, against NumPy: ix_, indices,
the diag/tril/triu/mask index helpers, ravel_multi_index and unravel_index, on
generated dtypes and shapes, plus bad input."""

import numpy as np
import pytest
from hypothesis import given, strategies as st
from hypothesis.extra import numpy as hnp

import lazyarr as la

from differential import check, check_function
from strategies import FLOAT, INTEGER

pytestmark = pytest.mark.usefixtures("quiet_warnings")


@given(data=st.data())
def test_ix(data):
    seqs = [data.draw(st.one_of(
        hnp.arrays(data.draw(st.sampled_from(INTEGER)), data.draw(st.integers(0, 3)),
                   elements=st.integers(0, 5)),
        hnp.arrays(bool, data.draw(st.integers(0, 3))),
        hnp.arrays(np.int64, (2, 2))))
        for _ in range(data.draw(st.integers(0, 3)))]
    check_function("ix_", *seqs)



@given(dims=st.lists(st.integers(0, 4), max_size=3), sparse=st.booleans(),
       dtype=st.sampled_from(INTEGER + FLOAT))
def test_indices(dims, sparse, dtype):
    check_function("indices", dims, dtype, sparse)


@given(n=st.integers(0, 5), k=st.integers(-6, 6), m=st.none() | st.integers(0, 5),
       ndim=st.integers(1, 3))
def test_index_helpers(n, k, m, ndim):
    check_function("diag_indices", n, ndim)
    check_function("tril_indices", n, k, m)
    check_function("triu_indices", n, k, m)
    a = np.zeros((n, m if m is not None else n))
    check_function("tril_indices_from", a, k)
    check_function("triu_indices_from", a, k)
    check_function("diag_indices_from", np.zeros((n,) * ndim))
    check(lambda *a: np.mask_indices(*a), lambda *a: la.mask_indices(*a), n, np.triu, k)


def test_index_helpers_bad_input():
    check_function("diag_indices_from", np.zeros((2, 3)))
    check_function("tril_indices_from", np.zeros(3))
    check_function("triu_indices_from", np.zeros((2, 2, 2)))


@given(data=st.data())
def test_ravel_unravel(data):
    dims = tuple(data.draw(st.lists(st.integers(1, 4), min_size=1, max_size=3)))
    size = int(np.prod(dims))
    shape = data.draw(hnp.array_shapes(min_dims=0, max_dims=2, min_side=0, max_side=3))
    dtype = data.draw(st.sampled_from(INTEGER))
    flat = data.draw(hnp.arrays(dtype, shape, elements=st.integers(0, min(size + 1, 127))))
    order = data.draw(st.sampled_from(["C", "F", "A"]))
    check_function("unravel_index", flat, dims, order)
    coords = [data.draw(hnp.arrays(np.int64, shape, elements=st.integers(-2, d + 1)))
              for d in dims]
    mode = data.draw(st.sampled_from(["raise", "wrap", "clip", "bad"]))
    check_function("ravel_multi_index", tuple(coords), dims, mode, order)


def test_ravel_unravel_bad_input():
    check_function("unravel_index", np.array([1.0]), (2, 2))
    check_function("unravel_index", 3, (2, 2))
    check_function("ravel_multi_index", (np.array([1]),), (2, 2))
    check_function("ravel_multi_index", (np.array([1.0]), np.array([1])), (2, 2))
    check_function("ravel_multi_index", (1, 1), (2, 2), ("clip", "wrap"))

