"""Elementwise functions: every NumPy ufunc, from one table, plus `clip`, `round`,
`divmod` and friends (the ufuncs' methods are in `ufunc_methods`).

Dtypes are resolved exactly as NumPy resolves them (`np.ufunc.resolve_dtypes`, with
Python scalars passed as their types so NEP 50 applies), then inputs are cast to the
loop's dtypes and one primitive node is built. Python scalars become 0-d runtime
inputs, so `x * 0.99` and `x * 0.98` share one compiled program.
"""

from __future__ import annotations

import builtins
import dis
import functools
import math
import operator
import sys
import threading
import weakref
from sys import _getframe, getrefcount as _getrefcount

import numpy as np

from .. import _cuts, _dtypes, _eager, _settings
from .._array import pending_array, small_array
from .._errors import INTERNAL_FILES as _INTERNAL_FILES, user_site
from .._graph import INPUT, SmallLeaf, check_size, computed, pending
from .._shared import EXPORTED, live_value, ufunc_into
from .._ops import MULTI_OUTPUT, OPS, UFUNCS as UFUNC_CATEGORIES, broadcast_shapes
from .._interop import NotLazy, overrides
from . import UFUNCS, export
from .common import (apply, Array, as_array, astype as _astype, full_node, scalar_node,
                     wrap, write_out)

_WEAK = (builtins.bool, builtins.int, builtins.float, builtins.complex)
COMPARISONS = {"equal", "not_equal", "less", "less_equal", "greater", "greater_equal"}


def _operand(x, func: str):
    if isinstance(x, Array) or type(x) in _WEAK:
        return x
    if isinstance(x, (str, bytes)) or x is None or overrides(type(x)):
        raise NotLazy(f"{func}: NumPy's ufunc takes {type(x).__name__} operands")
    return as_array(x)


def _loop_dtypes(ufunc: np.ufunc, operands, dtype) -> tuple:
    """NumPy's loop for these operands: (input dtypes..., output dtypes...)."""
    all_weak = not any(isinstance(op, Array) for op in operands)
    # A weak bool can always take the array's dtype, so a strong bool is equivalent (and
    # resolve_dtypes accepts only int, float and complex as Python types).
    key = tuple(op.dtype if isinstance(op, Array) else
                _dtypes.result_type(op) if all_weak or type(op) is builtins.bool else type(op)
                for op in operands)
    return _resolve(ufunc, key, None if dtype is None else _dtypes.as_dtype(dtype))


@functools.lru_cache(maxsize=4096)
def _resolve(ufunc: np.ufunc, types: tuple, dtype) -> tuple:
    strong = [t for t in types if isinstance(t, np.dtype)]
    if strong and _dtypes.result_type(*strong) in _dtypes.ML_FLOATS:
        # NumPy does not know ml_dtypes floats are floats: weak bool/int/float take them.
        ml = _dtypes.result_type(*strong)
        types = tuple(ml if t in (builtins.int, builtins.float) else t for t in types)
    operand_types = types + (None,) * ufunc.nout
    if dtype is None:
        return ufunc.resolve_dtypes(operand_types)
    signature = (None,) * ufunc.nin + (dtype,) * ufunc.nout
    return ufunc.resolve_dtypes(operand_types, signature=signature)


def _check_python_int(value: int, loop_dtype: np.dtype, ufunc_name: str) -> None:
    """NumPy's OverflowErrors for a Python int operand that its loop cannot hold."""
    if _dtypes.is_integer(loop_dtype):
        _dtypes.check_weak_int_fits(value, loop_dtype, ufunc_name)
    elif ufunc_name.startswith("logical_") or _dtypes.is_bool(loop_dtype):
        if not -2**63 <= value < 2**63:  # NumPy converts these through a C long
            raise OverflowError(f"{ufunc_name}: Python int too large to convert to C long")
    elif builtins.abs(value) >= 2**1024:
        raise OverflowError(f"{ufunc_name}: int too large to convert to float")


def check_weak_operands(ufunc: np.ufunc, args, dtype=None) -> None:
    """NumPy's errors for the Python scalars among a (g)ufunc's operands, which it
    converts before anything else: no loop (TypeError), an int the loop's dtype cannot
    hold (OverflowError)."""
    if not any(type(a) in _WEAK for a in args):
        return
    operands = [a if type(a) in _WEAK else as_array(a) for a in args]
    loop = _loop_dtypes(ufunc, operands, dtype)
    for op, dt in zip(operands, loop):
        if type(op) is builtins.int:
            _check_python_int(op, dt, ufunc.__name__)


def _input_node(op, dtype, ufunc_name: str):
    if isinstance(op, Array):
        return _astype(op, dtype)._node
    if type(op) is builtins.int:
        _check_python_int(op, dtype, ufunc_name)
    return scalar_node(op, dtype)


def _out_of_range_comparison(name: str, operands, loop_dtype):
    """NumPy 2 compares integer arrays with out-of-range Python ints exactly."""
    if not _dtypes.is_integer(loop_dtype):
        return None
    info = np.iinfo(loop_dtype)
    for position, op in enumerate(operands):
        other = operands[1 - position]
        if not (isinstance(other, Array) and _dtypes.is_integer(other.dtype)):
            continue  # NumPy's exact comparison applies to integer arrays only
        if type(op) is builtins.int and not info.min <= op <= info.max:
            above = op > info.max  # the Python int is larger than every array value
            if position == 0:
                above = not above  # read "int OP array" as "array OP' int"
            value = {"equal": False, "not_equal": True,
                     "less": above, "less_equal": above,
                     "greater": not above, "greater_equal": not above}[name]
            return wrap(full_node(value, other.shape, np.bool_))  # a scalar when 0-d
    return None


_CASTINGS = ("no", "equiv", "safe", "same_kind", "unsafe", "same_value")
_NO_ARGUMENT = object()  # a ufunc's first operand's default: none was given


class ufunc:
    """A lazy counterpart of a NumPy ufunc: call it, or use `reduce`, `accumulate`,
    `reduceat`, `outer` and `at` as on NumPy's."""

    def __init__(self, name: str):
        self.__name__ = name
        self._np = getattr(np, name)
        self.nin, self.nout = self._np.nin, self._np.nout
        self.__doc__ = f"Lazy numpy.{name}: same dtypes, values and errors as NumPy's."
        self._op = OPS[name]
        self._loops: dict = {}  # the fast path's loops, by operand types
        self._same: dict = {}  # dtype -> the result's, of a loop taking two arrays of it
        # the fast paths' operand count: the ufunc's, for one output; else none (-1)
        self._fast = self.nin if self.nout == 1 else -1
        self._power = name == "power"

    def __repr__(self) -> str:
        return f"<lazyarr ufunc '{self.__name__}'>"

    def __call__(self, x=_NO_ARGUMENT, /, *rest, **options):
        # (Positional-only, and the options in a dict: 45 ns less a call than named
        # keyword-only defaults; the fast paths take none.)
        if not options and len(rest) + 1 == self._fast:  # see fast_call
            state = _DECISION.state
            eager = state[1] or state[0] is not _TOKEN[0]  # (eager_call decides again)
            if not rest:  # the eager fast path, inline for a SmallLeaf operand
                node = x._n if type(x) is Array else None
                if type(node) is SmallLeaf and x._layout is None and state[1] \
                        and state[0] is _TOKEN[0]:
                    value = state[2](self._np, node.value)
                    _COUNT[0] += 1
                    if type(value) is not _ndarray:
                        value = _asarray(value)
                    # small_array(value), inline (profiled: a tenth of the call)
                    leaf = SmallLeaf()
                    leaf.value = value
                    result = _new(Array)
                    result._n, result._layout, result._scalar = leaf, None, not value.ndim
                    return result
                result = eager_call(self._np, x, None, 1) if eager else None
                args = (x,)
            else:
                y = rest[0]
                args = (x, y)
                if type(x) is Array:
                    result = eager_call(self._np, x, y) if eager else None
                    if result is None and type(y) is Array:
                        result = fast_binary(self, x, y)
                else:
                    result = eager_call(self._np, y, x, 2, True) if eager else None
            if result is not None:
                return result
            result = fast_call(self, args)
            if result is not None:
                return result
        return self._call(*rest, **options) if x is _NO_ARGUMENT else \
            self._call(x, *rest, **options)

    def _call(self, *args, out=None, where=True, dtype=None, casting="same_kind"):
        """The call with NumPy's options; NumPy's own for operands lazyarr cannot take."""
        try:
            return self.lazy_call(*args, out=out, where=where, dtype=dtype, casting=casting)
        except NotLazy:  # NumPy's ufunc: another library's override, or NumPy's data
            pass
        given = dict(out=out, where=where, dtype=dtype, casting=casting)
        defaults = dict(out=None, where=True, dtype=None, casting="same_kind")
        return self._np(*args, **{k: v for k, v in given.items() if v is not defaults[k]})

    def lazy_call(self, *args, out=None, where=True, dtype=None, casting="same_kind"):
        """The call on lazyarr's operands; NotLazy for others (see `_interop`)."""
        if casting not in _CASTINGS:
            raise ValueError("casting must be one of 'no', 'equiv', 'safe', 'same_kind', "
                             f"'unsafe' (got {casting!r})")
        if len(args) != self.nin:
            raise TypeError(f"{self.__name__}() takes {self.nin} positional arguments "
                            f"but {len(args)} were given")
        operands = [_operand(a, self.__name__) for a in args]
        if out is not None and EXPORTED and ufunc_into(  # into a buffer NumPy shares
                self._np, operands, out, where=where, dtype=dtype, casting=casting):
            return out[0] if isinstance(out, tuple) else out
        loop = _loop_dtypes(self._np, operands, dtype)
        if self.__name__ in COMPARISONS:
            constant = _out_of_range_comparison(self.__name__, operands, loop[0])
            if constant is not None:
                return constant
        nodes = [_input_node(op, dt, self.__name__) for op, dt in zip(operands, loop)]
        if self.__name__ == "power" and where is True:  # after NumPy's OverflowErrors
            _negative_integer_power(operands, loop)
        # NumPy returns a scalar, not a 0-d array, from a ufunc on 0-d operands.
        if self.nout == 1:
            results = (wrap(apply(self.__name__, *nodes)),)
        else:
            results = tuple(wrap(apply(self.__name__, *nodes, out=k))
                            for k in range(MULTI_OUTPUT[self.__name__]))
        results = _write_out(self.__name__, results, out, where)
        return results[0] if self.nout == 1 else results


_BOOL = np.dtype(bool)
_FAST_KINDS = frozenset("biufc")
_int_bounds: dict = {}
_LARGE = 1 << 24  # results past this many elements are checked by check_size


def _int_fits(value: int, dtype: np.dtype) -> bool:
    """Whether a Python int operand needs none of the slow path's range checks."""
    kind = dtype.kind
    if kind == "f" or kind == "c":
        return -2**53 <= value <= 2**53
    if kind == "i" or kind == "u":
        bounds = _int_bounds.get(dtype)
        if bounds is None:
            info = np.iinfo(dtype)
            bounds = _int_bounds[dtype] = (int(info.min), int(info.max))
        return bounds[0] <= value <= bounds[1]
    return False


# The eager fast path (see `_eager`): NumPy's own call on computed small NumPy buffers
# of NumPy's numeric dtypes ("V" is ml_dtypes': the general path gives them NEP 50's
# weak scalars) and Python floats and ints, so its dtypes, values and errors are
# NumPy's by construction; lazyarr's rules are not consulted. Its results are in
# `SmallLeaf` nodes, whose type is the whole check of an operand in the next
# operation. An array shared with NumPy (`_shared`) needs no snapshot here, as NumPy's
# call reads its buffer now, as NumPy would (its owner's node is the buffer's leaf);
# views are left to the general path. Profiled on `x = x + 1e-4 * (np.cos(x) - x)` over
# 10 elements: what is left beyond NumPy's calls is one frame per operation and one for
# the result's handle (`small_array`).
_ndarray = np.ndarray
_asarray = np.asarray
_new = object.__new__
_float, _int = builtins.float, builtins.int
_MAX = _eager.MAX_ELEMENTS
_KINDS = "biufc"
_COUNT = _eager.COUNT
_DECISION = _eager.DECISION
_TOKEN = _settings.TOKEN
_refresh = _eager.refresh


def small_value(node):
    """The value of a computed node if the eager fast path may take it: a NumPy array
    of NumPy's numeric dtypes with at most `_eager.MAX_ELEMENTS` elements; else None."""
    value = node.value
    if type(node) is SmallLeaf or (node.op is INPUT and type(value) is _ndarray and
                                   value.size <= _MAX and value.dtype.kind in _KINDS):
        return value
    return None


def current_small_value(x: Array):
    """`small_value` of what Array `x` holds now, read without a node: an owner's
    computed buffer, or the window the eager path made of one (`_host_view` in
    `_api/indexing`) while its owner is unchanged, or (shared with NumPy) over the
    buffer as it is now (`_shared.live_value`). None where the general path reads it
    (a view re-derived through its steps: 3 us more a `w * 2.0` of a window `w`)."""
    layout = x._layout
    if layout is None or layout.base is None:
        return small_value(x._n)
    if EXPORTED:
        value = live_value(x)
        if value is not None:
            return value if value.size <= _MAX and value.dtype.kind in _KINDS else None
    return small_value(x._n) if layout.base._n is layout.seen else None


def eager_call(npfunc, x, y=None, nin: int = 2, reflected: bool = False):
    """`npfunc(x)` (`nin` 1), `npfunc(x, y)` or (`reflected`) `npfunc(y, x)` computed
    at once where the eager fast path applies (`x` an Array of a small computed buffer
    or a window of one, `y` one of the same shape or a Python float or int), else
    None."""
    state = _DECISION.state
    if state[0] is not _TOKEN[0]:
        state = _refresh()
    if not state[1] or type(x) is not Array:
        return None
    v = current_small_value(x)
    if v is None:
        return None
    if nin == 2:
        t = type(y)
        if t is Array:
            y = current_small_value(y)
            if y is None or y.shape != v.shape:
                return None
        elif t is not _float and t is not _int:
            return None
    run = state[2]
    value = run(npfunc, v) if nin == 1 else run(npfunc, y, v) if reflected else \
        run(npfunc, v, y)
    _COUNT[0] += 1
    return small_array(value if type(value) is _ndarray else _asarray(value))


# NumPy's temporary elision: in `a - b * c` NumPy writes the difference into the buffer
# of `b * c`, which nothing else can see, rather than into fresh memory (gauss's step,
# 1000 steps of one expression: NumPy 468-477 ms, 539-594 ms with its temporaries
# named). The eager path does the same for the right operand (`_spare_buffer`), telling
# a temporary by reference counts as NumPy does: an operand the interpreter's stack
# alone holds has three references in its operator's frame (the stack's, the frame's,
# `getrefcount`'s). C code (an object array's loop, a compiled container's `__sub__`)
# may call an operator on an array it holds by a single reference, which the count
# cannot tell from a temporary (NumPy looks at the C stack there), so the operand must
# also be the last large result of this thread's eager path, made in the caller's
# frame by the instruction just before the BINARY_OP that called the operator
# (gauss's `* row`): nothing can have taken it between the two. CPython 3.14 loads
# locals onto the stack without a reference, so this holds on 3.11 to 3.13, with the
# GIL.
_ELIDE = (3, 11) <= sys.version_info[:2] <= (3, 13) and \
    getattr(sys, "_is_gil_enabled", lambda: True)()
_TEMPORARY = 3
_ELIDE_BYTES = 256 * 1024  # NumPy's bound (NPY_MIN_ELIDE_BYTES): below it, no gain
_BINARY_OP = dis.opmap.get("BINARY_OP")
_CACHE = dis.opmap.get("CACHE")
# .result: that last large eager result, as (a weak reference to it, the id of the
# frame that made it, that frame's code, the offset of the instruction that made it)
_LAST = threading.local()


def _spare_buffer(x: Array):
    """The buffer of `x`, the right operand of an operator that holds the only
    reference to it (its caller checked), when nothing else can see that buffer either
    and x is a temporary (see above): the last large result of this thread's eager
    path, made by the instruction just before the caller's BINARY_OP, no view, its node
    a computed leaf only x holds, its value a large NumPy buffer of its own that no
    view, export or other node holds. Else None."""
    last = getattr(_LAST, "result", None)
    if last is None or last[0]() is not x or x._layout is not None:
        return None
    node = x._n
    if node.op is not INPUT or _getrefcount(node) != 3:  # (x's, `node`'s, the call's)
        return None
    value = node.value
    if type(value) is not np.ndarray or value.nbytes < _ELIDE_BYTES or \
            value.base is not None or _getrefcount(value) != 3 or id(x) in EXPORTED:
        return None
    flags = value.flags
    if not (flags.writeable and flags.c_contiguous and flags.aligned):
        return None
    try:
        frame = _getframe(2)  # the operator's caller
    except ValueError:  # none: called from C at the bottom of the stack
        return None
    if id(frame) != last[1] or frame.f_code is not last[2]:
        return None
    code, at = last[2].co_code, frame.f_lasti
    if code[at] != _BINARY_OP:
        return None
    at -= 2
    while at >= 0 and code[at] == _CACHE:  # (the inline caches after an instruction)
        at -= 2
    return value if at == last[3] else None


def binary_operator(uf: ufunc, reflected: bool, other_types):
    """Array's `x OP y` (`y OP x` when `reflected`): for operands in `SmallLeaf`s (or a
    Python float or int `y`) the eager fast path inline, then `eager_call` for other
    small computed ones, `fast_call`, the ufunc; `other_types(x, y)` for operand types
    other than Array, float and int."""
    npfunc = uf._np
    fast = fast_call if uf._fast > 0 else None

    def op(self, other):
        node = self._n
        t = type(other)
        state = _DECISION.state
        if type(node) is SmallLeaf and self._layout is None:
            if t is Array:
                w = other._n
                w = w.value if type(w) is SmallLeaf and other._layout is None else None
            elif t is _float or t is _int:
                w = other
            else:
                w = None
            if w is not None and state[1] and state[0] is _TOKEN[0]:
                value = state[2](npfunc, w, node.value) if reflected else \
                    state[2](npfunc, node.value, w)
                _COUNT[0] += 1
                if type(value) is not _ndarray:
                    value = _asarray(value)
                elif t is Array and value.size > _MAX:  # broadcast: NumPy's, not small
                    return Array(computed(value))
                # small_array(value), inline (a call's frame is a tenth of the operator)
                leaf = SmallLeaf()
                leaf.value = value
                result = _new(Array)
                result._n, result._layout, result._scalar = leaf, None, not value.ndim
                return result
        if t is Array or t is _float or t is _int:
            if state[1] or state[0] is not _TOKEN[0]:  # (eager_call decides again)
                result = eager_call(npfunc, self, other, 2, reflected)
                if result is not None:
                    return result
            if fast is not None:  # the ufunc's fast paths, without its call's frame
                if t is Array:
                    result = fast_binary(uf, other, self) if reflected else \
                        fast_binary(uf, self, other)
                    if result is not None:
                        return result
                spare = None
                if _ELIDE:  # (the right operand: `other`, or `self` when reflected)
                    del node  # (a reference of its own to self's node: see _spare_buffer)
                    if reflected:
                        if _getrefcount(self) == _TEMPORARY:
                            spare = _spare_buffer(self)
                    elif t is Array and _getrefcount(other) == _TEMPORARY:
                        spare = _spare_buffer(other)
                result = fast(uf, (other, self) if reflected else (self, other), spare)
                if result is not None:
                    return result
            return uf(other, self) if reflected else uf(self, other)
        return other_types(self, other)
    return op


def fast_call(self: ufunc, args, spare=None):
    """The call without out=, where=, dtype= or casting=, on lazyarr arrays (of NumPy's
    own dtypes) and Python scalars: the loop is looked up by the operand types, the node
    built directly, or, for small computed inputs on the CPU, the result computed at
    once (see `_eager`), into `spare` (an operand's buffer nothing else can see, from
    `_spare_buffer`) where it has the result's shape and dtype. None where the general
    path must decide (it raises the errors).
    One pass over the operands: this is the cost of every operator on small arrays."""
    types = []
    nodes = []
    eager = True
    ints = False
    for a in args:
        t = type(a)
        if t is Array:
            node = a._n if a._layout is None and not EXPORTED else a._node
            types.append(node.dtype)  # a write never changes the dtype
            nodes.append(node)
            if eager and node.op is not INPUT and node.op not in _VIEW_CHAIN:
                eager = False  # (computed buffers and views of them: `_eager.host_values`)
        elif t is builtins.float or t is builtins.complex:
            types.append(t)
            nodes.append(None)
        elif t is builtins.int:
            types.append(t)
            nodes.append(None)
            ints = True
        elif t is builtins.bool:
            types.append(_BOOL)
            nodes.append(None)
        else:
            return None
    key = tuple(types)
    loop = self._loops.get(key)
    if loop is None:
        arrays = [t for t in key if isinstance(t, np.dtype)]
        if not arrays or any(t.kind not in _FAST_KINDS for t in arrays):
            return None  # all weak, or ml_dtypes floats: the general path
        loop = _resolve(self._np, key, None)
        if self._power and loop[0].kind in "iu":
            return None  # negative integer exponents: the general path's check
        if len(self._loops) < 256:
            self._loops[key] = loop
    if ints:
        for a, dt in zip(args, loop):
            if type(a) is builtins.int and not _int_fits(a, dt):
                return None  # NumPy's OverflowError (or exact comparison): general path
    state = _DECISION.state
    if eager:
        eager = (state[1] if state[0] is _TOKEN[0] else _eager.enabled()) and \
            _eager.host_values(nodes)
    if eager:
        if spare is not None and (spare.dtype != loop[self.nin] or spare.shape != (
                broadcast_shapes(*[v.shape for v in eager if v is not None]))):
            spare = None
        value = _eager.call(_in_loop_dtypes, self._np, args, loop, eager, spare)
        if type(value) is not np.ndarray:
            value = np.asarray(value)
        if value.dtype != loop[self.nin]:
            raise AssertionError(f"lazyarr internal error: eager {self.__name__} gave "
                                 f"{value.dtype}; its rules said {loop[self.nin]}")
        _eager.COUNT[0] += 1
        result = Array(computed(value))
        if _ELIDE and value.nbytes >= _ELIDE_BYTES:  # (a temporary perhaps: see above)
            try:
                frame = _getframe(2)  # the operator's or the ufunc call's caller
            except ValueError:
                frame = None
            _LAST.result = None if frame is None else (
                weakref.ref(result), id(frame), frame.f_code, frame.f_lasti)
        return result
    inputs = []
    for a, dt, node in zip(args, loop, nodes):
        if node is None:
            node = scalar_node(a, dt)
        elif node.dtype != dt:
            node = _astype(a, dt)._node
        inputs.append(node)
    shape = None  # 0-d operands (Python scalars) broadcast to anything
    for other in inputs:
        if other.shape == ():
            continue
        if shape is None:
            shape = other.shape
        elif other.shape != shape:
            shape = broadcast_shapes(*[n.shape for n in inputs])
            break
    if shape is None:
        shape = ()
    dtype = loop[self.nin]
    n = 1
    for d in shape:
        n *= d
    if n > _LARGE:
        check_size(self.__name__, shape, dtype)
    if len(key) == 2 and nodes[0] is not None and nodes[1] is not None and \
            key[0] is key[1] and loop[0] == key[0] and loop[1] == key[0]:
        self._same[key[0]] = dtype  # what fast_binary takes
    try:  # the user's line: as in fast_binary
        frame = _getframe(2)
        file = frame.f_code.co_filename
        site = (file, frame.f_lineno) if _INTERNAL_FILES.get(file) is False else user_site()
    except ValueError:
        site = None
    node = pending(self._op, tuple(inputs), (), shape, dtype, site)
    result = pending_array(node)
    _cuts.bound(node)
    return result


def fast_binary(self: ufunc, x: Array, y: Array):
    """`fast_call(self, (x, y))` of two Arrays (not views) of one shape and dtype that
    NumPy's loop takes as they are, once `fast_call` has found that loop, where no
    eager execution may apply: the node is built at once. Else None. Called by the
    operator or the ufunc's call only: the user's line is the caller's caller, unless
    that is lazyarr's or NumPy's own (then `user_site` walks on). Profiled (1e5 `x + x`
    of 10 float64, eager off): the general `fast_call` was 42% of the time on its own,
    the walk 10%."""
    if x._layout is not None or y._layout is not None or EXPORTED:
        return None
    a = x._n
    b = y._n
    dtype = a.dtype
    if b.dtype is not dtype:
        return None
    out = self._same.get(dtype)
    shape = a.shape
    if out is None or b.shape != shape:
        return None
    state = _DECISION.state
    if (state[1] or state[0] is not _TOKEN[0]) and (a.op is INPUT or a.op in _VIEW_CHAIN) \
            and (b.op is INPUT or b.op in _VIEW_CHAIN):
        return None  # computed inputs, or views of them: the eager path may take them
    n = 1
    for d in shape:
        n *= d
    if n > _LARGE:
        check_size(self.__name__, shape, out)
    try:
        frame = _getframe(2)
        file = frame.f_code.co_filename
        site = (file, frame.f_lineno) if _INTERNAL_FILES.get(file) is False else user_site()
    except ValueError:  # no frame there (a call from C at the bottom of the stack)
        site = None
    node = pending(self._op, (a, b), (), shape, out, site)
    result = pending_array(node)
    _cuts.bound(node)
    return result


_VIEW_CHAIN = _eager._VIEW_CHAIN


def _in_loop_dtypes(npfunc, args, loop, operands, out=None):
    """`npfunc` of `args` as the interpreter calls it: every operand (its NumPy value in
    `operands`, None for a Python scalar) in the loop's dtype (a Python scalar as a
    NumPy scalar of it: passed as it is, NumPy may pick another loop), into `out` if
    given."""
    values = []
    for a, dt, value in zip(args, loop, operands):
        if value is None:
            values.append(dt.type(a))
        else:
            values.append(value if value.dtype == dt else value.astype(dt))
    return npfunc(*values) if out is None else npfunc(*values, out=out)


def _negative_integer_power(operands, loop) -> None:
    """NumPy's ValueError for an integer power with a negative exponent, at the call
    when the exponent's values are known (a Python or NumPy scalar, a computed array);
    for a pending exponent the program's runtime check raises it when computed."""
    if not (_dtypes.is_integer(loop[0]) and np.dtype(loop[1]).kind == "i"):
        return
    base, exponent = operands
    shapes = [op.shape if isinstance(op, Array) else np.shape(op) for op in operands]
    if isinstance(exponent, Array):
        node = exponent._node
        while not node.is_computed and node.op.name in ("broadcast_to", "reshape"):
            node = node.inputs[0]  # a full() or a view of known values keeps them
        if not node.is_computed:
            return
        exponent = node.value
    if math.prod(np.broadcast_shapes(*shapes)) and np.any(np.asarray(exponent) < 0):
        raise ValueError("Integers to negative integer powers are not allowed.")


def _write_out(name: str, results: tuple, out, where) -> tuple:
    """Apply `where=` and `out=` as NumPy does (into lazyarr arrays by rebinding)."""
    if out is None and where is True:
        return results
    if out is None:
        outs = (None,) * len(results)
    else:
        outs = out if isinstance(out, tuple) else (out,)
        if len(outs) != len(results):
            raise ValueError("The 'out' tuple must have exactly one entry per ufunc output")
    final = []
    for result, target in zip(results, outs):
        if where is not True:
            base = target if target is not None else zeros_like(result)
            result = where_(where, result, _astype(base, result.dtype) if
                            isinstance(base, Array) else base)
        final.append(write_out(target, result, name))
    return tuple(final)


for _name in UFUNC_CATEGORIES:
    UFUNCS[_name] = ufunc(_name)
    export(UFUNCS[_name], names=())  # registers under the ufunc's own name

# NumPy's aliases (and the Array API's spellings) of the same ufuncs.
ALIASES = {"abs": "absolute", "acos": "arccos", "acosh": "arccosh", "asin": "arcsin",
           "asinh": "arcsinh", "atan": "arctan", "atan2": "arctan2", "atanh": "arctanh",
           "bitwise_invert": "invert", "bitwise_not": "invert",
           "bitwise_left_shift": "left_shift", "bitwise_right_shift": "right_shift",
           "conj": "conjugate", "mod": "remainder", "pow": "power",
           "true_divide": "divide"}
for _alias, _name in ALIASES.items():
    UFUNCS[_alias] = UFUNCS[_name]
    export(UFUNCS[_name], names=(_alias,))

globals().update(UFUNCS)


# ---------------------------------------------------------------------------------
# Elementwise functions that are not ufuncs.

@export
def astype(x, dtype, /, *, copy: bool = True, device=None):
    """`x` converted to `dtype` with NumPy's unsafe casting (as `ndarray.astype`)."""
    return _astype(as_array(x), dtype)


@export
def real(val):
    """NumPy's `real`: of a complex array, a write-through view of its real parts; any
    other array itself."""
    x = as_array(val)
    if _dtypes.is_complex(x.dtype):
        return x._view_by(lambda v: apply("real", v._node), lambda probe, shape: probe.real)
    return x


@export
def imag(val):
    """NumPy's `imag`: of a complex array, a write-through view of its imaginary parts;
    of any other array, read-only zeros."""
    x = as_array(val)
    if _dtypes.is_complex(x.dtype):
        return x._view_by(lambda v: apply("imag", v._node), lambda probe, shape: probe.imag)
    # NumPy: zeros, read-only, and a NumPy scalar's imag is a scalar.
    zeros = wrap(full_node(0, x.shape, x.dtype), x._scalar)
    if not x._scalar:
        zeros.flags.writeable = False
    return zeros


@export
def angle(z, deg: bool = False):
    """Argument of complex values (arctan2(imag, real)), in degrees if `deg`."""
    z = as_array(z)
    a = arctan2(imag(z), real(z)) if _dtypes.is_complex(z.dtype) else arctan2(0, z)
    return a * (180.0 / np.pi) if deg else a


@export
def divmod(x1, x2, /):  # noqa: A001  (NumPy's name)
    """(floor_divide(x1, x2), remainder(x1, x2)), with NumPy's sign rules."""
    return floor_divide(x1, x2), remainder(x1, x2)


@export(names=("round",))
def around(a, decimals: int = 0, out=None):
    """Round half to even at `decimals` places, computed as NumPy does (scale, rint,
    unscale)."""
    x = as_array(a)
    decimals = operator.index(decimals)  # NumPy's TypeError for 1.5
    if _dtypes.is_integer(x.dtype) and decimals >= 0:
        return wrap(x._node)  # a copy (a scalar when 0-d, as NumPy returns)
    if _dtypes.is_complex(x.dtype):  # NumPy rounds the two parts as separate arrays
        parts = around(real(x), decimals), around(imag(x), decimals)
        # (a 0-d result is a scalar, as NumPy's round of a 0-d array is)
        return wrap(apply("complex", parts[0]._node, parts[1]._node))
    if decimals == 0:
        return rint(x)  # bool gives float16, as NumPy's rint does
    if _dtypes.is_bool(x.dtype):
        raise TypeError("round: Cannot cast ufunc 'multiply' output from dtype('float64') "
                        "to dtype('bool') with casting rule 'same_kind'")
    if _dtypes.is_integer(x.dtype):
        scale = 10 ** -decimals
        return _astype(rint(x.astype(np.float64) / scale) * scale, x.dtype)
    if decimals >= 0:
        return divide(rint(multiply(x, float(10 ** decimals))), float(10 ** decimals))
    return multiply(rint(divide(x, float(10 ** -decimals))), float(10 ** -decimals))


round = around


_UNSET = object()  # a_min/a_max not passed (NumPy's _NoValue)


@export
def clip(a, a_min=_UNSET, a_max=_UNSET, out=None, *, min=None, max=None):
    """minimum(maximum(a, a_min), a_max), with NEP 50 promotion of the bounds."""
    if (a_min is not _UNSET or a_max is not _UNSET) and (min is not None or max is not None):
        raise ValueError("Passing `min` or `max` keyword argument when `a_min` and "
                         "`a_max` are provided is forbidden.")
    a_min = min if a_min is _UNSET or a_min is None else a_min
    a_max = max if a_max is _UNSET or a_max is None else a_max
    x = as_array(a)
    if _dtypes.is_integer(x.dtype):
        # NumPy 2 drops a Python int bound at or beyond the array dtype's range on its
        # own side (clip(uint32, -1, 3) is minimum(x, 3)); the rest decide the dtype.
        info = np.iinfo(x.dtype)
        if type(a_min) is builtins.int and a_min <= info.min:
            a_min = None
        if type(a_max) is builtins.int and a_max >= info.max:
            a_max = None
    if a_min is not None and a_max is not None:
        bounds = (a_min, a_max)
        dtype = _dtypes.result_type(x, *[b if type(b) in _WEAK else as_array(b)
                                         for b in bounds])
        if _dtypes.is_inexact(dtype):  # the three operands' dtype decides: 2**64 is a float
            a_min, a_max = (float(b) if type(b) is builtins.int else b for b in bounds)
        x = _astype(x, dtype)  # (float16 data clipped at 1e10 and 1j: in complex64)
        if _dtypes.is_floating(dtype):
            return _write_out("clip", (_clip_floats(x, a_min, a_max),), out, True)[0]
    result = x
    if a_min is not None:
        result = maximum(result, a_min)
    if a_max is not None:
        result = minimum(result, a_max)
    if result is x:  # NumPy's positive(a): a copy, and its TypeError for bools
        result = positive(x)
    return _write_out("clip", (result,), out, True)[0]


def _clip_floats(x: Array, a_min, a_max) -> Array:
    """NumPy's clip loop for floats (not maximum then minimum): `x` is kept where it
    equals a bound (clip(0.0, -0.0, 1) is 0.0, maximum(0.0, -0.0) is -0.0), and a NaN
    anywhere is NaN."""
    lo, hi = (_astype(as_array(b), x.dtype) for b in (a_min, a_max))
    result = where_(less(x, lo), lo, x)
    result = where_(greater(result, hi), hi, result)
    return where_(isnan(lo) | isnan(hi), add(lo, hi), result)


def _where_input(value, dtype):
    """NumPy's where converts a Python int through a C integer and casts it unsafely to
    the result dtype (np.where(u8 > 1, u8, -3) holds 253); one beyond 64 bits is its
    OverflowError."""
    if type(value) is builtins.int and _dtypes.is_integer(dtype):
        if not -2**63 <= value < 2**64:
            raise OverflowError("Python int too large to convert to C long")
        host = np.array(value, np.int64 if value < 2**63 else np.uint64)
        return scalar_node(host.astype(dtype), dtype)
    return _input_node(value, dtype, "where")


def where_(condition, x, y):
    cond = _astype(as_array(condition), np.bool_)
    xs = [_operand(v, "where") for v in (x, y)]
    dtype = _dtypes.result_type(*xs)
    nodes = [_where_input(v, dtype) for v in xs]
    return wrap(apply("select", cond._node, *nodes))


@export
def isclose(a, b, rtol=1e-05, atol=1e-08, equal_nan=False):
    """NumPy 2's isclose, step by step: `|a - b| <= atol + rtol * |b|` where b is
    finite, or a == b; Python scalars stay weak (float16 data against 1e300 compares
    inf <= inf) and b is made inexact. A 0-d result is a scalar."""
    x, y, atol, rtol = (v if type(v) in _WEAK else as_array(v) for v in (a, b, atol, rtol))
    if isinstance(y, Array):
        y = _astype(y, _dtypes.result_type(y, 1.0))
    elif isinstance(y, builtins.int):  # a bool too: isclose(bools, True) is in floats
        y = float(y)
    # Python's operators, as NumPy's code: on Python scalars they compute in Python.
    result = (less_equal(builtins.abs(x - y), atol + rtol * builtins.abs(y)) & isfinite(y)
              | (x == y))
    if equal_nan:
        result = result | (isnan(x) & isnan(y))
    return wrap(result._node)


@export
def nan_to_num(x, copy=True, nan=0.0, posinf=None, neginf=None):
    """NaN to `nan`, infinities to the dtype's largest finite values (or the given).
    A copy; with copy=False the array itself, changed in place, as NumPy's."""
    x = as_array(x)
    if not _dtypes.is_inexact(x.dtype):  # NumPy's copy (or `x` itself for copy=False)
        return wrap(x._node, x.ndim == 0) if copy else x
    result = _nan_to_num(x, nan, posinf, neginf)
    if copy or x._scalar:
        return wrap(result._node, x.ndim == 0)  # NumPy returns x[()] for 0-d input
    x._check_writeable()
    x._write(_astype(result, x.dtype)._node)
    return x


def _nan_to_num(x, nan, posinf, neginf):
    if _dtypes.is_complex(x.dtype):
        fix = lambda part: _nan_to_num(part, nan, posinf, neginf)  # noqa: E731
        return add(fix(real(x)), multiply(fix(imag(x)), 1j))
    info = _dtypes.finfo(x.dtype)
    hi = info.max if posinf is None else posinf
    lo = info.min if neginf is None else neginf
    x = where_(isnan(x), _astype(as_array(nan), x.dtype), x)
    x = where_(isposinf(x), _astype(as_array(hi), x.dtype), x)
    return where_(isneginf(x), _astype(as_array(lo), x.dtype), x)


@export
def isposinf(x):
    return logical_and(isinf(x), logical_not(signbit(x)))


@export
def isneginf(x):
    return logical_and(isinf(x), signbit(x))


@export
def fix(x):
    """Round towards zero, keeping the input's float dtype (as numpy.fix)."""
    return trunc(x)


def zeros_like(x: Array) -> Array:
    """Zeros of `x`'s shape and dtype (an array, as NumPy's zeros_like)."""
    return wrap(full_node(0, x.shape, x.dtype), False)


@export
def iscomplex(x):
    """True where the imaginary part is non-zero (all False for real dtypes)."""
    x = as_array(x)
    return not_equal(imag(x), 0)


@export
def isreal(x):
    """True where the imaginary part is zero (all True for real dtypes)."""
    x = as_array(x)
    return equal(imag(x), 0)


@export
def iscomplexobj(x) -> bool:
    return _dtypes.is_complex(as_array(x).dtype)


@export
def isrealobj(x) -> bool:
    return not _dtypes.is_complex(as_array(x).dtype)
