"""The NumPy reference backend: runs a program instruction by instruction with each
primitive's reference implementation. It is the semantic oracle of the test suite and
the fallback for what another backend cannot run.

It lives in the core distribution (the core alone is a working lazy NumPy), but it is
a plugin like any other: registered through the core's own `lazyarr.backends` entry
point, and it imports only the public backend API. It has no compile step.
"""

from __future__ import annotations

import sys
import time
from typing import Sequence

import numpy as np

from lazyarr.backend_api import (CONTRACT_VERSION, WRITES_IN_PLACE, Events, RunResult,
                                  check_result, frees, last_uses, name_the_line)


class NumpyBackend:
    name = "numpy"
    contract_version = CONTRACT_VERSION
    compiles = False
    donates = True  # a write into an `owned` input's buffer is made in place
    synchronous = True  # every run has finished when it returns

    def __init__(self, device: str = "cpu"):
        if device != "cpu":
            raise ValueError(f"the numpy backend runs on 'cpu' only, not {device!r}")
        self.device = device

    def devices(self) -> tuple[str, ...]:
        return ("cpu",)

    def transfer(self, buffer, device: str):
        if device != "cpu":
            raise ValueError(f"the numpy backend has only the 'cpu' device, not {device!r}")
        return buffer

    def device_of(self, buffer) -> str:
        return "cpu"

    def run(self, program, inputs: Sequence, owned: frozenset[int] = frozenset(), *,
            block: bool = True) -> RunResult:
        """Each instruction's reference on NumPy arrays. A checked instruction's
        reference raises NumPy's own error (with NumPy's message) mid-program. It always
        finishes before it returns (`block` changes nothing).

        A write (`x[i:j] = v`, a scatter) whose target buffer this run owns (an
        intermediate read by nothing after it, or an `owned` input) is made in place, as
        NumPy makes it: a one-row write costs a row, not a copy of the array. An owned
        input is written only by a program without runtime checks, so a run that fails
        leaves its inputs as they were."""
        start = time.perf_counter()
        slots: list = [np.asarray(x) for x in inputs]
        last_use = last_uses(program)
        base = len(slots)
        outputs = set(program.outputs)
        # Each writable owned input's reference count now: one more reference later
        # (a view of it, another slot) means that something else would see the write.
        held = {} if program.checks else {i: sys.getrefcount(slots[i]) for i in owned
                                          if i < base and _writable(slots[i])}
        # Lazy programs report errors as values, as XLA does, not as warnings.
        with np.errstate(all="ignore"):
            for k, (ins, released) in enumerate(zip(program.instructions, frees(program))):
                args = [slots[i] for i in ins.inputs]
                ref = ins.op.ref
                into = WRITES_IN_PLACE.get(ins.op)
                if into is not None and _owns(slots, ins.inputs, k, base, last_use,
                                              outputs, held):
                    ref = into
                reuse = _dying(slots, ins, k, base, last_use, outputs) \
                    if type(ref) is np.ufunc and not ins.attrs else None
                try:
                    if reuse is not None:  # NumPy's temporary elision: `a + b + c`
                        value = ref(*args, out=slots[reuse])
                    else:
                        value = np.asarray(ref(*args, **dict(ins.attrs)))
                except (ValueError, IndexError, TypeError, ArithmeticError) as exc:
                    raise name_the_line(exc, program, k)
                check_result(ins, value, "the numpy backend")
                slots.append(value)
                value = args = None  # no reference of ours outlives its slot
                for i in released:  # intermediates after their last use
                    slots[i] = None
        return RunResult([slots[i] for i in program.outputs],
                         Events(run_seconds=time.perf_counter() - start))

    def cache_state(self, program, inputs: Sequence) -> str:
        """For `lazyarr.explain`: this backend interprets; it compiles nothing."""
        return "interpreted instruction by instruction with NumPy (nothing is compiled)"

    def lowered_text(self, program, inputs: Sequence) -> str:
        """For `lazyarr.explain(lowered=True)`: the NumPy call of each instruction."""
        base = len(program.input_specs)
        lines = [f"%{i} = input {shape} {dtype}"
                 for i, (shape, dtype) in enumerate(program.input_specs)]
        for k, ins in enumerate(program.instructions):
            ref = ins.op.ref
            name = f"{getattr(ref, '__module__', None) or 'numpy'}.{ref.__name__}"
            args = [f"%{i}" for i in ins.inputs] + [f"{a}={v!r}" for a, v in ins.attrs]
            lines.append(f"%{base + k} = {name}({', '.join(args)})")
        lines.append("return " + ", ".join(f"%{i}" for i in program.outputs))
        return "\n".join(lines)


def _writable(value) -> bool:
    """A buffer of its own (not a view of another array's) that may be written."""
    return type(value) is np.ndarray and value.flags.owndata and value.flags.writeable


def _dying(slots: list, ins, here: int, base: int, last_use: dict, outputs: set):
    """The slot of an operand of elementwise instruction `here` whose buffer may take
    its result, as NumPy reuses a temporary (`a + b + c` makes one array, not two): an
    intermediate read by nothing after it, of the result's shape and dtype, its own
    buffer, and no other reference to it (see `_owns`). None if there is none."""
    for target in ins.inputs:
        if target < base or last_use.get(target) != here or target in outputs:
            continue
        value = slots[target]
        if (type(value) is np.ndarray and value.shape == ins.shape
                and value.dtype == ins.dtype and ins.inputs.count(target) == 1
                and _writable(value) and sys.getrefcount(value) == 4):
            return target
    return None


def _owns(slots: list, operands: tuple, here: int, base: int, last_use: dict,
          outputs: set, held: dict) -> bool:
    """Whether instruction `here` may write into its first operand's buffer:
    nothing reads that slot after it (it is no output, and no other operand of this
    instruction), it is an intermediate or an owned input, and no other array (a view,
    another slot) refers to it. The references expected now: `slots`, the argument
    list, `value` here and getrefcount's own; for an owned input, those it had at the
    start of the run plus the argument list and `value`."""
    target = operands[0]
    if last_use.get(target) != here or target in outputs or operands.count(target) != 1:
        return False
    value = slots[target]
    if target < base:
        return target in held and sys.getrefcount(value) == held[target] + 2
    return _writable(value) and sys.getrefcount(value) == 4
