"""NumPy's index helpers in everyday use: np.mgrid/np.ogrid grids, np.r_ and np.c_
concatenation, np.s_ slices kept in variables, np.ndindex loops, np.vectorize over
a Python function with branches, np.piecewise, and np.meshgrid with indexing='ij'."""

import os
import sys

import numpy as np


def classify(x, y):
    if x * x + y * y < 1.0:
        return 2
    if abs(x) < 0.5 or abs(y) < 0.5:
        return 1
    return 0


def main(out_dir=None):
    gx, gy = np.mgrid[-2:2:9j, -2:2:9j]
    print("mgrid", gx.shape, gx[0, 0], gy[0, -1])
    ox, oy = np.ogrid[0:4, 0:5]
    print("ogrid", ox.shape, oy.shape, (ox * 10 + oy).sum())
    joined = np.r_[np.arange(3), 10, [20, 30], 0:9:4]
    print("r_", joined.tolist(), np.r_["0,2", [1, 2], [3, 4]].tolist())
    print("c_", np.c_[np.arange(3), np.ones(3)].tolist())
    inner = np.s_[1:-1, ::2]
    a = np.arange(30).reshape(5, 6)
    print("s_", a[inner].tolist())
    total = 0
    for idx in np.ndindex(3, 2):
        total += a[idx] * (idx[0] + 1)
    print("ndindex total", total)
    regions = np.vectorize(classify, otypes=[np.int64])(gx, gy)
    print("vectorize", np.bincount(regions.ravel()).tolist())
    x = np.linspace(-2.0, 2.0, 9)
    pw = np.piecewise(x, [x < 0, x >= 0], [lambda v: -v, lambda v: v ** 2])
    print("piecewise", pw.tolist())
    i, j = np.meshgrid(np.arange(3), np.arange(4), indexing="ij")
    print("meshgrid ij", i.shape, (i * j).sum())
    if out_dir:
        np.save(os.path.join(out_dir, "grid_helpers.npy"), regions.astype(np.float64) + pw[:, None])


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else None)
