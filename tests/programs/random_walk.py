"""Simple random walks: 2000 one-dimensional +-1 walks (legacy np.random.seed and
np.random.choice), their displacement statistics against sqrt(n) and first-passage
times to +-20 through argmax on boolean masks; then 500 two-dimensional lattice walks
(default_rng) and how many return to the origin."""

import os
import sys

import numpy as np

WALKS, STEPS, LEVEL = 2000, 1000, 20


def first_passage(paths, level):
    """Index of the first step at which |path| reaches level, or -1 if it never does."""
    hit = np.abs(paths) >= level
    first = np.argmax(hit, axis=1)
    return np.where(hit.any(axis=1), first + 1, -1)


def main(out_dir=None):
    np.random.seed(12345)
    steps = np.random.choice([-1, 1], size=(WALKS, STEPS))
    paths = np.cumsum(steps, axis=1)
    final = paths[:, -1]
    print(f"1-D: {WALKS} walks of {STEPS} steps, mean end {final.mean():.4f}, "
          f"std end {final.std():.4f} (sqrt(n) = {np.sqrt(STEPS):.4f})")
    for n in (10, 100, 1000):
        rms = np.sqrt(np.mean(paths[:, n - 1].astype(np.float64) ** 2))
        print(f"  rms displacement after {n:4d} steps: {rms:.4f}")
    times = first_passage(paths, LEVEL)
    reached = times > 0
    print(f"  reached +-{LEVEL}: {int(np.count_nonzero(reached))} walks, "
          f"median time {np.median(times[reached]):.1f}, "
          f"mean time {times[reached].mean():.3f}")
    print(f"  max excursion {int(np.abs(paths).max())}, "
          f"time above zero {np.mean(paths > 0):.4f}")

    rng = np.random.default_rng(7)
    moves = np.array([[1, 0], [-1, 0], [0, 1], [0, -1]])
    choice = rng.integers(0, 4, size=(500, 400))
    positions = np.cumsum(moves[choice], axis=1)  # (walk, step, xy)
    distance = np.hypot(positions[..., 0], positions[..., 1])
    at_origin = np.all(positions == 0, axis=-1)
    returned = at_origin.any(axis=1)
    print(f"2-D: mean end distance {distance[:, -1].mean():.4f}, "
          f"mean squared {np.mean(distance[:, -1] ** 2):.4f}")
    print(f"  returned to origin: {int(returned.sum())} of {returned.size}, "
          f"first return (mean) {np.argmax(at_origin[returned], axis=1).mean() + 1:.3f}")
    ends = positions[:, -1, :]
    counts = np.bincount(np.abs(ends).sum(axis=1), minlength=10)[:10]
    print(f"  end |x|+|y| histogram (0..9): {counts.tolist()}")
    if out_dir:
        np.save(os.path.join(out_dir, "random_walk.npy"), paths[:10])


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else None)
