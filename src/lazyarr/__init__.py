"""lazyarr: NumPy code, run lazily, fused and compiled.

`import lazyarr as np` gives NumPy's namespace; each operation records a node in a
deferred graph, and the graph is evaluated (as one program, on the selected backend)
only when a value is needed. See docs/architecture.md.
"""

from __future__ import annotations

import numpy as _np

from . import _dtypes, _observe
from ._array import Array, ndarray  # first: it binds the chapter modules its methods use
from ._api import NAMESPACES as _NAMESPACES
from ._api import creation, elementwise, indexing, linalg as _linalg_chapter  # noqa: F401
from ._api import manipulation, reductions  # noqa: F401
from ._api import sorting, statistics  # noqa: F401
from ._api import mutation  # noqa: F401
from ._api import polynomial, selection, construction  # noqa: F401
from ._api import dtype_functions  # noqa: F401
from ._api import io as _io_chapter, printing as _printing_chapter  # noqa: F401
from . import random  # noqa: F401  (lazyarr.random)
from . import fft, linalg  # noqa: F401  (lazyarr.fft, lazyarr.linalg)
from . import testing  # noqa: F401  (lazyarr.testing)
from ._backend import set_backend, use_backend
from ._namespace_info import __array_api_version__, __array_namespace_info__  # noqa: F401
from ._errors import BackendFailure
from ._flush import count_flushes, reset_stats, stats
from ._observe import report, set_log
from ._explain import explain

__version__ = "0.1.0"

globals().update(_NAMESPACES[""])
_observe.configure_from_environment()  # LAZYARR_LOG, LAZYARR_LONG_COMPILE


# dtypes and scalar types are NumPy's own objects.
from numpy import (  # noqa: E402
    bool_, complex64, complex128, dtype, float16, float32, float64, int8, int16, int32,
    int64, intp, uint8, uint16, uint32, uint64, e, euler_gamma, inf, nan, newaxis, pi,
)
bool = bool_  # noqa: A001  (the Array API spelling)
bfloat16 = _dtypes.bfloat16.type
result_type = _dtypes.result_type
can_cast = _dtypes.can_cast
finfo = _dtypes.finfo
iinfo = _dtypes.iinfo
isdtype = _dtypes.isdtype


def eval(*arrays):  # noqa: A001  (lazyarr.eval, as the design names it)
    """Compute every pending array given, in one flush; returns them."""
    from ._flush import evaluate
    evaluate([a._node for a in arrays if isinstance(a, Array)], "explicit")
    return arrays[0] if len(arrays) == 1 else arrays
