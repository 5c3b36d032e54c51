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
from .lowering import convert, lower, prepare


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


class Packing:
    """How a program's inputs are passed: arrays one by one, and host scalars (the
    Python and NumPy scalars of an expression, 0-d runtime inputs) packed into one
    vector per dtype, since each argument of an XLA call costs a transfer."""

    def __init__(self, inputs: Sequence):
        self.arrays: list[int] = []
        groups: dict[np.dtype, list[int]] = {}
        for i, x in enumerate(inputs):
            if type(x) is np.ndarray and x.ndim == 0:
                groups.setdefault(x.dtype, []).append(i)
            else:
                self.arrays.append(i)
        self.scalars: list[tuple[np.dtype, list[int]]] = list(groups.items())

    @staticmethod
    def signature(inputs: Sequence) -> tuple:
        """Which inputs are host scalars: part of the compiled program's identity."""
        return tuple(i for i, x in enumerate(inputs) if type(x) is np.ndarray and x.ndim == 0)

    def pack(self, inputs: Sequence, placed) -> list:
        return ([placed(inputs[i]) for i in self.arrays] +
                [np.array([inputs[i] for i in group], dtype) for dtype, group in self.scalars])

    def unpack(self, args: Sequence, n_inputs: int) -> list:
        slots = [None] * n_inputs
        for i, value in zip(self.arrays, args):
            slots[i] = value
        for (_, group), vector in zip(self.scalars, args[len(self.arrays):]):
            for k, i in enumerate(group):
                slots[i] = vector[k]
        return slots

    def specs(self, input_specs, placement) -> list:
        return ([jax.ShapeDtypeStruct(*input_specs[i], sharding=placement) for i in self.arrays] +
                [jax.ShapeDtypeStruct((len(group),), dtype, sharding=placement)
                 for dtype, group in self.scalars])


def _reusable(program, inputs: Sequence, owned: frozenset[int]) -> tuple[int, ...]:
    """The owned device buffers worth donating: each to an output of its shape and
    dtype (XLA reuses a donated buffer only for such an output)."""
    if not owned:
        return ()
    wanted: dict[tuple, int] = {}
    for slot in program.outputs:
        ins = program.instructions[slot - len(program.input_specs)]
        wanted[(ins.shape, ins.dtype)] = wanted.get((ins.shape, ins.dtype), 0) + 1
    donated = []
    for i in sorted(owned):
        spec = program.input_specs[i]
        if isinstance(inputs[i], jax.Array) and wanted.get(spec, 0) > 0:
            wanted[spec] -= 1
            donated.append(i)
    return tuple(donated)


def _traceable(program, packing: Packing, checks_info: list, failed_at: list):
    """The jax function computing `program` from its packed inputs: its results, then
    one flag per runtime check (whose exception and message go to `checks_info`).
    While it is traced, `failed_at` holds the instruction being lowered."""
    n_inputs = len(program.input_specs)

    def fn(*args):
        slots = packing.unpack(args, n_inputs)
        checks: list = []
        for ins in program.instructions:
            failed_at[:] = [ins]
            value = lower(ins.op.name, [slots[i] for i in ins.inputs], dict(ins.attrs),
                          checks)
            if value.dtype != ins.dtype:
                value = convert(value, ins.dtype)
            slots.append(value)
        failed_at.clear()
        checks_info[:] = [(exc, msg) for _, exc, msg in checks]
        return tuple(slots[i] for i in program.outputs) + tuple(f for f, _, _ in checks)
    return fn


class XlaBackend:
    name = "xla"
    donates = True

    def __init__(self, device: str | None = None):
        self.jax_device = _device(device)
        self.device = device_name(self.jax_device)
        self._placement = jax.sharding.SingleDeviceSharding(self.jax_device)
        self._compiled: dict[tuple, tuple] = {}
        # XLA's CPU runtime runs with the FTZ/DAZ flags set and offers no switch: it
        # reads subnormal inputs as zero and writes zero for subnormal results.
        self.flushes_subnormals = self.jax_device.platform == "cpu"

    def run(self, program, inputs: Sequence, owned: frozenset[int] = frozenset()) -> list:
        with jax.enable_x64(True):
            donated = _reusable(program, inputs, owned)
            _flush.STATS.backend_events["donated_buffers"] += len(donated)
            executable, packing, checks = self._executable(program, inputs, donated)
            try:
                results = executable(*packing.pack(inputs, self._placed))
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

    def _executable(self, program, inputs, donated: tuple[int, ...]):
        """The compiled program, its input packing and its checks: from memory, from
        disk, or compiled now."""
        events = _flush.STATS.backend_events
        key = (program.key, Packing.signature(inputs), donated)
        entry = self._compiled.get(key)
        if entry is not None:
            events["memory_cache_hits"] += 1
            return entry
        events["memory_cache_misses"] += 1
        name = disk_cache.entry_name(key, self.jax_device)
        entry = disk_cache.load(name, self.jax_device) if name else None
        if entry is not None:
            events["disk_cache_hits"] += 1
            prepare(program)
        else:
            events["disk_cache_misses"] += 1
            entry = self._compile(program, Packing(inputs), donated)
            if name:
                disk_cache.store(name, entry)
        self._compiled[key] = entry
        return entry

    def cache_state(self, program, inputs: Sequence) -> str:
        """For `lazyarr.explain`: whether the program is compiled, in memory or on disk."""
        signature = Packing.signature(inputs)
        if any(key[:2] == (program.key, signature) for key in self._compiled):
            return "compiled, in the memory cache: the flush runs it at once"
        name = disk_cache.entry_name((program.key, signature, ()), self.jax_device)
        root = disk_cache.directory()
        if name and root is not None and (root / name).exists():
            return f"compiled, in the disk cache ({root}): the flush loads it"
        return "not compiled yet: the flush compiles it with XLA, then runs it"

    def lowered_text(self, program, inputs: Sequence) -> str:
        """For `lazyarr.explain(lowered=True)`: the program as StableHLO text."""
        with jax.enable_x64(True):
            packing = Packing(inputs)
            fn = _traceable(program, packing, [], [])
            return jax.jit(fn).lower(*packing.specs(program.input_specs,
                                                    self._placement)).as_text()

    def _compile(self, program, packing: Packing, donated: tuple[int, ...]):
        checks_info: list = []
        failed_at: list = []
        fn = _traceable(program, packing, checks_info, failed_at)
        start = time.perf_counter()
        try:
            specs = packing.specs(program.input_specs, self._placement)
            donate = tuple(packing.arrays.index(i) for i in donated)
            executable = jax.jit(fn, donate_argnums=donate).lower(*specs).compile()
        except Exception as exc:
            raise BackendFailure.from_program("XLA could not compile", program, exc,
                                              failed_at[0] if failed_at else None) from exc
        events = _flush.STATS.backend_events
        events["compiles"] += 1
        events["compile_seconds"] += time.perf_counter() - start
        return executable, packing, checks_info
