"""Each lazyarr primitive as jax operations, with NumPy's semantics.

Inputs arrive already in the dtypes lazyarr resolved (NumPy's), so most ufuncs are a
one-line mapping to `jax.numpy`; the entries written out here are where XLA's own
semantics differ from NumPy's (integer division by zero, float-to-int casts of NaN
and out-of-range values, integer reciprocal and powers). A lowering may report a
runtime error by appending (flag, exception type, message) to `checks`; the backend
raises the first one that is set when the program returns.
"""

from __future__ import annotations

import numpy as np

import jax
import jax.numpy as jnp
from jax import lax

from ..._ops import UFUNCS


def _int_min(dtype) -> int:
    return int(np.iinfo(dtype).min)


def convert(x, dtype):
    """`x.astype(dtype)` as NumPy does it on x86-64: float-to-int truncates, and NaN,
    infinities and values out of range become INT_MIN (int32/int64), or wrap through
    int32 (int8/16, uint8/16) or int64 (uint32/64); complex-to-real keeps the real part."""
    dtype = np.dtype(dtype)
    if dtype.kind == "b":
        return x != 0
    if jnp.iscomplexobj(x) and dtype.kind != "c":
        x = jnp.real(x)  # NumPy discards the imaginary part (with a ComplexWarning)
    if dtype.kind in "iu" and jnp.issubdtype(x.dtype, jnp.floating):
        via = np.dtype(np.int64) if dtype.itemsize == 8 or dtype == np.uint32 else \
            np.dtype(np.int32)
        bound = float(2 ** (8 * via.itemsize - 1))
        x64 = x.astype(jnp.float64) if x.dtype != jnp.float64 else x
        bad = jnp.isnan(x64) | (x64 >= bound) | (x64 < -bound)
        safe = jnp.where(bad, 0.0, x64)
        wide = jnp.where(bad, _int_min(via), lax.convert_element_type(safe, via))
        return lax.convert_element_type(wide, dtype)
    return lax.convert_element_type(x, dtype)


def _floor_divide(x, y):
    if jnp.issubdtype(x.dtype, jnp.integer):
        safe = jnp.where(y == 0, 1, y)
        return jnp.where(y == 0, jnp.zeros_like(x), jnp.floor_divide(x, safe))
    return jnp.floor_divide(x, y)


def _integer_safe(fn):
    """Integer remainder/fmod by zero give 0 in NumPy."""
    def lowered(x, y):
        if jnp.issubdtype(x.dtype, jnp.integer):
            safe = jnp.where(y == 0, 1, y)
            return jnp.where(y == 0, jnp.zeros_like(x), fn(x, safe))
        return fn(x, y)
    return lowered


def _reciprocal(x):
    if jnp.issubdtype(x.dtype, jnp.integer) or x.dtype == jnp.bool_:
        return convert(1.0 / x.astype(jnp.float64), x.dtype)
    return jnp.reciprocal(x)


def _power(x, y, checks):
    if jnp.issubdtype(x.dtype, jnp.integer) and jnp.issubdtype(y.dtype, jnp.signedinteger):
        checks.append((jnp.any(y < 0), ValueError,
                       "Integers to negative integer powers are not allowed."))
        y = jnp.where(y < 0, 0, y)
    return jnp.power(x, y)


def _sign(x):
    if x.dtype == jnp.bool_:
        return x
    return jnp.sign(x)


def _multi_output(fn):
    return lambda x, out=0: fn(x)[out]


# Ufuncs whose jax.numpy counterpart differs from NumPy; the rest map one to one.
_SPECIAL_UFUNCS = {
    "floor_divide": _floor_divide,
    "remainder": _integer_safe(jnp.remainder),
    "fmod": _integer_safe(jnp.fmod),
    "reciprocal": _reciprocal,
    "sign": _sign,
    "modf": _multi_output(jnp.modf),
    "frexp": _multi_output(jnp.frexp),
}


def _normalize_index(index, checks, size, axis):
    bad = (index < -size) | (index >= size)
    checks.append((jnp.any(bad), IndexError,
                   f"index out of bounds for axis {axis} with size {size}"))
    return jnp.where(index < 0, index + size, index).astype(jnp.int64)


def _slice(x, starts, stops, steps):
    index = tuple(slice(a, None if b < 0 else b, c) for a, b, c in zip(starts, stops, steps))
    return x[index]


def _accumulating(fn):
    """Sum and product in the input's dtype (lazyarr already chose the accumulator)."""
    return lambda x, axes: fn(x, axis=axes, dtype=x.dtype)


_REDUCERS = {"reduce_sum": _accumulating(jnp.sum), "reduce_prod": _accumulating(jnp.prod),
             "reduce_max": lambda x, axes: jnp.max(x, axis=axes),
             "reduce_min": lambda x, axes: jnp.min(x, axis=axes),
             "reduce_any": lambda x, axes: jnp.any(x, axis=axes),
             "reduce_all": lambda x, axes: jnp.all(x, axis=axes)}


def _iota(shape, dtype, axis):
    return lax.broadcasted_iota(dtype, shape, axis)


def _take(x, indices, axis):
    return jnp.take(x, indices, axis=axis, mode="clip")  # indices are in range already


def _argreduce(fn):
    return lambda x, axis: fn(x, axis=axis).astype(jnp.int64)


def _cumulative(fn):
    return lambda x, axis: fn(x, axis=axis, dtype=x.dtype)


def _einsum(*xs, subscripts):
    return jnp.einsum(subscripts, *xs, preferred_element_type=xs[0].dtype)


LOWERINGS = {
    "real": jnp.real,
    "imag": jnp.imag,
    "select": jnp.where,
    "convert": convert,
    "broadcast_to": lambda x, shape: jnp.broadcast_to(x, shape),
    "reshape": lambda x, shape: jnp.reshape(x, shape),
    "transpose": lambda x, axes: jnp.transpose(x, axes),
    "slice": _slice,
    "concatenate": lambda *xs, axis: jnp.concatenate(xs, axis=axis),
    "iota": _iota,
    "take": _take,
    "argmax": _argreduce(jnp.argmax),
    "argmin": _argreduce(jnp.argmin),
    "cumsum": _cumulative(jnp.cumsum),
    "cumprod": _cumulative(jnp.cumprod),
    "einsum": _einsum,
}
LOWERINGS.update(_REDUCERS)
LOWERINGS.update({name: _SPECIAL_UFUNCS.get(name, getattr(jnp, name)) for name in UFUNCS})

# Lowerings that can raise at run time take the program's list of checks.
CHECKED = {"normalize_index": _normalize_index, "power": _power}


def lower(op_name: str, args, attrs: dict, checks: list):
    """The jax value of one instruction."""
    if op_name in CHECKED:
        return CHECKED[op_name](*args, checks, **attrs)
    return LOWERINGS[op_name](*args, **attrs)


def lowerable() -> set[str]:
    return set(LOWERINGS) | set(CHECKED)


__all__ = ["lower", "lowerable", "convert", "jax"]
