"""lazyarr: NumPy code, run lazily, fused and compiled.

`import lazyarr as np` gives NumPy's namespace; each operation records a node in a
deferred graph, and the graph is evaluated (as one program, on the selected backend)
only when a value is needed. See docs/architecture.md.

This module only assembles the namespace: the chapters register their functions in
`_api.NAMESPACES`, `_api.namespace.NAMES` holds the other names, `_api.methods`
attaches Array's methods. Submodules that few scripts use (random, testing, array_api and
distributed) are imported on first use, by `__getattr__`, as NumPy imports
numpy.random and numpy.testing.
"""

from __future__ import annotations

import importlib as _importlib
import sys as _sys

import numpy as _np

from . import _allocator  # noqa: F401  (glibc's policy for large buffers, set first)
from . import _deferred, _dtypes, _observe
from ._api import NAMESPACES as _NAMESPACES
from ._api import creation, elementwise, indexing, products  # noqa: F401
from ._api import shapes, manipulation, reductions  # noqa: F401
from ._api import sorting, statistics  # noqa: F401
from ._api import ufunc_methods  # noqa: F401
from ._api import mutation  # noqa: F401
from ._api import selection  # noqa: F401
from ._api import methods as _methods  # noqa: F401  (attaches Array's methods)
from ._api.namespace import NAMES as _NAMES
# lazyarr.random and lazyarr.testing are imported on first use (see __getattr__), as
# NumPy imports numpy.random and numpy.testing: 70 ms of `import lazyarr` otherwise;
# so are array_api (2 ms: a wrapped copy of the namespace; `Array.__array_namespace__`
# imports it), distributed, fft and linalg, and the chapters of `_deferred.CHAPTERS`
# (sets, histograms, io, ...: 5-6 ms).
# Issue 11's surface (before array_api copies the namespace): the rest of ndarray's
# methods, lazy stride and index tricks, NumPy's own objects where nothing computes,
# numba/jax registration on their import.
from . import lib  # noqa: E402, F401  (lazyarr.lib, with a lazy stride_tricks)
from . import _surface  # noqa: E402, F401  (attaches the rest of ndarray's methods)
from .lib import index_tricks as _index_tricks  # noqa: E402
from . import _numba as _numba_interop  # noqa: E402
from . import _jax as _jax_interop  # noqa: E402
from . import _numpy_own  # noqa: E402

_numba_interop.install()  # numba's @njit takes lazyarr arrays once numba is imported
_jax_interop.install()  # jax.jit takes lazyarr arrays (a pytree) once jax is imported
_NAMES.update(r_=_index_tricks.r_, c_=_index_tricks.c_, mgrid=_index_tricks.mgrid,
              ogrid=_index_tricks.ogrid)
# NumPy's own types, constants and helpers, where nothing computes:
_numpy_own.install(_sys.modules[__name__], _NAMES,
                   {**_NAMESPACES[""], **dict.fromkeys(_deferred.OWNER)})

__version__ = "0.1.0"

globals().update(_NAMESPACES[""])
globals().update(_NAMES)
_observe.configure_from_environment()  # LAZYARR_LOG, LAZYARR_LONG_COMPILE


def __getattr__(name: str):
    """`lazyarr.bfloat16`: ml_dtypes' scalar type, imported when first asked for (its
    import takes longer than NumPy's); NumPy's own submodules (char, ma, typing, ...),
    on first use, as NumPy imports them."""
    if name == "bfloat16":
        value = globals()[name] = _dtypes.bfloat16.type
        return value
    chapter = _deferred.OWNER.get(name)
    if chapter is not None:
        _deferred.load(chapter)
        return globals()[name]
    if name in _LAZY_SUBMODULES:
        return _importlib.import_module(f"{__name__}.{name}")
    if name in _CHAPTER_NAMES:  # as `from ._api import sets` bound them before deferral
        _deferred.load(name)
        value = globals()[name] = _sys.modules[f"{__name__}._api.{name}"]
        return value
    if name == "__all__":  # `from lazyarr import *` reads the module's dict: fill it
        _deferred.load_all()
        raise AttributeError(name)
    return _numpy_own.module(name)


_LAZY_SUBMODULES = ("random", "testing", "array_api", "distributed") + _deferred.SUBMODULES
# (io and printing were bound under private names before deferral: not these)
_CHAPTER_NAMES = tuple(c for c in _deferred.CHAPTERS if c not in ("io", "printing"))


def __dir__():
    return sorted(set(globals()) | set(_LAZY_SUBMODULES) | set(_CHAPTER_NAMES)
                  | set(_deferred.OWNER))


from . import _docs  # noqa: E402
_docs.install(globals(), _np)  # help(lazyarr.f) shows NumPy's docstring, with a lazyarr note
# (lazyarr.random, fft, linalg and the deferred chapters document themselves)
_docs.install_methods(Array)
