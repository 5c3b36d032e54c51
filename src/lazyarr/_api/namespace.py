"""The names of lazyarr's namespace that are not chapter functions: NumPy's own dtype
objects, scalar types and constants, the dtype functions of `_dtypes`, and lazyarr's
own (`eval`, backend selection, statistics, `explain`, `report`). `lazyarr` and `lazyarr.array_api` both
take them from `NAMES`.
"""

from __future__ import annotations

import numpy as np

from .. import _dtypes, _flush
from .._array import Array
from .._backend import set_backend, use_backend
from .._errors import BackendFailure
from .._explain import explain
from .._observe import report, set_log
from .._namespace_info import __array_api_version__, __array_namespace_info__


def eval(*arrays):  # noqa: A001  (lazyarr.eval, as the design names it)
    """Compute every pending array given, in one flush; returns them."""
    _flush.evaluate([a._node for a in arrays if isinstance(a, Array)], "explicit")
    return arrays[0] if len(arrays) == 1 else arrays


eval.__module__ = "lazyarr"

# dtypes and scalar types are NumPy's own objects.
NAMES: dict[str, object] = {name: getattr(np, name) for name in (
    "bool_", "complex64", "complex128", "dtype", "float16", "float32", "float64", "int8",
    "int16", "int32", "int64", "intp", "uint8", "uint16", "uint32", "uint64", "e",
    "euler_gamma", "inf", "nan", "newaxis", "pi")}
NAMES.update({
    "bool": np.bool_,  # the Array API spelling
    "result_type": _dtypes.result_type, "can_cast": _dtypes.can_cast,
    "finfo": _dtypes.finfo, "iinfo": _dtypes.iinfo, "isdtype": _dtypes.isdtype,
    "Array": Array, "eval": eval, "set_backend": set_backend, "use_backend": use_backend,
    "BackendFailure": BackendFailure, "count_flushes": _flush.count_flushes,
    "reset_stats": _flush.reset_stats, "stats": _flush.stats, "report": report,
    "set_log": set_log, "explain": explain,
    "__array_api_version__": __array_api_version__,
    "__array_namespace_info__": __array_namespace_info__,
})
