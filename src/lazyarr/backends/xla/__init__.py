"""The XLA backend: each flush is one program, compiled once per structure through
jax's public API (`jax.jit(...).lower(...).compile()`) and run on CPU, GPU or TPU.

64-bit types are enabled only inside lazyarr's own tracing, compiling and calls (a
scoped `jax.enable_x64`), so the user's jax configuration is untouched.
"""

from __future__ import annotations

import time
from typing import Sequence

import numpy as np

import jax

from ... import _flush
from .lowering import convert, lower


class XlaBackend:
    name = "xla"

    def __init__(self, device: str | None = None):
        platform = None if device in (None, "", "default") else device
        self.device = jax.devices(platform)[0]
        self._compiled: dict[tuple, tuple] = {}

    def run(self, program, inputs: Sequence) -> list:
        with jax.enable_x64(True):
            entry = self._compiled.get(program.key)
            if entry is None:
                _flush.STATS.backend_events["cache_misses"] += 1
                entry = self._compile(program)
                self._compiled[program.key] = entry
            else:
                _flush.STATS.backend_events["cache_hits"] += 1
            executable, checks = entry
            args = [x if isinstance(x, jax.Array) else np.asarray(x) for x in inputs]
            results = executable(*args)
            n_out = len(program.outputs)
            flags = results[n_out:]
            if flags:
                raised = np.asarray(flags)
                for hit, (exc_type, message) in zip(raised, checks):
                    if hit:
                        raise exc_type(message)
            return list(results[:n_out])

    def _compile(self, program):
        checks_info: list = []

        def fn(*inputs):
            slots = list(inputs)
            checks: list = []
            for ins in program.instructions:
                args = [slots[i] for i in ins.inputs]
                value = lower(ins.op.name, args, dict(ins.attrs), checks)
                if value.dtype != ins.dtype:
                    value = convert(value, ins.dtype)
                slots.append(value)
            checks_info[:] = [(exc, msg) for _, exc, msg in checks]
            return tuple(slots[i] for i in program.outputs) + tuple(f for f, _, _ in checks)

        # The program runs where its inputs are placed: on this backend's device.
        placement = jax.sharding.SingleDeviceSharding(self.device)
        specs = [jax.ShapeDtypeStruct(shape, dtype, sharding=placement)
                 for shape, dtype in program.input_specs]
        start = time.perf_counter()
        executable = jax.jit(fn).lower(*specs).compile()
        _flush.STATS.backend_events["compiles"] += 1
        _flush.STATS.backend_events["compile_seconds"] += time.perf_counter() - start
        return executable, checks_info
