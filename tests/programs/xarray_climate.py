"""A small climate data set with xarray: temperatures on a (time, lat, lon) grid built
from NumPy arrays, anomalies from a monthly climatology by groupby, a 5-step rolling
mean along time, an area-weighted global mean with np.cos of the latitudes, and the
values handed back to NumPy."""

import os
import sys

import numpy as np
import xarray as xr


def main(out_dir=None):
    rng = np.random.default_rng(4)
    time = np.arange("2000-01", "2004-01", dtype="datetime64[M]").astype("datetime64[ns]")
    lat = np.linspace(-60.0, 60.0, 7)
    lon = np.arange(0.0, 360.0, 60.0)
    month = (np.arange(time.size) % 12)[:, None, None]
    temps = (15.0 + 10.0 * np.cos(np.deg2rad(lat))[None, :, None]
             + 5.0 * np.sin(2 * np.pi * month / 12.0) + rng.normal(0.0, 0.5, (time.size, 7, 6)))
    da = xr.DataArray(temps, coords={"time": time, "lat": lat, "lon": lon},
                      dims=("time", "lat", "lon"), name="t2m")
    print(da.dims, da.shape, float(np.round(da.mean(), 6)))

    climatology = da.groupby("time.month").mean("time")
    anomalies = da.groupby("time.month") - climatology
    print("anomaly std %.6f" % float(anomalies.std()))

    smooth = da.mean(("lat", "lon")).rolling(time=5, center=True).mean()
    values = smooth.values
    print("rolling", values.shape, int(np.isnan(values).sum()), "%.6f" % np.nanmax(values))

    weights = np.cos(np.deg2rad(da.lat))
    weighted = da.weighted(weights).mean(("lat", "lon"))
    print("weighted global mean first year", np.round(weighted.values[:3], 6).tolist())
    np_weighted = (temps * np.cos(np.deg2rad(lat))[None, :, None]).sum(axis=(1, 2)) / (
        np.cos(np.deg2rad(lat)).sum() * lon.size)
    print("agrees with NumPy:", bool(np.allclose(weighted.values, np_weighted)))
    if out_dir:
        np.save(os.path.join(out_dir, "xarray_climate.npy"), np_weighted)


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else None)
