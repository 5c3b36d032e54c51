"""The module the user's code sees as `numpy` under `python -m lazyarr` (see
`_runner`): lazyarr's attribute where it has one, else NumPy's. Apart so that
`_numba` can name its type without importing the runner."""

from __future__ import annotations

import types

import numpy

MISSING = object()  # a lookup's answer where lazyarr has no such name


class NumpyFacade(types.ModuleType):
    """NumPy's module `real` as the user's code sees it: `lookup(name)` first (lazyarr's
    attribute, or MISSING), then NumPy's own attribute, error messages included."""

    def __init__(self, real: types.ModuleType, lookup):
        super().__init__(real.__name__, real.__doc__)
        self.__file__ = getattr(real, "__file__", None)  # IMPORT_FROM errors name it
        self.__all__ = list(getattr(real, "__all__", ()))  # `from numpy import *`
        self.__lazyarr_source__ = (real, lookup)

    def __getattr__(self, name: str):
        real, lookup = self.__dict__["__lazyarr_source__"]
        value = lookup(name)
        if value is MISSING:
            value = getattr(real, name)
        self.__dict__[name] = value  # found once; later lookups are plain dict hits
        return value

    def __dir__(self):
        real, _ = self.__lazyarr_source__
        return sorted((set(dir(real)) | set(self.__dict__)) - {"__lazyarr_source__"})

    def __repr__(self) -> str:
        return f"<module {self.__name__!r} (lazyarr over NumPy {numpy.__version__})>"
