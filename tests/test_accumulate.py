"""`ufunc.accumulate` against NumPy: every lazy ufunc on generated dtypes, shapes, axes,
`dtype=` and `out=`; NaN, infinities and the sign of zeros through the extrema; long
axes (many doubling rounds); NumPy's errors at the call; dispatch from NumPy's own
ufuncs without a flush; and the counted fallback for the ufuncs that stay eager."""

import warnings

import numpy as np
import pytest
from hypothesis import given, strategies as st
from hypothesis.extra import numpy as hnp

import lazyarr as la

from differential import assert_same, check, clean
from strategies import BOOL, COMPLEX, FLOAT, INTEGER, NUMERIC, arrays

# Lazy on every loop NumPy has for them.
LAZY = ["add", "multiply", "maximum", "minimum", "fmax", "fmin", "logical_and",
        "logical_or", "logical_xor", "bitwise_and", "bitwise_or", "bitwise_xor", "equal",
        "not_equal", "less", "less_equal", "greater", "greater_equal", "gcd", "copysign"]
DTYPE_ARGS = [None, np.bool_, np.int8, np.uint16, np.int64, np.float16, np.float32,
              np.float64, np.complex64]
EXTREMA = ["maximum", "minimum", "fmax", "fmin"]


pytestmark = pytest.mark.usefixtures("no_fallback")  # a lazy accumulate never runs NumPy's


def calls(name):
    """NumPy's and lazyarr's accumulate of ufunc `name`."""
    return getattr(np, name).accumulate, getattr(la, name).accumulate


def accumulate_case(draw, dtypes=NUMERIC, max_side=5):
    x = clean(draw(arrays(draw(st.sampled_from(dtypes)), min_dims=1, max_dims=3,
                          max_side=max_side)))
    axis = draw(st.integers(-x.ndim, x.ndim - 1))
    form = draw(st.sampled_from(["int", "tuple", "default"] + ["none"] * (x.ndim == 1)))
    kwargs = {"int": {"axis": axis}, "tuple": {"axis": (axis,)}, "default": {},
              "none": {"axis": None}}[form]
    return x, kwargs


@pytest.mark.parametrize("name", LAZY)
@given(data=st.data())
def test_accumulate(name, data):
    x, kwargs = accumulate_case(data.draw)
    dtype = data.draw(st.sampled_from(DTYPE_ARGS))
    if dtype is not None:
        kwargs["dtype"] = dtype
    check(*calls(name), x, **kwargs)


@given(data=st.data())
def test_integer_subtract(data):
    """subtract is lazy on integer loops (a running sum of the negated tail, exact in
    wrapping arithmetic); bools have no subtract loop."""
    x, kwargs = accumulate_case(data.draw, BOOL + INTEGER)
    dtype = data.draw(st.sampled_from([None, np.int8, np.uint8, np.int32, np.uint64]))
    if dtype is not None:
        kwargs["dtype"] = dtype
    check(*calls("subtract"), x, **kwargs)


SPECIAL = [0.0, -0.0, np.nan, 1.0, -1.0, np.inf, -np.inf]


def assert_same_zeros(expected, actual):
    """Beyond the harness (which compares values): equal zeros carry the same sign."""
    value = np.asarray(actual)
    for part in (np.real, np.imag) if expected.dtype.kind == "c" else (np.real,):
        e, v = part(expected), part(value)
        known = ~np.isnan(e)
        assert np.array_equal(np.signbit(e[known]), np.signbit(v[known])), (e, v)


@pytest.mark.parametrize("name", EXTREMA)
@given(data=st.data())
def test_extrema_nan_and_signed_zeros(name, data):
    """NaN wins through maximum and minimum and loses through fmax and fmin; between
    zeros of opposite signs, each step keeps the one NumPy's loop keeps."""
    dtype = data.draw(st.sampled_from(FLOAT + COMPLEX))
    shape = data.draw(hnp.array_shapes(min_dims=1, max_dims=3, min_side=1, max_side=6))
    if dtype.kind == "c":
        part = st.sampled_from(SPECIAL)
        elements = st.builds(complex, part, part)
    else:
        elements = st.sampled_from(SPECIAL)
    x = data.draw(hnp.arrays(dtype, shape, elements=elements))
    axis = data.draw(st.integers(-x.ndim, x.ndim - 1))
    result = check(*calls(name), x, axis=axis)
    assert_same_zeros(getattr(np, name).accumulate(x, axis=axis), result)


@pytest.mark.parametrize("name", EXTREMA)
@pytest.mark.parametrize("dtype", FLOAT + COMPLEX)
def test_zero_ties_on_every_layout(name, dtype):
    """Zeros of opposite signs: NumPy's choice between them may depend on the axis
    length and on other lanes beside it; each layout keeps NumPy's."""
    for shape, axis in [((2,), 0), ((3,), 0), ((7,), 0), ((2, 1), 0), ((2, 3), 0),
                        ((3, 2), 1), ((5, 4), 0), ((1, 2), 1), ((4, 5), 1)]:
        for first in (0.0, -0.0):
            x = np.full(shape, -first, dtype)
            x[(slice(None),) * axis + (0,)] = first
            result = check(*calls(name), x, axis=axis)
            assert_same_zeros(getattr(np, name).accumulate(x, axis=axis), result)


@pytest.mark.parametrize("name", ["maximum", "less", "bitwise_xor", "gcd"])
@given(data=st.data())
def test_long_axes(name, data):
    """Axes of any length: the doubling scans run ceil(log2(n)) rounds."""
    dtype = data.draw(st.sampled_from([np.bool_, np.int16, np.uint8, np.float64]))
    x = clean(data.draw(arrays(dtype, shape=(data.draw(st.integers(1, 300)),))))
    if data.draw(st.booleans()):
        x = x.reshape(-1, 1)[::-1]
    check(*calls(name), x, axis=0)


@given(x=hnp.arrays(st.sampled_from([np.int8, np.uint16, np.int64]), st.integers(1, 200)))
def test_long_integer_subtract(x):
    check(*calls("subtract"), x)


def test_scalar_values_and_signs():
    """A handful of fixed cases: the first element is kept as given (gcd does not take
    its absolute value), empty axes give empty results, bools add up as int64."""
    check(*calls("gcd"), np.array([-4, 6, -9, 0]))
    check(*calls("copysign"), np.array([-2.0, 1.0, -0.0, np.nan, 3.0]))
    check(*calls("add"), np.array([True, True, False]))
    check(*calls("less"), np.array([[True, False], [True, True], [True, True]]), axis=0)
    for name in ("add", "maximum", "less", "bitwise_or"):
        check(*calls(name), np.zeros((0, 3), bool), axis=0)
        check(*calls(name), np.zeros((3, 0), bool), axis=0)
        check(*calls(name), np.ones((1, 4), bool), axis=0)


BAD = [
    (np.array(3.0), {}), (np.float64(3.0), {}), (3, {}),              # 0-d
    (np.array(3.0), {"axis": -1}), (np.array(3.0), {"axis": None}),
    (np.array(3.0), {"axis": ()}), (np.array(3.0), {"axis": 1}),
    (np.array(3.0), {"axis": (0,)}),
    (np.arange(6.0).reshape(2, 3), {"axis": None}),                 # one axis only
    (np.arange(6.0).reshape(2, 3), {"axis": (0, 1)}),
    (np.arange(6.0).reshape(2, 3), {"axis": (0, 0)}),
    (np.arange(6.0).reshape(2, 3), {"axis": (0, 5)}),
    (np.arange(6.0).reshape(2, 3), {"axis": ()}),
    (np.arange(6.0).reshape(2, 3), {"axis": 2}),
    (np.arange(6.0).reshape(2, 3), {"axis": -3}),
    (np.arange(6.0).reshape(2, 3), {"axis": 1.0}),
    (np.arange(6.0).reshape(2, 3), {"axis": True}),
    (np.arange(6.0).reshape(2, 3), {"axis": [0]}),
    (np.arange(6.0), {"dtype": "S3"}),                              # dtypes
    (np.arange(6.0), {"dtype": "bogus"}),
    (np.arange(6) > 2, {"dtype": np.complex64}),
    (np.arange(6.0), {"dtype": np.int8}),
]


@pytest.mark.parametrize("a,kwargs", BAD, ids=range(len(BAD)))
@pytest.mark.parametrize("name", ["add", "maximum", "equal", "bitwise_or", "less"])
def test_bad_input_raises_at_the_call(name, a, kwargs):
    check(*calls(name), a, **kwargs)


@pytest.mark.parametrize("name", ["negative", "modf", "isnan", "frexp"])
def test_only_binary_single_output_ufuncs(name):
    check(*calls(name), np.arange(3.0))


@pytest.mark.parametrize("dtype", ["int8", "float32", "complex64", "bool"])
def test_loop_dtype_errors(dtype):
    """NumPy's reduction loops: equal and less accumulate only bools, bitwise ops only
    integers, gcd no floats."""
    a = np.arange(4).astype(dtype)
    for name in ("equal", "less", "bitwise_and", "gcd", "fmax", "logical_xor", "copysign"):
        check(*calls(name), a)
        check(*calls(name), a, dtype=np.bool_)


@pytest.mark.parametrize("out_dtype", ["int8", "float32", "complex64", "bool"])
@pytest.mark.parametrize("dtype", [None, np.float64])
@pytest.mark.parametrize("name", ["add", "maximum", "subtract"])
def test_out(name, out_dtype, dtype):
    """out= selects the loop dtype unless dtype= does; the result is cast unsafely
    into it, written through to a view's owner, and returned."""
    a = np.arange(10.0).reshape(2, 5) - 2.5
    if name == "subtract":  # lazy on integer loops only (test_fallback)
        if dtype is not None or out_dtype != "int8":
            return
        a = (a * 20).astype(np.int64)

    def on_numpy(a):
        target = np.ones((2, 10)).astype(out_dtype)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            result = getattr(np, name).accumulate(a, axis=1, dtype=dtype,
                                                  out=target[:, ::-2])
        assert result.base is target
        return target

    def on_lazyarr(a):
        target = la.ones((2, 10)).astype(out_dtype)
        view = target[:, ::-2]
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            assert getattr(np, name).accumulate(a, axis=1, dtype=dtype, out=view) is view
            assert getattr(la, name).accumulate(a, axis=1, dtype=dtype, out=(view,)) is view
        return target
    check(on_numpy, on_lazyarr, a)


def test_out_errors():
    a = np.arange(10.0).reshape(2, 5)
    with pytest.raises(ValueError):
        la.maximum.accumulate(a, axis=1, out=la.zeros((2, 4)))
    read_only = la.zeros((2, 5))
    read_only.flags.writeable = False
    with pytest.raises(ValueError, match="read-only"):
        la.maximum.accumulate(a, axis=1, out=read_only)


def test_numpy_dispatch_stays_lazy():
    """np.<ufunc>.accumulate on lazyarr arrays builds lazily: no warning, no flush,
    positional axis, dtype and out as NumPy passes them on."""
    a = np.arange(12.0).reshape(3, 4) % 5 - 2
    x = la.asarray(a) * 1
    target = la.zeros((3, 4), np.int64)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        with la.count_flushes() as flushes:
            results = [np.maximum.accumulate(x), np.fmin.accumulate(x, 1),
                       np.bitwise_xor.accumulate(x.astype(np.int8), -1, np.int16),
                       np.less.accumulate(x > 0, 0),
                       np.subtract.accumulate(x, 1, np.int64, target)]
    assert flushes.count == 0
    assert all(isinstance(r, la.Array) for r in results) and results[-1] is target
    assert_same(np.maximum.accumulate(a), results[0])
    assert_same(np.fmin.accumulate(a, 1), results[1])
    assert_same(np.bitwise_xor.accumulate(a.astype(np.int8), -1, np.int16), results[2])
    assert_same(np.less.accumulate(a > 0, 0), results[3])
    assert_same(np.subtract.accumulate(a, 1, np.int64), target)


def test_fallback(monkeypatch):
    """Ufuncs whose fold no lazy formulation reproduces exactly (non-associative ones,
    and subtract on floats, whose running differences round step by step) run NumPy's
    accumulate on materialized inputs, counted."""
    monkeypatch.setenv("LAZYARR_FALLBACK", "allow")
    a = np.array([1.5, -2.0, 4.0, 8.0, np.inf])
    before = dict(la.stats()["fallbacks"])
    for name, x in [("subtract", a), ("divide", a), ("power", a), ("arctan2", a),
                    ("hypot", a), ("lcm", np.array([4, 6, 10])),
                    ("left_shift", np.array([1, 2, 3])),
                    ("floor_divide", np.array([100, 3, -2]))]:
        check(*calls(name), x)
        assert la.stats()["fallbacks"][f"{name}.accumulate"] > before.get(
            f"{name}.accumulate", 0)
    target = la.zeros(5)
    assert la.subtract.accumulate(a, out=target) is target
    assert_same(np.subtract.accumulate(a), target)
    numpy_target = np.zeros(5)  # NumPy writes its own array
    la.maximum.accumulate(a, out=numpy_target)
    assert numpy_target.tolist() == np.maximum.accumulate(a).tolist()
