"""Array manipulation: joining (concatenate, stack, block), splitting, tiling, adding
and removing elements (append, delete, insert, resize, trim_zeros), flipping and
rolling (reshaping, transposing and broadcasting are in `shapes`, pad in `padding`).

Everything here moves data without changing it, so each function checks its
arguments at the call (NumPy's exception types and messages), then composes the
structural primitives: reshape, transpose, slice, concatenate, broadcast_to and take.
Reshapes to the same shape and identity transposes add no node.
"""

from __future__ import annotations

import itertools
import math
import operator
import warnings

import numpy as np

from .. import _dtypes
from .._errors import user_stacklevel
from . import export
from .common import (along_axis, apply, Array, as_array, as_ndarray, as_shape, astype,
                     axis_sequence, broadcast_node, concatenate_nodes, full_node, host,
                     host_array, index_arg, int_tuple, leaf, normalize_axis,
                     normalize_axis_tuple, reshape_node, slice_node, slices_node,
                     take_index_node, wrap, write_out)
from .indexing import take
from .shapes import (broadcast_to, expand_dims, moveaxis, ndim as ndim_of, ravel, reshape,
                     transpose)

_CASTINGS = ("no", "equiv", "safe", "same_kind", "unsafe")


# ----- joining --------------------------------------------------------------------

def _as_arrays(arrays, func: str) -> list[Array]:
    if isinstance(arrays, Array):
        if arrays.ndim == 0:
            raise TypeError(f"{func}: iteration over a 0-d array")
        return [wrap(n, False) for n in _parts(arrays._node, 0)]
    try:
        items = list(arrays)
    except TypeError:
        raise TypeError(f"{func}: expected a sequence of arrays, got "
                        f"{type(arrays).__name__}") from None
    if not items:
        raise ValueError(f"{func}: need at least one array to concatenate")
    return [as_array(a) for a in items]


def _parts(node, axis: int) -> list:
    """The sub-arrays of `node` along `axis`, that axis removed."""
    return [take_index_node(node, i, axis) for i in range(node.shape[axis])]


def _join_dtype(xs: list[Array], dtype, casting: str, func: str) -> np.dtype:
    if casting not in _CASTINGS:
        raise ValueError(f"{func}: casting must be one of 'no', 'equiv', 'safe', "
                         f"'same_kind', 'unsafe' (got {casting!r})")
    dt = _dtypes.result_type(*xs) if dtype is None else _dtypes.as_dtype(dtype)
    for x in xs:
        if not np.can_cast(x.dtype, dt, casting):
            raise TypeError(f"{func}: Cannot cast array data from {x.dtype!r} to {dt!r} "
                            f"according to the rule {casting!r}")
    return dt


@export(names=("concat",))
def concatenate(arrays, /, axis=0, out=None, *, dtype=None, casting="same_kind"):
    """The arrays joined along an existing axis (flattened first when `axis` is None)."""
    func = "concatenate"
    if out is not None and dtype is not None:
        raise TypeError("concatenate() only takes `out` or `dtype` as an argument, but "
                        "both were provided.")
    xs = _as_arrays(arrays, func)
    if axis is None:
        xs = [ravel(x) for x in xs]
        axis = 0
    axis = index_arg(axis, "axis", func)
    first = xs[0]
    if first.ndim == 0:
        raise ValueError(f"{func}: zero-dimensional arrays cannot be concatenated")
    axis = normalize_axis(axis, first.ndim, func)
    for k, x in enumerate(xs[1:], 1):
        if x.ndim != first.ndim:
            raise ValueError(f"{func}: all the input arrays must have same number of "
                             f"dimensions, but the array at index 0 has {first.ndim} "
                             f"dimension(s) and the array at index {k} has {x.ndim} "
                             f"dimension(s)")
        for d, (m, n) in enumerate(zip(first.shape, x.shape)):
            if d != axis and m != n:
                raise ValueError(f"{func}: all the input array dimensions except for the "
                                 f"concatenation axis must match exactly, but along "
                                 f"dimension {d}, the array at index 0 has size {m} and "
                                 f"the array at index {k} has size {n}")
    if out is None:
        dt = _join_dtype(xs, dtype, casting, func)
        return wrap(concatenate_nodes([astype(x, dt)._node for x in xs], axis), False)
    if not isinstance(out, Array):
        raise TypeError(f"{func}: out= must be a lazyarr array, not {type(out).__name__}")
    shape = first.shape[:axis] + (sum(x.shape[axis] for x in xs),) + first.shape[axis + 1:]
    if out.shape != shape:
        raise ValueError(f"{func}: Output array is the wrong shape ({out.shape}, not {shape})")
    return write_out(out, concatenate(xs, axis, dtype=out.dtype, casting=casting), func)


concat = concatenate


def _sequence(arrays, func: str):
    """NumPy's TypeError for a non-sequence (a generator) given to a stacking function."""
    if not hasattr(arrays, "__getitem__"):
        raise TypeError(f'{func}: arrays to stack must be passed as a "sequence" type such '
                        f'as list or tuple.')
    return arrays


@export
def stack(arrays, axis=0, out=None, *, dtype=None, casting="same_kind"):
    """The arrays, all of one shape, joined along a new axis."""
    xs = [as_array(a) for a in _sequence(arrays, "stack")]
    if not xs:
        raise ValueError("stack: need at least one array to stack")
    if len({x.shape for x in xs}) != 1:
        raise ValueError("stack: all input arrays must have the same shape, got "
                         + ", ".join(str(x.shape) for x in xs))
    axis = normalize_axis(axis, xs[0].ndim + 1, "stack")
    expanded = [expand_dims(x, axis) for x in xs]
    return concatenate(expanded, axis=axis, out=out, dtype=dtype, casting=casting)


def _atleast(arys: tuple, ndim: int):
    """atleast_1d/2d/3d: each array with length-1 axes added to reach `ndim` dims."""
    results = []
    for a in arys:
        x = as_array(a)
        if x.ndim < ndim:
            # 0-d -> (1,)*ndim; 1-d (n,) -> (1, n[, 1]); 2-d (m, n) -> (m, n, 1).
            shape = {0: (1,) * ndim, 1: (1,) + x.shape + (1,) * (ndim - 2),
                     2: x.shape + (1,)}[x.ndim]
            # A view of the input, as NumPy's (a NumPy scalar gives a new array).
            x = x._view_by(lambda v, shape=shape: reshape_node(v._node, shape),
                           lambda p, s: np.reshape(p, s, copy=False))
        results.append(x)
    return results[0] if len(results) == 1 else tuple(results)


@export
def atleast_1d(*arys):
    """Each input as an array of at least one dimension."""
    return _atleast(arys, 1)


@export
def atleast_2d(*arys):
    """Each input as an array of at least two dimensions (1-d becomes a row)."""
    return _atleast(arys, 2)


@export
def atleast_3d(*arys):
    """Each input with at least three dimensions ((n,) -> (1, n, 1), (m, n) -> (m, n, 1))."""
    return _atleast(arys, 3)


def _atleast_list(tup, ndim: int, func: str) -> list:
    arrs = _atleast(tuple(_sequence(tup, func)), ndim)
    return list(arrs) if isinstance(arrs, tuple) else [arrs]


@export
def hstack(tup, *, dtype=None, casting="same_kind"):
    """Join along the second axis (the first for 1-d arrays)."""
    arrs = _atleast_list(tup, 1, "hstack")
    axis = 0 if arrs and arrs[0].ndim == 1 else 1
    return concatenate(arrs, axis, dtype=dtype, casting=casting)


@export
def vstack(tup, *, dtype=None, casting="same_kind"):
    """Join along the first axis, 1-d arrays taken as rows."""
    return concatenate(_atleast_list(tup, 2, "vstack"), 0, dtype=dtype, casting=casting)


@export
def row_stack(tup, *, dtype=None, casting="same_kind"):
    """NumPy's deprecated alias of `vstack`, with its DeprecationWarning."""
    warnings.warn("`row_stack` alias is deprecated. Use `np.vstack` directly.",
                  DeprecationWarning, stacklevel=user_stacklevel())
    return vstack(tup, dtype=dtype, casting=casting)


@export
def dstack(tup):
    """Join along the third axis, after `atleast_3d`."""
    return concatenate(_atleast_list(tup, 3, "dstack"), 2)


@export
def column_stack(tup):
    """Join 1-d arrays as columns (and 2-d arrays as they are) along the second axis."""
    arrays = []
    for a in _sequence(tup, "column_stack"):
        x = as_array(a)
        if x.ndim < 2:
            x = wrap(reshape_node(x._node, (x.size, 1)), False)
        arrays.append(x)
    return concatenate(arrays, 1)


@export
def append(arr, values, axis=None):
    """`values` appended to `arr` (both flattened when `axis` is None)."""
    x = as_array(arr)
    if axis is None:
        return concatenate((ravel(x), ravel(values)), 0)
    return concatenate((x, values), axis)


def _sliced(x: Array, axis: int, sl: slice) -> Array:
    return x[(slice(None),) * axis + (sl,)]


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
    return parent_index, ndim_of(arrays)


def _block_format(index) -> str:
    return "arrays" + "".join(f"[{i}]" for i in index)


def _block_assemble(arrays, list_ndim: int, result_ndim: int, depth: int) -> Array:
    if depth < list_ndim:
        parts = [_block_assemble(a, list_ndim, result_ndim, depth + 1) for a in arrays]
        return concatenate(parts, axis=-(list_ndim - depth))
    x = as_ndarray(arrays)
    return reshape(x, (1,) * (result_ndim - x.ndim) + x.shape)


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


# ----- adding and removing elements ----------------------------------------------

@export
def delete(arr, obj, axis=None):
    """`arr` without the entries `obj` along `axis` (NumPy's delete)."""
    arr, axis = along_axis(as_ndarray(arr), axis, "delete")
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
    return take(arr, np.flatnonzero(keep), axis=axis)


@export
def insert(arr, obj, values, axis=None):
    """`arr` with `values` inserted before the indices `obj` along `axis` (NumPy's
    insert)."""
    arr, axis = along_axis(as_ndarray(arr), axis, "insert")
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
        values = reshape(values, (1,) * (arr.ndim - values.ndim) + values.shape)
        if indices.ndim == 0:
            values = moveaxis(values, 0, axis)
        shape = arr.shape[:axis] + (values.shape[axis],) + arr.shape[axis + 1:]
        parts = [_sliced(arr, axis, slice(None, index)), broadcast_to(values, shape),
                 _sliced(arr, axis, slice(index, None))]
        return concatenate(parts, axis=axis)
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
    joined = concatenate([arr, broadcast_to(values, shape)], axis=axis)
    return take(joined, source, axis=axis)


def _values_as(values, dtype) -> Array:
    """insert's `values` in the array's dtype (NumPy's conversion and its errors)."""
    return (astype(values, dtype) if isinstance(values, Array)
            else as_ndarray(values, dtype=dtype))


@export
def resize(a, new_shape):
    """`a` flattened, repeated as needed and cut to `new_shape` (NumPy's resize)."""
    if isinstance(new_shape, (int, np.integer)):
        new_shape = (new_shape,)
    a = ravel(a)
    if any(operator.index(n) < 0 for n in new_shape):
        raise ValueError("all elements of `new_shape` must be non-negative")
    new_shape = as_shape(new_shape, "resize")
    new_size = math.prod(new_shape)
    if a.size == 0 or new_size == 0:
        return wrap(full_node(0, new_shape, a.dtype), False)
    repeats = -(-new_size // a.size)
    return reshape(concatenate((a,) * repeats)[:new_size], new_shape)


@export
def trim_zeros(filt, trim="fb", axis=None):
    """`filt` without its leading and/or trailing zeros (NumPy's trim_zeros; the values
    decide the shape, so they are read)."""
    trim = trim.lower()
    if trim not in {"fb", "bf", "f", "b"}:
        raise ValueError(f"unexpected character(s) in `trim`: {trim!r}")
    ndim = ndim_of(filt)
    if axis is None:
        axes = tuple(range(ndim))
    else:
        axes = normalize_axis_tuple(axis, ndim, "trim_zeros")
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



# ----- splitting ------------------------------------------------------------------

def _split_points(n: int, indices_or_sections, func: str) -> list[int]:
    """Boundaries [0, ..., n] of the pieces, as NumPy's array_split computes them."""
    indices_or_sections = host(indices_or_sections)
    try:
        return [0] + list(indices_or_sections) + [n]
    except TypeError:
        sections = int(indices_or_sections)
    if sections <= 0:
        raise ValueError(f"{func}: number sections must be larger than 0.")
    each, extras = divmod(n, sections)
    sizes = [each + 1] * extras + [each] * (sections - extras)
    return [0] + list(itertools.accumulate(sizes))


@export
def array_split(ary, indices_or_sections, axis=0):
    """Split into sub-arrays along `axis`: N nearly equal sections, or at indices."""
    x = as_array(ary)
    n = x.shape[axis]  # IndexError for a bad axis, as NumPy
    axis = normalize_axis(axis, x.ndim, "array_split")
    points = _split_points(n, indices_or_sections, "array_split")
    return [wrap(slice_node(x._node, axis, index_arg(start, "split index", "array_split"),
                             index_arg(stop, "split index", "array_split")), False)
            for start, stop in zip(points[:-1], points[1:])]


@export
def split(ary, indices_or_sections, axis=0):
    """Split into equal sections (ValueError if they cannot be equal), or at indices."""
    x = as_array(ary)
    sections = host(indices_or_sections)
    try:
        len(sections)
    except TypeError:
        if x.shape[axis] % sections:
            raise ValueError("split: array split does not result in an equal division "
                             f"({x.shape[axis]} into {sections})") from None
    return array_split(x, sections, axis)


def _split_along(ary, indices_or_sections, func: str, min_ndim: int, axis_of):
    x = as_array(ary)
    if x.ndim < min_ndim:
        raise ValueError(f"{func} only works on arrays of {min_ndim} or more dimensions")
    return split(x, indices_or_sections, axis_of(x.ndim))


@export
def hsplit(ary, indices_or_sections):
    """`split` along the second axis (the first for 1-d arrays)."""
    return _split_along(ary, indices_or_sections, "hsplit", 1, lambda nd: 1 if nd > 1 else 0)


@export
def vsplit(ary, indices_or_sections):
    """`split` along the first axis of an array of 2 or more dimensions."""
    return _split_along(ary, indices_or_sections, "vsplit", 2, lambda nd: 0)


@export
def dsplit(ary, indices_or_sections):
    """`split` along the third axis of an array of 3 or more dimensions."""
    return _split_along(ary, indices_or_sections, "dsplit", 3, lambda nd: 2)


@export
def unstack(x, /, *, axis=0):
    """The sub-arrays along `axis`, as a tuple."""
    x = as_array(x)
    if x.ndim == 0:
        raise ValueError("unstack: Input array must be at least 1-d.")
    axis = normalize_axis(axis, x.ndim, "unstack")
    return tuple(wrap(n) for n in _parts(x._node, axis))


# ----- tiling and repeating -------------------------------------------------------

def _repeat_axes(node, reps: tuple):
    """Each axis k of `node` repeated reps[k] times as whole blocks (NumPy's tile):
    (s0, s1) -> (1, s0, 1, s1) -> broadcast (r0, s0, r1, s1) -> (r0*s0, r1*s1)."""
    shape = node.shape
    if all(r == 1 for r in reps):
        return node
    interleaved = tuple(n for s in shape for n in (1, s))
    spread = tuple(n for r, s in zip(reps, shape) for n in (r, s))
    node = broadcast_node(reshape_node(node, interleaved), spread)
    return reshape_node(node, tuple(r * s for r, s in zip(reps, shape)))


@export
def tile(A, reps):
    """`A` repeated as whole blocks `reps` times along each axis."""
    x = as_array(A)
    try:
        reps = tuple(host(reps))
    except TypeError:
        reps = (reps,)
    if not all(r == 1 for r in reps):
        reps = tuple(index_arg(r, "reps", "tile") for r in reps)
        if any(r < 0 for r in reps):
            raise ValueError(f"tile: negative dimensions are not allowed: {reps}")
    ones = all(r == 1 for r in reps)
    reps = (1,) * (x.ndim - len(reps)) + tuple(int(r) for r in reps)
    shape = (1,) * (len(reps) - x.ndim) + x.shape
    if not x.size and not ones:
        # NumPy repeats nothing of an empty array: its result is A reshaped, a view
        # (with A's writeable flag).
        out_shape = tuple(n * r for n, r in zip(shape, reps))
        return x._view_by(lambda v: reshape_node(v._node, out_shape),
                          lambda probe, _: probe.reshape(out_shape))
    return wrap(_repeat_axes(reshape_node(x._node, shape), reps), False)


def _repeat_counts(repeats):
    """`repeats` as NumPy converts it: an intp array of at most 1 dimension. Arrays need
    a safe cast; Python values are converted one by one (2.5 -> 2)."""
    if isinstance(repeats, (Array, np.ndarray)):
        dtype = repeats.dtype
        if not np.can_cast(dtype, np.intp, "safe"):
            raise TypeError(f"repeat: Cannot cast array data from {dtype!r} to "
                            f"{np.dtype(np.intp)!r} according to the rule 'safe'")
        counts = np.asarray(host(repeats)).astype(np.intp)
    else:
        counts = np.array(repeats, dtype=np.intp)
    if counts.ndim > 1:
        raise ValueError("repeat: setting an array element with a sequence. The requested "
                         "array would exceed the maximum number of dimension of 1.")
    return counts


@export
def repeat(a, repeats, axis=None):
    """Each element repeated `repeats` times (an int, or one count per element)."""
    x = as_array(a)
    counts = _repeat_counts(repeats)
    if axis is None or x.ndim == 0:
        x = ravel(x)  # NumPy treats a 0-d array as 1-d here
    axis = normalize_axis(0 if axis is None else axis, x.ndim, "repeat")
    n = x.shape[axis]
    if counts.size == 1:
        count = int(counts.reshape(()))
        if count < 0:
            raise ValueError(f"repeat: negative dimensions are not allowed ({count})")
        if count == 1:
            return wrap(x._node, False)
        node = reshape_node(x._node, x.shape[:axis + 1] + (1,) + x.shape[axis + 1:])
        node = broadcast_node(node, x.shape[:axis + 1] + (count,) + x.shape[axis + 1:])
        return wrap(reshape_node(node, x.shape[:axis] + (n * count,) + x.shape[axis + 1:]),
                    False)
    if counts.shape != (n,):
        raise ValueError(f"repeat: operands could not be broadcast together with shape "
                         f"({n},) ({counts.size},)")
    if (counts < 0).any():
        raise ValueError("repeat: repeats may not contain negative values.")
    index = np.repeat(np.arange(n, dtype=np.int64), counts)
    return wrap(apply("take", x._node, leaf(index, index.shape, index.dtype), axis=axis),
                False)


# ----- flipping and rolling -------------------------------------------------------

@export
def flip(m, axis=None):
    """`m` with the order of elements reversed along `axis` (all axes when None)."""
    x = as_array(m)
    axes = range(x.ndim) if axis is None else axis_sequence(axis, x.ndim, "flip")
    flipped = {ax: slice(None, None, -1) for ax in axes if x.shape[ax] > 1}
    if x.ndim == 0:  # NumPy indexes a 0-d array with (): a scalar
        return wrap(x._node)
    # A view, as NumPy's: writes through it (or into `m`) show in both.
    key = tuple(slice(None, None, -1) if ax in axes else slice(None) for ax in range(x.ndim))
    return x._view_by(lambda v: slices_node(v._node, flipped), lambda p, shape: p[key])


@export
def fliplr(m):
    """`m` reversed along its second axis (ValueError below 2 dimensions)."""
    x = as_array(m)
    if x.ndim < 2:
        raise ValueError("fliplr: Input must be >= 2-d.")
    return flip(x, 1)


@export
def flipud(m):
    """`m` reversed along its first axis (ValueError for 0-d input)."""
    x = as_array(m)
    if x.ndim < 1:
        raise ValueError("flipud: Input must be >= 1-d.")
    return flip(x, 0)


def _roll_axis(node, axis: int, offset: int):
    """`node` rolled by `offset` (0 < offset < n) along `axis`: tail then head."""
    shape = node.shape
    cut = shape[axis] - offset
    zeros, ones = (0,) * len(shape), (1,) * len(shape)
    tail = apply("slice", node, starts=zeros[:axis] + (cut,) + zeros[axis + 1:], stops=shape,
                 steps=ones)
    head = apply("slice", node, starts=zeros, stops=shape[:axis] + (cut,) + shape[axis + 1:],
                 steps=ones)
    return apply("concatenate", tail, head, axis=axis)


def _roll_shifts(x, shift, axis) -> dict:
    """{axis: total shift} for NumPy's broadcast pairs of `shift` and `axis`."""
    shift = host(shift)  # a shift is a static slice position
    axes = tuple(normalize_axis(ax, x.ndim, "roll") for ax in int_tuple(axis, "axis", "roll"))
    pairs = np.broadcast(np.asarray(shift, dtype=object), np.asarray(axes, dtype=object))
    if pairs.ndim > 1:
        raise ValueError("roll: 'shift' and 'axis' should be scalars or 1D sequences")
    shifts = dict.fromkeys(range(x.ndim), 0)
    for sh, ax in pairs:
        shifts[ax] += int(sh)
    return shifts


@export
def roll(a, shift, axis=None):
    """Elements shifted cyclically along `axis` (over the flattened array when None);
    shifts on the same axis add up, as NumPy's."""
    x = as_array(a)
    if axis is None:
        return reshape(roll(ravel(x), shift, 0), x.shape)
    if type(shift) is int and type(axis) is int:  # the common case, without np.broadcast
        shifts = {normalize_axis(axis, x.ndim, "roll"): shift}
    else:
        shifts = _roll_shifts(x, shift, axis)
    node = x._node
    for ax, offset in shifts.items():
        offset %= x.shape[ax] or 1
        if offset:
            node = _roll_axis(node, ax, offset)
    return wrap(node, False)


@export
def rot90(m, k=1, axes=(0, 1)):
    """`m` rotated by 90 degrees `k` times in the plane of `axes`, as NumPy's."""
    axes = tuple(axes)
    if len(axes) != 2:
        raise ValueError("rot90: len(axes) must be 2.")
    x = as_array(m)
    if axes[0] == axes[1] or abs(axes[0] - axes[1]) == x.ndim:
        raise ValueError("rot90: Axes must be different.")
    if not all(-x.ndim <= ax < x.ndim for ax in axes):
        raise ValueError(f"rot90: Axes={axes} out of range for array of ndim={x.ndim}.")
    k %= 4
    if k == 0:
        return wrap(x._node, False)
    if k == 2:
        return flip(x, axes)
    perm = list(range(x.ndim))
    perm[axes[0]], perm[axes[1]] = perm[axes[1]], perm[axes[0]]
    if k == 1:
        return transpose(flip(x, axes[1]), perm)
    return flip(transpose(x, perm), axes[1])
