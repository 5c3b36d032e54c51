"""Polynomial least squares through the normal equations and numpy.linalg (solve, norm,
cond), on noisy samples of a known cubic; prints the recovered coefficients."""

import os
import sys

import numpy as np
import numpy.linalg as la
from numpy.linalg import norm

TRUE_COEF = np.array([0.5, -1.25, 0.75, 0.2])  # constant term first


def design_matrix(x, degree):
    return x[:, None] ** np.arange(degree + 1)[None, :]


def main(out_dir=None):
    x = np.linspace(-2.0, 2.0, 200)
    noise = 0.05 * np.sin(37.0 * x) * np.cos(11.0 * x)  # deterministic "noise"
    y = design_matrix(x, 3) @ TRUE_COEF + noise
    for degree in (1, 3, 5):
        X = design_matrix(x, degree)
        coef = la.solve(X.T @ X, X.T @ y)
        residual = norm(X @ coef - y) / np.sqrt(x.shape[0])
        print(f"degree {degree}: rms residual {float(residual):.8f}, "
              f"condition {float(la.cond(X)):.1f}")
        if degree == 3:
            best = coef
            print("  coefficients", np.round(coef, 6).tolist())
    print(f"coefficient error {float(norm(best - TRUE_COEF)):.8f}")
    if out_dir:
        np.save(os.path.join(out_dir, "regression.npy"), best)


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else None)
