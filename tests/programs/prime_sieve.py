"""The sieve of Eratosthenes on a boolean array, struck out in place through strided
slices; prime gaps, twin primes, a segmented sieve of a higher range checked against
the first, Goldbach pairs counted with np.isin, and the prime-counting function."""

import os
import sys

import numpy as np


def sieve(limit):
    is_prime = np.ones(limit + 1, dtype=bool)
    is_prime[:2] = False
    for p in range(2, int(limit ** 0.5) + 1):
        if is_prime[p]:
            is_prime[p * p::p] = False
    return is_prime


def main(out_dir=None):
    limit = 20000
    is_prime = sieve(limit)
    primes = np.flatnonzero(is_prime)
    print("primes below", limit, primes.size, "last", int(primes[-1]))
    gaps = np.diff(primes)
    print("largest gap", int(gaps.max()), "after", int(primes[np.argmax(gaps)]),
          "twin pairs", int(np.count_nonzero(gaps == 2)))

    lo, hi = 10000, 10500
    segment = np.ones(hi - lo, dtype=bool)
    for p in primes[primes * primes < hi]:
        start = max(p * p, ((lo + p - 1) // p) * p)
        segment[start - lo::p] = False
    print("segmented sieve agrees:", bool(np.array_equal(np.flatnonzero(segment) + lo,
                                                        primes[(primes >= lo) & (primes < hi)])))
    evens = np.arange(4, 201, 2)
    pairs = [int(np.count_nonzero(np.isin(n - primes[primes <= n // 2], primes))) for n in evens]
    print("goldbach pairs for 100, 200:", pairs[48], pairs[-1], "min", min(pairs))
    x = np.array([10, 100, 1000, 10000])
    pi_x = np.cumsum(is_prime)[x]
    print("pi(x)", pi_x.tolist(), np.round(pi_x / (x / np.log(x)), 6).tolist())
    if out_dir:
        np.save(os.path.join(out_dir, "prime_sieve.npy"), primes)


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else None)
