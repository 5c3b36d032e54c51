"""Size cuts: the bounds on pending graphs and where a cut is placed.

A pending graph is evaluated (a flush of cause "size") once it grows past a bound in
any direction: its chain depth, its group's node count, or the bytes of its live
intermediates. Where in a loop body the cut falls is chosen here, so that it falls at
the same place each iteration and every cut after the first runs a cached program.

Imports run one way: this module imports the scheduler (`_flush`), never the reverse.
The operations that build nodes call `bound`; a flush that is not a size cut ends a
cut's wait for its place through `_flush.NON_SIZE_FLUSH_HOOKS`, where this module
registers `_forget_cheapest`.
"""

from __future__ import annotations

import sys
import threading

from . import _eager
from ._flush import (HOST_VIEW_OPS, NON_SIZE_FLUSH_HOOKS, SLICE, _cuts_to_one, _moving_sites,
                     _read_attrs, _slice_site, evaluate)
from ._graph import Node, count_pending

# A pending chain longer than this is evaluated (cause "size", see `bound`). A loop then
# compiles a few programs of bounded size instead of one giant unrolled one, and from
# the second cut on runs them from the cache. None disables the bound.
MAX_PENDING_DEPTH: int | None = 60
# Bounds in the other directions: the pending nodes of a group (what would be one
# program) and the bytes of their results. Many independent pending results joined by
# one node (`np.array(results)`, `sum(results)`) make a wide program that compiles for
# seconds; past these bounds the scheduler cuts (see `bound`). None disables either.
MAX_PENDING_NODES: int | None = 400
MAX_PENDING_BYTES: int | None = 4 << 30
# Computed buffers that nothing but pending work holds (NumPy would have freed them):
# `total = total + y[y > 0].sum()` in a loop keeps every step's `y` and mask indices
# alive until `total` is read (masking, 1e6 elements, 20 steps: 228 MiB more at its
# peak, against 19 MiB with `total` computed each step). Past this many bytes of such
# buffers, and `PINNED_PER_LARGEST` times the largest of them (a loop's state, read by
# every step, is one buffer: cutting frees nothing), the scheduler cuts (see
# `_pinned`). None disables it.
MAX_PINNED_BYTES: int | None = 32 << 20
PINNED_PER_LARGEST = 4

# The local signature of the node the last cut was made at: the main thread's here,
# other threads' in `_cuts` (each thread's loops cut at their own repeating points).
_last_cut: tuple | None = None
# After a forced cut (no node like the last cut's came within the forced bounds: a loop
# whose shapes change every iteration), that place's signature without shapes and
# attributes (`_shapeless`), which the next cuts take instead; None otherwise. The main
# thread's here, other threads' in `_cuts.loose`.
_loose_cut: tuple | None = None
_cuts = threading.local()
# While a cut waits for its place: the fewest other arrays' bytes a cut would compute
# at a place seen, that place's signature, how often it came, and the signature without
# shapes that counts it (see `_weigh`; other threads' in `_cuts.cheapest`).
_cheapest: tuple | None = None
# Loose cuts in a row (any thread's): see `_cut`.
_loose_cuts = [0]


def _local_signature(node: Node, levels: int = 3) -> tuple:
    """A node's place in a loop body: its op, attributes, shape and dtype and those of
    the nodes `levels` steps behind it. The same in every iteration of a loop, unlike
    the whole graph behind it; a few levels tell apart the body's similar nodes. A
    slice to length 1 counts without its position (`a[i]` leaves `i` out of the key)."""
    head = _head(node)
    if levels == 0 or node.is_computed:
        return head
    return head + tuple(_local_signature(i, levels - 1) for i in node.inputs)


def _shapeless(signature: tuple) -> tuple:
    """A local signature's ops and dtypes alone: the place in a loop body whose slices
    shrink or move (`a[c:, c-1:]`), where shapes and positions change every iteration."""
    name, _, _, dtype, *inputs = signature
    return (name, dtype, *map(_shapeless, inputs))


def _head(node: Node) -> tuple:
    """The first four entries of `node`'s local signature: its own op, attributes,
    shape and dtype."""
    moves = node.op is SLICE and _slice_site(node) in _moving_sites
    attrs = _read_attrs(node) if moves or _cuts_to_one(node) else node.attrs
    return (node.op.name, attrs, node.shape, node.dtype)


def bound(node: Node) -> None:
    """Evaluate `node` now if the pending graph behind it has grown past a bound: its
    chain depth, or its group's node count or result bytes.

    Cuts are made at the same place of a loop body each time: past the bound, the cut
    waits for a node like the one the last cut was made at (at most another bound's
    worth), so every cut after the first runs the same program from the cache. A cut
    forced there instead makes the next ones wait for the place seen meanwhile where
    the fewest other live arrays would be its outputs too (`_weigh`). A node
    joining many pending inputs at once (`np.array(results)`) has them computed first,
    in batches of a bounded size (alike batches run one cached program)."""
    group = node.group
    if group is None:
        return
    if group.parent is not group:
        group = group.root()
    # Within every bound (every operation but a cut's): four comparisons, no call.
    if (MAX_PENDING_DEPTH is None or node.depth <= MAX_PENDING_DEPTH) \
            and (MAX_PENDING_NODES is None or group.nodes <= MAX_PENDING_NODES) \
            and (MAX_PENDING_BYTES is None or group.nbytes <= MAX_PENDING_BYTES) \
            and (MAX_PINNED_BYTES is None or group.pinned <= MAX_PINNED_BYTES
                 or group.pinned <= group.recheck):
        return
    # Past one (every node while a cut waits for its place): no call until the head.
    depth, most_deep, most_nodes, most_bytes = (node.depth, MAX_PENDING_DEPTH,
                                                MAX_PENDING_NODES, MAX_PENDING_BYTES)
    deep = most_deep is not None and depth > most_deep
    pinned = (MAX_PINNED_BYTES is not None and group.pinned > MAX_PINNED_BYTES
              and _pinned(node, group))
    # The bytes behind `node`: a single huge result is no reason to cut.
    behind = group.nbytes - node.nbytes
    large = ((most_nodes is not None and group.nodes > most_nodes)
             or (most_bytes is not None and behind > most_bytes) or pinned)
    if not (deep or large):
        return
    forced = ((most_deep is not None and depth > 2 * most_deep)
              or (most_nodes is not None and group.nodes > 2 * most_nodes)
              or (most_bytes is not None and behind > 2 * most_bytes)
              or (pinned and group.pinned > -2 * group.recheck))
    # (a deep node waits for its place, within the forced bounds, whatever its width)
    if large and not deep and _cut_inputs(node):
        return
    main = threading.current_thread() is threading.main_thread()
    last = _last_cut if main else getattr(_cuts, "signature", None)
    loose = _loose_cut if main else getattr(_cuts, "loose", None)
    # The node's own head first: the whole signature (dozens of tuples three levels
    # deep) is built only for a node that may match, not for each node while waiting.
    if not (last is None or forced or _head(node) == last[:4]
            or loose is not None and node.op.name == loose[0] and node.dtype == loose[1]):
        _weigh(node, group, main, _extra_bytes(node, group))
        return
    signature = _local_signature(node)
    if forced:
        cheapest = _cheapest if main else getattr(_cuts, "cheapest", None)
        if cheapest is not None and cheapest[2] > 1 \
                and cheapest[0] < _extra_bytes(node, group):
            signature = cheapest[1]  # where the next cuts wait for
        loose = None if signature == last else _shapeless(signature)
    elif last is None:
        # A first cut: here if at most one more array of this size is live, else (once
        # forced) where the fewest bytes were (`_weigh`).
        extra = _extra_bytes(node, group)
        if extra > node.nbytes:
            _weigh(node, group, main, extra)
            return
        loose = None
    elif signature == last:
        loose = None  # (the last cut's place itself: its shapes repeat again)
    elif loose is None or _shapeless(signature) != loose:
        _weigh(node, group, main, _extra_bytes(node, group))
        return
    # A cut: forced, a first one, at the last cut's place, or at the loose place with
    # this iteration's shapes (which the next cuts keep taking).
    _cut(node, main, signature, loose)


def _pinned(node: Node, group) -> bool:
    """Whether `group` is past the bound on computed buffers that only pending nodes
    hold: those behind `node` come to more than `MAX_PINNED_BYTES` and
    `PINNED_PER_LARGEST` times the largest of them. Then the group's `recheck` is
    minus its reads' bytes at that point, and it stays past the bound until it is
    computed (a cut waits for its place in a loop body, as for the other bounds: one
    made where it was found past cost Game of Life 38 MiB more at its peak, for the
    arrays live there); else it is looked at again once the group has read another
    `MAX_PINNED_BYTES`. Whether pending nodes alone hold a buffer is told by its
    node's references: those of the nodes behind `node` that read it, against all of
    them (a live array, a view, another group's node or the scheduler's tables hold it
    too, and keep it whatever a cut does)."""
    if group.recheck < 0:
        return True
    if group.pinned <= group.recheck:
        return False
    uses = _computed_reads(node)
    alone = [n.nbytes for (n, _), more in zip(uses.values(), _other_references(uses))
             if more == _OWN_REFERENCES]
    total = sum(alone)
    if total > MAX_PINNED_BYTES and total > PINNED_PER_LARGEST * max(alone):
        group.recheck = -group.pinned
        return True
    group.recheck = group.pinned + MAX_PINNED_BYTES
    return False


def _computed_reads(node: Node) -> dict:
    """{id: (computed node, how many reads of it)} over the pending nodes behind `node`
    (its own locals gone once it returns: no reference of this walk's is left over)."""
    uses: dict = {}
    seen = {id(node)}
    stack = [node]
    while stack:
        for operand in stack.pop().inputs:
            if operand.group is None:
                held = uses.get(id(operand))
                uses[id(operand)] = (operand, 1) if held is None else (operand, held[1] + 1)
            elif id(operand) not in seen:
                seen.add(id(operand))
                stack.append(operand)
    return uses


def _other_references(uses: dict) -> list[int]:
    """Per (node, reads) of `uses`, its references besides the `reads`; those this
    code itself makes are `_OWN_REFERENCES` (how CPython counts them varies between
    versions, so it is measured, below)."""
    return [sys.getrefcount(n) - reads for n, reads in uses.values()]


def _own_references() -> int:
    """`_other_references` of an object held by one reader and nothing else."""
    obj = object()
    reader = (obj,)  # noqa: F841  (the one reference it stands for)
    uses = {id(obj): (obj, 1)}
    del obj
    return _other_references(uses)[0]


_OWN_REFERENCES = _own_references()


def _cut(node: Node, main: bool, signature: tuple, loose: tuple | None) -> None:
    """Cut at `node`; the next cuts wait for `signature`'s place (or `loose`'s). After
    `_eager.WIDE_AFTER` loose cuts in a row (a loop whose shapes change every iteration,
    whose programs are all new), operations of any size are computed at once for a
    while (`_eager.widen`)."""
    global _last_cut, _loose_cut
    if main:
        _last_cut, _loose_cut = signature, loose
    else:
        _cuts.signature, _cuts.loose = signature, loose
    _loose_cuts[0] = _loose_cuts[0] + 1 if loose is not None else 0
    if _loose_cuts[0] >= _eager.WIDE_AFTER:
        _loose_cuts[0] = 0
        _eager.widen()
    _set_cheapest(main, None)
    _cut_at(node)


def _cut_at(node: Node) -> None:
    """Evaluate a size cut's `node`; at a view (a chain of slices, reshapes, transposes
    and broadcasts of a pending node), the node it views instead, the chain left pending
    (a view of a computed buffer afterwards): the view made an output was a copy on
    XLA, and on the interpreter a NumPy view of the result, which the next program then
    took as one more input holding the buffer (gauss cut at `a[c:, c-1:]` 9 times a
    run, at `a[c-1, c-1]` 57 times without the eager path). The chain's depths are made
    those over a computed node, so the next operations are not past the bound at once."""
    chain = []
    base = node
    while base.op in HOST_VIEW_OPS:
        chain.append(base)
        base = base.inputs[0]
    if not chain or base.is_computed:
        evaluate([node], "size")
        return
    evaluate([base], "size", leave=chain)
    for view in reversed(chain):
        if not view.is_computed:
            view.depth = view.inputs[0].depth + 1


def _weigh(node: Node, group, main: bool, extra: int) -> None:
    """Remember the place, of those seen while a cut waits, where a cut would compute
    the fewest other arrays' bytes (`extra`, from `_extra_bytes`), and how often it
    came: a forced cut makes the next cuts wait for it if it came twice (a loop whose
    iteration is shorter than the bound: its cuts land where the iteration keeps
    little live, and repeat). A place comes again whatever its shapes: gauss's write
    `a[c:, c-1:] = ...` has new shapes every iteration, and its cuts went to the
    subtraction before it, which a cut there made an output of its own."""
    cheapest = _cheapest if main else getattr(_cuts, "cheapest", None)
    if cheapest is None or extra < cheapest[0]:
        signature = _local_signature(node)
        _set_cheapest(main, (extra, signature, 1, _shapeless(signature)))
    elif extra == cheapest[0] and node.op.name == cheapest[3][0] \
            and node.dtype == cheapest[3][1] \
            and _shapeless(_local_signature(node)) == cheapest[3]:
        _set_cheapest(main, cheapest[:2] + (cheapest[2] + 1, cheapest[3]))


def _set_cheapest(main: bool, cheapest: tuple | None) -> None:
    """Set the calling thread's cheapest place (the main thread's, else `_cuts`'s)."""
    global _cheapest
    if main:
        _cheapest = cheapest
    else:
        _cuts.cheapest = cheapest


def _forget_cheapest() -> None:
    """End this thread's wait for a cut's place (a place seen by a loop that has ended
    must not become the place a later loop's cuts wait for)."""
    _set_cheapest(threading.current_thread() is threading.main_thread(), None)


def _extra_bytes(node: Node, group) -> int:
    """The bytes of `group`'s live pending arrays other than `node` and its operands:
    what a cut at `node` computes besides it (see `_flush._sharing_roots`). Live
    operands are left out: most are the statement's own temporaries and old values,
    dead once it binds its result (`s = s + a[i]`). Drops dead handles from the
    registry."""
    dead, seen, extra = [], {id(node), *map(id, node.inputs)}, 0
    handles = group.handles
    for key, ref in list(handles.items()):
        handle = ref()
        if handle is None:
            dead.append(key)
            continue
        other = handle._n  # (a view's node as last derived: no new node here)
        if id(other) not in seen and other.group is not None \
                and other.group.root() is group:
            seen.add(id(other))
            extra += other.nbytes
    for key in dead:
        handles.pop(key, None)
    return extra


def _cut_inputs(node: Node) -> bool:
    """Compute `node`'s pending inputs in batches of at most half the node bound, when it
    has several: each batch alone, since what joins them is `node` itself. Returns
    whether it did."""
    pending = [i for i in node.inputs if not i.is_computed]
    if len(pending) < 2:
        return False
    limit = max(1, (MAX_PENDING_NODES or 400) // 2)
    batch, size = [], 0
    for child in pending:
        count = count_pending(child)
        if batch and size + count > limit:
            evaluate(batch, "size", share=False)
            batch, size = [], 0
        batch.append(child)
        size += count
    evaluate(batch, "size", share=False)
    if node.group is not None:
        group = node.group.root()
        group.nodes, group.nbytes = 1, node.nbytes
        group.pinned = group.recheck = 0
    return True


NON_SIZE_FLUSH_HOOKS.append(_forget_cheapest)
