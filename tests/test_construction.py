"""Building and reshaping arrays from pieces and indices, against NumPy: block, delete,
insert, resize, trim_zeros, rollaxis, ix_, indices, the diag/tril/triu/mask index
helpers, fromfunction, geomspace, ravel_multi_index, unravel_index, packbits,
unpackbits and the window functions, on generated dtypes and shapes (0-d and size-0
included), plus bad input."""


import numpy as np
import pytest
from hypothesis import given, strategies as st
from hypothesis.extra import numpy as hnp

import lazyarr as la

from differential import check, check_function, clean
from strategies import FLOAT, INTEGER, NUMERIC, arrays

SMALL = dict(max_dims=3, max_side=4)


pytestmark = pytest.mark.usefixtures("quiet_warnings")


def some_array(data, dtypes=NUMERIC, **kwargs):
    return clean(data.draw(arrays(data.draw(st.sampled_from(dtypes)), **{**SMALL, **kwargs})))


# ----- joining and cutting -------------------------------------------------------------

@given(data=st.data())
def test_block(data):
    dtype = data.draw(st.sampled_from(NUMERIC))
    a = some_array(data, [dtype], min_dims=0, max_dims=2, min_side=1, max_side=2)
    b = some_array(data, NUMERIC, shape=a.shape)
    check_function("block", [a, b])
    check_function("block", [[a, b], [b, a]])
    check_function("block", [[a], [b]])
    check_function("block", a)


def test_block_bad_input():
    a = np.ones((2, 2))
    for arrays_ in ([], [[]], [a, [a]], (a, a), [[a, a], a], [a, np.ones((3, 3))]):
        check_function("block", arrays_)
    check_function("block", [1, 2.5, 3])
    check_function("block", [[1, 2], [3, 4]])


def array_axis_length(data):
    """An array, an axis for delete/insert (None, in range or not), and the length of
    what that axis indexes."""
    x = some_array(data, min_dims=0)
    axis = data.draw(st.one_of(st.none(), st.integers(-x.ndim - 1, x.ndim)))
    n = x.size if axis is None or x.ndim == 0 else x.shape[axis % max(x.ndim, 1)]
    return x, axis, n


@given(data=st.data())
def test_delete(data):
    x, axis, n = array_axis_length(data)
    obj = data.draw(st.one_of(
        st.integers(-n - 1, n),
        st.builds(slice, st.none() | st.integers(-5, 5), st.none() | st.integers(-5, 5),
                  st.none() | st.integers(-2, 2).filter(bool)),
        st.lists(st.integers(-n - 1, n), max_size=4),
        hnp.arrays(bool, n),
        st.just([])))
    check_function("delete", x, obj, axis)


@given(data=st.data())
def test_insert(data):
    x, axis, n = array_axis_length(data)
    obj = data.draw(st.one_of(
        st.integers(-n - 1, n + 1),
        st.builds(slice, st.none() | st.integers(-5, 5), st.none() | st.integers(-5, 5)),
        st.lists(st.integers(-n, n), max_size=3),
        st.just([])))
    values = data.draw(st.one_of(st.integers(-3, 3), st.floats(-3, 3),
                                 st.lists(st.integers(-3, 3), min_size=1, max_size=3)))
    check_function("insert", x, obj, values, axis)


def test_insert_delete_lazy_obj_and_errors():
    x = np.arange(12.0).reshape(3, 4)
    check_function("insert", x, np.array([1, 1]), np.array([[7.0], [8.0], [9.0]]), 1)
    check_function("insert", x, 2, np.array([5, 6, 7, 8]), 0)
    check_function("delete", x, np.array([0, 2]), 1)
    check_function("delete", x, np.array([True, False, True]), 0)
    check_function("delete", x, np.array([True, False]), 0)
    check_function("delete", x, np.array([0.5]), 0)
    check_function("insert", x, np.ones((2, 2), int), 1, 0)


@given(data=st.data())
def test_resize(data):
    x = some_array(data, min_dims=0)
    shape = data.draw(st.one_of(st.integers(-1, 7), st.lists(st.integers(-1, 4), max_size=3)))
    check_function("resize", x, shape)


@given(data=st.data())
def test_trim_zeros(data):
    dtype = data.draw(st.sampled_from(NUMERIC))
    x = data.draw(hnp.arrays(dtype, data.draw(hnp.array_shapes(min_dims=0, max_dims=2,
                                                               min_side=0, max_side=5)),
                             elements=st.sampled_from([0, 0, 1, 2]).map(dtype.type)))
    trim = data.draw(st.sampled_from(["fb", "f", "b", "BF", "x"]))
    axis = data.draw(st.one_of(st.none(), st.integers(-x.ndim - 1, x.ndim)))
    check_function("trim_zeros", x, trim, axis)


@given(data=st.data())
def test_rollaxis(data):
    x = some_array(data, min_dims=0)
    n = x.ndim
    check_function("rollaxis", x, data.draw(st.integers(-n - 1, n)),
                   data.draw(st.integers(-n - 2, n + 1)))


# ----- index arrays --------------------------------------------------------------------

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
def test_indices_fromfunction(dims, sparse, dtype):
    check_function("indices", dims, dtype, sparse)
    check(np.fromfunction, la.fromfunction, lambda *ix: sum(ix) * 2 if ix else 0,
          tuple(dims), dtype=dtype)


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


# ----- bits ----------------------------------------------------------------------------

@given(data=st.data())
def test_packbits(data):
    x = some_array(data, [np.dtype(bool)] + INTEGER + FLOAT[:1], min_dims=0, max_side=10)
    axis = data.draw(st.one_of(st.none(), st.integers(-x.ndim - 1, x.ndim)))
    bitorder = data.draw(st.sampled_from(["big", "little", "other"]))
    check_function("packbits", x, axis, bitorder)


@given(data=st.data())
def test_unpackbits(data):
    dtype = data.draw(st.sampled_from([np.dtype(np.uint8)] * 3 + [np.dtype(np.int8)]))
    x = some_array(data, [dtype], min_dims=0)
    axis = data.draw(st.one_of(st.none(), st.integers(-x.ndim - 1, x.ndim)))
    count = data.draw(st.none() | st.integers(-40, 40))
    bitorder = data.draw(st.sampled_from(["big", "little", "other"]))
    check_function("unpackbits", x, axis, count, bitorder)


# ----- sequences and windows -----------------------------------------------------------

@given(data=st.data())
def test_geomspace(data):
    dtype = data.draw(st.sampled_from(INTEGER[:4] + FLOAT + [np.dtype(np.complex128)]))
    shape = data.draw(hnp.array_shapes(min_dims=0, max_dims=1, max_side=3))
    nonzero = st.integers(1, 100) | st.integers(-100, -1)
    start = data.draw(hnp.arrays(dtype, shape, elements=nonzero))
    stop = data.draw(hnp.arrays(dtype, shape, elements=nonzero | st.just(0)))
    num = data.draw(st.integers(0, 6))
    out_dtype = data.draw(st.none() | st.sampled_from([np.float32, np.int64]))
    axis = data.draw(st.integers(-1, 1) if shape else st.just(0))
    # float32 arithmetic (float32 inputs, or dtype=float32, in which NumPy computes) is
    # compared at float32's precision: XLA's float32 power may differ in the last ulp.
    single = dtype in (np.float16, np.float32) or out_dtype is np.float32
    check_function("geomspace", start, stop, num, data.draw(st.booleans()), out_dtype, axis,
                   rtol=1e-4 if single else 1e-12)


@pytest.mark.parametrize("name", ["bartlett", "blackman", "hamming", "hanning"])
@given(M=st.integers(-2, 12) | st.floats(-2, 12))
def test_windows(name, M):
    check_function(name, M, atol=1e-15)


@given(M=st.integers(-1, 12), beta=st.floats(0, 20))
def test_kaiser(M, beta):
    check_function("kaiser", M, beta)


@pytest.mark.parametrize("obj", [2, [5, 1], [0, 1], slice(0, 9)])
def test_insert_checks_indices_before_converting_values(obj):
    """NumPy reports a bad index before a value its dtype cannot hold."""
    for a in (np.array(0, np.uint8), np.arange(3, dtype=np.uint8)):
        check_function("insert", a, obj, -1)
        check_function("insert", a, obj, 7)
