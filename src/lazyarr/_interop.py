"""Where lazyarr steps aside: non-numeric data and other libraries' arrays.

NumPy's behaviour is the rule. Arrays of strings, bytes, objects, datetimes or records
are NumPy's own arrays: a lazyarr function given them calls NumPy's function (counted
as a fallback), and lazy numeric arguments beside them are materialized. A function
given an object of another array library that overrides `__array_function__` or
`__array_ufunc__` (pandas, xarray, dask, ...) or a NumPy subclass (masked arrays,
matrices) calls NumPy's function, which hands the call to that object's override as
`numpy.f(obj)` would: `lazyarr.log(series)` is a Series.

This module sits below `_array` (it imports only NumPy): conversions raise `NotLazy`,
and `deferring` wraps each public function so that NumPy's function takes over.
"""

from __future__ import annotations

import functools

import numpy as np

from ._dtypes import ML_FLOATS


class NotLazy(TypeError):
    """Data lazyarr does not hold (non-numeric, another library's array): the caller
    hands the call to NumPy's function."""


OWN_TYPES: list[type] = []  # lazyarr's array types, registered by `_array`
FALLBACK: list = []  # `_dispatch.fallback`, registered by `_dispatch` (above this module)
_PLAIN = frozenset({int, float, complex, bool, str, bytes, type(None), slice, range,
                    type(Ellipsis), np.ndarray, np.dtype, dict})
_overriding: dict[type, bool] = {}
_SCAN_LIMIT = 1000  # elements of a list argument looked at (NumPy's own concatenate looks at all)


def overrides(t: type) -> bool:
    """Whether values of type `t` take NumPy calls themselves: another library's array
    with `__array_function__`/`__array_ufunc__`, or a subclass of ndarray."""
    known = _overriding.get(t)
    if known is None:
        if t in _PLAIN or issubclass(t, (np.generic, *OWN_TYPES)):
            known = False
        elif issubclass(t, np.ndarray):
            known = True
        else:
            known = hasattr(t, "__array_function__") or hasattr(t, "__array_ufunc__")
        _overriding[t] = known
    return known


FOREIGN, NUMPY_DATA = 1, 2


def _kind(a) -> int:
    t = type(a)
    if t in OWN_TYPES:  # (first: a 0-d lazyarr result's isinstance reads its __class__)
        return 0
    if t is np.ndarray or isinstance(a, np.generic):
        return 0 if a.dtype.kind in "biufc" or a.dtype in ML_FLOATS else NUMPY_DATA
    return FOREIGN if overrides(t) else 0


def defers(args, kwargs) -> int:
    """FOREIGN when an argument (or an element of a list or tuple argument) overrides
    NumPy's dispatch, else NUMPY_DATA when one is a NumPy array of data lazyarr does
    not hold (strings, dates, records, objects), else 0."""
    found = 0
    for group in (args, kwargs.values()):
        for a in group:
            t = type(a)
            kinds = map(_kind, a[:_SCAN_LIMIT]) if t is list or t is tuple else (_kind(a),)
            for k in kinds:
                if k == FOREIGN:
                    return FOREIGN
                found |= k
    return found


def deferring(f, np_func, name: str):
    """`f` as the namespace's function `name`: NumPy's `np_func` where an argument
    overrides NumPy's dispatch (it dispatches, as NEP 18 says), or where `f` raises
    NotLazy (a counted fallback that materializes lazy arguments)."""
    dispatches = type(np_func).__name__ == "_ArrayFunctionDispatcher"

    @functools.wraps(f)
    def call(*args, **kwargs):
        kind = defers(args, kwargs)
        if kind == FOREIGN and dispatches:
            return np_func(*args, **kwargs)
        if kind != NUMPY_DATA:
            try:
                return f(*args, **kwargs)
            except NotLazy:
                pass
        # outside the except: NumPy's own traceback
        return FALLBACK[0](np_func, args, kwargs, name=name)

    call.__wrapped__ = f
    return call
