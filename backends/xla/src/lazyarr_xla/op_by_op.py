"""Op-by-op execution: the first tier off the CPU (DESIGN: "Tiered execution").

Where the NumPy interpreter is the tier that starts at once on the CPU, on a GPU or TPU
it would move every value to the host and back. There a program first runs one
primitive at a time, each as a small executable kept by its primitive, operand shapes
and dtypes, attributes and which operands are host scalars: nothing is compiled for the
program as a whole, and every value stays on the device. Such executables are few
(a loop body's primitives), so they are compiled once each and then reused by every
program, whatever its structure, as jax's own eager mode does.

`LAZYARR_TIER=opbyop` forces it on any device, the CPU included (so the tests run it).
"""

from __future__ import annotations

import threading
import time
from typing import Sequence

import jax

from lazyarr.backend_api import (CONTRACT_VERSION, Events, Instruction, Program,
                                 RunResult, frees, op)

from . import memory_cache

CONSTANT = op("constant")


class OpByOp:
    """Runs a program primitive by primitive on its XLA backend's device (a backend as
    the contract describes one, without a compile step of its own)."""
    name = "xla-op-by-op"
    contract_version = CONTRACT_VERSION
    compiles = False
    donates = False

    def __init__(self, backend):
        self._backend = backend
        self.device = backend.device
        # bounded as the backend's program cache (`memory_cache`); an evicted one is
        # compiled again at its next use
        self._executables = memory_cache.ProgramCache(
            size_of=lambda c: memory_cache.code_bytes(c._executable), churned=jax.clear_caches)
        self._lock = threading.Lock()

    def devices(self) -> tuple[str, ...]:
        return self._backend.devices()

    def transfer(self, buffer, device: str):
        return self._backend.transfer(buffer, device)

    def device_of(self, buffer) -> str:
        return self._backend.device_of(buffer)

    def run(self, program, inputs: Sequence, owned: frozenset[int] = frozenset(), *,
            block: bool = True) -> RunResult:
        """Each instruction's cached executable in turn, on the device. With `block` the
        checks are read (the first failed one in program order raises) and the outputs
        are ready when it returns; without, `deferred` reads the checks."""
        start = time.perf_counter()
        events = Events()
        slots = list(inputs)
        reads = []  # the check readers, in program order
        for k, (ins, released) in enumerate(zip(program.instructions, frees(program))):
            if ins.op is CONSTANT:  # the value of the input it stands for: no executable
                slots.append(slots[dict(ins.attrs)["input"]])
                continue
            args = [slots[i] for i in ins.inputs]
            single, executable = self._executable(program, k, ins, args, events)
            ran = executable.run(args, single, block=False)
            slots.append(ran.outputs[0])
            if ran.deferred is not None:
                reads.append(ran.deferred)
            for i in released:  # intermediates after their last use
                slots[i] = None
        results = [slots[i] for i in program.outputs]

        def read_checks() -> None:
            for read in reads:
                read()
        deferred = read_checks if reads else None
        if block:
            if deferred is not None:
                deferred()
                deferred = None
            jax.block_until_ready(results)
        events.run_seconds = time.perf_counter() - start
        return RunResult(results, events, deferred)

    def _executable(self, program, k: int, ins: Instruction, args: list, events: Events):
        """The one-instruction program of instruction `k` (naming its user line) and its
        executable, compiled on first use."""
        n = len(args)
        specs = tuple(program.spec(i) for i in ins.inputs)
        single_ins = (Instruction(ins.op, tuple(range(n)), ins.attrs, ins.shape, ins.dtype),)
        sites = (program.sites[k],) if k < len(program.sites) else ()
        single = Program(specs, single_ins, (n,), (specs, single_ins, (n,)), sites)
        # every operand passed as an array, host scalars too: one executable whichever
        # of them a program holds as host scalars (a whole program packs its scalars
        # into one vector per dtype, to save transfers a single primitive hardly has)
        signature = self._backend.signature(single, ())
        key = (single.key, signature)
        executable = self._executables.get(key)
        if executable is None:
            with self._lock:
                executable = self._executables.get(key)
                if executable is None:
                    executable = self._made(single, signature, events)
        return single, executable

    def _made(self, single: Program, signature, events: Events):
        """The executable from the disk cache (a second process, or the other workers of
        one, compiles nothing: about 1 ms to load against 40-80 ms to compile one
        primitive on the CPU), else compiled now and stored there."""
        found, looked = self._backend.lookup(single, signature, cache=self._executables)
        if found is not None:
            events.extra["op_by_op_disk_hits"] = \
                events.extra.get("op_by_op_disk_hits", 0) + looked.disk_cache_hits
            return found
        found = self._backend.compile(single, signature, cache=self._executables)
        events.extra["op_by_op_compiles"] = events.extra.get("op_by_op_compiles", 0) + 1
        events.extra["op_by_op_compile_seconds"] = \
            events.extra.get("op_by_op_compile_seconds", 0.0) + found.events.compile_seconds
        return found

    def cached(self) -> int:
        """How many single-primitive executables it keeps."""
        return len(self._executables)
