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
from typing import NamedTuple, Sequence

import numpy as np

from lazyarr.backend_api import (CONTRACT_VERSION, OPS, WRITES_IN_PLACE, Events, RunResult,
                                  check_result, frees, last_uses, name_the_line,
                                  operands, written_region)


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
        base = len(slots)
        plan = _plan(program)
        # Each writable owned input's reference count now: one more reference later
        # (a view of it, another slot) means that something else would see the write.
        # A view of a buffer nothing else holds is as writable (np.tensordot's product
        # is a reshape of the one it computed: mlp's `h @ w + b` made a new array).
        held = {} if program.checks else {i: sys.getrefcount(slots[i]) for i in owned
                                          if i < base and (_writable(slots[i])
                                                           or _sole_view(slots[i]))}
        # Owned inputs that other inputs are NumPy views of (the scheduler owns them
        # with their views, see `_sole_owner_inputs`): counted in `held`, so written
        # only once no view is read any more (`pinned`: the views' last reader).
        pinned = _pinned(slots, held, plan.input_last) if held else None
        # Lazy programs report errors as values, as XLA does, not as warnings.
        with np.errstate(all="ignore"):
            for k, (ins, ref, operands, attrs, target, reuse, released, into) in enumerate(plan):
                if into is not None:  # a write computing its values in place (`_plan`)
                    _into_region(slots, plan[k], base, held, pinned, k, program)
                    continue
                args = [slots[i] for i in operands]
                inplace = target is not None and _owns(slots, target, base, held, pinned, k)
                if target is not None and not inplace and _unshared(slots, target, base, held):
                    args = [slots[i] for i in operands]  # (the views it copied: gone)
                    inplace = _owns(slots, target, base, held, pinned, k)
                if inplace:
                    ref = WRITES_IN_PLACE[ins.op]
                value = None
                try:
                    for slot in reuse:
                        # NumPy's temporary elision: `a + b + c` makes one array. Each
                        # dying operand is tried: the first may be a view, or held.
                        if _owns(slots, slot, base, held, pinned, k + 1):
                            value = ref(*args, out=slots[slot])
                            if slot in held:  # an owned input's buffer: the result's now
                                held[len(slots)] = held.pop(slot)
                                slots[slot] = None
                            break
                    if value is None:
                        value = np.asarray(ref(*args, **attrs))
                except (ValueError, IndexError, TypeError, ArithmeticError) as exc:
                    raise name_the_line(exc, program, k)
                dtype = value.dtype  # (check_result's test, inline: it runs per instruction)
                if value.shape != ins.shape or (dtype is not ins.dtype and dtype != ins.dtype):
                    check_result(ins, value, "the numpy backend")
                if inplace and target in held and value is slots[target]:
                    # An owned buffer written in place is the result's now: the next
                    # write into the result goes in place too (the target is read by
                    # nothing after this, see `_plan`)
                    held[len(slots)] = held.pop(target)
                    slots[target] = None
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
            if ins.op is CONSTANT:
                value = ins.op.ref(**dict(ins.attrs))
                lines.append(f"%{base + k} = numpy.{value.dtype}({value.item()!r})")
                continue
            ref = ins.op.ref
            name = f"{getattr(ref, '__module__', None) or 'numpy'}.{ref.__name__}"
            args = [f"%{i}" for i in ins.inputs] + [f"{a}={v!r}" for a, v in ins.attrs]
            lines.append(f"%{base + k} = {name}({', '.join(args)})")
        lines.append("return " + ", ".join(f"%{i}" for i in program.outputs))
        return "\n".join(lines)


def _writable(value) -> bool:
    """A buffer of its own (not a view of another array's) that may be written."""
    # (`base is None` first: each `.flags` builds an object, a microsecond)
    return type(value) is np.ndarray and value.base is None and value.flags.writeable


class _Step(NamedTuple):
    """What running one instruction needs, worked out once per program structure."""
    ins: object
    ref: object            # the op's reference implementation
    operands: tuple        # ins.inputs
    attrs: dict
    target: int | None     # a write's target (operand 0), where it may be written in place
    reuse: tuple           # operand slots an elementwise result may take (elision)
    released: tuple        # intermediates whose last reader this is
    into: tuple | None     # see `_computed_writes`: () for a result the next step makes


class _Plan(tuple):
    """A program's steps, and per input slot the index of its last reader (-1 if none)."""
    input_last: tuple


_plans: dict = {}  # program key -> its steps (the interpreter runs a loop's body often)
MAX_PLANS = 512


def _plan(program) -> tuple:
    """The program's steps, kept by its key: only the reference counts and what the
    buffers are (views, read-only) are looked at while it runs."""
    key = (program.key, program.read_before) if program.read_before else program.key
    plan = _plans.get(key)
    if plan is not None:
        return plan
    base, outputs = len(program.input_specs), set(program.outputs)
    # A slice read past writes into its buffer reads the version the user's code read
    # (`operands`): the writes then go in place (lbm's first write of a step copied its
    # 11.5 MB buffer while the earlier version was still to be read).
    reads = operands(program, read_late=True)
    last = last_uses(program, read_late=True)
    summed = _summed_conversions(program, outputs)
    built = []
    for k, (ins, inputs, released) in enumerate(zip(program.instructions, reads,
                                                    frees(program, read_late=True))):
        if k in summed:  # (see _summed_conversions)
            checked, ref, attrs = summed[k]
            built.append(_Step(checked, ref, inputs, attrs, None, (), released, None))
            continue
        if ins.op is CONSTANT:  # (its value made once: a copy a run)
            built.append(_Step(ins, ins.op.ref(**dict(ins.attrs)).copy, (), {}, None, (),
                               released, None))
            continue
        first = inputs[0] if inputs else None
        # A write may go into its target (operand 0): read by nothing after it, no
        # output, not another operand too (see `_owns` for what is checked at run time).
        target = first if (ins.op in WRITES_IN_PLACE and last.get(first) == k
                           and first not in outputs and inputs.count(first) == 1) else None
        # Every operand read by nothing after it, of the result's shape and dtype: an
        # intermediate, or an input (taken only if owned, see `_owns`). All are tried in
        # turn at run time (the first may be a NumPy view, whose buffer is not its own:
        # gauss's `a[c:, c-1:] - t` then made a new array beside the dying product `t`).
        reuse = ()
        if type(ins.op.ref) is np.ufunc and not ins.attrs:
            reuse = tuple([slot for slot in inputs
                           if last.get(slot) == k and slot not in outputs
                           and inputs.count(slot) == 1
                           and program.spec(slot) == (ins.shape, ins.dtype)])
        built.append(_Step(ins, ins.op.ref, inputs, dict(ins.attrs), target, reuse,
                           released, None))
    _computed_writes(built, program, base, outputs, last)
    plan = _Plan(built)
    plan.input_last = tuple([last.get(i, -1) for i in range(base)])
    if len(_plans) >= MAX_PLANS:
        _plans.clear()
    _plans[key] = plan
    return plan


UPDATE_SLICE, CONSTANT = OPS["update_slice"], OPS["constant"]


def _computed_writes(steps: list, program, base: int, outputs: set, last: dict) -> None:
    """Pairs an elementwise ufunc with the `x[region] = values` write right after it
    that is the only reader of its result: the write computes the ufunc into the region
    of x's buffer (`out=`) when it may write in place, as gauss's `a[c:, c-1:] =
    a[c:, c-1:] - t[:, None] * row` is made without the block-sized temporary NumPy
    writes and then copies. The ufunc's step becomes `into=()` (nothing to run) and
    passes its dying operands on to the write; the write's `into` holds (the ufunc's
    instruction, reference, operands, the operands dying with it). NumPy's ufuncs read
    overlapping operands as they were (`np.subtract(a, b, out=a)`), so reading the
    written region itself is safe; nothing runs between the two steps."""
    for k in range(1, len(steps)):
        write, compute = steps[k], steps[k - 1]
        if write.target is None or write.ins.op is not UPDATE_SLICE:
            continue
        values = write.operands[1]
        ref = compute.ref
        if (values != base + k - 1 or values in outputs or last.get(values) != k
                or write.operands.count(values) != 1 or compute.into is not None
                or type(ref) is not np.ufunc or ref.nout != 1 or compute.attrs
                or compute.ins is not program.instructions[k - 1]):
            continue
        steps[k - 1] = compute._replace(released=(), into=())
        steps[k] = write._replace(
            released=write.released + compute.released,
            into=(compute.ins, ref, compute.operands, compute.released))


def _into_region(slots: list, step, base: int, held: dict, pinned: dict | None, k: int,
                 program) -> None:
    """Runs step `k` of a pair `_computed_writes` made (appending its slot, releasing
    its dead): nothing for the ufunc's own step; for the write, the ufunc into the
    written region of x's buffer where this run may write it in place (`_owns`, with
    the references the ufunc's operands hold instead of the argument list's one: x
    itself, and views of x that die here), else the ufunc's result, written as any
    write."""
    ins, _, operands, attrs, target, _, released, into = step
    if not into:
        slots.append(None)
        return
    computed, ref, computed_operands, dying = into
    args = [slots[i] for i in computed_operands]
    x = slots[target]
    listed = sum([arg is x for arg in args]) + sum([
        1 for i in dying if i >= base and type(slots[i]) is np.ndarray and slots[i].base is x])
    x = None
    owned = _owns(slots, target, base, held, pinned, k, listed)
    try:
        if owned:
            value = slots[target]
            ref(*args, out=written_region(value, slots[operands[2]], computed.shape,
                                          attrs["steps"]))
        else:
            values = np.asarray(ref(*args))
            if values.shape != computed.shape or values.dtype != computed.dtype:
                check_result(computed, values, "the numpy backend")
            args = [slots[operands[0]], values, slots[operands[2]]]
            owned = _owns(slots, target, base, held, pinned, k)
            value = (WRITES_IN_PLACE[ins.op] if owned else ins.op.ref)(*args, **attrs)
    except (ValueError, IndexError, TypeError, ArithmeticError) as exc:
        raise name_the_line(exc, program, k)
    if owned and target in held:  # (as in `run`: the written buffer is the result's)
        held[len(slots)] = held.pop(target)
        slots[target] = None
    slots.append(value)
    for i in released:
        slots[i] = None


REDUCE_SUM, CONVERT = OPS["reduce_sum"], OPS["convert"]


def _identity(x, **attrs):
    return x


def _summed_conversions(program, outputs: set) -> dict:
    """Per instruction index, the (instruction to check the result against, reference,
    attributes) of a sum of integers converted exactly to a wider integer type (a
    count of booleans, `np.sum(x * x + y * y <= 1.0)`), read by nothing but the sum:
    the conversion passes its operand on, and the sum converts as it adds, as NumPy's
    own `np.sum` of booleans does (monte_carlo_pi's 60M booleans: astype then sum
    149 ms, np.add.reduce with the dtype 58 ms). Integer sums are exact in any order,
    so the result is the same."""
    base = len(program.input_specs)
    readers: dict = {}
    for ins in program.instructions:
        for slot in ins.inputs:
            readers[slot] = readers.get(slot, 0) + 1
    steps = {}
    for k, ins in enumerate(program.instructions):
        if ins.op is not REDUCE_SUM:
            continue
        slot = ins.inputs[0]
        j = slot - base
        if j < 0 or slot in outputs or readers.get(slot) != 1:
            continue
        convert = program.instructions[j]
        if convert.op is not CONVERT:
            continue
        source, target = program.spec(convert.inputs[0])[1], convert.dtype
        if not (source.kind == "b" and target.kind in "iu"
                or source.kind == target.kind in "iu" and target.itemsize >= source.itemsize):
            continue
        steps[j] = (convert._replace(dtype=source), _identity, {})
        steps[k] = (ins, _sum_as, {"axes": dict(ins.attrs)["axes"], "dtype": target})
    return steps


def _sum_as(x, axes, dtype):
    return np.add.reduce(x, axis=axes, dtype=dtype)


def _pinned(slots: list, held: dict, input_last: tuple) -> dict | None:
    """Per owned input that other inputs are NumPy views of: the last instruction
    reading such a view (a write into the input's buffer must come after it, see
    `_owns`); None if there is none."""
    pinned = None
    for j, value in enumerate(slots):
        owner = value.base if type(value) is np.ndarray else None
        if owner is None:
            continue
        for i in held:
            if slots[i] is owner:
                if pinned is None:
                    pinned = {}
                pinned[i] = max(pinned.get(i, -1), input_last[j])
    return pinned


def _unshared(slots: list, target: int, base: int, held: dict) -> bool:
    """For a write into `target` (an intermediate or a NumPy view of one, or an owned
    input or what was written in place into one: `held`) that `_owns` turned down:
    whether the only other holders of its buffer are NumPy views in this run's slots,
    at most half its size together; they are copied here, so that the write can go in
    place. lbm's `np.roll(f[:, :, i], 0)` is a view of f's plane, still to be read when
    the plane is written: the write copied all of f (11.5 MB) where NumPy copies a
    plane, 199 times in a run of 100 steps: f came in owned, or as the reshape of
    the bounce-back's scatter. The references expected: to the target, `slots` (an
    owned one's: those it had when the run started, `held`, less getrefcount's then),
    the argument list, `x` here and getrefcount's own, and one per view where the
    target owns its buffer; where it is a view, to its buffer: the target's, `buffer`
    here, getrefcount's and one per view."""
    if target < base and target not in held:
        return False
    x = slots[target]
    if type(x) is not np.ndarray or not x.flags.writeable:
        return False
    refs = sys.getrefcount(x)
    buffer = x if x.base is None else x.base
    if type(buffer) is not np.ndarray or buffer.base is not None \
            or (buffer is not x and target in held):
        return False
    views = [i for i in range(base, len(slots)) if i != target
             and type(slots[i]) is np.ndarray and slots[i].base is buffer]
    count = len({id(slots[i]) for i in views})
    own = held[target] + 2 if target in held else 4
    if buffer is x:
        unshared = refs == own + count
    else:
        unshared = refs == own and sys.getrefcount(buffer) == 3 + count
    if not views or not unshared or 2 * sum([slots[i].size for i in views]) > buffer.size:
        return False
    for i in views:
        slots[i] = slots[i].copy()
    return True


def _sole_view(value) -> bool:
    """A view of a writable buffer that nothing but the view holds (its references:
    the view's, `owner` here and getrefcount's): lbm's bounce-back scatter writes
    `f.reshape(-1, 9)` of the step's new f, and copied all of f."""
    owner = value.base
    return (type(owner) is np.ndarray and owner.base is None and owner.flags.writeable
            and value.flags.writeable and sys.getrefcount(owner) == 3)


def _owns(slots: list, target: int, base: int, held: dict, pinned: dict | None,
          after: int, listed: int = 1) -> bool:
    """Whether a write, or an elementwise result, may go into slot `target`'s buffer
    (an intermediate or an input read by nothing after the instruction, see `_plan`):
    for an intermediate, its own writable buffer, or a view of one nothing else holds,
    with no other reference (a view, another slot); for an input, an owned one with the
    references it had at the start of the run, once the inputs that are views of it are read by nothing from
    instruction `after` on. The references expected now: `slots`, `listed` more (the
    argument list's), `value` here and getrefcount's own; for an owned input, those it
    had at the start plus `listed` and `value`; the same for an intermediate that is an
    owned input written in place (`held` moves to it, see `run`)."""
    value = slots[target]
    if target in held:  # an owned input, or the result of a write in place into one
        if pinned and pinned.get(target, -1) >= after:
            return False
        return sys.getrefcount(value) == held[target] + 1 + listed
    return (target >= base and sys.getrefcount(value) == 3 + listed
            and (_writable(value) or _sole_view(value)))
