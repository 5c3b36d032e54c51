"""Reductions: sums, products, extrema, means and variances, logical reductions,
arg-extrema, cumulative sums and products, and their NaN-ignoring variants.

Each function resolves NumPy's accumulation dtype (small integers and bools sum in
int64 or uint64, means of integers in float64, ...), casts the input to it, and builds
one `reduce_*` primitive. `where=` replaces masked-out elements by the reduction's
identity (or by `initial` for max/min, which NumPy requires then); `initial` is
combined with the reduced value. The arithmetic of `mean`, `var` and `std` follows
numpy/_core/_methods.py step by step, so dtypes and roundings are NumPy's.

Known differences from NumPy:
- `out=` is not supported: lazyarr results are new values, so a non-None `out` raises
  TypeError (use the returned array).
- `initial=None` means "no initial" everywhere (Array.sum passes None when it is not
  given); NumPy's sum/prod read an explicit None as "no identity" and then raise on
  empty or where-masked input.
- Data-dependent errors are not raised: nanargmax/nanargmin of an all-NaN slice give
  0, and `average` with weights whose values sum to zero gives inf/NaN.
"""

from __future__ import annotations

import builtins
import functools
import math
import operator
import warnings

import numpy as np

from .. import _dtypes, _eager, _settings
from .._array import small_array
from .._errors import user_stacklevel
from .._graph import SmallLeaf
from .._ops import REDUCTIONS, broadcast_shapes
from .._shared import EXPORTED
from . import elementwise as ew
from . import export
from .common import (apply, Array, as_array, astype, broadcast_node, cast_unsafe,
                     full_node, normalize_axis, normalize_axis_tuple, reshape_node,
                     scalar_node, slices_node, transpose_node, wrap, write_out)

# Identities of the reductions that have one (max and min have none).
_IDENTITY = {"reduce_sum": 0, "reduce_prod": 1, "reduce_any": False, "reduce_all": True}
# The elementwise ufunc combining a reduced value with `initial`.
_COMBINE = {"reduce_sum": "add", "reduce_prod": "multiply", "reduce_max": "maximum",
            "reduce_min": "minimum", "reduce_any": "logical_or", "reduce_all": "logical_and"}
_SMALL_SIGNED = (_dtypes.bool_, _dtypes.int8, _dtypes.int16, _dtypes.int32)
_SMALL_UNSIGNED = (_dtypes.uint8, _dtypes.uint16, _dtypes.uint32)


# ---------------------------------------------------------------------------------
# Argument handling.

@functools.lru_cache(maxsize=1024)
def reduction_loop(np_ufunc: np.ufunc, dtype: np.dtype, requested, out, name: str) -> np.dtype:
    """NumPy's loop dtype for a reduction of `dtype`: the one `requested`, else the
    promotion with `out`'s dtype, else the default (add and multiply take bool and
    small integers to int64/uint64). Casts are unsafe; the loop's inputs and output
    must have one dtype."""
    first = requested if requested is not None else out
    types = (first, requested if requested is not None else dtype, None)
    loop = np_ufunc.resolve_dtypes(types, reduction=True, casting="unsafe")
    if not loop[0] == loop[1] == loop[2] or (requested is not None and loop[0] != requested):
        raise TypeError(f"{name}: no loop reduces {dtype}"
                        + ("" if requested is None else f" in {requested}"))
    return loop[0]


def _out_loop(ufunc: str, a, dtype, out, func: str):
    """The accumulation dtype of a sum or product written into `out=` without a
    `dtype`: NumPy resolves the loop with out's dtype (a float32 sum into a float64
    `out` accumulates in float64). `dtype` itself otherwise."""
    if dtype is not None or not isinstance(out, Array):
        return dtype
    return reduction_loop(getattr(np, ufunc), as_array(a).dtype, None, out.dtype, func)


def reads_out(out, acc) -> None:
    """NumPy's sums accumulate in `out` itself: a complex `out` read into a real loop
    (a `dtype` given, or mean's float64 for integers) warns, as NumPy's cast does."""
    if isinstance(out, Array) and acc is not None and _dtypes.is_complex(out.dtype) \
            and not _dtypes.is_complex(_dtypes.as_dtype(acc)):
        warnings.warn("Casting complex values to real discards the imaginary part",
                      np.exceptions.ComplexWarning, stacklevel=user_stacklevel())


def _into(out, result: Array, func: str) -> Array:
    """A reduction's `out=`: NumPy casts the result unsafely (ComplexWarning when it
    drops an imaginary part); the shape must be the result's, keepdims included."""
    return write_out(out, result, func, "unsafe")


def _started_from_out(out, a, axis, keepdims, result: Array, combine: str,
                      func: str) -> Array:
    """max/min (and fmax/fmin) as NumPy reduces into an `out=` of another dtype, in
    the loop dtype NumPy resolves with out's: each slice starts from its first element
    stored in `out` (so cast to out's dtype and back), then takes the others."""
    x = as_array(a)
    axes = _axes(axis, x.ndim, func)
    if math.prod(x.shape[ax] for ax in axes) == 0:
        return result
    loop = reduction_loop(getattr(np, combine), x.dtype, None, out.dtype, func)
    first = wrap(reshape_node(slices_node(x._node, {ax: slice(0, 1) for ax in axes}),
                              result.shape), result._scalar)
    first = astype(cast_unsafe(astype(first, loop), out.dtype), loop)
    return getattr(ew, combine)(first, astype(result, loop))


def _extremum_out(out, a, axis, keepdims, initial, where, result: Array, combine: str,
                  func: str) -> Array:
    """max/min into `out=`: from the first element stored in `out` when its dtype
    differs (see `_started_from_out`); `initial` or `where=` start from the initial
    value instead."""
    if isinstance(out, Array) and out.dtype != result.dtype and initial is None \
            and where is True:
        result = _started_from_out(out, a, axis, keepdims, result, combine, func)
    return _into(out, result, func)


def _arg_out(out, result: Array, func: str) -> Array:
    """argmax/argmin's `out=`: an integer array NumPy can cast safely to intp, of the
    result's shape (NumPy's TypeError and ValueError otherwise)."""
    if isinstance(out, Array):
        if out.shape != result.shape:
            raise ValueError(f"output array does not match result of np.{func}.")
        if not np.can_cast(out.dtype, _dtypes.intp, "safe"):
            raise TypeError(f"Cannot cast array data from {out.dtype!r} to "
                            f"{np.dtype(_dtypes.intp)!r} according to the rule 'safe'")
    return write_out(out, result, func, "unsafe")


def _axes(axis, ndim: int, func: str, scalar_axis: bool = True) -> tuple[int, ...]:
    """A reduction's `axis` (None, an int or a tuple of ints) as a sorted tuple.

    Like NumPy's ufunc reductions, `scalar_axis` lets a 0-d array take axis 0 or -1
    (reducing nothing); `mean`, `var` and `std` reject it unless given `where=`, as
    NumPy's do."""
    if axis is None:
        return tuple(range(ndim))
    if isinstance(axis, tuple):
        axes = tuple(normalize_axis(a, ndim, func) for a in axis)
        if len(set(axes)) != len(axes):
            raise ValueError(f"{func}: duplicate value in 'axis'")
        return tuple(sorted(axes))
    if ndim == 0 and scalar_axis and _as_index(axis, func) in (0, -1):
        return ()
    return (normalize_axis(axis, ndim, func),)


def _as_index(value, func: str) -> int:
    try:
        return operator.index(value)
    except TypeError:
        raise TypeError(f"{func}: 'axis' must be an integer, not "
                        f"{type(value).__name__}") from None


def _reduced_shape(shape, axes, keepdims: bool) -> tuple[int, ...]:
    if keepdims:
        return tuple(1 if i in axes else n for i, n in enumerate(shape))
    return tuple(n for i, n in enumerate(shape) if i not in axes)


def _mask(where, shape, func: str):
    """`where=` as a bool Array broadcast to `shape`, or None when it is True."""
    if where is True:
        return None
    mask = as_array(where)
    if not _dtypes.is_bool(mask.dtype):
        if type(where) is not builtins.int:  # NumPy casts 'where' safely: only Python ints pass
            raise TypeError(f"{func}: Cannot cast 'where' from {mask.dtype} to bool "
                            "according to the rule 'safe'")
        mask = astype(mask, _dtypes.bool_)
    if broadcast_shapes(mask.shape, shape) != tuple(shape):
        raise ValueError(f"{func}: 'where' of shape {mask.shape} does not broadcast to the "
                         f"array's shape {tuple(shape)}")
    return wrap(broadcast_node(mask._node, shape), False)


def _initial(initial, dtype, func: str):
    """`initial` as a 0-d Array of `dtype` (NumPy's conversion and errors), or None."""
    if initial is None:
        return None
    if isinstance(initial, Array):
        if initial.ndim:
            raise ValueError(f"{func}: 'initial' must be a scalar, not shape {initial.shape}")
        return astype(initial, dtype)
    value = np.array(initial, dtype=dtype)
    if value.ndim:
        raise ValueError(f"{func}: setting an array element with a sequence "
                         f"('initial' must be a scalar, got {initial!r})")
    return wrap(scalar_node(value, dtype))


def _constant(value, shape, dtype) -> Array:
    return wrap(full_node(value, tuple(shape), dtype))


def _sum_dtype(dtype, requested, func: str) -> np.dtype:
    """The accumulation dtype of sum, prod, cumsum and cumprod (NumPy's add.reduce)."""
    if requested is not None:
        dt = _dtypes.as_dtype(requested)
        if not _dtypes.is_numeric(dt):
            raise TypeError(f"{func}: unsupported dtype {dt}")
        return dt
    if dtype in _SMALL_SIGNED:
        return _dtypes.int64
    if dtype in _SMALL_UNSIGNED:
        return _dtypes.uint64
    return dtype


# ---------------------------------------------------------------------------------
# The reduction core.

def _reduction(prim: str, x: Array, axes, keepdims, initial, where, ufunc: str) -> Array:
    """`prim` over `axes` of `x` (already in the accumulation dtype), with NumPy's
    `initial` and `where=`; `ufunc` names the reduction in error messages."""
    init = _initial(initial, x.dtype, ufunc)
    mask = _mask(where, x.shape, ufunc)
    identity = _IDENTITY.get(prim)
    count = math.prod(x.shape[a] for a in axes)
    if identity is None and init is None:
        if mask is not None:
            raise ValueError(f"reduction operation '{ufunc}' does not have an identity, so "
                             "to use a where mask one has to specify 'initial'")
        if count == 0:
            raise ValueError(f"zero-size array to reduction operation {ufunc} which has "
                             "no identity")
    shape, kept_shape = x.shape, _reduced_shape(x.shape, axes, True)
    if count == 0:
        start = init if init is not None else _constant(identity, (), x.dtype)
        out_shape = _reduced_shape(shape, axes, False)
        result = wrap(apply("broadcast_to", start._node, shape=out_shape) if out_shape
                      else start._node)
    else:
        if mask is not None:
            fill = init if identity is None else _constant(identity, (), x.dtype)
            x = ew.where_(mask, x, fill)
        if init is not None and prim == "reduce_prod" and _dtypes.is_inexact(x.dtype):
            # NumPy multiplies sequentially from `initial` (0 * 1e200 * 1e200 is 0,
            # not 0 * inf): put it first in each reduced slice.
            x, axes = _prepend(x, axes, init, count), (len(shape) - len(axes),)
            init = None
        # Over no axis NumPy still starts from the identity: a sum turns -0.0 into 0.0,
        # a complex product multiplies by 1+0j (-inf+2.5j becomes -inf+nanj).
        reduce = axes or (prim in ("reduce_sum", "reduce_prod") and
                          _dtypes.is_inexact(x.dtype))
        result = wrap(apply(prim, x._node, axes=axes) if reduce else x._node)
        if init is not None:
            result = getattr(ew, _COMBINE[prim])(result, init)
    if keepdims:
        result = wrap(reshape_node(result._node, kept_shape))
    return result


def _prepend(x: Array, axes, init: Array, count: int) -> Array:
    """`x` with the reduced `axes` moved last and flattened into one, `init` in front."""
    kept = tuple(i for i in range(x.ndim) if i not in axes)
    outer = tuple(x.shape[i] for i in kept)
    flat = reshape_node(transpose_node(x._node, kept + tuple(axes)), outer + (count,))
    first = apply("broadcast_to", init._node, shape=outer + (1,))
    return wrap(apply("concatenate", first, flat, axis=len(outer)))


# ---------------------------------------------------------------------------------
# The eager path of the plain reductions (no `initial`, `where=` or `out=`): on a small
# computed NumPy buffer, or a window of one (see `_eager`), the steps the general path
# would record (a cast to the accumulation dtype, the reduction; for `mean` the
# division by the count in NumPy's loop dtype and the cast back) are NumPy's calls made
# at once, as the interpreter makes them, in one `_eager.call`. Profiled on
# `x[s:s + 4096].mean()` of a computed `x` (benchmarks' windows): the general path built
# and settled four nodes (reduce, convert, divide, convert: 17 us a mean, NumPy 2.4).

_KINDS = "biufc"
_DECISION = _eager.DECISION
_TOKEN = _settings.TOKEN
_INTP = np.intp
_ndarray = np.ndarray
_asarray = np.asarray
_COUNT = _eager.COUNT


def _eager_operand(a, axis, keepdims, where, func: str, scalar_axis: bool = True):
    """(the NumPy value of `a`, the axes to reduce (None for all: NumPy reduces
    axis=None and all its axes alike), this thread's `_eager.call` runner) where the
    eager path may take it: an Array of a small non-empty computed buffer of NumPy's
    numeric dtypes, or of a window of a computed buffer, eager execution on, no
    `where=`, a bool `keepdims` and some axis to reduce (NumPy's identity rules over
    none: the general path). Else None."""
    if type(a) is not Array or where is not True or not (keepdims is False
                                                         or keepdims is True):
        return None
    state = _DECISION.state
    if state[0] is not _TOKEN[0]:
        state = _eager.refresh()
    if not state[1]:
        return None
    value = ew.current_small_value(a)
    if value is None:  # (a chain of pending views of a computed buffer, say)
        node = a._n if a._layout is None and not EXPORTED else a._node
        value = node.value if type(node) is SmallLeaf else \
            _eager.host_value(node, _eager.bound())
    if value is None or value.size == 0 or value.dtype.kind not in _KINDS:
        return None
    if axis is None:
        axes = None
        if not value.ndim:
            return None
    else:
        axes = _axes(axis, value.ndim, func, scalar_axis)
        if not axes:
            return None
    return value, axes, state[2]


def _reduced(ufunc, v, axes, acc, keepdims):
    """The interpreter's cast (`convert`) and reduction (`reduce_*`) of `v`."""
    if v.dtype is not acc and v.dtype != acc:
        v = v.astype(acc)
    return ufunc.reduce(v, axes, acc, None, keepdims)


def _averaged(v, axes, acc, keepdims, count, result_dtype):
    """`_reduced` sum divided by the strong intp `count` in NumPy's loop dtype and cast
    back to the sum's dtype (then to `result_dtype`), as `mean` records it."""
    total = _reduced(np.add, v, axes, acc, keepdims)
    # A real NumPy scalar's `/` is NumPy's scalar division (0.1 us, its ufunc 0.9 us):
    # the same correctly rounded quotient in the same promoted dtype.
    avg = total / _INTP(count) if total.dtype.kind == "f" else \
        np.true_divide(total, _INTP(count))
    if avg.dtype is not acc and avg.dtype != acc:
        avg = avg.astype(acc)
    return avg if result_dtype is None else avg.astype(result_dtype)


def eager_reduction(prim: str, a, axis, dtype, keepdims, initial, where, func: str):
    """`prim` of `a` over `axis` computed at once where the eager path applies (see
    above), else None; sums and products in NumPy's accumulation dtype (`dtype` if
    given), the others in `a`'s (bool only, for any and all). (Array's methods call it
    first, without `out=`.)"""
    found = None if initial is not None else _eager_operand(a, axis, keepdims, where, func)
    if found is None:
        return None
    v, axes, run = found
    dt = v.dtype
    if prim == "reduce_sum" or prim == "reduce_prod":
        acc = dt if dtype is None and (dt.kind == "f" or dt.kind == "c") else \
            _sum_dtype(dt, dtype, func)
        if acc.kind not in _KINDS:
            return None
    elif prim == "reduce_any" or prim == "reduce_all":
        if dt.kind != "b":
            return None
        acc = dt
    else:
        acc = dt
    ufunc = REDUCTIONS[prim]
    value = run(ufunc.reduce, v, axes, acc, None, keepdims) if dt is acc else \
        run(_reduced, ufunc, v, axes, acc, keepdims)
    _COUNT[0] += 1
    return small_array(value if type(value) is _ndarray else _asarray(value))


def eager_mean(a, axis, dtype, keepdims, where):
    """`mean` computed at once where the eager path applies (see above), else None."""
    found = None if dtype is not None else _eager_operand(a, axis, keepdims, where, "mean",
                                                          False)
    if found is None:
        return None
    v, axes, run = found
    dt = v.dtype
    acc, result_dtype = (dt, None) if dt.kind == "c" or dt.kind == "f" and dt.itemsize > 2 \
        else _mean_dtype(dt, None)
    count = v.size if axes is None else math.prod([v.shape[ax] for ax in axes])
    value = run(_averaged, v, axes, acc, keepdims, count, result_dtype)
    _COUNT[0] += 1
    return small_array(value if type(value) is _ndarray else _asarray(value))


def _sum(a, axis, dtype, keepdims, initial, where, func: str, prim="reduce_sum") -> Array:
    result = eager_reduction(prim, a, axis, dtype, keepdims, initial, where, func)
    if result is not None:
        return result
    x = as_array(a)
    axes = _axes(axis, x.ndim, func)
    x = astype(x, _sum_dtype(x.dtype, dtype, func))
    return _reduction(prim, x, axes, builtins.bool(keepdims), initial, where,
                      "add" if prim == "reduce_sum" else "multiply")


def _extremum(prim: str, a, axis, keepdims, initial, where, func: str) -> Array:
    result = eager_reduction(prim, a, axis, None, keepdims, initial, where, func)
    if result is not None:
        return result
    x = as_array(a)
    axes = _axes(axis, x.ndim, func)
    return _reduction(prim, x, axes, builtins.bool(keepdims), initial, where,
                      "maximum" if prim == "reduce_max" else "minimum")


def _truth(x: Array) -> Array:
    """`x != 0` as bool (NumPy's truth of any dtype); bool arrays unchanged."""
    return x if _dtypes.is_bool(x.dtype) else ew.not_equal(x, 0)


def _logical(prim: str, a, axis, keepdims, where, initial, func: str) -> Array:
    result = eager_reduction(prim, a, axis, None, keepdims, initial, where, func)
    if result is not None:
        return result
    x = _truth(as_array(a))
    axes = _axes(axis, x.ndim, func)
    ufunc = "logical_or" if prim == "reduce_any" else "logical_and"
    return _reduction(prim, x, axes, builtins.bool(keepdims), initial, where, ufunc)


# ---------------------------------------------------------------------------------
# Sums, products, extrema, logical reductions.

@export
def sum(a, axis=None, dtype=None, out=None, keepdims=False, initial=None, where=True):
    """Sum over `axis`; bools and small integers accumulate in int64/uint64 (NumPy's
    add.reduce)."""
    if out is None:  # (the eager path's cost: none of out='s checks)
        return _sum(a, axis, dtype, keepdims, initial, where, "sum")
    dtype = _out_loop("add", a, dtype, out, "sum")
    reads_out(out, dtype)
    return _into(out, _sum(a, axis, dtype, keepdims, initial, where, "sum"), "sum")


@export
def prod(a, axis=None, dtype=None, out=None, keepdims=False, initial=None, where=True):
    """Product over `axis`, with NumPy's accumulation dtypes (as `sum`)."""
    if out is None:
        return _sum(a, axis, dtype, keepdims, initial, where, "prod", "reduce_prod")
    dtype = _out_loop("multiply", a, dtype, out, "prod")
    reads_out(out, dtype)
    return _into(out, _sum(a, axis, dtype, keepdims, initial, where, "prod", "reduce_prod"),
                 "prod")


@export(names=("amax",))
def max(a, axis=None, out=None, keepdims=False, initial=None, where=True):
    """Maximum over `axis`; NaN propagates. An empty reduction, or `where=` without
    `initial`, raises ValueError as in NumPy."""
    result = _extremum("reduce_max", a, axis, keepdims, initial, where, "max")
    return _extremum_out(out, a, axis, keepdims, initial, where, result, "maximum", "max")


@export(names=("amin",))
def min(a, axis=None, out=None, keepdims=False, initial=None, where=True):
    """Minimum over `axis` (see `max`)."""
    result = _extremum("reduce_min", a, axis, keepdims, initial, where, "min")
    return _extremum_out(out, a, axis, keepdims, initial, where, result, "minimum", "min")


@export
def any(a, axis=None, out=None, keepdims=False, *, where=True):
    """Whether any element (`x != 0`) is true over `axis`."""
    return _into(out, _logical("reduce_any", a, axis, keepdims, where, None, "any"), "any")


@export
def all(a, axis=None, out=None, keepdims=False, *, where=True):
    """Whether every element (`x != 0`) is true over `axis`."""
    return _into(out, _logical("reduce_all", a, axis, keepdims, where, None, "all"), "all")


@export
def ptp(a, axis=None, out=None, keepdims=False):
    """max - min over `axis`, in the input dtype (integers wrap; bool raises TypeError)."""
    high = _extremum("reduce_max", a, axis, keepdims, None, True, "ptp")
    low = _extremum("reduce_min", a, axis, keepdims, None, True, "ptp")
    if isinstance(out, Array):  # NumPy: subtract(max(a, out=out), min(a), out=out)
        high = high if out.dtype == high.dtype else cast_unsafe(
            _started_from_out(out, a, axis, keepdims, high, "maximum", "ptp"), out.dtype)
    result = ew.subtract(high, low)
    return write_out(out, result, "ptp", ufunc="subtract")  # NumPy: subtract(.., out=out)


@export
def count_nonzero(a, axis=None, *, keepdims=False):
    """How many elements are nonzero over `axis`, as intp (a 0-d intp for axis=None,
    where NumPy 2 also returns an intp scalar)."""
    x = _truth(as_array(a))
    return _sum(x, axis, _dtypes.intp, keepdims, None, True, "count_nonzero")


# ---------------------------------------------------------------------------------
# Means and variances (numpy/_core/_methods.py: _mean, _var, _std).

def _count(x: Array, axes, keepdims: bool, where, func: str):
    """How many elements each result reduces: a Python int, or with `where=` an intp
    Array (NumPy's _count_reduce_items)."""
    mask = _mask(where, x.shape, func)
    if mask is None:
        return math.prod(x.shape[a] for a in axes)
    return _sum(mask, axes, _dtypes.intp, keepdims, None, True, func)


def _divide(total: Array, count) -> Array:
    """total / count as NumPy's `true_divide(total, count, out=total, casting='unsafe')`:
    divided in the promoted dtype (count is a strong intp or float64), cast back. A
    float32 total divided by a count that float32 holds exactly is divided in float32:
    the same value, since float64's 53 bits are at least 2 * 24 + 2 (a quotient rounded
    to float64 and then to float32 is the quotient rounded to float32), and no float64
    in the program (on a TPU a program holding one runs on the host: `unfaithful`)."""
    if not isinstance(count, Array):
        if total.dtype == _dtypes.float32 and np.float32(count) == count:
            return ew.divide(total, np.float32(count))
        count = as_array(np.asarray(count)[()])
    return astype(ew.divide(total, count), total.dtype)


def _mean_dtype(dtype, requested):
    """(accumulation dtype, result dtype) of `mean`: float64 for bools and integers,
    float32 accumulation for float16."""
    if requested is not None:
        return _dtypes.as_dtype(requested), None
    if _dtypes.is_bool(dtype) or _dtypes.is_integer(dtype):
        return _dtypes.float64, None
    if dtype == _dtypes.float16:
        return _dtypes.float32, _dtypes.float16
    return dtype, None


@export
def mean(a, axis=None, dtype=None, out=None, keepdims=False, *, where=True):
    """Arithmetic mean over `axis`: the sum (integers in float64, float16 in float32)
    divided by the count of (where-selected) elements, as numpy's _mean."""
    if out is None:
        result = eager_mean(a, axis, dtype, keepdims, where)
        if result is not None:
            return result
    x = as_array(a)
    axes = _axes(axis, x.ndim, "mean", scalar_axis=where is not True)
    keepdims = builtins.bool(keepdims)
    count = _count(x, axes, keepdims, where, "mean")
    if where is True and count == 0:
        warnings.warn("Mean of empty slice", RuntimeWarning, stacklevel=user_stacklevel())
    acc, result_dtype = _mean_dtype(x.dtype, dtype)
    if out is not None:  # NumPy sums into `out`, then divides there
        acc = _out_loop("add", x, None, out, "mean") if acc == x.dtype and dtype is None \
            else acc
        reads_out(out, acc)
        total = _sum(x, axes, acc, keepdims, None, where, "mean")
        if isinstance(out, Array):
            total = cast_unsafe(total, out.dtype)
        return _into(out, _divide(total, count), "mean")
    avg = _divide(_sum(x, axes, acc, keepdims, None, where, "mean"), count)
    return avg if result_dtype is None else astype(avg, result_dtype)


def _ddof(ddof, correction, func: str):
    if correction is not None:
        if ddof != 0:
            raise ValueError(f"{func}: ddof and correction can't be provided simultaneously.")
        return correction
    return ddof


def _squared_deviations(x: Array, d: Array) -> Array:
    """|d|**2 as numpy's _var computes it from `d = x - mean`: a plain square when `x`
    is real (even if `d` is complex), re**2 + im**2 otherwise."""
    if _dtypes.is_complex(d.dtype) and not (_dtypes.is_floating(x.dtype)
                                            or _dtypes.is_integer(x.dtype)):
        return ew.add(ew.square(ew.real(d)), ew.square(ew.imag(d)))
    return ew.square(d)


def _var(a, axis, dtype, ddof, keepdims, where, mean_value, func: str, out=None) -> Array:
    """numpy's _var; with `out=`, the sum of squares is made in out's dtype (its loop
    resolved with it) and divided there, as NumPy writes it into `out`."""
    x = as_array(a)
    axes = _axes(axis, x.ndim, func, scalar_axis=where is not True)
    keepdims = builtins.bool(keepdims)
    count = _count(x, axes, True, where, func)
    static = not isinstance(count, Array)
    if static and not isinstance(ddof, Array) and ddof >= count:
        warnings.warn("Degrees of freedom <= 0 for slice", RuntimeWarning,
                      stacklevel=user_stacklevel())
    if dtype is None and (_dtypes.is_bool(x.dtype) or _dtypes.is_integer(x.dtype)):
        dtype = _dtypes.float64
    if mean_value is None:
        mean_value = _divide(_sum(x, axes, dtype, True, None, where, func), count)
    squares = _squared_deviations(x, ew.subtract(x, mean_value))
    acc = _out_loop("add", squares, dtype, out, func)
    reads_out(out, acc)
    total = _sum(squares, axes, acc, keepdims, None, where, func)
    if isinstance(out, Array):
        total = cast_unsafe(total, out.dtype)
    if static:
        dof = np.maximum(np.intp(count) - ddof, 0)
    else:
        count = wrap(reshape_node(count._node, total.shape))
        dof = ew.maximum(ew.subtract(count, ddof), 0)
    return _divide(total, dof)


def _sqrt_into(v: Array) -> Array:
    """sqrt(v) stored back in v's dtype, as numpy's _std (sqrt(ret, out=ret)): an array
    of integers cannot take a float result (TypeError); a 0-d result is cast."""
    root = ew.sqrt(v)
    if root.dtype != v.dtype:
        if v.ndim and not np.can_cast(root.dtype, v.dtype, "same_kind"):
            raise TypeError(f"Cannot cast ufunc 'sqrt' output from {root.dtype!r} to "
                            f"{v.dtype!r} with casting rule 'same_kind'")
        root = astype(root, v.dtype)
    return root


@export
def var(a, axis=None, dtype=None, out=None, ddof=0, keepdims=False, *, where=True,
        mean=None, correction=None):
    """Variance: mean of |x - mean|**2 with `ddof` (or `correction`) degrees of freedom
    removed, computed as numpy's _var (real result for complex input)."""
    return _into(out, _var(a, axis, dtype, _ddof(ddof, correction, "var"), keepdims, where,
                           mean, "var", out), "var")


@export
def std(a, axis=None, dtype=None, out=None, ddof=0, keepdims=False, *, where=True,
        mean=None, correction=None):
    """Standard deviation: sqrt(var), as numpy's _std."""
    v = _var(a, axis, dtype, _ddof(ddof, correction, "std"), keepdims, where, mean, "std",
             out)
    if out is not None:  # NumPy's sqrt(v, out=out): a same_kind cast
        return write_out(out, ew.sqrt(v), "std", ufunc="sqrt")
    return _sqrt_into(v)


@export
def average(a, axis=None, weights=None, returned=False, *, keepdims=False):
    """Weighted average over `axis` (the mean when `weights` is None); with `returned`,
    also the sum of the weights. Unlike NumPy, weights whose values sum to zero give
    inf/NaN instead of ZeroDivisionError (checking would need the data); empty weight
    sums do raise it."""
    x = as_array(a)
    keepdims = builtins.bool(keepdims)
    axes = None if axis is None else normalize_axis_tuple(axis, x.ndim, "average")
    if weights is None:
        avg = mean(x, axes, keepdims=keepdims)
        if avg.size == 0:
            raise ZeroDivisionError("average: division by zero (the result is empty)")
        scale = _constant(x.size / avg.size, avg.shape, avg.dtype)
    else:
        w = as_array(weights)
        integral = _dtypes.is_bool(x.dtype) or _dtypes.is_integer(x.dtype)
        dtype = _dtypes.result_type(x.dtype, w.dtype, *((_dtypes.float64,) if integral else ()))
        if w.shape != x.shape:
            w = _weights_for_axes(w, x.shape, axes)
        scale = _sum(w, axes, dtype, keepdims, None, True, "average")
        if scale.size and w.size == 0:  # every weight sum is an empty sum: statically 0
            raise ZeroDivisionError("average: Weights sum to zero, can't be normalized")
        total = _sum(ew.multiply(x, w, dtype=dtype), axes, None, keepdims, None, True,
                     "average")
        avg = ew.divide(total, scale)
    if not returned:
        return avg
    if scale.shape != avg.shape:
        scale = wrap(apply("broadcast_to", scale._node, shape=avg.shape), False)
    return avg, scale


def _weights_for_axes(w: Array, shape, axes) -> Array:
    """1-d or n-d weights along `axes` laid out to broadcast against `shape`."""
    if axes is None:
        raise TypeError("average: Axis must be specified when shapes of a and weights "
                        "differ.")
    if w.shape != tuple(shape[ax] for ax in axes):
        raise ValueError("average: Shape of weights must be consistent with shape of a "
                         "along specified axis.")
    node = transpose_node(w._node, tuple(int(i) for i in np.argsort(axes)))
    layout = tuple(n if ax in axes else 1 for ax, n in enumerate(shape))
    return wrap(reshape_node(node, layout), False)


# ---------------------------------------------------------------------------------
# Arg-extrema.

def _arg_reduction(prim: str, x: Array, axis, keepdims, func: str) -> Array:
    """argmax/argmin: axis None flattens; a 0-d array counts as 1-d; an empty axis
    raises ValueError as NumPy does."""
    if axis is None:
        flat = reshape_node(x._node, (x.size,))
        ax, kept = 0, (1,) * x.ndim
    else:
        flat = reshape_node(x._node, (1,)) if x.ndim == 0 else x._node
        ax = normalize_axis(axis, len(flat.shape), func)
        kept = tuple(1 if i == ax else n for i, n in enumerate(x.shape))
    if flat.shape[ax] == 0:
        raise ValueError(f"attempt to get {prim} of an empty sequence")
    node = apply(prim, flat, axis=ax)
    return wrap(reshape_node(node, kept) if keepdims else node)


@export
def argmax(a, axis=None, out=None, *, keepdims=False):
    """Index of the first maximum (the first NaN, if any) over `axis` (flattened when
    None)."""
    return _arg_out(out, _arg_reduction("argmax", as_array(a), axis, keepdims, "argmax"),
                    "argmax")


@export
def argmin(a, axis=None, out=None, *, keepdims=False):
    """Index of the first minimum (the first NaN, if any) over `axis`."""
    return _arg_out(out, _arg_reduction("argmin", as_array(a), axis, keepdims, "argmin"),
                    "argmin")


# ---------------------------------------------------------------------------------
# Cumulative sums and products.

def _accumulate(prim: str, x: Array, axis: int, dtype) -> Array:
    x = astype(x, _sum_dtype(x.dtype, dtype, prim))
    return wrap(apply(prim, x._node, axis=axis), False)


def _flat_axis(x: Array, axis, func: str) -> tuple[Array, int]:
    """cumsum's axis: None flattens, and a 0-d array counts as 1-d."""
    if axis is None or x.ndim == 0:
        x = wrap(reshape_node(x._node, (x.size,)), False)
    return x, normalize_axis(0 if axis is None else axis, x.ndim, func)


def _single_axis(axis, ndim: int, func: str) -> int:
    """ufunc.accumulate's axis: exactly one (an int or a 1-tuple), not on a 0-d array."""
    axes = _axes(axis, ndim, func)
    if ndim == 0:
        raise TypeError(f"{func}: cannot accumulate on a scalar")
    if len(axes) != 1:
        raise ValueError(f"{func}: accumulate does not allow multiple axes")
    return axes[0]


@export
def cumsum(a, axis=None, dtype=None, out=None):
    """Cumulative sum along `axis` (of the flattened array when None), in sum's
    accumulation dtype."""
    x, ax = _flat_axis(as_array(a), axis, "cumsum")
    dtype = _out_loop("add", x, dtype, out, "cumsum")
    return _into(out, _accumulate("cumsum", x, ax, dtype), "cumsum")


@export
def cumprod(a, axis=None, dtype=None, out=None):
    """Cumulative product along `axis` (see `cumsum`)."""
    x, ax = _flat_axis(as_array(a), axis, "cumprod")
    dtype = _out_loop("multiply", x, dtype, out, "cumprod")
    return _into(out, _accumulate("cumprod", x, ax, dtype), "cumprod")


def _cumulative(prim: str, x, axis, dtype, out, include_initial, func: str) -> Array:
    """NumPy 2's cumulative_sum/prod: 0-d counts as 1-d, axis required beyond 1-d,
    and with `include_initial` the identity first."""
    x = as_array(x)
    if x.ndim == 0:
        x = wrap(reshape_node(x._node, (1,)), False)
    if axis is None:
        if x.ndim >= 2:
            raise ValueError(f"{func}: For arrays which have more than one dimension "
                             "``axis`` argument is required.")
        axis = 0
    ax = _single_axis(axis, x.ndim, func)
    dtype = _out_loop("add" if prim == "cumsum" else "multiply", x, dtype, out, func)
    result = _accumulate(prim, x, ax, dtype)
    if include_initial:
        first_shape = tuple(1 if i == ax else n for i, n in enumerate(result.shape))
        first = full_node(_IDENTITY["reduce_" + prim[3:]], first_shape, result.dtype)
        result = wrap(apply("concatenate", first, result._node, axis=ax), False)
    return _into(out, result, func)


@export
def cumulative_sum(x, /, *, axis=None, dtype=None, out=None, include_initial=False):
    """Cumulative sum (NumPy 2 / Array API), optionally starting with 0."""
    return _cumulative("cumsum", x, axis, dtype, out, include_initial, "cumulative_sum")


@export
def cumulative_prod(x, /, *, axis=None, dtype=None, out=None, include_initial=False):
    """Cumulative product (NumPy 2 / Array API), optionally starting with 1."""
    return _cumulative("cumprod", x, axis, dtype, out, include_initial, "cumulative_prod")


# ---------------------------------------------------------------------------------
# NaN-ignoring variants (numpy/lib/_nanfunctions_impl.py).

def _replace_nan(x: Array, value):
    """(x with NaNs replaced by `value`, the NaN mask), or (x, None) when x cannot hold
    NaN, as NumPy's _replace_nan."""
    if not _dtypes.is_inexact(x.dtype):
        return x, None
    mask = ew.isnan(x)
    fill = wrap(scalar_node(np.asarray(value).astype(x.dtype), x.dtype))
    return ew.where_(mask, fill, x), mask


@export
def nansum(a, axis=None, dtype=None, out=None, keepdims=False, initial=None, where=True):
    """Sum treating NaNs as zero."""
    x, _ = _replace_nan(as_array(a), 0)
    dtype = _out_loop("add", x, dtype, out, "nansum")
    reads_out(out, dtype)
    return _into(out, _sum(x, axis, dtype, keepdims, initial, where, "nansum"), "nansum")


@export
def nanprod(a, axis=None, dtype=None, out=None, keepdims=False, initial=None, where=True):
    """Product treating NaNs as one."""
    x, _ = _replace_nan(as_array(a), 1)
    dtype = _out_loop("multiply", x, dtype, out, "nanprod")
    reads_out(out, dtype)
    return _into(out, _sum(x, axis, dtype, keepdims, initial, where, "nanprod", "reduce_prod"),
                 "nanprod")


@export
def nancumsum(a, axis=None, dtype=None, out=None):
    """Cumulative sum treating NaNs as zero."""
    x, _ = _replace_nan(as_array(a), 0)
    return cumsum(x, axis, dtype, out)


@export
def nancumprod(a, axis=None, dtype=None, out=None):
    """Cumulative product treating NaNs as one."""
    x, _ = _replace_nan(as_array(a), 1)
    return cumprod(x, axis, dtype, out)


def _nan_extremum(prim: str, a, axis, keepdims, initial, where, func: str) -> Array:
    """NumPy's fmax.reduce/fmin.reduce: NaNs (and masked-out elements) are skipped,
    an all-NaN slice gives NaN, `initial` joins with fmax/fmin."""
    x = as_array(a)
    ufunc = "fmax" if prim == "reduce_max" else "fmin"
    axes = _axes(axis, x.ndim, func)
    keepdims = builtins.bool(keepdims)
    if not _dtypes.is_inexact(x.dtype):
        return _reduction(prim, x, axes, keepdims, initial, where, ufunc)
    init = _initial(initial, x.dtype, ufunc)
    mask = _mask(where, x.shape, ufunc)
    if init is None and mask is not None:
        raise ValueError(f"reduction operation '{ufunc}' does not have an identity, so to "
                         "use a where mask one has to specify 'initial'")
    if math.prod(x.shape[ax] for ax in axes) == 0:
        return _reduction(prim, x, axes, keepdims, initial, True, ufunc)
    skip = ew.isnan(x) if mask is None else ew.logical_or(ew.isnan(x), ew.logical_not(mask))
    # A skipped element becomes the value that loses every comparison: -inf for max,
    # +inf for min (both parts, for complex, whose order is lexicographic).
    worst = -np.inf if prim == "reduce_max" else np.inf
    fill = complex(worst, worst) if _dtypes.is_complex(x.dtype) else worst
    x = ew.where_(skip, wrap(scalar_node(fill, x.dtype)), x)
    result = _reduction(prim, x, axes, keepdims, None, True, ufunc)
    all_skipped = _logical("reduce_all", skip, axes, keepdims, True, None, func)
    result = ew.where_(all_skipped, wrap(scalar_node(np.nan, x.dtype)), result)
    if init is not None:
        result = getattr(ew, ufunc)(result, init)
    return result


@export
def nanmax(a, axis=None, out=None, keepdims=False, initial=None, where=True):
    """Maximum ignoring NaNs; an all-NaN slice gives NaN (NumPy also warns)."""
    result = _nan_extremum("reduce_max", a, axis, keepdims, initial, where, "nanmax")
    return _extremum_out(out, a, axis, keepdims, initial, where, result, "fmax", "nanmax")


@export
def nanmin(a, axis=None, out=None, keepdims=False, initial=None, where=True):
    """Minimum ignoring NaNs; an all-NaN slice gives NaN (NumPy also warns)."""
    result = _nan_extremum("reduce_min", a, axis, keepdims, initial, where, "nanmin")
    return _extremum_out(out, a, axis, keepdims, initial, where, result, "fmin", "nanmin")


def _nan_arg(prim: str, a, axis, keepdims, func: str) -> Array:
    x, _ = _replace_nan(as_array(a), -np.inf if prim == "argmax" else np.inf)
    return _arg_reduction(prim, x, axis, keepdims, func)


@export
def nanargmax(a, axis=None, out=None, *, keepdims=False):
    """Index of the maximum ignoring NaNs. Unlike NumPy, an all-NaN slice gives 0
    instead of raising ValueError: detecting it would need the data before the result
    is computed."""
    return _arg_out(out, _nan_arg("argmax", a, axis, keepdims, "nanargmax"), "nanargmax")


@export
def nanargmin(a, axis=None, out=None, *, keepdims=False):
    """Index of the minimum ignoring NaNs. Unlike NumPy, an all-NaN slice gives 0
    instead of raising ValueError (see `nanargmax`)."""
    return _arg_out(out, _nan_arg("argmin", a, axis, keepdims, "nanargmin"), "nanargmin")


def _check_inexact_dtype(dtype, func: str, out=None):
    if dtype is not None and not _dtypes.is_inexact(_dtypes.as_dtype(dtype)):
        raise TypeError(f"{func}: If a is inexact, then dtype must be inexact")
    if isinstance(out, Array) and not _dtypes.is_inexact(out.dtype):
        raise TypeError(f"{func}: If a is inexact, then out must be inexact")


@export
def nanmean(a, axis=None, dtype=None, out=None, keepdims=False, *, where=True):
    """Mean of the non-NaN elements (NaN for a slice without any); as numpy's nanmean,
    float16 accumulates in float16."""
    x, nans = _replace_nan(as_array(a), 0)
    if nans is None:
        return mean(x, axis, dtype, out, keepdims=keepdims, where=where)
    _check_inexact_dtype(dtype, "nanmean", out)
    count = _sum(ew.logical_not(nans), axis, _dtypes.intp, keepdims, None, where, "nanmean")
    total = _sum(x, axis, _out_loop("add", x, dtype, out, "nanmean"), keepdims, None, where,
                 "nanmean")
    if isinstance(out, Array):  # NumPy sums into `out`, then divides there
        total = cast_unsafe(total, out.dtype)
    return _into(out, _divide(total, count), "nanmean")


def _nanvar(a, axis, dtype, ddof, keepdims, where, mean_value, func: str, out=None) -> Array:
    x, nans = _replace_nan(as_array(a), 0)
    if nans is None:
        return _var(x, axis, dtype, ddof, keepdims, where, mean_value, func, out)
    _check_inexact_dtype(dtype, func, out)
    count = _sum(ew.logical_not(nans), axis, _dtypes.intp, True, None, where, func)
    if mean_value is None:
        mean_value = _divide(_sum(x, axis, dtype, True, None, where, func), count)
    # NumPy subtracts into the input's own array (an unsafe cast back to its dtype).
    d = ew.where_(nans, wrap(scalar_node(0, x.dtype)),
                  astype(ew.subtract(x, mean_value), x.dtype))
    squares = ew.real(ew.multiply(d, ew.conjugate(d))) if _dtypes.is_complex(
        x.dtype) else ew.multiply(d, d)
    acc = _out_loop("add", squares, dtype, out, func)  # summed into `out`, as NumPy's
    reads_out(out, acc)
    total = _sum(squares, axis, acc, keepdims, None, where, func)
    if isinstance(out, Array):
        total = cast_unsafe(total, out.dtype)
    dof = ew.subtract(wrap(reshape_node(count._node, total.shape)), ddof)
    result = _divide(total, dof)
    return ew.where_(ew.less_equal(dof, 0), wrap(scalar_node(np.nan, result.dtype)), result)


@export
def nanvar(a, axis=None, dtype=None, out=None, ddof=0, keepdims=False, *, where=True,
           mean=None, correction=None):
    """Variance of the non-NaN elements; NaN where fewer than ddof+1 remain."""
    return _into(out, _nanvar(a, axis, dtype, _ddof(ddof, correction, "nanvar"), keepdims,
                              where, mean, "nanvar", out), "nanvar")


@export
def nanstd(a, axis=None, dtype=None, out=None, ddof=0, keepdims=False, *, where=True,
           mean=None, correction=None):
    """Standard deviation of the non-NaN elements: sqrt(nanvar)."""
    v = _nanvar(a, axis, dtype, _ddof(ddof, correction, "nanstd"), keepdims, where, mean,
                "nanstd", out)
    if out is not None:  # NumPy's sqrt(v, out=out): a same_kind cast
        return write_out(out, ew.sqrt(v), "nanstd", ufunc="sqrt")
    return _sqrt_into(v)


# ---------------------------------------------------------------------------------
# The lazy ufuncs' reduce and accumulate (elementwise.ufunc). Called as
# f(a, axis, keepdims=, initial=, where=[, dtype=]) and f(a, axis, dtype); the
# axis default (0) is the caller's. np.logical_and/or.reduce take `initial`, which
# np.all/np.any do not.

def _logical_and_reduce(a, axis=0, keepdims=False, initial=None, where=True):
    return _logical("reduce_all", a, axis, keepdims, where, initial, "logical_and.reduce")


def _logical_or_reduce(a, axis=0, keepdims=False, initial=None, where=True):
    return _logical("reduce_any", a, axis, keepdims, where, initial, "logical_or.reduce")


UFUNC_REDUCTIONS = {"add": sum, "multiply": prod, "maximum": max, "minimum": min,
                    "logical_and": _logical_and_reduce, "logical_or": _logical_or_reduce}


@export
def allclose(a, b, rtol=1e-05, atol=1e-08, equal_nan=False) -> bool:
    """Whether `isclose` holds everywhere (NumPy's allclose: a Python bool)."""
    return builtins.bool(all(ew.isclose(a, b, rtol, atol, equal_nan)))
