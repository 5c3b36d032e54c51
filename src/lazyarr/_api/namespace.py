"""The names of lazyarr's namespace that are not chapter functions: NumPy's own dtype
objects, scalar types and constants, the dtype functions of `_dtypes`, and lazyarr's
own (`eval`, backend selection, statistics, `explain`, `report`, placement on
several devices). `lazyarr` and `lazyarr.array_api` both
take them from `NAMES`.
"""

from __future__ import annotations

import sys

import numpy as np

from .. import _backend, _dtypes, _flush
from .._array import Array
from .._backend import set_backend, use_backend
from .._settings import set_eager, set_tier, use_eager, use_tier
from .._errors import BackendFailure
from .._graph import leaf
from .._placement import devices
from .._explain import explain
from .._observe import format_report, set_log
from .._namespace_info import __array_api_version__, __array_namespace_info__
from .common import normalize_axis


def eval(*arrays):  # noqa: A001  (lazyarr.eval, as the design names it)
    """Compute every pending array given, in one flush; returns them."""
    _flush.evaluate([a._node for a in arrays if isinstance(a, Array)], "explicit")
    return arrays[0] if len(arrays) == 1 else arrays


eval.__module__ = "lazyarr"


def report(top: int = 10, *, file=None) -> None:
    """Print the user's lines that caused the most work (flushes by cause, seconds,
    compiles and their reasons, fallbacks, transfers) to `file` (default stdout)."""
    if not isinstance(top, int) or isinstance(top, bool) or top < 1:
        raise ValueError(f"report(top=...) takes a positive number of lines, not {top!r}")
    print(format_report(_flush.stats(), top), file=sys.stdout if file is None else file)

# ----- placement on several devices (see _placement) ------------------------------

def _placed(x, axis, name: str):
    if not isinstance(x, Array):
        raise TypeError(f"lazyarr.{name} takes a lazyarr array, not {type(x).__name__}")
    if axis is not None:
        if isinstance(axis, bool):  # operator.index takes bools; an axis is no bool
            raise TypeError(f"lazyarr.shard: 'axis' must be an integer, not {axis!r}")
        axis = normalize_axis(axis, x.ndim, "lazyarr.shard")
    backend = _backend.current()
    place = getattr(backend, "place", None)
    if place is None:
        return x
    _flush.evaluate([x._node], "explicit")
    buffer = place(x._node.value, axis)
    if buffer is x._node.value:
        return x
    return Array(leaf(buffer, x.shape, x.dtype), x._scalar)


def shard(x, axis: int = 0):
    """`x` split along `axis` over the current backend's devices (overriding the
    placement policy: programs that take it are compiled for that sharding). Computes
    `x`. AxisError for an axis out of range; ValueError when the device count does not
    divide that axis's length. On one device it returns `x`."""
    return _placed(x, axis, "shard")


def replicate(x):
    """`x` held whole on every device of the current backend (overriding the placement
    policy). Computes `x`. On one device it returns `x`."""
    return _placed(x, None, "replicate")


def sharding_of(x):
    """What `x.sharding` reports: the backend's description of where the computed
    buffer lives or will live (a `jax.sharding.Sharding` on the XLA backend), None on a
    backend without devices (the NumPy reference). Computes `x` (XLA chooses the
    sharding of a result when it compiles its program)."""
    _flush.evaluate([x._node], "explicit")
    describe = getattr(_backend.current(), "sharding_of", None)
    return None if describe is None else describe(x._node.value)


# dtypes and scalar types are NumPy's own objects.
NAMES: dict[str, object] = {name: getattr(np, name) for name in (
    "bool_", "complex64", "complex128", "dtype", "float16", "float32", "float64", "int8",
    "int16", "int32", "int64", "intp", "uint8", "uint16", "uint32", "uint64", "e",
    "euler_gamma", "inf", "nan", "newaxis", "pi")}
NAMES.update({
    "bool": np.bool_,  # the Array API spelling
    "result_type": _dtypes.result_type, "can_cast": _dtypes.can_cast,
    "finfo": _dtypes.finfo, "iinfo": _dtypes.iinfo, "isdtype": _dtypes.isdtype,
    "Array": Array, "eval": eval, "devices": devices, "shard": shard, "replicate": replicate, "set_backend": set_backend, "use_backend": use_backend,
    "set_tier": set_tier, "use_tier": use_tier, "set_eager": set_eager, "use_eager": use_eager,
    "BackendFailure": BackendFailure, "count_flushes": _flush.count_flushes,
    "reset_stats": _flush.reset_stats, "stats": _flush.stats, "report": report,
    "set_log": set_log, "explain": explain,
    "__array_api_version__": __array_api_version__,
    "__array_namespace_info__": __array_namespace_info__,
})
