"""Daily sales of a few stores, generated with NumPy and analysed with pandas: a
DataFrame built from NumPy columns and dates, NumPy ufuncs applied to Series, groupby
totals, a rolling mean, outliers clipped in place through a boolean mask, and the
result handed back to NumPy for a least-squares trend."""

import os
import sys

import numpy as np
import pandas as pd


def main(out_dir=None):
    rng = np.random.default_rng(11)
    days = np.arange("2024-01-01", "2024-03-01", dtype="datetime64[D]")
    stores = np.array(["north", "south", "east"])
    n = days.size * stores.size
    base = np.repeat(np.array([120.0, 80.0, 95.0]), days.size)
    weekday = (days.astype("datetime64[D]").view("int64") - 4) % 7
    season = 1.0 + 0.2 * np.sin(2 * np.pi * np.tile(weekday, stores.size) / 7.0)
    sales = base * season + rng.normal(0.0, 10.0, n)
    frame = pd.DataFrame({"day": np.tile(days, stores.size),
                          "store": np.repeat(stores, days.size),
                          "sales": sales})
    print(frame.shape, list(frame.columns), frame["day"].dtype)

    frame["log_sales"] = np.log(frame["sales"])
    print("log sales mean", round(float(frame["log_sales"].mean()), 6),
          type(np.log(frame["sales"])).__name__)
    totals = frame.groupby("store")["sales"].sum()
    print("totals", {k: round(v, 3) for k, v in totals.items()})

    s = pd.Series(np.asarray(sales.copy()))
    high = s > 130
    s[high] = 130.0  # clip outliers in place
    print("clipped", int(high.sum()), "max now", float(s.max()))

    rolling = frame[frame["store"] == "north"]["sales"].rolling(7).mean().to_numpy()
    print("rolling mean (first valid)", round(float(rolling[6]), 6),
          "nan count", int(np.isnan(rolling).sum()))

    t = np.arange(days.size, dtype=np.float64)
    north = frame.loc[frame["store"] == "north", "sales"].to_numpy()
    A = np.column_stack([t, np.ones_like(t)])
    coef, *_ = np.linalg.lstsq(A, north, rcond=None)
    print("trend slope %.6f intercept %.6f" % (coef[0], coef[1]))
    weekly = frame.assign(week=frame["day"].dt.isocalendar().week.astype(int))
    pivot = weekly.pivot_table(index="week", columns="store", values="sales", aggfunc="mean")
    print("pivot", pivot.shape, np.round(pivot.to_numpy()[:2], 3).tolist())
    if out_dir:
        np.save(os.path.join(out_dir, "pandas_sales.npy"),
                np.concatenate([s.to_numpy(), coef, pivot.to_numpy().ravel()]))


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else None)
