"""Numerical integration with scipy.integrate next to NumPy: Lotka-Volterra
predator-prey dynamics by solve_ivp (the right-hand side written with NumPy), a
definite integral by quad, and the same integral by Simpson's rule and by a
hand-written trapezoid over a NumPy grid."""

import os
import sys

import numpy as np
from scipy import integrate


def lotka_volterra(t, z, a, b, c, d):
    x, y = z
    return np.array([a * x - b * x * y, -c * y + d * x * y])


def main(out_dir=None):
    t_eval = np.linspace(0.0, 15.0, 151)
    solution = integrate.solve_ivp(lotka_volterra, (0.0, 15.0), np.array([10.0, 5.0]),
                                   args=(1.1, 0.4, 0.4, 0.1), t_eval=t_eval, rtol=1e-9,
                                   atol=1e-9)
    prey, predators = solution.y
    print("solve_ivp", solution.status, solution.y.shape)
    print("prey max %.4f at t=%.1f, predators max %.4f" % (
        prey.max(), t_eval[np.argmax(prey)], predators.max()))
    peaks = np.flatnonzero((prey[1:-1] > prey[:-2]) & (prey[1:-1] > prey[2:])) + 1
    print("prey peaks at", t_eval[peaks].tolist())

    value, error = integrate.quad(lambda v: np.exp(-v ** 2) * np.cos(v), -np.inf, np.inf)
    print("quad %.10f (exact %.10f)" % (value, np.sqrt(np.pi) * np.exp(-0.25)))
    x = np.linspace(-6.0, 6.0, 2001)
    f = np.exp(-x ** 2) * np.cos(x)
    simpson = integrate.simpson(f, x=x)
    trapezoid = np.sum((f[1:] + f[:-1]) * np.diff(x)) / 2.0
    print("simpson %.10f trapezoid %.10f" % (simpson, trapezoid))
    cumulative = integrate.cumulative_trapezoid(f, x, initial=0.0)
    print("cumulative at 0: %.8f" % cumulative[1000])
    if out_dir:
        np.save(os.path.join(out_dir, "scipy_integrate_ode.npy"),
                np.concatenate([np.round(solution.y, 6).ravel(), cumulative[::20]]))


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else None)
