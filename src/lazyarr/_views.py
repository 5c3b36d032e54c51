"""The view algebra: where a handle's data sits as NumPy would lay it out, and how a
view's node derives from its owner's.

A view records its owner and the steps (slice, reshape and transpose primitives) from
the owner's node to its own. `replay` derives the view's node again after the owner
changed; `push_back` turns a write into the view into the owner's new node (an
`update_slice` for a slice, the inverse reshape or transpose, the other part of a
complex owner for `real`/`imag`). Each handle's `Layout`
also holds a NumPy stand-in with the strides NumPy's array would have (over a fake
one-element buffer, never read), which answers `flags`, `shares_memory` and whether
NumPy's `reshape`/`ravel` would copy. Nothing here builds an Array.
"""

from __future__ import annotations

import builtins
import functools

import numpy as np

from ._errors import user_site
from ._graph import Node, apply, build, leaf
from ._ops import OPS
from ._ops_bytes import strided_index

class Layout:
    """Where a handle's data sits, as NumPy would have it: the owner it views (None for
    an owner), the steps from the owner's node to its own, the owner's node it was
    derived from, its NumPy stand-in, and its WRITEABLE flag. The stand-in may be made
    only when asked for, from a `recipe` (the parent's stand-in, a function, a shape);
    so may the steps, from a function giving them (a window the eager path made of a
    computed buffer: its steps are needed only once the window or its owner is
    written, see `_api/indexing._eager_view`)."""
    __slots__ = ("base", "_steps", "seen", "_probe", "_recipe", "writeable")

    def __init__(self, base, steps, seen, probe, writeable, recipe=None):
        self.base, self._steps, self.seen = base, steps, seen
        self._probe, self._recipe, self.writeable = probe, recipe, writeable

    @property
    def steps(self) -> tuple:
        steps = self._steps
        if callable(steps):
            steps = self._steps = steps()
        return steps

    @steps.setter
    def steps(self, steps: tuple) -> None:
        self._steps = steps

    def steps_from(self, owner_node: Node) -> tuple:
        """The steps from the owner's `owner_node`. NumPy's `a.shape = ...` reshapes the
        owner in place and its earlier views keep viewing the same memory: a view made
        when the owner had another shape starts with a reshape back to that shape."""
        seen = self.seen
        if seen is not None and owner_node.shape != seen.shape:
            self.steps = compose((step("reshape", shape=seen.shape),), self.steps)
            self.seen = owner_node
        return self.steps

    @property
    def probe(self) -> np.ndarray:
        if self._probe is None:
            parent_probe, probe_fn, shape = self._recipe
            self._probe, self._recipe = probe_fn(parent_probe, shape), None
        return self._probe


@functools.lru_cache(maxsize=256)
def owner_probe(shape: tuple, dtype: np.dtype, order: str = "C") -> np.ndarray:
    """A contiguous NumPy stand-in of an owner: right strides, a fake one-element
    buffer. Only its layout is ever read (views of it, flags, memory overlap); owners
    are told apart before their stand-ins are compared, so owners of one shape share."""
    if 0 in shape:
        return np.empty(shape, dtype, order=order)
    dims = range(len(shape)) if order == "C" else range(len(shape) - 1, -1, -1)
    strides, stride = [0] * len(shape), dtype.itemsize
    for axis in reversed(dims):
        strides[axis], stride = stride, stride * shape[axis]
    return np.lib.stride_tricks.as_strided(np.zeros(1, dtype), shape, tuple(strides))


def is_fortran(probe: np.ndarray) -> bool:
    """NumPy's PyArray_ISFORTRAN: Fortran-contiguous and not C-contiguous."""
    return probe.flags.f_contiguous and not probe.flags.c_contiguous


def contiguous_ravel(probe, order: str, contiguous: bool):
    if not contiguous:
        raise ValueError("ravel copies")
    return np.reshape(probe, -1, order=order, copy=False)


def memory_order_ravel(probe, perm):
    """NumPy's ravel("K") of a non-contiguous array: a view when its axes, by
    decreasing stride, are contiguous with positive strides."""
    stride = probe.itemsize
    for axis in reversed(perm):
        if probe.shape[axis] != 1:
            if probe.strides[axis] != stride:
                raise ValueError("ravel copies")
            stride *= probe.shape[axis]
    return np.lib.stride_tricks.as_strided(probe, (probe.size,), (probe.itemsize,))


class Flags:
    """NumPy's `ndarray.flags` of a lazyarr array: the layout NumPy's array would have.
    Owners are C-contiguous; WRITEABLE can be cleared, and set again as NumPy allows."""
    __slots__ = ("_array",)
    _NAMES = {"C_CONTIGUOUS": "c_contiguous", "C": "c_contiguous",
              "CONTIGUOUS": "c_contiguous", "F_CONTIGUOUS": "f_contiguous",
              "F": "f_contiguous", "FORTRAN": "f_contiguous", "OWNDATA": "owndata",
              "O": "owndata", "WRITEABLE": "writeable", "W": "writeable",
              "ALIGNED": "aligned", "A": "aligned", "WRITEBACKIFCOPY": "writebackifcopy",
              "X": "writebackifcopy"}

    def __init__(self, array):
        self._array = array

    @property
    def c_contiguous(self) -> bool:
        return bool(self._array._layout_of().probe.flags.c_contiguous)

    @property
    def f_contiguous(self) -> bool:
        return bool(self._array._layout_of().probe.flags.f_contiguous)

    @property
    def owndata(self) -> bool:
        return self._array.base is None

    aligned = property(lambda self: True)
    writebackifcopy = property(lambda self: False)

    @property
    def writeable(self) -> bool:
        return self._array._layout_of().writeable

    @writeable.setter
    def writeable(self, value) -> None:
        layout = self._array._layout_of()
        if value and layout.base is not None and (
                not layout.base._layout_of().writeable
                or builtins.any(op == "broadcast_to" for op, _ in layout.steps)):
            raise ValueError("cannot set WRITEABLE flag to True of this array")
        layout.writeable = builtins.bool(value)

    def __getitem__(self, key: str) -> bool:
        return getattr(self, self._NAMES[key])

    def __setitem__(self, key: str, value) -> None:
        if self._NAMES.get(key) != "writeable":
            raise KeyError(f"Unknown flag {key!r}")
        self.writeable = value

    def __repr__(self) -> str:
        names = ("C_CONTIGUOUS", "F_CONTIGUOUS", "OWNDATA", "WRITEABLE", "ALIGNED",
                 "WRITEBACKIFCOPY")
        return "".join(f"  {name} : {self[name]}\n" for name in names)


# broadcast_to views are read-only (NumPy's): they are replayed, never written through.
# bitcast (`view(dtype)`) and strided (`as_strided`) are the byte-level views; `real`
# and `imag` of a complex array are views of one part of each element.
VIEW_OPS = ("slice", "reshape", "transpose", "broadcast_to", "bitcast", "strided", "real",
            "imag")


def step(op_name: str, **attrs) -> tuple:
    """One view step, as a node records it: (primitive name, sorted attributes)."""
    return (op_name, tuple(sorted(attrs.items())))


def replay(node: Node, steps) -> Node:
    """`node` through view `steps` (the user's line found once for the chain)."""
    if steps:
        site = user_site()
        for op_name, attrs in steps:
            node = build(op_name, (node,), attrs, site)
    return node


def steps_between(node: Node, origin: Node):
    """The view steps that lead from `origin` to `node`, or None if there are none."""
    steps = []
    while node is not origin:
        if node.op.name not in VIEW_OPS:
            return None
        steps.append((node.op.name, node.attrs))
        node = node.inputs[0]
    return tuple(reversed(steps))


def compose(chain, steps) -> tuple:
    """`chain` followed by `steps`, with consecutive steps of one kind merged, so a
    view of a view of a view replays as few primitives as one view."""
    if not chain:
        return tuple(steps)
    chain = list(chain)
    for op_name, attrs in steps:
        if chain and chain[-1][0] == op_name:
            first, second = dict(chain.pop()[1]), dict(attrs)
            if op_name == "slice":
                attrs = _merged_slices(first, second)
            elif op_name == "transpose":
                axes = tuple(first["axes"][a] for a in second["axes"])
                if axes == tuple(range(len(axes))):
                    continue
                attrs = (("axes", axes),)
        chain.append((op_name, attrs))
    return tuple(chain)


def _merged_slices(first: dict, second: dict) -> tuple:
    starts, stops, steps = [], [], []
    for a1, c1, a2, b2, c2 in zip(first["starts"], first["steps"], second["starts"],
                                  second["stops"], second["steps"]):
        n = len(range(a2, b2, c2))
        start, stride = a1 + c1 * a2, c1 * c2
        starts.append(start), steps.append(stride)
        stops.append(max(start + n * stride, -1))
    return step("slice", starts=tuple(starts), stops=tuple(stops), steps=tuple(steps))[1]


def push_back(origin: Node, steps, values: Node) -> Node:
    """The new value of `origin` once the part that `steps` select holds `values`."""
    while True:
        k = None
        for j in range(len(steps) - 1, -1, -1):
            if steps[j][0] == "strided":
                k = j
                break
        if k is None:
            return _push_back_steps(origin, steps, values)
        part = next((j for j in range(k + 1, len(steps)) if steps[j][0] in ("real", "imag")),
                    None)
        if part is not None:  # the parts of complex elements go back as whole elements
            values = _push_back_steps(replay(origin, steps[:part]), steps[part:], values)
            steps = steps[:part]
            continue
        # a scatter, in C order, into the flat buffer the strided step reads
        values, steps = _scatter_strided(replay(origin, steps[:k]), steps[k:], values), steps[:k]
        if not steps:
            return values


def _push_back_steps(origin: Node, steps, values: Node) -> Node:
    """push_back through steps without `strided`: each step undone, last first. (The
    nodes are built with the user's line found once: profiled, 280 writes through views
    a run of lbm --quick were 15 of its 97 ms of recording.)"""
    site = user_site()
    parents = [origin]
    for op_name, attrs in steps[:-1]:
        parents.append(build(op_name, (parents[-1],), attrs, site))
    for (op_name, attrs), parent in zip(reversed(steps), reversed(parents)):
        if op_name == "reshape":
            values = build("reshape", (values,), (("shape", parent.shape),), site)
        elif op_name == "transpose":
            axes = dict(attrs)["axes"]
            inverse = tuple(sorted(range(len(axes)), key=axes.__getitem__))
            values = build("transpose", (values,), (("axes", inverse),), site)
        elif op_name == "bitcast":
            values = _bitcast_back(parent, values)
        elif op_name == "real":
            values = apply("complex", values, apply("imag", parent))
        elif op_name == "imag":
            values = apply("complex", apply("real", parent), values)
        else:  # a slice
            attrs = dict(attrs)
            starts, strides = attrs["starts"], attrs["steps"]
            if values.shape != parent.shape or any(c != 1 for c in strides):
                starts = np.array(starts, np.int64)
                values = build("update_slice", (parent, values,
                                                leaf(starts, starts.shape, starts.dtype)),
                               (("steps", strides),), site)
    return values


def gathers(steps) -> bool:
    """Whether a view's steps read through `as_strided` (its elements may alias)."""
    return builtins.any(op_name == "strided" for op_name, _ in steps)


def _scatter_strided(flat: Node, steps, values: Node) -> Node:
    """`flat` with `values` written where `steps` (a strided step, then slices,
    reshapes, transposes and same-size bitcasts) select: the positions are found by
    applying the steps to the strided step's index, so elements that alias get the
    value written last in C order, as NumPy writes them."""
    index = strided_index(**dict(steps[0][1]))
    for op_name, attrs in steps[1:]:
        if op_name != "bitcast":  # a same-size bitcast keeps the positions
            index = OPS[op_name].ref(index, **dict(attrs))
    index = np.ascontiguousarray(index).reshape(-1)
    if not index.size:
        return flat
    values = apply("reshape", values, shape=(index.size,))
    if values.dtype != flat.dtype:
        values = apply("bitcast", values, dtype=flat.dtype, shape=values.shape)
    unique = bool(np.unique(index).size == index.size)
    return apply("scatter", flat, leaf(index, index.shape, index.dtype), values, unique=unique)


def _bitcast_back(parent: Node, values: Node) -> Node:
    """`parent` holding `values`, a view of it as another dtype. XLA's booleans are 0
    or 1, so a bool view of other bytes keeps each byte whose truth is unchanged."""
    if values.dtype != np.bool_ or parent.dtype == np.bool_:
        return apply("bitcast", values, dtype=parent.dtype, shape=parent.shape)
    uint8 = np.dtype(np.uint8)
    old = apply("bitcast", parent, dtype=uint8, shape=values.shape)
    same = apply("equal", values, apply("bitcast", parent, dtype=values.dtype,
                                        shape=values.shape))
    kept = apply("select", same, old, apply("convert", values, dtype=uint8))
    return apply("bitcast", kept, dtype=parent.dtype, shape=parent.shape)
