"""2-D heat equation on a square plate, explicit finite differences (FTCS): a hot
disc in the middle, a heated left edge, the other edges held at zero. The update
writes into the interior slice and the boundaries are reset by slice assignment.
Then the steady state of a smaller plate by Jacobi iteration until it stops changing."""

import os
import sys

import numpy as np

N, ALPHA, STEPS = 64, 0.2, 300  # grid size, alpha * dt / dx**2 (stable below 0.25)


def initial_plate(n):
    y, x = np.indices((n, n))
    r = np.hypot(x - (n - 1) / 2.0, y - (n - 1) / 2.0)
    u = np.zeros((n, n))
    u[r < n / 8] = 100.0
    return u


def apply_boundaries(u):
    u[0, :] = 0.0
    u[-1, :] = 0.0
    u[:, -1] = 0.0
    u[1:-1, 0] = 50.0


def step(u):
    interior = u[1:-1, 1:-1]
    laplacian = (u[:-2, 1:-1] + u[2:, 1:-1] + u[1:-1, :-2] + u[1:-1, 2:]
                 - 4.0 * interior)
    interior += ALPHA * laplacian


def steady_state(n, tol=1e-3, max_iter=5000):
    """Jacobi iteration for the Laplace equation on the same plate: the interior is
    replaced by the mean of its four neighbours until it stops changing."""
    u = np.zeros((n, n))
    u[1:-1, 0] = 50.0
    u[-1, 1:-1] = np.linspace(0.0, 20.0, n - 2)  # a warm ramp along the bottom edge
    for iteration in range(1, max_iter + 1):
        old = u.copy()
        u[1:-1, 1:-1] = 0.25 * (old[:-2, 1:-1] + old[2:, 1:-1] + old[1:-1, :-2] + old[1:-1, 2:])
        if np.max(np.abs(u - old)) < tol:
            break
    return u, iteration


def main(out_dir=None):
    u = initial_plate(N)
    apply_boundaries(u)
    print(f"plate {u.shape}, initial heat {u.sum():.4f}")
    probes = [(N // 2, N // 2), (N // 2, 4), (N // 4, N // 2), (N - 3, N - 3)]
    for t in range(1, STEPS + 1):
        step(u)
        apply_boundaries(u)
        if t % 100 == 0:
            values = ", ".join(f"{u[i, j]:.6f}" for i, j in probes)
            print(f"step {t:3d}: heat {np.sum(u[1:-1, 1:-1]):.6f}, "
                  f"max interior {u[1:-1, 1:-1].max():.6f}, probes {values}")
    hot = u > 10.0
    print(f"cells above 10 degrees: {int(np.count_nonzero(hot))}")
    centre_row = np.round(u[N // 2, ::8], 4)
    print("centre row", centre_row.tolist())
    steady, iterations = steady_state(24)
    print(f"steady state (24x24): {iterations} Jacobi iterations, "
          f"mean interior {steady[1:-1, 1:-1].mean():.4f}, centre {steady[12, 12]:.4f}")
    if out_dir:
        np.save(os.path.join(out_dir, "heat_equation.npy"), u)


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else None)
