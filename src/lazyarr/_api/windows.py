"""NumPy's window functions: bartlett, blackman, hamming, hanning and kaiser, with
NumPy's formulas (numpy/lib/_function_base_impl.py) on a lazy range.
"""

from __future__ import annotations

import numpy as np

from . import creation, elementwise, export, indexing
from .selection import i0


def _window(M, formula):
    """NumPy's window head: M as float64; empty below 1, [1.] at 1; else formula(n, M)."""
    values = np.array([0.0, M])
    M = values[1]
    if M < 1:
        return creation.asarray(np.array([], dtype=values.dtype))
    if M == 1:
        return creation.ones(1, dtype=values.dtype)
    return formula(creation.arange(1 - M, M, 2), M)


@export
def bartlett(M):
    """The Bartlett (triangular) window (NumPy's)."""
    return _window(M, lambda n, M: indexing.where(elementwise.less_equal(n, 0), 1 + n / (M - 1),
                                             1 - n / (M - 1)))


@export
def blackman(M):
    """The Blackman window (NumPy's)."""
    return _window(M, lambda n, M: 0.42 + 0.5 * elementwise.cos(np.pi * n / (M - 1))
                   + 0.08 * elementwise.cos(2.0 * np.pi * n / (M - 1)))


@export
def hamming(M):
    """The Hamming window (NumPy's)."""
    return _window(M, lambda n, M: 0.54 + 0.46 * elementwise.cos(np.pi * n / (M - 1)))


@export
def hanning(M):
    """The Hann window (NumPy's)."""
    return _window(M, lambda n, M: 0.5 + 0.5 * elementwise.cos(np.pi * n / (M - 1)))


@export
def kaiser(M, beta):
    """The Kaiser window (NumPy's)."""
    values = np.array([0.0, M, beta])
    M, beta = values[1], values[2]
    if M == 1:
        return creation.ones(1, dtype=values.dtype)
    n = creation.arange(0, M)
    alpha = (M - 1) / 2.0
    return i0(beta * elementwise.sqrt(1 - ((n - alpha) / alpha) ** 2.0)) / i0(beta)

