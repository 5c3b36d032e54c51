"""The legacy polynomial functions: poly, polyadd, polysub, polymul, polydiv, polyder,
polyint, polyval, polyfit, roots and vander.

Each follows NumPy's code (numpy/lib/_polynomial_impl.py, _twodim_base_impl.py) step
by step with lazyarr's functions, so dtypes and roundings are NumPy's.

Values are read (a flush with cause "shape") only where NumPy's result shape or dtype
depends on them: the leading zeros that `polymul` and `roots` trim and that `polydiv`
trims from its remainder, the zeros `roots` strips, and whether `poly`'s complex roots
come in conjugate pairs (then NumPy returns a real array).

`polyfit` itself reads nothing; lazyarr.linalg.lstsq, which it calls, reads the
rank (NumPy's residuals have a rank-dependent shape).

Known differences from NumPy: `polyfit` does not warn `RankWarning` (the warning
depends on the computed rank). poly1d inputs are
not handled (they are not lazyarr arrays; NumPy's own function receives them).
"""

from __future__ import annotations

import operator

import numpy as np

from . import (creation, elementwise, export, linalg, manipulation, products, reductions,
               shapes, statistics)
from .common import Array, host_array


def _trim_leading(a: Array) -> Array:
    """`a` without its leading zeros, or [0] if all are zero (NumPy's poly1d)."""
    if a.ndim > 1:
        raise ValueError("Polynomial must be 1d only.")
    nonzero = np.flatnonzero(host_array(a, "shape"))
    if nonzero.size == 0:
        return creation.zeros(1, a.dtype)
    return a[int(nonzero[0]):]


@export
def vander(x, N=None, increasing=False):
    """The Vandermonde matrix of `x` (NumPy's vander: dtype at least int64)."""
    x = creation.asarray(x)
    if x.ndim != 1:
        raise ValueError("x must be a one-dimensional array or sequence.")
    n = len(x)
    N = n if N is None else operator.index(N)
    if N < 0:
        raise ValueError(f"vander: negative dimensions are not allowed: N={N}")
    dtype = np.promote_types(x.dtype, int)
    columns = [creation.ones((n, min(N, 1)), dtype)]
    if N > 1:
        powers = shapes.broadcast_to(elementwise.astype(x, dtype)[:, None], (n, N - 1))
        columns.append(reductions.cumprod(powers, axis=1))
    v = manipulation.concatenate(columns, axis=1)
    return v if increasing else v[:, ::-1]


@export
def poly(seq_of_zeros):
    """Coefficients of the monic polynomial with the given roots (or the characteristic
    polynomial of a square matrix), as NumPy's poly."""
    zeros = manipulation.atleast_1d(seq_of_zeros)
    sh = zeros.shape
    if len(sh) == 2 and sh[0] == sh[1] and sh[0] != 0:
        zeros = linalg.eigvals(zeros)
    elif len(sh) == 1:
        zeros = elementwise.astype(zeros, np.mintypecode(zeros.dtype.char))
    else:
        raise ValueError("input must be 1d or non-empty square 2d array.")
    if len(zeros) == 0:
        return 1.0
    dt = zeros.dtype
    a = creation.ones((1,), dtype=dt)
    for k in range(len(zeros)):
        # convolve(a, [1, -zero]): each coefficient is a[i] + a[i-1] * -zero
        shifted = manipulation.concatenate([creation.zeros(1, dt), a * -zeros[k]])
        a = manipulation.concatenate([a, creation.zeros(1, dt)]) + shifted
    if a.dtype.kind == "c":
        roots = host_array(zeros, "shape").astype(complex)
        if np.all(np.sort(roots) == np.sort(roots.conjugate())):
            a = elementwise.real(a).copy()
    return a


@export
def roots(p):
    """The roots of the polynomial `p`, as the eigenvalues of its companion matrix
    (NumPy's roots; leading and trailing zeros are stripped from the data)."""
    p = manipulation.atleast_1d(p)
    if p.ndim != 1:
        raise ValueError("Input must be a rank-1 array.")
    non_zero = np.nonzero(np.ravel(host_array(p, "shape")))[0]
    if len(non_zero) == 0:
        return creation.asarray(np.array([]))
    trailing_zeros = len(p) - int(non_zero[-1]) - 1
    p = p[int(non_zero[0]):int(non_zero[-1]) + 1]
    if p.dtype.kind not in "fc":
        p = elementwise.astype(p, float)
    N = len(p)
    if N > 1:
        first = (-p[1:] / p[0])[None, :]
        rest = creation.eye(N - 2, N - 1, dtype=p.dtype)
        r = linalg.eigvals(manipulation.concatenate([first, rest]))
    else:
        r = creation.asarray(np.array([]))
    return manipulation.hstack((r, creation.zeros(trailing_zeros, r.dtype)))


@export
def polyint(p, m=1, k=None):
    """The `m`-th antiderivative of `p` with integration constants `k` (NumPy's)."""
    m = int(m)
    if m < 0:
        raise ValueError("Order of integral must be positive (see polyder)")
    k = creation.zeros(m, float) if k is None else k
    k = manipulation.atleast_1d(k)
    if len(k) == 1 and m > 1:
        k = k[0] * creation.ones(m, float)
    if len(k) < m:
        raise ValueError("k must be a scalar or a rank-1 array of length 1 or >m.")
    p = creation.asarray(p)
    for j in range(m):
        p = manipulation.concatenate((p / creation.arange(len(p), 0, -1), k[j:j + 1]))
    return p


@export
def polyder(p, m=1):
    """The `m`-th derivative of `p` (NumPy's polyder)."""
    m = int(m)
    if m < 0:
        raise ValueError("Order of derivative must be positive (see polyint)")
    p = creation.asarray(p)
    for _ in range(m):
        n = len(p) - 1
        p = p[:-1] * creation.arange(n, 0, -1)
    return p


@export
def polyval(p, x):
    """`p` evaluated at `x` by Horner's scheme (NumPy's polyval)."""
    p = creation.asarray(p)
    x = creation.asarray(x)
    y = creation.zeros_like(x)
    for pv in p:
        y = y * x + pv
    return y


def _padded_pair(a1, a2):
    a1, a2 = manipulation.atleast_1d(a1), manipulation.atleast_1d(a2)
    diff = len(a2) - len(a1)
    if diff > 0:
        a1 = manipulation.concatenate((creation.zeros(diff, a1.dtype), a1))
    elif diff < 0:
        a2 = manipulation.concatenate((creation.zeros(-diff, a2.dtype), a2))
    return a1, a2


@export
def polyadd(a1, a2):
    """The sum of two polynomials (NumPy's polyadd)."""
    a1, a2 = _padded_pair(a1, a2)
    return a1 + a2


@export
def polysub(a1, a2):
    """The difference of two polynomials (NumPy's polysub)."""
    a1, a2 = _padded_pair(a1, a2)
    return a1 - a2


@export
def polymul(a1, a2):
    """The product of two polynomials, leading zeros trimmed first (NumPy's polymul)."""
    a1 = _trim_leading(manipulation.atleast_1d(a1))
    a2 = _trim_leading(manipulation.atleast_1d(a2))
    return statistics.convolve(a1, a2)


@export
def polydiv(u, v):
    """Quotient and remainder of polynomial division (NumPy's polydiv)."""
    u = manipulation.atleast_1d(u) + 0.0
    v = manipulation.atleast_1d(v) + 0.0
    w = u[0] + v[0]
    m, n = len(u) - 1, len(v) - 1
    scale = 1.0 / v[0]
    q = creation.zeros((max(m - n + 1, 1),), w.dtype)
    r = elementwise.astype(u, w.dtype)
    for k in range(m - n + 1):
        d = scale * r[k]
        q[k] = d
        r[k:k + n + 1] -= d * v
    values = host_array(r, "shape")
    start = 0
    while np.allclose(values[start], 0, rtol=1e-14) and values.shape[-1] - start > 1:
        start += 1
    return q, r[start:]


@export
def polyfit(x, y, deg, rcond=None, full=False, w=None, cov=False):
    """Least-squares polynomial fit (NumPy's polyfit: scaled Vandermonde columns,
    lstsq, the same `rcond`, `full`, `w` and `cov` options)."""
    order = int(deg) + 1
    x = creation.asarray(x) + 0.0
    y = creation.asarray(y) + 0.0
    if deg < 0:
        raise ValueError("expected deg >= 0")
    if x.ndim != 1:
        raise TypeError("expected 1D vector for x")
    if x.size == 0:
        raise TypeError("expected non-empty vector for x")
    if y.ndim < 1 or y.ndim > 2:
        raise TypeError("expected 1D or 2D array for y")
    if x.shape[0] != y.shape[0]:
        raise TypeError("expected x and y to have same length")
    default = None
    if rcond is None:
        rcond = default = len(x) * np.finfo(x.dtype).eps
    lhs = vander(x, order)
    rhs = y
    if w is not None:
        w = creation.asarray(w) + 0.0
        if w.ndim != 1:
            raise TypeError("expected a 1-d array for weights")
        if w.shape[0] != y.shape[0]:
            raise TypeError("expected w and y to have the same length")
        lhs *= w[:, None]
        rhs *= w[:, None] if rhs.ndim == 2 else w
    scale = elementwise.sqrt((lhs * lhs).sum(axis=0))
    lhs /= scale
    c, resids, rank, s = linalg.lstsq(lhs, rhs, rcond)
    c = (c.T / scale).T
    if full:
        # NumPy's default rcond is a NumPy scalar; lazyarr's results are its arrays
        return c, resids, rank, s, creation.asarray(rcond)[()] if rcond is default else rcond
    if cov:
        vbase = linalg.inv(products.dot(lhs.T, lhs))
        vbase /= products.outer(scale, scale)
        if cov == "unscaled":
            fac = 1
        else:
            if len(x) <= order:
                raise ValueError("the number of data points must exceed order "
                                 "to scale the covariance matrix")
            fac = resids / (len(x) - order)
        if y.ndim == 1:
            return c, vbase * fac
        return c, vbase[:, :, None] * fac
    return c
