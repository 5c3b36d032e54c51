"""The primitives behind views that read memory as NumPy lays it out: `bitcast`
(`x.view(dtype)`: the same bytes as another dtype) and `strided` (`as_strided`: the
elements of a flat buffer at an offset plus strides, counted in elements).

Both are view steps (see `_views`): a write into the view becomes a write into its
owner through the inverse bitcast, or a scatter at `strided_index`.
"""

from __future__ import annotations

import math

import numpy as np

from ._registry import operand_count, primitive, require


def _bitcast_shape(shapes, dtype, shape):
    operand_count(shapes, 1)
    (x,) = shapes
    require(len(shape) == len(x) and shape[:-1] == x[:-1],
            f"a bitcast keeps every axis but the last: {x} to {shape}")
    return shape


def _bitcast_dtype(dtypes, dtype, shape):
    require(np.dtype(dtypes[0]).kind in "biufc" and np.dtype(dtype).kind in "biufc",
            f"a bitcast is between numeric dtypes, not {dtypes[0]} to {dtype}")
    return dtype


def _strided_shape(shapes, shape, strides, offset):
    operand_count(shapes, 1)
    require(len(shapes[0]) == 1, f"a strided view reads a flat operand, not {shapes[0]}")
    require(len(shape) == len(strides) and min(shape, default=0) >= 0,
            f"shape {shape} and strides {strides} do not match")
    if math.prod(shape):
        low = offset + sum((n - 1) * s for n, s in zip(shape, strides) if s < 0)
        high = offset + sum((n - 1) * s for n, s in zip(shape, strides) if s > 0)
        require(0 <= low and high < shapes[0][0],
                f"the strided view reaches outside its {shapes[0][0]} elements")
    return shape


@primitive("bitcast", _bitcast_shape, _bitcast_dtype)
def _bitcast(x, dtype, shape):
    """NumPy's `x.view(dtype)` of a C-contiguous `x`: the last axis rescaled by the
    ratio of the itemsizes (`shape` is the result's)."""
    return np.ascontiguousarray(x).view(dtype).reshape(shape)


def strided_index(shape, strides, offset) -> np.ndarray:
    """The flat positions `offset + sum(i_k * strides[k])` over `shape` (in elements)."""
    index = np.full(shape, offset, dtype=np.int64)
    for axis, (n, s) in enumerate(zip(shape, strides)):
        index += (np.arange(n, dtype=np.int64) * s).reshape(
            (1,) * axis + (n,) + (1,) * (len(shape) - axis - 1))
    return index


@primitive("strided", _strided_shape, lambda d, **_: d[0])
def _strided(x, shape, strides, offset):
    """The elements of the flat `x` at `strided_index(shape, strides, offset)`."""
    return x[strided_index(shape, strides, offset)]
