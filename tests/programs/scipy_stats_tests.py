"""Statistics with scipy.stats on NumPy samples: Pearson and Spearman correlations, a
linear regression, Welch's t-test, a normality test, describe(), and a kernel density
estimate evaluated on a grid, with the correlation also computed by hand."""

import os
import sys

import numpy as np
from scipy import stats


def main(out_dir=None):
    rng = np.random.default_rng(14)
    x = rng.normal(0.0, 1.0, 150)
    y = 0.6 * x + rng.normal(0.0, 0.8, 150)
    r, p = stats.pearsonr(x, y)
    by_hand = np.sum((x - x.mean()) * (y - y.mean())) / np.sqrt(
        np.sum((x - x.mean()) ** 2) * np.sum((y - y.mean()) ** 2))
    print("pearson %.8f p %.3e by hand %.8f" % (r, p, by_hand))
    rho, _ = stats.spearmanr(x, y)
    print("spearman %.8f" % rho)
    fit = stats.linregress(x, y)
    print("linregress slope %.6f intercept %.6f r2 %.6f" % (fit.slope, fit.intercept,
                                                            fit.rvalue ** 2))
    a, b = rng.normal(0.0, 1.0, 40), rng.normal(0.5, 1.5, 50)
    t, pt = stats.ttest_ind(a, b, equal_var=False)
    print("welch t %.6f p %.6f" % (t, pt))
    d = stats.describe(y)
    print("describe n %d mean %.6f var %.6f skew %.6f" % (d.nobs, d.mean, d.variance, d.skewness))
    kde = stats.gaussian_kde(x)
    grid = np.linspace(-3.0, 3.0, 13)
    density = kde(grid)
    print("kde", np.round(density, 6).tolist())
    if out_dir:
        np.save(os.path.join(out_dir, "scipy_stats_tests.npy"), density)


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else None)
