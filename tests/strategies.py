"""Hypothesis strategies for the differential tests: shapes (0-d and size-0 included),
every bool, integer, float and complex dtype, and values with NaN, infinities, signed
zeros and each dtype's extremes."""

from __future__ import annotations

import numpy as np
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

BOOL = [np.dtype(np.bool_)]
SIGNED = [np.dtype(t) for t in (np.int8, np.int16, np.int32, np.int64)]
UNSIGNED = [np.dtype(t) for t in (np.uint8, np.uint16, np.uint32, np.uint64)]
INTEGER = SIGNED + UNSIGNED
FLOAT = [np.dtype(t) for t in (np.float16, np.float32, np.float64)]
COMPLEX = [np.dtype(t) for t in (np.complex64, np.complex128)]
REAL = BOOL + INTEGER + FLOAT
NUMERIC = REAL + COMPLEX


def dtypes(choices=NUMERIC):
    return st.sampled_from(choices)


def shapes(min_dims=0, max_dims=4, min_side=0, max_side=5):
    return hnp.array_shapes(min_dims=min_dims, max_dims=max_dims, min_side=min_side,
                            max_side=max_side)


def elements(dtype: np.dtype, finite: bool = False):
    """Values of `dtype`, weighted towards the interesting ones."""
    if dtype.kind in "iu":
        info = np.iinfo(dtype)
        return st.one_of(st.integers(-3, 3).filter(lambda v: info.min <= v <= info.max),
                         st.sampled_from([info.min, info.max]),
                         st.integers(int(info.min), int(info.max)))
    if dtype.kind == "b":
        return st.booleans()
    if dtype.kind == "c":
        part = elements(np.dtype(np.float32 if dtype.itemsize == 8 else np.float64), finite)
        return st.builds(complex, part, part)
    return st.floats(width=8 * dtype.itemsize, allow_nan=not finite, allow_infinity=not finite)


def arrays(dtype=None, shape=None, finite: bool = False, **shape_kwargs):
    """Arrays of the given (or any) dtype and shape."""
    dtype_st = st.just(np.dtype(dtype)) if dtype is not None else dtypes()
    shape_st = st.just(shape) if shape is not None else shapes(**shape_kwargs)
    return st.tuples(dtype_st, shape_st).flatmap(
        lambda ds: hnp.arrays(ds[0], ds[1], elements=elements(ds[0], finite)))
