"""`out=` of the reductions, statistics and cumulative functions against NumPy: the
result written into `out` (NumPy's casts: unsafe for reductions, same_kind where NumPy
writes through a ufunc), `out` itself returned, and NumPy's exception types for an
`out` of the wrong shape or of a dtype it cannot take. Also ndarray's methods, `out`
as a view (the write reaches its base), and the one writer shared with ufuncs."""

import warnings

import numpy as np
import pytest
from hypothesis import given, strategies as st

import lazyarr as la

from differential import RTOL, allow_flushed, assert_same, flush_subnormals, public_type
from strategies import BOOL, COMPLEX, INTEGER, REAL, arrays

OUT_DTYPES = [np.bool_, np.int8, np.int32, np.int64, np.uint16, np.float16, np.float32,
              np.float64, np.complex64, np.complex128]
SMALL = dict(min_dims=1, max_dims=3, max_side=4)

# name -> (extra keyword arguments, input dtypes)
REDUCTIONS = {
    "sum": ({}, INTEGER + REAL + COMPLEX + BOOL), "prod": ({}, INTEGER + REAL + BOOL),
    "mean": ({}, INTEGER + REAL + COMPLEX), "var": ({}, INTEGER + REAL + COMPLEX),
    "std": ({}, INTEGER + REAL), "max": ({}, INTEGER + REAL), "min": ({}, INTEGER + REAL),
    "any": ({}, INTEGER + REAL + BOOL), "all": ({}, INTEGER + REAL + BOOL),
    "ptp": ({}, INTEGER + REAL), "argmax": ({}, INTEGER + REAL),
    "argmin": ({}, INTEGER + REAL), "nansum": ({}, INTEGER + REAL),
    "nanprod": ({}, REAL), "nanmax": ({}, REAL), "nanmin": ({}, REAL),
    "nanmean": ({}, INTEGER + REAL), "nanvar": ({}, REAL), "nanstd": ({}, REAL),
    "nanargmax": ({}, REAL), "nanargmin": ({}, REAL),
    "median": ({}, INTEGER + REAL), "nanmedian": ({}, REAL),
    "quantile": ({"q": 0.3}, INTEGER + REAL), "percentile": ({"q": 70}, REAL),
    "nanquantile": ({"q": 0.5}, REAL), "nanpercentile": ({"q": 25}, REAL),
}
STATISTICS = {"median", "nanmedian", "quantile", "percentile", "nanquantile",
              "nanpercentile"}
SINGLE_AXIS = {"argmax", "argmin", "nanargmax", "nanargmin"}
NO_KEEPDIMS = {"ptp"}
CUMULATIVE = ["cumsum", "cumprod", "nancumsum", "nancumprod"]


@pytest.fixture(autouse=True)
def _quiet():
    with warnings.catch_warnings():  # overflow, empty slices, all-NaN slices
        warnings.simplefilter("ignore", RuntimeWarning)
        yield


def _outcome(call):
    """(result, None) or (None, the public exception type), NumPy's warnings silenced
    except the ComplexWarning of a cast, which is part of NumPy's behaviour."""
    with np.errstate(all="ignore"), warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", np.exceptions.ComplexWarning)
        try:
            result = call()
        except Exception as exc:  # noqa: BLE001  (compared with lazyarr's)
            return None, public_type(exc), False
    complex_warned = any(issubclass(w.category, np.exceptions.ComplexWarning) for w in caught)
    return result, None, complex_warned


def _compare_out(np_call, la_call, out: np.ndarray, x: np.ndarray):
    """NumPy's `np_call(out, x)` against lazyarr's `la_call(out)` on the same input `x`.
    Off the reference backend, a floating `out` is compared at the precision the
    computation ran in (the narrower of x's and out's: a float32 mean inside a var
    written into a float64 `out` carries float32 rounding), and within a reordered
    sum's error bound (XLA's reduction tree: the sums row of docs/semantics.md); on a
    backend that flushes subnormals, as `differential.check` compares."""
    np_out, la_out = out.copy(), la.asarray(out.copy())
    expected, expected_exc, np_warned = _outcome(lambda: np_call(np_out, x))
    result, la_exc, la_warned = _outcome(lambda: la_call(la_out))
    if expected_exc is not None:
        assert la_exc is not None and issubclass(la_exc, expected_exc), \
            f"NumPy raised {expected_exc.__name__}; lazyarr {la_exc or result!r}"
        return
    assert la_exc is None, f"lazyarr raised {la_exc.__name__}; NumPy returned {expected!r}"
    assert expected is np_out and result is la_out, "out= must be returned itself"
    assert la_warned == np_warned, "the ComplexWarning of the cast"

    def on_flushed():
        flushed_out = out.copy()
        _outcome(lambda: np_call(flushed_out, flush_subnormals(x)))
        return flushed_out

    rtol, atol = None, 0.0
    if la._backend.current().name != "numpy" and out.dtype.kind in "fc":
        narrowest = min(_precision(x.dtype), _precision(out.dtype)) if x.dtype.kind in "fc" \
            else _precision(out.dtype)
        rtol = RTOL[narrowest]
        with np.errstate(all="ignore"):  # a reordered sum's error bound: eps * sum |x|
            atol = float(rtol * np.abs(x.astype(np.complex128)).sum())
        atol = atol if np.isfinite(atol) else 0.0
    assert_same(allow_flushed(np_out, on_flushed, np.asarray(la_out)), la_out, rtol=rtol,
                atol=atol, where="out")


def _precision(dtype) -> int:
    """The itemsize of one real component."""
    return dtype.itemsize // (2 if dtype.kind == "c" else 1)


def _draw_out(draw, shape, result_dtype, wrong_shapes=True):
    """An out array of `shape` (or, sometimes, of a wrong one) and a dtype the result
    casts to safely (where values keep their meaning: an unsafe cast of an out-of-range
    value is undefined in NumPy itself; `test_unsafe_casts_into_out_as_numpy` casts
    values in range)."""
    dtype = np.dtype(draw(st.sampled_from(
        [d for d in OUT_DTYPES if np.can_cast(result_dtype, d, "safe")] or [result_dtype])))
    if wrong_shapes and draw(st.integers(0, 7)) == 0:
        shape = tuple(shape) + (2,) if draw(st.booleans()) or not shape else shape[1:]
    return np.full(shape, 7, dtype)


@pytest.mark.parametrize("name", sorted(REDUCTIONS))
@given(data=st.data())
def test_reductions_write_out_as_numpy(name, data):
    kwargs, dtypes = REDUCTIONS[name]
    kwargs = dict(kwargs)
    x = data.draw(arrays(data.draw(st.sampled_from(dtypes)), min_side=1, **SMALL))
    axis = data.draw(st.one_of(st.none(), st.integers(-x.ndim, x.ndim - 1)))
    if name not in SINGLE_AXIS | NO_KEEPDIMS and data.draw(st.booleans()):
        kwargs = {**kwargs, "keepdims": True}
    q = kwargs.pop("q", None)
    args = (x,) if q is None else (x, q)
    try:
        with np.errstate(all="ignore"), warnings.catch_warnings():
            warnings.simplefilter("ignore")
            expected = np.asarray(getattr(np, name)(*args, axis=axis, **kwargs))
    except Exception:  # noqa: BLE001  (no result: nothing to write out)
        return
    # NumPy's statistics reshape `out` to the result (_ureduce): their shape errors
    # are not NumPy's ufunc ones, so only the result's own shape is compared for them.
    out = _draw_out(data.draw, expected.shape, expected.dtype,
                    wrong_shapes=name not in STATISTICS)
    lazy_args = (la.asarray(x),) + args[1:]
    _compare_out(lambda o, x: getattr(np, name)(x, *args[1:], axis=axis, out=o, **kwargs),
                 lambda o: getattr(la, name)(*lazy_args, axis=axis, out=o, **kwargs), out, x)


@pytest.mark.parametrize("name", CUMULATIVE + ["cumulative_sum", "cumulative_prod"])
@given(data=st.data())
def test_cumulative_functions_write_out_as_numpy(name, data):
    x = data.draw(arrays(data.draw(st.sampled_from(INTEGER + REAL + BOOL)), **SMALL))
    kwargs = {"axis": data.draw(st.integers(-x.ndim, x.ndim - 1))}
    if name.startswith("cumulative") and data.draw(st.booleans()):
        kwargs["include_initial"] = True
    elif not name.startswith("cumulative") and data.draw(st.booleans()):
        kwargs["axis"] = None
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        expected = getattr(np, name)(x, **kwargs)
    # NumPy's accumulations broadcast into a larger `out` and crash on a 0-d one: only
    # the result's own shape is compared.
    out = _draw_out(data.draw, expected.shape, expected.dtype, wrong_shapes=False)
    _compare_out(lambda o, x: getattr(np, name)(x, out=o, **kwargs),
                 lambda o: getattr(la, name)(la.asarray(x), out=o, **kwargs), out, x)


@given(data=st.data())
def test_methods_take_out_in_numpys_position(data):
    x = data.draw(arrays(data.draw(st.sampled_from(INTEGER + REAL)), min_side=1, **SMALL))
    # (NumPy's ndarray.any/all pass a positional out on as their dtype: not compared.)
    name = data.draw(st.sampled_from(["sum", "prod", "mean", "max", "min", "cumsum"]))
    axis = data.draw(st.integers(-x.ndim, x.ndim - 1))
    expected = np.asarray(getattr(x, name)(axis))
    # (as above: NumPy's accumulations write a prefix of a larger out; shapes not drawn)
    out = _draw_out(data.draw, expected.shape, expected.dtype, wrong_shapes=name != "cumsum")
    second = () if name in ("max", "min") else (None,)  # dtype, where taken
    _compare_out(lambda o, x: getattr(o.__class__, name)(x, axis, *second, o),
                 lambda o: getattr(la.asarray(x), name)(axis, *second, o), out, x)


@pytest.mark.parametrize("name", ["sum", "prod", "mean", "var", "max", "min", "nansum",
                                  "nanmean", "median", "cumsum", "argmax"])
@pytest.mark.parametrize("out_dtype", [np.int8, np.int64, np.bool_, np.float16,
                                       np.complex64])
def test_unsafe_casts_into_out_as_numpy(name, out_dtype):
    """NumPy's reductions cast into `out` unsafely (integers truncate, a max into a bool
    starts from its first element as a bool, a real loop reading a complex `out`
    warns); the values stay in range of every dtype here."""
    x = np.array([[1.5, -2.25, 3.0], [0.5, 2.75, -1.0]])
    shape = np.asarray(getattr(np, name)(x, axis=0)).shape
    _compare_out(lambda o, x: getattr(np, name)(x, axis=0, out=o),
                 lambda o: getattr(la, name)(la.asarray(x), axis=0, out=o),
                 np.full(shape, 3, out_dtype), x)
    ints = np.array([[3, -1, 2], [1, 4, 0]], np.int16)
    _compare_out(lambda o, x: getattr(np, name)(x, axis=1, out=o),
                 lambda o: getattr(la, name)(la.asarray(ints), axis=1, out=o),
                 np.full(2, 3, out_dtype), ints)


@pytest.mark.parametrize("name", ["var", "std", "nanvar", "nanstd"])
def test_variances_sum_in_outs_dtype(name):
    """NumPy sums the squared deviations into `out` (a float32 input's squares add up
    in a float64 `out`), then divides and takes the root there: sqrt(4196352.0), not
    float32's 2048.5 cast."""
    x = np.array([0.0, 4097.0], np.float32)
    _compare_out(lambda o, x: getattr(np, name)(x, out=o),
                 lambda o: getattr(la, name)(la.asarray(x), out=o), np.zeros((), np.float64), x)


@pytest.mark.parametrize("name, q", [("quantile", 0.3), ("percentile", 30.0),
                                     ("nanquantile", 0.3), ("nanpercentile", 30.0)])
def test_quantiles_interpolate_in_outs_dtype(name, q):
    """quantile's upper interpolation b - (b - a)(1 - t) is NumPy's subtract into `out`,
    in out's dtype (0.9000244 from float16 data into float32); nanquantile interpolates
    in the data's dtype and copies (0.8999)."""
    x = np.array([0.0, 1.0, 1.0, 1.0], np.float16)
    _compare_out(lambda o, x: getattr(np, name)(x, q, out=o),
                 lambda o: getattr(la, name)(la.asarray(x), q, out=o), np.zeros((), np.float32), x)


@pytest.mark.parametrize("name, out_dtype", [("quantile", np.int64), ("ptp", np.int32),
                                             ("std", np.int64), ("nanvar", np.int64),
                                             ("percentile", np.bool_)])
def test_out_casts_numpy_refuses(name, out_dtype):
    """Where NumPy writes `out` through a ufunc (the quantiles' add, ptp's subtract,
    std's sqrt) the cast is same_kind, and nan functions of inexact data want an
    inexact `out`: NumPy's exception types."""
    x = np.array([[1.5, 2.5, 0.5], [3.5, 4.5, 9.5]])
    args = (x, 0.3 if name == "quantile" else 30) if "quantile" in name or "percentile" in name \
        else (x,)
    _compare_out(lambda o, x: getattr(np, name)(x, *args[1:], axis=0, out=o),
                 lambda o: getattr(la, name)(la.asarray(x), *args[1:], axis=0, out=o),
                 np.zeros(3, out_dtype), x)


def test_out_of_a_reduction_can_be_a_view_and_writes_its_base():
    base = la.zeros((3, 4))
    x = np.arange(12.0).reshape(3, 4)
    result = la.sum(la.asarray(x), axis=0, out=base[1])
    expected = np.zeros((3, 4))
    np.sum(x, axis=0, out=expected[1])
    assert result is not None
    np.testing.assert_array_equal(np.asarray(base), expected)


def test_out_of_a_reduction_stays_lazy():
    x = la.arange(6.0).reshape(2, 3)
    out = la.zeros(3)
    with la.count_flushes() as flushes:
        la.mean(x, axis=0, out=out)
        la.max(x, axis=0, out=out[...])
    assert flushes.count == 0
    np.testing.assert_array_equal(np.asarray(out), [3.0, 4.0, 5.0])


def test_read_only_out_and_foreign_out_are_refused():
    x = la.arange(6.0)
    out = la.zeros(())
    out.flags.writeable = False
    with pytest.raises(ValueError, match="read-only"):
        la.sum(x, out=out)
    with pytest.raises(TypeError):
        la.sum(x, out=[0.0])


def test_one_out_writer_for_ufuncs_and_reductions():
    """A ufunc's out= and a reduction's share the writer: a same_kind ufunc cast fails
    with NumPy's own error type where a reduction's unsafe cast succeeds."""
    x = la.asarray(np.array([1.5, 2.5]))
    ints = la.zeros(2, dtype=np.int64)
    with pytest.raises(TypeError) as la_error:
        la.add(x, 1, out=ints)
    with pytest.raises(TypeError) as np_error:
        np.add(np.array([1.5, 2.5]), 1, out=np.zeros(2, np.int64))
    assert type(la_error.value) is type(np_error.value)
    assert la.sum(x, out=la.zeros((), dtype=np.int64)).item() == 4
