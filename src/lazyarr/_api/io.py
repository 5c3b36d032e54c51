"""Files and buffers: NumPy's readers and writers, given and giving lazyarr arrays.

Writing needs the values, as printing does: the lazyarr arrays given are computed (in
one flush) and NumPy's own writer writes them, so the files are NumPy's byte for byte.
Reading makes data on the host: numeric arrays come back as lazyarr arrays (inputs of
later programs, copied from what NumPy read, in native byte order: a '>f8' file gives
float64); anything else (strings, records, objects, masked arrays, memory maps, which
must keep writing through to their file) comes back as NumPy returns it.
"""

from __future__ import annotations

import collections.abc

import numpy as np

from .. import _dtypes, _flush
from . import export
from .common import Array, as_array


def _map_arrays(fn, obj):
    """`obj` with `fn` applied to each lazyarr array in it (lists, tuples and dicts
    followed, as NumPy's writers and numpy.testing follow them)."""
    if isinstance(obj, Array):
        return fn(obj)
    if type(obj) in (list, tuple):
        return type(obj)(_map_arrays(fn, item) for item in obj)
    if type(obj) is dict:
        return {key: _map_arrays(fn, value) for key, value in obj.items()}
    return obj


def host(obj):
    """`obj` with each lazyarr array in it replaced by its value, all computed in one
    flush: a NumPy array, or for a scalar handle the NumPy scalar it stands for."""
    arrays = []
    _map_arrays(arrays.append, obj)
    _flush.evaluate([a._node for a in arrays], "read")
    return _map_arrays(Array._printable, obj)


def lazy(value):
    """What NumPy read, as lazyarr gives it back (see the module docstring); the
    arrays in a tuple or list (`unpack=True`) each so."""
    if type(value) in (list, tuple):
        return type(value)(lazy(item) for item in value)
    if type(value) is not np.ndarray or not _dtypes.is_numeric(value.dtype):
        return value
    return as_array(value)  # a copy, in native byte order


# ----- writing ----------------------------------------------------------------------

@export
def save(file, arr, allow_pickle=True):
    """NumPy's `save` of the values: the same .npy file."""
    np.save(file, host(arr), allow_pickle=allow_pickle)


@export
def savez(file, *args, allow_pickle=True, **kwds):
    """NumPy's `savez` of the values: the same members in the .npz archive."""
    np.savez(file, *host(args), allow_pickle=allow_pickle, **host(kwds))


@export
def savez_compressed(file, *args, allow_pickle=True, **kwds):
    """NumPy's `savez_compressed` of the values."""
    np.savez_compressed(file, *host(args), allow_pickle=allow_pickle, **host(kwds))


@export
def savetxt(fname, X, fmt="%.18e", delimiter=" ", newline="\n", header="", footer="",
            comments="# ", encoding=None):
    """NumPy's `savetxt` of the values: the same text."""
    np.savetxt(fname, host(X), fmt=fmt, delimiter=delimiter, newline=newline,
               header=header, footer=footer, comments=comments, encoding=encoding)


# ----- reading ----------------------------------------------------------------------

class NpzFile(collections.abc.Mapping):
    """NumPy's `NpzFile` (what `load` returns for a .npz archive: a mapping read member
    by member, a context manager) whose arrays come out as lazyarr arrays."""

    def __init__(self, npz):
        self._npz = npz
        self.f = type(npz.f)(self)  # NumPy's BagObj: `f.name` is `self["name"]`

    def __getitem__(self, key):
        return lazy(self._npz[key])

    def __iter__(self):
        return iter(self._npz)

    def __len__(self) -> int:
        return len(self._npz)

    def __contains__(self, key) -> bool:
        return key in self._npz

    def __getattr__(self, name):  # NumPy's other attributes: files, zip, fid, ...
        if name == "_npz":
            raise AttributeError(name)
        return getattr(self._npz, name)

    def close(self) -> None:
        self._npz.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc_info) -> None:
        self.close()

    def __repr__(self) -> str:
        return repr(self._npz)


@export
def load(file, mmap_mode=None, allow_pickle=False, fix_imports=True, encoding="ASCII", *,
         max_header_size=10000):
    """NumPy's `load`: a .npy array as a lazyarr array, a .npz archive as an NpzFile
    giving lazyarr arrays; `mmap_mode` gives NumPy's memory map, pickles NumPy's objects."""
    result = np.load(file, mmap_mode=mmap_mode, allow_pickle=allow_pickle,
                     fix_imports=fix_imports, encoding=encoding,
                     max_header_size=max_header_size)
    return NpzFile(result) if isinstance(result, np.lib.npyio.NpzFile) else lazy(result)


@export
def loadtxt(fname, dtype=float, comments="#", delimiter=None, converters=None, skiprows=0,
            usecols=None, unpack=False, ndmin=0, encoding=None, max_rows=None, *,
            quotechar=None, like=None):
    """NumPy's `loadtxt`; a numeric result as a lazyarr array."""
    return lazy(np.loadtxt(fname, dtype=dtype, comments=comments, delimiter=delimiter,
                           converters=converters, skiprows=skiprows, usecols=usecols,
                           unpack=unpack, ndmin=ndmin, encoding=encoding,
                           max_rows=max_rows, quotechar=quotechar))


@export
def genfromtxt(fname, *args, like=None, **kwargs):
    """NumPy's `genfromtxt` (its many options passed on as given); a numeric result as
    a lazyarr array (with `usemask=True`, NumPy's masked array)."""
    return lazy(np.genfromtxt(fname, *args, **kwargs))


@export
def fromfile(file, dtype=float, count=-1, sep="", offset=0, *, like=None):
    """NumPy's `fromfile`, as a lazyarr array."""
    return lazy(np.fromfile(file, dtype=dtype, count=count, sep=sep, offset=offset))


@export
def frombuffer(buffer, dtype=float, count=-1, offset=0, *, like=None):
    """NumPy's `frombuffer`, as a lazyarr array: a copy (as lazyarr's `asarray` copies
    NumPy data), so later writes to `buffer` do not show in it."""
    return lazy(np.frombuffer(buffer, dtype=dtype, count=count, offset=offset))


@export
def fromstring(string, dtype=float, count=-1, *, sep="", like=None):
    """NumPy's `fromstring` (text mode; NumPy removed the binary one), as a lazyarr array."""
    return lazy(np.fromstring(string, dtype=dtype, count=count, sep=sep))


@export
def fromiter(iter, dtype, count=-1, *, like=None):  # noqa: A002  (NumPy's name)
    """NumPy's `fromiter`, as a lazyarr array."""
    return lazy(np.fromiter(iter, dtype=dtype, count=count))
