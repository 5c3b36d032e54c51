"""The sorting primitives as jax operations, in NumPy's sort order.

jax's sort comparator already puts NaN last and treats -0.0 as 0.0 for real floats,
but orders complex numbers by (real, imag) with NaN last in each part, where NumPy
puts every number with a NaN part after every number without one. Complex values
are therefore sorted by three keys: the NaN class, then the real and imaginary parts
with NaNs replaced by 0.
"""

from __future__ import annotations

import numpy as np

import jax.numpy as jnp
from jax import lax

from lazyarr.backend_api import op

from . import registry


def _keys(x) -> list:
    """Sort keys of `x` whose lexicographic order is NumPy's order of `x`."""
    if np.dtype(x.dtype).kind != "c":
        return [x]
    re, im = jnp.real(x), jnp.imag(x)
    nan_re, nan_im = jnp.isnan(re), jnp.isnan(im)
    nan_class = 2 * nan_re.astype(jnp.int8) + nan_im.astype(jnp.int8)
    return [nan_class, jnp.where(nan_re, 0, re), jnp.where(nan_im, 0, im)]


def _sort(x, axis):
    keys = _keys(x)
    if len(keys) == 1:
        return lax.sort(x, dimension=axis, is_stable=True)
    return lax.sort(keys + [x], dimension=axis, is_stable=True, num_keys=len(keys))[-1]


def _argsort(*arrays, axis):
    keys = [k for x in arrays for k in _keys(x)]
    index = lax.broadcasted_iota(jnp.int64, arrays[0].shape, axis)
    return lax.sort(keys + [index], dimension=axis, is_stable=True, num_keys=len(keys))[-1]


def _less(x, y):
    """NumPy's sort order `x < y` (npysort's LT for floats and complex numbers)."""
    kind = np.dtype(x.dtype).kind
    if kind == "b":
        return ~x & y
    if kind in "iu":
        return x < y
    if kind == "f":
        return (x < y) | (jnp.isnan(y) & ~jnp.isnan(x))
    xr, xi, yr, yi = jnp.real(x), jnp.imag(x), jnp.real(y), jnp.imag(y)
    nan = jnp.isnan
    return jnp.where(
        xr < yr, ~nan(xi) | nan(yi),
        jnp.where(xr > yr, nan(yi) & ~nan(xi),
                  jnp.where((xr == yr) | (nan(xr) & nan(yr)),
                            (xi < yi) | (nan(yi) & ~nan(xi)), nan(yr))))


def _searchsorted(a, v, side):
    """Binary search of every element of `v` in `a`, vectorized, with NumPy's order:
    side "left" finds the first i with not a[i] < v, "right" the first with v < a[i]."""
    n = a.shape[0]
    lo = jnp.zeros(v.shape, jnp.int64)
    if n == 0:
        return lo
    hi = jnp.full(v.shape, n, jnp.int64)

    def step(_, bounds):
        lo, hi = bounds
        mid = (lo + hi) // 2
        pivot = jnp.take(a, jnp.minimum(mid, n - 1))
        right = _less(pivot, v) if side == "left" else ~_less(v, pivot)
        active = lo < hi
        return jnp.where(active & right, mid + 1, lo), jnp.where(active & ~right, mid, hi)

    return lax.fori_loop(0, n.bit_length(), step, (lo, hi))[0]


def _bincount(x, *weights, length):
    if weights:
        return jnp.zeros(length, weights[0].dtype).at[x].add(weights[0], mode="drop")
    return jnp.zeros(length, jnp.int64).at[x].add(1, mode="drop")


def _histogram_counts(x, edges, low, high, first, denom, *, n):
    """The reference's counting (`_ops_sort._histogram_counts`) in one pass: each
    comparison and quotient in the dtype the reference computes it in, a value outside
    [low, high] counted in a dropped bin n."""
    keep = (x.astype(low.dtype) >= low) & (x.astype(high.dtype) <= high)
    values = x.astype(edges.dtype)
    quotient = np.result_type(first.dtype, denom.dtype)  # (NumPy's promotion)
    offset = (values.astype(first.dtype) - first).astype(quotient)
    index = jnp.clip((offset / denom.astype(quotient) * n).astype(jnp.int64), 0, n - 1)
    index = jnp.clip(index - (values < edges[index]), 0, n - 1)
    index = index + ((values >= edges[index + 1]) & (index != n - 1))
    index = jnp.where(keep, index, n)
    return jnp.zeros(n + 1, jnp.int64).at[index].add(1)[:n]


# The primitives whose lowering here runs slower on the CPU than NumPy's at every size
# measured (jax.jit of the lowering against NumPy, best of 9 runs, on the 2-core machine
# with others' work running): sort of float64, 1e3/1e5/1e6 values, 0.29/72/920 ms
# against 0.013/1.9/42 ms (16-39x), of int64 3-9x; argsort 2.9-8x. Not searchsorted
# (2.3-3.7x slower into 101 edges, but 0.6 s against NumPy's 1.06 s for 1e6 values into
# 1e6) nor bincount (0.8-1.5x at 1e5-1e6 values). The tiers interpret a program holding
# one (`XlaBackend.slower_ops`).
SLOWER_ON_CPU = frozenset({op("sort"), op("argsort")})


registry.register_all({
    op("sort"): _sort,
    op("argsort"): _argsort,
    op("searchsorted"): _searchsorted,
    op("bincount"): _bincount,
    op("histogram_counts"): _histogram_counts,
})
