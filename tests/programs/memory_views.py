"""Writes through views of an array's memory, as NumPy code does them: an image kept
as a flat buffer and reshaped in place, its old views edited afterwards; a diagonal
set through as_strided; a Toeplitz matrix filled through a writeable sliding window;
float bit tricks through integer views (the sign bit, the exponent, a fast inverse
square root); and RGBA pixels packed as one uint32 each."""

import os
import sys

import numpy as np
from numpy.lib.stride_tricks import as_strided, sliding_window_view


def main(out_dir=None):
    buffer = np.zeros(24)
    first_row = buffer[:6]
    buffer.shape = (4, 6)  # the flat buffer becomes an image in place
    buffer[1:3, 2:4] = 5.0
    first_row[:] = np.arange(6.0)  # an old view still writes into the image
    print("image", buffer.sum(), buffer[0].tolist(), buffer[:, 2].tolist())

    m = np.zeros((5, 5))
    diagonal = as_strided(m, shape=(5,), strides=((5 + 1) * m.itemsize,))
    diagonal[:] = np.arange(1.0, 6.0)
    above = as_strided(m[0, 1:], shape=(4,), strides=((5 + 1) * m.itemsize,))
    above += 0.5
    print("diagonals", np.trace(m), m[0, :3].tolist(), m.sum())

    column = np.array([4.0, 3.0, 2.0, 1.0, 0.0, 1.0, 2.0, 3.0, 4.0])
    toeplitz = sliding_window_view(column, 5)[::-1]
    print("toeplitz", toeplitz[0].tolist(), toeplitz[-1].tolist())
    editable = sliding_window_view(column, 5, writeable=True)
    editable[2, 2] = -10.0  # one element of the buffer, seen by every window
    print("shared element", column.tolist(), editable[:, 0].tolist())

    x = np.array([1.5, -2.25, 0.0, -0.0, 1e-3, 8.0])
    bits = x.view(np.uint64)
    print("sign bits", (bits >> 63).tolist())
    flipped = x.copy()
    flipped.view(np.uint64)[:] ^= np.uint64(1 << 63)  # negate through the bits
    print("negated", flipped.tolist())
    exponents = ((bits >> 52) & 0x7FF).astype(np.int64) - 1023
    print("exponents", exponents[[0, 1, 4, 5]].tolist())

    y = np.array([0.25, 1.0, 2.0, 10.0, 100.0], dtype=np.float32)
    guess = y.copy()
    guess.view(np.int32)[:] = np.int32(0x5F3759DF) - (y.view(np.int32) >> 1)
    for _ in range(2):
        guess *= np.float32(1.5) - np.float32(0.5) * y * guess * guess
    print("inverse sqrt", np.round(guess, 5).tolist(),
          float(np.max(np.abs(guess - 1 / np.sqrt(y)))) < 1e-4)

    rgba = np.zeros((3, 4), dtype=np.uint8)
    packed = rgba.view(np.uint32).reshape(3)
    packed[:] = [0xFF0000FF, 0x00FF00FF, 0x11223344]
    rgba[1, 3] = 7  # a write to one channel shows in the packed pixel
    print("pixels", rgba.tolist(), [hex(int(p)) for p in packed])
    if out_dir:
        result = np.concatenate([buffer.ravel(), m.ravel(), column, flipped, guess,
                                 packed.astype(np.float64)])
        np.save(os.path.join(out_dir, "memory_views.npy"), result)


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else None)
