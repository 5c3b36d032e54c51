"""The primitive of `numpy.fft`: a discrete Fourier transform along one axis.

`kind` is "fft" or "ifft" (complex to complex), "rfft" (real to complex) or "irfft"
(complex to real); `n` is the transform's length (the input is cropped or padded with
zeros to n, or to n//2 + 1 for irfft), and the unnormalized transform is multiplied by
`fct`, as NumPy's pocketfft does. Inputs are complex64/complex128 (float32/float64
for rfft).
"""

from __future__ import annotations

import numpy as np

from . import _dtypes
from ._registry import axis_in, operand_count, primitive, require


def _complex(dtypes):
    return np.result_type(dtypes[0], np.complex64)


# The reference's function per kind, by name: `np.fft` is read at the first transform
# (loading numpy.fft was 0.8 ms of `import lazyarr`).
_FFT_REFERENCES = {"fft": ("fft", "backward"), "ifft": ("ifft", "forward"),
                   "rfft": ("rfft", "backward"), "irfft": ("irfft", "forward")}


_COMPLEX_IN = (_dtypes.complex64, _dtypes.complex128)
_DTYPES = {"fft": _COMPLEX_IN, "ifft": _COMPLEX_IN, "irfft": _COMPLEX_IN,
           "rfft": (_dtypes.float32, _dtypes.float64)}


def fft_length(kind: str, n: int) -> int:
    """The length of the transformed axis of the result."""
    return n // 2 + 1 if kind == "rfft" else n


def _fft_shape(shapes, kind, axis, n, fct):
    operand_count(shapes, 1)
    shape = shapes[0]
    axis_in(axis, len(shape))
    require(kind in _FFT_REFERENCES and n >= 1, f"kind {kind!r}, length {n!r}")
    return shape[:axis] + (fft_length(kind, n),) + shape[axis + 1:]


def _fft_dtype(dtypes, kind, axis, n, fct):
    if dtypes[0] not in _DTYPES[kind]:  # (str of a dtype: 17 us here)
        require(False, f"{kind} of {dtypes[0]}")
    if kind == "irfft":
        return _dtypes.real_dtype(dtypes[0])
    return _complex(dtypes)


@primitive("fft", _fft_shape, _fft_dtype)
def _fft(x, kind, axis, n, fct):
    if x.shape[axis] == 0:  # NumPy's pocketfft reads memory past an empty axis
        x = np.zeros(x.shape[:axis] + (1,) + x.shape[axis + 1:], x.dtype)
    function, unscaled = _FFT_REFERENCES[kind]
    result = getattr(np.fft, function)(x, n=n, axis=axis, norm=unscaled)
    if fct != 1:
        result = result * _dtypes.real_dtype(result.dtype).type(fct)
    return result
