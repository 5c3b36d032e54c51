"""Writing functions: `put`, `put_along_axis`, `place`, `putmask`, `copyto`,
`fill_diagonal`, `ndarray.fill`, `ufunc.at`, jax's functional `x.at[idx]` updates, and
`shares_memory` / `may_share_memory`.

Each writes into a lazyarr array as `x[idx] = v` does: the array is rebound to a new
node (through to its owner for a view), so earlier readers keep the values they read.
A NumPy array given as the target is written by NumPy itself.
"""

from __future__ import annotations

import numpy as np

from .. import _shared
from .._placement import host_array as host_buffer
from .._views import compose, replay, step
from .._ops import broadcast_shapes
from . import elementwise, export
from .common import (apply, Array, as_array, astype, cast_unsafe, check_index, host_array,
                     leaf, normalize_axis, reshape_node, wrap)
from .indexing import (advanced_mismatch, assigned_values, basic_mismatch, fitted_shape,
                       row_updates, setitem, target)

_CASTINGS = ("no", "equiv", "safe", "same_kind", "unsafe")


# ----- memory overlap --------------------------------------------------------------

@export
def shares_memory(a, b, /, max_work=None) -> bool:
    """Whether `a` and `b` share elements, as NumPy answers for the arrays they stand
    for: views of one owner are compared by their exact strided regions; arrays with
    different owners (lazyarr copies NumPy data it is given) never share."""
    return _overlap(np.shares_memory, a, b, max_work)


@export
def may_share_memory(a, b, /, max_work=None) -> bool:
    """NumPy's bounds-only overlap test between views of one owner; False otherwise."""
    return _overlap(np.may_share_memory, a, b, max_work)


def _overlap(test, a, b, max_work) -> bool:
    if not isinstance(a, Array) and not isinstance(b, Array):
        return bool(test(a, b, max_work=max_work))
    if not (isinstance(a, Array) and isinstance(b, Array)):
        # a NumPy array shares memory only with the host buffer an array exported
        lazy, other = (a, b) if isinstance(a, Array) else (b, a)
        if not isinstance(other, np.ndarray) or _shared.buffer_if_exported(lazy) is None:
            return False
        return bool(test(np.asarray(lazy), other, max_work=max_work))
    if a._owner() is not b._owner():
        return False
    return bool(test(a._layout_of().probe, b._layout_of().probe, max_work=max_work))


# ----- writes ----------------------------------------------------------------------

def _numpy_target(func, a, *args, **kwargs) -> None:
    """NumPy's `func` writing into the NumPy array (or the bad target) `a`."""
    func(a, *(np.asarray(x) if isinstance(x, Array) else x for x in args), **kwargs)


def _cycled(values, dtype, count: int):
    """The first `count` elements of `values` (cast as NumPy's assignment casts them)
    repeated as often as needed, NumPy's rule for put, place, putmask and `.flat`; None
    when `values` is empty."""
    if isinstance(values, Array):
        flat = reshape_node(cast_unsafe(values, dtype)._node, (values.size,))
    else:
        host = np.empty(np.shape(values), dtype)
        host[...] = values
        flat = leaf(host.reshape(-1), (host.size,), host.dtype)
    n = flat.shape[0]
    if n == 0:
        return None
    if n == count:
        return flat
    index = np.arange(count, dtype=np.int64) % n
    return apply("take", flat, leaf(index, index.shape, index.dtype), axis=0)


def _flat_steps(a: Array) -> tuple:
    """View steps to `a` flattened in C order (the positions `put` and `.flat` use)."""
    return () if a.ndim == 1 else (step("reshape", shape=(a.size,)),)


def _scatter_flat(a: Array, positions, values, unique: bool) -> None:
    """a.flat[positions] = values (nodes of one length); the last repeat wins."""
    steps = _flat_steps(a)
    a._write_at(steps, apply("scatter", replay(a._node, steps), positions, values,
                             unique=unique))


@export
def put(a, ind, v, mode="raise") -> None:
    """a.flat[ind] = v, with `v` repeated as needed; out-of-range indices raise, wrap
    around or are clipped (`mode`); where indices repeat, the last value wins."""
    if not isinstance(a, Array):
        return _numpy_target(np.put, a, ind, v, mode=mode)
    if mode not in ("raise", "wrap", "clip"):
        raise ValueError(f"put: clipmode must be one of 'clip', 'raise', or 'wrap' "
                         f"(got {mode!r})")
    a._check_writeable()
    index = ind if isinstance(ind, Array) else np.asarray(ind)
    if isinstance(index, Array) and index._node.is_computed:  # known: checked now
        index = host_buffer(index._node.value)
    if index.size and not a.size:
        raise IndexError("cannot replace elements of an empty array")
    values = _cycled(v, a.dtype, index.size)
    if values is None or not index.size:
        return
    flat, unique = _flat_positions(index, a.size, mode)
    _scatter_flat(a, flat, values, unique)


def _flat_positions(index, size: int, mode: str = "raise") -> tuple:
    """The flat positions `index` names in an array of `size` elements, as a (k,)
    int64 node, with `put`'s `mode` for those out of range (raise: checked now if
    known, else when the program runs), and whether they are known to be distinct."""
    if isinstance(index, Array) and index._node.is_computed:
        index = host_buffer(index._node.value)
    if isinstance(index, Array):
        index = astype(index, np.int64)
        if mode == "raise":
            node = apply("normalize_index", index._node, size=size, axis=0)
        else:
            node = (elementwise.remainder(index, size) if mode == "wrap" else
                    elementwise.clip(index, 0, size - 1))._node
        return reshape_node(node, (index.size,)), False
    index = np.asarray(index).astype(np.int64).reshape(-1)
    index = (check_index(index, size, 0) if mode == "raise" else
             np.mod(index, size) if mode == "wrap" else np.clip(index, 0, size - 1))
    return leaf(index, index.shape, index.dtype), np.unique(index).size == index.size


@export
def put_along_axis(arr, indices, values, axis) -> None:
    """Write `values` (broadcast) at `indices` along `axis` of each 1-d slice of `arr`:
    NumPy's `arr[fancy index] = values` with the other axes' aranges, so negative
    indices wrap, out-of-range ones raise IndexError and the last repeat wins. With
    axis=None, `arr` is written at flat (C order) positions; as in NumPy, which writes
    into `np.array(arr.flat)`, only a C-contiguous `arr` can take that write (else
    ValueError: the flat copy is read-only)."""
    if not isinstance(arr, Array):
        return _numpy_target(np.put_along_axis, arr, indices, values, axis)
    if not isinstance(indices, (Array, np.ndarray, np.generic)):  # NumPy reads .dtype
        raise AttributeError(f"put_along_axis: `indices` must be an array, not "
                             f"{type(indices).__name__}")
    flat = axis is None
    if flat and indices.ndim != 1:
        raise ValueError("when axis=None, `indices` must have a single dimension.")
    axis = 0 if flat else normalize_axis(axis, arr.ndim, "put_along_axis")
    if indices.dtype.kind not in "iu":
        raise IndexError("`indices` must be an integer array")
    if indices.ndim != (1 if flat else arr.ndim):
        raise ValueError("`indices` and `arr` must have the same number of dimensions")
    if not flat:
        key = [np.arange(n).reshape((1,) * d + (n,) + (1,) * (arr.ndim - d - 1))
               for d, n in enumerate(arr.shape)]
        key[axis] = _unless_empty(indices, [k.shape for d, k in enumerate(key) if d != axis])
        return setitem(arr, tuple(key), values)
    _put_flat(arr, indices, values)


def _unless_empty(indices, shapes):
    """`indices`, or an empty stand-in where the fancy index with the other axes'
    aranges (of `shapes`) selects nothing: NumPy then checks no index."""
    try:
        shape = broadcast_shapes(indices.shape, *shapes)
    except ValueError:
        return indices  # setitem raises NumPy's IndexError
    return np.zeros(shape, np.int64) if 0 in shape else indices


def _put_flat(a: Array, indices, values) -> None:
    """a.flat[indices] = values broadcast to the indices' (k,) shape; the last repeat
    wins. A NumPy scalar is immutable: NumPy writes a temporary, so only the checks
    count."""
    if not a._scalar:
        a._check_writeable()
        if not a.flags.c_contiguous:
            raise ValueError("assignment destination is read-only")
    count = indices.shape[0]
    values = assigned_values(values, a.dtype, (count,), advanced_mismatch(a, indices))
    positions, unique = _flat_positions(indices, a.size)
    if count and not a._scalar:
        _scatter_flat(a, positions, values, unique)


def _host_mask(mask) -> np.ndarray:
    """A mask's values on the host (a flush with cause "shape" if lazy), as booleans."""
    return host_array(mask, "shape").astype(bool)


@export
def place(arr, mask, vals) -> None:
    """Write `vals` (repeated as needed) into `arr` where `mask` is true, in order."""
    if not isinstance(arr, Array):
        return _numpy_target(np.place, arr, mask, vals)
    arr._check_writeable()
    mask = _host_mask(mask)
    if mask.size != arr.size:
        raise ValueError("place: mask and data must be the same size")
    positions = np.flatnonzero(mask)
    values = _cycled(vals, arr.dtype, positions.size)
    if values is None:
        if positions.size:
            raise ValueError("Cannot insert from an empty array!")
        return
    if positions.size:
        _scatter_flat(arr, leaf(positions, positions.shape, positions.dtype), values, True)


@export
def putmask(a, mask, values) -> None:
    """a[mask] = values[position % len(values)] at every flat position where `mask`
    (of a's size) is true; lazy, nothing is materialized."""
    if not isinstance(a, Array):
        return _numpy_target(np.putmask, a, mask, values)
    a._check_writeable()
    mask = astype(as_array(mask), np.bool_)
    if mask.size != a.size:
        raise ValueError("putmask: mask and data must be the same size")
    tiled = _cycled(values, a.dtype, a.size)
    if tiled is None or not a.size:
        return
    a._write(apply("select", reshape_node(mask._node, a.shape),
                   reshape_node(tiled, a.shape), a._node))


@export
def copyto(dst, src, casting="same_kind", where=True) -> None:
    """dst[...] = src (broadcast), where `where` is true, if `casting` allows the cast."""
    if isinstance(dst, np.ndarray):
        return _numpy_target(np.copyto, dst, src, casting=casting,
                             where=np.asarray(where) if isinstance(where, Array) else where)
    if not isinstance(dst, Array):
        raise TypeError(f"copyto() argument 1 must be a numpy.ndarray, not "
                        f"{type(dst).__name__}")
    if casting not in _CASTINGS:
        raise ValueError("casting must be one of 'no', 'equiv', 'safe', 'same_kind', or "
                         f"'unsafe' (got {casting!r})")
    dst._check_writeable()
    if isinstance(src, (list, tuple)) and any(isinstance(s, Array) for s in src):
        src = as_array(src)
    if isinstance(src, Array):
        if not np.can_cast(src.dtype, dst.dtype, casting):
            raise TypeError(f"Cannot cast array data from {src.dtype!r} to {dst.dtype!r} "
                            f"according to the rule {casting!r}")
        values = assigned_values(src, dst.dtype, dst.shape)
    else:  # NumPy itself casts host data, with its rules for Python scalars
        host = np.empty(fitted_shape(np.shape(src), dst.shape, basic_mismatch), dst.dtype)
        np.copyto(host, src, casting=casting)
        values = assigned_values(host, dst.dtype, dst.shape)
    if where is not True:
        mask = astype(as_array(where), np.bool_)
        shape = fitted_shape(mask.shape, dst.shape, lambda v, s: ValueError(
            f"could not broadcast where mask from shape {v} into shape {s}"))
        mask = apply("broadcast_to", reshape_node(mask._node, shape), shape=dst.shape)
        values = apply("select", mask, values, dst._node)
    if dst.size:
        dst._write(values)


@export
def fill_diagonal(a, val, wrap=False) -> None:
    """Write `val` (repeated as needed) on the main diagonal of `a` (every axis of
    equal length beyond 2-d); a tall matrix's diagonal restarts below with `wrap`."""
    if not isinstance(a, Array):
        return _numpy_target(np.fill_diagonal, a, val, wrap=wrap)
    if a.ndim < 2:
        raise ValueError("array must be at least 2-d")
    if a.ndim == 2:
        stride = a.shape[1] + 1
        end = a.size if wrap else min(a.size, a.shape[1] * a.shape[1])
    else:
        if len(set(a.shape)) != 1:
            raise ValueError("All dimensions of input must be of equal length")
        stride, end = 1 + int(np.sum(np.cumprod(a.shape[:-1]))), a.size
    a._check_writeable()
    count = len(range(0, end, stride))
    values = _cycled(val, a.dtype, count)
    if values is None or not count:
        return
    steps = compose(_flat_steps(a), (step("slice", starts=(0,), stops=(end,),
                                          steps=(stride,)),))
    a._write_at(steps, values)


def fill(a: Array, value) -> None:
    """`ndarray.fill`: every element set to the scalar `value` (NumPy's scalar cast)."""
    a._check_writeable()
    values = assigned_values(value, a.dtype, a.shape, scalar=True)
    if a.size:
        a._write(values)


# ----- ufunc.at and jax's x.at[...] ------------------------------------------------

def ufunc_at(name: str, a, indices, b=None) -> None:
    """NumPy's `ufunc.at`: a[indices] = ufunc(a[indices], b), unbuffered, so repeated
    indices apply the ufunc once each, in order. `b` is taken as an array (no NEP 50
    weak scalars) and results are cast back to a's dtype unsafely, as NumPy does."""
    np_ufunc = getattr(np, name)
    operands = () if b is None else (b,)
    if not isinstance(a, Array):
        return _numpy_target(np_ufunc.at, a, indices, *operands)
    if np_ufunc.nout != 1 or np_ufunc.nin > 2:
        raise ValueError("Only unary and binary ufuncs supported at this time")
    if np_ufunc.nin == 2 and b is None:
        raise ValueError("second operand needed for ufunc")
    if np_ufunc.nin == 1 and b is not None:
        raise ValueError("second operand provided when ufunc is unary")
    a._check_writeable()
    operands = tuple(as_array(x) for x in operands)
    loop = np_ufunc.resolve_dtypes((a.dtype, *(x.dtype for x in operands), None))
    where = target(a, indices)
    values = [assigned_values(astype(x, dt), dt, where.shape, lambda v, s: ValueError(
        "array is not broadcastable to correct shape")) for x, dt in zip(operands, loop[1:])]
    if not np.prod(where.shape, dtype=np.int64):
        return
    region = replay(a._node, where.steps)
    if where.plan is None:
        result = apply(name, astype(wrap(region), loop[0])._node, *values)
        a._write_at(where.steps, astype(wrap(result), a.dtype)._node)
    else:
        a._write_at(where.steps, apply("scatter_ufunc", region,
                                       *row_updates(where.plan, *values),
                                       ufunc=name, dtype=loop[0]))


class AtIndexer:
    """`x.at[idx]`, as in jax: functional updates that return a new array."""
    __slots__ = ("_array",)

    def __init__(self, array: Array):
        self._array = array

    def __getitem__(self, key) -> "_AtUpdate":
        return _AtUpdate(self._array, key)


class _AtUpdate:
    """The updates of `x.at[key]`: each returns a copy of `x` with `x[key]` updated
    (repeated indices: `set` keeps the last value, the others accumulate as
    `ufunc.at`); out-of-range indices raise IndexError, as in NumPy."""
    __slots__ = ("_array", "_key")

    def __init__(self, array: Array, key):
        self._array, self._key = array, key

    def get(self) -> Array:
        return self._array[self._key]

    def set(self, values) -> Array:
        out = self._array.copy()
        out[self._key] = values
        return out

    def _apply(self, ufunc: str, values) -> Array:
        out = self._array.copy()
        ufunc_at(ufunc, out, self._key, values)
        return out

    def add(self, values) -> Array:
        return self._apply("add", values)

    def subtract(self, values) -> Array:
        return self._apply("subtract", values)

    def multiply(self, values) -> Array:
        return self._apply("multiply", values)

    def divide(self, values) -> Array:
        return self._apply("divide", values)

    def power(self, values) -> Array:
        return self._apply("power", values)

    def min(self, values) -> Array:
        return self._apply("minimum", values)

    def max(self, values) -> Array:
        return self._apply("maximum", values)
