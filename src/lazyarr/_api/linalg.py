"""`numpy.linalg`: solvers, decompositions, norms, and the Array API functions that
`numpy.linalg` shares with the main namespace.

NumPy's rules throughout. Every function computes in double precision (float64, or
complex128 for complex input) and casts its results to NumPy's result type: float32
and complex64 inputs give float32/complex64 results, integers and bools give float64,
float16 is a TypeError. Shape errors are LinAlgError (a ValueError) at the call.

Errors that depend on values cannot be known when the graph is built, so they are
raised when the result is materialized: LinAlgError for a singular matrix (inv, solve,
tensorinv, tensorsolve, matrix_power with a negative exponent), for a matrix that is
not positive definite (cholesky), for NaN in an SVD (svd, pinv, lstsq, matrix_rank,
cond and the 2-norms) and for NaN or inf in eig/eigvals of complex input. Two results
have a type or shape that depends on values, so those functions materialize at the
call, as NumPy decides there: eig and eigvals of real input (real results when every
eigenvalue is real, else complex; their NaN/inf LinAlgError is raised at the call),
and lstsq with more rows than columns (the residuals are empty unless full rank).
"""

from __future__ import annotations

import math
import operator
import warnings

import numpy as np
from numpy.linalg import LinAlgError
from numpy.linalg._linalg import EighResult, EigResult, QRResult, SlogdetResult, SVDResult

from .._errors import user_stacklevel
from .. import _dtypes
from .._ops_linalg import LAYOUTS
from . import export
from . import products as _products
from .common import (apply, as_array, astype, broadcast_node, host_array, normalize_axes,
                     normalize_axis, reshape_node, wrap)
from .creation import eye, zeros
from .elementwise import (absolute, conjugate, copysign, divide, imag, isnan, logical_and,
                          logical_not, multiply, not_equal, real, sqrt, where_)
from .indexing import take_along_axis
from .shapes import diagonal as _diagonal, matrix_transpose, moveaxis, ravel, transpose
from .reductions import any as _any
from .reductions import count_nonzero, max as _max, min as _min, sum as _sum
from .sorting import argsort, sort

__all__ = ["LinAlgError"]

_NO_VALUE = object()  # pinv's rtol default, told apart from None as NumPy does


# ----- NumPy's argument rules -------------------------------------------------------

def _common_type(func: str, *arrays):
    """NumPy's _commonType: the dtype to compute in (float64 or complex128) and the
    result dtype (single precision only when every inexact input is)."""
    single, is_complex = True, False
    for a in arrays:
        if issubclass(a.dtype.type, np.inexact):
            is_complex = is_complex or _dtypes.is_complex(a.dtype)
            if a.dtype in (_dtypes.float64, _dtypes.complex128):
                single = False
            elif a.dtype not in (_dtypes.float32, _dtypes.complex64):
                raise TypeError(f"{func}: array type {a.dtype.name} is unsupported in linalg")
        else:
            single = False
    compute = np.dtype(np.complex128 if is_complex else np.float64)
    if single:
        return compute, np.dtype(np.complex64 if is_complex else np.float32)
    return compute, compute


def _stacked_2d(func: str, *arrays):
    for a in arrays:
        if a.ndim < 2:
            raise LinAlgError(f"{func}: {a.ndim}-dimensional array given. Array must be at "
                              "least two-dimensional")


def _stacked_square(func: str, *arrays):
    _stacked_2d(func, *arrays)
    for a in arrays:
        if a.shape[-1] != a.shape[-2]:
            raise LinAlgError(f"{func}: Last 2 dimensions of the array must be square "
                              f"(got shape {a.shape})")


def _exactly_2d(func: str, *arrays):
    for a in arrays:
        if a.ndim != 2:
            raise LinAlgError(f"{func}: {a.ndim}-dimensional array given. Array must be "
                              "two-dimensional")


def _real_part(x):
    """The real part of a value that a packed complex decomposition holds as complex."""
    return real(x) if _dtypes.is_complex(x.dtype) else x


def _primitive(name: str, a, compute, result, **attrs):
    """Primitive `name` on `a` computed in `compute`, its result cast to `result`."""
    return astype(wrap(apply(name, astype(a, compute)._node, **attrs)), result)


def _decompose(name: str, a, compute, **attrs) -> list:
    """The results of the packed decomposition `name` of `a` (see _ops_linalg), each
    in the compute dtype (real parts still complex for complex input)."""
    node = apply(name, astype(a, compute)._node, **attrs)
    batch = a.shape[:-2]
    parts, start = [], 0
    for core in LAYOUTS[name](*a.shape[-2:], **attrs):
        size = math.prod(core)
        part = node
        if size != node.shape[-1]:
            part = apply("slice", node, starts=(0,) * len(batch) + (start,),
                         stops=batch + (start + size,), steps=(1,) * (len(batch) + 1))
        parts.append(wrap(reshape_node(part, batch + core)))
        start += size
    return parts


def _host(x) -> np.ndarray:
    """A value that decides a result's type or shape, materialized now."""
    return host_array(x, "shape")


# ----- solvers --------------------------------------------------------------------

@export(namespace="linalg")
def inv(a):
    """NumPy's inv: the inverse of each matrix of the stack (LinAlgError for a singular
    one, raised at materialization)."""
    a = as_array(a)
    _stacked_square("inv", a)
    return _primitive("linalg_inv", a, *_common_type("inv", a), checked=True)


@export(namespace="linalg")
def solve(a, b):
    """NumPy 2's solve: x with a @ x == b; `b` is a vector (M,) or a stack of matrices
    (..., M, K), batch axes broadcast (LinAlgError for a singular `a`, at
    materialization)."""
    a, b = as_array(a), as_array(b)
    _stacked_square("solve", a)
    compute, result = _common_type("solve", a, b)
    core = 1 if b.ndim == 1 else 2
    if b.ndim < core:
        raise ValueError(f"solve: Input operand 1 does not have enough dimensions (has "
                         f"{b.ndim}, gufunc core with signature (m,m),(m,n)->(m,n) "
                         "requires 2)")
    m = a.shape[-1]
    if b.shape[-core] != m:
        raise ValueError(f"solve: Input operand 1 has a mismatch in its core dimension 0 "
                         f"(size {b.shape[-core]} is different from {m})")
    batch = _products._broadcast([a.shape[:-2], b.shape[:-core]], "solve")
    columns = b.shape[-1] if core == 2 else 1
    a_node = broadcast_node(astype(a, compute)._node, batch + (m, m))
    b_node = broadcast_node(reshape_node(astype(b, compute)._node, b.shape[:-core] +
                                         (m, columns)), batch + (m, columns))
    x = apply("linalg_solve", a_node, b_node)
    if core == 1:
        x = reshape_node(x, batch + (m,))
    return astype(wrap(x, False), result)


@export(namespace="linalg")
def cholesky(a, /, *, upper=False):
    """NumPy's cholesky: the lower factor L (a = L L^H) from a's lower triangle, or
    with upper=True the upper U (a = U^H U) from its upper one (LinAlgError when not
    positive definite, at materialization)."""
    a = as_array(a)
    _stacked_square("cholesky", a)
    return _primitive("linalg_cholesky", a, *_common_type("cholesky", a), upper=bool(upper))


@export(namespace="linalg")
def det(a):
    """NumPy's det: the determinant of each matrix (1 for 0x0 ones)."""
    a = as_array(a)
    _stacked_square("det", a)
    return _primitive("linalg_det", a, *_common_type("det", a))


@export(namespace="linalg")
def slogdet(a):
    """NumPy's slogdet: (sign, log|det|) of each matrix; (0, -inf) for a singular one."""
    a = as_array(a)
    _stacked_square("slogdet", a)
    compute, result = _common_type("slogdet", a)
    sign, logabsdet = _decompose("linalg_slogdet", a, compute)
    return SlogdetResult(astype(sign, result),
                         astype(_real_part(logabsdet), _dtypes.real_dtype(result)))


# ----- decompositions -------------------------------------------------------------

@export(namespace="linalg")
def qr(a, mode="reduced"):
    """NumPy's qr: Q and R ("reduced", "complete"), R alone ("r"), or LAPACK's
    Householder reflectors h and scalars tau ("raw"); "full" and "economic" are
    NumPy's deprecated spellings."""
    if mode not in ("reduced", "complete", "r", "raw"):
        if mode in ("f", "full"):
            warnings.warn("The 'full' option is deprecated in favor of 'reduced'.\nFor "
                          "backward compatibility let mode default.", DeprecationWarning,
                          stacklevel=user_stacklevel())
            mode = "reduced"
        elif mode in ("e", "economic"):
            warnings.warn("The 'economic' option is deprecated.", DeprecationWarning,
                          stacklevel=user_stacklevel())
            mode = "economic"
        else:
            raise ValueError(f"qr: Unrecognized mode '{mode}'")
    a = as_array(a)
    _stacked_2d("qr", a)
    compute, result = _common_type("qr", a)
    if mode == "economic":  # geqrf's matrix itself: R above, reflectors below
        h = _decompose("linalg_qr", a, compute, mode="raw")[0]
        return astype(matrix_transpose(h), result)
    parts = [astype(p, result) for p in _decompose("linalg_qr", a, compute, mode=mode)]
    if mode == "r":
        return parts[0]
    return tuple(parts) if mode == "raw" else QRResult(*parts)


def _uplo(UPLO, func: str) -> bool:
    UPLO = UPLO.upper()
    if UPLO not in ("L", "U"):
        raise ValueError(f"{func}: UPLO argument must be 'L' or 'U', not {UPLO!r}")
    return UPLO == "L"


@export(namespace="linalg")
def eigh(a, UPLO="L"):
    """NumPy's eigh: ascending eigenvalues (real) and eigenvectors of Hermitian
    matrices, read from the lower (UPLO="L") or upper triangle."""
    lower = _uplo(UPLO, "eigh")
    a = as_array(a)
    _stacked_square("eigh", a)
    compute, result = _common_type("eigh", a)
    w, v = _decompose("linalg_eigh", a, compute, lower=lower)
    return EighResult(astype(_real_part(w), _dtypes.real_dtype(result)), astype(v, result))


@export(namespace="linalg")
def eigvalsh(a, UPLO="L"):
    """NumPy's eigvalsh: the ascending (real) eigenvalues of Hermitian matrices."""
    lower = _uplo(UPLO, "eigvalsh")
    a = as_array(a)
    _stacked_square("eigvalsh", a)
    compute, result = _common_type("eigvalsh", a)
    return _primitive("linalg_eigvalsh", a, compute, _dtypes.real_dtype(result), lower=lower)


def _eig_results(w, others, compute, result):
    """NumPy's eig dtypes: complex input keeps its type; real input gives real results
    when every eigenvalue is real (decided on the computed values), else complex."""
    if _dtypes.is_complex(compute):
        return [astype(x, result) for x in (w,) + others]
    if w.size == 0 or not _host(_any(not_equal(imag(w), 0))):
        return [astype(real(x), result) for x in (w,) + others]
    complex_result = np.result_type(result, np.complex64)
    return [astype(x, complex_result) for x in (w,) + others]


def eig_parts(func: str, a, vectors: bool, always_complex: bool = False) -> list:
    """The eigenvalues (and eigenvectors when `vectors`) of each matrix of `a`, in
    NumPy's dtypes, or, with `always_complex` (the Array API's rule), always complex:
    complex64 for float32 input, complex128 otherwise, with no flush."""
    a = as_array(a)
    _stacked_square(func, a)
    compute, result = _common_type(func, a)
    if vectors:
        parts = _decompose("linalg_eig", a, compute)
    else:
        parts = [wrap(apply("linalg_eigvals", astype(a, compute)._node), False)]
    if always_complex:
        return [astype(x, np.result_type(result, np.complex64)) for x in parts]
    return _eig_results(parts[0], tuple(parts[1:]), compute, result)


@export(namespace="linalg")
def eig(a):
    """NumPy's eig: eigenvalues and right eigenvectors (unit norm) of each matrix
    (LinAlgError for NaN or inf). jax computes it on CPU only."""
    return EigResult(*eig_parts("eig", a, vectors=True))


@export(namespace="linalg")
def eigvals(a):
    """NumPy's eigvals: the eigenvalues of each matrix, in LAPACK's order."""
    return eig_parts("eigvals", a, vectors=False)[0]


def _hermitian_svd(a, compute_uv: bool):
    """NumPy's svd(hermitian=True): from eigh, singular values |w| in descending order."""
    if not compute_uv:
        return sort(absolute(eigvalsh(a)))[..., ::-1]
    s, u = eigh(a)
    sgn = copysign(1.0, s)
    s = absolute(s)
    order = argsort(s)[..., ::-1]
    sgn = take_along_axis(sgn, order, -1)
    s = take_along_axis(s, order, -1)
    u = take_along_axis(u, order[..., None, :], -1)
    vh = conjugate(matrix_transpose(multiply(u, sgn[..., None, :])))
    return SVDResult(u, s, vh)


@export(namespace="linalg")
def svd(a, full_matrices=True, compute_uv=True, hermitian=False):
    """NumPy's svd: U, S (descending) and Vh, or S alone with compute_uv=False
    (LinAlgError for NaN, at materialization)."""
    a = as_array(a)
    if hermitian:
        return _hermitian_svd(a, compute_uv)
    _stacked_2d("svd", a)
    compute, result = _common_type("svd", a)
    real_result = _dtypes.real_dtype(result)
    if not compute_uv:
        return _primitive("linalg_svdvals", a, compute, real_result)
    u, s, vh = _decompose("linalg_svd", a, compute, full_matrices=bool(full_matrices))
    return SVDResult(astype(u, result), astype(_real_part(s), real_result), astype(vh, result))


@export(namespace="linalg")
def svdvals(x, /):
    """NumPy's svdvals: the singular values, descending."""
    return svd(x, compute_uv=False)


# ----- least squares, pseudo-inverse, rank ------------------------------------------

def _abs2(x):
    return real(multiply(conjugate(x), x)) if _dtypes.is_complex(x.dtype) else multiply(x, x)


@export(namespace="linalg")
def lstsq(a, b, rcond=None):
    """NumPy's lstsq: the minimum-norm least-squares solution x, the residuals (sums of
    squares, empty unless a has full column rank and more rows than columns), the
    rank and a's singular values; singular values up to rcond * the largest count
    as zero, as in LAPACK's gelsd (computed here from an SVD)."""
    a, b = as_array(a), as_array(b)
    is_1d = b.ndim == 1
    if is_1d:
        b = b[:, None]
    _exactly_2d("lstsq", a, b)
    (m, n), m2 = a.shape, b.shape[0]
    if m != m2:
        raise LinAlgError(f"lstsq: Incompatible dimensions ({m} rows in a, {m2} in b)")
    compute, result = _common_type("lstsq", a, b)
    real_result = _dtypes.real_dtype(result)
    eps = float(np.finfo(compute).eps)
    rcond = eps * max(n, m) if rcond is None else float(rcond)
    if rcond < 0:  # gelsd takes machine precision then
        rcond = eps
    a, b = astype(a, compute), astype(b, compute)
    u, s, vh = _decompose("linalg_svd", a, compute, full_matrices=False)
    s = _real_part(s)
    if min(m, n):
        large = s > multiply(s[..., :1], rcond)
        rank = astype(count_nonzero(large, axis=-1), np.int32)
        inv_s = where_(large, divide(1, where_(large, s, 1)), 0)
    else:
        rank, inv_s = as_array(np.int32(0)), s
    x = _products.matmul(conjugate(matrix_transpose(vh)),
                         multiply(inv_s[:, None], _products.matmul(
                             conjugate(matrix_transpose(u)), b)))
    if m > n and int(_host(rank)) == n:
        resids = _sum(_abs2(b - _products.matmul(a, x)), axis=0)
    else:
        resids = zeros((0,), real_result)
    if is_1d:
        x = x[:, 0]
    return (astype(x, result), astype(resids, real_result), rank, astype(s, real_result))


def _empty_2d(a) -> bool:
    return a.size == 0 and math.prod(a.shape[-2:]) == 0


@export(namespace="linalg")
def pinv(a, rcond=None, hermitian=False, *, rtol=_NO_VALUE):
    """NumPy's pinv: the Moore-Penrose pseudo-inverse from an SVD, singular values up
    to rcond (default 1e-15, or rtol) times the largest dropped."""
    a = as_array(a)
    if rcond is None:
        if rtol is _NO_VALUE:
            rcond = 1e-15
        elif rtol is None:
            rcond = max(a.shape[-2:]) * _dtypes.finfo(a.dtype).eps
        else:
            rcond = rtol
    elif rtol is not _NO_VALUE:
        raise ValueError("pinv: `rtol` and `rcond` can't be both set.")
    rcond = as_array(rcond)
    if _empty_2d(a):
        m, n = a.shape[-2:]
        return zeros(a.shape[:-2] + (n, m), dtype=a.dtype)
    u, s, vt = svd(conjugate(a), full_matrices=False, hermitian=hermitian)
    cutoff = multiply(rcond[..., None], _max(s, axis=-1, keepdims=True))
    large = s > cutoff
    s = where_(large, divide(1, where_(large, s, 1)), 0)
    return _products.matmul(matrix_transpose(vt), multiply(s[..., None], matrix_transpose(u)))


@export(namespace="linalg")
def matrix_rank(A, tol=None, hermitian=False, *, rtol=None):
    """NumPy's matrix_rank: how many singular values exceed tol (default: the largest
    times max(M, N) * eps); for fewer than 2 dimensions, 1 unless all zero (a Python
    int, so the values are read)."""
    if rtol is not None and tol is not None:
        raise ValueError("matrix_rank: `tol` and `rtol` can't be both set.")
    A = as_array(A)
    if A.ndim < 2:
        return int(bool(_host(_any(not_equal(A, 0)))))
    S = svd(A, compute_uv=False, hermitian=hermitian)
    if tol is None:
        if rtol is None:
            rtol = max(A.shape[-2:]) * _dtypes.finfo(S.dtype).eps
        else:
            rtol = as_array(rtol)[..., None]
        tol = multiply(_max(S, axis=-1, keepdims=True, initial=0), rtol)
    else:
        tol = as_array(tol)[..., None]
    return count_nonzero(S > tol, axis=-1)


# ----- norms and condition numbers ------------------------------------------------

def _svd_norm(x, row_axis: int, col_axis: int, reduce, initial=None):
    s = svd(moveaxis(x, (row_axis, col_axis), (-2, -1)), compute_uv=False)
    return reduce(s, axis=-1) if initial is None else reduce(s, axis=-1, initial=initial)


def _vector_norm(x, ord, axis, keepdims):
    """NumPy's norm over one axis (a 1-tuple)."""
    if ord == np.inf:
        return _max(absolute(x), axis=axis, keepdims=keepdims, initial=0)
    if ord == -np.inf:
        return _min(absolute(x), axis=axis, keepdims=keepdims)
    if ord == 0:
        return _sum(astype(not_equal(x, 0), real(x).dtype), axis=axis, keepdims=keepdims)
    if ord == 1:
        return _sum(absolute(x), axis=axis, keepdims=keepdims)
    if ord is None or ord == 2:
        return sqrt(_sum(real(multiply(conjugate(x), x)), axis=axis, keepdims=keepdims))
    if isinstance(ord, str):
        raise ValueError(f"norm: Invalid norm order '{ord}' for vectors")
    absx = absolute(x)
    absx **= ord
    ret = _sum(absx, axis=axis, keepdims=keepdims)
    ret **= np.reciprocal(ord, dtype=ret.dtype)
    return ret


def _matrix_norm(x, ord, axis, keepdims):
    """NumPy's norm over two axes."""
    nd = x.ndim
    row_axis, col_axis = (normalize_axis(k, nd, "norm") for k in axis)
    if row_axis == col_axis:
        raise ValueError(f"norm: Duplicate axes given ({axis}).")
    if ord == 2:
        ret = _svd_norm(x, row_axis, col_axis, _max, 0)
    elif ord == -2:
        ret = _svd_norm(x, row_axis, col_axis, _min)
    elif ord in (1, -1):
        reduce, initial = (_max, 0) if ord == 1 else (_min, None)
        col = col_axis - 1 if col_axis > row_axis else col_axis
        sums = _sum(absolute(x), axis=row_axis)
        ret = reduce(sums, axis=col) if initial is None else reduce(sums, axis=col, initial=0)
    elif ord in (np.inf, -np.inf):
        reduce, initial = (_max, 0) if ord == np.inf else (_min, None)
        row = row_axis - 1 if row_axis > col_axis else row_axis
        sums = _sum(absolute(x), axis=col_axis)
        ret = reduce(sums, axis=row) if initial is None else reduce(sums, axis=row, initial=0)
    elif ord in [None, "fro", "f"]:
        ret = sqrt(_sum(real(multiply(conjugate(x), x)), axis=axis))
    elif ord == "nuc":
        ret = _svd_norm(x, row_axis, col_axis, _sum, 0)
    else:
        raise ValueError(f"norm: Invalid norm order {ord!r} for matrices.")
    if keepdims:
        shape = list(x.shape)
        shape[axis[0]] = shape[axis[1]] = 1
        ret = ret.reshape(shape)
    return ret


@export(namespace="linalg")
def norm(x, ord=None, axis=None, keepdims=False):
    """NumPy's norm: vector norms over one axis, matrix norms over two (ord 2, -2 and
    "nuc" from singular values), the 2-norm of the flattened array by default."""
    x = as_array(x)
    if not issubclass(x.dtype.type, np.inexact):
        x = astype(x, np.float64)
    if axis is None:
        ndim = x.ndim
        if ord is None or (ord in ("f", "fro") and ndim == 2) or (ord == 2 and ndim == 1):
            flat = ravel(x)
            if _dtypes.is_complex(flat.dtype):
                re, im = real(flat), imag(flat)
                sqnorm = _products.dot(re, re) + _products.dot(im, im)
            else:
                sqnorm = _products.dot(flat, flat)
            ret = sqrt(sqnorm)
            return ret.reshape(ndim * [1]) if keepdims else ret
        axis = tuple(range(ndim))
    elif not isinstance(axis, tuple):
        try:
            axis = (int(axis),)
        except Exception as e:
            raise TypeError("norm: 'axis' must be None, an integer or a tuple of "
                            f"integers, not {axis!r}") from e
    if len(axis) == 1:
        return _vector_norm(x, ord, axis, keepdims)
    if len(axis) == 2:
        return _matrix_norm(x, ord, axis, keepdims)
    raise ValueError(f"norm: Improper number of dimensions to norm ({len(axis)} axes).")


@export(namespace="linalg")
def vector_norm(x, /, *, axis=None, keepdims=False, ord=2):
    """The Array API's vector_norm (NumPy's): norm over `axis` (all by default, or a
    tuple of axes treated as one flattened axis)."""
    x = as_array(x)
    shape = list(x.shape)
    if axis is None:
        x, flat_axis = ravel(x), 0
    elif isinstance(axis, tuple):
        normalized = normalize_axes(axis, x.ndim, "vector_norm")
        rest = tuple(i for i in range(x.ndim) if i not in normalized)
        x = transpose(x, axis + rest).reshape(
            (math.prod(x.shape[i] for i in axis),) + tuple(x.shape[i] for i in rest))
        flat_axis = 0
    else:
        flat_axis = axis
    res = norm(x, axis=flat_axis, ord=ord)
    if keepdims:
        for i in normalize_axes(axis, len(shape), "vector_norm"):
            shape[i] = 1
        res = res.reshape(tuple(shape))
    return res


@export(namespace="linalg")
def matrix_norm(x, /, *, keepdims=False, ord="fro"):
    """The Array API's matrix_norm (NumPy's): norm over the last two axes."""
    return norm(as_array(x), axis=(-2, -1), keepdims=keepdims, ord=ord)


@export(namespace="linalg")
def cond(x, p=None):
    """NumPy's cond: the condition number, from singular values (p None, 2, -2) or
    norm(x, p) * norm(inv(x), p); inf for singular matrices (NaN only from NaN input)."""
    x = as_array(x)
    if _empty_2d(x):
        raise LinAlgError("cond: cond is not defined on empty arrays")
    if p is None or p in {2, -2}:
        s = svd(x, compute_uv=False)
        first, last = s[..., 0], s[..., -1]
        r = divide(last, first) if p == -2 else divide(first, last)
    else:
        _stacked_square("cond", x)
        compute, result = _common_type("cond", x)
        invx = wrap(apply("linalg_inv", astype(x, compute)._node, checked=False))
        r = multiply(norm(x, p, axis=(-2, -1)), norm(invx, p, axis=(-2, -1)))
        r = astype(r, _dtypes.real_dtype(result))
    nan_from_inversion = logical_and(isnan(r), logical_not(_any(isnan(x), axis=(-2, -1))))
    return where_(nan_from_inversion, np.inf, r)


# ----- products and tensors -------------------------------------------------------

@export(namespace="linalg")
def matrix_power(a, n):
    """NumPy's matrix_power: a ** n by repeated squaring (NumPy's order of products);
    the identity for n == 0; inv(a) ** -n for negative n."""
    a = as_array(a)
    _stacked_square("matrix_power", a)
    try:
        n = operator.index(n)
    except TypeError as e:
        raise TypeError(f"matrix_power: exponent must be an integer, not {n!r}") from e
    if n == 0:
        return wrap(broadcast_node(eye(a.shape[-2], dtype=a.dtype)._node, a.shape), False)
    if n < 0:
        a, n = inv(a), -n
    if n <= 3:
        result = a
        for _ in range(n - 1):
            result = _products.matmul(result, a)
        return result
    z = result = None
    while n > 0:
        z = a if z is None else _products.matmul(z, z)
        n, bit = divmod(n, 2)
        if bit:
            result = z if result is None else _products.matmul(result, z)
    return result


def _chain_order(shapes):
    """NumPy's matrix-chain order (the cheapest parenthesization, same ties)."""
    n = len(shapes)
    p = [s[0] for s in shapes] + [shapes[-1][1]]
    cost = [[0.0] * n for _ in range(n)]
    split = [[0] * n for _ in range(n)]
    for length in range(1, n):
        for i in range(n - length):
            j = i + length
            cost[i][j] = math.inf
            for k in range(i, j):
                q = cost[i][k] + cost[k + 1][j] + p[i] * p[k + 1] * p[j + 1]
                if q < cost[i][j]:
                    cost[i][j], split[i][j] = q, k
    return split


def _chain(arrays, split, i, j, out=None):
    if i == j:
        return arrays[i]
    return _products.dot(_chain(arrays, split, i, split[i][j]),
                         _chain(arrays, split, split[i][j] + 1, j), out=out)


@export(namespace="linalg")
def multi_dot(arrays, *, out=None):
    """NumPy's multi_dot: a chain of dot products in the cheapest order; the first and
    last arrays may be 1-d (a row and a column vector)."""
    n = len(arrays)
    if n < 2:
        raise ValueError(f"multi_dot: Expecting at least two arrays, got {n}.")
    if n == 2:
        return _products.dot(arrays[0], arrays[1], out=out)
    arrays = [as_array(a) for a in arrays]
    ndim_first, ndim_last = arrays[0].ndim, arrays[-1].ndim
    if ndim_first == 1:
        arrays[0] = arrays[0][None, :]
    if ndim_last == 1:
        arrays[-1] = arrays[-1][:, None]
    _exactly_2d("multi_dot", *arrays)
    if n == 3:
        (a0, a1b0), (b1c0, c1) = arrays[0].shape, arrays[2].shape
        if a0 * b1c0 * (a1b0 + c1) < a1b0 * c1 * (a0 + b1c0):
            split = [[0, 0, 1], [0, 0, 1], [0, 0, 0]]  # (AB)C
        else:
            split = [[0, 0, 0], [0, 0, 1], [0, 0, 0]]  # A(BC)
    else:
        split = _chain_order([a.shape for a in arrays])
    result = _chain(arrays, split, 0, n - 1, out=out)
    if ndim_first == 1 and ndim_last == 1:
        return result[0, 0]
    if ndim_first == 1 or ndim_last == 1:
        return ravel(result)
    return result


@export(namespace="linalg")
def tensorinv(a, ind=2):
    """NumPy's tensorinv: the inverse of `a` seen as a matrix of its first `ind` axes
    by the others, shaped a.shape[ind:] + a.shape[:ind]."""
    a = as_array(a)
    if ind <= 0:
        raise ValueError(f"tensorinv: Invalid ind argument ({ind}).")
    invshape = a.shape[ind:] + a.shape[:ind]
    return inv(a.reshape(math.prod(a.shape[ind:]), -1)).reshape(invshape)


@export(namespace="linalg")
def tensorsolve(a, b, axes=None):
    """NumPy's tensorsolve: x with tensordot(a, x, x.ndim) == b (the `axes` of `a`
    moved to the end first)."""
    a, b = as_array(a), as_array(b)
    an = a.ndim
    if axes is not None:
        order = list(range(an))
        for k in axes:
            order.remove(k)
            order.insert(an, k)
        a = transpose(a, order)
    oldshape = a.shape[-(an - b.ndim):]
    size = math.prod(oldshape)
    if a.size != size ** 2:
        raise LinAlgError("tensorsolve: Input arrays must satisfy the requirement "
                          "prod(a.shape[b.ndim:]) == prod(a.shape[:b.ndim])")
    return solve(a.reshape(size, size), ravel(b)).reshape(oldshape)


# ----- the Array API functions numpy.linalg shares with the main namespace ----------

for _shared in (_products.matmul, _products.tensordot, _products.vecdot, matrix_transpose):
    export(_shared, namespace="linalg")


@export(namespace="linalg")
def outer(x1, x2, /):
    """numpy.linalg.outer: the outer product of two 1-d arrays."""
    x1, x2 = as_array(x1), as_array(x2)
    if x1.ndim != 1 or x2.ndim != 1:
        raise ValueError(f"outer: Input arrays must be one-dimensional, but they are "
                         f"x1.ndim={x1.ndim} and x2.ndim={x2.ndim}.")
    return _products.outer(x1, x2)


@export(namespace="linalg")
def cross(x1, x2, /, *, axis=-1):
    """numpy.linalg.cross: the cross product of 3-vectors along `axis`."""
    x1, x2 = as_array(x1), as_array(x2)
    if x1.shape[axis] != 3 or x2.shape[axis] != 3:
        raise ValueError(f"cross: Both input arrays must be (arrays of) 3-dimensional "
                         f"vectors, but they are {x1.shape[axis]} and {x2.shape[axis]} "
                         "dimensional instead.")
    return _products.cross(x1, x2, axis=axis)


@export(namespace="linalg")
def diagonal(x, /, *, offset=0):
    """numpy.linalg.diagonal: the diagonals of the matrices on the last two axes."""
    return _diagonal(x, offset, axis1=-2, axis2=-1)


@export(namespace="linalg")
def trace(x, /, *, offset=0, dtype=None):
    """numpy.linalg.trace: the traces of the matrices on the last two axes."""
    return _products.trace(x, offset, axis1=-2, axis2=-1, dtype=dtype)
