"""lazyarr.array_api, the Array API standard's namespace that `Array.__array_namespace__()`
returns: lazyarr's own functions except at the documented conflicts, where the values are
the standard's special cases; its arrays (StandardArray) keep their kind through
operators, indexing and functions, and a plain lazyarr array handed to it is viewed,
never converted."""

import inspect
import math

import numpy as np
import pytest
from hypothesis import given, strategies as st

import lazyarr as la
import lazyarr.array_api as xp
from lazyarr.array_api import StandardArray

from differential import clean
from strategies import FLOAT, INTEGER, arrays

CONFLICTS = {"floor_divide", "expm1", "tanh", "finfo", "clip"}
LINALG_CONFLICTS = {"eig", "eigvals"}
inf, nan = math.inf, math.nan


def value(x):
    return np.asarray(x)


def same_bits(actual, expected):
    """Equal values with NaNs in the same places and zeros of the same sign."""
    actual, expected = np.asarray(actual), np.asarray(expected)
    assert actual.dtype == expected.dtype and actual.shape == expected.shape
    for part in ((np.real, np.imag) if np.iscomplexobj(expected) else (lambda v: v,)):
        a, e = part(actual), part(expected)
        np.testing.assert_array_equal(np.isnan(a), np.isnan(e))
        ok = ~np.isnan(e)
        np.testing.assert_array_equal(a[ok], e[ok])
        np.testing.assert_array_equal(np.signbit(a[ok]), np.signbit(e[ok]))


# ----- the namespace --------------------------------------------------------------

def test_array_namespace_is_the_standard_namespace():
    x = la.arange(3.0)
    assert x.__array_namespace__() is xp
    for version in (None, "2021.12", "2022.12", "2023.12", "2024.12", "2025.12"):
        assert x.__array_namespace__(api_version=version) is xp
    with pytest.raises(ValueError):
        x.__array_namespace__(api_version="2026.12")
    assert xp.__array_api_version__ == "2025.12"
    assert xp.asarray([1.0]).__array_namespace__() is xp


def test_same_functions_as_lazyarr_except_the_conflicts():
    """Every name of lazyarr's namespace is there; each function is lazyarr's own
    (wrapped so its arrays are StandardArrays) unless it is a documented conflict."""
    public = [n for n in dir(la) if not n.startswith("_")
              and not inspect.ismodule(getattr(la, n))]
    for name in public:
        ours, theirs = getattr(la, name), getattr(xp, name)
        if name in CONFLICTS:
            assert getattr(theirs, "__wrapped__", None) is not ours, name
        elif callable(ours) and not isinstance(ours, type):
            assert theirs is ours or theirs.__wrapped__ is ours, name
        else:
            assert theirs is ours or theirs == ours, name
    for sub, conflicts in ((la.linalg, LINALG_CONFLICTS), (la.fft, set())):
        standard = getattr(xp, sub.__name__.rsplit(".", 1)[1])
        for name in sub.__all__:
            if callable(getattr(sub, name)) and name not in conflicts and name != "LinAlgError":
                assert getattr(standard, name).__wrapped__ is getattr(sub, name), name


def test_signatures_follow_lazyarr_and_the_standard():
    assert list(inspect.signature(xp.add).parameters) == \
        list(inspect.signature(la.add).parameters)
    params = inspect.signature(xp.clip).parameters
    assert list(params) == ["x", "min", "max"] and params["x"].kind is params["x"].POSITIONAL_ONLY
    assert "descending" in inspect.signature(xp.sort).parameters


# ----- StandardArray ---------------------------------------------------------------

def test_results_stay_standard_arrays():
    x = xp.asarray([[1.0, -2.0], [3.0, 4.0]])
    assert type(x) is StandardArray
    results = [x + 1, 1 - x, x * x, -x, abs(x), x < 2, x // 2, 2 // x, x @ x, x[0], x[x > 0],
               x.T, x.mT, xp.sum(x), xp.sum(x, axis=0), xp.linalg.inv(x), xp.fft.fft(x),
               xp.add.outer(x[0], x[1]), *xp.meshgrid(x[0], x[1]), xp.linalg.svd(x).S,
               xp.unique_all(x).values, x.reshape(4), xp.astype(x, xp.float32)]
    assert all(type(r) is StandardArray for r in results), [type(r) for r in results]
    y = xp.asarray([5.0, 7.0])
    y //= 2.0
    y += 1
    assert type(y) is StandardArray and value(y).tolist() == [3.0, 4.0]
    # lazyarr's functions accept them and answer with lazyarr's own arrays
    assert type(la.add(x, 1)) is la.Array and type(la.floor_divide(x, 2)) is la.Array


def test_plain_arrays_are_viewed_not_converted():
    a = la.arange(4.0)
    b = xp.asarray(a)
    assert type(a) is la.Array and type(b) is StandardArray and b.base is a
    b[0] = 9.0
    assert value(a).tolist() == [9.0, 1.0, 2.0, 3.0]
    assert type(xp.astype(a, a.dtype, copy=False)) is StandardArray and type(a) is la.Array
    s = xp.asarray([1.0])
    assert xp.asarray(s) is s


# ----- the conflicts ----------------------------------------------------------------

def test_floor_divide_special_cases():
    """The standard's table (docs: floor_divide), which NumPy does not follow where an
    operand is infinite; the operator and the in-place operator agree."""
    x1 = [inf, inf, -inf, -inf, 1.0, 1.0, -1.0, -1.0, inf, 0.0, -0.0, 5.0, -5.0, 7.0, nan]
    x2 = [2.0, -2.0, 2.0, -2.0, inf, -inf, inf, -inf, inf, 2.0, 2.0, 0.0, 0.0, -2.0, 1.0]
    expected = [inf, -inf, -inf, inf, 0.0, -0.0, -0.0, 0.0, nan, 0.0, -0.0, inf, -inf, -4.0,
                nan]
    for dtype in (xp.float32, xp.float64):
        a, b = xp.asarray(x1, dtype=dtype), xp.asarray(x2, dtype=dtype)
        want = np.asarray(expected, dtype=dtype)
        same_bits(xp.floor_divide(a, b), want)
        same_bits(a // b, want)
        c = xp.asarray(x1, dtype=dtype)
        c //= b
        same_bits(c, want)
    with np.errstate(all="ignore"):  # lazyarr's own namespace keeps NumPy's answers
        same_bits(la.floor_divide(la.asarray(x1), la.asarray(x2)),
                  np.floor_divide(np.asarray(x1), np.asarray(x2)))


@given(data=st.data(), dtype=st.sampled_from(FLOAT + INTEGER))
def test_floor_divide_is_numpys_where_no_infinity_is_involved(data, dtype):
    a, b = (clean(data.draw(arrays(dtype, shape=(6,)))) for _ in range(2))
    with np.errstate(all="ignore"):
        expected = np.floor_divide(a, b)
    if np.issubdtype(expected.dtype, np.floating):
        finite = ~(np.isinf(a) | np.isinf(b))
        a, b, expected = a[finite], b[finite], expected[finite]
    if np.issubdtype(expected.dtype, np.integer) and (b == 0).any():
        return  # integer division by zero is implementation-defined in both
    same_bits(xp.floor_divide(xp.asarray(a), xp.asarray(b)), expected)


def test_expm1_and_tanh_complex_special_cases():
    z = [complex(0.0, 0.0), complex(-0.0, 0.0), complex(-0.0, -0.0), complex(inf, 0.0),
         complex(inf, -0.0), complex(-inf, inf), complex(-inf, nan), complex(inf, inf),
         complex(inf, nan), complex(nan, 0.0), complex(nan, -0.0), complex(0.5, 1.0)]
    expm1 = [0j, 0j, complex(0.0, -0.0), complex(inf, 0.0), complex(inf, -0.0),
             complex(-1.0, 0.0), complex(-1.0, 0.0), complex(inf, nan), complex(inf, nan),
             complex(nan, 0.0), complex(nan, -0.0)]
    for dtype, rtol in ((xp.complex64, 1e-6), (xp.complex128, 1e-12)):
        result = value(xp.expm1(xp.asarray(z, dtype=dtype)))
        same_bits(result[:-1], np.asarray(expm1, dtype))
        np.testing.assert_allclose(result[-1], np.expm1(np.asarray(z[-1], dtype)), rtol=rtol)
    w = [complex(inf, 2.0), complex(inf, -2.0), complex(-inf, 2.0), complex(inf, 1.0),
         complex(0.5, 1.0)]
    tanh = [complex(1.0, 0.0), complex(1.0, -0.0), complex(-1.0, 0.0), complex(1.0, 0.0)]
    result = value(xp.tanh(xp.asarray(w)))
    same_bits(result[:-1], np.asarray(tanh))
    np.testing.assert_allclose(result[-1], np.tanh(complex(0.5, 1.0)), rtol=1e-12)
    same_bits(la.tanh(la.asarray(w[:4])), np.tanh(np.asarray(w[:4])))  # NumPy: 1-0j at 2j
    same_bits(xp.expm1(xp.asarray([0.0, -0.0, inf])), np.expm1([0.0, -0.0, inf]))


def test_finfo_and_iinfo():
    for dtype in (xp.float32, xp.float64, xp.complex64, xp.complex128):
        info, ref = xp.finfo(dtype), np.finfo(dtype)
        for field in ("eps", "max", "min", "smallest_normal"):
            assert type(getattr(info, field)) is float
            assert getattr(info, field) == float(getattr(ref, field))
        assert info.bits == ref.bits and info.dtype == ref.dtype
    assert xp.finfo(xp.asarray([1.0], dtype=xp.float32)).eps == float(np.finfo(np.float32).eps)
    with pytest.raises(ValueError):
        xp.finfo(xp.int32)
    assert xp.iinfo(xp.int8).max == 127


def test_clip_and_sort_descending():
    x = xp.asarray([3.0, -1.0, 7.0, 7.0, 2.0])
    assert value(xp.clip(x, min=0.0, max=5.0)).tolist() == [3.0, 0.0, 5.0, 5.0, 2.0]
    assert value(xp.clip(x)).tolist() == value(x).tolist()
    with pytest.raises(TypeError):
        xp.clip(x, a_min=0.0)
    assert value(xp.sort(x, descending=True)).tolist() == [7.0, 7.0, 3.0, 2.0, -1.0]
    assert value(xp.argsort(x, descending=True)).tolist() == [2, 3, 0, 4, 1]


@pytest.mark.parametrize("dtype", ["float32", "float64", "complex64"])
def test_eig_is_always_complex(dtype):
    a = np.array([[2.0, 1.0], [1.0, 3.0]], dtype)  # real eigenvalues
    want = np.result_type(dtype, np.complex64)
    w, v = xp.linalg.eig(xp.asarray(a))
    assert w.dtype == v.dtype == want and xp.linalg.eigvals(xp.asarray(a)).dtype == want
    ref_w, ref_v = np.linalg.eig(a)
    np.testing.assert_allclose(value(w), ref_w.astype(want), rtol=1e-5)
    np.testing.assert_allclose(np.abs(value(v)), np.abs(ref_v), rtol=1e-5)
    assert la.linalg.eig(a).eigenvalues.dtype == ref_w.dtype  # NumPy's dtype rule


def test_bfloat16_is_there_once_asked_for_in_either_namespace():
    assert la.bfloat16 is xp.bfloat16
    test_same_functions_as_lazyarr_except_the_conflicts()
