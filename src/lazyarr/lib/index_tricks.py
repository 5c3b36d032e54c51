"""NumPy's index helpers that compute: `r_`, `c_`, `mgrid`, `ogrid`.

`r_[...]`/`c_[...]` concatenate lazily when given lazyarr arrays (NumPy's rules for
slices, scalars, minimum dimensions and the result dtype); with a string directive
("0,2", "r", "c") NumPy's own concatenator runs on the materialized items (a counted
fallback). `mgrid`/`ogrid` grids are made from Python numbers, as NumPy makes them,
and come back as lazyarr arrays. `s_`, `index_exp`, `ndindex`, `ndenumerate` and the
rest have nothing to compute: they are NumPy's own.
"""

from __future__ import annotations

import numpy as np

from .._array import Array
from .._dispatch import fallback
from .._api.common import as_array
from .._api import creation, manipulation
from .._dtypes import result_type


def _lazy(value):
    if isinstance(value, (tuple, list)):
        return type(value)(_lazy(v) for v in value)
    if isinstance(value, np.ndarray) and value.dtype.kind in "biufc":
        return Array(as_array(value)._node, scalar=False)
    return value


def _has_lazy(key) -> bool:
    return any(isinstance(k, Array) for k in key)


class _Concatenator:
    """NumPy's AxisConcatenator: `axis`, `ndmin` and `trans1d` as r_ and c_ set them."""

    def __init__(self, numpys, axis: int, ndmin: int, trans1d: int):
        self._numpys, self.axis, self.ndmin, self.trans1d = numpys, axis, ndmin, trans1d

    def __len__(self) -> int:
        return 0

    def __getitem__(self, key):
        key = key if isinstance(key, tuple) else (key,)
        if not _has_lazy(key) or any(isinstance(k, str) for k in key):
            if _has_lazy(key):
                return fallback(self._numpys.__getitem__, (key,), {},
                                name=f"{'r_' if self.ndmin == 1 else 'c_'}[]")
            return _lazy(self._numpys[key])
        objs, kinds = [], []
        for item in key:
            if isinstance(item, slice):
                start = 0 if item.start is None else item.start
                step = 1 if item.step is None else item.step
                if isinstance(step, (complex, np.complexfloating)):
                    obj = creation.linspace(start, item.stop, num=int(abs(step)))
                else:
                    obj = creation.arange(start, item.stop, step)
                if self.ndmin > 1:
                    obj = creation.array(obj, ndmin=self.ndmin)
                    if self.trans1d != -1:
                        obj = obj.swapaxes(-1, self.trans1d)
                objs.append(obj)
                kinds.append(obj.dtype)
            elif type(item) in np.ScalarType:
                objs.append(item)
                kinds.append(item)
            else:
                ndim = np.ndim(item)
                obj = creation.array(item, copy=None, ndmin=self.ndmin)
                if self.trans1d != -1 and ndim < self.ndmin:
                    k2, k1 = self.ndmin - ndim, self.trans1d
                    if k1 < 0:
                        k1 += k2 + 1
                    axes = list(range(self.ndmin))
                    obj = obj.transpose(axes[:k1] + axes[k2:] + axes[k1:k2])
                objs.append(obj)
                kinds.append(obj.dtype)
        dtype = result_type(*kinds)
        objs = [creation.array(o, copy=None, ndmin=self.ndmin, dtype=dtype) for o in objs]
        return manipulation.concatenate(tuple(objs), axis=self.axis)


r_ = _Concatenator(np.r_, axis=0, ndmin=1, trans1d=-1)
c_ = _Concatenator(np.c_, axis=-1, ndmin=2, trans1d=0)


class _Grid:
    """NumPy's `mgrid` (dense) or `ogrid` (open) grid, as lazyarr arrays."""

    def __init__(self, numpys):
        self._numpys = numpys

    def __len__(self) -> int:
        return 0

    def __getitem__(self, key):
        return _lazy(self._numpys[key])


mgrid = _Grid(np.mgrid)
ogrid = _Grid(np.ogrid)
