"""`ufunc.reduceat` against NumPy: every lazy ufunc on generated dtypes, shapes, axes
and indices (ordered, repeated, decreasing, empty), `dtype=` and `out=`, indices known
on the host and pending ones, NumPy's errors at the call, dispatch from NumPy's own
ufuncs, and the counted fallback for the others."""

import warnings

import numpy as np
import pytest
from hypothesis import given, strategies as st
from hypothesis.extra import numpy as hnp

import lazyarr as la
from lazyarr._api.ufunc_methods import _ASSOCIATIVE, _SEGMENT_REDUCTIONS

from differential import assert_same, check, clean
from strategies import NUMERIC, arrays

LAZY = sorted(_SEGMENT_REDUCTIONS) + sorted(_ASSOCIATIVE)
DTYPE_ARGS = [None, np.bool_, np.int8, np.uint16, np.int64, np.float16, np.float32,
              np.float64, np.complex64]


pytestmark = pytest.mark.usefixtures("no_fallback")  # a lazy reduceat never runs NumPy's


def indices_for(draw, n):
    """Segment starts in [0, n): any order, repeats, decreasing runs, or none."""
    if n == 0:
        return []
    values = draw(st.lists(st.integers(0, n - 1), max_size=6))
    return np.array(values, dtype=draw(st.sampled_from([np.int64, np.int8, np.uint32])))\
        if draw(st.booleans()) else values


def reduceat_case(draw, dtypes=NUMERIC):
    x = clean(draw(arrays(draw(st.sampled_from(dtypes)), min_dims=1, max_dims=3,
                          max_side=5)))
    axis = draw(st.integers(-x.ndim, x.ndim - 1))
    indices = indices_for(draw, x.shape[axis])
    if x.ndim == 1 and draw(st.booleans()):
        axis = None  # allowed for 1-d arrays
    return x, axis, indices


def lazy_indices(indices):
    """The indices as a pending lazyarr array (not known on the host)."""
    return la.asarray(np.asarray(indices, dtype=np.int64)) + 0


def calls(name):
    """NumPy's and lazyarr's reduceat of ufunc `name`."""
    return getattr(np, name).reduceat, getattr(la, name).reduceat


@pytest.mark.parametrize("name", LAZY)
@given(data=st.data())
def test_reduceat(name, data):
    x, axis, indices = reduceat_case(data.draw)
    if name == "multiply" and x.dtype.kind == "c":
        x = x.real  # complex products run through the fallback (test_fallback)
    dtype = data.draw(st.sampled_from(DTYPE_ARGS))
    if name == "multiply" and dtype is np.complex64:
        dtype = None
    kwargs = {"axis": axis} if dtype is None else {"axis": axis, "dtype": dtype}
    result = check(*calls(name), x, indices, **kwargs)
    if result is not None and len(indices):
        pending = getattr(la, name).reduceat(x, lazy_indices(indices), **kwargs)
        assert_same(np.asarray(result), pending)


def test_segments_follow_numpys_rules():
    """Decreasing and equal neighbours give the element alone; the last index reduces
    to the end; NaN propagates through maximum and is skipped by fmax; a float sum
    keeps the sign of a lone negative zero."""
    a = np.array([1.0, np.nan, 3.0, -0.0, 5.0, 2.0])
    for name in ("add", "multiply", "maximum", "minimum", "fmax", "fmin"):
        for indices in ([0, 2, 4], [4, 1, 3, 3, 0], [5], [2, 2, 2], [0], [3, 4]):
            check(*calls(name), a, indices)
    result = la.add.reduceat(np.array([-0.0, 1.0]), [0, 1])
    assert np.signbit(np.asarray(result)).tolist() == [True, False]


@pytest.mark.parametrize("name", ["add", "maximum", "bitwise_xor"])
def test_axes_and_empty_results(name):
    a = np.arange(60).reshape(3, 4, 5) % 7
    for axis, indices in [(0, [2, 0]), (1, [1, 3, 2]), (2, [0, 0, 4]), (-1, []),
                          (1, np.array([3], np.uint8))]:
        check(*calls(name), a, indices, axis=axis)
    check(*calls(name), np.zeros((2, 0), int), [], axis=1)
    check(*calls(name), np.zeros((0, 3), int), [0, 2], axis=1)
    check(*calls(name), np.zeros((0, 3), int), [], axis=0)


BAD = [
    (np.array(3.0), [0], {}), (np.float64(3.0), [0], {}),           # 0-d
    (np.arange(6.0), [6], {}), (np.arange(6.0), [0, -1], {}),       # out of bounds
    (np.arange(6.0), [2 ** 40], {}), (np.zeros(0), [0], {}),
    (np.arange(6.0), [2 ** 70], {}),                                # OverflowError
    (np.arange(6.0), np.array([0.0]), {}),                          # not safely intp
    (np.arange(6.0), np.array([1], np.uint64), {}),
    (np.arange(6.0), 1, {}), (np.arange(6.0), [[0, 1]], {}),        # not 1-d
    (np.arange(6.0), np.zeros((1, 1), int), {}),
    (np.arange(6.0), [None], {}), (np.arange(6.0), [1j], {}),
    (np.arange(6.0).reshape(2, 3), [0], {"axis": None}),           # one axis only
    (np.arange(6.0).reshape(2, 3), [0], {"axis": (0, 1)}),
    (np.arange(6.0).reshape(2, 3), [0], {"axis": ()}),
    (np.arange(6.0).reshape(2, 3), [0], {"axis": 2}),
    (np.arange(6.0).reshape(2, 3), [0], {"axis": 1.0}),
    (np.arange(6.0).reshape(2, 3), [0], {"axis": True}),
    (np.arange(6.0).reshape(2, 3), [0], {"axis": [0]}),
    (np.arange(6.0), [0], {"dtype": "S3"}),                        # dtypes
    (np.arange(6.0), [0], {"dtype": "bogus"}),
    (np.arange(6) > 2, [0], {"dtype": np.complex64}),
]


@pytest.mark.parametrize("a,indices,kwargs", BAD, ids=range(len(BAD)))
@pytest.mark.parametrize("name", ["add", "maximum", "equal", "bitwise_or", "logical_and"])
def test_bad_input_raises_at_the_call(name, a, indices, kwargs):
    check(*calls(name), a, indices, **kwargs)


@pytest.mark.parametrize("name", ["negative", "modf", "isnan"])
def test_only_binary_ufuncs(name):
    check(*calls(name), np.arange(3.0), [0])


@pytest.mark.parametrize("dtype", ["int8", "float32", "complex64", "bool"])
def test_loop_dtype_errors(dtype):
    """NumPy's reduction loops: equal reduces only bools, bitwise ops only integers."""
    a = np.arange(4).astype(dtype)
    for name in ("equal", "not_equal", "bitwise_and", "gcd", "fmax", "logical_xor"):
        check(*calls(name), a, [0, 2])
        check(*calls(name), a, [0, 2], dtype=np.bool_)


@pytest.mark.usefixtures("lazy_graph")  # counts flushes of small arrays
def test_pending_indices_are_checked_when_computed():
    x = la.asarray(np.arange(6.0))
    for bad in ([0, 6], [-1], [3, -6]):
        result = la.add.reduceat(x, lazy_indices(bad))
        with pytest.raises(IndexError, match="out of bounds"):
            np.asarray(result)


def test_pending_and_lazy_inputs_stay_lazy():
    x = la.asarray(np.arange(12.0).reshape(3, 4)) * 2
    idx = lazy_indices([0, 2])
    with la.count_flushes() as flushes:
        results = [la.add.reduceat(x, idx, axis=1), np.maximum.reduceat(x, [2, 0]),
                   np.bitwise_or.reduceat(la.asarray(np.arange(6)), idx),
                   np.add.reduceat(np.arange(6.0), idx)]
    assert flushes.count == 0
    assert all(isinstance(r, la.Array) for r in results)
    a = np.arange(12.0).reshape(3, 4) * 2
    assert_same(np.add.reduceat(a, [0, 2], axis=1), results[0])
    assert_same(np.maximum.reduceat(a, [2, 0]), results[1])
    assert_same(np.bitwise_or.reduceat(np.arange(6), [0, 2]), results[2])
    assert_same(np.add.reduceat(np.arange(6.0), [0, 2]), results[3])


@pytest.mark.parametrize("out_dtype", ["int8", "float32", "complex64", "bool"])
@pytest.mark.parametrize("dtype", [None, np.float64])
def test_out(out_dtype, dtype):
    """out= selects the loop dtype unless dtype= does; the result is cast unsafely
    into it, written through to a view's owner, and returned."""
    a = np.arange(10.0).reshape(2, 5) - 2.5

    def on_numpy(a, indices):
        target = np.ones((2, 3)).astype(out_dtype)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            result = np.add.reduceat(a, indices, axis=1, dtype=dtype, out=target[:, ::-1])
        assert result.base is target
        return target

    def on_lazyarr(a, indices):
        target = la.ones((2, 3)).astype(out_dtype)
        view = target[:, ::-1]
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            assert np.add.reduceat(a, indices, axis=1, dtype=dtype, out=view) is view
            assert la.add.reduceat(a, indices, axis=1, dtype=dtype, out=(view,)) is view
        return target
    check(on_numpy, on_lazyarr, a, [0, 2, 1])
    with pytest.raises(ValueError):
        la.add.reduceat(a, [0, 2], axis=1, out=la.zeros((2, 3)))
    read_only = la.zeros((2, 2))
    read_only.flags.writeable = False
    with pytest.raises(ValueError, match="read-only"):
        la.add.reduceat(a, [0, 2], axis=1, out=read_only)


def test_fallback(monkeypatch):
    """Ufuncs that are neither a reduction primitive nor associative (and complex
    products) run NumPy's reduceat on materialized inputs, counted."""
    monkeypatch.setenv("LAZYARR_FALLBACK", "allow")
    a = np.array([1.5, -2.0, 4.0, 8.0, np.inf])
    z = np.array([1 + 2j, np.inf, 3j, 2 - 1j])
    before = dict(la.stats()["fallbacks"])
    for name, x, indices in [("subtract", a, [0, 3, 1]), ("divide", a, [1, 4]),
                             ("power", a, [0, 2]), ("multiply", z, [0, 1, 2]),
                             ("arctan2", a, [4, 0])]:
        expected = check(*calls(name), x, indices)
        assert_same(np.asarray(expected), getattr(la, name).reduceat(x, lazy_indices(indices)))
        assert la.stats()["fallbacks"][f"{name}.reduceat"] > before.get(f"{name}.reduceat", 0)
    target = la.zeros(2)
    assert la.subtract.reduceat(a, [0, 3], out=target) is target
    assert_same(np.subtract.reduceat(a, [0, 3]), target)
    numpy_target = np.zeros(2)  # NumPy writes its own array
    la.add.reduceat(a, [0, 3], out=numpy_target)
    assert numpy_target.tolist() == np.add.reduceat(a, [0, 3]).tolist()


@given(x=hnp.arrays(np.int64, st.integers(1, 40), elements=st.integers(-50, 50)),
       data=st.data())
def test_long_segments(x, data):
    """Segments of any length (the pairwise tree pads odd lengths)."""
    indices = sorted(data.draw(st.lists(st.integers(0, x.size - 1), max_size=4)))
    for name in ("add", "gcd", "bitwise_xor", "maximum"):
        check(*calls(name), x, indices)
