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

from ._registry import kind_in, operand_count, primitive, require


def _first(shapes_or_dtypes, **_):
    return shapes_or_dtypes[0]


def _update_slice_shape(shapes, steps, at=None):
    operand_count(shapes, 3)
    x, values, starts = shapes
    require(len(values) == len(x) == len(steps) and starts == (len(x),) and 0 not in steps,
            f"writes {values} into {x} at {starts} starts with steps {steps}")
    return x


def _written_dtype(values: int, positions: int):
    """The rule: x's dtype (operand 0), which the values written (operand `values`)
    must have; the positions (operand `positions`) are integers."""
    def rule(dtypes, **_):
        if dtypes[values] != dtypes[0]:  # (str of a dtype: 17 us here; on failure)
            require(False, f"writes {dtypes[values]} values into {dtypes[0]}")
        kind_in(dtypes[positions], "iu", "the positions'")
        return dtypes[0]
    return rule


def _region(starts, lengths, steps) -> tuple:
    """The slices that select `lengths` elements from `starts` by `steps`."""
    region = []
    # (as Python ints, in a loop: the interpreter runs this at every write of a loop body)
    for start, n, step in zip(np.asarray(starts).tolist(), lengths, steps):
        stop = start + n * step
        region.append(slice(start, None if stop < 0 else stop, step))
    return tuple(region)


@primitive("update_slice", _update_slice_shape, _written_dtype(values=1, positions=2))
def _update_slice(x, values, starts, steps, at=None):
    """x with `values` written at x[start::step, ...] (starts: an int64 vector input,
    so writes at different positions run the same program). `at`, when the scheduler
    gives it, is the starts' value as a tuple, part of the program's key: a write that
    never moves may be compiled for its place (`_flush.linearize`)."""
    return _update_slice_into(x.copy(), values, starts, steps)


def _update_slice_into(x, values, starts, steps, at=None):
    x[_region(starts, values.shape, steps)] = values
    return x


def written_region(x, starts, shape, steps):
    """The view of `x` that update_slice writes values of `shape` into."""
    return x[_region(starts, shape, steps)]


def _dynamic_slice_shape(shapes, sizes, steps):
    operand_count(shapes, 2)
    require(len(sizes) == len(steps) == len(shapes[0]) and shapes[1] == (len(sizes),)
            and 0 not in steps, f"sizes {sizes} and steps {steps} of a {shapes[0]} operand")
    return sizes


def _dynamic_slice_dtype(dtypes, sizes, steps):
    kind_in(dtypes[1], "iu", "the starts'")
    return dtypes[0]


@primitive("dynamic_slice", _dynamic_slice_shape, _dynamic_slice_dtype)
def _dynamic_slice(x, starts, sizes, steps):
    """x[lo:lo+span:step] per axis, reversed where the step is negative, where `lo`
    (from `starts`, an int64 vector input) is the lowest index the slice touches (for
    a negative step, the last element selected) and `span` covers `sizes` elements."""
    window = x[tuple([slice(lo, lo + span(n, c))
                      for lo, n, c in zip(np.asarray(starts).tolist(), sizes, steps)])]
    for step in steps:
        if step != 1:
            return window[tuple([slice(None, None, c) for c in steps])]
    return window


def span(n: int, step: int) -> int:
    """How many consecutive elements `n` elements `step` apart cover."""
    return (n - 1) * abs(step) + 1 if n else 0


@primitive("scatter", _first, _written_dtype(values=2, positions=1))
def _scatter(x, index, values, unique):
    """x with rows x[index[k]] = values[k]; where an index repeats, the last write
    wins (NumPy's order). `unique` promises that no index repeats."""
    return _scatter_into(x.copy(), index, values, unique)


def _scatter_into(x, index, values, unique):
    x[index] = values
    return x


def _scatter_ufunc_dtype(dtypes, ufunc, dtype):
    kind_in(dtypes[1], "iu", "the indices'")
    require(isinstance(getattr(np, ufunc, None), np.ufunc), f"{ufunc!r} is not a ufunc")
    return dtypes[0]


@primitive("scatter_ufunc", _first, _scatter_ufunc_dtype)
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
