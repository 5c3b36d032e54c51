"""lazyarr: NumPy code, run lazily, fused and compiled.

`import lazyarr as np` gives NumPy's namespace; each operation records a node in a
deferred graph, and the graph is evaluated (as one program, on the selected backend)
only when a value is needed. See docs/architecture.md.

This module only assembles the namespace: the chapters register their functions in
`_api.NAMESPACES`, `_api.namespace.NAMES` holds the other names, `_api.methods`
attaches Array's methods, and `array_api` gives `Array.__array_namespace__`.
"""

from __future__ import annotations

from . import _observe
from ._api import NAMESPACES as _NAMESPACES
from ._api import creation, elementwise, indexing, linalg as _linalg_chapter  # noqa: F401
from ._api import shapes, manipulation, reductions  # noqa: F401
from ._api import sorting, statistics  # noqa: F401
from ._api import mutation  # noqa: F401
from ._api import polynomial, selection, construction  # noqa: F401
from ._api import dtype_functions  # noqa: F401
from ._api import io as _io_chapter, printing as _printing_chapter  # noqa: F401
from ._api import methods as _methods  # noqa: F401  (attaches Array's methods)
from ._api.namespace import NAMES as _NAMES
from . import random  # noqa: F401  (lazyarr.random)
from . import fft, linalg  # noqa: F401  (lazyarr.fft, lazyarr.linalg)
from . import testing  # noqa: F401  (lazyarr.testing)
from . import array_api  # noqa: F401  (lazyarr.array_api, Array.__array_namespace__)
from ._placement import devices, replicate, shard  # noqa: F401  (several devices)
from . import distributed  # noqa: F401  (lazyarr.distributed: several processes)

__version__ = "0.1.0"

globals().update(_NAMESPACES[""])
globals().update(_NAMES)
_observe.configure_from_environment()  # LAZYARR_LOG, LAZYARR_LONG_COMPILE


def __getattr__(name: str):
    """`lazyarr.bfloat16`: ml_dtypes' scalar type, imported when first asked for (its
    import takes longer than NumPy's)."""
    if name == "bfloat16":
        from . import _dtypes
        value = globals()[name] = _dtypes.bfloat16.type
        return value
    raise AttributeError(f"module 'lazyarr' has no attribute {name!r}")
