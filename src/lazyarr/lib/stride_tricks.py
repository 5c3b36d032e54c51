"""`numpy.lib.stride_tricks` on lazyarr arrays: `as_strided` and `sliding_window_view`
as lazy gathers from the owner's elements.

A lazyarr array reports the strides NumPy's array of that layout would have (a
C-ordered owner, and its views over it), so a strided view reads the elements NumPy's
would read from the owner's buffer. The result is a new array (a gather), not a view
that writes through to the owner: writes into it do not reach the owner (NumPy's
`as_strided(writeable=True)` views do); `sliding_window_view` is read-only as NumPy's
is by default. Where NumPy would read outside the owner's buffer (undefined memory),
lazyarr raises ValueError.
"""

from __future__ import annotations

import warnings

import numpy as np

from .. import _flush
from .._api import HANDLED
from .._errors import user_stacklevel
from .._views import Layout as _Layout

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


def strided_gather(x: Array, offset: int, shape, strides, writeable: bool = True) -> Array:
    """The elements of `x`'s owner at byte `offset` (from the owner's start) plus the
    byte `strides` over `shape`, gathered lazily."""
    owner = x._owner()
    itemsize = x.dtype.itemsize
    shape, strides = tuple(int(n) for n in shape), tuple(int(s) for s in strides)
    if len(shape) != len(strides):
        raise ValueError("mismatch in length of strides and shape")
    if offset % itemsize or any(s % itemsize for s in strides):
        raise ValueError(f"lazyarr gathers whole elements: strides {strides} and offset "
                         f"{offset} must be multiples of the itemsize {itemsize}")
    index = np.full(shape, offset // itemsize, dtype=np.int64)
    for axis, (n, s) in enumerate(zip(shape, strides)):
        index += (np.arange(n, dtype=np.int64) * (s // itemsize)).reshape(
            (1,) * axis + (n,) + (1,) * (len(shape) - axis - 1))
    if index.size and (index.min() < 0 or index.max() >= owner.size):
        raise ValueError("the strided view would reach outside the array's buffer "
                         "(NumPy would read unrelated memory)")
    flat = Array(owner._node, scalar=False).reshape(-1)
    result = take(flat, index)
    if not writeable:
        result.flags.writeable = False
    return result


def _probe_view(x: Array, numpy_function, *args, **kwargs):
    """NumPy's function applied to `x`'s stand-in: (byte offset from the owner's start,
    shape, strides) of the view NumPy would make."""
    probe = x._layout_of().probe
    owner_probe = x._owner()._layout_of().probe
    view = numpy_function(probe, *args, **kwargs)
    return _address(view) - _address(owner_probe), view.shape, view.strides


def as_strided(x, shape=None, strides=None, subok=False, writeable=True):
    """NumPy's `as_strided`: a view of `x`'s buffer with the given shape and strides."""
    x = as_array(x)
    offset, shape0, strides0 = _probe_view(x, lambda p: p)
    return strided_gather(x, offset, shape0 if shape is None else shape,
                          strides0 if strides is None else strides, writeable)


def sliding_window_view(x, window_shape, axis=None, *, subok=False, writeable=False):
    """NumPy's `sliding_window_view`: every window of `window_shape` (along `axis`),
    as a read-only array unless `writeable`; NumPy's errors for bad windows."""
    x = as_array(x)
    offset, shape, strides = _probe_view(x, np.lib.stride_tricks.sliding_window_view,
                                         window_shape, axis)
    return strided_gather(x, offset, shape, strides, writeable)


def set_strides(x: Array, strides) -> None:
    """`x.strides = strides`: NumPy's checks (and its NumPy 2.4 DeprecationWarning),
    then `x` holds the elements that view reads (a gather of the owner's)."""
    warnings.warn("Setting the strides on a NumPy array has been deprecated in NumPy 2.4.\n"
                  "As an alternative, you can create a new view using "
                  "np.lib.stride_tricks.as_strided.", DeprecationWarning,
                  stacklevel=user_stacklevel())
    strides = tuple(strides) if np.iterable(strides) else (strides,)
    if len(strides) != x.ndim:
        raise ValueError(f"strides must be same length as shape ({x.ndim})")
    offset, _, _ = _probe_view(x, lambda p: p)
    itemsize = x.dtype.itemsize
    ends = [offset + sum((n - 1) * s for n, s in zip(x.shape, strides) if s * sign > 0)
            for sign in (-1, 1)] if x.size else [offset, offset]
    if ends[0] < 0 or ends[1] + itemsize > x._owner().nbytes:
        raise ValueError("strides is not compatible with available memory")
    result = strided_gather(x, offset, x.shape, strides)
    # it reports the strides set, as NumPy's does (a stand-in over a fake buffer)
    probe = np.lib.stride_tricks.as_strided(np.zeros(1, x.dtype), x.shape, strides)
    x._n, x._layout = result._node, _Layout(None, (), None, probe, x._layout_of().writeable)
    _flush.track(x)


def set_shape(x: Array, shape) -> None:
    """`x.shape = shape`: NumPy's in-place reshape, allowed where it needs no copy
    (AttributeError otherwise); a view stays a view of the same owner."""
    try:
        np.reshape(x._layout_of().probe, shape, copy=False)
    except ValueError as error:
        if "copy" not in str(error):
            raise
        raise AttributeError("Incompatible shape for in-place modification. Use "
                             "`.reshape()` to make a copy with the desired shape.") from None
    view = x.reshape(shape)
    if x._layout is not None and x._layout.base is not None:
        x._n, x._layout = view._n, view._layout
    else:  # an owner: its node is reshaped (views made of it before keep their layout)
        x._n = view._n
        x._layout = None


HANDLED.setdefault(np.lib.stride_tricks.sliding_window_view, sliding_window_view)
# Array's shape and strides setters (the handle imports no chapter, so they are set here)
Array.shape = property(Array.shape.fget, set_shape, doc=Array.shape.__doc__)
Array.strides = property(Array.strides.fget, set_strides, doc=Array.strides.__doc__)
