"""The `numpy.linalg` and `numpy.fft` primitives (see `_ops_linalg`) as jax operations.

Matrices arrive in float64 or complex128 and stacked, as NumPy takes them; the
factorizations are LAPACK's on CPU (through jax.lax.linalg), as NumPy's are, so they
agree to rounding. Where NumPy raises LinAlgError for values (a singular matrix in
inv/solve, one that is not positive definite in cholesky, NaN in an SVD, NaN or inf in
eig), the lowering appends a flag to `flags` and the backend raises the program's error
when the program returns. jax computes eig and eigvals on CPU only.
"""

from __future__ import annotations

import math

import numpy as np

import jax
import jax.numpy as jnp
from jax import lax

from lazyarr.backend_api import op, pack

from . import registry


_lapack_loaded = False


def load_kernels(ops) -> None:
    """jax loads its LAPACK kernels (CPU) while lowering a program that calls one; a
    program that the backend loads from its disk cache is never lowered, and would
    call kernels that are not there. Before such a program first runs in a process,
    lowering a 1x1 LU loads them all."""
    global _lapack_loaded
    if _lapack_loaded or not any(o in _LAPACK for o in ops):
        return
    spec = jax.ShapeDtypeStruct((1, 1), np.float32)
    jax.jit(lax.linalg.lu).trace(spec).lower(lowering_platforms=("cpu",))
    _lapack_loaded = True


def _constant_when_empty(name: str, checked: bool = False):
    """An input with no elements has a result that its shape alone decides: the
    reference's on zeros, a constant (LAPACK and XLA's kernels reject empty matrices)."""
    def decorate(fn):
        def lowered(*args, **attrs):
            arrays = args[:-1] if checked else args
            if any(math.prod(a.shape) == 0 for a in arrays):
                zeros = [np.zeros(a.shape, a.dtype) for a in arrays]
                return jnp.asarray(op(name).ref(*zeros, **attrs))
            return fn(*args, **attrs)
        return lowered
    return decorate


def _ht(a):
    """The conjugate transpose of each matrix."""
    return jnp.conj(jnp.swapaxes(a, -1, -2))


def _batch(a):
    return a.shape[:-2]


# ---------------------------------------------------------------------------------
# LU-based solvers: LAPACK's getrf reports a matrix singular when a pivot is exactly 0.

def _lu_solve(a, b, flags, checked=True):
    """Solutions of a @ x == b, and whether each matrix is singular."""
    lu, _, perm = lax.linalg.lu(a)
    singular = jnp.any(jnp.diagonal(lu, axis1=-2, axis2=-1) == 0, axis=-1)
    if checked:
        flags.append(jnp.any(singular))  # LinAlgError: singular matrix
    b = jnp.take_along_axis(b, jnp.broadcast_to(perm[..., :, None], b.shape), axis=-2)
    y = lax.linalg.triangular_solve(lu, b, left_side=True, lower=True, unit_diagonal=True)
    return lax.linalg.triangular_solve(lu, y, left_side=True, lower=False), singular


@_constant_when_empty("linalg_inv", checked=True)
def _inv(a, flags, checked):
    identity = jnp.broadcast_to(jnp.eye(a.shape[-1], dtype=a.dtype), a.shape)
    inverse, singular = _lu_solve(a, identity, flags, checked)
    return inverse if checked else jnp.where(singular[..., None, None], jnp.nan, inverse)


@_constant_when_empty("linalg_solve", checked=True)
def _solve(a, b, flags):
    return _lu_solve(a, b, flags)[0]


@_constant_when_empty("linalg_cholesky", checked=True)
def _cholesky(a, flags, upper):
    """The lower factor of a (or of a's conjugate transpose, whose lower triangle is
    a's upper one, for the upper factor). jax's factor is all NaN where LAPACK's potrf
    failed; a NaN in a[0, 0] alone is not a failure for NumPy (OpenBLAS's potrf
    checks ajj <= 0 only), so a failure is a NaN factor from a non-NaN corner."""
    source = _ht(a) if upper else a
    factor = lax.linalg.cholesky(source, symmetrize_input=False)
    failed = jnp.isnan(factor[..., 0, 0]) & ~jnp.isnan(source[..., 0, 0])
    flags.append(jnp.any(failed))  # LinAlgError: not positive definite
    return _ht(factor) if upper else factor


@_constant_when_empty("linalg_det")
def _det(a):
    return jnp.linalg.det(a)


@_constant_when_empty("linalg_slogdet")
def _slogdet(a):
    return pack(jnp.linalg.slogdet(a), _batch(a), a.dtype, jnp)


# ---------------------------------------------------------------------------------
# Decompositions.

def _householder_qr(a):
    """LAPACK's geqr2 (unblocked Householder QR, larfg's conventions): R on and above
    the diagonal, each reflector's vector below it (its leading 1 implied), and the
    reflectors' scalars tau. jax has no public geqrf; this is NumPy's mode="raw"."""
    m, n = a.shape[-2:]
    k = min(m, n)
    rows, cols, steps = jnp.arange(m), jnp.arange(n), jnp.arange(k)

    def step(j, state):
        a, taus = state
        column = jnp.take(a, j, axis=-1)
        alpha = jnp.take(column, j, axis=-1)
        below = rows > j
        x = jnp.where(below, column, 0)
        xnorm = jnp.sqrt(jnp.sum(jnp.real(x * jnp.conj(x)), axis=-1))
        trivial = (xnorm == 0) & (jnp.imag(alpha) == 0)
        beta = -jnp.copysign(jnp.hypot(jnp.abs(alpha), xnorm), jnp.real(alpha))
        beta = jnp.where(trivial, 1, beta)
        tau = jnp.where(trivial, 0, (beta - alpha) / beta)
        scale = 1 / jnp.where(trivial, 1, alpha - beta)
        v = jnp.where(below, x * scale[..., None], (rows == j).astype(a.dtype))
        # H^H = I - conj(tau) v v^H applied to the columns right of j.
        w = jnp.einsum("...m,...mn->...n", jnp.conj(v), a, precision=lax.Precision.HIGHEST)
        updated = a - (jnp.conj(tau)[..., None, None] * v[..., :, None]) * w[..., None, :]
        a = jnp.where(cols > j, updated, a)
        pivot = jnp.where(trivial, alpha, beta)[..., None]
        new_column = jnp.where(rows == j, pivot, jnp.where(below, v, column))
        a = jnp.where(cols == j, new_column[..., :, None], a)
        return a, jnp.where(steps == j, tau[..., None], taus)

    taus = jnp.zeros(_batch(a) + (k,), a.dtype)
    return lax.fori_loop(0, k, step, (a, taus))


@_constant_when_empty("linalg_qr")
def _qr(a, mode):
    if mode == "raw":
        h, tau = _householder_qr(a)
        parts = [jnp.swapaxes(h, -1, -2), tau]
    else:
        q, r = lax.linalg.qr(a, full_matrices=mode == "complete")
        parts = [r] if mode == "r" else [q, r]
    return pack(parts, _batch(a), a.dtype, jnp)


@_constant_when_empty("linalg_eigh")
def _eigh(a, lower):
    vectors, values = lax.linalg.eigh(a, lower=lower, symmetrize_input=False)
    return pack([values, vectors], _batch(a), a.dtype, jnp)


@_constant_when_empty("linalg_eigvalsh")
def _eigvalsh(a, lower):
    return lax.linalg.eigh(a, lower=lower, symmetrize_input=False)[1]


def _finite_for_eig(a, flags):
    """NumPy's eig rejects NaN and inf before calling LAPACK; a finite stand-in keeps
    geev well defined when the flag will raise anyway."""
    finite = jnp.isfinite(a)
    flags.append(~jnp.all(finite))  # LinAlgError: infs or NaNs
    return jnp.where(finite, a, 0)


@_constant_when_empty("linalg_eig", checked=True)
def _eig(a, flags):
    a = _finite_for_eig(a, flags)
    values, vectors = lax.linalg.eig(a, compute_left_eigenvectors=False)
    dtype = jnp.result_type(a.dtype, jnp.complex64)
    return pack([values, vectors], _batch(a), dtype, jnp)


@_constant_when_empty("linalg_eigvals", checked=True)
def _eigvals(a, flags):
    a = _finite_for_eig(a, flags)
    return lax.linalg.eig(a, compute_left_eigenvectors=False,
                          compute_right_eigenvectors=False)[0]


def _svd_input(a, flags):
    """NumPy's gesdd fails to converge on NaN (not on inf, which gives NaN values)."""
    nan = jnp.isnan(a)
    flags.append(jnp.any(nan))  # LinAlgError: SVD did not converge
    return jnp.where(nan, 0, a)


@_constant_when_empty("linalg_svd", checked=True)
def _svd(a, flags, full_matrices):
    u, s, vh = lax.linalg.svd(_svd_input(a, flags), full_matrices=full_matrices)
    return pack([u, s, vh], _batch(a), a.dtype, jnp)


@_constant_when_empty("linalg_svdvals", checked=True)
def _svdvals(a, flags):
    return lax.linalg.svd(_svd_input(a, flags), compute_uv=False)


# ---------------------------------------------------------------------------------
# Fourier transforms: the unnormalized transform, then NumPy's factor.

_FFT = {"fft": (jnp.fft.fft, "backward"), "ifft": (jnp.fft.ifft, "forward"),
        "rfft": (jnp.fft.rfft, "backward"), "irfft": (jnp.fft.irfft, "forward")}


@_constant_when_empty("fft")
def _fft(x, kind, axis, n, fct):
    function, unscaled = _FFT[kind]
    result = function(x, n=n, axis=axis, norm=unscaled)
    if fct != 1:
        result = result * np.asarray(fct, jnp.real(result).dtype)
    return result


_PLAIN = {
    op("linalg_det"): _det,
    op("linalg_slogdet"): _slogdet,
    op("linalg_qr"): _qr,
    op("linalg_eigh"): _eigh,
    op("linalg_eigvalsh"): _eigvalsh,
    op("fft"): _fft,
}

# Lowerings that report LinAlgError append their check's flag.
_CHECKED = {
    op("linalg_inv"): _inv,
    op("linalg_solve"): _solve,
    op("linalg_cholesky"): _cholesky,
    op("linalg_eig"): _eig,
    op("linalg_eigvals"): _eigvals,
    op("linalg_svd"): _svd,
    op("linalg_svdvals"): _svdvals,
}

registry.register_all(_PLAIN)
registry.register_all(_CHECKED, checked=True)
# The primitives whose kernels (LAPACK, FFT) jax loads while lowering (see `load_kernels`).
_LAPACK = frozenset({**_PLAIN, **_CHECKED})
