"""Array creation: from data, filled, ranges (arange, linspace, logspace, geomspace),
grids (meshgrid, indices, fromfunction) and triangles.

Data from the host (lists, NumPy arrays) becomes a runtime input, copied so that a
later change to the user's array does not change a lazy result; except that
`asarray(ndarray)` is the ndarray's own memory, as in NumPy (`_shared.adopt`). Filled arrays and
ranges are built inside the program (a broadcast scalar, an iota), never shipped as
data. 0-d arrays made here print as arrays (`array(3.)`), as NumPy's do.
"""

from __future__ import annotations

import math
import operator
import warnings

import numpy as np

from .. import _dtypes, _eager, _shared
from . import export
from .._interop import NotLazy
from .common import (Array, apply, as_array, as_shape, astype, full_node, host_array, leaf,
                     wrap)
from .elementwise import (add, floor, greater_equal, log10, multiply, power, sign, subtract,
                          where_)
from .manipulation import concatenate, stack
from .shapes import broadcast_to, diagonal, expand_dims, moveaxis, reshape


def _creation_dtype(dtype, default=_dtypes.float64) -> np.dtype:
    return default if dtype is None else _dtypes.as_dtype(dtype)


# ----- from data ------------------------------------------------------------------

@export
def array(object, dtype=None, *, copy=True, order="K", subok=False, ndmin=0, like=None):
    """A new array from data (lists, scalars, NumPy or lazyarr arrays). copy=False or
    None returns a lazyarr array itself where no copy is needed (copy=False raises
    NumPy's ValueError where one is: a cast, a NumPy scalar)."""
    if copy is not True and isinstance(object, Array):
        same = dtype is None or _dtypes.as_dtype(dtype) == object.dtype
        if same and not object._scalar:
            x = object
            if ndmin > x.ndim:
                x = x._view_by(lambda v: apply("reshape", v._node, shape=(1,) * (
                    ndmin - x.ndim) + x.shape), lambda p, s: np.reshape(p, s, copy=False))
            return x
        if copy is False:
            raise ValueError("Unable to avoid copy while creating an array as requested.")
    elif copy is False:
        return asarray(object, dtype, copy=False)
    x = as_array(object, dtype)
    if ndmin > x.ndim:
        x = wrap(apply("reshape", x._node, shape=(1,) * (ndmin - x.ndim) + x.shape), False)
    return Array(x._node, scalar=False)


@export(names=("asanyarray",))
def asarray(a, dtype=None, order=None, *, device=None, copy=None, like=None):
    """`a` as an array: lazyarr arrays pass through; other data becomes an input. A
    scalar (NumPy's or a lazyarr 0-d result) becomes a 0-d array, as in NumPy. With
    copy=False, host data is shared (later writes to it show) or NumPy's ValueError is
    raised where a copy is needed."""
    if isinstance(a, Array) and (dtype is None or _dtypes.as_dtype(dtype) == a.dtype):
        # copy=True: a new owner; a scalar is immutable, so a new handle shares it
        return Array(a._node, scalar=False) if copy or a._scalar else a
    if type(a) is np.ndarray and copy is not True and _shareable(a, dtype, copy):
        result = Array(leaf(a, a.shape, a.dtype), scalar=False)
        _shared.adopt(result, a)
        return result
    if copy is False:  # share the caller's buffer, or NumPy's ValueError
        value = None if isinstance(a, Array) else np.asarray(a, dtype=dtype, copy=False)
        if value is None or not value.dtype.isnative:  # a cast, or lazyarr's host order
            raise ValueError("Unable to avoid copy while creating an array as requested.")
        return Array(leaf(value, value.shape, value.dtype), scalar=False)
    x = as_array(a, dtype)
    return x if x is not a and not x._scalar else Array(x._node, scalar=False)


def _shareable(a: np.ndarray, dtype, copy) -> bool:
    """Whether `asarray(a)` is `a`'s own memory, as NumPy's is (see `_shared.adopt`):
    no cast, a writable C-contiguous buffer of a native numeric dtype; always where
    copy=False asks for it, else on the host's CPU past the eager size (a small array
    is copied: an operation reading a shared buffer is a flush, tens of µs, where the
    eager path computes a small one in one; on an accelerator, each operation reading
    it would copy it to the device)."""
    return ((dtype is None or _dtypes.as_dtype(dtype) == a.dtype)
            and a.dtype.kind in "biufc" and a.dtype.isnative
            and a.flags.c_contiguous and a.flags.writeable
            and (copy is False or (a.size > _eager.MAX_ELEMENTS and _eager.on_host())))


@export
def from_dlpack(x, /, *, device=None, copy=None):
    """An array from any DLPack exporter (NumPy's `from_dlpack`, host memory). A lazyarr
    array gives a new handle on its value; other data is copied unless copy=False, which
    shares the exporter's memory as the standard asks (its later writes then show)."""
    if isinstance(x, Array):
        result = Array(x._node, scalar=False)  # lazyarr's buffers never change
    else:
        value = np.from_dlpack(x, copy=copy)
        result = (Array(leaf(value, value.shape, value.dtype), scalar=False) if copy is False
                  else Array(as_array(value)._node, scalar=False))
    return result if device is None else result.to_device(device)


@export
def copy(a, order="K", subok=False):
    """A copy of `a` (a new handle: later writes to either do not affect the other)."""
    return Array(as_array(a)._node, scalar=False)


# ----- filled ---------------------------------------------------------------------

@export
def full(shape, fill_value, dtype=None, order="C", *, device=None, like=None):
    """An array of `shape` filled with `fill_value` (its dtype unless `dtype` given),
    laid out in NumPy's C or Fortran `order`."""
    result = _full(shape, fill_value, dtype)
    if order not in ("C", "F"):
        raise ValueError("only 'C' or 'F' order is permitted" if order in ("A", "K") else
                         f"order must be one of 'C', 'F', 'A', or 'K' (got {order!r})")
    return result._copy_in("F") if order == "F" and result.ndim > 1 else result


def _full(shape, fill_value, dtype):
    shape = as_shape(shape, "full")
    if isinstance(fill_value, Array) or np.ndim(fill_value) > 0:
        value = as_array(fill_value)
        value = astype(value, dtype) if dtype is not None else value
        return wrap(apply("broadcast_to", value._node, shape=shape), False)
    if dtype is not None and type(fill_value) in (bool, int, float, complex, str, bytes):
        # NumPy's own conversion of a Python scalar into `dtype` (its OverflowError for
        # an int the dtype cannot hold; 2**64 as a float32 is fine).
        value = np.full((), fill_value, _dtypes.as_dtype(dtype))
    else:
        value = np.asarray(fill_value)
    dt = _dtypes.as_dtype(dtype) if dtype is not None else value.dtype
    if not (_dtypes.is_numeric(dt) and _dtypes.is_numeric(value.dtype)):
        raise NotLazy(f"full: lazyarr supports bool and numeric dtypes, not {dt} "
                      f"(fill value {fill_value!r})")
    _dtypes.check_weak_int_fits(fill_value, dt, "full")
    with warnings.catch_warnings():  # NumPy fills with an unsafe cast, silently
        warnings.simplefilter("ignore")
        value = value.astype(dt)
    return wrap(full_node(value, shape, dt), False)


@export
def zeros(shape, dtype=float, order="C", *, device=None, like=None):
    return full(shape, 0, _creation_dtype(dtype), order)


@export
def ones(shape, dtype=float, order="C", *, device=None, like=None):
    return full(shape, 1, _creation_dtype(dtype), order)


@export
def empty(shape, dtype=float, order="C", *, device=None, like=None):
    """Like NumPy's, with unspecified contents; lazyarr's are zeros."""
    return full(shape, 0, _creation_dtype(dtype), order)


def _like_shape(a, shape):
    return as_array(a).shape if shape is None else as_shape(shape, "full_like")


@export
def full_like(a, fill_value, dtype=None, order="K", subok=True, shape=None, *, device=None):
    x = as_array(a)
    return full(_like_shape(x, shape), fill_value, x.dtype if dtype is None else dtype)


@export
def zeros_like(a, dtype=None, order="K", subok=True, shape=None, *, device=None):
    return full_like(a, 0, dtype, shape=shape)


@export
def ones_like(a, dtype=None, order="K", subok=True, shape=None, *, device=None):
    return full_like(a, 1, dtype, shape=shape)


@export
def empty_like(prototype, dtype=None, order="K", subok=True, shape=None, *, device=None):
    return full_like(prototype, 0, dtype, shape=shape)


# ----- ranges ---------------------------------------------------------------------

def _host_scalar(value, name: str):
    """A range bound as a Python number (a lazy 0-d array is materialized)."""
    if isinstance(value, Array):
        value = value.item()
    if isinstance(value, np.generic) and _dtypes.is_numeric(value.dtype):
        return value
    if not isinstance(value, (bool, int, float, complex)):  # dates, strings: NumPy's
        raise NotLazy(f"{name}: expected a number, got {type(value).__name__}")
    return value


def iota(length: int, dtype) -> Array:
    """[0, 1, ..., length-1] in `dtype`, generated inside the program."""
    return wrap(apply("iota", shape=(length,), dtype=_dtypes.as_dtype(dtype), axis=0), False)


@export
def arange(start_or_stop, /, stop=None, step=None, *, dtype=None, device=None, like=None):
    """Evenly spaced values in [start, stop), computed as NumPy fills them."""
    if stop is None:
        start, stop = 0, start_or_stop
    else:
        start = start_or_stop
    given = [v for v in (start, stop, step) if v is not None]
    step = 1 if step is None else step
    start, stop, step = (_host_scalar(v, "arange") for v in (start, stop, step))
    # NumPy's arange takes each bound's own dtype (Python ints as int64: not NEP 50).
    dt = _dtypes.as_dtype(dtype) if dtype is not None else _dtypes.result_type(
        *(np.asarray(_host_scalar(v, "arange")) for v in given))
    if step == 0:
        raise ZeroDivisionError("arange: step must not be zero")
    length = max(0, math.ceil((stop - start) / step))
    if _dtypes.is_bool(dt) and length > 2:
        raise TypeError("arange() is only supported for booleans when the result has at "
                        "most length 2.")
    if length == 0 or _dtypes.is_bool(dt):
        return asarray(np.array([start, start + step][:length]).astype(dt))
    # NumPy stores start and start+step in the dtype, then fills start + i*delta.
    first = np.asarray(start).astype(dt)
    delta = np.asarray(start + step).astype(dt) - first if length > 1 else np.zeros((), dt)
    return add(multiply(iota(length, dt), delta), first)


def _inexact_type(*values):
    dt = _dtypes.result_type(*(np.asarray(v) if isinstance(v, np.generic) else v
                               for v in values))
    return _dtypes.to_inexact(dt)


@export
def linspace(start, stop, num=50, endpoint=True, retstep=False, dtype=None, axis=0, *,
             device=None):
    """`num` evenly spaced samples over [start, stop], computed as numpy.linspace does
    (ramp * step + start, the last sample set to `stop` exactly)."""
    num = operator.index(num)
    if num < 0:
        raise ValueError(f"linspace: Number of samples, {num}, must be non-negative.")
    start = start if isinstance(start, (Array, int, float, complex)) else as_array(start)
    stop = stop if isinstance(stop, (Array, int, float, complex)) else as_array(stop)
    dt = _inexact_type(start, stop)
    out_dtype = dt if dtype is None else _dtypes.as_dtype(dtype)
    div = num - 1 if endpoint else num
    delta = subtract(stop, start, dtype=dt)
    extra = (1,) * delta.ndim
    ramp = wrap(apply("iota", shape=(num,) + extra, dtype=dt, axis=0), False)
    step = delta / div if div > 0 else np.nan
    y = multiply(ramp, step) if div > 0 else multiply(ramp, delta)
    y = add(y, start)
    if endpoint and num > 1:
        is_last = greater_equal(iota(num, np.int64).reshape((num,) + extra), num - 1)
        y = astype(where_(is_last, stop, y), dt)
    if axis != 0:
        y = moveaxis(y, 0, axis)
    if _dtypes.is_integer(out_dtype):
        y = floor(y)
    y = astype(y, out_dtype)
    return (y, step) if retstep else y


@export
def logspace(start, stop, num=50, endpoint=True, base=10.0, dtype=None, axis=0):
    """`base ** linspace(start, stop, num)`, as NumPy computes it."""
    y = linspace(start, stop, num=num, endpoint=endpoint, axis=axis)
    base = as_array(base) if not isinstance(base, (int, float, complex)) else base
    if isinstance(base, Array) and base.ndim:
        base = expand_dims(base, axis)
    result = power(base, y)
    return result if dtype is None else astype(result, dtype)


@export
def geomspace(start, stop, num=50, endpoint=True, dtype=None, axis=0):
    """Numbers spaced evenly on a log scale between `start` and `stop` (NumPy's
    geomspace; lazy endpoints are read for NumPy's zero check)."""
    start, stop = asarray(start), asarray(stop)
    if np.any(host_array(start, "control") == 0) or np.any(host_array(stop, "control") == 0):
        raise ValueError("Geometric sequence cannot include zero")
    dt = _dtypes.result_type(start, stop, float(num), np.zeros((), dtype))
    dtype = dt if dtype is None else np.dtype(dtype)
    start, stop = astype(start, dt), astype(stop, dt)
    out_sign = sign(start)
    start = start / out_sign
    stop = stop / out_sign
    result = logspace(log10(start), log10(stop), num=num,
                               endpoint=endpoint, base=10.0, dtype=dt)
    if num > 0:
        result[0] = start
        if num > 1 and endpoint:
            result[-1] = stop
    result *= out_sign
    if axis != 0:
        result = moveaxis(result, 0, axis)
    return astype(result, dtype)



# ----- grids and triangles --------------------------------------------------------

def _index_grid(n: int, m: int) -> tuple[Array, Array]:
    rows = wrap(apply("iota", shape=(n, m), dtype=_dtypes.int64, axis=0), False)
    cols = wrap(apply("iota", shape=(n, m), dtype=_dtypes.int64, axis=1), False)
    return rows, cols


def _tri_mask(n: int, m: int, k: int) -> Array:
    """True where column <= row + k (NumPy's `tri`)."""
    rows, cols = _index_grid(n, m)
    return greater_equal(add(rows, k), cols)


@export
def tri(N, M=None, k=0, dtype=float, *, like=None):
    N = operator.index(N)
    M = N if M is None else operator.index(M)
    return astype(_tri_mask(N, M, operator.index(k)), _creation_dtype(dtype))


@export
def eye(N, M=None, k=0, dtype=float, order="C", *, device=None, like=None):
    """Ones on the k-th diagonal, zeros elsewhere."""
    N = operator.index(N)
    M = N if M is None else operator.index(M)
    if N < 0 or M < 0:
        raise ValueError(f"eye: negative dimensions are not allowed: ({N}, {M})")
    rows, cols = _index_grid(N, M)
    return astype(subtract(cols, rows) == operator.index(k), _creation_dtype(dtype))


@export
def identity(n, dtype=None, *, like=None):
    return eye(n, dtype=_creation_dtype(dtype))


def _triangle(m, k: int, lower: bool, func: str) -> Array:
    x = as_array(m)
    if x.ndim == 0:
        # NumPy's type: its tril/triu call tri(*shape[-2:]), which a 0-d shape fails
        raise TypeError(f"{func}: input must be at least 1-d")
    n, cols = (x.shape[-1], x.shape[-1]) if x.ndim == 1 else x.shape[-2:]
    mask = _tri_mask(n, cols, k if lower else k - 1)
    zero = full((), 0, x.dtype)
    return where_(mask, x, zero) if lower else where_(mask, zero, x)


@export
def tril(m, k=0):
    """Zeros above the k-th diagonal of the last two axes."""
    return _triangle(m, operator.index(k), True, "tril")


@export
def triu(m, k=0):
    """Zeros below the k-th diagonal of the last two axes."""
    return _triangle(m, operator.index(k), False, "triu")


@export
def diag(v, k=0):
    """The k-th diagonal of a 2-d array, or a 2-d array with 1-d `v` on that diagonal."""
    x = as_array(v)
    k = operator.index(k)
    if x.ndim == 2:
        return diagonal(x, k)
    if x.ndim != 1:
        raise ValueError("diag: input must be 1- or 2-d.")
    n = x.shape[0] + abs(k)
    padded = concatenate([x, zeros(abs(k), x.dtype)]) if k else x
    values = padded.reshape((n, 1) if k >= 0 else (1, n))
    rows, cols = _index_grid(n, n)
    return where_(subtract(cols, rows) == k, values, full((), 0, x.dtype))


@export
def diagflat(v, k=0):
    return diag(as_array(v).reshape(-1), k)


@export
def meshgrid(*xi, copy=True, sparse=False, indexing="xy"):
    """Coordinate arrays from 1-d coordinate vectors ('xy' or 'ij' indexing)."""
    if indexing not in ("xy", "ij"):
        raise ValueError("Valid values for `indexing` are 'xy' and 'ij'.")
    xs = [as_array(x).reshape(-1) for x in xi]
    ndim = len(xs)
    shapes = []
    for i, x in enumerate(xs):
        shape = [1] * ndim
        shape[i] = x.shape[0]
        shapes.append(shape)
    if indexing == "xy" and ndim > 1:
        for shape in shapes:
            shape[0], shape[1] = shape[1], shape[0]
    grids = [x.reshape(tuple(s)) for x, s in zip(xs, shapes)]
    if sparse:
        return tuple(grids)
    full_shape = np.broadcast_shapes(*map(tuple, shapes))
    return tuple(wrap(apply("broadcast_to", g._node, shape=full_shape), False) for g in grids)


@export
def indices(dimensions, dtype=int, sparse=False):
    """The grid of indices of an array of shape `dimensions` (NumPy's indices)."""
    dimensions = tuple(dimensions)
    N = len(dimensions)
    grids = []
    for i, dim in enumerate(dimensions):
        shape = (1,) * i + (dim,) + (1,) * (N - i - 1)
        idx = reshape(arange(dim, dtype=dtype), shape)
        grids.append(idx if sparse else broadcast_to(idx, dimensions))
    if sparse:
        return tuple(grids)
    if not grids:
        return zeros((0,), dtype=dtype)
    return stack(grids)



@export
def fromfunction(function, shape, *, dtype=float, like=None, **kwargs):
    """`function` called on the index grids of `shape` (NumPy's fromfunction)."""
    return function(*indices(shape, dtype=dtype), **kwargs)



# ----- the ndarray type -----------------------------------------------------------

class _ArrayKind(type):
    """The metaclass of `ndarray`: instances are lazyarr's arrays and NumPy's (not the
    0-d results that stand for NumPy's scalars), and class attributes (`ndarray.sum`)
    are Array's."""

    def __instancecheck__(cls, obj) -> bool:  # a 0-d result stands for a NumPy scalar
        return isinstance(obj, np.ndarray) or isinstance(obj, Array) and not obj._scalar

    def __subclasscheck__(cls, sub) -> bool:
        return issubclass(sub, (Array, np.ndarray))

    def __getattr__(cls, name):
        return getattr(Array, name)


@export
class ndarray(metaclass=_ArrayKind):
    """`lazyarr.ndarray`, NumPy's `ndarray` under `python -m lazyarr`: an array is an
    instance whether it is lazyarr's or NumPy's own (say, a result from scipy), so
    `isinstance(x, np.ndarray)` answers as it does under NumPy. Arrays themselves are
    `Array`s. Calling it makes an array as NumPy's constructor does (zeros where NumPy
    leaves memory uninitialized)."""

    def __new__(cls, shape, dtype=float, buffer=None, offset=0, strides=None, order=None):
        value = (np.zeros(shape, dtype) if buffer is None
                 else np.ndarray(shape, dtype, buffer, offset, strides, order))
        return Array(as_array(value)._node, scalar=False)
