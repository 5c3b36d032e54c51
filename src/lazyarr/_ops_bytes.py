"""The primitives behind views that read memory as NumPy lays it out: `bitcast`
(`x.view(dtype)`: the same bytes as another dtype) and `strided` (`as_strided`: the
elements of a flat buffer at an offset plus strides, counted in elements).

Both are view steps (see `_views`): a write into the view becomes a write into its
owner through the inverse bitcast, or a scatter at `strided_index`.
"""

from __future__ import annotations

import numpy as np

from ._registry import primitive


def _bitcast_shape(shapes, dtype, shape):
    return shape


@primitive("bitcast", _bitcast_shape, lambda d, dtype, shape: dtype)
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


@primitive("strided", lambda s, shape, strides, offset: shape, lambda d, **_: d[0])
def _strided(x, shape, strides, offset):
    """The elements of the flat `x` at `strided_index(shape, strides, offset)`."""
    return x[strided_index(shape, strides, offset)]
