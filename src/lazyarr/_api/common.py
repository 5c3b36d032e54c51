"""What every chapter shares: coercion to Array, node building, axes, casts and
constants. Chapters build results through `wrap`, which is where the scheduler's
depth bound runs."""

from __future__ import annotations

import builtins
import math
import operator
import warnings

import numpy as np
from numpy.exceptions import AxisError

from .. import _cuts, _dtypes, _eager, _flush
from .._array import Array, small_array
from .._errors import user_stacklevel
from .._graph import INPUT, Node, SmallLeaf, apply, check_size, computed, leaf
from .._interop import NotLazy

__all__ = ["Array", "AxisError", "as_array", "apply", "leaf", "Node"]


def is_scalar_operand(x) -> bool:
    """A Python scalar (bool, int, float, complex): a weak operand under NEP 50."""
    return type(x) in (bool, int, float, complex)


def wrap(node: Node, scalar: bool = True) -> Array:
    """The Array of a new node (a 0-d one stands for a NumPy scalar unless `scalar` is
    false); a pending chain grown past the scheduler's bound is evaluated here. A new
    array is one NumPy would allocate: one it could not is NumPy's error here."""
    if node.op is not INPUT:
        check_size("result", node.shape, node.dtype)
        if _eager.settle(node):
            return Array(node, scalar)
    result = Array(node, scalar)
    _cuts.bound(node)
    return result


def as_array(obj, dtype=None) -> Array:
    """`obj` as an Array (`np.asarray` semantics); NumPy inputs are copied, so a later
    change to the user's array cannot change a lazy result."""
    if isinstance(obj, Array):
        return obj if dtype is None else astype(obj, dtype)
    if isinstance(obj, (list, tuple)) and _contains_array(obj):
        return _stack_nested(obj, dtype)
    value = np.array(obj, dtype=dtype, copy=True)
    if not value.dtype.isnative:  # lazyarr's dtypes are native: same values, host order
        value = value.astype(value.dtype.newbyteorder("="))
    if not _dtypes.is_numeric(value.dtype):
        raise NotLazy(f"lazyarr supports bool and numeric dtypes, not {value.dtype} "
                      f"(from {type(obj).__name__})")
    if value.size <= _eager.MAX_ELEMENTS and value.dtype.kind in "biufc":
        # a private copy, as small as an eager result: the eager path's operand as it is
        result = small_array(value)
        result._scalar = isinstance(obj, np.generic)
        return result
    return Array(leaf(value, value.shape, value.dtype), scalar=isinstance(obj, np.generic))


def as_ndarray(obj, dtype=None) -> Array:
    """`obj` as NumPy's `np.asarray` gives it: `as_array`, with a scalar (a NumPy
    scalar, a lazyarr 0-d result) as a 0-d array."""
    x = as_array(obj, dtype)
    return Array(x._node, scalar=False) if x._scalar else x


def _contains_array(seq) -> bool:
    stack = [seq]
    while stack:
        item = stack.pop()
        if isinstance(item, Array):
            return True
        if isinstance(item, (list, tuple)):
            stack.extend(item)
    return False


def _stack_nested(seq, dtype) -> Array:
    """A nested sequence holding lazy arrays, stacked lazily (as `np.array` would)."""
    if dtype is None:
        stacked = _stack_small(seq)
        if stacked is not None:
            return stacked
    parts = [as_array(item) for item in seq]
    shapes = {p.shape for p in parts}
    if len(shapes) != 1:
        raise ValueError("setting an array element with a sequence. The requested array "
                         "has an inhomogeneous shape after 1 dimensions.")
    # (their dtypes: a 0-d part's `__class__`, which isinstance consults, is a property)
    dt = _dtypes.as_dtype(dtype) if dtype is not None else \
        _dtypes.result_type(*[p.dtype for p in parts])
    shape = parts[0].shape
    if dt.kind in "biufc" and len(parts) * math.prod(shape) <= _eager.MAX_ELEMENTS \
            and _eager.enabled():
        # Small computed parts (`np.array(results)` of a loop's eager results): their
        # casts and the concatenation of their reshapes are NumPy's stack, made at once.
        # Profiled (benchmarks' windows: 487 0-d means): 5.4 us a part recorded.
        values = _eager.host_values([p._node for p in parts])
        if values is not None:
            _eager.COUNT[0] += 1
            return small_array(_eager.call(_stacked, values, dt))
    nodes = [apply("reshape", astype(p, dt)._node, shape=(1,) + shape) for p in parts]
    return wrap(apply("concatenate", *nodes, axis=0), scalar=False)


def _stack_small(seq) -> Array | None:
    """`np.array(seq)` made at once by NumPy's own call where `seq` is a flat list or
    tuple of eager results (arrays in `SmallLeaf`s) of one shape and dtype, at most
    `_eager.MAX_ELEMENTS` elements in all: a loop's `np.array(means)`. Profiled on
    benchmarks' windows (488 0-d means): 1.8 us a part through the general checks
    (each part's node, `result_type` of all their dtypes, `np.stack`), 0.89 ms of the
    workload's 5.1 against NumPy's 17 us for the same call. None where it does not
    apply."""
    if {type(item) for item in seq} != {Array} \
            or any([item._layout is not None for item in seq]):
        return None
    nodes = [item._n for item in seq]
    if {type(node) for node in nodes} != {SmallLeaf}:
        return None
    values = [node.value for node in nodes]
    shape, dtype = values[0].shape, values[0].dtype
    # (NumPy's dtypes of one kind are one object: `is` stands for the slower `==` here)
    if len(values) * math.prod(shape) > _eager.MAX_ELEMENTS or not _eager.enabled() \
            or not all([value.dtype is dtype for value in values]) \
            or {value.shape for value in values} != {shape}:
        return None
    _eager.COUNT[0] += 1
    return small_array(np.array(values))


def _stacked(values: list, dtype) -> np.ndarray:
    return np.stack([v if v.dtype == dtype else v.astype(dtype) for v in values])


def normalize_axis(axis, ndim: int, func: str = "") -> int:
    """An axis in [-ndim, ndim) as a non-negative int; NumPy's AxisError otherwise."""
    try:
        axis = operator.index(axis)
    except TypeError:
        raise TypeError(f"{func}: 'axis' must be an integer, not {type(axis).__name__}") from None
    if not -ndim <= axis < ndim:
        raise AxisError(axis, ndim, func or None)
    return axis % ndim if ndim else 0


def normalize_axis_tuple(axis, ndim: int, func: str = "", what: str = "axis",
                         repeated: str = "") -> tuple[int, ...]:
    """NumPy's normalize_axis_tuple: an int or a sequence of ints as distinct axes in
    [0, ndim), in the order given; ValueError for a repeat (NumPy's "repeated axis in
    `axis` argument", or the message `repeated`). The one normalizer of axis tuples."""
    items = tuple(axis) if isinstance(axis, (tuple, list)) else (axis,)
    axes = tuple(normalize_axis(a, ndim, func) for a in items)
    if len(set(axes)) != len(axes):
        message = repeated or f"repeated axis in `{what}` argument"
        raise ValueError(f"{func}: {message}" if func else message)
    return axes


def normalize_axes(axis, ndim: int, func: str = "") -> tuple[int, ...]:
    """A reduction's `axis` (None for all, an int or a sequence) as a sorted tuple of
    distinct axes (NumPy's reductions say "duplicate value in 'axis'")."""
    if axis is None:
        return tuple(range(ndim))
    return tuple(sorted(normalize_axis_tuple(axis, ndim, func,
                                             repeated="duplicate value in 'axis'")))


def along_axis(x: Array, axis, func: str, flat_0d: bool = False) -> tuple[Array, int]:
    """(x, axis) for a function along one axis: axis None flattens `x` first (NumPy's
    convention for sort, delete, insert, packbits, ...), and so does a 0-d `x` with
    `flat_0d` (packbits and unpackbits take a scalar as 1-d)."""
    if axis is None or flat_0d and x.ndim == 0:
        x = flattened(x)
    return x, 0 if axis is None else normalize_axis(axis, x.ndim, func)


def astype(x: Array, dtype) -> Array:
    """`x` converted to `dtype` (the same handle when it already has it)."""
    dtype = _dtypes.as_dtype(dtype)
    if x.dtype == dtype:
        return x
    if not _dtypes.is_numeric(dtype):
        raise NotLazy(f"lazyarr holds bool and numeric dtypes, not {dtype}")
    return wrap(apply("convert", x._node, dtype=dtype), x._scalar)


def scalar_node(value, dtype) -> Node:
    """A 0-d runtime input holding `value` in `dtype` (not a compile-time constant)."""
    return computed(np.asarray(value, dtype=dtype))


def full_node(value, shape: tuple, dtype) -> Node:
    """`value` broadcast to `shape`, as a node."""
    node = scalar_node(value, dtype)
    return apply("broadcast_to", node, shape=tuple(shape)) if shape else node


def broadcast_node(x: Node, shape: tuple) -> Node:
    return x if x.shape == tuple(shape) else apply("broadcast_to", x, shape=tuple(shape))


def reshape_node(x: Node, shape: tuple) -> Node:
    return x if x.shape == tuple(shape) else apply("reshape", x, shape=tuple(shape))


def transpose_node(x: Node, axes: tuple) -> Node:
    return x if tuple(axes) == tuple(range(len(axes))) else apply("transpose", x,
                                                                   axes=tuple(axes))


def as_shape(shape, func: str = "") -> tuple[int, ...]:
    """A shape argument (an int or a sequence of ints) as a tuple; NumPy's errors."""
    if isinstance(shape, Array):
        shape = shape.tolist()
    try:
        dims = (operator.index(shape),)
    except TypeError:
        try:
            dims = tuple(operator.index(n) for n in shape)
        except TypeError:
            raise TypeError(f"{func}: expected a sequence of integers or a single integer, "
                            f"got {shape!r}") from None
    if any(n < 0 for n in dims):
        raise ValueError(f"{func}: negative dimensions are not allowed: {dims}")
    return dims


def index_arg(value, what: str, func: str) -> int:
    """An integer argument (anything with `__index__`); TypeError naming it otherwise."""
    try:
        return operator.index(value)
    except TypeError:
        raise TypeError(f"{func}: {what} must be an integer, not "
                        f"{type(value).__name__}") from None


def host(value, cause: str = "shape"):
    """Lazy data read now, as a NumPy array (a flush with `cause`, "shape" when the data
    decides shapes or static positions, "control" when it decides what to compute, only
    if it is pending); anything else as given. The one reader of host values."""
    if isinstance(value, Array):
        return _flush.to_numpy(value._node, cause)
    return value


def host_array(value, cause: str = "shape") -> np.ndarray:
    """`host(value, cause)` as a NumPy array, whatever `value` is."""
    return np.asarray(host(value, cause))


def int_tuple(value, what: str, func: str) -> tuple[int, ...]:
    """An int or a sequence of ints as a tuple (lazy arrays are read)."""
    value = host(value)
    if isinstance(value, (list, tuple)):
        return tuple(index_arg(v, what, func) for v in value)
    if isinstance(value, np.ndarray) and value.ndim == 1:
        return tuple(index_arg(v, what, func) for v in value.tolist())
    return (index_arg(value, what, func),)


def axis_sequence(axis, ndim: int, func: str, what: str = "axis") -> tuple[int, ...]:
    """An int or a sequence of ints (lazy ones read) as distinct normalized axes, in
    the order given."""
    return normalize_axis_tuple(int_tuple(axis, what, func), ndim, func, what)


def slices_node(node: Node, slices: dict) -> Node:
    """`node` sliced by {axis: slice}, as Python slicing (no node when nothing changes)."""
    bounds = [(0, n, 1) for n in node.shape]
    for axis, sl in slices.items():
        bounds[axis] = sl.indices(node.shape[axis])
    if all(b == (0, n, 1) for b, n in zip(bounds, node.shape)):
        return node
    starts, stops, steps = zip(*bounds)
    return apply("slice", node, starts=starts, stops=stops, steps=steps)


def slice_node(node: Node, axis: int, start, stop, step=None) -> Node:
    """`node[start:stop:step]` along `axis`."""
    return slices_node(node, {axis: slice(start, stop, step)})


def take_index_node(node: Node, i: int, axis: int) -> Node:
    """`node[..., i, ...]` at `axis` (the axis removed)."""
    part = slice_node(node, axis, i, i + 1)
    return reshape_node(part, node.shape[:axis] + node.shape[axis + 1:])


def concatenate_nodes(nodes: list, axis: int) -> Node:
    """`nodes` joined along `axis` (the one node itself when there is one)."""
    return nodes[0] if len(nodes) == 1 else apply("concatenate", *nodes, axis=axis)


# ----- 1-d helpers of the sorting, set, histogram and statistics chapters -----------

def leaf_array(value) -> Array:
    value = np.asarray(value)
    return wrap(leaf(value, value.shape, value.dtype), scalar=False)


def flattened(x: Array) -> Array:
    """`x` as 1-d, an operand of what follows (a 1-d `x` itself: a second array on
    its node would be a second owner of its buffer)."""
    if x.ndim == 1:
        return x
    return wrap(reshape_node(x._node, (x.size,)), False)


def iota(n: int) -> Array:
    return wrap(apply("iota", shape=(n,), dtype=_dtypes.int64, axis=0), False)


def slice1(x: Array, start, stop) -> Array:
    """x[start:stop] of a 1-d array."""
    begin, end, _ = slice(start, stop).indices(x.shape[0])
    end = builtins.max(begin, end)
    if (begin, end) == (0, x.shape[0]):
        return x
    return wrap(apply("slice", x._node, starts=(begin,), stops=(end,), steps=(1,)), False)


def take1(x: Array, index: Array) -> Array:
    """x[index] for a 1-d `x` and int64 indices already in range."""
    if index.size == 0 or x.size == 0:
        return leaf_array(np.zeros(index.shape, x.dtype))
    return wrap(apply("take", x._node, astype(index, _dtypes.int64)._node, axis=0))


def concat1(*xs: Array) -> Array:
    dtype = _dtypes.result_type(*xs)
    return wrap(apply("concatenate", *(astype(x, dtype)._node for x in xs), axis=0), False)


# ----- casts and out= ---------------------------------------------------------------

def cast_unsafe(x: Array, dtype) -> Array:
    """NumPy's unsafe cast: complex to bool tests both parts; complex to other real
    dtypes discards the imaginary part, with NumPy's ComplexWarning."""
    dtype = _dtypes.as_dtype(dtype)
    if _dtypes.is_complex(x.dtype) and not _dtypes.is_complex(dtype) \
            and not _dtypes.is_bool(dtype):
        warnings.warn("Casting complex values to real discards the imaginary part",
                      np.exceptions.ComplexWarning, stacklevel=user_stacklevel())
        x = wrap(apply("real", x._node), x._scalar)
    return astype(x, dtype)


def check_index(index: np.ndarray, size: int, axis: int) -> np.ndarray:
    """Integer indices known on the host, checked against an axis of `size` (NumPy's
    IndexError) and made non-negative int64: the one check of known indices."""
    if index.size and index.dtype.kind in "iu":  # in bounds: two reductions, one copy
        low, high = int(index.min()), int(index.max())
        if low >= 0 and high < size:  # (a copy: the caller may write into its array)
            return index.astype(np.int64)
    bad = (index < -size) | (index >= size)
    if bad.any():
        raise IndexError(f"index {int(index[bad].flat[0])} is out of bounds for axis {axis} "
                         f"with size {size}")
    return np.where(index < 0, index + size, index).astype(np.int64)


def raise_casting_error(func: str, result: np.dtype, out: np.dtype, casting: str):
    """NumPy's error for an out= its result cannot be cast to: for a ufunc, NumPy's own
    UFuncTypeError (its class is not public: NumPy raises it on empty arrays)."""
    ufunc = getattr(np, func, None)
    if isinstance(ufunc, np.ufunc):
        try:
            ufunc(*[np.empty(0, result)] * ufunc.nin, out=np.empty(0, out), casting=casting)
        except TypeError as error:
            raise error.with_traceback(None) from None
    raise TypeError(f"{func}: cannot cast the result from {result!r} to the out= dtype "
                    f"{out!r} with casting rule {casting!r}")


def write_out(out, result: Array, func: str, casting: str = "same_kind",
              ufunc: str | None = None) -> Array:
    """NumPy's `out=` (and in-place operators): `result` when `out` is None; else
    `result` cast to `out`'s dtype under `casting` (NumPy's casting error otherwise:
    that of `ufunc` when NumPy's function writes `out` through one), written into
    `out` (through to a view's owner, so every view of it sees it) and `out` returned.
    `out` must be a lazyarr array of the result's shape (NotLazy for a NumPy array,
    which NumPy's function then writes). The one `out=` writer."""
    if out is None:
        return result
    if isinstance(out, np.ndarray):  # NumPy writes its own arrays (the caller falls back)
        raise NotLazy(f"{func}: out= is a NumPy array")
    if not isinstance(out, Array):
        raise TypeError(f"{func}: out= must be a lazyarr array, not {type(out).__name__}")
    if not np.can_cast(result.dtype, out.dtype, casting):
        raise_casting_error(ufunc or func, result.dtype, out.dtype, casting)
    if result.shape != out.shape:
        raise ValueError(f"non-broadcastable output operand with shape {out.shape} "
                         f"doesn't match the broadcast shape {result.shape}")
    out._check_writeable("output array is read-only")
    out._write(cast_unsafe(result, out.dtype)._node)
    return out
