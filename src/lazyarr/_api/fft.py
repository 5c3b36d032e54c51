"""`numpy.fft`: discrete Fourier transforms and their helpers.

Every transform is one `fft` primitive per axis, as NumPy's pocketfft runs them: the
input cropped or padded with zeros to `n` points, the unnormalized transform, then
NumPy's normalization factor, computed as NumPy computes it (in the input's real
precision, so float16 input gets a float16 factor). Dtypes are NumPy 2's: float32 and
complex64 stay single precision (float16 computes in float32; its irfft result is
float16), integers and bools compute in double. `out=` rebinds a lazyarr array.
"""

from __future__ import annotations

import operator
import warnings

import numpy as np

from .._errors import user_stacklevel
from .. import _dtypes
from .._ops_fft import fft_length
from . import export
from .common import apply, as_array, astype, normalize_axis, wrap, write_out
from .creation import arange
from .elementwise import conjugate
from .manipulation import concatenate, roll

_SWAP_DIRECTION = {"backward": "forward", None: "forward", "ortho": "ortho",
                   "forward": "backward"}


def _swap_direction(norm, func: str):
    try:
        return _SWAP_DIRECTION[norm]
    except (KeyError, TypeError):
        raise ValueError(f'{func}: Invalid norm value {norm}; should be "backward", "ortho" '
                         'or "forward".') from None


def _factor(norm, n: int, real_dtype, func: str) -> float:
    """NumPy's normalization factor, in the input's real precision."""
    if norm is None or norm == "backward":
        return 1.0
    if norm == "ortho":
        return float(np.reciprocal(np.sqrt(n, dtype=real_dtype)))
    if norm == "forward":
        return float(np.reciprocal(n, dtype=real_dtype))
    raise ValueError(f'{func}: Invalid norm value {norm}; should be "backward", "ortho" or '
                     '"forward".')


def _raw_fft(a, n, axis, is_real: bool, is_forward: bool, norm, out, func: str):
    """NumPy's _raw_fft: one transform of `n` points along `axis`."""
    a = as_array(a)
    if n is None:
        n = a.shape[normalize_axis(axis, a.ndim, func)]
    n = operator.index(n)
    if n < 1:
        raise ValueError(f"{func}: Invalid number of FFT data points ({n}) specified.")
    if not is_forward:
        norm = _swap_direction(norm, func)
    real_dtype = np.result_type(_dtypes.real_dtype(a.dtype), 1.0)
    fct = _factor(norm, n, real_dtype, func)
    axis = normalize_axis(axis, a.ndim, func)
    complex_dtype = np.result_type(a.dtype, 1j)
    if is_real and is_forward:
        if _dtypes.is_complex(a.dtype):
            raise TypeError(f"{func}: the input must be real, not {a.dtype}")
        kind, source, result = "rfft", _dtypes.real_dtype(complex_dtype), complex_dtype
    elif is_real:
        kind, source, result = "irfft", complex_dtype, real_dtype
    else:
        kind, source, result = ("fft" if is_forward else "ifft"), complex_dtype, complex_dtype
    node = apply("fft", astype(a, source)._node, kind=kind, axis=axis, n=n, fct=fct)
    transformed = astype(wrap(node, False), result)
    if out is not None and (getattr(out, "ndim", None) != a.ndim
                            or out.shape[axis] != fft_length(kind, n)):
        raise ValueError(f"{func}: output array has wrong shape.")
    return write_out(out, transformed, func)


@export(namespace="fft")
def fft(a, n=None, axis=-1, norm=None, out=None):
    """NumPy's fft: the one-dimensional discrete Fourier transform."""
    return _raw_fft(a, n, axis, False, True, norm, out, "fft")


@export(namespace="fft")
def ifft(a, n=None, axis=-1, norm=None, out=None):
    """NumPy's ifft: the one-dimensional inverse discrete Fourier transform."""
    return _raw_fft(a, n, axis, False, False, norm, out, "ifft")


@export(namespace="fft")
def rfft(a, n=None, axis=-1, norm=None, out=None):
    """NumPy's rfft: the transform of real input, non-negative frequencies only."""
    return _raw_fft(a, n, axis, True, True, norm, out, "rfft")


@export(namespace="fft")
def irfft(a, n=None, axis=-1, norm=None, out=None):
    """NumPy's irfft: the inverse of rfft, `n` (default 2 * (m - 1)) real points."""
    a = as_array(a)
    if n is None:
        n = (a.shape[normalize_axis(axis, a.ndim, "irfft")] - 1) * 2
    return _raw_fft(a, n, axis, True, False, norm, out, "irfft")


@export(namespace="fft")
def hfft(a, n=None, axis=-1, norm=None, out=None):
    """NumPy's hfft: the transform of a Hermitian-symmetric signal (real spectrum).
    NumPy ignores `out` here."""
    a = as_array(a)
    if n is None:
        n = (a.shape[normalize_axis(axis, a.ndim, "hfft")] - 1) * 2
    return irfft(conjugate(a), n, axis, norm=_swap_direction(norm, "hfft"))


@export(namespace="fft")
def ihfft(a, n=None, axis=-1, norm=None, out=None):
    """NumPy's ihfft: the inverse of hfft (a real signal's Hermitian spectrum)."""
    a = as_array(a)
    if n is None:
        n = a.shape[normalize_axis(axis, a.ndim, "ihfft")]
    transformed = rfft(a, n, axis, norm=_swap_direction(norm, "ihfft"), out=out)
    return write_out(out, conjugate(transformed), "ihfft")


def _cook_nd_args(a, s, axes, func: str, invreal: bool = False):
    """NumPy's _cook_nd_args: the lengths and axes of an n-dimensional transform."""
    shapeless = s is None
    if s is None:
        s = list(a.shape) if axes is None else [a.shape[k] for k in axes]
    s = list(s)
    if axes is None:
        if not shapeless:
            warnings.warn("`axes` should not be `None` if `s` is not `None` (Deprecated in "
                          "NumPy 2.0). In a future version of NumPy, this will raise an "
                          "error and `s[i]` will correspond to the size along the "
                          "transformed axis specified by `axes[i]`. To retain current "
                          "behaviour, pass a sequence [0, ..., k-1] to `axes` for an array "
                          "of dimension k.", DeprecationWarning, stacklevel=user_stacklevel())
        axes = list(range(-len(s), 0))
    axes = list(axes)
    if len(s) != len(axes):
        raise ValueError(f"{func}: Shape and axes have different lengths ({len(s)} and "
                         f"{len(axes)}).")
    if invreal and shapeless:
        s[-1] = (a.shape[axes[-1]] - 1) * 2
    if None in s:
        warnings.warn("Passing an array containing `None` values to `s` is deprecated in "
                      "NumPy 2.0 and will raise an error in a future version of NumPy. To "
                      "use the default behaviour of the corresponding 1-D transform, pass "
                      "the value matching the default for its `n` parameter. To use the "
                      "default behaviour for every axis, the `s` argument can be omitted.",
                      DeprecationWarning, stacklevel=user_stacklevel())
    s = [a.shape[k] if n == -1 else n for n, k in zip(s, axes)]
    return s, axes


def _raw_fftnd(a, s, axes, transform, norm, out, func: str):
    a = as_array(a)
    s, axes = _cook_nd_args(a, s, axes, func)
    for n, axis in reversed(list(zip(s, axes))):
        a = transform(a, n=n, axis=axis, norm=norm, out=out)
    return a if axes else wrap(a._node, False)  # no axes: NumPy's array, untransformed


@export(namespace="fft")
def fftn(a, s=None, axes=None, norm=None, out=None):
    """NumPy's fftn: 1-d transforms along `axes` (all by default), last axis first."""
    return _raw_fftnd(a, s, axes, fft, norm, out, "fftn")


@export(namespace="fft")
def ifftn(a, s=None, axes=None, norm=None, out=None):
    """NumPy's ifftn: the inverse of fftn."""
    return _raw_fftnd(a, s, axes, ifft, norm, out, "ifftn")


@export(namespace="fft")
def fft2(a, s=None, axes=(-2, -1), norm=None, out=None):
    """NumPy's fft2: fftn over the last two axes by default."""
    return _raw_fftnd(a, s, axes, fft, norm, out, "fft2")


@export(namespace="fft")
def ifft2(a, s=None, axes=(-2, -1), norm=None, out=None):
    """NumPy's ifft2: ifftn over the last two axes by default (NumPy ignores `out`)."""
    return _raw_fftnd(a, s, axes, ifft, norm, None, "ifft2")


@export(namespace="fft")
def rfftn(a, s=None, axes=None, norm=None, out=None):
    """NumPy's rfftn: rfft along the last of `axes`, then fft along the others."""
    a = as_array(a)
    s, axes = _cook_nd_args(a, s, axes, "rfftn")
    a = rfft(a, s[-1], axes[-1], norm, out=out)
    for n, axis in reversed(list(zip(s[:-1], axes[:-1]))):
        a = fft(a, n, axis, norm, out=out)
    return a


@export(namespace="fft")
def rfft2(a, s=None, axes=(-2, -1), norm=None, out=None):
    """NumPy's rfft2: rfftn over the last two axes by default."""
    return rfftn(a, s, axes, norm, out=out)


@export(namespace="fft")
def irfftn(a, s=None, axes=None, norm=None, out=None):
    """NumPy's irfftn: ifft along all of `axes` but the last, then irfft along it."""
    a = as_array(a)
    s, axes = _cook_nd_args(a, s, axes, "irfftn", invreal=True)
    for n, axis in zip(s[:-1], axes[:-1]):
        a = ifft(a, n, axis, norm)
    return irfft(a, s[-1], axes[-1], norm, out=out)


@export(namespace="fft")
def irfft2(a, s=None, axes=(-2, -1), norm=None, out=None):
    """NumPy's irfft2: irfftn over the last two axes by default (NumPy ignores `out`)."""
    return irfftn(a, s, axes, norm, out=None)


def _shifts(x, axes, sign: int):
    x = as_array(x)
    if axes is None:
        axes = tuple(range(x.ndim))
        shift = [sign * (dim // 2) for dim in x.shape]
    elif isinstance(axes, (int, np.integer)):
        shift = sign * (x.shape[axes] // 2)
    else:
        shift = [sign * (x.shape[ax] // 2) for ax in axes]
    return roll(x, shift, axes)


@export(namespace="fft")
def fftshift(x, axes=None):
    """NumPy's fftshift: the zero frequency moved to the center of `axes` (all)."""
    return _shifts(x, axes, 1)


@export(namespace="fft")
def ifftshift(x, axes=None):
    """NumPy's ifftshift: the inverse of fftshift."""
    return _shifts(x, axes, -1)


def _check_length(n, func: str):
    if not isinstance(n, (int, np.integer)):
        raise ValueError(f"{func}: n should be an integer, not {n!r}")


@export(namespace="fft")
def fftfreq(n, d=1.0, device=None, *, dtype=None):
    """NumPy's fftfreq: the sample frequencies [0, 1, ..., -2, -1] / (d * n); `dtype`
    (a real floating dtype) as the Array API adds it."""
    _check_length(n, "fftfreq")
    result_dtype = _frequency_dtype(dtype, "fftfreq")
    val = 1.0 / (n * d)
    if n < 0:
        raise ValueError(f"fftfreq: negative dimensions are not allowed (n={n})")
    half = (n - 1) // 2 + 1
    results = concatenate([arange(0, half, dtype=int, device=device),
                           arange(-(n // 2), 0, dtype=int, device=device)])
    return _as_frequency(results * val, result_dtype)


@export(namespace="fft")
def rfftfreq(n, d=1.0, device=None, *, dtype=None):
    """NumPy's rfftfreq: the sample frequencies [0, 1, ..., n // 2] / (d * n); `dtype`
    as in fftfreq."""
    _check_length(n, "rfftfreq")
    result_dtype = _frequency_dtype(dtype, "rfftfreq")
    val = 1.0 / (n * d)
    return _as_frequency(arange(0, n // 2 + 1, dtype=int, device=device) * val, result_dtype)


def _frequency_dtype(dtype, func: str):
    """None (NumPy's own result dtype) or the real floating dtype asked for."""
    if dtype is None:
        return None
    dtype = _dtypes.as_dtype(dtype)
    if not _dtypes.is_floating(dtype):
        raise TypeError(f"{func}: dtype must be a real floating dtype, not {dtype}")
    return dtype


def _as_frequency(result, dtype):
    return result if dtype is None else result.astype(dtype)
