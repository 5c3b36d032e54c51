"""Counting and histograms: bincount, histogram_bin_edges, histogram, histogram2d and
histogramdd (numpy/lib/_histograms_impl.py). bincount reads the smallest and largest
value (its length, and NumPy's error for negatives); a histogram's edges come from the
host, reading the data where NumPy derives them from it; the counts are lazy.
"""
from __future__ import annotations

import builtins
import math
import operator
import warnings

import numpy as np

from .. import _dtypes
from .._ops_sort import HISTOGRAM_BLOCK
from . import export
from . import elementwise as ew
from . import reductions as red
from .common import (Array, apply, as_array, astype, concat1, flattened, host_array, leaf_array,
                     reshape_node, slice1, take1, wrap)
from .manipulation import atleast_2d
from .shapes import transpose
from .sorting import search, searchsorted, sort_order, sorted_along

_SORT_KINDS = "qhms"  # quicksort, heapsort, mergesort, stable: the first letter decides


# ---------------------------------------------------------------------------------
# Counting.

def _extremes(x: Array, cause: str) -> tuple:
    """(min, max) of a non-empty array as NumPy scalars of its dtype, read together."""
    both = apply("concatenate", reshape_node(red.min(x)._node, (1,)),
                 reshape_node(red.max(x)._node, (1,)), axis=0)
    lo, hi = host_array(wrap(both, False), cause)
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
        return leaf_array(np.zeros(minlength, np.intp))
    values = astype(xs, _dtypes.int64)
    lo, hi = _extremes(values, "shape")
    if lo < 0:
        raise ValueError("bincount: 'list' argument must have no negative elements")
    return _bincount(values, w, builtins.max(int(hi) + 1, minlength))


def _bincount(values: Array, w, length: int) -> Array:
    """The `bincount` primitive on int64 values known to be in [0, length)."""
    dtype = _dtypes.intp if w is None else _dtypes.float64
    if values.size == 0:
        return leaf_array(np.zeros(length, dtype))
    nodes = (values._node,) if w is None else (values._node, w._node)
    return wrap(apply("bincount", *nodes, length=length), False)


# ---------------------------------------------------------------------------------
# Histograms (numpy/lib/_histograms_impl.py). The bin edges are computed on the host
# from `bins` and `range`; when they come from the data (range=None, or an estimator
# name as `bins`) the data is read first, as NumPy reads it to check it. The counts
# are lazy.

_BLOCK = HISTOGRAM_BLOCK  # NumPy counts in blocks, adding the block sums in order
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
        w = flattened(w)
    return flattened(x), w


def _range_value(value):
    return host_array(value, "control")[()] if isinstance(value, Array) else value


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
        data = host_array(x, "shape")  # the data decides how many bins there are
        first, last = _outer_edges(x, range)
        edges = np.histogram_bin_edges(data, bins, range)
        if edges.size == 1 and np.any((data >= first) & (data <= last)):
            # An estimated width so large that no bin is made: NumPy's counting then
            # fails in bincount with this error.
            raise ValueError("histogram: 'list' argument must have no negative elements")
        return edges, (first, last, edges.size - 1)
    if isinstance(bins, Array) and bins.ndim == 1:
        bins = host_array(bins, "control")
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
        yield (slice1(x, start, start + _BLOCK),
               None if w is None else slice1(w, start, start + _BLOCK))


def _bound(x: Array, value):
    """The outer edge `value` as NumPy compares `x` with it: converted to the dtype
    the comparison runs in (None where it does not convert, an int out of that range)."""
    dtype = np.result_type(np.empty(0, x.dtype), value)
    try:
        return np.asarray(value, dtype) if dtype.kind in "iuf" else None
    except OverflowError:
        return None


def _equal_bin_counts(x: Array, w, edges: np.ndarray, first, last, n: int, ntype):
    """NumPy's counting into equal bins: the bin of each value computed from its
    offset, corrected by comparing with the edges, then counted per block; unweighted,
    one `histogram_counts` primitive (recorded op by op, 1e6 values made 288 nodes:
    13 ms on the interpreter, NumPy's histogram 5)."""
    lazy_edges = leaf_array(edges)
    _, computed = _unsigned_dtype(np.empty(0, edges.dtype), first)
    denom = _unsigned_subtract(last, first)
    low, high = _bound(x, first), _bound(x, last)
    if w is None and low is not None and high is not None and edges.dtype.kind == "f":
        bounds = (low, high, np.asarray(first, computed), np.asarray(denom))
        return wrap(apply("histogram_counts", x._node, lazy_edges._node,
                          *(leaf_array(v)._node for v in bounds), n=n), False)
    if ntype.kind == "c":
        parts = [leaf_array(np.zeros(n, _dtypes.real_dtype(ntype))) for _ in builtins.range(2)]
    else:
        total = leaf_array(np.zeros(n, ntype))
    for block, wblock in _blocks(x, w):
        keep = ew.logical_and(ew.greater_equal(block, first), ew.less_equal(block, last))
        values = astype(block, edges.dtype)
        offsets = ew.multiply(ew.divide(ew.subtract(values, first, dtype=computed), denom), n)
        index = ew.clip(astype(offsets, _dtypes.intp), 0, n - 1)
        index = ew.subtract(index, astype(ew.less(values, take1(lazy_edges, index)),
                                          _dtypes.intp))
        index = ew.clip(index, 0, n - 1)
        upper = take1(lazy_edges, ew.add(index, 1))
        step = ew.logical_and(ew.greater_equal(values, upper), ew.not_equal(index, n - 1))
        index = ew.where_(keep, ew.add(index, astype(step, _dtypes.intp)), n)
        if ntype.kind == "c":
            parts = [astype(ew.add(p, slice1(_bincount(index, astype(part(wblock),
                                                                      _dtypes.float64),
                                                         n + 1), 0, n)), p.dtype)
                     for p, part in zip(parts, (ew.real, ew.imag))]
        else:
            weight = None if wblock is None else astype(wblock, _dtypes.float64)
            counts = slice1(_bincount(index, weight, n + 1), 0, n)
            total = ew.add(total, astype(counts, ntype))
    if ntype.kind == "c":
        return wrap(apply("complex", parts[0]._node, parts[1]._node), False)
    return total


def _edge_counts(x: Array, w, edges: np.ndarray, ntype):
    """NumPy's counting for arbitrary edges: per block, the values sorted and the
    edges searched in them (cumulative weights in sorted order with `weights`)."""
    inner, outer = leaf_array(edges[:-1]), leaf_array(edges[-1:])
    cumulative = leaf_array(np.zeros(edges.shape, ntype))
    for block, wblock in _blocks(x, w):
        if wblock is None:
            ordered = sorted_along(block, 0)
        else:
            order = sort_order([block], 0)
            ordered = take1(block, order)
        found = concat1(search(ordered, inner, "left"), search(ordered, outer, "right"))
        if wblock is None:
            step = found
        else:
            sums = red.cumsum(take1(wblock, order))
            step = take1(concat1(leaf_array(np.zeros(1, ntype)), sums), found)
        added = ew.add(cumulative, step)
        if not np.can_cast(added.dtype, ntype, "same_kind"):
            raise TypeError(f"histogram: Cannot cast ufunc 'add' output from "
                            f"{added.dtype!r} to {ntype!r} with casting rule 'same_kind'")
        cumulative = astype(added, ntype)
    return ew.subtract(slice1(cumulative, 1, None), slice1(cumulative, None, -1))


@export
def histogram_bin_edges(a, bins=10, range=None, weights=None):
    """The bin edges `histogram` would use (NumPy's estimators for string `bins`)."""
    x, w = _ravel_and_check_weights(a, weights)
    return leaf_array(_bin_edges(x, bins, range, w)[0])


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
        widths = np.array(np.diff(edges), float)
        counts = ew.divide(ew.divide(counts, widths), red.sum(counts))
    return counts, leaf_array(edges)


def _sample_columns(sample) -> list[Array]:
    """histogramdd's sample as its D coordinate columns: an (N, D) array, or a
    sequence of D arrays of one length (NumPy's atleast_2d(sample).T)."""
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
        b = host_array(b, "control") if isinstance(b, Array) else b
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
        index = searchsorted(leaf_array(e), column, side="right")
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
    counts = _bincount(flat, w, math.prod(nbin)) if columns[0].size else leaf_array(
        np.zeros(math.prod(nbin), np.float64 if w is not None else np.intp))
    hist = astype(wrap(reshape_node(counts._node, tuple(nbin)), False), _dtypes.float64)
    core = apply("slice", hist._node, starts=(1,) * dims, stops=tuple(n - 1 for n in nbin),
                 steps=(1,) * dims)
    hist = wrap(core, False)
    if density:
        total = red.sum(hist)
        for i, e in enumerate(edges):
            shape = [1] * dims
            shape[i] = nbin[i] - 2
            hist = ew.divide(hist, np.diff(e).reshape(shape))
        hist = ew.divide(hist, total)
    return hist, [leaf_array(e) for e in edges]


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
