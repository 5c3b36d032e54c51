"""Image filtering by hand-written 2-D convolution: a synthetic 96x128 image (rings,
a bright square, a gradient) is blurred, sharpened and run through Sobel filters,
each as a sum of shifted views of an np.pad-ded copy; edges are thresholded with
boolean masks. A separable Gaussian blur with np.convolve on rows and columns must
match the 2-D version."""

import os
import sys

import numpy as np

BOX = np.full((3, 3), 1.0 / 9.0)
SHARPEN = np.array([[0.0, -1.0, 0.0], [-1.0, 5.0, -1.0], [0.0, -1.0, 0.0]])
SOBEL_X = np.array([[-1.0, 0.0, 1.0], [-2.0, 0.0, 2.0], [-1.0, 0.0, 1.0]])
SOBEL_Y = SOBEL_X.T


def synthetic_image(height, width):
    y, x = np.indices((height, width)).astype(np.float64)
    r = np.hypot(x - width / 3.0, y - height / 2.0)
    image = 0.5 + 0.5 * np.cos(r / 3.0) * np.exp(-r / 40.0)
    image[20:40, 80:110] = 1.0
    image += 0.3 * x / width
    return np.clip(image, 0.0, 1.0)


def convolve2d(image, kernel, mode="edge"):
    """'same'-size correlation with the flipped kernel (a true convolution)."""
    kh, kw = kernel.shape
    ph, pw = kh // 2, kw // 2
    padded = np.pad(image, ((ph, ph), (pw, pw)), mode=mode)
    flipped = kernel[::-1, ::-1]
    out = np.zeros_like(image)
    h, w = image.shape
    for i in range(kh):
        for j in range(kw):
            out += flipped[i, j] * padded[i:i + h, j:j + w]
    return out


def gaussian_kernel(sigma, radius):
    t = np.arange(-radius, radius + 1, dtype=np.float64)
    g = np.exp(-0.5 * (t / sigma) ** 2)
    return g / g.sum()


def main(out_dir=None):
    image = synthetic_image(96, 128)
    print(f"image {image.shape}, mean {image.mean():.6f}, std {image.std():.6f}")

    blurred = convolve2d(image, BOX)
    sharpened = np.clip(convolve2d(image, SHARPEN), 0.0, 1.0)
    print(f"box blur: mean {blurred.mean():.6f}, std {blurred.std():.6f}; "
          f"sharpen: std {sharpened.std():.6f}, clipped {np.count_nonzero(sharpened == 1.0)}")

    gx = convolve2d(image, SOBEL_X)
    gy = convolve2d(image, SOBEL_Y)
    magnitude = np.hypot(gx, gy)
    edges = magnitude > 0.5
    print(f"sobel: max magnitude {magnitude.max():.6f}, edge pixels {np.count_nonzero(edges)}, "
          f"strongest at {np.unravel_index(np.argmax(magnitude), magnitude.shape)}")
    rows, cols = np.nonzero(edges)
    print(f"  edge bounding box rows {rows.min()}..{rows.max()}, cols {cols.min()}..{cols.max()}")
    angle = np.degrees(np.arctan2(gy[edges], gx[edges]))
    print(f"  edge directions: {np.count_nonzero(np.abs(angle) < 45)} mostly horizontal "
          f"gradient, {np.count_nonzero(np.abs(angle) > 135)} reversed")

    g = gaussian_kernel(1.5, 4)
    padded = np.pad(image, 4, mode="reflect")
    rows_done = np.array([np.convolve(row, g, mode="valid") for row in padded])
    separable = np.array([np.convolve(col, g, mode="valid") for col in rows_done.T]).T
    direct = convolve2d(image, np.outer(g, g), mode="reflect")
    print(f"gaussian: separable vs 2-D max difference below 1e-12: "
          f"{bool(np.max(np.abs(separable - direct)) < 1e-12)}, "
          f"mean {separable.mean():.6f}")
    profile = np.round(separable[48, ::16], 4)
    print("row 48 profile", profile.tolist())
    if out_dir:
        np.save(os.path.join(out_dir, "convolution.npy"), np.stack([blurred, magnitude, direct]))


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else None)
