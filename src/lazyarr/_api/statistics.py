"""Order statistics and other statistics: median, quantile and percentile (and their
NaN-ignoring variants), cov, corrcoef, diff, ediff1d, gradient, interp, convolve,
correlate and trapezoid.

Order statistics sort along the reduced axis (the stable `sort` primitive, NaN last)
and pick from the sorted values: for `median` and `quantile` at positions known from
the shape, for the NaN variants at positions computed from each slice's count of
non-NaN values. The arithmetic follows NumPy's code step by step
(numpy/lib/_function_base_impl.py, _nanfunctions_impl.py) with the same operand kinds
(Python scalars weak, NumPy scalars and arrays strong), so dtypes and roundings are
NumPy's.

Known differences from NumPy:
- A few results whose dtype NumPy decides from the data: `quantile`/`percentile`
  with a NumPy (not Python) scalar `q` of a float16/float32 array containing a NaN
  give a float64 NaN (NumPy: the array's dtype); `nanquantile`/`nanpercentile` with
  a NumPy `q` whose first slice is all NaN give the dtype of the other slices.
- No "All-NaN slice encountered" warnings: they depend on the data.
- `interp` with `period`: NumPy sorts `xp % period` with its default (unstable)
  argsort, lazyarr stably; they differ only when two points coincide modulo the
  period.
- Lazy `q`, weights (fweights, aweights, quantile weights) and gradient spacings are
  read (a flush with cause "control"): NumPy checks their values, and the spacings
  decide the formula. The NaN variants of the weighted quantiles also read where the
  data is NaN (NumPy's check of the remaining weights).
- `convolve`/`correlate` sum in XLA's order where NumPy uses BLAS's: equal up to
  rounding.
"""

from __future__ import annotations

import builtins
import math
import warnings

import numpy as np

from .._errors import user_stacklevel
from .. import _dtypes
from .._ops import broadcast_shapes
from . import elementwise as ew
from . import export
from . import reductions as red
from .common import (apply, Array, as_array, astype, host_array, leaf, leaf_array,
                     normalize_axis, normalize_axis_tuple, reshape_node, take1,
                     transpose_node, wrap, write_out)
from .products import dot
from .shapes import diagonal
from .manipulation import concatenate
from .sorting import search, sort_order, sorted_along

_NAN_MEDIAN_SMALL = 600  # NumPy's nanmedian takes its masked-array path below this


# ---------------------------------------------------------------------------------
# Helpers.

def _cut(x: Array, axis: int, start, stop, step=None) -> Array:
    """x[..., start:stop:step, ...] along `axis`."""
    starts, stops, steps = [0] * x.ndim, list(x.shape), [1] * x.ndim
    starts[axis], stops[axis], steps[axis] = slice(start, stop, step).indices(x.shape[axis])
    return wrap(apply("slice", x._node, starts=tuple(starts), stops=tuple(stops),
                      steps=tuple(steps)), False)


def _at(x: Array, axis: int, i: int) -> Array:
    """x[..., i, ...] along `axis` (the axis removed)."""
    i %= x.shape[axis]
    part = _cut(x, axis, i, i + 1)
    return wrap(reshape_node(part._node, x.shape[:axis] + x.shape[axis + 1:]))


def _move_to_front(x: Array, axis: int) -> Array:
    order = (axis,) + tuple(i for i in range(x.ndim) if i != axis)
    return wrap(transpose_node(x._node, order), False)


def _ureduce(x: Array, func, axis, keepdims, fname: str, *others: Array) -> Array:
    """NumPy's _ureduce: func(x, axis, *others) with several axes merged into one last
    axis (of `x` and of the same-shaped `others`); keepdims puts length-1 axes back
    where the reduced ones were."""
    nd = x.ndim
    if axis is None:
        axes = tuple(range(nd))
        result = func(x, None, *others)
    else:
        axes = normalize_axis_tuple(axis, nd, fname)
        if len(axes) == 1:
            result = func(x, axes[0], *others)
        else:
            keep = tuple(i for i in range(nd) if i not in axes)
            order = keep + tuple(i for i in range(nd) if i in axes)
            shape = tuple(x.shape[i] for i in keep) + (math.prod(x.shape[i] for i in axes),)
            merged = [wrap(reshape_node(transpose_node(v._node, order), shape), False)
                      for v in (x,) + others]
            result = func(merged[0], len(keep), *merged[1:])
    if keepdims is not np._NoValue and keepdims:
        lead = result.shape[:result.ndim - (nd - len(axes))]
        kept = iter(result.shape[len(lead):])
        shape = lead + tuple(1 if i in axes else next(kept) for i in range(nd))
        result = wrap(reshape_node(result._node, shape), False)  # NumPy: an array
    return result


def _sorted_front(x: Array, axis) -> Array:
    """`x` with the reduced axis first (flattened when None), sorted along it."""
    if axis is None:
        x = wrap(reshape_node(x._node, (x.size,)), False)
    else:
        x = _move_to_front(x, axis)
    return sorted_along(x, 0)


def _gather_front(s: Array, index: Array, lead: int = 0) -> Array:
    """s[index[..., r], r] for `s` of shape (n, *rest) and int64 `index` in [0, n) of
    shape (*lead, *rest), its `lead` leading dimensions first (broadcastable)."""
    rest = s.shape[1:]
    size = math.prod(rest)
    shape = broadcast_shapes(index.shape, (1,) * lead + rest)
    if math.prod(shape) == 0 or s.size == 0:
        return leaf_array(np.zeros(shape, s.dtype))
    position = ew.multiply(astype(index, _dtypes.int64), size)
    if rest:
        within = wrap(apply("iota", shape=(size,), dtype=_dtypes.int64, axis=0), False)
        position = ew.add(position, wrap(reshape_node(within._node, rest), False))
    position = wrap(apply("broadcast_to", position._node, shape=shape)
                    if position.shape != shape else position._node, False)
    flat = reshape_node(s._node, (s.size,))
    return wrap(apply("take", flat, position._node, axis=0))


# ---------------------------------------------------------------------------------
# Median.

def _median(x: Array, axis) -> Array:
    """numpy's _median: the mean of the middle one or two sorted values; a NaN
    anywhere in a slice gives NaN."""
    s = _sorted_front(x, axis)
    size = s.shape[0]
    half = size // 2
    part = _cut(s, 0, half - 1 + size % 2, half + 1)  # the middle one or two
    result = red.mean(part, axis=0)
    if _dtypes.is_inexact(x.dtype) and size > 0:
        last = _at(s, 0, -1)
        result = ew.where_(ew.isnan(last), last, result)
    return result


@export
def median(a, axis=None, out=None, overwrite_input=False, keepdims=False):
    """Median along `axis` (all axes when None): float64 for integers, the input's
    dtype for floats and complex numbers; NaN where a slice has a NaN. `out=` takes
    the result cast unsafely, as NumPy's mean(..., out=out) stores it."""
    x = as_array(a)
    if not _dtypes.is_inexact(x.dtype):  # NumPy's mean of integers sums in float64
        red.reads_out(out, _dtypes.float64)
    return write_out(out, _ureduce(x, _median, axis, keepdims, "median"), "median",
                     "unsafe")


def _nanmedian_slices(x: Array, axis, masked: bool) -> Array:
    """The median of the non-NaN values of each slice (NaN for none). `masked`:
    NumPy's masked-array path, which sums the middle pair (the middle value twice for
    an odd count) in the input's dtype and halves; otherwise the mean of the middle
    one or two."""
    s = _sorted_front(x, axis)
    count = red.sum(ew.logical_not(ew.isnan(s)), axis=0)
    high = ew.floor_divide(count, 2)
    odd = ew.equal(ew.remainder(count, 2), 1)
    low = ew.where_(odd, high, ew.subtract(high, 1))
    bound = s.shape[0] - 1
    lo = _gather_front(s, ew.clip(low, 0, bound))
    hi = _gather_front(s, ew.clip(high, 0, bound))
    if masked:
        total = red.sum(_stack0(lo, hi), axis=0, dtype=s.dtype)
        result = astype(ew.divide(total, 2.0), s.dtype)
    else:
        pair = red.mean(_stack0(lo, hi), axis=0)
        result = ew.where_(odd, astype(lo, pair.dtype), pair)
    return ew.where_(ew.equal(count, 0), wrap(leaf(np.asarray(np.nan, result.dtype), (),
                                                   result.dtype)), result)


def _stack0(*xs: Array) -> Array:
    nodes = [reshape_node(x._node, (1,) + x.shape) for x in xs]
    return wrap(apply("concatenate", *nodes, axis=0), False)


@export
def nanmedian(a, axis=None, out=None, overwrite_input=False, keepdims=np._NoValue):
    """Median of the non-NaN values along `axis` (NaN for a slice without any). As in
    NumPy, slices along an axis shorter than 600 of a multi-dimensional array take
    its masked-array path (the middle pair summed in the input dtype, then halved)."""
    return write_out(out, _nanmedian(as_array(a), axis, keepdims), "nanmedian", "unsafe")


def _nanmedian(x: Array, axis, keepdims) -> Array:
    if x.size == 0:
        return red.nanmean(x, axis, keepdims=keepdims is True)
    if not _dtypes.is_inexact(x.dtype):
        return median(x, axis, keepdims=keepdims is True)

    def func(y, ax):
        masked = ax is not None and y.ndim > 1 and y.shape[ax] < _NAN_MEDIAN_SMALL
        return _nanmedian_slices(y, ax, masked)
    return _ureduce(x, func, axis, keepdims, "nanmedian")


# ---------------------------------------------------------------------------------
# Quantiles (numpy's _quantile, with every index computation lazy so that the NaN
# variants can use a count per slice).

def _discrete(index: Array, condition) -> Array:
    """numpy's _discrete_interpolation_to_boundaries: floor or floor + 1 by
    `condition(gamma, index)`, as intp, negatives clipped to 0."""
    previous = ew.floor(index)
    following = ew.add(previous, 1)
    gamma = ew.subtract(index, previous)
    chosen = astype(ew.where_(condition(gamma, index), previous, following), _dtypes.intp)
    return ew.where_(ew.less(chosen, 0), 0, chosen)


def _virtual(n, q, alpha: float, beta: float) -> Array:
    """numpy's _compute_virtual_index (n is a Python int, or an array)."""
    return n * q + (alpha + q * (1 - alpha - beta)) - 1


def _scaled(n, q):
    return (n - 1) * q


def _gamma_mask(where, shape, default: float, conditioned: float) -> Array:
    base = np.full(shape, default)
    return ew.where_(where, conditioned, base)


# method: (virtual index(n, q), fix_gamma(gamma, index) or None for integer indices)
_METHODS = {
    "inverted_cdf": (lambda n, q: _discrete(n * q - 1, lambda g, _: ew.equal(g, 0)), None),
    "averaged_inverted_cdf": (
        lambda n, q: n * q - 1,
        lambda g, _: _gamma_mask(ew.equal(g, 0), g.shape, 1.0, 0.5)),
    "closest_observation": (
        lambda n, q: _discrete(n * q - 1 - 0.5,
                               lambda g, i: ew.logical_and(
                                   ew.equal(g, 0), ew.equal(ew.remainder(ew.floor(i), 2), 1))),
        None),
    "interpolated_inverted_cdf": (lambda n, q: _virtual(n, q, 0, 1), lambda g, _: g),
    "hazen": (lambda n, q: _virtual(n, q, 0.5, 0.5), lambda g, _: g),
    "weibull": (lambda n, q: _virtual(n, q, 0, 0), lambda g, _: g),
    "linear": (_scaled, lambda g, _: g),
    "median_unbiased": (lambda n, q: _virtual(n, q, 1 / 3.0, 1 / 3.0), lambda g, _: g),
    "normal_unbiased": (lambda n, q: _virtual(n, q, 3 / 8.0, 3 / 8.0), lambda g, _: g),
    "lower": (lambda n, q: astype(ew.floor(_scaled(n, q)), _dtypes.intp), None),
    "higher": (lambda n, q: astype(ew.ceil(_scaled(n, q)), _dtypes.intp), None),
    "midpoint": (
        lambda n, q: 0.5 * (ew.floor(_scaled(n, q)) + ew.ceil(_scaled(n, q))),
        lambda g, i: _gamma_mask(ew.equal(ew.remainder(i, 1), 0), g.shape, 0.5, 0.0)),
    "nearest": (lambda n, q: astype(ew.around(_scaled(n, q)), _dtypes.intp), None),
}


def _lerp(a: Array, b: Array, t, one_minus_t, upper, dtype=None) -> Array:
    """numpy's _lerp: a + (b - a)·t; b - (b - a)·(1 - t) in `dtype` where t >= 0.5."""
    diff = ew.subtract(b, a)
    low = ew.add(a, ew.multiply(diff, t))
    dtype = low.dtype if dtype is None else dtype
    high = ew.subtract(b, ew.multiply(diff, one_minus_t), dtype=dtype)
    return ew.where_(upper, high, astype(low, dtype))


def _quantile_sorted(s: Array, count, q: np.ndarray, method: str, weak_q: bool,
                     out_dtype=None) -> Array:
    """numpy's _quantile on `s`, sorted along axis 0 with NaN last. `count` is the
    number of values of each slice: s.shape[0] (a Python int), or an int64 array of
    the slices' non-NaN counts (the NaN variants). Result shape: q.shape + rest."""
    n_total, rest = s.shape[0], s.shape[1:]
    if n_total == 0:
        raise IndexError("index -1 is out of bounds for axis 0 with size 0")
    get_index, fix_gamma = _METHODS[method]
    lazy_count = isinstance(count, Array)
    # NumPy's n is a Python int: as an array it takes q's dtype (NEP 50).
    n = astype(count, _dtypes.promote_weak(q.dtype, builtins.int)) if lazy_count else count
    lead = q.ndim
    index = get_index(n, leaf_array(q.reshape(q.shape + (1,) * len(rest))))
    last = n - 1

    def position(i):  # -1 is the last value of the slice; keep garbage in range
        i = ew.where_(ew.less(i, 0), ew.add(i, count), i)
        return ew.clip(i, 0, n_total - 1)

    if fix_gamma is None or (method == "linear" and _dtypes.is_integer(index.dtype)):
        return _gather_front(s, position(index), lead)
    previous = ew.floor(index)
    following = ew.add(previous, 1)
    above = ew.greater_equal(index, last)
    below = ew.less(index, 0)
    nan = ew.isnan(index) if _dtypes.is_inexact(s.dtype) else None
    indexes = []
    for value in (previous, following):
        value = ew.where_(above, -1, value)
        value = ew.where_(below, 0, value)
        if nan is not None:
            value = ew.where_(nan, -1, value)
        indexes.append(astype(value, _dtypes.intp))
    gamma = astype(fix_gamma(ew.subtract(index, indexes[0]), index), index.dtype)
    lo, hi = (_gather_front(s, position(i), lead) for i in indexes)
    if weak_q:  # NumPy's float(gamma): a Python float, weak against the data
        target = _dtypes.promote_weak(lo.dtype, builtins.float)
        gamma64 = astype(gamma, _dtypes.float64)
        t = astype(gamma64, target)
        one_minus = astype(ew.subtract(1.0, gamma64), target)
        upper = ew.greater_equal(gamma64, 0.5)
    else:
        t, one_minus, upper = gamma, 1 - gamma, ew.greater_equal(gamma, 0.5)
    return _lerp(lo, hi, t, one_minus, upper, out_dtype)


def _check_q(q, scale, func: str):
    """(q / scale as NumPy has it, whether q was a Python int or float); lazy q is
    read (a flush with cause "control"), as NumPy reads it to check its range."""
    weak_q = type(q) in (builtins.int, builtins.float)
    values = host_array(q, "control") if isinstance(q, Array) else q
    values = np.true_divide(values, 100) if scale == 100 else np.asanyarray(values)
    if not _quantile_is_valid(values):
        raise ValueError(f"{func}: " + ("Percentiles must be in the range [0, 100]"
                                        if scale == 100 else
                                        "Quantiles must be in the range [0, 1]"))
    if values.ndim > 2:
        raise ValueError(f"{func}: q must be a scalar or 1d")
    return np.asarray(values), weak_q


def _quantile_is_valid(q: np.ndarray) -> bool:
    with np.errstate(invalid="ignore"):
        if q.ndim == 1 and q.size < 10:
            return builtins.all(0.0 <= v <= 1.0 for v in q.tolist())
        return builtins.bool(q.min() >= 0 and q.max() <= 1)


def _check_method(method, weights, func: str) -> None:
    if method not in _METHODS:
        raise ValueError(f"{func}: {method!r} is not a valid method. Use one of: "
                         f"{list(_METHODS)}")
    if weights is not None and method != "inverted_cdf":
        raise ValueError(f"{func}: Only method 'inverted_cdf' supports weights. Got: "
                         f"{method}.")


def _quantile_entry(a, q, axis, out, method, keepdims, weights, scale, nan: bool,
                    func: str) -> Array:
    """The quantile functions' common entry; `out=` takes the result as NumPy's
    interpolation writes it, through add(..., out=out) (a same_kind cast; its upper half
    computed in out's dtype); nanquantile's is computed alone, then copied into `out`."""
    inexact_out = out.dtype if isinstance(out, Array) and _dtypes.is_inexact(out.dtype) \
        and not nan else None
    result = _quantile(as_array(a), q, axis, method, keepdims, weights, scale, nan, func,
                       inexact_out)
    return write_out(out, result, func, ufunc="add")


def _quantile(x: Array, q, axis, method, keepdims, weights, scale, nan: bool,
              func: str, out_dtype=None) -> Array:
    if _dtypes.is_complex(x.dtype):
        raise TypeError(f"{func}: a must be an array of real numbers")
    qv, weak_q = _check_q(q, scale, func)
    _check_method(method, weights, func)
    if nan and x.size == 0:
        if weights is not None:
            _check_weights(x, weights, axis, func)
        return red.nanmean(x, axis, keepdims=keepdims is True)
    if weights is not None:
        return _weighted_quantile(x, qv, axis, keepdims, weights, nan, func)
    nan = nan and _dtypes.is_inexact(x.dtype)

    def func1(y, ax):
        s = _sorted_front(y, ax)
        if nan:
            count = red.sum(ew.logical_not(ew.isnan(s)), axis=0) if s.shape[0] else 0
            result = _quantile_sorted(s, count, qv, method, weak_q, out_dtype)
            nothing = ew.equal(count, 0)
            return ew.where_(nothing, wrap(leaf(np.asarray(np.nan, result.dtype), (),
                                                result.dtype)), result)
        result = _quantile_sorted(s, s.shape[0], qv, method, weak_q, out_dtype)
        if _dtypes.is_inexact(s.dtype):
            last = _at(s, 0, -1)
            result = astype(ew.where_(ew.isnan(last), last, result), result.dtype)
        return result
    return _ureduce(x, func1, axis, keepdims, func)


def _weighted_quantile(x: Array, q: np.ndarray, axis, keepdims, weights, nan: bool,
                       func: str) -> Array:
    """method="inverted_cdf" with weights: the first sorted value whose cumulative
    weight fraction reaches q. Weights are read (a flush with cause "control"), as
    NumPy reads them to check them."""
    w, host_w = _check_weights(x, weights, axis, func)
    axes = None if axis is None else normalize_axis_tuple(axis, x.ndim, func)
    if math.prod(x.shape if axes is None else [x.shape[a] for a in axes]) == 0:
        raise IndexError("index -1 is out of bounds for axis 0 with size 0")

    def func1(y, ax, wy):
        s_x, s_w = _sorted_pair(y, wy, ax)
        n = s_x.shape[0]
        inexact = _dtypes.is_inexact(s_x.dtype)
        if nan and inexact:
            valid = ew.logical_not(ew.isnan(s_x))
            s_w = ew.where_(valid, s_w, 0)
        cdf = red.cumsum(s_w, axis=0, dtype=_dtypes.float64)
        cdf = ew.divide(cdf, _at(cdf, 0, -1))
        if q.dtype.kind == "f":
            cdf = astype(cdf, q.dtype)
        first_zero = ew.equal(_at(cdf, 0, 0), 0)
        cdf = ew.where_(ew.logical_and(first_zero, ew.equal(cdf, 0)), -1, cdf)
        below = ew.less(cdf, leaf_array(q.reshape(q.shape + (1,) * cdf.ndim)))
        index = ew.minimum(red.sum(below, axis=q.ndim, dtype=_dtypes.int64), n - 1)
        result = _gather_front(s_x, index, q.ndim)
        if nan and inexact:
            nothing = ew.logical_not(red.any(valid, axis=0))
            return ew.where_(nothing, wrap(leaf(np.asarray(np.nan, result.dtype), (),
                                                result.dtype)), result)
        if inexact:
            last = _at(s_x, 0, -1)
            result = astype(ew.where_(ew.isnan(last), last, result), result.dtype)
        return result

    checked = True
    if nan and _dtypes.is_inexact(x.dtype):  # NaNs and their weights are left out
        valid = ~np.isnan(host_array(x, "control"))
        host_w = np.where(valid, host_w, 0)
        checked = np.any(valid, axis=axes)  # an all-NaN slice gives NaN, unchecked
    if np.any(np.isnan(_cdf_totals(host_w, axes)) & checked):
        raise ValueError(f"{func}: Weights included NaN, inf or were all zero.")
    result = _ureduce(x, func1, axis, keepdims, func, w)
    return wrap(result._node, False)  # NumPy's weighted path returns an array, never a scalar


def _check_weights(x: Array, weights, axis, func: str):
    """NumPy's _weights_are_valid and sign check: (weights broadcast to x's shape,
    their values on the host). Lazy weights are read (a flush with cause "control")."""
    w = as_array(weights)
    axes = None if axis is None else normalize_axis_tuple(axis, x.ndim, func)
    if w.shape != x.shape:
        if axes is None:
            raise TypeError(f"{func}: Axis must be specified when shapes of a and weights "
                            "differ.")
        if w.shape != tuple(x.shape[ax] for ax in axes):
            raise ValueError(f"{func}: Shape of weights must be consistent with shape of "
                             "a along specified axis.")
        layout = tuple(x.shape[i] if i in axes else 1 for i in range(x.ndim))
        order = tuple(int(i) for i in np.argsort(axes))
        w = wrap(reshape_node(transpose_node(w._node, order), layout), False)
        w = wrap(apply("broadcast_to", w._node, shape=x.shape), False)
    host_w = host_array(w, "control")
    if np.any(host_w < 0):
        raise ValueError(f"{func}: Weights must be non-negative.")
    return w, host_w


def _cdf_totals(w: np.ndarray, axes) -> np.ndarray:
    """Each slice's total weight over itself (NaN for NaN, inf or all-zero weights)."""
    with np.errstate(all="ignore"):
        total = np.sum(w.astype(np.float64), axis=axes)
        return np.where(total == 0, np.nan, total / total)


def _sorted_pair(y: Array, wy: Array, ax):
    """`y` sorted along `ax` (moved first; flattened when None) and `wy` in that order."""
    if ax is None:
        y = wrap(reshape_node(y._node, (y.size,)), False)
        wy = wrap(reshape_node(wy._node, (wy.size,)), False)
    else:
        y, wy = _move_to_front(y, ax), _move_to_front(wy, ax)
    if y.size == 0:
        return y, wy
    order = sort_order([y], 0)
    return _gather_front(y, order), _gather_front(wy, order)


@export
def quantile(a, q, axis=None, out=None, overwrite_input=False, method="linear",
             keepdims=False, *, weights=None):
    """The q-th quantiles (q in [0, 1]) along `axis`, by any of NumPy's 13 methods;
    `weights` with method="inverted_cdf". NaN where a slice has a NaN."""
    return _quantile_entry(a, q, axis, out, method, keepdims, weights, 1, False, "quantile")


@export
def percentile(a, q, axis=None, out=None, overwrite_input=False, method="linear",
               keepdims=False, *, weights=None):
    """The q-th percentiles (q in [0, 100]): `quantile` of q / 100."""
    return _quantile_entry(a, q, axis, out, method, keepdims, weights, 100, False,
                           "percentile")


@export
def nanquantile(a, q, axis=None, out=None, overwrite_input=False, method="linear",
                keepdims=np._NoValue, *, weights=None):
    """`quantile` of the non-NaN values of each slice (NaN for a slice without any)."""
    return _quantile_entry(a, q, axis, out, method, keepdims, weights, 1, True,
                           "nanquantile")


@export
def nanpercentile(a, q, axis=None, out=None, overwrite_input=False, method="linear",
                  keepdims=np._NoValue, *, weights=None):
    """`percentile` of the non-NaN values of each slice."""
    return _quantile_entry(a, q, axis, out, method, keepdims, weights, 100, True,
                           "nanpercentile")


# ---------------------------------------------------------------------------------
# Covariance and correlation (numpy's cov and corrcoef).

def _host_weights(weights, name: str, samples: int) -> np.ndarray:
    """fweights/aweights as float64 on the host (NumPy checks their values)."""
    w = np.asarray(host_array(weights, "control"), dtype=float)
    if w.ndim > 1:
        raise RuntimeError(f"cov: cannot handle multidimensional {name}")
    if w.shape[0] != samples:
        raise RuntimeError(f"cov: incompatible numbers of samples and {name}")
    if np.any(w < 0):
        raise ValueError(f"cov: {name} cannot be negative")
    return w


def _at_least_2d(x: Array, dtype) -> Array:
    x = astype(x, dtype)
    if x.ndim < 2:
        x = wrap(reshape_node(x._node, (1,) * (2 - x.ndim) + x.shape), False)
    return x


@export
def cov(m, y=None, rowvar=True, bias=False, ddof=None, fweights=None, aweights=None, *,
        dtype=None):
    """Covariance matrix of the variables in the rows of `m` (columns if not `rowvar`)
    and `y`, with frequency and analytic weights, as numpy's cov."""
    if ddof is not None and ddof != int(ddof):
        raise ValueError("cov: ddof must be integer")
    xm = as_array(m)
    if xm.ndim > 2:
        raise ValueError("cov: m has more than 2 dimensions")
    ym = None if y is None else as_array(y)
    if ym is not None and ym.ndim > 2:
        raise ValueError("cov: y has more than 2 dimensions")
    if dtype is None:
        others = () if ym is None else (ym.dtype,)
        dtype = _dtypes.result_type(xm.dtype, _dtypes.float64, *others)
    dtype = _dtypes.as_dtype(dtype)
    X = _at_least_2d(xm, dtype)
    if not rowvar and xm.ndim != 1:
        X = wrap(transpose_node(X._node, (1, 0)), False)
    if X.shape[0] == 0:
        return leaf_array(np.array([]).reshape(0, 0))
    if ym is not None:
        Y = _at_least_2d(ym, dtype)
        if not rowvar and Y.shape[0] != 1:
            Y = wrap(transpose_node(Y._node, (1, 0)), False)
        X = concatenate((X, Y), axis=0)
    if ddof is None:
        ddof = 1 if bias == 0 else 0
    w = None
    if fweights is not None:
        fw = np.asarray(host_array(fweights, "control"), dtype=float)
        if not np.all(fw == np.around(fw)):
            raise TypeError("cov: fweights must be integer")
        w = _host_weights(fw, "fweights", X.shape[1])
    aw = None
    if aweights is not None:
        aw = _host_weights(aweights, "aweights", X.shape[1])
        w = aw if w is None else w * aw
    avg = red.average(X, axis=1, weights=w)
    samples = X.shape[1]
    with np.errstate(all="ignore"):
        if w is None:
            fact = samples - ddof
        else:
            acc = np.result_type(X.dtype, w.dtype, *((np.float64,) if X.dtype.kind in "biu"
                                                     else ()))
            w_sum = np.sum(w, dtype=acc)
            if ddof == 0:
                fact = w_sum
            elif aw is None:
                fact = w_sum - ddof
            else:
                fact = w_sum - ddof * builtins.sum(w * aw) / w_sum
        if fact <= 0:
            warnings.warn("Degrees of freedom <= 0 for slice", RuntimeWarning,
                          stacklevel=user_stacklevel())
            fact = 0.0
        scale = np.true_divide(1, fact)
    X = astype(ew.subtract(X, wrap(reshape_node(avg._node, avg.shape + (1,)))), X.dtype)
    XT = wrap(transpose_node((X if w is None else ew.multiply(X, w))._node, (1, 0)), False)
    c = dot(X, ew.conjugate(XT))
    c = astype(ew.multiply(c, scale), c.dtype)
    return wrap(reshape_node(c._node, tuple(n for n in c.shape if n != 1)), False)


@export
def corrcoef(x, y=None, rowvar=True, *, dtype=None):
    """Pearson correlation coefficients: cov / (stddev stddev^T), the real (and
    imaginary) parts clipped to [-1, 1]."""
    c = cov(x, y, rowvar, dtype=dtype)
    if c.ndim != 2:
        return ew.divide(c, c)
    stddev = ew.sqrt(ew.real(diagonal(c)))
    n = stddev.shape[0]
    c = astype(ew.divide(c, wrap(reshape_node(stddev._node, (n, 1)))), c.dtype)
    c = astype(ew.divide(c, wrap(reshape_node(stddev._node, (1, n)))), c.dtype)
    if not _dtypes.is_complex(c.dtype):
        return ew.clip(c, -1, 1)
    return _make_complex(ew.clip(ew.real(c), -1, 1), ew.clip(ew.imag(c), -1, 1))


# ---------------------------------------------------------------------------------
# Differences, gradients and integrals.

@export
def diff(a, n=1, axis=-1, prepend=np._NoValue, append=np._NoValue):
    """The n-th discrete difference along `axis` (`not_equal` for bools), optionally
    with values prepended or appended first."""
    if n == 0:
        return a
    if n < 0:
        raise ValueError("diff: order must be non-negative but got " + repr(n))
    x = as_array(a)
    if x.ndim == 0:
        raise ValueError("diff requires input that is at least one dimensional")
    axis = normalize_axis(axis, x.ndim, "diff")
    parts = []
    for extra in (prepend, None, append):
        if extra is None:
            parts.append(x)
        elif extra is not np._NoValue:
            e = as_array(extra)
            if e.ndim == 0:
                shape = x.shape[:axis] + (1,) + x.shape[axis + 1:]
                e = wrap(apply("broadcast_to", e._node, shape=shape), False)
            parts.append(e)
    if len(parts) > 1:
        x = concatenate(parts, axis)
    op = ew.not_equal if _dtypes.is_bool(x.dtype) else ew.subtract
    for _ in range(n):
        x = op(_cut(x, axis, 1, None), _cut(x, axis, None, -1))
    return x


@export
def ediff1d(ary, to_end=None, to_begin=None):
    """Differences of consecutive elements of the flattened array, with `to_begin`
    and `to_end` (cast to its dtype) around them."""
    x = as_array(ary)
    x = wrap(reshape_node(x._node, (x.size,)), False)
    dtype = x.dtype
    parts = []
    for name, extra in (("to_begin", to_begin), (None, None), ("to_end", to_end)):
        if name is None:
            parts.append(ew.subtract(_cut(x, 0, 1, None), _cut(x, 0, None, -1)))
            continue
        if extra is None:
            continue
        e = as_array(extra)
        if not np.can_cast(e.dtype, dtype, casting="same_kind"):
            raise TypeError(f"ediff1d: dtype of `{name}` must be compatible with input "
                            "`ary` under the `same_kind` rule.")
        parts.append(wrap(reshape_node(e._node, (e.size,)), False))
    if len(parts) == 1:
        return parts[0]
    return wrap(apply("concatenate", *(astype(p, dtype)._node for p in parts), axis=0),
                False)


def _spacing(distances, length: int):
    """One axis's spacing as NumPy's gradient takes it: a scalar, or the differences
    of the coordinates (a scalar when they are all equal)."""
    d = host_array(distances, "control") if isinstance(distances, Array) else distances
    arr = np.asanyarray(d)
    if arr.ndim == 0:
        return d[()] if isinstance(d, np.ndarray) else d
    if arr.ndim != 1:
        raise ValueError("gradient: distances must be either scalars or 1d")
    if len(arr) != length:
        raise ValueError("gradient: when 1d, distances must match the length of the "
                         "corresponding dimension")
    if np.issubdtype(arr.dtype, np.integer):
        arr = arr.astype(np.float64)
    dx = np.diff(arr)
    if (dx == dx[0]).all():
        return dx[0]
    return dx


def _combine(terms, f: Array, axis: int, shape_axis: int):
    """a·f1 + b·f2 + c·f3 for host coefficients (scalars or 1-d along `axis`)."""
    total = None
    for coef, part in terms:
        if np.ndim(coef):
            shape = [1] * f.ndim
            shape[axis] = -1
            coef = np.asarray(coef).reshape(shape)
        term = ew.multiply(coef, part)
        total = term if total is None else ew.add(total, term)
    return total


@export
def gradient(f, *varargs, axis=None, edge_order=1):
    """The gradient by central differences inside and one-sided differences (first or
    second order) at the boundaries, with uniform or coordinate spacings, as numpy's
    gradient; one array per axis (a tuple when more than one)."""
    x = as_array(f)
    nd = x.ndim
    axes = tuple(range(nd)) if axis is None else normalize_axis_tuple(axis, nd, "gradient")
    if len(varargs) == 0:
        dx = [1.0] * len(axes)
    elif len(varargs) == 1 and np.ndim(varargs[0]) == 0:
        dx = [_spacing(varargs[0], 0)] * len(axes)
    elif len(varargs) == len(axes):
        dx = [_spacing(d, x.shape[ax]) for d, ax in zip(varargs, axes)]
    else:
        raise TypeError("gradient: invalid number of arguments")
    if edge_order > 2:
        raise ValueError("gradient: 'edge_order' greater than 2 not supported")
    otype = x.dtype
    if not _dtypes.is_inexact(otype):
        if _dtypes.is_integer(otype):
            x = astype(x, _dtypes.float64)
        otype = _dtypes.float64
    outs = []
    for ax, h in zip(axes, dx):
        if x.shape[ax] < edge_order + 1:
            raise ValueError("gradient: Shape of array too small to calculate a numerical "
                             "gradient, at least (edge_order + 1) elements are required.")
        outs.append(_gradient_axis(x, ax, h, edge_order, otype))
    return outs[0] if len(axes) == 1 else tuple(outs)


def _gradient_axis(f: Array, axis: int, h, edge_order: int, otype) -> Array:
    def part(start, stop=None):
        return _cut(f, axis, start, stop)

    uniform = np.ndim(h) == 0
    with np.errstate(all="ignore"):
        if uniform:
            inner = ew.divide(ew.subtract(part(2, None), part(None, -2)), 2. * h)
        else:
            dx1, dx2 = h[0:-1], h[1:]
            a = -(dx2) / (dx1 * (dx1 + dx2))
            b = (dx2 - dx1) / (dx1 * dx2)
            c = dx1 / (dx2 * (dx1 + dx2))
            inner = _combine([(a, part(None, -2)), (b, part(1, -1)), (c, part(2, None))],
                             f, axis, axis)
        if edge_order == 1:
            first = ew.divide(ew.subtract(part(1, 2), part(0, 1)), h if uniform else h[0])
            last = ew.divide(ew.subtract(part(-1, None), part(-2, -1)),
                             h if uniform else h[-1])
        else:
            if uniform:
                a, b, c = -1.5 / h, 2. / h, -0.5 / h
            else:
                dx1, dx2 = h[0], h[1]
                a = -(2. * dx1 + dx2) / (dx1 * (dx1 + dx2))
                b = (dx1 + dx2) / (dx1 * dx2)
                c = - dx1 / (dx2 * (dx1 + dx2))
            first = _combine([(a, part(0, 1)), (b, part(1, 2)), (c, part(2, 3))], f, axis,
                             axis)
            if uniform:
                a, b, c = 0.5 / h, -2. / h, 1.5 / h
            else:
                dx1, dx2 = h[-2], h[-1]
                a = (dx2) / (dx1 * (dx1 + dx2))
                b = - (dx2 + dx1) / (dx1 * dx2)
                c = (2. * dx2 + dx1) / (dx2 * (dx1 + dx2))
            last = _combine([(a, part(-3, -2)), (b, part(-2, -1)), (c, part(-1, None))], f,
                            axis, axis)
    pieces = [astype(p, otype)._node for p in (first, inner, last)]
    if f.shape[axis] == 2:  # first and last overlap the (empty) inside
        pieces = [pieces[0], pieces[2]]
    return wrap(apply("concatenate", *pieces, axis=axis), False)


@export
def trapezoid(y, x=None, dx=1.0, axis=-1):
    """Integral along `axis` by the trapezoidal rule, with sample points `x` or a
    uniform spacing `dx`."""
    ys = as_array(y)
    axis = normalize_axis(axis, ys.ndim, "trapezoid")
    if x is None:
        d = dx
    else:
        xs = as_array(x)
        if xs.ndim == 1:
            d = diff(xs)
            shape = [1] * ys.ndim
            shape[axis] = d.shape[0]
            d = wrap(reshape_node(d._node, tuple(shape)), False)
        else:
            d = diff(xs, axis=axis)
    pairs = ew.add(_cut(ys, axis, 1, None), _cut(ys, axis, None, -1))
    return red.sum(ew.divide(ew.multiply(d, pairs), 2.0), axis)


# ---------------------------------------------------------------------------------
# Interpolation and convolution.

def _as_1d(value, dtype, func: str) -> Array:
    x = astype(as_array(value), dtype)
    if x.ndim != 1:
        raise ValueError(f"{func}: object " + ("too deep" if x.ndim else "of too small depth")
                         + " for desired array")
    return x


def _real_input(x: Array, func: str) -> Array:
    if _dtypes.is_complex(x.dtype):
        raise TypeError(f"{func}: Cannot cast array data from dtype('complex128') to "
                        "dtype('float64') according to the rule 'safe'")
    return astype(x, _dtypes.float64)


def _interp_real(x: Array, xp: Array, fp: Array, left, right, reciprocal: bool,
                 nan_value) -> Array:
    """numpy's compiled interp on float64 parts: the interval of each x by binary
    search, then slope·(x - xp[j]) + fp[j], from the other end if that is NaN. The
    complex variant multiplies by 1 / (xp[j+1] - xp[j]) where the real one divides,
    and gives `nan_value` for a NaN x."""
    n = xp.size
    first_x = _at(xp, 0, 0)
    if n == 1:  # NumPy's special case: comparisons only (a NaN x gets fp[0])
        return ew.where_(ew.less(x, first_x), left,
                         ew.where_(ew.greater(x, first_x), right, _at(fp, 0, 0)))
    j = ew.subtract(search(xp, x, "right"), 1)
    inside = ew.clip(j, 0, n - 2)
    x0, f0 = take1(xp, inside), take1(fp, inside)
    after = ew.add(inside, 1)
    x1, f1 = take1(xp, after), take1(fp, after)
    rise, run = ew.subtract(f1, f0), ew.subtract(x1, x0)
    slope = ew.multiply(rise, ew.divide(1.0, run)) if reciprocal else ew.divide(rise, run)
    value = ew.add(ew.multiply(slope, ew.subtract(x, x0)), f0)
    value = ew.where_(ew.isnan(value), ew.add(ew.multiply(slope, ew.subtract(x, x1)), f1),
                      value)
    value = ew.where_(ew.logical_and(ew.isnan(value), ew.equal(f0, f1)), f0, value)
    value = ew.where_(ew.equal(x0, x), f0, value)
    value = ew.where_(ew.equal(j, n - 1), _at(fp, 0, -1), value)
    value = ew.where_(ew.less(x, first_x), left, value)
    value = ew.where_(ew.greater(x, _at(xp, 0, -1)), right, value)
    return ew.where_(ew.isnan(x), nan_value, value)


@export
def interp(x, xp, fp, left=None, right=None, period=None):
    """Piecewise-linear interpolation of (xp, fp) at `x`, as NumPy's compiled interp
    (float64, or complex128 for complex `fp`); `period` for periodic data."""
    fps = as_array(fp)
    complex_fp = _dtypes.is_complex(fps.dtype)
    input_dtype = _dtypes.complex128 if complex_fp else _dtypes.float64
    xs = as_array(x)
    if period is not None:
        if period == 0:
            raise ValueError("interp: period must be a non-zero value")
        period = builtins.abs(period)
        left = right = None
        xs = _real_input(xs, "interp")
        xps, fps = _real_input(as_array(xp), "interp"), astype(fps, input_dtype)
        if xps.ndim != 1 or fps.ndim != 1:
            raise ValueError("interp: Data points must be 1-D sequences")
        if xps.shape[0] != fps.shape[0]:
            raise ValueError("interp: fp and xp are not of the same length")
        xs = ew.remainder(xs, period)
        xps = ew.remainder(xps, period)
        if xps.size:
            order = sort_order([xps], 0)
            xps, fps = take1(xps, order), take1(fps, order)
            xps = _concat(ew.subtract(_cut(xps, 0, -1, None), period), xps,
                          ew.add(_cut(xps, 0, 0, 1), period))
            fps = _concat(_cut(fps, 0, -1, None), fps, _cut(fps, 0, 0, 1))
    xs = _real_input(xs, "interp")
    xps = _as_1d(_real_input(as_array(xp), "interp") if period is None else xps,
                 _dtypes.float64, "interp")
    fps = _as_1d(fps, input_dtype, "interp")
    if xps.size == 0:
        raise ValueError("interp: array of sample points is empty")
    if xps.size != fps.size:
        raise ValueError("interp: fp and xp are not of the same length.")
    if xs.size == 0:
        return wrap(leaf(np.zeros(xs.shape, input_dtype), xs.shape, input_dtype), False)
    bounds = []
    for given, default in ((left, 0), (right, fps.size - 1)):
        if given is None:
            bounds.append(_at(fps, 0, default))
        elif complex_fp:
            bounds.append(astype(as_array(complex(host_array(given, "control")[()]) if isinstance(
                given, Array) else complex(given)), input_dtype))
        else:
            if isinstance(given, complex) or np.iscomplexobj(given):
                raise TypeError("interp: must be real number, not complex")
            bounds.append(astype(as_array(float(given)), _dtypes.float64))
    if not complex_fp:
        result = _interp_real(xs, xps, fps, *bounds, False, xs)
    else:
        parts = [_interp_real(xs, xps, part(fps), *(part(b) for b in bounds), True, nan)
                 for part, nan in ((ew.real, xs), (ew.imag, 0.0))]
        result = _make_complex(*parts)
    return wrap(result._node, scalar=xs.ndim == 0)


def _make_complex(re: Array, im: Array) -> Array:
    """re + im·j, exactly, from float32 or float64 parts of one shape."""
    return wrap(apply("complex", re._node, im._node), re._scalar)


def _concat(*xs: Array) -> Array:
    return wrap(apply("concatenate", *(x._node for x in xs), axis=0), False)


_MODES = {"valid": 0, "same": 1, "full": 2}


def _mode(mode, func: str) -> int:
    if isinstance(mode, str):
        if mode not in _MODES:
            raise ValueError(f"{func}: mode must be one of 'valid', 'same', or 'full' "
                             f"(got {mode!r})")
        return _MODES[mode]
    if mode not in (0, 1, 2):
        raise ValueError(f"{func}: mode must be 0, 1, or 2")
    return int(mode)


_CONVOLVED = frozenset(map(np.dtype, ("float32", "float64", "complex64", "complex128")))


def _correlate_core(a: Array, v: Array, mode: int) -> Array:
    """NumPy's _pyarray_correlate of 1-d arrays of one dtype, len(a) >= len(v):
    out[k] = sum_j a[k + j - n_left] v[j] over the overlapping j."""
    n1, n2 = a.size, v.size
    if a.dtype in _CONVOLVED:  # one primitive, O(n1 + n2) memory
        return wrap(apply("correlate", a._node, v._node, mode=mode), False)
    # Other dtypes (bool, integers, float16: NumPy's own loops, which XLA's convolution
    # does not reproduce): every window gathered, O(n1 * n2) memory.
    n_left = {0: 0, 1: n2 // 2, 2: n2 - 1}[mode]
    length = {0: n1 - n2 + 1, 1: n1, 2: n1 + n2 - 1}[mode]
    starts = np.arange(length)[:, None] - n_left + np.arange(n2)[None, :]
    valid = (starts >= 0) & (starts < n1)
    windows = wrap(apply("take", a._node, leaf_array(np.clip(starts, 0, n1 - 1))._node, axis=0))
    dtype = a.dtype
    if _dtypes.is_bool(dtype):
        products = ew.logical_and(windows, v)
        products = ew.logical_and(products, valid)
        return wrap(apply("reduce_any", products._node, axes=(1,)), False)
    work = _dtypes.float32 if dtype == _dtypes.float16 else dtype  # NumPy's HALF_dot
    products = ew.multiply(astype(windows, work), astype(v, work))
    products = ew.where_(valid, products, wrap(leaf(np.zeros((), work), (), work)))
    return astype(wrap(apply("reduce_sum", products._node, axes=(1,)), False), dtype)


def _correlate(a, v, mode, conjugate: bool, func: str) -> Array:
    x, y = as_array(a), as_array(v)
    if x.ndim == 0 or y.ndim == 0:
        raise ValueError(f"{func}: object of too small depth for desired array")
    if x.ndim > 1 or y.ndim > 1:
        raise ValueError(f"{func}: object too deep for desired array")
    dtype = _dtypes.result_type(x.dtype, y.dtype)
    x, y = astype(x, dtype), astype(y, dtype)
    mode = _mode(mode, func)
    if conjugate and _dtypes.is_complex(dtype):
        y = ew.conjugate(y)
    if x.size == 0:
        raise ValueError(f"{func}: first array argument cannot be empty")
    if y.size == 0:
        raise ValueError(f"{func}: second array argument cannot be empty")
    if x.size < y.size:
        out = _correlate_core(y, x, mode)
        return _cut(out, 0, None, None, -1) if out.size else out
    return _correlate_core(x, y, mode)


@export
def correlate(a, v, mode="valid"):
    """Cross-correlation of two 1-d sequences: sum_n a[n + k] conj(v[n])."""
    return _correlate(a, v, mode, True, "correlate")


@export
def convolve(a, v, mode="full"):
    """Discrete linear convolution of two 1-d sequences."""
    x, y = as_array(a), as_array(v)
    x = x if x.ndim else wrap(reshape_node(x._node, (1,)), False)
    y = y if y.ndim else wrap(reshape_node(y._node, (1,)), False)
    if y.ndim == 1 and x.ndim == 1 and y.size > x.size:
        x, y = y, x
    if x.ndim == 1 and x.size == 0:
        raise ValueError("convolve: a cannot be empty")
    if y.ndim == 1 and y.size == 0:
        raise ValueError("convolve: v cannot be empty")
    if y.ndim == 1:
        y = _cut(y, 0, None, None, -1)
    return _correlate(x, y, mode, False, "convolve")
