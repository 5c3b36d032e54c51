"""lazyarr steps aside as NumPy does (issue 11, parts 2, 3 and 5): non-numeric data is
NumPy's own array, other libraries' arrays take the call through their
`__array_function__`/`__array_ufunc__`, ufuncs are matched by identity, lazy results
feed pandas, xarray, dask, scipy and scikit-learn as NumPy's arrays do, and 0-d
results follow the Python protocols of NumPy's scalars. Each compared with NumPy."""

import math
import os
import warnings

import numpy as np
import pytest

import lazyarr as la

pytestmark = pytest.mark.filterwarnings("ignore::UserWarning")


def test_mixing_numpy_data_with_lazy_numbers_materializes_the_numbers():
    x, labels = la.arange(3.0), np.array(["a", "b", "c"])
    for f in (lambda m, v: m.concatenate([v, labels]),
              lambda m, v: m.where(v > 0, labels, "-"),
              lambda m, v: m.stack([v.astype("U4"), labels])):
        expected, got = f(np, np.arange(3.0)), f(la, x)
        assert type(got) is np.ndarray and got.dtype == expected.dtype
        np.testing.assert_array_equal(got, expected)
    times = la.arange(3).astype("timedelta64[D]") + np.datetime64("2024-02-28")
    assert times.tolist() == (np.arange(3).astype("timedelta64[D]")
                              + np.datetime64("2024-02-28")).tolist()
    # a numeric result of NumPy's computation comes back lazy
    counts = la.unique(labels, return_counts=True)[1]
    assert isinstance(counts, la.Array) and counts.tolist() == [1, 1, 1]


def test_non_numeric_bad_input_is_numpys_error():
    with pytest.raises(type(_error(lambda: np.add(np.array(["a"]), 1.0)))):
        la.add(la.asarray(np.array(["a"])), 1.0)
    with pytest.raises(ValueError):
        la.arange("2024-01-01", "2023-01-01", 1.5, dtype="datetime64[D]")


def _error(f):
    try:
        f()
    except Exception as exc:  # noqa: BLE001
        return exc
    raise AssertionError("NumPy raised nothing")


def test_pandas_series_keeps_its_type():
    pd = pytest.importorskip("pandas")
    s = pd.Series([1.0, 2.0, 4.0], index=["a", "b", "c"])
    for f in (lambda m: m.log(s), lambda m: m.add(s, 1.0), lambda m: m.maximum(s, 2.0)):
        expected, got = f(np), f(la)
        assert type(got) is pd.Series
        pd.testing.assert_series_equal(got, expected)
    assert la.log(s).diff().tolist()[1:] == np.log(s).diff().tolist()[1:]
    assert la.mean(s) == np.mean(s) and la.sum(s) == np.sum(s)
    frame = pd.DataFrame({"x": [1.0, 2.0], "y": [3.0, 5.0]})
    pd.testing.assert_frame_equal(la.sqrt(frame), np.sqrt(frame))
    # a Series of a lazy result holds its values
    x = la.linspace(0.0, 1.0, 5)
    np.testing.assert_array_equal(pd.Series(x).to_numpy(), np.linspace(0.0, 1.0, 5))


def test_dask_stays_lazy_in_dask():
    da = pytest.importorskip("dask.array")
    d = da.from_array(np.arange(8.0), chunks=4)
    for f in (lambda m: m.exp(d), lambda m: m.mean(d), lambda m: m.concatenate([d, d])):
        got = f(la)
        assert type(got) is da.Array
        np.testing.assert_allclose(got.compute(), f(np).compute())


def test_xarray_and_rolling():
    xr = pytest.importorskip("xarray")
    values = np.arange(12.0).reshape(3, 4)
    a = xr.DataArray(values, dims=("t", "x"))
    assert type(la.exp(a)) is xr.DataArray
    xr.testing.assert_allclose(la.exp(a), np.exp(a))
    lazy = xr.DataArray(la.asarray(values), dims=("t", "x"))
    rolled = lazy.rolling(x=2).mean()
    np.testing.assert_allclose(np.asarray(rolled), np.asarray(a.rolling(x=2).mean()))


def test_scipy_sparse_and_special():
    sparse = pytest.importorskip("scipy.sparse")
    special = pytest.importorskip("scipy.special")
    m = sparse.eye(3, format="csr")
    assert la.mean(m) == np.mean(m)
    x = la.asarray(np.array([0.5, 1.0, 2.0]))
    # scipy's own ufuncs, named like NumPy's, are never lazyarr's NumPy namesakes
    for uf in (special.expit, special.log1p, special.exp2):
        np.testing.assert_array_equal(np.asarray(uf(x)), uf(np.array([0.5, 1.0, 2.0])))


def test_sklearn_and_matplotlib_take_lazy_arrays(tmp_path):
    pytest.importorskip("sklearn")
    matplotlib = pytest.importorskip("matplotlib")
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from sklearn.linear_model import LinearRegression
    X = la.linspace(0.0, 1.0, 20).reshape(10, 2)
    y = X @ la.asarray([1.0, 2.0])
    coef = LinearRegression().fit(X, y).coef_
    Xn = np.linspace(0.0, 1.0, 20).reshape(10, 2)
    np.testing.assert_allclose(coef, LinearRegression().fit(Xn, Xn @ [1.0, 2.0]).coef_)
    fig, ax = plt.subplots()
    bars = ax.bar(la.arange(3), la.asarray([3.0, 1.0, 2.0]))
    assert [b.get_height() for b in bars] == [3.0, 1.0, 2.0]
    fig.savefig(tmp_path / "f.png")
    plt.close(fig)


def test_scalar_protocols_match_numpys_scalars():
    values = np.array([1.25, 2.5, -3.75])
    mean, lazy_mean = values.mean(), la.asarray(values).mean()
    assert round(lazy_mean, 2) == round(mean, 2) and type(round(lazy_mean)) is int
    assert round(lazy_mean) == round(mean)
    for f in (math.floor, math.ceil, math.trunc, hash):
        assert f(lazy_mean) == f(mean)
    assert {lazy_mean: 1}[mean] == 1  # hashable as its value
    with pytest.raises(TypeError):
        hash(la.asarray(values))
    with pytest.raises(TypeError):
        round(la.asarray(values))
    assert (2.5 in la.asarray(values)) and (7.0 not in la.asarray(values))


def test_numpys_global_random_stream_is_untouched_by_a_flush():
    """Loading a backend (importing jax) draws nothing from NumPy's RandomState."""
    import subprocess
    import sys
    code = ("import numpy as np, lazyarr as la, sys\n"
            "np.random.seed(3)\n"
            "x = la.asarray(np.random.rand(4))\n"
            "print(float((x * 2).sum()))\n"
            "print(np.random.rand(3).tolist())\n")
    outputs = []
    for backend in ("numpy", "xla"):
        env = {k: v for k, v in os.environ.items() if not k.startswith("LAZYARR_")}
        result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                                env={**env, "LAZYARR_BACKEND": backend}, timeout=120)
        assert result.returncode == 0, result.stderr
        outputs.append(result.stdout.splitlines()[1])
    np.random.seed(3)
    np.random.rand(4)
    assert outputs == [str(np.random.rand(3).tolist())] * 2


def test_numpy_asarray_shares_a_writable_buffer():
    """np.asarray(x) is writable and shares memory with x, as for an ndarray: writes on
    either side are seen on the other; results recorded before a write keep the values
    NumPy would have computed; copies stay apart."""
    def program(m):
        x = m.arange(8.0)
        v = x[2:6]
        a = np.asarray(x)
        y = x * 2  # recorded before the write through `a`
        c = x.copy()
        a[3] = 100.0
        seen = [x.tolist(), v.tolist(), y.tolist(), c.tolist()]
        x[0] = -1.0  # a lazy write shows through `a`
        v[1] += 1.0  # and so does a write into a view
        seen.append(a.tolist())
        b = np.asarray(v)
        b[:] = 0.0
        seen += [x.tolist(), np.shares_memory(a, b), a.flags.writeable]
        x += 1
        seen.append(a.tolist())
        return seen
    assert program(la) == program(np)


def test_pandas_edits_a_series_built_from_a_lazy_array():
    pd = pytest.importorskip("pandas")
    expected, got = pd.Series(np.arange(6.0)), pd.Series(la.arange(6.0))
    for s in (expected, got):
        s[s > 3] = 0.0
        s.iloc[0] = 9.0
    pd.testing.assert_series_equal(got, expected)


def test_numba_takes_lazy_arrays_and_writes_through():
    numba = pytest.importorskip("numba")

    @numba.njit
    def double_into(a, out):
        for i in range(a.size):
            out[i] = 2.0 * a[i]
        return out.sum()

    x, out = la.arange(5.0), la.zeros(5)
    assert double_into(x, out) == 20.0
    assert out.tolist() == [0.0, 2.0, 4.0, 6.0, 8.0]
    assert double_into(x[::2], la.zeros(3)) == 12.0  # a strided view

    @numba.njit
    def plus_one(s):
        return s + 1

    assert plus_one(x.sum()) == 11.0  # a 0-d result is a scalar to numba


def test_jax_takes_lazy_arrays_without_changing_its_config():
    jax = pytest.importorskip("jax")
    jnp = pytest.importorskip("jax.numpy")
    x64 = jax.config.jax_enable_x64
    x = la.arange(3.0) * 2
    expected = np.arange(3.0) * 2
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # float64 under jax's float32 default, as for NumPy's
        for f in (lambda v: jnp.asarray(v), lambda v: v + jnp.arange(3.0),
                  lambda v: jnp.arange(3.0) + v, lambda v: jax.jit(lambda a: a * 2 + 1)(v)):
            got, want = f(x), f(expected)
            assert isinstance(got, jax.Array)
            np.testing.assert_allclose(np.asarray(got), np.asarray(want), rtol=1e-6)
    np.testing.assert_array_equal(np.asarray(jnp.from_dlpack(x)), expected)
    y = jnp.arange(3.0)
    try:
        numpys = np.from_dlpack(y).tolist()
    except Exception as exc:  # (a TPU's buffers have no DLPack): raised as NumPy raises it
        with pytest.raises(type(exc)):
            la.from_dlpack(y)
    else:
        assert la.from_dlpack(y).tolist() == numpys == [0.0, 1.0, 2.0]
    assert jax.config.jax_enable_x64 == x64


def test_standard_namespace_zero_d_arrays_take_assignment():
    """The standard has no scalars: a 0-d result is an array (scipy's pearsonr writes
    into one under SCIPY_ARRAY_API=1)."""
    import subprocess
    import sys
    from lazyarr import array_api as xp
    s = xp.sum(xp.asarray([1.0, 2.0]))
    s[()] = 5.0
    assert float(s) == 5.0 and type(s) is xp.StandardArray
    pytest.importorskip("scipy")
    code = ("import numpy as np, lazyarr.array_api as xp\n"
            "from scipy import stats\n"
            "a = np.random.default_rng(0).normal(size=20)\n"
            "b = 0.5 * a + np.random.default_rng(1).normal(size=20)\n"
            "r, e = stats.pearsonr(xp.asarray(a), xp.asarray(b)), stats.pearsonr(a, b)\n"
            "print(type(r.statistic).__name__, abs(float(r.statistic) - e.statistic) < 1e-12,"
            " abs(float(r.pvalue) - e.pvalue) < 1e-12)\n")
    env = {k: v for k, v in os.environ.items() if not k.startswith("LAZYARR_")}
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                            env={**env, "SCIPY_ARRAY_API": "1", "LAZYARR_BACKEND": "numpy",
                                 "LAZYARR_FALLBACK": "allow"}, timeout=120)
    assert result.stdout == "StandardArray True True\n", result.stderr
