"""k-means (Lloyd's algorithm) on synthetic blobs from the helper module clusters.py,
iterated until the centroids stop moving."""

import os
import sys

import numpy as np
from numpy import argmin

import clusters


def assign(points, centroids):
    d2 = np.sum((points[:, None, :] - centroids[None, :, :]) ** 2, axis=-1)
    return argmin(d2, axis=1), np.min(d2, axis=1)


def update(points, labels, k):
    onehot = (labels[:, None] == np.arange(k)[None, :]).astype(points.dtype)
    return (onehot.T @ points) / np.sum(onehot, axis=0)[:, None]


def main(out_dir=None, k=4):
    points = clusters.blobs(150, 1.0, seed=7)
    # a deterministic start: points 11, 48, 85 and 122 (all from the first two blobs)
    centroids = points[np.arange(k) * 37 + 11]
    for iteration in range(1, 51):
        labels, d2 = assign(points, centroids)
        new = update(points, labels, k)
        moved = np.max(np.abs(new - centroids))
        centroids = new
        print(f"iteration {iteration}: inertia {float(np.sum(d2)):.6f}, moved {moved:.6f}")
        if moved == 0.0:  # no point changed cluster
            break
    sizes = np.sum(labels[:, None] == np.arange(k)[None, :], axis=0)
    print("cluster sizes", sizes.tolist())
    print("centroids", np.round(centroids, 6).tolist())
    if out_dir:
        np.save(os.path.join(out_dir, "kmeans.npy"), centroids)


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else None)
