"""The XLA backend: each flush is one program, compiled once per structure through
jax's public API (`jax.jit(...).lower(...).compile()`) and run on CPU, GPU or TPU.

64-bit types are enabled only inside lazyarr's own tracing, compiling and calls (a
scoped `jax.enable_x64`), so the user's jax configuration is untouched.

Compiled programs are cached twice: in memory for this process, and on disk (see
`disk_cache`) for the next one. Both are keyed by the program's structure only.
"""

from __future__ import annotations

import time
from typing import Sequence

import numpy as np

import jax

from ... import _flush
from ..._errors import BackendFailure
from . import disk_cache
from .lowering import convert, lower


def _device(spec: str | None):
    """The jax device named by `spec`: "cpu", "gpu", "tpu", optionally ":index"."""
    if spec in (None, "", "default"):
        return jax.devices()[0]
    platform, _, index = str(spec).partition(":")
    try:
        devices = jax.devices(platform)
    except RuntimeError as exc:
        raise ValueError(f"lazyarr's xla backend has no {platform!r} device here: {exc}") from None
    position = int(index) if index else 0
    if position >= len(devices):
        raise ValueError(f"no device {spec!r}: {platform} has {len(devices)} device(s)")
    return devices[position]


def device_name(device) -> str:
    """A device as lazyarr names it: "cpu" as NumPy does, else "gpu:0", "tpu:1", ..."""
    return "cpu" if device.platform == "cpu" and device.id == 0 else f"{device.platform}:{device.id}"


class XlaBackend:
    name = "xla"

    def __init__(self, device: str | None = None):
        self.jax_device = _device(device)
        self.device = device_name(self.jax_device)
        self._placement = jax.sharding.SingleDeviceSharding(self.jax_device)
        self._compiled: dict[tuple, tuple] = {}

    def run(self, program, inputs: Sequence) -> list:
        with jax.enable_x64(True):
            executable, checks = self._executable(program)
            args = [self._placed(x) for x in inputs]
            try:
                results = executable(*args)
            except Exception as exc:  # e.g. out of memory while running
                raise BackendFailure.from_program("XLA could not run", program, exc) from exc
            n_out = len(program.outputs)
            if checks:
                for hit, (exc_type, message) in zip(np.asarray(results[n_out:]), checks):
                    if hit:
                        raise exc_type(message)
            return list(results[:n_out])

    def transfer(self, buffer, device: str):
        """`buffer` placed on `device` (a name as `device_name` gives)."""
        with jax.enable_x64(True):
            return jax.device_put(buffer, _device(device))

    def device_of(self, buffer) -> str:
        return device_name(buffer.device) if isinstance(buffer, jax.Array) else "cpu"

    def _placed(self, x):
        if isinstance(x, jax.Array):
            return x if x.device == self.jax_device else jax.device_put(x, self._placement)
        return np.asarray(x)

    def _executable(self, program):
        """The compiled program and its checks: from memory, from disk, or compiled now."""
        events = _flush.STATS.backend_events
        entry = self._compiled.get(program.key)
        if entry is not None:
            events["memory_cache_hits"] += 1
            return entry
        events["memory_cache_misses"] += 1
        name = disk_cache.entry_name(program.key, self.jax_device)
        entry = disk_cache.load(name, self.jax_device) if name else None
        if entry is not None:
            events["disk_cache_hits"] += 1
        else:
            events["disk_cache_misses"] += 1
            entry = self._compile(program)
            if name:
                disk_cache.store(name, *entry)
        self._compiled[program.key] = entry
        return entry

    def _compile(self, program):
        checks_info: list = []
        failed_at: list = []

        def fn(*inputs):
            slots = list(inputs)
            checks: list = []
            for ins in program.instructions:
                args = [slots[i] for i in ins.inputs]
                failed_at[:] = [ins]
                value = lower(ins.op.name, args, dict(ins.attrs), checks)
                if value.dtype != ins.dtype:
                    value = convert(value, ins.dtype)
                slots.append(value)
            failed_at.clear()
            checks_info[:] = [(exc, msg) for _, exc, msg in checks]
            return tuple(slots[i] for i in program.outputs) + tuple(f for f, _, _ in checks)

        # The program runs where its inputs are placed: on this backend's device.
        specs = [jax.ShapeDtypeStruct(shape, dtype, sharding=self._placement)
                 for shape, dtype in program.input_specs]
        start = time.perf_counter()
        try:
            executable = jax.jit(fn).lower(*specs).compile()
        except Exception as exc:
            raise BackendFailure.from_program("XLA could not compile", program, exc,
                                              failed_at[0] if failed_at else None) from exc
        events = _flush.STATS.backend_events
        events["compiles"] += 1
        events["compile_seconds"] += time.perf_counter() - start
        return executable, checks_info
