"""Building and reshaping arrays from pieces and indices: block, delete, insert,
resize, trim_zeros, rollaxis, ix_, indices, the diag/tril/triu/mask index helpers,
fromfunction, geomspace, ravel_multi_index, unravel_index, packbits, unpackbits and
the window functions (bartlett, blackman, hamming, hanning, kaiser).

Each follows NumPy's code (numpy/lib/_function_base_impl.py, _index_tricks_impl.py,
_twodim_base_impl.py, numpy/_core/shape_base.py) with lazyarr's functions.

Values are read only where NumPy's result shape depends on them (cause "shape"):
`trim_zeros`, boolean `ix_` arguments, lazy `obj` of `delete`/`insert`, `mask_indices`.
Where NumPy raises on bad values (cause "control"): a lazy `start`/`stop` of
`geomspace` (zero check), the indices of `ravel_multi_index` (mode "raise") and
`unravel_index` (bounds check).
"""

from __future__ import annotations

import math
import operator

import numpy as np
from numpy.exceptions import AxisError

from .. import _dtypes
from . import creation, elementwise, export, indexing, manipulation, reductions, shapes
from .common import Array, as_shape, host_array, normalize_axis
from .selection import i0



def _flat_axis(arr, axis, func: str):
    """(arr, axis) as NumPy's delete/insert see them: axis None flattens."""
    arr = creation.asarray(arr)
    if axis is None:
        return (arr if arr.ndim == 1 else shapes.ravel(arr)), 0
    return arr, normalize_axis(axis, arr.ndim, func)


def _sliced(x: Array, axis: int, sl: slice) -> Array:
    return x[(slice(None),) * axis + (sl,)]


# ---------------------------------------------------------------------------------
# Joining and cutting.

def _block_depths(arrays, parent_index):
    """NumPy's _block_check_depths_match: (index of the first bottom element, the
    largest array ndim); errors for tuples and mismatched depths."""
    if isinstance(arrays, tuple):
        raise TypeError(f"{_block_format(parent_index)} is a tuple. Only lists can be used "
                        "to arrange blocks, and np.block does not allow implicit conversion "
                        "from tuple to ndarray.")
    if isinstance(arrays, list) and arrays:
        results = [_block_depths(a, parent_index + [i]) for i, a in enumerate(arrays)]
        first_index, max_ndim = results[0]
        for index, ndim in results[1:]:
            max_ndim = max(max_ndim, ndim)
            if len(index) != len(first_index):
                raise ValueError(f"List depths are mismatched. First element was at depth "
                                 f"{len(first_index)}, but there is an element at depth "
                                 f"{len(index)} ({_block_format(index)})")
            if index[-1] is None:
                first_index = index
        return first_index, max_ndim
    if isinstance(arrays, list):
        return parent_index + [None], 0
    return parent_index, shapes.ndim(arrays)


def _block_format(index) -> str:
    return "arrays" + "".join(f"[{i}]" for i in index)


def _block_assemble(arrays, list_ndim: int, result_ndim: int, depth: int) -> Array:
    if depth < list_ndim:
        parts = [_block_assemble(a, list_ndim, result_ndim, depth + 1) for a in arrays]
        return manipulation.concatenate(parts, axis=-(list_ndim - depth))
    x = creation.asarray(arrays)
    return shapes.reshape(x, (1,) * (result_ndim - x.ndim) + x.shape)


@export
def block(arrays):
    """An array assembled from nested lists of blocks (NumPy's block)."""
    bottom_index, arr_ndim = _block_depths(arrays, [])
    list_ndim = len(bottom_index)
    if bottom_index and bottom_index[-1] is None:
        raise ValueError(f"List at {_block_format(bottom_index)} cannot be empty")
    result = _block_assemble(arrays, list_ndim, max(arr_ndim, list_ndim), 0)
    return result.copy() if list_ndim == 0 else result


def _index_argument(obj):
    """`obj` as NumPy's np.asarray sees it (a lazy one is read: it decides the shape)."""
    return host_array(obj, "shape") if isinstance(obj, Array) else np.asarray(obj)


@export
def delete(arr, obj, axis=None):
    """`arr` without the entries `obj` along `axis` (NumPy's delete)."""
    arr, axis = _flat_axis(arr, axis, "delete")
    N = arr.shape[axis]
    keep = np.ones(N, dtype=bool)
    if isinstance(obj, slice):
        keep[obj] = False
    else:
        single = isinstance(obj, (int, np.integer)) and not isinstance(obj, bool)
        if not single:
            given, obj = obj, _index_argument(obj)
            if obj.size == 0 and not isinstance(given, (np.ndarray, Array)):
                obj = obj.astype(np.intp)
            elif obj.size == 1 and obj.dtype.kind in "ui":
                obj, single = obj.item(), True
        if single:
            if obj < -N or obj >= N:
                raise IndexError(f"index {obj} is out of bounds for axis {axis} with size {N}")
            keep[obj] = False
        elif obj.dtype == bool:
            if obj.shape != (N,):
                raise ValueError("boolean array argument obj to delete must be one "
                                 f"dimensional and match the axis length of {N}")
            keep = ~obj
        else:
            keep[obj,] = False
    return indexing.take(arr, np.flatnonzero(keep), axis=axis)


@export
def insert(arr, obj, values, axis=None):
    """`arr` with `values` inserted before the indices `obj` along `axis` (NumPy's
    insert)."""
    arr, axis = _flat_axis(arr, axis, "insert")
    N = arr.shape[axis]
    if isinstance(obj, slice):
        indices = np.arange(*obj.indices(N), dtype=np.intp)
    else:
        indices = np.array(_index_argument(obj))
        if indices.dtype == bool:
            if indices.ndim != 1:
                raise ValueError("boolean array argument obj to insert must be one dimensional")
            indices = np.flatnonzero(indices)
        elif indices.ndim > 1:
            raise ValueError("index array argument obj to insert must be one dimensional "
                             "or scalar")
    if indices.size == 1:
        index = indices.item()
        if index < -N or index > N:
            raise IndexError(f"index {obj} is out of bounds for axis {axis} with size {N}")
        index += N if index < 0 else 0
        values = _values_as(values, arr.dtype)  # after the index check, as in NumPy
        values = shapes.reshape(values, (1,) * (arr.ndim - values.ndim) + values.shape)
        if indices.ndim == 0:
            values = shapes.moveaxis(values, 0, axis)
        shape = arr.shape[:axis] + (values.shape[axis],) + arr.shape[axis + 1:]
        parts = [_sliced(arr, axis, slice(None, index)), shapes.broadcast_to(values, shape),
                 _sliced(arr, axis, slice(index, None))]
        return manipulation.concatenate(parts, axis=axis)
    if indices.size == 0 and not isinstance(obj, (np.ndarray, Array)):
        indices = indices.astype(np.intp)
    indices[indices < 0] += N
    numnew = len(indices)
    order = indices.argsort(kind="mergesort")
    indices[order] += np.arange(numnew)
    old_mask = np.ones(N + numnew, dtype=bool)
    old_mask[indices] = False
    source = np.empty(N + numnew, dtype=np.intp)  # where each entry of the result comes from
    source[indices] = N + np.arange(numnew)
    source[old_mask] = np.arange(N)
    shape = arr.shape[:axis] + (numnew,) + arr.shape[axis + 1:]
    values = _values_as(values, arr.dtype)  # after the index checks, as in NumPy
    joined = manipulation.concatenate([arr, shapes.broadcast_to(values, shape)], axis=axis)
    return indexing.take(joined, source, axis=axis)


def _values_as(values, dtype) -> Array:
    """insert's `values` in the array's dtype (NumPy's conversion and its errors)."""
    return (elementwise.astype(values, dtype) if isinstance(values, Array)
            else creation.asarray(values, dtype=dtype))


@export
def resize(a, new_shape):
    """`a` flattened, repeated as needed and cut to `new_shape` (NumPy's resize)."""
    if isinstance(new_shape, (int, np.integer)):
        new_shape = (new_shape,)
    a = shapes.ravel(a)
    if any(operator.index(n) < 0 for n in new_shape):
        raise ValueError("all elements of `new_shape` must be non-negative")
    new_shape = as_shape(new_shape, "resize")
    new_size = math.prod(new_shape)
    if a.size == 0 or new_size == 0:
        return creation.zeros(new_shape, a.dtype)
    repeats = -(-new_size // a.size)
    return shapes.reshape(manipulation.concatenate((a,) * repeats)[:new_size], new_shape)


@export
def trim_zeros(filt, trim="fb", axis=None):
    """`filt` without its leading and/or trailing zeros (NumPy's trim_zeros; the values
    decide the shape, so they are read)."""
    trim = trim.lower()
    if trim not in {"fb", "bf", "f", "b"}:
        raise ValueError(f"unexpected character(s) in `trim`: {trim!r}")
    ndim = shapes.ndim(filt)
    if axis is None:
        axes = tuple(range(ndim))
    else:
        axes = np.lib.array_utils.normalize_axis_tuple(axis, ndim, argname="axis")
    if not axes:
        return filt
    nonzero = np.argwhere(host_array(filt, "shape"))
    if nonzero.size == 0:
        start = stop = np.zeros(ndim, dtype=np.intp)
    else:
        start, stop = nonzero.min(axis=0), nonzero.max(axis=0) + 1
        if "f" not in trim:
            start = (None,) * ndim
        if "b" not in trim:
            stop = (None,) * ndim
    sl = tuple(slice(start[ax], stop[ax]) if ax in axes else slice(None)
               for ax in range(ndim))
    return filt[sl[0]] if len(sl) == 1 else filt[sl]


@export
def rollaxis(a, axis, start=0):
    """`a` with `axis` rolled back to position `start` (NumPy's rollaxis)."""
    a = creation.asarray(a)
    n = a.ndim
    axis = normalize_axis(axis, n, "rollaxis")
    start = operator.index(start)
    if start < 0:
        start += n
    if not 0 <= start < n + 1:
        raise AxisError(f"'start' arg requires {-n} <= start < {n + 1}, but {start} was "
                        "passed in")
    if axis < start:
        start -= 1
    if axis == start:
        return a[...]
    axes = list(range(n))
    axes.remove(axis)
    axes.insert(start, axis)
    return shapes.transpose(a, axes)


# ---------------------------------------------------------------------------------
# Index arrays.

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
def indices(dimensions, dtype=int, sparse=False):
    """The grid of indices of an array of shape `dimensions` (NumPy's indices)."""
    dimensions = tuple(dimensions)
    N = len(dimensions)
    grids = []
    for i, dim in enumerate(dimensions):
        shape = (1,) * i + (dim,) + (1,) * (N - i - 1)
        idx = shapes.reshape(creation.arange(dim, dtype=dtype), shape)
        grids.append(idx if sparse else shapes.broadcast_to(idx, dimensions))
    if sparse:
        return tuple(grids)
    if not grids:
        return creation.zeros((0,), dtype=dtype)
    return manipulation.stack(grids)


@export
def fromfunction(function, shape, *, dtype=float, like=None, **kwargs):
    """`function` called on the index grids of `shape` (NumPy's fromfunction)."""
    return function(*indices(shape, dtype=dtype), **kwargs)


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


# ---------------------------------------------------------------------------------
# Bits.

def _bit_weights(bitorder: str, dtype) -> Array:
    if bitorder not in ("big", "little"):
        raise ValueError("'order' must be either 'little' or 'big'")
    shifts = np.arange(8) if bitorder == "little" else np.arange(7, -1, -1)
    return creation.asarray(shifts.astype(dtype))


def _bits_axis(a: Array, axis, func: str):
    """(a, axis): None flattens, and a 0-d `a` counts as 1-d (NumPy's axis check)."""
    if axis is None or a.ndim == 0:
        a = shapes.ravel(a)
    return a, 0 if axis is None else normalize_axis(axis, a.ndim, func)


@export
def packbits(a, /, axis=None, bitorder="big"):
    """The elements of `a` (as bits: nonzero or zero) packed into uint8 along `axis`
    (NumPy's packbits)."""
    shifts = _bit_weights(bitorder, np.uint8)
    a = creation.asarray(a)
    if a.dtype.kind not in "biu":
        raise TypeError("Expected an input array of integer or boolean data type")
    a, axis = _bits_axis(a, axis, "packbits")
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
    a, axis = _bits_axis(a, axis, "unpackbits")
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


# ---------------------------------------------------------------------------------
# Sequences and windows.

@export
def geomspace(start, stop, num=50, endpoint=True, dtype=None, axis=0):
    """Numbers spaced evenly on a log scale between `start` and `stop` (NumPy's
    geomspace; lazy endpoints are read for NumPy's zero check)."""
    start, stop = creation.asarray(start), creation.asarray(stop)
    if np.any(host_array(start, "control") == 0) or np.any(host_array(stop, "control") == 0):
        raise ValueError("Geometric sequence cannot include zero")
    dt = _dtypes.result_type(start, stop, float(num), np.zeros((), dtype))
    dtype = dt if dtype is None else np.dtype(dtype)
    start, stop = elementwise.astype(start, dt), elementwise.astype(stop, dt)
    out_sign = elementwise.sign(start)
    start = start / out_sign
    stop = stop / out_sign
    result = creation.logspace(elementwise.log10(start), elementwise.log10(stop), num=num,
                               endpoint=endpoint, base=10.0, dtype=dt)
    if num > 0:
        result[0] = start
        if num > 1 and endpoint:
            result[-1] = stop
    result *= out_sign
    if axis != 0:
        result = shapes.moveaxis(result, 0, axis)
    return elementwise.astype(result, dtype)


def _window(M, formula):
    """NumPy's window head: M as float64; empty below 1, [1.] at 1; else formula(n, M)."""
    values = np.array([0.0, M])
    M = values[1]
    if M < 1:
        return creation.asarray(np.array([], dtype=values.dtype))
    if M == 1:
        return creation.ones(1, dtype=values.dtype)
    return formula(creation.arange(1 - M, M, 2), M)


@export
def bartlett(M):
    """The Bartlett (triangular) window (NumPy's)."""
    return _window(M, lambda n, M: indexing.where(elementwise.less_equal(n, 0), 1 + n / (M - 1),
                                             1 - n / (M - 1)))


@export
def blackman(M):
    """The Blackman window (NumPy's)."""
    return _window(M, lambda n, M: 0.42 + 0.5 * elementwise.cos(np.pi * n / (M - 1))
                   + 0.08 * elementwise.cos(2.0 * np.pi * n / (M - 1)))


@export
def hamming(M):
    """The Hamming window (NumPy's)."""
    return _window(M, lambda n, M: 0.54 + 0.46 * elementwise.cos(np.pi * n / (M - 1)))


@export
def hanning(M):
    """The Hann window (NumPy's)."""
    return _window(M, lambda n, M: 0.5 + 0.5 * elementwise.cos(np.pi * n / (M - 1)))


@export
def kaiser(M, beta):
    """The Kaiser window (NumPy's)."""
    values = np.array([0.0, M, beta])
    M, beta = values[1], values[2]
    if M == 1:
        return creation.ones(1, dtype=values.dtype)
    n = creation.arange(0, M)
    alpha = (M - 1) / 2.0
    return i0(beta * elementwise.sqrt(1 - ((n - alpha) / alpha) ** 2.0)) / i0(beta)
