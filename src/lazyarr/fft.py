"""`lazyarr.fft`: NumPy's `numpy.fft` namespace, lazily (see `_api/fft.py`)."""

from ._api import NAMESPACES as _NAMESPACES
from ._api import fft as _chapter  # noqa: F401  (registers the functions)

globals().update(_NAMESPACES["fft"])

__all__ = sorted(_NAMESPACES["fft"])
