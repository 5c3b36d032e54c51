"""Timestamps next to numbers: an event log with datetime64 times and float
durations, binned per hour with NumPy datetime arithmetic, business days between
dates, timedelta statistics, and the busiest hour found with argmax."""

import os
import sys

import numpy as np


def main(out_dir=None):
    rng = np.random.default_rng(8)
    start = np.datetime64("2024-03-04T08:00:00")
    offsets = np.sort(rng.integers(0, 10 * 3600, 300)).astype("timedelta64[s]")
    times = start + offsets
    durations = rng.gamma(2.0, 1.5, times.size)
    print("first", times[0], "last", times[-1], times.dtype)

    hours = times.astype("datetime64[h]")
    unique_hours, index, counts = np.unique(hours, return_inverse=True, return_counts=True)
    per_hour = np.bincount(index, weights=durations)
    busiest = np.argmax(counts)
    print("hours", unique_hours.size, "busiest", unique_hours[busiest], int(counts[busiest]))
    print("mean duration per hour", np.round(per_hour / counts, 4).tolist())

    gaps = np.diff(times)
    print("gaps: median", np.median(gaps.astype(np.int64)), "s; longest", gaps.max(),
          "at", times[np.argmax(gaps)])
    deadline = np.datetime64("2024-03-29")
    print("business days to deadline", np.busday_count("2024-03-04", deadline),
          np.is_busday(np.datetime64("2024-03-09")))
    weeks = np.arange("2024-03-04", "2024-04-01", 7, dtype="datetime64[D]")
    print("weeks", [str(w) for w in weeks], (weeks[1] - weeks[0]) / np.timedelta64(1, "h"))
    elapsed = (times - start) / np.timedelta64(1, "m")
    late = elapsed > 300
    print("late events", int(late.sum()), "mean late duration %.6f" % durations[late].mean())
    if out_dir:
        np.save(os.path.join(out_dir, "datetime_log.npy"),
                np.concatenate([per_hour, elapsed]))


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else None)
