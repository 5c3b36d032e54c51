"""Host buffers shared with NumPy: `numpy.asarray(x)` and `x.__array__()`.

NumPy's `asarray(ndarray)` returns the array itself: writes through it change the
array and its views, and the array's later writes show through it. lazyarr does the
same for its arrays. The first export of an array's owner gives it a writable host
buffer `h` (its current value), and from then on, while the owner lives:

- the owner's value is `h`: every lazy write into the owner (or into one of its views)
  is computed at once and copied into `h`, so NumPy readers of `h` see it at once;
- every operation that reads the owner reads a snapshot of `h` taken when the
  operation is recorded, so a later write through `h` cannot change a pending result
  (NumPy would have computed it before the write), and the snapshot is private (no
  buffer `h` is ever donated to, or overwritten by, a program);
- a view's export is NumPy's view of `h` with the view's offset and strides.

So both sides always see the same values, at the cost of a copy of `h` for each
operation recorded on an exported array (and an eager flush for each write into it).
Reshaping in place (`shape`, `strides`, `resize`) ends the sharing, as NumPy's
`resize` refuses to run on a shared buffer.
"""

from __future__ import annotations

import weakref

import numpy as np

from . import _flush
from ._graph import leaf

# id(owner) -> (weak reference to the owner, its host buffer)
EXPORTED: dict[int, tuple[weakref.ref, np.ndarray]] = {}


def _entry(owner):
    entry = EXPORTED.get(id(owner))
    if entry is None or entry[0]() is not owner:
        return None
    return entry


def _drop(key: int):
    def callback(_ref):
        EXPORTED.pop(key, None)
    return callback


def buffer_if_exported(x):
    """The host buffer `x`'s owner shares with NumPy, or None."""
    entry = _entry(x._owner())
    return None if entry is None else entry[1]


def buffer_of(owner) -> np.ndarray:
    """The owner's shared host buffer, made on first use from its current value."""
    entry = _entry(owner)
    if entry is not None:
        return entry[1]
    value = _flush.to_numpy(owner._n, "read")
    probe = owner._layout_of().probe  # C order, or Fortran for a Fortran-ordered copy
    order = "F" if probe.flags.f_contiguous and not probe.flags.c_contiguous else "C"
    h = np.array(value, copy=True, order=order)  # lazyarr's own buffers stay private
    owner._n = leaf(h, h.shape, h.dtype)
    key = id(owner)
    EXPORTED[key] = (weakref.ref(owner, _drop(key)), h)
    return h


def export(x) -> np.ndarray:
    """A writable NumPy array sharing memory with `x` (an owner or a view)."""
    owner = x._owner()
    h = buffer_of(owner)
    if owner is x:
        return h
    probe, owner_probe = x._layout_of().probe, owner._layout_of().probe
    offset = (probe.__array_interface__["data"][0]
              - owner_probe.__array_interface__["data"][0])
    if not x.size:  # no element to reach (the imaginary parts of none start past the end)
        offset = 0
    view = np.ndarray(x.shape, x.dtype, buffer=h, offset=offset, strides=probe.strides)
    if not x._layout_of().writeable:
        view.flags.writeable = False
    return view


def snapshot(owner):
    """The node an operation reading the exported `owner` uses: its values now."""
    entry = _entry(owner)
    if entry is None:
        return None
    h = entry[1]
    return leaf(h.copy(), h.shape, h.dtype)


def after_write(owner) -> None:
    """A lazy write into the exported `owner`: compute it, copy it into the buffer."""
    entry = _entry(owner)
    if entry is None:
        return
    h = entry[1]
    node = owner._n
    if node.is_computed and node.value is h:
        return
    np.copyto(h, _flush.to_numpy(node, "read"))
    owner._n = leaf(h, h.shape, h.dtype)


def forget(owner) -> None:
    """End the sharing (the owner changes shape in place): it keeps a private copy."""
    entry = _entry(owner)
    if entry is not None:
        del EXPORTED[id(owner)]
        h = entry[1].copy()
        if owner._n.is_computed and owner._n.value is entry[1]:
            owner._n = leaf(h, h.shape, h.dtype)
