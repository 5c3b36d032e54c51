"""The machinery of lazyarr.array_api (see its docstring): StandardArray, the
wrappers that make results StandardArrays, and the functions where the standard and
NumPy conflict."""


from __future__ import annotations

import dataclasses
import functools
import sys

import numpy as np

from .. import _dtypes
from .._api import elementwise as _ew
from .._api.common import apply, astype, full_node, wrap, write_out
from .._api.methods import is_operand as _is_operand
from .._array import Array

VERSIONS = ("2021.12", "2022.12", "2023.12", "2024.12", "2025.12")


class StandardArray(Array):
    """A lazyarr array whose operators follow the Array API standard (see the module)."""

    __slots__ = ()

    def __array_namespace__(self, api_version=None):
        return namespace(api_version)


def _standard_floordiv(self, other):
    return floor_divide(self, other) if _is_operand(other) else NotImplemented


def _standard_rfloordiv(self, other):
    return floor_divide(other, self) if _is_operand(other) else NotImplemented


def _standard_ifloordiv(self, other):
    result = floor_divide(self, other)
    return result if self._scalar else write_out(self, result, "floor_divide")


def _install_methods() -> None:
    """StandardArray's `//` follows the standard; its other operators and methods are
    lazyarr's, with their array results made StandardArrays."""
    def returning_standard(method):
        @functools.wraps(method)
        def standard_method(self, *args, **kwargs):
            return standardized(method(self, *args, **kwargs))
        return standard_method

    for name, attr in vars(Array).items():
        if name in ("__floordiv__", "__rfloordiv__", "__ifloordiv__"):
            continue
        if isinstance(attr, property) and name in ("T", "mT", "real", "imag"):
            setattr(StandardArray, name, property(returning_standard(attr.fget)))
        elif callable(attr) and (name in _ARRAY_DUNDERS or not name.startswith("_")):
            setattr(StandardArray, name, returning_standard(attr))
    StandardArray.__floordiv__ = _standard_floordiv
    StandardArray.__rfloordiv__ = _standard_rfloordiv
    StandardArray.__ifloordiv__ = _standard_ifloordiv
    StandardArray.__setitem__ = _standard_setitem


def _standard_setitem(self, key, value) -> None:
    """The standard has no scalars: a 0-d result is an array one can assign into
    (scipy's `xpx.at(r, mask).set(nan)` in stats.pearsonr)."""
    if self._scalar:
        self._scalar = False
        if self._layout is not None and self._layout.base is None:
            self._layout.writeable = True
    Array.__setitem__(self, key, value)


_ARRAY_DUNDERS = {f"__{prefix}{op}__" for prefix in ("", "r", "i") for op in (
    "add", "sub", "mul", "truediv", "mod", "pow", "and", "or", "xor", "lshift", "rshift",
    "matmul", "divmod")} | {f"__{op}__" for op in (
        "eq", "ne", "lt", "le", "gt", "ge", "neg", "pos", "abs", "invert", "getitem",
        "copy", "deepcopy")}


def standardized(value, inputs=()):
    """`value` with each lazyarr array in it (also inside tuples and lists) made a
    StandardArray; an array that is one of `inputs` is replaced by a view of it, so
    the caller's array keeps its own kind."""
    if isinstance(value, Array):
        if type(value) is Array:
            if any(value is x for x in inputs):
                value = value._view_by(lambda x: x._node, lambda probe, shape: probe[...])
            value.__class__ = StandardArray
        return value
    if isinstance(value, list):
        return [standardized(v, inputs) for v in value]
    if isinstance(value, tuple):
        items = [standardized(v, inputs) for v in value]
        return type(value)(*items) if hasattr(value, "_fields") else tuple(items)
    return value


class Standardized:
    """A lazyarr function (or ufunc) whose array results are StandardArrays; a ufunc's
    methods (`reduce`, `outer`, ...) are wrapped the same way."""

    def __init__(self, func):
        self.__wrapped__ = func
        functools.update_wrapper(self, func, updated=())

    def __call__(self, *args, **kwargs):
        return standardized(self.__wrapped__(*args, **kwargs), _top_level(args, kwargs))

    def __getattr__(self, name):
        attr = getattr(self.__wrapped__, name)
        return Standardized(attr) if callable(attr) and not isinstance(attr, type) else attr

    def __repr__(self) -> str:
        return repr(self.__wrapped__)


def _top_level(args, kwargs) -> list:
    """The arguments a function might hand back unchanged, lists' items included."""
    found = []
    for a in (*args, *kwargs.values()):
        found.extend(a if isinstance(a, (list, tuple)) else (a,))
    return found


# ----- the conflicts ------------------------------------------------------------------

def floor_divide(x1, x2, /):
    """The standard's floor_divide: NumPy's, except that with exactly one infinite
    operand (and no NaN) the result is x1 / x2 rounded as the standard says, which is
    the true quotient itself there: +-inf or +-0."""
    result = _ew.floor_divide(x1, x2)
    if not _dtypes.is_floating(result.dtype):
        return standardized(result)
    one_infinite = _ew.not_equal(_ew.isinf(x1), _ew.isinf(x2))
    return standardized(_ew.where_(one_infinite, _ew.divide(x1, x2), result))


def expm1(x, /):
    """The standard's expm1: NumPy's, except the complex special cases that NumPy
    leaves NaN: expm1(+inf+0j) = inf+0j, expm1(-inf + (inf or NaN)j) = -1+0j,
    expm1(+inf + (inf or NaN)j) = inf+NaNj, expm1(NaN+0j) = NaN+0j, and
    expm1(+-0+0j) = +0+0j (the imaginary zero keeps its sign, by the standard's
    conjugate symmetry)."""
    result = _ew.expm1(x)
    if not _dtypes.is_complex(result.dtype):
        return standardized(result)
    re, im = _ew.real(x), _ew.imag(x)
    zero_im, bad_im = _ew.equal(im, 0), _ew.logical_not(_ew.isfinite(im))
    pos_inf, neg_inf = _ew.equal(re, np.inf), _ew.equal(re, -np.inf)
    return standardized(_with_cases(result, [
        (_ew.logical_and(_ew.equal(re, 0), zero_im), 0.0, im),
        (_ew.logical_and(pos_inf, zero_im), np.inf, im),
        (_ew.logical_and(neg_inf, bad_im), -1.0, 0.0),
        (_ew.logical_and(pos_inf, bad_im), np.inf, np.nan),
        (_ew.logical_and(_ew.isnan(re), zero_im), np.nan, im),
    ]))


def tanh(x, /):
    """The standard's tanh: NumPy's, except tanh(+-inf + yj) for finite y, which is
    +-1 + 0j with the sign of y on the zero; NumPy (C99) signs it as sin(2y)."""
    result = _ew.tanh(x)
    if not _dtypes.is_complex(result.dtype):
        return standardized(result)
    re, im = _ew.real(x), _ew.imag(x)
    return standardized(_with_cases(result, [
        (_ew.logical_and(_ew.isinf(re), _ew.isfinite(im)), _ew.sign(re),
         _ew.copysign(0.0, im)),
    ]))


def _with_cases(result: Array, cases) -> Array:
    """`result` where each case's condition holds replaced by the complex number of its
    real and imaginary parts (Python floats or real arrays); the first case wins."""
    shape, dtype = result.shape, _dtypes.real_dtype(result.dtype)
    for where, *parts in reversed(cases):
        nodes = [astype(p, dtype)._node if isinstance(p, Array)
                 else full_node(p, shape, dtype) for p in parts]
        result = _ew.where_(where, wrap(apply("complex", *nodes), False), result)
    return result


@dataclasses.dataclass(frozen=True)
class finfo_object:
    """The standard's finfo: Python floats, and the real dtype they describe."""
    bits: int
    eps: float
    max: float
    min: float
    smallest_normal: float
    dtype: np.dtype


def finfo(type, /):  # noqa: A002  (the standard's parameter name)
    """Machine limits of a floating dtype, as the standard asks: Python floats."""
    info = _dtypes.finfo(type)
    return finfo_object(int(info.bits), float(info.eps), float(info.max), float(info.min),
                        float(info.smallest_normal), np.dtype(info.dtype))


def clip(x, /, min=None, max=None):  # noqa: A002  (the standard's parameter names)
    """The standard's clip (NumPy's, with the standard's signature)."""
    return standardized(_ew.clip(x, min=min, max=max), (x,))


CONFLICTS = {f.__name__: f for f in (floor_divide, expm1, tanh, finfo, clip)}


# ----- the namespace ------------------------------------------------------------------

def copy_namespace(source: dict, target: dict, conflicts: dict) -> None:
    """Fill `target` from lazyarr's `source` registry: functions wrapped to return
    StandardArrays, the conflicts replaced."""
    for name, value in source.items():
        wrapped = value if isinstance(value, type) else Standardized(value)
        target[name] = conflicts.get(name) or wrapped


def namespace(api_version=None):
    """This module, for `api_version` None or any standard version up to 2025.12."""
    if api_version is not None and api_version not in VERSIONS:
        raise ValueError(f"unsupported Array API version {api_version!r}; lazyarr "
                         f"supports {', '.join(VERSIONS)}")
    return sys.modules[__package__]


def _array_namespace(self, api_version=None):
    """The Array API standard's namespace, `lazyarr.array_api`: lazyarr's own
    except where NumPy and the standard conflict."""
    return namespace(api_version)


Array.__array_namespace__ = _array_namespace


_install_methods()
