"""Statistics against NumPy: median, quantile and percentile with every method (and
their NaN variants, and weights), cov, corrcoef, diff, ediff1d, gradient, trapezoid,
interp, convolve and correlate, on generated dtypes, shapes (0-d and size-0
included) and values (NaN, infinities, signed zeros, ties)."""


import numpy as np
import pytest
from hypothesis import assume, given, strategies as st
from hypothesis.extra import numpy as hnp

import lazyarr as la

from differential import assert_same, check_function, clean
from strategies import COMPLEX, NUMERIC, REAL, arrays, elements

SMALL = dict(max_dims=3, max_side=4)
METHODS = ["inverted_cdf", "averaged_inverted_cdf", "closest_observation",
           "interpolated_inverted_cdf", "hazen", "weibull", "linear", "median_unbiased",
           "normal_unbiased", "lower", "higher", "midpoint", "nearest"]
QUANTILE_FUNCTIONS = ["quantile", "percentile", "nanquantile", "nanpercentile"]


pytestmark = pytest.mark.usefixtures("quiet_warnings")


def some_array(draw, dtypes=NUMERIC, **kwargs):
    return clean(draw(arrays(draw(st.sampled_from(dtypes)), **{**SMALL, **kwargs})))


def with_ties(draw, dtype, shape):
    pool = draw(st.lists(elements(np.dtype(dtype)), min_size=1, max_size=4))
    return clean(draw(hnp.arrays(dtype, shape, elements=st.sampled_from(pool))))


def reduction_axis(draw, ndim):
    """None, an int (sometimes out of bounds) or a tuple (sometimes repeating)."""
    ints = st.integers(-ndim - 1, ndim)
    return draw(st.one_of(st.none(), ints, st.lists(ints, min_size=1, max_size=3).map(tuple)))


# ----- median --------------------------------------------------------------------------

@pytest.mark.parametrize("name", ["median", "nanmedian"])
@given(data=st.data())
def test_median(name, data):
    dtype = data.draw(st.sampled_from(NUMERIC))
    x = with_ties(data.draw, dtype, data.draw(hnp.array_shapes(min_dims=0, max_dims=3,
                                                               max_side=4)))
    check_function(name, x, axis=reduction_axis(data.draw, x.ndim),
                   keepdims=data.draw(st.booleans()))


def test_nanmedian_paths():
    """Along an axis shorter than 600 of a multi-dimensional array NumPy's nanmedian
    sums the middle pair in the input's dtype (float16 40000 + 40000 is inf); for 1-d
    input, axis=None and long axes it takes the mean of the middle values."""
    big = np.array([[40000.0, np.nan], [40000.0, 30000.0]], np.float16)
    for axis in (None, 0, 1):
        check_function("nanmedian", big, axis=axis)
    long = np.full((2, 601), 40000.0, np.float16)
    long[0, ::2] = np.nan
    check_function("nanmedian", long, axis=1)
    check_function("nanmedian", long[:, :599], axis=1)
    check_function("nanmedian", np.full((3, 2), np.nan), axis=0)


# ----- quantiles -----------------------------------------------------------------------

def q_values(draw, scale):
    """q as NumPy takes it: a Python float or int, a list, a NumPy scalar, a float32
    or float64 array of up to 2 dimensions; sometimes out of range or NaN."""
    unit = st.floats(0, 1)
    q = draw(st.one_of(
        unit, st.sampled_from([0, 1]), st.lists(unit, max_size=3),
        unit.map(np.float64), st.sampled_from([1.5, -0.25, np.nan]),
        hnp.arrays(st.sampled_from([np.float32, np.float64]),
                   hnp.array_shapes(min_dims=1, max_dims=2, max_side=3), elements=unit)))
    if scale == 1:
        return q
    if isinstance(q, np.ndarray):
        return (q * scale).astype(q.dtype)
    if isinstance(q, list):
        return [v * scale for v in q]
    return type(q)(q * scale)


def dtype_depends_on_data(name, x, q, **kwargs):
    """NumPy's result dtype for a NumPy (not Python) q of a float16/float32 array can
    depend on where the NaNs are (see lazyarr.statistics): such cases are skipped."""
    try:
        with np.errstate(all="ignore"):
            got = getattr(np, name)(x, q, **kwargs)
            clean_x = np.where(np.isnan(x), 0, x).astype(x.dtype) if x.dtype.kind == "f" \
                else x
            base = getattr(np, name)(clean_x, q, **kwargs)
    except Exception:
        return False
    return np.asarray(got).dtype != np.asarray(base).dtype


@given(data=st.data())
def test_quantile_family(data):
    name = data.draw(st.sampled_from(QUANTILE_FUNCTIONS))
    dtype = data.draw(st.sampled_from(REAL + COMPLEX[:1]))
    x = with_ties(data.draw, dtype, data.draw(hnp.array_shapes(min_dims=0, max_dims=3,
                                                               max_side=4)))
    q = q_values(data.draw, 100 if "percentile" in name else 1)
    kwargs = dict(axis=reduction_axis(data.draw, x.ndim),
                  method=data.draw(st.sampled_from(METHODS)),
                  keepdims=data.draw(st.booleans()))
    assume(not dtype_depends_on_data(name, x, q, **kwargs))
    check_function(name, x, q, **kwargs)


def test_every_method():
    """All 13 methods of the four functions, on one array with ties, NaN and infinities
    (one program for them all)."""
    x = np.array([[3.0, np.nan, 1.0, 1.0, -np.inf], [2.0, 7.5, -0.0, 0.0, 4.0],
                  [np.inf, 2.0, 2.0, 5.0, 1.0]])
    ints = np.array([[5, 1, 4, 4], [-3, 0, 9, 2]], np.int16)
    cases = []
    for name in QUANTILE_FUNCTIONS:
        scale = 100 if "percentile" in name else 1
        for method in METHODS:
            for data, q, axis in ((x, [0.0, 0.3, 0.5, 1.0], 1), (x, 0.4, None),
                                  (ints, np.array([0.25, 0.9], np.float32), 0)):
                qs = np.multiply(q, scale).astype(np.asarray(q).dtype) if isinstance(
                    q, np.ndarray) else (np.multiply(q, scale).tolist())
                expected = getattr(np, name)(data, qs, axis=axis, method=method)
                cases.append((expected, getattr(la, name)(data, qs, axis=axis, method=method)))
    la.eval(*(result for _, result in cases))
    for expected, result in cases:
        assert_same(expected, result)


@pytest.mark.parametrize("name", QUANTILE_FUNCTIONS)
@pytest.mark.parametrize("args,kwargs", [
    ((np.array([1 + 1j, 2]), 0.5), {}), ((np.arange(4.0), 1.5), {}),
    ((np.arange(4.0), np.nan), {}), ((np.arange(4.0), -0.5), {}),
    ((np.arange(4.0), [[[0.5]]]), {}), ((np.arange(4.0), 0.5), dict(method="foo")),
    ((np.arange(4.0), 0.5), dict(axis=1)), ((np.ones((2, 2)), 0.5), dict(axis=(0, 0))),
    ((np.zeros(0), 0.5), {}), ((np.zeros((0, 3)), 0.5), dict(axis=0)),
    ((np.zeros((3, 0)), 0.5), dict(axis=0)), ((np.array([True, False]), 0.5), {}),
    ((np.array([True, False]), 0.5), dict(method="lower")),
    ((np.arange(4.0), 0.5), dict(weights=np.ones(4))),
    ((np.arange(4.0), 0.5), dict(weights=-np.ones(4), method="inverted_cdf")),
    ((np.arange(4.0), 0.5), dict(weights=np.zeros(4), method="inverted_cdf")),
    ((np.ones((2, 3)), 0.5), dict(weights=np.ones(3), method="inverted_cdf")),
    ((np.ones((2, 3)), 0.5), dict(weights=np.ones(2), axis=1, method="inverted_cdf"))])
def test_quantile_cases(name, args, kwargs):
    x, q = args
    if "percentile" in name and not isinstance(q, list):
        q = q * 100
    check_function(name, x, q, **kwargs)


@given(data=st.data())
def test_weighted_quantile(data):
    name = data.draw(st.sampled_from(QUANTILE_FUNCTIONS))
    x = some_array(data.draw, REAL, min_dims=1)
    axis = data.draw(st.one_of(st.none(), st.integers(0, x.ndim - 1)))
    # NumPy's nanquantile indexes 1-d weights as if they had x's shape (an IndexError,
    # a NumPy bug) along an axis of a multi-dimensional array: full weights there.
    full = axis is None or data.draw(st.booleans()) or (name.startswith("nan")
                                                         and x.ndim > 1)
    shape = x.shape if full else (x.shape[axis],)
    weights = data.draw(hnp.arrays(np.float64, shape, elements=st.sampled_from(
        [0.0, 0.5, 1.0, 2.0, 3.25])))
    q = q_values(data.draw, 100 if "percentile" in name else 1)
    kwargs = dict(axis=axis, method="inverted_cdf", weights=weights,
                  keepdims=data.draw(st.booleans()))
    check_function(name, x, q, **kwargs)


def test_quantile_deviations():
    """Documented: with a NumPy scalar q, NumPy returns a float32 NaN for a float32
    array holding a NaN (the data decides its dtype); lazyarr a float64 NaN."""
    x = np.array([1.0, np.nan], np.float32)
    result = la.quantile(x, np.float64(0.5))
    assert result.dtype == np.float64 and np.isnan(np.asarray(result))
    assert np.quantile(x, np.float64(0.5)).dtype == np.float32


def test_order_statistics_are_lazy():
    x = la.asarray(np.arange(12.0).reshape(3, 4)) * 2
    with la.count_flushes() as flushes:
        results = [la.median(x, axis=0), la.nanquantile(x, [0.1, 0.7], axis=1),
                   la.percentile(x, 30, method="hazen"), la.cov(x), la.interp(x, [0, 9],
                                                                              [1, 2])]
    assert flushes.count == 0
    base = np.arange(12.0).reshape(3, 4) * 2
    assert_same(np.nanquantile(base, [0.1, 0.7], axis=1), results[1])


# ----- covariance and correlation -------------------------------------------------------

def exact_samples(draw, dtype, variables, observations):
    """Small integers (Gaussian integers for complex), with NaN or inf sometimes, over a
    power-of-two number of observations: every mean and product is exact, so NumPy's
    BLAS summation order (which lazyarr does not reproduce) cannot show."""
    ints = st.integers(-8, 8)
    if np.dtype(dtype).kind == "c":
        values = st.builds(complex, ints, ints)
    elif np.dtype(dtype).kind == "f":
        values = st.one_of(ints.map(float), st.sampled_from([np.nan, np.inf]))
    elif np.dtype(dtype).kind == "b":
        values = st.booleans()
    else:
        values = ints
    return draw(hnp.arrays(dtype, (variables, observations), elements=values))


@pytest.mark.parametrize("name", ["cov", "corrcoef"])
@given(data=st.data())
def test_cov_corrcoef(name, data):
    dtype = data.draw(st.sampled_from([np.float64, np.float32, np.int16, np.complex128,
                                       np.bool_]))
    n = data.draw(st.sampled_from([1, 2, 4, 8]))
    m = exact_samples(data.draw, dtype, data.draw(st.integers(1, 3)), n)
    m = data.draw(st.sampled_from([m, m[0], m[0, 0], m.T]))
    rowvar = m.ndim < 2 or m.shape[0] != n or data.draw(st.booleans())
    kwargs = dict(rowvar=rowvar)
    if data.draw(st.booleans()):
        kwargs["y"] = exact_samples(data.draw, dtype, 1, n)[0]
    if name == "cov":
        kwargs["bias"] = data.draw(st.booleans())
        kwargs["ddof"] = data.draw(st.sampled_from([None, 0, 1, 2, n + 1]))
        if data.draw(st.booleans()):
            # Weights whose sums are powers of two keep the weighted means exact.
            kwargs["fweights"] = np.array(([1, 3, 2, 2] * 2)[:n] if n > 2 else [1] * n)
        if data.draw(st.booleans()):
            kwargs["aweights"] = np.full(n, 2.0)
    if data.draw(st.booleans()):
        kwargs["dtype"] = data.draw(st.sampled_from([np.float32, np.float64, np.complex128]))
    check_function(name, m, **kwargs)


@pytest.mark.parametrize("kwargs", [dict(ddof=1.5), dict(fweights=[1, 2.5, 1]),
                                    dict(fweights=[[1, 1, 1]]), dict(fweights=[1, 1]),
                                    dict(fweights=[1, -1, 1]), dict(aweights=[1, -1, 1]),
                                    dict(aweights=[[1, 1, 1]]), dict(aweights=[1, 1]),
                                    dict(y=np.ones((2, 2, 2)))])
def test_cov_errors(kwargs):
    check_function("cov", np.arange(6.0).reshape(2, 3), **kwargs)
    check_function("cov", np.ones((2, 2, 2)))
    check_function("cov", np.zeros((0, 3)))


# ----- differences, gradients and integrals ---------------------------------------------

@given(data=st.data())
def test_diff(data):
    x = some_array(data.draw)
    kwargs = dict(n=data.draw(st.integers(-1, 3)), axis=data.draw(st.integers(-x.ndim - 1,
                                                                              x.ndim)))
    for key in ("prepend", "append"):
        if data.draw(st.booleans()):
            kwargs[key] = data.draw(st.one_of(
                st.integers(-3, 3), st.just(x[..., :1] if x.ndim else x)))
    check_function("diff", x, **kwargs)


@given(data=st.data())
def test_ediff1d(data):
    x = some_array(data.draw)
    kwargs = {}
    for key in ("to_begin", "to_end"):
        if data.draw(st.booleans()):
            kwargs[key] = some_array(data.draw, max_dims=1)
    check_function("ediff1d", x, **kwargs)


@given(data=st.data())
def test_gradient(data):
    x = some_array(data.draw, NUMERIC, min_dims=1)
    edge_order = data.draw(st.sampled_from([1, 2]))
    axes = data.draw(st.one_of(st.none(), st.integers(-x.ndim, x.ndim - 1)))
    count = x.ndim if axes is None else 1
    spacing = []
    choice = data.draw(st.sampled_from(["none", "scalar", "each"]))
    if choice == "scalar":
        spacing = [data.draw(st.sampled_from([0.5, 2, np.float32(0.25)]))]
    elif choice == "each":
        dims = list(range(x.ndim)) if axes is None else [axes]
        for d in dims:
            n = x.shape[d]
            spacing.append(data.draw(st.one_of(
                st.sampled_from([1.5, 3]),
                hnp.arrays(st.sampled_from([np.float64, np.float32, np.int64]), n,
                           elements=st.integers(-50, 50), unique=True).map(np.sort))))
        assert len(spacing) == count
    check_function("gradient", x, *spacing, axis=axes, edge_order=edge_order)


def test_gradient_errors():
    x = np.arange(6.0).reshape(2, 3)
    check_function("gradient", x, edge_order=3)
    check_function("gradient", x, axis=1, edge_order=2)
    check_function("gradient", x, 1, 2, 3)
    check_function("gradient", x, [1, 2], axis=1)
    check_function("gradient", x, [[1, 2, 3]], axis=1)
    check_function("gradient", x, axis=(0, 0))
    check_function("gradient", np.array([True, False]))
    check_function("gradient", np.array(3.0))


@given(data=st.data())
def test_trapezoid(data):
    y = some_array(data.draw, REAL + COMPLEX, min_dims=1)
    axis = data.draw(st.integers(-y.ndim - 1, y.ndim - 1))
    choice = data.draw(st.sampled_from(["dx", "x1", "xn"]))
    if choice == "dx":
        check_function("trapezoid", y, dx=data.draw(st.sampled_from([1.0, 0.5, 3])),
                       axis=axis)
    elif choice == "x1" and -y.ndim <= axis < y.ndim:
        x = np.sort(some_array(data.draw, REAL, min_dims=1, max_dims=1,
                               min_side=y.shape[axis], max_side=y.shape[axis]))
        check_function("trapezoid", y, x, axis=axis)
    else:
        check_function("trapezoid", y, np.cumsum(np.ones(y.shape), axis=-1), axis=axis)


# ----- interpolation and convolution ------------------------------------------------------

@given(data=st.data())
def test_interp(data):
    n = data.draw(st.integers(1, 6))
    xp = np.sort(clean(data.draw(hnp.arrays(np.float64, n, elements=st.floats(-10, 10)))))
    fp = some_array(data.draw, REAL + COMPLEX, min_dims=1, max_dims=1, min_side=n,
                    max_side=n)
    x = some_array(data.draw, REAL, max_dims=2)
    kwargs = {}
    if data.draw(st.booleans()):
        kwargs["left"] = data.draw(st.sampled_from([-1.0, np.nan, 2]))
    if data.draw(st.booleans()):
        kwargs["right"] = data.draw(st.sampled_from([5.0, np.inf]))
    if data.draw(st.booleans()):
        kwargs = dict(period=data.draw(st.sampled_from([360, 2.5, -7.0])))
        xp = np.unique(xp)
        fp = fp[:xp.size]
        # NumPy sorts xp % period with its default, unstable argsort: with ties the
        # order of their fp is unspecified.
        assume(np.unique(xp % abs(kwargs["period"])).size == xp.size)
    check_function("interp", x, xp, fp, **kwargs)


@pytest.mark.parametrize("args,kwargs", [
    ((2.5, [1, 2, 3], [3, 2, 0]), {}), (([1j], [1, 2, 3], [3, 2, 0]), {}),
    (([1], [[1, 2, 3]], [3, 2, 0]), {}), (([1], [], []), {}), (([], [], []), {}),
    (([1], [1, 2], [3]), {}), (([1], [1, 2], [[3, 4]]), {}), (([1], 1, 3), {}),
    (([1.5], [1, 2], [3, 4.0]), dict(left=1j)), (([1.5], [1, 2], [3, 4.0]), dict(period=0)),
    (([np.nan, 1.0, 3.0], [2.0], [5.0]), {}), (([np.nan], [2.0, 3.0], [5 + 1j, 6]), {})])
def test_interp_cases(args, kwargs):
    check_function("interp", *[np.asarray(a) for a in args], **kwargs)


def conv_values(draw, dtype, n):
    """Integers (exact, wrapping), bools, floats holding small integers, NaN and
    infinities, complex numbers holding small Gaussian integers: exact sums, so BLAS's
    summation order cannot show. (NumPy's complex dot products are BLAS's, whose
    kernels turn some infinite products into NaN where the C formula does not: not
    reproducible, so complex infinities are left out.)"""
    kind = np.dtype(dtype).kind
    ints = st.integers(-6, 6)
    if kind in "iub":
        return clean(draw(hnp.arrays(dtype, n, elements=elements(np.dtype(dtype)))))
    if kind == "c":
        values = st.builds(complex, ints, ints)
    else:
        values = st.one_of(ints.map(float), st.sampled_from([np.nan, np.inf, -np.inf]))
    return draw(hnp.arrays(dtype, n, elements=values))


@pytest.mark.parametrize("name", ["convolve", "correlate"])
@given(data=st.data())
def test_convolve_correlate(name, data):
    d1, d2 = (data.draw(st.sampled_from(NUMERIC)) for _ in range(2))
    # float infinities become complex ones when the other operand is complex
    assume(not (np.result_type(d1, d2).kind == "c" and "f" in (d1.kind, d2.kind)))
    a = conv_values(data.draw, d1, data.draw(st.integers(1, 6)))
    v = conv_values(data.draw, d2, data.draw(st.integers(1, 6)))
    mode = data.draw(st.sampled_from(["valid", "same", "full", 0, 1, 2]))
    check_function(name, a, v, mode=mode)


@pytest.mark.parametrize("name", ["convolve", "correlate"])
@pytest.mark.parametrize("mode", ["valid", "same", "full"])
def test_convolve_correlate_non_finite_values_at_the_edges(name, mode):
    """NumPy sums only the terms where the operands overlap: a NaN or an infinity of v
    never meets the zeros a convolution pads a with (np.convolve([0, 0, 0, 0],
    [0, 0, nan], "same")[0] is 0)."""
    a = np.array([0.0, 1.0, -2.0, np.inf, 0.0, 3.0, -np.inf, np.nan, 5.0])
    for v in ([0.0, 0.0, np.nan], [np.inf, 1.0, 0.0], [1.0, -np.inf], [2.0, 0.0, -np.inf, 1.0],
              [np.inf, np.inf, 1.0, -1.0, 0.0]):
        for dtype in (np.float64, np.float32):
            check_function(name, a.astype(dtype), np.array(v, dtype), mode=mode)
            check_function(name, np.zeros(4, dtype), np.array(v, dtype), mode=mode)


@pytest.mark.parametrize("name", ["convolve", "correlate"])
@pytest.mark.parametrize("args,kwargs", [
    ((1, [1, 2]), {}), (([1, 2], [1, 2]), dict(mode="x")), (([1, 2], []), {}),
    (([], [1, 2]), {}), (([[1, 2]], [1]), {}), (([1, 2], [1, 2]), dict(mode=3))])
def test_convolve_correlate_errors(name, args, kwargs):
    check_function(name, *[np.asarray(a) for a in args], **kwargs)


def test_convolve_of_long_signals_needs_linear_memory():
    """1e6 by 1000 "same": one correlate primitive, not a 1e9-entry window matrix."""
    from lazyarr._graph import topological_order
    rng = np.random.default_rng(0)
    x, k = rng.normal(size=1_000_000), rng.normal(size=1000)
    out = la.convolve(la.asarray(x), la.asarray(k), mode="same")
    largest = max(int(np.prod(n.shape)) for n in topological_order([out._node]))
    assert largest <= x.size
    np.testing.assert_allclose(np.asarray(out)[::997], np.convolve(x, k, "same")[::997],
                               rtol=1e-9, atol=1e-9 * np.abs(x).max() * np.abs(k).sum())
