"""NumPy's ndarray methods and operators, attached to `Array` from one table once the
chapters are loaded (as jax attaches its Array methods), so that `_array` imports no
chapter. Each method is the chapter function of the same NumPy name, with the
method's own signature; operators map to ufuncs.
"""

from __future__ import annotations

import builtins
import operator

import numpy as np

from .. import _dispatch, _dtypes, _eager, _shared
from .._array import Array
from .common import full_node, raise_casting_error, write_out
from . import elementwise as _ew
from . import indexing as _idx
from . import products as _products
from . import mutation as _mutation
from . import reductions as _red
from . import shapes as _shapes
from . import sorting as _sorting
from . import manipulation as _manip
from . import namespace as _namespace


def is_operand(value) -> bool:
    """Whether a binary operator should handle `value` (else it returns NotImplemented)."""
    return isinstance(value, (Array, np.ndarray, np.generic, builtins.bool, builtins.int,
                              builtins.float, builtins.complex, list, tuple))


# ----- conversion and shape methods -----------------------------------------------

_ORDERS = ("C", "F", "A", "K", None)
_CASTINGS = ("no", "equiv", "safe", "same_kind", "unsafe", "same_value")


def astype(self, dtype, order="K", casting="unsafe", subok=True, copy=True) -> Array:
    """`ndarray.astype`: NumPy's checks of `order` and `casting` (a cast the rule
    forbids is its TypeError; "same_value" checks the values, so computes them)."""
    if order not in _ORDERS:
        raise ValueError(f"order must be one of 'C', 'F', 'A', or 'K' (got {order!r})")
    if casting not in _CASTINGS:
        raise ValueError("casting must be one of 'no', 'equiv', 'safe', 'same_kind', "
                         f"'unsafe', 'same_value' (got {casting!r})")
    target = _dtypes.as_dtype(dtype)
    if not _dtypes.is_numeric(target):  # to strings, datetimes, ...: NumPy's own array
        return self._value("read").astype(target, order, casting, subok, copy)
    if casting == "same_value":
        np.asarray(self._value("control")).astype(target, casting="same_value")
    elif not np.can_cast(self.dtype, target, casting):
        raise TypeError(f"Cannot cast array data from {self.dtype!r} to {target!r} "
                        f"according to the rule {casting!r}")
    result = _ew.astype(self, target)
    fortran = order == "F" or (order == "A" and self.ndim > 1 and self.flags.f_contiguous
                               and not self.flags.c_contiguous)
    if fortran and self.ndim > 1 and (copy or not self.flags.f_contiguous):
        return result._copy_in("F")
    if order == "C" and self.ndim > 1 and not copy and not self.flags.c_contiguous:
        return result._copy_in("C")
    return Array(result._node, self._scalar) if copy and result is self else result


def view(self, dtype=None, type=None) -> Array:
    """`ndarray.view()`: a new handle on the same data (its base is this array's owner).
    Reinterpreting the bytes as another dtype is not supported lazily."""
    if type is not None or dtype is not None and _dtypes.as_dtype(dtype) != self.dtype:
        raise NotImplementedError("lazyarr: view() with another dtype or type is not "
                                  "supported; use astype (a copy) instead")
    return self._view_by(lambda x: x._node, lambda p, s: p.view())


def reshape(self, *shape, order: str = "C") -> Array:
    if len(shape) == 1 and not isinstance(shape[0], int):
        shape = shape[0]
    return _shapes.reshape(self, shape, order=order)


def transpose(self, *axes) -> Array:
    if len(axes) == 1 and (axes[0] is None or not isinstance(axes[0], int)):
        axes = axes[0]
    return _shapes.transpose(self, axes or None)


def flatten(self, order: str = "C") -> Array:
    return Array(_shapes.ravel(self, order)._node, scalar=False)


def mT(self) -> Array:
    if self.ndim < 2:
        raise ValueError("matrix transpose with ndim < 2 is undefined")
    return _shapes.swapaxes(self, -1, -2)


def sort(self, axis=-1, kind=None, order=None, *, stable=None) -> None:
    """Sort in place (through to the owner for a view)."""
    result = _sorting.sort(self, axis, kind, order, stable=stable)
    self._check_writeable()
    self._write(result._node)


# ----- reductions: NumPy's method signatures (out= included) ---------------------------------------

def sum(self, axis=None, dtype=None, out=None, keepdims=False, initial=None, where=True):
    return _red.sum(self, axis, dtype, out, keepdims, initial, where)


def prod(self, axis=None, dtype=None, out=None, keepdims=False, initial=None, where=True):
    return _red.prod(self, axis, dtype, out, keepdims, initial, where)


def mean(self, axis=None, dtype=None, out=None, keepdims=False, *, where=True):
    return _red.mean(self, axis, dtype, out, keepdims, where=where)


def var(self, axis=None, dtype=None, out=None, ddof=0, keepdims=False, *, where=True,
        mean=None, correction=None):
    return _red.var(self, axis, dtype, out, ddof, keepdims, where=where, mean=mean,
                    correction=correction)


def std(self, axis=None, dtype=None, out=None, ddof=0, keepdims=False, *, where=True,
        mean=None, correction=None):
    return _red.std(self, axis, dtype, out, ddof, keepdims, where=where, mean=mean,
                    correction=correction)


def max(self, axis=None, out=None, keepdims=False, initial=None, where=True):
    return _red.max(self, axis, out, keepdims, initial, where)


def min(self, axis=None, out=None, keepdims=False, initial=None, where=True):
    return _red.min(self, axis, out, keepdims, initial, where)


def argmax(self, axis=None, out=None, *, keepdims=False):
    return _red.argmax(self, axis, out, keepdims=keepdims)


def argmin(self, axis=None, out=None, *, keepdims=False):
    return _red.argmin(self, axis, out, keepdims=keepdims)


def any(self, axis=None, out=None, keepdims=False, *, where=True):
    return _red.any(self, axis, out, keepdims, where=where)


def all(self, axis=None, out=None, keepdims=False, *, where=True):
    return _red.all(self, axis, out, keepdims, where=where)


def cumsum(self, axis=None, dtype=None, out=None):
    return _red.cumsum(self, axis, dtype, out)


def cumprod(self, axis=None, dtype=None, out=None):
    return _red.cumprod(self, axis, dtype, out)


def imatmul(self, other):
    if self._scalar:  # NumPy's scalars have no @ (nor @=): Python falls back to __matmul__
        return NotImplemented
    return write_out(self, _products.matmul(self, other), "matmul")


# name -> function taking the array first (properties are marked in PROPERTIES).
METHODS = {
    "astype": astype, "view": view, "reshape": reshape, "transpose": transpose,
    "ravel": lambda self, order="C": _shapes.ravel(self, order),
    "flatten": flatten,
    "squeeze": lambda self, axis=None: _shapes.squeeze(self, axis),
    "swapaxes": lambda self, axis1, axis2: _shapes.swapaxes(self, axis1, axis2),
    "diagonal": lambda self, offset=0, axis1=0, axis2=1: _shapes.diagonal_view(
        self, offset, axis1, axis2),
    "repeat": lambda self, repeats, axis=None: _manip.repeat(self, repeats, axis),
    "trace": lambda self, offset=0, axis1=0, axis2=1, dtype=None: _products.trace(
        self, offset, axis1, axis2, dtype),
    "dot": lambda self, other: _products.dot(self, other),
    "conj": lambda self: _ew.conjugate(self),
    "conjugate": lambda self: _ew.conjugate(self),
    "round": lambda self, decimals=0: _ew.round(self, decimals),
    "clip": lambda self, min=None, max=None: _ew.clip(self, min, max),
    "nonzero": lambda self: _idx.nonzero(self),
    "fill": lambda self, value: _mutation.fill(self, value),
    "put": lambda self, indices, values, mode="raise": _mutation.put(self, indices, values,
                                                                      mode),
    "sort": sort,
    "sum": sum, "prod": prod, "mean": mean, "var": var, "std": std, "max": max,
    "min": min, "argmax": argmax, "argmin": argmin, "any": any, "all": all,
    "cumsum": cumsum, "cumprod": cumprod,
    "__getitem__": lambda self, key: _idx.getitem(self, key),
    "__setitem__": lambda self, key, value: _idx.setitem(self, key, value),
    # A NumPy scalar has no @: `s @ x` is the other operand's (ndarray.__rmatmul__'s
    # ValueError), else Python's TypeError.
    "__matmul__": lambda self, other: (_products.matmul(self, other) if is_operand(other)
                                       and (not self._scalar or isinstance(other, Array)
                                            and not other._scalar) else NotImplemented),
    "__rmatmul__": lambda self, other: (_products.matmul(other, self) if is_operand(other)
                                        and not self._scalar else NotImplemented),
    "__imatmul__": imatmul,
    "__divmod__": lambda self, other: (_ew.divmod(self, other) if is_operand(other)
                                       else NotImplemented),
    "__rdivmod__": lambda self, other: (_ew.divmod(other, self) if is_operand(other)
                                        else NotImplemented),
    "__neg__": lambda self: _ew.negative(self),
    "__pos__": lambda self: _ew.positive(self),
    "__abs__": lambda self: _ew.absolute(self),
    "__invert__": lambda self: _ew.invert(self),
    "__array_ufunc__": lambda self, ufunc, method, *inputs, **kwargs: _dispatch.array_ufunc(
        ufunc, method, inputs, kwargs),
    "__array_function__": lambda self, func, types, args, kwargs: _dispatch.array_function(
        func, types, args, kwargs),
}

PROPERTIES = {
    "T": lambda self: _shapes.transpose(self),
    "mT": mT,
    "real": lambda self: _ew.real(self),
    "imag": lambda self: _ew.imag(self),
    # jax's functional updates: `x.at[idx].set(v)` (also add, subtract, multiply,
    # divide, power, min, max, get) returns a new array; `x` is unchanged.
    "at": lambda self: _mutation.AtIndexer(self),
    # How the computed buffer is split over the devices (see lazyarr.shard).
    "sharding": lambda self: _namespace.sharding_of(self),
}



def _set_part(part: str):
    """`x.real = v`, `x.imag = v`: a write into the part's view, as NumPy's setters;
    a real array has no imaginary part to set (NumPy's TypeError)."""
    def setter(self, value):
        if self._scalar:
            raise AttributeError(f"attribute '{part}' of 'numpy.generic' objects is not "
                                 "writable")
        if part == "imag" and not _dtypes.is_complex(self.dtype):
            raise TypeError("array does not have imaginary part to set")
        getattr(_ew, part)(self)[...] = value
    return setter


SETTERS = {"real": _set_part("real"), "imag": _set_part("imag")}

# Arithmetic, bitwise and comparison operators, reflected and in place: (operator
# name, ufunc name).
BINARY = {"add": "add", "sub": "subtract", "mul": "multiply", "truediv": "divide",
          "floordiv": "floor_divide", "mod": "remainder", "pow": "power",
          "and": "bitwise_and", "or": "bitwise_or", "xor": "bitwise_xor",
          "lshift": "left_shift", "rshift": "right_shift"}
COMPARISONS = {"eq": "equal", "ne": "not_equal", "lt": "less", "le": "less_equal",
               "gt": "greater", "ge": "greater_equal"}


_COMMON_OPERANDS = frozenset([Array, builtins.float, builtins.int])


def _forward(ufunc):
    def other_types(self, other):
        return ufunc(self, other) if is_operand(other) else NotImplemented

    if isinstance(ufunc, _ew.ufunc) and ufunc._fast == 2:
        return _ew.binary_operator(ufunc, False, other_types)

    def op(self, other):
        return ufunc(self, other) if type(other) in _COMMON_OPERANDS else \
            other_types(self, other)
    return op


# Python's complex arithmetic takes a float: NumPy's float64 scalar is one (a subclass
# of float), so `1j * a.sum()` is Python's complex (weak in later operations), and
# `1j / zero` Python's ZeroDivisionError.
_PYTHON_COMPLEX_OPS = {"add": operator.add, "subtract": operator.sub,
                       "multiply": operator.mul, "divide": operator.truediv,
                       "power": operator.pow}


def _reflected(ufunc, name: str):
    python_op = _PYTHON_COMPLEX_OPS.get(name)

    def other_types(self, other):  # (not complex: Python's rule above)
        if python_op is not None and type(other) is builtins.complex and self._scalar \
                and self.dtype == np.float64:
            return python_op(other, float(self._python_value()))
        return ufunc(other, self) if is_operand(other) else NotImplemented

    if isinstance(ufunc, _ew.ufunc) and ufunc._fast == 2:
        return _ew.binary_operator(ufunc, True, other_types)

    def op(self, other):
        return ufunc(other, self) if type(other) in _COMMON_OPERANDS else \
            other_types(self, other)
    return op


def _inplace(ufunc, name: str):
    def op(self, other):
        if not self._scalar:  # NumPy refuses a read-only output before anything else
            self._check_writeable("output array is read-only")
            if _shared.EXPORTED and _shared.buffer_if_exported(self) is not None \
                    and isinstance(ufunc, _ew.ufunc):  # NumPy's ufunc into its buffer
                return ufunc(self, other, out=self)
        try:
            result = ufunc(self, other)
        except ValueError:  # NumPy checks the output cast before the shapes
            _check_output_cast(name, self, other)
            raise
        # A NumPy scalar is immutable: `s += 1` binds `s` to a new scalar.
        return result if self._scalar else write_out(self, result, name)
    return op


def _check_output_cast(name: str, target: Array, other) -> None:
    """NumPy's UFuncTypeError when `target op= other` cannot cast its result back."""
    if type(other) in (builtins.bool, builtins.int, builtins.float, builtins.complex):
        stand_in = other
    else:
        stand_in = np.zeros((), getattr(other, "dtype", None) or np.asarray(other).dtype)
    with np.errstate(all="ignore"):
        try:
            result = getattr(np, name)(np.zeros((), target.dtype), stand_in)
        except ValueError:  # the loop's own error (bool ** -1): its dtypes decide
            result = np.empty((), getattr(np, name).resolve_dtypes(
                (target.dtype, type(stand_in) if stand_in is other else stand_in.dtype,
                 None))[-1])
        except (TypeError, OverflowError):
            return
    if not np.can_cast(result.dtype, target.dtype, "same_kind"):
        raise_casting_error(name, result.dtype, target.dtype, "same_kind")


def _equality(ufunc, answer: bool):
    def op(self, other):
        if is_operand(other):
            return ufunc(self, other)
        if not _is_plain_object(other):
            return NotImplemented
        # NumPy compares each element with a non-numeric object: all unequal. A NumPy
        # scalar answers a string with np.bool_, other objects with a Python bool.
        if self._scalar and not isinstance(other, (str, bytes)):
            return answer
        return Array(full_node(answer, self.shape, np.dtype(bool)))
    return op


def _is_plain_object(value) -> bool:
    """A str, bytes, None or object that no array protocol claims."""
    return not builtins.any(hasattr(type(value), name) for name in
                   ("__array__", "__array_ufunc__", "__array_function__",
                    "__array_interface__", "__array_namespace__"))


_FAST_POWERS = {(builtins.float, 0.5): "sqrt", (builtins.int, -1): "reciprocal",
                (builtins.int, 2): "square"}


def _power_operator(self, other):
    """`x ** e` as ndarray.__pow__: for an inexact array and the Python exponent 0.5, -1
    or 2, NumPy computes sqrt, reciprocal or square, exact where the general power is
    not ((-3+0j) ** 0.5 is 1.7320508j; sqrt(-inf) is NaN and sqrt(-0.0) -0.0, where pow
    gives inf and 0.0, and XLA's pow was an ulp off sqrt on 11% of float16 values); an
    array of any dtype ** 2 is its square (bool ** 2 is int8). A real NumPy scalar's is
    a power, as is a bfloat16 array's (ml_dtypes' kind is "V", not NumPy's float)."""
    if isinstance(self, Array) and type(other) in (builtins.int, builtins.float):
        fast = _FAST_POWERS.get((type(other), other))
        if fast == "square" and not self._scalar:  # for every dtype: bool ** 2 is int8
            return _ew.square(self)
        if fast is not None and (_dtypes.is_complex(self.dtype)
                                 or not self._scalar and self.dtype.kind == "f"):
            return getattr(_ew, fast)(self)
    return _ew.power(self, other)


_ORDER = {"lt": ("less", "less"), "le": ("less", "less_equal"),
          "gt": ("greater", "greater"), "ge": ("greater", "greater_equal")}
_ORDER_NAMES = {"less": "lt", "less_equal": "le", "greater": "gt", "greater_equal": "ge"}
_PYTHON_SCALARS = (builtins.bool, builtins.int, builtins.float, builtins.complex)


def _ordering(ufunc_name: str, compare):
    """`<`, `<=`, `>`, `>=` of a result standing for a NumPy complex scalar with a
    scalar: NumPy's scalar arithmetic, which orders (real, imag) lexicographically
    with no NaN rule (`np.complex128(complex(inf, nan)) > 0` is True), where its
    ufunc (for arrays) is False whenever a part is NaN. It applies when the
    comparison's dtype is the complex scalar's own."""
    strict, last = _ORDER[_ORDER_NAMES[ufunc_name]]

    def op(self, other):
        if self._scalar and (type(other) in _PYTHON_SCALARS or isinstance(other, np.generic)
                             or isinstance(other, Array) and other._scalar):
            python = type(other) in _PYTHON_SCALARS
            operand = other if python else _ew.as_array(other)
            dtype = _dtypes.result_type(self, operand)
            # (a NumPy bool on the left has no scalar comparisons: its ufunc's order)
            if _dtypes.is_complex(dtype) and (self.dtype == dtype or not python
                                              and operand.dtype == dtype
                                              and not _dtypes.is_bool(self.dtype)):
                x = _ew.astype(self, dtype)
                # (a Python float past complex64's range is inf, without NumPy's warning)
                y = _ew.astype(_ew.as_array(_eager.call(np.array, other, dtype)) if python
                               else operand, dtype)
                xr, xi, yr, yi = _ew.real(x), _ew.imag(x), _ew.real(y), _ew.imag(y)
                return getattr(_ew, strict)(xr, yr) | (_ew.equal(xr, yr) &
                                                       getattr(_ew, last)(xi, yi))
        return compare(self, other)
    return op


def install(cls=Array) -> None:
    """Attach the table to `cls`, naming each function after its attribute."""
    for name, fn in METHODS.items():
        fn.__name__ = fn.__qualname__ = name
        setattr(cls, name, fn)
    for name, fn in PROPERTIES.items():
        fn.__name__ = fn.__qualname__ = name
        setattr(cls, name, property(fn, SETTERS.get(name)))
    for name, ufunc_name in BINARY.items():
        ufunc = _power_operator if name == "pow" else getattr(_ew, ufunc_name)
        setattr(cls, f"__{name}__", _forward(ufunc))
        setattr(cls, f"__r{name}__", _reflected(ufunc, ufunc_name))
        setattr(cls, f"__i{name}__", _inplace(ufunc, ufunc_name))
    for name, ufunc_name in COMPARISONS.items():
        compare = _forward(getattr(_ew, ufunc_name))
        setattr(cls, f"__{name}__", _ordering(ufunc_name, compare) if name in _ORDER else
                compare)
    cls.__eq__ = _equality(_ew.equal, False)
    cls.__ne__ = _equality(_ew.not_equal, True)


install()
