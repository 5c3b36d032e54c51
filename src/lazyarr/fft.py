"""`lazyarr.fft`: NumPy's `numpy.fft` namespace, lazily (see `_api/fft.py`). Imported on
first use, as NumPy imports numpy.fft."""

import sys as _sys

import numpy.fft as _np_fft

from . import _docs, _numpy_own
from ._api import NAMESPACES as _NAMESPACES
from ._api import fft as _chapter  # noqa: F401  (registers the functions)

globals().update(_NAMESPACES["fft"])

__all__ = sorted(_NAMESPACES["fft"])
_numpy_own.install_submodule(_sys.modules[__name__], "fft")
_docs.install(globals(), _np_fft)
