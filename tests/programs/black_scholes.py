"""European option prices on a grid of strikes and maturities (Black-Scholes), checked
against put-call parity; the normal CDF is Abramowitz & Stegun's 26.2.17."""

import os
import sys

import numpy as np

A = (0.319381530, -0.356563782, 1.781477937, -1.821255978, 1.330274429)


def norm_cdf(x):
    t = 1.0 / (1.0 + 0.2316419 * np.abs(x))
    poly = t * (A[0] + t * (A[1] + t * (A[2] + t * (A[3] + t * A[4]))))
    upper = 1.0 - np.exp(-0.5 * x * x) / np.sqrt(2.0 * np.pi) * poly
    return np.where(x >= 0.0, upper, 1.0 - upper)


def black_scholes(spot, strike, maturity, rate, vol):
    """Call and put prices, and the call's delta."""
    sqrt_t = np.sqrt(maturity)
    d1 = (np.log(spot / strike) + (rate + 0.5 * vol ** 2) * maturity) / (vol * sqrt_t)
    d2 = d1 - vol * sqrt_t
    discount = np.exp(-rate * maturity)
    call = spot * norm_cdf(d1) - strike * discount * norm_cdf(d2)
    put = strike * discount * norm_cdf(-d2) - spot * norm_cdf(-d1)
    return call, put, norm_cdf(d1)


def main(out_dir=None):
    strikes, maturities = np.meshgrid(np.linspace(60.0, 140.0, 81), np.linspace(0.1, 3.0, 30))
    call, put, delta = black_scholes(100.0, strikes, maturities, rate=0.03, vol=0.25)
    parity = call - put - (100.0 - strikes * np.exp(-0.03 * maturities))
    print(f"grid {call.shape}, dtype {call.dtype}")
    print(f"mean call {float(call.mean()):.8f}, mean put {float(put.mean()):.8f}")
    print(f"max parity error {float(np.max(np.abs(parity))):.3e}")
    atm = int(np.argmin(np.abs(strikes[0] - 100.0)))
    print(f"at the money (K={float(strikes[0, atm]):.0f}): "
          + ", ".join(f"{c:.4f}" for c in call[::10, atm].tolist()))
    print(f"delta in [{float(delta.min()):.6f}, {float(delta.max()):.6f}]")
    if out_dir:
        np.save(os.path.join(out_dir, "black_scholes.npy"), np.stack([call, put, delta]))


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else None)
