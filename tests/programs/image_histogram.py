"""Image processing with array tools: a synthetic grayscale image quantized with
np.digitize, histogram equalization through np.histogram and np.interp, a 3x3 median
filter from sliding_window_view, Otsu's threshold computed from cumulative sums, and
connected rows counted with np.diff on the thresholded mask."""

import os
import sys

import numpy as np
from numpy.lib.stride_tricks import sliding_window_view


def main(out_dir=None):
    rng = np.random.default_rng(13)
    yy, xx = np.mgrid[0:64, 0:80]
    image = 0.3 + 0.4 * (((xx - 40) ** 2 + (yy - 32) ** 2) < 300) + rng.normal(0, 0.05, xx.shape)
    image = np.clip(image, 0.0, 1.0)
    print("image", image.shape, "mean %.6f" % image.mean())

    levels = np.digitize(image, np.linspace(0.0, 1.0, 9)[1:-1])
    print("quantized levels", np.bincount(levels.ravel(), minlength=8).tolist())

    hist, edges = np.histogram(image, bins=64, range=(0.0, 1.0))
    cdf = np.cumsum(hist) / hist.sum()
    equalized = np.interp(image.ravel(), edges[:-1], cdf).reshape(image.shape)
    print("equalized mean %.6f std %.6f" % (equalized.mean(), equalized.std()))

    padded = np.pad(image, 1, mode="edge")
    median = np.median(sliding_window_view(padded, (3, 3)), axis=(-2, -1))
    print("median filter", median.shape, "noise std %.6f -> %.6f" % (
        np.std(image[:10, :10]), np.std(median[:10, :10])))

    p = hist / hist.sum()
    omega = np.cumsum(p)
    mu = np.cumsum(p * np.arange(hist.size))
    between = (mu[-1] * omega - mu) ** 2 / (omega * (1.0 - omega) + 1e-12)
    threshold = edges[np.argmax(between) + 1]
    mask = median > threshold
    print("otsu threshold %.6f, foreground %d" % (threshold, mask.sum()))
    runs = np.diff(mask.astype(np.int8), axis=1)
    print("rows crossing the disc", int(np.count_nonzero((runs == 1).any(axis=1))))
    if out_dir:
        np.save(os.path.join(out_dir, "image_histogram.npy"), np.stack([equalized, median]))


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else None)
