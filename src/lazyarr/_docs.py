"""Docstrings where users look (`help()`, IDEs): NumPy's own, taken from the installed
NumPy at import time, followed by a short lazyarr note (the first line of lazyarr's
own docstring, which says what it matches or where it deviates)."""

from __future__ import annotations

import types

import numpy as np

_NOTE = "\n\nlazyarr\n-------\n{note}\nComputed lazily; deviations from NumPy are listed in docs/semantics.md.\n"


def _note(value) -> str:
    own = (getattr(value, "__wrapped__", value).__doc__ or "").strip()
    if own.startswith("Lazy numpy.") or not own:
        return "lazyarr's own implementation."
    return " ".join(own.split("\n\n")[0].split())


def _document(value, numpys) -> None:
    doc = getattr(numpys, "__doc__", None)
    if not doc or value is numpys or getattr(value, "_numpy_doc", False):
        return
    try:
        value.__doc__ = doc + _NOTE.format(note=_note(value))
        value._numpy_doc = True
    except (AttributeError, TypeError):  # builtins, slots
        pass


def install(namespace: dict, numpy_module) -> None:
    """NumPy's docstrings on the callables of `namespace` that NumPy also has."""
    for name, value in list(namespace.items()):
        if name.startswith("_") or isinstance(value, (type, types.ModuleType)):
            continue
        numpys = getattr(numpy_module, name, None)
        if callable(value) and numpys is not None:
            _document(value, numpys)


def install_methods(cls) -> None:
    """NumPy's docstrings on `cls`'s methods that ndarray also has."""
    for name, value in list(vars(cls).items()):
        numpys = getattr(np.ndarray, name, None)
        if numpys is None or name in ("__init__", "__new__") or not callable(value):
            continue
        _document(value, numpys)
