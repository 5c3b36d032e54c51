"""Sorting primitives: stable sorts, lexicographic argsorts, binary search and
counting into bins.

Every order here is NumPy's sort order: NaN after every number, -0.0 equal to 0.0,
and complex numbers lexicographic by (real, imag) with the NaN classes last in the
order R + Rj < R + nanj < nan + Rj < nan + nanj (numpy/_core/src/npysort). The sorts
are stable, which NumPy's default kinds are not: on ties a stable sort is one of the
orders NumPy's quicksort may give, and the only one that can be reproduced.
"""

from __future__ import annotations

import numpy as np

from . import _dtypes
from ._registry import axis_in, kind_in, operand_count, primitive, require, same_dtypes


def _along(shapes, axis):
    """The one shape of the keys, `axis` one of its axes."""
    require(shapes and all(s == shapes[0] for s in shapes), f"keys of shapes {shapes}")
    axis_in(axis, len(shapes[0]))
    return shapes[0]


def _same_dtype(dtypes, **_):
    operand_count(dtypes, 1)
    return dtypes[0]


def _index_dtype(dtypes, **_):
    return _dtypes.intp


@primitive("sort", _along, _same_dtype)
def _sort(x, axis):
    """`x` sorted along `axis` in NumPy's order, by NumPy's default kind (its SIMD
    quicksort: on 1e6 float64 6x faster than kind="stable"). Sorted values are the
    same whichever kind sorts them, but for the order of -0.0 and 0.0 among themselves,
    which compare equal: the default kind orders them as NumPy's default `sort` does."""
    return np.sort(x, axis=axis)


@primitive("argsort", _along, _index_dtype)
def _argsort(*keys, axis):
    """The stable lexicographic order of `keys` (all of one shape) along `axis`, the
    first key most significant (np.lexsort takes them in the reverse order)."""
    if len(keys) == 1:
        return np.argsort(keys[0], axis=axis, kind="stable")
    return np.lexsort(keys[::-1], axis=axis)


def _searchsorted_shape(shapes, side):
    operand_count(shapes, 2)
    require(len(shapes[0]) == 1 and side in ("left", "right"), "needs a 1-d `a` and a side")
    return shapes[1]


def _searchsorted_dtype(dtypes, side):
    same_dtypes(dtypes)
    return _dtypes.intp


@primitive("searchsorted", _searchsorted_shape, _searchsorted_dtype)
def _searchsorted(a, v, side):
    """For each element of `v`, its insertion point in the sorted 1-d `a` (same dtype)."""
    return np.searchsorted(a, v, side=side)


def _bincount_shape(shapes, length):
    require(len(shapes) in (1, 2) and len(shapes[0]) == 1 and shapes[-1] == shapes[0]
            and length >= 0, "needs a 1-d `x`, weights of its shape, a length >= 0")
    return (length,)


def _bincount_dtype(dtypes, length):
    kind_in(dtypes[0], "iu", "the values'")
    return dtypes[1] if len(dtypes) > 1 else _dtypes.intp


@primitive("bincount", _bincount_shape, _bincount_dtype)
def _bincount(x, *weights, length):
    """Occurrences (or summed float64 `weights`, in order) of each value of the 1-d
    int64 `x`, whose values are all in [0, length)."""
    return np.bincount(x, weights=weights[0] if weights else None, minlength=length)


def _histogram_shape(shapes, n):
    require(len(shapes) == 6 and len(shapes[0]) == 1 and shapes[1] == (n + 1,)
            and all(s == () for s in shapes[2:]) and n >= 1,
            "needs 1-d values, n + 1 edges, four 0-d bounds and n >= 1")
    return (n,)


def _histogram_dtype(dtypes, n):
    kind_in(dtypes[1], "f", "the edges'")
    return _dtypes.intp


HISTOGRAM_BLOCK = 65536  # NumPy counts in blocks of this many values


@primitive("histogram_counts", _histogram_shape, _histogram_dtype)
def _histogram_counts(x, edges, low, high, first, denom, *, n):
    """How many of the values `x` fall in each of the `n` equal bins of `edges`, as
    numpy's histogram counts them (unweighted): a value in [low, high] (0-d, in the
    dtype NumPy compares `x` with the outer edges in) goes to bin
    int((value - first) / denom * n) (`value` in the edges' dtype, `first` in the dtype
    NumPy subtracts in, `denom` its last edge minus its first), corrected by comparing
    it with the edges; the last bin includes its right edge. In blocks, as NumPy."""
    counts = np.zeros(n, _dtypes.intp)
    for start in range(0, x.shape[0], HISTOGRAM_BLOCK):
        block = x[start:start + HISTOGRAM_BLOCK]
        block = block[(block >= low) & (block <= high)]
        values = block.astype(edges.dtype, copy=False)
        index = ((np.subtract(values, first) / denom) * n).astype(_dtypes.intp)
        index[index == n] -= 1
        index[values < edges[index]] -= 1
        index[(values >= edges[index + 1]) & (index != n - 1)] += 1
        counts += np.bincount(index, minlength=n)
    return counts
