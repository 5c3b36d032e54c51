"""The byte-level view primitives as jax operations: `bitcast` through
`lax.bitcast_convert_type` (complex numbers as pairs of floats, bool as bytes, as
XLA converts neither), `strided` as a gather at positions built from iotas."""

from __future__ import annotations

import numpy as np

import jax.numpy as jnp
from jax import lax

from lazyarr.backend_api import op

from . import registry


def _as_real(x):
    """Complex to (..., 2n) floats; bool to bytes: what XLA can bitcast."""
    if jnp.iscomplexobj(x):
        pairs = jnp.stack([jnp.real(x), jnp.imag(x)], axis=-1)
        return pairs.reshape(x.shape[:-1] + (-1,) if x.ndim else (2,))
    if x.dtype == jnp.bool_:
        return x.astype(jnp.uint8)
    return x


def _bitcast_real(x, dtype):
    """x (real) as real `dtype`, the last axis rescaled."""
    old, new = x.dtype.itemsize, dtype.itemsize
    if old == new:
        return lax.bitcast_convert_type(x, dtype)
    if old > new:
        out = lax.bitcast_convert_type(x, dtype)  # a trailing axis of old // new
        return out.reshape(x.shape[:-1] + (-1,))
    ratio = new // old
    return lax.bitcast_convert_type(x.reshape(x.shape[:-1] + (-1, ratio)), dtype)


def _bitcast(x, dtype, shape):
    dtype = np.dtype(dtype)
    x = _as_real(x)
    if not x.size:
        return jnp.zeros(shape, dtype)
    if dtype.kind == "c":
        parts = _bitcast_real(x.reshape(x.shape or (1,)), np.dtype(f"f{dtype.itemsize // 2}"))
        pairs = parts.reshape(parts.shape[:-1] + (-1, 2))
        return lax.complex(pairs[..., 0], pairs[..., 1]).reshape(shape)
    if dtype == np.bool_:
        return (_bitcast_real(x, np.dtype(np.uint8)) != 0).reshape(shape)
    return _bitcast_real(x, dtype).reshape(shape)


def _strided(x, shape, strides, offset):
    if not int(np.prod(shape)):
        return jnp.zeros(shape, x.dtype)
    index = jnp.full(shape, offset, jnp.int64)
    for axis, stride in enumerate(strides):
        if stride:
            index = index + lax.broadcasted_iota(jnp.int64, shape, axis) * stride
    return jnp.take(x, index, mode="clip")  # in range: checked when the view is made


registry.register_all({op("bitcast"): _bitcast, op("strided"): _strided})
