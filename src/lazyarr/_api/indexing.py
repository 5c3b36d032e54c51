"""Indexing: `x[key]` for every key NumPy accepts, `take`, `take_along_axis`, and the
functions whose result shape depends on data (`nonzero`, `argwhere`, `compress`).

Basic indices (integers, slices, `...`, `None`) become one `slice` and one `reshape`.
Integer-array indices become one `take` on the advanced axes merged into one (so the
XLA backend gets one gather). Boolean masks decide the result's shape, so they are
materialized (a flush with cause "shape") and continue as integer indices. Indices
known on the host are bounds-checked at once; lazy ones by a `normalize_index` node,
which raises IndexError when the program runs.
"""

from __future__ import annotations

import math
import operator

import numpy as np

from .. import _dtypes, _flush
from .._ops import broadcast_shapes
from . import export
from .common import (Array, apply, as_array, astype, leaf, normalize_axis, reshape_node,
                     transpose_node, wrap)
from .elementwise import add, multiply

_INVALID_INDEX = ("only integers, slices (`:`), ellipsis (`...`), numpy.newaxis (`None`) "
                  "and integer or boolean arrays are valid indices")


def _host_index(value: np.ndarray) -> np.ndarray:
    if value.dtype.kind not in "biu":
        if value.size == 0 and value.dtype.kind == "f":
            return value.astype(np.int64)  # x[[]] is an empty integer index
        raise IndexError("arrays used as indices must be of integer (or boolean) type")
    return value


def _classify(entry):
    """One key entry as ('none'|'ellipsis'|'slice'|'int'|'array'|'mask', payload)."""
    if entry is None:
        return ("none", None)
    if entry is Ellipsis:
        return ("ellipsis", None)
    if isinstance(entry, slice):
        return ("slice", entry)
    if isinstance(entry, (bool, np.bool_)):
        return ("mask", np.asarray(entry))
    if isinstance(entry, Array):
        if _dtypes.is_bool(entry.dtype):
            return ("mask", entry)
        if not _dtypes.is_integer(entry.dtype):
            raise IndexError("arrays used as indices must be of integer (or boolean) type")
        return ("array", entry)
    if isinstance(entry, (int, np.integer)):
        return ("int", operator.index(entry))
    if isinstance(entry, (list, tuple, np.ndarray)):
        if isinstance(entry, (list, tuple)) and any(isinstance(e, Array) for e in entry):
            return _classify(as_array(entry))
        value = _host_index(np.asarray(entry))
        return ("mask", value) if value.dtype.kind == "b" else ("array", value)
    try:
        return ("int", operator.index(entry))
    except TypeError:
        raise IndexError(_INVALID_INDEX) from None


def _expand(x: Array, key) -> list[tuple[str, object]]:
    """Classified entries with the ellipsis expanded and masks turned into integer
    index arrays (materializing lazy masks), one entry per indexed axis."""
    entries = [_classify(e) for e in (key if isinstance(key, tuple) else (key,))]
    if sum(kind == "ellipsis" for kind, _ in entries) > 1:
        raise IndexError("an index can only have a single ellipsis ('...')")
    consumed = sum(1 if kind in ("slice", "int", "array") else
                   p.ndim if kind == "mask" else 0 for kind, p in entries)
    if consumed > x.ndim:
        raise IndexError(f"too many indices for array: array is {x.ndim}-dimensional, "
                         f"but {consumed} were indexed")
    fill = [("slice", slice(None))] * (x.ndim - consumed)
    if not any(kind == "ellipsis" for kind, _ in entries):
        entries.append(("ellipsis", None))
    expanded, axis = [], 0
    for kind, payload in entries:
        if kind == "ellipsis":
            expanded.extend(fill)
            axis += len(fill)
        elif kind == "mask":
            expanded.extend(_mask_to_indices(x, payload, axis))
            axis += payload.ndim
        else:
            expanded.append((kind, payload))
            axis += kind != "none"
    return expanded


def _mask_to_indices(x: Array, mask, axis: int) -> list[tuple[str, object]]:
    if isinstance(mask, Array):
        mask = np.asarray(_flush.to_numpy(mask._node, "shape"))
    if mask.ndim == 0:  # x[True] adds an axis of length 1, x[False] of length 0
        return [("newaxis_pick", np.zeros(int(mask), np.int64))]
    for k, n in enumerate(mask.shape):
        if x.shape[axis + k] != n:
            raise IndexError(f"boolean index did not match indexed array along axis "
                             f"{axis + k}; size of axis is {x.shape[axis + k]} but size of "
                             f"corresponding boolean axis is {n}")
    return [("array", idx) for idx in np.nonzero(mask)]


def _check_host(index: np.ndarray, size: int, axis: int) -> np.ndarray:
    bad = (index < -size) | (index >= size)
    if bad.any():
        raise IndexError(f"index {int(index[bad].flat[0])} is out of bounds for axis {axis} "
                         f"with size {size}")
    return np.where(index < 0, index + size, index).astype(np.int64)


def _index_node(index, size: int, axis: int):
    """A normalized int64 index node: checked now if its values are known, else in the
    program."""
    if isinstance(index, Array) and index._node.is_computed:
        index = np.asarray(index._node.value)
    if isinstance(index, np.ndarray):
        value = _check_host(index, size, axis)
        return leaf(value, value.shape, value.dtype)
    node = astype(index, np.int64)._node
    return apply("normalize_index", node, size=size, axis=axis)


def getitem(x, key) -> Array:
    """`x[key]` with NumPy's basic and advanced indexing rules."""
    x = as_array(x)
    entries = _expand(x, key)
    if any(kind in ("array", "newaxis_pick") for kind, _ in entries):
        return _advanced(x, entries)
    return _basic(x, entries, scalar=not any(e is Ellipsis for e in (
        key if isinstance(key, tuple) else (key,))))


def _basic(x: Array, entries, scalar: bool) -> Array:
    starts, stops, steps, out_shape = [], [], [], []
    axis = 0
    for kind, payload in entries:
        if kind == "none":
            out_shape.append(1)
            continue
        n = x.shape[axis]
        if kind == "int":
            if not -n <= payload < n:
                raise IndexError(f"index {payload} is out of bounds for axis {axis} "
                                 f"with size {n}")
            i = payload % n
            starts.append(i), stops.append(i + 1), steps.append(1)
        else:
            start, stop, step = payload.indices(n)
            starts.append(start), stops.append(stop), steps.append(step)
            out_shape.append(len(range(start, stop, step)))
        axis += 1
    node = x._node
    if tuple(starts) != (0,) * x.ndim or tuple(stops) != x.shape or set(steps) - {1}:
        node = apply("slice", node, starts=tuple(starts), stops=tuple(stops),
                     steps=tuple(steps))
    return wrap(reshape_node(node, tuple(out_shape)), scalar)


def _advanced(x: Array, entries) -> Array:
    # Slices first (a basic index on every axis that has one), then one take.
    slice_entries = [(k, p) if k == "slice" else ("slice", slice(None))
                     for k, p in entries if k not in ("none", "newaxis_pick")]
    sliced = _basic(x, slice_entries, scalar=False) if slice_entries else x
    if any(k == "newaxis_pick" for k, _ in entries):
        sliced = wrap(reshape_node(sliced._node, _with_new_axes(sliced.shape, entries)))
        entries = [("array", p) if k == "newaxis_pick" else ("slice", slice(None))
                   if k == "none" else (k, p) for k, p in entries]
    adv_axes, indices, rest_axes, layout = [], [], [], []
    axis = 0
    for kind, payload in entries:
        if kind == "none":
            layout.append("new")
            continue
        if kind in ("int", "array"):
            adv_axes.append(axis)
            indices.append(np.asarray(payload) if kind == "int" else payload)
            layout.append("adv")
        else:
            rest_axes.append(axis)
            layout.append(("rest", len(rest_axes) - 1))
        axis += 1
    try:
        index_shape = broadcast_shapes(*(np.shape(i) if isinstance(i, np.ndarray) else i.shape
                                         for i in indices))
    except ValueError:
        shapes = " ".join(str(tuple(np.shape(i))) for i in indices)
        raise IndexError("shape mismatch: indexing arrays could not be broadcast together "
                         f"with shapes {shapes}") from None
    sizes = [sliced.shape[a] for a in adv_axes]
    nodes = [_index_node(i, n, a) for i, n, a in zip(indices, sizes, adv_axes)]
    flat = _flat_index(nodes, sizes, index_shape)
    moved = transpose_node(sliced._node, tuple(adv_axes + rest_axes))
    merged = reshape_node(moved, (math.prod(sizes),) + tuple(sliced.shape[a] for a in rest_axes))
    taken = apply("take", merged, flat, axis=0)
    return wrap(_place(taken, layout, len(index_shape), len(rest_axes)))


def _with_new_axes(shape, entries) -> tuple:
    """`shape` with a length-1 axis where each x[True]/x[False] added one."""
    out, axis = [], 0
    for kind, _ in entries:
        if kind in ("none", "newaxis_pick"):
            out.append(1)
        else:
            out.append(shape[axis])
            axis += 1
    return tuple(out)


def _flat_index(nodes, sizes, index_shape):
    """Row-major flat index over the advanced axes, broadcast to `index_shape`."""
    if all(n.op.name == "input" for n in nodes):  # known on the host: compute it there
        values = [np.broadcast_to(np.asarray(n.value), index_shape) for n in nodes]
        flat = np.ravel_multi_index(values, sizes) if values and math.prod(sizes) else \
            np.zeros(index_shape, np.int64)
        flat = np.asarray(flat, np.int64)
        return leaf(flat, flat.shape, flat.dtype)
    flat = None
    stride = 1
    for node, n in reversed(list(zip(nodes, sizes))):
        term = multiply(wrap(node), stride) if stride != 1 else wrap(node)
        flat = term if flat is None else add(flat, term)
        stride *= n
    node = flat._node
    return node if node.shape == index_shape else apply("broadcast_to", node,
                                                        shape=index_shape)


def _place(taken, layout, n_index_dims: int, n_rest: int):
    """Move the index dimensions where NumPy puts them and insert the None axes."""
    adv_positions = [i for i, item in enumerate(layout) if item == "adv"]
    adjacent = adv_positions == list(range(adv_positions[0], adv_positions[-1] + 1))
    index_dims = list(range(n_index_dims))
    order, final_shape = [], []
    if not adjacent:
        order += index_dims
    placed = not adjacent
    for item in layout:
        if item == "adv":
            if not placed:
                order += index_dims
                placed = True
        elif item != "new":
            order.append(n_index_dims + item[1])
    node = transpose_node(taken, tuple(order))
    placed = not adjacent
    dims = iter(node.shape)
    if not adjacent:
        final_shape += [next(dims) for _ in index_dims]
    for item in layout:
        if item == "new":
            final_shape.append(1)
        elif item == "adv":
            if not placed:
                final_shape += [next(dims) for _ in index_dims]
                placed = True
        else:
            final_shape.append(next(dims))
    return reshape_node(node, tuple(final_shape))


# ----- functions whose result shape depends on data --------------------------------

def _host_value(a) -> np.ndarray:
    """The values of `a` on the host (a flush with cause "shape" if lazy)."""
    if isinstance(a, Array):
        return np.asarray(_flush.to_numpy(a._node, "shape"))
    return np.asarray(a)


def _index_leaf(value: np.ndarray) -> Array:
    value = np.asarray(value, dtype=np.int64)
    return wrap(leaf(value, value.shape, value.dtype), scalar=False)


@export
def nonzero(a):
    """Indices of the non-zero elements, one array per axis (materializes `a`)."""
    return tuple(_index_leaf(i) for i in np.nonzero(_host_value(a)))


@export
def argwhere(a):
    return _index_leaf(np.argwhere(_host_value(a)))


@export
def flatnonzero(a):
    return _index_leaf(np.flatnonzero(_host_value(a)))


@export
def compress(condition, a, axis=None, out=None):
    """The slices of `a` along `axis` where `condition` is true."""
    cond = _host_value(condition)
    if cond.ndim != 1:
        raise ValueError("condition must be a 1-d array")
    return take(a, np.flatnonzero(cond), axis=axis)


@export
def extract(condition, arr):
    return take(as_array(arr).reshape(-1), np.flatnonzero(_host_value(condition)))


# ----- take ------------------------------------------------------------------------

@export
def take(a, indices, axis=None, out=None, mode="raise"):
    """Elements of `a` at `indices` along `axis` (the flattened array if None)."""
    x = as_array(a)
    if axis is None:
        x, axis = wrap(reshape_node(x._node, (x.size,))), 0
    axis = normalize_axis(axis, x.ndim, "take")
    n = x.shape[axis]
    index = indices if isinstance(indices, Array) else _host_index(np.asarray(indices))
    if mode == "wrap" or mode == "clip":
        if n == 0:
            raise IndexError("cannot do a non-empty take from an empty axes.")
        index = as_array(index)
        from .elementwise import clip, remainder
        index = remainder(index, n) if mode == "wrap" else clip(index, 0, n - 1)
        node = astype(index, np.int64)._node
    elif mode == "raise":
        node = _index_node(index, n, axis)
    else:
        raise ValueError(f"take: clipmode must be one of 'clip', 'raise', or 'wrap', "
                         f"not {mode!r}")
    return wrap(apply("take", x._node, node, axis=axis))


@export
def take_along_axis(arr, indices, axis):
    """Pick values along `axis` with an index array of the same rank (NumPy's rules)."""
    x = as_array(arr)
    idx = indices if isinstance(indices, Array) else _host_index(np.asarray(indices))
    if not _dtypes.is_integer(idx.dtype):
        raise IndexError("`indices` must be an integer array")
    if axis is None:
        x, axis = wrap(reshape_node(x._node, (x.size,))), 0
    if idx.ndim != x.ndim:
        raise ValueError("`indices` and `arr` must have the same number of dimensions")
    axis = normalize_axis(axis, x.ndim, "take_along_axis")
    shape = broadcast_shapes(x.shape[:axis] + (1,) + x.shape[axis + 1:],
                             idx.shape[:axis] + (1,) + idx.shape[axis + 1:])
    shape = shape[:axis] + (idx.shape[axis],) + shape[axis + 1:]
    along = _index_node(idx, x.shape[axis], axis)
    flat = None
    stride = 1
    for d in reversed(range(x.ndim)):
        coord = (wrap(apply("broadcast_to", along, shape=shape)) if d == axis else
                 wrap(apply("iota", shape=shape, dtype=_dtypes.int64, axis=d)))
        term = multiply(coord, stride) if stride != 1 else coord
        flat = term if flat is None else add(flat, term)
        stride *= x.shape[d]
    return wrap(apply("take", reshape_node(x._node, (x.size,)), flat._node, axis=0))
