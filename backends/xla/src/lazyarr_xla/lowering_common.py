"""The small helpers every lowering module of the XLA backend shares: dtype kinds,
complex parts, NumPy's rounding of each result and IEEE division (`rounded`,
`divisor`, see `lowering`), glibc's float32 hypot and NumPy's complex product (used by
the ufuncs, the complex functions and the reductions alike). It imports no other
lowering module.
"""

from __future__ import annotations

import math

import numpy as np

import jax.numpy as jnp
from jax import lax


def kind(x) -> str:
    """NumPy's dtype kind: b, i, u, f or c ("f" for ml_dtypes' bfloat16 and float8
    types too, whose NumPy kind is "V": they take the float lowerings)."""
    dtype = np.dtype(x.dtype)
    if dtype.kind == "V" and jnp.issubdtype(dtype, jnp.floating):
        return "f"
    return dtype.kind


def parts(z):
    return jnp.real(z), jnp.imag(z)


def pack(re, im):
    return lax.complex(re, im)


def isnan_c(re, im):
    return jnp.isnan(re) | jnp.isnan(im)


def unsigned(dtype) -> np.dtype:
    return np.dtype(f"u{np.dtype(dtype).itemsize}")


def rounded(x):
    """x as a value of its own, as NumPy computes each ufunc: a select that XLA cannot
    see through keeps its simplifier from rewriting across operations (exp(a) / exp(b)
    as exp(a - b), (a / b) / c as a / (b * c)) and LLVM from fusing a product into the
    sum that uses it (FMA). NaNs pass through unchanged."""
    if kind(x) == "c":
        return pack(rounded(jnp.real(x)), rounded(jnp.imag(x)))
    return jnp.where(jnp.isnan(x), x + x, x)


def flat_index(shape):
    """Each element's position in C order."""
    dtype = np.int32 if math.prod(shape) < 2 ** 31 else np.int64
    index, stride = jnp.zeros(shape, dtype), 1
    for axis in reversed(range(len(shape))):
        index = index + lax.broadcasted_iota(dtype, shape, axis) * stride
        stride *= shape[axis]
    return index


def divisor(x, y):
    """y, hidden from XLA's rewrite of x / broadcast(b) as x * broadcast(1 / b), which
    is not IEEE division (3.0 / 5 would be 0.6000000000000001): a select on a
    condition that is never true but that XLA can neither evaluate nor reduce to a
    broadcast (x / y is NaN where x is)."""
    shape = jnp.broadcast_shapes(x.shape, y.shape)
    never = jnp.isnan(x) | (flat_index(shape) < 0)
    return jnp.where(never, jnp.nan, y).astype(y.dtype)



def hypot(x, y):
    """glibc's hypotf computes in double and rounds once (jnp.hypot's float32 result
    is off by an ulp for a third of inputs); float64 stays jnp.hypot's (see report).
    The parts are first scaled by a power of two near the larger one: a TPU's float64
    keeps float32's exponent range, where hypot(0, 1.8e19) squared to NaN."""
    if x.dtype == jnp.float32:
        _, e = jnp.frexp(jnp.maximum(jnp.abs(x), jnp.abs(y)))
        e = jnp.clip(e, -126, 126)
        wide = [jnp.ldexp(v, -e).astype(jnp.float64) for v in (x, y)]
        # rounded to float32, then scaled back there (exact for a normal result; jax's
        # float64 ldexp does not compile on a TPU)
        r = jnp.ldexp(jnp.sqrt(wide[0] * wide[0] + wide[1] * wide[1]).astype(jnp.float32), e)
        return jnp.where(jnp.isinf(x) | jnp.isinf(y), jnp.inf, r)  # inf even with a NaN
    return jnp.hypot(x, y)


def _keeping_zero(name: str):
    """jnp's function `name`, zero at zero, keeping the sign of a zero as C's does: a
    TPU v5e's expm1 and sinh gave 0.0 for -0.0 (and complex64 expm1, sin, cos, sinh and
    cosh, computed from them, zeros of the wrong sign). (jnp's function is looked up at
    each call.)"""
    def lowered(x):
        return jnp.where(x == 0, x, getattr(jnp, name)(x))
    lowered.__name__ = name
    return lowered


expm1, sinh = _keeping_zero("expm1"), _keeping_zero("sinh")


def fma(x, y, z):
    """x*y + z rounded once (an FMA instruction): a product of finite numbers never
    overflows on the way, so an infinite z decides."""
    return jnp.where(jnp.isinf(z) & jnp.isfinite(x) & jnp.isfinite(y), z, x * y + z)


def cmul(ar, ai, br, bi, fused=True):
    """NumPy's complex product (ar br - ai bi) + (ar bi + ai br) i, with no recovery
    of infinities; its SIMD loops (multiply, square, cumprod, reductions across rows)
    compute the ar products with FMA, its scalar loops (npy_cpow, reductions along a
    row) round each product."""
    if fused:
        return fma(ar, br, -rounded(ai * bi)), fma(ar, bi, rounded(ai * br))
    return rounded(ar * br) - rounded(ai * bi), rounded(ar * bi) + rounded(ai * br)
