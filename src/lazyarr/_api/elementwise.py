"""Elementwise functions: every NumPy ufunc, from one table, plus `where`, `clip`,
`round`, `divmod` and friends.

Dtypes are resolved exactly as NumPy resolves them (`np.ufunc.resolve_dtypes`, with
Python scalars passed as their types so NEP 50 applies), then inputs are cast to the
loop's dtypes and one primitive node is built. Python scalars become 0-d runtime
inputs, so `x * 0.99` and `x * 0.98` share one compiled program.
"""

from __future__ import annotations

import builtins
import functools
import math
import operator

import numpy as np

from .. import _dtypes
from .._placement import host_array
from .._ops import MULTI_OUTPUT, UFUNCS as UFUNC_CATEGORIES
from . import export
from .._interop import NotLazy, overrides
from .common import (Array, apply, as_array, astype as _astype, broadcast_node, full_node,
                     leaf, normalize_axis, reshape_node, scalar_node, wrap)

_WEAK = (builtins.bool, builtins.int, builtins.float, builtins.complex)
_COMPARISONS = {"equal", "not_equal", "less", "less_equal", "greater", "greater_equal"}


def is_scalar_operand(x) -> bool:
    return type(x) in _WEAK


def _operand(x, func: str):
    if isinstance(x, Array) or type(x) in _WEAK:
        return x
    if isinstance(x, (str, bytes)) or x is None or overrides(type(x)):
        raise NotLazy(f"{func}: NumPy's ufunc takes {type(x).__name__} operands")
    return as_array(x)


def _loop_dtypes(ufunc: np.ufunc, operands, dtype) -> tuple:
    """NumPy's loop for these operands: (input dtypes..., output dtypes...)."""
    all_weak = not any(isinstance(op, Array) for op in operands)
    # A weak bool can always take the array's dtype, so a strong bool is equivalent (and
    # resolve_dtypes accepts only int, float and complex as Python types).
    key = tuple(op.dtype if isinstance(op, Array) else
                _dtypes.result_type(op) if all_weak or type(op) is builtins.bool else type(op)
                for op in operands)
    return _resolve(ufunc, key, None if dtype is None else _dtypes.as_dtype(dtype))


@functools.lru_cache(maxsize=4096)
def _resolve(ufunc: np.ufunc, types: tuple, dtype) -> tuple:
    strong = [t for t in types if isinstance(t, np.dtype)]
    if strong and _dtypes.result_type(*strong) in _dtypes.ML_FLOATS:
        # NumPy does not know ml_dtypes floats are floats: weak bool/int/float take them.
        ml = _dtypes.result_type(*strong)
        types = tuple(ml if t in (builtins.int, builtins.float) else t for t in types)
    operand_types = types + (None,) * ufunc.nout
    if dtype is None:
        return ufunc.resolve_dtypes(operand_types)
    signature = (None,) * ufunc.nin + (dtype,) * ufunc.nout
    return ufunc.resolve_dtypes(operand_types, signature=signature)


def _check_python_int(value: int, loop_dtype: np.dtype, ufunc_name: str) -> None:
    """NumPy's OverflowErrors for a Python int operand that its loop cannot hold."""
    if _dtypes.is_integer(loop_dtype):
        _dtypes.check_weak_int_fits(value, loop_dtype, ufunc_name)
    elif ufunc_name.startswith("logical_") or _dtypes.is_bool(loop_dtype):
        if not -2**63 <= value < 2**63:  # NumPy converts these through a C long
            raise OverflowError(f"{ufunc_name}: Python int too large to convert to C long")
    elif builtins.abs(value) >= 2**1024:
        raise OverflowError(f"{ufunc_name}: int too large to convert to float")


def _input_node(op, dtype, ufunc_name: str):
    if isinstance(op, Array):
        return _astype(op, dtype)._node
    if type(op) is builtins.int:
        _check_python_int(op, dtype, ufunc_name)
    return scalar_node(op, dtype)


def _out_of_range_comparison(name: str, operands, loop_dtype):
    """NumPy 2 compares integer arrays with out-of-range Python ints exactly."""
    if not _dtypes.is_integer(loop_dtype):
        return None
    info = np.iinfo(loop_dtype)
    for position, op in enumerate(operands):
        other = operands[1 - position]
        if not (isinstance(other, Array) and _dtypes.is_integer(other.dtype)):
            continue  # NumPy's exact comparison applies to integer arrays only
        if type(op) is builtins.int and not info.min <= op <= info.max:
            above = op > info.max  # the Python int is larger than every array value
            if position == 0:
                above = not above  # read "int OP array" as "array OP' int"
            value = {"equal": False, "not_equal": True,
                     "less": above, "less_equal": above,
                     "greater": not above, "greater_equal": not above}[name]
            return wrap(full_node(value, other.shape, np.bool_))  # a scalar when 0-d
    return None


_CASTINGS = ("no", "equiv", "safe", "same_kind", "unsafe", "same_value")


class ufunc:
    """A lazy counterpart of a NumPy ufunc: call it, or use `reduce`, `accumulate`,
    `reduceat`, `outer` and `at` as on NumPy's."""

    def __init__(self, name: str):
        self.__name__ = name
        self._np = getattr(np, name)
        self.nin, self.nout = self._np.nin, self._np.nout
        self.__doc__ = f"Lazy numpy.{name}: same dtypes, values and errors as NumPy's."

    def __repr__(self) -> str:
        return f"<lazyarr ufunc '{self.__name__}'>"

    def __call__(self, *args, out=None, where=True, dtype=None, casting="same_kind"):
        try:
            return self.lazy_call(*args, out=out, where=where, dtype=dtype, casting=casting)
        except NotLazy:  # NumPy's ufunc: another library's override, or NumPy's data
            pass
        given = dict(out=out, where=where, dtype=dtype, casting=casting)
        defaults = dict(out=None, where=True, dtype=None, casting="same_kind")
        return self._np(*args, **{k: v for k, v in given.items() if v is not defaults[k]})

    def lazy_call(self, *args, out=None, where=True, dtype=None, casting="same_kind"):
        """The call on lazyarr's operands; NotLazy for others (see `_interop`)."""
        if casting not in _CASTINGS:
            raise ValueError("casting must be one of 'no', 'equiv', 'safe', 'same_kind', "
                             f"'unsafe' (got {casting!r})")
        if len(args) != self.nin:
            raise TypeError(f"{self.__name__}() takes {self.nin} positional arguments "
                            f"but {len(args)} were given")
        operands = [_operand(a, self.__name__) for a in args]
        loop = _loop_dtypes(self._np, operands, dtype)
        if self.__name__ in _COMPARISONS:
            constant = _out_of_range_comparison(self.__name__, operands, loop[0])
            if constant is not None:
                return constant
        if self.__name__ == "power" and where is True:
            _negative_integer_power(operands, loop)
        nodes = [_input_node(op, dt, self.__name__) for op, dt in zip(operands, loop)]
        # NumPy returns a scalar, not a 0-d array, from a ufunc on 0-d operands.
        if self.nout == 1:
            results = (wrap(apply(self.__name__, *nodes)),)
        else:
            results = tuple(wrap(apply(self.__name__, *nodes, out=k))
                            for k in range(MULTI_OUTPUT[self.__name__]))
        results = _write_out(self.__name__, results, out, where)
        return results[0] if self.nout == 1 else results

    def at(self, a, indices, b=None, /) -> None:
        """NumPy's `ufunc.at`: unbuffered in-place `a[indices] = ufunc(a[indices], b)`,
        so repeated indices apply once each (see `mutation.ufunc_at`)."""
        from .mutation import ufunc_at  # mutation builds on this module
        ufunc_at(self.__name__, a, indices, b)

    def outer(self, a, b, /, **kwargs):
        a, b = as_array(a), as_array(b)
        return self(a.reshape(a.shape + (1,) * b.ndim), b, **kwargs)

    def reduce(self, a, axis=0, dtype=None, out=None, keepdims=False, initial=None,
               where=True):
        from . import reductions
        lazy = reductions.UFUNC_REDUCTIONS.get(self.__name__)
        if lazy is None or out is not None:
            from .._dispatch import fallback
            return fallback(self._np.reduce, (a,), dict(axis=axis, dtype=dtype, out=out,
                            keepdims=keepdims, initial=initial, where=where),
                            name=f"{self.__name__}.reduce")
        kwargs = dict(keepdims=keepdims, initial=initial, where=where)
        if self.__name__ in ("add", "multiply"):
            kwargs["dtype"] = dtype
        return lazy(a, axis, **kwargs)

    def accumulate(self, array, axis=0, dtype=None, out=None):
        """NumPy's `ufunc.accumulate` (see `_accumulate`)."""
        return _accumulate(self, array, axis, dtype, out)

    def reduceat(self, array, indices, axis=0, dtype=None, out=None):
        """NumPy's `ufunc.reduceat` (see `_reduceat`)."""
        return _reduceat(self, array, indices, axis, dtype, out)


def _negative_integer_power(operands, loop) -> None:
    """NumPy's ValueError for an integer power with a negative exponent, at the call
    when the exponent's values are known (a Python or NumPy scalar, a computed array);
    for a pending exponent the program's runtime check raises it when computed."""
    if not (_dtypes.is_integer(loop[0]) and np.dtype(loop[1]).kind == "i"):
        return
    base, exponent = operands
    if isinstance(exponent, Array):
        if not exponent._node.is_computed:
            return
        exponent = exponent._node.value
    shapes = [op.shape if isinstance(op, Array) else np.shape(op) for op in (base, exponent)]
    if math.prod(np.broadcast_shapes(*shapes)) and np.any(np.asarray(exponent) < 0):
        raise ValueError("Integers to negative integer powers are not allowed.")


def _write_out(name: str, results: tuple, out, where) -> tuple:
    """Apply `where=` and `out=` as NumPy does (into lazyarr arrays by rebinding)."""
    if out is None and where is True:
        return results
    if out is None:
        outs = (None,) * len(results)
    else:
        outs = out if isinstance(out, tuple) else (out,)
        if len(outs) != len(results):
            raise ValueError("The 'out' tuple must have exactly one entry per ufunc output")
    final = []
    for result, target in zip(results, outs):
        if where is not True:
            base = target if target is not None else zeros_like(result)
            result = where_(where, result, _astype(base, result.dtype) if
                            isinstance(base, Array) else base)
        if target is None:
            final.append(result)
        elif isinstance(target, Array):
            final.append(target._rebind(result, name))
        else:
            raise TypeError(f"{name}: out= must be a lazyarr array, not "
                            f"{type(target).__name__}")
    return tuple(final)


UFUNCS: dict[str, ufunc] = {}
for _name in UFUNC_CATEGORIES:
    UFUNCS[_name] = ufunc(_name)
    export(UFUNCS[_name], names=())  # registers under the ufunc's own name

# NumPy's aliases (and the Array API's spellings) of the same ufuncs.
ALIASES = {"abs": "absolute", "acos": "arccos", "acosh": "arccosh", "asin": "arcsin",
           "asinh": "arcsinh", "atan": "arctan", "atan2": "arctan2", "atanh": "arctanh",
           "bitwise_invert": "invert", "bitwise_not": "invert",
           "bitwise_left_shift": "left_shift", "bitwise_right_shift": "right_shift",
           "conj": "conjugate", "mod": "remainder", "pow": "power",
           "true_divide": "divide"}
for _alias, _name in ALIASES.items():
    UFUNCS[_alias] = UFUNCS[_name]
    export(UFUNCS[_name], names=(_alias,))

globals().update(UFUNCS)


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
    from .._dispatch import fallback
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
    return _reduction_loop(uf._np, x.dtype, None if dtype is None else _dtypes.as_dtype(dtype),
                           None if out is None else out.dtype, name)


@functools.lru_cache(maxsize=1024)
def _reduction_loop(np_ufunc: np.ufunc, dtype: np.dtype, requested, out, name: str) -> np.dtype:
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


def _cast_unsafe(x: Array, dtype) -> Array:
    """NumPy's unsafe cast: complex to bool tests both parts; complex to other real
    dtypes discards the imaginary part, with NumPy's ComplexWarning."""
    if _dtypes.is_complex(x.dtype) and not _dtypes.is_complex(dtype) \
            and not _dtypes.is_bool(dtype):
        from .indexing import cast_unsafe  # indexing builds on this module
        return cast_unsafe(x, dtype)
    return _astype(x, dtype)


def _into_out(out, result: Array, name: str) -> Array:
    """`result`, or with a lazyarr `out=` of its shape, written into it (cast unsafely,
    through to a view's owner) and `out` returned, as NumPy does."""
    if out is None:
        return result
    if out.shape != result.shape:
        raise ValueError(f"{name}: output operand of shape {out.shape} does not match "
                         f"the result's shape {result.shape}")
    out._check_writeable("output array is read-only")
    out._write(_cast_unsafe(result, out.dtype)._node)
    return out


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
    `_reduction_loop`); inputs and outputs are cast unsafely, as NumPy does.
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
        result = _segments(uf.__name__, _cast_unsafe(x, loop), starts, axis)
    else:
        result = _method_fallback(uf, "reduceat", (x, indices), dict(axis=axis, dtype=loop))
    return _into_out(out, result, name)


def _segment_starts(indices, n: int, name: str):
    """The indices as an int64 (m,) node, read as NumPy reads them: arrays cast safely
    to intp, other data converted to intp; 1-d; each in [0, n)."""
    if isinstance(indices, Array) and indices._node.is_computed:
        indices = host_array(indices._node.value)
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
    `_reduction_loop`), cast unsafely in and out. Lazy where a formulation gives the
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
        x = _cast_unsafe(x, loop)
        trivial = x.shape[axis] < 2 or x.size == 0
        result = wrap(x._node if trivial else scan(x._node, axis), scalar=False)
    return _into_out(out, result, name)


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
    if name in _COMPARISONS and boolean:
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


# ---------------------------------------------------------------------------------
# Elementwise functions that are not ufuncs.

@export
def astype(x, dtype, /, *, copy: bool = True, device=None):
    """`x` converted to `dtype` with NumPy's unsafe casting (as `ndarray.astype`)."""
    return _astype(as_array(x), dtype)


@export
def real(val):
    x = as_array(val)
    return wrap(apply("real", x._node), x._scalar) if _dtypes.is_complex(x.dtype) else x


@export
def imag(val):
    x = as_array(val)
    if _dtypes.is_complex(x.dtype):
        return wrap(apply("imag", x._node), x._scalar)
    # NumPy: zeros, read-only, and a NumPy scalar's imag is a scalar.
    zeros = wrap(full_node(0, x.shape, x.dtype), x._scalar)
    if not x._scalar:
        zeros.flags.writeable = False
    return zeros


@export
def angle(z, deg: bool = False):
    """Argument of complex values (arctan2(imag, real)), in degrees if `deg`."""
    z = as_array(z)
    a = arctan2(imag(z), real(z)) if _dtypes.is_complex(z.dtype) else arctan2(0, z)
    return a * (180.0 / np.pi) if deg else a


@export
def divmod(x1, x2, /):  # noqa: A001  (NumPy's name)
    """(floor_divide(x1, x2), remainder(x1, x2)), with NumPy's sign rules."""
    return floor_divide(x1, x2), remainder(x1, x2)


@export(names=("round",))
def around(a, decimals: int = 0, out=None):
    """Round half to even at `decimals` places, computed as NumPy does (scale, rint,
    unscale)."""
    x = as_array(a)
    decimals = operator.index(decimals)  # NumPy's TypeError for 1.5
    if _dtypes.is_integer(x.dtype) and decimals >= 0:
        return wrap(x._node)  # a copy (a scalar when 0-d, as NumPy returns)
    if _dtypes.is_complex(x.dtype):  # NumPy rounds the two parts as separate arrays
        parts = around(real(x), decimals), around(imag(x), decimals)
        return wrap(apply("complex", parts[0]._node, parts[1]._node), x._scalar)
    if decimals == 0:
        return rint(x)  # bool gives float16, as NumPy's rint does
    if _dtypes.is_bool(x.dtype):
        raise TypeError("round: Cannot cast ufunc 'multiply' output from dtype('float64') "
                        "to dtype('bool') with casting rule 'same_kind'")
    if _dtypes.is_integer(x.dtype):
        scale = 10 ** -decimals
        return _astype(rint(x.astype(np.float64) / scale) * scale, x.dtype)
    if decimals >= 0:
        return divide(rint(multiply(x, float(10 ** decimals))), float(10 ** decimals))
    return multiply(rint(divide(x, float(10 ** -decimals))), float(10 ** -decimals))


round = around


_UNSET = object()  # a_min/a_max not passed (NumPy's _NoValue)


@export
def clip(a, a_min=_UNSET, a_max=_UNSET, out=None, *, min=None, max=None):
    """minimum(maximum(a, a_min), a_max), with NEP 50 promotion of the bounds."""
    if (a_min is not _UNSET or a_max is not _UNSET) and (min is not None or max is not None):
        raise ValueError("Passing `min` or `max` keyword argument when `a_min` and "
                         "`a_max` are provided is forbidden.")
    a_min = min if a_min is _UNSET or a_min is None else a_min
    a_max = max if a_max is _UNSET or a_max is None else a_max
    x = as_array(a)
    bounds = [b for b in (a_min, a_max) if b is not None]
    dtype = _dtypes.result_type(x, *[b if type(b) in _WEAK else as_array(b) for b in bounds])
    if _dtypes.is_integer(dtype):
        # NumPy 2 drops a Python int bound beyond the dtype's range on its own side
        # (clip(uint32, -1, 3) is min(x, 3)); one beyond the other side is still an error.
        info = np.iinfo(dtype)
        if type(a_min) is builtins.int and a_min < info.min:
            a_min = None
        if type(a_max) is builtins.int and a_max > info.max:
            a_max = None
    elif _dtypes.is_inexact(dtype):  # the three operands' dtype decides: 2**64 is a float
        a_min, a_max = (float(b) if type(b) is builtins.int else b for b in (a_min, a_max))
    result = x
    if a_min is not None:
        result = maximum(result, a_min)
    if a_max is not None:
        result = minimum(result, a_max)
    if result is x:
        result = wrap(x._node, x._scalar)
    return _write_out("clip", (result,), out, True)[0]


def _where_input(value, dtype):
    """NumPy's where converts a Python int through a C integer and casts it unsafely to
    the result dtype (np.where(u8 > 1, u8, -3) holds 253); one beyond 64 bits is its
    OverflowError."""
    if type(value) is builtins.int and _dtypes.is_integer(dtype):
        if not -2**63 <= value < 2**64:
            raise OverflowError("Python int too large to convert to C long")
        host = np.array(value, np.int64 if value < 2**63 else np.uint64)
        return scalar_node(host.astype(dtype), dtype)
    return _input_node(value, dtype, "where")


def where_(condition, x, y):
    cond = _astype(as_array(condition), np.bool_)
    xs = [_operand(v, "where") for v in (x, y)]
    dtype = _dtypes.result_type(*xs)
    nodes = [_where_input(v, dtype) for v in xs]
    return wrap(apply("select", cond._node, *nodes))


@export
def where(condition, x=None, y=None, /):
    """Choose from `x` or `y` by `condition`; with the condition alone, `nonzero`."""
    if x is None and y is None:
        from .indexing import nonzero
        return nonzero(condition)
    if x is None or y is None:
        raise ValueError("either both or neither of x and y should be given")
    result = where_(condition, x, y)
    return wrap(result._node, False)  # NumPy's where returns an array, never a scalar


@export
def isclose(a, b, rtol=1e-05, atol=1e-08, equal_nan=False):
    """|a - b| <= atol + rtol * |b|, infinities equal to themselves, as NumPy."""
    a, b = as_array(a), as_array(b)
    dt = _dtypes.result_type(a, b, 1.0)
    a, b = _astype(a, dt), _astype(b, dt)
    finite = isfinite(a) & isfinite(b)
    close = less_equal(absolute(subtract(a, b)), atol + rtol * absolute(b))
    result = where_(finite, close, equal(a, b))
    if equal_nan:
        result = result | (isnan(a) & isnan(b))
    return result


@export
def allclose(a, b, rtol=1e-05, atol=1e-08, equal_nan=False) -> bool:
    from .reductions import all as all_
    return builtins.bool(all_(isclose(a, b, rtol, atol, equal_nan)))


@export
def nan_to_num(x, copy=True, nan=0.0, posinf=None, neginf=None):
    """NaN to `nan`, infinities to the dtype's largest finite values (or the given).
    A copy; with copy=False the array itself, changed in place, as NumPy's."""
    x = as_array(x)
    if not _dtypes.is_inexact(x.dtype):  # NumPy's copy (or `x` itself for copy=False)
        return wrap(x._node, x.ndim == 0) if copy else x
    result = _nan_to_num(x, nan, posinf, neginf)
    if copy or x._scalar:
        return wrap(result._node, x.ndim == 0)  # NumPy returns x[()] for 0-d input
    x._check_writeable()
    x._write(_astype(result, x.dtype)._node)
    return x


def _nan_to_num(x, nan, posinf, neginf):
    if _dtypes.is_complex(x.dtype):
        fix = lambda part: _nan_to_num(part, nan, posinf, neginf)  # noqa: E731
        return add(fix(real(x)), multiply(fix(imag(x)), 1j))
    info = _dtypes.finfo(x.dtype)
    hi = info.max if posinf is None else posinf
    lo = info.min if neginf is None else neginf
    x = where_(isnan(x), _astype(as_array(nan), x.dtype), x)
    x = where_(isposinf(x), _astype(as_array(hi), x.dtype), x)
    return where_(isneginf(x), _astype(as_array(lo), x.dtype), x)


@export
def isposinf(x):
    return logical_and(isinf(x), logical_not(signbit(x)))


@export
def isneginf(x):
    return logical_and(isinf(x), signbit(x))


@export
def fix(x):
    """Round towards zero, keeping the input's float dtype (as numpy.fix)."""
    return trunc(x)


def zeros_like(a, dtype=None):
    from .creation import zeros_like as creation_zeros_like
    return creation_zeros_like(a, dtype=dtype)


@export
def iscomplex(x):
    """True where the imaginary part is non-zero (all False for real dtypes)."""
    x = as_array(x)
    return not_equal(imag(x), 0)


@export
def isreal(x):
    """True where the imaginary part is zero (all True for real dtypes)."""
    x = as_array(x)
    return equal(imag(x), 0)


@export
def iscomplexobj(x) -> bool:
    return _dtypes.is_complex(as_array(x).dtype)


@export
def isrealobj(x) -> bool:
    return not _dtypes.is_complex(as_array(x).dtype)
