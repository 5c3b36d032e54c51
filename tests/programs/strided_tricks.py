"""Classic stride tricks: a diagonal view made by setting `strides`, moving averages
and windowed maxima from sliding_window_view, a Hankel matrix by as_strided, a
broadcast view with zero strides, and byte-level views of an array's buffer."""

import os
import sys

import numpy as np
from numpy.lib.stride_tricks import as_strided, sliding_window_view


def main(out_dir=None):
    a = np.arange(25.0).reshape(5, 5)
    diag = a.ravel()[:5]
    diag.strides = ((a.shape[1] + 1) * a.itemsize,)  # stays inside a's buffer
    print("strides", a.strides, "diagonal", diag.tolist(), diag.strides)
    flat = a.copy()
    flat.shape = (25,)
    flat[::6] = -1.0
    print("flattened by setting shape", flat.shape, flat[:7].tolist())

    signal = np.sin(np.linspace(0.0, 6.0, 50)) + 0.1 * np.arange(50) % 3
    windows = sliding_window_view(signal, 5)
    moving = windows.mean(axis=-1)
    print("windows", windows.shape, "moving average %.6f %.6f" % (moving[0], moving[-1]))
    peaks = sliding_window_view(signal, 7).max(axis=1)
    print("windowed max", np.round(peaks[:6], 6).tolist())

    c = np.arange(1.0, 8.0)
    hankel = as_strided(c, shape=(4, 4), strides=(c.itemsize, c.itemsize))
    print("hankel", hankel.tolist())
    row = np.arange(3.0)
    tiled = as_strided(row, shape=(4, 3), strides=(0, row.itemsize))
    print("zero-stride", tiled.strides, float(tiled.sum()))

    image = np.arange(36.0).reshape(6, 6)
    blocks = sliding_window_view(image, (2, 2))[::2, ::2]
    print("block means", blocks.mean(axis=(-1, -2)).tolist())
    ints = np.array([1, 256, 65536], dtype=np.int32)
    print("bytes", ints.tobytes().hex(), ints.view(np.uint8).reshape(3, 4).sum(axis=1).tolist())
    if out_dir:
        np.save(os.path.join(out_dir, "strided_tricks.npy"), np.concatenate([moving, peaks]))


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else None)
