"""Unique values, membership and the 1-d set operations (numpy/lib/_arraysetops_impl.py):
the unique family, isin, intersect1d, union1d, setdiff1d and setxor1d. Each sorts
with the stable primitives (see `sorting`); a result whose length depends on the data
reads one count (a flush with cause "shape") and builds the rest lazily.
"""
from __future__ import annotations

import builtins
import math
from typing import NamedTuple

import numpy as np

from .. import _dtypes
from . import export
from . import elementwise as ew
from .common import (Array, AxisError, apply, as_array, astype, concat1, flattened, host_array, iota,
                     leaf_array, normalize_axis, reshape_node, slice1, take1,
                     transpose_node, wrap)
from .sorting import search, sort_order, sorted_along

_SORT_KINDS = "qhms"  # quicksort, heapsort, mergesort, stable: the first letter decides


def _true_positions(mask: Array) -> Array:
    """The positions of the true elements of a 1-d bool array, in order. How many there
    are decides the shape: that count is read (a flush with cause "shape"), the
    positions are found lazily by searching the running count."""
    if mask.size == 0:
        return leaf_array(np.zeros(0, np.int64))
    return _true_positions_and_count(mask)[0]


def _compress(x: Array, mask: Array) -> Array:
    """x[mask] for 1-d arrays (see `_true_positions`)."""
    return take1(x, _true_positions(mask))


# ---------------------------------------------------------------------------------
# Unique values (numpy/lib/_arraysetops_impl.py: _unique1d on rows of keys).

class UniqueAllResult(NamedTuple):
    values: Array
    indices: Array
    inverse_indices: Array
    counts: Array


class UniqueCountsResult(NamedTuple):
    values: Array
    counts: Array


class UniqueInverseResult(NamedTuple):
    values: Array
    inverse_indices: Array


def _differs(columns: list[Array], equal_nan: bool) -> Array:
    """For sorted rows (given as columns), whether each row after the first differs
    from the one before; with `equal_nan`, NaNs (any NaN part) are all equal."""
    n = columns[0].size if columns else 0
    differs = None
    for col in columns:
        later, earlier = slice1(col, 1, None), slice1(col, None, -1)
        d = ew.not_equal(later, earlier)
        if equal_nan:
            d = ew.logical_and(d, ew.logical_not(ew.logical_and(ew.isnan(later),
                                                                ew.isnan(earlier))))
        differs = d if differs is None else ew.logical_or(differs, d)
    if differs is None:  # rows without elements are all equal
        differs = leaf_array(np.zeros(builtins.max(n - 1, 0), bool))
    return differs


def _unique_rows(rows: Array, flat: bool, return_index: bool, return_inverse: bool,
                 return_counts: bool, equal_nan: bool) -> tuple:
    """NumPy's _unique1d on the rows of the 2-d `rows` (the elements of a 1-d array
    when `flat`): (unique rows, [first indices], [inverse], [counts])."""
    n, m = rows.shape
    columns = [flattened(rows)] if flat else [
        wrap(apply("slice", rows._node, starts=(0, j), stops=(n, j + 1), steps=(1, 1)))
        for j in range(m)]
    columns = [wrap(reshape_node(c._node, (n,)), False) for c in columns]
    equal_nan = equal_nan and flat and _dtypes.is_inexact(rows.dtype)
    if n == 0:
        empty = leaf_array(np.zeros(0, np.intp))
        values = rows if not flat else flattened(rows)
        return (values,) + (empty,) * (return_index + return_inverse + return_counts)
    perm = None
    if return_index or return_inverse or not flat:
        perm = sort_order(columns, 0) if columns else iota(n)
        aux = [take1(c, perm) for c in columns]
    else:
        aux = [sorted_along(columns[0], 0)]
    first = leaf_array(np.ones(1, bool))
    mask = wrap(apply("concatenate", first._node, _differs(aux, equal_nan)._node, axis=0),
                False)
    positions, running = _true_positions_and_count(mask)
    if flat:
        values = take1(aux[0], positions)
    else:
        values = wrap(apply("take", rows._node, take1(perm, positions)._node, axis=0),
                      False)
    result = (values,)
    if return_index:
        result += (take1(perm, positions),)
    if return_inverse:
        result += (take1(ew.subtract(running, 1), sort_order([perm], 0)),)
    if return_counts:
        ends = concat1(positions, leaf_array(np.array([n], np.int64)))
        result += (ew.subtract(slice1(ends, 1, None), slice1(ends, None, -1)),)
    return result


def _true_positions_and_count(mask: Array) -> tuple[Array, Array]:
    """`_true_positions` of a non-empty 1-d mask, and its running count."""
    running = wrap(apply("cumsum", astype(mask, _dtypes.int64)._node, axis=0), False)
    count = int(host_array(slice1(running, -1, None), "shape")[0])
    return search(running, ew.add(iota(count), 1), "left"), running


def _first_nan_instead(values: Array, x: Array) -> Array:
    """NumPy's hash-based unique keeps, of all the complex NaNs, the first one met in
    the input: the last unique value (the NaN, if any) becomes that one."""
    if values.size == 0:
        return values
    nan = ew.isnan(x)
    first_nan = take1(x, wrap(apply("argmax", nan._node, axis=0)))
    last = ew.equal(iota(values.size), values.size - 1)
    return ew.where_(ew.logical_and(last, ew.isnan(values)), first_nan, values)


def _unpack(result: tuple):
    return result[0] if len(result) == 1 else result


@export
def unique(ar, return_index=False, return_inverse=False, return_counts=False, axis=None,
           *, equal_nan=True, sorted=True):
    """The sorted unique elements (or rows/slices along `axis`), optionally with the
    index of each one's first occurrence, the inverse indices and the counts. How many
    there are is read from the data (a flush with cause "shape")."""
    x = as_array(ar)
    options = (builtins.bool(return_index), builtins.bool(return_inverse),
               builtins.bool(return_counts))
    if axis is None or x.ndim == 1:
        if axis is not None:
            normalize_axis(axis, x.ndim, "unique")
        values = flattened(x)
        result = _unique_rows(wrap(reshape_node(values._node, (x.size, 1)), False), True,
                              *options, builtins.bool(equal_nan))
        if not any(options) and equal_nan and _dtypes.is_complex(x.dtype):
            result = (_first_nan_instead(result[0], values),)
        if options[1]:
            inverse = result[1 + options[0]]
            result = result[:1 + options[0]] + (wrap(reshape_node(inverse._node, x.shape),
                                                     False),) + result[2 + options[0]:]
        return _unpack(result)
    try:
        ax = normalize_axis(axis, x.ndim, "unique")
    except AxisError:
        raise AxisError(axis, x.ndim) from None
    order = (ax,) + tuple(i for i in range(x.ndim) if i != ax)
    moved = transpose_node(x._node, order)
    rest = moved.shape[1:]
    rows = wrap(reshape_node(moved, (moved.shape[0], math.prod(rest))), False)
    result = _unique_rows(rows, False, *options, False)
    values = reshape_node(result[0]._node, (result[0].shape[0],) + rest)
    back = tuple(int(i) for i in np.argsort(order))
    return _unpack((wrap(transpose_node(values, back), False),) + result[1:])


@export
def unique_all(x):
    """Array API: unique values, first indices, inverse indices and counts (NaNs
    distinct)."""
    return UniqueAllResult(*unique(x, True, True, True, equal_nan=False))


@export
def unique_counts(x):
    """Array API: unique values and their counts (NaNs distinct)."""
    return UniqueCountsResult(*unique(x, return_counts=True, equal_nan=False))


@export
def unique_inverse(x):
    """Array API: unique values and the inverse indices (NaNs distinct)."""
    return UniqueInverseResult(*unique(x, return_inverse=True, equal_nan=False))


@export
def unique_values(x):
    """Array API: the unique values (NaNs distinct). Sorted, where NumPy leaves the
    order unspecified (it returns its hash table's order)."""
    return unique(x, equal_nan=False, sorted=False)


# ---------------------------------------------------------------------------------
# Set operations and membership.

def _member(values: Array, tests: Array) -> Array:
    """Whether each of the 1-d `values` equals one of the 1-d `tests` (NaN never does):
    binary search in the sorted tests, in their common dtype."""
    if tests.size == 0 or values.size == 0:
        return leaf_array(np.zeros(values.shape, bool))
    dtype = _dtypes.result_type(values.dtype, tests.dtype)
    table = sorted_along(astype(tests, dtype), 0)
    keys = astype(values, dtype)
    found = ew.minimum(search(table, keys, "left"), tests.size - 1)
    return ew.equal(take1(table, found), keys)


@export
def isin(element, test_elements, assume_unique=False, invert=False, *, kind=None):
    """Whether each element of `element` is in `test_elements` (an array of its
    shape); `invert` negates."""
    if kind not in (None, "sort", "table"):
        raise ValueError(f"isin: Invalid kind: '{kind}'. Please use None, 'sort' or "
                         "'table'.")
    x, tests = as_array(element), as_array(test_elements)
    integral = all(_dtypes.is_integer(t.dtype) or _dtypes.is_bool(t.dtype) for t in (x, tests))
    if kind == "table" and not integral:
        raise ValueError("isin: The 'table' method is only supported for boolean or "
                         "integer arrays. Please select 'sort' or None for kind.")
    found = _member(flattened(x), flattened(tests))
    if invert:
        found = ew.logical_not(found)
    return wrap(reshape_node(found._node, x.shape), False)


def _ravel(a) -> Array:
    return flattened(as_array(a))


def _sorted_pairs(aux: Array) -> tuple[Array, Array]:
    return slice1(aux, 1, None), slice1(aux, None, -1)


@export
def intersect1d(ar1, ar2, assume_unique=False, return_indices=False):
    """The sorted values common to both (NaNs never are), optionally with their first
    indices in each."""
    if not assume_unique:
        if return_indices:
            a1, ind1 = unique(ar1, return_index=True)
            a2, ind2 = unique(ar2, return_index=True)
        else:
            a1, a2 = unique(ar1), unique(ar2)
    else:
        a1, a2 = _ravel(ar1), _ravel(ar2)
    aux = concat1(a1, a2)
    if return_indices:
        order = sort_order([aux], 0)
        aux = take1(aux, order) if aux.size else aux
    else:
        aux = sorted_along(aux, 0)
    later, earlier = _sorted_pairs(aux)
    keep = _true_positions(ew.equal(later, earlier))
    common = take1(earlier, keep)
    if not return_indices:
        return common
    idx1 = take1(slice1(order, None, -1), keep)
    idx2 = ew.subtract(take1(slice1(order, 1, None), keep), a1.size)
    if not assume_unique:
        idx1, idx2 = take1(ind1, idx1), take1(ind2, idx2)
    return common, idx1, idx2


@export
def union1d(ar1, ar2):
    """The sorted unique values in either."""
    return unique(concat1(_ravel(ar1), _ravel(ar2)))


@export
def setdiff1d(ar1, ar2, assume_unique=False):
    """The values of `ar1` not in `ar2` (sorted and unique unless `assume_unique`)."""
    if assume_unique:
        a1, a2 = _ravel(ar1), _ravel(ar2)
    else:
        a1, a2 = unique(ar1), unique(ar2)
    return _compress(a1, ew.logical_not(_member(a1, a2)))


@export
def setxor1d(ar1, ar2, assume_unique=False):
    """The sorted values in exactly one of the two."""
    if not assume_unique:
        ar1, ar2 = unique(ar1), unique(ar2)
    aux = concat1(_ravel(ar1), _ravel(ar2))
    if aux.size == 0:
        return aux
    aux = sorted_along(aux, 0)
    later, earlier = _sorted_pairs(aux)
    edge = leaf_array(np.ones(1, bool))
    flag = concat1(edge, ew.not_equal(later, earlier), edge)
    single = ew.logical_and(slice1(flag, 1, None), slice1(flag, None, -1))
    return _compress(aux, single)


