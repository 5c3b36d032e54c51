"""Hot loops compiled by numba's @njit next to NumPy code: a pairwise distance kernel,
a running maximum written into an output array, and a 1-D diffusion step that
allocates with np.empty_like inside the compiled function; each compared with the
vectorized NumPy version."""

import os
import sys

import numpy as np
from numba import njit


@njit(cache=False)
def pairwise(points):
    n = points.shape[0]
    out = np.zeros((n, n))
    for i in range(n):
        for j in range(n):
            s = 0.0
            for k in range(points.shape[1]):
                d = points[i, k] - points[j, k]
                s += d * d
            out[i, j] = np.sqrt(s)
    return out


@njit(cache=False)
def running_max(values, out):
    best = -np.inf
    for i in range(values.size):
        if values[i] > best:
            best = values[i]
        out[i] = best


@njit(cache=False)
def diffuse(u, alpha):
    new = np.empty_like(u)
    new[0], new[-1] = u[0], u[-1]
    for i in range(1, u.size - 1):
        new[i] = u[i] + alpha * (u[i - 1] - 2.0 * u[i] + u[i + 1])
    return new


def main(out_dir=None):
    rng = np.random.default_rng(0)
    points = rng.uniform(0.0, 1.0, (50, 3))
    d = pairwise(points)
    vectorized = np.sqrt(((points[:, None, :] - points[None, :, :]) ** 2).sum(axis=-1))
    print("pairwise", d.shape, bool(np.allclose(d, vectorized)), "%.6f" % d.max())

    values = np.cumsum(rng.normal(0.0, 1.0, 200))
    out = np.zeros_like(values)
    running_max(values, out)
    print("running max", bool(np.array_equal(out, np.maximum.accumulate(values))),
          "%.6f" % out[-1])

    u = np.zeros(64)
    u[32] = 1.0
    for _ in range(100):
        u = diffuse(u, 0.25)
    print("diffusion mass %.10f peak %.8f" % (u.sum(), u.max()))
    print("spread", int(np.count_nonzero(u > 1e-6)))
    if out_dir:
        np.save(os.path.join(out_dir, "numba_kernels.npy"), u)


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else None)
