"""numpy.fft against NumPy (lazyarr.fft): every transform with n/s, axis/axes and norm
choices, size-0 and 0-d inputs, every dtype (float32 and complex64 stay single
precision, float16 computes in float32, irfft of float16 gives float16), NaN, `out=`,
bad arguments, and the frequency and shift helpers.

Transforms add products in an order that is the FFT library's own (NumPy's pocketfft,
XLA's DUCC), so values agree to rounding relative to the signal's size: the absolute
tolerance scales with the sum of |input|. Infinities are left out: inf - inf makes NaN
in places that depend on the library's butterflies."""

import warnings

import numpy as np
import pytest
from hypothesis import given, strategies as st
from hypothesis.extra import numpy as hnp

import lazyarr as la
from lazyarr import _flush

from differential import assert_same, check
from strategies import NUMERIC, shapes

ONE_D = ["fft", "ifft", "rfft", "irfft", "hfft", "ihfft"]
N_D = ["fftn", "ifftn", "rfftn", "irfftn", "fft2", "ifft2", "rfft2", "irfft2"]
NORMS = [None, "backward", "ortho", "forward"]


@st.composite
def signals(draw, max_dims=3):
    """Small integers (as every dtype), sometimes a NaN."""
    dtype = np.dtype(draw(st.sampled_from(NUMERIC)))
    shape = draw(shapes(max_dims=max_dims, max_side=5))
    if dtype.kind == "b":
        elements = st.booleans()
    elif dtype.kind == "u":
        elements = st.integers(0, 4)
    elif dtype.kind == "i":
        elements = st.integers(-4, 4)
    else:
        part = st.one_of(st.integers(-4, 4).map(float), st.just(np.nan))
        elements = st.builds(complex, part, part) if dtype.kind == "c" else part
    return draw(hnp.arrays(dtype, shape, elements=elements, fill=st.nothing()))


def tolerance(x):
    """(rtol, atol) for transforms of `x`: its precision times its size."""
    x = np.asarray(x)
    scale = 1.0 + float(np.nansum(np.abs(x.astype(np.complex128))))
    if x.dtype == np.float16:
        return 4e-3, 4e-3 * scale
    single = x.dtype in (np.float32, np.complex64)
    eps = 2e-6 if single else 1e-13
    return eps * 10, eps * scale


def fcheck(name, x, *args, **kwargs):
    rtol, atol = tolerance(x)
    return check(getattr(np.fft, name), getattr(la.fft, name), x, *args, rtol=rtol, atol=atol,
                 **kwargs)


@pytest.mark.filterwarnings("ignore::numpy.exceptions.ComplexWarning")
@given(x=signals(), name=st.sampled_from(ONE_D), norm=st.sampled_from(NORMS + ["bogus"]),
       data=st.data())
def test_one_dimensional(x, name, norm, data):
    n = data.draw(st.one_of(st.none(), st.integers(-1, 9)))
    axis = data.draw(st.sampled_from([-1, 0, 1, -2, 3]))
    fcheck(name, x, n, axis, norm)


@pytest.mark.filterwarnings("ignore::DeprecationWarning")
@pytest.mark.filterwarnings("ignore::numpy.exceptions.ComplexWarning")
@given(x=signals(), name=st.sampled_from(N_D), norm=st.sampled_from(NORMS), data=st.data())
def test_n_dimensional(x, name, norm, data):
    axes = data.draw(st.one_of(st.none(), st.lists(st.integers(-3, 2), max_size=3)))
    s = None
    if data.draw(st.booleans()):
        count = len(axes) if axes is not None else data.draw(st.integers(1, 3))
        s = data.draw(st.lists(st.one_of(st.integers(1, 6), st.just(-1)), min_size=count,
                               max_size=count))
    if name.endswith("2") and axes is None:
        fcheck(name, x, s, norm=norm)
    else:
        fcheck(name, x, s, axes, norm)


def test_deprecated_s_without_axes_warns_as_numpy_does():
    x = np.arange(12.0).reshape(3, 4)
    with pytest.warns(DeprecationWarning):
        la.fft.fftn(x, s=(3, 4))
    with pytest.warns(DeprecationWarning):
        la.fft.rfftn(x, s=(3, None), axes=(0, 1))
    fcheck("fftn", x, [2, 3], [0, 0, 1])


@pytest.mark.filterwarnings("ignore::numpy.exceptions.ComplexWarning")
@pytest.mark.parametrize("name", ONE_D + N_D)
def test_every_dtype(name):
    """Result dtypes, and the normalization factor in the input's precision."""
    base = np.array([[1, 2, 0, -3], [4, 0, 1, 1], [2, 2, -1, 0]])
    dtypes = NUMERIC if name in ONE_D else [np.int8, np.float16, np.float32, np.complex64]
    for dtype in dtypes:
        x = base.astype(dtype) if np.dtype(dtype).kind != "u" else np.abs(base).astype(dtype)
        fcheck(name, x, norm="ortho")


def test_size_zero_and_scalar_inputs():
    for x in (np.zeros((0, 4)), np.zeros((3, 0)), np.zeros(0, np.complex64), np.float64(3.0)):
        for name in ONE_D:
            fcheck(name, x)
            for axis in (-1, 0):
                # NumPy's irfft of no points padded to n reads uninitialized memory.
                if not (name in ("irfft", "hfft") and x.ndim and x.shape[axis] == 0):
                    fcheck(name, x, 4, axis)
        for name in N_D:
            fcheck(name, x)


def test_padding_an_empty_axis_gives_zeros():
    """Where NumPy's irfft and hfft read uninitialized memory, the transform of n zeros."""
    for name in ("irfft", "hfft"):
        np.testing.assert_array_equal(np.asarray(getattr(la.fft, name)(np.zeros((2, 0)), 4)),
                                      np.zeros((2, 4)))


def test_out():
    x = np.arange(8.0).reshape(2, 4)
    out = la.zeros((2, 4), dtype=np.complex128)
    result = la.fft.fft(x, out=out)
    assert result is out
    np.testing.assert_allclose(np.asarray(out), np.fft.fft(x), atol=1e-12)
    out = la.zeros((2, 3), dtype=np.complex64)  # same_kind cast, as NumPy's ufunc does
    la.fft.ihfft(x, out=out)
    np.testing.assert_allclose(np.asarray(out), np.fft.ihfft(x), atol=1e-6)
    out = la.zeros((2, 3), dtype=np.complex128)
    assert la.fft.rfftn(x, out=out, axes=(1,)) is out
    for bad in (la.zeros((2, 5), dtype=np.complex128), la.zeros((4,), dtype=np.complex128),
                la.zeros((3, 4), dtype=np.complex128)):
        with pytest.raises(ValueError):
            la.fft.fft(x, out=bad)
    with pytest.raises(TypeError):
        la.fft.fft(x, out=la.zeros((2, 4)))
    # NumPy ignores out= in hfft, ifft2 and irfft2.
    ignored = la.zeros((2, 4))
    la.fft.ifft2(x, out=ignored)
    np.testing.assert_array_equal(np.asarray(ignored), np.zeros((2, 4)))


@given(n=st.integers(-2, 9), d=st.sampled_from([1.0, 0.5, 3, np.float32(0.25)]))
def test_frequencies(n, d):
    for name in ("fftfreq", "rfftfreq"):
        check(getattr(np.fft, name), getattr(la.fft, name), n, d)
        check(getattr(np.fft, name), getattr(la.fft, name), n)


def test_frequency_errors():
    for name in ("fftfreq", "rfftfreq"):
        for n in (4.0, "4", None):
            check(getattr(np.fft, name), getattr(la.fft, name), n)
    assert la.fft.fftfreq(4, device="cpu").shape == (4,)


@given(x=signals(), data=st.data())
def test_shifts(x, data):
    axes = data.draw(st.one_of(st.none(), st.integers(-3, 2),
                               st.lists(st.integers(-3, 2), max_size=3).map(tuple)))
    if x.ndim == 0 and not axes:
        return  # np.roll(0-d, [], ()) raises, lazyarr's roll returns the input (roll's issue)
    for name in ("fftshift", "ifftshift"):
        check(getattr(np.fft, name), getattr(la.fft, name), x, axes)


def test_namespace_is_numpys():
    public = {n for n in dir(np.fft) if not n.startswith("_") and n != "test"}
    assert public <= set(dir(la.fft))


def test_numpy_fft_dispatches_lazily():
    """NEP 18: numpy.fft's functions on lazyarr arrays build lazy results."""
    x = la.asarray(np.arange(8.0))
    with _flush.count_flushes() as counter, warnings.catch_warnings():
        warnings.simplefilter("error")
        results = [np.fft.fft(x), np.fft.irfft(x), np.fft.rfftn(x), np.fft.fftshift(x),
                   np.fft.hfft(x, 6, norm="ortho")]
    assert counter.count == 0
    assert all(isinstance(r, la.Array) for r in results)
    np.testing.assert_allclose(np.asarray(results[0]), np.fft.fft(np.arange(8.0)), atol=1e-12)


@pytest.mark.usefixtures("lazy_graph")
def test_one_primitive_per_axis():
    from lazyarr._graph import topological_order
    y = la.fft.fftn(la.asarray(np.ones((2, 3, 4))), norm="ortho")
    assert sum(n.op.name == "fft" for n in topological_order([y._node])) == 3


@pytest.mark.parametrize("name", ["fftfreq", "rfftfreq"])
@pytest.mark.parametrize("dtype", [np.float16, np.float32, np.float64])
def test_frequency_dtype(name, dtype):
    """The Array API's dtype= keyword: NumPy's frequencies, in that dtype."""
    assert_same(getattr(np.fft, name)(7, 0.25).astype(dtype),
                getattr(la.fft, name)(7, 0.25, dtype=dtype))
    with pytest.raises(TypeError):
        getattr(la.fft, name)(7, dtype=np.int32)
