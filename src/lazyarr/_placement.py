"""Placement on several devices, as the user sees it: `lazyarr.devices()`,
`lazyarr.shard`, `lazyarr.replicate`, `x.sharding`, and the host read every backend
buffer goes through.

The placement itself is the backend's (the XLA backend splits arrays over a
`jax.sharding.Mesh`, see docs/multi-device.md); a backend without a device mesh (the
NumPy reference) has one device, where `shard` and `replicate` only check their
arguments and return the array. This module imports no backend.
"""

from __future__ import annotations

import numpy as np

from . import _backend


def devices() -> tuple[str, ...]:
    """The devices the current backend's programs run on ("cpu", or "cpu:0".."cpu:3"
    on a mesh of four)."""
    backend = _backend.current()
    in_use = getattr(backend, "devices_in_use", None)
    return tuple(in_use()) if in_use is not None else (backend.device,)


def host_array(value) -> np.ndarray:
    """A computed buffer as a host NumPy array: the same global value on every process
    of a multi-process run (the backend gathers a sharded buffer first)."""
    if type(value) is np.ndarray:
        return value
    to_host = getattr(_backend.current(), "to_host", None)
    return to_host(value) if to_host is not None else np.asarray(value)


def _placed(x, axis, name: str):
    from ._array import Array
    from ._flush import evaluate
    from ._graph import leaf
    if not isinstance(x, Array):
        raise TypeError(f"lazyarr.{name} takes a lazyarr array, not {type(x).__name__}")
    if axis is not None:
        if isinstance(axis, bool) or not isinstance(axis, (int, np.integer)):
            raise TypeError(f"lazyarr.shard: axis must be an integer, not {axis!r}")
        if not -x.ndim <= axis < x.ndim:
            raise np.exceptions.AxisError(int(axis), x.ndim)
        axis = int(axis) % x.ndim
    backend = _backend.current()
    place = getattr(backend, "place", None)
    if place is None:
        return x
    evaluate([x._node], "explicit")
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
    backend without devices (the NumPy reference). Computes `x` (XLA chooses the sharding of a result when it compiles its program)."""
    from ._flush import evaluate
    evaluate([x._node], "explicit")
    describe = getattr(_backend.current(), "sharding_of", None)
    return None if describe is None else describe(x._node.value)
