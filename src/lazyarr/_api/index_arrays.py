"""Generating index arrays (NumPy's "Indexing routines"): ix_, diag_indices(_from),
tril/triu_indices(_from), mask_indices, ravel_multi_index and unravel_index
(`indices` is in `creation`, beside `fromfunction`, which calls it).

Each follows NumPy's code (numpy/lib/_index_tricks_impl.py, _twodim_base_impl.py).
Values are read only where NumPy's result depends on them: boolean `ix_` arguments
and `mask_indices` (cause "shape"), the indices of `ravel_multi_index` (mode
"raise") and `unravel_index` (its bounds check) (cause "control").
"""

from __future__ import annotations

import math

import numpy as np

from . import creation, elementwise, export, indexing, shapes
from .common import Array, as_shape, host_array


@export
def ix_(*args):
    """Open-mesh index arrays from 1-d sequences (NumPy's ix_; boolean ones are read
    for their nonzero positions)."""
    out = []
    nd = len(args)
    for k, new in enumerate(args):
        if not isinstance(new, (Array, np.ndarray)):
            new = creation.asarray(new)
            if new.size == 0:  # NumPy: not the default float for an empty sequence
                new = elementwise.astype(new, np.intp)
        new = creation.asarray(new)
        if new.ndim != 1:
            raise ValueError("Cross index must be 1 dimensional")
        if new.dtype == bool:
            new = creation.asarray(np.flatnonzero(host_array(new, "shape")))
        out.append(shapes.reshape(new, (1,) * k + (new.size,) + (1,) * (nd - k - 1)))
    return tuple(out)


@export
def diag_indices(n, ndim=2):
    """The indices of the main diagonal of an n x ... x n array (NumPy's)."""
    idx = creation.arange(n)
    return (idx,) * ndim


@export
def diag_indices_from(arr):
    """diag_indices for `arr`, which must be at least 2-d with equal sides."""
    arr = creation.asarray(arr)
    if arr.ndim < 2:
        raise ValueError("input array must be at least 2-d")
    if len(set(arr.shape)) != 1:
        raise ValueError("All dimensions of input must be of equal length")
    return diag_indices(arr.shape[0], arr.ndim)


def _triangle_indices(np_func, n, k, m):
    # The indices depend on n, k and m only: NumPy computes them.
    return tuple(creation.asarray(i) for i in np_func(n, k, m))


@export
def tril_indices(n, k=0, m=None):
    """The indices of the lower triangle of an (n, m) array (NumPy's)."""
    return _triangle_indices(np.tril_indices, n, k, m)


@export
def triu_indices(n, k=0, m=None):
    """The indices of the upper triangle of an (n, m) array (NumPy's)."""
    return _triangle_indices(np.triu_indices, n, k, m)


def _two_d(arr) -> Array:
    arr = creation.asarray(arr)
    if arr.ndim != 2:
        raise ValueError("input array must be 2-d")
    return arr


@export
def tril_indices_from(arr, k=0):
    """tril_indices for the shape of the 2-d `arr`."""
    arr = _two_d(arr)
    return tril_indices(arr.shape[-2], k=k, m=arr.shape[-1])


@export
def triu_indices_from(arr, k=0):
    """triu_indices for the shape of the 2-d `arr`."""
    arr = _two_d(arr)
    return triu_indices(arr.shape[-2], k=k, m=arr.shape[-1])


@export
def mask_indices(n, mask_func, k=0):
    """The indices where mask_func(ones((n, n)), k) is nonzero (NumPy's)."""
    a = mask_func(creation.ones((n, n), int), k)
    return indexing.nonzero(a != 0)


@export
def ravel_multi_index(multi_index, dims, mode="raise", order="C"):
    """Flat indices of the coordinate arrays `multi_index` in an array of shape `dims`
    (NumPy's; mode "raise" reads the indices to check them)."""
    dims = as_shape(dims, "ravel_multi_index")
    if len(multi_index) != len(dims):
        raise ValueError(f"parameter multi_index must be a sequence of length {len(dims)}")
    modes = (mode,) * len(dims) if isinstance(mode, str) else tuple(mode)
    if len(modes) != len(dims) or any(m not in ("raise", "wrap", "clip") for m in modes):
        raise ValueError(f"ravel_multi_index: invalid mode {mode!r}")
    if order not in ("C", "F"):
        raise ValueError("only 'C' or 'F' order is permitted")
    coords = shapes.broadcast_arrays(*[creation.asarray(i) for i in multi_index])
    if any(c.dtype.kind not in "iu" for c in coords):
        raise TypeError("only int indices permitted")
    strides = [math.prod(dims[d + 1:]) if order == "C" else math.prod(dims[:d])
               for d in range(len(dims))]
    result = creation.zeros(coords[0].shape if coords else (), np.intp)
    for c, d, m, stride in zip(coords, dims, modes, strides):
        c = elementwise.astype(c, np.intp)
        if m == "raise":
            host = host_array(c, "control")
            if np.any((host < 0) | (host >= d)):
                raise ValueError("invalid entry in coordinates array")
        elif m == "wrap":
            c = c % d if d else c
        else:
            c = elementwise.clip(c, 0, max(d - 1, 0))
        result = result + c * stride
    return result


@export
def unravel_index(indices, shape, order="C"):
    """The coordinate arrays of flat `indices` in an array of `shape` (NumPy's; the
    indices are read for NumPy's bounds check)."""
    shape = as_shape(shape, "unravel_index")
    if order not in ("C", "F"):
        raise ValueError("only 'C' or 'F' order is permitted")
    idx = creation.asarray(indices)
    if idx.dtype.kind not in "iu":
        raise TypeError("only int indices permitted")
    size = math.prod(shape)
    host = host_array(idx, "control")
    bad = host[(host < 0) | (host >= size)]
    if bad.size:
        raise ValueError(f"index {bad.flat[0]} is out of bounds for array with size {size}")
    idx = elementwise.astype(idx, np.intp)
    out = [None] * len(shape)
    dims = range(len(shape) - 1, -1, -1) if order == "C" else range(len(shape))
    for d in dims:
        out[d] = idx % shape[d]
        idx = idx // shape[d]
    return tuple(out)

