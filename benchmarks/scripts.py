"""Workloads written the way NumPy users write scripts (issue 10, part 8): in-place
writes through views, a convergence test every iteration, slices that shrink or move,
Python lists of small results, a scipy optimizer calling a NumPy objective.

Each is `f(np, ...)` like those in `workloads`, with its inputs at full or --quick size.
Functions that write in place copy their input first (`a = a.copy()`), as a user keeping
the original would, so every variant and repeat starts from the same data.
"""

from __future__ import annotations

import numpy


def jacobi(np, u, steps, eps=1e-12):
    """Jacobi relaxation of Laplace's equation: the interior rewritten in place through a
    view (`center[:] = work`), stopped when the largest change is below `eps`."""
    u = u.copy()
    center = u[1:-1, 1:-1]
    delta = None
    for _ in range(steps):
        work = 0.25 * (u[:-2, 1:-1] + u[2:, 1:-1] + u[1:-1, :-2] + u[1:-1, 2:])
        delta = np.abs(work - center).max()
        center[:] = work
        if delta < eps:
            break
    return u, delta


def gauss(np, a):
    """Gaussian elimination without pivoting, in place: the trailing block shrinks by one
    row and column every step (`a[c:, c-1:] -= ...`), so every step has new shapes."""
    a = a.copy()
    n = a.shape[0]
    for c in range(1, n):
        a[c:, c - 1:] = a[c:, c - 1:] - (a[c:, c - 1] / a[c - 1, c - 1])[:, None] * a[c - 1, c - 1:]
    return a


# D2Q9 lattice velocities, weights and the opposite of each direction.
LBM_CX = (0, 0, 1, 1, 1, 0, -1, -1, -1)
LBM_CY = (0, 1, 1, 0, -1, -1, -1, 0, 1)
LBM_W = (4 / 9, 1 / 9, 1 / 36, 1 / 9, 1 / 36, 1 / 9, 1 / 36, 1 / 9, 1 / 36)
LBM_OPPOSITE = [0, 5, 6, 7, 8, 1, 2, 3, 4]


def lbm(np, f, obstacle, steps, tau=0.6):
    """Lattice-Boltzmann D2Q9 flow past an obstacle (in the style of the well-known
    tutorial scripts): stream each distribution with np.roll, bounce back inside the
    obstacle through a boolean mask, relax towards the equilibrium."""
    f = f.copy()
    for _ in range(steps):
        for i, (cx, cy) in enumerate(zip(LBM_CX, LBM_CY)):
            f[:, :, i] = np.roll(f[:, :, i], cx, axis=1)
            f[:, :, i] = np.roll(f[:, :, i], cy, axis=0)
        bounced = f[obstacle, :]
        bounced = bounced[:, LBM_OPPOSITE]
        rho = np.sum(f, 2)
        ux = np.sum(f * numpy.array(LBM_CX), 2) / rho
        uy = np.sum(f * numpy.array(LBM_CY), 2) / rho
        feq = np.zeros(f.shape)
        for i, (cx, cy, w) in enumerate(zip(LBM_CX, LBM_CY, LBM_W)):
            cu = cx * ux + cy * uy
            feq[:, :, i] = rho * w * (1 + 3 * cu + 9 * cu ** 2 / 2 - 3 * (ux ** 2 + uy ** 2) / 2)
        f += -(1.0 / tau) * (f - feq)
        f[obstacle, :] = bounced
    return f


def life(np, z, steps):
    """Conway's Game of Life with neighbour counts summed from eight shifted slices and
    the rule applied by a boolean-mask write into the interior view."""
    z = z.copy()
    for _ in range(steps):
        n = (z[0:-2, 0:-2] + z[0:-2, 1:-1] + z[0:-2, 2:] + z[1:-1, 0:-2]
             + z[1:-1, 2:] + z[2:, 0:-2] + z[2:, 1:-1] + z[2:, 2:])
        birth = (n == 3) & (z[1:-1, 1:-1] == 0)
        survive = ((n == 2) | (n == 3)) & (z[1:-1, 1:-1] == 1)
        z[...] = 0
        z[1:-1, 1:-1][birth | survive] = 1
    return z


def convolve(np, x, k):
    """A 1-d convolution of a long signal by a long kernel ("same" size)."""
    return np.convolve(x, k, mode="same")


def windows(np, x, width, hop):
    """Means of overlapping windows at moving offsets, collected in a list."""
    means = []
    for start in range(0, x.shape[0] - width + 1, hop):
        means.append(x[start:start + width].mean())
    return np.array(means)


def hist_sort(np, x):
    """A histogram of the values, and the sorted values with their median."""
    counts, edges = np.histogram(x, bins=100)
    s = np.sort(x)
    return counts, edges, s, s[s.shape[0] // 2]


def minimize(np, features, labels, iters):
    """L2-regularized logistic regression fitted by scipy.optimize.minimize (L-BFGS-B),
    the objective and its gradient written in NumPy."""
    from scipy.optimize import minimize as scipy_minimize

    def objective(w):
        z = features @ w
        p = 1.0 / (1.0 + np.exp(-z))
        eps = 1e-12
        loss = -np.mean(labels * np.log(p + eps) + (1 - labels) * np.log(1 - p + eps))
        loss = loss + 0.5e-3 * np.dot(w, w)
        grad = features.T @ (p - labels) / labels.shape[0] + 1e-3 * w
        return float(loss), numpy.asarray(grad, dtype=float)

    w0 = numpy.zeros(features.shape[1])
    result = scipy_minimize(objective, w0, jac=True, method="L-BFGS-B",
                            options={"maxiter": iters, "gtol": 1e-10})
    return result.x


def append_loop(np, x, count):
    """A Python loop appending `count` independent small results, summed at the end."""
    results = []
    for i in range(count):
        results.append(np.tanh(x * (1e-3 * (i + 1))).sum())
    return sum(results)


# --- inputs ---------------------------------------------------------------------------

def _rng():
    return numpy.random.default_rng(0)


def jacobi_inputs(quick):
    n = 200 if quick else 2000
    u = numpy.zeros((n, n))
    u[0, :] = 1.0  # a hot top edge
    return u, 10 if quick else 50


def gauss_inputs(quick):
    n = 100 if quick else 1000
    a = _rng().random((n, n))
    return (a + n * numpy.eye(n),)  # diagonally dominant: stable without pivoting


def lbm_inputs(quick):
    ny = nx = 50 if quick else 400
    rng = _rng()
    f = 1.0 + 0.01 * rng.random((ny, nx, 9))
    f[:, :, 3] += 2.0  # flow to the right
    y, x = numpy.meshgrid(numpy.arange(ny), numpy.arange(nx), indexing="ij")
    obstacle = (x - nx / 4) ** 2 + (y - ny / 2) ** 2 < (ny / 8) ** 2
    return f, obstacle, 10 if quick else 100


def life_inputs(quick):
    n = 200 if quick else 2000
    return (_rng().random((n, n)) < 0.3).astype(numpy.int64), 10 if quick else 50


def convolve_inputs(quick):
    rng = _rng()
    return rng.normal(size=10_000 if quick else 1_000_000), rng.normal(size=100 if quick else 1000)


def windows_inputs(quick):
    return _rng().normal(size=100_000 if quick else 1_000_000), 4096, 2048


def hist_sort_inputs(quick):
    return (_rng().normal(size=10_000 if quick else 1_000_000),)


def minimize_inputs(quick):
    rng = _rng()
    n, d = (2_000, 10) if quick else (200_000, 20)
    features = rng.normal(size=(n, d))
    truth = rng.normal(size=d)
    labels = (features @ truth + rng.normal(size=n) > 0).astype(float)
    return features, labels, 20 if quick else 50


def append_loop_inputs(quick):
    return _rng().normal(size=1000), 30 if quick else 300
