"""Changing shape, transposing and changing the number of dimensions: the functions
NumPy answers with views (reshape, ravel, transpose, swapaxes, moveaxis, rollaxis,
squeeze, expand_dims, diagonal), broadcasting, and shape inspection.

A view is built as a node function of its argument (slice, reshape and transpose
steps only) passed to `Array._view_by` with the NumPy stand-in's own operation, which
says whether NumPy would copy instead (`reshape`, `ravel`). Reshapes to the same shape
and identity transposes add no node.
"""

from __future__ import annotations

import operator

import numpy as np
from numpy.exceptions import AxisError

from .._ops import broadcast_shapes as _broadcast_shapes, size_of
from .._views import contiguous_ravel, is_fortran, memory_order_ravel
from . import export
from .common import (Array, apply, as_array, as_ndarray, axis_sequence, broadcast_node,
                     index_arg, int_tuple, normalize_axes, normalize_axis, reshape_node,
                     transpose_node, wrap)

_ORDERS = ("C", "F", "A", "K")


def _check_order(order, func: str, allowed=_ORDERS) -> str:
    order = "C" if order is None else order
    if order not in _ORDERS:
        raise ValueError(f"{func}: order must be one of 'C', 'F', 'A', or 'K' (got {order!r})")
    if order not in allowed:
        raise ValueError(f"{func}: order {order!r} is not permitted for reshaping")
    return order


# ----- the view steps: each returns the node of its argument's view ----------------

def _resolve_shape(size: int, shape: tuple, func: str) -> tuple[int, ...]:
    """`shape` with its one negative (unknown) entry inferred, as NumPy's reshape."""
    unknown = [i for i, n in enumerate(shape) if n < 0]
    if len(unknown) > 1:
        raise ValueError(f"{func}: can only specify one unknown dimension")
    known = size_of(tuple(n for n in shape if n >= 0))
    if unknown:
        if known != 0 and size % known == 0:
            return shape[:unknown[0]] + (size // known,) + shape[unknown[0] + 1:]
    elif known == size:
        return shape
    shown = repr(shape) if not unknown else "(" + ",".join(
        "newaxis" if n < 0 else str(n) for n in shape) + ")"
    raise ValueError(f"cannot reshape array of size {size} into shape {shown}")


def _reversed_axes(ndim: int) -> tuple[int, ...]:
    return tuple(range(ndim - 1, -1, -1))


def _reshaped(x: Array, shape, order="C"):
    """`x` with a new shape (one entry may be -1), read in C or Fortran order."""
    order = _check_order(order, "reshape", ("C", "F", "A"))
    shape = _resolve_shape(x.size, int_tuple(shape, "shape", "reshape"), "reshape")
    if order != "F" or x.shape == shape:
        return reshape_node(x._node, shape)
    # Fortran order: reverse the axes, reshape to the reversed shape, reverse back.
    node = transpose_node(x._node, _reversed_axes(x.ndim))
    node = reshape_node(node, shape[::-1])
    return transpose_node(node, _reversed_axes(len(shape)))


def _raveled(x: Array, order="C"):
    """`x` as a 1-d array, in C order (or Fortran order for 'F')."""
    return _reshaped(x, (x.size,), order="F" if _check_order(order, "ravel") == "F" else "C")


def _axes_permutation(axes, ndim: int, func: str) -> tuple[int, ...]:
    axes = int_tuple(axes, "axes", func)
    if len(axes) != ndim:
        raise ValueError(f"{func}: axes don't match array")
    perm = tuple(normalize_axis(ax, ndim, func) for ax in axes)
    if len(set(perm)) != ndim:
        raise ValueError(f"{func}: repeated axis in transpose")
    return perm


def _transposed(x: Array, axes=None):
    """`x` with its axes permuted (reversed when `axes` is None)."""
    perm = _reversed_axes(x.ndim) if axes is None else _axes_permutation(axes, x.ndim,
                                                                          "transpose")
    return transpose_node(x._node, perm)


def _swapped(x: Array, axis1, axis2):
    """`x` with two axes interchanged."""
    i = normalize_axis(axis1, x.ndim, "swapaxes")
    j = normalize_axis(axis2, x.ndim, "swapaxes")
    perm = list(range(x.ndim))
    perm[i], perm[j] = j, i
    return transpose_node(x._node, tuple(perm))


def _moved(x: Array, source, destination):
    """`x` with the `source` axes moved to the `destination` positions."""
    src = axis_sequence(source, x.ndim, "moveaxis", "source")
    dst = axis_sequence(destination, x.ndim, "moveaxis", "destination")
    if len(src) != len(dst):
        raise ValueError("moveaxis: `source` and `destination` arguments must have the "
                         "same number of elements")
    order = [n for n in range(x.ndim) if n not in src]
    for d, s in sorted(zip(dst, src)):
        order.insert(d, s)
    return transpose_node(x._node, tuple(order))


def _expanded(x: Array, axis):
    """`x` with new length-1 axes at the positions `axis` (an int or a tuple)."""
    if isinstance(axis, (list, tuple)):
        axes = normalize_axes(tuple(axis), x.ndim + len(axis), "expand_dims")
    else:
        axes = (normalize_axis(axis, x.ndim + 1, "expand_dims"),)
    dims = iter(x.shape)
    shape = tuple(1 if i in axes else next(dims) for i in range(x.ndim + len(axes)))
    return reshape_node(x._node, shape)


def _squeezed(x: Array, axis=None):
    """`x` without its length-1 axes (only those in `axis`, which must have length 1)."""
    if axis is None:
        axes = tuple(i for i, n in enumerate(x.shape) if n == 1)
    else:
        if isinstance(axis, list):
            raise TypeError("squeeze: 'list' object cannot be interpreted as an integer")
        if (x.ndim == 0 and not isinstance(axis, tuple)
                and index_arg(axis, "axis", "squeeze") in (0, -1)):
            return x._node  # NumPy accepts axis 0 (or -1) of a 0-d array
        axes = normalize_axes(axis, x.ndim, "squeeze")
        if any(x.shape[i] != 1 for i in axes):
            raise ValueError("squeeze: cannot select an axis to squeeze out which has size "
                             f"not equal to one (shape {x.shape}, axis {axis})")
    return reshape_node(x._node, tuple(n for i, n in enumerate(x.shape) if i not in axes))


def diagonal_node(x: Array, offset=0, axis1=0, axis2=1):
    """The `offset` diagonal of `x`'s (axis1, axis2) planes, as a new last axis after
    the remaining ones: a strided slice of the flattened plane."""
    offset = operator.index(offset)
    if x.ndim < 2:
        raise ValueError(f"diagonal: diag requires an array of at least two dimensions, "
                         f"got {x.ndim}")
    ax1 = normalize_axis(axis1, x.ndim, "diagonal: axis1")
    ax2 = normalize_axis(axis2, x.ndim, "diagonal: axis2")
    if ax1 == ax2:
        raise ValueError(f"diagonal: axis1 and axis2 cannot be the same (both {ax1})")
    n1, n2 = x.shape[ax1], x.shape[ax2]
    row, col = max(-offset, 0), max(offset, 0)
    length = max(0, min(n1 - row, n2 - col))
    rest = tuple(i for i in range(x.ndim) if i not in (ax1, ax2))
    plane = transpose_node(x._node, rest + (ax1, ax2))
    rest_shape = tuple(x.shape[i] for i in rest)
    flat = reshape_node(plane, rest_shape + (n1 * n2,))
    # The diagonal starts at flat index row*n2 + col and steps by n2 + 1.
    start = row * n2 + col if length else 0
    stop = start + (length - 1) * (n2 + 1) + 1 if length else 0
    return apply("slice", flat, starts=(0,) * len(rest) + (start,),
                 stops=rest_shape + (stop,), steps=(1,) * len(rest) + (n2 + 1,))


# ----- the public forms: views of their argument where NumPy returns views ---------

@export
def reshape(a, /, shape, order="C", *, copy=None):
    """NumPy's reshape: a view where NumPy gives one, else a copy (made in the order
    read); copy=True copies. Order "A" reads a Fortran-contiguous array in F order."""
    x = as_array(a)
    if order == "A":  # Fortran order for a Fortran-contiguous (not C) array
        order = "F" if is_fortran(x._layout_of().probe) else "C"
    fn = lambda v: _reshaped(v, shape, order=order)  # noqa: E731
    probe_fn = lambda p, s: np.reshape(p, s, order=order, copy=False)  # noqa: E731
    result = x._view_by(fn, probe_fn, may_copy=True, on_copy=lambda: x._copy_in(
        order)._view_by(fn, probe_fn, may_copy=True))
    return result.copy() if copy else result


@export
def ravel(a, order="C"):
    """NumPy's ravel: a view when `a` is contiguous in the order asked ("K": in memory
    order, axes by decreasing stride), else a copy."""
    x = as_array(a)
    probe = x._layout_of().probe
    if order in ("A", "K") and is_fortran(probe):
        order = "F"
    elif order == "A" or (order == "K" and probe.flags.c_contiguous):
        order = "C"
    if order != "K":
        contiguous = probe.flags.c_contiguous if order == "C" else (
            order == "F" and probe.flags.f_contiguous)
        return x._view_by(lambda v: _raveled(v, order=order),
                          lambda p, shape: contiguous_ravel(p, order, contiguous),
                          may_copy=True)
    perm = sorted(range(x.ndim), key=lambda i: -abs(probe.strides[i]))
    return x._view_by(lambda v: reshape_node(_transposed(v, perm), (v.size,)),
                      lambda p, shape: memory_order_ravel(p, perm), may_copy=True)


@export
def transpose(a, axes=None):
    """NumPy's transpose: a view with the axes permuted (reversed by default)."""
    x = as_array(a)
    if isinstance(axes, int):
        axes = (axes,)
    axes = axes or None
    return x._view_by(lambda v: _transposed(v, axes), lambda p, shape: np.transpose(p, axes))


@export
def permute_dims(a, /, axes=None):
    """The Array API's name for `transpose`."""
    return transpose(a, axes)


@export
def swapaxes(a, axis1, axis2):
    """NumPy's swapaxes: a view with two axes exchanged."""
    return as_array(a)._view_by(lambda v: _swapped(v, axis1, axis2),
                                lambda p, shape: np.swapaxes(p, axis1, axis2))


@export
def matrix_transpose(x, /):
    """The last two axes swapped (ValueError below 2 dimensions)."""
    x = as_array(x)
    if x.ndim < 2:
        raise ValueError(f"matrix_transpose: input array must be at least 2-dimensional, "
                         f"got {x.ndim} dimension(s)")
    return swapaxes(x, -1, -2)


@export
def squeeze(a, axis=None):
    """NumPy's squeeze: a view without the given (or all) length-1 axes."""
    return as_array(a)._view_by(lambda v: _squeezed(v, axis),
                                lambda p, shape: np.reshape(p, shape, copy=False))


@export
def moveaxis(a, source, destination):
    """NumPy's moveaxis: a view with axes moved to new positions."""
    return as_array(a)._view_by(lambda v: _moved(v, source, destination),
                                lambda p, shape: np.moveaxis(p, source, destination))


@export
def rollaxis(a, axis, start=0):
    """`a` with `axis` rolled back to position `start` (NumPy's rollaxis)."""
    a = as_ndarray(a)
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
    return transpose(a, axes)



@export
def expand_dims(a, axis):
    """NumPy's expand_dims: a view with length-1 axes inserted."""
    return as_array(a)._view_by(lambda v: _expanded(v, axis),
                                lambda p, shape: np.reshape(p, shape, copy=False))


def diagonal_view(a, offset=0, axis1=0, axis2=1) -> Array:
    """`ndarray.diagonal`: a read-only view, as NumPy's (its WRITEABLE flag may be set)."""
    return as_array(a)._view_by(lambda v: diagonal_node(v, offset, axis1, axis2),
                                lambda p, shape: np.diagonal(p, offset, axis1, axis2),
                                writeable=False)


@export
def diagonal(a, offset=0, axis1=0, axis2=1):
    """NumPy's diagonal: the read-only view `ndarray.diagonal` of the `offset`
    diagonal of the (axis1, axis2) planes, as a new last axis after the others."""
    return diagonal_view(a, offset, axis1, axis2)


# ----- broadcasting ---------------------------------------------------------------

@export
def broadcast_to(array, shape, subok=False):
    """`array` broadcast to `shape` (NumPy's broadcasting rules)."""
    x = as_array(array)
    shape = int_tuple(shape, "shape", "broadcast_to")
    if any(n < 0 for n in shape):
        raise ValueError(f"broadcast_to: all elements of broadcast shape must be "
                         f"non-negative, got {shape}")
    if x.ndim > len(shape):
        raise ValueError(f"broadcast_to: input operand has more dimensions than allowed by "
                         f"the axis remapping ({x.shape} to {shape})")
    if any(n not in (1, m) for n, m in zip(x.shape[::-1], shape[::-1])):
        raise ValueError(f"broadcast_to: operands could not be broadcast together with "
                         f"remapped shapes: {x.shape} and requested shape {shape}")
    # A read-only view, as NumPy's (many elements share one memory location): it shows
    # later writes into `array`.
    result = x._view_by(lambda v: broadcast_node(v._node, shape),
                        lambda p, s: np.broadcast_to(p, shape), writeable=False)
    result._scalar = False
    result.flags.writeable = False  # also for a NumPy scalar's (a new array)
    return result


@export
def broadcast_shapes(*args):
    """The shape that arrays of the given shapes broadcast to."""
    shapes = [int_tuple(s, "shape", "broadcast_shapes") for s in args]
    if any(n < 0 for s in shapes for n in s):
        raise ValueError(f"broadcast_shapes: negative dimensions are not allowed: {shapes}")
    return _broadcast_shapes(*shapes)


@export
def broadcast_arrays(*args, subok=False):
    """The arguments broadcast against each other, as a tuple."""
    xs = [as_array(a) for a in args]
    shape = _broadcast_shapes(*(x.shape for x in xs))
    return tuple(wrap(broadcast_node(x._node, shape), False) for x in xs)


# ----- shape inspection: known without computing anything -------------------------

@export
def ndim(a) -> int:
    return as_array(a).ndim


@export
def shape(a) -> tuple[int, ...]:
    return as_array(a).shape


@export
def size(a, axis=None) -> int:
    x = as_array(a)
    if axis is None:
        return x.size
    return x.shape[normalize_axis(axis, x.ndim, "size")]
