"""Structured arrays as a small table: student records with a name, a class, a birth
date and scores; sorted by several fields, filtered by a boolean mask, grouped by
class with np.unique, converted to a float matrix for z-scores, and written to and
read back from a CSV text with np.savetxt and np.genfromtxt."""

import io
import os
import sys

import numpy as np

RECORD = np.dtype([("name", "U10"), ("group", "U1"), ("born", "datetime64[D]"),
                   ("math", "f8"), ("physics", "f8")])


def main(out_dir=None):
    rng = np.random.default_rng(2)
    names = ["ada", "bo", "cy", "di", "ed", "flo", "gus", "hal", "ivy", "jo"]
    table = np.zeros(len(names), dtype=RECORD)
    table["name"] = names
    table["group"] = np.where(np.arange(len(names)) % 3 == 0, "A", "B")
    table["born"] = np.datetime64("2004-01-01") + rng.integers(0, 700, len(names))
    table["math"] = np.round(rng.uniform(40, 100, len(names)), 1)
    table["physics"] = np.round(rng.uniform(40, 100, len(names)), 1)
    print(table.dtype.names, table.shape, table[0])

    ranked = np.sort(table, order=["group", "math"])[::-1]
    print("ranked", ranked["name"].tolist())
    good = table[(table["math"] > 60) & (table["physics"] > 60)]
    print("both above 60", good["name"].tolist())
    groups, inverse = np.unique(table["group"], return_inverse=True)
    means = np.array([table["math"][inverse == g].mean() for g in range(groups.size)])
    print("group means", dict(zip(groups.tolist(), np.round(means, 4).tolist())))

    scores = np.column_stack([table["math"], table["physics"]])
    z = (scores - scores.mean(axis=0)) / scores.std(axis=0, ddof=1)
    print("z-scores of ada", np.round(z[0], 6).tolist())
    ages = (np.datetime64("2024-06-01") - table["born"]).astype(np.int64) / 365.25
    print("oldest", table["name"][np.argmax(ages)], "%.4f years" % ages.max())

    buffer = io.StringIO()
    np.savetxt(buffer, scores, delimiter=",", fmt="%.1f", header="math,physics")
    back = np.genfromtxt(io.StringIO(buffer.getvalue()), delimiter=",", names=True)
    print("csv round trip", back.dtype.names, bool(np.allclose(back["math"], table["math"])))
    if out_dir:
        np.save(os.path.join(out_dir, "student_records.npy"), z)


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else None)
