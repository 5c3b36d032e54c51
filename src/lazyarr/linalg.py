"""`lazyarr.linalg`: NumPy's `numpy.linalg` namespace, lazily (see
`_api/linalg.py`). Errors that depend on values (a singular matrix, one
that is not positive definite) are raised when the result is materialized.
Imported on first use."""

import sys as _sys

import numpy.linalg as _np_linalg
from numpy.linalg import LinAlgError

from . import _docs, _numpy_own
from ._api import NAMESPACES as _NAMESPACES
from ._api import linalg as _chapter  # noqa: F401  (registers the functions)

globals().update(_NAMESPACES["linalg"])

__all__ = sorted(_NAMESPACES["linalg"]) + ["LinAlgError"]
_numpy_own.install_submodule(_sys.modules[__name__], "linalg")
_docs.install(globals(), _np_linalg)
