"""The op registry: every primitive defined once.

A primitive has a name, a shape rule and a dtype rule (run when a node is built, so
errors surface at the user's line), and a reference implementation: a NumPy callable
`ref(*arrays, **attrs)` that the NumPy backend runs and that defines the primitive's
meaning for every other backend. Static attributes are keyword arguments; they are
part of a program's cache key, so they must be hashable.

The rules are strict (`_registry`'s `require`, `axis_in`, `axes_in`, ...): they reject
operands and attributes no public function should build (an axis out of range or
repeated, operands of different shapes or dtypes where one is required, a ufunc's
operands not in one of NumPy's loops), so a mistake inside lazyarr is a
`PrimitiveError` naming the primitive where the node is built. The ufunc table is
checked against NumPy's loops when this module loads.

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
from ._registry import (RuleError, axes_in, axis_in, kind_in, operand_count, require,
                        same_dtypes)


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
    """The shape of the one operand."""
    if len(shapes) != 1:
        operand_count(shapes, 1)
    return shapes[0]


def _same_dtype(dtypes, **_):
    """The one dtype of all operands."""
    return dtypes[0] if len(dtypes) == 1 else same_dtypes(dtypes)


def _first_dtype(dtypes, **_):
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

# A category's operand kinds; "any" (comparisons, logical functions) is "numeric" with
# a bool result.
CATEGORY_KINDS = {"integer": "biu", "real": "biuf", "numeric": "biufc", "any": "biufc"}


# Each type code's dtype kind, and the numeric codes: looked up once (np.dtype(code) per
# character of each of the 1,111 loops was 0.8 ms of the check's 1.2 ms at import).
_CODE_KINDS = {c: np.dtype(c).kind for c in np.typecodes["All"]}
_NUMERIC_CODES = frozenset(c for c, k in _CODE_KINDS.items() if k in "biufc")


def _loop_kinds(ufunc: np.ufunc) -> tuple[set, set]:
    """The operand kinds and the result type codes of NumPy's numeric loops of `ufunc`."""
    codes, results = set(), set()
    for loop in ufunc.types:
        ins, _, outs = loop.partition("->")
        if _NUMERIC_CODES.issuperset(ins):
            codes.update(ins)
            results.update(outs)
    return {_CODE_KINDS[c] for c in codes}, results


def validate_ufunc_table() -> None:
    """Each UFUNCS entry is a NumPy ufunc whose category is the narrowest that holds
    its numeric loops' operand kinds ("any": every such loop gives a bool), and
    MULTI_OUTPUT lists exactly the ufuncs with more than one output. Run by the tests
    (tests/test_primitive_rules.py), not at import: it cost 0.5 ms of `import lazyarr`."""
    for name, category in UFUNCS.items():
        ufunc = getattr(np, name, None)
        if not isinstance(ufunc, np.ufunc):
            raise RuntimeError(f"UFUNCS entry {name!r} is not a NumPy ufunc")
        if category not in CATEGORY_KINDS:
            raise RuntimeError(f"UFUNCS entry {name!r}: unknown category {category!r}")
        kinds, results = _loop_kinds(ufunc)
        narrowest = next(c for c in ("integer", "real", "numeric")
                         if kinds <= set(CATEGORY_KINDS[c]))
        if category == "any" and (narrowest != "numeric" or results != {"?"}):
            raise RuntimeError(f"UFUNCS entry {name!r}: category 'any' needs a bool "
                               f"result for every numeric operand, NumPy's loops give "
                               f"{sorted(results)} for kinds {sorted(kinds)}")
        if category != "any" and category != narrowest:
            raise RuntimeError(f"UFUNCS entry {name!r}: category {category!r}, but NumPy's "
                               f"loops take kinds {sorted(kinds)} ({narrowest!r})")
        if MULTI_OUTPUT.get(name, 1) != ufunc.nout:
            raise RuntimeError(f"UFUNCS entry {name!r}: {ufunc.nout} outputs, MULTI_OUTPUT "
                               f"says {MULTI_OUTPUT.get(name, 1)}")
    if not set(MULTI_OUTPUT) <= set(UFUNCS):
        raise RuntimeError(f"MULTI_OUTPUT names {set(MULTI_OUTPUT) - set(UFUNCS)}, not ufuncs")


def _ufunc_shape_rule(nin: int):
    def rule(shapes, **_):
        if len(shapes) != nin:
            operand_count(shapes, nin)
        return broadcast_shapes(*shapes)
    return rule


def _ufunc_dtype_rule(ufunc: np.ufunc, category: str):
    """NumPy's loop resolution; the operands must be of the category's kinds and
    already in the dtypes of the loop NumPy picks for them (the API casts them)."""
    kinds, nin, nout = CATEGORY_KINDS[category], ufunc.nin, ufunc.nout

    @functools.lru_cache(maxsize=1024)
    def resolve(dtypes: tuple, out: int) -> np.dtype:
        operand_count(dtypes, nin)
        require(type(out) is int and 0 <= out < nout, f"no output {out!r}")
        for dtype in dtypes:
            kind_in(dtype, kinds, f"a {category} ufunc's operand")
        try:
            loop = ufunc.resolve_dtypes(dtypes + (None,) * nout)
        except TypeError as error:  # NumPy's UFuncTypeError: no loop
            raise RuleError(f"NumPy has no loop for these dtypes ({error})") from None
        require(loop[:nin] == dtypes, "operands not in the dtypes of NumPy's loop "
                f"{tuple(map(str, loop[:nin]))} (the API casts them first)")
        return loop[nin + out]

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

for _name, _category in UFUNCS.items():
    _uf = getattr(np, _name)
    register(Op(_name, _ufunc_ref(_uf), _ufunc_shape_rule(_uf.nin),
                _ufunc_dtype_rule(_uf, _category), _UFUNC_CHECKS.get(_name)))


def _complex_part(dtypes, **_):
    operand_count(dtypes, 1)
    return _dtypes.real_dtype(kind_in(dtypes[0], "c"))


# `real` and `imag` are not ufuncs in NumPy but are elementwise all the same.
@primitive("real", _same_shape, _complex_part)
def _real(x):
    return np.real(x)


@primitive("imag", _same_shape, _complex_part)
def _imag(x):
    return np.imag(x)


def _complex_dtype(dtypes, **_):
    operand_count(dtypes, 2)
    require(same_dtypes(dtypes) in (_dtypes.float32, _dtypes.float64),
            "parts must be both float32 or both float64")
    return _dtypes.complex64 if dtypes[0] == _dtypes.float32 else _dtypes.complex128


@primitive("complex", _ufunc_shape_rule(2), _complex_dtype)
def _complex(re, im):
    """re + im*j, exactly: NumPy's arithmetic would turn 0 * inf into a NaN. Both parts
    arrive as float32 or both as float64."""
    out = np.empty(np.broadcast_shapes(re.shape, im.shape), _complex_dtype([re.dtype, im.dtype]))
    out.real, out.imag = re, im
    return out


def _select_dtype(dtypes, **_):
    operand_count(dtypes, 3)
    kind_in(dtypes[0], "b", "the condition's")
    return same_dtypes(dtypes[1:], "the two choices")


@primitive("select", _ufunc_shape_rule(3), _select_dtype)
def _select(cond, x, y):
    return np.where(cond, x, y)


def _convert_dtype(dtypes, dtype):
    operand_count(dtypes, 1)
    if not isinstance(dtype, np.dtype):  # (a dtype's repr: 15 us here; on failure)
        require(False, f"target {dtype!r} is not a dtype")
    return kind_in(dtype, "biufc", "the target")


@primitive("convert", _same_shape, _convert_dtype)
def _convert(x, dtype):
    return x.astype(dtype)


# ---------------------------------------------------------------------------------
# Structural primitives: they move data, never change it.

def _broadcast_to_shape(shapes, shape):
    operand_count(shapes, 1)
    given = shapes[0]
    require(len(given) <= len(shape) and all(
        n in (1, m) for n, m in zip(given[::-1], shape[::-1])) and min(shape, default=0) >= 0,
        f"cannot broadcast {given} to {shape}")
    return shape


@primitive("broadcast_to", _broadcast_to_shape, _same_dtype)
def _broadcast_to(x, shape):
    return np.broadcast_to(x, shape)


def _reshape_shape(shapes, shape):
    operand_count(shapes, 1)
    require(min(shape, default=0) >= 0 and math.prod(shape) == math.prod(shapes[0]),
            f"cannot reshape {shapes[0]} to {shape}")
    return shape


@primitive("reshape", _reshape_shape, _same_dtype)
def _reshape(x, shape):
    return np.reshape(x, shape)


def _transpose_shape(shapes, axes):
    operand_count(shapes, 1)
    require(sorted(axes) == list(range(len(shapes[0]))),
            f"axes {axes} are not a permutation of {len(shapes[0])} axes")
    return tuple(shapes[0][a] for a in axes)


@primitive("transpose", _transpose_shape, _same_dtype)
def _transpose(x, axes):
    return np.transpose(x, axes)


def _slice_shape(shapes, starts, stops, steps):
    operand_count(shapes, 1)
    ndim = len(shapes[0])
    require(len(starts) == len(stops) == len(steps) == ndim and 0 not in steps,
            f"starts, stops and steps are not {ndim} each, with nonzero steps")
    return tuple(len(range(a, b, c)) for a, b, c in zip(starts, stops, steps))


@primitive("slice", _slice_shape, _same_dtype)
def _slice(x, starts, stops, steps):
    # Normalized stops of -1 with a negative step mean "through index 0".
    if len(starts) == 1:  # (the eager path reads windows `x[s:s + k]` through this)
        stop = stops[0]
        return x[starts[0]:None if stop < 0 else stop:steps[0]]
    return x[tuple([slice(a, None if b < 0 else b, c) for a, b, c in zip(starts, stops, steps)])]


def _concatenate_shape(shapes, axis):
    require(shapes, "no operands")
    first = shapes[0]
    axis_in(axis, len(first))
    before, after = first[:axis], first[axis + 1:]
    for s in shapes:  # (the message is formatted only on failure: np.array of a list of
        # n results builds one n-operand node, and formatting n shapes n times took 0.15 s)
        if not (len(s) == len(first) and s[:axis] == before and s[axis + 1:] == after):
            require(False, f"shapes {shapes} differ off axis {axis}")
    return before + (sum(s[axis] for s in shapes),) + after


@primitive("concatenate", _concatenate_shape, _same_dtype)
def _concatenate(*xs, axis):
    return np.concatenate(xs, axis=axis)


def _iota_shape(shapes, shape, dtype, axis):
    operand_count(shapes, 0)
    axis_in(axis, len(shape))
    return shape


def _iota_dtype(dtypes, shape, dtype, axis):
    return kind_in(dtype, "biufc", "the result")


@primitive("iota", _iota_shape, _iota_dtype)
def _iota(shape, dtype, axis):
    ramp = np.arange(shape[axis], dtype=dtype)
    return np.broadcast_to(ramp.reshape((-1,) + (1,) * (len(shape) - axis - 1)), shape)


def _constant_shape(shapes, value, dtype, input):
    operand_count(shapes, 0)
    require(len(value) == np.dtype(dtype).itemsize, f"{len(value)} bytes for one {dtype}")
    return ()


def _constant_dtype(dtypes, value, dtype, input):
    return np.dtype(dtype)


@primitive("constant", _constant_shape, _constant_dtype)
def _constant(value, dtype, input):
    """A 0-d value known when the program is built (its bytes: NaNs and signed zeros
    compare as they are): the scheduler makes the host scalar of runtime input `input`
    one while it keeps its value from flush to flush (`_flush._Known`); that input is
    then read by no instruction."""
    return np.frombuffer(value, dtype).reshape(()).copy()


def _take_shape(shapes, axis):
    operand_count(shapes, 2)
    x, idx = shapes
    axis_in(axis, len(x))
    return x[:axis] + idx + x[axis + 1:]


def _take_dtype(dtypes, axis):
    kind_in(dtypes[1], "iu", "the indices'")
    return dtypes[0]


@primitive("take", _take_shape, _take_dtype)
def _take(x, indices, axis):
    return np.take(x, indices, axis=axis)


def _boolean_index_shape(shapes, count):
    operand_count(shapes, 2)
    x, mask = shapes
    require(0 < len(mask) <= len(x) and x[:len(mask)] == mask,
            f"needs a mask of the array's leading shape, got {mask} for {x}")
    require(type(count) is int and 0 <= count <= math.prod(mask),
            f"count {count!r} is not a number of the mask's elements")
    return (count,) + x[len(mask):]


def _boolean_index_dtype(dtypes, count):
    kind_in(dtypes[1], "b", "the mask's")
    return dtypes[0]


@primitive("boolean_index", _boolean_index_shape, _boolean_index_dtype)
def _boolean_index(x, mask, count):
    """`x[mask]` for a mask over x's leading axes with `count` true elements (counted
    when the node is built: the count decides the shape). As `compress` of the
    flattened axes: the same elements, and NumPy 2's boolean index took 4.7 ms where
    compress took 1.1 (1e6 float64, half selected)."""
    rest = x.shape[mask.ndim:]
    return np.compress(mask.reshape(-1), x.reshape((mask.size,) + rest), axis=0)


CORRELATE_MODES = ("valid", "same", "full")


def _correlate_shape(shapes, mode):
    operand_count(shapes, 2)
    require(len(shapes[0]) == len(shapes[1]) == 1 and shapes[0][0] >= shapes[1][0],
            "needs 1-d a and v with len(a) >= len(v)")
    require(mode in (0, 1, 2), f"mode {mode!r} is not an index of CORRELATE_MODES")
    n1, n2 = shapes[0][0], shapes[1][0]
    return ((n1 - n2 + 1, n1, n1 + n2 - 1)[mode],)


def _correlate_dtype(dtypes, mode):
    return kind_in(same_dtypes(dtypes), "fc")


@primitive("correlate", _correlate_shape, _correlate_dtype)
def _correlate1d(a, v, mode):
    """out[k] = sum_j a[k + j - n_left] v[j] (no conjugation: the caller conjugates), for
    1-d a, v of one inexact dtype with len(a) >= len(v); `mode` indexes CORRELATE_MODES.
    NumPy's own np.correlate, in O(len(a) + len(v)) memory."""
    return np.correlate(a, np.conj(v) if np.iscomplexobj(v) else v, CORRELATE_MODES[mode])


def _index_checks(dtypes, size, axis):
    return ((IndexError, f"index out of bounds for axis {axis} with size {size}"),)


def _normalize_index_dtype(dtypes, size, axis):
    operand_count(dtypes, 1)
    kind_in(dtypes[0], "iu", "the indices'")
    return _dtypes.int64


@primitive("normalize_index", _same_shape, _normalize_index_dtype, checks=_index_checks)
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
    if len(shapes) != 1:
        operand_count(shapes, 1)
    shape = axes_in(axes, shapes[0])
    return tuple(n for i, n in enumerate(shape) if i not in axes)


def _logical_reduce_dtype(dtypes, axes):
    operand_count(dtypes, 1)
    return kind_in(dtypes[0], "b")


REDUCTIONS = {"reduce_sum": np.add, "reduce_prod": np.multiply, "reduce_max": np.maximum,
              "reduce_min": np.minimum, "reduce_any": np.logical_or,
              "reduce_all": np.logical_and}


def _reduction_ref(ufunc: np.ufunc):
    return lambda x, axes: ufunc.reduce(x, axis=axes, dtype=x.dtype)


for _name, _uf in REDUCTIONS.items():
    register(Op(_name, _reduction_ref(_uf), _reduce_shape,
                _logical_reduce_dtype if _name in ("reduce_any", "reduce_all") else _same_dtype))


def _arg_shape(shapes, axis):
    operand_count(shapes, 1)
    axis_in(axis, len(shapes[0]))
    return shapes[0][:axis] + shapes[0][axis + 1:]


def _scan_shape(shapes, axis):
    operand_count(shapes, 1)
    axis_in(axis, len(shapes[0]))
    return shapes[0]


@primitive("argmax", _arg_shape, lambda d, axis: _dtypes.intp)
def _argmax(x, axis):
    return np.argmax(x, axis=axis)


@primitive("argmin", _arg_shape, lambda d, axis: _dtypes.intp)
def _argmin(x, axis):
    return np.argmin(x, axis=axis)


@primitive("cumsum", _scan_shape, _same_dtype)
def _cumsum(x, axis):
    return np.cumsum(x, axis=axis, dtype=x.dtype)


@primitive("cumprod", _scan_shape, _same_dtype)
def _cumprod(x, axis):
    return np.cumprod(x, axis=axis, dtype=x.dtype)


# ---------------------------------------------------------------------------------
# Contraction. `subscripts` is always explicit ("ij,jk->ik"), with no repeated
# output letters; every operand has the result dtype.

def _einsum_shape(shapes, subscripts):
    ins, arrow, out = subscripts.partition("->")
    terms = ins.split(",")
    require(arrow and len(terms) == len(shapes), f"{subscripts!r} is not explicit for "
            f"{len(shapes)} operand(s)")
    sizes = {}
    for letters, shape in zip(terms, shapes):
        require(len(letters) == len(shape), f"{letters!r} does not label a {len(shape)}-d "
                "operand")
        for letter, n in zip(letters, shape):
            require(sizes.setdefault(letter, n) == n, f"{letter!r} has sizes "
                    f"{sizes[letter]} and {n}")
    require(len(set(out)) == len(out) and set(out) <= set(sizes),
            f"output {out!r} repeats a letter or names one no operand has")
    return tuple(sizes[c] for c in out)


@primitive("einsum", _einsum_shape, _same_dtype)
def _einsum(*xs, subscripts):
    # NumPy's default path: an optimized path may factor sums and change NaN/inf results.
    # A large product of two float operands goes through BLAS, as NumPy's matmul, dot
    # and tensordot do (einsum's own loop was 3x slower on a 4096x512 @ 512x512).
    if len(xs) == 2 and xs[0].dtype.kind in "fc" and xs[0].dtype.itemsize >= 4:
        blas = _blas_product(xs[0], xs[1], subscripts)
        if blas is not None:
            return blas
    return np.einsum(subscripts, *xs)


BLAS_MIN_PRODUCTS = 1 << 16  # below this, einsum's loop beats tensordot's set-up


def _blas_product(a, b, subscripts):
    """`np.einsum(subscripts, a, b)` as a matrix product (np.tensordot, or np.matmul over
    batch axes), or None where it is not one: a letter repeated within a term, a summed
    letter missing from one operand (einsum would factor it out), batch letters not laid
    out as matmul's leading axes, or too few products for BLAS to pay."""
    ins, _, out = subscripts.partition("->")
    ta, tb = ins.split(",")
    if len(set(ta)) != len(ta) or len(set(tb)) != len(tb):
        return None
    summed = [c for c in ta if c in tb and c not in out]
    if not summed or any(c not in ta or c not in tb for c in set(ta + tb) - set(out)):
        return None
    sizes = dict(zip(ta, a.shape)) | dict(zip(tb, b.shape))
    if math.prod(sizes.values()) < BLAS_MIN_PRODUCTS:
        return None
    batch = [c for c in out if c in ta and c in tb]
    if not batch:
        result = np.tensordot(a, b, axes=([ta.index(c) for c in summed],
                                          [tb.index(c) for c in summed]))
        done = [c for c in ta if c not in summed] + [c for c in tb if c not in summed]
        order = [done.index(c) for c in out]
        return result if order == sorted(order) else np.ascontiguousarray(result.transpose(order))
    lead = "".join(batch)
    if not (ta.startswith(lead) and tb.startswith(lead) and out.startswith(lead)
            and len(summed) == 1 and ta[-1] == summed[0] and tb[len(lead)] == summed[0]
            and len(ta) == len(tb) == len(lead) + 2 and out == lead + ta[-2] + tb[-1]):
        return None
    return np.matmul(a, b)


def size_of(shape: Shape) -> int:
    return math.prod(shape)


# The other families register into the same registry (each imports only `_registry`).
from . import _ops_sort  # noqa: E402,F401  (sort, argsort, searchsorted, bincount)
from . import _ops_linalg  # noqa: E402,F401  (numpy.linalg)
from . import _ops_fft  # noqa: E402,F401  (numpy.fft)
from . import _ops_mutation  # noqa: E402,F401  (update_slice, scatter, scatter_ufunc)
from . import _ops_bytes  # noqa: E402,F401  (bitcast, strided: byte-level views)
