"""Differences the whole-program fuzzer (tests/fuzz) found, each as its minimized program
(run on NumPy and on lazyarr by the fuzzer's runner, on each backend: every
statement's exception and every variable's value, dtype, shape and scalar kind must
match), and the documented deviations (docs/semantics.md) with what they look like."""

import warnings

import numpy as np
import pytest

import lazyarr as la

from fuzz.precision import subnormal, widths
from fuzz.runner import compare

PROGRAMS = {
    # documented: XLA's float32 expm1 one ulp off NumPy's, widened to float64 by an int64
    # (compared at float32's tolerance: see test_transcendental_precision_follows_values)
    "float32 transcendental widened": [
        "v0 = np.array([True], dtype=np.bool)", "v2 = np.array([[1, 5, 200]], dtype=np.uint32)",
        "v3 = v0.astype(np.float32, casting='same_kind')", "v4 = v3 >= v2", "v5 = v3 ** False",
        "v7 = np.expm1(v5)", "v17 = np.argmin(v0)",
        "if v4.any():\n    v16 = v7 - v17\nelse:\n    v17 *= v4"],
    # documented: nextafter(0, inf) is subnormal, which XLA's CPU runtime divides as a
    # zero (0/0: nan where NumPy's 5e-324/0 is inf); see test_subnormal_values_are_followed
    "subnormal divided": [
        "v1 = np.arange(12)", "v10 = v1.astype(np.uint32)", "v12 = np.repeat(v10, 2)",
        "v28 = np.conj(v12)", "v30 = np.nextafter(v28, np.float64(float('inf')))",
        "v30 /= v12"],
    # a dead handle's id, reused by v3's handle, hid v3 from the flush that computed its
    # node (registries are keyed by id; see test_core's dead-handle test): v3 ran again
    # later from v0's buffer, which that flush had donated (XLA: "Array has been deleted")
    "reused handle id": [
        "v0 = np.linspace(-2, 1, 1)", "v2 = np.arange(12)", "v3 = np.signbit(v0)",
        "v4 = np.zeros((0, 3), dtype=np.float64)", "v5 = v3.std()",
        "v6 = np.true_divide(v0, -0.0)", "v7 = np.vdot(v0, v0)", "v8 = v2 // v5",
        "v4 = np.minimum(v0, v7)", "v9 = v4.item()", "v4[np.arange(1) % 2 == 0] = 1",
        "v8 = v4 - np.float64(-0.0)", "v20 = np.clip(v8, 1e-05, 0)", "v21 = v8[[-2, -2]]",
        "v23 = np.ascontiguousarray(v7)", "v25 = v3 & 127", "v20 %= v3"],
    # a write with a pending out-of-range index into a computed array (int() computed v9
    # with v4): XLA's donated target was deleted though the bounds check failed, so the
    # read raised BackendFailure, not the check's IndexError (programs with checks now
    # donate nothing)
    "failed index check keeps a computed target": [
        "v0 = np.array([[2, 2, 0]], dtype=np.uint16)", "v2 = np.zeros((3, 3), np.complex128)",
        "v3 = v2 * complex(float('inf'), 1)", "v4 = v2 <= v0",
        "v5 = np.where(v0 > 1, v0, v2)", "v6 = np.stack([v5, v5])", "v9 = np.arctan(v6)",
        "v12 = int(np.argmax(v4))", "v9[np.arange(3) - 4] = v3"],
    # a non-empty pending index into an empty axis is out of bounds whatever its values:
    # NumPy's IndexError at the call (XLA failed to compile the take from it)
    "pending index into an empty axis": [
        "v0 = np.arange(0, dtype=np.int64)", "v1 = v0[np.arange(4) - 1]",
        "v2 = np.zeros((0, 3))", "v2[np.arange(2) - 5] = 1", "v3 = v0[np.arange(0) - 1]"],
    # clip: NumPy drops a Python int bound at or beyond the *array's* dtype range (not
    # the result's), and the remaining bound alone decides the dtype.
    "clip drops by the array dtype": [
        "v0 = np.zeros((2, 2), np.int16).max(axis=0)",
        "v1 = np.clip(v0, 2.5e+38, 9223372036854775808)"],
    "clip complex bound, dropped max": [
        "v0 = np.array([3, 0, 2], dtype=np.uint32)",
        "v1 = np.clip(v0, complex(float('inf'), 1), 9223372036854775807)"],
    "clip bool keeps both bounds": [
        "v0 = np.full((3, 1), 3.0) > 3.0", "v1 = np.clip(v0, 3, 18446744073709551616)"],
    "clip bool without bounds": ["v0 = np.ones(2, bool)", "v1 = np.clip(v0, None, None)"],
    # NumPy's float clip loop keeps x at a bound (its sign of zero) and NaN anywhere
    "clip keeps x at a bound": [
        "v0 = np.zeros(3)", "v1 = np.clip(v0, -0.0, 128)", "v2 = 1 // v1",
        "v3 = np.clip(-v0, 0.0, 1.0)", "v4 = 1 / v3", "v5 = np.clip(np.ones(2), float('nan'), 2)",
        "v6 = np.clip(np.array(1.5), 0, 1)", "v7 = np.clip(np.arange(3.0), 2, 1)",
        "v8 = np.clip(np.array([1.0, float('nan')], np.float16), 0.5, np.array([2.0, 0.0]))"],
    "clip in the three operands' dtype": [
        "v19 = np.ones((3, 3), np.float16)",
        "v24 = np.clip(v19, 10000000000.0, complex(float('inf'), 1))"],
    # isclose keeps Python scalars weak: float16 data against 1e300 compares inf <= inf
    "isclose with a weak bound": ["v2 = np.eye(2, dtype=np.float16)",
                                  "v12 = np.allclose(v2, 1e+300)", "v13 = np.isclose(v2, 1e300)",
                                  "v14 = np.isclose(1.0, 1)", "v15 = np.isclose(np.array(3), 3)",
                                  "v16 = np.isclose(np.zeros((2, 0)) < 1, True)",
                                  "v17 = np.isclose(np.array([True, False]), False)"],
    # NumPy's numeric results through the fallback are lazyarr's (a scalar's kind kept);
    # object arrays (from Python ints beyond 64 bits) stay NumPy's
    "fallback results": ["v0 = np.zeros((), np.uint64)",
                         "v4 = np.searchsorted(np.sort(v0.ravel()), -18446744073709551615)",
                         "v1 = np.arange(12, dtype=np.uint32)",
                         "v11 = np.dot(v1, -18446744073709551615)"],
    # a float scalar result written into integers converts as NumPy's scalar does
    "float scalar into ints": ["v2 = np.zeros((0, 3), dtype=np.int32)", "v6 = v2.var()",
                               "v2[-1:-2:3, ::-2] = v6", "v3 = np.array(-100, np.int32)",
                               "v7 = np.log(np.imag(v3))", "v3[()] = v7",
                               "v4 = np.arange(3)", "v4[1] = np.array([2.5]).sum()",
                               "v4[:2] = np.array([7.5]).sum()", "v4[[0]] = v7"],
    # argwhere is Fortran-ordered in NumPy: its ravel is a copy
    "argwhere layout": ["v2 = np.array([[(1+2j), 1j, 1j]], dtype=np.complex64)",
                        "v3 = np.argwhere(v2)", "v4 = v3.ravel()",
                        "v4[np.arange(6) % 2 == 0] = 3.0", "v5 = v3.flags.f_contiguous"],
    # tile of an empty array is NumPy's reshape of it: a view, with its writeable flag
    "tile of an empty broadcast": [
        "v1 = np.full((2, 0), -3, dtype=np.int8)", "v8 = np.broadcast_to(v1, (2, 2, 0))",
        "v3 = np.tile(v8, 2)", "v4 = v3.flags.writeable", "v5 = np.tile(v1, (2, 1, 1))",
        "v6 = v5.base is v1"],
    # round of a 0-d complex array is a NumPy scalar
    "round 0-d complex": ["v0 = np.ones((), np.complex64)", "v2 = np.round(v0, 2)",
                          "v3 = np.round(v0)"],
    # NumPy scalars have no @: Python's TypeError, or the other array's ValueError
    "scalar @ scalar": ["v2 = np.array([(-0.5+0j)])", "v6 = np.min(v2)", "v9 = v6 @ v6"],
    "scalar @ array": ["v6 = np.array([2.0]).sum()", "v9 = v6 @ np.ones(3)",
                       "v10 = np.ones(3) @ v6", "v11 = v6 @ [1, 2]"],
    # NumPy converts a Python int operand before any other check
    "matmul Python int": ["v1 = np.logical_not(np.linspace(1, 1, 6))",
                          "v3 = v1 @ 9223372036854775808", "v4 = np.ones(3) @ 2**70"],
    "power Python int first": ["v1 = np.arange(5, dtype=np.int8)",
                               "v3 = v1 ** -18446744073709551615",
                               "v4 = 128 ** np.array([2, -1], np.int8)"],
    "in-place power cast first": ["v11 = np.equal(np.array(False), np.array([[3, 0, 3]]))",
                                  "v11 **= -1"],
    # Python's complex arithmetic takes NumPy's float64 scalar (a float subclass)
    "python complex with float64": [
        "v0 = np.eye(3, dtype=np.int8)", "v0[3::-1, :] = -0.0", "v3 = np.mean(v0)",
        "v4 = complex(float('nan'), 0) / v3", "v5 = (1+2j) * np.array([1.0, 2.0]).mean()",
        "v6 = np.ones(2, np.complex64) * v5",
        "v7 = 1j ** np.array([0.5]).sum()"],
    # NumPy's scalar comparisons of complex: lexicographic, no NaN rule
    "complex scalar ordering": [
        "v0 = np.array([complex(float('inf'), float('nan'))]).sum()", "v1 = v0 > 0",
        "v2 = v0 >= 1j", "v3 = v0 < np.complex64(1)", "v4 = np.array([1.0]).sum() < v0",
        "v5 = np.array([complex(1, float('nan'))], np.complex64).sum() > np.int8(0)",
        "v6 = np.array([complex(float('inf'), float('nan'))]) > 0",
        "v7 = np.array([True]).all() < v0", "v8 = v0 > np.array([True]).all()",
        "v9 = np.array([2], np.int8).sum() < v0"],
    # reductions over no axis start from the identity (0 + -0.0, (1+0j) * z)
    "0-d reductions": ["v0 = np.array(complex(-np.inf, 2.5))", "v1 = v0.prod()",
                       "v2 = np.array(-0.0).sum()", "v3 = np.mean(np.array(-0.0))",
                       "v4 = np.sum(np.array([-0.0, 1.0]), axis=())"],
}


@pytest.mark.parametrize("name", sorted(PROGRAMS))
def test_found_programs_match_numpy(name, backend):
    difference = compare(PROGRAMS[name], backend)
    assert difference is None, difference.report()


def test_python_complex_compared_with_a_float64_result():
    """Documented deviation: NumPy's float64 scalar is a Python float, so `1j == s` is
    Python's complex comparison (a Python bool); lazyarr's 0-d result is not a float,
    so its own `==` answers (the same value, as a result standing for np.bool)."""
    s_np, s_la = np.arange(3.0).sum(), la.arange(3.0).sum()
    for z in (1j, 3 + 0j, complex(np.nan, 0)):
        expected, actual = z == s_np, z == s_la
        assert type(expected) is bool and isinstance(actual, la.Array) and actual._scalar
        assert bool(actual) == expected and (z != s_la) == (not expected)


def test_out_of_range_float_to_uint32_casts():
    """Documented deviation: NumPy's float-to-uint32 cast of an out-of-range value
    depends on the element's position and the layout (its SIMD loop gives 0 where its
    scalar loop wraps through int64); lazyarr's value is one of the two."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        assert np.full(5, 1e10).astype(np.uint32).tolist() == [0] * 4 + [1410065408]
        values = np.asarray(la.full(5, 1e10).astype(np.uint32))
    assert set(values.tolist()) <= {0, 1410065408}


def test_an_in_place_power_that_raises_leaves_its_target():
    """Documented deviation: `a **= b` with a negative integer in b raises NumPy's
    ValueError from inside its loop, after writing part of `a` through its casting
    buffer (unspecified values); lazyarr raises before writing anything."""
    a = la.array([[9, 1, 9], [-3, -3, -100]], dtype=np.int8)
    with pytest.raises(ValueError, match="negative integer powers"):
        a **= la.asarray(np.array([-1], np.int32))
    assert a.tolist() == [[9, 1, 9], [-3, -3, -100]]


def test_products_through_blas_on_special_values():
    """Documented deviation: NumPy computes dot/vdot/matmul of floats and complex
    numbers through BLAS, whose kernel decides where infinities and NaNs meet (NaN or
    inf in a complex part) and what a zero scalar does (OpenBLAS's scal sets +0.0, even
    for NaN); lazyarr's are the plain sums of products. Finite results agree."""
    a = np.array([1 + 2j, complex(np.inf, 1), 3j], np.complex64)
    assert np.isnan(np.dot(a, a).real)                       # NumPy: nan+infj
    assert np.isinf(complex(la.dot(la.asarray(a), la.asarray(a))).real)
    assert np.dot(np.array([1.0, np.nan]), 0.0).tolist() == [0.0, 0.0]
    assert np.isnan(la.dot(la.asarray(np.array([1.0, np.nan])), 0.0).tolist()[1])
    finite = np.array([1 + 2j, 2 - 1j, 3j])
    np.testing.assert_allclose(np.asarray(la.dot(la.asarray(finite), la.asarray(finite))),
                               np.dot(finite, finite))


def test_a_full_exponent_is_known_at_the_call():
    """Fuzzer: `v2 **= np.full((3, 1), -1, np.int8)` is NumPy's ValueError at the call:
    a full() array's values are known, though it is a pending broadcast."""
    for module in (np, la):
        base = module.array([[2], [2], [1]], dtype=np.int16)
        with pytest.raises(ValueError, match="negative integer powers"):
            base ** module.full((3, 1), -1.25, dtype=np.int8)
        with pytest.raises(ValueError, match="negative integer powers"):
            base **= module.full((3, 1), -1, dtype=np.int8).reshape(3, 1)
        # the check reads the broadcast's values, the shapes stay the operands'
        # (fuzzer: a reshaped view of a computed array, its values read for the check)
        cube = module.full((1, 2, 2), -1, dtype=np.int32)
        cube -= cube
        float(cube.sum())  # computes cube (its live node shares the flush)
        column = cube.reshape(4, 1)
        assert (column ** column).shape == (4, 1)


def test_transcendental_precision_follows_values():
    """Documented deviation: XLA's transcendental functions differ from NumPy's in the
    last ulp of the precision they run in, and a value computed from one carries that
    difference when widened (float32 `expm1(1)` minus an int64: float64, within float32's
    tolerance of NumPy's). The fuzzer compares such a value at the narrowest precision a
    transcendental it was computed from ran in, and no wider: a float64 `exp` beside a
    float32 array, a branch NumPy does not take, a variable reassigned without one."""
    ones = np.ones(1, np.float32)
    expected = np.expm1(ones) - np.argmin(ones)
    actual = la.expm1(la.asarray(ones)) - la.argmin(la.asarray(ones))
    assert actual.dtype == expected.dtype == np.float64
    np.testing.assert_allclose(np.asarray(actual), expected, rtol=2 * np.finfo(np.float32).eps)
    assert widths([
        "v0 = np.ones(2, np.float32)", "v1 = np.expm1(v0)", "v2 = v1 - np.int64(1)",
        "v3 = np.exp(np.ones(2)) + v0", "v4 = v2", "v4 = np.zeros(2)",
        "v5 = np.exp(np.ones(2, np.int8)) + 1.0",
        "if v0.sum() > 100:\n    v6 = np.sin(v0)\nelse:\n    v6 = v0 * 2",
        "v7 = np.zeros(2)", "v7[0] = v1[0]", "v8 = np.arange(3) ** 2",
        "v9 = np.ones(2, np.complex64)", "v9 **= 2", "v10 = float(np.log(v0).sum())",
    ]) == {"v1": 4, "v2": 4, "v3": 8, "v5": 2, "v7": 4, "v9": 4, "v10": 4}


def test_subnormal_values_are_followed():
    """Documented deviation: XLA's CPU runtime reads and writes subnormal float32 and
    float64 values as zero. The fuzzer accepts a difference in a value computed from a
    subnormal one (read, a sub-expression's result or its own), on a backend that
    flushes them, and only there: other values keep their comparison."""
    tiny = np.nextafter(np.zeros(2), 1)
    assert np.all(tiny / 0 == np.inf)
    assert subnormal([
        "v0 = np.nextafter(np.zeros(2), 1)", "v1 = v0 * 0", "v2 = np.ones(2) / 3",
        "v3 = np.float32(1e-39) * np.ones(2)", "v4 = v3 > 0",
        "v5 = np.nextafter(np.zeros(2), 1) * 0 + 1", "v6 = np.ones(2)", "v6 = v0",
        "v6 = np.zeros(2)", "v7 = np.ones(2, np.float16) * 1e-6",
    ]) == {"v0", "v1", "v3", "v4", "v5"}
