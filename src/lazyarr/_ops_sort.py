"""Sorting primitives: stable sorts, lexicographic argsorts, binary search and
counting into bins.

Every order here is NumPy's sort order: NaN after every number, -0.0 equal to 0.0,
and complex numbers lexicographic by (real, imag) with the NaN classes last in the
order R + Rj < R + nanj < nan + Rj < nan + nanj (numpy/_core/src/npysort). The sorts
are stable, which NumPy's default kinds are not: on ties a stable sort is one of the
orders NumPy's quicksort may give, and the only one that can be reproduced.
"""

from __future__ import annotations

import numpy as np

from . import _dtypes
from ._registry import primitive


def _same_shape(shapes, **_):
    return shapes[0]


def _same_dtype(dtypes, **_):
    return dtypes[0]


def _index_dtype(dtypes, **_):
    return _dtypes.intp


@primitive("sort", _same_shape, _same_dtype)
def _sort(x, axis):
    """`x` sorted along `axis` in NumPy's order."""
    return np.sort(x, axis=axis, kind="stable")


@primitive("argsort", _same_shape, _index_dtype)
def _argsort(*keys, axis):
    """The stable lexicographic order of `keys` (all of one shape) along `axis`, the
    first key most significant (np.lexsort takes them in the reverse order)."""
    if len(keys) == 1:
        return np.argsort(keys[0], axis=axis, kind="stable")
    return np.lexsort(keys[::-1], axis=axis)


@primitive("searchsorted", lambda s, side: s[1], _index_dtype)
def _searchsorted(a, v, side):
    """For each element of `v`, its insertion point in the sorted 1-d `a` (same dtype)."""
    return np.searchsorted(a, v, side=side)


def _bincount_dtype(dtypes, length):
    return dtypes[1] if len(dtypes) > 1 else _dtypes.intp


@primitive("bincount", lambda s, length: (length,), _bincount_dtype)
def _bincount(x, *weights, length):
    """Occurrences (or summed float64 `weights`, in order) of each value of the 1-d
    int64 `x`, whose values are all in [0, length)."""
    return np.bincount(x, weights=weights[0] if weights else None, minlength=length)


