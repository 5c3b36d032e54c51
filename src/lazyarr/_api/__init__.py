"""The public functions, one module per chapter of the API.

`export` registers a function once for both lazyarr's namespace (or a submodule's,
such as "linalg") and NEP 18 dispatch: when NumPy has a function of the same name in
the same namespace, `Array.__array_function__` routes NumPy's function object to it.
This package's `__init__` defines only the registry, so chapter modules can import it
without importing each other.
"""

from __future__ import annotations

import numpy as np

from .._interop import deferring

NAMESPACES: dict[str, dict[str, object]] = {"": {}, "linalg": {}, "fft": {}, "random": {}}
HANDLED: dict[object, object] = {}  # numpy function object -> lazyarr implementation
UFUNCS: dict[str, object] = {}  # ufunc name (and alias) -> lazyarr ufunc (elementwise's)


def export(func=None, *, names: tuple[str, ...] = (), namespace: str = ""):
    """Publish `func` under its own name (and `names`) in lazyarr's `namespace`."""
    def register(f):
        np_namespace = getattr(np, namespace) if namespace else np
        for name in (f.__name__,) + tuple(names):
            np_func = getattr(np_namespace, name, None)
            numpys = callable(np_func) and not isinstance(np_func, type)
            # NumPy's function takes over for other libraries' arrays and for data
            # lazyarr does not hold (see _interop); ufuncs do it in their __call__.
            NAMESPACES[namespace][name] = (deferring(f, np_func, name)
                                           if numpys and f is not np_func
                                           and not isinstance(np_func, np.ufunc) else f)
            if numpys:
                HANDLED.setdefault(np_func, f)
        return f
    return register(func) if func is not None else register
