"""NEP 18 and NEP 13: NumPy's functions and ufuncs called on lazyarr arrays.

A NumPy function that lazyarr implements (registered with `_api.export`) runs lazily.
One it does not implement goes through the fallback: its lazyarr arguments are
materialized, NumPy runs it, and array results come back as lazyarr arrays. Each
fallback is counted per function in `lazyarr.stats()`, and `LAZYARR_FALLBACK`
(`warn`, the default, `raise` or `allow`) decides whether it warns, raises or is only
counted. Foreign array types make lazyarr step aside (return NotImplemented).
"""

from __future__ import annotations

import os
import warnings

import numpy as np

from . import _deferred, _flush, _interop, _observe
from ._api import HANDLED
from ._api.common import Array, as_array, is_scalar_operand
from ._errors import user_stacklevel
from ._interop import NotLazy


class FallbackWarning(UserWarning):
    """A NumPy function without a lazyarr implementation ran eagerly through NumPy."""


class FallbackError(TypeError):
    """Raised under LAZYARR_FALLBACK=raise instead of running NumPy eagerly."""


_KNOWN_TYPES = (Array, np.ndarray, np.generic)


def _unwrap(obj):
    """Materialize every lazyarr array inside args (lists and tuples followed)."""
    if isinstance(obj, Array):
        return np.asarray(obj)
    if isinstance(obj, (list, tuple)):
        return type(obj)(_unwrap(o) for o in obj)
    if isinstance(obj, dict):
        return {k: _unwrap(v) for k, v in obj.items()}
    return obj


def _wrap(obj):
    """NumPy's numeric results as lazyarr's (a NumPy scalar as a result standing for
    one); others (object arrays, strings, ...) stay NumPy's."""
    if isinstance(obj, (np.ndarray, np.generic)) and obj.dtype.kind in "biufc":
        return as_array(obj)
    if isinstance(obj, tuple):
        return tuple(_wrap(o) for o in obj)
    if isinstance(obj, list):
        return [_wrap(o) for o in obj]
    return obj


def fallback(func, args, kwargs, name: str | None = None, full_name: str | None = None):
    """Run NumPy's `func` eagerly on materialized arguments, counted and reported under
    the name the user called it by (`full_name`, e.g. "scipy.special.expit")."""
    name = name or getattr(func, "__qualname__", repr(func))
    full_name = full_name or _observe.function_name(func)
    policy = os.environ.get("LAZYARR_FALLBACK", "warn")
    _flush.STATS.fallbacks[name] += 1
    _observe.fell_back(_flush.STATS, full_name)
    if policy == "raise":
        raise FallbackError(f"lazyarr has no lazy implementation of {full_name} "
                            "(LAZYARR_FALLBACK=raise)")
    if policy != "allow":
        warnings.warn(f"{full_name} has no lazy implementation in lazyarr; it ran eagerly "
                      "through NumPy (set LAZYARR_FALLBACK=allow to silence)",
                      FallbackWarning, stacklevel=user_stacklevel())
    return _wrap(func(*_unwrap(args), **_unwrap(kwargs)))


_interop.FALLBACK.append(fallback)  # the namespace's deferring wrappers call it


def array_function(func, types, args, kwargs):
    if not all(issubclass(t, _KNOWN_TYPES) for t in types):
        return NotImplemented
    impl = HANDLED.get(func)
    if impl is None and _deferred.load_all():  # a deferred chapter's function (np.unique)
        impl = HANDLED.get(func)
    if impl is None:
        return fallback(func, args, kwargs)
    try:
        return impl(*args, **kwargs)
    except NotLazy:  # NumPy's data beside lazyarr's (strings, dates): NumPy computes
        pass
    return fallback(func, args, kwargs)


# The keywords each lazy ufunc method takes; others (order=, subok=, signature=, an
# ndarray as out=) go through the fallback, where NumPy handles them.
_LAZY_KEYWORDS = {"__call__": {"out", "where", "dtype", "casting"},
                  "reduce": {"axis", "dtype", "out", "keepdims", "initial", "where"},
                  "accumulate": {"axis", "dtype", "out"}, "reduceat": {"axis", "dtype", "out"},
                  "outer": set(), "at": set()}


def _lazy_out(kwargs) -> bool:
    out = kwargs.get("out")
    outs = out if isinstance(out, tuple) else (out,)
    return all(o is None or isinstance(o, Array) for o in outs)


def array_ufunc(ufunc, method, inputs, kwargs):
    # ufunc.at(a, indices, b) and ufunc.reduceat(a, indices): the indices may be lists,
    # tuples or slices.
    operands = (inputs[0],) + tuple(inputs[2:]) if method in ("at", "reduceat") else inputs
    if not all(isinstance(x, _KNOWN_TYPES) or is_scalar_operand(x)
               for x in operands):
        return NotImplemented
    # by identity: another library's ufunc of the same name (scipy.special's) is not NumPy's
    impl = HANDLED.get(ufunc)
    lazy = (impl is not None and set(kwargs) <= _LAZY_KEYWORDS.get(method, set())
            and _lazy_out(kwargs) and hasattr(impl, method))
    if lazy:
        out = kwargs.get("out")
        if isinstance(out, tuple) and len(out) == 1:
            kwargs = {**kwargs, "out": out[0]}
        try:
            call = (getattr(impl, "lazy_call", impl) if method == "__call__"
                    else getattr(impl, method))
            return call(*inputs, **kwargs)
        except NotLazy:
            pass
    return fallback(getattr(ufunc, method), inputs, kwargs,
                    name=f"{ufunc.__name__}.{method}" if method != "__call__" else ufunc.__name__,
                    full_name=_observe.function_name(ufunc, method))
