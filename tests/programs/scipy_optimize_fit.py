"""Model fitting with scipy.optimize: an exponential decay fitted by curve_fit to noisy
samples, the Rosenbrock function minimized by BFGS with an analytic NumPy gradient, a
root of a transcendental equation by brentq, and a linear program."""

import os
import sys

import numpy as np
from scipy import optimize


def decay(t, amplitude, rate, offset):
    return amplitude * np.exp(-rate * t) + offset


def rosen(p):
    return np.sum(100.0 * (p[1:] - p[:-1] ** 2) ** 2 + (1.0 - p[:-1]) ** 2)


def rosen_grad(p):
    g = np.zeros_like(p)
    g[:-1] = -400.0 * p[:-1] * (p[1:] - p[:-1] ** 2) - 2.0 * (1.0 - p[:-1])
    g[1:] += 200.0 * (p[1:] - p[:-1] ** 2)
    return g


def main(out_dir=None):
    rng = np.random.default_rng(3)
    t = np.linspace(0.0, 5.0, 60)
    y = decay(t, 2.5, 1.3, 0.5) + rng.normal(0.0, 0.02, t.size)
    params, cov = optimize.curve_fit(decay, t, y, p0=[1.0, 1.0, 0.0])
    print("curve_fit", np.round(params, 4).tolist(), "errors",
          np.round(np.sqrt(np.diag(cov)), 4).tolist())

    start = np.array([-1.2, 1.0, -0.5, 0.8])
    result = optimize.minimize(rosen, start, jac=rosen_grad, method="BFGS")
    print("bfgs success", result.success, "x", np.round(result.x, 5).tolist(),
          "f below 1e-8:", bool(result.fun < 1e-8))

    root = optimize.brentq(lambda v: np.cos(v) - v, 0.0, 1.0)
    print("brentq root %.10f" % root)

    c = np.array([-1.0, -2.0])
    A = np.array([[1.0, 1.0], [1.0, -1.0], [-1.0, 2.0]])
    b = np.array([4.0, 2.0, 4.0])
    lp = optimize.linprog(c, A_ub=A, b_ub=b, bounds=[(0, None), (0, None)])
    print("linprog", lp.status, np.round(lp.x, 6).tolist(), round(float(lp.fun), 6))
    if out_dir:
        np.save(os.path.join(out_dir, "scipy_optimize_fit.npy"),
                np.concatenate([params, np.round(result.x, 5), [root], lp.x]))


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else None)
