"""Reductions against NumPy: sums, products, extrema, means, variances, logical and
arg reductions, cumulative sums and products, their NaN variants, and the lazy
ufuncs' reduce/accumulate, on generated dtypes, shapes (0-d and size-0 included),
values (NaN, infinities, extremes), axes, `keepdims`, `dtype`, `initial` and `where=`."""

import warnings

import numpy as np
import pytest
from hypothesis import assume, given, strategies as st
from hypothesis.extra import numpy as hnp

import lazyarr as la

from differential import assert_same, check, check_function
from strategies import BOOL, COMPLEX, INTEGER, NUMERIC, REAL, arrays

SMALL = dict(max_dims=3, max_side=4)
ACC_DTYPES = [None, np.int8, np.uint16, np.int64, np.float16, np.float32, np.float64,
              np.complex64, np.bool_]


@pytest.fixture(autouse=True)
def _quiet():
    # NumPy warns (overflow, empty slices, complex casts); the values are what we compare.
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        yield


def axis_for(ndim, tuples=True):
    """None, an int (sometimes out of bounds), or a tuple (sometimes repeating)."""
    ints = st.integers(-ndim - 1, ndim)
    choices = [st.none(), ints]
    if tuples:
        choices.append(st.lists(ints, max_size=3).map(tuple))
    return st.one_of(*choices)


def array_and_axis(draw, dtypes=NUMERIC, tuples=True, **shape_kwargs):
    dtype = draw(st.sampled_from(dtypes))
    x = draw(arrays(dtype, **{**SMALL, **shape_kwargs}))
    return x, draw(axis_for(x.ndim, tuples))


def where_for(draw, shape):
    if draw(st.booleans()):
        return draw(st.sampled_from([True, False]))
    drop = draw(st.integers(0, len(shape)))
    wshape = tuple(n if draw(st.booleans()) else 1 for n in shape[drop:])
    return draw(hnp.arrays(np.bool_, wshape))


# ----- sums and products ------------------------------------------------------------

@pytest.mark.parametrize("name", ["sum", "prod", "nansum", "nanprod"])
@given(data=st.data())
def test_sum_prod(name, data):
    x, axis = array_and_axis(data.draw)
    kwargs = dict(axis=axis, keepdims=data.draw(st.booleans()))
    dtype = data.draw(st.sampled_from(ACC_DTYPES))
    if dtype is not None:
        kwargs["dtype"] = dtype
    check_function(name, x, **kwargs)


@pytest.mark.parametrize("name", ["sum", "prod", "nansum", "nanprod", "max", "min",
                                  "nanmax", "nanmin"])
@given(data=st.data())
def test_initial_and_where(name, data):
    x, axis = array_and_axis(data.draw, REAL)
    kwargs = dict(axis=axis, keepdims=data.draw(st.booleans()),
                  where=where_for(data.draw, x.shape))
    if data.draw(st.booleans()):
        kwargs["initial"] = data.draw(st.one_of(st.integers(-3, 3), st.floats(-5, 5),
                                                st.sampled_from([300, -1, np.inf])))
    check_function(name, x, **kwargs)


@pytest.mark.parametrize("tier", ["interpret", "compile"])
def test_float_products_overflow_where_numpys_do(tier):
    """NumPy multiplies in order, not in a tree: whether a product whose running value
    crosses the overflow limit comes out inf (or inf * 0 NaN) depends on it. Found by
    test_out's hypothesis examples on XLA (2.04e135 where NumPy has inf)."""
    edge = np.full((2, 4), 2.90499e5)
    edge[0, :2] = 1.26790109e99, 1.99090996e187
    zero = edge.copy()
    edge[1, 2], zero[1, 2] = 3.90258082e-179, 0.0
    with la.use_tier(tier), np.errstate(all="ignore"):
        for x in (edge, zero, edge.T.copy(), zero.reshape(2, 2, 2)):
            for axis in (None, 0, -1, (0, -1)):
                check_function("prod", x, axis=axis)
                out = np.zeros(np.prod(x, axis=axis).shape)
                assert_same(np.prod(x, axis=axis, out=out),
                            la.prod(la.asarray(x), axis=axis, out=la.asarray(out.copy())))


def test_explicit_initial_none():
    """max/min: initial=None is "no initial", as in NumPy. sum/prod: lazyarr reads it
    the same way (NumPy reads it as "no identity" and raises on empty input), because
    Array.sum passes None for "not given"."""
    check_function("max", np.ones((2, 3)), axis=0, initial=None)
    check_function("min", np.zeros((0, 3)), axis=0, initial=None)
    assert_same(np.sum(np.zeros(0)), la.sum(la.zeros(0), initial=None))


@given(data=st.data())
def test_sum_of_small_integers_accumulates_in_64_bits(data):
    dtype = data.draw(st.sampled_from(BOOL + INTEGER))
    x = data.draw(arrays(dtype, shape=(data.draw(st.integers(0, 300)),)))
    check_function("sum", x)
    check_function("prod", x)


# ----- extrema and logical reductions -----------------------------------------------

@pytest.mark.parametrize("name", ["max", "min", "amax", "amin", "ptp", "nanmax", "nanmin",
                                  "any", "all", "count_nonzero"])
@given(data=st.data())
def test_extrema_and_logical(name, data):
    x, axis = array_and_axis(data.draw)
    check_function(name, x, axis=axis, keepdims=data.draw(st.booleans()))


@pytest.mark.parametrize("name", ["any", "all"])
@given(data=st.data())
def test_logical_where(name, data):
    x, axis = array_and_axis(data.draw)
    check_function(name, x, axis=axis, keepdims=data.draw(st.booleans()),
                   where=where_for(data.draw, x.shape))


def test_nanmax_nanmin_all_nan_slices():
    x = np.array([[np.nan, np.nan], [1.0, np.nan], [np.inf, -np.inf]])
    for name in ("nanmax", "nanmin"):
        for axis in (None, 0, 1):
            check_function(name, x, axis=axis)
        check_function(name, np.full((2, 3), np.nan), axis=1, initial=5.0)
        check_function(name, x.astype(np.complex128), axis=1)


# ----- arg-extrema -----------------------------------------------------------------

@pytest.mark.parametrize("name", ["argmax", "argmin", "nanargmax", "nanargmin"])
@given(data=st.data())
def test_arg_reductions(name, data):
    x, axis = array_and_axis(data.draw, tuples=False)
    keepdims = data.draw(st.booleans())
    if name.startswith("nan"):
        # NumPy raises for an all-NaN slice, which lazyarr cannot see before computing
        # (documented; test_nanarg_all_nan_slice shows what it gives instead).
        try:
            getattr(np, name)(x, axis=axis)
        except ValueError as exc:
            assume("All-NaN" not in str(exc))
        except Exception:
            pass
    check_function(name, x, axis=axis, keepdims=keepdims)


def test_nanarg_all_nan_slice():
    x = np.array([[np.nan, np.nan], [np.nan, 2.0]])
    assert np.asarray(la.nanargmax(la.asarray(x), axis=1)).tolist() == [0, 1]
    assert np.asarray(la.nanargmin(la.asarray(x), axis=1)).tolist() == [0, 1]


# ----- means and variances ----------------------------------------------------------

MEAN_DTYPES = [None, np.float16, np.float32, np.float64, np.complex128, np.int64]


@pytest.mark.parametrize("name", ["mean", "nanmean"])
@given(data=st.data())
def test_mean(name, data):
    x, axis = array_and_axis(data.draw)
    kwargs = dict(axis=axis, keepdims=data.draw(st.booleans()))
    dtype = data.draw(st.sampled_from(MEAN_DTYPES))
    if dtype is not None:
        kwargs["dtype"] = dtype
    if data.draw(st.booleans()):
        kwargs["where"] = where_for(data.draw, x.shape)
    check_function(name, x, **kwargs)


@pytest.mark.parametrize("name", ["var", "std", "nanvar", "nanstd"])
@given(data=st.data())
def test_var_std(name, data):
    x, axis = array_and_axis(data.draw)
    kwargs = dict(axis=axis, keepdims=data.draw(st.booleans()))
    dtype = data.draw(st.sampled_from(MEAN_DTYPES))
    if dtype is not None:
        kwargs["dtype"] = dtype
    ddof = data.draw(st.sampled_from([0, 1, 2, 0.5, None]))
    if ddof is None:
        kwargs["correction"] = 1
    else:
        kwargs["ddof"] = ddof
    if data.draw(st.booleans()):
        kwargs["where"] = where_for(data.draw, x.shape)
    check_function(name, x, **kwargs)


@pytest.mark.parametrize("name", ["var", "std", "nanvar", "nanstd"])
def test_var_given_mean(name):
    x = np.array([[1.0, 2.0, np.nan], [4.0, 5.0, 7.0]])
    m = np.array([[1.5], [5.0]])
    check_function(name, x, axis=1, mean=m)
    check_function(name, x.astype(np.complex64), axis=1, mean=m, ddof=1)


@pytest.mark.parametrize("name", ["mean", "var", "std", "nanmean", "nanvar", "nanstd"])
def test_float16_and_empty(name):
    x = np.array([[1.5, 2.25, 65000.0], [0.1, -3.0, 7.0]], np.float16)
    for axis in (None, 0, 1, (0, 1)):
        check_function(name, x, axis=axis)
    check_function(name, np.zeros((0, 3)), axis=0)
    check_function(name, np.zeros((0, 3)), axis=1)
    check_function(name, np.zeros(0))


def test_float32_counts_are_divided_in_float32():
    """A float32 mean, var or std divides by its count in float32 where float32 holds
    the count exactly: NumPy's float64 division cast back is that same value (53 bits
    are at least 2 * 24 + 2), and the program holds no float64 (on a TPU, one that did
    would run on the host: `unfaithful`). A count float32 cannot hold keeps NumPy's
    float64 division."""
    x = np.random.default_rng(0).standard_normal((97, 3)).astype(np.float32) * 1e3
    with la.use_eager(False):
        for name, kwargs in [("mean", {}), ("var", {"ddof": 1}), ("std", {"ddof": 2.5})]:
            result = getattr(la, name)(la.asarray(x), axis=0, **kwargs)
            assert result.dtype == np.float32
            assert "float64" not in str(la.explain(result)), name
            check_function(name, x, axis=0, **kwargs)
        odd = la.var(la.asarray(x), axis=0, ddof=0.1)  # a count of 96.9
        assert "float64" in str(la.explain(odd))
        check_function("var", x, axis=0, ddof=0.1)


@given(data=st.data())
def test_average(data):
    x, _ = array_and_axis(data.draw, REAL + COMPLEX, min_dims=1)
    axes = data.draw(st.lists(st.integers(-x.ndim, x.ndim - 1), min_size=1,
                              max_size=x.ndim, unique_by=lambda a: a % x.ndim))
    axis = data.draw(st.sampled_from([None, axes[0], tuple(axes), list(axes)]))
    kwargs = dict(axis=axis, returned=data.draw(st.booleans()),
                  keepdims=data.draw(st.booleans()))
    if data.draw(st.booleans()):
        wdtype = data.draw(st.sampled_from([np.int8, np.float16, np.float32, np.float64]))
        full = data.draw(st.booleans()) or axis is None
        wshape = x.shape if full else tuple(x.shape[a] for a in np.atleast_1d(axis))
        # Positive weights: NumPy's ZeroDivisionError for weights summing to zero
        # depends on the data (documented in lazyarr.average).
        kwargs["weights"] = data.draw(hnp.arrays(wdtype, wshape, elements=st.integers(1, 4)))
    check_function("average", x, **kwargs)


# ----- cumulative sums and products -------------------------------------------------

@pytest.mark.parametrize("name", ["cumsum", "cumprod", "nancumsum", "nancumprod"])
@given(data=st.data())
def test_cumulative(name, data):
    x, axis = array_and_axis(data.draw, tuples=False)
    dtype = data.draw(st.sampled_from(ACC_DTYPES))
    check_function(name, x, axis=axis, **({} if dtype is None else {"dtype": dtype}))


@pytest.mark.parametrize("name", ["cumulative_sum", "cumulative_prod"])
@given(data=st.data())
def test_cumulative_sum_prod(name, data):
    x, axis = array_and_axis(data.draw, tuples=False)
    include_initial = data.draw(st.booleans())
    # NumPy accepts a 1-tuple axis, except with include_initial (where it fails on
    # `shape[axis]`, a NumPy bug that lazyarr does not copy).
    axis = data.draw(st.sampled_from([axis, None] + ([] if include_initial else [(axis,)])))
    dtype = data.draw(st.sampled_from(ACC_DTYPES))
    check_function(name, x, axis=axis, include_initial=include_initial,
                   **({} if dtype is None else {"dtype": dtype}))


# ----- the lazy ufuncs' reduce and accumulate ---------------------------------------

@pytest.mark.parametrize("name", ["add", "multiply", "maximum", "minimum", "logical_and",
                                  "logical_or"])
@given(data=st.data())
def test_ufunc_reduce(name, data):
    x, axis = array_and_axis(data.draw, REAL)
    kwargs = dict(keepdims=data.draw(st.booleans()))
    if data.draw(st.booleans()):
        kwargs["initial"] = data.draw(st.sampled_from([0, 1, 2]))
        kwargs["where"] = where_for(data.draw, x.shape)
    args = (x,) if data.draw(st.booleans()) else (x, axis)
    check(getattr(np, name).reduce, getattr(la, name).reduce, *args, **kwargs)


@pytest.mark.parametrize("name", ["add", "multiply"])
@given(data=st.data())
def test_ufunc_accumulate(name, data):
    x, axis = array_and_axis(data.draw, REAL, tuples=False)
    axis = data.draw(st.sampled_from([axis, (axis,), (0, 1), 0]))
    dtype = data.draw(st.sampled_from(ACC_DTYPES))
    check(getattr(np, name).accumulate, getattr(la, name).accumulate, x, axis, dtype)


# ----- bad input, raised at the call ------------------------------------------------

BAD_CALLS = [
    ("max", np.zeros((0, 3)), dict(axis=0)),
    ("min", np.zeros((3, 0)), dict(axis=(0, 1))),
    ("amax", np.zeros(0), {}),
    ("ptp", np.zeros(0), {}),
    ("ptp", np.array([True, False]), {}),
    ("nanmax", np.zeros(0), {}),
    ("max", np.ones(3), dict(where=np.array([True, False, True]))),
    ("nanmin", np.ones(3), dict(where=False)),
    ("argmax", np.zeros((0, 3)), dict(axis=0)),
    ("argmin", np.zeros((0, 0)), dict(axis=1)),
    ("nanargmax", np.zeros(0), {}),
    ("sum", np.ones((2, 3)), dict(axis=[0])),
    ("sum", np.ones((2, 3)), dict(axis=1.0)),
    ("sum", np.ones((2, 3)), dict(axis=(1, -1))),
    ("prod", np.ones((2, 3)), dict(axis=2)),
    ("mean", np.array(3.0), dict(axis=0)),
    ("var", np.ones((2, 3)), dict(axis=[0])),
    ("var", np.ones(3), dict(ddof=1, correction=1)),
    ("nanstd", np.ones(3), dict(ddof=1, correction=0)),
    ("std", np.ones((2, 3), np.int8), dict(axis=0, dtype=np.int8)),
    ("nanstd", np.ones((2, 3), np.int8), dict(axis=0, dtype=np.int8)),
    ("var", np.ones(3, bool), dict(dtype=bool)),
    ("nanmean", np.ones(3), dict(dtype=np.int64)),
    ("nanvar", np.ones(3), dict(dtype=np.int64)),
    ("sum", np.ones(3, np.int8), dict(dtype=np.int8, initial=1000)),
    ("max", np.ones(3, np.uint8), dict(initial=-1)),
    ("sum", np.ones(3), dict(initial=1j)),
    ("sum", np.ones(3, int), dict(initial=np.nan)),
    ("sum", np.ones(3), dict(initial=np.array([1, 2]))),
    ("sum", np.ones((2, 3)), dict(where=np.array([1, 0, 1]))),
    ("sum", np.ones(3), dict(where=np.ones((2, 3), bool))),
    ("mean", np.ones(3), dict(where=np.ones(2, bool))),
    ("cumsum", np.ones((2, 3)), dict(axis=(0,))),
    ("cumsum", np.array(2.0), dict(axis=1)),
    ("cumulative_sum", np.ones((2, 3)), {}),
    ("cumulative_prod", np.ones((2, 3)), dict(axis=(0, 1))),
    ("cumulative_sum", np.ones((2, 3)), dict(axis=2)),
    ("average", np.ones((2, 3)), dict(weights=np.ones(3))),
    ("average", np.ones((2, 3)), dict(weights=np.ones(2), axis=1)),
    ("average", np.ones((2, 3)), dict(axis=(0, 0))),
    ("average", np.zeros((0, 3)), dict(axis=1)),
    ("sum", np.ones(3), dict(dtype="S1")),
]


@pytest.mark.parametrize("name, x, kwargs", BAD_CALLS,
                         ids=[f"{n}-{i}" for i, (n, _, _) in enumerate(BAD_CALLS)])
def test_bad_input_raises_like_numpy(name, x, kwargs):
    with pytest.raises(Exception):
        getattr(np, name)(x, **kwargs)
    with la.count_flushes() as flushes:
        check_function(name, x, **kwargs)
    assert flushes.count == 0


def test_empty_messages_match_numpy():
    with pytest.raises(ValueError, match="zero-size array to reduction operation maximum "
                                         "which has no identity"):
        la.max(la.zeros((0, 3)), axis=0)
    with pytest.raises(ValueError, match="attempt to get argmax of an empty sequence"):
        la.argmax(la.zeros(0))


@pytest.mark.parametrize("name", ["sum", "mean", "max", "argmax", "any", "cumsum", "var",
                                  "nanmean", "ptp", "cumulative_sum"])
def test_out_is_written_as_numpy_writes_it(name):
    """out= of these functions: the result is computed lazily, then written into the
    lazyarr array (cast unsafely), which is returned; a wrong shape is ValueError."""
    a = np.arange(1.0, 7.0).reshape(2, 3)
    expected = np.asarray(getattr(np, name)(a, axis=0))
    dtype = np.float32 if expected.dtype.kind == "f" else expected.dtype  # a cast
    out_np, out_la = np.zeros(expected.shape, dtype), la.zeros(expected.shape, dtype)
    getattr(np, name)(a, axis=0, out=out_np)
    assert getattr(la, name)(la.asarray(a), axis=0, out=out_la) is out_la
    assert out_la.dtype == dtype
    np.testing.assert_array_equal(np.asarray(out_la), out_np)
    with pytest.raises(ValueError):
        getattr(np, name)(a, axis=0, out=np.zeros((5, 5)))
    with pytest.raises(ValueError):
        getattr(la, name)(la.asarray(a), axis=0, out=la.zeros((5, 5)))


@pytest.mark.parametrize("name", ["add", "multiply"])
def test_accumulate_rejects_scalars(name):
    with pytest.raises(TypeError, match="cannot accumulate on a scalar"):
        getattr(la, name).accumulate(la.asarray(np.float64(2.0)))


# ----- laziness, scalars, methods, dispatch -----------------------------------------

LAZY_CALLS = [
    ("sum", dict(axis=(0, 2))), ("mean", dict(where=np.arange(24).reshape(2, 3, 4) > 3)),
    ("std", dict(ddof=1)), ("nanvar", dict(axis=1)),
    ("average", dict(axis=2, weights=np.ones(4))), ("max", dict(axis=1, initial=5.0)),
    ("argmin", dict(axis=-1)), ("cumulative_prod", dict(axis=1, include_initial=True)),
    ("nanmax", dict(where=np.arange(24).reshape(2, 3, 4) < 10, initial=-1.0)),
    ("count_nonzero", dict(axis=0)),
]


def test_reductions_stay_lazy():
    x = np.arange(24.0).reshape(2, 3, 4)
    x[0, 1, 2] = np.nan
    lx = la.asarray(x)
    with la.count_flushes() as flushes:
        results = [getattr(la, name)(lx, **kwargs) for name, kwargs in LAZY_CALLS]
    assert flushes.count == 0
    for (name, kwargs), result in zip(LAZY_CALLS, results):
        assert_same(getattr(np, name)(x, **kwargs), result, where=name)


def test_zero_d_results_are_scalars():
    x = np.array([[1, 2], [3, 4]], np.int16)
    for name in ("sum", "prod", "max", "mean", "var", "argmax", "any", "count_nonzero",
                 "nanmean", "ptp"):
        expected = getattr(np, name)(x)
        assert repr(getattr(la, name)(la.asarray(x))) == repr(expected), name
    assert repr(la.sum(la.asarray(x), keepdims=True)) == repr(np.sum(x, keepdims=True))


@given(data=st.data())
def test_array_methods(data):
    x, axis = array_and_axis(data.draw, REAL)
    lx = la.asarray(x)
    keepdims = data.draw(st.booleans())

    def both(method, *args, **kwargs):
        check(lambda a, *r, **k: getattr(a, method)(*r, **k),
              lambda a, *r, **k: getattr(a, method)(*r, **k), x, *args, **kwargs)

    both("sum", axis, None, keepdims=keepdims)
    both("prod", axis, np.float64, keepdims=keepdims, initial=2)
    both("mean", axis, None, keepdims=keepdims)
    both("var", axis, None, ddof=1, keepdims=keepdims)
    both("std", axis, np.float32, keepdims=keepdims)
    both("max", axis, keepdims=keepdims, initial=0)
    both("min", axis, keepdims=keepdims, initial=0, where=True)
    both("any", axis, keepdims=keepdims)
    both("all", axis, keepdims=keepdims)
    if not isinstance(axis, tuple):
        both("argmax", axis, keepdims=keepdims)
        both("argmin", axis, keepdims=keepdims)
        both("cumsum", axis, None)
        both("cumprod", axis, np.float64)
    assert lx.shape == x.shape


def test_numpy_functions_dispatch_to_lazyarr():
    x = la.asarray(np.arange(6.0).reshape(2, 3))
    with la.count_flushes() as flushes:
        results = [np.sum(x, axis=0), np.mean(x), np.nanstd(x, axis=1), np.amax(x),
                   np.cumsum(x), np.average(x, axis=0), np.cumulative_sum(x, axis=1)]
    assert flushes.count == 0
    assert all(isinstance(r, la.Array) for r in results)
    assert_same(np.cumulative_sum(np.arange(6.0).reshape(2, 3), axis=1), results[-1])
