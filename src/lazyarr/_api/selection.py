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

import lazyarr as lnp

from . import export
from .common import Array, normalize_axis
from .polynomial import _host


def _operand(value):
    """Python scalars stay weak (as in NumPy's select and choose)."""
    return value if type(value) in (int, float, complex) else lnp.asarray(value)


@export
def choose(a, choices, out=None, mode="raise"):
    """The element of choices[a] at each position (NumPy's choose; mode "raise" reads
    `a` to check its range)."""
    if mode not in ("raise", "wrap", "clip"):
        raise ValueError(f"clipmode must be one of 'clip', 'raise', or 'wrap' (got {mode!r})")
    a = lnp.asarray(a)
    if not lnp.can_cast(a.dtype, np.intp):
        raise TypeError(f"Cannot cast array data from {a.dtype!r} to dtype('int64') "
                        "according to the rule 'safe'")
    choices = [_operand(c) for c in choices]
    if not choices:
        raise ValueError("0-length sequence.")
    n = len(choices)
    dtype = lnp.result_type(*choices)
    parts = lnp.broadcast_arrays(a, *[lnp.asarray(c, dtype=dtype) for c in choices])
    a = lnp.astype(parts[0], np.intp)
    if mode == "raise":
        host = _host(a, "control")
        if np.any((host < 0) | (host >= n)):
            raise ValueError("invalid entry in choice array")
    elif mode == "wrap":
        a = a % n
    else:
        a = lnp.clip(a, 0, n - 1)
    result = lnp.take_along_axis(lnp.stack(parts[1:]), a[None], axis=0)[0]
    if out is None:
        return result
    if not isinstance(out, Array):
        raise TypeError("output must be an array")
    if out.shape != result.shape:
        raise TypeError("choose: invalid shape for output array.")
    return out._rebind(lnp.astype(result, out.dtype), "choose")  # NumPy casts unsafely


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
        dtype = lnp.result_type(*choices)
    except TypeError as e:
        raise TypeError(f"Choicelist and default value do not have a common dtype: {e}") \
            from None
    conds = lnp.broadcast_arrays(*[lnp.asarray(c) for c in condlist])
    choices = lnp.broadcast_arrays(*[lnp.asarray(c) for c in choices])
    for i, cond in enumerate(conds):
        if cond.dtype != np.bool_:
            raise TypeError(f"invalid entry {i} in condlist: should be boolean ndarray")
    if choices[0].ndim == 0:
        shape = conds[0].shape
    else:
        shape = lnp.broadcast_shapes(conds[0].shape, choices[0].shape)
    result = lnp.broadcast_to(lnp.astype(choices[-1], dtype), shape)
    for choice, cond in zip(choices[-2::-1], conds[::-1]):
        result = lnp.where(lnp.broadcast_to(cond, shape),
                           lnp.broadcast_to(lnp.astype(choice, dtype), shape), result)
    return lnp.copy(result)


@export
def piecewise(x, condlist, funclist, *args, **kw):
    """Each function (or value) of `funclist` applied where its condition holds
    (NumPy's piecewise: each function sees only its selected values)."""
    x = lnp.asarray(x)
    n2 = len(funclist)
    if np.isscalar(condlist) or (not isinstance(condlist[0], (list, np.ndarray, Array))
                                 and x.ndim != 0):
        condlist = [condlist]
    condlist = lnp.astype(lnp.asarray(condlist), bool)
    n = len(condlist)
    if n == n2 - 1:
        condelse = ~lnp.any(condlist, axis=0, keepdims=True)
        condlist = lnp.concatenate([condlist, condelse], axis=0)
        n += 1
    elif n != n2:
        raise ValueError(f"with {n} condition(s), either {n} or {n + 1} functions are expected")
    y = lnp.zeros_like(x)
    for k, func in enumerate(funclist):
        cond = lnp.asarray(_host(condlist[k], "shape"))
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
    arr = lnp.asarray(arr)
    nd = arr.ndim
    axis = normalize_axis(axis, nd, "apply_along_axis")
    dims = list(range(nd))
    view = lnp.transpose(arr, dims[:axis] + dims[axis + 1:] + [axis])
    outer = view.shape[:-1]
    inds = list(np.ndindex(outer))
    if not inds:
        raise ValueError("Cannot apply_along_axis when any iteration dimensions are 0")
    res = lnp.asarray(func1d(view[inds[0] + (Ellipsis,)], *args, **kwargs))
    results = [res] + [
        lnp.broadcast_to(lnp.astype(lnp.asarray(func1d(view[ind + (Ellipsis,)], *args,
                                                        **kwargs)), res.dtype), res.shape)
        for ind in inds[1:]]
    buff = lnp.reshape(lnp.stack(results), outer + res.shape)
    bd = list(range(buff.ndim))
    permute = bd[:axis] + bd[buff.ndim - res.ndim:] + bd[axis:buff.ndim - res.ndim]
    return lnp.transpose(buff, permute)


@export
def apply_over_axes(func, a, axes):
    """`func(a, axis)` applied over each axis in turn, keeping dimensions (NumPy's)."""
    val = lnp.asarray(a)
    N = val.ndim
    if np.ndim(axes) == 0:
        axes = (axes,)
    for axis in axes:
        if axis < 0:
            axis = N + axis
        res = func(val, axis)
        if res.ndim != val.ndim:
            res = lnp.expand_dims(res, axis)
            if res.ndim != val.ndim:
                raise ValueError("function is not returning an array of the correct shape")
        val = res
    return val


def _all(x) -> bool:
    return builtins.bool(_host(lnp.all(x), "control"))


@export
def array_equal(a1, a2, equal_nan=False):
    """True if both have the same shape and elements (NumPy's array_equal)."""
    try:
        a1, a2 = lnp.asarray(a1), lnp.asarray(a2)
    except Exception:  # noqa: BLE001  (NumPy answers False for inputs it cannot convert)
        return False
    if a1.shape != a2.shape:
        return False
    if not equal_nan or a1 is a2:
        return _all(a1 == a2) if not equal_nan else True
    if all(a.dtype.kind in "biu" for a in (a1, a2)):
        return _all(a1 == a2)
    a1nan, a2nan = lnp.isnan(a1), lnp.isnan(a2)
    return _all((a1nan == a2nan) & ((a1 == a2) | a1nan))


@export
def array_equiv(a1, a2):
    """True if both broadcast to one shape and are equal there (NumPy's array_equiv)."""
    try:
        a1, a2 = lnp.asarray(a1), lnp.asarray(a2)
        lnp.broadcast_shapes(a1.shape, a2.shape)
    except Exception:  # noqa: BLE001  (NumPy answers False)
        return False
    return _all(a1 == a2)


@export
def sinc(x):
    """sin(pi x) / (pi x), 1 at 0 (NumPy's sinc)."""
    x = np.pi * lnp.asarray(x)
    eps = np.finfo(x.dtype).eps if x.dtype.kind == "f" else 1e-20
    y = lnp.where(x, x, eps)
    return lnp.sin(y) / y


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
    x = lnp.asarray(x)
    if x.dtype.kind == "c":
        raise TypeError("i0 not supported for complex values")
    if x.dtype.kind != "f":
        x = lnp.astype(x, float)
    x = lnp.abs(x)
    small = lnp.exp(x) * _chbevl(x / 2.0 - 2, _I0A)
    large = lnp.exp(x) * _chbevl(32.0 / x - 2.0, _I0B) / lnp.sqrt(x)
    return lnp.where(x <= 8.0, small, large)


@export
def unwrap(p, discont=None, axis=-1, *, period=2 * np.pi):
    """`p` with jumps larger than `discont` replaced by their `period` complement
    (NumPy's unwrap)."""
    p = lnp.asarray(p)
    dd = lnp.diff(p, axis=axis)
    axis = normalize_axis(axis, p.ndim, "unwrap")
    if discont is None:
        discont = period / 2
    dtype = lnp.result_type(dd, period)
    if np.issubdtype(dtype, np.integer):
        interval_high, rem = divmod(period, 2)
        boundary_ambiguous = rem == 0
    else:
        interval_high = period / 2
        boundary_ambiguous = True
    interval_low = -interval_high
    ddmod = lnp.mod(dd - interval_low, period) + interval_low
    if boundary_ambiguous:
        ddmod = lnp.where((ddmod == interval_low) & (dd > 0),
                          lnp.astype(lnp.asarray(interval_high), ddmod.dtype), ddmod)
    ph_correct = ddmod - dd
    ph_correct = lnp.where(abs(dd) < discont, lnp.zeros((), ph_correct.dtype), ph_correct)
    head = (slice(None),) * axis
    rest = p[head + (slice(1, None),)] + lnp.cumsum(ph_correct, axis)
    return lnp.concatenate([lnp.astype(p[head + (slice(0, 1),)], dtype),
                            lnp.astype(rest, dtype)], axis=axis)


@export
def real_if_close(a, tol=100):
    """The real part of `a` if every imaginary part is within `tol` (machine epsilons
    when tol > 1) of zero, else `a` (NumPy's; reads the values: cause "control")."""
    a = lnp.asarray(a)
    if a.dtype.kind != "c":
        return a
    if tol > 1:
        tol = np.finfo(a.dtype).eps * tol
    if _all(lnp.abs(lnp.imag(a)) < tol):
        a = lnp.real(a)
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
