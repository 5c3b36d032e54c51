"""Monte Carlo estimates of pi and of the unit ball's volume in 3 and 4 dimensions,
with the running error of the pi estimate at a few sample counts."""

import os
import sys

import numpy as np


def ball_volume(rng, samples, dims):
    """2**dims times the fraction of uniform points of the cube [-1, 1]**dims in the ball."""
    points = rng.uniform(-1.0, 1.0, size=(samples, dims))
    inside = np.sum(points * points, axis=1) <= 1.0
    return 2.0 ** dims * np.mean(inside), inside


def main(out_dir=None):
    rng = np.random.default_rng(20240611)
    pi_estimate, inside = ball_volume(rng, 50_000, 2)
    running = 4.0 * np.cumsum(inside) / np.arange(1, inside.shape[0] + 1)
    checkpoints = np.array([99, 999, 9_999, 49_999])
    errors = np.abs(running[checkpoints] - np.pi)
    print(f"pi ~ {float(pi_estimate):.6f} (error {abs(float(pi_estimate) - np.pi):.6f})")
    for n, err in zip((checkpoints + 1).tolist(), errors.tolist()):
        print(f"  after {n:>6} samples: error {err:.6f}")
    exact = {3: 4.0 / 3.0 * np.pi, 4: np.pi ** 2 / 2.0}
    volumes = [pi_estimate]
    for dims in (3, 4):
        volume, _ = ball_volume(rng, 50_000, dims)
        volumes.append(volume)
        print(f"volume of the {dims}-ball ~ {float(volume):.5f} (exact {exact[dims]:.5f})")
    if out_dir:
        np.save(os.path.join(out_dir, "monte_carlo_pi.npy"), np.stack(volumes + [errors[-1]]))


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else None)
