"""Padding: NumPy's `pad`, in each of its modes, axis by axis.

Every mode composes slices, reversals and concatenations of the array itself (and,
for the statistic modes, its reductions); 'median' and a callable mode run through
NumPy (a counted fallback).
"""

from __future__ import annotations

import numpy as np

from .. import _dtypes
from .._dispatch import fallback
from . import export
from .common import (Array, apply, as_array, astype, broadcast_node, concatenate_nodes,
                     full_node, host, leaf, reshape_node, slice_node, take_index_node, wrap)
from .elementwise import add, divide, equal, floor, multiply, rint, subtract, where_
from .shapes import broadcast_to, moveaxis, ravel
from .reductions import max as _max, mean as _mean, min as _min


_PAD_KWARGS = {"constant": ("constant_values",), "empty": (), "edge": (), "wrap": (),
               "reflect": ("reflect_type",), "symmetric": ("reflect_type",),
               "linear_ramp": ("end_values",), "maximum": ("stat_length",),
               "minimum": ("stat_length",), "mean": ("stat_length",),
               "median": ("stat_length",)}


def _as_pairs(x, ndim: int, as_index: bool = False) -> list:
    """NumPy's `_as_pairs`: a scalar, a (before, after) pair or a per-axis sequence of
    pairs, as one (before, after) pair per axis. Items stay NumPy scalars or Python
    scalars as in NumPy (their cast into the array differs); a lazy array of values
    stays lazy, as 0-d arrays."""
    if x is None:
        return [(None, None)] * ndim
    lazy = isinstance(x, Array) and not as_index
    if not lazy:
        x = np.array(host(x))
        if as_index:
            x = np.round(x).astype(np.intp, copy=False)
    if x.ndim < 3 and (x.size == 1 or (x.size == 2 and x.shape != (2, 1))):
        flat = ravel(x) if lazy else x.ravel()
        if as_index and (flat < 0).any():
            raise ValueError("pad: index can't contain negative values")
        pick = (lambda i: wrap(take_index_node(flat._node, i, 0))) if lazy else flat.__getitem__
        return [(pick(0), pick(flat.size - 1))] * ndim
    if as_index and x.min() < 0:
        raise ValueError("pad: index can't contain negative values")
    if lazy:
        pairs = broadcast_to(x, (ndim, 2))._node
        return [tuple(wrap(take_index_node(take_index_node(pairs, a, 0), s, 0)) for s in (0, 1))
                for a in range(ndim)]
    return np.broadcast_to(x, (ndim, 2)).tolist()


def _pad_widths(pad_width, ndim: int) -> list[tuple[int, int]]:
    if isinstance(pad_width, dict):
        seq = [(0, 0)] * ndim
        for axis, width in pad_width.items():
            if isinstance(width, int):
                seq[axis] = (width, width)
            elif (isinstance(width, tuple) and len(width) == 2
                  and all(isinstance(w, int) for w in width)):
                seq[axis] = width
            else:  # NumPy's `typing.assert_never`
                raise AssertionError(f"pad: invalid pad width {width!r} for axis {axis}")
        pad_width = seq
    widths = np.asarray(host(pad_width))
    if widths.dtype.kind != "i":
        raise TypeError("pad: `pad_width` must be of integral type.")
    return [(int(b), int(a)) for b, a in _as_pairs(widths, ndim, as_index=True)]


def _with_shape(node, axis: int, length: int) -> tuple:
    return node.shape[:axis] + (length,) + node.shape[axis + 1:]


def _join(node, axis: int, left, right):
    """`left`, `node`, `right` concatenated along `axis` (None parts left out)."""
    parts = [p for p in (left, node, right) if p is not None]
    return concatenate_nodes(parts, axis)


def _fill(value, shape: tuple, dtype):
    """`value` assigned into an array of `dtype` (NumPy's setitem cast), broadcast."""
    if isinstance(value, Array):
        return broadcast_node(astype(value, dtype)._node, shape)
    cell = np.empty((), dtype)
    cell[()] = value
    return broadcast_node(leaf(cell, (), dtype), shape)


def _pad_constant(node, axis, widths, values):
    sides = [_fill(v, _with_shape(node, axis, w), node.dtype) if w else None
             for v, w in zip(values, widths)]
    return _join(node, axis, *sides)


def _edges(node, axis):
    n = node.shape[axis]
    return slice_node(node, axis, 0, 1), slice_node(node, axis, n - 1, n)


def _pad_edge(node, axis, widths, _):
    sides = [broadcast_node(e, _with_shape(node, axis, w)) if w else None
             for e, w in zip(_edges(node, axis), widths)]
    return _join(node, axis, *sides)


def _reversed_range(node, axis, lo: int, hi: int):
    """`node[lo:hi]` along `axis`, in reverse order."""
    return slice_node(node, axis, hi - 1, lo - 1 if lo > 0 else None, -1)


def _odd(chunk, edge, dtype):
    """NumPy's odd reflection: 2 * edge - chunk, cast back into the array's dtype."""
    return astype(subtract(multiply(2, wrap(edge, False)), wrap(chunk, False)), dtype)._node


def _pad_reflect(node, axis, widths, method, include_edge):
    """NumPy's iterative reflection: each round mirrors at most the valid part so far."""
    n = node.shape[axis]
    if n == 1:  # NumPy's legacy behaviour: a singleton axis is extended by its edge
        return _pad_edge(node, axis, widths, None)
    left, right = widths
    offset = 1 if include_edge else 0
    while left > 0 or right > 0:
        length = node.shape[axis]
        period = length // n * n if include_edge else (length - 1) // (n - 1) * (n - 1)
        lchunk = rchunk = None
        if left > 0:
            c = min(period, left)
            lchunk = _reversed_range(node, axis, 1 - offset, c + 1 - offset)
            if method == "odd":
                lchunk = _odd(lchunk, _edges(node, axis)[0], node.dtype)
            left -= c
        if right > 0:
            c = min(period, right)
            rchunk = _reversed_range(node, axis, length + offset - 1 - c, length + offset - 1)
            if method == "odd":
                rchunk = _odd(rchunk, _edges(node, axis)[1], node.dtype)
            right -= c
        node = _join(node, axis, lchunk, rchunk)
    return node


def _pad_wrap(node, axis, widths, _):
    """NumPy's iterative wrapping: each round copies at most a whole number of periods."""
    n = node.shape[axis]
    left, right = widths
    while left > 0 or right > 0:
        length = node.shape[axis]
        period = length // n * n
        lchunk = rchunk = None
        if left > 0:
            c = min(period, left)
            lchunk = slice_node(node, axis, period - c, period)
            left -= c
        if right > 0:
            c = min(period, right)
            rchunk = slice_node(node, axis, length - period, length - period + c)
            right -= c
        node = _join(node, axis, lchunk, rchunk)
    return node


def _ramp(start, edge, num: int, axis: int, dtype):
    """NumPy's `linspace(start, edge.squeeze(axis), num, endpoint=False, dtype, axis)`,
    step for step (including its `any(step == 0)` branch, chosen lazily)."""
    stop = wrap(reshape_node(edge, edge.shape[:axis] + edge.shape[axis + 1:]), False)
    start = as_array(start) if isinstance(start, np.generic) else start
    dt = _dtypes.to_inexact(_dtypes.result_type(start, stop))
    delta = subtract(stop, start, dtype=dt)
    y = wrap(apply("iota", shape=(num,) + stop.shape, dtype=dt, axis=0), False)
    step = divide(delta, num)
    any_zero = wrap(apply("reduce_any", equal(step, 0)._node, axes=tuple(range(step.ndim))))
    y = where_(any_zero, multiply(divide(y, num), delta), multiply(y, step))
    y = moveaxis(astype(add(y, start), dt), 0, axis)
    if _dtypes.is_integer(dtype):
        y = floor(y)
    return astype(y, dtype)._node


def _pad_linear_ramp(node, axis, widths, end_values):
    ramps = [_ramp(v, e, w, axis, node.dtype) if w else None
             for v, e, w in zip(end_values, _edges(node, axis), widths)]
    if ramps[1] is not None:
        ramps[1] = slice_node(ramps[1], axis, None, None, -1)
    return _join(node, axis, *ramps)


def _pad_stat(node, axis, widths, lengths, mode):
    """Pad with a statistic of the first/last `lengths` values (whole axis for None)."""
    n = node.shape[axis]
    lengths = [n if k is None or n < k else k for k in lengths]
    if 0 in lengths and mode != "mean":
        raise ValueError("pad: stat_length of 0 yields no value for padding")
    if widths == (0, 0):
        return node
    stat = {"maximum": _max, "minimum": _min, "mean": _mean}[mode]

    def value(lo, hi):
        result = stat(wrap(slice_node(node, axis, lo, hi), False), axis=axis, keepdims=True)
        if _dtypes.is_integer(node.dtype) and _dtypes.is_inexact(result.dtype):
            result = rint(result)  # NumPy rounds a mean before storing it in integers
        return astype(result, node.dtype)._node

    left = value(0, lengths[0])
    right = left if lengths == [n, n] else value(n - lengths[1], n)
    sides = [broadcast_node(v, _with_shape(node, axis, w)) if w else None
             for v, w in zip((left, right), widths)]
    return _join(node, axis, *sides)


@export
def pad(array, pad_width, mode="constant", **kwargs):
    """`array` padded by `pad_width` (NumPy's forms) in one of NumPy's modes, axis by
    axis as NumPy does (corners come from the later axes). 'empty' pads with zeros;
    'median' and a callable mode run through NumPy (a counted fallback)."""
    x = as_array(array)
    widths = _pad_widths(pad_width, x.ndim)
    if not callable(mode):
        if mode not in _PAD_KWARGS:
            raise ValueError(f"pad: mode '{mode}' is not supported")
        unsupported = set(kwargs) - set(_PAD_KWARGS[mode])
        if unsupported:
            raise ValueError(f"pad: unsupported keyword arguments for mode '{mode}': "
                             f"{unsupported}")
    if callable(mode) or mode == "median":
        return fallback(np.pad, (x, pad_width, mode), kwargs, name="pad")
    if mode in ("constant", "empty"):
        values = _as_pairs(kwargs.get("constant_values", 0), x.ndim)
        pad_axis, extras = _pad_constant, values
    elif x.size == 0:
        for axis, (n, w) in enumerate(zip(x.shape, widths)):
            if n == 0 and any(w):
                raise ValueError(f"pad: can't extend empty axis {axis} using modes other "
                                 f"than 'constant' or 'empty'")
        shape = tuple(n + b + a for n, (b, a) in zip(x.shape, widths))
        return wrap(full_node(0, shape, x.dtype), False)
    elif mode in ("reflect", "symmetric"):
        method, symmetric = kwargs.get("reflect_type", "even"), mode == "symmetric"
        pad_axis = lambda node, axis, w, _: _pad_reflect(node, axis, w, method, symmetric)
        extras = [None] * x.ndim
    elif mode == "linear_ramp":
        pad_axis, extras = _pad_linear_ramp, _as_pairs(kwargs.get("end_values", 0), x.ndim)
    elif mode in ("maximum", "minimum", "mean"):
        pad_axis = lambda node, axis, w, lengths: _pad_stat(node, axis, w, lengths, mode)
        extras = _as_pairs(kwargs.get("stat_length"), x.ndim, as_index=True)
    else:
        pad_axis = {"edge": _pad_edge, "wrap": _pad_wrap}[mode]
        extras = [None] * x.ndim
    node = x._node
    for axis, (w, extra) in enumerate(zip(widths, extras)):
        if any(w) or mode in ("maximum", "minimum"):
            node = pad_axis(node, axis, w, extra)
    return wrap(node, False)
