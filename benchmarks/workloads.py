"""The workloads, each written once as a NumPy user would write it, with the array
module passed in as `np`: the runner calls them with `numpy` and with `lazyarr`.

`WORKLOADS` lists each one with a function building its inputs on the host (NumPy's
`default_rng`, so every variant sees the same data) at full or --quick size, and the
relative tolerance its results are checked with against NumPy.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

import numpy


def norm(np, x):
    """Normalise the columns: zero mean, unit standard deviation."""
    return (x - x.mean(axis=0)) / x.std(axis=0)


def black_scholes(np, s, k, t, r=0.02, vol=0.3):
    """European call and put prices; the normal CDF by the Abramowitz-Stegun polynomial."""
    def cnd(d):
        w = 1.0 / (1.0 + 0.2316419 * np.abs(d))
        poly = w * (0.31938153 + w * (-0.356563782 + w * (1.781477937
                    + w * (-1.821255978 + w * 1.330274429))))
        tail = 0.3989422804014327 * np.exp(-0.5 * d * d) * poly
        return np.where(d > 0, 1.0 - tail, tail)

    sqrt_t = np.sqrt(t)
    d1 = (np.log(s / k) + (r + 0.5 * vol * vol) * t) / (vol * sqrt_t)
    d2 = d1 - vol * sqrt_t
    discount = k * np.exp(-r * t)
    call = s * cnd(d1) - discount * cnd(d2)
    put = discount * cnd(-d2) - s * cnd(-d1)
    return call, put


def relax(np, x, steps):
    for _ in range(steps):
        x = 0.99 * x + 0.01 * np.tanh(x)
    return x


def diffusion(np, u, steps, alpha=0.1):
    """Explicit heat equation on a periodic grid, neighbours by np.roll."""
    for _ in range(steps):
        u = u + alpha * (np.roll(u, 1, axis=0) + np.roll(u, -1, axis=0)
                         + np.roll(u, 1, axis=1) + np.roll(u, -1, axis=1) - 4 * u)
    return u


def shallow_water(np, h, steps, g=9.81, dt=0.02, dx=1.0, f=0.1, nu=0.01):
    """Nonlinear shallow water on a periodic C-grid: forward-backward steps, centred fluxes."""
    u = np.zeros_like(h)
    v = np.zeros_like(h)
    for _ in range(steps):
        u = u + dt * (f * v - g * (np.roll(h, -1, axis=0) - h) / dx - nu * u)
        v = v + dt * (-f * u - g * (np.roll(h, -1, axis=1) - h) / dx - nu * v)
        hu = 0.5 * (h + np.roll(h, -1, axis=0)) * u
        hv = 0.5 * (h + np.roll(h, -1, axis=1)) * v
        h = h - dt * ((hu - np.roll(hu, 1, axis=0)) + (hv - np.roll(hv, 1, axis=1))) / dx
    return h, u, v


def mlp(np, x, y, w1, b1, w2, b2, w3, b3):
    """A 3-layer tanh MLP forward pass and its mean squared error."""
    h = np.tanh(x @ w1 + b1)
    h = np.tanh(h @ w2 + b2)
    out = h @ w3 + b3
    return np.mean((out - y) ** 2)


def monte_carlo_pi(np, xy):
    """pi from the share of uniform points inside the quarter circle."""
    x, y = xy[0], xy[1]
    inside = np.sum(x * x + y * y <= 1.0)
    return 4.0 * inside / x.shape[0]


def nbody(np, pos, vel, mass, steps, dt=1e-3, eps2=1e-2):
    """All-pairs softened gravity, semi-implicit Euler."""
    for _ in range(steps):
        d = pos[None, :, :] - pos[:, None, :]            # d[i, j] = pos[j] - pos[i]
        inv_r3 = ((d * d).sum(axis=2) + eps2) ** -1.5
        acc = (d * (mass[None, :] * inv_r3)[:, :, None]).sum(axis=1)
        vel = vel + dt * acc
        pos = pos + dt * vel
    return pos, vel


def small_loop(np, x, steps):
    """Many iterations of a few ops on a tiny array: per-call overhead dominates."""
    for _ in range(steps):
        x = x + 1e-4 * (np.cos(x) - x)
    return x


def masking(np, x, steps):
    """Sums of the positive entries of a shifted array: a boolean mask per step."""
    total = 0.0
    for i in range(steps):
        y = x - 0.01 * i
        total = total + y[y > 0].sum()
    return total


@dataclass(frozen=True)
class Workload:
    name: str
    fn: Callable
    inputs: Callable   # inputs(quick) -> tuple of arguments after `np`
    rtol: float


def _rng():
    return numpy.random.default_rng(0)


def _norm_inputs(quick):
    return (_rng().normal(3.0, 2.0, (20_000 if quick else 2_000_000, 10)),)


def _bs_inputs(quick):
    n = 40_000 if quick else 4_000_000
    rng = _rng()
    return rng.uniform(5, 30, n), rng.uniform(1, 100, n), rng.uniform(0.25, 10, n)


def _relax_inputs(quick):
    return _rng().normal(size=10_000 if quick else 1_000_000), 20 if quick else 200


def _diffusion_inputs(quick):
    n = 100 if quick else 1000
    return _rng().random((n, n)), 10 if quick else 100


def _shallow_water_inputs(quick):
    n = 80 if quick else 800
    i = numpy.arange(n) - n / 2
    h = 10.0 + numpy.exp(-(i[:, None] ** 2 + i[None, :] ** 2) / (n / 10) ** 2)
    return h, 10 if quick else 100


def _mlp_inputs(quick):
    batch, width = (256, 64) if quick else (4096, 512)
    rng = _rng()
    scale = 1 / numpy.sqrt(width)

    def layer():
        return rng.normal(0, scale, (width, width)), rng.normal(0, 0.1, width)

    (w1, b1), (w2, b2), (w3, b3) = layer(), layer(), layer()
    x, y = rng.normal(size=(batch, width)), rng.normal(size=(batch, width))
    return x, y, w1, b1, w2, b2, w3, b3


def _pi_inputs(quick):
    return (_rng().random((2, 600_000 if quick else 60_000_000)),)


def _nbody_inputs(quick):
    n = 200 if quick else 2000
    rng = _rng()
    return rng.normal(size=(n, 3)), rng.normal(0, 0.1, (n, 3)), rng.uniform(0.5, 1.5, n) / n, \
        2 if quick else 10


def _small_loop_inputs(quick):
    return _rng().normal(size=10), 1_000 if quick else 100_000


def _masking_inputs(quick):
    return _rng().normal(size=10_000 if quick else 1_000_000), 20


# Reductions and matmuls are summed in a different order by XLA than by NumPy: 1e-9
# leaves room for that and nothing else at float64.
WORKLOADS = {w.name: w for w in [
    Workload("norm", norm, _norm_inputs, 1e-9),
    Workload("black_scholes", black_scholes, _bs_inputs, 1e-9),
    Workload("relax", relax, _relax_inputs, 1e-9),
    Workload("diffusion", diffusion, _diffusion_inputs, 1e-9),
    Workload("shallow_water", shallow_water, _shallow_water_inputs, 1e-9),
    Workload("mlp", mlp, _mlp_inputs, 1e-9),
    Workload("monte_carlo_pi", monte_carlo_pi, _pi_inputs, 1e-12),
    Workload("nbody", nbody, _nbody_inputs, 1e-9),
    Workload("small_loop", small_loop, _small_loop_inputs, 1e-9),
    Workload("masking", masking, _masking_inputs, 1e-9),
]}

# The script-like workloads (issue 10): see scripts.py.
from . import scripts  # noqa: E402

WORKLOADS.update({w.name: w for w in [
    Workload("jacobi", scripts.jacobi, scripts.jacobi_inputs, 1e-9),
    Workload("gauss", scripts.gauss, scripts.gauss_inputs, 1e-9),
    Workload("lbm", scripts.lbm, scripts.lbm_inputs, 1e-9),
    Workload("life", scripts.life, scripts.life_inputs, 0),
    Workload("convolve", scripts.convolve, scripts.convolve_inputs, 1e-9),
    Workload("windows", scripts.windows, scripts.windows_inputs, 1e-9),
    Workload("hist_sort", scripts.hist_sort, scripts.hist_sort_inputs, 1e-12),
    # The optimizer's path follows the objective's last bits: room for XLA's summation order.
    Workload("minimize", scripts.minimize, scripts.minimize_inputs, 1e-6),
    Workload("append_loop", scripts.append_loop, scripts.append_loop_inputs, 1e-9),
]})
