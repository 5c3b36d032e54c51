"""The rest of `numpy.ndarray`'s surface on lazyarr's `Array`, attached after the
chapters load: the methods that are functions of the namespace (`argsort`, `take`,
`searchsorted`, ...), in-place `partition` and `resize`, the byte-level ones
(`tobytes`, `tofile`, `view`, `byteswap`, `getfield`/`setfield`, `dump(s)`), `flat`,
and the Python protocols of NumPy's scalars on 0-d results (`round()`, `math.floor`,
`hash`, the `numbers` ABCs NumPy registers its scalar types with).

What reads bytes (tobytes, tofile, dumps, data, ctypes, byteswap) computes the array
and works on NumPy's copy of its value; `view(dtype)` is a lazy view reading the same
bytes (a `bitcast` step), written through to the owner as NumPy's is.
"""

from __future__ import annotations

import importlib
import math
import numbers
import pickle
import types

import numpy as np

from . import _flush, _shared
from ._array import SCALAR_KINDS, Array
from ._jax import jax_array
from ._shared import export
from ._api.common import as_array
from ._api import indexing, selection, sorting
from ._api.creation import zeros
from ._api.manipulation import concatenate
from ._api.common import as_shape
from ._graph import apply, leaf
from ._views import gathers


def _host(x: Array) -> np.ndarray:
    return x._value("read")


def _from_host(value: np.ndarray, scalar: bool = False):
    if value.dtype.kind not in "biufc":
        return value
    return Array(as_array(value)._node, scalar=scalar)


# ----- the namespace's functions as methods ----------------------------------------

def argsort(self, axis=-1, kind=None, order=None, *, stable=None):
    return sorting.argsort(self, axis, kind, order, stable=stable)


def take(self, indices, axis=None, out=None, mode="raise"):
    return indexing.take(self, indices, axis, out, mode)


def searchsorted(self, v, side="left", sorter=None):
    return sorting.searchsorted(self, v, side, sorter)


def argpartition(self, kth, axis=-1, kind="introselect", order=None):
    return sorting.argpartition(self, kth, axis, kind, order)


def compress(self, condition, axis=None, out=None):
    return indexing.compress(condition, self, axis, out)


def choose(self, choices, out=None, mode="raise"):
    return selection.choose(self, choices, out, mode)


def partition(self, kth, axis=-1, kind="introselect", order=None) -> None:
    """In place, as NumPy's (through to the owner for a view)."""
    result = sorting.partition(self, kth, axis, kind, order)
    self._check_writeable()
    self._write(result._node)


def resize(self, *new_shape, refcheck=True) -> None:
    """NumPy's in-place `ndarray.resize`: the data in C order, cut or padded with
    zeros; only an array owning its data (not a view) can be resized."""
    if len(new_shape) == 1 and not isinstance(new_shape[0], int):
        new_shape = new_shape[0]
    if self.base is not None:
        raise ValueError("cannot resize this array: it does not own its data")
    if _shared.buffer_if_exported(self) is not None:  # NumPy holds its memory
        if refcheck:
            stand_in = np.empty(0, self.dtype)
            held = stand_in.view()  # noqa: F841  (a reference: NumPy's own ValueError)
            stand_in.resize(1)
        _shared.forget(self)
    if isinstance(new_shape, (int, np.integer)):
        new_shape = (new_shape,)
    if any(int(n) < 0 for n in new_shape):
        raise ValueError("negative dimensions not allowed")
    shape = as_shape(new_shape, "resize")
    size = math.prod(shape)
    flat = self.reshape(-1)
    if size <= self.size:
        result = flat[:size]
    else:
        result = concatenate([flat, zeros(size - self.size, self.dtype)])
    self._n, self._layout = Array(result._node, scalar=False).reshape(shape)._node, None
    _flush.track(self)


# ----- bytes ---------------------------------------------------------------------

def tobytes(self, order="C") -> bytes:
    return _host(self).tobytes(order)


def tofile(self, fid, sep="", format="%s") -> None:
    _host(self).tofile(fid, sep, format)


def dumps(self) -> bytes:
    return pickle.dumps(self, protocol=2)


def dump(self, file) -> None:
    if isinstance(file, (str, bytes)) or hasattr(file, "__fspath__"):
        with open(file, "wb") as f:
            pickle.dump(self, f, protocol=2)
    else:
        pickle.dump(self, file, protocol=2)


_same_dtype_view = Array.view  # _api.methods': a view handle of the same data


def view(self, dtype=None, type=None):
    """`x.view()` is a view of the same data; `x.view(dtype)` a view reinterpreting
    its bytes (NumPy's errors for an incompatible itemsize or layout), written through
    to the owner as NumPy's is."""
    if type is None and (dtype is None or np.dtype(dtype) == self.dtype):
        # a NumPy scalar's view is itself
        return self if self._scalar else _same_dtype_view(self, dtype)
    if isinstance(dtype, types.GenericAlias) or (isinstance(dtype, type.__class__)
                                                 and issubclass(dtype, np.ndarray)):
        return _host(self).view(dtype)
    if type is None and not self._scalar:
        new = np.dtype(dtype)
        probe = self._layout_of().probe.view(new)  # NumPy's ValueError, before computing
        if new.kind in "biufc" and (new.itemsize == self.itemsize
                                    or not gathers(self._layout_of().steps)):
            return self._view_by(lambda x: apply("bitcast", x._node, dtype=new,
                                                 shape=probe.shape),
                                 lambda parent, shape: parent.view(new))
    value = _host(self).view(dtype) if type is None else _host(self).view(dtype, type)
    if self._scalar and isinstance(value, np.ndarray) and value.ndim == 0:
        return _from_host(value.copy(), scalar=True)  # a scalar of the new dtype
    return _from_host(value.copy() if isinstance(value, np.ndarray) else value)


def byteswap(self, inplace=False):
    swapped = _host(self).byteswap()
    if not inplace:
        return _from_host(swapped)
    self._check_writeable()
    self._write(leaf(swapped, swapped.shape, swapped.dtype))
    return self


def getfield(self, dtype, offset=0):
    return _from_host(_host(self).getfield(dtype, offset).copy())


def setfield(self, val, dtype, offset=0) -> None:
    value = np.array(_host(self))
    value.setfield(np.asarray(val), dtype, offset)
    self._check_writeable()
    self._write(leaf(value, value.shape, value.dtype))


def _data(self):
    return memoryview(_host(self))


def _ctypes(self):
    return _host(self).ctypes


# ----- flat ----------------------------------------------------------------------

class FlatIterator:
    """NumPy's `ndarray.flat`: the array in C order, read by index (a copy, or a
    scalar) and written through to the array, values repeated as NumPy repeats them."""

    def __init__(self, array: Array):
        self.base = array
        self.index = 0

    def __len__(self) -> int:
        return self.base.size

    def __iter__(self):
        return self

    def __next__(self):
        if self.index >= self.base.size:
            raise StopIteration
        self.index += 1
        return self.base.reshape(-1)[self.index - 1]

    @property
    def coords(self):
        return np.unravel_index(self.index, self.base.shape) if self.base.size else ()

    def __getitem__(self, key):
        return self.base.reshape(-1)[key]

    def __setitem__(self, key, value) -> None:
        positions = np.arange(self.base.size)[key]  # NumPy's IndexError for a bad key
        positions = np.atleast_1d(positions).ravel()
        values = as_array(value).astype(self.base.dtype).reshape(-1)
        if values.size == 0:
            return
        if values.size != positions.size:  # NumPy repeats the values cyclically
            values = values[np.arange(positions.size) % values.size]
        flat = self.base.reshape(-1).copy()
        flat[positions] = values
        self.base[...] = flat.reshape(self.base.shape)

    def __array__(self, dtype=None, copy=None):
        return np.asarray(self.base.reshape(-1), dtype=dtype)

    def copy(self):
        return self.base.flatten()


def _get_flat(self):
    return FlatIterator(self)


def _set_flat(self, value) -> None:
    FlatIterator(self)[...] = value


# ----- Python protocols ----------------------------------------------------------

def __round__(self, ndigits=None):
    """round() as NumPy's scalars do (a Python int without ndigits); NumPy's arrays
    define none (TypeError)."""
    if not self._scalar:
        raise TypeError("type numpy.ndarray doesn't define __round__ method")
    if ndigits is None:
        return round(self._printable())
    return self.round(ndigits)


def _scalar_protocol(name):
    def protocol(self):
        return getattr(math, name)(self._printable())
    protocol.__name__ = f"__{name}__"
    return protocol


def __hash__(self):
    """NumPy's scalars hash as their value; arrays are unhashable."""
    if not self._scalar:
        raise TypeError("unhashable type: 'numpy.ndarray'")
    return hash(self._printable())


def _numerator(self):
    """NumPy's integer scalars are `numbers.Integral`: their numerator is themselves."""
    if not (self._scalar and self.dtype.kind in "iu"):
        raise AttributeError("'numpy.ndarray' object has no attribute 'numerator'")
    return self


def _denominator(self):
    if not (self._scalar and self.dtype.kind in "iu"):
        raise AttributeError("'numpy.ndarray' object has no attribute 'denominator'")
    return 1


# The kinds of 0-d results, registered as NumPy registers its scalar types: floating
# as numbers.Real, integer (signed and unsigned) as numbers.Integral, complex as
# numbers.Complex; bool with none. Only `Array.__class__` of a 0-d result that stands
# for a NumPy scalar names them, so arrays (0-d ones made by `asarray` included) are
# no numbers, as NumPy's ndarrays are not.
class FloatingResult(Array):
    """A 0-d result standing for a NumPy floating scalar (`isinstance` only)."""
    __slots__ = ()


class IntegerResult(Array):
    """A 0-d result standing for a NumPy integer scalar (`isinstance` only)."""
    __slots__ = ()


class ComplexResult(Array):
    """A 0-d result standing for a NumPy complex scalar (`isinstance` only)."""
    __slots__ = ()


def _result_body(namespace: dict) -> None:
    namespace.update(__slots__=(), __module__="lazyarr",
                     __doc__="A 0-d result standing for this NumPy scalar type "
                             "(`isinstance` only: the object's type is Array).")


numbers.Real.register(FloatingResult)
numbers.Integral.register(IntegerResult)
numbers.Complex.register(ComplexResult)


def __buffer__(self, flags):
    """The buffer protocol (Python 3.12+): the host buffer shared with NumPy."""
    return memoryview(export(self) if not self._scalar else _host(self))


def __jax_array__(self):
    """jax's conversion hook (`jnp.asarray(x)`, `x + jax_array`): see `_jax`."""
    return jax_array(self)


def __delitem__(self, key):
    raise ValueError("cannot delete array elements")


def __array_namespace__(self, api_version=None):
    """The Array API standard's namespace, `lazyarr.array_api`, imported at the first
    call (its wrapped copy of the namespace is 2 ms of `import lazyarr`); its import
    puts its own `__array_namespace__` in this one's place."""
    return importlib.import_module("lazyarr.array_api._standard").namespace(api_version)


def install() -> None:
    for f in (argsort, take, searchsorted, argpartition, compress, choose, partition,
              resize, tobytes, tofile, dumps, dump, view, byteswap, getfield, setfield,
              __round__, __hash__, __delitem__, __buffer__, __jax_array__,
              __array_namespace__):
        setattr(Array, f.__name__, f)
    for name in ("trunc", "floor", "ceil"):
        setattr(Array, f"__{name}__", _scalar_protocol(name))
    Array.flat = property(_get_flat, _set_flat)
    Array.numerator = property(_numerator)
    Array.denominator = property(_denominator)
    kinds = {"b": Array, "i": IntegerResult, "u": IntegerResult, "f": FloatingResult,
             "c": ComplexResult}
    for name in ("bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32",
                 "uint64", "float16", "float32", "float64", "complex64", "complex128"):
        dtype = np.dtype(name)  # named as NumPy's scalar type (in messages: "int64")
        SCALAR_KINDS[dtype] = types.new_class(name, (kinds[dtype.kind],),
                                              exec_body=_result_body)
    Array.data = property(_data)
    Array.ctypes = property(_ctypes)
    Array.__class_getitem__ = classmethod(types.GenericAlias)


install()
