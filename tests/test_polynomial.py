"""The legacy polynomial functions against NumPy: poly, polyadd, polysub, polymul,
polydiv, polyder, polyint, polyval, polyfit, roots and vander, on generated dtypes,
lengths (0 included) and values (NaN and infinities where NumPy computes with them),
plus bad input."""


import numpy as np
import pytest
from hypothesis import given, strategies as st
from hypothesis.extra import numpy as hnp

import lazyarr as la

from differential import check_function, clean
from strategies import COMPLEX, FLOAT, INTEGER, NUMERIC, REAL, arrays

VECTOR = dict(min_dims=1, max_dims=1, max_side=5)


pytestmark = pytest.mark.usefixtures("quiet_warnings")


def small(dtype, shape):
    """Arrays of small integers in `dtype`: exact products, no overflow."""
    dtype = np.dtype(dtype)
    if dtype == bool:
        return hnp.arrays(dtype, shape, elements=st.booleans())
    return hnp.arrays(dtype, shape, elements=st.integers(0 if dtype.kind == "u" else -3, 3))


@given(data=st.data())
def test_vander(data):
    x = data.draw(arrays(data.draw(st.sampled_from(NUMERIC)), **VECTOR, finite=True))
    N = data.draw(st.one_of(st.none(), st.integers(-1, 5)))
    check_function("vander", clean(x), N, data.draw(st.booleans()))


@given(data=st.data())
def test_vander_exact_powers(data):
    dtype = data.draw(st.sampled_from(INTEGER + ["bool"]))
    x = data.draw(small(dtype, data.draw(st.integers(0, 5))))
    check_function("vander", x, data.draw(st.integers(0, 6)))


def test_vander_bad_input():
    for args in [(np.ones((2, 2)),), (np.float64(3.0),), (np.ones(3), 2.5)]:
        check_function("vander", *args)


def bounded(x, limit):
    """Finite `x` with each real part within [-limit, limit]."""
    if x.dtype.kind == "c":
        return (x.real.clip(-limit, limit) + 1j * x.imag.clip(-limit, limit)).astype(x.dtype)
    return x.clip(-limit, limit).astype(x.dtype) if x.dtype.kind == "f" else x


@pytest.mark.parametrize("name", ["polyadd", "polysub", "polymul", "polyval"])
@given(data=st.data())
def test_binary(name, data):
    dtypes = st.sampled_from(NUMERIC)
    shape = dict(min_dims=0, max_dims=2 if name == "polyval" else 1, max_side=4)
    a = data.draw(arrays(data.draw(dtypes), finite=name == "polymul", **shape))
    b = data.draw(arrays(data.draw(dtypes), finite=name == "polymul", **shape))
    if name == "polyval":
        a = a.reshape(-1)
    if name == "polymul":  # no overflow to inf: NumPy's convolve then takes BLAS's NaNs
        a, b = (bounded(x, 1e100) for x in (a, b))
    check_function(name, clean(a), clean(b), rtol=1e-5 if name == "polyval" else None)


@given(data=st.data())
def test_polymul_exact(data):
    a = data.draw(small(data.draw(st.sampled_from(INTEGER)), data.draw(st.integers(0, 5))))
    b = data.draw(small(data.draw(st.sampled_from(INTEGER)), data.draw(st.integers(0, 5))))
    check_function("polymul", a, b)


def test_polymul_leading_zeros_and_bad_input():
    check_function("polymul", np.array([0, 0, 1, 2]), np.array([0, 3]))
    check_function("polymul", np.zeros(3), np.array([1.0, 2.0]))
    check_function("polymul", np.ones((2, 2)), np.ones(2))


@given(data=st.data())
def test_polyder_polyint(data):
    p = data.draw(arrays(data.draw(st.sampled_from(REAL + COMPLEX)), **VECTOR, finite=True))
    m = data.draw(st.integers(-1, 3))
    check_function("polyder", clean(p), m)
    k = data.draw(st.one_of(st.none(), st.floats(-3, 3), st.lists(st.floats(-3, 3),
                                                                 min_size=0, max_size=4)))
    check_function("polyint", clean(p), m, k)


@given(data=st.data())
def test_polydiv(data):
    dtype = data.draw(st.sampled_from(REAL))
    u = data.draw(small(dtype, data.draw(st.integers(1, 6))))
    v = data.draw(small(dtype, data.draw(st.integers(1, 4))))
    check_function("polydiv", u, v, atol=1e-12)


def test_polydiv_floats_and_bad_input():
    check_function("polydiv", np.array([1.0, 2, 3, 4]), np.array([1.0, 2]))
    check_function("polydiv", np.array([2.0, 0.5, 0.25], np.float32), np.array([4.0, 2.0]))
    check_function("polydiv", np.array([1.0, 3.0, 2.0]), np.array([1.0, 1.0]))
    check_function("polydiv", np.array([], float), np.array([1.0]))


@given(data=st.data())
def test_poly(data):
    dtype = data.draw(st.sampled_from(INTEGER + FLOAT + COMPLEX))
    zeros = data.draw(small(dtype, data.draw(st.integers(0, 5))))
    check_function("poly", zeros, atol=1e-9)


def test_poly_matrix_conjugates_and_bad_input():
    check_function("poly", np.array([1j, -1j, 2.0]))
    check_function("poly", np.array([1j, 2j]))
    check_function("poly", np.array([[2.0, 1.0], [1.0, 3.0]]))
    check_function("poly", [2.0])
    for bad in (np.ones((2, 3)), np.ones((0, 0)), np.ones((2, 2, 2))):
        check_function("poly", bad)


@given(data=st.data())
def test_roots(data):
    dtype = data.draw(st.sampled_from(INTEGER + FLOAT[1:] + COMPLEX))
    p = data.draw(small(dtype, data.draw(st.integers(0, 5))))
    expected = np.sort_complex(np.roots(p))
    actual = la.roots(la.asarray(p))
    assert actual.dtype == np.roots(p).dtype and actual.shape == expected.shape
    np.testing.assert_allclose(np.sort_complex(np.asarray(actual)), expected, atol=1e-6)


def test_roots_known_and_bad_input():
    check_function("roots", np.array([0.0, 1, -3, 2, 0, 0]))
    check_function("roots", np.array([0, 0]))
    check_function("roots", np.array([5]))
    check_function("roots", np.ones((2, 2)))


@given(data=st.data())
def test_polyfit(data):
    n = data.draw(st.integers(1, 8))
    x = np.linspace(-1, 1, n) + data.draw(st.floats(-2, 2))
    y_shape = data.draw(st.sampled_from([(n,), (n, 2)]))
    y = np.cos(np.arange(np.prod(y_shape)) * data.draw(st.floats(0.1, 3))).reshape(y_shape)
    deg = data.draw(st.integers(0, 3))
    w = data.draw(st.one_of(st.none(), st.just(np.linspace(1, 2, n))))
    check_function("polyfit", x, y, deg, w=w, atol=1e-9, rtol=1e-7)
    if deg < n:
        check_function("polyfit", x, y, deg, full=True, atol=1e-9, rtol=1e-7)
        check_function("polyfit", x, y, deg, cov="unscaled", atol=1e-9, rtol=1e-7)
    if deg + 1 < n:
        check_function("polyfit", x, y, deg, w=w, cov=True, atol=1e-9, rtol=1e-7)


def test_polyfit_dtypes_and_bad_input():
    x = np.arange(6, dtype=np.int32)
    check_function("polyfit", x, x ** 2, 2, atol=1e-9)
    check_function("polyfit", x.astype(np.float32), x.astype(np.complex64) * 1j, 1, atol=1e-5)
    for args in [(x, x, -1), (np.ones((2, 3)), x, 1), (np.array([]), np.array([]), 1),
                 (x, np.ones((6, 2, 2)), 1), (x, np.ones(5), 1)]:
        check_function("polyfit", *args)
    check_function("polyfit", x, x, 1, w=np.ones((6, 1)))
    check_function("polyfit", x, x, 1, w=np.ones(5))
    check_function("polyfit", x[:2], x[:2], 1, cov=True)
