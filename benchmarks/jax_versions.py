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
