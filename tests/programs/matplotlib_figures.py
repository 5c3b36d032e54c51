"""A report figure made with matplotlib's Agg backend: a bar chart of category counts,
a line plot with a filled band, a histogram and an image of a 2-D function, saved as
PNG. The figure's data (bar heights, histogram counts, the rendered pixels' mean) are
printed and saved."""

import os
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402


def main(out_dir=None):
    rng = np.random.default_rng(5)
    categories = np.array(["alpha", "beta", "gamma", "delta"])
    draws = rng.integers(0, categories.size, 500)
    counts = np.bincount(draws, minlength=categories.size)
    x = np.arange(categories.size)

    fig, axes = plt.subplots(2, 2, figsize=(8, 6), dpi=50)
    bars = axes[0, 0].bar(x, counts, color="tab:blue")
    axes[0, 0].set_xticks(x, categories)
    print("bar heights", [b.get_height() for b in bars])

    t = np.linspace(0.0, 4.0 * np.pi, 200)
    y = np.sin(t) * np.exp(-t / 8.0)
    axes[0, 1].plot(t, y, "k-")
    axes[0, 1].fill_between(t, y - 0.1, y + 0.1, alpha=0.3)
    line = axes[0, 1].get_lines()[0]
    print("line points", line.get_xydata().shape, round(float(np.abs(line.get_ydata()).max()), 6))

    samples = rng.normal(2.0, 0.5, 1000)
    n, edges, _ = axes[1, 0].hist(samples, bins=20)
    print("histogram", n.astype(int).tolist()[:8], round(float(edges[0]), 6))

    gx, gy = np.meshgrid(np.linspace(-2, 2, 40), np.linspace(-2, 2, 30))
    z = np.exp(-(gx ** 2 + gy ** 2)) * np.cos(3 * gx)
    image = axes[1, 1].imshow(z, cmap="viridis", origin="lower")
    fig.colorbar(image, ax=axes[1, 1])
    print("image", image.get_array().shape, round(float(image.get_array().mean()), 6))
    fig.tight_layout()
    fig.canvas.draw()
    pixels = np.asarray(fig.canvas.buffer_rgba())
    print("canvas", pixels.shape, pixels.dtype)
    if out_dir:
        fig.savefig(os.path.join(out_dir, "figure.png"))
        np.save(os.path.join(out_dir, "matplotlib_figures.npy"),
                np.concatenate([counts.astype(float), n, z.ravel()]))
    plt.close(fig)


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else None)
