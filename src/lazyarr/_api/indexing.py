"""Indexing: `x[key]` and `x[key] = value` for every key NumPy accepts, `take`,
`take_along_axis`, and the functions whose result shape depends on data (`nonzero`,
`argwhere`, `compress`).

Basic indices (integers, slices, `...`, `None`) become one `slice` and one `reshape`,
a view of `x` (see `_array`); assigning to them is an `update_slice` written through.
Integer-array indices slice first, then move the advanced axes to the front and merge
them into one, so reading is one `take` (one XLA gather) and writing one `scatter` of
rows. Boolean masks decide the result's shape, so they are materialized (a flush with
cause "shape") and continue as integer indices, or, for a mask not computed before
`x[mask]`, as one `boolean_index` node of its count. Indices known on the host are
bounds-checked at once; lazy ones by a `normalize_index` node, which raises IndexError
when the program runs.
"""

from __future__ import annotations

import math
import operator
import threading
import warnings
import weakref
from typing import NamedTuple, Sequence

import numpy as np

from .. import _cuts, _dtypes, _eager, _settings
from .._array import small_array
from .._graph import INPUT, Node, SmallLeaf, computed
from .._placement import host_array as host_buffer
from .._shared import EXPORTED, buffer_if_exported, private
from .._views import compose, replay, step
from .._ops import broadcast_shapes
from . import export
from .common import (apply, Array, as_array, astype, broadcast_node, cast_unsafe,
                     check_index, host_array, leaf, normalize_axis, reshape_node,
                     transpose_node, wrap)
from .elementwise import add, clip, multiply, remainder, where_

_INVALID_INDEX = ("only integers, slices (`:`), ellipsis (`...`), numpy.newaxis (`None`) "
                  "and integer or boolean arrays are valid indices")


def _host_index(value: np.ndarray) -> np.ndarray:
    if value.dtype.kind not in "biu":
        if value.size == 0 and value.dtype.kind == "f":
            return value.astype(np.int64)  # x[[]] is an empty integer index
        raise IndexError("arrays used as indices must be of integer (or boolean) type")
    return value


def _classify(entry):
    """One key entry as ('none'|'ellipsis'|'slice'|'int'|'array'|'mask', payload)."""
    if entry is None:
        return ("none", None)
    if entry is Ellipsis:
        return ("ellipsis", None)
    if isinstance(entry, slice):
        return ("slice", entry)
    if isinstance(entry, (bool, np.bool_)):
        return ("mask", np.asarray(entry))
    if isinstance(entry, Array):
        if _dtypes.is_bool(entry.dtype):
            return ("mask", entry)
        if not _dtypes.is_integer(entry.dtype):
            raise IndexError("arrays used as indices must be of integer (or boolean) type")
        return ("array", entry)
    if isinstance(entry, (int, np.integer)):
        return ("int", operator.index(entry))
    if isinstance(entry, (list, tuple, np.ndarray)):
        if isinstance(entry, (list, tuple)) and any(isinstance(e, Array) for e in entry):
            return _classify(as_array(entry))
        value = _host_index(np.asarray(entry))
        return ("mask", value) if value.dtype.kind == "b" else ("array", value)
    try:
        return ("int", operator.index(entry))
    except TypeError:
        raise IndexError(_INVALID_INDEX) from None


def _expand(x: Array, key) -> tuple[list[tuple[str, object]], bool]:
    """Classified entries with the ellipsis expanded and masks turned into integer
    index arrays (materializing lazy masks), one entry per indexed axis; and whether
    the key has integer index arrays (whose indices may repeat, unlike a mask's)."""
    entries = [_classify(e) for e in _as_tuple(key)]
    if sum(kind == "ellipsis" for kind, _ in entries) > 1:
        raise IndexError("an index can only have a single ellipsis ('...')")
    consumed = sum(1 if kind in ("slice", "int", "array") else
                   p.ndim if kind == "mask" else 0 for kind, p in entries)
    if consumed > x.ndim:
        raise IndexError(f"too many indices for array: array is {x.ndim}-dimensional, "
                         f"but {consumed} were indexed")
    fill = [("slice", slice(None))] * (x.ndim - consumed)
    if not any(kind == "ellipsis" for kind, _ in entries):
        entries.append(("ellipsis", None))
    expanded, axis = [], 0
    for kind, payload in entries:
        if kind == "ellipsis":
            expanded.extend(fill)
            axis += len(fill)
        elif kind == "mask":
            expanded.extend(_mask_to_indices(x, payload, axis))
            axis += payload.ndim
        else:
            expanded.append((kind, payload))
            axis += kind != "none"
    return expanded, any(kind == "array" for kind, _ in entries)


def _as_tuple(key) -> tuple:
    return key if isinstance(key, tuple) else (key,)


# The index leaves of the last few computed masks: a mask fixed across a loop's steps
# (an obstacle, a boundary) is searched once, not at every read and write through it.
# node -> (a copy of its value, or None, the leaves). A computed node's value never
# changes unless it is a buffer NumPy shares (`_shared`), whose writes are unseen: such
# a mask is compared with the copy of it that was searched (10 us for 160,000 elements,
# where np.nonzero takes 0.4-1.6 ms). What is kept lives as long as its mask, where
# NumPy frees a search's indices after the operation: a mask whose indices (and copy)
# would take more than `MAX_MASK_BYTES` is searched each time, as NumPy does.
_MASK_INDICES: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()
_MAX_MASKS = 8
MAX_MASK_BYTES = 16 << 20
_MASKS_LOCK = threading.Lock()


def _mask_to_indices(x: Array, mask, axis: int) -> Sequence[tuple[str, object]]:
    if mask.ndim == 0:  # x[True] adds an axis of length 1, x[False] of length 0
        return [("newaxis_pick", np.zeros(int(host_array(mask)), np.int64))]
    for k, n in enumerate(mask.shape):
        if x.shape[axis + k] != n and n:  # NumPy lets a mask's empty axis match any
            raise IndexError(f"boolean index did not match indexed array along axis "
                             f"{axis + k}; size of axis is {x.shape[axis + k]} but size of "
                             f"corresponding boolean axis is {n}")
    if isinstance(mask, Array) and mask._owner() is mask and mask._n.op is INPUT:
        return _known_indices(mask._n, buffer_if_exported(mask) is not None)
    return _index_leaves(host_array(mask, "shape"))


def _known_indices(node: Node, shared: bool) -> tuple:
    """The index leaves of the computed mask `node`, searched once while its value
    stays (`_MASK_INDICES`)."""
    known = _MASK_INDICES.get(node)
    if known is not None and not shared:
        return known[1]
    value = host_buffer(node.value)
    if known is not None and np.array_equal(known[0], value):
        return known[1]
    leaves = tuple(_index_leaves(value))
    kept = sum([index.value.nbytes for _, index in leaves]) + (value.nbytes if shared else 0)
    if kept > MAX_MASK_BYTES:
        return leaves
    with _MASKS_LOCK:  # (another thread's insertion would end the iteration)
        if len(_MASK_INDICES) >= _MAX_MASKS:
            _MASK_INDICES.pop(next(iter(_MASK_INDICES)), None)
        _MASK_INDICES[node] = (value.copy() if shared else None, leaves)
    return leaves


def _index_leaves(mask: np.ndarray) -> list[tuple[str, object]]:
    # np.nonzero's indices are int64, in bounds and ours alone: leaves as they are, not
    # checked and copied again as a caller's index arrays are (`_index_node`)
    return [("array", leaf(idx, idx.shape, idx.dtype)) for idx in np.nonzero(mask)]


def _index_node(index, size: int, axis: int):
    """A normalized int64 index node: checked now if its values are known, else in the
    program; a mask's indices (`_mask_to_indices`) are one already."""
    if isinstance(index, Node):
        return index
    if isinstance(index, Array) and index._node.is_computed:
        index = host_buffer(index._node.value)
    elif isinstance(index, Array) and size == 0 and index.size:
        # a non-empty index into an empty axis is out of bounds whatever its values:
        # read them for NumPy's error at the call (XLA cannot even take from it)
        index = host_array(index)
    if isinstance(index, np.ndarray):
        value = check_index(index, size, axis)
        return leaf(value, value.shape, value.dtype)
    node = astype(index, np.int64)._node
    return apply("normalize_index", node, size=size, axis=axis)


def _is_advanced(entries) -> bool:
    return any(kind in ("array", "newaxis_pick") for kind, _ in entries)


def getitem(x, key) -> Array:
    """`x[key]` with NumPy's basic and advanced indexing rules; a basic index gives a
    view of `x` (a NumPy scalar when every index is an integer)."""
    if type(key) is int or type(key) is tuple:
        element = _element(x, key)
        if element is not None:
            return element
    view = _eager_view(x, key)
    if view is not None:
        return view
    x = as_array(x)
    if type(key) is Array:
        selected = _pending_mask_select(x, key)
        if selected is not None:
            return selected
    basic = _basic(x, key)
    if type(basic) is _Advanced:
        plan = _advanced_plan(x, basic.entries)
        taken = apply("take", replay(x._node, plan.steps), plan.flat, axis=0)
        return wrap(reshape_node(transpose_node(taken, plan.order), plan.shape))
    steps, probe_key, scalar, where = basic
    # (not `wrap`: a view allocates nothing)
    exported = EXPORTED and buffer_if_exported(x) is not None
    if not exported:
        node = _host_view(x._node, steps, probe_key, where.shape)
    elif where.shape or not scalar:
        # a window of an exported buffer is NumPy's view of it too, made from the node
        # the array holds (its reads re-derive it, see `Array._node`)
        node = _host_view(x._n, steps, probe_key, where.shape)
    else:  # an element: read below
        node = None
    if node is None and exported:
        # a view of an exported array reads its buffer when read: it is built from the
        # array's node, unread; a NumPy scalar is its element now (see `_shared`)
        node = replay(x._n, steps)
        result = wrap(replay(x._node, steps) if scalar and node.shape == () else node, scalar)
    else:
        if node is None:
            node = replay(x._node, steps)
            _cuts.bound(node)
        result = Array(node, scalar)
    if result._scalar:
        return result
    return x._make_view(result, steps, lambda probe, shape: probe[probe_key])


def _leading_mask(x: Array, key) -> bool:
    """Whether `key` is a boolean mask (lazy or NumPy's) over x's leading axes."""
    return (isinstance(key, (Array, np.ndarray)) and key.dtype == np.bool_
            and 1 <= key.ndim <= x.ndim and key.shape == x.shape[:key.ndim])


def _pending_mask_select(x: Array, mask: Array) -> Array | None:
    """`x[mask]` for a mask not computed yet, over x's leading axes: the mask is
    computed (a flush, cause "shape") and counted, and the selection is a
    `boolean_index` node, not searched for its indices on the host. A backend may then
    reduce the selection without gathering it (XLA sums `where(mask, x, -0.0)`:
    `x[x > 0].sum()` in one pass over x). None for any other mask (a computed one's
    indices are kept, see `_known_indices`)."""
    if not _leading_mask(x, mask) or mask._node.is_computed:
        return None
    count = int(np.count_nonzero(host_array(mask, "shape")))
    return wrap(apply("boolean_index", x._node, mask._node, count=count))


def _host_view(node, steps, probe_key, shape):
    """The node of a basic view of computed NumPy buffer `node` where operations are
    computed eagerly (see `_eager`): a computed leaf of NumPy's own view of the buffer
    (`buffer[probe_key]`, nothing copied), as the interpreter's slice would give, so a
    moving window `x[s:s + k]` builds and checks no slice node (profiled on
    benchmarks' windows: replaying the slice, its shape rule, group and site were 40%
    of a window's getitem). None otherwise (the view's steps are recorded), and for a
    view past the eager bound, which the operations on it record: a program taking
    such views as inputs differs from the one taking their buffer once a compiled run
    has left it in XLA's, and cannot donate the buffer (lbm's planes `f[:, :, i]`: its
    first compiled program ran once, then two others needed compiling). The view's
    layout still follows its owner: a write into either re-derives it (`Array._node`);
    a view holding the buffer keeps it from being donated or shared in place."""
    value = node.value
    if not steps or node.op is not INPUT or type(value) is not np.ndarray \
            or math.prod(shape) > _eager.bound():
        return None
    state = _eager.DECISION.state
    if not (state[1] if state[0] is _settings.TOKEN[0] else _eager.enabled()):
        return None
    view = value[probe_key]
    if type(view) is not np.ndarray or view.shape != shape:
        return None
    return computed(view)


def _eager_view(x, key):
    """`x[key]` for a key of Python ints, slices of them and None (no `...`, not `()`),
    where operations are computed eagerly and `x` holds a computed NumPy buffer (an
    owner, or a window made of one while its owner is unchanged; shared with NumPy or
    not, see `_shared`): NumPy's own view of the buffer (read when read, as NumPy's
    is), NumPy's IndexError for a bad key, and the view's steps from its owner found
    only when first asked for (a write into the view or its owner). A moving window
    `x[s:s + k]` or gauss's `a[c:, c - 1:]` has a new key each time: its steps found
    and attached at once, a window of 95 elements took 8.2-8.3 us with a new key and
    3.0-3.2 us with a key seen before; 2.3-2.5 us either way so. None for any other
    key or array, for a view past the eager bound, and for a 0-d result (the general
    path)."""
    if type(x) is not Array:
        return None
    layout = x._layout
    if layout is not None and layout.base is not None and layout.base._n is not layout.seen:
        return None  # (a window whose owner changed since: the general path derives it)
    node = x._n
    value = node.value
    if node.op is not INPUT or type(value) is not np.ndarray or x._scalar:
        return None
    basic = _hashable_key(key)
    if not basic or Ellipsis in basic:
        return None
    state = _eager.DECISION.state
    if not (state[1] if state[0] is _settings.TOKEN[0] else _eager.enabled()):
        return None
    view = value[key]
    if not view.ndim or view.size > _eager.bound():
        return None
    shape = node.shape
    return x._make_view(Array(computed(view), False), lambda: _plain(shape, key)[0],
                        lambda probe, _: probe[key])


def _element(x, key):
    """`x[i]` or `x[i, j, ...]` (Python ints, one per axis) of a computed NumPy buffer,
    read at once when operations are computed eagerly (see `_eager`): the NumPy scalar
    (a 0-d copy, so it does not keep `x`'s buffer alive), with NumPy's IndexError.
    None where the general path reads it."""
    if not isinstance(x, Array):
        return None
    node = x._n if x._layout is None and type(x._n) is SmallLeaf else x._node
    value = node.value
    if node.op is not INPUT or type(value) is not np.ndarray:
        return None
    shape = node.shape
    if type(key) is int:
        if len(shape) != 1:
            return None
        n = shape[0]
        if not -n <= key < n:
            raise IndexError(f"index {key} is out of bounds for axis 0 with size {n}")
    elif len(key) != len(shape) or not all(type(k) is int for k in key):
        return None
    else:
        for axis, (i, n) in enumerate(zip(key, shape)):
            if not -n <= i < n:
                raise IndexError(f"index {i} is out of bounds for axis {axis} with size {n}")
    state = _eager.DECISION.state
    if not (state[1] if state[0] is _settings.TOKEN[0] else _eager.enabled()):
        return None
    element = np.array(value[key])
    # An element of NumPy's numeric dtypes is as small as an eager result (see SmallLeaf).
    return small_array(element) if element.dtype.kind in "biufc" else \
        Array(computed(element))


# (shape, hashable key) -> `_basic`'s answer for a basic index: the translation of a key
# depends on nothing else. Profiled (lbm --quick: 480 basic indices a run), classifying
# the entries and building the steps was 3.5 of the 8 us of `x[2:]`.
_BASIC: dict = {}
_BASIC_MAX = 4096


def _basic(x: Array, key):
    """For a basic index (ints, slices, None, `...`: every index NumPy reads as a view or
    an element): (view steps, the key for a NumPy stand-in, whether the result stands
    for a NumPy scalar when it is 0-d, its `Target`), remembered per shape and key;
    an `_Advanced` for an advanced index (NumPy's IndexError for a bad key)."""
    hashable = _hashable_key(key)
    answer = None
    if hashable is not None:
        known = _BASIC.get((x.shape, hashable))
        if known is not None:
            return known
        answer = _plain(x.shape, key)
    if answer is None:
        entries, int_arrays = _expand(x, key)
        if _is_advanced(entries):
            return _Advanced(entries, int_arrays)
        steps, shape, probe_key = _basic_steps(x, entries)
        view_scalar = not any(e is Ellipsis for e in _as_tuple(key))
        ints = all(kind == "int" for kind, _ in entries)
        answer = (steps, probe_key, view_scalar,
                  Target(steps, shape, None, True, ints and view_scalar))
    if hashable is not None:
        if len(_BASIC) >= _BASIC_MAX:
            _BASIC.clear()
        _BASIC[(x.shape, hashable)] = answer
    return answer


_ALL = slice(None)


def _plain(shape: tuple, key):
    """`_basic`'s answer for a key of Python ints, slices (their bounds ints or None)
    and None, at most one int or slice per axis, every int in bounds, built directly:
    a moving window `x[s:s + k]` or `a[c:, c - 1:]` has a new key each time, and
    classifying and expanding its entries first was half of its 3.7 us (profiled);
    gauss's `q[:, None]` of a new shape each step took 20 us there. None for any other
    key (the general path)."""
    entries = key if type(key) is tuple else (key,)
    new_axes = entries.count(None)
    if not entries or len(entries) - new_axes > len(shape):
        return None
    starts, stops, strides, sliced, out_shape, probe_key = [], [], [], [], [], []
    ints = not new_axes
    axis = 0
    for entry in entries + (_ALL,) * (len(shape) + new_axes - len(entries)):
        if entry is None:  # a new axis of length 1
            out_shape.append(1)
            probe_key.append(None)
            continue
        n = shape[axis]
        axis += 1
        if type(entry) is int:
            if not -n <= entry < n:
                return None  # (the general path's IndexError)
            i = entry % n
            starts.append(i), stops.append(i + 1), strides.append(1), sliced.append(1)
            probe_key.append(i)
            continue
        if type(entry) is not slice:  # `...`: the general path
            return None
        ints = False
        start, stop, stride = entry.indices(n)  # (ints or None: _hashable_key)
        m = len(range(start, stop, stride))
        if not m:  # as in _basic_steps
            start, stop, stride = 0, 0, 1
        starts.append(start), stops.append(stop), strides.append(stride)
        sliced.append(m), out_shape.append(m)
        probe_key.append(slice(start, None if stop < 0 else stop, stride))
    chain = []
    starts, stops, strides, out_shape = tuple(starts), tuple(stops), tuple(strides), \
        tuple(out_shape)
    if any(starts) or stops != shape or strides.count(1) != len(strides):
        chain.append(step("slice", starts=starts, stops=stops, steps=strides))
    if out_shape != tuple(sliced):  # an int dropped its axis, a None added one
        chain.append(step("reshape", shape=out_shape))
    chain = tuple(chain)
    return chain, tuple(probe_key) + (Ellipsis,), True, Target(chain, out_shape, None, True,
                                                                ints)


class _Advanced(NamedTuple):
    """An advanced index, as `_expand` gives it."""
    entries: list
    int_arrays: bool


def _hashable_key(key):
    """A basic key of Python ints, slices of them, None and `...` as a hashable tuple (a
    slice as its (start, stop, step)); None for any other key."""
    out = []
    for entry in key if type(key) is tuple else (key,):
        kind = type(entry)
        if kind is int or entry is None or entry is Ellipsis:
            out.append(entry)
        elif kind is slice:
            start, stop, stride = entry.start, entry.stop, entry.step
            if not ((start is None or type(start) is int) and (stop is None or type(stop) is int)
                    and (stride is None or type(stride) is int)):
                return None
            out.append((start, stop, stride))
        else:
            return None
    return tuple(out)


def _basic_steps(x: Array, entries):
    """The view steps of a basic index (a slice, then a reshape for the integer and
    None entries), the shape they give, and the same index for a NumPy stand-in."""
    starts, stops, steps, out_shape, probe_key = [], [], [], [], []
    axis, reshaped = 0, False
    for kind, payload in entries:
        if kind == "none":
            out_shape.append(1)
            probe_key.append(None)
            reshaped = True
            continue
        n = x.shape[axis]
        if kind == "int":
            if not -n <= payload < n:
                raise IndexError(f"index {payload} is out of bounds for axis {axis} "
                                 f"with size {n}")
            i = payload % n
            starts.append(i), stops.append(i + 1), steps.append(1)
            probe_key.append(i)
            reshaped = True
        else:
            start, stop, stride = payload.indices(n)
            if not range(start, stop, stride):
                # An empty slice selects nothing: as (0, 0, 1), so that no -1 ("before
                # the first" for a negative step) reaches the slice primitive, which
                # reads a negative bound from the end (x[-5::-1] of 3 is empty).
                start, stop, stride = 0, 0, 1
            starts.append(start), stops.append(stop), steps.append(stride)
            out_shape.append(len(range(start, stop, stride)))
            probe_key.append(slice(start, None if stop < 0 else stop, stride))
        axis += 1
    chain = []
    starts, stops, steps = tuple(starts), tuple(stops), tuple(steps)
    out_shape = tuple(out_shape)
    if any(starts) or stops != x.shape or any(c != 1 for c in steps):
        chain.append(step("slice", starts=starts, stops=stops, steps=steps))
    if reshaped and out_shape != tuple(len(range(*b)) for b in zip(starts, stops, steps)):
        chain.append(step("reshape", shape=out_shape))
    return tuple(chain), out_shape, tuple(probe_key) + (Ellipsis,)


class _Plan(NamedTuple):
    """An advanced index as view steps that bring the indexed rows of `x` to the front
    (slices applied, the advanced axes moved first and merged into one), `flat` (the
    row of each index, of the broadcast index shape), and the transpose `order` and
    reshape to `shape` that put the picked rows where NumPy puts them."""
    steps: tuple
    flat: object
    rows: tuple  # the shape the steps give: (number of rows,) + the row shape
    order: tuple
    shape: tuple


def _advanced_plan(x: Array, entries) -> _Plan:
    steps, shape, _ = _basic_steps(x, [(k, p) if k == "slice" else ("slice", slice(None))
                                       for k, p in entries
                                       if k not in ("none", "newaxis_pick")])
    steps = list(steps)
    if any(k == "newaxis_pick" for k, _ in entries):
        shape = _with_new_axes(shape, entries)
        steps.append(step("reshape", shape=shape))
        entries = [("array", p) if k == "newaxis_pick" else ("slice", slice(None))
                   if k == "none" else (k, p) for k, p in entries]
    adv_axes, indices, rest_axes, layout = [], [], [], []
    axis = 0
    for kind, payload in entries:
        if kind == "none":
            layout.append("new")
            continue
        if kind in ("int", "array"):
            adv_axes.append(axis)
            indices.append(np.asarray(payload) if kind == "int" else payload)
            layout.append("adv")
        else:
            rest_axes.append(axis)
            layout.append(("rest", len(rest_axes) - 1))
        axis += 1
    try:
        index_shape = broadcast_shapes(*(np.shape(i) if isinstance(i, np.ndarray) else i.shape
                                         for i in indices))
    except ValueError:
        shapes = " ".join(str(tuple(np.shape(i))) for i in indices)
        raise IndexError("shape mismatch: indexing arrays could not be broadcast together "
                         f"with shapes {shapes}") from None
    sizes = [shape[a] for a in adv_axes]
    if math.prod(index_shape) == 0:  # nothing is selected, so NumPy checks no index
        indices = [np.zeros(index_shape, np.int64)] * len(indices)
    nodes = [_index_node(i, n, a) for i, n, a in zip(indices, sizes, adv_axes)]
    flat = _flat_index(nodes, sizes, index_shape)
    perm = tuple(adv_axes + rest_axes)
    if perm != tuple(range(len(perm))):
        steps.append(step("transpose", axes=perm))
    rest_shape = tuple(shape[a] for a in rest_axes)
    rows = (math.prod(sizes),) + rest_shape
    if rows != tuple(shape[a] for a in perm):
        steps.append(step("reshape", shape=rows))
    order, final_shape = _placement(layout, index_shape, rest_shape)
    return _Plan(tuple(steps), flat, rows, order, final_shape)


def _with_new_axes(shape, entries) -> tuple:
    """`shape` with a length-1 axis where each x[True]/x[False] added one."""
    out, axis = [], 0
    for kind, _ in entries:
        if kind in ("none", "newaxis_pick"):
            out.append(1)
        else:
            out.append(shape[axis])
            axis += 1
    return tuple(out)


def _flat_index(nodes, sizes, index_shape):
    """Row-major flat index over the advanced axes, broadcast to `index_shape`."""
    if len(nodes) == 1 and nodes[0].shape == index_shape:  # (checked: its own flat index)
        return nodes[0]
    if all(n.op.name == "input" for n in nodes):  # known on the host: compute it there
        values = [np.broadcast_to(host_buffer(n.value), index_shape) for n in nodes]
        flat = np.ravel_multi_index(values, sizes) if values and math.prod(sizes) else \
            np.zeros(index_shape, np.int64)
        flat = np.asarray(flat, np.int64)
        return leaf(flat, flat.shape, flat.dtype)
    flat = None
    stride = 1
    for node, n in reversed(list(zip(nodes, sizes))):
        term = multiply(wrap(node), stride) if stride != 1 else wrap(node)
        flat = term if flat is None else add(flat, term)
        stride *= n
    node = flat._node
    return node if node.shape == index_shape else apply("broadcast_to", node,
                                                        shape=index_shape)


def _placement(layout, index_shape: tuple, rest_shape: tuple) -> tuple[tuple, tuple]:
    """The transpose order and final shape that move the index dimensions of the picked
    rows (index_shape + rest_shape) where NumPy puts them, with the None axes: in place
    of adjacent advanced indices, else first."""
    adv = [i for i, item in enumerate(layout) if item == "adv"]
    adjacent = adv == list(range(adv[0], adv[-1] + 1))
    index_dims = tuple(range(len(index_shape)))
    order, shape = ([], []) if adjacent else (list(index_dims), list(index_shape))
    placed = not adjacent
    for item in layout:
        if item == "new":
            shape.append(1)
        elif item == "adv":
            if not placed:
                order += index_dims
                shape += index_shape
                placed = True
        else:
            order.append(len(index_shape) + item[1])
            shape.append(rest_shape[item[1]])
    return tuple(order), tuple(shape)


# ----- assignment ------------------------------------------------------------------

class Target(NamedTuple):
    """Where `x[key]` lies, for writing it: view `steps` to the region (a basic index,
    `plan` None) or to the rows of an advanced index's `plan`; the shape of `x[key]`;
    whether every index of the plan is distinct; whether the key picks one element with
    integers alone (NumPy's single-element assignment)."""
    steps: tuple
    shape: tuple
    plan: _Plan | None
    unique: bool
    scalar: bool


def target(x: Array, key) -> Target:
    basic = _basic(x, key)
    if type(basic) is not _Advanced:
        return basic[3]
    plan = _advanced_plan(x, basic.entries)
    return Target(plan.steps, plan.shape, plan,
                  not basic.int_arrays or _distinct(plan.flat), False)


def setitem(x: Array, key, value) -> None:
    """`x[key] = value` with NumPy's rules: `value` cast as NumPy casts it and
    broadcast to `x[key]`'s shape; where integer indices repeat, the last value wins.
    `x` is rebound to the new value (written through to its owner if it is a view)."""
    if x._scalar:
        raise TypeError(f"'numpy.{x.dtype.type.__name__}' object does not support item "
                        "assignment")
    x._check_writeable()
    if _write_now(x, key, value) or _masked_fill(x, key, value):
        return
    try:
        where = target(x, key)
    except IndexError:
        _numpys_setitem_error(x, key, value)
        raise
    mismatch = basic_mismatch if where.plan is None else advanced_mismatch(x, key)
    if where.plan is not None:
        value = _advanced_value(x, key, value)
    values = assigned_values(value, x.dtype, where.shape, mismatch, where.scalar,
                             advanced=where.plan is not None)
    if where.plan is None:
        if not math.prod(where.shape) or _is_region_of(value, x, where.steps):
            return
    elif not math.prod(where.shape) and (where.plan.flat.is_computed
                                         or not math.prod(where.plan.flat.shape)):
        return  # nothing selected, by indices already checked
    if where.plan is not None:
        rows = replay(x._node, where.steps)
        values = apply("scatter", rows, *row_updates(where.plan, values), unique=where.unique)
    x._write_at(where.steps, values)


_BASIC_ENTRIES = (int, slice)
_SCALARS = (int, float, bool, complex)


def _write_now(x: Array, key, value) -> bool:
    """`x[key] = value` by NumPy's own assignment into x's buffer, at once, as `_element`
    reads: where operations are computed eagerly (see `_eager`), the key is ints and
    slices, the value a scalar or a small computed array (`_eager.host_value`), and x
    owns a computed NumPy buffer that nothing else can see (no other array, view or
    pending operation holds its leaf or its memory). NumPy's casts, errors and
    warnings, at the call. (Recorded, a loop filling a large array, `out[i] = v`, took
    44-68 us a write, NumPy 0.2 us; gauss's last steps 240 us, NumPy 5 us.) x gets a
    new leaf of the buffer: a computed node's value never changes (what is kept by
    node, such as a mask's indices, stays true)."""
    if not (type(key) in _BASIC_ENTRIES or type(key) is tuple
            and all(type(k) in _BASIC_ENTRIES for k in key)):
        return False
    layout = x._layout
    if layout is not None and layout.base is not None:  # (a view: its owner's buffer)
        return False
    if type(value) in _SCALARS or isinstance(value, np.generic):
        host = value
    elif type(value) is Array:
        host = _eager.host_value(value._node, _eager.bound())
        if host is None:
            return False
        if value._scalar:  # NumPy's scalar, which NumPy converts as a scalar (inf
            host = host[()]  # into ints: OverflowError; a 0-d array casts unchecked)
    else:
        return False
    node = x._n
    # (after `host`: a value that is a view of the buffer holds it, and is not written so)
    if not (private(node) and _eager.enabled()):
        return False
    buffer = node.value
    buffer[key] = host  # (NumPy's own assignment: its casts, errors and warnings)
    x._n = small_array(buffer)._n if type(node) is SmallLeaf else \
        leaf(buffer, node.shape, node.dtype)
    return True


def _numpys_setitem_error(x: Array, key, value) -> None:
    """For a key with an out-of-bounds static index: raise the error NumPy raises first
    (it converts and broadcasts the value before checking the indices, so
    `v[[5]] = 2**63` into int16 is its OverflowError), from an uninitialized stand-in
    of `x` (never touched beyond the assignment, and only when small)."""
    if x.nbytes > 2**26:
        return
    def host(v):
        if isinstance(v, Array):
            return v._node.value if v._node.is_computed else np.zeros(v.shape, v.dtype)
        return v
    keys = tuple(host(k) for k in key) if isinstance(key, tuple) else host(key)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        np.empty(x.shape, x.dtype)[keys] = host(value)


def _masked_fill(x: Array, key, value) -> bool:
    """`x[mask] = value` for a boolean mask over x's leading axes and a value that fits
    any number of selected rows (shape (1, *row) or less), as a select: the mask's
    count, which the general path reads (a flush), is not needed. Returns whether it
    applied."""
    if not _leading_mask(x, key):
        return False
    rows = x.shape[key.ndim:]
    value = _advanced_value(x, key, value)
    vshape = value.shape if isinstance(value, Array) else np.shape(value)
    try:
        fitted_shape(vshape, (1,) + rows, basic_mismatch)
    except ValueError:
        return False
    values = assigned_values(value, x.dtype, (1,) + rows, advanced=True)
    values = broadcast_node(reshape_node(values, (1,) * key.ndim + rows), x.shape)
    mask = broadcast_node(reshape_node(as_array(key)._node, key.shape + (1,) * len(rows)),
                          x.shape)
    x._write(apply("select", mask, values, x._node))
    return True


def row_updates(plan: _Plan, *values) -> tuple:
    """The plan's row indices as a (k,) node, then each of `values` (nodes of the
    indexing result's shape) as (k, *row shape) rows: NumPy's placement undone."""
    k = math.prod(plan.flat.shape)
    picked = plan.flat.shape + plan.rows[1:]  # the rows picked, before NumPy's placement
    placed = tuple(picked[o] for o in plan.order)
    inverse = tuple(np.argsort(plan.order).tolist())
    rows = [reshape_node(transpose_node(reshape_node(v, placed), inverse), (k,) + plan.rows[1:])
            for v in values]
    return (reshape_node(plan.flat, (k,)), *rows)


def _distinct(flat) -> bool:
    """Whether indices known on the host are all different (a plain scatter suffices)."""
    return flat.is_computed and np.unique(flat.value).size == flat.value.size


def _is_region_of(value, x: Array, steps) -> bool:
    """Whether `value` is the view `x[key]` itself (as in `x[key] += 1`, whose in-place
    add has already written it): then there is nothing more to write."""
    layout = value._layout if isinstance(value, Array) else None
    if layout is None or layout.base is None or layout.base is not x._owner():
        return False
    chain = x._layout.steps if x._layout is not None else ()
    return layout.steps == compose(chain, steps) and value.dtype == x.dtype


def basic_mismatch(vshape, shape) -> Exception:
    return ValueError(f"could not broadcast input array from shape {vshape} into shape "
                      f"{shape}")


def advanced_mismatch(x: Array, key):
    """NumPy's error for a value that does not fit an advanced index: a whole-array
    boolean mask takes a 0-d or 1-d value of one element or one per true element."""
    whole_mask = _is_whole_mask(x, key)

    def mismatch(vshape, shape):
        if whole_mask:
            return ValueError(f"NumPy boolean array indexing assignment cannot assign "
                              f"{math.prod(vshape)} input values to the {shape[0]} output "
                              "values where the mask is true")
        return ValueError(f"shape mismatch: value array of shape {vshape} could not be "
                          f"broadcast to indexing result of shape {shape}")
    return mismatch


def _is_whole_mask(x: Array, key) -> bool:
    entry = key[0] if isinstance(key, tuple) and len(key) == 1 else key
    return (isinstance(entry, (np.ndarray, Array)) and entry.dtype == np.bool_
            and entry.ndim == x.ndim > 0)


def _advanced_value(x: Array, key, value):
    """`value` for an advanced assignment: a host sequence converted as NumPy converts
    it (to an array of x's dtype, with its errors), and NumPy's TypeError for a value
    of more than one dimension under a mask of all of x's axes."""
    if isinstance(value, (list, tuple)) and not any(isinstance(v, Array) for v in value):
        value = np.asarray(value, dtype=x.dtype)
    ndim = value.ndim if isinstance(value, (Array, np.ndarray)) else 0
    if ndim > 1 and _is_whole_mask(x, key):
        raise TypeError("NumPy boolean array indexing assignment requires a 0 or "
                        f"1-dimensional input, input has {ndim} dimensions")
    return value


def assigned_values(value, dtype, shape: tuple, mismatch=basic_mismatch,
                    scalar: bool = False, advanced: bool = False):
    """`value` as NumPy's assignment into `shape` elements of `dtype` takes it, as a
    node of that shape: host values are cast by NumPy itself (so its errors and
    warnings are NumPy's: OverflowError, ComplexWarning, ...), lazy ones unsafely as
    NumPy casts arrays. `scalar`: a single element (every index an integer).
    `advanced`: into an advanced index, which NumPy converts a NumPy scalar for as an
    array (unsafely: `a[[0]] = np.float64(nan)` into ints is no error, `a[0] = ...` is)
    and lets a value of more dimensions fit by a reshape (see `fitted_shape`)."""
    if advanced and isinstance(value, np.generic):
        value = np.asarray(value)
    elif not advanced and isinstance(value, Array) and value._scalar and \
            _dtypes.is_integer(dtype) and _dtypes.is_inexact(value.dtype):
        # NumPy converts a float scalar into integers as Python does (nan and inf are
        # its ValueError and OverflowError): the scalar's value decides, so it is read.
        value = value._python_value()
    if isinstance(value, (list, tuple)) and any(isinstance(v, Array) for v in value):
        value = as_array(value)
    if isinstance(value, Array):
        if scalar and value.ndim:
            # NumPy sets one element from an array as its dtype converts a Python
            # object: a bool takes the truth value of a one-element array, a complex
            # number refuses any array (TypeError), others a sequence (ValueError).
            if _dtypes.is_bool(dtype) and value.size == 1:
                value = wrap(reshape_node(value._node, ()), False)
            elif _dtypes.is_bool(dtype):
                raise ValueError("The truth value of an array with more than one element "
                                 "is ambiguous. Use a.any() or a.all()")
            elif _dtypes.is_complex(dtype):
                raise TypeError("only 0-dimensional arrays can be converted to Python "
                                "scalars")
            else:
                raise ValueError("setting an array element with a sequence.")
        node = reshape_node(cast_unsafe(value, dtype)._node,
                            fitted_shape(value.shape, shape, mismatch, advanced))
    elif scalar:
        proxy = np.empty(1, dtype)
        proxy[0] = value
        node = leaf(proxy.reshape(()), (), proxy.dtype)
    else:
        fitted = fitted_shape(np.shape(value), shape, mismatch, advanced)
        if isinstance(value, np.ndarray):  # an array's leading length-1 axes broadcast away
            value = value.reshape(fitted)
        proxy = np.empty(fitted, dtype)
        proxy[...] = value
        node = leaf(proxy, proxy.shape, proxy.dtype)
    return broadcast_node(node, shape)


def fitted_shape(vshape: tuple, shape: tuple, mismatch, advanced: bool = False) -> tuple:
    """`vshape` without the leading length-1 axes NumPy drops, checked to broadcast to
    `shape` (`mismatch(vshape, shape)` is raised otherwise). Into an advanced index,
    NumPy reshapes a value of more dimensions to its last ones where the size allows,
    so an empty value of any leading shape fits an empty selection (`a[[]] =
    zeros((2, 0))`)."""
    fitted = tuple(vshape)
    if advanced and len(fitted) > len(shape) and \
            math.prod(fitted) == math.prod(fitted[len(fitted) - len(shape):]):
        fitted = fitted[len(fitted) - len(shape):]
    while len(fitted) > len(shape) and fitted[0] == 1:
        fitted = fitted[1:]
    if len(fitted) > len(shape) or any(
            v not in (1, n) for v, n in zip(fitted[::-1], shape[::-1])):
        raise mismatch(tuple(vshape), tuple(shape))
    return fitted


# ----- functions whose result shape depends on data --------------------------------

def _index_leaf(value: np.ndarray) -> Array:
    value = np.asarray(value, dtype=np.int64)
    return wrap(leaf(value, value.shape, value.dtype), scalar=False)


@export
def nonzero(a):
    """Indices of the non-zero elements, one array per axis (materializes `a`)."""
    return tuple(_index_leaf(i) for i in np.nonzero(host_array(a)))


@export
def where(condition, x=None, y=None, /):
    """Choose from `x` or `y` by `condition`; with the condition alone, `nonzero`."""
    if x is None and y is None:
        return nonzero(condition)
    if x is None or y is None:
        raise ValueError("either both or neither of x and y should be given")
    result = where_(condition, x, y)
    return wrap(result._node, False)  # NumPy's where returns an array, never a scalar


@export
def argwhere(a):
    """NumPy's argwhere, laid out as NumPy's (the transpose of nonzero's indices: a
    Fortran-ordered array, so its ravel copies)."""
    value = np.argwhere(host_array(a))
    result = _index_leaf(value)
    fortran = value.flags.f_contiguous and not value.flags.c_contiguous
    return result._copy_in("F") if fortran else result


@export
def flatnonzero(a):
    return _index_leaf(np.flatnonzero(host_array(a)))


@export
def compress(condition, a, axis=None, out=None):
    """The slices of `a` along `axis` where `condition` is true."""
    cond = host_array(condition)
    if cond.ndim != 1:
        raise ValueError("condition must be a 1-d array")
    return take(a, np.flatnonzero(cond), axis=axis)


@export
def extract(condition, arr):
    return take(as_array(arr).reshape(-1), np.flatnonzero(host_array(condition)))


# ----- take ------------------------------------------------------------------------

@export
def take(a, indices, axis=None, out=None, mode="raise"):
    """Elements of `a` at `indices` along `axis` (the flattened array if None)."""
    x = as_array(a)
    if axis is None:
        x, axis = wrap(reshape_node(x._node, (x.size,))), 0
    axis = normalize_axis(axis, x.ndim, "take")
    n = x.shape[axis]
    index = indices if isinstance(indices, Array) else _host_index(np.asarray(indices))
    if mode == "wrap" or mode == "clip":
        if n == 0:
            raise IndexError("cannot do a non-empty take from an empty axes.")
        index = as_array(index)
        index = remainder(index, n) if mode == "wrap" else clip(index, 0, n - 1)
        node = astype(index, np.int64)._node
    elif mode == "raise":
        node = _index_node(index, n, axis)
    else:
        raise ValueError(f"take: clipmode must be one of 'clip', 'raise', or 'wrap', "
                         f"not {mode!r}")
    return wrap(apply("take", x._node, node, axis=axis))


@export
def take_along_axis(arr, indices, axis=-1):
    """Pick values along `axis` with an index array of the same rank (NumPy's rules)."""
    x = as_array(arr)
    idx = indices if isinstance(indices, Array) else _host_index(np.asarray(indices))
    if not _dtypes.is_integer(idx.dtype):
        raise IndexError("`indices` must be an integer array")
    if axis is None:
        x, axis = wrap(reshape_node(x._node, (x.size,))), 0
    if idx.ndim != x.ndim:
        raise ValueError("`indices` and `arr` must have the same number of dimensions")
    axis = normalize_axis(axis, x.ndim, "take_along_axis")
    shape = broadcast_shapes(x.shape[:axis] + (1,) + x.shape[axis + 1:],
                             idx.shape[:axis] + (1,) + idx.shape[axis + 1:])
    shape = shape[:axis] + (idx.shape[axis],) + shape[axis + 1:]
    if math.prod(shape) == 0:  # nothing is picked, so NumPy checks no index
        return wrap(leaf(np.zeros(shape, x.dtype), shape, x.dtype), False)
    along = _index_node(idx, x.shape[axis], axis)
    flat = None
    stride = 1
    for d in reversed(range(x.ndim)):
        coord = (wrap(apply("broadcast_to", along, shape=shape)) if d == axis else
                 wrap(apply("iota", shape=shape, dtype=_dtypes.int64, axis=d)))
        term = multiply(coord, stride) if stride != 1 else coord
        flat = term if flat is None else add(flat, term)
        stride *= x.shape[d]
    return wrap(apply("take", reshape_node(x._node, (x.size,)), flat._node, axis=0))
