"""Out-of-core style computation with dask.array over NumPy data: a chunked array
built from a NumPy array, NumPy ufuncs applied to it (they stay dask arrays), blockwise
reductions, map_blocks with a NumPy function, and the results compared with NumPy."""

import os
import sys

import dask
import dask.array as da
import numpy as np


def main(out_dir=None):
    dask.config.set(scheduler="synchronous")
    rng = np.random.default_rng(12)
    data = rng.normal(1.0, 2.0, (400, 300))
    x = da.from_array(data, chunks=(100, 100))
    print("chunks", x.chunks[0], x.numblocks)
    y = np.exp(x / 10.0)
    print("ufunc on dask gives", type(y).__name__)
    total = (y - 1.0).sum().compute()
    print("sum %.8f matches NumPy: %s" % (total, bool(np.isclose(total, np.sum(np.exp(data / 10.0) - 1.0)))))
    col = np.mean(x, axis=0)
    print("np.mean on dask gives", type(col).__name__, col.shape)
    centred = x.map_blocks(lambda b: b - b.mean(axis=0, keepdims=True))
    block_means = centred.mean(axis=0).compute()
    print("centred block means small:", bool(np.abs(block_means).max() < 1e-12))
    hist, edges = da.histogram(x, bins=10, range=(-5.0, 7.0))
    print("histogram", hist.compute().tolist())
    if out_dir:
        np.save(os.path.join(out_dir, "dask_blocks.npy"), col.compute())


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else None)
