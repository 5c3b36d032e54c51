"""lazyarr's public backend API: everything a backend may import from the core.

A backend is a plugin (an entry point in the group `lazyarr.backends`) that runs
`Program`s. It imports this module and nothing else of lazyarr: the program format
(`Program`, `Instruction`, `Check`), the primitives (`Op`, `op`, `OPS`, `UFUNCS`), the
exceptions it may raise (`BackendFailure`, `BackendMemoryError` for a failed allocation,
`PeerFailure` for a failed process of a multi-process run, `LinAlgError`), the events it reports back
(`Events`, `RunResult`, `Lookup`), the protocols it implements (`Backend`,
`CompilingBackend`, `Compiled`) and the contract version it declares.
docs/writing-a-backend.md is the guide.
"""

from __future__ import annotations

import functools
import os
from typing import Any, Hashable, NamedTuple, Protocol, Sequence, runtime_checkable

import numpy as np

from ._errors import BackendFailure, BackendMemoryError, PeerFailure, out_of_memory
from ._ops import OPS, UFUNCS, Op, size_of
from ._ops_fft import fft_length
from ._ops_linalg import LinAlgError, pack
from ._ops_mutation import IN_PLACE, span, written_region

# (major, minor). A backend declares the version it implements as `contract_version`;
# the core loads it when the majors agree and the backend's minor is at most the core's
# (minor versions only add optional parts).
# 1.1 added asynchronous runs: `block=False` and `RunResult.deferred`.
CONTRACT_VERSION = (1, 1)

__all__ = ["CONTRACT_VERSION", "Backend", "BackendFailure", "BackendMemoryError", "Check",
           "Compiled", "CompilingBackend", "Events", "Instruction", "LinAlgError", "Lookup",
           "OPS", "Op", "PeerFailure", "Program", "RunResult", "UFUNCS", "WRITES_IN_PLACE",
           "asynchronous", "cache_directory", "check_result", "compatible", "core_digest",
           "fft_length", "frees", "last_uses", "op", "operands", "out_of_memory",
           "pack", "size_of", "span", "write_atomically", "written_region"]


def op(name: str) -> Op:
    """The primitive named `name` (KeyError naming it otherwise). Lowerings are keyed by
    the `Op` object this returns, never by its name."""
    try:
        return OPS[name]
    except KeyError:
        raise KeyError(f"lazyarr has no primitive named {name!r}") from None


# The writes (update_slice, scatter, scatter_ufunc) as functions that write into their
# first operand and return it: what a backend may call instead of the reference when it
# owns that operand's buffer (an intermediate nothing else reads, or an `owned` input).
WRITES_IN_PLACE = {OPS[name]: fn for name, fn in IN_PLACE.items()}


# ---------------------------------------------------------------------------------
# The program format.

class Instruction(NamedTuple):
    op: Op                   # compared by identity; its repr names it
    inputs: tuple[int, ...]  # slots of the operands
    attrs: tuple             # the static attributes, as sorted (name, value) pairs
    shape: tuple[int, ...]   # what the result must be: a backend asserts both
    dtype: np.dtype


class Check(NamedTuple):
    """A runtime error an instruction may raise: when the condition `error` stands for
    holds on its operands (an index out of bounds, a singular matrix), the backend
    raises `error(message)` once the program has run, for the first failed check in
    program order, and returns no outputs. `number` is the check's position among its
    instruction's checks (`Op.checks` gives them)."""
    instruction: int         # index into Program.instructions
    number: int
    error: type
    message: str


class Program:
    """A linearized graph. Slots 0..len(input_specs)-1 hold the runtime inputs; slot
    len(input_specs)+k holds instruction k's result. `key` is the structure alone
    (ops, attributes, shapes, dtypes, wiring): equal keys mean one compiled program.
    `checks` are the runtime errors its instructions may raise (derived from the ops).
    `read_before` pairs (k, slot): slice instruction k reads, past writes into one
    buffer that leave its region alone, an earlier version of that buffer than `slot`,
    the version the user's code read, which holds the same values there (`operands`).
    Immutable (what `consumed_by` derives is cached beside the fields); equal (and
    hashed) by all but `sites` and `checks`. (Written by hand, as `Events` is: a frozen
    dataclass's generated code cost 0.6-0.8 ms of `import lazyarr` each, and its
    `__init__` a microsecond of every flush.)"""

    input_specs: tuple[tuple[tuple[int, ...], np.dtype], ...]
    instructions: tuple[Instruction, ...]
    outputs: tuple[int, ...]
    key: tuple
    sites: tuple
    checks: tuple[Check, ...]
    read_before: tuple[tuple[int, int], ...]

    def __init__(self, input_specs: tuple[tuple[tuple[int, ...], np.dtype], ...],
                 instructions: tuple[Instruction, ...], outputs: tuple[int, ...],
                 key: tuple, sites: tuple = (),
                 checks: tuple[Check, ...] | None = None,
                 read_before: tuple[tuple[int, int], ...] = ()) -> None:
        mine = self.__dict__
        mine["input_specs"], mine["instructions"], mine["outputs"] = \
            input_specs, instructions, outputs
        mine["key"], mine["sites"] = key, sites  # (sites: per instruction, for errors)
        mine["checks"] = _checks_of(self) if checks is None else checks
        mine["read_before"] = read_before

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError(f"cannot assign to field {name!r} of an immutable Program")

    def __delattr__(self, name: str) -> None:
        raise AttributeError(f"cannot delete field {name!r} of an immutable Program")

    def _compared(self) -> tuple:
        return self.input_specs, self.instructions, self.outputs, self.key, self.read_before

    def __eq__(self, other: object) -> bool:
        if type(other) is not Program:
            return NotImplemented
        return self._compared() == other._compared()

    def __hash__(self) -> int:
        return hash(self._compared())

    def __repr__(self) -> str:
        return (f"Program(input_specs={self.input_specs!r}, "
                f"instructions={self.instructions!r}, outputs={self.outputs!r})")

    def spec(self, slot: int) -> tuple[tuple[int, ...], np.dtype]:
        """(shape, dtype) of what slot `slot` holds."""
        n = len(self.input_specs)
        if slot < n:
            return self.input_specs[slot]
        ins = self.instructions[slot - n]
        return ins.shape, ins.dtype

    def checks_of(self, k: int) -> tuple[Check, ...]:
        """The checks of instruction `k`, in order."""
        return tuple(c for c in self.checks if c.instruction == k)

    def consumed_by(self, slot: int) -> frozenset[int]:
        """The input slots that no instruction reads but instruction slot `slot` and
        those it depends on (computed once per program): once `slot` is being computed,
        nothing reads them any more, so its result may be written over one of their
        buffers without a copy. (XLA copies a donated input that an instruction it cannot
        order first reads: jacobi's previous `work`, donated to the new one but read by
        the convergence test, made two extra copies a step and doubled its time.)"""
        mine = self.__dict__  # (derived facts are cached beside the fields)
        cache = mine.setdefault("_consumed", {})
        found = cache.get(slot)
        if found is not None:
            return found
        base, instructions = len(self.input_specs), self.instructions
        readers = mine.get("_readers")
        if readers is None:  # input slot -> the instructions reading it
            readers = mine["_readers"] = [set() for _ in range(base)]
            for k, ins in enumerate(instructions):
                for i in ins.inputs:
                    if i < base:
                        readers[i].add(k)
        behind, todo = {slot - base}, [slot - base]  # (instruction indices)
        while todo:
            for i in instructions[todo.pop()].inputs:
                if i >= base and i - base not in behind:
                    behind.add(i - base)
                    todo.append(i - base)
        found = cache[slot] = frozenset(i for i in range(base) if readers[i] <= behind)
        return found

    def operations(self) -> int:
        """How many instructions compute: all but the "constant"s, each the value of a
        host scalar input compiled in while it keeps that value (that input is then
        read by no instruction). A program's constants come first."""
        constant, count = OPS["constant"], 0
        for ins in self.instructions:
            if ins.op is not constant:
                break
            count += 1
        return len(self.instructions) - count


def compiled_in(program: Program) -> tuple[dict[int, Any], tuple[Instruction, ...], tuple]:
    """The values compiled in ({input position: value}: a host scalar from a leading
    "constant", a write's starts from an update_slice's `at`), and the other
    instructions and the outputs with each slot named as in the same program without
    them (a constant by the input it stands for, a write without its `at`): what a
    program is whatever values they take, to compare or fingerprint."""
    base, values, stands_for = len(program.input_specs), {}, []
    for ins in program.instructions:
        if ins.op is not OPS["constant"]:
            break
        attrs = dict(ins.attrs)
        values[attrs["input"]] = ins.op.ref(**attrs).item()
        stands_for.append(attrs["input"])
    count = len(stands_for)

    def ref(r: int) -> int:
        return r if r < base else stands_for[r - base] if r < base + count else r - count

    body = []
    for ins in program.instructions[count:]:
        if ins.op is OPS["update_slice"] and any(name == "at" for name, _ in ins.attrs):
            attrs = dict(ins.attrs)
            values[ins.inputs[2]] = attrs.pop("at")
            ins = ins._replace(attrs=tuple(attrs.items()))
        body.append(ins._replace(inputs=tuple([ref(r) for r in ins.inputs])) if count else ins)
    return values, tuple(body), tuple([ref(r) for r in program.outputs])


def operands(program: Program, read_late: bool = False) -> list[tuple[int, ...]]:
    """Per instruction, the slots of its operands; with `read_late`, a slice of
    `read_before` reads the version the user's code read instead. The two give the same
    values; the earlier version lets a compiler read the buffer before its writes (XLA
    copied lbm's buffer for each write while a read of it was pending), the later one
    lets a backend writing in place write it at once (the NumPy interpreter copied it
    for the first write while the earlier version was still to be read)."""
    inputs = [ins.inputs for ins in program.instructions]
    if read_late:
        for k, slot in program.read_before:
            inputs[k] = (slot,) + inputs[k][1:]
    return inputs


def last_uses(program: Program, read_late: bool = False) -> dict[int, int]:
    """Per slot read by an instruction, the index of the last instruction reading it
    (`operands`' reads)."""
    last: dict[int, int] = {}
    for k, inputs in enumerate(operands(program, read_late)):
        for i in inputs:
            last[i] = k
    return last


def frees(program: Program, read_late: bool = False) -> tuple[tuple[int, ...], ...]:
    """Per instruction, the intermediate slots (neither inputs nor outputs) it is the
    last to read: what a backend running the program instruction by instruction can
    release after it, so that no more is alive at once than the program needs."""
    base, keep = len(program.input_specs), set(program.outputs)
    released: list[list[int]] = [[] for _ in program.instructions]
    for slot, k in last_uses(program, read_late).items():  # (one pass: runs call it every time)
        if slot >= base and slot not in keep:
            released[k].append(slot)
    return tuple(map(tuple, released))


def _checks_of(program: Program) -> tuple[Check, ...]:
    checks = []
    for k, ins in enumerate(program.instructions):
        rule = ins.op.checks
        if rule is None:
            continue
        dtypes = [program.spec(i)[1] for i in ins.inputs]
        for number, (error, message) in enumerate(rule(dtypes, **dict(ins.attrs))):
            checks.append(Check(k, number, error, message))
    return tuple(checks)


def name_the_line(error: BaseException, program: Program, k: int) -> BaseException:
    """`error` (raised by instruction `k` when the program ran) with a note naming the
    operation and the user's file:line that built it: the call that raised it in NumPy
    is long past when a deferred error is found."""
    site = program.sites[k] if k < len(program.sites) else None
    where = f"{site[0]}, line {site[1]}" if site else "an unknown line"
    op = program.instructions[k].op.name if k < len(program.instructions) else "?"
    error.add_note(f"lazyarr: raised when computing {op}, created at {where}")
    return error


def check_result(instruction: Instruction, value, backend: str = "a backend") -> None:
    """AssertionError unless `value` (anything with .shape and .dtype) is what the rules
    promised for `instruction`: every backend asserts this for every result."""
    shape, dtype = tuple(value.shape), np.dtype(value.dtype)
    if shape != instruction.shape or dtype != instruction.dtype:
        raise AssertionError(
            f"lazyarr internal error: {backend} computed primitive {instruction.op.name} as "
            f"{shape} {dtype}; its rules said {instruction.shape} {instruction.dtype}")


# ---------------------------------------------------------------------------------
# What a backend reports back.

class Events:
    """What one call did, as data: the scheduler adds these to `lazyarr.stats()` and
    uses the seconds to choose tiers. A backend never imports the scheduler's state.
    Made with keyword arguments, each counter 0 by default; `extra` holds a backend's
    own counters, by name. (Written by hand: a dataclass's generated code cost 0.6 ms
    of `import lazyarr`.)"""

    compiles: int
    compile_seconds: float
    run_seconds: float
    memory_cache_hits: int
    memory_cache_misses: int
    disk_cache_hits: int
    disk_cache_misses: int
    donated_buffers: int
    extra: dict

    def __init__(self, *, compiles: int = 0, compile_seconds: float = 0.0,
                 run_seconds: float = 0.0, memory_cache_hits: int = 0,
                 memory_cache_misses: int = 0, disk_cache_hits: int = 0,
                 disk_cache_misses: int = 0, donated_buffers: int = 0,
                 extra: dict | None = None) -> None:
        self.__dict__.update(
            compiles=compiles, compile_seconds=compile_seconds, run_seconds=run_seconds,
            memory_cache_hits=memory_cache_hits, memory_cache_misses=memory_cache_misses,
            disk_cache_hits=disk_cache_hits, disk_cache_misses=disk_cache_misses,
            donated_buffers=donated_buffers, extra={} if extra is None else extra)

    def __eq__(self, other):
        if type(other) is not Events:
            return NotImplemented
        return self.__dict__ == other.__dict__

    __hash__ = None  # (mutable)

    def __repr__(self):
        return "Events(" + ", ".join(f"{k}={v!r}" for k, v in self.__dict__.items()) + ")"

    def add(self, other: "Events") -> "Events":
        # (on the instances' dicts: getattr and setattr per counter were 2 us a flush)
        mine, theirs = self.__dict__, other.__dict__
        for name in _EVENT_COUNTERS:
            mine[name] += theirs[name]
        if other.extra:
            for name, value in other.extra.items():
                self.extra[name] = self.extra.get(name, 0) + value
        return self

    def counts(self) -> dict:
        """The non-zero counters (run_seconds excluded: the scheduler times runs)."""
        mine = self.__dict__
        out = {name: mine[name] for name in _COUNTED if mine[name]}
        if self.extra:
            out.update({k: v for k, v in self.extra.items() if v})
        return out


# Events' counters, in order (named once: looking them up at every flush cost 5-10 us).
_EVENT_COUNTERS = tuple(name for name in Events.__annotations__ if name != "extra")
_COUNTED = tuple(name for name in _EVENT_COUNTERS if name != "run_seconds")


class RunResult(NamedTuple):
    outputs: list            # one buffer per Program.outputs; np.asarray converts each
    events: Events
    # After a `block=False` run: None when nothing is left to wait for, else a callable
    # that waits for the run to finish and raises the first failed `Check`'s error (the
    # outputs are then futures whose values may be wrong: the scheduler makes every
    # read of them, or of anything computed from them, raise that error), or a
    # `BackendFailure` if the run failed (the scheduler makes the outputs pending again).
    deferred: Any = None


def asynchronous(backend) -> bool:
    """Whether `backend` (or a `Compiled`'s backend) takes `block=False` (contract 1.1)."""
    version = getattr(backend, "contract_version", (1, 0))
    return tuple(version) >= (1, 1)


# ---------------------------------------------------------------------------------
# The protocol.

@runtime_checkable
class Compiled(Protocol):
    """A program made ready to run (an executable), for one signature."""
    program_key: tuple
    signature: Hashable

    def run(self, inputs: Sequence[Any], program: Program | None = None, *,
            block: bool = True) -> RunResult:
        """Run on `inputs` (which must have the signature it was compiled for);
        `program`, one of the same key, is the one whose user lines errors name.
        `block` as in `Backend.run`."""


@runtime_checkable
class Backend(Protocol):
    """The contract (see docs/writing-a-backend.md). `compiles` backends also implement
    `signature`, `lookup` and `compile`; the others run every program directly."""
    name: str
    device: str              # where its programs run: "cpu", "gpu:0", ...
    contract_version: tuple[int, int]
    compiles: bool           # whether `compile` exists and is worth calling
    donates: bool            # whether `run` may reuse the buffers of `owned` inputs

    def run(self, program: Program, inputs: Sequence[Any],
            owned: frozenset[int] = frozenset(), *, block: bool = True) -> RunResult:
        """Evaluate `program` on `inputs` (its buffers or NumPy arrays; 0-d NumPy arrays
        for host scalars) and return its outputs (compiling first if it must) with the
        events. Raises the first failed `Check`'s error, or `BackendFailure`.

        With `block` (every flush that reads, and the tiers' timed runs) it returns
        once the device has finished and the checks are read, so `run_seconds` is the
        run's time. With `block=False` (a size cut: nothing reads the results yet) it
        may return at once with futures for outputs and, in `RunResult.deferred`, the
        wait for the run: it raises the first failed check's error, or a
        `BackendFailure` if the run itself failed (out of memory once it ran). The
        scheduler passes `block=False` with no `owned` inputs, so such a failure leaves
        the inputs whole and it makes the outputs pending again; a backend that always
        finishes first ignores `block`, and declaring `synchronous = True` it gets the
        `owned` inputs of those runs too."""

    def devices(self) -> tuple[str, ...]:
        """The devices it can run on, by lazyarr's names, its default's first."""

    def transfer(self, buffer, device: str) -> Any:
        """`buffer` placed on `device`; ValueError for a device it does not have."""

    def device_of(self, buffer) -> str:
        """The device holding `buffer`, one of its results."""


class Lookup(NamedTuple):
    compiled: Compiled | None  # None: neither memory nor a persistent cache has it
    events: Events


@runtime_checkable
class CompilingBackend(Backend, Protocol):
    """A backend with a compile step (`compiles = True`): the scheduler may run a
    program elsewhere while this compiles it, on a background thread."""

    def signature(self, program: Program, inputs: Sequence[Any],
                  owned: frozenset[int] = frozenset()) -> Hashable:
        """Cheap: what besides the program decides its executable."""

    def lookup(self, program: Program, signature: Hashable, disk: bool = True) -> Lookup:
        """The executable from memory, else (with `disk`) a persistent cache; never
        compiles."""

    def compile(self, program: Program, signature: Hashable) -> Compiled:
        """Compile and keep (so `lookup` finds it); blocking and thread-safe."""

    # Optional: `wait(buffers)` blocks until those of `buffers` that are its own (results
    # of asynchronous runs) are computed. The tiers call it before a run they time, so
    # that finishing earlier runs is not counted as this one's time.
    # Optional: `remember(program, signature, note)` keeps `note` (a small JSON-able dict
    # of what the tiers measured: best run times per tier, whether the compiled program
    # was slower) with the persistent entry, and a `Compiled` found there has it back as
    # `tier_note` (None if there is none), so another process starts on the faster tier.
    # Optional: `slower_ops(platform)` names the ops (`Op` objects) whose compiled
    # lowering on `platform` ("cpu", "gpu", ..., see `Backend.device`) runs slower than
    # the tiers' first tier there runs them (on the CPU, NumPy): a program holding one
    # is never compiled there by the tiers, nor looked up in the persistent cache.
    # Optional: `unfaithful(platform)` names what the backend does not compute as NumPy
    # does on `platform`, as (op, dtype) pairs: (None, dtype) for any value of that
    # dtype (a TPU's float64 is emulated with float32's exponent range), (Op, dtype)
    # for an instruction of that op with that result dtype (a TPU has no int64
    # product). A program holding one runs on the NumPy interpreter, whatever the tier,
    # its device inputs copied to the host.

REQUIRED = ("run", "devices", "transfer", "device_of")
REQUIRED_FOR_COMPILING = ("signature", "lookup", "compile")


def compatible(declared) -> bool:
    """Whether a backend declaring contract version `declared` can run with this core."""
    try:
        major, minor = declared
    except (TypeError, ValueError):
        return False
    return major == CONTRACT_VERSION[0] and minor <= CONTRACT_VERSION[1]


def cache_directory() -> str | None:
    """Where lazyarr keeps what outlives a process (a backend's compiled programs, the
    tiers' verdicts): `$LAZYARR_CACHE_DIR`, else `$XDG_CACHE_HOME/lazyarr`, else
    `~/.cache/lazyarr`; None where `LAZYARR_CACHE_DIR` is off (or none, or 0)."""
    configured = os.environ.get("LAZYARR_CACHE_DIR", "").strip()
    if configured.lower() in ("off", "none", "0"):
        return None
    if configured:
        return os.path.expanduser(configured)
    home = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return os.path.join(home, "lazyarr")


def write_atomically(path, data: bytes) -> None:
    """Write `data` to `path` through a temporary file renamed into place, so that
    processes sharing the folder never read half of it; the folder is made private
    (mode 0700) where it is new. Raises OSError; leaves no temporary file behind."""
    import tempfile  # noqa: PLC0415  (only a persistent cache writes)
    folder = os.path.dirname(os.fspath(path))
    os.makedirs(folder, mode=0o700, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=folder, prefix=".tmp-")
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
        os.replace(tmp, path)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise


@functools.cache
def core_digest() -> str:
    """A hash of the core's source: what a persistent program cache must include in
    its keys, together with the backend's own code (a changed rule must not run a stale
    program)."""
    # (imported here: hashlib and pathlib were 30 ms of `import lazyarr`, and only a
    # persistent cache asks for this)
    import hashlib  # noqa: PLC0415  (the standard library, not the package)
    from pathlib import Path  # noqa: PLC0415
    digest = hashlib.sha256()
    root = Path(__file__).parent
    for path in sorted(root.rglob("*.py")):
        digest.update(path.relative_to(root).as_posix().encode() + path.read_bytes())
    return digest.hexdigest()
