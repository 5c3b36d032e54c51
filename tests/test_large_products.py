"""Contractions large enough that the reference backend computes them through BLAS (as
NumPy's matmul, dot and tensordot do; `_ops._blas_product`), against NumPy, on both
backends: matmul with and without batch axes, tensordot, dot, einsum with a permuted
output, and einsum patterns that are no matrix product (repeated letters, batch letters
out of matmul's place, factorable sums), which keep einsum's own loop.

Values are small integers with NaN, infinities and -0.0 among them (only NaN for complex
operands), so every sum is exact in any order (see test_linalg's docstring)."""

import numpy as np
import pytest
from hypothesis import given, strategies as st

import lazyarr as la
from lazyarr import _ops

from differential import check, check_function

DTYPES = [np.float32, np.float64, np.complex64, np.complex128]


def operand(seed: int, shape: tuple, dtype) -> np.ndarray:
    rng = np.random.default_rng(seed)
    values = rng.integers(-4, 5, shape).astype(dtype)
    if dtype in (np.complex64, np.complex128):
        values += 1j * rng.integers(-4, 5, shape)
        specials = [np.nan]
    else:
        specials = [np.nan, np.inf, -np.inf, -0.0]
    flat = values.reshape(-1)
    picks = rng.choice(flat.size, size=min(3, flat.size), replace=False)
    flat[picks] = rng.choice(specials, size=picks.size)
    return values


SIZES = st.integers(20, 70)


@given(seed=st.integers(0, 2**32 - 1), dtype=st.sampled_from(DTYPES),
       n=SIZES, k=SIZES, m=SIZES, batch=st.sampled_from([(), (2,), (3, 1)]))
def test_matmul_through_blas(seed, dtype, n, k, m, batch):
    a = operand(seed, batch + (n, k), dtype)
    b = operand(seed + 1, (k, m), dtype)
    check_function("matmul", a, b)
    check_function("matmul", a, np.broadcast_to(b, batch + (k, m)).copy())


@given(seed=st.integers(0, 2**32 - 1), dtype=st.sampled_from(DTYPES),
       n=SIZES, k=SIZES, m=SIZES)
def test_tensordot_dot_einsum_through_blas(seed, dtype, n, k, m):
    a = operand(seed, (n, 4, k), dtype)
    b = operand(seed + 1, (4, k, m), dtype)
    check(lambda x, y: np.tensordot(x, y, axes=([1, 2], [0, 1])),
          lambda x, y: la.tensordot(x, y, axes=([1, 2], [0, 1])), a, b)
    check_function("dot", a[:, 0], b[0])
    check_function("einsum", "ijk,jkl->li", a, b)
    check_function("einsum", "ik,kj->ij", a[:, 0], b[0].T.copy())
    check_function("einsum", "ij,j->i", a[:, 0], b[0, :, 0].copy())


@pytest.mark.parametrize("subscripts,shapes", [
    ("ij,ij->i", [(300, 300), (300, 300)]),          # no summed letter shared
    ("bij,bkj->bik", [(4, 100, 90), (4, 80, 90)]),   # batch, not matmul's layout
    ("ij,jk->", [(300, 200), (200, 100)]),           # a summed letter in one operand
    ("iij,jk->ik", [(60, 60, 40), (40, 50)]),        # a letter repeated in a term
])
def test_other_large_contractions_keep_einsum(subscripts, shapes):
    arrays = [operand(s, shape, np.float64) for s, shape in enumerate(shapes)]
    assert _ops._blas_product(*arrays, subscripts=subscripts) is None
    check_function("einsum", subscripts, *arrays)


@pytest.mark.parametrize("subscripts,shapes", [
    ("ij,jk->ik", [(80, 70), (70, 60)]),
    ("bij,bjk->bik", [(3, 80, 70), (3, 70, 60)]),
    ("ijk,jkl->li", [(50, 4, 60), (4, 60, 50)]),
    ("ij,j->i", [(400, 300), (300,)]),
])
def test_matrix_products_are_recognized(subscripts, shapes):
    arrays = [operand(s, shape, np.float64) for s, shape in enumerate(shapes)]
    with np.errstate(all="ignore"):  # inf * 0, as the interpreter runs it
        np.testing.assert_array_equal(_ops._blas_product(*arrays, subscripts=subscripts),
                                      np.einsum(subscripts, *arrays))
