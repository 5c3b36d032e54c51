"""Graph nodes and the walks over them.

A node is an application of a primitive to input nodes, with static attributes and
the shape and dtype its rules computed at build time. A node never changes, except
once: when it is computed, its buffer replaces it (`op` becomes "input", `inputs`
empty), so every handle that refers to it sees the value and the graph behind it is
released. Every walk here uses an explicit stack: a chain of 100,000 operations must
not hit Python's recursion limit.
"""

from __future__ import annotations

import itertools
import math
import operator
from typing import Iterable

import numpy as np

from ._errors import user_site
from ._ops import OPS, Op
from ._registry import PrimitiveError, RuleError

INPUT = OPS["input"]
_serials = itertools.count()


class Node:
    # (`nbytes`: its result's bytes, set once; a SmallLeaf's count as 0, see Group)
    __slots__ = ("op", "inputs", "attrs", "shape", "dtype", "value", "depth", "site",
                 "group", "serial", "nbytes", "__weakref__")

    def __init__(self, op: Op, inputs: tuple, attrs: tuple, shape: tuple, dtype: np.dtype,
                 value=None, site=None):
        self.op = op
        self.inputs = inputs
        self.attrs = attrs
        self.shape = shape
        self.dtype = dtype
        self.value = value
        self.site = site  # (file, line) of the user's code that built it, see _errors
        # Creation order: the scheduler lists a flush's outputs in it, so that a loop
        # body's flushes have one program key whatever order its handles were tracked in.
        self.serial = next(_serials)
        if op is INPUT:
            self.depth = 0  # (a computed node has no inputs)
            self.group = None
            self.nbytes = dtype.itemsize * math.prod(shape)
        else:
            _pend(self, inputs, shape, dtype)

    @property
    def is_computed(self) -> bool:
        return self.op is INPUT

    def set_value(self, value) -> None:
        """Replace this node by its computed buffer; the graph behind it is released."""
        self.op = INPUT
        self.inputs = ()
        self.attrs = ()
        self.value = value
        self.depth = 0
        self.group = None

    def pending_state(self) -> tuple:
        """What `restore` needs to make this node pending again once computed."""
        return (self.op, self.inputs, self.attrs)

    def restore(self, state: tuple) -> None:
        """Make a computed node pending again, as `pending_state` found it (its inputs
        must still be whole): the scheduler's undo of a step that failed after its
        results were taken (an asynchronous run out of memory)."""
        self.op, self.inputs, self.attrs = state
        self.value = None
        depth = -1
        for node in self.inputs:
            if node.depth > depth:
                depth = node.depth
        self.depth = depth + 1
        group = self.group = _joined_group(self.inputs)
        group.nodes += 1

    def __repr__(self) -> str:
        return f"<Node {self.op.name} {self.shape} {self.dtype}>"


class Group:
    """A union-find set of pending nodes: `root()` names the set. The root keeps the
    registry of live handles whose node was in the set when they were tracked (weak
    references by handle id; some may since point elsewhere), so a flush finds the
    arrays that share its work by visiting its own groups' handles only. It also counts
    the set's pending nodes and the bytes of their results (the scheduler's node-count
    and live-bytes bounds), and the bytes of the computed operands its nodes read, once
    per read (`pinned`: where the scheduler's bound on the buffers that only pending
    work keeps alive starts from; `recheck`: where it looks again, see `_cuts`)."""
    __slots__ = ("parent", "handles", "nodes", "nbytes", "pinned", "recheck")

    def __init__(self):
        self.parent = self
        self.handles: dict = {}
        self.nodes = 0
        self.nbytes = 0
        self.pinned = self.recheck = 0

    def root(self) -> "Group":
        group = self
        while group.parent is not group:
            group.parent = group.parent.parent  # path halving
            group = group.parent
        return group


def _pend(node: Node, inputs: tuple, shape: tuple, dtype: np.dtype) -> None:
    """Set a new pending node's depth (the longest chain of pending nodes ending at it:
    the scheduler's size bound) and group: pending nodes linked through pending inputs
    form one group, as they share work, so the scheduler evaluates the live arrays of a
    group together. Its group is a root. (Inputs outside every group, as computed ones
    are, make a group of its own, built here without `Group.__init__`'s call.)"""
    depth = -1
    group = None
    many = False
    pinned = 0
    for n in inputs:
        if n.depth > depth:
            depth = n.depth
        if n.group is not None:
            if group is None:
                group = n.group
            else:
                many = True
        else:
            pinned += n.nbytes
    node.depth = depth + 1
    size = dtype.itemsize
    for d in shape:
        size *= d
    node.nbytes = size
    if many:
        group = _joined_group(inputs)
    elif group is not None:
        if group.parent is not group:
            group = group.root()
    else:
        group = _new_node(Group)
        group.parent = group
        group.handles = {}
        group.nodes = 1
        group.nbytes = size
        group.pinned = pinned
        group.recheck = 0
        node.group = group
        return
    node.group = group
    group.nodes += 1
    group.nbytes += size
    group.pinned += pinned


def pending(op: Op, inputs: tuple, attrs: tuple, shape: tuple, dtype: np.dtype,
            site) -> Node:
    """`Node(op, inputs, attrs, shape, dtype, site=site)` of a primitive other than
    "input", without the type call and `__init__`'s frame (every operation builds one:
    the elementwise fast paths and `build`)."""
    node = _new_node(Node)
    node.op = op
    node.inputs = inputs
    node.attrs = attrs
    node.shape = shape
    node.dtype = dtype
    node.value = None
    node.site = site
    node.serial = next(_serials)
    _pend(node, inputs, shape, dtype)
    return node


def _joined_group(inputs) -> Group:
    """The group of a new node: its pending inputs' groups, merged (the smaller
    registry into the larger, so a handle moves O(log n) times)."""
    joined = None
    for node in inputs:
        if node.group is not None:
            root = node.group.root()
            if joined is None:
                joined = root
            elif root is not joined:
                if len(root.handles) > len(joined.handles):
                    root, joined = joined, root
                root.parent = joined
                # Keys are handle ids: a dead handle's id may be a live one's now, and
                # its stale entry must not replace the live handle's (which a flush
                # would then miss: computed, its value dropped, run again later).
                clash = root.handles.keys() & joined.handles.keys()
                kept = {key: joined.handles[key] for key in clash}
                joined.handles.update(root.handles)
                for key, ref in kept.items():
                    if ref() is not None:
                        joined.handles[key] = ref
                root.handles = {}
                joined.nodes += root.nodes
                joined.nbytes += root.nbytes
                joined.pinned += root.pinned
                joined.recheck = max(joined.recheck, root.recheck)
    return joined if joined is not None else Group()


def leaf(value, shape: tuple, dtype: np.dtype) -> Node:
    """A node whose value is already known (a buffer or a NumPy array)."""
    return Node(INPUT, (), (), shape, dtype, value)


class SmallLeaf(Node):
    """A computed leaf of the eager path (see `_eager`): its value is a NumPy array of
    NumPy's numeric dtypes with at most `_eager.MAX_ELEMENTS` elements, so its type
    alone tells the eager fast path that it may take it as an operand. (Made only by
    `_array.small_array`.) What every computed leaf has in common is in the class, so
    making one sets its value alone: it never changes, as no computed node does, and
    its serial is 0, as serials order pending nodes only (`_flush._sharing_roots`)."""
    __slots__ = ()
    op = INPUT
    inputs = attrs = ()
    depth = serial = nbytes = 0  # (small: not counted as kept alive, see Group)
    site = group = None
    # `SmallLeaf()` is then made by C alone (type_call, object's new and init): 40 ns
    # less than `object.__new__(SmallLeaf)` of 150 (3.11, best of 30 x 100,000).
    __init__ = object.__init__
    # Its shape and dtype are its value's, read when asked (C getters, no frame): making
    # one then sets its value alone, 40-70 ns less an eager operation (small_loop).
    shape = property(operator.attrgetter("value.shape"))
    dtype = property(operator.attrgetter("value.dtype"))


_new_node = object.__new__


def computed(value: np.ndarray) -> Node:
    """`leaf(value, value.shape, value.dtype)` of a NumPy array, built without the
    pending-node bookkeeping (the eager path builds one per operation)."""
    node = _new_node(Node)
    node.op = INPUT
    node.inputs = node.attrs = ()
    node.shape = value.shape
    node.dtype = value.dtype
    node.value = value
    node.depth = 0
    node.site = node.group = None
    node.serial = next(_serials)
    node.nbytes = value.nbytes
    return node


def apply(op_name: str, *inputs: Node, **attrs) -> Node:
    """Build a node of primitive `op_name`, computing its shape and dtype now (the
    rules validate what they get: a `PrimitiveError` names a node lazyarr built
    wrong)."""
    return build(op_name, inputs, tuple(sorted(attrs.items())) if attrs else (),
                 user_site())


# (primitive name, input shapes, input dtypes, sorted attributes) -> (shape, dtype): what
# the rules (and check_size) gave, for primitives whose rules read their attributes'
# values only as ints and tuples of ints, or that have none: 1 and 1.0 are equal keys,
# which must not matter. Profiled (lbm --quick, 1690 nodes a run): the rules, the size
# check and the attribute sorting were 2.6 of apply's 4.3 us per slice.
_RULES: dict = {}
_RULES_MAX = 8192
_STRUCTURAL = frozenset({"slice", "reshape", "transpose", "broadcast_to", "concatenate",
                         "update_slice"})


def build(op_name: str, inputs: tuple, attrs: tuple, site) -> Node:
    """`apply` with the attributes as a node holds them (sorted (name, value) pairs)
    and the user's `site` found by the caller (one walk for a chain of nodes)."""
    op = OPS[op_name]
    if len(inputs) == 1:
        only = inputs[0]
        shapes, dtypes = (only.shape,), (only.dtype,)
    else:
        shapes = tuple([n.shape for n in inputs])
        dtypes = tuple([n.dtype for n in inputs])
    memo = not attrs or op_name in _STRUCTURAL
    if memo:
        key = (op_name, shapes, dtypes, attrs)
        known = _RULES.get(key)
        if known is not None:
            return pending(op, inputs, attrs, known[0], known[1], site)
    kwargs = dict(attrs)
    try:
        shape = tuple(op.shape_rule(list(shapes), **kwargs))
        dtype = op.dtype_rule(list(dtypes), **kwargs)
    except RuleError as error:
        raise PrimitiveError(
            f"lazyarr internal error: primitive {op_name!r} built with operands of shapes "
            f"{list(shapes)} and dtypes {[str(d) for d in dtypes]}, attributes {kwargs}: "
            f"{error}") from None
    check_size(op_name, shape, dtype)
    if memo and all(type(n) is int for n in shape):
        if len(_RULES) >= _RULES_MAX:
            _RULES.clear()
        _RULES[key] = (shape, dtype)
    return pending(op, inputs, attrs, shape, dtype, site)


# Results NumPy gives without allocating (views): only their element count is bounded.
_NO_ALLOCATION = frozenset({"broadcast_to", "reshape", "transpose", "slice"})
_INTP_MAX = 2**63 - 1


def check_size(op_name: str, shape: tuple, dtype: np.dtype) -> None:
    """NumPy's errors for a result it could not hold, at the call that builds it
    (XLA aborts the process or fails at the read): a dimension or a byte size beyond
    intp is ValueError; more bytes than this machine can allocate (its memory and
    swap, the bound Linux's default overcommit applies) is MemoryError."""
    size = 1
    for n in shape:
        if n > _INTP_MAX:
            raise ValueError("Maximum allowed dimension exceeded")
        size *= n
    if op_name in _NO_ALLOCATION:
        if size > _INTP_MAX:
            raise ValueError("iterator is too large")
        return
    nbytes = size * np.dtype(dtype).itemsize
    if nbytes > _INTP_MAX:
        raise ValueError("array is too big; `arr.size * arr.dtype.itemsize` is larger "
                         "than the maximum possible size.")
    if nbytes > allocatable_bytes():
        raise MemoryError(f"Unable to allocate {_human(nbytes)} for an array with shape "
                          f"{shape} and data type {np.dtype(dtype)}")


_allocatable: list = []


def allocatable_bytes() -> int:
    """Physical memory plus swap: the largest single allocation the host may grant."""
    if not _allocatable:
        total = 2**62
        try:
            import os
            total = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
            with open("/proc/meminfo") as f:
                for line in f:
                    if line.startswith("SwapTotal:"):
                        total += int(line.split()[1]) * 1024
        except (OSError, ValueError, AttributeError):
            pass
        _allocatable.append(total)
    return _allocatable[0]


def _human(nbytes: int) -> str:
    """NumPy's size in its MemoryError message: '72.8 TiB'."""
    units, value = ("bytes", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"), float(nbytes)
    k = 0
    while value >= 1024 and k < len(units) - 1:
        value, k = value / 1024, k + 1
    return f"{nbytes} bytes" if k == 0 else f"{value:#.3g} {units[k]}"


def topological_order(roots: Iterable[Node]) -> list[Node]:
    """Pending nodes reachable from `roots` (computed nodes included as leaves), inputs
    before the nodes that use them: the post-order of a depth-first walk taking inputs
    left to right. Iterative: a stack of (node, iterator over its inputs)."""
    order: list[Node] = []
    seen: set[Node] = set()  # (nodes compare by identity)
    add, append = seen.add, order.append
    for root in roots:
        if root in seen:
            continue
        add(root)
        if not root.inputs:
            append(root)
            continue
        stack = [(root, iter(root.inputs))]
        push, pop = stack.append, stack.pop
        while stack:
            node, children = stack[-1]
            for child in children:
                if child not in seen:
                    add(child)
                    if child.inputs:  # walked first; this node's other inputs after it
                        push((child, iter(child.inputs)))
                        break
                    append(child)
            else:
                pop()
                append(node)
    return order


def count_pending(root: Node) -> int:
    """How many uncomputed nodes stand behind `root`."""
    return sum(1 for n in topological_order([root]) if not n.is_computed)
