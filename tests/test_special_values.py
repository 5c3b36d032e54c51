"""Special values against NumPy exactly: every pair of parts from {±0, finite, ±inf,
NaN} for the complex functions (NumPy's are glibc's, C99 Annex G.6), and every pair
of operands from the same set for float floor_divide, remainder, fmod and divmod.
Beyond `check`'s comparison, NaNs must sit in the same parts and every zero and
infinity must have NumPy's sign (a NaN's sign is free)."""

import operator

import numpy as np
import pytest

import lazyarr as la

from differential import check, on_tpu, rtol_for

# No subnormals: XLA on CPU flushes them (see differential.flush_subnormals).
SPECIAL = [0.0, -0.0, 0.5, -2.0, 1.0, 3.0, np.inf, -np.inf, np.nan]
FLOATS = [np.float16, np.float32, np.float64]
COMPLEXES = [np.complex64, np.complex128]

COMPLEX_UNARY = [
    "arccos", "arccosh", "arcsinh", "arctanh", "arcsin", "arctan", "cosh", "sinh", "tanh",
    "cos", "sin", "tan", "exp", "exp2", "expm1", "log", "log1p", "log2", "log10", "sqrt",
    "reciprocal", "square", "absolute", "sign", "negative", "conjugate"]
COMPLEX_BINARY = ["power", "multiply", "divide"]
FLOAT_BINARY = [("floor_divide", np.floor_divide, la.floor_divide),
                ("remainder", np.remainder, la.remainder),
                ("fmod", np.fmod, la.fmod),
                ("divmod", np.divmod, la.divmod),
                ("//", operator.floordiv, operator.floordiv),
                ("%", operator.mod, operator.mod),
                ("builtin divmod", divmod, divmod)]


def complex_grid(dtype):
    """Every x + iy with x and y from SPECIAL, flat."""
    re, im = np.meshgrid(SPECIAL, SPECIAL, indexing="ij")
    z = np.empty(re.shape, dtype)
    z.real, z.imag = re, im
    return z.ravel()


def pairs(values):
    """Every (a, b) of `values`, as two flat arrays."""
    a, b = np.meshgrid(values, values, indexing="ij")
    return a.ravel(), b.ravel()


def assert_special_same(expected, actual, where="result", zero_signs=True):
    """Same NaN positions and same signs of zeros (unless not `zero_signs`) and
    infinities, part by part."""
    if isinstance(expected, tuple):
        for k, (e, a) in enumerate(zip(expected, actual)):
            assert_special_same(e, a, f"{where}[{k}]", zero_signs)
        return
    expected, actual = np.asarray(expected), np.asarray(actual)
    if expected.dtype.kind == "c":
        assert_special_same(expected.real, actual.real, f"{where}.real", zero_signs)
        assert_special_same(expected.imag, actual.imag, f"{where}.imag", zero_signs)
        return
    nan = np.isnan(expected)
    np.testing.assert_array_equal(np.isnan(actual), nan, err_msg=f"{where}: NaN positions")
    exact = ~nan & ((expected == 0) | np.isinf(expected))
    np.testing.assert_array_equal(actual[exact], expected[exact], err_msg=where)
    signed = exact & (np.isinf(expected) | zero_signs)
    np.testing.assert_array_equal(np.signbit(actual[signed]), np.signbit(expected[signed]),
                                  err_msg=f"{where}: signs of zeros and infinities")


def check_special(np_func, la_func, *args, zero_signs=True):
    complex_ = any(np.iscomplexobj(a) for a in args)
    result = check(np_func, la_func, *args, rtol=rtol_for(np_func.__name__, complex_))
    with np.errstate(all="ignore"):
        expected = np_func(*args)
    actual = tuple(np.asarray(r) for r in result) if isinstance(result, tuple) \
        else np.asarray(result)
    assert_special_same(expected, actual, zero_signs=zero_signs)


@pytest.mark.parametrize("dtype", COMPLEXES)
@pytest.mark.parametrize("name", COMPLEX_UNARY)
def test_complex_unary(name, dtype):
    check_special(getattr(np, name), getattr(la, name), complex_grid(dtype))


@pytest.mark.parametrize("name", ["acos", "acosh", "asin", "asinh", "atan", "atanh"])
def test_array_api_aliases(name):
    numpy_name = "arc" + name[1:]
    check_special(getattr(np, numpy_name), getattr(la, name), complex_grid(np.complex128))


@pytest.mark.parametrize("dtype", COMPLEXES)
@pytest.mark.parametrize("name", COMPLEX_BINARY)
def test_complex_binary(name, dtype):
    """(power's zeros at an infinite exponent take C's sign from a NaN's, which is the
    platform's: x86's invalid operations make negative NaNs, a TPU's positive ones;
    docs/semantics.md)"""
    zero_signs = not (name == "power" and on_tpu())
    check_special(getattr(np, name), getattr(la, name), *pairs(complex_grid(dtype)),
                  zero_signs=zero_signs)


@pytest.mark.parametrize("dtype", FLOATS)
@pytest.mark.parametrize("name, np_func, la_func", FLOAT_BINARY, ids=[f[0] for f in FLOAT_BINARY])
def test_float_division(name, np_func, la_func, dtype):
    values = SPECIAL + [5.0, -5.0, -0.5]
    a, b = (v.astype(dtype) for v in pairs(values))
    check_special(np_func, la_func, a, b)


@pytest.mark.parametrize("dtype", FLOATS)
def test_floor_divide_scalar_operand(dtype):
    """-0.0 // 5.0 and 0.0 % -5.0 with a Python scalar on either side."""
    x = np.array([-0.0, 0.0, -2.0, np.inf], dtype)
    check_special(lambda a: a // 5.0, lambda a: a // 5.0, x)
    check_special(lambda a: a % -5.0, lambda a: a % -5.0, x)
    check_special(lambda a: -0.0 // a, lambda a: -0.0 // a, x)


@pytest.mark.parametrize("dtype", FLOATS)
@pytest.mark.parametrize("name", ["sign", "absolute", "negative", "positive", "square", "sqrt",
                                  "floor", "ceil", "trunc", "rint", "signbit"])
def test_float_unary(name, dtype):
    """Signed zeros, infinities and NaN through the real unary functions (sign(-0.0) is
    +0.0 in NumPy)."""
    check_special(getattr(np, name), getattr(la, name), np.array(SPECIAL, dtype))
