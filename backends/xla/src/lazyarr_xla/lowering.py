"""Each lazyarr primitive as jax operations, with NumPy's semantics.

Inputs arrive already in the dtypes lazyarr resolved (NumPy's loop dtypes), so most
ufuncs are a one-line mapping to `jax.numpy`. The functions written out here are the
places where XLA's semantics differ from NumPy's; each says what NumPy does. They are
grouped by the operand kind they fix: `_BY_KIND` maps a dtype kind (integer, float,
complex) and a ufunc name to its lowering, and everything else is jnp's.

NumPy computes and rounds each ufunc on its own; XLA's simplifier and LLVM rewrite
across operations (a / b as a * (1 / b), a * b + c as one FMA, ...), which changes
results. So every floating-point ufunc result passes through `rounded` and every
division through `divisor`, selects that XLA cannot see through (a compare and a
select per element, fused with the rest).

A primitive that may raise at run time (its `Op.checks`) has a checked lowering: it
appends one flag per check to `flags`, and the backend raises the first check whose
flag is set, with the program's error and message, when the program returns.
"""

from __future__ import annotations

import math

import numpy as np

import jax
import jax.numpy as jnp
from jax import lax

from lazyarr.backend_api import UFUNCS, op

from . import registry
# The chapters with their own lowering modules register themselves on import.
from . import lowering_bytes, lowering_linalg, lowering_mutation, lowering_sort  # noqa: F401
from . import lowering_reductions  # noqa: F401
from .lowering_common import divisor, expm1, flat_index, hypot, kind, rounded, sinh, unsigned
from .lowering_complex import COMPLEX


# ---------------------------------------------------------------------------------
# Casts.

def _truncate(x, bits: int):
    """C's float-to-int cast on x86-64 (cvttsd2si): toward zero; NaN, infinities and
    values out of range become INT_MIN of the `bits`-wide integer."""
    via = np.dtype(f"i{bits // 8}")
    bound = 2.0 ** (bits - 1)
    bad = jnp.isnan(x) | (x >= bound) | (x < -bound)
    return jnp.where(bad, np.iinfo(via).min, lax.convert_element_type(jnp.where(bad, 0, x), via))


def _to_uint32(x, simd: bool):
    """NumPy's float32/float64 to uint32: its scalar loop wraps through int64; its
    vector loop, which takes blocks of 4 elements, subtracts 2**31 from values from
    2**31 up and gives 2**31 for NaN, infinities and what is out of range."""
    scalar = _truncate(x, 64).astype(np.uint32)
    if not simd:
        return scalar
    big = x >= 2.0 ** 31
    vector = jnp.where(big, _truncate(x - 2.0 ** 31, 32) ^ np.int32(-2 ** 31), _truncate(x, 32))
    n = math.prod(x.shape)
    return jnp.where(flat_index(x.shape) < n - n % 4, vector.astype(np.uint32), scalar)


def convert(x, dtype):
    """`x.astype(dtype)` as NumPy does it on x86-64: float-to-int truncates, and NaN,
    infinities and values out of range become INT_MIN (int32/int64), wrap through
    int32 (int8/16, uint8/16); uint64 subtracts 2**63 first for values from 2**63 up;
    complex-to-real keeps the real part."""
    dtype = np.dtype(dtype)
    if dtype.kind == "b":
        return x != 0
    source = np.dtype(x.dtype)
    if source.kind == "c" and dtype.kind != "c":
        x = jnp.real(x)  # NumPy discards the imaginary part (with a ComplexWarning)
    if source.kind == "b":  # keeps XLA from turning convert(b) * x into select(b, x, 0)
        return rounded(lax.convert_element_type(x, dtype))
    if dtype.kind not in "iu" or kind(x) != "f":
        return lax.convert_element_type(x, dtype)
    x = x.astype(jnp.float64)
    if dtype == np.uint32:
        return _to_uint32(x, simd=source in (np.float32, np.float64))
    if dtype == np.uint64:
        big = x >= 2.0 ** 63
        low = jnp.where(big, _truncate(x - 2.0 ** 63, 64) ^ np.int64(-2 ** 63), _truncate(x, 64))
        return lax.bitcast_convert_type(low, np.uint64)
    return lax.convert_element_type(_truncate(x, 8 * max(dtype.itemsize, 4)), dtype)


# ---------------------------------------------------------------------------------
# Integers.

def _by_nonzero(fn):
    """NumPy's integer floor_divide, remainder and fmod by zero give 0."""
    def lowered(x, y):
        safe = jnp.where(y == 0, jnp.ones_like(y), y)
        return jnp.where(y == 0, jnp.zeros_like(x), fn(x, safe))
    return lowered


def _int_reciprocal(x):
    """NumPy: 1.0 / x cast back, so 0 except at 1 and -1; 1 / 0 is INT_MIN for
    int32/int64 and 0 for the other integer types."""
    dtype = np.dtype(x.dtype)
    at_zero = np.iinfo(dtype).min if dtype in (np.int32, np.int64) else 0
    unit = (x == 1) | ((x == -1) if dtype.kind == "i" else False)
    return jnp.where(x == 0, at_zero, jnp.where(unit, x, 0)).astype(dtype)


def _int_power(x, y, flags):
    """Integer powers by squaring over every bit of the exponent, wrapping like
    NumPy (jnp's stops after 6 bits); a negative exponent is NumPy's ValueError."""
    if kind(y) == "i":
        # ValueError: negative integer power (NumPy's loop raises it for an element it
        # computes: never for an empty result)
        empty = 0 in np.broadcast_shapes(np.shape(x), np.shape(y))
        flags.append(jnp.asarray(False) if empty else jnp.any(y < 0))
        y = jnp.where(y < 0, 0, y)
    result = jnp.ones_like(x)
    for _ in range(8 * np.dtype(y.dtype).itemsize):
        result = jnp.where((y & 1) == 1, result * x, result)
        x = x * x
        y = y >> 1
    return result


def _abs_unsigned(x):
    """|x| in the unsigned type of the same width, so |INT_MIN| does not overflow."""
    u = lax.bitcast_convert_type(x, unsigned(x.dtype)) if kind(x) == "i" else x
    return jnp.where(x < 0, jnp.zeros_like(u) - u, u) if kind(x) == "i" else u


def _gcd_unsigned(a, b):
    def step(ab):
        a, b = ab
        nonzero = a != 0
        return jnp.where(nonzero, b % jnp.where(nonzero, a, 1), 0), jnp.where(nonzero, a, b)
    return lax.while_loop(lambda ab: jnp.any(ab[0] != 0), step, (a, b))[1]


def _gcd(x, y):
    """NumPy: Euclid on |x| and |y| in unsigned arithmetic (gcd(INT_MIN, 0) is INT_MIN)."""
    g = _gcd_unsigned(_abs_unsigned(x), _abs_unsigned(y))
    return lax.bitcast_convert_type(g, x.dtype)


def _lcm(x, y):
    """NumPy: |x| // gcd * |y| in unsigned arithmetic (wrapping), 0 when gcd is 0."""
    a, b = _abs_unsigned(x), _abs_unsigned(y)
    g = _gcd_unsigned(a, b)
    lcm = jnp.where(g == 0, 0, a // jnp.where(g == 0, 1, g) * b).astype(a.dtype)
    return lax.bitcast_convert_type(lcm, x.dtype)


# ---------------------------------------------------------------------------------
# Floats.

# NumPy computes these float16 loops in float32 and rounds the result once; ml_dtypes
# computes every bfloat16 and float8 loop so (the others round the same in either way).
_VIA_FLOAT32 = {
    "exp", "exp2", "expm1", "log", "log2", "log10", "log1p", "logaddexp", "logaddexp2",
    "sin", "cos", "tan", "arcsin", "arccos", "arctan", "arctan2", "hypot", "sinh", "cosh",
    "tanh", "arcsinh", "arccosh", "arctanh", "cbrt", "power", "deg2rad", "rad2deg",
    "degrees", "radians", "floor_divide", "remainder", "ldexp"}


def _narrow(x) -> bool:
    """float16, bfloat16 and the float8 types."""
    return kind(x) == "f" and x.dtype.itemsize <= 2


def _via_float32(fn):
    def lowered(*xs, **attrs):
        up = [x.astype(jnp.float32) if _narrow(x) else x for x in xs]
        return fn(*up, **attrs).astype(xs[0].dtype)
    return lowered


def _by_divisor(fn):
    return lambda x, y: fn(x, divisor(x, y))


def _arcsin(x):
    """asin(x) is x below 1e-8 (jax's formula loses the smallest normal numbers)."""
    return jnp.where(jnp.abs(x) < 1e-8, x, jnp.arcsin(x))


def _floor_divide(x, y):
    """NumPy's npy_divmod: (x - fmod(x, y)) / y, one less where the remainder's sign is
    not y's, then floored and raised only past .5 (jnp rounds .5 away from zero, which
    float32 quotients past 2**22 reach: 8623570 // 1.1363331 was one too many); a zero
    quotient has the sign of x / y; by zero, x / y."""
    mod = lax.rem(x, y)
    div = (x - mod) / y
    div = jnp.where((mod != 0) & ((y < 0) != (mod < 0)), div - 1, div)
    floor = jnp.floor(div)
    floor = jnp.where(div - floor > 0.5, floor + 1, floor)
    q = jnp.where(div == 0, jnp.copysign(jnp.zeros_like(div), x / y), floor)
    return jnp.where(y == 0, x / y, q)


def _remainder(x, y):
    """NumPy's npy_divmod: a zero remainder has the sign of y (jnp's: of fmod)."""
    r = jnp.remainder(x, y)
    return jnp.where(r == 0, jnp.copysign(jnp.zeros_like(r), y), r)


def _modf(x, out=0):
    """NumPy's (C's) modf: the fractional part has x's sign, so a negative whole number's
    is -0.0 (jnp's was 0.0), and modf(±inf) is (±0, ±inf)."""
    whole = jnp.trunc(x)
    if out:
        return whole
    return _copysign(jnp.where(jnp.isinf(x), jnp.zeros_like(x), x - whole), x)


def _bits(x):
    """x's bits as unsigned integers, and the sign bit: jnp's signbit, copysign and
    spacing have no 8-bit form, which ml_dtypes' float8 types need."""
    uint = jnp.dtype(f"uint{8 * x.dtype.itemsize}")
    return lax.bitcast_convert_type(x, uint), uint.type(1 << (8 * x.dtype.itemsize - 1))


def _signbit(x):
    if x.dtype.itemsize > 1:
        return jnp.signbit(x)
    bits, sign = _bits(x)
    return (bits & sign) != 0


def _copysign(x, y):
    if x.dtype.itemsize > 1:
        return jnp.copysign(x, y)
    (bx, sign), (by, _) = _bits(x), _bits(y)
    return lax.bitcast_convert_type((bx & ~sign) | (by & sign), x.dtype)


def _spacing(x):
    """NumPy: spacing(±0) is the smallest subnormal, spacing(±inf) is NaN; for 8-bit
    floats, the next value away from zero (the bits plus one) less x, which is NaN
    past the largest (float8_e4m3fn has no infinity) and -0.0's is negative."""
    if x.dtype.itemsize == 1:
        bits, _ = _bits(x)
        return lax.bitcast_convert_type(bits + 1, x.dtype) - x
    tiny = np.finfo(x.dtype).smallest_subnormal
    return jnp.where(jnp.isinf(x), jnp.nan,
                     jnp.where(x == 0, tiny, jnp.spacing(x))).astype(x.dtype)


def _logaddexp_with(log1p_exp, same):
    """NumPy's npy_logaddexp(2): x + `same` when x == y (also equal infinities),
    else max + log1p(exp(-|x - y|)); NaN when x - y is NaN."""
    def lowered(x, y):
        d = x - y
        r = jnp.where(d > 0, x + log1p_exp(-d), y + log1p_exp(d))
        return jnp.where(x == y, x + same, jnp.where(jnp.isnan(d), d, r))
    return lowered


_logaddexp = _logaddexp_with(lambda d: jnp.log1p(jnp.exp(d)), math.log(2))
_logaddexp2 = _logaddexp_with(lambda d: rounded(jnp.log1p(jnp.exp2(d)) * (1 / math.log(2))),
                              1.0)  # NumPy's npy_log2_1p rounds the product first


# ---------------------------------------------------------------------------------
# The ufunc table: special lowerings by dtype kind; jnp's function everywhere else.

_INTEGER = {
    "floor_divide": _by_nonzero(jnp.floor_divide),
    "remainder": _by_nonzero(jnp.remainder),
    "fmod": _by_nonzero(jnp.fmod),
    "reciprocal": _int_reciprocal,
    "gcd": _gcd,
    "lcm": _lcm,
}

def _f_sign(x):
    """NumPy's float sign: -1, 0 (positive, also for -0.0), 1, or NaN."""
    return jnp.where(x > 0, 1, jnp.where(x < 0, -1, jnp.where(x == 0, 0, x))).astype(x.dtype)


def _rad2deg(x):
    """NumPy's npy_rad2deg: x times 180 / pi, that quotient taken in x's precision
    (float32: 57.295776, one ulp below jnp's float32(180 / pi), so 79% of float32
    results differed by an ulp)."""
    return x * (np.asarray(180, x.dtype) / np.asarray(np.pi, x.dtype))


_FLOAT = {
    "hypot": hypot,
    "expm1": expm1,
    "sinh": sinh,
    "rad2deg": _rad2deg,
    "degrees": _rad2deg,
    "sign": _f_sign,
    **{name: _by_divisor(fn) for name, fn in (
        ("divide", jnp.divide), ("floor_divide", _floor_divide),
        ("remainder", _remainder), ("fmod", jnp.fmod))},
    "arcsin": _arcsin,
    "modf": _modf,
    "spacing": _spacing,
    "signbit": _signbit,
    "copysign": _copysign,
    "logaddexp": _logaddexp,
    "logaddexp2": _logaddexp2,
}


_BY_KIND = {"b": {"sign": lambda x: x}, "i": _INTEGER, "u": _INTEGER, "f": _FLOAT,
            "c": COMPLEX}


def _multi_output(fn):
    return lambda x, out=0: fn(x)[out]


def _frexp(x):
    """NumPy's frexp, subnormals included: jnp.frexp reads a subnormal's exponent
    field as if normal (frexp(2**-149) in float32 gave exponent -149, not -148), and
    scaling one up first is flushed to zero by XLA on the CPU. So a subnormal's
    mantissa and exponent are read from its bits: with its highest set mantissa bit at
    position p, the exponent is p + 2 - bias - mantissa bits, and the mantissa those
    bits shifted up to the implicit bit's place, under the exponent of [0.5, 1)."""
    if not jnp.issubdtype(x.dtype, jnp.floating):
        return jnp.frexp(x)
    if x.dtype.itemsize == 1:  # float8, as ml_dtypes does: in float32 (exactly)
        mantissa, exponent = _frexp(x.astype(jnp.float32))
        return mantissa.astype(x.dtype), exponent
    info = jnp.finfo(x.dtype)
    bits, nmant = int(info.bits), int(info.nmant)
    raw, sign_bit = _bits(x)
    uint = raw.dtype
    bias = (1 << (bits - nmant - 2)) - 1
    mant_mask = uint.type((1 << nmant) - 1)
    field = raw & mant_mask
    subnormal = ((raw >> nmant) & uint.type((1 << (bits - nmant - 1)) - 1)) == 0
    subnormal = subnormal & (field != 0)
    p = (bits - 1) - jax.lax.clz(field).astype(jnp.int32)
    shifted = jax.lax.shift_left(field, jnp.clip(nmant - p, 0, nmant).astype(uint)) & mant_mask
    m_bits = (raw & sign_bit) | uint.type((bias - 1) << nmant) | shifted
    sub_m = jax.lax.bitcast_convert_type(m_bits, x.dtype)
    sub_e = (p + 2 - bias - nmant).astype(jnp.int32)
    mantissa, exponent = jnp.frexp(x)
    return (jnp.where(subnormal, sub_m, mantissa),
            jnp.where(subnormal, sub_e, exponent.astype(jnp.int32)))


_DEFAULT = {name: getattr(jnp, name) for name in UFUNCS}
_DEFAULT.update(modf=_multi_output(jnp.modf), frexp=_multi_output(_frexp))

# Ufuncs whose float32/float64 result needs no `rounded`: no rewrite of XLA's or LLVM's
# reaches through it. The FMA contraction takes a product into the sum that reads it
# (the product is rounded, not the sum), and the simplifier's float rewrites start from
# products, quotients, exp, log, pow and sqrt (exp(a) * exp(b), (a / b) / c,
# a / sqrt(b)): these stay rounded, as do float16, bfloat16 and complex results (XLA
# computes float16 in float32). Measured (diffusion 1000x1000, 50 steps, compiled, CPU):
# a rounded sum cost 319-354 ms a run, 183-202 ms without.
_EXACT_AS_IS = frozenset({
    "add", "subtract", "negative", "positive", "absolute", "fabs", "maximum", "minimum",
    "fmax", "fmin", "floor", "ceil", "trunc", "rint", "sign", "copysign",
    "sin", "cos", "tan", "arcsin", "arccos", "arctan", "arctan2", "sinh", "cosh", "tanh",
    "arcsinh", "arccosh", "arctanh"})
_NATIVE_FLOATS = (np.dtype(np.float32), np.dtype(np.float64))


def _ufunc(name: str):
    as_is = name in _EXACT_AS_IS

    def lowered(*xs, **attrs):
        fn = _BY_KIND.get(kind(xs[0]), {}).get(name)
        if fn is None:
            fn = _DEFAULT[name]
        elif len(xs) > 1:
            xs = jnp.broadcast_arrays(*xs)
        if name in _VIA_FLOAT32 and _narrow(xs[0]):
            fn = _via_float32(fn)
        result = fn(*xs, **attrs)
        if kind(result) not in "fc" or as_is and result.dtype in _NATIVE_FLOATS:
            return result
        return rounded(result)
    return lowered


def _power(x, y, flags):
    if kind(x) in "iu":
        return _int_power(x, y, flags)
    return _ufunc("power")(x, y)


# ---------------------------------------------------------------------------------
# Structural primitives.

def _normalize_index(index, flags, size, axis):
    bad = (index < -size) | (index >= size)
    flags.append(jnp.any(bad))  # IndexError
    return jnp.where(index < 0, index + size, index).astype(jnp.int64)


def _slice(x, starts, stops, steps):
    index = tuple(slice(a, None if b < 0 else b, c) for a, b, c in zip(starts, stops, steps))
    return x[index]


def _constant(value, dtype, input):
    return jnp.asarray(np.frombuffer(value, dtype).reshape(()))


def _iota(shape, dtype, axis):
    return lax.broadcasted_iota(dtype, shape, axis)


# The class of a product term's operands (zero, positive, negative finite, +inf, -inf,
# NaN) decides whether the term is +inf (0), -inf (1), NaN (2) or finite (-1).
_TERMS = np.array([[-1, -1, -1, 2, 2, 2], [-1, -1, -1, 0, 1, 2], [-1, -1, -1, 1, 0, 2],
                   [2, 0, 1, 0, 1, 2], [2, 1, 0, 1, 0, 2], [2, 2, 2, 2, 2, 2]])
_TERM_OF = np.stack([(_TERMS == o).astype(np.float32) for o in range(3)])  # (3, a, v)


def _classes(x):
    """(6, n): each element's class, one-hot."""
    finite = jnp.isfinite(x)
    return jnp.stack([x == 0, finite & (x > 0), finite & (x < 0), x == jnp.inf,
                      x == -jnp.inf, jnp.isnan(x)]).astype(x.dtype)


def _correlate_real(a, v, mode):
    """out[k] = sum_j a[k + j - n_left] v[j] over the j where a's index is in range, as
    XLA's convolution (a cross-correlation) of a padded with zeros on both sides, so the
    output has its length. A padding zero times a non-finite v[j] would be a NaN term
    that NumPy's sum never has (np.convolve([0, 0, 0, 0], [0, 0, nan], "same")[0] is
    0): where v holds one, the finite terms are convolved on their own and each output's
    count of +inf, -inf and NaN terms (one convolution of the operands' one-hot classes;
    padding is in no class) says what the sum of the rest is."""
    n1, n2 = a.shape[0], v.shape[0]
    n_left = (0, n2 // 2, n2 - 1)[mode]
    length = (n1 - n2 + 1, n1, n1 + n2 - 1)[mode]
    padding = [(n_left, length - n1 - n_left + n2 - 1)]

    def conv(x, y):
        return lax.conv_general_dilated(x[None], y, (1,), padding,
                                        precision=lax.Precision.HIGHEST)[0]

    def plain(a, v):
        return conv(a[None], v[None, None])[0]

    def careful(a, v):
        zero = jnp.zeros((), a.dtype)
        finite = conv(jnp.where(jnp.isfinite(a), a, zero)[None],
                      jnp.where(jnp.isfinite(v), v, zero)[None, None])[0]
        terms = jnp.einsum("oac,cj->oaj", jnp.asarray(_TERM_OF, a.dtype), _classes(v),
                           precision=lax.Precision.HIGHEST)
        plus, minus, nan = conv(_classes(a), terms) > 0
        inf = jnp.asarray(np.inf, a.dtype)
        out = jnp.where(plus, finite + inf, jnp.where(minus, finite - inf, finite))
        return jnp.where(nan | (plus & minus), jnp.asarray(np.nan, a.dtype), out)
    if mode == 0:  # no padding
        return plain(a, v)
    return lax.cond(jnp.all(jnp.isfinite(v)), plain, careful, a, v)


def _correlate(a, v, mode):
    """lazyarr's "correlate" (no conjugation); complex as four real correlations."""
    if jnp.iscomplexobj(a):
        ar, ai, vr, vi = jnp.real(a), jnp.imag(a), jnp.real(v), jnp.imag(v)

        def real(x, y):
            return _correlate_real(x, y, mode)
        return lax.complex(real(ar, vr) - real(ai, vi), real(ar, vi) + real(ai, vr))
    return _correlate_real(a, v, mode)


# The primitives whose lowering here runs slower on the CPU than NumPy's at every size
# measured: the sorts (`lowering_sort.SLOWER_ON_CPU`). The tiers interpret a program
# holding one (`XlaBackend.slower_ops`). The convolution is not among them since jax
# 0.10's XLA: its CPU conv_general_dilated ("same" mode, float64, best of 3 on the 2-core
# machine) took 47 ms for 1e6 by 1000 values against NumPy's 119, 1.6 against 1.8 ms
# for 1e6 by 10, 1.3 against 1.5 for 1e5 by 100, 0.55 against 0.95 for 1e4 by 1000 (it
# was 243 against 108 ms for 1e6 by 1000 with an earlier XLA); lazyarr compiled, input
# copies and flush included, 50 against 118 ms for 1e6 by 1000 (a small one, 2000 by
# 2000 in 0.66 against 0.32 ms, is sent back to the interpreter by the tiers' trials).
SLOWER_ON_CPU = lowering_sort.SLOWER_ON_CPU


def _take(x, indices, axis):
    shape = x.shape[:axis] + indices.shape + x.shape[axis + 1:]
    if not math.prod(shape):  # jnp.take from an empty axis loses the indices' shape
        return jnp.zeros(shape, x.dtype)
    return jnp.take(x, indices, axis=axis, mode="clip")  # indices are in range already


def _boolean_index(x, mask, count):
    """x[mask] by the positions of the mask's first `count` true elements (a gather:
    10 ms for a 1e6 float64 mask on the CPU, against NumPy's 4.7; a reduction of the
    selection reads x and the mask instead, `lowering_reductions.of_selection`)."""
    rest = x.shape[mask.ndim:]
    if not count:
        return jnp.zeros((0,) + rest, x.dtype)
    positions = jnp.nonzero(mask.reshape(-1), size=count)[0]
    return jnp.take(x.reshape((mask.size,) + rest), positions, axis=0, mode="clip")


def _einsum(*xs, subscripts):
    """Products at full precision (a TPU's default multiplies float32 as bfloat16)."""
    return jnp.einsum(subscripts, *xs, preferred_element_type=xs[0].dtype,
                      precision=lax.Precision.HIGHEST)



LOWERINGS = {
    op("correlate"): _correlate,
    op("real"): jnp.real,
    op("imag"): jnp.imag,
    op("complex"): lambda re, im: lax.complex(*jnp.broadcast_arrays(re, im)),
    op("select"): jnp.where,
    op("convert"): convert,
    op("broadcast_to"): lambda x, shape: jnp.broadcast_to(x, shape),
    op("reshape"): lambda x, shape: jnp.reshape(x, shape),
    op("transpose"): lambda x, axes: jnp.transpose(x, axes),
    op("slice"): _slice,
    op("concatenate"): lambda *xs, axis: jnp.concatenate(xs, axis=axis),
    op("iota"): _iota,
    op("constant"): _constant,
    op("take"): _take,
    op("boolean_index"): _boolean_index,
    op("einsum"): _einsum,
}
LOWERINGS.update({op(name): _ufunc(name) for name in UFUNCS if name != "power"})
registry.register_all(LOWERINGS)


# A TPU divides by multiplying with the divisor's reciprocal, which loses precision as
# it nears the smallest normal and is flushed to zero below it. On a v5e, float32
# quotients of random operands were within 2.5 half-ulps for divisors up to 2**96, 7.6
# at 2**104, 271 (1.6e-5) from 2**112, and every quotient by 2**126 or more was 0, in
# jnp as in lazyarr (1e30 / 8.6e37 gave 0, NumPy 1.16e-8; 3e38 / 3e38 gave 0); bfloat16
# quotients, computed in float32, too; complex64 quotients, by a divisor whose larger
# part is that large, as well (1.7e-5 off from 2**112, 0 from 2**126: `.tpu/diag7.py`).
# So a divisor of 2**96 or more (its larger part) and its dividend are scaled by 2**-64
# first, which is exact: a dividend (part) it pushes below the smallest normal has a
# quotient (part) below it as well, flushed there anyway. (complex64 after it: within
# 2.2e-7 of NumPy's, subnormal parts flushed, for divisors from 2**60 to 2**127.)
_TPU_LARGE_DIVISOR, _TPU_DIVISOR_SCALE = 2.0 ** 96, 2.0 ** -64


def _divide_tpu(x, y):
    divide = LOWERINGS[op("divide")]
    if kind(x) not in "fc" or float(jnp.finfo(x.dtype).max) < _TPU_LARGE_DIVISOR:
        return divide(x, y)  # (float16 and float8 never hold such a divisor)
    x, y = jnp.broadcast_arrays(x, y)
    size = jnp.maximum(jnp.abs(y.real), jnp.abs(y.imag)) if kind(y) == "c" else jnp.abs(y)
    large = size >= _TPU_LARGE_DIVISOR
    scale = np.asarray(_TPU_DIVISOR_SCALE, size.dtype)
    return divide(jnp.where(large, x * scale, x), jnp.where(large, y * scale, y))


registry.register(op("divide"), _divide_tpu, platform="tpu")

# Lowerings that can raise at run time append their ops' check flags.
registry.register_all({op("normalize_index"): _normalize_index, op("power"): _power},
                      checked=True)


def prepare(program) -> None:
    """Load what a program loaded from the disk cache needs at run time (kernels that
    jax registers only while lowering a program that uses them)."""
    lowering_linalg.load_kernels({ins.op for ins in program.instructions})


_ELEMENTWISE = frozenset([op(name) for name in UFUNCS] + [op("convert")])


def through_selection(instruction, args, selections, platform: str | None = None):
    """For an elementwise instruction f whose one operand that is not 0-d is a selection
    x[mask] (`selections`: each operand's (x, mask), or None), (f(x), mask): f(x[mask])
    is f(x)[mask], so a reduction of it is taken over f(x) where the mask holds
    (`(x[x > 0] ** 2).sum()`, an integer sum's conversion, `any`'s `!= 0`). None
    otherwise, and for a lowering with runtime checks."""
    picked = [k for k, found in enumerate(selections) if found is not None]
    if instruction.op not in _ELEMENTWISE or len(picked) != 1 \
            or any(arg.ndim for k, arg in enumerate(args) if k != picked[0]):
        return None
    fn, checked = registry.lowering(instruction.op, platform)
    if checked:
        return None
    x, mask = selections[picked[0]]
    value = fn(*[x if k == picked[0] else arg for k, arg in enumerate(args)],
               **dict(instruction.attrs))
    return (value if value.dtype == instruction.dtype else convert(value, instruction.dtype),
            mask)


def lower(instruction, args, flags: list, platform: str | None = None, selection=None):
    """The jax value of one instruction; a checked lowering appends its flags.
    `selection` is the (x, mask) of a `boolean_index` the instruction's first operand
    is: a reduction of it is taken over x where the mask holds."""
    if selection is not None:
        value = lowering_reductions.of_selection(instruction, *selection)
        if value is not None:
            return value
    fn, checked = registry.lowering(instruction.op, platform)
    if checked:
        return fn(*args, flags, **dict(instruction.attrs))
    return fn(*args, **dict(instruction.attrs))


def lowerable(platform: str | None = None) -> set:
    """The primitives (`Op` objects) this backend can run."""
    return registry.lowerable(platform)


__all__ = ["lower", "lowerable", "convert", "prepare", "jax"]
