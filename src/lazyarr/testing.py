"""`lazyarr.testing`: NumPy's `numpy.testing`, accepting lazyarr arrays.

The assertions that compare values run NumPy's on the computed values (the lazyarr
arrays in the arguments, inside lists, tuples and dicts too, computed in one flush; a
scalar handle as the NumPy scalar it stands for), so they pass, fail and word their
messages exactly as NumPy's. Everything else (`assert_raises`, `assert_warns`,
`suppress_warnings`, `IS_PYPY`, ...) is NumPy's own object.
"""

from __future__ import annotations

import functools
import sys

import numpy.testing as _np_testing
# NumPy's names; those that compare values are replaced below.
from numpy.testing import *  # noqa: F401,F403
from numpy.testing import overrides  # noqa: F401

from . import _numpy_own
from ._api.io import host

__all__ = list(_np_testing.__all__)


def _on_values(np_func):
    """NumPy's assertion `np_func`, called with the values of the lazyarr arrays given."""
    @functools.wraps(np_func)
    def assertion(*args, **kwargs):
        __tracebackhide__ = True  # noqa: F841  (pytest shows the caller's line)
        return np_func(*host(args), **host(kwargs))
    assertion.__module__ = __name__
    return assertion


assert_allclose = _on_values(_np_testing.assert_allclose)
assert_almost_equal = _on_values(_np_testing.assert_almost_equal)
assert_approx_equal = _on_values(_np_testing.assert_approx_equal)
assert_array_almost_equal = _on_values(_np_testing.assert_array_almost_equal)
assert_array_almost_equal_nulp = _on_values(_np_testing.assert_array_almost_equal_nulp)
assert_array_compare = _on_values(_np_testing.assert_array_compare)
assert_array_equal = _on_values(_np_testing.assert_array_equal)
assert_array_less = _on_values(_np_testing.assert_array_less)
assert_array_max_ulp = _on_values(_np_testing.assert_array_max_ulp)
assert_equal = _on_values(_np_testing.assert_equal)
build_err_msg = _on_values(_np_testing.build_err_msg)
print_assert_equal = _on_values(_np_testing.print_assert_equal)

_numpy_own.install_submodule(sys.modules[__name__], "testing")  # extbuild, test
