"""The methods of lazyarr's ufuncs (`reduce`, `accumulate`, `reduceat`, `outer`, `at`),
attached to `elementwise.ufunc` here, above the chapters they build on (reductions
for `reduce`, mutation for `at`), as NumPy's ufunc methods are.
"""

from __future__ import annotations

import builtins
import functools
import math
import operator

import numpy as np

from .. import _dtypes
from .._dispatch import fallback
from .._placement import host_array as host_buffer
from .common import (apply, Array, as_array, astype as _astype, broadcast_node,
                     cast_unsafe, full_node, leaf, normalize_axis, reshape_node,
                     scalar_node, wrap, write_out)
from .elementwise import COMPARISONS, less, subtract, ufunc, where_
from .mutation import ufunc_at
from .reductions import reduction_loop, UFUNC_REDUCTIONS
from .shapes import reshape


def _at(self, a, indices, b=None, /) -> None:
    """NumPy's `ufunc.at`: unbuffered in-place `a[indices] = ufunc(a[indices], b)`,
    so repeated indices apply once each (see `mutation.ufunc_at`)."""
    ufunc_at(self.__name__, a, indices, b)


def _outer(self, a, b, /, **kwargs):
    """NumPy's `ufunc.outer`: `ufunc(a[..., None, ...], b)` over every pair, with the
    call's keywords (out=, where=, dtype=, casting=)."""
    a, b = as_array(a), as_array(b)
    return self(reshape(a, a.shape + (1,) * b.ndim), b, **kwargs)


def _reduce(self, a, axis=0, dtype=None, out=None, keepdims=False, initial=None,
            where=True):
    """NumPy's `ufunc.reduce`, by the reduction of the same meaning where there is one
    (`add.reduce` is `sum`), else through the counted fallback."""
    lazy = UFUNC_REDUCTIONS.get(self.__name__)
    if lazy is None or out is not None:
        return fallback(self._np.reduce, (a,), dict(axis=axis, dtype=dtype, out=out,
                        keepdims=keepdims, initial=initial, where=where),
                        name=f"{self.__name__}.reduce")
    kwargs = dict(keepdims=keepdims, initial=initial, where=where)
    if self.__name__ in ("add", "multiply"):
        kwargs["dtype"] = dtype
    return lazy(a, axis, **kwargs)


def _accumulate_method(self, array, axis=0, dtype=None, out=None):
    """NumPy's `ufunc.accumulate` (see `_accumulate`)."""
    return _accumulate(self, array, axis, dtype, out)


def _reduceat_method(self, array, indices, axis=0, dtype=None, out=None):
    """NumPy's `ufunc.reduceat` (see `_reduceat`)."""
    return _reduceat(self, array, indices, axis, dtype, out)


# ---------------------------------------------------------------------------------
# What ufunc.reduceat and ufunc.accumulate share: NumPy's checks of the ufunc, the
# axis, the loop dtype and out=.

def _check_binary(uf: ufunc, method: str) -> None:
    if uf.nin != 2:
        raise ValueError(f"{method} only supported for binary functions")
    if uf.nout != 1:
        raise ValueError(f"{method} only supported for functions returning a single value")


def _single_out(out):
    return out[0] if isinstance(out, tuple) and len(out) == 1 else out


def _method_fallback(uf: ufunc, method: str, args: tuple, kwargs: dict):
    return fallback(getattr(uf._np, method), args, kwargs, name=f"{uf.__name__}.{method}")


def _method_axis(axis, ndim: int, method: str, name: str) -> int:
    """The one axis of reduceat and accumulate, read as NumPy reads it: an int or a
    1-tuple, None for the only axis of a 1-d array. On a 0-d array, an axis NumPy lets
    through for scalars (0, -1, None, ()) gives its TypeError, others its AxisError."""
    if isinstance(axis, tuple):
        axes = tuple(normalize_axis(_axis_index(a, name), ndim, name) for a in axis)
    elif axis is None:
        axes = tuple(range(ndim))
    elif ndim == 0 and _axis_index(axis, name) in (0, -1):
        axes = ()
    else:
        axes = (normalize_axis(_axis_index(axis, name), ndim, name),)
    if ndim == 0 and not axes:
        raise TypeError(f"cannot {method} on a scalar")
    if len(axes) != 1:
        raise ValueError(f"{method} does not allow multiple axes")
    return axes[0]


def _axis_index(axis, name: str) -> int:
    if isinstance(axis, builtins.bool):
        raise TypeError(f"{name}: an integer is required for the axis, not bool")
    try:
        return operator.index(axis)
    except TypeError:
        raise TypeError(f"{name}: 'axis' must be an integer, not "
                        f"{type(axis).__name__}") from None


def _method_loop(uf: ufunc, x: Array, dtype, out, name: str) -> np.dtype:
    return reduction_loop(uf._np, x.dtype, None if dtype is None else _dtypes.as_dtype(dtype),
                           None if out is None else out.dtype, name)


# ---------------------------------------------------------------------------------
# ufunc.reduceat: each segment reduced under a membership mask.

# The reduction primitive of each ufunc that has one: for its loops of other dtypes,
# then for bool loops (where add and maximum are `or`, multiply and minimum `and`).
_SEGMENT_REDUCTIONS = {"add": ("reduce_sum", "reduce_any"),
                       "multiply": ("reduce_prod", "reduce_all"),
                       "maximum": ("reduce_max", "reduce_any"),
                       "minimum": ("reduce_min", "reduce_all"),
                       "logical_or": ("reduce_any", "reduce_any"),
                       "logical_and": ("reduce_all", "reduce_all")}
# Exactly associative ufuncs without a reduction primitive: a pairwise tree of the
# ufunc itself gives the same values as NumPy's left-to-right fold (copysign keeps the
# first magnitude and the last sign however it is bracketed).
_ASSOCIATIVE = {"bitwise_and", "bitwise_or", "bitwise_xor", "logical_xor", "equal",
                "not_equal", "fmax", "fmin", "gcd", "copysign"}


def _reduceat(uf: ufunc, array, indices, axis, dtype, out):
    """NumPy's `ufunc.reduceat`: for each i, `array[indices[i]:indices[i+1]]` reduced
    along `axis` (to the end for the last index), or `array[indices[i]]` alone where
    indices[i] >= indices[i+1]. The loop dtype is NumPy's for a reduction (see
    `reduction_loop`); inputs and outputs are cast unsafely, as NumPy does.
    Indices must lie in [0, n): known ones are checked now (IndexError); pending ones
    when the program runs, as other array-valued indices are.

    Lazy for the ufuncs with a reduction primitive (each segment is the primitive
    over the array with the other elements replaced by the identity) and for the
    associative ones in `_ASSOCIATIVE` (a pairwise tree); others (and complex
    multiply, whose NaN and infinity placement depends on NumPy's order) run through
    the counted fallback. The masked intermediate has len(indices) * array.size
    elements (fused by XLA, but materialized by the NumPy backend)."""
    name = f"{uf.__name__}.reduceat"
    _check_binary(uf, "reduceat")
    out = _single_out(out)
    if out is not None and not isinstance(out, Array):  # NumPy writes its own arrays
        return _method_fallback(uf, "reduceat", (array, indices),
                                dict(axis=axis, dtype=dtype, out=out))
    x = as_array(array)
    axis = _method_axis(axis, x.ndim, "reduceat", name)
    starts = _segment_starts(indices, x.shape[axis], name)
    loop = _method_loop(uf, x, dtype, out, name)
    if uf.__name__ in _ASSOCIATIVE or (uf.__name__ in _SEGMENT_REDUCTIONS and not (
            uf.__name__ == "multiply" and _dtypes.is_complex(loop))):
        result = _segments(uf.__name__, cast_unsafe(x, loop), starts, axis)
    else:
        result = _method_fallback(uf, "reduceat", (x, indices), dict(axis=axis, dtype=loop))
    return write_out(out, result, name, "unsafe")


def _segment_starts(indices, n: int, name: str):
    """The indices as an int64 (m,) node, read as NumPy reads them: arrays cast safely
    to intp, other data converted to intp; 1-d; each in [0, n)."""
    if isinstance(indices, Array) and indices._node.is_computed:
        indices = host_buffer(indices._node.value)
    if isinstance(indices, (Array, np.ndarray)):
        if not np.can_cast(indices.dtype, np.intp, "safe"):
            raise TypeError(f"{name}: Cannot cast array data from {indices.dtype!r} to "
                            f"{np.dtype(np.intp)!r} according to the rule 'safe'")
    else:
        indices = np.array(indices, dtype=np.intp)
    if indices.ndim != 1:
        raise ValueError(f"{name}: indices must be 1-d (object of too "
                         f"{'small depth' if indices.ndim == 0 else 'deep'} for desired "
                         "array)")
    if isinstance(indices, np.ndarray):
        index = indices.astype(np.int64)
        bad = (index < 0) | (index >= n)
        if bad.any():
            raise IndexError(f"index {index[bad][0]} out-of-bounds in {name} [0, {n})")
        return leaf(index, index.shape, index.dtype)
    index = _astype(indices, np.int64)
    # normalize_index accepts [-n, n): moving negative indices below -n leaves [0, n)
    # (the NumPy backend's message then names a negative index i as i - n).
    index = where_(less(index, 0), subtract(index, n), index)
    return apply("normalize_index", index._node, size=n, axis=0)


def _segments(name: str, x: Array, starts, axis: int) -> Array:
    """The reduceat of `x` (in the loop dtype) at checked `starts` along `axis`: x
    seen as (A, B, n) rows, broadcast to (A, m, B, n) with a (m, n) membership mask
    and reduced over its last axis."""
    n, m = x.shape[axis], starts.shape[0]
    outer, inner = math.prod(x.shape[:axis]), math.prod(x.shape[axis + 1:])
    shape = x.shape[:axis] + (m,) + x.shape[axis + 1:]
    if not math.prod(shape):
        return wrap(full_node(0, shape, x.dtype), scalar=False)
    rows = reshape_node(x._node, (outer, n, inner))
    end = full_node(n, (1,), np.int64)
    stops = apply("concatenate", apply("slice", starts, starts=(1,), stops=(m,), steps=(1,)),
                  end, axis=0)
    column = apply("iota", shape=(m, n), dtype=_dtypes.int64, axis=1)
    inside = apply("logical_and", apply("greater_equal", column, _column(starts, n)),
                   apply("less", column, _column(stops, n)))
    full = (outer, m, inner, n)
    values = apply("transpose", rows, axes=(0, 2, 1))
    values = broadcast_node(reshape_node(values, (outer, 1, inner, n)), full)
    inside = broadcast_node(reshape_node(inside, (1, m, 1, n)), full)
    if name in _SEGMENT_REDUCTIONS:
        prim = _SEGMENT_REDUCTIONS[name][_dtypes.is_bool(x.dtype)]
        # NumPy's float16 sums and products accumulate in float32, rounded at the end.
        wide = (_dtypes.float32 if x.dtype == _dtypes.float16 and prim in
                ("reduce_sum", "reduce_prod") else x.dtype)
        values = apply("convert", values, dtype=wide) if wide != x.dtype else values
        fill = full_node(_identity(prim, wide), full, wide)
        reduced = apply(prim, apply("select", inside, values, fill), axes=(3,))
        reduced = apply("convert", reduced, dtype=x.dtype) if wide != x.dtype else reduced
    else:
        reduced = _tree_reduction(name, values, inside)
    # indices[i] >= indices[i+1] gives the element alone, as a one-element segment does
    # (exactly: a reduction primitive may start from its identity, losing a -0.0).
    alone = apply("take", rows, starts, axis=1)
    longer = apply("less", apply("add", starts, scalar_node(1, np.int64)), stops)
    longer = broadcast_node(reshape_node(longer, (1, m, 1)), (outer, m, inner))
    return wrap(reshape_node(apply("select", longer, reduced, alone), shape), scalar=False)


def _column(vector, n: int):
    """A (m,) node as (m, n), each row holding its element."""
    return broadcast_node(reshape_node(vector, (vector.shape[0], 1)), (vector.shape[0], n))


def _identity(prim: str, dtype: np.dtype):
    """What a reduction primitive leaves unchanged: -0.0 for float sums, the dtype's
    extremes for max and min."""
    if prim in ("reduce_max", "reduce_min"):
        sign = -1 if prim == "reduce_max" else 1
        if _dtypes.is_integer(dtype):
            return np.iinfo(dtype).min if sign < 0 else np.iinfo(dtype).max
        return complex(sign * np.inf, sign * np.inf) if _dtypes.is_complex(dtype) \
            else sign * np.inf
    if prim == "reduce_sum" and _dtypes.is_inexact(dtype):
        return complex(-0.0, -0.0) if _dtypes.is_complex(dtype) else -0.0
    return {"reduce_sum": 0, "reduce_prod": 1, "reduce_any": False, "reduce_all": True}[prim]


def _tree_reduction(name: str, values, inside):
    """The ufunc over the last axis as a pairwise tree (order kept): each pair of
    neighbours combines when both hold members, else keeps the one that does."""
    while values.shape[-1] > 1:
        if values.shape[-1] % 2:  # pad with one non-member
            values = apply("concatenate", values, _every_other(values, 0, 1), axis=3)
            inside = apply("concatenate", inside,
                           full_node(False, inside.shape[:3] + (1,), np.bool_), axis=3)
        a, b = _every_other(values, 0), _every_other(values, 1)
        in_a, in_b = _every_other(inside, 0), _every_other(inside, 1)
        values = apply("select", apply("logical_and", in_a, in_b), apply(name, a, b),
                       apply("select", in_a, a, b))
        inside = apply("logical_or", in_a, in_b)
    return reshape_node(values, values.shape[:3])


def _every_other(node, start: int, count: int | None = None):
    """Elements start, start + 2, ... of the last axis (the first `count` if given)."""
    stop = node.shape[3] if count is None else start + 2 * count - 1
    return apply("slice", node, starts=(0, 0, 0, start), stops=node.shape[:3] + (stop,),
                 steps=(1, 1, 1, 2))


# ---------------------------------------------------------------------------------
# ufunc.accumulate: the running values of NumPy's left fold along one axis.

def _accumulate(uf: ufunc, array, axis, dtype, out):
    """NumPy's `ufunc.accumulate`: along `axis`, out[0] = array[0] and out[i] =
    ufunc(out[i-1], array[i]), in NumPy's loop dtype for a reduction (see
    `reduction_loop`), cast unsafely in and out. Lazy where a formulation gives the
    fold's values exactly (see `_scanner`); the others run through the counted
    fallback."""
    name = f"{uf.__name__}.accumulate"
    _check_binary(uf, "accumulate")
    out = _single_out(out)
    if out is not None and not isinstance(out, Array):  # NumPy writes its own arrays
        return _method_fallback(uf, "accumulate", (array,),
                                dict(axis=axis, dtype=dtype, out=out))
    x = as_array(array)
    axis = _method_axis(axis, x.ndim, "accumulate", name)
    loop = _method_loop(uf, x, dtype, out, name)
    scan = _scanner(uf.__name__, loop)
    if scan is None:
        result = _method_fallback(uf, "accumulate", (x,), dict(axis=axis, dtype=loop))
    else:
        x = cast_unsafe(x, loop)
        trivial = x.shape[axis] < 2 or x.size == 0
        result = wrap(x._node if trivial else scan(x._node, axis), scalar=False)
    return write_out(out, result, name, "unsafe")


_RUNNING = {"add": "cumsum", "multiply": "cumprod"}
# The extrema: the comparison that makes the later value better, and whether a NaN
# wins (maximum, minimum) or loses to any number (fmax, fmin).
_EXTREMA = {"maximum": ("greater", True), "minimum": ("less", True),
            "fmax": ("greater", False), "fmin": ("less", False)}


def _scanner(name: str, dtype: np.dtype):
    """How `name`.accumulate runs lazily in loop dtype `dtype` (a function of node and
    axis), or None where no formulation gives NumPy's fold exactly:
    - add, multiply: the cumsum and cumprod primitives, which keep NumPy's order;
    - subtract on integers: x0 + (-x1) + (-x2) + ..., exact in wrapping arithmetic;
    - extrema on floats and complex: a prefix scan choosing as NumPy's loop does;
    - the exactly associative ufuncs, and the bool loops of add, multiply and the
      extrema: a prefix scan of the ufunc itself;
    - the other comparisons on bools: a prefix scan of the running-value maps."""
    boolean = _dtypes.is_bool(dtype)
    if name in _RUNNING and not boolean:
        return lambda x, axis: apply(_RUNNING[name], x, axis=axis)
    if name == "subtract" and _dtypes.is_integer(dtype):
        return _difference_scan
    if name in _EXTREMA and _dtypes.is_inexact(dtype):
        return functools.partial(_extremum_scan, name)
    if name in _ASSOCIATIVE or name in _SEGMENT_REDUCTIONS:
        return lambda x, axis: _prefix_scan(
            lambda earlier, later: [apply(name, earlier[0], later[0])], [x], axis)[0]
    if name in COMPARISONS and boolean:
        return functools.partial(_bool_map_scan, name)
    return None


def _prefix_scan(combine, parts: list, axis: int) -> list:
    """The inclusive scan of `parts` (nodes of one shape, read together as one value
    per position) along `axis`, by Hillis and Steele's doubling: ceil(log2(n)) rounds,
    each combining every position with the one `step` before it. For an associative
    `combine(earlier, later)` that gives the left fold's values exactly."""
    n = parts[0].shape[axis]
    step = 1
    while step < n:
        combined = combine([_along(p, axis, 0, n - step) for p in parts],
                           [_along(p, axis, step, n) for p in parts])
        parts = [apply("concatenate", _along(p, axis, 0, step), c, axis=axis)
                 for p, c in zip(parts, combined)]
        step *= 2
    return parts


def _along(node, axis: int, start: int, stop: int):
    """Positions start..stop-1 of `node` along `axis`."""
    starts, stops = [0] * len(node.shape), list(node.shape)
    starts[axis], stops[axis] = start, stop
    return apply("slice", node, starts=tuple(starts), stops=tuple(stops),
                 steps=(1,) * len(node.shape))


def _difference_scan(x, axis: int):
    """subtract.accumulate on integers: x0 - x1 - ... - xi == x0 + (-x1) + ... + (-xi)
    in wrapping arithmetic, so a running sum."""
    n = x.shape[axis]
    terms = apply("concatenate", _along(x, axis, 0, 1),
                  apply("negative", _along(x, axis, 1, n)), axis=axis)
    return apply("cumsum", terms, axis=axis)


def _extremum_scan(name: str, x, axis: int):
    """maximum, minimum, fmax or fmin accumulated over floats or complex numbers. Each
    step keeps the earlier running value a or takes the later b as NumPy's loop does: a
    NaN wins (maximum, minimum) or loses (fmax, fmin); otherwise the strictly better
    value; between equal values (distinct only as zeros of opposite signs) the one
    NumPy's code path keeps (`_later_zero_wins`). Every such choice is associative."""
    better, nan_wins = _EXTREMA[name]
    n = x.shape[axis]
    after_positive, after_negative = _later_zero_wins(
        name, x.dtype, builtins.min(n, 3), builtins.min(math.prod(x.shape[axis + 1:]), 2))

    def combine(earlier, later):
        (a,), (b,) = earlier, later
        take = apply(better, b, a)
        if after_positive or after_negative:
            tie = apply("equal", a, b)
            if after_positive != after_negative:
                negative = apply("signbit", apply("real", a) if _dtypes.is_complex(x.dtype)
                                 else a)
                tie = apply("logical_and", tie, negative if after_negative
                            else apply("logical_not", negative))
            take = apply("logical_or", take, tie)
        nan_a, nan_b = apply("isnan", a), apply("isnan", b)
        if nan_wins:
            take = apply("logical_and", apply("logical_not", nan_a),
                         apply("logical_or", nan_b, take))
        else:
            take = apply("logical_and", apply("logical_not", nan_b),
                         apply("logical_or", nan_a, take))
        return [apply("select", take, b, a)]
    return _prefix_scan(combine, [x], axis)[0]


@functools.lru_cache(maxsize=None)
def _later_zero_wins(name: str, dtype: np.dtype, n: int, lanes: int) -> tuple:
    """Whether NumPy's `name`.accumulate, stepping from a zero to a zero of the other
    sign, keeps the later one: (after +0, after -0). IEEE 754 leaves the choice open,
    and NumPy's depends on the code path its loop takes: on the CPU's features, the
    dtype, and (for fmax and fmin) on whether the axis has 2 elements and whether it is
    the innermost of a C-ordered array (`lanes` 1) or not. So NumPy is asked, once per
    case, on a C-ordered (n, lanes) array accumulated along its first axis."""
    answers = []
    for zero in (0.0, -0.0):
        probe = np.full((n, lanes), -zero, dtype)
        probe[0] = zero
        step = getattr(np, name).accumulate(probe, axis=0)[1, 0]
        answers.append(builtins.bool(np.signbit(step.real) != np.signbit(zero)))
    return tuple(answers)


def _bool_map_scan(name: str, x, axis: int):
    """A non-associative comparison accumulated over bools: each later element i maps
    the running value (False to name(False, x[i]), True to name(True, x[i])); maps
    compose associatively, so their prefix compositions are scanned, then applied to
    x[0]."""
    n = x.shape[axis]
    first, rest = _along(x, axis, 0, 1), _along(x, axis, 1, n)
    maps = [apply(name, full_node(value, rest.shape, np.bool_), rest)
            for value in (False, True)]

    def compose(earlier, later):  # later after earlier: look up each earlier output
        return [apply("select", image, later[1], later[0]) for image in earlier]
    on_false, on_true = _prefix_scan(compose, maps, axis)
    start = broadcast_node(first, rest.shape)
    return apply("concatenate", first, apply("select", start, on_true, on_false), axis=axis)




for _name, _method in {"at": _at, "outer": _outer, "reduce": _reduce,
                       "accumulate": _accumulate_method, "reduceat": _reduceat_method}.items():
    _method.__name__ = _method.__qualname__ = _name
    setattr(ufunc, _name, _method)
