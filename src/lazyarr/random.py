"""lazyarr.random: NumPy's `numpy.random` namespace, drawn by NumPy itself, so the same
seed gives exactly NumPy's numbers; arrays come back as lazyarr arrays (see
lazyarr._api.random)."""

from ._api import NAMESPACES as _NAMESPACES
from ._api import random as _chapter  # noqa: F401  (fills the "random" namespace)

globals().update(_NAMESPACES["random"])
__all__ = sorted(_NAMESPACES["random"])
