"""Host buffers shared with NumPy: `numpy.asarray(x)` and `x.__array__()`.

NumPy's `asarray(ndarray)` returns the array itself: writes through it change the
array and its views, and the array's later writes show through it. lazyarr does the
same for its arrays. The first export of an array's owner makes a writable host
buffer `h` its storage (its computed NumPy buffer itself when nothing else can see
that one, else a copy), and from then on, while the owner lives, its node is a leaf
`L` whose value is `h`, and NumPy code may write `h` at any time, unseen:

- every read of the owner (or of one of its views) reads `h` as it is then;
- an operation reading the owner reads `h` through a fresh leaf `P` (no copy) that
  carries a group (see `_graph.Group`), so that what is built on it is found by its
  group: an array or write built on `P` is computed as soon as it is recorded (a
  flush of cause "shared"), from `h` as it is then, exactly when NumPy would compute
  it, so a later write through `h` cannot change its result; a result that still
  shares memory with `h` (`x.copy()`, a reshape NumPy copies) is then copied, as
  NumPy copies it;
- a lazy write into the owner (or one of its views) is made at once into `h` itself
  (NumPy's in-place assignment, for the writes `backend_api.WRITES_IN_PLACE` lists
  and masked writes), and a ufunc with `out=` it (`x += 1`) is NumPy's ufunc writing
  into `h` (`ufunc_into`); another write is computed and copied into `h`;
- no program is given `h` to write into or donate (the leaf has other holders).

So there is no copy of `h` per operation, and none at all in the common case on the
CPU (an export of a computed NumPy buffer nothing else holds, reads, views,
operations on the array, element, slice, index, mask and ufunc writes into it). The
copies there are are counted in `lazyarr.stats()["shared_buffer_copies"]`; what
costs one: the export of a buffer a device owns (XLA's) or other arrays share, and a
write of another kind (`x.sort()`, computed then copied in). The price of no copy:
an operation on an exported array is not fused with what it reads. Setting
`shape` or `strides` on the owner makes NumPy's view of its memory with that layout
its buffer (the arrays NumPy holds keep sharing it); `resize` raises NumPy's
ValueError for a shared buffer, and with `refcheck=False` ends the sharing (the owner
keeps a copy), where NumPy would reallocate under the arrays it gave out.

What stays different: `numpy.asarray(x)` is a NumPy array, not `x`, so a layout set
on `x` does not change that array's own shape; pandas copies an ndarray given to
`Series()` but takes the `numpy.asarray` of any other array-like as it is, so a
Series built from a lazyarr array shares its memory (`tests/test_shared_buffers.py`).
"""

from __future__ import annotations

import sys
import weakref

import numpy as np

from . import _flush
from ._graph import Group, leaf
from ._ops import OPS
from ._ops_mutation import IN_PLACE

# id(owner) -> (weak reference to the owner, its host buffer, the leaf whose value it is,
# the NumPy array owning that memory: the buffer itself, unless `relayout` made it a view)
EXPORTED: dict[int, tuple] = {}
# The pending reads handed out (the nodes `P`): a new array or write that joins one's
# group reads an exported buffer and is computed at once. id(P) -> (weak reference to
# P, its buffer); a plain dict, since every new array asks whether it is empty.
WATCH: dict[int, tuple] = {}
_WRITES = {OPS[name]: fn for name, fn in IN_PLACE.items()}
_SELECT, _RESHAPE = OPS["select"], OPS["reshape"]
_COPIES = "shared_buffer_copies"


def _entry(owner):
    entry = EXPORTED.get(id(owner))
    if entry is None or entry[0]() is not owner:
        return None
    return entry


def _drop(key: int):
    def callback(_ref):
        EXPORTED.pop(key, None)
    return callback


def _copied() -> None:
    _flush.STATS.backend_events[_COPIES] += 1


def buffer_if_exported(x):
    """The host buffer `x`'s owner shares with NumPy, or None."""
    entry = _entry(x._owner())
    return None if entry is None else entry[1]


def private(node, order: str = "C") -> bool:
    """Whether nothing but its owner can see the computed `node`'s NumPy buffer, so that
    it may be shared, or written, as it is: writable, its own memory in `order`, held
    by `node` only (no view of it, no other array's data, no export), and `node` held
    by the owner only (no view's layout, no lazy copy, no pending operation). The
    holders counted: the owner's `_n`, our caller's and our own variables and
    getrefcount's argument."""
    value = node.value
    return (type(value) is np.ndarray and value.base is None and value.flags.owndata
            and value.flags.writeable
            and (value.flags.f_contiguous if order == "F" else value.flags.c_contiguous)
            and sys.getrefcount(value) == 3 and sys.getrefcount(node) == 4)


def buffer_of(owner) -> np.ndarray:
    """The owner's shared host buffer, made on first use from its current value."""
    entry = _entry(owner)
    if entry is not None:
        return entry[1]
    node = owner._n
    _flush.evaluate([node], "read")
    probe = owner._layout_of().probe  # C order, or Fortran for a Fortran-ordered copy
    order = "F" if probe.flags.f_contiguous and not probe.flags.c_contiguous else "C"
    if private(node, order):
        h = node.value
    else:  # lazyarr's other buffers stay private
        h = np.array(_flush.to_numpy(node, "read"), copy=True, order=order)
        _copied()
        node = owner._n = leaf(h, h.shape, h.dtype)
    key = id(owner)
    EXPORTED[key] = (weakref.ref(owner, _drop(key)), h, node, h)
    return h


def adopt(owner, h: np.ndarray) -> None:
    """Make the NumPy array `h` itself the new `owner`'s shared buffer (`owner`'s node
    a leaf whose value is `h`): `asarray(ndarray)` is the ndarray in NumPy, so writes
    on either side are seen by the other, and what is built on it is computed from `h`
    as it is then. `h` is C-contiguous, writable and of a native numeric dtype."""
    key = id(owner)
    EXPORTED[key] = (weakref.ref(owner, _drop(key)), h, owner._n, h)


def export(x) -> np.ndarray:
    """A writable NumPy array sharing memory with `x` (an owner or a view)."""
    owner = x._owner()
    h = buffer_of(owner)
    if owner is x:
        return h
    memory = _entry(owner)[3]
    probe, owner_probe = x._layout_of().probe, owner._layout_of().probe
    offset = (probe.__array_interface__["data"][0]
              - owner_probe.__array_interface__["data"][0])
    if not x.size:  # no element to reach (the imaginary parts of none start past the end)
        offset = 0
    view = np.ndarray(x.shape, x.dtype, buffer=memory, offset=offset, strides=probe.strides)
    if not x._layout_of().writeable:
        view.flags.writeable = False
    return view


def live_value(x):
    """`x`'s value as NumPy's array over its owner's shared buffer as it is now, without
    a node (an operation computed at once reads it so: NumPy's `w.mean()` of a window
    `w` of the buffer): the buffer for the owner, the view the eager path made for a
    window of it (`_api/indexing._host_view`). None where the owner is not exported,
    has a write not made yet, or `x` is another view (the general path reads those)."""
    owner = x._owner()
    entry = _entry(owner)
    if entry is None or owner._n is not entry[2]:
        return None
    if owner is x:
        return entry[1]
    value = x._n.value
    if x._layout.seen is entry[2] and type(value) is np.ndarray and value.base is entry[3]:
        return value
    return None


def current(owner):
    """The node an operation reading the exported `owner` uses (None if it is not
    exported): a pending read of its buffer, watched so that what is built on it is
    computed at once."""
    entry = _entry(owner)
    if entry is None:
        return None
    h, node = entry[1], entry[2]
    if owner._n is not node:  # a write not made yet (one inside a failed call)
        after_write(owner)
    read = leaf(h, h.shape, h.dtype)
    read.group = Group()  # what is built on it joins this group: it is found by it
    key = id(read)
    WATCH[key] = (weakref.ref(read, _unwatch(key)), h)
    return read


def _unwatch(key: int):
    def callback(_ref):
        WATCH.pop(key, None)
    return callback


def _watched(node):
    """The buffers of the pending reads in `node`'s group, or None."""
    group = node.group
    if group is None:
        return None
    root = group.root()
    found = []
    for ref, h in list(WATCH.values()):
        read = ref()
        if read is not None and read.group is not None and read.group.root() is root:
            found.append(h)
    return found or None


def reading(handle) -> None:
    """`handle` (a new array, or one just written) is computed now if it reads an
    exported buffer (see the module's docstring)."""
    buffers = _watched(handle._n)
    if buffers is None:
        return
    node = handle._n
    # the live arrays this flush computes too (they share its work)
    others = [ref() for ref in list(node.group.root().handles.values())]
    _flush.evaluate([node], "shared")
    for other in [handle] + others:
        # a view, or an exported array, shares the buffer; other results must not
        if other is None or not other._n.is_computed or other._owner() is not other \
                or _entry(other) is not None:
            continue
        value = other._n.value
        if type(value) is np.ndarray and any(np.may_share_memory(value, h)
                                             for h in buffers):
            other._n.value = value.copy()  # NumPy's own copy (`x.copy()`, a reshape)


def after_write(owner) -> None:
    """A lazy write into `owner` (or a view of it): if it is exported, the write is made
    now into its buffer; otherwise, if what it writes reads an exported buffer, it is
    computed now."""
    entry = _entry(owner)
    if entry is None:
        if WATCH:
            reading(owner)
        return
    h, target = entry[1], entry[2]
    node = owner._n
    if node is target:
        return
    # The owner's value is its buffer again before anything is computed (what the
    # write reads may visit the owner), and stays so if the write fails, as in NumPy.
    owner._n = target
    if not _in_place(node, h):
        np.copyto(h, _flush.to_numpy(node, "read"))
        _copied()


def _in_place(node, h) -> bool:
    """Make the write `node` (the owner's new value) into `h` itself, as NumPy makes it:
    a write into a region or at indices of `h` (`x[i:j] = v`, `x[idx] = v`, `ufunc.at`,
    `x[mask, :] = v`: `_write_target`), or a masked one (`x[mask] = v`, a select
    between `h` and values). Returns whether it did; the operands are computed first
    (NumPy computes them before it writes)."""
    write, target = _write_target(node, h)
    if write is not None and not write.op.checks:
        values = _operands(write.inputs[1:], h)
        _WRITES[write.op](target, *values, **dict(write.attrs))
        return True
    inputs = node.inputs
    if node.op is _SELECT and node.shape == h.shape:
        keep = 2 if _is_buffer(inputs[2], h) else 1 if _is_buffer(inputs[1], h) else 0
        if keep:
            cond, values = _operands((inputs[0], inputs[3 - keep]), h)
            np.copyto(h, values, where=cond if keep == 2 else ~cond)
            return True
    return False


def _write_target(node, h) -> tuple:
    """The write (region, indices) that `node` makes into `h`, and the NumPy array it
    writes into: `h`, or NumPy's view of `h` reshaped where `node` reshapes back a
    write into `h` reshaped (`x[mask, :] = v` scatters the rows of `x` with the mask's
    axes merged). (None, None) for any other node."""
    if node.op is _RESHAPE and node.inputs[0].op in _WRITES and h.flags.c_contiguous:
        write = node.inputs[0]
        written = write.inputs[0]
        if written.op is _RESHAPE and _is_buffer(written.inputs[0], h):
            return write, h.reshape(written.shape)
    if node.op in _WRITES and _is_buffer(node.inputs[0], h):
        return node, h
    return None, None


def _is_buffer(node, h) -> bool:
    return node.is_computed and node.value is h


def _operands(nodes, h) -> list:
    """The operands' values on the host; those sharing memory with `h` copied (NumPy's
    assignment reads what it overwrites first too)."""
    _flush.evaluate([n for n in nodes if not n.is_computed], "read")
    values = [_flush.to_numpy(n, "read") for n in nodes]
    return [v.copy() if np.may_share_memory(v, h) else v for v in values]


def ufunc_into(np_ufunc, args, out, **kwargs) -> bool:
    """`np_ufunc(*args, out=out, ...)` run by NumPy itself into the shared buffer, when
    `out` is one array (or view) whose buffer NumPy shares and the ufunc has one output:
    NumPy's in-place ufunc (`x += 1`, `np.add(x, y, out=x)`), with no temporary and no
    copy, and NumPy's errors. The operands are read first (as NumPy reads them); no
    floating-point warning is raised, as on lazyarr's other paths. Returns whether it
    did."""
    if isinstance(out, tuple):
        if len(out) != 1:
            return False
        out = out[0]
    owner = getattr(out, "_owner", None)
    if np_ufunc.nout != 1 or owner is None or _entry(owner()) is None:
        return False
    target = export(out)

    def host(value):
        return value._value("read") if hasattr(value, "_owner") else value

    values = [host(a) for a in args]
    kwargs = {k: host(v) for k, v in kwargs.items()}
    with np.errstate(all="ignore"):
        np_ufunc(*values, out=target, **kwargs)
    return True


def relayout(owner, view: np.ndarray) -> None:
    """The exported `owner` now has the layout of `view`, NumPy's view of its memory
    (`x.shape = ...`, `x.strides = ...` on the owner): `view` becomes its buffer, so
    the arrays NumPy already holds keep sharing its memory, as NumPy's do."""
    entry = _entry(owner)
    node = owner._n = leaf(view, view.shape, view.dtype)
    EXPORTED[id(owner)] = (entry[0], view, node, entry[3])


def forget(owner) -> None:
    """End the sharing (the owner changes shape in place): it keeps a private copy."""
    entry = _entry(owner)
    if entry is not None:
        del EXPORTED[id(owner)]
        h = entry[1].copy()
        _copied()
        if owner._n is entry[2]:
            owner._n = leaf(h, h.shape, h.dtype)
