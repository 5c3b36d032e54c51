"""Bootstrap confidence intervals with the legacy global RandomState and a Generator:
a skewed sample, resampled means and medians, percentile intervals, a permutation
test for a difference of means, and the legacy stream checked to continue the same
after arrays have been computed and printed."""

import os
import sys

import numpy as np


def main(out_dir=None):
    np.random.seed(1234)
    sample = np.random.lognormal(0.0, 0.6, 80)
    print("sample mean %.6f median %.6f" % (sample.mean(), np.median(sample)))
    print("next legacy draws", np.round(np.random.rand(3), 8).tolist())

    rng = np.random.default_rng(99)
    idx = rng.integers(0, sample.size, (2000, sample.size))
    boots = sample[idx]
    means = boots.mean(axis=1)
    medians = np.median(boots, axis=1)
    print("mean CI", np.round(np.percentile(means, [2.5, 97.5]), 6).tolist())
    print("median CI", np.round(np.quantile(medians, [0.025, 0.975]), 6).tolist())

    other = np.random.lognormal(0.2, 0.6, 60)
    observed = other.mean() - sample.mean()
    pooled = np.concatenate([sample, other])
    diffs = np.empty(1000)
    for i in range(diffs.size):
        perm = rng.permutation(pooled)
        diffs[i] = perm[sample.size:].mean() - perm[:sample.size].mean()
    p_value = np.mean(np.abs(diffs) >= abs(observed))
    print("difference %.6f permutation p %.4f" % (observed, p_value))
    print("legacy stream continues", np.round(np.random.standard_normal(2), 8).tolist())
    if out_dir:
        np.save(os.path.join(out_dir, "bootstrap_ci.npy"), np.sort(means))


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else None)
