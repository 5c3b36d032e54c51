"""Hand-written jax versions of the workloads, as a jax user would write them.

`JIT[name]` jits the loop body (or the whole function when there is no loop) and calls
it from the same Python loop as the NumPy source. `FORI[name]`, for the loops, jits the
whole loop as one `lax.fori_loop`. Loop-free workloads are NumPy-style code that jax runs
unchanged, so they are the workload's own source under `jax.jit`. The runner calls
these inside `jax.enable_x64(True)`, on arrays made with `jnp.asarray`.
"""

from __future__ import annotations

from functools import partial

import jax
import jax.numpy as jnp
from jax import lax

from . import workloads


def relax_body(x):
    return 0.99 * x + 0.01 * jnp.tanh(x)


def diffusion_body(u, alpha=0.1):
    return u + alpha * (jnp.roll(u, 1, axis=0) + jnp.roll(u, -1, axis=0)
                        + jnp.roll(u, 1, axis=1) + jnp.roll(u, -1, axis=1) - 4 * u)


def shallow_water_body(state, g=9.81, dt=0.02, dx=1.0, f=0.1, nu=0.01):
    h, u, v = state
    u = u + dt * (f * v - g * (jnp.roll(h, -1, axis=0) - h) / dx - nu * u)
    v = v + dt * (-f * u - g * (jnp.roll(h, -1, axis=1) - h) / dx - nu * v)
    hu = 0.5 * (h + jnp.roll(h, -1, axis=0)) * u
    hv = 0.5 * (h + jnp.roll(h, -1, axis=1)) * v
    h = h - dt * ((hu - jnp.roll(hu, 1, axis=0)) + (hv - jnp.roll(hv, 1, axis=1))) / dx
    return h, u, v


def nbody_body(state, mass, dt=1e-3, eps2=1e-2):
    pos, vel = state
    d = pos[None, :, :] - pos[:, None, :]
    inv_r3 = ((d * d).sum(axis=2) + eps2) ** -1.5
    acc = (d * (mass[None, :] * inv_r3)[:, :, None]).sum(axis=1)
    vel = vel + dt * acc
    return pos + dt * vel, vel


def small_loop_body(x):
    return x + 1e-4 * (jnp.cos(x) - x)


def masking_body(x, i):
    # x[mask] has a data-dependent shape, which jit cannot trace: sum through where.
    y = x - 0.01 * i
    return jnp.where(y > 0, y, 0.0).sum()


# --- the loop body jitted, called from a Python loop -------------------------------

def _python_loop(body):
    step = jax.jit(body)

    def run(state, steps, *consts):
        for _ in range(steps):
            state = step(state, *consts)
        return state
    return run


_shallow_water_loop = _python_loop(shallow_water_body)
_nbody_loop = _python_loop(nbody_body)
_masking_step = jax.jit(masking_body)


def shallow_water_jit(h, steps):
    return _shallow_water_loop((h, jnp.zeros_like(h), jnp.zeros_like(h)), steps)


def nbody_jit(pos, vel, mass, steps):
    return _nbody_loop((pos, vel), steps, mass)


def masking_jit(x, steps):
    total = 0.0
    for i in range(steps):
        total = total + _masking_step(x, i)
    return total


# --- the whole loop as one lax.fori_loop -------------------------------------------

def _fori(body):
    @partial(jax.jit, static_argnums=1)
    def run(state, steps, *consts):
        return lax.fori_loop(0, steps, lambda i, s: body(s, *consts), state)
    return run


_shallow_water_fori = _fori(shallow_water_body)
_nbody_fori = _fori(nbody_body)


def shallow_water_fori(h, steps):
    return _shallow_water_fori((h, jnp.zeros_like(h), jnp.zeros_like(h)), steps)


def nbody_fori(pos, vel, mass, steps):
    return _nbody_fori((pos, vel), steps, mass)


@partial(jax.jit, static_argnums=1)
def masking_fori(x, steps):
    return lax.fori_loop(0, steps, lambda i, total: total + masking_body(x, i), 0.0)


def _whole(fn):
    return jax.jit(partial(fn, jnp))


JIT = {
    "norm": _whole(workloads.norm),
    "black_scholes": _whole(workloads.black_scholes),
    "relax": _python_loop(relax_body),
    "diffusion": _python_loop(diffusion_body),
    "shallow_water": shallow_water_jit,
    "mlp": _whole(workloads.mlp),
    "monte_carlo_pi": _whole(workloads.monte_carlo_pi),
    "nbody": nbody_jit,
    "small_loop": _python_loop(small_loop_body),
    "masking": masking_jit,
}

FORI = {
    "relax": _fori(relax_body),
    "diffusion": _fori(diffusion_body),
    "shallow_water": shallow_water_fori,
    "nbody": nbody_fori,
    "small_loop": _fori(small_loop_body),
    "masking": masking_fori,
}


# --- the script-like workloads (benchmarks/scripts.py) -----------------------------

from . import scripts  # noqa: E402


@jax.jit
def _jacobi_step(u):
    work = 0.25 * (u[:-2, 1:-1] + u[2:, 1:-1] + u[1:-1, :-2] + u[1:-1, 2:])
    delta = jnp.abs(work - u[1:-1, 1:-1]).max()
    return u.at[1:-1, 1:-1].set(work), delta


def jacobi_jit(u, steps, eps=1e-12):
    delta = None
    for _ in range(steps):
        u, delta = _jacobi_step(u)
        if delta < eps:
            break
    return u, delta


@jax.jit
def _gauss_step(a, c):
    # The shrinking block a[c:, c-1:] as masks over the whole matrix: one shape, one jit.
    n = a.shape[0]
    rows, cols = jnp.arange(n), jnp.arange(n)
    factor = jnp.where(rows >= c, a[:, c - 1] / a[c - 1, c - 1], 0.0)
    pivot_row = jnp.where(cols >= c - 1, a[c - 1, :], 0.0)
    return a - factor[:, None] * pivot_row[None, :]


def gauss_jit(a):
    for c in range(1, a.shape[0]):
        a = _gauss_step(a, c)
    return a


@jax.jit
def gauss_fori(a):
    return lax.fori_loop(1, a.shape[0], lambda c, a: _gauss_step(a, c), a)


def _lbm_body(f, obstacle, tau=0.6):
    f = jnp.stack([jnp.roll(jnp.roll(f[:, :, i], cx, axis=1), cy, axis=0)
                   for i, (cx, cy) in enumerate(zip(scripts.LBM_CX, scripts.LBM_CY))], axis=2)
    bounced = f[:, :, jnp.array(scripts.LBM_OPPOSITE)]
    rho = jnp.sum(f, 2)
    ux = jnp.sum(f * jnp.array(scripts.LBM_CX), 2) / rho
    uy = jnp.sum(f * jnp.array(scripts.LBM_CY), 2) / rho
    feq = jnp.stack([rho * w * (1 + 3 * (cx * ux + cy * uy) + 9 * (cx * ux + cy * uy) ** 2 / 2
                                - 3 * (ux ** 2 + uy ** 2) / 2)
                     for cx, cy, w in zip(scripts.LBM_CX, scripts.LBM_CY, scripts.LBM_W)], axis=2)
    f = f - (1.0 / tau) * (f - feq)
    return jnp.where(obstacle[:, :, None], bounced, f)


_lbm_step = jax.jit(_lbm_body)


def lbm_jit(f, obstacle, steps):
    for _ in range(steps):
        f = _lbm_step(f, obstacle)
    return f


@partial(jax.jit, static_argnums=2)
def lbm_fori(f, obstacle, steps):
    return lax.fori_loop(0, steps, lambda i, f: _lbm_body(f, obstacle), f)


def _life_body(z):
    n = (z[0:-2, 0:-2] + z[0:-2, 1:-1] + z[0:-2, 2:] + z[1:-1, 0:-2]
         + z[1:-1, 2:] + z[2:, 0:-2] + z[2:, 1:-1] + z[2:, 2:])
    inner = z[1:-1, 1:-1]
    alive = ((n == 3) & (inner == 0)) | (((n == 2) | (n == 3)) & (inner == 1))
    return jnp.zeros_like(z).at[1:-1, 1:-1].set(alive.astype(z.dtype))


_life_step = jax.jit(_life_body)


def life_jit(z, steps):
    for _ in range(steps):
        z = _life_step(z)
    return z


@partial(jax.jit, static_argnums=1)
def life_fori(z, steps):
    return lax.fori_loop(0, steps, lambda i, z: _life_body(z), z)


@jax.jit
def convolve_jit(x, k):
    return jnp.convolve(x, k, mode="same")


@partial(jax.jit, static_argnums=2)
def _window_mean(x, start, width):
    return lax.dynamic_slice(x, (start,), (width,)).mean()


def windows_jit(x, width, hop):
    return jnp.stack([_window_mean(x, start, width)
                      for start in range(0, x.shape[0] - width + 1, hop)])


@jax.jit
def _hist_sort(x):
    counts, edges = jnp.histogram(x, bins=100)
    s = jnp.sort(x)
    return counts, edges, s, s[s.shape[0] // 2]


def hist_sort_jit(x):
    return _hist_sort(x)


def minimize_jit(features, labels, iters):
    import numpy
    from scipy.optimize import minimize as scipy_minimize

    @jax.jit
    def objective(w):
        p = 1.0 / (1.0 + jnp.exp(-(features @ w)))
        loss = -jnp.mean(labels * jnp.log(p + 1e-12) + (1 - labels) * jnp.log(1 - p + 1e-12))
        loss = loss + 0.5e-3 * jnp.dot(w, w)
        return loss, features.T @ (p - labels) / labels.shape[0] + 1e-3 * w

    def fun(w):
        loss, grad = objective(jnp.asarray(w))
        return float(loss), numpy.asarray(grad, dtype=float)

    result = scipy_minimize(fun, numpy.zeros(features.shape[1]), jac=True, method="L-BFGS-B",
                            options={"maxiter": iters, "gtol": 1e-10})
    return result.x


@jax.jit
def _append_body(x, scale):
    return jnp.tanh(x * scale).sum()


def append_loop_jit(x, count):
    return sum(_append_body(x, 1e-3 * (i + 1)) for i in range(count))


JIT.update({
    "jacobi": jacobi_jit, "gauss": gauss_jit, "lbm": lbm_jit, "life": life_jit,
    "convolve": convolve_jit, "windows": windows_jit, "hist_sort": hist_sort_jit,
    "minimize": minimize_jit, "append_loop": append_loop_jit,
})
FORI.update({"gauss": gauss_fori, "lbm": lbm_fori, "life": life_fori})
