"""How far a backend's float32 functions are from NumPy's, on this machine's device.

`LAZYARR_TIER=compile python tools/precision.py [backend]` (default xla) computes each
ufunc below on 100,000 float32 values drawn over its domain through lazyarr, forced to
compile, and prints per function the share of results that differ from NumPy's and
the largest relative error and ulp distance; for the remainders, the share of results
off by more than a few ulps of the divisor (a quotient off by one). docs/semantics.md
quotes its figures for a TPU; tests/differential.py's TPU tolerance rests on them.
"""

from __future__ import annotations

import sys
import warnings

import numpy as np

import lazyarr as la

N = 100_000
UNARY = {"exp": (-80, 80), "exp2": (-120, 120), "expm1": (-5, 5), "log": (1e-30, 1e30),
         "log2": (1e-6, 1e6), "log10": (1e-6, 1e6), "log1p": (-0.9, 100), "sqrt": (0, 1e6),
         "cbrt": (-1e6, 1e6), "sin": (-100, 100), "cos": (-100, 100), "tan": (-1.5, 1.5),
         "arcsin": (-1, 1), "arccos": (-1, 1), "arctan": (-100, 100), "sinh": (-80, 80),
         "cosh": (-80, 80), "tanh": (-10, 10), "arcsinh": (-1e6, 1e6), "arccosh": (1, 1e6),
         "arctanh": (-0.999, 0.999), "reciprocal": (1e-3, 1e3)}
BINARY = {"divide": ((-1e6, 1e6), (1e-3, 1e3)), "power": ((0.01, 10), (-10, 10)),
          "arctan2": ((-10, 10), (-10, 10)), "hypot": ((-1e3, 1e3), (-1e3, 1e3)),
          "logaddexp": ((-50, 50), (-50, 50)), "logaddexp2": ((-50, 50), (-50, 50))}
REMAINDERS = {"remainder": ((-1e7, 1e7), (0.5, 50)), "fmod": ((-1e7, 1e7), (0.5, 50)),
              "floor_divide": ((-1e7, 1e7), (0.5, 50))}


def _values(rng, low, high):
    return rng.uniform(low, high, N).astype(np.float32)


def _both(name, *args):
    expected = getattr(np, name)(*args)
    actual = np.asarray(getattr(la, name)(*[la.asarray(a, copy=True) for a in args]))
    return expected, actual


def _closeness(name, expected, actual) -> str:
    e, a = expected.astype(np.float64), actual.astype(np.float64)
    ok = np.isfinite(e) & (np.abs(e) > 1e-30)
    rel = np.abs(a[ok] - e[ok]) / np.abs(e[ok])
    ulps = np.abs(a[ok] - e[ok]) / np.spacing(np.abs(expected[ok])).astype(np.float64)
    return (f"{name:12s} differ {np.mean(actual[ok] != expected[ok]):6.1%}  "
            f"max relative {rel.max():.2e}  max ulps {ulps.max():.0f}")


def main(backend: str = "xla") -> None:
    warnings.simplefilter("ignore")
    la.set_backend(backend)
    rng = np.random.default_rng(0)
    for name, domain in UNARY.items():
        print(_closeness(name, *_both(name, _values(rng, *domain))), flush=True)
    for name, (x, y) in BINARY.items():
        print(_closeness(name, *_both(name, _values(rng, *x), _values(rng, *y))), flush=True)
    for name, (x, y) in REMAINDERS.items():
        divisor = _values(rng, *y)
        expected, actual = _both(name, _values(rng, *x), divisor)
        off = np.abs(actual.astype(np.float64) - expected) > 4 * np.spacing(divisor)
        print(f"{name:12s} differ {np.mean(actual != expected):6.1%}  "
              f"by more than 4 ulps of the divisor {np.mean(off):6.1%}", flush=True)


if __name__ == "__main__":
    main(*sys.argv[1:])
