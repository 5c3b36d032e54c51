"""The `Array` handle: a node with its shape and dtype, NumPy's operators and methods,
the materialization protocol, and NumPy's mutation and view semantics.

An Array refers to a graph node. Building operations never computes anything; reading
a value (`np.asarray`, printing, `bool()`, `.item()`, ...) flushes the pending graph
behind it. Nodes never change: a write (`x[i] = v`, `x += y`, `out=x`) rebinds the
handle to a new node built from the old one, so earlier readers keep the values they
read.

Views. Where NumPy returns a view (basic indexing, `reshape`, `transpose`, `ravel`,
`squeeze`, `diagonal`, ...), the result is a view handle: it records its owner (the
array owning the data, NumPy's `.base`) and the steps (slice, reshape, transpose
primitives) that derive its node from the owner's. Its node is re-derived when the
owner's has changed since, so it always shows the owner's current values. A write into
a view pushes the new values back through the inverse of each step (an `update_slice`
into the parent for a slice, the inverse reshape or transpose) and rebinds the owner.
Each handle also has a NumPy stand-in with the strides NumPy's array would have (over
a fake one-element buffer, never read), which answers `flags`, `shares_memory` and
whether NumPy's `reshape`/`ravel` would copy.
"""

from __future__ import annotations

import builtins
import functools
import operator

import numpy as np

from . import _backend, _dtypes, _flush
from ._graph import Node, apply, leaf


class Array:
    """A lazy n-dimensional array with NumPy's semantics."""

    __slots__ = ("_n", "_scalar", "_layout", "__weakref__")
    __array_priority__ = 100.0
    __hash__ = None

    def __init__(self, node: Node, scalar: bool = True):
        self._n = node
        self._layout = None  # a _Layout once it is a view, or has flags asked or set
        # A 0-d result of an operation prints as the NumPy scalar NumPy would return
        # (np.float64(3.0)); a 0-d array made by a creation function prints as array(3.).
        self._scalar = scalar and node.shape == ()
        if not node.is_computed:
            _flush.track(self)
            _flush.bound(node)

    @property
    def _node(self) -> Node:
        """The node holding this array's current value (a view's, derived anew from its
        owner's node when that has changed)."""
        layout = self._layout
        if layout is not None and layout.base is not None:
            owner_node = layout.base._n
            if owner_node is not layout.seen:
                self._n, layout.seen = replay(owner_node, layout.steps), owner_node
                _flush.track(self)
        return self._n

    # ----- metadata, always known without computing -------------------------------
    # (A write never changes them, so they are read without re-deriving a view.)
    @property
    def shape(self) -> tuple[int, ...]:
        return self._n.shape

    @property
    def dtype(self) -> np.dtype:
        return self._n.dtype

    @property
    def ndim(self) -> int:
        return len(self._n.shape)

    @property
    def size(self) -> int:
        return int(np.prod(self._n.shape, dtype=np.int64))

    @property
    def itemsize(self) -> int:
        return self.dtype.itemsize

    @property
    def nbytes(self) -> int:
        return self.size * self.itemsize

    @property
    def T(self) -> "Array":
        return self.transpose()

    @property
    def mT(self) -> "Array":
        if self.ndim < 2:
            raise ValueError("matrix transpose with ndim < 2 is undefined")
        return self.swapaxes(-1, -2)

    @property
    def real(self) -> "Array":
        return _ew.real(self)

    @property
    def imag(self) -> "Array":
        return _ew.imag(self)

    @property
    def device(self) -> str:
        """Where the array lives, or will be computed: "cpu" (as NumPy says), "gpu:0", ..."""
        return _backend.device_of(self._node)

    def to_device(self, device, /, *, stream=None) -> "Array":
        """This array's values placed on `device` of the current backend (Array API).
        Programs run on the selected backend's device, which fetches inputs from
        elsewhere: select a device with `set_backend`/`use_backend` to compute there."""
        if stream is not None:
            raise ValueError("lazyarr does not support streams: stream must be None")
        if device == self.device:
            return self
        value = _backend.current().transfer(self._value_buffer(), device)
        return Array(leaf(value, self.shape, self.dtype), self._scalar)

    def __len__(self) -> int:
        if not self.shape:
            raise TypeError("len() of unsized object")
        return self.shape[0]

    def __contains__(self, value) -> bool:
        """NumPy's `value in x`: `(x == value).any()`, one flush (not one per element)."""
        return bool((self == value).any())

    def __iter__(self):
        if not self.shape:
            raise TypeError("iteration over a 0-d array")
        return (self[i] for i in range(self.shape[0]))

    # ----- materialization --------------------------------------------------------
    def _value_buffer(self):
        """The computed buffer in the backend's own type (e.g. a jax.Array)."""
        _flush.evaluate([self._node], "read")
        return self._node.value

    def _value(self, cause: str) -> np.ndarray:
        """The computed value as a NumPy array (read-only: it is lazyarr's buffer)."""
        value = _flush.to_numpy(self._node, cause)
        if value.flags.writeable:
            value = value.view()
            value.flags.writeable = False
        return value

    def __array__(self, dtype=None, copy=None):
        value = self._value("read")
        if copy is False and dtype is not None and np.dtype(dtype) != value.dtype:
            raise ValueError("Unable to avoid copy while creating an array as requested.")
        if dtype is not None:
            value = value.astype(dtype, copy=bool(copy))
        return value.copy() if copy else value

    # Conversions delegate to NumPy's on the computed array, for NumPy's exact errors;
    # errors that the shape or dtype decide are raised before computing anything.
    def __bool__(self) -> bool:
        if self.size != 1:
            return bool(np.empty(self.shape, bool))  # NumPy's own ValueError
        return bool(self._value("control"))

    def __int__(self) -> int:
        if self.size != 1 or _dtypes.is_complex(self.dtype):
            return int(np.empty(self.shape, self.dtype))
        return int(self._value("control"))

    def __float__(self) -> float:
        if self.size != 1 or _dtypes.is_complex(self.dtype):
            return float(np.empty(self.shape, self.dtype))
        return float(self._value("control"))

    def __complex__(self) -> complex:
        if self.size != 1:
            return complex(np.empty(self.shape, self.dtype))
        return complex(self._value("control"))

    def __index__(self) -> int:
        if self.ndim != 0 or not _dtypes.is_integer(self.dtype):
            raise TypeError("only integer scalar arrays can be converted to a scalar index")
        return operator.index(self._value("control")[()])

    def item(self, *args):
        return self._value("control").item(*args)

    def tolist(self):
        return self._value("read").tolist()

    def _printable(self):
        value = self._value("read")
        return value[()] if self._scalar else value

    def __repr__(self) -> str:
        return repr(self._printable())

    def __str__(self) -> str:
        return str(self._printable())

    def __format__(self, spec: str) -> str:
        return format(self._printable(), spec)

    # ----- conversion and shape methods -------------------------------------------
    def astype(self, dtype, copy: bool = True) -> "Array":
        result = _ew.astype(self, dtype)
        return Array(result._node, self._scalar) if copy and result is self else result

    def copy(self) -> "Array":
        return Array(self._node, scalar=False)

    def __copy__(self) -> "Array":
        return self.copy()

    def __deepcopy__(self, memo) -> "Array":
        return self.copy()

    def __reduce__(self):
        """Pickle the computed value, as NumPy pickles an array (a view as a copy);
        unpickling gives an array of the same class holding it."""
        return _unpickled, (type(self), np.array(self._value("pickle")), self._scalar)

    # Views, where NumPy returns one (see the module docstring).
    def reshape(self, *shape, order: str = "C") -> "Array":
        if len(shape) == 1 and not isinstance(shape[0], int):
            shape = shape[0]
        if order == "A":  # Fortran order for a Fortran-contiguous (not C) array
            order = "F" if _is_fortran(self._layout_of().probe) else "C"
        fn = lambda x: _manip._reshaped(x, shape, order=order)  # noqa: E731
        probe_fn = lambda p, s: np.reshape(p, s, order=order, copy=False)  # noqa: E731
        # Where NumPy cannot reshape in place, it reshapes a copy made in that order.
        return self._view_by(fn, probe_fn, may_copy=True, on_copy=lambda: self._copy_in(
            order)._view_by(fn, probe_fn, may_copy=True))

    def transpose(self, *axes) -> "Array":
        if len(axes) == 1 and (axes[0] is None or not isinstance(axes[0], int)):
            axes = axes[0]
        axes = axes or None
        return self._view_by(lambda x: _manip._transposed(x, axes),
                             lambda p, shape: np.transpose(p, axes))

    def ravel(self, order: str = "C") -> "Array":
        """NumPy's ravel: a view when the array is contiguous in the order asked
        ("K": in memory order, axes by decreasing stride), else a copy."""
        probe = self._layout_of().probe
        if order in ("A", "K") and _is_fortran(probe):
            order = "F"
        elif order == "A" or (order == "K" and probe.flags.c_contiguous):
            order = "C"
        if order != "K":
            contiguous = probe.flags.c_contiguous if order == "C" else (
                order == "F" and probe.flags.f_contiguous)
            return self._view_by(lambda x: _manip._raveled(x, order=order),
                                 lambda p, shape: _contiguous_ravel(p, order, contiguous),
                                 may_copy=True)
        perm = sorted(range(self.ndim), key=lambda i: -abs(probe.strides[i]))
        return self._view_by(lambda x: _manip._raveled(_manip._transposed(x, perm)),
                             lambda p, shape: _memory_order_ravel(p, perm), may_copy=True)

    def flatten(self, order: str = "C") -> "Array":
        return Array(self.ravel(order)._node, scalar=False)

    def squeeze(self, axis=None) -> "Array":
        return self._view_by(lambda x: _manip._squeezed(x, axis),
                             lambda p, shape: np.reshape(p, shape, copy=False))

    def swapaxes(self, axis1, axis2) -> "Array":
        return self._view_by(lambda x: _manip._swapped(x, axis1, axis2),
                             lambda p, shape: np.swapaxes(p, axis1, axis2))

    def diagonal(self, offset=0, axis1=0, axis2=1) -> "Array":
        """A read-only view, as NumPy's (its WRITEABLE flag may be set)."""
        return self._view_by(lambda x: _linalg.diagonal(x, offset, axis1, axis2),
                             lambda p, shape: np.diagonal(p, offset, axis1, axis2),
                             writeable=False)

    def repeat(self, repeats, axis=None) -> "Array":
        return _manip.repeat(self, repeats, axis)

    def trace(self, offset=0, axis1=0, axis2=1, dtype=None) -> "Array":
        return _linalg.trace(self, offset, axis1, axis2, dtype)

    def dot(self, other) -> "Array":
        return _linalg.dot(self, other)

    def conj(self) -> "Array":
        return _ew.conjugate(self)

    conjugate = conj

    def round(self, decimals: int = 0) -> "Array":
        return _ew.round(self, decimals)

    def clip(self, min=None, max=None) -> "Array":
        return _ew.clip(self, min, max)

    def nonzero(self):
        return _idx.nonzero(self)

    # ----- in-place methods -------------------------------------------------------
    def fill(self, value) -> None:
        _mutation.fill(self, value)

    def put(self, indices, values, mode="raise") -> None:
        _mutation.put(self, indices, values, mode)

    def sort(self, axis=-1, kind=None, order=None, *, stable=None) -> None:
        """Sort in place (through to the owner for a view)."""
        from ._api.sorting import sort
        result = sort(self, axis, kind, order, stable=stable)
        self._check_writeable()
        self._write(result._node)

    @property
    def at(self):
        """jax's functional updates: `x.at[idx].set(v)` (also add, subtract, multiply,
        divide, power, min, max, get) returns a new array; `x` is unchanged."""
        return _mutation.AtIndexer(self)

    # ----- reductions -------------------------------------------------------------
    def sum(self, axis=None, dtype=None, keepdims=False, initial=None, where=True):
        return _red.sum(self, axis, dtype, keepdims=keepdims, initial=initial, where=where)

    def prod(self, axis=None, dtype=None, keepdims=False, initial=None, where=True):
        return _red.prod(self, axis, dtype, keepdims=keepdims, initial=initial, where=where)

    def mean(self, axis=None, dtype=None, keepdims=False, where=True):
        return _red.mean(self, axis, dtype, keepdims=keepdims, where=where)

    def var(self, axis=None, dtype=None, ddof=0, keepdims=False, where=True):
        return _red.var(self, axis, dtype, ddof=ddof, keepdims=keepdims, where=where)

    def std(self, axis=None, dtype=None, ddof=0, keepdims=False, where=True):
        return _red.std(self, axis, dtype, ddof=ddof, keepdims=keepdims, where=where)

    def max(self, axis=None, keepdims=False, initial=None, where=True):
        return _red.max(self, axis, keepdims=keepdims, initial=initial, where=where)

    def min(self, axis=None, keepdims=False, initial=None, where=True):
        return _red.min(self, axis, keepdims=keepdims, initial=initial, where=where)

    def argmax(self, axis=None, keepdims=False):
        return _red.argmax(self, axis, keepdims=keepdims)

    def argmin(self, axis=None, keepdims=False):
        return _red.argmin(self, axis, keepdims=keepdims)

    def any(self, axis=None, keepdims=False, where=True):
        return _red.any(self, axis, keepdims=keepdims, where=where)

    def all(self, axis=None, keepdims=False, where=True):
        return _red.all(self, axis, keepdims=keepdims, where=where)

    def cumsum(self, axis=None, dtype=None):
        return _red.cumsum(self, axis, dtype)

    def cumprod(self, axis=None, dtype=None):
        return _red.cumprod(self, axis, dtype)

    # ----- indexing ---------------------------------------------------------------
    def __getitem__(self, key) -> "Array":
        return _idx.getitem(self, key)

    def __setitem__(self, key, value) -> None:
        _idx.setitem(self, key, value)

    # ----- views and writes -------------------------------------------------------
    @property
    def base(self) -> "Array | None":
        """The array owning the data this view shows (None for an owner), as NumPy's."""
        return self._layout.base if self._layout is not None else None

    @property
    def flags(self) -> "Flags":
        return Flags(self)

    def setflags(self, write=None, align=None, uic=None) -> None:
        """NumPy's `setflags`: only WRITEABLE can change (lazyarr arrays are aligned)."""
        if write is not None:
            self.flags.writeable = write

    def _layout_of(self) -> "_Layout":
        if self._layout is None:
            # A NumPy scalar is read-only; an owner, C-contiguous.
            self._layout = _Layout(None, (), None, _owner_probe(self.shape, self.dtype),
                                   not self._scalar)
        return self._layout

    def _owner(self) -> "Array":
        layout = self._layout
        return layout.base if layout is not None and layout.base is not None else self

    def _view_by(self, fn, probe_fn, writeable: bool = True, on_copy=None,
                 may_copy: bool = False) -> "Array":
        """`fn(self)` (a chain of slice, reshape and transpose steps) as a view of this
        array's owner; where NumPy would copy (`may_copy`, and `probe_fn` raises
        ValueError), a new array, or `on_copy()`."""
        result = fn(self)
        if result is self:
            result = Array(self._node, self._scalar)
        steps = steps_between(result._n, self._n)
        if steps is None:  # evaluated at once (the pending-depth bound): ask a stand-in
            stand_in = Array(leaf(None, self.shape, self.dtype), self._scalar)
            steps = steps_between(fn(stand_in)._n, stand_in._n)
        return self._make_view(result, steps, probe_fn, writeable, on_copy, may_copy)

    def _make_view(self, result: "Array", steps, probe_fn, writeable: bool = True,
                   on_copy=None, may_copy: bool = False) -> "Array":
        """Attach `result` (this array's node through `steps`) to this array's owner as
        a view whose NumPy stand-in is `probe_fn(stand-in, shape)`. Where NumPy might
        copy instead (`may_copy`), the stand-in is made now: `probe_fn` raises
        ValueError for a copy. Otherwise it is made when first asked for."""
        parent = self._layout_of()
        if steps is None:
            return result
        probe, recipe = None, (parent.probe, probe_fn, result.shape)
        if may_copy:
            try:
                probe, recipe = probe_fn(parent.probe, result.shape), None
            except ValueError:  # NumPy would copy
                return on_copy() if on_copy is not None else result
        owner = self._owner()
        result._layout = _Layout(owner, compose(parent.steps, steps), owner._n, probe,
                                 writeable and parent.writeable, recipe)
        return result

    def _copy_in(self, order: str) -> "Array":
        """A copy of this array, laid out in C or Fortran `order`."""
        copy = Array(self._node, scalar=False)
        copy._layout = _Layout(None, (), None, _owner_probe(self.shape, self.dtype, order),
                               True)
        return copy

    def _check_writeable(self, message: str = "assignment destination is read-only"):
        if self._layout is not None and not self._layout.writeable:
            raise ValueError(message)

    def _write(self, node: Node) -> None:
        """Make `node` (this array's shape and dtype) this array's value; a view passes
        it on to its owner, and every other view of the owner sees it."""
        layout = self._layout
        if layout is not None and layout.base is not None:
            owner = layout.base
            owner._n = push_back(owner._n, layout.steps, node)
            layout.seen = owner._n
            _flush.track(owner)
        self._n = node
        _flush.track(self)
        _flush.bound(self._owner()._n)

    def _write_at(self, steps, node: Node) -> None:
        """Write `node` into the part of this array that `steps` select."""
        self._write(push_back(self._node, steps, node))

    # ----- operators --------------------------------------------------------------
    def __matmul__(self, other):
        return _linalg.matmul(self, other) if _is_operand(other) else NotImplemented

    def __rmatmul__(self, other):
        return _linalg.matmul(other, self) if _is_operand(other) else NotImplemented

    def __imatmul__(self, other):
        if self._scalar:
            return _linalg.matmul(self, other)
        return self._rebind(_linalg.matmul(self, other), "matmul")

    def __divmod__(self, other):
        return _ew.divmod(self, other) if _is_operand(other) else NotImplemented

    def __rdivmod__(self, other):
        return _ew.divmod(other, self) if _is_operand(other) else NotImplemented

    def __neg__(self):
        return _ew.negative(self)

    def __pos__(self):
        return _ew.positive(self)

    def __abs__(self):
        return _ew.absolute(self)

    def __invert__(self):
        return _ew.invert(self)

    def _rebind(self, result: "Array", name: str) -> "Array":
        """In-place operators and `out=`: NumPy's same_kind cast of the result back to
        our dtype, written into this array (through to the owner for a view)."""
        if not np.can_cast(result.dtype, self.dtype, "same_kind"):
            _raise_numpys_output_casting_error(name, result.dtype, self.dtype)
        if result.shape != self.shape:
            raise ValueError(f"non-broadcastable output operand with shape {self.shape} "
                             f"doesn't match the broadcast shape {result.shape}")
        self._check_writeable("output array is read-only")
        self._write(_ew.astype(result, self.dtype)._node)
        return self

    # ----- NumPy protocols --------------------------------------------------------
    def __array_ufunc__(self, ufunc, method, *inputs, **kwargs):
        return _dispatch.array_ufunc(ufunc, method, inputs, kwargs)

    def __array_function__(self, func, types, args, kwargs):
        return _dispatch.array_function(func, types, args, kwargs)

    # ----- DLPack ------------------------------------------------------------------
    def __dlpack__(self, *, stream=None, max_version=None, dl_device=None, copy=None):
        """The computed value, exported through DLPack by the buffer that holds it: the
        backend's (a jax.Array), or a private NumPy copy when the value is NumPy data."""
        kwargs = dict(stream=stream, max_version=max_version, dl_device=dl_device, copy=copy)
        exported = self._exported()
        try:
            return exported.__dlpack__(**kwargs)
        except BufferError:
            if isinstance(exported, np.ndarray):
                raise
            # e.g. jax exports no DLPack version below 0.5: NumPy's host copy does
            return np.array(exported).__dlpack__(**kwargs)

    def __dlpack_device__(self):
        return self._exported().__dlpack_device__()

    def _exported(self):
        buffer = self._value_buffer()
        if isinstance(buffer, np.ndarray) or not hasattr(buffer, "__dlpack__"):
            return np.array(buffer)  # lazyarr's NumPy buffers must not be written by others
        return buffer

    def __array_namespace__(self, api_version=None):
        """The Array API standard's namespace, `lazyarr.array_api`: lazyarr's own
        except where NumPy and the standard conflict."""
        from .array_api._standard import namespace
        return namespace(api_version)


def _unpickled(cls, value: np.ndarray, scalar: bool) -> Array:
    return cls(leaf(value, value.shape, value.dtype), scalar)


def _raise_numpys_output_casting_error(name: str, result: np.dtype, out: np.dtype):
    """NumPy's own UFuncTypeError for casting ufunc `name`'s output to `out`, raised by
    NumPy on empty arrays (its class is not public)."""
    ufunc = getattr(np, name)
    try:
        ufunc(*[np.empty(0, result)] * ufunc.nin, out=np.empty(0, out))
    except TypeError as error:
        raise error.with_traceback(None) from None
    raise TypeError(f"Cannot cast ufunc '{name}' output from {result!r} to {out!r} with "
                    "casting rule 'same_kind'")


def _is_operand(value) -> bool:
    """Whether a binary operator should handle `value` (else it returns NotImplemented)."""
    return isinstance(value, (Array, np.ndarray, np.generic, builtins.bool, builtins.int,
                              builtins.float, builtins.complex, list, tuple))


def _install_operators():
    """Arithmetic, bitwise and comparison operators, reflected and in place, from one
    table of (operator name, ufunc name)."""
    binary = {"add": "add", "sub": "subtract", "mul": "multiply", "truediv": "divide",
              "floordiv": "floor_divide", "mod": "remainder", "pow": "power",
              "and": "bitwise_and", "or": "bitwise_or", "xor": "bitwise_xor",
              "lshift": "left_shift", "rshift": "right_shift"}
    comparisons = {"eq": "equal", "ne": "not_equal", "lt": "less", "le": "less_equal",
                   "gt": "greater", "ge": "greater_equal"}

    def forward(ufunc):
        def op(self, other):
            return getattr(_ew, ufunc)(self, other) if _is_operand(other) else NotImplemented
        return op

    def reflected(ufunc):
        def op(self, other):
            return getattr(_ew, ufunc)(other, self) if _is_operand(other) else NotImplemented
        return op

    def inplace(ufunc):
        def op(self, other):
            result = getattr(_ew, ufunc)(self, other)
            # A NumPy scalar is immutable: `s += 1` binds `s` to a new scalar.
            return result if self._scalar else self._rebind(result, ufunc)
        return op

    for name, ufunc in binary.items():
        setattr(Array, f"__{name}__", forward(ufunc))
        setattr(Array, f"__r{name}__", reflected(ufunc))
        setattr(Array, f"__i{name}__", inplace(ufunc))
    for name, ufunc in comparisons.items():
        setattr(Array, f"__{name}__", forward(ufunc))


_install_operators()


# ---------------------------------------------------------------------------------
# Views: layouts, NumPy stand-ins, and the steps between an owner's node and a view's.

class _Layout:
    """Where a handle's data sits, as NumPy would have it: the owner it views (None for
    an owner), the steps from the owner's node to its own, the owner's node it was
    derived from, its NumPy stand-in, and its WRITEABLE flag. The stand-in may be made
    only when asked for, from a `recipe` (the parent's stand-in, a function, a shape)."""
    __slots__ = ("base", "steps", "seen", "_probe", "_recipe", "writeable")

    def __init__(self, base, steps, seen, probe, writeable, recipe=None):
        self.base, self.steps, self.seen = base, steps, seen
        self._probe, self._recipe, self.writeable = probe, recipe, writeable

    @property
    def probe(self) -> np.ndarray:
        if self._probe is None:
            parent_probe, probe_fn, shape = self._recipe
            self._probe, self._recipe = probe_fn(parent_probe, shape), None
        return self._probe


@functools.lru_cache(maxsize=256)
def _owner_probe(shape: tuple, dtype: np.dtype, order: str = "C") -> np.ndarray:
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


def _is_fortran(probe: np.ndarray) -> bool:
    """NumPy's PyArray_ISFORTRAN: Fortran-contiguous and not C-contiguous."""
    return probe.flags.f_contiguous and not probe.flags.c_contiguous


def _contiguous_ravel(probe, order: str, contiguous: bool):
    if not contiguous:
        raise ValueError("ravel copies")
    return np.reshape(probe, -1, order=order, copy=False)


def _memory_order_ravel(probe, perm):
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

    def __init__(self, array: Array):
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
        if value and layout.base is not None and not layout.base._layout_of().writeable:
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


_VIEW_OPS = ("slice", "reshape", "transpose")


def step(op_name: str, **attrs) -> tuple:
    """One view step, as a node records it: (primitive name, sorted attributes)."""
    return (op_name, tuple(sorted(attrs.items())))


def replay(node: Node, steps) -> Node:
    for op_name, attrs in steps:
        node = apply(op_name, node, **dict(attrs))
    return node


def steps_between(node: Node, origin: Node):
    """The view steps that lead from `origin` to `node`, or None if there are none."""
    steps = []
    while node is not origin:
        if node.op.name not in _VIEW_OPS:
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
    parents = [origin]
    for op_name, attrs in steps[:-1]:
        parents.append(apply(op_name, parents[-1], **dict(attrs)))
    for (op_name, attrs), parent in zip(reversed(steps), reversed(parents)):
        attrs = dict(attrs)
        if op_name == "reshape":
            values = apply("reshape", values, shape=parent.shape)
        elif op_name == "transpose":
            inverse = tuple(np.argsort(attrs["axes"]).tolist())
            values = apply("transpose", values, axes=inverse)
        elif values.shape != parent.shape or any(c != 1 for c in attrs["steps"]):
            starts = np.asarray(attrs["starts"], np.int64)
            values = apply("update_slice", parent, values, leaf(starts, starts.shape,
                                                                starts.dtype),
                           steps=attrs["steps"])
    return values


def as_array(obj, dtype=None) -> Array:
    """`obj` as an Array (`np.asarray` semantics); NumPy inputs are copied, so a later
    change to the user's array cannot change a lazy result."""
    if isinstance(obj, Array):
        return obj if dtype is None else _ew.astype(obj, dtype)
    if isinstance(obj, (list, tuple)) and _contains_array(obj):
        return _stack_nested(obj, dtype)
    value = np.array(obj, dtype=dtype, copy=True)
    if not value.dtype.isnative:  # lazyarr's dtypes are native: same values, host order
        value = value.astype(value.dtype.newbyteorder("="))
    if not _dtypes.is_numeric(value.dtype):
        raise TypeError(f"lazyarr supports bool and numeric dtypes, not {value.dtype} "
                        f"(from {type(obj).__name__})")
    return Array(leaf(value, value.shape, value.dtype), scalar=isinstance(obj, np.generic))


def _contains_array(seq) -> bool:
    stack = [seq]
    while stack:
        item = stack.pop()
        if isinstance(item, Array):
            return True
        if isinstance(item, (list, tuple)):
            stack.extend(item)
    return False


def _stack_nested(seq, dtype) -> Array:
    """A nested sequence holding lazy arrays, stacked lazily (as `np.array` would)."""
    parts = [as_array(item) for item in seq]
    shapes = {p.shape for p in parts}
    if len(shapes) != 1:
        raise ValueError("setting an array element with a sequence. The requested array "
                         "has an inhomogeneous shape after 1 dimensions.")
    dt = _dtypes.as_dtype(dtype) if dtype is not None else _dtypes.result_type(*parts)
    shape = parts[0].shape
    nodes = [apply("reshape", _ew.astype(p, dt)._node, shape=(1,) + shape) for p in parts]
    return Array(apply("concatenate", *nodes, axis=0), scalar=False)


# Chapter modules use Array; they are bound here, after it exists.
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


from . import _dispatch  # noqa: E402
from ._api import elementwise as _ew  # noqa: E402
from ._api import indexing as _idx  # noqa: E402
from ._api import linalg as _linalg  # noqa: E402
from ._api import manipulation as _manip  # noqa: E402
from ._api import mutation as _mutation  # noqa: E402
from ._api import reductions as _red  # noqa: E402
