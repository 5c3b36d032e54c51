"""Bit packing (NumPy's "Bit-wise operations"; the elementwise bit operations are
ufuncs in `elementwise`): packbits and unpackbits, as NumPy's
numpy/_core/src/multiarray/compiled_base.c computes them, with shifts, a sum and
reshapes.
"""

from __future__ import annotations

import operator

import numpy as np

from . import creation, elementwise, export, manipulation, reductions, shapes
from .common import Array, along_axis


def _sliced(x: Array, axis: int, sl: slice) -> Array:
    return x[(slice(None),) * axis + (sl,)]


def _bit_weights(bitorder: str, dtype) -> Array:
    if bitorder not in ("big", "little"):
        raise ValueError("'order' must be either 'little' or 'big'")
    shifts = np.arange(8) if bitorder == "little" else np.arange(7, -1, -1)
    return creation.asarray(shifts.astype(dtype))


@export
def packbits(a, /, axis=None, bitorder="big"):
    """The elements of `a` (as bits: nonzero or zero) packed into uint8 along `axis`
    (NumPy's packbits)."""
    shifts = _bit_weights(bitorder, np.uint8)
    a = creation.asarray(a)
    if a.dtype.kind not in "biu":
        raise TypeError("Expected an input array of integer or boolean data type")
    a, axis = along_axis(a, axis, "packbits", flat_0d=True)
    n = a.shape[axis]
    bits = elementwise.astype(a != 0, np.uint8)
    pad = -n % 8
    if pad:
        zeros = creation.zeros(a.shape[:axis] + (pad,) + a.shape[axis + 1:], np.uint8)
        bits = manipulation.concatenate([bits, zeros], axis=axis)
    groups = shapes.reshape(bits, a.shape[:axis] + ((n + pad) // 8, 8) + a.shape[axis + 1:])
    weights = shapes.reshape(elementwise.left_shift(np.uint8(1), shifts),
                          (8,) + (1,) * (a.ndim - axis - 1))
    return reductions.sum(groups * weights, axis=axis + 1, dtype=np.uint8)


@export
def unpackbits(a, /, axis=None, count=None, bitorder="big"):
    """The bits of the uint8 array `a` along `axis`, `count` of them (NumPy's)."""
    shifts = _bit_weights(bitorder, np.uint8)
    a = creation.asarray(a)
    if a.dtype != np.uint8:
        raise TypeError("Expected an input array of unsigned byte data type")
    a, axis = along_axis(a, axis, "unpackbits", flat_0d=True)
    n = a.shape[axis] * 8
    if count is None:
        count = n
    else:
        count = operator.index(count)
        if count < 0:
            if count < -n:
                raise ValueError("-count larger than number of elements")
            count += n
    expanded = shapes.expand_dims(a, axis + 1)
    bits = elementwise.right_shift(expanded,
                                   shapes.reshape(shifts, (8,) + (1,) * (a.ndim - axis - 1)))
    bits = shapes.reshape(bits & np.uint8(1), a.shape[:axis] + (n,) + a.shape[axis + 1:])
    if count <= n:
        return _sliced(bits, axis, slice(0, count))
    zeros = creation.zeros(a.shape[:axis] + (count - n,) + a.shape[axis + 1:], np.uint8)
    return manipulation.concatenate([bits, zeros], axis=axis)

