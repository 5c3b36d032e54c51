"""Sorting, searching, sets and counting: sort, argsort, lexsort, partition,
argpartition, sort_complex, searchsorted, the unique family, isin and the 1-d set
operations, digitize, bincount and the histograms (1-d, 2-d and n-d).

Everything sorts with the stable `sort`/`argsort` primitives in NumPy's order (NaN
last, -0.0 equal to 0.0, complex numbers lexicographic with NaN classes last).
Results whose length depends on the data (unique values, set operations) read one
count (a flush with cause "shape") and build the rest lazily; bincount reads the
smallest and largest value (its length, and NumPy's error for negatives). Where
NumPy checks data or derives a computation from it, lazy data is read too (cause
"control"): digitize's bins (increasing or decreasing), a histogram's range when
not given (its min and max), an estimator name as `bins` (all the data: the number
of bins). Everything else stays lazy.

Known differences from NumPy (each also said where it applies):
- NumPy's default sort kinds are not stable. lazyarr's sorts always are, so on ties
  `argsort`/`argpartition` give the stable order (one of the orders NumPy's sort
  may give), and `partition`/`argpartition` return the fully sorted order, which is
  a valid partition for every `kth`.
- `unique(..., sorted=False)` and `unique_values` return the values sorted; NumPy
  returns them in the order of its hash table, which is unspecified.
- `isin` and `setdiff1d` compute true membership; with `assume_unique=True` on input
  that is not unique, NumPy's result is undefined. Mixing a signed integer array
  with a uint64 one compares in float64 (NumPy's sort path), where NumPy's table
  path compares exactly.
- `searchsorted` with a `sorter` whose values are out of range clips them; NumPy's
  result is undefined there.
"""

from __future__ import annotations

import builtins
import math
import operator
import warnings
from typing import NamedTuple

import numpy as np

from .. import _dtypes, _flush
from . import export
from . import elementwise as ew
from .common import (Array, AxisError, apply, as_array, astype, leaf, normalize_axis,
                     reshape_node, transpose_node, wrap)
from .manipulation import flip

_SORT_KINDS = "qhms"  # quicksort, heapsort, mergesort, stable: the first letter decides


# ---------------------------------------------------------------------------------
# Helpers.

def _host(x, cause: str = "control") -> np.ndarray:
    """The values of `x` on the host; a flush with `cause` only if `x` is pending."""
    if isinstance(x, Array):
        return np.asarray(_flush.to_numpy(x._node, cause))
    return np.asarray(x)


def _leaf(value) -> Array:
    value = np.asarray(value)
    return wrap(leaf(value, value.shape, value.dtype), scalar=False)


def _flat(x: Array) -> Array:
    return wrap(reshape_node(x._node, (x.size,)), False)


def _along(x: Array, axis, func: str) -> tuple[Array, int]:
    """(x, axis) for a function along one axis: None flattens."""
    if axis is None:
        return _flat(x), 0
    return x, normalize_axis(axis, x.ndim, func)


def _iota(n: int) -> Array:
    return wrap(apply("iota", shape=(n,), dtype=_dtypes.int64, axis=0), False)


def _slice1(x: Array, start, stop) -> Array:
    """x[start:stop] of a 1-d array."""
    begin, end, _ = slice(start, stop).indices(x.shape[0])
    end = builtins.max(begin, end)
    if (begin, end) == (0, x.shape[0]):
        return x
    return wrap(apply("slice", x._node, starts=(begin,), stops=(end,), steps=(1,)), False)


def _take1(x: Array, index: Array) -> Array:
    """x[index] for a 1-d `x` and int64 indices already in range."""
    if index.size == 0 or x.size == 0:
        return _leaf(np.zeros(index.shape, x.dtype))
    return wrap(apply("take", x._node, astype(index, _dtypes.int64)._node, axis=0))


def _concat1(*xs: Array) -> Array:
    dtype = _dtypes.result_type(*xs)
    return wrap(apply("concatenate", *(astype(x, dtype)._node for x in xs), axis=0), False)


def _sorted(x: Array, axis: int) -> Array:
    if x.size == 0:
        return wrap(x._node, False)
    return wrap(apply("sort", x._node, axis=axis), False)


def _order(keys: list, axis: int) -> Array:
    """The stable lexicographic order (first key most significant) along `axis`."""
    if keys[0].size == 0:
        return wrap(leaf(np.zeros(keys[0].shape, np.intp), keys[0].shape, _dtypes.intp), False)
    return wrap(apply("argsort", *(k._node for k in keys), axis=axis), False)


def _search(a: Array, v: Array, side: str = "left") -> Array:
    """Insertion points of `v` in the sorted 1-d `a` (both cast to their common dtype)."""
    dtype = _dtypes.result_type(a.dtype, v.dtype)
    return wrap(apply("searchsorted", astype(a, dtype)._node, astype(v, dtype)._node,
                      side=side))


def _true_positions(mask: Array) -> Array:
    """The positions of the true elements of a 1-d bool array, in order. How many there
    are decides the shape: that count is read (a flush with cause "shape"), the
    positions are found lazily by searching the running count."""
    if mask.size == 0:
        return _leaf(np.zeros(0, np.int64))
    return _true_positions_and_count(mask)[0]


def _compress(x: Array, mask: Array) -> Array:
    """x[mask] for 1-d arrays (see `_true_positions`)."""
    return _take1(x, _true_positions(mask))


def _check_kind(kind, stable, func: str) -> None:
    if kind is not None and stable is not None:
        raise ValueError(f"{func}: `kind` and keyword parameters can't be provided at the "
                         "same time. Use only one of them.")
    if kind is None:
        return
    if not isinstance(kind, str):
        raise TypeError(f"{func}: sort kind must be str, not {type(kind).__name__}")
    if not kind or kind[0].lower() not in _SORT_KINDS:
        raise ValueError(f"{func}: sort kind must be one of 'quick', 'heap', or 'stable' "
                         f"(got {kind!r})")


def _no_order(order, func: str) -> None:
    if order is not None:
        raise ValueError(f"{func}: Cannot specify order when the array has no fields.")


# ---------------------------------------------------------------------------------
# Sorting.

@export
def sort(a, axis=-1, kind=None, order=None, *, stable=None, descending=False):
    """A sorted copy along `axis` (flattened when None), in NumPy's order; with the
    Array API's `descending=True` (an extension of NumPy's signature), that order
    reversed."""
    _check_kind(kind, stable, "sort")
    _no_order(order, "sort")
    x, ax = _along(as_array(a), axis, "sort")
    result = _sorted(x, ax)
    return flip(result, ax) if descending else result


@export
def argsort(a, axis=-1, kind=None, order=None, *, stable=None, descending=False):
    """Indices that sort `a` along `axis`. Always the stable order: NumPy's default kind
    may order ties differently (see the module notes). The Array API's
    `descending=True` (an extension of NumPy's signature) orders from largest to
    smallest, ties still in their original order, as the standard asks."""
    _check_kind(kind, stable, "argsort")
    _no_order(order, "argsort")
    x = as_array(a)
    if x.ndim == 0:  # NumPy sorts a 0-d array as a 1-d one
        x = wrap(reshape_node(x._node, (1,)), False)
    x, ax = _along(x, axis, "argsort")
    if not descending:
        return _order([x], ax)
    # The stable order of the reversed array, reversed, counts positions from the end.
    last = x.shape[ax] - 1
    return ew.subtract(last, flip(_order([flip(x, ax)], ax), ax))



def _lexsort_keys(keys) -> list[Array]:
    if isinstance(keys, (list, tuple)):
        xs = [as_array(k) for k in keys]
    else:
        arr = as_array(keys)
        xs = [] if arr.ndim == 0 else [wrap(apply("slice", arr._node,
                                                  starts=(i,) + (0,) * (arr.ndim - 1),
                                                  stops=(i + 1,) + arr.shape[1:],
                                                  steps=(1,) * arr.ndim))
                                       for i in range(arr.shape[0])]
        xs = [wrap(reshape_node(x._node, arr.shape[1:])) for x in xs]
    if not xs:
        raise TypeError("lexsort: need sequence of keys with len > 0 in lexsort")
    if len({x.shape for x in xs}) != 1:
        raise ValueError("lexsort: all keys need to be the same shape")
    return xs


@export
def lexsort(keys, axis=-1):
    """Indirect stable sort by several keys, the last key the primary one."""
    xs = _lexsort_keys(keys)
    if axis is None:
        raise TypeError("lexsort: 'NoneType' object cannot be interpreted as an integer")
    if xs[0].ndim == 0:
        operator.index(axis)
        return wrap(leaf(np.intp(0), (), _dtypes.intp))
    ax = normalize_axis(axis, xs[0].ndim, "lexsort")
    return _order(xs[::-1], ax)


def _check_kth(kth, n: int, func: str) -> None:
    """NumPy's checks of a partition index: integers (not bools) in [-n, n), at most
    1-d. An empty axis takes any integer."""
    values = _host(kth)
    if values.dtype == np.bool_:
        raise ValueError(f"{func}: Booleans unacceptable as partition index")
    if values.dtype.kind not in "iu":
        raise TypeError(f"{func}: Partition index must be integer")
    if values.ndim > 1:
        raise ValueError(f"{func}: kth must be a scalar or 1-d sequence of integers")
    if n == 0:
        return
    for k in values.ravel().tolist():
        if not -n <= k < n:
            raise ValueError(f"{func}: kth(={k if k >= 0 else k + n}) out of bounds ({n})")


def _check_select_kind(kind, func: str) -> None:
    if kind != "introselect":
        raise ValueError(f"{func}: select kind must be 'introselect' (got {kind!r})")


@export
def partition(a, kth, axis=-1, kind="introselect", order=None):
    """A partitioned copy: every element before position k is <= a[k] <= every
    element after, for each k in `kth`. The fully sorted array is such a partition,
    and is what lazyarr returns (NumPy's order within the parts is unspecified)."""
    _check_select_kind(kind, "partition")
    _no_order(order, "partition")
    x, ax = _along(as_array(a), axis, "partition")
    _check_kth(kth, x.shape[ax], "partition")
    return _sorted(x, ax)


@export
def argpartition(a, kth, axis=-1, kind="introselect", order=None):
    """Indices that partition `a` (the stable sorting order; see `partition`)."""
    _check_select_kind(kind, "argpartition")
    _no_order(order, "argpartition")
    x = as_array(a)
    if x.ndim == 0:
        x = wrap(reshape_node(x._node, (1,)), False)
    x, ax = _along(x, axis, "argpartition")
    _check_kth(kth, x.shape[ax], "argpartition")
    return _order([x], ax)


@export
def sort_complex(a):
    """Sorted along the last axis, as complex: complex64 for (u)int8/16, complex128
    for other real dtypes."""
    x = sort(a)
    if _dtypes.is_complex(x.dtype):
        return x
    small = x.dtype in (_dtypes.int8, _dtypes.int16, _dtypes.uint8, _dtypes.uint16)
    return astype(x, _dtypes.complex64 if small else _dtypes.complex128)


# ---------------------------------------------------------------------------------
# Searching.

def _search_dtype(a: Array, v) -> np.dtype:
    """NumPy's common type of the sorted array and the keys (keys' own types, not
    NEP 50 weak ones: a Python int searched in int8 data is an int64)."""
    vdt = v.dtype if isinstance(v, Array) else np.asarray(v).dtype
    return _dtypes.result_type(a.dtype, vdt)


@export
def searchsorted(a, v, side="left", sorter=None):
    """Where each `v` would be inserted into the sorted 1-d `a` to keep it sorted
    (NumPy's order: NaN last)."""
    x = as_array(a)
    if x.ndim != 1:
        raise ValueError("searchsorted: object " + ("too deep" if x.ndim else
                                                    "of too small depth") +
                         " for desired array")
    if side not in ("left", "right"):
        raise ValueError(f"searchsorted: search side must be 'left' or 'right' (got {side!r})")
    if sorter is not None:
        order = as_array(sorter)
        if not _dtypes.is_integer(order.dtype) and not _dtypes.is_bool(order.dtype):
            raise TypeError("searchsorted: sorter must only contain integers")
        if order.ndim != 1:
            raise TypeError("searchsorted: could not parse sorter argument")
        if order.size != x.size:
            raise ValueError("searchsorted: sorter.size must equal a.size")
        if x.size:
            x = _take1(x, ew.clip(astype(order, _dtypes.int64), 0, x.size - 1))
    dtype = _search_dtype(x, v)
    keys = astype(as_array(v), dtype)
    return _search(astype(x, dtype), keys, side)


@export
def digitize(x, bins, right=False):
    """Index of the bin of each value: bins[i-1] <= x < bins[i] for increasing bins
    (the other side with `right`), as NumPy's, for increasing or decreasing bins.
    Whether the bins increase decides the computation, so lazy bins are read (a
    flush with cause "control"), as NumPy reads them to check them."""
    values = as_array(x)
    if _dtypes.is_complex(values.dtype):
        raise TypeError("digitize: x may not be complex")
    edges = as_array(bins)
    if edges.ndim != 1:
        raise ValueError("digitize: object " + ("too deep" if edges.ndim else
                                                "of too small depth") + " for desired array")
    if _dtypes.is_complex(edges.dtype):
        raise TypeError("digitize: Cannot cast array data from dtype('complex128') to "
                        "dtype('float64') according to the rule 'safe'")
    mono = _monotonicity(_host(edges).astype(np.float64))
    if mono == 0:
        raise ValueError("digitize: bins must be monotonically increasing or decreasing")
    side = "left" if right else "right"
    dtype = _dtypes.result_type(values.dtype, edges.dtype)
    if mono == -1:
        flipped = wrap(apply("slice", edges._node, starts=(edges.size - 1,), stops=(-1,),
                             steps=(-1,)), False) if edges.size else edges
        return ew.subtract(edges.size, _search(astype(flipped, dtype),
                                                         astype(values, dtype), side))
    return _search(astype(edges, dtype), astype(values, dtype), side)


def _monotonicity(d: np.ndarray) -> int:
    """NumPy's check_array_monotonic: 1 increasing, -1 decreasing, 0 neither, after
    skipping leading values equal to the first (a NaN never is)."""
    if d.size == 0:
        return 1
    differs = np.flatnonzero(d != d[0])
    differs = differs[differs > 0]
    if differs.size == 0:
        return 1
    i = differs[0]
    before, after = d[i:-1], d[i + 1:]
    if d[0] < d[i]:
        return 0 if np.any(before > after) else 1
    return 0 if np.any(before < after) else -1


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
        later, earlier = _slice1(col, 1, None), _slice1(col, None, -1)
        d = ew.not_equal(later, earlier)
        if equal_nan:
            d = ew.logical_and(d, ew.logical_not(ew.logical_and(ew.isnan(later),
                                                                ew.isnan(earlier))))
        differs = d if differs is None else ew.logical_or(differs, d)
    if differs is None:  # rows without elements are all equal
        differs = _leaf(np.zeros(builtins.max(n - 1, 0), bool))
    return differs


def _unique_rows(rows: Array, flat: bool, return_index: bool, return_inverse: bool,
                 return_counts: bool, equal_nan: bool) -> tuple:
    """NumPy's _unique1d on the rows of the 2-d `rows` (the elements of a 1-d array
    when `flat`): (unique rows, [first indices], [inverse], [counts])."""
    n, m = rows.shape
    columns = [_flat(rows)] if flat else [
        wrap(apply("slice", rows._node, starts=(0, j), stops=(n, j + 1), steps=(1, 1)))
        for j in range(m)]
    columns = [wrap(reshape_node(c._node, (n,)), False) for c in columns]
    equal_nan = equal_nan and flat and _dtypes.is_inexact(rows.dtype)
    if n == 0:
        empty = _leaf(np.zeros(0, np.intp))
        values = rows if not flat else _flat(rows)
        return (values,) + (empty,) * (return_index + return_inverse + return_counts)
    perm = None
    if return_index or return_inverse or not flat:
        perm = _order(columns, 0) if columns else _iota(n)
        aux = [_take1(c, perm) for c in columns]
    else:
        aux = [_sorted(columns[0], 0)]
    first = _leaf(np.ones(1, bool))
    mask = wrap(apply("concatenate", first._node, _differs(aux, equal_nan)._node, axis=0),
                False)
    positions, running = _true_positions_and_count(mask)
    if flat:
        values = _take1(aux[0], positions)
    else:
        values = wrap(apply("take", rows._node, _take1(perm, positions)._node, axis=0),
                      False)
    result = (values,)
    if return_index:
        result += (_take1(perm, positions),)
    if return_inverse:
        result += (_take1(ew.subtract(running, 1), _order([perm], 0)),)
    if return_counts:
        ends = _concat1(positions, _leaf(np.array([n], np.int64)))
        result += (ew.subtract(_slice1(ends, 1, None), _slice1(ends, None, -1)),)
    return result


def _true_positions_and_count(mask: Array) -> tuple[Array, Array]:
    """`_true_positions` of a non-empty 1-d mask, and its running count."""
    running = wrap(apply("cumsum", astype(mask, _dtypes.int64)._node, axis=0), False)
    count = int(_host(_slice1(running, -1, None), "shape")[0])
    return _search(running, ew.add(_iota(count), 1), "left"), running


def _first_nan_instead(values: Array, x: Array) -> Array:
    """NumPy's hash-based unique keeps, of all the complex NaNs, the first one met in
    the input: the last unique value (the NaN, if any) becomes that one."""
    if values.size == 0:
        return values
    nan = ew.isnan(x)
    first_nan = _take1(x, wrap(apply("argmax", nan._node, axis=0)))
    last = ew.equal(_iota(values.size), values.size - 1)
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
        flat = _flat(x)
        result = _unique_rows(wrap(reshape_node(flat._node, (x.size, 1)), False), True,
                              *options, builtins.bool(equal_nan))
        if not any(options) and equal_nan and _dtypes.is_complex(x.dtype):
            result = (_first_nan_instead(result[0], flat),)
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
        return _leaf(np.zeros(values.shape, bool))
    dtype = _dtypes.result_type(values.dtype, tests.dtype)
    table = _sorted(astype(tests, dtype), 0)
    keys = astype(values, dtype)
    found = ew.minimum(_search(table, keys, "left"), tests.size - 1)
    return ew.equal(_take1(table, found), keys)


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
    found = _member(_flat(x), _flat(tests))
    if invert:
        found = ew.logical_not(found)
    return wrap(reshape_node(found._node, x.shape), False)


def _ravel(a) -> Array:
    return _flat(as_array(a))


def _sorted_pairs(aux: Array) -> tuple[Array, Array]:
    return _slice1(aux, 1, None), _slice1(aux, None, -1)


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
    aux = _concat1(a1, a2)
    if return_indices:
        order = _order([aux], 0)
        aux = _take1(aux, order) if aux.size else aux
    else:
        aux = _sorted(aux, 0)
    later, earlier = _sorted_pairs(aux)
    keep = _true_positions(ew.equal(later, earlier))
    common = _take1(earlier, keep)
    if not return_indices:
        return common
    idx1 = _take1(_slice1(order, None, -1), keep)
    idx2 = ew.subtract(_take1(_slice1(order, 1, None), keep), a1.size)
    if not assume_unique:
        idx1, idx2 = _take1(ind1, idx1), _take1(ind2, idx2)
    return common, idx1, idx2


@export
def union1d(ar1, ar2):
    """The sorted unique values in either."""
    return unique(_concat1(_ravel(ar1), _ravel(ar2)))


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
    aux = _concat1(_ravel(ar1), _ravel(ar2))
    if aux.size == 0:
        return aux
    aux = _sorted(aux, 0)
    later, earlier = _sorted_pairs(aux)
    edge = _leaf(np.ones(1, bool))
    flag = _concat1(edge, ew.not_equal(later, earlier), edge)
    single = ew.logical_and(_slice1(flag, 1, None), _slice1(flag, None, -1))
    return _compress(aux, single)


# ---------------------------------------------------------------------------------
# Counting.

def _extremes(x: Array, cause: str) -> tuple:
    """(min, max) of a non-empty array as NumPy scalars of its dtype, read together."""
    from . import reductions as red
    both = apply("concatenate", reshape_node(red.min(x)._node, (1,)),
                 reshape_node(red.max(x)._node, (1,)), axis=0)
    lo, hi = _host(wrap(both, False), cause)
    return lo, hi


@export
def bincount(x, /, weights=None, minlength=0):
    """How many times each value 0, 1, ..., max(x) occurs in the 1-d non-negative
    integer `x` (summed float64 `weights` instead, if given), at least `minlength`
    long. The largest value decides the length: it is read (a flush with cause
    "shape")."""
    xs = as_array(x)
    if xs.ndim != 1:
        raise ValueError("bincount: object " + ("too deep" if xs.ndim else
                                                "of too small depth") + " for desired array")
    if not (_dtypes.is_integer(xs.dtype) or _dtypes.is_bool(xs.dtype)):
        raise TypeError(f"bincount: Cannot cast array data from {xs.dtype!r} to "
                        "dtype('int64') according to the rule 'safe'")
    if minlength is None:
        raise TypeError("bincount: use 0 instead of None for minlength")
    minlength = operator.index(minlength)
    if minlength < 0:
        raise ValueError("bincount: 'minlength' must not be negative")
    w = None
    if weights is not None:
        w = as_array(weights)
        if _dtypes.is_complex(w.dtype):
            raise TypeError("bincount: Cannot cast array data from dtype('complex128') to "
                            "dtype('float64') according to the rule 'safe'")
        if w.ndim != 1:
            raise ValueError("bincount: object " + ("too deep" if w.ndim else
                                                    "of too small depth") + " for desired array")
        if w.size != xs.size:
            raise ValueError("bincount: The weights and list don't have the same length.")
        w = astype(w, _dtypes.float64)
    if xs.size == 0:  # NumPy: integer zeros, even with weights
        return _leaf(np.zeros(minlength, np.intp))
    values = astype(xs, _dtypes.int64)
    lo, hi = _extremes(values, "shape")
    if lo < 0:
        raise ValueError("bincount: 'list' argument must have no negative elements")
    return _bincount(values, w, builtins.max(int(hi) + 1, minlength))


def _bincount(values: Array, w, length: int) -> Array:
    """The `bincount` primitive on int64 values known to be in [0, length)."""
    dtype = _dtypes.intp if w is None else _dtypes.float64
    if values.size == 0:
        return _leaf(np.zeros(length, dtype))
    nodes = (values._node,) if w is None else (values._node, w._node)
    return wrap(apply("bincount", *nodes, length=length), False)


# ---------------------------------------------------------------------------------
# Histograms (numpy/lib/_histograms_impl.py). The bin edges are computed on the host
# from `bins` and `range`; when they come from the data (range=None, or an estimator
# name as `bins`) the data is read first, as NumPy reads it to check it. The counts
# are lazy.

_BLOCK = 65536  # NumPy counts in blocks of this size, adding the block sums in order
_BIN_ESTIMATORS = ("stone", "auto", "doane", "fd", "rice", "scott", "sqrt", "sturges")


def _ravel_and_check_weights(a, weights, stacklevel: int = 4):
    x = as_array(a)
    if _dtypes.is_bool(x.dtype):
        warnings.warn("Converting input from bool to <class 'numpy.uint8'> for "
                      "compatibility.", RuntimeWarning, stacklevel=stacklevel)
        x = astype(x, _dtypes.uint8)
    w = None
    if weights is not None:
        w = as_array(weights)
        if w.shape != x.shape:
            raise ValueError("histogram: weights should have the same shape as a.")
        w = _flat(w)
    return _flat(x), w


def _range_value(value):
    return _host(value)[()] if isinstance(value, Array) else value


def _outer_edges(x: Array, range):
    """NumPy's _get_outer_edges: the given range, (0, 1) for no data, else the data's
    (min, max) as NumPy scalars; widened by 0.5 on each side when equal."""
    if range is not None:
        first, last = (_range_value(v) for v in range)
        if first > last:
            raise ValueError("histogram: max must be larger than min in range parameter.")
        if not (np.isfinite(first) and np.isfinite(last)):
            raise ValueError(f"histogram: supplied range of [{first}, {last}] is not finite")
    elif x.size == 0:
        first, last = 0, 1
    else:
        first, last = _extremes(x, "control")
        if not (np.isfinite(first) and np.isfinite(last)):
            raise ValueError(f"histogram: autodetected range of [{first}, {last}] is not "
                             "finite")
    if first == last:
        first, last = first - 0.5, last + 0.5
    return first, last


def _unsigned_dtype(a, b):
    """NumPy's _unsigned_subtract: (dtype of a - b, dtype it is computed in: the
    unsigned counterpart for signed integers)."""
    dt = np.result_type(a, b)
    if dt.kind == "i":
        return dt, np.dtype(f"u{dt.itemsize}")
    return dt, dt


def _unsigned_subtract(a, b):
    """a - b without overflow for signed integers (as NumPy's, on host values)."""
    dt, computed = _unsigned_dtype(a, b)
    return np.subtract(np.asarray(a, dtype=dt), np.asarray(b, dtype=dt), casting="unsafe",
                       dtype=computed)


def _bin_edges(x: Array, bins, range, weights):
    """NumPy's _get_bin_edges: (edges on the host, (first, last, n) for equal bins or
    None)."""
    if isinstance(bins, str):
        if bins not in _BIN_ESTIMATORS:
            raise ValueError(f"histogram: {bins!r} is not a valid estimator for `bins`")
        if weights is not None:
            raise TypeError("histogram: Automated estimation of the number of bins is not "
                            "supported for weighted data")
        data = _host(x, "shape")  # the data decides how many bins there are
        first, last = _outer_edges(x, range)
        edges = np.histogram_bin_edges(data, bins, range)
        if edges.size == 1 and np.any((data >= first) & (data <= last)):
            # An estimated width so large that no bin is made: NumPy's counting then
            # fails in bincount with this error.
            raise ValueError("histogram: 'list' argument must have no negative elements")
        return edges, (first, last, edges.size - 1)
    if isinstance(bins, Array) and bins.ndim == 1:
        bins = _host(bins)
    if np.ndim(bins) == 0:
        try:
            n = operator.index(bins)
        except TypeError:
            raise TypeError("histogram: `bins` must be an integer, a string, or an "
                            "array") from None
        if n < 1:
            raise ValueError("histogram: `bins` must be positive, when an integer")
        first, last = _outer_edges(x, range)
        bin_type = np.result_type(first, last, np.empty(0, x.dtype))
        if bin_type.kind in "iub":
            bin_type = np.result_type(bin_type, float)
        edges = np.linspace(first, last, n + 1, endpoint=True, dtype=bin_type)
        if np.any(edges[:-1] >= edges[1:]):
            raise ValueError(f"histogram: Too many bins for data range. Cannot create {n} "
                             "finite-sized bins.")
        return edges, (first, last, n)
    if np.ndim(bins) == 1:
        edges = np.asarray(bins)
        if np.any(edges[:-1] > edges[1:]):
            raise ValueError("histogram: `bins` must increase monotonically, when an array")
        return edges, None
    raise ValueError("histogram: `bins` must be 1d, when an array")


def _blocks(x: Array, w):
    for start in builtins.range(0, x.size, _BLOCK):
        yield (_slice1(x, start, start + _BLOCK),
               None if w is None else _slice1(w, start, start + _BLOCK))


def _equal_bin_counts(x: Array, w, edges: np.ndarray, first, last, n: int, ntype):
    """NumPy's counting into equal bins: the bin of each value computed from its
    offset, corrected by comparing with the edges, then counted per block."""
    lazy_edges = _leaf(edges)
    _, computed = _unsigned_dtype(np.empty(0, edges.dtype), first)
    denom = _unsigned_subtract(last, first)
    if ntype.kind == "c":
        parts = [_leaf(np.zeros(n, _dtypes.real_dtype(ntype))) for _ in builtins.range(2)]
    else:
        total = _leaf(np.zeros(n, ntype))
    for block, wblock in _blocks(x, w):
        keep = ew.logical_and(ew.greater_equal(block, first), ew.less_equal(block, last))
        values = astype(block, edges.dtype)
        offsets = ew.multiply(ew.divide(ew.subtract(values, first, dtype=computed), denom), n)
        index = ew.clip(astype(offsets, _dtypes.intp), 0, n - 1)
        index = ew.subtract(index, astype(ew.less(values, _take1(lazy_edges, index)),
                                          _dtypes.intp))
        index = ew.clip(index, 0, n - 1)
        upper = _take1(lazy_edges, ew.add(index, 1))
        step = ew.logical_and(ew.greater_equal(values, upper), ew.not_equal(index, n - 1))
        index = ew.where_(keep, ew.add(index, astype(step, _dtypes.intp)), n)
        if ntype.kind == "c":
            parts = [astype(ew.add(p, _slice1(_bincount(index, astype(part(wblock),
                                                                      _dtypes.float64),
                                                         n + 1), 0, n)), p.dtype)
                     for p, part in zip(parts, (ew.real, ew.imag))]
        else:
            weight = None if wblock is None else astype(wblock, _dtypes.float64)
            counts = _slice1(_bincount(index, weight, n + 1), 0, n)
            total = ew.add(total, astype(counts, ntype))
    if ntype.kind == "c":
        return wrap(apply("complex", parts[0]._node, parts[1]._node), False)
    return total


def _edge_counts(x: Array, w, edges: np.ndarray, ntype):
    """NumPy's counting for arbitrary edges: per block, the values sorted and the
    edges searched in them (cumulative weights in sorted order with `weights`)."""
    inner, outer = _leaf(edges[:-1]), _leaf(edges[-1:])
    cumulative = _leaf(np.zeros(edges.shape, ntype))
    for block, wblock in _blocks(x, w):
        if wblock is None:
            ordered = _sorted(block, 0)
        else:
            order = _order([block], 0)
            ordered = _take1(block, order)
        found = _concat1(_search(ordered, inner, "left"), _search(ordered, outer, "right"))
        if wblock is None:
            step = found
        else:
            from . import reductions as red
            sums = red.cumsum(_take1(wblock, order))
            step = _take1(_concat1(_leaf(np.zeros(1, ntype)), sums), found)
        added = ew.add(cumulative, step)
        if not np.can_cast(added.dtype, ntype, "same_kind"):
            raise TypeError(f"histogram: Cannot cast ufunc 'add' output from "
                            f"{added.dtype!r} to {ntype!r} with casting rule 'same_kind'")
        cumulative = astype(added, ntype)
    return ew.subtract(_slice1(cumulative, 1, None), _slice1(cumulative, None, -1))


@export
def histogram_bin_edges(a, bins=10, range=None, weights=None):
    """The bin edges `histogram` would use (NumPy's estimators for string `bins`)."""
    x, w = _ravel_and_check_weights(a, weights)
    return _leaf(_bin_edges(x, bins, range, w)[0])


@export
def histogram(a, bins=10, range=None, density=None, weights=None):
    """Counts (or summed weights) of the values in each bin, and the bin edges; the
    last bin includes its right edge, values outside the range are not counted."""
    x, w = _ravel_and_check_weights(a, weights)
    edges, equal = _bin_edges(x, bins, range, w)
    ntype = _dtypes.intp if w is None else w.dtype
    if equal is not None:
        counts = _equal_bin_counts(x, w, edges, *equal, ntype)
    else:
        counts = _edge_counts(x, w, edges, ntype)
    if density:
        from . import reductions as red
        widths = np.array(np.diff(edges), float)
        counts = ew.divide(ew.divide(counts, widths), red.sum(counts))
    return counts, _leaf(edges)


def _sample_columns(sample) -> list[Array]:
    """histogramdd's sample as its D coordinate columns: an (N, D) array, or a
    sequence of D arrays of one length (NumPy's atleast_2d(sample).T)."""
    from .manipulation import atleast_2d
    from .shapes import transpose
    x = as_array(sample)
    if x.ndim > 2:
        raise ValueError(f"histogramdd: too many values to unpack (sample of shape "
                         f"{x.shape})")
    points = isinstance(sample, (Array, np.ndarray)) and x.ndim == 2  # (N, D)
    rows = transpose(x) if points else atleast_2d(x)  # one row per coordinate
    n = rows.shape[1]
    return [wrap(reshape_node(apply("slice", rows._node, starts=(i, 0), stops=(i + 1, n),
                                    steps=(1, 1)), (n,)), False)
            for i in builtins.range(rows.shape[0])]


@export
def histogramdd(sample, bins=10, range=None, density=None, weights=None):
    """The D-dimensional histogram of N points: counts (or summed weights) as float64
    of shape (bins per axis), and the edges per axis; as NumPy's, each point's bin by
    searching the edges, the last bin closed."""
    columns = _sample_columns(sample)
    dims = len(columns)
    try:
        if len(bins) != dims:
            raise ValueError("histogramdd: The dimension of bins must be equal to the "
                             "dimension of the sample x.")
    except TypeError:
        bins = dims * [bins]
    if range is None:
        range = (None,) * dims
    elif len(range) != dims:
        raise ValueError("histogramdd: range argument must have one entry per dimension")
    edges = []
    for i, (column, b, r) in enumerate(zip(columns, bins, range)):
        b = _host(b) if isinstance(b, Array) else b
        if np.ndim(b) == 0:
            if b < 1:
                raise ValueError(f"histogramdd: `bins[{i}]` must be positive, when an "
                                 "integer")
            first, last = _outer_edges(column, r)
            try:
                n = operator.index(b)
            except TypeError:
                raise TypeError(f"histogramdd: `bins[{i}]` must be an integer, when a "
                                "scalar") from None
            edges.append(np.linspace(first, last, n + 1))
        elif np.ndim(b) == 1:
            edges.append(np.asarray(b))
            if np.any(edges[-1][:-1] > edges[-1][1:]):
                raise ValueError(f"histogramdd: `bins[{i}]` must be monotonically "
                                 "increasing, when an array")
        else:
            raise ValueError(f"histogramdd: `bins[{i}]` must be a scalar or 1d array")
    nbin = [e.size + 1 for e in edges]  # an outlier bin at each end
    flat = None
    stride = 1
    for column, e, n in reversed(list(zip(columns, edges, nbin))):
        index = searchsorted(_leaf(e), column, side="right")
        index = ew.subtract(index, astype(ew.equal(column, e[-1]), _dtypes.intp))
        term = ew.multiply(index, stride)
        flat = term if flat is None else ew.add(flat, term)
        stride *= n
    w = None if weights is None else as_array(weights)
    if w is not None:
        if _dtypes.is_complex(w.dtype):
            raise TypeError("histogramdd: Cannot cast array data from dtype('complex128') "
                            "to dtype('float64') according to the rule 'safe'")
        if w.shape != (columns[0].size,):
            raise ValueError("histogramdd: The weights and list don't have the same "
                             "length.")
        w = astype(w, _dtypes.float64)
    counts = _bincount(flat, w, math.prod(nbin)) if columns[0].size else _leaf(
        np.zeros(math.prod(nbin), np.float64 if w is not None else np.intp))
    hist = astype(wrap(reshape_node(counts._node, tuple(nbin)), False), _dtypes.float64)
    core = apply("slice", hist._node, starts=(1,) * dims, stops=tuple(n - 1 for n in nbin),
                 steps=(1,) * dims)
    hist = wrap(core, False)
    if density:
        from . import reductions as red
        total = red.sum(hist)
        for i, e in enumerate(edges):
            shape = [1] * dims
            shape[i] = nbin[i] - 2
            hist = ew.divide(hist, np.diff(e).reshape(shape))
        hist = ew.divide(hist, total)
    return hist, [_leaf(e) for e in edges]


@export
def histogram2d(x, y, bins=10, range=None, density=None, weights=None):
    """The 2-d histogram of points (x, y): counts as float64, and the x and y edges."""
    if len(x) != len(y):
        raise ValueError("histogram2d: x and y must have the same length.")
    try:
        n = len(bins)
    except TypeError:
        n = 1
    if n not in (1, 2):
        bins = [bins, bins]
    hist, edges = histogramdd([x, y], bins, range, density, weights)
    return hist, edges[0], edges[1]
