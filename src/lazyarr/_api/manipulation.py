"""Array manipulation: joining, splitting, tiling, flipping, rolling and padding
(reshaping, transposing and broadcasting are in `shapes`).

Everything here moves data without changing it, so each function checks its
arguments at the call (NumPy's exception types and messages), then composes the
structural primitives: reshape, transpose, slice, concatenate, broadcast_to and take.
Reshapes to the same shape and identity transposes add no node.
"""

from __future__ import annotations

import itertools
import warnings

import numpy as np

from .. import _dtypes
from .._errors import user_stacklevel
from . import export
from .common import (Array, apply, as_array, astype, axis_sequence, broadcast_node,
                     full_node, host, index_arg, int_tuple, leaf, normalize_axis,
                     reshape_node, wrap)
from .elementwise import add, divide, equal, floor, multiply, rint, subtract, where_
from .shapes import broadcast_to, expand_dims, moveaxis, ravel, reshape, transpose

_CASTINGS = ("no", "equiv", "safe", "same_kind", "unsafe")


def _slices(node, slices: dict):
    """`node` sliced by {axis: slice}, as Python slicing (no node when nothing changes)."""
    bounds = [(0, n, 1) for n in node.shape]
    for axis, sl in slices.items():
        bounds[axis] = sl.indices(node.shape[axis])
    if all(b == (0, n, 1) for b, n in zip(bounds, node.shape)):
        return node
    starts, stops, steps = zip(*bounds)
    return apply("slice", node, starts=starts, stops=stops, steps=steps)


def _slice_node(node, axis: int, start, stop, step=None):
    """`node[start:stop:step]` along `axis`."""
    return _slices(node, {axis: slice(start, stop, step)})


# ----- joining --------------------------------------------------------------------

def _as_arrays(arrays, func: str) -> list[Array]:
    if isinstance(arrays, Array):
        if arrays.ndim == 0:
            raise TypeError(f"{func}: iteration over a 0-d array")
        return [wrap(n, False) for n in _parts(arrays._node, 0)]
    try:
        items = list(arrays)
    except TypeError:
        raise TypeError(f"{func}: expected a sequence of arrays, got "
                        f"{type(arrays).__name__}") from None
    if not items:
        raise ValueError(f"{func}: need at least one array to concatenate")
    return [as_array(a) for a in items]


def _take_index(node, i: int, axis: int):
    """`node[..., i, ...]` at `axis` (the axis removed)."""
    part = _slice_node(node, axis, i, i + 1)
    return reshape_node(part, node.shape[:axis] + node.shape[axis + 1:])


def _parts(node, axis: int) -> list:
    """The sub-arrays of `node` along `axis`, that axis removed."""
    return [_take_index(node, i, axis) for i in range(node.shape[axis])]


def _join_dtype(xs: list[Array], dtype, casting: str, func: str) -> np.dtype:
    if casting not in _CASTINGS:
        raise ValueError(f"{func}: casting must be one of 'no', 'equiv', 'safe', "
                         f"'same_kind', 'unsafe' (got {casting!r})")
    dt = _dtypes.result_type(*xs) if dtype is None else _dtypes.as_dtype(dtype)
    for x in xs:
        if not np.can_cast(x.dtype, dt, casting):
            raise TypeError(f"{func}: Cannot cast array data from {x.dtype!r} to {dt!r} "
                            f"according to the rule {casting!r}")
    return dt


def _concatenate_nodes(nodes: list, axis: int):
    return nodes[0] if len(nodes) == 1 else apply("concatenate", *nodes, axis=axis)


@export(names=("concat",))
def concatenate(arrays, /, axis=0, out=None, *, dtype=None, casting="same_kind"):
    """The arrays joined along an existing axis (flattened first when `axis` is None)."""
    func = "concatenate"
    if out is not None and dtype is not None:
        raise TypeError("concatenate() only takes `out` or `dtype` as an argument, but "
                        "both were provided.")
    xs = _as_arrays(arrays, func)
    if axis is None:
        xs = [ravel(x) for x in xs]
        axis = 0
    axis = index_arg(axis, "axis", func)
    first = xs[0]
    if first.ndim == 0:
        raise ValueError(f"{func}: zero-dimensional arrays cannot be concatenated")
    axis = normalize_axis(axis, first.ndim, func)
    for k, x in enumerate(xs[1:], 1):
        if x.ndim != first.ndim:
            raise ValueError(f"{func}: all the input arrays must have same number of "
                             f"dimensions, but the array at index 0 has {first.ndim} "
                             f"dimension(s) and the array at index {k} has {x.ndim} "
                             f"dimension(s)")
        for d, (m, n) in enumerate(zip(first.shape, x.shape)):
            if d != axis and m != n:
                raise ValueError(f"{func}: all the input array dimensions except for the "
                                 f"concatenation axis must match exactly, but along "
                                 f"dimension {d}, the array at index 0 has size {m} and "
                                 f"the array at index {k} has size {n}")
    if out is None:
        dt = _join_dtype(xs, dtype, casting, func)
        return wrap(_concatenate_nodes([astype(x, dt)._node for x in xs], axis), False)
    if not isinstance(out, Array):
        raise TypeError(f"{func}: out= must be a lazyarr array, not {type(out).__name__}")
    shape = first.shape[:axis] + (sum(x.shape[axis] for x in xs),) + first.shape[axis + 1:]
    if out.shape != shape:
        raise ValueError(f"{func}: Output array is the wrong shape ({out.shape}, not {shape})")
    return out._rebind(concatenate(xs, axis, dtype=out.dtype, casting=casting), func)


concat = concatenate


def _sequence(arrays, func: str):
    """NumPy's TypeError for a non-sequence (a generator) given to a stacking function."""
    if not hasattr(arrays, "__getitem__"):
        raise TypeError(f'{func}: arrays to stack must be passed as a "sequence" type such '
                        f'as list or tuple.')
    return arrays


@export
def stack(arrays, axis=0, out=None, *, dtype=None, casting="same_kind"):
    """The arrays, all of one shape, joined along a new axis."""
    xs = [as_array(a) for a in _sequence(arrays, "stack")]
    if not xs:
        raise ValueError("stack: need at least one array to stack")
    if len({x.shape for x in xs}) != 1:
        raise ValueError("stack: all input arrays must have the same shape, got "
                         + ", ".join(str(x.shape) for x in xs))
    axis = normalize_axis(axis, xs[0].ndim + 1, "stack")
    expanded = [expand_dims(x, axis) for x in xs]
    return concatenate(expanded, axis=axis, out=out, dtype=dtype, casting=casting)


def _atleast(arys: tuple, ndim: int):
    """atleast_1d/2d/3d: each array with length-1 axes added to reach `ndim` dims."""
    results = []
    for a in arys:
        x = as_array(a)
        if x.ndim < ndim:
            # 0-d -> (1,)*ndim; 1-d (n,) -> (1, n[, 1]); 2-d (m, n) -> (m, n, 1).
            shape = {0: (1,) * ndim, 1: (1,) + x.shape + (1,) * (ndim - 2),
                     2: x.shape + (1,)}[x.ndim]
            # A view of the input, as NumPy's (a NumPy scalar gives a new array).
            x = x._view_by(lambda v, shape=shape: reshape_node(v._node, shape),
                           lambda p, s: np.reshape(p, s, copy=False))
        results.append(x)
    return results[0] if len(results) == 1 else tuple(results)


@export
def atleast_1d(*arys):
    """Each input as an array of at least one dimension."""
    return _atleast(arys, 1)


@export
def atleast_2d(*arys):
    """Each input as an array of at least two dimensions (1-d becomes a row)."""
    return _atleast(arys, 2)


@export
def atleast_3d(*arys):
    """Each input with at least three dimensions ((n,) -> (1, n, 1), (m, n) -> (m, n, 1))."""
    return _atleast(arys, 3)


def _atleast_list(tup, ndim: int, func: str) -> list:
    arrs = _atleast(tuple(_sequence(tup, func)), ndim)
    return list(arrs) if isinstance(arrs, tuple) else [arrs]


@export
def hstack(tup, *, dtype=None, casting="same_kind"):
    """Join along the second axis (the first for 1-d arrays)."""
    arrs = _atleast_list(tup, 1, "hstack")
    axis = 0 if arrs and arrs[0].ndim == 1 else 1
    return concatenate(arrs, axis, dtype=dtype, casting=casting)


@export
def vstack(tup, *, dtype=None, casting="same_kind"):
    """Join along the first axis, 1-d arrays taken as rows."""
    return concatenate(_atleast_list(tup, 2, "vstack"), 0, dtype=dtype, casting=casting)


@export
def row_stack(tup, *, dtype=None, casting="same_kind"):
    """NumPy's deprecated alias of `vstack`, with its DeprecationWarning."""
    warnings.warn("`row_stack` alias is deprecated. Use `np.vstack` directly.",
                  DeprecationWarning, stacklevel=user_stacklevel())
    return vstack(tup, dtype=dtype, casting=casting)


@export
def dstack(tup):
    """Join along the third axis, after `atleast_3d`."""
    return concatenate(_atleast_list(tup, 3, "dstack"), 2)


@export
def column_stack(tup):
    """Join 1-d arrays as columns (and 2-d arrays as they are) along the second axis."""
    arrays = []
    for a in _sequence(tup, "column_stack"):
        x = as_array(a)
        if x.ndim < 2:
            x = wrap(reshape_node(x._node, (x.size, 1)), False)
        arrays.append(x)
    return concatenate(arrays, 1)


@export
def append(arr, values, axis=None):
    """`values` appended to `arr` (both flattened when `axis` is None)."""
    x = as_array(arr)
    if axis is None:
        return concatenate((ravel(x), ravel(values)), 0)
    return concatenate((x, values), axis)


# ----- splitting ------------------------------------------------------------------

def _split_points(n: int, indices_or_sections, func: str) -> list[int]:
    """Boundaries [0, ..., n] of the pieces, as NumPy's array_split computes them."""
    indices_or_sections = host(indices_or_sections)
    try:
        return [0] + list(indices_or_sections) + [n]
    except TypeError:
        sections = int(indices_or_sections)
    if sections <= 0:
        raise ValueError(f"{func}: number sections must be larger than 0.")
    each, extras = divmod(n, sections)
    sizes = [each + 1] * extras + [each] * (sections - extras)
    return [0] + list(itertools.accumulate(sizes))


@export
def array_split(ary, indices_or_sections, axis=0):
    """Split into sub-arrays along `axis`: N nearly equal sections, or at indices."""
    x = as_array(ary)
    n = x.shape[axis]  # IndexError for a bad axis, as NumPy
    axis = normalize_axis(axis, x.ndim, "array_split")
    points = _split_points(n, indices_or_sections, "array_split")
    return [wrap(_slice_node(x._node, axis, index_arg(start, "split index", "array_split"),
                             index_arg(stop, "split index", "array_split")), False)
            for start, stop in zip(points[:-1], points[1:])]


@export
def split(ary, indices_or_sections, axis=0):
    """Split into equal sections (ValueError if they cannot be equal), or at indices."""
    x = as_array(ary)
    sections = host(indices_or_sections)
    try:
        len(sections)
    except TypeError:
        if x.shape[axis] % sections:
            raise ValueError("split: array split does not result in an equal division "
                             f"({x.shape[axis]} into {sections})") from None
    return array_split(x, sections, axis)


def _split_along(ary, indices_or_sections, func: str, min_ndim: int, axis_of):
    x = as_array(ary)
    if x.ndim < min_ndim:
        raise ValueError(f"{func} only works on arrays of {min_ndim} or more dimensions")
    return split(x, indices_or_sections, axis_of(x.ndim))


@export
def hsplit(ary, indices_or_sections):
    """`split` along the second axis (the first for 1-d arrays)."""
    return _split_along(ary, indices_or_sections, "hsplit", 1, lambda nd: 1 if nd > 1 else 0)


@export
def vsplit(ary, indices_or_sections):
    """`split` along the first axis of an array of 2 or more dimensions."""
    return _split_along(ary, indices_or_sections, "vsplit", 2, lambda nd: 0)


@export
def dsplit(ary, indices_or_sections):
    """`split` along the third axis of an array of 3 or more dimensions."""
    return _split_along(ary, indices_or_sections, "dsplit", 3, lambda nd: 2)


@export
def unstack(x, /, *, axis=0):
    """The sub-arrays along `axis`, as a tuple."""
    x = as_array(x)
    if x.ndim == 0:
        raise ValueError("unstack: Input array must be at least 1-d.")
    axis = normalize_axis(axis, x.ndim, "unstack")
    return tuple(wrap(n) for n in _parts(x._node, axis))


# ----- tiling and repeating -------------------------------------------------------

def _repeat_axes(node, reps: tuple):
    """Each axis k of `node` repeated reps[k] times as whole blocks (NumPy's tile):
    (s0, s1) -> (1, s0, 1, s1) -> broadcast (r0, s0, r1, s1) -> (r0*s0, r1*s1)."""
    shape = node.shape
    if all(r == 1 for r in reps):
        return node
    interleaved = tuple(n for s in shape for n in (1, s))
    spread = tuple(n for r, s in zip(reps, shape) for n in (r, s))
    node = broadcast_node(reshape_node(node, interleaved), spread)
    return reshape_node(node, tuple(r * s for r, s in zip(reps, shape)))


@export
def tile(A, reps):
    """`A` repeated as whole blocks `reps` times along each axis."""
    x = as_array(A)
    try:
        reps = tuple(host(reps))
    except TypeError:
        reps = (reps,)
    if not all(r == 1 for r in reps):
        reps = tuple(index_arg(r, "reps", "tile") for r in reps)
        if any(r < 0 for r in reps):
            raise ValueError(f"tile: negative dimensions are not allowed: {reps}")
    reps = (1,) * (x.ndim - len(reps)) + tuple(int(r) for r in reps)
    node = reshape_node(x._node, (1,) * (len(reps) - x.ndim) + x.shape)
    return wrap(_repeat_axes(node, reps), False)


def _repeat_counts(repeats):
    """`repeats` as NumPy converts it: an intp array of at most 1 dimension. Arrays need
    a safe cast; Python values are converted one by one (2.5 -> 2)."""
    if isinstance(repeats, (Array, np.ndarray)):
        dtype = repeats.dtype
        if not np.can_cast(dtype, np.intp, "safe"):
            raise TypeError(f"repeat: Cannot cast array data from {dtype!r} to "
                            f"{np.dtype(np.intp)!r} according to the rule 'safe'")
        counts = np.asarray(host(repeats)).astype(np.intp)
    else:
        counts = np.array(repeats, dtype=np.intp)
    if counts.ndim > 1:
        raise ValueError("repeat: setting an array element with a sequence. The requested "
                         "array would exceed the maximum number of dimension of 1.")
    return counts


@export
def repeat(a, repeats, axis=None):
    """Each element repeated `repeats` times (an int, or one count per element)."""
    x = as_array(a)
    counts = _repeat_counts(repeats)
    if axis is None or x.ndim == 0:
        x = ravel(x)  # NumPy treats a 0-d array as 1-d here
    axis = normalize_axis(0 if axis is None else axis, x.ndim, "repeat")
    n = x.shape[axis]
    if counts.size == 1:
        count = int(counts.reshape(()))
        if count < 0:
            raise ValueError(f"repeat: negative dimensions are not allowed ({count})")
        if count == 1:
            return wrap(x._node, False)
        node = reshape_node(x._node, x.shape[:axis + 1] + (1,) + x.shape[axis + 1:])
        node = broadcast_node(node, x.shape[:axis + 1] + (count,) + x.shape[axis + 1:])
        return wrap(reshape_node(node, x.shape[:axis] + (n * count,) + x.shape[axis + 1:]),
                    False)
    if counts.shape != (n,):
        raise ValueError(f"repeat: operands could not be broadcast together with shape "
                         f"({n},) ({counts.size},)")
    if (counts < 0).any():
        raise ValueError("repeat: repeats may not contain negative values.")
    index = np.repeat(np.arange(n, dtype=np.int64), counts)
    return wrap(apply("take", x._node, leaf(index, index.shape, index.dtype), axis=axis),
                False)


# ----- flipping and rolling -------------------------------------------------------

@export
def flip(m, axis=None):
    """`m` with the order of elements reversed along `axis` (all axes when None)."""
    x = as_array(m)
    axes = range(x.ndim) if axis is None else axis_sequence(axis, x.ndim, "flip")
    flipped = {ax: slice(None, None, -1) for ax in axes if x.shape[ax] > 1}
    if x.ndim == 0:  # NumPy indexes a 0-d array with (): a scalar
        return wrap(x._node)
    # A view, as NumPy's: writes through it (or into `m`) show in both.
    key = tuple(slice(None, None, -1) if ax in axes else slice(None) for ax in range(x.ndim))
    return x._view_by(lambda v: _slices(v._node, flipped), lambda p, shape: p[key])


@export
def fliplr(m):
    """`m` reversed along its second axis (ValueError below 2 dimensions)."""
    x = as_array(m)
    if x.ndim < 2:
        raise ValueError("fliplr: Input must be >= 2-d.")
    return flip(x, 1)


@export
def flipud(m):
    """`m` reversed along its first axis (ValueError for 0-d input)."""
    x = as_array(m)
    if x.ndim < 1:
        raise ValueError("flipud: Input must be >= 1-d.")
    return flip(x, 0)


def _roll_axis(node, axis: int, offset: int):
    """`node` rolled by `offset` (0 < offset < n) along `axis`: tail then head."""
    n = node.shape[axis]
    return apply("concatenate", _slice_node(node, axis, n - offset, n),
                 _slice_node(node, axis, 0, n - offset), axis=axis)


@export
def roll(a, shift, axis=None):
    """Elements shifted cyclically along `axis` (over the flattened array when None);
    shifts on the same axis add up, as NumPy's."""
    x = as_array(a)
    if axis is None:
        return reshape(roll(ravel(x), shift, 0), x.shape)
    shift = host(shift)  # a shift is a static slice position
    axes = tuple(normalize_axis(ax, x.ndim, "roll") for ax in int_tuple(axis, "axis", "roll"))
    pairs = np.broadcast(np.asarray(shift, dtype=object), np.asarray(axes, dtype=object))
    if pairs.ndim > 1:
        raise ValueError("roll: 'shift' and 'axis' should be scalars or 1D sequences")
    shifts = dict.fromkeys(range(x.ndim), 0)
    for sh, ax in pairs:
        shifts[ax] += int(sh)
    node = x._node
    for ax, offset in shifts.items():
        offset %= x.shape[ax] or 1
        if offset:
            node = _roll_axis(node, ax, offset)
    return wrap(node, False)


@export
def rot90(m, k=1, axes=(0, 1)):
    """`m` rotated by 90 degrees `k` times in the plane of `axes`, as NumPy's."""
    axes = tuple(axes)
    if len(axes) != 2:
        raise ValueError("rot90: len(axes) must be 2.")
    x = as_array(m)
    if axes[0] == axes[1] or abs(axes[0] - axes[1]) == x.ndim:
        raise ValueError("rot90: Axes must be different.")
    if not all(-x.ndim <= ax < x.ndim for ax in axes):
        raise ValueError(f"rot90: Axes={axes} out of range for array of ndim={x.ndim}.")
    k %= 4
    if k == 0:
        return wrap(x._node, False)
    if k == 2:
        return flip(x, axes)
    perm = list(range(x.ndim))
    perm[axes[0]], perm[axes[1]] = perm[axes[1]], perm[axes[0]]
    if k == 1:
        return transpose(flip(x, axes[1]), perm)
    return flip(transpose(x, perm), axes[1])


# ----- padding --------------------------------------------------------------------

_PAD_KWARGS = {"constant": ("constant_values",), "empty": (), "edge": (), "wrap": (),
               "reflect": ("reflect_type",), "symmetric": ("reflect_type",),
               "linear_ramp": ("end_values",), "maximum": ("stat_length",),
               "minimum": ("stat_length",), "mean": ("stat_length",),
               "median": ("stat_length",)}


def _as_pairs(x, ndim: int, as_index: bool = False) -> list:
    """NumPy's `_as_pairs`: a scalar, a (before, after) pair or a per-axis sequence of
    pairs, as one (before, after) pair per axis. Items stay NumPy scalars or Python
    scalars as in NumPy (their cast into the array differs); a lazy array of values
    stays lazy, as 0-d arrays."""
    if x is None:
        return [(None, None)] * ndim
    lazy = isinstance(x, Array) and not as_index
    if not lazy:
        x = np.array(host(x))
        if as_index:
            x = np.round(x).astype(np.intp, copy=False)
    if x.ndim < 3 and (x.size == 1 or (x.size == 2 and x.shape != (2, 1))):
        flat = ravel(x) if lazy else x.ravel()
        if as_index and (flat < 0).any():
            raise ValueError("pad: index can't contain negative values")
        pick = (lambda i: wrap(_take_index(flat._node, i, 0))) if lazy else flat.__getitem__
        return [(pick(0), pick(flat.size - 1))] * ndim
    if as_index and x.min() < 0:
        raise ValueError("pad: index can't contain negative values")
    if lazy:
        pairs = broadcast_to(x, (ndim, 2))._node
        return [tuple(wrap(_take_index(_take_index(pairs, a, 0), s, 0)) for s in (0, 1))
                for a in range(ndim)]
    return np.broadcast_to(x, (ndim, 2)).tolist()


def _pad_widths(pad_width, ndim: int) -> list[tuple[int, int]]:
    if isinstance(pad_width, dict):
        seq = [(0, 0)] * ndim
        for axis, width in pad_width.items():
            if isinstance(width, int):
                seq[axis] = (width, width)
            elif (isinstance(width, tuple) and len(width) == 2
                  and all(isinstance(w, int) for w in width)):
                seq[axis] = width
            else:  # NumPy's `typing.assert_never`
                raise AssertionError(f"pad: invalid pad width {width!r} for axis {axis}")
        pad_width = seq
    widths = np.asarray(host(pad_width))
    if widths.dtype.kind != "i":
        raise TypeError("pad: `pad_width` must be of integral type.")
    return [(int(b), int(a)) for b, a in _as_pairs(widths, ndim, as_index=True)]


def _with_shape(node, axis: int, length: int) -> tuple:
    return node.shape[:axis] + (length,) + node.shape[axis + 1:]


def _join(node, axis: int, left, right):
    """`left`, `node`, `right` concatenated along `axis` (None parts left out)."""
    parts = [p for p in (left, node, right) if p is not None]
    return _concatenate_nodes(parts, axis)


def _fill(value, shape: tuple, dtype):
    """`value` assigned into an array of `dtype` (NumPy's setitem cast), broadcast."""
    if isinstance(value, Array):
        return broadcast_node(astype(value, dtype)._node, shape)
    cell = np.empty((), dtype)
    cell[()] = value
    return broadcast_node(leaf(cell, (), dtype), shape)


def _pad_constant(node, axis, widths, values):
    sides = [_fill(v, _with_shape(node, axis, w), node.dtype) if w else None
             for v, w in zip(values, widths)]
    return _join(node, axis, *sides)


def _edges(node, axis):
    n = node.shape[axis]
    return _slice_node(node, axis, 0, 1), _slice_node(node, axis, n - 1, n)


def _pad_edge(node, axis, widths, _):
    sides = [broadcast_node(e, _with_shape(node, axis, w)) if w else None
             for e, w in zip(_edges(node, axis), widths)]
    return _join(node, axis, *sides)


def _reversed_range(node, axis, lo: int, hi: int):
    """`node[lo:hi]` along `axis`, in reverse order."""
    return _slice_node(node, axis, hi - 1, lo - 1 if lo > 0 else None, -1)


def _odd(chunk, edge, dtype):
    """NumPy's odd reflection: 2 * edge - chunk, cast back into the array's dtype."""
    return astype(subtract(multiply(2, wrap(edge, False)), wrap(chunk, False)), dtype)._node


def _pad_reflect(node, axis, widths, method, include_edge):
    """NumPy's iterative reflection: each round mirrors at most the valid part so far."""
    n = node.shape[axis]
    if n == 1:  # NumPy's legacy behaviour: a singleton axis is extended by its edge
        return _pad_edge(node, axis, widths, None)
    left, right = widths
    offset = 1 if include_edge else 0
    while left > 0 or right > 0:
        length = node.shape[axis]
        period = length // n * n if include_edge else (length - 1) // (n - 1) * (n - 1)
        lchunk = rchunk = None
        if left > 0:
            c = min(period, left)
            lchunk = _reversed_range(node, axis, 1 - offset, c + 1 - offset)
            if method == "odd":
                lchunk = _odd(lchunk, _edges(node, axis)[0], node.dtype)
            left -= c
        if right > 0:
            c = min(period, right)
            rchunk = _reversed_range(node, axis, length + offset - 1 - c, length + offset - 1)
            if method == "odd":
                rchunk = _odd(rchunk, _edges(node, axis)[1], node.dtype)
            right -= c
        node = _join(node, axis, lchunk, rchunk)
    return node


def _pad_wrap(node, axis, widths, _):
    """NumPy's iterative wrapping: each round copies at most a whole number of periods."""
    n = node.shape[axis]
    left, right = widths
    while left > 0 or right > 0:
        length = node.shape[axis]
        period = length // n * n
        lchunk = rchunk = None
        if left > 0:
            c = min(period, left)
            lchunk = _slice_node(node, axis, period - c, period)
            left -= c
        if right > 0:
            c = min(period, right)
            rchunk = _slice_node(node, axis, length - period, length - period + c)
            right -= c
        node = _join(node, axis, lchunk, rchunk)
    return node


def _ramp(start, edge, num: int, axis: int, dtype):
    """NumPy's `linspace(start, edge.squeeze(axis), num, endpoint=False, dtype, axis)`,
    step for step (including its `any(step == 0)` branch, chosen lazily)."""
    stop = wrap(reshape_node(edge, edge.shape[:axis] + edge.shape[axis + 1:]), False)
    start = as_array(start) if isinstance(start, np.generic) else start
    dt = _dtypes.to_inexact(_dtypes.result_type(start, stop))
    delta = subtract(stop, start, dtype=dt)
    y = wrap(apply("iota", shape=(num,) + stop.shape, dtype=dt, axis=0), False)
    step = divide(delta, num)
    any_zero = wrap(apply("reduce_any", equal(step, 0)._node, axes=tuple(range(step.ndim))))
    y = where_(any_zero, multiply(divide(y, num), delta), multiply(y, step))
    y = moveaxis(astype(add(y, start), dt), 0, axis)
    if _dtypes.is_integer(dtype):
        y = floor(y)
    return astype(y, dtype)._node


def _pad_linear_ramp(node, axis, widths, end_values):
    ramps = [_ramp(v, e, w, axis, node.dtype) if w else None
             for v, e, w in zip(end_values, _edges(node, axis), widths)]
    if ramps[1] is not None:
        ramps[1] = _slice_node(ramps[1], axis, None, None, -1)
    return _join(node, axis, *ramps)


def _pad_stat(node, axis, widths, lengths, mode):
    """Pad with a statistic of the first/last `lengths` values (whole axis for None)."""
    n = node.shape[axis]
    lengths = [n if k is None or n < k else k for k in lengths]
    if 0 in lengths and mode != "mean":
        raise ValueError("pad: stat_length of 0 yields no value for padding")
    if widths == (0, 0):
        return node

    from . import reductions  # bound after this module
    stat = {"maximum": reductions.max, "minimum": reductions.min, "mean": reductions.mean}[mode]

    def value(lo, hi):
        result = stat(wrap(_slice_node(node, axis, lo, hi), False), axis=axis, keepdims=True)
        if _dtypes.is_integer(node.dtype) and _dtypes.is_inexact(result.dtype):
            result = rint(result)  # NumPy rounds a mean before storing it in integers
        return astype(result, node.dtype)._node

    left = value(0, lengths[0])
    right = left if lengths == [n, n] else value(n - lengths[1], n)
    sides = [broadcast_node(v, _with_shape(node, axis, w)) if w else None
             for v, w in zip((left, right), widths)]
    return _join(node, axis, *sides)


@export
def pad(array, pad_width, mode="constant", **kwargs):
    """`array` padded by `pad_width` (NumPy's forms) in one of NumPy's modes, axis by
    axis as NumPy does (corners come from the later axes). 'empty' pads with zeros;
    'median' and a callable mode run through NumPy (a counted fallback)."""
    x = as_array(array)
    widths = _pad_widths(pad_width, x.ndim)
    if not callable(mode):
        if mode not in _PAD_KWARGS:
            raise ValueError(f"pad: mode '{mode}' is not supported")
        unsupported = set(kwargs) - set(_PAD_KWARGS[mode])
        if unsupported:
            raise ValueError(f"pad: unsupported keyword arguments for mode '{mode}': "
                             f"{unsupported}")
    if callable(mode) or mode == "median":
        from .._dispatch import fallback
        return fallback(np.pad, (x, pad_width, mode), kwargs, name="pad")
    if mode in ("constant", "empty"):
        values = _as_pairs(kwargs.get("constant_values", 0), x.ndim)
        pad_axis, extras = _pad_constant, values
    elif x.size == 0:
        for axis, (n, w) in enumerate(zip(x.shape, widths)):
            if n == 0 and any(w):
                raise ValueError(f"pad: can't extend empty axis {axis} using modes other "
                                 f"than 'constant' or 'empty'")
        shape = tuple(n + b + a for n, (b, a) in zip(x.shape, widths))
        return wrap(full_node(0, shape, x.dtype), False)
    elif mode in ("reflect", "symmetric"):
        method, symmetric = kwargs.get("reflect_type", "even"), mode == "symmetric"
        pad_axis = lambda node, axis, w, _: _pad_reflect(node, axis, w, method, symmetric)
        extras = [None] * x.ndim
    elif mode == "linear_ramp":
        pad_axis, extras = _pad_linear_ramp, _as_pairs(kwargs.get("end_values", 0), x.ndim)
    elif mode in ("maximum", "minimum", "mean"):
        pad_axis = lambda node, axis, w, lengths: _pad_stat(node, axis, w, lengths, mode)
        extras = _as_pairs(kwargs.get("stat_length"), x.ndim, as_index=True)
    else:
        pad_axis = {"edge": _pad_edge, "wrap": _pad_wrap}[mode]
        extras = [None] * x.ndim
    node = x._node
    for axis, (w, extra) in enumerate(zip(widths, extras)):
        if any(w) or mode in ("maximum", "minimum"):
            node = pad_axis(node, axis, w, extra)
    return wrap(node, False)
