"""Choosing values by condition or function: choose, select, piecewise,
apply_along_axis, apply_over_axes, array_equal, array_equiv, sinc, i0, unwrap,
real_if_close and einsum_path.

Each follows NumPy's code (numpy/lib/_function_base_impl.py, _shape_base_impl.py,
_type_check_impl.py, numpy/_core/numeric.py) with lazyarr's functions.

Values are read where NumPy's result depends on them in kind or shape: the Python
bools of `array_equal`/`array_equiv` and whether `real_if_close` drops the imaginary
part (cause "control"), the indices `choose` checks in mode "raise" (cause
"control"), and the conditions of `piecewise`, which NumPy applies each function to
the selected values only (boolean indexing: cause "shape"). `einsum_path` depends on
shapes only: it is NumPy's own, run on zero arrays of the operands' shapes.
"""

from __future__ import annotations

import builtins
import collections.abc

import numpy as np

from .. import _dtypes
from . import (creation, elementwise, export, indexing, manipulation, reductions, shapes,
               statistics)
from .common import Array, host_array, normalize_axis, write_out


def _operand(value):
    """Python scalars stay weak (as in NumPy's select and choose)."""
    return value if type(value) in (int, float, complex) else creation.asarray(value)


@export
def choose(a, choices, out=None, mode="raise"):
    """The element of choices[a] at each position (NumPy's choose; mode "raise" reads
    `a` to check its range)."""
    if mode not in ("raise", "wrap", "clip"):
        raise ValueError(f"clipmode must be one of 'clip', 'raise', or 'wrap' (got {mode!r})")
    a = creation.asarray(a)
    if not _dtypes.can_cast(a.dtype, np.intp):
        raise TypeError(f"Cannot cast array data from {a.dtype!r} to dtype('int64') "
                        "according to the rule 'safe'")
    choices = [_operand(c) for c in choices]
    if not choices:
        raise ValueError("0-length sequence.")
    n = len(choices)
    dtype = _dtypes.result_type(*choices)
    parts = shapes.broadcast_arrays(a, *[creation.asarray(c, dtype=dtype) for c in choices])
    a = elementwise.astype(parts[0], np.intp)
    if mode == "raise":
        host = host_array(a, "control")
        if np.any((host < 0) | (host >= n)):
            raise ValueError("invalid entry in choice array")
    elif mode == "wrap":
        a = a % n
    else:
        a = elementwise.clip(a, 0, n - 1)
    result = indexing.take_along_axis(manipulation.stack(parts[1:]), a[None], axis=0)[0]
    if out is None:
        return result
    if not isinstance(out, Array):
        raise TypeError("output must be an array")
    if out.shape != result.shape:
        raise TypeError("choose: invalid shape for output array.")
    return write_out(out, result, "choose", "unsafe")  # NumPy casts unsafely


@export
def select(condlist, choicelist, default=0):
    """The choice of the first true condition at each position, else `default`
    (NumPy's select)."""
    if len(condlist) != len(choicelist):
        raise ValueError("list of cases must be same length as list of conditions")
    if len(condlist) == 0:
        raise ValueError("select with an empty condition list is not possible")
    choices = [_operand(c) for c in choicelist] + [_operand(default)]
    try:
        dtype = _dtypes.result_type(*choices)
    except TypeError as e:
        raise TypeError(f"Choicelist and default value do not have a common dtype: {e}") \
            from None
    conds = shapes.broadcast_arrays(*[creation.asarray(c) for c in condlist])
    choices = shapes.broadcast_arrays(*[creation.asarray(c) for c in choices])
    for i, cond in enumerate(conds):
        if cond.dtype != np.bool_:
            raise TypeError(f"invalid entry {i} in condlist: should be boolean ndarray")
    if choices[0].ndim == 0:
        shape = conds[0].shape
    else:
        shape = shapes.broadcast_shapes(conds[0].shape, choices[0].shape)
    result = shapes.broadcast_to(elementwise.astype(choices[-1], dtype), shape)
    for choice, cond in zip(choices[-2::-1], conds[::-1]):
        result = indexing.where(shapes.broadcast_to(cond, shape),
                           shapes.broadcast_to(elementwise.astype(choice, dtype), shape), result)
    return creation.copy(result)


@export
def piecewise(x, condlist, funclist, *args, **kw):
    """Each function (or value) of `funclist` applied where its condition holds
    (NumPy's piecewise: each function sees only its selected values)."""
    x = creation.asarray(x)
    n2 = len(funclist)
    if np.isscalar(condlist) or (not isinstance(condlist[0], (list, np.ndarray, Array))
                                 and x.ndim != 0):
        condlist = [condlist]
    condlist = elementwise.astype(creation.asarray(condlist), bool)
    n = len(condlist)
    if n == n2 - 1:
        condelse = ~reductions.any(condlist, axis=0, keepdims=True)
        condlist = manipulation.concatenate([condlist, condelse], axis=0)
        n += 1
    elif n != n2:
        raise ValueError(f"with {n} condition(s), either {n} or {n + 1} functions are expected")
    y = creation.zeros_like(x)
    for k, func in enumerate(funclist):
        cond = creation.asarray(host_array(condlist[k], "shape"))
        if not isinstance(func, collections.abc.Callable):
            y[cond] = func
        else:
            vals = x[cond]
            if vals.size > 0:
                y[cond] = func(vals, *args, **kw)
    return y


@export
def apply_along_axis(func1d, axis, arr, *args, **kwargs):
    """`func1d` applied to each 1-d slice of `arr` along `axis`, the results stacked
    where the axis was (NumPy's apply_along_axis)."""
    arr = creation.asarray(arr)
    nd = arr.ndim
    axis = normalize_axis(axis, nd, "apply_along_axis")
    dims = list(range(nd))
    view = shapes.transpose(arr, dims[:axis] + dims[axis + 1:] + [axis])
    outer = view.shape[:-1]
    inds = list(np.ndindex(outer))
    if not inds:
        raise ValueError("Cannot apply_along_axis when any iteration dimensions are 0")
    res = creation.asarray(func1d(view[inds[0] + (Ellipsis,)], *args, **kwargs))
    results = [res] + [
        shapes.broadcast_to(elementwise.astype(creation.asarray(
            func1d(view[ind + (Ellipsis,)], *args, **kwargs)), res.dtype), res.shape)
        for ind in inds[1:]]
    buff = shapes.reshape(manipulation.stack(results), outer + res.shape)
    bd = list(range(buff.ndim))
    permute = bd[:axis] + bd[buff.ndim - res.ndim:] + bd[axis:buff.ndim - res.ndim]
    return shapes.transpose(buff, permute)


@export
def apply_over_axes(func, a, axes):
    """`func(a, axis)` applied over each axis in turn, keeping dimensions (NumPy's)."""
    val = creation.asarray(a)
    N = val.ndim
    if np.ndim(axes) == 0:
        axes = (axes,)
    for axis in axes:
        if axis < 0:
            axis = N + axis
        res = func(val, axis)
        if res.ndim != val.ndim:
            res = shapes.expand_dims(res, axis)
            if res.ndim != val.ndim:
                raise ValueError("function is not returning an array of the correct shape")
        val = res
    return val


def _all(x) -> bool:
    return builtins.bool(host_array(reductions.all(x), "control"))


@export
def array_equal(a1, a2, equal_nan=False):
    """True if both have the same shape and elements (NumPy's array_equal)."""
    try:
        a1, a2 = creation.asarray(a1), creation.asarray(a2)
    except Exception:  # noqa: BLE001  (NumPy answers False for inputs it cannot convert)
        return False
    if a1.shape != a2.shape:
        return False
    if not equal_nan or a1 is a2:
        return _all(a1 == a2) if not equal_nan else True
    if all(a.dtype.kind in "biu" for a in (a1, a2)):
        return _all(a1 == a2)
    a1nan, a2nan = elementwise.isnan(a1), elementwise.isnan(a2)
    return _all((a1nan == a2nan) & ((a1 == a2) | a1nan))


@export
def array_equiv(a1, a2):
    """True if both broadcast to one shape and are equal there (NumPy's array_equiv)."""
    try:
        a1, a2 = creation.asarray(a1), creation.asarray(a2)
        shapes.broadcast_shapes(a1.shape, a2.shape)
    except Exception:  # noqa: BLE001  (NumPy answers False)
        return False
    return _all(a1 == a2)


@export
def sinc(x):
    """sin(pi x) / (pi x), 1 at 0 (NumPy's sinc)."""
    x = np.pi * creation.asarray(x)
    eps = np.finfo(x.dtype).eps if x.dtype.kind == "f" else 1e-20
    y = indexing.where(x, x, eps)
    return elementwise.sin(y) / y


_I0A = np.lib._function_base_impl._i0A
_I0B = np.lib._function_base_impl._i0B


def _chbevl(x, vals):
    b0, b1, b2 = vals[0], 0.0, 0.0
    for v in vals[1:]:
        b2, b1 = b1, b0
        b0 = x * b1 - b2 + v
    return 0.5 * (b0 - b2)


@export
def i0(x):
    """The modified Bessel function of the first kind, order 0 (NumPy's Chebyshev
    expansions on [0, 8] and above)."""
    x = creation.asarray(x)
    if x.dtype.kind == "c":
        raise TypeError("i0 not supported for complex values")
    if x.dtype.kind != "f":
        x = elementwise.astype(x, float)
    x = elementwise.abs(x)
    small = elementwise.exp(x) * _chbevl(x / 2.0 - 2, _I0A)
    large = elementwise.exp(x) * _chbevl(32.0 / x - 2.0, _I0B) / elementwise.sqrt(x)
    return indexing.where(x <= 8.0, small, large)


@export
def unwrap(p, discont=None, axis=-1, *, period=2 * np.pi):
    """`p` with jumps larger than `discont` replaced by their `period` complement
    (NumPy's unwrap)."""
    p = creation.asarray(p)
    dd = statistics.diff(p, axis=axis)
    axis = normalize_axis(axis, p.ndim, "unwrap")
    if discont is None:
        discont = period / 2
    dtype = _dtypes.result_type(dd, period)
    if np.issubdtype(dtype, np.integer):
        interval_high, rem = divmod(period, 2)
        boundary_ambiguous = rem == 0
    else:
        interval_high = period / 2
        boundary_ambiguous = True
    interval_low = -interval_high
    ddmod = elementwise.mod(dd - interval_low, period) + interval_low
    if boundary_ambiguous:
        ddmod = indexing.where((ddmod == interval_low) & (dd > 0),
                          elementwise.astype(creation.asarray(interval_high), ddmod.dtype), ddmod)
    ph_correct = ddmod - dd
    ph_correct = indexing.where(abs(dd) < discont, creation.zeros((), ph_correct.dtype), ph_correct)
    head = (slice(None),) * axis
    rest = p[head + (slice(1, None),)] + reductions.cumsum(ph_correct, axis)
    return manipulation.concatenate([elementwise.astype(p[head + (slice(0, 1),)], dtype),
                            elementwise.astype(rest, dtype)], axis=axis)


@export
def real_if_close(a, tol=100):
    """The real part of `a` if every imaginary part is within `tol` (machine epsilons
    when tol > 1) of zero, else `a` (NumPy's; reads the values: cause "control")."""
    a = creation.asarray(a)
    if a.dtype.kind != "c":
        return a
    if tol > 1:
        tol = np.finfo(a.dtype).eps * tol
    if _all(elementwise.abs(elementwise.imag(a)) < tol):
        a = elementwise.real(a)
    return a


def _shape_stand_in(operand):
    if isinstance(operand, Array):
        return np.zeros(operand.shape, operand.dtype)
    return operand


@export
def einsum_path(*operands, optimize="greedy", einsum_call=False):
    """NumPy's einsum_path (it depends on the operands' shapes only)."""
    stand_ins = [_shape_stand_in(op) for op in operands]
    return np.einsum_path(*stand_ins, optimize=optimize, einsum_call=einsum_call)
