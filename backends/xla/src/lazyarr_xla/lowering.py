"""Each lazyarr primitive as jax operations, with NumPy's semantics.

Inputs arrive already in the dtypes lazyarr resolved (NumPy's loop dtypes), so most
ufuncs are a one-line mapping to `jax.numpy`. The functions written out here are the
places where XLA's semantics differ from NumPy's; each says what NumPy does. They are
grouped by the operand kind they fix: `_BY_KIND` maps a dtype kind (integer, float,
complex) and a ufunc name to its lowering, and everything else is jnp's.

NumPy computes and rounds each ufunc on its own; XLA's simplifier and LLVM rewrite
across operations (a / b as a * (1 / b), a * b + c as one FMA, ...), which changes
results. So every floating-point ufunc result passes through `_rounded` and every
division through `_divisor`, selects that XLA cannot see through (a compare and a
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


# ---------------------------------------------------------------------------------
# Small helpers.

def _kind(x) -> str:
    """NumPy's dtype kind: b, i, u, f or c."""
    return np.dtype(x.dtype).kind


def _parts(z):
    return jnp.real(z), jnp.imag(z)


def _pack(re, im):
    return lax.complex(re, im)


def _isnan_c(re, im):
    return jnp.isnan(re) | jnp.isnan(im)


def _unsigned(dtype) -> np.dtype:
    return np.dtype(f"u{np.dtype(dtype).itemsize}")


def _rounded(x):
    """x as a value of its own, as NumPy computes each ufunc: a select that XLA cannot
    see through keeps its simplifier from rewriting across operations (exp(a) / exp(b)
    as exp(a - b), (a / b) / c as a / (b * c)) and LLVM from fusing a product into the
    sum that uses it (FMA). NaNs pass through unchanged."""
    if _kind(x) == "c":
        return _pack(_rounded(jnp.real(x)), _rounded(jnp.imag(x)))
    return jnp.where(jnp.isnan(x), x + x, x)


def _flat_index(shape):
    """Each element's position in C order."""
    dtype = np.int32 if math.prod(shape) < 2 ** 31 else np.int64
    index, stride = jnp.zeros(shape, dtype), 1
    for axis in reversed(range(len(shape))):
        index = index + lax.broadcasted_iota(dtype, shape, axis) * stride
        stride *= shape[axis]
    return index


def _divisor(x, y):
    """y, hidden from XLA's rewrite of x / broadcast(b) as x * broadcast(1 / b), which
    is not IEEE division (3.0 / 5 would be 0.6000000000000001): a select on a
    condition that is never true but that XLA can neither evaluate nor reduce to a
    broadcast (x / y is NaN where x is)."""
    shape = jnp.broadcast_shapes(x.shape, y.shape)
    never = jnp.isnan(x) | (_flat_index(shape) < 0)
    return jnp.where(never, jnp.nan, y).astype(y.dtype)


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
    return jnp.where(_flat_index(x.shape) < n - n % 4, vector.astype(np.uint32), scalar)


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
        return _rounded(lax.convert_element_type(x, dtype))
    if dtype.kind not in "iu" or _kind(x) != "f":
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
    if _kind(y) == "i":
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
    u = lax.bitcast_convert_type(x, _unsigned(x.dtype)) if _kind(x) == "i" else x
    return jnp.where(x < 0, jnp.zeros_like(u) - u, u) if _kind(x) == "i" else u


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

# NumPy computes these float16 loops in float32 and rounds the result once.
_FLOAT16_VIA_FLOAT32 = {
    "exp", "exp2", "expm1", "log", "log2", "log10", "log1p", "logaddexp", "logaddexp2",
    "sin", "cos", "tan", "arcsin", "arccos", "arctan", "arctan2", "hypot", "sinh", "cosh",
    "tanh", "arcsinh", "arccosh", "arctanh", "cbrt", "power", "deg2rad", "rad2deg",
    "degrees", "radians", "floor_divide", "remainder", "ldexp"}


def _via_float32(fn):
    def lowered(*xs, **attrs):
        up = [x.astype(jnp.float32) if x.dtype == jnp.float16 else x for x in xs]
        return fn(*up, **attrs).astype(jnp.float16)
    return lowered


def _by_divisor(fn):
    return lambda x, y: fn(x, _divisor(x, y))


def _arcsin(x):
    """asin(x) is x below 1e-8 (jax's formula loses the smallest normal numbers)."""
    return jnp.where(jnp.abs(x) < 1e-8, x, jnp.arcsin(x))


def _floor_divide(x, y):
    """NumPy's npy_divmod: a zero quotient has the sign of x / y (jnp's: of x - mod)."""
    q = jnp.floor_divide(x, y)
    return jnp.where(q == 0, jnp.copysign(jnp.zeros_like(q), x / y), q)


def _remainder(x, y):
    """NumPy's npy_divmod: a zero remainder has the sign of y (jnp's: of fmod)."""
    r = jnp.remainder(x, y)
    return jnp.where(r == 0, jnp.copysign(jnp.zeros_like(r), y), r)


def _modf(x, out=0):
    """NumPy: modf(±inf) is (±0, ±inf)."""
    frac, whole = jnp.modf(x)
    return jnp.where(jnp.isinf(x), jnp.copysign(jnp.zeros_like(x), x), frac) if out == 0 \
        else whole


def _hypot(x, y):
    """glibc's hypotf computes in double and rounds once (jnp.hypot's float32 result
    is off by an ulp for a third of inputs); float64 stays jnp.hypot's (see report)."""
    if x.dtype == jnp.float32:
        wide = [v.astype(jnp.float64) for v in (x, y)]
        r = jnp.sqrt(wide[0] * wide[0] + wide[1] * wide[1]).astype(jnp.float32)
        return jnp.where(jnp.isinf(x) | jnp.isinf(y), jnp.inf, r)  # inf even with a NaN
    return jnp.hypot(x, y)


def _spacing(x):
    """NumPy: spacing(±0) is the smallest subnormal, spacing(±inf) is NaN."""
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
_logaddexp2 = _logaddexp_with(lambda d: _rounded(jnp.log1p(jnp.exp2(d)) * (1 / math.log(2))),
                              1.0)  # NumPy's npy_log2_1p rounds the product first


# ---------------------------------------------------------------------------------
# Complex numbers: NumPy's own formulas where they differ from XLA's (mostly at
# infinities, NaNs, signed zeros and branch cuts).

def _fma(x, y, z):
    """x*y + z rounded once (an FMA instruction): a product of finite numbers never
    overflows on the way, so an infinite z decides."""
    return jnp.where(jnp.isinf(z) & jnp.isfinite(x) & jnp.isfinite(y), z, x * y + z)


def _cmul(ar, ai, br, bi, fused=True):
    """NumPy's complex product (ar br - ai bi) + (ar bi + ai br) i, with no recovery
    of infinities; its SIMD loops (multiply, square, cumprod, reductions across rows)
    compute the ar products with FMA, its scalar loops (npy_cpow, reductions along a
    row) round each product."""
    if fused:
        return _fma(ar, br, -_rounded(ai * bi)), _fma(ar, bi, _rounded(ai * br))
    return _rounded(ar * br) - _rounded(ai * bi), _rounded(ar * bi) + _rounded(ai * br)


def _cdiv(ar, ai, br, bi):
    """NumPy's complex division (Smith's method, as in its loops)."""
    abs_br, abs_bi = jnp.abs(br), jnp.abs(bi)
    rat = _rounded(bi / br)
    scl = _rounded(1 / (br + _rounded(bi * rat)))
    by_re = ((ar + _rounded(ai * rat)) * scl, (ai - _rounded(ar * rat)) * scl)
    by_zero = ar / abs_br, ai / abs_br
    rat = _rounded(br / bi)
    scl = _rounded(1 / (bi + _rounded(br * rat)))
    by_im = ((_rounded(ar * rat) + ai) * scl, (_rounded(ai * rat) - ar) * scl)
    first = abs_br >= abs_bi
    zero = (abs_br == 0) & (abs_bi == 0)
    return tuple(jnp.where(first, jnp.where(zero, z, r), i)
                 for r, z, i in zip(by_re, by_zero, by_im))


def _complex_binary(fn):
    return lambda a, b: _pack(*fn(*_parts(a), *_parts(b)))


def _c99(finite, rules):
    """A C99 complex function as glibc computes it (NumPy calls glibc): `finite(x, y)`
    (real and imaginary part) where both parts of z = x + iy are finite; elsewhere the
    first of `rules(x, y)`, (condition, real, imaginary) triples, whose condition
    holds (C99 Annex G.6 with glibc's choices where it leaves signs open), and
    NaN + NaN j when none does."""
    def lowered(z):
        x, y = _parts(z)
        ok = jnp.isfinite(x) & jnp.isfinite(y)
        re, im = finite(*(jnp.where(ok, v, 0) for v in (x, y)))
        special = jnp.full_like(x, jnp.nan), jnp.full_like(x, jnp.nan)
        for cond, *value in reversed(rules(x, y)):
            special = tuple(jnp.where(cond, v, w) for v, w in zip(value, special))
        return _pack(*(jnp.where(ok, v, w).astype(x.dtype) for v, w in zip((re, im), special)))
    return lowered


def _of_z(fn):
    """fn of a complex z as a function of its parts (for `_c99`)."""
    return lambda x, y: _parts(fn(_pack(x, y)))


_INF, _NAN, _PI = math.inf, math.nan, math.pi


def _inf_cis(y):
    """cos y + i sin y scaled to infinity (x infinite and y finite in cexp, csinh and
    ccosh), + i y at y = 0."""
    return (jnp.copysign(_INF, jnp.cos(y)),
            jnp.where(y == 0, y, jnp.copysign(_INF, jnp.sin(y))))


def _cexp_rules(x, y):
    re, im = _inf_cis(y)
    return [((x == _INF) & jnp.isfinite(y), re, im),
            (x == _INF, _INF, _NAN),
            ((x == -_INF) & jnp.isfinite(y), jnp.copysign(0.0, jnp.cos(y)),
             jnp.copysign(0.0, jnp.sin(y))),
            (x == -_INF, 0.0, jnp.copysign(0.0, y)),
            (jnp.isnan(x) & (y == 0), _NAN, y)]


def _csinh_rules(x, y):
    re, im = _inf_cis(y)
    return [(x == 0, x, _NAN),
            (jnp.isinf(x) & jnp.isfinite(y), jnp.copysign(1.0, x) * re, im),
            (jnp.isinf(x), _INF, _NAN),
            (jnp.isnan(x) & (y == 0), _NAN, y)]


def _ccosh_rules(x, y):
    re, im = _inf_cis(y)
    return [(x == 0, _NAN, 0.0),
            (jnp.isinf(x) & jnp.isfinite(y), re, jnp.copysign(1.0, x) * im),
            (jnp.isinf(x), _INF, _NAN),
            (jnp.isnan(x) & (y == 0), _NAN, y)]


def _csin_rules(x, y):
    """glibc's csin: -i csinh(iz), except + i inf at an infinite y with x infinite or
    NaN."""
    re, im = _inf_cis(x)
    return [(jnp.isinf(y) & jnp.isfinite(x), im, jnp.copysign(1.0, y) * re),
            (jnp.isinf(y), _NAN, _INF),
            (y == 0, _NAN, y),
            (x == 0, x, _NAN)]


def _ctanh_rules(x, y):
    big = jnp.isfinite(y) & (jnp.abs(y) > 1)  # glibc's test; sin y cos y has y's sign below
    return [(jnp.isinf(x), jnp.copysign(1.0, x),
             jnp.copysign(0.0, jnp.where(big, jnp.sin(y) * jnp.cos(y), y))),
            (y == 0, x, y),
            (x == 0, x, _NAN)]


def _csqrt_rules(x, y):
    return [(jnp.isinf(y), _INF, y),
            ((x == -_INF) & jnp.isnan(y), _NAN, jnp.copysign(_INF, y)),
            (x == -_INF, 0.0, jnp.copysign(_INF, y)),
            ((x == _INF) & jnp.isnan(y), _INF, _NAN),
            (x == _INF, _INF, jnp.copysign(0.0, y))]


def _casinh_rules(x, y):
    return [(jnp.isinf(y) & jnp.isnan(x), jnp.copysign(_INF, x), _NAN),
            (jnp.isinf(y) & jnp.isinf(x), x, jnp.copysign(_PI / 4, y)),
            (jnp.isinf(y), jnp.copysign(_INF, x), jnp.copysign(_PI / 2, y)),
            (jnp.isinf(x) & jnp.isfinite(y), x, jnp.copysign(0.0, y)),
            (jnp.isnan(x) & (y == 0), x, y),
            (jnp.isinf(x), x, _NAN)]


def _cacosh_rules(x, y):
    return [(jnp.isinf(y) & jnp.isnan(x), _INF, _NAN),
            (jnp.isinf(y) & (x == -_INF), _INF, jnp.copysign(3 * _PI / 4, y)),
            (jnp.isinf(y) & (x == _INF), _INF, jnp.copysign(_PI / 4, y)),
            (jnp.isinf(y), _INF, jnp.copysign(_PI / 2, y)),
            ((x == -_INF) & jnp.isfinite(y), _INF, jnp.copysign(_PI, y)),
            ((x == _INF) & jnp.isfinite(y), _INF, jnp.copysign(0.0, y)),
            (jnp.isinf(x), _INF, _NAN),
            (x == 0, _NAN, _PI / 2)]


def _cacos_rules(x, y):
    """glibc: π/2 - casin z, whose NaN cases come first."""
    return [(jnp.isnan(y) & (x == 0), _PI / 2, _NAN),
            (jnp.isnan(y) & jnp.isinf(x), _NAN, -jnp.copysign(_INF, y)),
            (jnp.isnan(x) & jnp.isinf(y), _NAN, -y),
            (jnp.isinf(y) & (x == -_INF), 3 * _PI / 4, -y),
            (jnp.isinf(y) & (x == _INF), _PI / 4, -y),
            (jnp.isinf(y), _PI / 2, -y),
            (x == -_INF, _PI, -jnp.copysign(_INF, y)),
            (x == _INF, 0.0, -jnp.copysign(_INF, y))]


def _catanh_rules(x, y):
    return [(jnp.isinf(y), jnp.copysign(0.0, x), jnp.copysign(_PI / 2, y)),
            (jnp.isinf(x) & jnp.isfinite(y), jnp.copysign(0.0, x), jnp.copysign(_PI / 2, y)),
            (jnp.isinf(x) | (x == 0), jnp.copysign(0.0, x), _NAN)]


def _c_square(z):
    return _pack(*_cmul(*_parts(z), *_parts(z)))


def _c_reciprocal(z):
    """NumPy: Smith's method for 1 / z."""
    re, im = _parts(z)
    first = jnp.abs(im) <= jnp.abs(re)
    r = _rounded(im / re)
    d = _rounded(re + _rounded(im * r))
    by_re = 1 / d, -r / d
    r = _rounded(re / im)
    d = _rounded(_rounded(re * r) + im)
    by_im = r / d, -1 / d
    return _pack(*(jnp.where(first, a, b) for a, b in zip(by_re, by_im)))


def _c_absolute(z):
    """NumPy: hypot(re, im), which is inf when either part is, even with a NaN."""
    return _hypot(*_parts(z))


def _c_sign(z):
    """NumPy: z / |z|; NaN for NaN, ±1 or ±1j toward one infinite part, NaN when
    both are infinite, 0 at 0."""
    re, im = _parts(z)
    mag = _hypot(re, im)
    one = jnp.ones_like(re)
    inf_re = jnp.where(jnp.isinf(im), jnp.nan, jnp.sign(re)), jnp.where(jnp.isinf(im), jnp.nan, 0)
    inf_im = jnp.zeros_like(re), jnp.where(im > 0, one, -one)
    finite = re / mag, im / mag
    out = []
    for k in range(2):
        v = jnp.where(jnp.isinf(re), inf_re[k], inf_im[k])
        v = jnp.where(jnp.isinf(mag), v, jnp.where(mag == 0, 0, finite[k]))
        out.append(jnp.where(jnp.isnan(mag), jnp.nan, v).astype(re.dtype))
    return _pack(*out)


def _csqrt_finite(x, y):
    """csqrt is conj-symmetric, so the sign of a zero imaginary part picks the branch."""
    r = jnp.sqrt(_pack(x, jnp.abs(y)))
    return jnp.real(r), jnp.copysign(jnp.imag(r), y)


_c_sqrt = _c99(_csqrt_finite, _csqrt_rules)


def _glibc_t(dtype) -> float:
    """glibc's threshold t = (int)((MAX_EXP - 1) ln 2): exp(t) is finite."""
    return float(int((np.finfo(dtype).maxexp - 1) * math.log(2)))


def _exp_times(x, c, s, half=False):
    """(e·c, e·s) for e = exp(x) (halved if `half`), x >= 0, scaled as glibc's cexp,
    csinh and ccosh do so that exp(x) does not overflow where the products are
    finite."""
    t = _glibc_t(x.dtype)
    exp_t = np.exp(np.asarray(t, x.dtype))
    first = exp_t / 2 if half else exp_t
    big = x > t
    c, s = (jnp.where(big, _rounded(v * first), v) for v in (c, s))
    x = jnp.where(big, x - t, x)
    twice = x > t
    c, s = (jnp.where(twice, _rounded(v * exp_t), v) for v in (c, s))
    x = jnp.where(twice, x - t, x)
    e = jnp.where(big, jnp.exp(jnp.minimum(x, t)), (jnp.exp(x) / 2) if half else jnp.exp(x))
    return tuple(jnp.where(x > t, np.finfo(x.dtype).max * v, e * v) for v in (c, s))


def _cexp_finite(x, y):
    return _exp_times(x, jnp.cos(y), jnp.sin(y))


def _csinh_cosh_finite(sinh_first: bool):
    """csinh (sinh x cos y + i cosh x sin y) or ccosh (cosh x cos y + i sinh x sin y)."""
    def parts(x, y):
        t = _glibc_t(x.dtype)
        c, s = jnp.cos(y), jnp.sin(y)
        sign = jnp.where(jnp.signbit(x), -1.0, 1.0).astype(x.dtype)
        big_c, big_s = _exp_times(jnp.abs(x), c, s, half=True)
        scaled = (sign * big_c, big_s) if sinh_first else (big_c, sign * big_s)
        near = ((jnp.sinh(x) * c, jnp.cosh(x) * s) if sinh_first
                else (jnp.cosh(x) * c, jnp.sinh(x) * s))
        return tuple(jnp.where(jnp.abs(x) > t, a, b) for a, b in zip(scaled, near))
    return parts


def _ctanh_finite(x, y):
    """glibc's ctanh: (sinh x cosh x + i sin y cos y) / (sinh² x + cos² y), and for
    large |x| ±1 + i 4 sin y cos y / exp(2|x|) computed without overflow."""
    t = float(int((np.finfo(x.dtype).maxexp - 1) * math.log(2) / 2))
    tiny = np.finfo(x.dtype).tiny
    small_y = jnp.abs(y) <= tiny
    sin_y = jnp.where(small_y, y, jnp.sin(y))
    cos_y = jnp.where(small_y, 1, jnp.cos(y))
    small_x = jnp.abs(x) <= tiny
    sinh_x = jnp.where(small_x, x, jnp.sinh(x))
    cosh_x = jnp.where(small_x, 1, jnp.cosh(x))
    cos2 = _rounded(cos_y * cos_y)
    den = jnp.where(jnp.abs(sinh_x) > jnp.abs(cos_y) * np.finfo(x.dtype).eps,
                    _rounded(sinh_x * sinh_x) + cos2, cos2)
    near = _rounded(sinh_x * cosh_x) / den, _rounded(sin_y * cos_y) / den
    exp_2t = np.exp(np.asarray(2 * t, x.dtype))
    rest = jnp.abs(x) - t
    im = _rounded(4 * sin_y * cos_y) / exp_2t
    im = im / jnp.where(rest > t, exp_2t, jnp.exp(2 * jnp.minimum(rest, t)))
    far = jnp.copysign(jnp.ones_like(x), x), im
    return tuple(jnp.where(jnp.abs(x) > t, a, b) for a, b in zip(far, near))


_c_exp = _c99(_cexp_finite, _cexp_rules)


def _times_i(fn):
    """f(z) = -i g(iz) (sin from sinh, tan from tanh, asin from asinh, atan from atanh)."""
    def lowered(z):
        x, y = _parts(z)
        r = fn(_pack(-y, x))
        return _pack(jnp.imag(r), -jnp.real(r))
    return lowered


def _of_i(fn):
    """f(z) = g(iz) (cos from cosh)."""
    def lowered(z):
        x, y = _parts(z)
        return fn(_pack(-y, x))
    return lowered


_c_sinh = _c99(_csinh_cosh_finite(True), _csinh_rules)
_c_cosh = _c99(_csinh_cosh_finite(False), _ccosh_rules)
_c_tanh = _c99(_ctanh_finite, _ctanh_rules)
_c_sin = _c99(_of_z(_times_i(_c_sinh)), _csin_rules)
_c_cos = _of_i(_c_cosh)
_c_tan = _times_i(_c_tanh)


def _c_exp2(z):
    """NumPy: cexp(re·ln2 + i·im·ln2), each part scaled alone."""
    re, im = _parts(z)
    return _c_exp(_pack(re * math.log(2), im * math.log(2)))


def _c_expm1(z):
    """NumPy: (expm1(x) cos(y) - 2 sin²(y/2)) + i exp(x) sin(y)."""
    x, y = _parts(z)
    a = jnp.sin(y / 2)
    re = _rounded(jnp.expm1(x) * jnp.cos(y)) - _rounded(2 * a * a)
    return _pack(re, jnp.exp(x) * jnp.sin(y))


def _flushed(x):
    """x with subnormals as zeros of their sign: what XLA's CPU arithmetic reads them
    as anyway (DAZ), made explicit where an XLA kernel would otherwise see some parts
    flushed and others not (complex log's angle came out with the wrong sign)."""
    tiny = np.finfo(np.dtype(x.dtype)).tiny
    return jnp.where(jnp.abs(x) < tiny, jnp.copysign(jnp.zeros_like(x), x), x)


def _c_log(z):
    """clog: log|z| is inf when either part is infinite, even with a NaN."""
    re, im = _flushed(jnp.real(z)), _flushed(jnp.imag(z))
    r = jnp.log(_pack(re, im))
    return _pack(jnp.where(jnp.isinf(re) | jnp.isinf(im), jnp.inf, jnp.real(r)), jnp.imag(r))


def _c_log_times(factor: float):
    """NumPy's complex log2 and log10: clog(z) times log2(e) or log10(e), part by part."""
    def lowered(z):
        re, im = _parts(_c_log(z))
        return _pack(_rounded(re * factor), _rounded(im * factor))
    return lowered


def _c_log1p(z):
    """NumPy: log(hypot(x + 1, y)) + i atan2(y, x + 1)."""
    x, y = _parts(z)
    return _pack(jnp.log(_hypot(x + 1, y)), jnp.arctan2(y, x + 1))


def _c99_mul(a, b):
    """C's complex product (libgcc __muldc3): when both parts come out NaN, an
    infinite factor is recovered as an infinity in its direction."""
    ar, ai = _parts(a)
    br, bi = _parts(b)
    re, im = _cmul(ar, ai, br, bi, fused=False)

    def unit(v, inf):  # an infinite part as ±1, the other parts ±0 (NaN too)
        return jnp.copysign(jnp.where(jnp.isinf(v), 1.0, 0.0), v) if inf else \
            jnp.where(jnp.isnan(v), jnp.copysign(0.0, v), v)

    a_inf = jnp.isinf(ar) | jnp.isinf(ai)
    b_inf = jnp.isinf(br) | jnp.isinf(bi)
    overflow = (jnp.isinf(ar * br) | jnp.isinf(ai * bi) | jnp.isinf(ar * bi)
                | jnp.isinf(ai * br))
    ar, ai = (jnp.where(a_inf, unit(v, True), jnp.where(b_inf | overflow, unit(v, False), v))
              for v in (ar, ai))
    br, bi = (jnp.where(b_inf, unit(v, True), jnp.where(a_inf | overflow, unit(v, False), v))
              for v in (br, bi))
    again = tuple(jnp.inf * v for v in _cmul(ar, ai, br, bi, fused=False))
    recover = jnp.isnan(re) & jnp.isnan(im) & (a_inf | b_inf | overflow)
    return _pack(*(jnp.where(recover, v, w) for v, w in zip(again, (re, im))))


def _c_power(a, b):
    """NumPy's npy_cpow: 1 for b == 0; for a == 0, 0 when Re b > 0 and NaN otherwise;
    repeated multiplication for integer b in (-100, 100) (then 1 / result for b < 0);
    elsewhere glibc's cpow, cexp(b · clog(a))."""
    ar, ai = _parts(a)
    br, bi = _parts(b)
    n = jnp.where((bi == 0) & (jnp.abs(br) < 100), br, 0).astype(jnp.int32)
    integral = (bi == 0) & (jnp.abs(br) < 100) & (n == br)
    square = _cmul(ar, ai, ar, ai, fused=False)
    cube = _cmul(ar, ai, *square, fused=False)
    acc = jnp.ones_like(ar), jnp.zeros_like(ar)
    p = ar, ai
    m = jnp.abs(n)
    for _ in range(7):  # |n| < 128
        product = _cmul(*acc, *p, fused=False)
        acc = tuple(jnp.where((m & 1) == 1, v, w) for v, w in zip(product, acc))
        p = _cmul(*p, *p, fused=False)
        m = m >> 1
    acc = tuple(jnp.where(br < 0, v, w) for v, w in zip(_cdiv(1.0, 0.0, *acc), acc))
    by_n = [jnp.where(n == 1, a1, jnp.where(n == 2, a2, jnp.where(n == 3, a3, an)))
            for a1, a2, a3, an in zip((ar, ai), square, cube, acc)]
    result = jnp.where(integral, _pack(*by_n), _c_exp(_c99_mul(b, _c_log(a))))
    zero = jnp.zeros_like(ar)
    at_zero = jnp.where(br > 0, _pack(zero, zero), _pack(zero + jnp.nan, zero + jnp.nan))
    result = jnp.where((ar == 0) & (ai == 0), at_zero, result)
    return jnp.where((br == 0) & (bi == 0), _pack(zero + 1, zero), result)


# C99 inverse functions from jax's value on one quadrant, then their symmetries, so
# that signed zeros choose the side of a branch cut as in C (and NumPy).

def _odd_conj_symmetric(fn):
    """f(x + iy) = ±Re f(|x| + i|y|) ± i Im f(|x| + i|y|), signs of x and y
    (asinh, atanh)."""
    def lowered(z):
        x, y = _parts(z)
        r = fn(_pack(jnp.abs(x), jnp.abs(y)))
        return _pack(jnp.copysign(jnp.real(r), x), jnp.copysign(jnp.imag(r), y))
    return lowered


def _conj_symmetric(fn):
    """f(conj z) = conj f(z) (acos, acosh): evaluate with |y|, conjugate for y < 0."""
    def lowered(z):
        x, y = _parts(z)
        r = fn(_pack(x, jnp.abs(y)))
        im = jnp.imag(r)
        return _pack(jnp.real(r), jnp.where(jnp.signbit(y), -im, im))
    return lowered


def _atanh_first_quadrant(z):
    """jax's atanh, with the real part from logs of hypot where (1 - x)² + y²
    underflows (near z = 1)."""
    x, y = _parts(z)
    tiny = (1 - x) ** 2 + y ** 2 < np.finfo(x.dtype).tiny / np.finfo(x.dtype).eps
    near = 0.5 * (jnp.log(jnp.hypot(1 + x, y)) - jnp.log(jnp.hypot(1 - x, y)))
    r = jnp.arctanh(z)
    return _pack(jnp.where(tiny, near, jnp.real(r)), jnp.imag(r))


_c_arcsinh = _c99(_of_z(_odd_conj_symmetric(jnp.arcsinh)), _casinh_rules)
_c_arctanh = _c99(_of_z(_odd_conj_symmetric(_atanh_first_quadrant)), _catanh_rules)
_c_arcsin = _times_i(_c_arcsinh)
_c_arctan = _times_i(_c_arctanh)
_c_arccos = _c99(_of_z(_conj_symmetric(jnp.arccos)), _cacos_rules)
_c_arccosh = _c99(_of_z(_conj_symmetric(jnp.arccosh)), _cacosh_rules)


# NumPy orders complex numbers lexicographically; a NaN in an imaginary part makes
# the real parts incomparable too.

def _c_order(real_cmp, imag_cmp):
    def cmp(ar, ai, br, bi):
        return ((real_cmp(ar, br) & ~jnp.isnan(ai) & ~jnp.isnan(bi))
                | ((ar == br) & imag_cmp(ai, bi)))
    return cmp


_CGT, _CGE = _c_order(jnp.greater, jnp.greater), _c_order(jnp.greater, jnp.greater_equal)
_CLT, _CLE = _c_order(jnp.less, jnp.less), _c_order(jnp.less, jnp.less_equal)


def _c_compare(cmp):
    return lambda a, b: cmp(*_parts(a), *_parts(b))


def _c_pick(cmp, nan_side: int):
    """maximum/minimum (nan_side 0: a NaN in `a` wins) and fmax/fmin (nan_side 1: a
    NaN in `b` loses): `a` where that holds or cmp(a, b), else `b`."""
    def lowered(a, b):
        parts = _parts(a) + _parts(b)
        keep_a = _isnan_c(*parts[2 * nan_side:2 * nan_side + 2]) | cmp(*parts)
        return jnp.where(keep_a, a, b)
    return lowered


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


_FLOAT = {
    "hypot": _hypot,
    "sign": _f_sign,
    **{name: _by_divisor(fn) for name, fn in (
        ("divide", jnp.divide), ("floor_divide", _floor_divide),
        ("remainder", _remainder), ("fmod", jnp.fmod))},
    "arcsin": _arcsin,
    "modf": _modf,
    "spacing": _spacing,
    "logaddexp": _logaddexp,
    "logaddexp2": _logaddexp2,
}

_COMPLEX = {
    "multiply": _complex_binary(_cmul),
    "divide": _complex_binary(_cdiv),
    "square": _c_square,
    "reciprocal": _c_reciprocal,
    "absolute": _c_absolute,
    "sign": _c_sign,
    "sqrt": _c_sqrt,
    "exp": _c_exp,
    "exp2": _c_exp2,
    "expm1": _c_expm1,
    "log": _c_log,
    "log2": _c_log_times(1 / math.log(2)),
    "log10": _c_log_times(1 / math.log(10)),
    "log1p": _c_log1p,
    "sinh": _c_sinh,
    "cosh": _c_cosh,
    "tanh": _c_tanh,
    "sin": _c_sin,
    "cos": _c_cos,
    "tan": _c_tan,
    "power": _c_power,
    "float_power": _c_power,
    "arcsin": _c_arcsin,
    "arccos": _c_arccos,
    "arcsinh": _c_arcsinh,
    "arccosh": _c_arccosh,
    "arctan": _c_arctan,
    "arctanh": _c_arctanh,
    "greater": _c_compare(_CGT),
    "greater_equal": _c_compare(_CGE),
    "less": _c_compare(_CLT),
    "less_equal": _c_compare(_CLE),
    "maximum": _c_pick(_CGE, 0),
    "minimum": _c_pick(_CLE, 0),
    "fmax": _c_pick(_CGE, 1),
    "fmin": _c_pick(_CLE, 1),
}

_BY_KIND = {"b": {"sign": lambda x: x}, "i": _INTEGER, "u": _INTEGER, "f": _FLOAT,
            "c": _COMPLEX}


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
    info = jnp.finfo(x.dtype)
    bits, nmant = int(info.bits), int(info.nmant)
    uint = jnp.dtype(f"uint{bits}")
    bias = (1 << (bits - nmant - 2)) - 1
    raw = jax.lax.bitcast_convert_type(x, uint)
    mant_mask = uint.type((1 << nmant) - 1)
    field = raw & mant_mask
    subnormal = ((raw >> nmant) & uint.type((1 << (bits - nmant - 1)) - 1)) == 0
    subnormal = subnormal & (field != 0)
    p = (bits - 1) - jax.lax.clz(field).astype(jnp.int32)
    shifted = jax.lax.shift_left(field, jnp.clip(nmant - p, 0, nmant).astype(uint)) & mant_mask
    sign = raw & uint.type(1 << (bits - 1))
    m_bits = sign | uint.type((bias - 1) << nmant) | shifted
    sub_m = jax.lax.bitcast_convert_type(m_bits, x.dtype)
    sub_e = (p + 2 - bias - nmant).astype(jnp.int32)
    mantissa, exponent = jnp.frexp(x)
    return (jnp.where(subnormal, sub_m, mantissa),
            jnp.where(subnormal, sub_e, exponent.astype(jnp.int32)))


_DEFAULT = {name: getattr(jnp, name) for name in UFUNCS}
_DEFAULT.update(modf=_multi_output(jnp.modf), frexp=_multi_output(_frexp))


def _ufunc(name: str):
    def lowered(*xs, **attrs):
        fn = _BY_KIND.get(_kind(xs[0]), {}).get(name)
        if fn is None:
            fn = _DEFAULT[name]
        elif len(xs) > 1:
            xs = jnp.broadcast_arrays(*xs)
        if xs[0].dtype == jnp.float16 and name in _FLOAT16_VIA_FLOAT32:
            fn = _via_float32(fn)
        result = fn(*xs, **attrs)
        return _rounded(result) if _kind(result) in "fc" else result
    return lowered


def _power(x, y, flags):
    if _kind(x) in "iu":
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


def _iota(shape, dtype, axis):
    return lax.broadcasted_iota(dtype, shape, axis)


def _correlate(a, v, mode):
    """lazyarr's "correlate" (no conjugation) as XLA's convolution, which is a
    cross-correlation: a padded by n_left on the left, so the output has its length."""
    n1, n2 = a.shape[0], v.shape[0]
    n_left = (0, n2 // 2, n2 - 1)[mode]
    length = (n1 - n2 + 1, n1, n1 + n2 - 1)[mode]
    padding = [(n_left, length - n1 - n_left + n2 - 1)]

    def real(x, y):
        out = lax.conv_general_dilated(x[None, None, :], y[None, None, :], (1,), padding,
                                       precision=lax.Precision.HIGHEST)
        return out[0, 0]
    if jnp.iscomplexobj(a):
        ar, ai, vr, vi = jnp.real(a), jnp.imag(a), jnp.real(v), jnp.imag(v)
        return lax.complex(real(ar, vr) - real(ai, vi), real(ar, vi) + real(ai, vr))
    return real(a, v)


def _take(x, indices, axis):
    shape = x.shape[:axis] + indices.shape + x.shape[axis + 1:]
    if not math.prod(shape):  # jnp.take from an empty axis loses the indices' shape
        return jnp.zeros(shape, x.dtype)
    return jnp.take(x, indices, axis=axis, mode="clip")  # indices are in range already


def _einsum(*xs, subscripts):
    return jnp.einsum(subscripts, *xs, preferred_element_type=xs[0].dtype)


# ---------------------------------------------------------------------------------
# Reductions and scans.

def _last(x, axes):
    """x with `axes` moved to the end (in order) and flattened into one axis."""
    rest = [a for a in range(x.ndim) if a not in axes]
    moved = jnp.transpose(x, rest + list(axes))
    return moved.reshape(moved.shape[:len(rest)] + (math.prod(x.shape[a] for a in axes),))


def _sequential(step, x, axis, init=None):
    """The running values of `step` along `axis`, in order, as NumPy's loops do."""
    moved = jnp.moveaxis(x, axis, 0)
    if init is None:
        first, rest = moved[0], moved[1:]
    else:
        first, rest = step(init, moved[0]), moved[1:]

    def body(carry, item):
        value = step(carry, item)
        return value, value
    last, scanned = lax.scan(body, first, rest)
    return jnp.moveaxis(jnp.concatenate([first[None], scanned]), 0, axis), last


def _c_mul(fused: bool):
    return lambda a, b: _pack(*_cmul(*_parts(a), *_parts(b), fused=fused))


def _reduce_sum(x, axes):
    if x.dtype == jnp.float16:  # NumPy sums float16 in float32
        return jnp.sum(x, axis=axes, dtype=jnp.float32).astype(x.dtype)
    return jnp.sum(x, axis=axes, dtype=x.dtype)


def _reduce_prod(x, axes):
    """Complex: NumPy multiplies in order from 1 + 0j with its own product, which
    decides where infinities and NaNs come out: its scalar loop when the reduced
    elements are the inner (last non-unit) axis, else its SIMD loop; float16 in
    float32."""
    if _kind(x) == "c":
        if x.size == 0:
            return jnp.ones(tuple(n for a, n in enumerate(x.shape) if a not in axes), x.dtype)
        flat = _last(x, axes)
        one = jnp.ones(flat.shape[:-1], x.dtype)
        inner = [a for a in range(x.ndim) if x.shape[a] != 1][-1:]
        step = _c_mul(fused=bool(inner) and inner[0] not in axes)
        return _sequential(step, flat, flat.ndim - 1, init=one)[1]
    if x.dtype == jnp.float16:
        return jnp.prod(x, axis=axes, dtype=jnp.float32).astype(x.dtype)
    return jnp.prod(x, axis=axes, dtype=x.dtype)


def _c_argext(z, axis: int, better):
    """NumPy's complex argmax/argmin: the first NaN if any, else the first of the
    lexicographic extremes."""
    re, im = _parts(z)
    nan = _isnan_c(re, im)
    fill = -jnp.inf if better is jnp.greater else jnp.inf
    pick = jnp.max if better is jnp.greater else jnp.min
    best_re = pick(jnp.where(nan, fill, re), axis=axis, keepdims=True)
    on_best = (re == best_re) & ~nan
    best_im = pick(jnp.where(on_best, im, fill), axis=axis, keepdims=True)
    winner = on_best & (im == best_im)
    return jnp.where(jnp.any(nan, axis=axis), jnp.argmax(nan, axis=axis),
                     jnp.argmax(winner, axis=axis))


def _argreduce(fn, better):
    def lowered(x, axis):
        index = _c_argext(x, axis, better) if _kind(x) == "c" else fn(x, axis=axis)
        return index.astype(jnp.int64)
    return lowered


def _extreme(fn, better):
    """max/min; complex: the element at NumPy's argmax/argmin (a NaN propagates)."""
    def lowered(x, axes):
        if _kind(x) != "c":
            return fn(x, axis=axes)
        flat = _last(x, axes)
        index = _c_argext(flat, flat.ndim - 1, better)
        return jnp.take_along_axis(flat, index[..., None], axis=-1)[..., 0]
    return lowered


# Float running sums and products along axes up to this long are computed in NumPy's
# order (a scan), so they round exactly as NumPy's; longer ones use XLA's parallel
# prefix, which rounds differently (documented).
_SEQUENTIAL_MAX = 1024


def _in_order(x, axis) -> bool:
    return x.dtype == jnp.float16 or (_kind(x) in "fc" and x.shape[axis] <= _SEQUENTIAL_MAX)


def _cumsum(x, axis):
    if _in_order(x, axis):  # float16: NumPy rounds each running sum to float16
        if x.shape[axis] == 0:
            return x
        return _sequential(_rounded_step(jnp.add), x, axis)[0]
    return jnp.cumsum(x, axis=axis, dtype=x.dtype)


def _cumprod(x, axis):
    """NumPy multiplies in order; complex with its SIMD loop for two elements, its
    scalar loop (in place) for more."""
    if _kind(x) == "c" or _in_order(x, axis):
        if x.shape[axis] == 0:
            return x
        step = _c_mul(fused=x.shape[axis] == 2) if _kind(x) == "c" else jnp.multiply
        return _sequential(_rounded_step(step), x, axis)[0]
    return jnp.cumprod(x, axis=axis, dtype=x.dtype)


def _rounded_step(step):
    return lambda a, b: _rounded(step(a, b))


_REDUCERS = {"reduce_sum": _reduce_sum, "reduce_prod": _reduce_prod,
             "reduce_max": _extreme(jnp.max, jnp.greater),
             "reduce_min": _extreme(jnp.min, jnp.less),
             "reduce_any": lambda x, axes: jnp.any(x, axis=axes),
             "reduce_all": lambda x, axes: jnp.all(x, axis=axes)}


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
    op("take"): _take,
    op("argmax"): _argreduce(jnp.argmax, jnp.greater),
    op("argmin"): _argreduce(jnp.argmin, jnp.less),
    op("cumsum"): _cumsum,
    op("cumprod"): _cumprod,
    op("einsum"): _einsum,
}
LOWERINGS.update({op(name): fn for name, fn in _REDUCERS.items()})
LOWERINGS.update({op(name): _ufunc(name) for name in UFUNCS if name != "power"})
registry.register_all(LOWERINGS)

# Lowerings that can raise at run time append their ops' check flags.
registry.register_all({op("normalize_index"): _normalize_index, op("power"): _power},
                      checked=True)


def prepare(program) -> None:
    """Load what a program loaded from the disk cache needs at run time (kernels that
    jax registers only while lowering a program that uses them)."""
    lowering_linalg.load_kernels({ins.op for ins in program.instructions})


def lower(instruction, args, flags: list, platform: str | None = None):
    """The jax value of one instruction; a checked lowering appends its flags."""
    fn, checked = registry.lowering(instruction.op, platform)
    if checked:
        return fn(*args, flags, **dict(instruction.attrs))
    return fn(*args, **dict(instruction.attrs))


def lowerable(platform: str | None = None) -> set:
    """The primitives (`Op` objects) this backend can run."""
    return registry.lowerable(platform)


__all__ = ["lower", "lowerable", "convert", "prepare", "jax"]
