"""The mutation primitives as jax operations.

XLA applies the updates of a scatter whose indices repeat in an unspecified order;
NumPy applies them in index order (the last write wins, `ufunc.at` accumulates in
order). So a scatter with possibly repeated indices first keeps, for each target row,
only its last update, and `ufunc.at` runs in rounds: round r applies the r-th update of
every target row, so each round's indices are distinct.
"""

from __future__ import annotations

import jax.numpy as jnp
from jax import lax

from lazyarr.backend_api import op, span

from . import registry


# On the CPU, a write whose region touches most of its target's cache lines
# (`_strided_write`) is cheaper as a select over the whole target than as XLA's in-place
# dynamic_update_slice: a plane `f[:, :, i]` of a (400, 400, 9) float64 array, written
# at a stride of 72 bytes, took 2.5 ms as a dynamic_update_slice and the nine planes
# 23 ms; as selects XLA fuses the nine into one pass of 1.1 ms (NumPy's nine writes:
# 9.5 ms). Not on a TPU v5e, where the nine float32 planes took 0.44 ms as
# dynamic_update_slices and 0.52 ms as selects. So is a write covering at least half of
# its target, at starts known when the program is built: jacobi's `center[:] = work`
# (2000x2000, 50 steps, compiled, nothing donated that is read later) took 833-890 ms
# as a dynamic_update_slice and 606-781 ms as a select with the new values padded.
STRIDED_BLOCK_BYTES = 128


def _strided_write(x, values) -> bool:
    """Whether a write of `values` into `x` (unit steps) covers every axis whole or at
    one index, and the block of x from its first axis not covered whole (what each
    index of the axes before it holds) is at most `STRIDED_BLOCK_BYTES`: the write
    touches nearly every cache line of x, so a select costs no more memory traffic and
    fuses with the writes and reads around it."""
    partial = [a for a in range(x.ndim) if values.shape[a] != x.shape[a]]
    if not partial or any(values.shape[a] != 1 for a in partial):
        return False
    block = x.dtype.itemsize
    for n in x.shape[partial[0]:]:
        block *= n
    return block <= STRIDED_BLOCK_BYTES


def _update_slice_cpu(x, values, starts, steps, at=None):
    """`_update_slice`, as a select where that is cheaper (see above)."""
    if values.size and all(step == 1 for step in steps):
        if _strided_write(x, values):
            return _select_write(x, values, _starts(starts, at), starts.dtype)
        if at is not None and 2 * values.size >= x.size:
            return _select_write(x, values, at, starts.dtype)
    return _update_slice(x, values, starts, steps, at)


def _select_write(x, values, first, index_dtype):
    """x with `values` written from `first` on, as a select over the whole of x: along
    an axis written at one index `values` broadcast, along one written in part they are
    padded to x's length (`first` is then known when the program is built)."""
    where, widths = True, []
    for axis, (n, m) in enumerate(zip(values.shape, x.shape)):
        if n == m:
            widths.append((0, 0, 0))
            continue
        place = lax.broadcasted_iota(index_dtype, x.shape, axis)
        if n == 1:
            widths.append((0, 0, 0))
            where = where & (place == first[axis])
        else:
            widths.append((first[axis], m - first[axis] - n, 0))
            where = where & (place >= first[axis]) & (place < first[axis] + n)
    if any(widths):
        values = lax.pad(values, jnp.zeros((), values.dtype), widths)
    return jnp.where(where, values, x)


def write_into_fill(fill, values, at, shape):
    """`update_slice` at starts `at` (unit steps) into a buffer of `shape` that is the
    0-d `fill` broadcast (`z[...] = 0`, then `z[1:-1, 1:-1] = ...`): the values padded
    with it. As a select over the whole buffer, XLA computed the select's mask again
    for every slice the next step read of it: Game of Life's step so (jax.jit, 2000x2000
    int64, 5 steps a program, 50 steps) ran in 420-453 ms, padded in 139-145 ms (jit's
    `zeros.at[1:-1, 1:-1].set`, a step a program: 149-150 ms)."""
    widths = [(a, m - a - n, 0) for a, n, m in zip(at, values.shape, shape)]
    return lax.pad(values, fill, widths)  # (the rules give both the buffer's dtype)


def _starts(starts, at) -> list:
    """Per axis, the write's start: known when the scheduler gives `at` (a constant to
    XLA; on the CPU a write covering most of its target is then a select of the values
    padded, fused with them and run on every core, see `_update_slice_cpu`)."""
    return list(at) if at is not None else [starts[i] for i in range(starts.shape[0])]


def _update_slice(x, values, starts, steps, at=None):
    if values.size == 0:
        return x
    starts = _starts(starts, at)
    if all(step == 1 for step in steps):
        return lax.dynamic_update_slice(x, values, starts)
    # A strided region: spread `values` with interior padding over the span it covers,
    # and write that span back with the elements in between kept.
    lows, spans, config = [], [], []
    for axis, step in enumerate(steps):
        n = values.shape[axis]
        if step < 0:
            values = lax.rev(values, (axis,))
            lows.append(starts[axis] + (n - 1) * step)
        else:
            lows.append(starts[axis])
        spans.append(span(n, step))
        config.append((0, 0, abs(step) - 1))
    spread = lax.pad(values, jnp.zeros((), values.dtype), config)
    picked = lax.pad(jnp.ones(values.shape, bool), False, config)
    region = lax.dynamic_slice(x, lows, spans)
    return lax.dynamic_update_slice(x, jnp.where(picked, spread, region), lows)


def _dynamic_slice(x, starts, sizes, steps):
    """The window the slice spans, read at `starts`, then strided and reversed in it."""
    spans = [span(n, step) for n, step in zip(sizes, steps)]
    # An axis read whole starts at 0: a constant start spares XLA a clamp. The starts
    # are never negative, so jax need not wrap them.
    lows = [0 if m == x.shape[axis] else lax.index_in_dim(starts, axis, keepdims=False)
            for axis, m in enumerate(spans)]
    window = lax.dynamic_slice(x, lows, spans, allow_negative_indices=False)
    flipped = tuple(axis for axis, step in enumerate(steps) if step < 0)
    if flipped:
        window = lax.rev(window, flipped)
    if any(abs(step) != 1 for step in steps):
        window = lax.slice(window, (0,) * x.ndim, window.shape, [abs(c) for c in steps])
    return window


def _last_updates(index, rows: int):
    """`index` with every update but the last one to each row sent out of bounds."""
    position = jnp.arange(index.shape[0], dtype=index.dtype)
    last = jnp.full((rows,), -1, index.dtype).at[index].max(position,
                                                             mode="promise_in_bounds")
    return jnp.where(last[index] == position, index, rows)


def _scatter(x, index, values, unique):
    if not x.size or not values.size:
        # Nothing is written (an index into an empty axis was flagged out of bounds):
        # XLA cannot gather the last updates from no rows.
        return x
    if unique:
        return x.at[index].set(values, unique_indices=True, mode="promise_in_bounds")
    return x.at[_last_updates(index, x.shape[0])].set(values, mode="drop")


def _occurrence(index):
    """For each update, how many earlier updates target the same row."""
    k = index.shape[0]
    order = jnp.argsort(index, stable=True)
    ordered = index[order]
    position = jnp.arange(k, dtype=index.dtype)
    first = jnp.concatenate([jnp.ones((min(k, 1),), bool), ordered[1:] != ordered[:-1]])
    group_start = lax.cummax(jnp.where(first, position, 0), axis=0)
    return jnp.zeros((k,), index.dtype).at[order].set(position - group_start,
                                                       unique_indices=True)


def _scatter_ufunc(x, index, *values, ufunc, dtype):
    if index.shape[0] == 0 or not x.size:
        return x
    fn = registry.unchecked(op(ufunc))  # errors a checked lowering reports are not raised here
    convert = registry.unchecked(op("convert"))
    rank = _occurrence(index)
    rows = x.shape[0]

    def one_round(r, acc):
        target = jnp.where(rank == r, index, rows)
        current = convert(acc.at[target].get(mode="fill", fill_value=0), dtype)
        result = convert(fn(current, *values), acc.dtype)
        return acc.at[target].set(result, mode="drop")

    return lax.fori_loop(0, jnp.max(rank) + 1, one_round, x)


registry.register_all({op("update_slice"): _update_slice, op("dynamic_slice"): _dynamic_slice,
                       op("scatter"): _scatter, op("scatter_ufunc"): _scatter_ufunc})
registry.register(op("update_slice"), _update_slice_cpu, platform="cpu")
