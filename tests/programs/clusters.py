"""Synthetic data for kmeans.py: Gaussian blobs around fixed centres (a helper module in
the program's own directory, so it gets the same `numpy` as the program)."""

import numpy as np

CENTRES = np.array([[0.0, 0.0], [5.0, 5.0], [-4.0, 6.0], [6.0, -3.0]])


def blobs(points_per_blob, spread, seed):
    rng = np.random.default_rng(seed)
    noise = rng.normal(0.0, spread, size=(CENTRES.shape[0], points_per_blob, 2))
    return (CENTRES[:, None, :] + noise).reshape(-1, 2)
