"""Sensor readings with gaps handled by numpy.ma: missing values and out-of-range
readings masked, masked means and standard deviations per sensor, filling, a masked
comparison with a NaN-aware computation (np.nanmean, np.nanpercentile), and linear
interpolation over the gaps with np.interp."""

import os
import sys

import numpy as np


def main(out_dir=None):
    rng = np.random.default_rng(6)
    t = np.arange(120, dtype=np.float64)
    readings = 20.0 + 5.0 * np.sin(t[None, :] / 10.0 + np.arange(3)[:, None]) \
        + rng.normal(0.0, 0.3, (3, 120))
    readings[0, 30:38] = np.nan
    readings[1, ::17] = -999.0
    readings[2, 100:] = np.nan
    masked = np.ma.masked_invalid(readings)
    masked = np.ma.masked_less(masked, -100.0)
    print("masked per sensor", np.ma.count_masked(masked, axis=1).tolist())
    print("masked means", np.round(masked.mean(axis=1).filled(np.nan), 6).tolist())
    print("masked std", np.round(masked.std(axis=1), 6).tolist())

    as_nan = masked.filled(np.nan)
    print("nanmean agrees:", bool(np.allclose(np.nanmean(as_nan, axis=1), masked.mean(axis=1))),
          "nan p90", np.round(np.nanpercentile(as_nan, 90, axis=1), 6).tolist())
    filled = np.empty_like(as_nan)
    for i, row in enumerate(as_nan):
        good = ~np.isnan(row)
        filled[i] = np.interp(t, t[good], row[good])
    print("interpolated gap", np.round(filled[0, 29:39], 4).tolist())
    hot = np.ma.masked_where(masked < 24.0, masked)
    print("hot readings", int(hot.count()), "hottest %.6f" % hot.max())
    if out_dir:
        np.save(os.path.join(out_dir, "sensor_masked.npy"), filled)


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else None)
