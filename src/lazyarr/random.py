"""lazyarr.random: NumPy's `numpy.random` namespace, drawn by NumPy itself, so the same
seed gives exactly NumPy's numbers; arrays come back as lazyarr arrays (see
lazyarr._api.random)."""

import sys as _sys

import numpy.random as _np_random

from . import _docs, _numpy_own
from ._api import NAMESPACES as _NAMESPACES
from ._api import random as _chapter  # noqa: F401  (fills the "random" namespace)

globals().update(_NAMESPACES["random"])
__all__ = sorted(_NAMESPACES["random"])
_numpy_own.install_submodule(_sys.modules[__name__], "random")
_docs.install(globals(), _np_random)
