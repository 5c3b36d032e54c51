"""Linear least squares with numpy.linalg.lstsq: a full-rank polynomial fit, a
rank-deficient design (a duplicated, rescaled column) where lstsq reports the rank and
singular values, several right-hand sides at once, and the same fits through
numpy.linalg.pinv and np.polyfit for comparison."""

import os
import sys

import numpy as np

TRUE_COEF = np.array([1.5, -0.8, 0.3, 0.05])  # constant term first


def samples(n, seed):
    rng = np.random.default_rng(seed)
    x = np.sort(rng.uniform(-3.0, 3.0, n))
    y = np.vander(x, 4, increasing=True) @ TRUE_COEF + rng.normal(0.0, 0.1, n)
    return x, y


def main(out_dir=None):
    x, y = samples(120, seed=31)
    A = np.vander(x, 4, increasing=True)
    coef, residuals, rank, sv = np.linalg.lstsq(A, y, rcond=None)
    rms = np.sqrt(residuals[0] / x.size)
    print(f"full rank: rank {rank}, rms residual {rms:.6f}, "
          f"coefficients {np.round(coef, 5).tolist()}")
    print(f"  singular values {np.round(sv, 4).tolist()}, condition {sv[0] / sv[-1]:.2f}")
    check = np.sum((A @ coef - y) ** 2)
    print(f"  residual matches: {bool(np.isclose(check, residuals[0]))}")

    # column 4 is 2 * column 2: lstsq returns the minimum-norm solution
    B = np.column_stack([A, 2.0 * A[:, 1]])
    coef_b, residuals_b, rank_b, sv_b = np.linalg.lstsq(B, y, rcond=None)
    print(f"rank deficient: shape {B.shape}, rank {rank_b}, residuals {residuals_b.shape}, "
          f"smallest singular value below 1e-10: {bool(sv_b[-1] < 1e-10)}")
    print(f"  x1 + 2 * x4 = {coef_b[1] + 2.0 * coef_b[4]:.5f} (full-rank x1 {coef[1]:.5f}), "
          f"norm {np.linalg.norm(coef_b):.5f}")

    # several right-hand sides: each column of Y is y scaled and shifted
    Y = np.stack([y, 2.0 * y, y + 1.0], axis=1)
    coef_y, residuals_y, _, _ = np.linalg.lstsq(A, Y, rcond=None)
    print(f"multiple rhs: coefficients {coef_y.shape}, residuals "
          f"{np.round(residuals_y / residuals[0], 6).tolist()}")

    pinv_coef = np.linalg.pinv(A) @ y
    poly = np.polyfit(x, y, 3)  # highest power first
    print(f"pinv agrees: {bool(np.allclose(pinv_coef, coef))}, "
          f"polyfit agrees: {bool(np.allclose(poly[::-1], coef))}")
    grid = np.linspace(-3.0, 3.0, 7)
    print("fitted curve", np.round(np.polyval(poly, grid), 4).tolist())
    if out_dir:
        np.save(os.path.join(out_dir, "least_squares.npy"), np.concatenate([coef, coef_b]))


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else None)
