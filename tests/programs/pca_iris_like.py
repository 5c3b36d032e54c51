"""Principal component analysis three ways on correlated synthetic measurements: the
SVD of the centred data, the eigendecomposition of the covariance matrix (np.cov and
np.linalg.eigh), and power iteration with deflation; explained variance, a
projection and a reconstruction error."""

import os
import sys

import numpy as np


def main(out_dir=None):
    rng = np.random.default_rng(17)
    latent = rng.normal(size=(200, 2)) * np.array([3.0, 1.0])
    mixing = np.array([[0.8, 0.5, 0.2, 0.1], [-0.3, 0.6, 0.7, -0.2]])
    data = latent @ mixing + rng.normal(0.0, 0.1, (200, 4)) + np.array([5.0, 3.0, 1.0, 0.2])
    centred = data - data.mean(axis=0)
    print("data", data.shape, "column means", np.round(data.mean(axis=0), 4).tolist())

    u, s, vt = np.linalg.svd(centred, full_matrices=False)
    explained = s ** 2 / np.sum(s ** 2)
    print("explained variance ratio", np.round(explained, 6).tolist())

    cov = np.cov(data, rowvar=False)
    values, vectors = np.linalg.eigh(cov)
    order = np.argsort(values)[::-1]
    values, vectors = values[order], vectors[:, order]
    signs = np.sign(np.sum(vectors * vt.T, axis=0))
    print("eigh matches svd:", bool(np.allclose(values, s ** 2 / (len(data) - 1))),
          bool(np.allclose(vectors * signs, vt.T)))

    residual = cov.copy()
    found = []
    for _ in range(2):
        v = np.ones(4) / 2.0
        for _ in range(200):
            v = residual @ v
            v /= np.linalg.norm(v)
        lam = v @ residual @ v
        found.append(lam)
        residual -= lam * np.outer(v, v)
    print("power iteration", np.round(found, 6).tolist())

    scores = centred @ vt[:2].T
    reconstruction = scores @ vt[:2] + data.mean(axis=0)
    error = np.sqrt(np.mean((reconstruction - data) ** 2))
    print("rank-2 reconstruction rms %.6f" % error)
    if out_dir:
        np.save(os.path.join(out_dir, "pca_iris_like.npy"), np.abs(scores))


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else None)
