"""Complex numbers on the XLA backend: NumPy's own formulas where they differ from
XLA's (mostly at infinities, NaNs, signed zeros and branch cuts), C99 Annex G's special
cases as NumPy's npymath applies them, and NumPy's lexicographic order. `COMPLEX` maps
a ufunc name to its complex lowering; `lowering._ufunc` looks it up by dtype kind.
"""

from __future__ import annotations

import math

import numpy as np

import jax.numpy as jnp

from .lowering_common import cmul, expm1, hypot, isnan_c, pack, parts, rounded, sinh



def _cdiv(ar, ai, br, bi):
    """NumPy's complex division (Smith's method, as in its loops)."""
    abs_br, abs_bi = jnp.abs(br), jnp.abs(bi)
    rat = rounded(bi / br)
    scl = rounded(1 / (br + rounded(bi * rat)))
    by_re = ((ar + rounded(ai * rat)) * scl, (ai - rounded(ar * rat)) * scl)
    by_zero = ar / abs_br, ai / abs_br
    rat = rounded(br / bi)
    scl = rounded(1 / (bi + rounded(br * rat)))
    by_im = ((rounded(ar * rat) + ai) * scl, (rounded(ai * rat) - ar) * scl)
    first = abs_br >= abs_bi
    zero = (abs_br == 0) & (abs_bi == 0)
    return tuple(jnp.where(first, jnp.where(zero, z, r), i)
                 for r, z, i in zip(by_re, by_zero, by_im))


def _complex_binary(fn):
    return lambda a, b: pack(*fn(*parts(a), *parts(b)))


def _c99(finite, rules):
    """A C99 complex function as glibc computes it (NumPy calls glibc): `finite(x, y)`
    (real and imaginary part) where both parts of z = x + iy are finite; elsewhere the
    first of `rules(x, y)`, (condition, real, imaginary) triples, whose condition
    holds (C99 Annex G.6 with glibc's choices where it leaves signs open), and
    NaN + NaN j when none does."""
    def lowered(z):
        x, y = parts(z)
        ok = jnp.isfinite(x) & jnp.isfinite(y)
        re, im = finite(*(jnp.where(ok, v, 0) for v in (x, y)))
        special = jnp.full_like(x, jnp.nan), jnp.full_like(x, jnp.nan)
        for cond, *value in reversed(rules(x, y)):
            special = tuple(jnp.where(cond, v, w) for v, w in zip(value, special))
        return pack(*(jnp.where(ok, v, w).astype(x.dtype) for v, w in zip((re, im), special)))
    return lowered


def _of_z(fn):
    """fn of a complex z as a function of its parts (for `_c99`)."""
    return lambda x, y: parts(fn(pack(x, y)))


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
    return pack(*cmul(*parts(z), *parts(z)))


def _c_reciprocal(z):
    """NumPy: Smith's method for 1 / z."""
    re, im = parts(z)
    first = jnp.abs(im) <= jnp.abs(re)
    r = rounded(im / re)
    d = rounded(re + rounded(im * r))
    by_re = 1 / d, -r / d
    r = rounded(re / im)
    d = rounded(rounded(re * r) + im)
    by_im = r / d, -1 / d
    return pack(*(jnp.where(first, a, b) for a, b in zip(by_re, by_im)))


def _c_absolute(z):
    """NumPy's complex absolute: the larger part times sqrt(1 + (smaller / larger)**2),
    inf when either part is, even with a NaN: jnp.hypot's steps (200,000 complex64
    of parts over 1e-6..1e6 all NumPy's; glibc's hypotf, NumPy's float `hypot` and
    `lowering_common.hypot`, differed from it on 21%)."""
    return jnp.hypot(*parts(z))


def _c_sign(z):
    """NumPy: z / |z|; NaN for NaN, ±1 or ±1j toward one infinite part, NaN when
    both are infinite, 0 at 0."""
    re, im = parts(z)
    mag = hypot(re, im)
    one = jnp.ones_like(re)
    inf_re = jnp.where(jnp.isinf(im), jnp.nan, jnp.sign(re)), jnp.where(jnp.isinf(im), jnp.nan, 0)
    inf_im = jnp.zeros_like(re), jnp.where(im > 0, one, -one)
    finite = re / mag, im / mag
    out = []
    for k in range(2):
        v = jnp.where(jnp.isinf(re), inf_re[k], inf_im[k])
        v = jnp.where(jnp.isinf(mag), v, jnp.where(mag == 0, 0, finite[k]))
        out.append(jnp.where(jnp.isnan(mag), jnp.nan, v).astype(re.dtype))
    return pack(*out)


def _csqrt_finite(x, y):
    """csqrt is conj-symmetric, so the sign of a zero imaginary part picks the branch."""
    r = jnp.sqrt(pack(x, jnp.abs(y)))
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
    c, s = (jnp.where(big, rounded(v * first), v) for v in (c, s))
    x = jnp.where(big, x - t, x)
    twice = x > t
    c, s = (jnp.where(twice, rounded(v * exp_t), v) for v in (c, s))
    x = jnp.where(twice, x - t, x)
    e = jnp.where(big, jnp.exp(jnp.minimum(x, t)), (jnp.exp(x) / 2) if half else jnp.exp(x))
    return tuple(jnp.where(x > t, np.finfo(x.dtype).max * v, e * v) for v in (c, s))


def _cexp_finite(x, y):
    return _exp_times(x, jnp.cos(y), jnp.sin(y))


def _csinh_cosh_finite(sinh_first: bool):
    """csinh (sinh x cos y + i cosh x sin y) or ccosh (cosh x cos y + i sinh x sin y)."""
    def finite(x, y):
        t = _glibc_t(x.dtype)
        c, s = jnp.cos(y), jnp.sin(y)
        sign = jnp.where(jnp.signbit(x), -1.0, 1.0).astype(x.dtype)
        big_c, big_s = _exp_times(jnp.abs(x), c, s, half=True)
        scaled = (sign * big_c, big_s) if sinh_first else (big_c, sign * big_s)
        near = ((sinh(x) * c, jnp.cosh(x) * s) if sinh_first
                else (jnp.cosh(x) * c, sinh(x) * s))
        return tuple(jnp.where(jnp.abs(x) > t, a, b) for a, b in zip(scaled, near))
    return finite


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
    cos2 = rounded(cos_y * cos_y)
    den = jnp.where(jnp.abs(sinh_x) > jnp.abs(cos_y) * np.finfo(x.dtype).eps,
                    rounded(sinh_x * sinh_x) + cos2, cos2)
    near = rounded(sinh_x * cosh_x) / den, rounded(sin_y * cos_y) / den
    exp_2t = np.exp(np.asarray(2 * t, x.dtype))
    rest = jnp.abs(x) - t
    im = rounded(4 * sin_y * cos_y) / exp_2t
    im = im / jnp.where(rest > t, exp_2t, jnp.exp(2 * jnp.minimum(rest, t)))
    far = jnp.copysign(jnp.ones_like(x), x), im
    return tuple(jnp.where(jnp.abs(x) > t, a, b) for a, b in zip(far, near))


_c_exp = _c99(_cexp_finite, _cexp_rules)


def _times_i(fn):
    """f(z) = -i g(iz) (sin from sinh, tan from tanh, asin from asinh, atan from atanh)."""
    def lowered(z):
        x, y = parts(z)
        r = fn(pack(-y, x))
        return pack(jnp.imag(r), -jnp.real(r))
    return lowered


def _of_i(fn):
    """f(z) = g(iz) (cos from cosh)."""
    def lowered(z):
        x, y = parts(z)
        return fn(pack(-y, x))
    return lowered


_c_sinh = _c99(_csinh_cosh_finite(True), _csinh_rules)
_c_cosh = _c99(_csinh_cosh_finite(False), _ccosh_rules)
_c_tanh = _c99(_ctanh_finite, _ctanh_rules)
_c_sin = _c99(_of_z(_times_i(_c_sinh)), _csin_rules)
_c_cos = _of_i(_c_cosh)
_c_tan = _times_i(_c_tanh)


def _c_exp2(z):
    """NumPy: cexp(re·ln2 + i·im·ln2), each part scaled alone."""
    re, im = parts(z)
    return _c_exp(pack(re * math.log(2), im * math.log(2)))


def _c_expm1(z):
    """NumPy: (expm1(x) cos(y) - 2 sin²(y/2)) + i exp(x) sin(y)."""
    x, y = parts(z)
    a = jnp.sin(y / 2)
    re = rounded(expm1(x) * jnp.cos(y)) - rounded(2 * a * a)
    return pack(re, jnp.exp(x) * jnp.sin(y))


def _flushed(x):
    """x with subnormals as zeros of their sign: what XLA's CPU arithmetic reads them
    as anyway (DAZ), made explicit where an XLA kernel would otherwise see some parts
    flushed and others not (complex log's angle came out with the wrong sign)."""
    tiny = np.finfo(np.dtype(x.dtype)).tiny
    return jnp.where(jnp.abs(x) < tiny, jnp.copysign(jnp.zeros_like(x), x), x)


def _c_log(z):
    """clog: log|z| is inf when either part is infinite, even with a NaN."""
    re, im = _flushed(jnp.real(z)), _flushed(jnp.imag(z))
    r = jnp.log(pack(re, im))
    return pack(jnp.where(jnp.isinf(re) | jnp.isinf(im), jnp.inf, jnp.real(r)), jnp.imag(r))


def _c_log_times(factor: float):
    """NumPy's complex log2 and log10: clog(z) times log2(e) or log10(e), part by part."""
    def lowered(z):
        re, im = parts(_c_log(z))
        return pack(rounded(re * factor), rounded(im * factor))
    return lowered


def _c_log1p(z):
    """NumPy: log(hypot(x + 1, y)) + i atan2(y, x + 1)."""
    x, y = parts(z)
    return pack(jnp.log(hypot(x + 1, y)), jnp.arctan2(y, x + 1))


def _c99_mul(a, b):
    """C's complex product (libgcc __muldc3): when both parts come out NaN, an
    infinite factor is recovered as an infinity in its direction."""
    ar, ai = parts(a)
    br, bi = parts(b)
    re, im = cmul(ar, ai, br, bi, fused=False)

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
    again = tuple(jnp.inf * v for v in cmul(ar, ai, br, bi, fused=False))
    recover = jnp.isnan(re) & jnp.isnan(im) & (a_inf | b_inf | overflow)
    return pack(*(jnp.where(recover, v, w) for v, w in zip(again, (re, im))))


def _c_power(a, b):
    """NumPy's npy_cpow: 1 for b == 0; for a == 0, 0 when Re b > 0 and NaN otherwise;
    repeated multiplication for integer b in (-100, 100) (then 1 / result for b < 0);
    elsewhere glibc's cpow, cexp(b · clog(a))."""
    ar, ai = parts(a)
    br, bi = parts(b)
    n = jnp.where((bi == 0) & (jnp.abs(br) < 100), br, 0).astype(jnp.int32)
    integral = (bi == 0) & (jnp.abs(br) < 100) & (n == br)
    square = cmul(ar, ai, ar, ai, fused=False)
    cube = cmul(ar, ai, *square, fused=False)
    acc = jnp.ones_like(ar), jnp.zeros_like(ar)
    p = ar, ai
    m = jnp.abs(n)
    for _ in range(7):  # |n| < 128
        product = cmul(*acc, *p, fused=False)
        acc = tuple(jnp.where((m & 1) == 1, v, w) for v, w in zip(product, acc))
        p = cmul(*p, *p, fused=False)
        m = m >> 1
    acc = tuple(jnp.where(br < 0, v, w) for v, w in zip(_cdiv(1.0, 0.0, *acc), acc))
    by_n = [jnp.where(n == 1, a1, jnp.where(n == 2, a2, jnp.where(n == 3, a3, an)))
            for a1, a2, a3, an in zip((ar, ai), square, cube, acc)]
    result = jnp.where(integral, pack(*by_n), _c_exp(_c99_mul(b, _c_log(a))))
    zero = jnp.zeros_like(ar)
    at_zero = jnp.where(br > 0, pack(zero, zero), pack(zero + jnp.nan, zero + jnp.nan))
    result = jnp.where((ar == 0) & (ai == 0), at_zero, result)
    return jnp.where((br == 0) & (bi == 0), pack(zero + 1, zero), result)


# C99 inverse functions from jax's value on one quadrant, then their symmetries, so
# that signed zeros choose the side of a branch cut as in C (and NumPy).

def _odd_conj_symmetric(fn):
    """f(x + iy) = ±Re f(|x| + i|y|) ± i Im f(|x| + i|y|), signs of x and y
    (asinh, atanh)."""
    def lowered(z):
        x, y = parts(z)
        r = fn(pack(jnp.abs(x), jnp.abs(y)))
        return pack(jnp.copysign(jnp.real(r), x), jnp.copysign(jnp.imag(r), y))
    return lowered


def _conj_symmetric(fn):
    """f(conj z) = conj f(z) (acos, acosh): evaluate with |y|, conjugate for y < 0."""
    def lowered(z):
        x, y = parts(z)
        r = fn(pack(x, jnp.abs(y)))
        im = jnp.imag(r)
        return pack(jnp.real(r), jnp.where(jnp.signbit(y), -im, im))
    return lowered


def _atanh_first_quadrant(z):
    """jax's atanh, with the real part from logs of hypot where (1 - x)² + y²
    underflows (near z = 1)."""
    x, y = parts(z)
    tiny = (1 - x) ** 2 + y ** 2 < np.finfo(x.dtype).tiny / np.finfo(x.dtype).eps
    near = 0.5 * (jnp.log(jnp.hypot(1 + x, y)) - jnp.log(jnp.hypot(1 - x, y)))
    r = jnp.arctanh(z)
    return pack(jnp.where(tiny, near, jnp.real(r)), jnp.imag(r))


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
    return lambda a, b: cmp(*parts(a), *parts(b))


def _c_pick(cmp, nan_side: int):
    """maximum/minimum (nan_side 0: a NaN in `a` wins) and fmax/fmin (nan_side 1: a
    NaN in `b` loses): `a` where that holds or cmp(a, b), else `b`."""
    def lowered(a, b):
        both = parts(a) + parts(b)
        keep_a = isnan_c(*both[2 * nan_side:2 * nan_side + 2]) | cmp(*both)
        return jnp.where(keep_a, a, b)
    return lowered


# The complex ufuncs whose NumPy results differ from jnp's.
COMPLEX = {
    "multiply": _complex_binary(cmul),
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
