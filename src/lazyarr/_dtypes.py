"""Dtypes, their categories, and NumPy 2 promotion with NEP 50 weak Python scalars.

lazyarr's dtypes are NumPy's own `np.dtype` objects (plus ml_dtypes' bfloat16 and
float8 types), so `x.dtype == np.float64` and `x.dtype.itemsize` work unchanged.
Promotion between dtypes is NumPy's own table (`np.promote_types`); what this module
adds is the NEP 50 rule for Python scalars, which NumPy applies only inside its ufuncs.
"""

from __future__ import annotations

import builtins

import numpy as np

bool_ = np.dtype(np.bool_)
int8, int16, int32, int64 = (np.dtype(t) for t in (np.int8, np.int16, np.int32, np.int64))
uint8, uint16, uint32, uint64 = (np.dtype(t) for t in (np.uint8, np.uint16, np.uint32, np.uint64))
float16, float32, float64 = (np.dtype(t) for t in (np.float16, np.float32, np.float64))
complex64, complex128 = np.dtype(np.complex64), np.dtype(np.complex128)
# ml_dtypes' bfloat16 and float8 types (`bfloat16`, `float8_e4m3fn`, `float8_e5m2` here)
# are loaded when first asked for (see `__getattr__`): importing ml_dtypes takes longer
# than importing NumPy, and a user holding such a dtype has imported it already.
_ML_NAMES = ("bfloat16", "float8_e4m3fn", "float8_e5m2")


class _MlFloats:
    """The set of ml_dtypes' floating dtypes, told by their names without importing
    ml_dtypes (NumPy gives some of them kind 'V'; lazyarr treats them all as floats)."""

    def __init__(self):
        self._known: dict = {}  # dtype -> whether it is one (dtype.name took 7 us a call)

    def __contains__(self, dtype) -> bool:
        if not isinstance(dtype, np.dtype):
            return False
        known = self._known.get(dtype)
        if known is None:
            if len(self._known) > 1024:  # (structured dtypes are many)
                self._known.clear()
            known = self._known[dtype] = dtype.name in _ML_NAMES
        return known


ML_FLOATS = _MlFloats()


def __getattr__(name: str):
    if name in _ML_NAMES:
        import ml_dtypes
        value = np.dtype(getattr(ml_dtypes, name))
        globals()[name] = value
        return value
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")

SIGNED = (int8, int16, int32, int64)
UNSIGNED = (uint8, uint16, uint32, uint64)
FLOATS = (float16, float32, float64)
COMPLEXES = (complex64, complex128)

intp = np.dtype(np.intp)

# Python scalar types, ordered by NEP 50 "kind" rank.
_KIND_RANK = {"b": 0, "u": 1, "i": 1, "f": 2, "c": 3}
_WEAK_RANK = {builtins.bool: 0, builtins.int: 1, builtins.float: 2, builtins.complex: 3}
_WEAK_DEFAULT = {builtins.bool: bool_, builtins.int: int64, builtins.float: float64,
                 builtins.complex: complex128}


def as_dtype(dtype) -> np.dtype:
    """`np.dtype(dtype)`, NumPy's own parsing and TypeError for what it rejects."""
    if isinstance(dtype, np.dtype):
        return dtype
    return np.dtype(dtype)


def kind(dtype: np.dtype) -> str:
    """'b', 'i', 'u', 'f' or 'c' (ml_dtypes floats count as 'f'); other kinds as NumPy's."""
    if dtype in ML_FLOATS:
        return "f"
    return dtype.kind


def is_bool(dtype) -> bool:
    return kind(dtype) == "b"


def is_integer(dtype) -> bool:
    return kind(dtype) in "iu"


def is_floating(dtype) -> bool:
    return kind(dtype) == "f"


def is_complex(dtype) -> bool:
    return kind(dtype) == "c"


def is_inexact(dtype) -> bool:
    return kind(dtype) in "fc"


def is_numeric(dtype) -> bool:
    return kind(dtype) in "biufc"


def real_dtype(dtype: np.dtype) -> np.dtype:
    """The real counterpart of a complex dtype (complex64 -> float32); others unchanged."""
    if dtype == complex64:
        return float32
    if dtype == complex128:
        return float64
    return dtype


def to_inexact(dtype: np.dtype) -> np.dtype:
    """The float dtype NumPy computes means in: float64 for bool and integers."""
    return dtype if is_inexact(dtype) else float64


def promote_weak(strong: np.dtype, weak_type: type) -> np.dtype:
    """The dtype of `strong` combined with a Python scalar type under NEP 50."""
    weak_rank = _WEAK_RANK[weak_type]
    if weak_rank <= _KIND_RANK.get(kind(strong), 3):
        return strong
    if weak_type is builtins.complex and kind(strong) == "f":
        return complex128 if strong == float64 else complex64
    return _WEAK_DEFAULT[weak_type]


def result_type(*operands) -> np.dtype:
    """`np.result_type` over dtypes, arrays and scalars, with NEP 50 weak Python scalars.

    Python bool/int/float/complex values are weak: they take the other operands' dtype
    when its kind can hold them (`uint8 + 300` is uint8, NumPy then raises
    OverflowError on the value); NumPy scalars and arrays are strong.
    """
    strong: np.dtype | None = None
    weak_types: list[type] = []
    for op in operands:
        if type(op) in _WEAK_RANK:
            weak_types.append(type(op))
            continue
        dt = dtype_of(op)
        strong = dt if strong is None else np.promote_types(strong, dt)
    if strong is None:
        return _WEAK_DEFAULT[max(weak_types, key=_WEAK_RANK.__getitem__)]
    for wt in weak_types:
        strong = promote_weak(strong, wt)
    return strong


def can_cast(from_, to, casting: str = "safe") -> bool:
    """`np.can_cast` between dtypes (Python scalars are not accepted, as in NumPy 2)."""
    if type(from_) in _WEAK_RANK:
        raise TypeError("can_cast() does not support Python int, float or complex; "
                        "use a dtype or an array instead")
    return bool(np.can_cast(dtype_of(from_), as_dtype(to), casting=casting))


def check_weak_int_fits(value: int, dtype: np.dtype, func: str) -> None:
    """NumPy 2's OverflowError for a Python int that the integer dtype cannot hold."""
    if type(value) is builtins.int and is_integer(dtype):
        info = np.iinfo(dtype)
        if not info.min <= value <= info.max:
            raise OverflowError(f"{func}: Python integer {value} out of bounds for {dtype}")


def dtype_of(value) -> np.dtype:
    """The dtype of an array (lazyarr's or NumPy's) or scalar, or `value` read as a dtype
    (a dtype, a scalar type such as np.float32, a name). A scalar type's `dtype`
    attribute is a descriptor, not a dtype, so types are read as dtypes first."""
    if isinstance(value, np.dtype):
        return value
    if not isinstance(value, type):
        dt = getattr(value, "dtype", None)
        if isinstance(dt, np.dtype):
            return dt
    return as_dtype(value)


def isdtype(dtype, kind) -> bool:
    """`np.isdtype` (the Array API's kinds: "bool", "signed integer", "unsigned integer",
    "integral", "real floating", "complex floating", "numeric", a dtype, or a tuple of
    these), with ml_dtypes' floats counted as real floating, which NumPy does not know."""
    if isinstance(dtype, type) and issubclass(dtype, np.generic):
        dtype = np.dtype(dtype)  # NumPy wants a dtype; a scalar type names one
    if isinstance(dtype, np.dtype) and dtype in ML_FLOATS:
        kinds = kind if isinstance(kind, tuple) else (kind,)
        return any(k in ("real floating", "numeric") or k == dtype for k in kinds)
    return bool(np.isdtype(dtype, kind))


def finfo(dtype):
    dt = dtype_of(dtype)
    if dt in ML_FLOATS:
        import ml_dtypes
        return ml_dtypes.finfo(dt)
    return np.finfo(dt)


def iinfo(dtype):
    return np.iinfo(dtype_of(dtype))
