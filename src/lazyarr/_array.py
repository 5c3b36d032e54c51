"""The `Array` handle: a node with its shape and dtype, the materialization protocol,
and the write protocol behind NumPy's mutation and view semantics.

An Array refers to a graph node. Building operations never computes anything; reading
a value (`np.asarray`, printing, `bool()`, `.item()`, ...) flushes the pending graph
behind it. Nodes never change: a write (`x[i] = v`, `x += y`, `out=x`) rebinds the
handle to a new node built from the old one, so earlier readers keep the values they
read.

Views. Where NumPy returns a view (basic indexing, `reshape`, `transpose`, `ravel`,
`squeeze`, `diagonal`, ...), the result is a view handle: its `Layout` (see `_views`)
records its owner (the array owning the data, NumPy's `.base`) and the steps that
derive its node from the owner's. Its node is re-derived when the owner's has changed
since, so it always shows the owner's current values; a write into a view is pushed
back into the owner.

This module imports no chapter: NumPy's methods and operators are attached to `Array`
from one table (`_api/methods.py`) once the chapters are loaded.
"""

from __future__ import annotations

import operator
import warnings
import weakref

import numpy as np

from . import _backend, _cuts, _dtypes, _eager, _flush, _interop, _shared
from ._errors import user_stacklevel
from ._graph import INPUT, Node, SmallLeaf, leaf
from ._views import (Flags, Layout, compose, gathers, owner_probe, push_back, replay,
                     steps_between)


# dtype -> the class a 0-d result of that dtype reports as its `__class__`
SCALAR_KINDS: dict = {}
_OBJECT_CLASS = object.__dict__["__class__"]


_SCALARS = frozenset([bool, int, float, complex, np.float64, np.float32, np.int64, np.int32,
                      np.bool_, np.complex128])


class Array:
    """A lazy n-dimensional array with NumPy's semantics."""

    __slots__ = ("_n", "_scalar", "_layout", "__weakref__")
    __array_priority__ = 100.0
    __hash__ = None

    def __init__(self, node: Node, scalar: bool = True):
        self._n = node
        self._layout = None  # a Layout once it is a view, or has flags asked or set
        # A 0-d result of an operation prints as the NumPy scalar NumPy would return
        # (np.float64(3.0)); a 0-d array made by a creation function prints as array(3.).
        self._scalar = scalar and node.shape == ()
        if node.op is not INPUT:
            _flush.track(self)
        if _shared.WATCH:  # it may read a buffer shared with NumPy: computed now
            _shared.reading(self)

    @property
    def __class__(self):
        """What `isinstance` consults after the type: for a 0-d result standing for a
        NumPy scalar, the class `SCALAR_KINDS` gives for its dtype (registered with the
        `numbers` ABC NumPy registers that scalar type with; see `_surface`)."""
        cls = type(self)
        return SCALAR_KINDS.get(self._n.dtype, cls) if self._scalar and cls is Array else cls

    @__class__.setter
    def __class__(self, cls) -> None:
        _OBJECT_CLASS.__set__(self, cls)

    @property
    def _node(self) -> Node:
        """The node holding this array's current value (a view's, derived anew from its
        owner's node when that has changed)."""
        layout = self._layout
        if _shared.EXPORTED:  # its buffer is shared with NumPy: read it as it is now
            shared = _shared.current(self._owner())
            if shared is not None:
                return shared if layout is None or layout.base is None else replay(
                    shared, layout.steps_from(shared))
        if layout is not None and layout.base is not None:
            owner_node = layout.base._n
            if owner_node is not layout.seen:
                self._n = replay(owner_node, layout.steps_from(owner_node))
                layout.seen = owner_node
                _flush.track(self)
        return self._n

    # ----- metadata, always known without computing -------------------------------
    # (A write never changes them, so they are read without re-deriving a view.)
    @property
    def shape(self) -> tuple[int, ...]:
        return self._n.shape

    @property
    def strides(self) -> tuple[int, ...]:
        """The strides NumPy's array of this layout has (a C-ordered owner, its views)."""
        return self._layout_of().probe.strides

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
        """NumPy's `value in x`: `(x == value).any()`, one flush (not one per element);
        of a computed NumPy buffer and a scalar, NumPy's own `in` on it."""
        host = self._host()
        if host is not None and type(value) in _SCALARS:
            return host.__contains__(value)
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

    def _host(self):
        """The computed NumPy buffer behind this array, or None (pending, or another
        backend's buffer)."""
        node = self._node
        value = node.value
        return value if node.op is INPUT and type(value) is np.ndarray else None

    def _value(self, cause: str) -> np.ndarray:
        """The computed value as a NumPy array (read-only: it is lazyarr's buffer)."""
        node = self._node
        value = node.value
        if node.op is not INPUT or type(value) is not np.ndarray:
            value = _flush.to_numpy(node, cause)
        if value.flags.writeable:
            value = value.view()
            value.flags.writeable = False
        return value

    def __array__(self, dtype=None, copy=None):
        """NumPy's array of this array's values: without a copy or cast, a writable
        buffer shared with it (see `_shared`), as `numpy.asarray(ndarray)` is."""
        if copy is not True and not self._scalar and (dtype is None or np.dtype(dtype)
                                                      == self.dtype) \
                and (self._layout is None or self._layout.writeable):
            return _shared.export(self)
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
            return bool(self._stand_in())  # NumPy's own ValueError
        return bool(self._python_value())

    def __int__(self) -> int:
        value = self._host_scalar()
        return int(value) if value is not None else self._convert(int)

    def __float__(self) -> float:
        node = self._n
        if type(node) is SmallLeaf and self._scalar and self._layout is None:
            value = node.value  # (a 0-d NumPy array of NumPy's numeric dtypes)
            if value.dtype.kind != "c":
                return float(value[()])
        value = self._host_scalar()
        return float(value) if value is not None else self._convert(float)

    def _host_scalar(self):
        """The NumPy scalar this handle stands for, if computed in a NumPy buffer and
        real (what int() and float() convert without a warning or an error)."""
        if not self._scalar:
            return None
        host = self._host()
        if host is None or host.dtype.kind not in "biuf":
            return None
        return host[()]

    def __complex__(self) -> complex:
        return self._convert(complex)

    def _stand_in(self):
        """An uninitialized NumPy array (or scalar) of this shape and dtype: NumPy's
        errors for what the shape and dtype decide."""
        stand_in = np.empty(self.shape, self.dtype)
        return stand_in[()] if self._scalar else stand_in

    def _convert(self, convert):
        """int/float/complex as NumPy's: a NumPy scalar converts (a complex one to its
        real part, with NumPy's ComplexWarning); an array only when 0-d and not complex."""
        complex_ = _dtypes.is_complex(self.dtype)
        if self.ndim != 0 or (not self._scalar and convert is not complex and complex_):
            return convert(self._stand_in())
        value = self._python_value()
        if complex_ and convert is not complex:
            warnings.warn("Casting complex values to real discards the imaginary part",
                          np.exceptions.ComplexWarning, stacklevel=user_stacklevel())
            return convert(value.real)
        return convert(value)

    def _python_value(self):
        """The computed value: a NumPy scalar for a handle that stands for one."""
        value = self._value("control")
        return value[()] if self._scalar else value

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

    # ----- copies -----------------------------------------------------------------
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

    def _layout_of(self) -> "Layout":
        if self._layout is None:
            # A NumPy scalar is read-only; an owner, C-contiguous.
            self._layout = Layout(None, (), None, owner_probe(self.shape, self.dtype),
                                   not self._scalar)
        return self._layout

    def _owner(self) -> "Array":
        layout = self._layout
        return layout.base if layout is not None and layout.base is not None else self

    def _view_by(self, fn, probe_fn, writeable: bool = True, on_copy=None,
                 may_copy: bool = False) -> "Array":
        """The node `fn(self)` (a chain of slice, reshape and transpose steps from this
        array's node) as a view of this array's owner; where NumPy would copy
        (`may_copy`, and `probe_fn` raises ValueError), a new array, or `on_copy()`.
        The scheduler's depth bound runs once the view is attached."""
        source = self
        if _shared.EXPORTED and _shared.buffer_if_exported(self) is not None:
            # an exported array is read through a pending read of its buffer: the steps
            # are found from a plain handle of its node (the view reads the buffer anyway)
            source = Array(self._n, self._scalar)
        node = fn(source)
        steps = steps_between(node, self._n)
        result = Array(node, self._scalar)
        result = self._make_view(result, steps, probe_fn, writeable, on_copy, may_copy)
        _cuts.bound(result._n)
        return result

    def _make_view(self, result: "Array", steps, probe_fn, writeable: bool = True,
                   on_copy=None, may_copy: bool = False) -> "Array":
        """Attach `result` (this array's node through `steps`, or a function giving
        them when first asked for) to this array's owner as a view whose NumPy stand-in
        is `probe_fn(stand-in, shape)`. Where NumPy might copy instead (`may_copy`),
        the stand-in is made now: `probe_fn` raises ValueError for a copy. Otherwise it
        is made when first asked for."""
        if steps is None or self._scalar:
            # A NumPy scalar has no buffer to share: NumPy's result is a new array.
            return result
        parent = self._layout_of()
        probe, recipe = None, (parent.probe, probe_fn, result.shape)
        if may_copy:
            try:
                probe, recipe = probe_fn(parent.probe, result.shape), None
            except ValueError:  # NumPy would copy
                return on_copy() if on_copy is not None else result
        if parent.base is None:  # (an owner's view: the steps are the chain)
            owner, prefix = self, ()
        else:
            owner = parent.base
            prefix = parent.steps_from(owner._n)
        if callable(steps):  # (steps found when first asked for: see `Layout`)
            chain = steps if not prefix else lambda: compose(prefix, steps())
        else:
            chain = compose(prefix, steps)
        result._layout = Layout(owner, chain, owner._n, probe, writeable and parent.writeable,
                                recipe)
        return result

    def _copy_in(self, order: str) -> "Array":
        """A copy of this array, laid out in C or Fortran `order`."""
        copy = Array(self._node, scalar=False)
        copy._layout = Layout(None, (), None, owner_probe(self.shape, self.dtype, order),
                               True)
        return copy

    def _check_writeable(self, message: str = "assignment destination is read-only"):
        if self._layout is not None and not self._layout.writeable:
            raise ValueError(message)

    def _write(self, node: Node) -> None:
        """Make `node` (this array's shape and dtype) this array's value; a view passes
        it on to its owner, and every other view of the owner sees it."""
        layout = self._layout
        # A small write into small computed buffers is made at once (see `_eager`: a
        # copy of the owner, as the interpreter's would be), so the next operations
        # can be eager too; not into a buffer shared with NumPy (`_shared` writes it).
        settle = not _shared.EXPORTED or _shared.buffer_if_exported(self) is None
        if layout is not None and layout.base is not None:
            owner = layout.base
            owner._n = push_back(owner._n, layout.steps_from(owner._n), node)
            if settle:
                _eager.settle(owner._n)
            # a strided view's elements may alias: it reads the owner's result again
            layout.seen = None if gathers(layout.steps) else owner._n
            _flush.track(owner)
        if settle and node.op is not INPUT:
            _eager.settle(node)
        self._n = node
        _flush.track(self)
        _cuts.bound(self._owner()._n)
        if _shared.EXPORTED:
            _shared.after_write(self._owner())

    def _write_at(self, steps, node: Node) -> None:
        """Write `node` into the part of this array that `steps` select."""
        layout = self._layout
        if layout is not None and layout.base is not None and gathers(layout.steps):
            # into the owner at once: an element of a strided view may alias another
            owner = layout.base
            owner._write(push_back(owner._n, compose(layout.steps_from(owner._n), steps),
                                   node))
            layout.seen = None
            return
        self._write(push_back(self._node, steps, node))

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


_interop.OWN_TYPES.append(Array)

_new = object.__new__


def small_array(value: np.ndarray) -> Array:
    """The Array of an eager result: a NumPy array of NumPy's numeric dtypes with at
    most `_eager.MAX_ELEMENTS` elements (the caller's guarantee: see `SmallLeaf`), in
    a `SmallLeaf`; a 0-d one stands for a NumPy scalar. Built without `__init__`'s
    checks: a computed node has no group to be tracked in."""
    node = SmallLeaf()
    node.value = value
    array = _new(Array)
    array._n = node
    array._layout = None
    array._scalar = not value.ndim
    return array


_ref = weakref.ref


def pending_array(node: Node) -> Array:
    """`Array(node)` of a new pending node (`_graph.pending`'s: its group is a root),
    without the type call and `__init__`'s frame: tracked in its group as
    `_flush.track` would, checked by `_shared` as `__init__` is."""
    array = _new(Array)
    array._n = node
    array._layout = None
    array._scalar = node.shape == ()
    node.group.handles[id(array)] = _ref(array)
    if _shared.WATCH:
        _shared.reading(array)
    return array


def _unpickled(cls, value: np.ndarray, scalar: bool) -> Array:
    return cls(leaf(value, value.shape, value.dtype), scalar)
