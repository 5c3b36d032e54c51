"""What every chapter shares: coercion to Array, node building, axes, casts and
constants. Chapters build results through `wrap`, which is where the scheduler's
depth bound runs."""

from __future__ import annotations

import operator

import numpy as np
from numpy.exceptions import AxisError

from .. import _dtypes, _flush
from .._array import Array
from .._graph import Node, apply, check_size, leaf
from .._interop import NotLazy

__all__ = ["Array", "AxisError", "as_array", "apply", "leaf", "Node"]


def wrap(node: Node, scalar: bool = True) -> Array:
    """The Array of a new node (a 0-d one stands for a NumPy scalar unless `scalar` is
    false); a pending chain grown past the scheduler's bound is evaluated here. A new
    array is one NumPy would allocate: one it could not is NumPy's error here."""
    if not node.is_computed:
        check_size("result", node.shape, node.dtype)
    result = Array(node, scalar)
    _flush.bound(node)
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
    return Array(leaf(value, value.shape, value.dtype), scalar=isinstance(obj, np.generic))


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
    parts = [as_array(item) for item in seq]
    shapes = {p.shape for p in parts}
    if len(shapes) != 1:
        raise ValueError("setting an array element with a sequence. The requested array "
                         "has an inhomogeneous shape after 1 dimensions.")
    dt = _dtypes.as_dtype(dtype) if dtype is not None else _dtypes.result_type(*parts)
    shape = parts[0].shape
    nodes = [apply("reshape", astype(p, dt)._node, shape=(1,) + shape) for p in parts]
    return wrap(apply("concatenate", *nodes, axis=0), scalar=False)


def normalize_axis(axis, ndim: int, func: str = "") -> int:
    """An axis in [-ndim, ndim) as a non-negative int; NumPy's AxisError otherwise."""
    try:
        axis = operator.index(axis)
    except TypeError:
        raise TypeError(f"{func}: 'axis' must be an integer, not {type(axis).__name__}") from None
    if not -ndim <= axis < ndim:
        raise AxisError(axis, ndim, func or None)
    return axis % ndim if ndim else 0


def normalize_axis_tuple(axis, ndim: int, func: str = "", what: str = "axis") -> tuple[int, ...]:
    """NumPy's normalize_axis_tuple: an int or a sequence of ints as distinct axes in
    [0, ndim), in the order given (ValueError for a repeat)."""
    items = tuple(axis) if isinstance(axis, (tuple, list)) else (axis,)
    axes = tuple(normalize_axis(a, ndim, func) for a in items)
    if len(set(axes)) != len(axes):
        raise ValueError(f"{func}: repeated axis in `{what}` argument")
    return axes


def normalize_axes(axis, ndim: int, func: str = "") -> tuple[int, ...]:
    """`axis` (None, an int or a tuple of ints) as a sorted tuple of distinct axes."""
    if axis is None:
        return tuple(range(ndim))
    axes = axis if isinstance(axis, (tuple, list)) else (axis,)
    result = tuple(normalize_axis(a, ndim, func) for a in axes)
    if len(set(result)) != len(result):
        raise ValueError(f"{func}: duplicate value in 'axis'")
    return tuple(sorted(result))


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
    arr = np.asarray(value, dtype=dtype)
    return leaf(arr, (), arr.dtype)


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


def host(value):
    """Lazy data that decides shapes or static positions, read now (a flush with cause
    "shape"), as NumPy data; anything else as given."""
    if isinstance(value, Array):
        return _flush.to_numpy(value._node, "shape")
    return value


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
