"""Placement on several devices: `lazyarr.devices()` and the host read every backend
buffer goes through (`lazyarr.shard`, `lazyarr.replicate` and `x.sharding`, which
build arrays, are in `_api/namespace.py`, above the Array handle).

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
