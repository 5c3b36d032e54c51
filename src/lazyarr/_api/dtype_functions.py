"""Dtype, scalar and memory-order helpers: `min_scalar_type`, `common_type`,
`mintypecode`, `promote_types`, `issubdtype`, `isscalar`, `iterable`, `typename`,
`base_repr`, `binary_repr`, `isfortran`, `ascontiguousarray`, `asfortranarray`,
`require` and `asarray_chkfinite`.

These read dtypes, Python values and layouts, not array data. NumPy's own function is
published where it gives NumPy's answer for lazyarr arrays too (`iterable`, `typename`,
`binary_repr`); the others read a lazyarr array's dtype, its `_scalar` flag (a 0-d
result NumPy would return as a scalar) or its flags (owners are C-contiguous; views
and copies made in Fortran order have NumPy's strides) and apply NumPy's rule. Data is
read only where NumPy's answer depends on it: `min_scalar_type` of a 0-d array (its
value), `base_repr` of a 0-d array (its value) and `asarray_chkfinite` (one flush to
test that every value is finite).
"""

from __future__ import annotations

import numpy as np

from .. import _dtypes
from . import export
from .common import Array, host
from .creation import asarray
from .elementwise import isfinite
from .reductions import all as all_

for _numpy_function in (np.iterable, np.typename, np.binary_repr):
    export(_numpy_function)

# NumPy's spellings of the flags `require` takes (numpy/_core/_asarray.py).
_REQUIREMENTS = {"C": "C", "C_CONTIGUOUS": "C", "CONTIGUOUS": "C", "F": "F",
                 "F_CONTIGUOUS": "F", "FORTRAN": "F", "A": "A", "ALIGNED": "A",
                 "W": "W", "WRITEABLE": "W", "O": "O", "OWNDATA": "O", "E": "E",
                 "ENSUREARRAY": "E"}


def _dtype_like(value, func: str):
    """`value` as NumPy's dtype functions take it: an array is not a dtype (NumPy
    would otherwise read a lazyarr array's `dtype` attribute)."""
    if isinstance(value, Array):
        raise TypeError(f"{func}: Cannot construct a dtype from an array")
    return value


@export
def promote_types(type1, type2):
    """NumPy's promote_types (ml_dtypes' types included, as NumPy knows them)."""
    return np.promote_types(_dtype_like(type1, "promote_types"),
                            _dtype_like(type2, "promote_types"))


@export
def issubdtype(arg1, arg2) -> bool:
    """NumPy's issubdtype, with ml_dtypes' floats (bfloat16, float8) under np.floating,
    np.inexact and np.number, as lazyarr counts them (NumPy knows only np.generic)."""
    arg1 = _dtype_like(arg1, "issubdtype")
    try:
        first = np.dtype(arg1)
    except TypeError:
        first = None  # NumPy's own error follows
    if first in _dtypes.ML_FLOATS and arg2 in (np.floating, np.inexact, np.number):
        return True
    return bool(np.issubdtype(arg1, arg2))


@export
def isscalar(element) -> bool:
    """NumPy's isscalar: a 0-d lazyarr result that NumPy returns as a NumPy scalar
    (np.float64(3.0) from a reduction) is one; arrays, 0-d included, are not."""
    if isinstance(element, Array):
        return element._scalar
    return bool(np.isscalar(element))


@export
def min_scalar_type(a, /):
    """NumPy's min_scalar_type: an array of one or more dimensions keeps its dtype;
    a 0-d array or scalar gives the smallest dtype that holds its value (read here)."""
    if isinstance(a, Array):
        if a.ndim:
            return a.dtype
        a = host(a, "control")
    return np.min_scalar_type(a)


@export
def common_type(*arrays):
    """NumPy's common_type, from the arrays' dtypes alone: the float or complex scalar
    type of the widest precision (integers count as float64)."""
    return np.common_type(*(np.empty(0, a.dtype) for a in arrays))


@export
def mintypecode(typechars, typeset="GDFgdf", default="d"):
    """NumPy's mintypecode; a lazyarr array stands for its dtype's character."""
    return np.mintypecode([t.dtype.char if isinstance(t, Array) else t for t in typechars],
                          typeset, default)


@export
def base_repr(number, base=2, padding=0):
    """NumPy's base_repr; a lazyarr array's value is read once."""
    return np.base_repr(number.item() if isinstance(number, Array) else number, base,
                        padding)


# ----- memory order ----------------------------------------------------------------

@export
def isfortran(a) -> bool:
    """Whether `a` is Fortran-contiguous and not C-contiguous (NumPy's `flags.fnc`)."""
    if isinstance(a, Array):
        return a.flags.f_contiguous and not a.flags.c_contiguous
    return bool(np.isfortran(a))


@export
def ascontiguousarray(a, dtype=None, *, like=None):
    """`a` as an array of at least one dimension laid out in C order: itself when it
    already is (a 0-d array: a 1-d view of it), else a C-ordered copy."""
    x = asarray(a, dtype)
    if x.ndim == 0:
        return x.reshape(1)
    return x if x.flags.c_contiguous else x._copy_in("C")


@export
def asfortranarray(a, dtype=None, *, like=None):
    """`a` as an array of at least one dimension laid out in Fortran order: itself when
    it already is (a 0-d array: a 1-d view of it), else a copy whose flags and views
    are NumPy's Fortran-order ones."""
    x = _converted(a, dtype)
    if x.ndim == 0:
        return x.reshape(1)
    return x if x.flags.f_contiguous else x._copy_in("F")


def _converted(a, dtype):
    """NumPy's asanyarray(a, dtype): a conversion keeps a Fortran-ordered layout."""
    x = asarray(a)
    converted = asarray(x, dtype)
    return converted._copy_in("F") if converted is not x and isfortran(x) else converted


@export
def require(a, dtype=None, requirements=None, *, like=None):
    """NumPy's require: `a` as an array (of `dtype`), copied only if it does not meet
    the `requirements` ("C"/"F" contiguous, "W" writeable, "O" owning its data, "A"
    aligned, "E" a base-class array; any spelling NumPy takes)."""
    x = _converted(a, dtype)
    if not requirements:
        return x
    wanted = {_REQUIREMENTS[r.upper()] for r in requirements} - {"E"}
    if {"C", "F"} <= wanted:
        raise ValueError('Cannot specify both "C" and "F" order')
    order = "C" if "C" in wanted else "F" if "F" in wanted else "A"
    if order != "A" and not x.flags[order]:
        x = x._copy_in(order)
    if any(not x.flags[flag] for flag in wanted - {"C", "F"}):
        return x._copy_in("F" if order == "F" or (order == "A" and isfortran(x)) else "C")
    return x


@export
def asarray_chkfinite(a, dtype=None, order=None):
    """`a` as an array (of `dtype`); ValueError if it holds an infinity or NaN. The
    check reads the data (one flush of an all(isfinite) reduction); the array returned
    is the lazy one. ml_dtypes' floats are checked too, as lazyarr counts them floats."""
    x = asarray(a, dtype)
    if _dtypes.is_inexact(x.dtype):
        if not all_(isfinite(x)):
            raise ValueError("array must not contain infs or NaNs")
    return x
