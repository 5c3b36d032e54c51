"""The whole surface (issue 11, part 1): every public name of `numpy.ndarray` is an
attribute of lazyarr's arrays, and the new methods and attributes (`strides` read and
set, `shape` set, `flat`, `view`, `tobytes`, `resize`, the stride tricks, ...) match
NumPy's values and errors."""

import fractions
import json
import numbers
import pickle

import numpy as np
import pytest

import lazyarr as la
from lazyarr.lib import stride_tricks

# ndarray names lazyarr's arrays do not have, each with its reason
NDARRAY_NOT_OFFERED = {
    "__array_interface__": "a host pointer into lazyarr's own buffer; __array__ is the protocol",
    "__array_struct__": "as __array_interface__",
    "__array_finalize__": "a hook of ndarray subclasses",
    "__array_wrap__": "a hook of ndarray subclasses",
    "__setstate__": "pickling goes through __reduce__",
    "__buffer__": "the buffer protocol needs Python 3.12",
    "__release_buffer__": "the buffer protocol needs Python 3.12",
}


@pytest.mark.parametrize("sub", ["", "linalg", "fft", "random", "lib", "lib.stride_tricks",
                                 "exceptions", "testing", "typing"])
def test_every_numpy_name_exists(sub):
    """Every public name of numpy (and of its submodules) is in lazyarr's namespace;
    NumPy's own object only where it has nothing to compute (lazyarr._numpy_own lists
    each group with its reason)."""
    from lazyarr import _numpy_own
    numpys, ours = np, la
    for part in filter(None, sub.split(".")):
        numpys, ours = getattr(numpys, part), getattr(ours, part)
    names = [n for n in dir(numpys) if not n.startswith("_") and n != "core"]
    assert [n for n in names if not hasattr(ours, n)] == []
    if sub == "":
        own = set(_numpy_own.TYPES + _numpy_own.MODULES + _numpy_own.CONSTANTS
                  + _numpy_own.HELPERS) | {"e", "pi", "inf", "nan", "euler_gamma", "newaxis"}
        # chapters register some of NumPy's own functions on purpose (printing's
        # formatting helpers); any other NumPy function passed through is a gap
        from lazyarr._api import NAMESPACES
        computing = [n for n in names if getattr(la, n) is getattr(np, n) and n not in own
                     and n not in NAMESPACES[""] and callable(getattr(np, n))
                     and not isinstance(getattr(np, n), type)]
        assert computing == []


def test_numpys_own_objects():
    assert la.floating is np.floating and la.int_ is np.int_ and la.ufunc is np.ufunc
    assert la.exceptions is np.exceptions and la.typing is np.typing and la.ma is np.ma
    assert la.s_[1:3] == np.s_[1:3] and list(la.ndindex(2, 2)) == list(np.ndindex(2, 2))
    assert la.vectorize is np.vectorize


@pytest.mark.parametrize("expr", [
    lambda m, x: m.r_[x, 10, [20, 30], 0:9:4], lambda m, x: m.r_[x, 2.5j:4:3j],
    lambda m, x: m.r_[x.astype(np.int32), 7], lambda m, x: m.c_[x, m.ones(4)],
    lambda m, x: m.c_[x[:, None], x], lambda m, x: m.r_["0,2", x, x],
    lambda m, x: m.r_[[1, 2], 3], lambda m, x: m.mgrid[0:3, 0:4:2j],
    lambda m, x: m.ogrid[0:2, 1:4][1], lambda m, x: m.mgrid[1:2:5j],
])
def test_index_tricks_match_numpy(expr):
    x = np.arange(4.0)
    expected, got = expr(np, x), expr(la, la.asarray(x))
    assert isinstance(got, la.Array)
    _same(np.asarray(expected), got)


def test_every_ndarray_name_exists():
    missing = [n for n in dir(np.ndarray) if not hasattr(la.Array, n)
               and n not in NDARRAY_NOT_OFFERED and n not in dir(object)]
    assert missing == []


def _same(expected, got):
    got = np.asarray(got)
    assert (expected.shape, expected.dtype) == (got.shape, got.dtype)
    np.testing.assert_array_equal(got, expected)


@pytest.mark.parametrize("method, args", [
    ("argsort", ()), ("argsort", (0,)), ("take", ([0, 5, 2],)), ("take", ([1, 0], 1)),
    ("argpartition", (1,)), ("compress", ([True, False, True],)),
    ("searchsorted", (4.5,)), ("tobytes", ()), ("view", (np.int64,)),
    ("view", (np.uint8,)), ("byteswap", ()), ("getfield", (np.float32, 4)),
])
def test_methods_match_numpy(method, args):
    a = np.array([[3.0, 1.0, 4.0], [1.5, 9.0, 2.5], [6.0, 5.0, 3.5]])
    if method == "searchsorted":
        a = np.sort(a.ravel())
    expected = getattr(a, method)(*args)
    got = getattr(la.asarray(a), method)(*args)
    if isinstance(expected, bytes):
        assert got == expected
    else:
        _same(expected, got)


def test_in_place_methods():
    a = np.array([5, 3, 8, 1, 9, 2])
    x = la.asarray(a)
    for shape in ((2, 4), (3,), 7):
        b, y = a.copy(), x.copy()
        b.resize(shape)
        y.resize(shape)
        _same(b, y)
    with pytest.raises(ValueError):
        x[::2].resize(2)
    b, y = a.copy(), x.copy()
    b.partition(2)
    y.partition(2)
    _same(b, y)
    b, y = a.astype(np.float64), x.astype(np.float64)
    b.setfield(np.float64(7.0), np.float64)
    y.setfield(np.float64(7.0), np.float64)
    _same(b, y)


def test_flat_reads_and_writes():
    a = np.arange(12.0).reshape(3, 4)
    x = la.asarray(a)
    assert x.flat[7] == a.flat[7] and len(x.flat) == 12
    _same(a.flat[2:9:3], x.flat[2:9:3])
    assert [float(v) for v in x.flat][:4] == a.ravel()[:4].tolist()
    for key, value in ((slice(None, None, 5), -1.0), ([0, 3], [8.0, 9.0]),
                       (slice(None), [1.0, 2.0, 3.0])):
        b, y = a.copy(), x.copy()
        b.flat[key] = value
        y.flat[key] = value
        _same(b, y)
    v, w = a.copy(), x.copy()
    v.T.flat[:3] = 0.0
    w.T.flat[:3] = 0.0
    _same(v, w)
    with pytest.raises(IndexError):
        x.flat[12]


def test_strides_as_numpy_reports_them():
    a = np.arange(24.0).reshape(2, 3, 4)
    x = la.asarray(a)
    for f in (lambda v: v, lambda v: v.T, lambda v: v[:, ::2, 1:], lambda v: v[1],
              lambda v: v.reshape(6, 4)[::3]):
        assert f(x).strides == f(a).strides


@pytest.mark.filterwarnings("ignore::DeprecationWarning")
def test_setting_strides_and_shape():
    a = np.arange(25.0).reshape(5, 5)
    x = la.asarray(a)
    d, e = a.ravel()[:5], x.ravel()[:5]
    d.strides = (48,)
    e.strides = (48,)
    _same(d, e)
    assert e.strides == (48,)
    with pytest.raises(ValueError):
        x.ravel()[:5].strides = (56,)  # past the end of the buffer
    with pytest.raises(ValueError):
        x.strides = (8,)  # wrong length
    b, y = a.copy(), x.copy()
    b.shape = (25,)
    y.shape = (25,)
    _same(b, y)
    with pytest.raises(AttributeError):
        x.T.shape = (25,)  # NumPy cannot reshape a transpose in place


def test_stride_tricks_match_numpy():
    a = np.arange(30.0).reshape(5, 6)
    x = la.asarray(a)
    st = np.lib.stride_tricks
    cases = [
        lambda m, v: m.sliding_window_view(v, (2, 3)),
        lambda m, v: m.sliding_window_view(v[:, ::2], 2, axis=0),
        lambda m, v: m.sliding_window_view(v.ravel(), 4)[::3],
        lambda m, v: m.as_strided(v, (3, 3), (56, 8)),
        lambda m, v: m.as_strided(v.T[1:], (2, 4), (8, 0)),
    ]
    for f in cases:
        expected, got = f(st, a), f(stride_tricks, x)
        _same(expected, got)
    assert not stride_tricks.sliding_window_view(x, 2, axis=1).flags.writeable
    with pytest.raises(ValueError):
        stride_tricks.sliding_window_view(x, (7,), axis=0)  # NumPy's: window too large
    with pytest.raises(ValueError):
        stride_tricks.as_strided(x, (10,), (80,))  # outside the buffer
    # NumPy's own sliding_window_view, given a lazyarr array, stays lazy
    assert isinstance(np.lib.stride_tricks.sliding_window_view(x, 3, axis=1), la.Array)


def test_bytes_and_pickles(tmp_path):
    a = np.linspace(0.0, 1.0, 6).reshape(2, 3)
    x = la.asarray(a)
    x.tofile(tmp_path / "raw")
    _same(a.ravel(), np.fromfile(tmp_path / "raw"))
    _same(a, pickle.loads(x.dumps()))
    x.dump(tmp_path / "d.pkl")
    _same(a, np.load(tmp_path / "d.pkl", allow_pickle=True))
    assert bytes(x.data) == a.tobytes()
    with pytest.raises(ValueError):
        la.asarray(np.arange(3.0)).view(np.dtype("V3"))  # NumPy's itemsize error
    v = x.view()
    assert v.base is x and v.shape == a.shape


def test_docstrings_are_numpys_with_a_lazyarr_note():
    for ours, numpys in ((la.sum, np.sum), (la.exp, np.exp), (la.linalg.norm, np.linalg.norm),
                         (la.fft.rfft, np.fft.rfft), (la.Array.argsort, np.ndarray.argsort)):
        assert ours.__doc__.startswith(numpys.__doc__)
        assert "lazyarr\n-------\n" in ours.__doc__
    assert "add.reduce" in la.sum.__doc__.split("lazyarr\n-------\n")[1]  # lazyarr's own line


ABCS = (numbers.Number, numbers.Complex, numbers.Real, numbers.Rational, numbers.Integral)


@pytest.mark.parametrize("dtype", ["bool", "int8", "int64", "uint16", "uint64", "float16",
                                   "float32", "float64", "complex64", "complex128"])
def test_scalar_results_are_numbers_as_numpys(dtype):
    """A 0-d result is an instance of the `numbers` ABCs NumPy registers its scalar
    type with (floating: Real, integer: Integral, complex: Complex, bool: none); an
    array (0-d ones made by asarray included) is none, as NumPy's are not."""
    a = np.arange(1, 4).astype(dtype)
    expected, got = a[1] * a[0], la.asarray(a)[1] * la.asarray(a)[0]
    assert [isinstance(got, abc) for abc in ABCS] == [isinstance(expected, abc) for abc in ABCS]
    assert got.__class__.__name__ == type(expected).__name__  # as NumPy's messages name it
    for array in (la.asarray(a), la.asarray(a[0]), la.asarray(a).reshape(3, 1)):
        assert not any(isinstance(array, abc) for abc in ABCS)
        assert not any(isinstance(np.asarray(array), abc) for abc in ABCS)
    assert isinstance(got, la.Array) and type(got) is la.Array
    if dtype.startswith(("int", "uint")):
        assert (got.numerator, got.denominator) == (expected.numerator, expected.denominator)
        assert fractions.Fraction(got, 4) == fractions.Fraction(expected, 4)
    else:
        assert not hasattr(got, "numerator")
    assert not hasattr(la.asarray(a), "numerator")


def test_scalar_results_json_and_float_as_documented():
    """docs/semantics.md: NumPy's float64 is a Python float (json.dumps works, and
    isinstance(x, float) is true); a lazyarr result is not, so json.dumps raises the
    TypeError NumPy raises for int64 or float32, naming the NumPy type; `.item()`
    (or `default=`) gives the Python number."""
    x, i = la.arange(4.0).sum(), la.arange(4).sum()
    assert json.dumps(np.arange(4.0).sum()) == "6.0" and isinstance(np.float64(1), float)
    assert not isinstance(x, float) and not isinstance(i, int)
    for ours, numpys in ((x, None), (i, np.arange(4).sum())):
        with pytest.raises(TypeError, match=f"type {ours.dtype} is not JSON serializable"):
            json.dumps(ours)
        if numpys is not None:
            with pytest.raises(TypeError, match="type int64 is not JSON serializable"):
                json.dumps(numpys)
    assert json.dumps([x.item(), i.item()]) == "[6.0, 6]"
    assert json.dumps(x, default=lambda o: o.item()) == "6.0"
    with pytest.raises(AttributeError):
        x.shape = (1,)  # a NumPy scalar's shape is not writable
