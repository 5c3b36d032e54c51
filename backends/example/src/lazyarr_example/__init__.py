"""A minimal lazyarr backend, written against the public contract alone
(`lazyarr.backend_api`), as a third party would write one: the proof that the contract
is enough. CI runs a slice of the differential suite on it.

It "compiles" a program into a plan (per instruction: the primitive's NumPy reference,
its operand slots, its attributes, and the slots it frees), kept in memory by the
program's key, and runs the plan op by op, counting what it runs. Runtime checks follow
the contract literally: a checked instruction whose reference raises its check's error
is recorded, the program runs to the end, and the first failed check in program order
is raised with the program's message.
"""

from __future__ import annotations

import threading
import time
from typing import NamedTuple, Sequence

import numpy as np

from lazyarr.backend_api import (CONTRACT_VERSION, Events, Lookup, RunResult, check_result,
                                  frees)

__all__ = ["ExampleBackend", "Plan"]


class Step(NamedTuple):
    instruction: object
    fn: object
    inputs: tuple[int, ...]
    attrs: dict
    frees: tuple[int, ...]  # intermediates whose last use this is
    checks: tuple           # the instruction's `Check`s


class Plan:
    """A program made ready to run (the contract's `Compiled`)."""

    def __init__(self, program, signature, backend: "ExampleBackend"):
        self.program_key = program.key
        self.signature = signature
        self.events = Events(compiles=1)
        self._program = program
        self._backend = backend
        self._steps = [Step(ins, ins.op.ref, ins.inputs, dict(ins.attrs), released,
                            program.checks_of(k))
                       for k, (ins, released) in enumerate(zip(program.instructions,
                                                               frees(program)))]
        self._operations = program.operations()  # (its constants are not counted)

    def run(self, inputs: Sequence, program=None, *, block: bool = True) -> RunResult:
        """Step by step on the host: it has finished when it returns (`block` is moot)."""
        start = time.perf_counter()
        slots: list = [np.asarray(x) for x in inputs]
        failed = None
        with np.errstate(all="ignore"):
            for step in self._steps:
                ins = step.instruction
                try:
                    value = np.asarray(step.fn(*[slots[i] for i in step.inputs], **step.attrs))
                except Exception as exc:
                    check = next((c for c in step.checks if isinstance(exc, c.error)), None)
                    if check is None:
                        raise
                    # As a compiled backend does: note it, finish the program, raise it last.
                    failed = failed or check
                    value = np.zeros(ins.shape, ins.dtype)
                check_result(ins, value, "the example backend")
                slots.append(value)
                for i in step.frees:
                    slots[i] = None
        self._backend.count(self._operations)
        if failed is not None:
            raise failed.error(failed.message)
        outputs = [slots[i] for i in self._program.outputs]
        return RunResult(outputs, Events(run_seconds=time.perf_counter() - start,
                                         extra={"example_instructions": self._operations}))


class ExampleBackend:
    name = "example"
    contract_version = CONTRACT_VERSION
    compiles = True
    donates = False

    def __init__(self, device: str = "cpu"):
        if device != "cpu":
            raise ValueError(f"the example backend runs on 'cpu' only, not {device!r}")
        self.device = device
        self.instructions_run = 0  # the counter: operations run by every plan
        self._plans: dict[tuple, Plan] = {}
        self._lock = threading.Lock()

    def count(self, n: int) -> None:
        with self._lock:
            self.instructions_run += n

    def devices(self) -> tuple[str, ...]:
        return ("cpu",)

    def transfer(self, buffer, device: str):
        if device != "cpu":
            raise ValueError(f"the example backend has only the 'cpu' device, not {device!r}")
        return buffer

    def device_of(self, buffer) -> str:
        return "cpu"

    def signature(self, program, inputs: Sequence, owned: frozenset[int] = frozenset()):
        return ()  # a plan depends on the program alone

    def lookup(self, program, signature, disk: bool = True) -> Lookup:
        plan = self._plans.get((program.key, signature))
        if plan is not None:
            return Lookup(plan, Events(memory_cache_hits=1))
        return Lookup(None, Events(memory_cache_misses=1))

    def compile(self, program, signature) -> Plan:
        """Thread-safe: a plan made twice at once is made twice, and one of them kept."""
        start = time.perf_counter()
        plan = Plan(program, signature, self)
        plan.events.compile_seconds = time.perf_counter() - start
        with self._lock:
            return self._plans.setdefault((program.key, signature), plan)

    def run(self, program, inputs: Sequence, owned: frozenset[int] = frozenset(), *,
            block: bool = True) -> RunResult:
        signature = self.signature(program, inputs, owned)
        plan, events = self.lookup(program, signature)
        if plan is None:
            plan = self.compile(program, signature)
            events.add(plan.events)
        ran = plan.run(inputs)
        return RunResult(ran.outputs, events.add(ran.events))
