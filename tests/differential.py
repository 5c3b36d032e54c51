"""The differential harness: run the same call on NumPy and on lazyarr and demand the
same outcome: values (exact for bool and integers, tight tolerances for floats),
shapes and dtypes exactly, or the same exception type, raised at the call itself
rather than when the result is materialized."""

from __future__ import annotations

import builtins
import warnings

import numpy as np
import numpy.exceptions

import lazyarr
from lazyarr import _tiers

# Tolerances by float precision; integers and bools must match exactly.
RTOL = {2: 2e-3, 4: 2e-5, 8: 1e-12}
# docs/semantics.md: a TPU computes these functions of float32 (and of the float16 it
# widens to float32) by approximations, measured on a v5e at up to 3.7e-3 relative
# (logaddexp2; tanh 8e-5, log1p 3e-4); results through them are compared there so.
TPU_APPROXIMATE = frozenset(["exp", "exp2", "expm1", "log", "log2", "log10", "log1p",
                             "sinh", "cosh", "tanh", "arcsinh", "arccosh", "arctanh",
                             "power", "logaddexp", "logaddexp2"])
# and the complex functions, all computed from those (log, exp, sinh, cosh): a TPU's
# complex64 log was 6.5e-5 off, cos 3.9e-5, power 3.9e-4 (test_special_values)
TPU_APPROXIMATE_COMPLEX = TPU_APPROXIMATE | {"sin", "cos", "tan", "arcsin", "arccos",
                                             "arctan"}
TPU_APPROXIMATE_RTOL = {**RTOL, 2: 5e-3, 4: 5e-3}
PUBLIC_EXCEPTIONS = (numpy.exceptions.AxisError, IndexError, ValueError, TypeError,
                     OverflowError, ZeroDivisionError, KeyError, RuntimeError)


def to_lazy(arg):
    """NumPy arrays (also inside lists and tuples) as lazyarr arrays; others as given."""
    if isinstance(arg, np.ndarray):
        return lazyarr.asarray(arg)
    if isinstance(arg, list):
        return [to_lazy(a) for a in arg]
    if isinstance(arg, tuple):
        return tuple(to_lazy(a) for a in arg)
    return arg


def public_type(exc: BaseException) -> type:
    """The exception class a user would catch: the first public one in its MRO."""
    for cls in type(exc).__mro__:
        if cls in PUBLIC_EXCEPTIONS:
            return cls
    return type(exc)


def materialize(result):
    if isinstance(result, lazyarr.Array):
        return np.asarray(result)
    if isinstance(result, (tuple, list)):
        return _rebuilt(result, [materialize(r) for r in result])
    return result


def _rebuilt(sequence, items: list):
    """A sequence of the same type as `sequence` holding `items` (namedtuples too)."""
    return type(sequence)(*items) if hasattr(sequence, "_fields") else type(sequence)(items)


def assert_same(expected, actual, rtol=None, atol=0.0, where: str = "result") -> None:
    """`actual` (lazyarr) equals `expected` (NumPy) in kind, shape, dtype and value."""
    if isinstance(expected, (tuple, list)):
        assert isinstance(actual, (tuple, list)), f"{where}: expected a sequence, got {actual!r}"
        assert len(actual) == len(expected), f"{where}: length {len(actual)} != {len(expected)}"
        for k, (e, a) in enumerate(zip(expected, actual)):
            assert_same(e, a, rtol, atol, f"{where}[{k}]")
        return
    if isinstance(expected, (np.ndarray, np.generic)):
        assert isinstance(actual, lazyarr.Array), f"{where}: expected an Array, got {type(actual)}"
        value = np.asarray(actual)
        assert value.shape == expected.shape, f"{where}: shape {value.shape} != {expected.shape}"
        assert value.dtype == expected.dtype, f"{where}: dtype {value.dtype} != {expected.dtype}"
        assert actual.shape == expected.shape and actual.dtype == expected.dtype, \
            f"{where}: the handle's metadata disagrees with its value"
        assert actual._scalar == isinstance(expected, np.generic), \
            f"{where}: NumPy returned {type(expected).__name__}, lazyarr {actual!r}"
        assert_values(expected, value, rtol, atol, where)
        return
    if isinstance(expected, (builtins.bool, builtins.int, builtins.float, builtins.complex)):
        assert type(actual) is type(expected), f"{where}: {type(actual)} != {type(expected)}"
        np.testing.assert_allclose(actual, expected, rtol=_tolerance(rtol, 8) or 1e-12,
                                   equal_nan=True)
        return
    assert actual == expected, f"{where}: {actual!r} != {expected!r}"


def assert_values(expected: np.ndarray, value: np.ndarray, rtol, atol, where) -> None:
    if expected.dtype.kind in "biu":
        np.testing.assert_array_equal(value, expected, err_msg=where, strict=True)
        return
    itemsize = expected.dtype.itemsize // (2 if expected.dtype.kind == "c" else 1)
    tol = _tolerance(rtol, itemsize)
    e = expected.astype(np.complex128 if expected.dtype.kind == "c" else np.float64)
    v = value.astype(e.dtype)
    # Infinities and NaNs must sit in the same places; finite values agree closely.
    np.testing.assert_array_equal(np.isnan(v), np.isnan(e), err_msg=f"{where}: NaN positions")
    finite = np.isfinite(e)
    infinite = ~finite & ~np.isnan(e)
    if e.dtype.kind == "c":
        # Part by part: the finite part of a complex infinity is a finite value (a sum
        # of real parts in XLA's order beside an infinite imaginary sum), held to the
        # same tolerance as any other.
        for part in (np.real, np.imag):
            pv, pe = part(v[infinite]), part(e[infinite])
            np.testing.assert_array_equal(pv[np.isinf(pe)], pe[np.isinf(pe)],
                                          err_msg=f"{where}: infinities")
            np.testing.assert_allclose(pv[~np.isinf(pe)], pe[~np.isinf(pe)], rtol=tol,
                                       atol=atol, err_msg=f"{where}: beside infinities")
    else:
        np.testing.assert_array_equal(v[infinite], e[infinite], err_msg=f"{where}: infinities")
    np.testing.assert_allclose(v[finite], e[finite], rtol=tol, atol=atol, err_msg=where)


def _tolerance(rtol, itemsize: int) -> float:
    """`rtol` as given (a float), or by float precision from a table (`rtol_for`'s, by
    default RTOL)."""
    return rtol if isinstance(rtol, float) else (rtol or RTOL).get(itemsize, 1e-2)


def on_tpu() -> bool:
    return _tiers.platform(lazyarr._backend.current()) == "tpu"


def rtol_for(name: str, complex_: bool = False):
    """The tolerances, by float precision, for results of NumPy's function `name` (of
    complex numbers if `complex_`) on the current backend: a TPU's approximations
    (`TPU_APPROXIMATE`, `TPU_APPROXIMATE_COMPLEX`), else the default."""
    approximate = TPU_APPROXIMATE_COMPLEX if complex_ else TPU_APPROXIMATE
    return TPU_APPROXIMATE_RTOL if name in approximate and on_tpu() else None


def flush_subnormals(value):
    """`value` with subnormal floats replaced by zeros of the same sign (also inside
    lists, tuples, dicts and complex numbers): what a backend that flushes them sees."""
    if isinstance(value, (list, tuple)):
        return _rebuilt(value, [flush_subnormals(v) for v in value])
    if isinstance(value, dict):
        return {k: flush_subnormals(v) for k, v in value.items()}
    if isinstance(value, (np.ndarray, np.generic)):
        return _flushed_array(value)
    if isinstance(value, (builtins.float, builtins.complex)):
        return type(value)(_flushed_array(np.asarray(value))[()])
    return value


def _flushed_array(value):
    if value.dtype.kind == "c":
        flushed = np.empty(np.shape(value), value.dtype)
        flushed.real, flushed.imag = _flushed_array(value.real), _flushed_array(value.imag)
        return flushed[()] if isinstance(value, np.generic) else flushed
    if not lazyarr._dtypes.is_floating(value.dtype) or value.dtype == np.float16:
        return value  # (float16 is computed in float32, where it is normal; bfloat16 not)
    tiny = lazyarr.finfo(value.dtype).smallest_normal
    flushed = np.where(np.abs(value) < tiny, np.copysign(np.zeros((), value.dtype), value),
                       value).astype(value.dtype)
    return flushed[()] if isinstance(value, np.generic) else flushed


def backend_flushes_subnormals() -> bool:
    """XLA on CPU reads subnormal inputs as zero and writes zero for subnormal results
    of float32, float64 and bfloat16 (a documented deviation, see docs/semantics.md and
    backends/xla/tests/test_xla_backend.py)."""
    return getattr(lazyarr._backend.current(), "flushes_subnormals", False)


def check(np_func, la_func, *args, rtol=None, atol=0.0, **kwargs):
    """Call both with the same arguments; compare results or exception types.

    A lazyarr exception must come from the call, never from materializing the result.
    On a backend that flushes subnormals, each element of lazyarr's result may also be
    NumPy's on flushed inputs, or a flushed NumPy result (see `flush_subnormals`).
    """
    try:
        expected = _quiet(np_func, args, kwargs)
    except Exception as exc:  # NumPy rejected the input: lazyarr must too, at the call
        expected_exc = public_type(exc)
        try:
            result = la_func(*to_lazy(args), **to_lazy(kwargs))
        except Exception as la_exc:
            assert isinstance(la_exc, expected_exc), (
                f"NumPy raised {type(exc).__name__}({exc}); lazyarr raised "
                f"{type(la_exc).__name__}({la_exc})")
            return None
        raise AssertionError(f"NumPy raised {type(exc).__name__}({exc}); lazyarr returned "
                             f"{result!r} instead of raising")
    result = la_func(*to_lazy(args), **to_lazy(kwargs))
    expected = allow_flushed(expected, lambda: _quiet(
        np_func, flush_subnormals(args), flush_subnormals(kwargs)), materialize(result))
    assert_same(expected, result, rtol, atol)
    return result


def allow_flushed(expected, on_flushed_inputs, actual):
    """NumPy's `expected`; on a backend that flushes subnormals, each element that
    `actual` does not match may instead be NumPy's result on flushed inputs
    (`on_flushed_inputs()`) or a flushed NumPy result."""
    if not backend_flushes_subnormals():
        return expected
    alternatives = [flush_subnormals(expected)]
    try:
        on_flushed = on_flushed_inputs()
        alternatives += [on_flushed, flush_subnormals(on_flushed)]
    except Exception:  # noqa: BLE001  (only the original inputs' outcome is NumPy's)
        pass
    return _matching(expected, alternatives, actual)


def _quiet(np_func, args, kwargs):
    with np.errstate(all="ignore"), warnings.catch_warnings():
        warnings.simplefilter("ignore", np.exceptions.ComplexWarning)
        return np_func(*args, **kwargs)


def _matching(expected, alternatives, actual):
    """`expected`, where each element that `actual` does not match is taken from the
    first alternative that it matches exactly (for a backend that flushes subnormals:
    data movement keeps them, arithmetic reads and writes them as zero)."""
    if isinstance(expected, (tuple, list)) and isinstance(actual, (tuple, list)):
        if len(expected) != len(actual) or any(len(a) != len(expected) for a in alternatives):
            return expected
        items = [_matching(e, [a[k] for a in alternatives], actual[k])
                 for k, e in enumerate(expected)]
        return _rebuilt(expected, items)
    if not isinstance(expected, (np.ndarray, np.generic)) \
            or not lazyarr._dtypes.is_numeric(expected.dtype):
        return expected
    actual = np.asarray(actual)
    picked = np.asarray(expected)
    for candidate in alternatives:
        candidate = np.asarray(candidate)
        if candidate.shape != picked.shape or actual.shape != picked.shape:
            continue
        take = ~_same(picked, actual) & _same(candidate, actual)
        picked = np.where(take, candidate, picked).astype(expected.dtype)
    return picked[()] if isinstance(expected, np.generic) else picked


def _inexact(dtype) -> bool:
    """Floats (bfloat16 too: its NumPy kind is "V") and complex."""
    return dtype.kind == "c" or lazyarr._dtypes.is_floating(dtype)


def _same(a, b):
    if not (_inexact(a.dtype) and _inexact(b.dtype)):
        return a == b
    return (a == b) | (np.isnan(a) & np.isnan(b))


def check_function(name: str, *args, **kwargs):
    """`check` for the function of the same name in numpy and lazyarr."""
    return check(getattr(np, name), getattr(lazyarr, name), *args, **kwargs)


def clean(value):
    """`value` as both sides get it in tests that leave subnormal inputs to the tests of
    that deviation: flushed on a backend that flushes them, unchanged elsewhere."""
    return flush_subnormals(value) if backend_flushes_subnormals() else value


def np_setitem(a, key, value):
    """NumPy's `a[key] = value` on a copy, as a function returning the result."""
    a = a.copy()
    a[key] = value
    return a


def la_setitem(x, key, value):
    """lazyarr's `x[key] = value`, as a function returning `x`."""
    x[key] = value
    return x
