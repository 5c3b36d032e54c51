"""The Array API standard's namespace (2025.12, with `linalg` and `fft`), which
`Array.__array_namespace__()` returns.

It is lazyarr's own namespace except where NumPy and the standard conflict; there it
follows the standard (docs/semantics.md keeps the list):

- `floor_divide` and the `//` operators with one infinite operand: `inf // 2` is
  `inf` and `1 // -inf` is `-0.0`, where NumPy gives `nan` and `-1.0` (Python's).
- `expm1` of complex infinities and NaNs: the standard's special cases.
- `finfo`: its attributes are Python floats, not NumPy scalars.
- `clip(x, /, min=None, max=None)`: the standard's signature.
- `linalg.eig`/`eigvals`: always complex, where NumPy returns real arrays when every
  eigenvalue is real (a dtype that depends on the values).

Operators belong to the array, so arrays made here are `StandardArray`s: lazyarr's
`Array` whose `//` follows the standard, and whose operators, indexing and `.T`/`.mT`
give `StandardArray`s again. Every function of either namespace accepts either kind;
an array that a function here would return unchanged comes back as a view of it.
"""

from __future__ import annotations

from .. import _deferred, _dtypes
from .._api import NAMESPACES as _NAMESPACES
from .._api.namespace import NAMES as _NAMES
from ._standard import CONFLICTS as _CONFLICTS
from ._standard import StandardArray, copy_namespace as _copy_namespace  # noqa: F401

_deferred.load_all()  # the chapters lazyarr imports on first use
globals().update({name: value for name, value in _NAMES.items() if not name.startswith("_")})
_copy_namespace(_NAMESPACES[""], globals(), _CONFLICTS)
globals().update(_CONFLICTS)  # finfo is not one of the registered functions

from . import fft, linalg  # noqa: E402, F401
from .. import lib  # noqa: E402, F401  (not the standard's: xarray's rolling reads xp.lib.stride_tricks)
from .._namespace_info import __array_api_version__, __array_namespace_info__  # noqa: E402, F401


def __getattr__(name: str):
    """`bfloat16`, as `lazyarr.bfloat16`: ml_dtypes' type, imported when first asked for."""
    if name == "bfloat16":
        value = globals()[name] = _dtypes.bfloat16.type
        return value
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
