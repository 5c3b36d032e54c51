"""The primitives behind mutation: a write into a strided region, and scatters.

Nodes never change: `x[idx] = v` builds a node for the new value of `x` from its old
one, and the handle is rebound to it. `update_slice` writes a basic-slice region;
`scatter` writes rows picked by an index (the last write wins where indices repeat, as
in NumPy); `scatter_ufunc` is `ufunc.at`, applying the ufunc once per index, in order.
`dynamic_slice` is update_slice's read counterpart: a strided region read from a
position given at run time (the scheduler emits it for integer-index reads such as
`a[i]`, so a loop over `i` runs one program).
"""

from __future__ import annotations

import numpy as np

from ._registry import primitive


def _first(shapes_or_dtypes, **_):
    return shapes_or_dtypes[0]


def _region(starts, lengths, steps) -> tuple:
    """The slices that select `lengths` elements from `starts` by `steps`."""
    def one(start, n, step):
        stop = start + n * step
        return slice(start, None if stop < 0 else stop, step)
    return tuple(one(int(a), n, c) for a, n, c in zip(starts, lengths, steps))


@primitive("update_slice", _first, _first)
def _update_slice(x, values, starts, steps):
    """x with `values` written at x[start::step, ...] (starts: an int64 vector input,
    so writes at different positions run the same program)."""
    return _update_slice_into(x.copy(), values, starts, steps)


def _update_slice_into(x, values, starts, steps):
    x[_region(starts, values.shape, steps)] = values
    return x


def _dynamic_slice_shape(shapes, sizes, steps):
    return sizes


@primitive("dynamic_slice", _dynamic_slice_shape, _first)
def _dynamic_slice(x, starts, sizes, steps):
    """x[lo:lo+span:step] per axis, reversed where the step is negative, where `lo`
    (from `starts`, an int64 vector input) is the lowest index the slice touches (for
    a negative step, the last element selected) and `span` covers `sizes` elements."""
    window = x[tuple(slice(lo, lo + span(n, c)) for lo, n, c in zip(starts, sizes, steps))]
    return window[tuple(slice(None, None, step) for step in steps)]


def span(n: int, step: int) -> int:
    """How many consecutive elements `n` elements `step` apart cover."""
    return (n - 1) * abs(step) + 1 if n else 0


@primitive("scatter", _first, _first)
def _scatter(x, index, values, unique):
    """x with rows x[index[k]] = values[k]; where an index repeats, the last write
    wins (NumPy's order). `unique` promises that no index repeats."""
    return _scatter_into(x.copy(), index, values, unique)


def _scatter_into(x, index, values, unique):
    x[index] = values
    return x


@primitive("scatter_ufunc", _first, _first)
def _scatter_ufunc(x, index, *values, ufunc, dtype):
    """`ufunc.at`: x[index[k]] = ufunc(x[index[k]], values[k]) for each k in order, so
    repeated indices accumulate. x's rows are cast to `dtype` (the loop's first input;
    `values` arrive in the loop's other input dtypes) and results back to x's dtype."""
    return _scatter_ufunc_into(x.copy(), index, *values, ufunc=ufunc, dtype=dtype)


def _scatter_ufunc_into(x, index, *values, ufunc, dtype):
    getattr(np, ufunc).at(x, index, *values)
    return x


# The same writes into their first operand itself, for a backend that owns that buffer
# (nothing else can see it): a one-row write then costs a row, not a copy of the array.
IN_PLACE = {"update_slice": _update_slice_into, "scatter": _scatter_into,
            "scatter_ufunc": _scatter_ufunc_into}
