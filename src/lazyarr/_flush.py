"""The scheduler: what to evaluate and when, and the counters that show it.

A flush takes the requested nodes plus every live pending array that shares work with
them, linearizes that subgraph into a `Program` (runtime inputs first, then one
instruction per node), runs it on the current backend, and replaces each output node
by its buffer. Nothing changes unless the whole run succeeds, so a failure leaves every
array usable.
"""

from __future__ import annotations

import contextlib
import math
import sys
import threading
import time
import weakref
from collections import Counter
from typing import Iterable

import numpy as np

from . import _backend, _eager, _interrupts, _observe, _placement, _tiers
from .backend_api import BackendFailure, Instruction, Program, name_the_line
from ._graph import INPUT, Node, topological_order
from ._ops import OPS, Op

CAUSES = ("read", "control", "shape", "explicit", "size", "pickle", "shared")

SLICE, RESHAPE, DYNAMIC_SLICE = OPS["slice"], OPS["reshape"], OPS["dynamic_slice"]
UPDATE_SLICE, CONCATENATE = OPS["update_slice"], OPS["concatenate"]
CONSTANT = OPS["constant"]
# Ops that NumPy does as views: a chain of them over a computed host buffer is read
# there (an element, a row) without a program.
HOST_VIEW_OPS = frozenset([SLICE, RESHAPE, OPS["transpose"], OPS["broadcast_to"]])
# Ops that only move data: what a read of a write may be forwarded to (`_written_before`).
MOVES = HOST_VIEW_OPS | {CONCATENATE, DYNAMIC_SLICE}


def linearize(order: list[Node], outputs: list[Node],
              learn: bool = True) -> tuple[Program, list]:
    """The program computing `outputs` from `order` (a topological order), and its inputs.

    An integer-index read (`a[i]`, `a[:, j]`, `a[i, j]`: a slice to length 1 on an axis,
    then the reshape that drops it), and a slice whose start has been seen to move
    (`x[i:i+k]` in a loop, see `_moving`), are emitted as a "dynamic_slice" whose
    position is one more runtime input, placed after the leaves' inputs (so
    `_sole_owner_inputs` still lines up with them), so that the key does not hold it;
    unless `learn` is False, the program's slices count in what `_moving` knows.
    Host scalars, and the positions of writes, are compiled in while they keep the
    values of the structure's first flush (`_Known`).

    One pass over `order` writes the structure with provisional operand references (a
    leaf's input position, or ~k for the k-th pending node); a structure seen before
    (every iteration of a loop after the first) gives back its program's instructions,
    checks and key (`_programs`), built once."""
    slot: dict[Node, int] = {}  # (nodes compare by identity)
    inputs, input_specs, pending, structure, slices, reads = [], [], [], [], [], set()
    gained, outs, read_before = [], None, []
    absorbed, joined = _joined_writes(order, outputs)
    for node in order:
        op = node.op
        if op is INPUT:
            slot[node] = len(inputs)
            inputs.append(node.value)
            input_specs.append((node.shape, node.dtype))
            continue
        if absorbed:
            if node in absorbed:
                continue  # (a write made part of a concatenate, see _joined_writes)
            if node in joined:
                axis, parts = joined[node]
                slot[node] = ~len(pending)
                pending.append(node)
                structure.append((CONCATENATE, (("axis", axis),), node.shape, node.dtype,
                                  tuple([slot[v] for v in parts])))
                continue
        operands = node.inputs
        count = len(operands)
        if count == 1:
            refs = (slot[operands[0]],)
        elif count == 2:
            refs = (slot[operands[0]], slot[operands[1]])
        else:
            refs = tuple([slot[i] for i in operands])
        if op is SLICE and operands[0].op is UPDATE_SLICE:
            source, exact = _written_before(node)
            if source in absorbed:
                source, exact = operands[0], False
            if exact:
                if outs is None:
                    outs = {id(n) for n in outputs}
                if id(node) not in outs:  # (an output keeps a slot of its own)
                    slot[node] = slot[source]  # the read is what was written
                    continue
            elif source is not operands[0]:
                read_before.append((len(pending), refs[0]))  # (`Program.read_before`)
                refs = (slot[source],)
                if source.op is INPUT:
                    gained.append(refs[0])
        slot[node] = ~len(pending)
        if op is SLICE:
            slices.append(len(pending))
        elif op is RESHAPE and _cuts_to_one(operands[0]):
            reads.add(operands[0])
        pending.append(node)
        structure.append((op, node.attrs, node.shape, node.dtype, refs))
    # Other slices to length 1 (np.roll's wrapped edge, stencils) do not vary in a loop,
    # and static offsets compile and run faster.
    seen: dict[tuple, int] = {}
    for k in slices:
        node = pending[k]
        if node in reads or _moving(node, seen, learn):
            structure[k] = (DYNAMIC_SLICE, _read_attrs(node), node.shape, node.dtype,
                            structure[k][4] + (len(inputs),))
            starts = _lowest_starts(node)
            inputs.append(starts)
            input_specs.append((starts.shape, starts.dtype))
    _linearized.gained = gained
    written = (tuple(input_specs), tuple(structure), tuple([slot[n] for n in outputs]),
               tuple(read_before))
    known = _programs.get(written)
    if known is None:
        known = _programs[written] = _Known(written)
        if len(_programs) > MAX_PROGRAMS:
            del _programs[next(iter(_programs))]
    program, constants = known.program_for(written, inputs)
    sites = tuple([n.site for n in pending])
    if constants:
        sites = (None,) * constants + sites
    return Program(program.input_specs, program.instructions, program.outputs, program.key,
                   sites, program.checks, program.read_before), inputs


# The input positions that this thread's last `linearize` made read by one more
# instruction than the graph has consumers of them (a slice forwarded past writes to the
# leaf they wrote into): `_sole_owner_inputs` counts the graph's holders of each leaf.
# (Per thread: `lazyarr.explain` linearizes outside a flush.)
_linearized = threading.local()


def _gained() -> list[int]:
    return getattr(_linearized, "gained", None) or []


def _written_before(node: Node) -> tuple[Node, bool]:
    """Where slice `node` of a pending `update_slice` reads what it reads, past the
    writes into one buffer before it (lbm's `f[:, :, i] = np.roll(f[:, :, i], ...)`,
    nine planes in turn): a write to a region disjoint from the slice's is passed over;
    a write of exactly the slice's region (same starts, steps and shape, same dtype)
    of values that only move data (`MOVES`: lbm's rolled planes) gives those values
    (pending, returned with True: they are the slice's result). Else the buffer to
    slice instead (a write that overlaps in part, a write of computed values, or
    anything but a write), with False. XLA copies the whole buffer for a write into it
    while a later read of it is pending: lbm's 18 such writes a step ran in 12 ms,
    forwarded in 3.6 ms. But XLA fuses forwarded values into each of their readers, so
    arithmetic is done again for each: life's rule, written into the interior and read
    back as the next step's `z[1:-1, 1:-1]`, was computed twice a step, and its 4-step
    programs ran 20 steps in 0.79-0.85 s forwarded, 0.55-0.61 s reading the write
    (LAZYARR_TIER=compile; jax.jit of one step: 0.35-0.46 s)."""
    box = _box(_attr(node, "starts"), _attr(node, "steps"), node.shape)
    source = node.inputs[0]
    while source.op is UPDATE_SLICE:
        target, values, where = source.inputs
        if where.op is not INPUT:
            return source, False
        starts = tuple(where.value.tolist())
        steps = _attr(source, "steps")
        if (values.op in MOVES and values.shape == node.shape
                and values.dtype == node.dtype and starts == _attr(node, "starts")
                and steps == _attr(node, "steps")):
            return values, True
        written = _box(starts, steps, values.shape)
        if not any(hi <= low or high <= lo for (lo, hi), (low, high) in zip(box, written)):
            return source, False  # they may overlap
        source = target
    return source, False


def _joined_writes(order: list[Node], outputs: list[Node]) -> tuple[set, dict]:
    """Chains of writes into one buffer that together rewrite all of it, slab by slab
    along one axis (lbm's `feq[:, :, i] = ...` for its nine planes), each write but the
    last read by nothing but the next: the last write is the concatenation of the slabs
    written (a slab written again is the later write's), and the others are not
    emitted. Returns (the writes absorbed so, {last write: (axis, slabs in order)}).
    A write of a slab of the last axis touches every cache line of the buffer: XLA ran
    each of the nine as a pass over the whole (400, 400, 9) array."""
    writes = [n for n in order if n.op is UPDATE_SLICE]
    if len(writes) < 2:
        return _NONE, {}
    readers: dict = {}
    for node in order:
        for i in node.inputs:
            if i.op is UPDATE_SLICE:
                readers[i] = readers.get(i, 0) + 1
    kept = {id(n) for n in outputs}
    inner = {n.inputs[0] for n in writes
             if n.inputs[0].op is UPDATE_SLICE and readers.get(n.inputs[0]) == 1
             and id(n.inputs[0]) not in kept}
    absorbed, joined = set(), {}
    for head in writes:
        if head in inner:
            continue
        chain, node = [head], head
        while node.inputs[0] in inner:
            node = node.inputs[0]
            chain.append(node)
        plan = len(chain) > 1 and _slabs(chain)
        if plan:
            joined[head] = plan
            absorbed.update(chain[1:])
    return absorbed, joined


_NONE: frozenset = frozenset()


def _slabs(chain: list[Node]):
    """For writes `chain` (the last first) into one buffer: (axis, the values of the
    slabs in order along it) if they rewrite all of it, slab by slab along that axis
    (unit steps, whole extents on the other axes); else None."""
    shape, dtype = chain[0].shape, chain[0].dtype
    axis, found = None, {}
    for node in chain:
        _, values, where = node.inputs
        if (where.op is not INPUT or values.dtype != dtype
                or any(c != 1 for c in _attr(node, "steps"))):
            return None
        starts = where.value.tolist()
        across = [a for a, (lo, n, m) in enumerate(zip(starts, values.shape, shape))
                  if lo != 0 or n != m]
        if len(across) != 1 or axis not in (None, across[0]):
            return None
        axis = across[0]
        region = (starts[axis], starts[axis] + values.shape[axis])
        if region not in found:  # (else overwritten by a later write)
            found[region] = values
    spans = sorted(found)
    position = 0
    for lo, hi in spans:
        if lo != position:
            return None  # a gap, or a slab overlapping another in part
        position = hi
    if position != shape[axis]:
        return None
    return axis, [found[span] for span in spans]


def _box(starts, steps, shape) -> list:
    """Per axis, the half-open range of indices a strided region of `shape` spans."""
    box = []
    for a, c, n in zip(starts, steps, shape):
        last = a + (n - 1) * c
        box.append((min(a, last), max(a, last) + 1) if n else (a, a))
    return box


class ProgramKey(tuple):
    """A `Program.key` that is hashed once: the tiers, the interpreter's plans and the
    backends' caches look it up at every flush, and a linearized structure seen before
    gives back the same key object, so those lookups compare it by identity (hashing a
    237-instruction key of lbm took 10 us, comparing two equal ones 40 us)."""

    def __hash__(self):
        try:
            return self._hash
        except AttributeError:
            self._hash = value = tuple.__hash__(self)
            return value

    def __reduce__(self):  # (a hash is not valid in another process: not pickled)
        return ProgramKey, (tuple(self),)


class _Known:
    """A linearized structure seen before: its program, and the values its host scalars
    (Python and NumPy scalars, 0-d runtime inputs) and its writes' positions (an
    update_slice's starts) took at its first flush. Each is compiled in for as long as
    its value stays the one first seen: a scalar as a "constant" instruction (XLA folds
    it: Game of Life's five steps ran 3x faster with its rule's 3, 2, 0 and 1 known than
    read from the inputs: 0.21-0.29 s against 0.67-0.76 s a 50-step run, jax.jit on the
    CPU), a write's position as its `at` (XLA runs a write at runtime starts as an
    in-place update on one thread, one at known starts as a pad fused with its values:
    Game of Life's `z[1:-1, 1:-1] =`, 50 jitted steps, 0.44-0.50 s against 0.33-0.37 s;
    lbm's `f[:, :, i] = ...` for the nine i, written from one line of code, 26 against
    14 ms a compiled step). Once one takes another value, it is a runtime input of that
    structure for good, so a value that changes in a loop (a time step, a counter, a
    moving window's write) costs at most one more program."""

    __slots__ = ("program", "held", "first", "varied", "variants")

    def __init__(self, written: tuple):
        self.program = None  # without constants (built once needed: a loop whose
        # shapes never repeat, as gauss's, builds each structure's program once)
        input_specs, structure = written[0], written[1]
        held = {i for i, (shape, _) in enumerate(input_specs) if shape == ()}
        held.update(refs[2] for op, _, _, _, refs in structure
                    if op is UPDATE_SLICE and refs[2] >= 0)
        self.held = tuple(sorted(held))
        self.first = None   # their bytes at the first flush (None: not on the host)
        self.varied: frozenset = frozenset()
        self.variants: dict = {}

    def program_for(self, written: tuple, inputs: list) -> tuple[Program, int]:
        """The program for these `inputs`, and how many constants it starts with."""
        static = ()
        if self.held:
            values = tuple([inputs[i].tobytes() if type(inputs[i]) is np.ndarray else None
                            for i in self.held])
            if self.first is None:
                self.first = values
            elif values != self.first:
                self.varied = self.varied | {i for i, v, w in
                                             zip(self.held, values, self.first) if v != w}
            static = tuple([(i, v) for i, v in zip(self.held, values)
                            if v is not None and i not in self.varied])
        if not static:
            if self.program is None:
                self.program = _program(*written)
            return self.program, 0
        variant = self.variants.get(static)
        if variant is None:
            if len(self.variants) >= MAX_VARIANTS:
                self.variants.clear()
            variant = self.variants[static] = (
                _program(*_with_constants(written, static)),
                sum(1 for i, _ in static if written[0][i][0] == ()))
        return variant


def _with_constants(written: tuple, static: tuple) -> tuple:
    """`written` (see `linearize`) with each input of `static` ((position, bytes), ...)
    compiled in, the input itself left unread: a scalar read from a "constant"
    instruction put first, a write's starts given to the write as its `at`."""
    input_specs, structure, outputs, read_before = written
    scalars = [(i, v) for i, v in static if input_specs[i][0] == ()]
    at = {i: tuple(np.frombuffer(v, input_specs[i][1]).tolist())
          for i, v in static if input_specs[i][0] != ()}
    count = len(scalars)
    constant_of = {i: ~k for k, (i, _) in enumerate(scalars)}

    def ref(r: int) -> int:
        return constant_of.get(r, r) if r >= 0 else ~(~r + count)

    lead = [(CONSTANT, (("value", v), ("dtype", input_specs[i][1]), ("input", i)), (),
             input_specs[i][1], ()) for i, v in scalars]
    body = []
    for op, attrs, shape, dtype, refs in structure:
        if op is UPDATE_SLICE and refs[2] in at:
            attrs = attrs + (("at", at[refs[2]]),)
        body.append((op, attrs, shape, dtype, tuple([ref(r) for r in refs])))
    return (input_specs, tuple(lead + body), tuple([ref(r) for r in outputs]),
            tuple([(k + count, ref(r)) for k, r in read_before]))


# Programs by linearized structure (see `linearize`), the oldest dropped past the bound.
_programs: dict[tuple, _Known] = {}
MAX_PROGRAMS = 1024
MAX_VARIANTS = 16  # constant-value variants kept per structure


def _program(input_specs: tuple, structure: tuple, outputs: tuple,
             read_before: tuple) -> Program:
    """The program of a structure written by `linearize` (without sites): provisional
    references made slots, runtime inputs first, then one slot per instruction."""
    base = len(input_specs)
    instructions = tuple([Instruction(op, tuple([r if r >= 0 else base + ~r for r in refs]),
                                      attrs, shape, dtype)
                          for op, attrs, shape, dtype, refs in structure])
    outputs = tuple([r if r >= 0 else base + ~r for r in outputs])
    read_before = tuple([(k, r if r >= 0 else base + ~r) for k, r in read_before])
    return Program(input_specs, instructions, outputs,
                   ProgramKey((input_specs, instructions, outputs)), read_before=read_before)


# Per slice site (the user's line, input and output shapes, steps): the starts seen
# there, and the most slices one program took from it. A site whose starts come to more
# than one program takes moves (a window through a loop): its slices are emitted as
# "dynamic_slice", so the loop runs one program (after at most one more compile). A
# stencil line takes the same few starts in every program, however many steps a program
# holds and wherever a cut fell (a rank among the site's slices would not line up: a
# program that reads a computed buffer takes its first step's slices as views).
_site_starts: dict[tuple, set] = {}
_site_most: dict[tuple, int] = {}
_moving_sites: set[tuple] = set()
MAX_TRACKED_SLICES = 4096


def _slice_site(node: Node) -> tuple:
    return node.site, node.inputs[0].shape, node.shape, _attr(node, "steps")


def _attr(node: Node, name: str):
    """The value of `node`'s attribute `name` (a few pairs: no dict built)."""
    for key, value in node.attrs:
        if key == name:
            return value
    raise KeyError(name)


def _moving(node: Node, seen: dict, learn: bool = True) -> bool:
    """Whether slice `node`'s start moves between flushes at its place in the code.
    `seen` counts the program's slices per site so far. Without `learn` (a program
    computed at once because it reads a buffer shared with NumPy, cause "shared") the
    slice neither counts nor is counted: such a program holds one operation of its
    line, fewer of the line's slices than its other programs hold, so the second half
    of an `np.roll` looked like a window that moved (diffusion's first step: its rolls
    then ran as dynamic slices in every later program, which took 18-21 ms against
    15-17 with static ones)."""
    site = _slice_site(node)
    if site in _moving_sites:
        return True
    if not learn:
        return False
    starts = _attr(node, "starts")
    count = seen[site] = seen.get(site, 0) + 1
    known = _site_starts.get(site)
    if known is None:
        if len(_site_starts) >= MAX_TRACKED_SLICES:
            _site_starts.clear()
            _site_most.clear()
        known = _site_starts[site] = set()
    known.add(starts)
    most = _site_most[site] = max(_site_most.get(site, 0), count)
    if len(known) <= most:
        return False
    if len(_moving_sites) >= MAX_TRACKED_SLICES:
        _moving_sites.clear()
    _moving_sites.add(site)
    del _site_starts[site], _site_most[site]
    return True


def _cuts_to_one(node: Node) -> bool:
    """Whether `node` is a slice that cuts an axis to length 1."""
    if node.op is not SLICE:
        return False
    for n, m in zip(node.shape, node.inputs[0].shape):  # (a loop: no generator to make)
        if n == 1 < m:
            return True
    return False


def _read_attrs(node: Node) -> tuple:
    """A slice's attributes as "dynamic_slice" takes them: its sizes and steps."""
    return (("sizes", node.shape), ("steps", _attr(node, "steps")))


def _lowest_starts(node: Node) -> np.ndarray:
    """A slice's starts as "dynamic_slice" takes them: per axis, the lowest index read
    (for a negative step, the last element selected)."""
    return np.array([0 if n == 0 else a if c > 0 else a + (n - 1) * c
                     for a, c, n in zip(_attr(node, "starts"), _attr(node, "steps"),
                                        node.shape)], dtype=np.int64)


# ---------------------------------------------------------------------------------
# Live handles: arrays whose node may still be pending. A flush also evaluates those
# that share pending work with what was asked, so no subgraph is ever run twice. Each
# group of pending nodes (see _graph.Group) keeps the weak references to the handles
# tracked in it: a flush visits its own groups' handles, never every live one, so a loop
# that keeps many results (`results.append(x.mean())`) flushes in constant time.
HANDLES_VISITED = 0  # handles looked at by `_sharing_roots` (tests bound it)


def track(handle) -> None:
    """Register `handle` with the group of its (pending) node."""
    group = handle._n.group
    if group is not None:
        if group.parent is not group:  # (a root already, mostly: no call)
            group = group.root()
        group.handles[id(handle)] = weakref.ref(handle)


def _sharing_roots(requested: list[Node]) -> list[Node]:
    """`requested` plus every live pending array in the same groups: what shares pending
    work with them, directly or through others. O(handles tracked in those groups)."""
    global HANDLES_VISITED
    groups = {}
    for node in requested:
        root = node.group.root()
        groups[id(root)] = root
    roots = {id(n): n for n in requested}
    extras = {}
    for group in list(groups.values()):
        registry = group.handles
        keep = {}
        for key, ref in list(registry.items()):
            HANDLES_VISITED += 1
            handle = ref()
            if handle is None:
                continue
            node = handle._node  # a view re-derives its node from its owner's here
            if node.is_computed:
                continue
            keep[key] = ref
            if id(node.group.root()) in groups and id(node) not in roots:
                extras[id(node)] = node
        # The flush computes these groups' nodes; what is still pending afterwards
        # (handles tracked here whose node moved on) stays registered.
        group.handles = keep
    # In creation order: a registry's order depends on how groups merged (by size,
    # which counts dead handles too), and the outputs' order is part of the program key.
    return list(roots.values()) + sorted(extras.values(), key=lambda n: n.serial)


def _handles_within(requested: list[Node], order: list[Node]) -> list[Node]:
    """The pending nodes of live handles (in `requested`'s groups) that `order` computes
    anyway, besides `requested`: a flush of part of a group sets their values too, so
    nothing it computes is computed again."""
    inside = {id(n) for n in order}
    found = {id(n): None for n in requested}
    extra = []
    groups = {id(g): g for g in (n.group.root() for n in requested)}
    for group in groups.values():
        for ref in list(group.handles.values()):
            handle = ref()
            if handle is None:
                continue
            node = handle._node
            if id(node) in inside and id(node) not in found and not node.is_computed:
                found[id(node)] = None
                extra.append(node)
    return extra


# ---------------------------------------------------------------------------------
# Counters.

class Stats:
    """What the scheduler and the backends did. Backends count their own events (a
    compile, a cache hit) in `backend_events`; time spent compiling is part of the
    flush time, and is reported apart from the time spent running. `backend_seconds`
    sums the runs' own times as the backends report them (`Events.run_seconds`): the
    flush time less it is lazyarr's own (the tiers' choice included; benchmarks/micro)."""

    BACKEND_COUNTERS = ("compiles", "memory_cache_hits", "memory_cache_misses",
                        "disk_cache_hits", "disk_cache_misses", "compile_seconds")

    def __init__(self):
        self.flushes: Counter = Counter()
        self.nodes_evaluated = 0
        self.flush_seconds = 0.0
        self.backend_seconds = 0.0
        self.backend_events: Counter = Counter()
        self.fallbacks: Counter = Counter()  # NumPy functions run eagerly, by name
        self.lines: dict = {}  # per user line (file, line): an _observe.LineStats

    def as_dict(self) -> dict:
        events = {name: self.backend_events[name] for name in self.BACKEND_COUNTERS}
        events.update(self.backend_events)
        return {"flushes": dict(self.flushes), "flushes_total": sum(self.flushes.values()),
                "nodes_evaluated": self.nodes_evaluated, **events,
                "run_seconds": max(0.0, self.flush_seconds - events["compile_seconds"]),
                "fallbacks": dict(self.fallbacks),
                "lines": {_observe.site_name(site): line.as_dict()
                          for site, line in self.lines.items()}}


STATS = Stats()
_counters: list["FlushCounter"] = []


class FlushCounter:
    """Counts the flushes (materializations) caused inside a `count_flushes()` block."""

    def __init__(self):
        self.causes: Counter = Counter()

    @property
    def count(self) -> int:
        return sum(self.causes.values())


@contextlib.contextmanager
def count_flushes():
    counter = FlushCounter()
    _counters.append(counter)
    try:
        yield counter
    finally:
        _counters.remove(counter)


def stats() -> dict:
    """Flushes by cause, nodes evaluated, compiles, program cache hits and misses (in
    memory and on disk), compile and run seconds, fallbacks by function, and under
    "lines", per user line ("file:line"): flushes by cause, seconds, compiles, compile
    seconds, recompile reasons, fallbacks and host transfers; "shared_buffer_copies":
    the copies made of buffers shared with NumPy (`numpy.asarray(x)`, see `_shared`)."""
    result = STATS.as_dict()
    for name in _tiers.COUNTERS:
        result.setdefault(name, 0)
    result["tier_failures"] = list(_tiers.FAILURES)  # background compiles that failed
    result["eager_ops"] = _eager.count()  # small operations computed at once
    # copies of host buffers shared with NumPy (lazyarr._shared counts them here)
    result.setdefault("shared_buffer_copies", 0)
    return result


def reset_stats() -> None:
    global STATS
    STATS = Stats()
    _eager.reset()
    _tiers.FAILURES.clear()


# ---------------------------------------------------------------------------------

def _host_view(node: Node) -> bool:
    """Compute `node` on the host, without a program, if it is a chain of views (slices,
    reshapes, transposes) of one computed buffer on the CPU: NumPy takes the view of the
    buffer's host array, so reading an element or a row costs what NumPy's read costs.
    Returns whether it did."""
    chain = []
    while not node.is_computed:
        if node.op not in HOST_VIEW_OPS:
            return False
        chain.append(node)
        node = node.inputs[0]
    if _failed:
        _raise_if_failed([node])
    value = node.value
    if type(value) is not np.ndarray:
        # On the CPU: one device, or split over a mesh of CPU devices (gathered once).
        if getattr(value, "device", None) is None or \
                _backend.device_of(node).partition("*")[0] != "cpu":
            return False  # a device buffer elsewhere: reading it whole would be a copy
        value = _placement.host_array(value)
    for view in reversed(chain):
        value = view.op.ref(value, **dict(view.attrs))
        view.set_value(value)
    return True


# One flush at a time: the group registries, the cut point, the slice table and the
# counters are shared by every thread (re-entrant: a cut flushes inside a flush).
_flush_lock = threading.RLock()

# Called at the start of every flush that is not a size cut: `_cuts` (which imports
# this module, never the reverse) registers here the end of a cut's wait for its place.
NON_SIZE_FLUSH_HOOKS: list = []


def evaluate(nodes: Iterable[Node], cause: str, share: bool = True, leave=()) -> None:
    """Compute every pending node in `nodes` (and, with `share`, every live array that
    shares pending work with them, but for the nodes in `leave`)."""
    with _flush_lock, _interrupts.deferred():  # Ctrl-C: raised once the flush is whole
        nodes = list(nodes)
        if cause != "size":  # a read ends the pending graph: a cut's wait is over
            for hook in NON_SIZE_FLUSH_HOOKS:
                hook()
        if cause not in ASYNC_CAUSES and _in_flight and _awaits_in_flight(nodes):
            settle()
        try:
            _evaluate(nodes, cause, share, leave)
        except (ArithmeticError, LookupError, ValueError, MemoryError, RuntimeError):
            if not share:
                raise
            # The error may be another live array's that shares this work (a pending
            # `x ** -1` kept by a traceback): computing only what was asked raises it
            # only if it is ours; the others stay pending and raise when read.
            _evaluate(nodes, cause, False)


def _evaluate(nodes: Iterable[Node], cause: str, share: bool, leave=()) -> None:
    requested = [n for n in nodes if not n.is_computed and not _host_view(n)]
    if _failed:
        _raise_if_failed(nodes)
    if not requested:
        return
    if share:
        roots = _sharing_roots(requested)
        if leave:
            roots = [n for n in roots if not any(n is v for v in leave)]
        order = topological_order(roots)
    else:
        order = topological_order(requested)
        roots = requested + _handles_within(requested, order)
    for node in requested:  # what stays pending in these groups starts counting anew
        group = node.group.root()
        group.nodes = group.nbytes = group.pinned = group.recheck = 0
    if _failed:
        _raise_if_failed(order)
    program, inputs = linearize(order, roots, cause != "shared")
    backend, unloaded = _tiers.backend_for_flush(program)
    owned = (_sole_owner_inputs(order, inputs, program) if getattr(backend, "donates", False)
             else None)
    events = STATS.backend_events
    compiles, compile_seconds = events["compiles"], events["compile_seconds"]
    background = events["background_compile_seconds"]
    # (`unloaded`: a run on the interpreter while the backend loads: its timing goes to
    # the tiers, even where the load finishes during it)
    contended = unloaded and _tiers.busy()
    start = time.perf_counter()
    try:
        results, ran, deferred = _tiers.run(backend, program, inputs, owned or frozenset(),
                                            STATS, block=cause not in ASYNC_CAUSES)
    except (ArithmeticError, LookupError, ValueError) as exc:
        _name_the_check(exc, program)
        raise
    seconds = time.perf_counter() - start
    if unloaded:
        _tiers.interpreted_before_load(program, seconds, contended or _tiers.busy(), inputs,
                                       owned or frozenset())
        events["interpreted_runs"] += 1
    STATS.flush_seconds += seconds
    STATS.backend_seconds += ran.run_seconds
    counts = ran.counts()
    if counts:  # (none on most runs: Counter.update is Python code)
        events.update(counts)
    _observe.flushed(STATS, cause, program, seconds, events["compiles"] - compiles,
                     events["compile_seconds"] - compile_seconds,
                     events["background_compile_seconds"] - background)
    STATS.flushes[cause] += 1
    STATS.nodes_evaluated += program.operations()
    for counter in _counters:
        counter.causes[cause] += 1
    if _in_flight:  # computed from an unread step: shares its fate
        leaves = [n for n in order if n.op is INPUT]
        for _, fate, _ in _in_flight:
            if fate.shares(leaves):
                fate.add(roots)
    # An unread step keeps its outputs' graphs (their inputs are whole: it donated
    # nothing), to be made pending again if the run itself fails.
    undo = [(node, node.pending_state()) for node in roots] if deferred is not None else None
    for node, value in zip(roots, results):
        node.set_value(value)
    if deferred is not None:
        _in_flight.append((deferred, _Fate(roots), undo))
        while len(_in_flight) > MAX_IN_FLIGHT:
            settle(1)


# ---------------------------------------------------------------------------------
# Asynchronous steps (DESIGN: "Flushes that are not host reads do not wait for the
# device"). A size cut (nothing reads its results yet) runs without waiting: the
# backend returns futures, and the step's runtime checks (bounds, LinAlgError) are
# read at the next flush that waits (a read, control flow, a data-dependent shape,
# eval), at the next read of a computed array, or once MAX_IN_FLIGHT steps are unread.
# A failed check's error is raised there with the user's line of the operation, and
# every later read of the step's outputs, or of anything computed from them, raises it
# again (their values are what XLA computed with its indices clamped). A step whose run
# itself failed (a BackendFailure: out of memory once it ran) raises that error there,
# and its outputs, and those of the unread steps computed from them, are pending again:
# such a step donated nothing (`_tiers`), so its inputs are whole, and the arrays can
# be computed again, as after a failure at a flush that waits.
ASYNC_CAUSES = frozenset(["size"])
MAX_IN_FLIGHT = 4
# (read the checks, the nodes whose fate they decide (a `_Fate`), the outputs' graphs)
_in_flight: list = []
_failed: "weakref.WeakKeyDictionary[Node, BaseException]" = weakref.WeakKeyDictionary()


class _Fate:
    """The nodes whose fate an unread step decides (its outputs, and what was computed
    from them before it was read), held weakly: a set of weak references, so that a
    flush asks whether its leaves meet them in one set operation (a WeakSet asked node
    by node, in Python code, was 3% of lbm's main thread in py-spy's samples)."""

    __slots__ = ("refs",)

    def __init__(self, nodes):
        self.refs = set(map(weakref.ref, nodes))

    def __contains__(self, node) -> bool:
        return weakref.ref(node) in self.refs

    def shares(self, nodes) -> bool:
        return not self.refs.isdisjoint(map(weakref.ref, nodes))

    def add(self, nodes) -> None:
        self.refs.update(map(weakref.ref, nodes))

    def __iter__(self):
        """Those still alive."""
        return iter([node for node in (ref() for ref in self.refs) if node is not None])


def _awaits_in_flight(nodes: list) -> bool:
    """Whether a flush of `nodes` waits for the unread steps: it computes something, or
    reads an unread step's output. Reading computed arrays alone does not: lbm's
    `f[obstacle, :]` reads its computed mask (a data-dependent shape) every step, and
    each such read waited for the device, so Python never ran ahead of it (block_until_
    ready was 0.51 of 0.90 s in a cProfile of 20 compiled steps)."""
    for node in nodes:
        if not node.is_computed:
            return True
        for _, fate, _ in _in_flight:
            if node in fate:
                return True
    return False


def settle(limit: int | None = None) -> None:
    """Read the checks of the unread asynchronous steps (at most `limit`), oldest
    first, and raise the first failed one's error."""
    with _flush_lock:
        count = 0
        while _in_flight and (limit is None or count < limit):
            read, fate, undo = _in_flight.pop(0)
            count += 1
            try:
                read()
            except BackendFailure:
                _undo(undo)
                _settle_after_failure()
                raise
            except BaseException as exc:
                for node in fate:
                    _failed[node] = exc
                raise


def _undo(undo) -> None:
    for node, state in reversed(undo):
        if node.is_computed:
            node.restore(state)


def _settle_after_failure() -> None:
    """After a step's run failed: the later unread steps (which may have taken its
    outputs as inputs) are read now, each made pending again if its run failed too, or
    its outputs marked failed if a check failed; their errors are not raised (the
    first failure's is)."""
    while _in_flight:
        read, fate, undo = _in_flight.pop(0)
        try:
            read()
        except BackendFailure:
            _undo(undo)
        except BaseException as exc:  # noqa: BLE001  (raised at their reads)
            for node in fate:
                _failed[node] = exc


def _raise_if_failed(nodes: Iterable[Node]) -> None:
    """The error of a failed asynchronous step, raised anew, if a node is its output."""
    for node in nodes:
        exc = _failed.get(node) if node.is_computed else None
        if exc is not None:
            again = type(exc)(*exc.args)
            for note in getattr(exc, "__notes__", ()):
                again.add_note(note)
            raise again


def _name_the_check(exc: BaseException, program) -> None:
    """A runtime check's error from a backend that did not say which instruction
    raised it: the note names the checked instruction it matches."""
    if any(str(n).startswith("lazyarr:") for n in getattr(exc, "__notes__", ())):
        return
    for check in program.checks or ():
        if isinstance(exc, check.error) and str(exc) == check.message:
            name_the_line(exc, program, check.instruction)
            return


def _sole_owner_inputs(order: list[Node], inputs: list, program: Program) -> frozenset[int]:
    """Positions of the inputs whose buffer nothing outside this program can see: the
    leaf node is held only by this program's pending nodes (no handle, no other pending
    graph) and its buffer only by the leaf (no NumPy view, no user reference), or also
    by NumPy views of it that are themselves such inputs (gauss's `a[c:, c-1:]` of a
    computed `a`, taken by the first step after a cut: a view dies with the program,
    so the matrix written into is the program's to write; a backend that writes into
    it does so once no view of it is read any more). A backend may reuse ("donate")
    such a buffer for an output: `x = x * a + b` in a loop then needs no second buffer."""
    uses = _leaf_uses(program)
    gained = _gained()
    if gained:
        uses = list(uses)
        for position in gained:
            uses[position] -= 1
    owned, viewed, position = [], None, 0
    for node in order:
        if node.op is INPUT:
            # Holders we know of: the consumers' input tuples, `order`, this loop's
            # variable and getrefcount's argument; for the buffer: the node, `inputs`
            # and the argument.
            if sys.getrefcount(node) == uses[position] + 3:
                holders = sys.getrefcount(inputs[position])
                if holders == 3:
                    owned.append(position)
                elif type(inputs[position]) is np.ndarray:  # held by views, perhaps
                    if viewed is None:
                        viewed = {}
                    viewed[id(inputs[position])] = [position, holders - 3]
            position += 1
    if viewed:  # each owned view of a buffer accounts for one of its holders
        for position in owned:
            value = inputs[position]
            if type(value) is np.ndarray and value.base is not None:
                entry = viewed.get(id(value.base))
                if entry is not None:
                    entry[1] -= 1
        owned += [position for position, unknown in viewed.values() if unknown == 0]
    return frozenset(owned)


_uses: dict = {}  # program key -> per input slot, how many operands read it


def _leaf_uses(program: Program) -> list[int]:
    """Per runtime input of `program`, how many instruction operands read it (a leaf
    read twice by one instruction counts twice): the structure's, kept by its key."""
    uses = _uses.get(program.key)
    if uses is None:
        uses = [0] * len(program.input_specs)
        for ins in program.instructions:
            for i in ins.inputs:
                if i < len(uses):
                    uses[i] += 1
        if len(_uses) >= MAX_PROGRAMS:
            _uses.clear()
        _uses[program.key] = uses
    return uses


def to_numpy(node: Node, cause: str) -> np.ndarray:
    """The node's value as a host NumPy array, evaluating it first if needed."""
    evaluate([node], cause)
    if _failed:
        _raise_if_failed([node])
    value = node.value
    if type(value) is not np.ndarray:  # a backend's buffer, copied to the host
        _observe.transferred(STATS, node.dtype.itemsize * math.prod(node.shape),
                             node.shape, node.dtype)
    return _placement.host_array(value)
