"""A weather Markov chain: the stationary distribution by power iteration, by
np.linalg.matrix_power and by the eigenvector of eigenvalue 1, a simulated path with
np.random.choice, and empirical transition counts by np.add.at."""

import os
import sys

import numpy as np

STATES = np.array(["sunny", "cloudy", "rainy"])


def main(out_dir=None):
    P = np.array([[0.7, 0.2, 0.1], [0.3, 0.4, 0.3], [0.2, 0.3, 0.5]])
    print("rows sum to one:", bool(np.allclose(P.sum(axis=1), 1.0)))
    pi = np.full(3, 1.0 / 3.0)
    for _ in range(100):
        pi = pi @ P
    print("power iteration", np.round(pi, 8).tolist())
    print("matrix_power", np.round(np.linalg.matrix_power(P, 50)[0], 8).tolist())
    values, vectors = np.linalg.eig(P.T)
    k = np.argmin(np.abs(values - 1.0))
    stationary = np.real(vectors[:, k])
    stationary /= stationary.sum()
    print("eigenvector", np.round(stationary, 8).tolist())

    np.random.seed(42)
    path = np.zeros(5000, dtype=np.int64)
    for t in range(1, path.size):
        path[t] = np.random.choice(3, p=P[path[t - 1]])
    counts = np.zeros((3, 3))
    np.add.at(counts, (path[:-1], path[1:]), 1.0)
    empirical = counts / counts.sum(axis=1, keepdims=True)
    print("visits", dict(zip(STATES.tolist(), np.bincount(path).tolist())))
    print("empirical P", np.round(empirical, 3).tolist())
    if out_dir:
        np.save(os.path.join(out_dir, "markov_chain.npy"), np.vstack([empirical, stationary]))


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else None)
