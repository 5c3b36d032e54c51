"""Primitives of `numpy.linalg`: decompositions and solvers (the transforms of
`numpy.fft` are in `_ops_fft`).

Every linalg primitive works on stacks of matrices (the last two axes) in float64 or
complex128: NumPy computes in double precision whatever the input and casts the result
to its result type afterwards, and the public functions do the same around these.

A decomposition with several results (U, S and Vh of an SVD) is one primitive whose
value packs them, each flattened, one after the other along a last axis, in the
input's dtype (a real part of a complex decomposition is stored as complex, exactly).
So the decomposition runs once however many of its results are used; `LAYOUTS` gives
the core shapes of the packed parts, which the public functions slice back out.

Value-dependent errors (a singular matrix, one that is not positive definite) are
raised by the references, as NumPy raises them, when the program runs; other backends
compute a flag instead and raise the same LinAlgError when the program returns.
"""

from __future__ import annotations

import math

import numpy as np

from . import _dtypes
from ._registry import primitive, require

LinAlgError = np.linalg.LinAlgError


def _matrices(shape):
    require(len(shape) >= 2, f"a {len(shape)}-d operand is not a stack of matrices")
    return shape[:-2], shape[-2], shape[-1]


def _square(shapes, **_):
    """The shape of the one operand, a stack of square matrices."""
    require(len(shapes) == 1, f"takes 1 operand, got {len(shapes)}")
    _, m, n = _matrices(shapes[0])
    require(m == n, f"matrices of shape {(m, n)} are not square")
    return shapes[0]


_DOUBLE = (np.dtype(np.float64), np.dtype(np.complex128))


def _double(dtypes):
    """The one dtype of the operands: float64 or complex128, as NumPy computes."""
    require(dtypes[0] in _DOUBLE and all(d == dtypes[0] for d in dtypes),
            f"operands {tuple(map(str, dtypes))} are not all float64 or all complex128")
    return dtypes[0]


def _qr_layout(m, n, mode):
    k = min(m, n)
    if mode == "raw":
        return [(n, m), (k,)]
    mc = m if mode == "complete" and m > n else k
    return [(mc, n)] if mode == "r" else [(m, mc), (mc, n)]


def _svd_layout(m, n, full_matrices):
    k = min(m, n)
    return [(m, m if full_matrices else k), (k,), (n if full_matrices else k, n)]


# Primitive name -> (m, n, **attrs) -> the core shapes of the packed results, in order.
LAYOUTS = {
    "linalg_qr": lambda m, n, mode: _qr_layout(m, n, mode),
    "linalg_svd": lambda m, n, full_matrices: _svd_layout(m, n, full_matrices),
    "linalg_eigh": lambda m, n, lower: [(n,), (n, n)],
    "linalg_eig": lambda m, n: [(n,), (n, n)],
    "linalg_slogdet": lambda m, n: [(), ()],
}


_SQUARE = {"linalg_slogdet", "linalg_eigh", "linalg_eig"}


def _packed_shape(name):
    def rule(shapes, **attrs):
        require(len(shapes) == 1, f"takes 1 operand, got {len(shapes)}")
        batch, m, n = _matrices(_square(shapes) if name in _SQUARE else shapes[0])
        return batch + (sum(math.prod(core) for core in LAYOUTS[name](m, n, **attrs)),)
    return rule


def pack(parts, batch, dtype, xp=np):
    """`parts` (arrays of shape batch + core) flattened and joined along a last axis."""
    arrays = [xp.asarray(p).astype(dtype) for p in parts]
    return xp.concatenate([xp.reshape(p, batch + (math.prod(p.shape[len(batch):]),))
                           for p in arrays], axis=-1)


def _same_dtype(dtypes, **_):
    return _double(dtypes)


def _real(dtypes, **_):
    return _dtypes.real_dtype(_double(dtypes))


def _complex(dtypes, **_):
    return np.result_type(_double(dtypes), np.complex64)


def _solve_shape(shapes):
    require(len(shapes) == 2, f"takes 2 operands, got {len(shapes)}")
    a, b = _square(shapes[:1]), shapes[1]
    require(len(b) == len(a) and b[:-1] == a[:-1], f"cannot solve {a} against {b}")
    return b


# ---------------------------------------------------------------------------------
# Solvers.

def _raises(message):
    """The check of a primitive that raises LinAlgError(message) for some values."""
    return lambda dtypes, **_: ((LinAlgError, message),)


def _inv_checks(dtypes, checked):
    return ((LinAlgError, "Singular matrix"),) if checked else ()


@primitive("linalg_inv", _square, _same_dtype, checks=_inv_checks)
def _inv(a, checked):
    """The inverses; LinAlgError for a singular matrix when `checked`, else that
    matrix's inverse is all NaN (NumPy's gufunc with errors ignored, as cond uses it)."""
    if checked:
        return np.linalg.inv(a)
    out = np.empty_like(a)
    for index in np.ndindex(a.shape[:-2]):
        try:
            out[index] = np.linalg.inv(a[index])
        except LinAlgError:
            out[index] = np.nan
    return out


@primitive("linalg_solve", _solve_shape, _same_dtype, checks=_raises("Singular matrix"))
def _solve(a, b):
    """x with a @ x == b for stacks a (..., M, M) and b (..., M, K) of one batch shape."""
    return np.linalg.solve(a, b)


@primitive("linalg_cholesky", _square, _same_dtype,
           checks=_raises("Matrix is not positive definite"))
def _cholesky(a, upper):
    return np.linalg.cholesky(a, upper=upper)


@primitive("linalg_det", lambda s: _square(s)[:-2], _same_dtype)
def _det(a):
    return np.linalg.det(a)


@primitive("linalg_slogdet", _packed_shape("linalg_slogdet"), _same_dtype)
def _slogdet(a):
    return pack(np.linalg.slogdet(a), a.shape[:-2], a.dtype)


# ---------------------------------------------------------------------------------
# Decompositions.

@primitive("linalg_qr", _packed_shape("linalg_qr"), _same_dtype)
def _qr(a, mode):
    """mode "reduced"/"complete": Q and R; "r": R; "raw": LAPACK's reflectors (h, the
    transposed geqrf matrix) and their scalars tau."""
    result = np.linalg.qr(a, mode=mode)
    return pack(result if isinstance(result, tuple) else (result,), a.shape[:-2], a.dtype)


@primitive("linalg_eigh", _packed_shape("linalg_eigh"), _same_dtype)
def _eigh(a, lower):
    return pack(np.linalg.eigh(a, UPLO="L" if lower else "U"), a.shape[:-2], a.dtype)


@primitive("linalg_eigvalsh", lambda s, lower: _square(s)[:-1], _real)
def _eigvalsh(a, lower):
    return np.linalg.eigvalsh(a, UPLO="L" if lower else "U")


@primitive("linalg_eig", _packed_shape("linalg_eig"), _complex,
           checks=_raises("Array must not contain infs or NaNs"))
def _eig(a):
    """Eigenvalues and right eigenvectors, always complex (NumPy returns real arrays
    when every eigenvalue is real; the public function decides that)."""
    return pack(np.linalg.eig(a), a.shape[:-2], _complex([a.dtype]))


@primitive("linalg_eigvals", lambda s: _square(s)[:-1], _complex,
           checks=_raises("Array must not contain infs or NaNs"))
def _eigvals(a):
    return np.linalg.eigvals(a).astype(_complex([a.dtype]))


@primitive("linalg_svd", _packed_shape("linalg_svd"), _same_dtype,
           checks=_raises("SVD did not converge"))
def _svd(a, full_matrices):
    return pack(np.linalg.svd(a, full_matrices=full_matrices), a.shape[:-2], a.dtype)


@primitive("linalg_svdvals", lambda s: _matrices(s[0])[0] + (min(s[0][-2:]),), _real,
           checks=_raises("SVD did not converge"))
def _svdvals(a):
    return np.linalg.svd(a, compute_uv=False)
