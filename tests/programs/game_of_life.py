"""Conway's Game of Life on a 48x48 board with a dead border: a glider in a quiet
corner and a random soup elsewhere. Neighbours are sums of shifted slices; births and
survivals are written through a view of the interior. Then a lone glider on a 16x16
torus (neighbours by np.roll), which is back where it started after 64 generations."""

import os
import sys

import numpy as np

GLIDER = np.array([[0, 1, 0],
                   [0, 0, 1],
                   [1, 1, 1]], dtype=np.uint8)


def neighbours(Z):
    return (Z[:-2, :-2] + Z[:-2, 1:-1] + Z[:-2, 2:]
            + Z[1:-1, :-2] + Z[1:-1, 2:]
            + Z[2:, :-2] + Z[2:, 1:-1] + Z[2:, 2:])


def iterate(Z):
    N = neighbours(Z.astype(np.int64))
    birth = (N == 3) & (Z[1:-1, 1:-1] == 0)
    survive = ((N == 2) | (N == 3)) & (Z[1:-1, 1:-1] == 1)
    Z[...] = 0
    Z[1:-1, 1:-1][birth | survive] = 1
    return Z


def iterate_torus(T):
    """One generation on a torus (wrapping edges), neighbours through np.roll."""
    N = sum(np.roll(np.roll(T, dy, axis=0), dx, axis=1)
            for dy in (-1, 0, 1) for dx in (-1, 0, 1) if (dy, dx) != (0, 0))
    return ((N == 3) | ((T == 1) & (N == 2))).astype(T.dtype)


def initial_board(n, seed):
    rng = np.random.default_rng(seed)
    Z = np.zeros((n, n), dtype=np.uint8)
    Z[1:-1, 1:-1] = rng.random((n - 2, n - 2)) < 0.3
    Z[1:12, 1:12] = 0  # clear the top-left corner for the glider
    Z[2:5, 2:5] = GLIDER
    return Z


def main(out_dir=None, n=48, generations=120):
    Z = initial_board(n, seed=2024)
    print(f"board {Z.shape} {Z.dtype}, initial population {int(Z.sum())}")
    glider_corner = Z[1:12, 1:12]  # a view: follows the board
    history = [int(Z.sum())]
    for generation in range(1, generations + 1):
        iterate(Z)
        history.append(int(np.count_nonzero(Z)))
        if generation % 20 == 0:
            rows, cols = np.nonzero(glider_corner)
            print(f"generation {generation:3d}: population {history[-1]}, "
                  f"corner cells {rows.size}, corner centre "
                  f"({rows.mean() if rows.size else -1.0:.2f}, "
                  f"{cols.mean() if cols.size else -1.0:.2f})")
    history = np.array(history)
    T = np.zeros((16, 16), dtype=np.uint8)
    T[:3, :3] = GLIDER
    start = T.copy()
    for generation in range(1, 65):
        T = iterate_torus(T)
        if generation % 16 == 0:
            print(f"torus glider after {generation} generations: "
                  f"{int(T.sum())} cells, back at start {bool(np.array_equal(T, start))}, "
                  f"first cell {np.argwhere(T)[0].tolist()}")
    print(f"population min {history.min()}, max {history.max()}, "
          f"mean {history.mean():.3f}")
    print(f"busiest row {int(np.argmax(Z.sum(axis=1)))}, "
          f"busiest column {int(np.argmax(Z.sum(axis=0)))}")
    if out_dir:
        np.save(os.path.join(out_dir, "game_of_life.npy"), Z)


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else None)
