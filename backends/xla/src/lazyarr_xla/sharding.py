"""Placement over several devices: a one-axis `jax.sharding.Mesh` and the policy that
decides each program input's `NamedSharding`.

lazyarr moves no data itself. Inputs are placed with `jax.device_put` (or, across
processes, `jax.make_array_from_callback`), programs are compiled with those input
shardings, and XLA's SPMD partitioner decides the rest (the outputs' shardings and the
collectives between devices). The policy: an array of at least `min_bytes` is split
along its largest axis whose length the device count divides; every other array (and
every host scalar) is replicated. A buffer that already lives on the mesh keeps its
sharding (that is how `lazyarr.shard` / `lazyarr.replicate` override the policy, and
how XLA's choice for one program's output carries into the next).

A sharding is described in signatures by a "spec": a tuple with, per array axis, the
mesh axis name it is split over or None, trailing Nones dropped (`()` is replicated).
Specs are plain data, so they can be part of the (disk) program cache key.
"""

from __future__ import annotations

import os
import re
from typing import Sequence

import numpy as np

import jax
from jax.sharding import Mesh, NamedSharding, PartitionSpec

from lazyarr.backend_api import BackendFailure, BackendMemoryError, out_of_memory

from . import peers

AXIS = "devices"  # the mesh's one axis
# Arrays smaller than this stay replicated: splitting them costs more in collectives
# than it saves. LAZYARR_SHARD_MIN_BYTES overrides it (the tests use 0).
DEFAULT_MIN_BYTES = 1 << 20

Spec = tuple


def min_bytes_from_environment() -> int:
    text = os.environ.get("LAZYARR_SHARD_MIN_BYTES", "").strip()
    if not text:
        return DEFAULT_MIN_BYTES
    try:
        value = int(text)
    except ValueError:
        raise ValueError(f"LAZYARR_SHARD_MIN_BYTES must be a number of bytes, not {text!r}") \
            from None
    if value < 0:
        raise ValueError(f"LAZYARR_SHARD_MIN_BYTES must be >= 0, not {value}")
    return value


def _available(platform: str) -> str:
    found = {}
    for backend in ("cpu", "gpu", "tpu"):
        try:
            found[backend] = len(jax.devices(backend))
        except RuntimeError:
            pass
    return ", ".join(f"{n} {p}" for p, n in found.items()) or "none"


def resolve(platform: str | None, devices) -> list:
    """The jax devices that `devices` names on `platform` (None: jax's default):
    "all", a count, or a sequence of lazyarr device names ("cpu:1", "gpu:0") or ids.
    ValueError naming what is available for a platform that is absent or too few."""
    platform = platform or jax.default_backend()
    try:
        present = jax.devices(platform)  # every process's devices after distributed init
    except RuntimeError:
        raise ValueError(f"lazyarr's xla backend has no {platform!r} devices here; "
                         f"available: {_available(platform)}") from None
    if isinstance(devices, str):
        if devices != "all":
            raise ValueError(f"devices must be 'all', a count or a list of devices, "
                             f"not {devices!r}")
        return list(present)
    if isinstance(devices, (int, np.integer)) and not isinstance(devices, bool):
        count = int(devices)
        if not 1 <= count <= len(present):
            raise ValueError(f"lazyarr's xla backend cannot use {count} {platform} device(s): "
                             f"{len(present)} available ({_available(platform)})")
        return list(present[:count])
    if isinstance(devices, (list, tuple)) and devices:
        by_id = {d.id: d for d in present}
        chosen = []
        for item in devices:
            if isinstance(item, str):
                name, _, index = item.partition(":")
                if name != platform:
                    raise ValueError(f"device {item!r} is not a {platform} device; the mesh "
                                     f"takes devices of one platform")
                item = int(index or 0)
            if not isinstance(item, (int, np.integer)) or int(item) not in by_id:
                raise ValueError(f"no {platform} device {item!r}: available ids "
                                 f"{sorted(by_id)} ({_available(platform)})")
            chosen.append(by_id[int(item)])
        if len({d.id for d in chosen}) != len(chosen):
            raise ValueError(f"devices {list(devices)!r} names a device twice")
        return chosen
    raise ValueError(f"devices must be 'all', a count or a non-empty list of devices, "
                     f"not {devices!r}")


def parse_env_device(text: str) -> tuple[str | None, object]:
    """`cpu*4` -> ("cpu", 4), `gpu*` -> ("gpu", "all"), `cpu` -> ("cpu", None)."""
    match = re.fullmatch(r"([a-z]*)(?::(\d+))?\*(\d*|all)", text)
    if match is None:
        return text, None
    platform, _, count = match.groups()
    return platform or None, ("all" if count in ("", "all") else int(count))


class Placement:
    """The mesh over `devices` and the placement policy for its arrays."""

    def __init__(self, devices: Sequence, min_bytes: int):
        self.devices = tuple(devices)
        self.count = len(self.devices)
        self.mesh = Mesh(np.array(self.devices, dtype=object), (AXIS,))
        self.min_bytes = min_bytes
        self.platform = self.devices[0].platform
        self.name = f"{self.platform}*{self.count}"
        self.multiprocess = jax.process_count() > 1
        self.replicated = NamedSharding(self.mesh, PartitionSpec())
        # Part of each signature: the same program on another mesh is another executable.
        self.identity = (self.platform, tuple(d.id for d in self.devices))

    def sharding(self, spec: Spec) -> NamedSharding:
        return NamedSharding(self.mesh, PartitionSpec(*spec))

    def policy(self, shape: tuple, dtype) -> Spec:
        """The spec the policy gives a new array: split along its largest axis that the
        device count divides (the first such axis on a tie) when it is large enough."""
        size = int(np.prod(shape, dtype=np.int64)) * np.dtype(dtype).itemsize
        if not shape or size == 0 or size < self.min_bytes:
            return ()  # an empty array is replicated: jax cannot gather empty shards
        best = None
        for axis, length in enumerate(shape):
            if length >= self.count and length % self.count == 0:
                if best is None or length > shape[best]:
                    best = axis
        return () if best is None else self.axis_spec(best)

    def axis_spec(self, axis: int) -> Spec:
        return (None,) * axis + (AXIS,)

    def spec_of(self, buffer, shape: tuple) -> Spec | None:
        """The spec of a buffer already on this mesh (None if it is elsewhere, or split
        in a way that cannot be an input sharding)."""
        sharding = getattr(buffer, "sharding", None)
        if not isinstance(sharding, NamedSharding) or sharding.mesh != self.mesh:
            return None
        spec = list(sharding.spec)
        while spec and spec[-1] is None:
            spec.pop()
        for axis, entry in enumerate(spec):
            if entry is not None:
                names = entry if isinstance(entry, tuple) else (entry,)
                parts = int(np.prod([self.mesh.shape[n] for n in names]))
                if axis >= len(shape) or shape[axis] % parts:
                    return None
        return tuple(tuple(e) if isinstance(e, list) else e for e in spec)

    def input_spec(self, buffer, shape: tuple, dtype) -> Spec:
        spec = self.spec_of(buffer, shape) if isinstance(buffer, jax.Array) else None
        return self.policy(shape, dtype) if spec is None else spec

    def place(self, value, spec: Spec):
        """`value` (a NumPy array or a jax array) with sharding `spec` on the mesh. A jax
        array is moved by jax (`device_put`); host data is copied in, per device only the
        part it holds when processes share the mesh (every process has the same host
        value: the script runs SPMD)."""
        sharding = self.sharding(spec)
        if isinstance(value, jax.Array):
            if value.sharding == sharding:
                return value
            if self.multiprocess and not value.is_fully_addressable:
                return reshard(value, sharding)
            if self.multiprocess:
                value = np.asarray(value)
            else:
                return jax.device_put(value, sharding)
        host = np.asarray(value)
        if self.multiprocess:
            return jax.make_array_from_callback(host.shape, sharding, lambda index: host[index])
        return jax.device_put(host, sharding)


def _identity(x):
    return x


def reshard(value, sharding):
    """`value` with `sharding`, moved by an XLA program (jit with out_shardings): the way
    to move a global array that this process does not hold whole."""
    with jax.enable_x64(True):
        return jax.jit(_identity, out_shardings=sharding)(value)


def host_value(value, placement: Placement | None) -> np.ndarray:
    """`value` as a host NumPy array on every process: a global array that spans other
    processes' devices is first replicated by XLA (an all-gather), then read locally.
    A program that failed after it was dispatched (XLA out of memory, a failed peer)
    raises here, as BackendMemoryError, PeerFailure or BackendFailure: its buffer is
    waited for before it is read (reading a failed buffer aborts the process)."""
    if not isinstance(value, jax.Array):
        return np.asarray(value)
    if value.size == 0:
        return np.zeros(value.shape, value.dtype)  # jax cannot gather empty shards
    devices = value.sharding.device_set
    try:
        if not value.is_fully_addressable and not value.is_fully_replicated:
            peers.check(devices)
            mesh = getattr(value.sharding, "mesh", None)
            target = (placement.replicated if placement is not None
                      else NamedSharding(mesh, PartitionSpec()))
            value = reshard(value, target)
        if not value.is_fully_addressable:
            value = value.addressable_data(0)
        value.block_until_ready()
    except Exception as exc:  # noqa: BLE001  (a failed computation of the value)
        raise _read_failure(exc, devices) from exc
    return np.asarray(value)


def _read_failure(exc: BaseException, devices) -> BaseException:
    if isinstance(exc, BackendFailure):
        return exc
    failure = peers.translate(exc, devices, "a host read")
    if failure is not exc:
        return failure
    text = (str(exc).strip().splitlines() or [""])[0][:500]
    message = f"XLA could not compute the array being read: {type(exc).__name__}: {text}"
    return (BackendMemoryError if out_of_memory(exc) else BackendFailure)(message)


COLLECTIVES = ("all-reduce", "all-gather", "all-to-all", "collective-permute",
               "reduce-scatter", "collective-broadcast")
_SHAPE = re.compile(r"\b(pred|s8|s16|s32|s64|u8|u16|u32|u64|f16|bf16|f32|f64|c64|c128)"
                    r"\[([0-9,]*)\]")
_BYTES = {"pred": 1, "s8": 1, "u8": 1, "s16": 2, "u16": 2, "f16": 2, "bf16": 2, "s32": 4,
          "u32": 4, "f32": 4, "s64": 8, "u64": 8, "f64": 8, "c64": 8, "c128": 16}


def collective_bytes(hlo_text: str) -> dict[str, int]:
    """Per kind of collective in a compiled (partitioned) HLO module's text, the bytes
    of the results it produces per device: what XLA moves between devices per run
    (a lower bound for loops, counted once). Async pairs count once (at their -done)."""
    moved: dict[str, int] = {}
    for line in hlo_text.splitlines():
        if "=" not in line:
            continue
        rhs = line.split("=", 1)[1]
        for kind in COLLECTIVES:
            if re.search(rf"\s{kind}(-done)?\(", rhs) and f"{kind}-start(" not in rhs:
                head = rhs.split(kind, 1)[0]
                total = 0
                for dtype, dims in _SHAPE.findall(head):
                    count = int(np.prod([int(d) for d in dims.split(",") if d] or [1]))
                    total += count * _BYTES[dtype]
                moved[kind] = moved.get(kind, 0) + total
                break
    return moved
