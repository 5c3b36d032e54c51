"""In-place algorithms written the NumPy way: an insertion sort and a Lomuto
quicksort partition with element swaps, a Fisher-Yates shuffle driven by a seeded
RandomState, in-place cumulative sums with out=, reversing through a negative-step
view, Gaussian elimination that overwrites its matrix and a prefix-doubling scan."""

import os
import sys

import numpy as np


def insertion_sort(a):
    for i in range(1, a.size):
        key = a[i]
        j = i - 1
        while j >= 0 and a[j] > key:
            a[j + 1] = a[j]
            j -= 1
        a[j + 1] = key


def partition(a, lo, hi):
    pivot = a[hi]
    i = lo
    for j in range(lo, hi):
        if a[j] <= pivot:
            a[i], a[j] = a[j], a[i]
            i += 1
    a[i], a[hi] = a[hi], a[i]
    return i


def quicksort(a, lo=0, hi=None):
    stack = [(lo, a.size - 1 if hi is None else hi)]
    while stack:
        lo, hi = stack.pop()
        if lo < hi:
            p = partition(a, lo, hi)
            stack += [(lo, p - 1), (p + 1, hi)]


def main(out_dir=None):
    state = np.random.RandomState(4)
    data = state.randint(0, 100, 24)
    a = data.copy()
    insertion_sort(a)
    print("insertion sort", a.tolist(), bool(np.all(a == np.sort(data))))
    q = state.rand(30)
    quicksort(q)
    print("quicksort sorted:", bool(np.all(np.diff(q) >= 0)), "%.6f" % q[15])

    deck = np.arange(10)
    for i in range(deck.size - 1, 0, -1):
        j = state.randint(0, i + 1)
        deck[i], deck[j] = deck[j], deck[i]
    print("shuffled", deck.tolist())

    x = np.arange(1.0, 11.0)
    np.cumsum(x, out=x)
    x[::-1] = x.copy()
    print("cumsum reversed", x.tolist())
    scan = np.arange(1, 17)
    shift = 1
    while shift < scan.size:
        scan[shift:] = scan[shift:] + scan[:-shift].copy()
        shift *= 2
    print("prefix doubling", scan.tolist())

    M = state.rand(5, 5) + 5 * np.eye(5)
    rhs = state.rand(5)
    A, b = M.copy(), rhs.copy()
    n = A.shape[0]
    for k in range(n):
        p = k + int(np.argmax(np.abs(A[k:, k])))
        A[[k, p]] = A[[p, k]]
        b[[k, p]] = b[[p, k]]
        factors = A[k + 1:, k] / A[k, k]
        A[k + 1:, k:] -= np.outer(factors, A[k, k:])
        b[k + 1:] -= factors * b[k]
    solution = np.zeros(n)
    for k in range(n - 1, -1, -1):
        solution[k] = (b[k] - A[k, k + 1:] @ solution[k + 1:]) / A[k, k]
    print("gauss matches solve:", bool(np.allclose(solution, np.linalg.solve(M, rhs))),
          "upper triangular:", bool(np.allclose(np.tril(A, -1), 0.0)))
    if out_dir:
        np.save(os.path.join(out_dir, "inplace_algorithms.npy"), np.concatenate([q, x, solution]))


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else None)
