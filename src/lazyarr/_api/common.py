"""Argument handling shared by every chapter: coercion, axes, casts and constants."""

from __future__ import annotations

import operator

import numpy as np
from numpy.exceptions import AxisError

from .. import _dtypes
from .._array import Array, as_array
from .._graph import Node, apply, leaf

__all__ = ["Array", "AxisError", "as_array", "apply", "leaf", "Node"]


def wrap(node: Node, scalar: bool = True) -> Array:
    return Array(node, scalar=scalar)


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
