"""The op registry: every primitive defined once.

A primitive has a name, a shape rule and a dtype rule (run when a node is built, so
errors surface at the user's line), and a reference implementation: a NumPy callable
`ref(*arrays, **attrs)` that the NumPy backend runs and that defines the primitive's
meaning for every other backend. Static attributes are keyword arguments; they are
part of a program's cache key, so they must be hashable.

Public functions (in `_api/`) check their arguments, resolve dtypes and cast inputs,
then compose these primitives; a primitive's inputs always arrive in the dtypes its
rules expect.
"""

from __future__ import annotations

import functools
import math

import numpy as np

from . import _dtypes
from ._registry import OPS, Op, Shape, primitive, register  # noqa: F401  (OPS: re-exported)


def broadcast_shapes(*shapes: Shape) -> Shape:
    """NumPy's broadcasting of shapes; ValueError naming them when they do not match."""
    first = shapes[0] if shapes else ()
    if all(s == first for s in shapes):
        return first
    ndim = max((len(s) for s in shapes), default=0)
    out = [1] * ndim
    for s in shapes:
        for i, n in enumerate(s, ndim - len(s)):
            if n != 1:
                if out[i] not in (1, n):
                    raise ValueError("shape mismatch: objects cannot be broadcast to a single "
                                     "shape; shapes " + ", ".join(map(str, shapes)))
                out[i] = n
    return tuple(out)


def _same_shape(shapes, **_):
    return shapes[0]


def _same_dtype(dtypes, **_):
    return dtypes[0]


# ---------------------------------------------------------------------------------
# Leaves. An input's value (a buffer) is a runtime argument of the program.
register(Op("input", None, None, None))


# ---------------------------------------------------------------------------------
# Elementwise: one primitive per NumPy ufunc, named as NumPy names it. NumPy's loop
# resolution (`ufunc.resolve_dtypes`) is the dtype rule; the API casts inputs to the
# loop's input dtypes first, so these always run on the types NumPy would use.
# Each entry: ufunc name -> dtype category (what the operands may be), for docs,
# tests and backends.
UFUNCS: dict[str, str] = {
    # arithmetic
    "add": "numeric", "subtract": "numeric", "multiply": "numeric", "divide": "numeric",
    "floor_divide": "real", "remainder": "real", "fmod": "real", "power": "numeric",
    "float_power": "numeric", "negative": "numeric", "positive": "numeric",
    "absolute": "numeric", "fabs": "real", "sign": "numeric", "square": "numeric",
    "reciprocal": "numeric", "sqrt": "numeric", "cbrt": "real",
    "maximum": "numeric", "minimum": "numeric", "fmax": "numeric", "fmin": "numeric",
    "conjugate": "numeric", "heaviside": "real", "gcd": "integer", "lcm": "integer",
    # exponentials and logarithms
    "exp": "numeric", "exp2": "numeric", "expm1": "numeric", "log": "numeric",
    "log2": "numeric", "log10": "numeric", "log1p": "numeric", "logaddexp": "real",
    "logaddexp2": "real", "ldexp": "real",
    # trigonometric and hyperbolic
    "sin": "numeric", "cos": "numeric", "tan": "numeric", "arcsin": "numeric",
    "arccos": "numeric", "arctan": "numeric", "arctan2": "real", "hypot": "real",
    "sinh": "numeric", "cosh": "numeric", "tanh": "numeric", "arcsinh": "numeric",
    "arccosh": "numeric", "arctanh": "numeric", "deg2rad": "real", "rad2deg": "real",
    "degrees": "real", "radians": "real",
    # rounding and floating-point inspection
    "floor": "real", "ceil": "real", "trunc": "real", "rint": "numeric",
    "isnan": "numeric", "isinf": "numeric", "isfinite": "numeric", "signbit": "real",
    "copysign": "real", "nextafter": "real", "spacing": "real",
    "modf": "real", "frexp": "real",
    # comparison
    "equal": "any", "not_equal": "any", "less": "any", "less_equal": "any",
    "greater": "any", "greater_equal": "any",
    # logical
    "logical_and": "any", "logical_or": "any", "logical_xor": "any", "logical_not": "any",
    # bitwise
    "bitwise_and": "integer", "bitwise_or": "integer", "bitwise_xor": "integer",
    "invert": "integer", "left_shift": "integer", "right_shift": "integer",
    "bitwise_count": "integer",
}

# Ufuncs with two outputs are two primitives, selected by the `out` attribute.
MULTI_OUTPUT = {"modf": 2, "frexp": 2}


def _ufunc_shape(shapes, **_):
    return broadcast_shapes(*shapes)


def _ufunc_dtype_rule(ufunc: np.ufunc):
    @functools.lru_cache(maxsize=1024)
    def resolve(dtypes: tuple, out: int) -> np.dtype:
        return ufunc.resolve_dtypes(dtypes + (None,) * ufunc.nout)[ufunc.nin + out]

    def rule(dtypes, out=0):
        return resolve(tuple(dtypes), out)
    return rule


def _ufunc_ref(ufunc: np.ufunc):
    if ufunc.nout == 1:
        return ufunc
    return lambda *xs, out=0: ufunc(*xs)[out]


def _power_checks(dtypes, **_):
    """An integer power with a signed integer exponent raises for a negative one."""
    if np.dtype(dtypes[0]).kind in "iu" and np.dtype(dtypes[1]).kind == "i":
        return ((ValueError, "Integers to negative integer powers are not allowed."),)
    return ()


_UFUNC_CHECKS = {"power": _power_checks}

for _name in UFUNCS:
    _uf = getattr(np, _name)
    register(Op(_name, _ufunc_ref(_uf), _ufunc_shape, _ufunc_dtype_rule(_uf),
                _UFUNC_CHECKS.get(_name)))


# `real` and `imag` are not ufuncs in NumPy but are elementwise all the same.
@primitive("real", _same_shape, lambda d, **_: _dtypes.real_dtype(d[0]))
def _real(x):
    return np.real(x)


@primitive("imag", _same_shape, lambda d, **_: _dtypes.real_dtype(d[0]))
def _imag(x):
    return np.imag(x)


def _complex_dtype(dtypes, **_):
    return _dtypes.complex64 if dtypes[0] == _dtypes.float32 else _dtypes.complex128


@primitive("complex", _ufunc_shape, _complex_dtype)
def _complex(re, im):
    """re + im*j, exactly: NumPy's arithmetic would turn 0 * inf into a NaN. Both parts
    arrive as float32 or both as float64."""
    out = np.empty(np.broadcast_shapes(re.shape, im.shape), _complex_dtype([re.dtype]))
    out.real, out.imag = re, im
    return out


@primitive("select", _ufunc_shape, lambda d, **_: d[1])
def _select(cond, x, y):
    return np.where(cond, x, y)


@primitive("convert", _same_shape, lambda d, dtype: dtype)
def _convert(x, dtype):
    return x.astype(dtype)


# ---------------------------------------------------------------------------------
# Structural primitives: they move data, never change it.

@primitive("broadcast_to", lambda s, shape: shape, _same_dtype)
def _broadcast_to(x, shape):
    return np.broadcast_to(x, shape)


@primitive("reshape", lambda s, shape: shape, _same_dtype)
def _reshape(x, shape):
    return np.reshape(x, shape)


@primitive("transpose", lambda s, axes: tuple(s[0][a] for a in axes), _same_dtype)
def _transpose(x, axes):
    return np.transpose(x, axes)


def _slice_shape(shapes, starts, stops, steps):
    return tuple(len(range(a, b, c)) for a, b, c in zip(starts, stops, steps))


@primitive("slice", _slice_shape, _same_dtype)
def _slice(x, starts, stops, steps):
    # Normalized stops of -1 with a negative step mean "through index 0".
    return x[tuple(slice(a, None if b < 0 else b, c) for a, b, c in zip(starts, stops, steps))]


def _concatenate_shape(shapes, axis):
    first = shapes[0]
    return first[:axis] + (sum(s[axis] for s in shapes),) + first[axis + 1:]


@primitive("concatenate", _concatenate_shape, _same_dtype)
def _concatenate(*xs, axis):
    return np.concatenate(xs, axis=axis)


@primitive("iota", lambda s, shape, dtype, axis: shape, lambda d, shape, dtype, axis: dtype)
def _iota(shape, dtype, axis):
    ramp = np.arange(shape[axis], dtype=dtype)
    return np.broadcast_to(ramp.reshape((-1,) + (1,) * (len(shape) - axis - 1)), shape)


def _take_shape(shapes, axis):
    x, idx = shapes
    return x[:axis] + idx + x[axis + 1:]


@primitive("take", _take_shape, _same_dtype)
def _take(x, indices, axis):
    return np.take(x, indices, axis=axis)


CORRELATE_MODES = ("valid", "same", "full")


def _correlate_shape(shapes, mode):
    n1, n2 = shapes[0][0], shapes[1][0]
    return ((n1 - n2 + 1, n1, n1 + n2 - 1)[mode],)


@primitive("correlate", _correlate_shape, _same_dtype)
def _correlate1d(a, v, mode):
    """out[k] = sum_j a[k + j - n_left] v[j] (no conjugation: the caller conjugates), for
    1-d a, v of one inexact dtype with len(a) >= len(v); `mode` indexes CORRELATE_MODES.
    NumPy's own np.correlate, in O(len(a) + len(v)) memory."""
    return np.correlate(a, np.conj(v) if np.iscomplexobj(v) else v, CORRELATE_MODES[mode])


def _index_checks(dtypes, size, axis):
    return ((IndexError, f"index out of bounds for axis {axis} with size {size}"),)


@primitive("normalize_index", _same_shape, lambda d, size, axis: _dtypes.int64,
           checks=_index_checks)
def _normalize_index(index, size, axis):
    """Wrap negative indices; IndexError (NumPy's message) for any out of [-size, size).

    Backends that cannot raise mid-program (XLA) compute a flag instead and raise it
    when the program returns.
    """
    bad = (index < -size) | (index >= size)
    if np.any(bad):
        first = int(index[bad].flat[0]) if np.ndim(index) else int(index)
        raise IndexError(f"index {first} is out of bounds for axis {axis} with size {size}")
    return np.where(index < 0, index + size, index).astype(np.int64)


# ---------------------------------------------------------------------------------
# Reductions over a tuple of axes; the input already has the accumulation dtype.

def _reduce_shape(shapes, axes):
    return tuple(n for i, n in enumerate(shapes[0]) if i not in axes)


REDUCTIONS = {"reduce_sum": np.add, "reduce_prod": np.multiply, "reduce_max": np.maximum,
              "reduce_min": np.minimum, "reduce_any": np.logical_or,
              "reduce_all": np.logical_and}


def _reduction_ref(ufunc: np.ufunc):
    return lambda x, axes: ufunc.reduce(x, axis=axes, dtype=x.dtype)


for _name, _uf in REDUCTIONS.items():
    register(Op(_name, _reduction_ref(_uf), _reduce_shape, _same_dtype))


def _arg_shape(shapes, axis):
    return shapes[0][:axis] + shapes[0][axis + 1:]


@primitive("argmax", _arg_shape, lambda d, axis: _dtypes.intp)
def _argmax(x, axis):
    return np.argmax(x, axis=axis)


@primitive("argmin", _arg_shape, lambda d, axis: _dtypes.intp)
def _argmin(x, axis):
    return np.argmin(x, axis=axis)


@primitive("cumsum", lambda s, axis: s[0], _same_dtype)
def _cumsum(x, axis):
    return np.cumsum(x, axis=axis, dtype=x.dtype)


@primitive("cumprod", lambda s, axis: s[0], _same_dtype)
def _cumprod(x, axis):
    return np.cumprod(x, axis=axis, dtype=x.dtype)


# ---------------------------------------------------------------------------------
# Contraction. `subscripts` is always explicit ("ij,jk->ik"), with no repeated
# output letters; every operand has the result dtype.

def _einsum_shape(shapes, subscripts):
    ins, out = subscripts.split("->")
    sizes = {}
    for letters, shape in zip(ins.split(","), shapes):
        for letter, n in zip(letters, shape):
            sizes[letter] = n
    return tuple(sizes[c] for c in out)


@primitive("einsum", _einsum_shape, _same_dtype)
def _einsum(*xs, subscripts):
    # NumPy's default path: an optimized path may factor sums and change NaN/inf results.
    return np.einsum(subscripts, *xs)


def size_of(shape: Shape) -> int:
    return math.prod(shape)


# The other families register into the same registry (each imports only `_registry`).
from . import _ops_sort  # noqa: E402,F401  (sort, argsort, searchsorted, bincount)
from . import _ops_linalg  # noqa: E402,F401  (numpy.linalg)
from . import _ops_fft  # noqa: E402,F401  (numpy.fft)
from . import _ops_mutation  # noqa: E402,F401  (update_slice, scatter, scatter_ufunc)
from . import _ops_bytes  # noqa: E402,F401  (bitcast, strided: byte-level views)
