"""The `Array` handle: a node with its shape and dtype, NumPy's operators and methods,
and the materialization protocol.

An Array refers to a graph node. Building operations never computes anything; reading
a value (`np.asarray`, printing, `bool()`, `.item()`, ...) flushes the pending graph
behind it. In-place operators rebind the handle to a new node, so earlier readers keep
the values they read.
"""

from __future__ import annotations

import builtins
import operator

import numpy as np

from . import _backend, _dtypes, _flush
from ._graph import Node, apply, leaf


class Array:
    """A lazy n-dimensional array with NumPy's semantics."""

    __slots__ = ("_node", "_scalar", "__weakref__")
    __array_priority__ = 100.0
    __hash__ = None

    def __init__(self, node: Node, scalar: bool = True):
        self._node = node
        # A 0-d result of an operation prints as the NumPy scalar NumPy would return
        # (np.float64(3.0)); a 0-d array made by a creation function prints as array(3.).
        self._scalar = scalar and node.shape == ()
        if not node.is_computed:
            _flush.track(self)
            _flush.bound(node)

    # ----- metadata, always known without computing -------------------------------
    @property
    def shape(self) -> tuple[int, ...]:
        return self._node.shape

    @property
    def dtype(self) -> np.dtype:
        return self._node.dtype

    @property
    def ndim(self) -> int:
        return len(self._node.shape)

    @property
    def size(self) -> int:
        return int(np.prod(self._node.shape, dtype=np.int64))

    @property
    def itemsize(self) -> int:
        return self.dtype.itemsize

    @property
    def nbytes(self) -> int:
        return self.size * self.itemsize

    @property
    def T(self) -> "Array":
        return _manip.transpose(self)

    @property
    def mT(self) -> "Array":
        if self.ndim < 2:
            raise ValueError("matrix transpose with ndim < 2 is undefined")
        return _manip.swapaxes(self, -1, -2)

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
        return _ew.astype(self, dtype)

    def copy(self) -> "Array":
        return Array(self._node, scalar=False)

    def reshape(self, *shape, order: str = "C") -> "Array":
        if len(shape) == 1 and not isinstance(shape[0], int):
            shape = shape[0]
        return _manip.reshape(self, shape, order=order)

    def transpose(self, *axes) -> "Array":
        if len(axes) == 1 and (axes[0] is None or not isinstance(axes[0], int)):
            axes = axes[0]
        return _manip.transpose(self, axes or None)

    def ravel(self, order: str = "C") -> "Array":
        return _manip.ravel(self, order=order)

    def flatten(self, order: str = "C") -> "Array":
        return _manip.ravel(self, order=order)

    def squeeze(self, axis=None) -> "Array":
        return _manip.squeeze(self, axis)

    def swapaxes(self, axis1, axis2) -> "Array":
        return _manip.swapaxes(self, axis1, axis2)

    def repeat(self, repeats, axis=None) -> "Array":
        return _manip.repeat(self, repeats, axis)

    def diagonal(self, offset=0, axis1=0, axis2=1) -> "Array":
        return _linalg.diagonal(self, offset, axis1, axis2)

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

    # ----- operators --------------------------------------------------------------
    def __matmul__(self, other):
        return _linalg.matmul(self, other) if _is_operand(other) else NotImplemented

    def __rmatmul__(self, other):
        return _linalg.matmul(other, self) if _is_operand(other) else NotImplemented

    def __imatmul__(self, other):
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
        """In-place operators: NumPy's same_kind cast of the result back to our dtype."""
        if not np.can_cast(result.dtype, self.dtype, "same_kind"):
            raise TypeError(f"Cannot cast ufunc '{name}' output from {result.dtype!r} to "
                            f"{self.dtype!r} with casting rule 'same_kind'")
        if result.shape != self.shape:
            raise ValueError(f"non-broadcastable output operand with shape {self.shape} "
                             f"doesn't match the broadcast shape {result.shape}")
        self._node = _ew.astype(result, self.dtype)._node
        _flush.track(self)
        return self

    # ----- NumPy protocols --------------------------------------------------------
    def __array_ufunc__(self, ufunc, method, *inputs, **kwargs):
        return _dispatch.array_ufunc(ufunc, method, inputs, kwargs)

    def __array_function__(self, func, types, args, kwargs):
        return _dispatch.array_function(func, types, args, kwargs)

    def __array_namespace__(self, api_version=None):
        import lazyarr
        return lazyarr


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
            return self._rebind(getattr(_ew, ufunc)(self, other), ufunc)
        return op

    for name, ufunc in binary.items():
        setattr(Array, f"__{name}__", forward(ufunc))
        setattr(Array, f"__r{name}__", reflected(ufunc))
        setattr(Array, f"__i{name}__", inplace(ufunc))
    for name, ufunc in comparisons.items():
        setattr(Array, f"__{name}__", forward(ufunc))


_install_operators()


def as_array(obj, dtype=None) -> Array:
    """`obj` as an Array (`np.asarray` semantics); NumPy inputs are copied, so a later
    change to the user's array cannot change a lazy result."""
    if isinstance(obj, Array):
        return obj if dtype is None else _ew.astype(obj, dtype)
    if isinstance(obj, (list, tuple)) and _contains_array(obj):
        return _stack_nested(obj, dtype)
    try:
        value = np.array(obj, dtype=dtype, copy=True)
    except OverflowError:
        raise
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
from . import _dispatch  # noqa: E402
from ._api import elementwise as _ew  # noqa: E402
from ._api import indexing as _idx  # noqa: E402
from ._api import linalg as _linalg  # noqa: E402
from ._api import manipulation as _manip  # noqa: E402
from ._api import reductions as _red  # noqa: E402
