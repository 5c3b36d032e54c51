"""Consumers: libraries that dispatch through the Array API standard run on lazyarr.

array_api_compat finds lazyarr's standard namespace (lazyarr.array_api) for lazyarr
arrays; scikit-learn estimators and metrics (with `array_api_dispatch`) and SciPy
functions (with SCIPY_ARRAY_API=1) compute on lazyarr arrays, return lazyarr arrays, and
give the results the same code gives on NumPy arrays."""

import os
import pickle
import typing

import numpy
import pytest

import lazyarr
import lazyarr.array_api as xp
from lazyarr.array_api import StandardArray

import array_api_compat

# SciPy reads SCIPY_ARRAY_API once, when it is first imported (scikit-learn imports it),
# so both are imported here with it set; the environment is restored afterwards, so
# that the subprocesses other tests start see the environment they were given.
_SAVED_SCIPY_ARRAY_API = os.environ.get("SCIPY_ARRAY_API")
os.environ["SCIPY_ARRAY_API"] = "1"
import scipy.cluster.vq  # noqa: E402
import scipy.fft  # noqa: E402
import scipy.integrate  # noqa: E402
import scipy.signal  # noqa: E402
import scipy.special  # noqa: E402
import scipy.stats  # noqa: E402
import sklearn  # noqa: E402
from sklearn import metrics  # noqa: E402
from sklearn.decomposition import PCA  # noqa: E402
from sklearn.discriminant_analysis import LinearDiscriminantAnalysis  # noqa: E402
from sklearn.linear_model import LogisticRegression, Ridge  # noqa: E402
from sklearn.model_selection import cross_val_score, train_test_split  # noqa: E402
from sklearn.pipeline import make_pipeline  # noqa: E402
from sklearn.preprocessing import MinMaxScaler, StandardScaler  # noqa: E402
if _SAVED_SCIPY_ARRAY_API is None:
    del os.environ["SCIPY_ARRAY_API"]
else:
    os.environ["SCIPY_ARRAY_API"] = _SAVED_SCIPY_ARRAY_API

# float64 results: the same algorithm on NumPy and on lazyarr differs only in rounding
# order (BLAS, XLA's reduction trees) on these well-conditioned problems.
RTOL, ATOL = 1e-11, 1e-12
RTOL32, ATOL32 = 2e-5, 2e-6

RNG = numpy.random.default_rng(20240611)
FEATURES = (RNG.standard_normal((48, 5)) * [1.0, 2.0, 0.5, 3.0, 1.5]
            + [0.0, 1.0, -2.0, 0.5, 3.0])
LABELS = RNG.integers(0, 3, 48)
FEATURES[:, 0] += LABELS  # classes that a linear model can (partly) separate
TARGET = FEATURES @ RNG.standard_normal(5) + 0.1 * RNG.standard_normal(48)
WITH_NAN = FEATURES.copy()
WITH_NAN[[3, 10, 11], [1, 1, 4]] = numpy.nan

KINDS = {"asarray": lazyarr.asarray, "StandardArray": xp.asarray}


class Data(typing.NamedTuple):
    """A workload's inputs: features, class labels, a regression target, and the
    features with a few NaNs."""
    X: object
    y: object
    target: object
    with_nan: object

    def to(self, make):
        return Data(*map(make, self))


DATA = Data(FEATURES, LABELS, TARGET, WITH_NAN)


def assert_like_numpy(got, expected, rtol=RTOL, atol=ATOL, where="result"):
    """`got`, computed on lazyarr arrays, is what the same code gave on NumPy arrays:
    arrays come back as lazyarr's StandardArrays with NumPy's shape and dtype, and its
    values (exact for integers and bools), NumPy scalars as 0-d StandardArrays; Python
    numbers as Python numbers."""
    if isinstance(expected, (tuple, list)):
        assert isinstance(got, (tuple, list)) and len(got) == len(expected), where
        for k, (g, e) in enumerate(zip(got, expected)):
            assert_like_numpy(g, e, rtol, atol, f"{where}[{k}]")
        return
    if isinstance(expected, (numpy.ndarray, numpy.generic)):  # a NumPy scalar: 0-d
        expected = numpy.asarray(expected)
        assert type(got) is StandardArray, f"{where}: {type(got).__name__}, not StandardArray"
        assert (got.shape, got.dtype) == (expected.shape, expected.dtype), where
        value = numpy.asarray(got)
        if expected.dtype.kind in "fc":
            numpy.testing.assert_allclose(value, expected, rtol=rtol, atol=atol, err_msg=where)
        else:
            numpy.testing.assert_array_equal(value, expected, err_msg=where)
        return
    assert type(got) is type(expected), f"{where}: {type(got).__name__}, not {expected!r}"
    if isinstance(expected, float):
        assert got == pytest.approx(expected, rel=rtol, abs=atol), where
    else:
        assert got == expected, where


# ----- array_api_compat -------------------------------------------------------------

@pytest.mark.parametrize("kind", KINDS)
def test_array_api_compat_finds_the_standard_namespace(kind):
    x = KINDS[kind]([[1.0, 2.0], [3.0, 4.0]])
    assert array_api_compat.array_namespace(x) is xp
    assert array_api_compat.array_namespace(x, 2, 1.5, None) is xp
    assert array_api_compat.array_namespace(x, xp.asarray(1), lazyarr.asarray(2)) is xp
    assert array_api_compat.array_namespace(x, api_version="2023.12") is xp
    with pytest.raises(ValueError):
        array_api_compat.array_namespace(x, api_version="2099.12")
    with pytest.raises(TypeError):  # two namespaces: lazyarr's and NumPy's
        array_api_compat.array_namespace(x, numpy.ones(2))
    assert array_api_compat.get_namespace(x) is xp


@pytest.mark.parametrize("kind", KINDS)
def test_array_api_compat_helpers(kind):
    x = KINDS[kind]([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
    assert array_api_compat.is_array_api_obj(x)
    assert not array_api_compat.is_numpy_array(x)
    assert array_api_compat.is_writeable_array(x)
    # lazyarr computes what bool() and shapes ask for, so it counts as eager
    assert not array_api_compat.is_lazy_array(x)
    device = array_api_compat.device(x)
    assert device == x.device == xp.__array_namespace_info__().default_device()
    assert device in xp.__array_namespace_info__().devices()
    assert array_api_compat.size(x) == 6 and array_api_compat.size(x[0, 0]) == 1
    assert array_api_compat.size(xp.zeros((0, 3))) == 0
    moved = array_api_compat.to_device(x, device)
    assert type(moved) is type(x) and moved.device == device
    numpy.testing.assert_array_equal(numpy.asarray(moved), numpy.asarray(x))
    with pytest.raises(ValueError):
        array_api_compat.to_device(x, device, stream=1)


def test_results_are_standard_arrays():
    x = lazyarr.asarray([[1.0, 2.0], [3.0, 4.0]])
    for result in (xp.sum(x, axis=0), xp.linalg.inv(x), xp.fft.fft(x), xp.abs(x),
                   x.__array_namespace__().abs(x), *xp.unique_inverse(x), *xp.linalg.svd(x)):
        assert type(result) is StandardArray
    assert type(x + 1) is lazyarr.Array  # operators belong to the array
    assert type(xp.asarray(x) + 1) is StandardArray


def test_take_along_axis_default_axis():
    """The standard's (and NumPy >= 2.3's) take_along_axis(x, indices, /, *, axis=-1)."""
    data = numpy.array([[3.0, 1.0, 2.0], [0.5, 2.5, 1.5]])
    x = xp.asarray(data)
    assert_like_numpy(xp.take_along_axis(x, xp.argsort(x)), numpy.sort(data))


def test_asarray_copy_false_never_copies():
    """The standard's (and NumPy's) asarray(copy=False): never copy data that has a
    buffer (later writes to it show), raise ValueError where a copy is needed."""
    data = numpy.zeros(3)
    shared = xp.asarray(data, copy=False)
    data[0] = 5.0
    with pytest.raises(ValueError):
        xp.asarray([1.0, 2.0], copy=False)
    with pytest.raises(ValueError):
        xp.asarray(numpy.ones(2, numpy.float32), dtype=xp.float64, copy=False)
    assert float(shared[0]) == 5.0


# ----- scikit-learn -----------------------------------------------------------------

@pytest.fixture
def dispatch(monkeypatch):
    """scikit-learn's Array API dispatch; scikit-learn insists on SCIPY_ARRAY_API=1."""
    monkeypatch.setenv("SCIPY_ARRAY_API", "1")
    with sklearn.config_context(array_api_dispatch=True):
        yield


def _pca(**kwargs):
    def run(d):
        pca = PCA(**kwargs).fit(d.X)
        Z = pca.transform(d.X)
        return (pca.n_components_, pca.mean_, pca.components_, pca.explained_variance_,
                pca.explained_variance_ratio_, pca.singular_values_, pca.noise_variance_,
                Z, pca.inverse_transform(Z), pca.score_samples(d.X))
    return run


def _lda(d):
    lda = LinearDiscriminantAnalysis(solver="svd").fit(d.X, d.y)
    return (lda.classes_, lda.priors_, lda.means_, lda.coef_, lda.intercept_,
            lda.explained_variance_ratio_, lda.predict(d.X), lda.predict_proba(d.X),
            lda.decision_function(d.X), lda.transform(d.X), lda.score(d.X, d.y))


def _ridge(d):
    ridge = Ridge(alpha=0.5, solver="svd").fit(d.X, d.target)
    return ridge.coef_, ridge.intercept_, ridge.predict(d.X), ridge.score(d.X, d.target)


def _logistic_regression(d):
    """L-BFGS takes the same steps: its iteration count is the same as on NumPy."""
    model = LogisticRegression().fit(d.X, d.y)
    return (model.n_iter_.tolist(), model.coef_, model.intercept_, model.predict(d.X),
            model.predict_proba(d.X))


def _scalers(d):
    standard = StandardScaler().fit(d.X)
    minmax = MinMaxScaler(feature_range=(-1, 1)).fit(d.X)
    return (standard.mean_, standard.var_, standard.scale_, standard.transform(d.X),
            standard.inverse_transform(standard.transform(d.X)), minmax.data_min_,
            minmax.data_max_, minmax.transform(d.X))


def _scalers_nan(d):
    """The scalers ignore NaN when they fit, and keep it when they transform."""
    return _scalers(d._replace(X=d.with_nan))


def _pipeline(d):
    """A pipeline, cross-validation scores and a split: model selection's indexing."""
    model = make_pipeline(StandardScaler(), PCA(n_components=3, svd_solver="full"),
                          LinearDiscriminantAnalysis()).fit(d.X, d.y)
    scores = cross_val_score(Ridge(solver="svd"), d.X, d.target, cv=3)  # NumPy's floats
    split = train_test_split(d.X, d.y, test_size=0.25, random_state=0)
    return model.predict(d.X), model.predict_proba(d.X), [float(s) for s in scores], split


def _metrics(d):
    predicted = (d.y + (d.X[:, 1] > 1.5)) % 3
    return (metrics.accuracy_score(d.y, predicted), metrics.confusion_matrix(d.y, predicted),
            metrics.f1_score(d.y, predicted, average="macro"),
            metrics.r2_score(d.target, d.X[:, 0]),
            metrics.mean_squared_error(d.target, d.X[:, 0]),
            metrics.pairwise.euclidean_distances(d.X[:7], d.X[7:12]),
            metrics.pairwise.rbf_kernel(d.X[:7], gamma=0.1),
            metrics.pairwise.cosine_similarity(d.X[:7]))


WORKLOADS = {
    "PCA full": _pca(n_components=3, svd_solver="full"),
    "PCA randomized": _pca(n_components=3, svd_solver="randomized",
                           power_iteration_normalizer="QR", random_state=0),
    "PCA covariance_eigh whiten": _pca(n_components=2, svd_solver="covariance_eigh",
                                       whiten=True),
    "PCA variance fraction": _pca(n_components=0.8, svd_solver="full"),
    "LinearDiscriminantAnalysis": _lda,
    "Ridge": _ridge,
    "LogisticRegression": _logistic_regression,
    "StandardScaler MinMaxScaler": _scalers,
    "StandardScaler MinMaxScaler NaN": _scalers_nan,
    "Pipeline cross_val_score train_test_split": _pipeline,
    "metrics": _metrics,
}


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("workload", WORKLOADS)
def test_scikit_learn(workload, kind, dispatch):
    run = WORKLOADS[workload]
    assert_like_numpy(run(DATA.to(KINDS[kind])), run(DATA))


@pytest.mark.parametrize("workload", ["PCA full", "LinearDiscriminantAnalysis"])
def test_scikit_learn_float32(workload, dispatch):
    data = DATA._replace(X=FEATURES.astype(numpy.float32))
    run = WORKLOADS[workload]
    assert_like_numpy(run(data.to(lazyarr.asarray)), run(data), RTOL32, ATOL32)


@pytest.mark.parametrize("kind", KINDS)
def test_scikit_learn_copy_false_writes_the_callers_array(kind, dispatch):
    """StandardScaler(copy=False) scales its input in place, as on NumPy arrays; with
    copy=True the caller's array is untouched."""
    untouched, scaled = KINDS[kind](FEATURES), KINDS[kind](FEATURES)
    numpy_scaled = FEATURES.copy()
    StandardScaler(copy=False).fit(numpy_scaled).transform(numpy_scaled)
    StandardScaler(copy=False).fit(scaled).transform(scaled)
    StandardScaler(copy=True).fit(untouched).transform(untouched)
    numpy.testing.assert_allclose(numpy.asarray(scaled), numpy_scaled, rtol=RTOL, atol=ATOL)
    numpy.testing.assert_array_equal(numpy.asarray(untouched), FEATURES)


def test_scikit_learn_rejects_nan_as_on_numpy(dispatch):
    with pytest.raises(ValueError, match="Input X contains NaN"):
        PCA(n_components=2).fit(lazyarr.asarray(WITH_NAN))


def test_scikit_learn_model_persistence(dispatch):
    """A fitted estimator pickles (model persistence, joblib's n_jobs)."""
    pca = PCA(n_components=3, svd_solver="full").fit(lazyarr.asarray(FEATURES))
    expected = numpy.asarray(pca.transform(lazyarr.asarray(FEATURES)))
    restored = pickle.loads(pickle.dumps(pca))
    got = restored.transform(lazyarr.asarray(FEATURES))
    assert type(got) is StandardArray
    numpy.testing.assert_allclose(numpy.asarray(got), expected, rtol=RTOL, atol=ATOL)


# ----- SciPy ------------------------------------------------------------------------

class Samples(typing.NamedTuple):
    """SciPy's inputs: a 6x5 sample, a 6x7 positive one, a signal and a kernel."""
    a: object
    p: object
    s: object
    k: object


SAMPLES = Samples(FEATURES[:6], RNG.uniform(0.05, 1.0, (6, 7)), RNG.standard_normal(64),
                  RNG.standard_normal(5))

special, stats, signal = scipy.special, scipy.stats, scipy.signal
SCIPY = {
    "special.logsumexp": lambda d: special.logsumexp(d.a, axis=1),
    "special.logsumexp b": lambda d: special.logsumexp(d.a, b=d.p[:, :5], axis=0),
    "special.softmax": lambda d: special.softmax(d.a, axis=0),
    "special.log_softmax": lambda d: special.log_softmax(d.a, axis=1),
    "special.xlogy": lambda d: special.xlogy(d.p, d.p[::-1]),
    "special.entr": lambda d: special.entr(d.p),
    "special.rel_entr": lambda d: special.rel_entr(d.p, d.p[::-1]),
    "special.ndtr": lambda d: special.ndtr(d.a),
    "stats.moment": lambda d: stats.moment(d.a, order=3, axis=0),
    "stats.zscore": lambda d: stats.zscore(d.a, axis=1, ddof=1),
    "stats.skew kurtosis": lambda d: (stats.skew(d.a, axis=0), stats.kurtosis(d.a, axis=0)),
    "stats.describe": lambda d: tuple(stats.describe(d.a, axis=0)),
    "stats.gmean hmean": lambda d: (stats.gmean(d.p, axis=1), stats.hmean(d.p, axis=0)),
    "stats.entropy": lambda d: stats.entropy(d.p, d.p[::-1], axis=0),
    "stats.pearsonr": lambda d: tuple(stats.pearsonr(d.a, d.p[:, :5], axis=0)),
    "stats.ttest_ind": lambda d: tuple(stats.ttest_ind(d.a, d.p[:, :5], axis=0)),
    "cluster.vq.whiten": lambda d: scipy.cluster.vq.whiten(d.a),
    "fft.rfft irfft": lambda d: (scipy.fft.rfft(d.s), scipy.fft.irfft(scipy.fft.rfft(d.a))),
    "signal.fftconvolve": lambda d: signal.fftconvolve(d.s, d.k, mode="same"),
    "signal.detrend": lambda d: signal.detrend(d.a, axis=0),
    "integrate.trapezoid": lambda d: (scipy.integrate.trapezoid(d.s, dx=0.5),
                                      scipy.integrate.cumulative_trapezoid(d.a, axis=0)),
}


def test_scipy_array_api_is_on():
    """SciPy was imported with SCIPY_ARRAY_API=1 (it decides once, at import)."""
    from scipy._lib._array_api import SCIPY_ARRAY_API
    assert SCIPY_ARRAY_API, "scipy was imported before this module set SCIPY_ARRAY_API=1"


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("function", SCIPY)
def test_scipy(function, kind):
    run = SCIPY[function]
    assert_like_numpy(run(Samples(*map(KINDS[kind], SAMPLES))), run(SAMPLES))
