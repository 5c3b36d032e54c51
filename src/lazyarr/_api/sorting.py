"""Sorting and searching: sort, argsort, lexsort, partition, argpartition,
sort_complex, searchsorted and digitize (sets are in `sets`, counting and histograms
in `histograms`).

Everything sorts with the `sort`/`argsort` primitives in NumPy's order (NaN last,
-0.0 equal to 0.0, complex numbers lexicographic with NaN classes last); `argsort` is
stable, `sort` sorts values as NumPy's default kind does.
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
- `sort(..., kind="stable")` of values holding both -0.0 and 0.0 may order those
  zeros as NumPy's default kind does, not in their input order (they compare equal;
  the reference backend sorts values by NumPy's default kind, 12x faster on 1e6
  float64 than its stable one).
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

import operator

import numpy as np

from .. import _dtypes
from . import export
from . import elementwise as ew
from .common import (Array, along_axis, apply, as_array, astype, host_array, leaf,
                     normalize_axis, reshape_node, take1, wrap)
from .manipulation import flip

_SORT_KINDS = "qhms"  # quicksort, heapsort, mergesort, stable: the first letter decides


# ---------------------------------------------------------------------------------
# Helpers.

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


def sorted_along(x: Array, axis: int) -> Array:
    if x.size == 0:
        return wrap(x._node, False)
    return wrap(apply("sort", x._node, axis=axis), False)


def sort_order(keys: list, axis: int) -> Array:
    """The stable lexicographic order (first key most significant) along `axis`."""
    if keys[0].size == 0:
        return wrap(leaf(np.zeros(keys[0].shape, np.intp), keys[0].shape, _dtypes.intp), False)
    return wrap(apply("argsort", *(k._node for k in keys), axis=axis), False)


def search(a: Array, v: Array, side: str = "left") -> Array:
    """Insertion points of `v` in the sorted 1-d `a` (both cast to their common dtype)."""
    dtype = _dtypes.result_type(a.dtype, v.dtype)
    return wrap(apply("searchsorted", astype(a, dtype)._node, astype(v, dtype)._node,
                      side=side))


# ---------------------------------------------------------------------------------
# Sorting.

@export
def sort(a, axis=-1, kind=None, order=None, *, stable=None, descending=False):
    """A sorted copy along `axis` (flattened when None), in NumPy's order; with the
    Array API's `descending=True` (an extension of NumPy's signature), that order
    reversed."""
    _check_kind(kind, stable, "sort")
    _no_order(order, "sort")
    x, ax = along_axis(as_array(a), axis, "sort")
    result = sorted_along(x, ax)
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
    x, ax = along_axis(x, axis, "argsort")
    if not descending:
        return sort_order([x], ax)
    # The stable order of the reversed array, reversed, counts positions from the end.
    last = x.shape[ax] - 1
    return ew.subtract(last, flip(sort_order([flip(x, ax)], ax), ax))



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
    return sort_order(xs[::-1], ax)


def _check_kth(kth, n: int, func: str) -> None:
    """NumPy's checks of a partition index: integers (not bools) in [-n, n), at most
    1-d. An empty axis takes any integer."""
    values = host_array(kth, "control")
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
    x, ax = along_axis(as_array(a), axis, "partition")
    _check_kth(kth, x.shape[ax], "partition")
    return sorted_along(x, ax)


@export
def argpartition(a, kth, axis=-1, kind="introselect", order=None):
    """Indices that partition `a` (the stable sorting order; see `partition`)."""
    _check_select_kind(kind, "argpartition")
    _no_order(order, "argpartition")
    x = as_array(a)
    if x.ndim == 0:
        x = wrap(reshape_node(x._node, (1,)), False)
    x, ax = along_axis(x, axis, "argpartition")
    _check_kth(kth, x.shape[ax], "argpartition")
    return sort_order([x], ax)


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
            x = take1(x, ew.clip(astype(order, _dtypes.int64), 0, x.size - 1))
    dtype = _search_dtype(x, v)
    keys = astype(as_array(v), dtype)
    return search(astype(x, dtype), keys, side)


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
    mono = _monotonicity(host_array(edges, "control").astype(np.float64))
    if mono == 0:
        raise ValueError("digitize: bins must be monotonically increasing or decreasing")
    side = "left" if right else "right"
    dtype = _dtypes.result_type(values.dtype, edges.dtype)
    if mono == -1:
        flipped = wrap(apply("slice", edges._node, starts=(edges.size - 1,), stops=(-1,),
                             steps=(-1,)), False) if edges.size else edges
        return ew.subtract(edges.size, search(astype(flipped, dtype),
                                                         astype(values, dtype), side))
    return search(astype(edges, dtype), astype(values, dtype), side)


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


