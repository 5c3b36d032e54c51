"""`lazyarr.lib`, NumPy's `numpy.lib`: `stride_tricks` computes lazily on lazyarr
arrays; the rest (`NumpyVersion`, `mixins`, `format`, `scimath`, ...) is NumPy's own,
which dispatches lazyarr arrays through NEP 18 where it computes."""

from __future__ import annotations

import numpy as _np

from . import stride_tricks  # noqa: F401


def __getattr__(name: str):
    return getattr(_np.lib, name)


def __dir__():
    return sorted(set(dir(_np.lib)) | {"stride_tricks"})
