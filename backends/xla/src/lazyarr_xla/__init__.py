"""The XLA backend: each flush is one program, compiled once per structure through
jax's public API (`jax.jit(...).lower(...).compile()`) and run on CPU, GPU or TPU.

64-bit types are enabled only inside lazyarr's own tracing, compiling and calls (a
scoped `jax.enable_x64`), so the user's jax configuration is untouched.

Compiled programs are cached twice: in memory for this process (a bounded LRU, see
`memory_cache`), and on disk (see `disk_cache`) for the next one. Both are keyed by the
program's structure and its signature (which inputs are host scalars, donations and, on
several devices, the input shardings).

`XlaBackend(devices="all")` (or a count, or a list) runs every program over a device
mesh through XLA's SPMD partitioner: see `sharding` and docs/multi-device.md. With one
device it is the single-device backend, with the same programs and cache keys.
"""

from __future__ import annotations

import threading
import time
from typing import NamedTuple, Sequence

import numpy as np

import jax

from lazyarr.backend_api import (CONTRACT_VERSION, BackendFailure, Events, Lookup,
                                 RunResult, check_result, name_the_line, op)

from . import disk_cache, memory_cache, peers, sharding
from .lowering import SLOWER_ON_CPU, convert, lower, prepare, through_selection
from .lowering_mutation import write_into_fill
from .op_by_op import OpByOp

SLICE, DYNAMIC_SLICE, BOOLEAN_INDEX = op("slice"), op("dynamic_slice"), op("boolean_index")
UPDATE_SLICE, BROADCAST_TO = op("update_slice"), op("broadcast_to")


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


class Signature(NamedTuple):
    """What, besides the program, decides its executable: which inputs are host
    scalars (position, dtype) and which input buffers it may reuse for outputs."""
    scalars: tuple[tuple[int, str], ...]
    donated: tuple[int, ...]


class ShardedSignature(NamedTuple):
    """A signature on a device mesh: also each input's sharding spec (None for a host
    scalar) and the mesh (platform, device ids)."""
    scalars: tuple[tuple[int, str], ...]
    donated: tuple[int, ...]
    shardings: tuple
    mesh: tuple


class Packing:
    """How a program's inputs are passed: arrays one by one, and host scalars (the
    Python and NumPy scalars of an expression, 0-d runtime inputs) packed into one
    vector per dtype, since each argument of an XLA call costs a transfer."""

    def __init__(self, n_inputs: int, scalars: tuple[tuple[int, str], ...]):
        positions = {i for i, _ in scalars}
        self.arrays: list[int] = [i for i in range(n_inputs) if i not in positions]
        groups: dict[np.dtype, list[int]] = {}
        for i, dtype in scalars:
            groups.setdefault(np.dtype(dtype), []).append(i)
        self.scalars: list[tuple[np.dtype, list[int]]] = list(groups.items())

    @staticmethod
    def signature(inputs: Sequence) -> tuple[tuple[int, str], ...]:
        """Which inputs are host scalars: part of the compiled program's identity. (By
        dtype name for ml_dtypes' types, whose `str` is a void's: "<V2".)"""
        return tuple((i, x.dtype.name if x.dtype.kind == "V" else x.dtype.str)
                     for i, x in enumerate(inputs) if type(x) is np.ndarray and x.ndim == 0)

    def pack(self, inputs: Sequence, placed, placed_scalars=None) -> list:
        """`placed(value, position)` places each array input; `placed_scalars` the
        packed scalar vectors (kept on the host when None)."""
        vectors = [np.array([inputs[i] for i in group], dtype) for dtype, group in self.scalars]
        if placed_scalars is not None:
            vectors = [placed_scalars(v) for v in vectors]
        return [placed(inputs[i], i) for i in self.arrays] + vectors

    def unpack(self, args: Sequence, n_inputs: int) -> list:
        slots = [None] * n_inputs
        for i, value in zip(self.arrays, args):
            slots[i] = value
        for (_, group), vector in zip(self.scalars, args[len(self.arrays):]):
            for k, i in enumerate(group):
                slots[i] = vector[k]
        return slots

    def specs(self, input_specs, placement, array_shardings=None) -> list:
        """Abstract inputs: each array with its sharding (`array_shardings`, by input
        position, else `placement`), the scalar vectors with `placement`."""
        return ([jax.ShapeDtypeStruct(*input_specs[i], sharding=placement if array_shardings
                                      is None else array_shardings[i]) for i in self.arrays] +
                [jax.ShapeDtypeStruct((len(group),), dtype, sharding=placement)
                 for dtype, group in self.scalars])


def _reusable(program, inputs: Sequence, owned: frozenset[int]) -> tuple[int, ...]:
    """The owned array inputs worth donating: each to an output of its shape and dtype
    (XLA reuses a donated buffer only for such an output). A host array is donated too
    (XLA reuses the buffer it is copied into): the signature must not depend on which
    tier computed an input, or a loop alternating tiers would need two executables.
    A program with runtime checks donates nothing: a failed check must leave its inputs
    as they were (XLA deletes a donated buffer even when the run's check then fails).
    Nor is a host array donated that other inputs are NumPy views of (the scheduler
    owns such an array with its views): XLA may read a host array in place, and its
    inputs must not alias the buffer it writes."""
    if not owned or program.checks:
        return ()
    viewed = {id(x.base) for x in inputs if type(x) is np.ndarray and x.base is not None}
    free: dict[tuple, list[int]] = {}  # (shape, dtype) -> output slots not yet taken
    for slot in program.outputs:
        if slot >= len(program.input_specs):
            free.setdefault(program.spec(slot), []).append(slot)
    donated = []
    for i in sorted(owned):
        slots = free.get(program.input_specs[i])
        if not slots or id(inputs[i]) in viewed or (
                type(inputs[i]) is np.ndarray and inputs[i].ndim == 0):
            continue
        # Only to an output nothing reads it past (see Program.consumed_by): XLA copies
        # the input first otherwise, which costs more than the buffer saves.
        for slot in slots:
            if i in program.consumed_by(slot):
                slots.remove(slot)
                donated.append(i)
                break
    return tuple(donated)


def _stencil_sources(program) -> frozenset[int]:
    """The instructions whose result two or more slices read (a stencil's grid, the
    step before). Each is computed whole before it is read (an optimization barrier):
    else XLA folds a slice of the previous step's write back into that step's
    arithmetic, and the steps of one program are computed again and again. Game of
    Life, 50 steps in 5-step programs on 2000 x 2000 int64: 0.82-1.00 s without,
    0.38 s with (jax.jit of one step: 0.33-0.42 s); lbm's 100 steps 4.34 -> 2.41 s."""
    base = len(program.input_specs)
    reads: dict[int, int] = {}
    for ins in program.instructions:
        if ins.op is SLICE or ins.op is DYNAMIC_SLICE:
            source = ins.inputs[0]
            if source >= base:
                reads[source - base] = reads.get(source - base, 0) + 1
    return frozenset([k for k, n in reads.items() if n >= 2])


def _fill_writes(program) -> dict[int, tuple]:
    """The writes at starts known when the program is built, in unit steps, of
    values not empty into a buffer that is a 0-d value broadcast (Game of Life's
    `z[...] = 0; z[1:-1, 1:-1][alive] = 1`): {instruction: (the slot of that value, the
    starts)}. They are the values padded with it (`lowering_mutation.write_into_fill`)."""
    base = len(program.input_specs)
    found = {}
    for k, ins in enumerate(program.instructions):
        if ins.op is not UPDATE_SLICE or ins.inputs[0] < base:
            continue
        attrs = dict(ins.attrs)
        source = program.instructions[ins.inputs[0] - base]
        if (source.op is BROADCAST_TO and program.spec(source.inputs[0])[0] == ()
                and attrs.get("at") is not None and set(attrs["steps"]) == {1}
                and 0 not in program.spec(ins.inputs[1])[0]):
            found[k] = (source.inputs[0], attrs["at"])
    return found


# Transcendental functions: XLA's CPU code for a fused loop computing a chain of them
# runs slower than for one at a time (relax's x = 0.99 x + 0.01 tanh(x) on 1e6 float64,
# 200 steps jitted on the CPU: one step a program 0.20-0.30 s, 20 steps a program fused
# into one loop 0.51-0.55 s, 0.63 s with NumPy's rounding selects). The loop is bound
# by the latency of one element's chain: LLVM interleaves the vectorized loop of one
# tanh (two to four independent vectors in flight) but not that of two, whose body is
# twice as long (XLA's optimized IR). In CPU seconds, 200 steps one a loop against two:
# jax.jit 331-337 ms against 340-408, with the rounding selects 358-378 against 475-482;
# lazyarr's relax 429-432 against 476-503.
TRANSCENDENTAL = frozenset(op(name) for name in (
    "exp", "exp2", "expm1", "log", "log2", "log10", "log1p", "sin", "cos", "tan",
    "arcsin", "arccos", "arctan", "arctan2", "sinh", "cosh", "tanh", "arcsinh", "arccosh",
    "arctanh", "cbrt", "power", "float_power", "logaddexp", "logaddexp2"))
CHAINED_TRANSCENDENTALS = 1

# Every operation rounds its result to its dtype, as NumPy's do: by default XLA may keep
# a float16 or bfloat16 value in float32 across the operations it fuses. On a TPU v5e,
# nanmedian's middle pair of float16 40000s, summed then halved in one program, came
# to 40000 where NumPy's float16 sum overflows to inf; with this option, inf.
_FAITHFUL = {"xla_allow_excess_precision": False}


def _chain_breaks(program, platform: str) -> tuple[int, ...]:
    """On the CPU, the instructions computed whole (returned as extra results, which
    XLA does not fuse past) so that no fused loop chains more than
    `CHAINED_TRANSCENDENTALS` transcendental functions: before a function that would
    make one more, its operands that carry the chain. (The same 20 steps with every
    second step's x returned ran in 0.26 s against 0.63 s fused whole; returning the
    tanh instead left x to be computed again from the start in every loop.) A
    program's results already end a chain."""
    if platform != "cpu":
        return ()
    base = len(program.input_specs)
    outputs = set(program.outputs)
    instructions = program.instructions
    depth = [0] * len(instructions)
    breaks: set = set()

    def chain(k: int) -> int:  # the functions chained in instruction k's loop, with it
        if base + k in outputs or k in breaks:
            return 0
        return (instructions[k].op in TRANSCENDENTAL) + max(
            [depth[i - base] for i in instructions[k].inputs if i >= base], default=0)

    for k, ins in enumerate(instructions):
        depth[k] = chain(k)
        if ins.op in TRANSCENDENTAL and depth[k] > CHAINED_TRANSCENDENTALS:
            carried = [i - base for i in ins.inputs if i >= base and depth[i - base]]
            breaks.update(carried)
            for j in range(min(carried), k + 1):  # (what read them meanwhile, anew)
                depth[j] = chain(j)
    return tuple(sorted(breaks))


def _traceable(program, packing: Packing, checked: list, failed_at: list, platform: str):
    """The jax function computing `program` from its packed inputs: its results, then
    one flag per runtime check that can fail (`checked` gets each flag's index into
    `program.checks`), then the values of `_chain_breaks` (dropped by the caller).
    While it is traced, `failed_at` holds the instruction being lowered. Every result
    is asserted to have the shape and dtype the rules promised."""
    n_inputs = len(program.input_specs)
    check_index = {(c.instruction, c.number): i for i, c in enumerate(program.checks)}

    kept = _stencil_sources(program)
    breaks = _chain_breaks(program, platform)
    fills = _fill_writes(program)

    def fn(*args):
        slots = packing.unpack(args, n_inputs)
        flags: list = []
        checked.clear()
        selections: dict = {}  # slot -> the (x, mask) of the boolean_index computing it
        for k, ins in enumerate(program.instructions):
            failed_at[:] = [ins]
            before = len(flags)
            operands = [slots[i] for i in ins.inputs]
            if k in fills:
                fill, at = fills[k]
                value = write_into_fill(slots[fill], operands[1], at, ins.shape)
            else:
                value = lower(ins, operands, flags, platform,
                              selections.get(ins.inputs[0]) if ins.inputs else None)
            if ins.op is BOOLEAN_INDEX:
                selections[n_inputs + k] = operands
            elif selections:  # (what an elementwise function of a selection selects)
                carried = through_selection(ins, operands,
                                            [selections.get(i) for i in ins.inputs], platform)
                if carried is not None:
                    selections[n_inputs + k] = carried
            if value.dtype != ins.dtype:
                value = convert(value, ins.dtype)
            check_result(ins, value, "the xla backend")
            made = len(flags) - before
            if made not in (0, len(program.checks_of(k))):
                raise AssertionError(f"lazyarr_xla internal error: the lowering of "
                                     f"{ins.op.name} gave {made} check flags")
            checked.extend(check_index[(k, n)] for n in range(made))
            if k in kept:
                value = jax.lax.optimization_barrier(value)
            slots.append(value)
        failed_at.clear()
        return (tuple(slots[i] for i in program.outputs) + tuple(flags)
                + tuple(slots[n_inputs + k] for k in breaks))
    return fn


def _run_failure(exc: Exception, program, mesh) -> Exception:
    """What a failed run (out of memory, a lost peer) raises: a `BackendFailure`."""
    if mesh is not None and mesh.multiprocess:
        failure = peers.translate(exc, mesh.devices, "a program")
        if failure is not exc:
            return failure
    return BackendFailure.from_program("XLA could not run", program, exc)


def _reader(results, flags, checked, program, placement):
    """A callable that waits for a run, raises a `BackendFailure` if it failed (XLA's
    CPU runtime allocates after the call returns: an allocation that fails surfaces
    here, in the results), then reads the check flags and raises the first failed
    check's error, naming its user line."""
    def read() -> None:
        with jax.enable_x64(True):
            try:
                jax.block_until_ready(results)
            except Exception as exc:  # noqa: BLE001  (e.g. out of memory while running)
                raise _run_failure(exc, program, placement) from exc
            hits = [sharding.host_value(f, placement) for f in flags]
        for hit, index in zip(hits, checked):
            if hit:
                check = program.checks[index]
                raise name_the_line(check.error(check.message), program, check.instruction)
    return read


class XlaCompiled:
    """An executable for one program and signature (the contract's `Compiled`).
    `events` says how it was made: compiled now, or loaded from the disk cache."""

    def __init__(self, program, signature: Signature, executable, checked: tuple[int, ...],
                 backend: "XlaBackend", events: Events):
        self.program_key = program.key
        self.signature = signature
        self.events = events
        self._program = program
        self._executable = executable
        self._packing = Packing(len(program.input_specs), signature.scalars)
        self._checked = checked  # per flag output: its index into program.checks
        self.reloaded = None  # Events of reloads after evictions, not yet reported
        self.tier_note = None  # loaded with a disk-cache entry: what the tiers measured
        self._backend = backend
        self._moved: int | None = None  # bytes of collectives per run, on a mesh
        mesh = backend.placement
        if mesh is None:
            self._place, self._place_scalars = (lambda x, i: backend._placed(x)), None
        else:
            specs = signature.shardings
            self._place = lambda x, i: mesh.place(x, specs[i])
            self._place_scalars = lambda v: mesh.place(v, ())

    def run(self, inputs: Sequence, program=None, *, block: bool = True) -> RunResult:
        """Run on `inputs`; `program` (of the same key) names the user's lines in errors.
        With `block`, wait for the results and read the check flags (raising the first
        failed check's error, or a `BackendFailure`); without, return XLA's futures at
        once, and in `RunResult.deferred` the wait and the flags' reading (the scheduler
        runs a program so only with nothing donated: a failed run leaves its inputs
        intact)."""
        program = program or self._program
        executable = self._executable or self._reload()
        start = time.perf_counter()
        mesh = self._backend.placement
        if mesh is not None and mesh.multiprocess:
            peers.check(mesh.devices)
        with jax.enable_x64(True):
            try:
                results = executable(*self._packing.pack(inputs, self._place,
                                                         self._place_scalars))
            except Exception as exc:  # e.g. out of memory while running
                raise _run_failure(exc, program, mesh) from exc
        n_out, n_flags = len(program.outputs), len(self._checked)
        results = results[:n_out + n_flags]  # (the chain breaks' values: dropped now)
        read = _reader(results, results[n_out:], self._checked, program, mesh)
        deferred = None
        if block:
            read()
        else:
            deferred = read
        events = Events(run_seconds=time.perf_counter() - start,
                        donated_buffers=len(self.signature.donated))
        if self.reloaded is not None:
            events.add(self.reloaded)
            self.reloaded = None
        if self._backend.placement is not None:
            events.extra["collective_bytes"] = self.collective_bytes()
        return RunResult(list(results[:n_out]), events, deferred)

    def _release(self) -> None:
        """Evicted from the memory cache: drop the executable (a holder of this object,
        such as the tiers' state, gets it back from the caches at its next run)."""
        self._executable = None

    def _reload(self):
        """The executable again after an eviction, from the memory or disk cache, else
        compiled (counted in `reloaded`); this object takes the cache's place for it."""
        backend, program, signature = self._backend, self._program, self.signature
        found, events = backend.lookup(program, signature)
        if found is None:
            found = backend.compile(program, signature)
            events.add(found.events)
        executable, checked = found._executable, found._checked
        if executable is None:  # evicted again meanwhile: compile here
            found = backend._compile(program, signature)
            executable, checked = found._executable, found._checked
            events.add(found.events)
        self._executable, self._checked = executable, checked
        self.reloaded = events if self.reloaded is None else self.reloaded.add(events)
        backend._compiled.put((self.program_key, self.signature), self, replace=True)
        return executable

    def collective_bytes(self) -> int:
        """Bytes the partitioned program's collectives produce per device per run (from
        the compiled HLO: all-reduce, all-gather, ...): what XLA moves between devices."""
        if self._moved is None:
            try:
                executable = self._executable or self._reload()
                self._moved = sum(sharding.collective_bytes(executable.as_text()).values())
            except Exception:  # noqa: BLE001  (an executable without HLO text)
                self._moved = 0
        return self._moved


class XlaBackend:
    name = "xla"
    contract_version = CONTRACT_VERSION
    compiles = True
    donates = True

    def __init__(self, device: str | None = None, devices=None):
        if devices is None and device is not None and "*" in str(device):
            device, devices = sharding.parse_env_device(str(device))  # "cpu*4", "gpu*"
        mesh = None
        if devices is not None:
            platform = None if device in (None, "", "default") else str(device).partition(":")[0]
            mesh = sharding.resolve(platform, devices)
        self.placement: sharding.Placement | None = None
        if mesh is not None and len(mesh) > 1:
            self.placement = sharding.Placement(mesh, sharding.min_bytes_from_environment())
            self.jax_device = mesh[0]
            self.device = self.placement.name
            self._placement = self.placement.replicated
            self._cache_devices = self.placement.devices
        else:  # one device: exactly the single-device backend
            self.jax_device = mesh[0] if mesh else _device(device)
            self.device = device_name(self.jax_device)
            self._placement = jax.sharding.SingleDeviceSharding(self.jax_device)
            self._cache_devices = self.jax_device
        self._compiled = memory_cache.ProgramCache(
            size_of=lambda c: memory_cache.code_bytes(c._executable),
            evicted=XlaCompiled._release, churned=jax.clear_caches)
        self._compiling: dict[tuple, threading.Event] = {}
        self._op_by_op = None
        self._lock = threading.Lock()
        # XLA's CPU runtime runs with the FTZ/DAZ flags set and offers no switch: it
        # reads subnormal inputs as zero and writes zero for subnormal results. A TPU
        # does the same (float32 rad2deg of 1e-45 gave 0, NumPy 8e-44; bfloat16 too).
        self.flushes_subnormals = self.jax_device.platform in ("cpu", "tpu")

    def devices(self) -> tuple[str, ...]:
        """Its own device (or mesh) first, then its platform's, jax's default platform's
        and the CPU's devices."""
        platforms = dict.fromkeys([self.jax_device.platform, jax.default_backend(), "cpu"])
        names = tuple(device_name(d) for p in platforms for d in jax.devices(p))
        return names if self.placement is None else (self.device,) + names

    def devices_in_use(self) -> tuple[str, ...]:
        """The devices its programs run on: the mesh's, or its one device."""
        if self.placement is None:
            return (self.device,)
        return tuple(device_name(d) for d in self.placement.devices)

    def transfer(self, buffer, device: str):
        """`buffer` placed on `device` (a name as `device_name` gives, or this backend's
        mesh, e.g. "cpu*4", where the placement policy decides its sharding)."""
        with jax.enable_x64(True):
            if self.placement is not None and device == self.device:
                shape = tuple(np.shape(buffer))
                spec = self.placement.input_spec(buffer, shape, buffer.dtype)
                return self.placement.place(buffer, spec)
            if isinstance(buffer, jax.Array) and not buffer.is_fully_addressable:
                buffer = self.to_host(buffer)
            return jax.device_put(buffer, _device(device))

    def device_of(self, buffer) -> str:
        if not isinstance(buffer, jax.Array):
            return "cpu"
        held = buffer.sharding.device_set
        if len(held) == 1:
            return device_name(next(iter(held)))
        if self.placement is not None and held == set(self.placement.devices):
            return self.device
        return f"{next(iter(held)).platform}*{len(held)}"

    # -- placement over several devices (lazyarr.shard, x.sharding, host reads) ---------

    def sharding_of(self, buffer):
        """The jax `Sharding` of one of its buffers; for host data, the one it will be
        given when a program takes it."""
        if isinstance(buffer, jax.Array):
            return buffer.sharding
        if self.placement is None:
            return self._placement
        buffer = np.asarray(buffer)
        return self.placement.sharding(self.placement.policy(buffer.shape, buffer.dtype))

    def place(self, buffer, axis: int | None):
        """`buffer` split along `axis` over the mesh (replicated for None). ValueError if
        the device count does not divide that axis's length."""
        with jax.enable_x64(True):
            if self.placement is None:
                return self._placed(buffer)
            shape = tuple(np.shape(buffer))
            if axis is not None and shape[axis] % self.placement.count:
                raise ValueError(f"cannot shard an array of shape {shape} along axis {axis} "
                                 f"over {self.placement.count} devices: {shape[axis]} is not "
                                 f"a multiple of {self.placement.count}")
            spec = () if axis is None else self.placement.axis_spec(axis)
            return self.placement.place(buffer, spec)

    @staticmethod
    def wait(buffers: Sequence) -> None:
        """Block until those of `buffers` that are this backend's have been computed
        (the tiers time a run from there)."""
        for buffer in buffers:
            if type(buffer) is not np.ndarray:
                ready = getattr(buffer, "block_until_ready", None)
                if ready is not None:
                    ready()

    def to_host(self, buffer) -> np.ndarray:
        """A buffer as a NumPy array; on several processes, the same global value on
        each (a sharded array is gathered by XLA first)."""
        with jax.enable_x64(True):
            return sharding.host_value(buffer, self.placement)

    def _placed(self, x):
        if isinstance(x, jax.Array):
            return x if x.device == self.jax_device else jax.device_put(x, self._placement)
        return np.asarray(x)

    # -- several processes (lazyarr.distributed) ------------------------------------

    @staticmethod
    def initialize_distributed(*, cpu_collectives: str | None = "gloo",
                               on_peer_failure: str = "raise",
                               collective_timeout_seconds: int | None = None,
                               **options) -> None:
        """`jax.distributed.initialize(**options)`, with the CPU collectives and what a
        failed peer does to the others (`peers`) chosen first. RuntimeError if jax
        already ran something in this process."""
        if cpu_collectives is not None:
            jax.config.update("jax_cpu_collectives_implementation", cpu_collectives)
        peers.configure(on_peer_failure, options.get("heartbeat_timeout_seconds", 100),
                        collective_timeout_seconds, options.get("shutdown_timeout_seconds", 300))
        jax.distributed.initialize(**options)

    @staticmethod
    def process_index() -> int:
        return jax.process_index()

    @staticmethod
    def process_count() -> int:
        return jax.process_count()

    @staticmethod
    def shutdown_distributed() -> None:
        jax.distributed.shutdown()

    # -- the contract ---------------------------------------------------------------

    def op_by_op(self):
        """The tier that starts at once off the CPU: programs run primitive by primitive
        on this backend's device (see `op_by_op`); None on a device mesh."""
        if self.placement is not None:
            return None
        with self._lock:
            if self._op_by_op is None:
                self._op_by_op = OpByOp(self)
            return self._op_by_op

    @staticmethod
    def slower_ops(platform: str) -> frozenset:
        """The primitives whose compiled lowering on `platform` runs slower than NumPy
        (the tiers interpret a program holding one): the sorts on the CPU, see
        `lowering.SLOWER_ON_CPU`."""
        return SLOWER_ON_CPU if platform == "cpu" else frozenset()

    @staticmethod
    def unfaithful(platform: str) -> frozenset:
        """On a TPU (v5e, jax 0.10.2): float64 and complex128, emulated there with
        float32's exponent range (all(7.7e-120) was False; complex128 programs halted
        the chip), 64-bit integer products (UNIMPLEMENTED in XLA's rewrite of 64-bit
        types), and the floating remainders and floored quotients (`remainder`, `fmod`
        and `floor_divide` of float32 in [-1e7, 1e7] by [0.5, 50]: all remainders off
        by more than the divisor's ulps, 2.5% of quotients off by one; 12631199 % 3
        gave 1; the narrower floats are computed in float32), and the float8 types
        (float8_e4m3fn -85 + -85 was NaN, its subnormals were read and written as
        zero). The tiers run programs holding them on the NumPy interpreter."""
        if platform != "tpu":
            return frozenset()
        einsum = op("einsum")
        floats = [np.dtype(t) for t in (np.float16, np.float32, jax.numpy.bfloat16)]
        eights = [np.dtype(t) for t in (jax.numpy.float8_e4m3fn, jax.numpy.float8_e5m2)]
        return frozenset([(None, np.dtype(np.float64)), (None, np.dtype(np.complex128)),
                          (einsum, np.dtype(np.int64)), (einsum, np.dtype(np.uint64))]
                         + [(None, d) for d in eights]
                         + [(op(name), d) for name in ("remainder", "fmod", "floor_divide")
                            for d in floats])

    def run(self, program, inputs: Sequence, owned: frozenset[int] = frozenset(), *,
            block: bool = True) -> RunResult:
        """Run `program`: from the memory cache, else the disk cache, else compiled now."""
        signature = self.signature(program, inputs, owned)
        compiled, events = self.lookup(program, signature)
        if compiled is None:
            compiled = self.compile(program, signature)
            events.add(compiled.events)
        ran = compiled.run(inputs, program, block=block)
        return RunResult(ran.outputs, events.add(ran.events), ran.deferred)

    def signature(self, program, inputs: Sequence, owned: frozenset[int] = frozenset()):
        """Cheap: which inputs are host scalars, which owned buffers to donate and, on a
        mesh, each array input's sharding (its own if it lives on the mesh, else the
        placement policy's)."""
        scalars = Packing.signature(inputs)
        donated = _reusable(program, inputs, owned)
        if self.placement is None:
            return Signature(scalars, donated)
        positions = {i for i, _ in scalars}
        specs = tuple(None if i in positions else
                      self.placement.input_spec(x, *program.input_specs[i])
                      for i, x in enumerate(inputs))
        return ShardedSignature(scalars, donated, specs, self.placement.identity)

    def lookup(self, program, signature: Signature, disk: bool = True,
               cache: memory_cache.ProgramCache | None = None) -> Lookup:
        """The executable for `program` from memory (`cache`, by default the program
        cache), else (with `disk`) from the disk cache, without compiling; None if
        neither has it."""
        key = (program.key, signature)
        cache = self._compiled if cache is None else cache
        compiled = cache.get(key)
        if compiled is not None:
            return Lookup(compiled, Events(memory_cache_hits=1))
        events = Events(memory_cache_misses=1)
        if not disk:
            return Lookup(None, events)
        name = disk_cache.entry_name(key, self._cache_devices)
        start = time.perf_counter()
        with jax.enable_x64(True):
            entry = disk_cache.load(name, key, self._cache_devices) if name else None
        if entry is None:
            events.disk_cache_misses += 1
            return Lookup(None, events)
        events.disk_cache_hits += 1
        executable, checked = entry
        prepare(program)
        compiled = XlaCompiled(program, signature, executable, checked, self,
                               Events(compile_seconds=time.perf_counter() - start))
        compiled.tier_note = disk_cache.load_note(name)
        return Lookup(cache.put(key, compiled), events)

    def remember(self, program, signature, note: dict) -> None:
        """Keep `note` (what the tiers measured of `program`) next to its disk-cache
        entry, for the next process (`XlaCompiled.tier_note`)."""
        name = disk_cache.entry_name((program.key, signature), self._cache_devices)
        if name:
            disk_cache.store_note(name, note)

    def compile(self, program, signature: Signature,
                cache: memory_cache.ProgramCache | None = None) -> XlaCompiled:
        """Compile `program` for `signature` and keep it (in `cache`, by default the
        program cache, and on disk). Thread-safe: it may run on a background thread while
        the program runs elsewhere; a second caller for the same program waits for the
        first one's executable."""
        key = (program.key, signature)
        cache = self._compiled if cache is None else cache
        while True:
            with self._lock:
                held = cache.get(key)
                if held is not None:
                    return held
                pending = self._compiling.get(key)
                if pending is None:
                    pending = self._compiling[key] = threading.Event()
                    break
            pending.wait()  # another thread compiles it; if that failed, try ourselves
        try:
            compiled = self._compile(program, signature)
            name = disk_cache.entry_name(key, self._cache_devices)
            if name:
                disk_cache.store(name, key,
                                 (compiled._executable, compiled._checked, self._cache_devices))
            return cache.put(key, compiled)
        finally:
            with self._lock:
                del self._compiling[key]
            pending.set()

    def cache_state(self, program, inputs: Sequence) -> str:
        """For `lazyarr.explain`: whether the program is compiled, in memory or on disk."""
        scalars = Packing.signature(inputs)
        if any(key[0] == program.key and key[1].scalars == scalars
               for key in self._compiled.keys()):
            return "compiled, in the memory cache"
        signature = (Signature(scalars, ()) if self.placement is None else
                     self.signature(program, inputs)._replace(donated=()))
        name = disk_cache.entry_name((program.key, signature), self._cache_devices)
        root = disk_cache.directory()
        if name and root is not None and (root / name).exists():
            return f"compiled, in the disk cache ({root})"
        return "not compiled yet"

    def lowered_text(self, program, inputs: Sequence) -> str:
        """For `lazyarr.explain(lowered=True)`: the program as StableHLO text."""
        with jax.enable_x64(True):
            signature = self.signature(program, inputs)
            packing = Packing(len(program.input_specs), signature.scalars)
            fn = self._constrained(program, _traceable(program, packing, [], [],
                                                       self.jax_device.platform))
            return jax.jit(fn).lower(*self._abstract(program, packing, signature)).as_text()

    def _constrained(self, program, fn):
        """On a mesh, `fn` with the results the policy splits (large ones) placed as new
        inputs would be, so a loop's state keeps one sharding (one program) from
        iteration to iteration; XLA chooses for the others and for the check flags."""
        if self.placement is None:
            return fn
        shardings = []
        for slot in program.outputs:
            spec = self.placement.policy(*program.spec(slot))
            shardings.append(self.placement.sharding(spec) if spec else None)

        def placed(*args):
            results = fn(*args)
            return tuple(r if s is None else jax.lax.with_sharding_constraint(r, s)
                         for r, s in zip(results, shardings)) + results[len(shardings):]
        return placed

    def _abstract(self, program, packing: Packing, signature) -> list:
        """The abstract inputs to compile for: shapes, dtypes and shardings."""
        if self.placement is None:
            return packing.specs(program.input_specs, self._placement)
        shardings = [None if spec is None else self.placement.sharding(spec)
                     for spec in signature.shardings]
        return packing.specs(program.input_specs, self._placement, shardings)

    def _compile(self, program, signature: Signature) -> XlaCompiled:
        packing = Packing(len(program.input_specs), signature.scalars)
        checked: list[int] = []
        failed_at: list = []
        fn = _traceable(program, packing, checked, failed_at, self.jax_device.platform)

        start = time.perf_counter()
        try:
            with jax.enable_x64(True):
                specs = self._abstract(program, packing, signature)
                donate = tuple(packing.arrays.index(i) for i in signature.donated)
                executable = jax.jit(self._constrained(program, fn), donate_argnums=donate
                                     ).lower(*specs).compile(compiler_options=_FAITHFUL)
        except AssertionError:
            raise
        except Exception as exc:
            raise BackendFailure.from_program("XLA could not compile", program, exc,
                                              failed_at[0] if failed_at else None) from exc
        events = Events(compiles=1, compile_seconds=time.perf_counter() - start)
        return XlaCompiled(program, signature, executable, tuple(checked), self, events)
