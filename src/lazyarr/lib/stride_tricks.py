"""`numpy.lib.stride_tricks` on lazyarr arrays: `as_strided` and `sliding_window_view`
as lazy views of the owner's buffer.

A lazyarr array reports the strides NumPy's array of that layout would have (a
C-ordered owner, and its views over it), so a strided view reads the elements NumPy's
would read from the owner's buffer: the owner's elements in memory order, then a
`strided` step (a gather). Writes into a writeable one go through to the owner as a
scatter, so the owner and its other views see them, as NumPy's do; where elements
alias (overlapping strides), a write into a part of the view (`v[i, j] = 1`,
`v[:, 0] = 0`) reaches every alias, and a write of the whole view writes its elements
in C order, the last one winning. `sliding_window_view` is read-only as NumPy's is by
default. Where NumPy would read outside the owner's buffer (undefined memory), lazyarr
raises ValueError; strides must be whole elements.
"""

from __future__ import annotations

import math
import warnings

import numpy as np

from .. import _cuts, _flush, _shared
from .._api import HANDLED
from .._errors import user_stacklevel
from .._views import Layout as _Layout, replay as _replay, step as _step
from .._ops_bytes import strided_index

from .._api import shapes as _manip
from .._api.indexing import take
from .._array import Array
from .._api.common import as_array

__all__ = ["as_strided", "sliding_window_view", "broadcast_to", "broadcast_arrays",
           "broadcast_shapes"]

broadcast_to = _manip.broadcast_to
broadcast_arrays = _manip.broadcast_arrays
broadcast_shapes = _manip.broadcast_shapes


def _address(probe: np.ndarray) -> int:
    return probe.__array_interface__["data"][0]


def _positions(x: Array, offset: int, shape, strides):
    """(shape, strides, offset) in elements of `x`'s dtype: NumPy's checks, and
    lazyarr's (whole elements, inside the owner's buffer)."""
    itemsize = x.dtype.itemsize
    shape, strides = tuple(int(n) for n in shape), tuple(int(s) for s in strides)
    if len(shape) != len(strides):
        raise ValueError("mismatch in length of strides and shape")
    if offset % itemsize or any(s % itemsize for s in strides):
        raise ValueError(f"lazyarr gathers whole elements: strides {strides} and offset "
                         f"{offset} must be multiples of the itemsize {itemsize}")
    strides, offset = tuple(s // itemsize for s in strides), offset // itemsize
    if math.prod(shape):
        low = offset + sum((n - 1) * s for n, s in zip(shape, strides) if s < 0)
        high = offset + sum((n - 1) * s for n, s in zip(shape, strides) if s > 0)
        if low < 0 or high >= x._owner().nbytes // itemsize:
            raise ValueError("the strided view would reach outside the array's buffer "
                             "(NumPy would read unrelated memory)")
    return shape, strides, offset


def strided_gather(x: Array, offset: int, shape, strides, writeable: bool = True) -> Array:
    """The elements of `x`'s owner at byte `offset` (from the owner's start) plus the
    byte `strides` over `shape`, gathered lazily into a new array."""
    shape, strides, offset = _positions(x, offset, shape, strides)
    owner = x._owner()
    flat = Array(owner._node, scalar=False).reshape(-1)
    result = take(flat, strided_index(shape, strides, offset))
    if not writeable:
        result.flags.writeable = False
    return result


def strided_view(x: Array, offset: int, shape, strides, writeable: bool = True) -> Array:
    """NumPy's view of `x`'s owner's buffer at byte `offset` with byte `strides` over
    `shape`: the owner's elements in memory order (as `x`'s dtype), then a `strided`
    step. Writes go through to the owner; where elements alias, the last in C order
    wins."""
    if x._scalar:  # a NumPy scalar has no buffer: NumPy views a copy
        return strided_gather(x, offset, shape, strides, writeable)
    shape, strides, offset = _positions(x, offset, shape, strides)
    owner = x._owner()
    owner_probe = owner._layout_of().probe
    chain = []
    if owner.ndim > 1 and not owner_probe.flags.c_contiguous:  # a Fortran-ordered owner
        chain.append(_step("transpose", axes=tuple(range(owner.ndim - 1, -1, -1))))
    chain.append(_step("reshape", shape=(owner.size,)))
    if x.dtype != owner.dtype:  # a view of `view(dtype)`: the buffer as x's dtype
        chain.append(_step("bitcast", dtype=x.dtype, shape=(owner.nbytes // x.itemsize,)))
    chain.append(_step("strided", shape=shape, strides=strides, offset=offset))
    chain = tuple(chain)
    result = Array(_replay(owner._node, chain), scalar=False)
    # its stand-in: NumPy's view over the fake buffer (`offset` is x's own offset)
    probe = np.lib.stride_tricks.as_strided(
        x._layout_of().probe, shape, tuple(s * x.itemsize for s in strides))
    result._layout = _Layout(owner, chain, owner._node, probe,
                             bool(writeable) and x._layout_of().writeable)
    _cuts.bound(result._n)
    return result


def _probe_view(x: Array, numpy_function, *args, **kwargs):
    """NumPy's function applied to `x`'s stand-in: (byte offset from the owner's start,
    shape, strides) of the view NumPy would make."""
    probe = x._layout_of().probe
    owner_probe = x._owner()._layout_of().probe
    view = numpy_function(probe, *args, **kwargs)
    return _address(view) - _address(owner_probe), view.shape, view.strides


def as_strided(x, shape=None, strides=None, subok=False, writeable=True):
    """NumPy's `as_strided`: a view of `x`'s buffer with the given shape and strides,
    written through to `x` when `writeable` (and `x` is)."""
    x = as_array(x)
    offset, shape0, strides0 = _probe_view(x, lambda p: p)
    return strided_view(x, offset, shape0 if shape is None else shape,
                        strides0 if strides is None else strides, writeable)


def sliding_window_view(x, window_shape, axis=None, *, subok=False, writeable=False):
    """NumPy's `sliding_window_view`: every window of `window_shape` (along `axis`),
    a read-only view unless `writeable`; NumPy's errors for bad windows."""
    x = as_array(x)
    offset, shape, strides = _probe_view(x, np.lib.stride_tricks.sliding_window_view,
                                         window_shape, axis)
    return strided_view(x, offset, shape, strides, writeable)


def set_strides(x: Array, strides) -> None:
    """`x.strides = strides`: NumPy's checks (and its NumPy 2.4 DeprecationWarning).
    A view becomes the strided view of its owner; an owner holds the elements that
    view reads (a gather: its earlier views keep their own layout)."""
    warnings.warn("Setting the strides on a NumPy array has been deprecated in NumPy 2.4.\n"
                  "As an alternative, you can create a new view using "
                  "np.lib.stride_tricks.as_strided.", DeprecationWarning,
                  stacklevel=user_stacklevel())
    if x._scalar:
        raise AttributeError("attribute 'strides' of 'numpy.generic' objects is not writable")
    strides = tuple(strides) if np.iterable(strides) else (strides,)
    if len(strides) != x.ndim:
        raise ValueError(f"strides must be same length as shape ({x.ndim})")
    offset, _, _ = _probe_view(x, lambda p: p)
    itemsize = x.dtype.itemsize
    ends = [offset + sum((n - 1) * s for n, s in zip(x.shape, strides) if s * sign > 0)
            for sign in (-1, 1)] if x.size else [offset, offset]
    if ends[0] < 0 or ends[1] + itemsize > x._owner().nbytes:
        raise ValueError("strides is not compatible with available memory")
    if x.base is not None:
        view = strided_view(x, offset, x.shape, strides, x._layout_of().writeable)
        x._n, x._layout = view._n, view._layout
        return
    # it reports the strides set, as NumPy's does (a stand-in over a fake buffer)
    probe = np.lib.stride_tricks.as_strided(np.zeros(1, x.dtype), x.shape, strides)
    writeable = x._layout_of().writeable
    shared = _shared.buffer_if_exported(x)
    if shared is not None:  # its shared buffer's view with these strides: no gather
        x._layout = _Layout(None, (), None, probe, writeable)
        _shared.relayout(x, np.lib.stride_tricks.as_strided(shared, x.shape, strides))
        return
    result = strided_gather(x, offset, x.shape, strides)
    x._n, x._layout = result._node, _Layout(None, (), None, probe, writeable)
    _flush.track(x)


def set_shape(x: Array, shape) -> None:
    """`x.shape = shape`: NumPy's in-place reshape, allowed where it needs no copy
    (AttributeError otherwise). A view stays a view of the same owner; an owner keeps
    its data, and its earlier views stay views of it (see `Layout.steps_from`)."""
    if x._scalar:
        raise AttributeError("attribute 'shape' of 'numpy.generic' objects is not writable")
    layout = x._layout_of()
    try:
        probe = np.reshape(layout.probe, shape, copy=False)
    except ValueError as error:
        if "copy" not in str(error):
            raise
        raise AttributeError("Incompatible shape for in-place modification. Use "
                             "`.reshape()` to make a copy with the desired shape.") from None
    view = x.reshape(shape)
    if layout.base is not None:
        x._n, x._layout = view._n, view._layout
    else:  # the owner's node is reshaped; its stand-in keeps the (fake) buffer it had
        shared = _shared.buffer_if_exported(x)
        x._n = view._n
        x._layout = _Layout(None, (), None, probe, layout.writeable)
        if shared is not None:  # NumPy's arrays of its memory keep sharing it
            _shared.relayout(x, np.reshape(shared, shape, copy=False))
        _flush.track(x)


HANDLED.setdefault(np.lib.stride_tricks.sliding_window_view, sliding_window_view)
# Array's shape and strides setters (the handle imports no chapter, so they are set here)
Array.shape = property(Array.shape.fget, set_shape, doc=Array.shape.__doc__)
Array.strides = property(Array.strides.fget, set_strides, doc=Array.strides.__doc__)
