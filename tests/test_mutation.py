"""Mutation against NumPy: `x[key] = value` for every kind of key and value, repeated
indices, casting and its errors, bounds, in-place functions (put, place, putmask,
copyto, fill_diagonal, fill, sort), `ufunc.at` and jax's `x.at[...]`."""

import math
import warnings

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st
from hypothesis.extra import numpy as hnp

import lazyarr as la

from differential import assert_same, check, clean, la_setitem, np_setitem
from test_indexing import MIXED_KEYS as MIXED_GET_KEYS
from strategies import NUMERIC, arrays, elements


def lazy_key(key):
    """The key with its NumPy arrays as pending lazyarr arrays (not known on the host)."""
    if isinstance(key, tuple):
        return tuple(lazy_key(k) for k in key)
    if isinstance(key, np.ndarray):
        return la.asarray(key) + 0 if key.dtype != np.bool_ else la.asarray(key) & True
    return key


@given(a=arrays(max_dims=4), data=st.data())
def test_basic_keys(a, data):
    key = data.draw(hnp.basic_indices(a.shape, allow_newaxis=True, allow_ellipsis=True))
    shape = np.empty(a.shape)[key].shape
    value = data.draw(st.one_of(
        elements(a.dtype, finite=True),
        hnp.arrays(a.dtype,
                   hnp.broadcastable_shapes(shape, min_side=0, max_dims=len(shape) + 1),
                   elements=elements(a.dtype, finite=True))))
    check(np_setitem, la_setitem, a, key, value)


@given(a=arrays(min_dims=1, max_dims=3, min_side=1), data=st.data())
def test_integer_array_keys_with_repeats(a, data):
    """Repeated indices: the last value wins, as in NumPy, with indices known on the
    host and pending ones (resolved in the program)."""
    key = data.draw(hnp.integer_array_indices(a.shape, result_shape=hnp.array_shapes(
        min_dims=0, max_dims=2, max_side=4)))
    shape = a[key].shape
    value = data.draw(hnp.arrays(a.dtype, shape, elements=elements(a.dtype, finite=True)))
    check(np_setitem, la_setitem, a, key, value)
    assert_same(np_setitem(a, key, value), la_setitem(la.asarray(a), lazy_key(key), value))


@pytest.mark.usefixtures("lazy_graph")
@given(a=arrays(min_dims=1, max_dims=3), data=st.data())
def test_masks(a, data):
    mask = data.draw(hnp.arrays(np.bool_, a.shape))
    count = int(mask.sum())
    value = data.draw(st.one_of(
        elements(a.dtype, finite=True),
        hnp.arrays(a.dtype, st.sampled_from([(count,), (1,), (count + 1,)]),
                   elements=elements(a.dtype, finite=True))))
    check(np_setitem, la_setitem, a, mask, value)
    # A pending mask is counted (one flush) only when the value's shape needs the count;
    # a value that fits any count (0-d or one element) is written by a select.
    x = la.asarray(a)
    value = value if np.ndim(value) == 0 or count == np.size(value) else np.resize(value, count)
    with la.count_flushes() as flushes:
        x[la.asarray(mask) & True] = value
    needs_count = np.ndim(value) > 0 and np.shape(value) != (1,)
    assert flushes.causes["shape"] == flushes.count == int(needs_count)
    np.testing.assert_array_equal(np.asarray(x), np_setitem(a, mask, value))


# Every mixed key the getitem tests use, and some that only writes exercise.
MIXED_KEYS = MIXED_GET_KEYS + [
    (slice(None, None, 2), [[1], [3]], slice(4, 0, -2)), ([2, 0, 2], Ellipsis),
]


@pytest.mark.parametrize("key", MIXED_KEYS, ids=range(len(MIXED_KEYS)))
def test_mixed_advanced_and_basic(key):
    a = np.arange(60).reshape(3, 4, 5)
    shape = a[key].shape
    value = np.arange(np.prod(shape)).reshape(shape) * 7 + 100
    check(np_setitem, la_setitem, a, key, value)
    check(np_setitem, la_setitem, a, key, value[..., :1] if shape and shape[-1] else value)
    check(np_setitem, la_setitem, a, key, 5)
    assert_same(np_setitem(a, key, value), la_setitem(la.asarray(a), lazy_key(key), value))


def test_repeated_indices_last_value_wins():
    for backend_key in ([0, 3, 0, 3, 0], np.array([[1, 1], [1, 2]])):
        a = np.zeros(5)
        values = np.arange(1.0, np.size(backend_key) + 1).reshape(np.shape(backend_key))
        for key in (backend_key, lazy_key(np.asarray(backend_key))):
            assert_same(np_setitem(a, backend_key, values),
                        la_setitem(la.asarray(a), key, values))
    rows = np.zeros((3, 2))
    assert_same(np_setitem(rows, [2, 0, 2], [[1, 2], [3, 4], [5, 6]]),
                la_setitem(la.asarray(rows), lazy_key(np.array([2, 0, 2])),
                           [[1, 2], [3, 4], [5, 6]]))


# Values NumPy casts, or refuses, as it assigns them.
CASTS = [("int64", 0, 1.7), ("int64", slice(None), 2.5), ("int8", 0, 300), ("int8", [0], -129),
         ("uint8", slice(None), -1), ("int64", 0, np.nan),
         ("int64", slice(None), float("inf")),
         ("int64", 0, np.float64(np.nan)), ("float64", 0, 1j), ("float64", slice(None), 2j),
         ("float64", [0, 1], 1j), ("float64", 0, np.complex128(3 + 1j)),
         ("float64", 0, None), ("float64", 0, "1.5"), ("float64", 0, "abc"),
         ("float64", 0, object()), ("bool", slice(None), 5), ("int64", 0, True),
         ("float32", slice(None), np.array([1j, 2])),
         ("int64", slice(None), np.array([1.9, -1.9])),
         ("float64", 0, np.array([1.0])), ("float64", (0, Ellipsis), np.array([1.0])),
         ("float64", slice(None), [[1.0]]), ("float64", slice(None), [[1], [1, 2]]),
         ("int16", slice(None), [1.5, 70000]), ("uint64", 0, 2 ** 64 - 1),
         ("float16", 0, 1e6), ("complex64", slice(None), 1e40)]


@pytest.mark.parametrize("dtype,key,value", CASTS, ids=range(len(CASTS)))
def test_value_casting(dtype, key, value):
    a = np.arange(2).astype(dtype)
    check(np_setitem, la_setitem, a, key, value)


def test_complex_warning_for_lazy_values():
    x = la.zeros(3)
    with pytest.warns(np.exceptions.ComplexWarning):
        x[:] = la.asarray(np.array([1 + 2j, 3, 4]))
    assert x.tolist() == [1.0, 3.0, 4.0]


BAD_WRITES = [(5, 1), (-4, 1), ((0, 9), 1), ([3], 1), ([0, -5], 1), (1.5, 1), ("a", 1),
              (slice(None), [1, 2]), ((slice(None), 0), np.ones(4)), ([0, 1], np.ones(3)),
              ((0,), np.ones((2, 4))), ([[0, 1]], np.ones((3, 4))),
              (np.ones((3, 4), bool), np.ones(5)), (np.ones((3, 4), bool), np.ones((12, 1))),
              (np.array([True, False, True]), np.ones(3)), ((0, 0, 0), 1)]


@pytest.mark.parametrize("key,value", BAD_WRITES, ids=range(len(BAD_WRITES)))
def test_bad_writes(key, value):
    check(np_setitem, la_setitem, np.arange(12.0).reshape(3, 4), key, value)


@pytest.mark.usefixtures("lazy_graph")
def test_pending_out_of_bounds_index_raises_at_materialization():
    x = la.asarray(np.arange(12).reshape(3, 4))
    x[0, la.asarray(np.array([0, 7])) + 0] = -1  # an index known only once computed
    with pytest.raises(IndexError, match="out of bounds"):
        np.asarray(x)


def test_read_only_and_scalar_targets():
    x = la.arange(4.0)
    x.flags.writeable = False
    for write in (lambda: x.__setitem__(0, 1), lambda: x.__setitem__(slice(0, 0), 1),
                  lambda: x.__setitem__(10, 1), lambda: la.put(x, [0], 1),
                  lambda: la.copyto(x, 1.0), lambda: x.fill(0), lambda: la.add.at(x, [0], 1),
                  lambda: la.fill_diagonal(x.reshape(2, 2), 1)):
        with pytest.raises(ValueError, match="read-only"):
            write()
    s = la.arange(4.0)[1]
    with pytest.raises(TypeError, match="does not support item assignment"):
        s[()] = 1


def mutator(name):
    """NumPy's in-place `name` on a copy of its first argument, returning it; lazyarr's
    on the lazy array it is given."""
    def on_numpy(a, *args, **kwargs):
        a = a.copy()
        getattr(np, name)(a, *args, **kwargs)
        return a

    def on_lazyarr(x, *args, **kwargs):
        getattr(la, name)(x, *args, **kwargs)
        return x
    return on_numpy, on_lazyarr


@pytest.mark.parametrize("mode", ["raise", "wrap", "clip"])
@given(data=st.data())
def test_put(mode, data):
    a = data.draw(arrays(dtype=data.draw(st.sampled_from(NUMERIC)), shape=(2, 3)))
    ind = data.draw(hnp.arrays(np.int64, hnp.array_shapes(min_dims=0, max_dims=2),
                               elements=st.integers(-8, 8)))
    v = data.draw(hnp.arrays(a.dtype, st.integers(0, 4), elements=elements(a.dtype, True)))
    check(*mutator("put"), a, ind, v, mode=mode)
    if mode != "raise" or np.all((ind >= -6) & (ind < 6)):
        expected = mutator("put")[0](a, ind, v, mode=mode)
        actual = mutator("put")[1](la.asarray(a), la.asarray(ind) + 0, v, mode=mode)
        assert_same(expected, actual)


PUT_CASES = [((5,), [0, 1, 2, 3], [1, 2]), ((5,), [0, 1], []), ((5,), [7], [1]),
             ((5,), [1, 1], [1, 2]), ((2, 3), [[1, 4]], 9.7), ((3,), [0], 1j),
             ((0,), [0], 1), ((3,), [0.5], 1), ((3,), [], 1), ((3,), [0], [1.5])]


@pytest.mark.parametrize("shape,ind,v", PUT_CASES, ids=range(len(PUT_CASES)))
def test_put_cases(shape, ind, v):
    check(*mutator("put"), np.zeros(shape, int), ind, v)
    check(*mutator("put"), np.zeros(shape), ind, v)
    check(*mutator("put"), np.zeros(shape), ind, v, mode="bad")


PLACE_CASES = [(np.arange(6) > 2, [10, 20]), (np.arange(6) > 2, []), (np.arange(6) > 9, []),
               (np.arange(5) > 2, [1]), (np.arange(6), [1]), (np.arange(6) > 2, [1.7]),
               (np.ones(6, bool), np.arange(6) * 10)]


@pytest.mark.parametrize("mask,vals", PLACE_CASES, ids=range(len(PLACE_CASES)))
def test_place_and_putmask(mask, vals):
    a = np.arange(6)
    check(*mutator("place"), a, mask, vals)
    check(*mutator("putmask"), a, mask, vals)
    check(*mutator("putmask"), a.reshape(2, 3), mask, vals)
    check(*mutator("putmask"), a.astype(float), la.asarray(mask) > 0, vals)
    check(*mutator("place"), a.reshape(3, 2), la.asarray(mask) > 0, vals)


COPYTO_CASES = [(np.ones(3), {}), (1.5, {}), (1000, {}), (1000, {"casting": "unsafe"}),
                (np.arange(3), {}), (7, {"where": [True, False, True]}), ([1, 2], {}),
                (1, {"casting": "bogus"}), ([1.5, 2, 3], {}), (7, {"where": [1, 0, 1]}),
                (np.ones(3), {"casting": "no"}), (np.arange(3), {"casting": "safe"}),
                (2, {"where": [[True], [False]]}),
                (np.array([1 + 1j, 2, 3]), {"casting": "unsafe"})]


@pytest.mark.parametrize("src,kwargs", COPYTO_CASES, ids=range(len(COPYTO_CASES)))
@pytest.mark.parametrize("dtype", ["int8", "int64", "float64"])
def test_copyto(src, kwargs, dtype):
    check(*mutator("copyto"), np.arange(3).astype(dtype), src, **kwargs)


def test_copyto_targets():
    with pytest.raises(TypeError, match="copyto"):
        la.copyto([1, 2], la.ones(2))
    out = np.zeros(3)  # a NumPy target is written by NumPy
    np.copyto(out, la.arange(3.0))
    assert out.tolist() == [0.0, 1.0, 2.0]


DIAGONALS = [((3, 3), 7, False), ((3, 3), [1, 2], False), ((5, 3), 7, False),
             ((5, 3), 7, True), ((3, 5), [1, 2, 3, 4], True), ((2, 2, 2), 5, False),
             ((2, 3, 2), 5, False), ((3,), 1, False), ((4, 4), [], False), ((0, 0), 1, False)]


@pytest.mark.parametrize("shape,val,wrap", DIAGONALS, ids=range(len(DIAGONALS)))
def test_fill_diagonal(shape, val, wrap):
    check(*mutator("fill_diagonal"), np.zeros(shape), val, wrap=wrap)


@pytest.mark.parametrize("dtype,value", [("int64", 1.5), ("int64", np.nan), ("int8", 300),
                                         ("float64", np.array([1])), ("float64", np.array(2)),
                                         ("float64", 1j), ("bool", 3), ("complex64", 1j)])
def test_fill(dtype, value):
    def fill(a, value):
        a = a.copy() if isinstance(a, np.ndarray) else a
        a.fill(value)
        return a
    check(fill, fill, np.zeros((2, 3), dtype), value)


@pytest.mark.parametrize("ufunc", ["add", "subtract", "multiply", "divide", "maximum",
                                   "power", "less", "negative"])
@settings(max_examples=16)
@given(data=st.data())
def test_ufunc_at(ufunc, data):
    """Unbuffered: each index applies the ufunc once, in order, so floating-point sums
    over repeated indices match NumPy's exactly."""
    dtype = data.draw(st.sampled_from(["int32", "float32", "float64", "complex128"]))
    a = clean(data.draw(arrays(dtype=dtype, shape=(4, 3), finite=True)))
    key = data.draw(st.sampled_from([
        [0, 0, 3, 0], (slice(None), [2, 2]), ([1, 1, 1], [0, 1, 0]), 1, (slice(1, 3), 0),
        np.array([[True, False, True]] * 4)]))
    shape = a[key].shape
    b_dtype = data.draw(st.sampled_from(["int64", "float64"]))
    low = 0 if ufunc == "power" else -3
    b = () if getattr(np, ufunc).nin == 1 else (data.draw(hnp.arrays(
        b_dtype, st.sampled_from([shape, shape[-1:], ()]),
        elements=st.integers(low, 3) if b_dtype == "int64" else st.floats(low, 3))),)

    def on_numpy(a, key, *b):
        a = a.copy()
        with np.errstate(all="ignore"):
            getattr(np, ufunc).at(a, key, *b)
        return a

    def on_lazyarr(x, key, *b):
        getattr(la, ufunc).at(x, key, *b)
        return x
    check(on_numpy, on_lazyarr, a, key, *b)
    assert_same(on_numpy(a, key, *b), on_lazyarr(la.asarray(a), lazy_key(key), *b))


def test_ufunc_at_sums_in_order():
    values = np.array([1e16, 1.0, -1e16, 1.0])
    a = np.zeros(1)
    np.add.at(a, [0, 0, 0, 0], values)
    x = la.zeros(1)
    la.add.at(x, la.asarray(np.zeros(4, np.int64)) + 0, values)
    assert_same(a, x)


@pytest.mark.parametrize("call", [
    lambda m: m.add.at(m.zeros(3), [5], 1), lambda m: m.add.at(m.zeros(3), [0, 1], [1, 2, 3]),
    lambda m: m.add.at(m.ones(3), [0]), lambda m: m.negative.at(m.ones(3), [0], 1),
    lambda m: m.add.at(m.zeros(3), 1.5, 1)])
def test_ufunc_at_errors(call):
    with pytest.raises(Exception) as expected:
        call(np)
    with pytest.raises(expected.type):
        call(la)


def test_jax_style_at():
    x = la.arange(5.0)
    assert x.at[[1, 1, 3]].set([7, 8, 9]).tolist() == [0, 8, 2, 9, 4]
    assert x.at[[1, 1]].add(1).tolist() == [0, 3, 2, 3, 4]
    assert x.at[1:3].multiply(10).tolist() == [0, 10, 20, 3, 4]
    assert x.at[0].max(5).tolist() == [5, 1, 2, 3, 4]
    assert x.at[4].min(-1).tolist() == [0, 1, 2, 3, -1]
    assert x.at[::2].get().tolist() == [0, 2, 4]
    assert x.tolist() == [0, 1, 2, 3, 4]  # never mutated
    with pytest.raises(IndexError):
        x.at[7].set(1)


def test_sort_in_place_through_a_view():
    a = np.array([[3, 1, 2], [9, 7, 8]])
    x = la.asarray(a)
    x[1].sort()
    x.T[::-1].sort(axis=0)
    a[1].sort()
    a.T[::-1].sort(axis=0)
    assert_same(a, x)


def test_numpy_functions_dispatch_to_lazyarr():
    x = la.zeros(3)
    np.add.at(x, la.asarray(np.array([0, 0, 2])), 1.5)
    np.negative.at(x, np.array([2]))
    assert x.tolist() == [3.0, 0.0, -1.5]
    with la.count_flushes() as flushes:  # stays lazy
        np.put(x, [1], 7)
        np.copyto(x[::2], 4, where=np.array([True, False]))
        np.putmask(x, x > 5, 0)
        np.fill_diagonal(x.reshape(1, 3), 9)
    assert flushes.count == 0
    assert x.tolist() == [9.0, 0.0, -1.5]


def test_writes_in_a_loop():
    x = la.zeros(8)
    for i in range(8):
        x[i] = i * 1.5
    y = la.zeros((4, 4))
    for i in range(4):
        y[i, ::2] = i
    assert x.tolist() == [i * 1.5 for i in range(8)]
    expected = np.zeros((4, 4))
    for i in range(4):
        expected[i, ::2] = i
    assert_same(expected, y)


def test_numpy_targets_are_written_by_numpy():
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        a = np.zeros(4)
        np.put(a, [0, 2], la.asarray(np.array([1.0, 2.0])))
        np.add.at(a, np.array([0, 0]), la.asarray(np.array([1.0, 1.0])))
        la.place(a, np.array([0, 1, 0, 1], bool), la.arange(2.0) + 5)
    assert a.tolist() == [3.0, 5.0, 2.0, 6.0]


def test_asarray_copy_is_a_new_owner():
    x = la.asarray(np.array([0, 1, 2]))
    copied, same = la.asarray(x, copy=True), la.asarray(x)
    x[0] = 5
    assert int(copied[0]) == 0 and int(same[0]) == 5


# ----- put_along_axis ----------------------------------------------------------------

@given(a=arrays(min_dims=1, max_dims=3, max_side=4), data=st.data())
def test_put_along_axis(a, data):
    """Index slices of `a`'s rank (length-1 axes broadcast), negative and repeated
    indices, values broadcast; axis=None writes flat positions."""
    axis = data.draw(st.one_of(st.none(), st.integers(-a.ndim, a.ndim - 1)))
    n = a.size if axis is None else a.shape[axis]
    if axis is None:
        shape = (data.draw(st.integers(0, 5)),)
    else:
        shape = tuple(data.draw(st.integers(0, 4)) if d == axis % a.ndim else
                      data.draw(st.sampled_from([1, m])) for d, m in enumerate(a.shape))
    ind = data.draw(hnp.arrays(np.int64, shape, elements=st.integers(-n - 1, n)))
    kind = data.draw(st.sampled_from([np.int64, np.int8, np.uint16]))
    ind = ind.astype(kind) if kind == np.int64 or np.all(ind >= 0) else ind
    value_shape = data.draw(st.sampled_from([shape, shape[-1:], ()]))
    values = data.draw(hnp.arrays(a.dtype, value_shape, elements=elements(a.dtype, True)))
    check(*mutator("put_along_axis"), a, ind, values, axis)
    if np.all((ind >= -n) & (ind < n)) and ind.dtype.kind == "i":
        expected = mutator("put_along_axis")[0](a, ind, values, axis)
        actual = mutator("put_along_axis")[1](la.asarray(a), lazy_key(ind), values, axis)
        assert_same(expected, actual)


PUT_ALONG_CASES = [
    ((2, 3), np.array([[0], [2]]), 9, 1), ((2, 3), np.array([[0, 0]]), [[1, 2]], 1),
    ((2, 3), np.array([[-1]]), 1.5, 1), ((2, 3), np.array([[5]]), 1, 1),
    ((2, 3), np.array([[0], [1], [2]]), 1, 1), ((2, 3), np.array([[0]]), [1, 2], 1),
    ((2, 3), np.array([[0.0]]), 1, 1), ((2, 3), np.array([[True]]), 1, 1),
    ((2, 3), np.array([[0]]), 1, 2), ((2, 3), np.array([0]), 1, 1),
    ((2, 3), np.array([0, 5, 5]), [7, 8, 9], None), ((2, 3), np.array([6]), 1, None),
    ((2, 3), np.array([[0]]), 1, None), ((2, 3), np.array([0]), [1, 2], None),
    ((2, 3), [[0]], 1, 1), ((2, 3), np.array([[0]]), 1j, 1), ((2, 3), np.array([[0]]), "x", 1),
    ((2, 3), np.array([[0]], np.uint64), 7, 1), ((3,), np.array([], np.int64), [], 0),
    ((0, 3), np.zeros((0, 1), np.int64), 1, 1), ((), np.array([0]), 5, None),
    ((), np.array(0), 5, 0),
]


@pytest.mark.parametrize("shape,ind,values,axis", PUT_ALONG_CASES,
                         ids=range(len(PUT_ALONG_CASES)))
def test_put_along_axis_cases(shape, ind, values, axis):
    check(*mutator("put_along_axis"), np.arange(math.prod(shape)).reshape(shape), ind,
          values, axis)
    check(*mutator("put_along_axis"), np.zeros(shape), ind, values, axis)


def test_put_along_axis_writes_through_views_and_stays_lazy():
    a = np.arange(24.0).reshape(4, 6)
    x = la.asarray(a)
    order = np.argsort(-a[::2, 1::2], axis=1)[:, :1]
    with la.count_flushes() as flushes:
        view = x[::2, 1::2]
        np.put_along_axis(view, la.argsort(-view, axis=1)[:, :1], -1.0, axis=1)
        la.put_along_axis(x[1:], lazy_key(np.array([0, 5, 17])), la.asarray(np.ones(3)) * 7,
                          None)
    assert flushes.count == 0
    np.put_along_axis(a[::2, 1::2], order, -1.0, axis=1)
    np.put_along_axis(a[1:], np.array([0, 5, 17]), 7, None)
    assert_same(a, x)
    assert view.base is x


@pytest.mark.parametrize("view", [lambda v: v.T, lambda v: v[:, ::2], lambda v: v[:, :1],
                                  lambda v: v[::-1]])
def test_put_along_axis_flat_needs_a_contiguous_target(view):
    """NumPy writes axis=None through `np.array(arr.flat)`: a read-only copy unless
    `arr` is C-contiguous."""
    def on_numpy(a, *args):
        a = a.copy()
        np.put_along_axis(view(a), *args)
        return a

    def on_lazyarr(x, *args):
        la.put_along_axis(view(x), *args)
        return x
    for ind in (np.array([0]), np.array([], np.int64), np.array([0.0]), np.array([[0]])):
        check(on_numpy, on_lazyarr, np.arange(12.0).reshape(3, 4), ind, 5.0, None)
    check(on_numpy, on_lazyarr, np.arange(12.0).reshape(3, 4), np.array([[0]]), 5.0, 1)


@pytest.mark.usefixtures("lazy_graph")
def test_put_along_axis_pending_index_out_of_bounds_raises_when_computed():
    x = la.zeros((2, 3))
    la.put_along_axis(x, lazy_key(np.array([[0], [3]])), 1.0, 1)
    with pytest.raises(IndexError, match="out of bounds"):
        np.asarray(x)
    y = la.zeros((2, 3))
    la.put_along_axis(y, lazy_key(np.array([-7])), 1.0, None)
    with pytest.raises(IndexError, match="out of bounds"):
        np.asarray(y)


def test_put_along_axis_read_only_and_numpy_targets():
    x = la.zeros((2, 2))
    x.flags.writeable = False
    for axis, ind in ((1, np.array([[0], [1]])), (None, np.array([0]))):
        with pytest.raises(ValueError, match="read-only"):
            la.put_along_axis(x, ind, 1, axis)
    a = np.zeros((2, 2))  # a NumPy target is written by NumPy
    np.put_along_axis(a, la.asarray(np.array([[1], [0]])), la.asarray(np.array(5.0)), 1)
    assert a.tolist() == [[0.0, 5.0], [5.0, 0.0]]


def test_take_along_axis_reads_what_put_along_axis_writes():
    a = np.arange(20).reshape(4, 5) % 7
    ind = np.argsort(a, axis=1)[:, ::-1]
    x = la.asarray(a)
    check(np.take_along_axis, la.take_along_axis, a, ind, 1)
    check(np.take_along_axis, la.take_along_axis, a, ind.ravel(), None)
    la.put_along_axis(x, ind, la.take_along_axis(x, ind, 1) * 10, 1)
    assert_same(a * 10, x)
