"""Binary and text I/O around computed arrays: tofile/fromfile raw dumps, tobytes and
np.frombuffer, np.savez with several arrays loaded back, memoryview of an array's
buffer, a np.memmap written and reread, and np.loadtxt of a generated table."""

import io
import os
import sys
import tempfile

import numpy as np


def main(out_dir=None):
    rng = np.random.default_rng(23)
    matrix = rng.normal(size=(6, 4))
    product = matrix @ matrix.T
    with tempfile.TemporaryDirectory() as tmp:
        raw = os.path.join(tmp, "product.bin")
        product.tofile(raw)
        back = np.fromfile(raw, dtype=np.float64).reshape(6, 6)
        print("tofile/fromfile", back.shape, bool(np.array_equal(back, product)))
        archive = os.path.join(tmp, "arrays.npz")
        np.savez(archive, matrix=matrix, product=product, labels=np.array(["a", "b"]))
        with np.load(archive) as loaded:
            print("npz", sorted(loaded.files), bool(np.array_equal(loaded["product"], product)),
                  loaded["labels"].tolist())
        mm = np.memmap(os.path.join(tmp, "mm.dat"), dtype=np.float32, mode="w+", shape=(3, 4))
        mm[:] = np.arange(12, dtype=np.float32).reshape(3, 4) * 0.5
        mm.flush()
        reread = np.memmap(os.path.join(tmp, "mm.dat"), dtype=np.float32, mode="r", shape=(3, 4))
        print("memmap", float(reread.sum()), reread.dtype)
        del mm, reread
    data = product.tobytes()
    print("tobytes", len(data), bool(np.array_equal(np.frombuffer(data).reshape(6, 6), product)))
    view = memoryview(np.ascontiguousarray(matrix))
    print("memoryview", view.format, view.shape, view.nbytes)
    text = io.StringIO("\n".join(" ".join(f"{v:.3f}" for v in row) for row in matrix))
    table = np.loadtxt(text)
    print("loadtxt", table.shape, bool(np.allclose(table, matrix, atol=5e-4)))
    if out_dir:
        np.save(os.path.join(out_dir, "binary_io.npy"), product)


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else None)
