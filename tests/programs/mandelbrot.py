"""The Mandelbrot set on a small grid: escape counts without in-place writes (points
that escaped keep their value through np.where), an ASCII rendering and an area."""

import os
import sys

import numpy as np

MAX_ITER = 40


def escape_counts(c, max_iter=MAX_ITER):
    z = np.zeros_like(c)
    counts = np.zeros(c.shape, dtype=np.int64)
    for _ in range(max_iter):
        bounded = np.abs(z) <= 2.0
        z = np.where(bounded, z * z + c, z)
        counts = counts + bounded
    return counts


def main(out_dir=None):
    real = np.linspace(-2.2, 0.8, 96)
    imag = np.linspace(-1.2, 1.2, 64)
    c = real[None, :] + 1j * imag[:, None]
    counts = escape_counts(c)
    inside = counts == MAX_ITER
    cell = (real[1] - real[0]) * (imag[1] - imag[0])
    print(f"grid {c.shape} {c.dtype}, {int(np.sum(inside))} points inside")
    print(f"area ~ {float(np.sum(inside) * cell):.4f}")
    print(f"mean escape count {float(np.mean(counts)):.6f}")
    for row in counts[::6, ::2].tolist():
        print("".join("#" if v == MAX_ITER else "+" if v > 10 else "." for v in row))
    if out_dir:
        np.save(os.path.join(out_dir, "mandelbrot.npy"), counts)


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else None)
