"""The standard's `fft` extension: lazyarr.fft, returning StandardArrays."""

from .._api import NAMESPACES
from ._standard import copy_namespace as _copy_namespace

_copy_namespace(NAMESPACES["fft"], globals(), {})
