"""The first tier off the CPU: op-by-op execution of cached single-primitive
executables on the device (lazyarr_xla.op_by_op). The policy unit picks it for a
compiling backend whose device is not the CPU (tested with fake platforms), the auto
tier runs a program on it and then compiled, and LAZYARR_TIER=opbyop (which forces it
on the CPU too) gives NumPy's values on a representative set of programs."""

import numpy
import pytest

import lazyarr as la
from lazyarr import _backend, _cuts, _tiers

# float32 where a program must run on the device: a TPU runs float64 programs on the
# NumPy interpreter, on the host (its float64 is emulated).
F32 = numpy.float32


class FakeBackend:
    compiles = True

    def __init__(self, device, runner=None):
        self.device = device
        if runner is not None:
            self.op_by_op = lambda: runner


def test_the_policy_picks_op_by_op_off_the_cpu():
    runner = object()
    assert _tiers.first_tier(FakeBackend("gpu:0", runner)) is runner
    assert _tiers.first_tier(FakeBackend("tpu:3", runner)) is runner
    assert _tiers.first_tier(FakeBackend("cpu", runner)) is _tiers.interpreter()
    assert _tiers.first_tier(FakeBackend("cpu*4", runner)) is None  # a mesh: XLA partitions
    assert _tiers.first_tier(FakeBackend("gpu:0")) is None  # no first tier: it runs itself
    not_compiling = FakeBackend("gpu:0", runner)
    not_compiling.compiles = False
    assert _tiers.first_tier(not_compiling) is None


def test_forced_tiers_pick_their_runner(monkeypatch):
    runner = object()
    gpu = FakeBackend("gpu:0", runner)
    assert _tiers.first_for(gpu, "opbyop") is runner
    assert _tiers.first_for(gpu, "interpret") is None  # forced: on one CPU device only
    assert _tiers.first_for(FakeBackend("cpu", runner), "interpret") is _tiers.interpreter()
    assert _tiers.first_for(FakeBackend("cpu*4", runner), "interpret") is None
    assert _tiers.first_for(gpu, "auto") is runner
    assert _tiers.first_for(FakeBackend("cpu", runner), "opbyop") is runner


@pytest.fixture
def xla(backend, monkeypatch):
    if backend != "xla":
        pytest.skip("op-by-op execution is the XLA backend's")
    monkeypatch.setenv("LAZYARR_CACHE_DIR", "off")
    # a fresh runner: under LAZYARR_TEST_TIER=opbyop the worker's has run every test
    # before this one, and its cache is full (its size is bounded)
    monkeypatch.setattr(_backend.current(), "_op_by_op", None)
    la.set_eager(False)  # small programs too run on the tiers
    monkeypatch.setattr(_cuts, "_last_cut", None)
    _tiers.reset()
    la.reset_stats()
    yield _backend.current()
    _tiers.reset()


def test_auto_on_an_accelerator_runs_op_by_op_then_compiled(xla, monkeypatch):
    """The XLA backend on the CPU, told it is a GPU: auto starts on op-by-op."""
    monkeypatch.setattr(xla, "device", "gpu:0")
    monkeypatch.setattr(_tiers, "compile_estimate", lambda program: 0.0)
    la.set_tier("auto")
    host = numpy.linspace(0.0, 1.0, 50, dtype=F32)
    for step in range(6):
        got = numpy.asarray(((la.asarray(host) * 0.5 + step) * 0.25).sum(axis=0))
        # (float32, without transcendental functions: the device's order of summation)
        numpy.testing.assert_allclose(got, ((host * 0.5 + step) * 0.25).sum(axis=0),
                                      rtol=1e-5)
        _tiers.wait()
    stats = la.stats()
    assert stats["op_by_op_runs"] >= 1 and stats["interpreted_runs"] == 0
    assert stats["compiled_runs"] >= 1


def test_single_primitive_executables_are_cached(xla, monkeypatch):
    la.set_tier("opbyop")
    runner = xla.op_by_op()
    x = la.asarray(numpy.arange(6.0, dtype=F32))
    numpy.asarray(x * 2.0 + 1.0)
    before = runner.cached()
    numpy.asarray(la.asarray(numpy.ones(6, F32)) * 3.0 + 4.0)  # same primitives, shapes, dtypes
    assert runner.cached() == before
    numpy.asarray(la.asarray(numpy.ones(7, F32)) * 3.0 + 4.0)  # a new shape: new executables
    assert runner.cached() == before + 2


def test_single_primitive_executables_are_kept_on_disk(xla, monkeypatch, tmp_path):
    """A second process (here: a fresh runner) loads them from the disk cache instead of
    compiling them again, as it does whole programs."""
    monkeypatch.setenv("LAZYARR_CACHE_DIR", str(tmp_path))
    la.set_tier("opbyop")
    host = numpy.arange(9.0, dtype=F32).reshape(3, 3)
    first = numpy.asarray(la.exp(la.asarray(host)) * 2.0 - 1.0)
    assert la.stats()["op_by_op_compiles"] >= 2
    monkeypatch.setattr(xla, "_op_by_op", None)  # a new runner: an empty memory cache
    la.reset_stats()
    again = numpy.asarray(la.exp(la.asarray(host)) * 2.0 - 1.0)
    numpy.testing.assert_array_equal(again, first)
    stats = la.stats()
    assert stats.get("op_by_op_compiles", 0) == 0 and stats["op_by_op_disk_hits"] >= 2
    assert stats["compiles"] == 0


def _programs(np):
    """A representative set: elementwise with scalars, reductions, matmul, views and
    slices, fancy indexing, writes, sorting, cumulative sums, where, concatenation,
    casts, linalg, a loop with a moving window."""
    rng = numpy.random.default_rng(7)
    a = np.asarray(rng.normal(size=(5, 4)))
    b = np.asarray(rng.integers(0, 10, size=(4,)))
    out = [a * 2.5 - 1, np.exp(a) / (1 + np.abs(a)), a.sum(axis=0), a.max(), a.mean(axis=1),
           a @ a.T, a[1:4, ::2], a.T.reshape(2, 10), a[np.asarray(numpy.array([4, 0, 2]))],
           np.sort(a, axis=1), np.argsort(b), np.cumsum(a, axis=0), np.where(a > 0, a, -a),
           np.concatenate([a, a[:2]]), (a * 3).astype(np.int32), b // 3, b % 4 == 1,
           np.linalg.solve(a[:4] + 4 * np.eye(4), a[0]), np.linalg.inv(a[:4] + 4 * np.eye(4))]
    c = a.copy()
    c[1:3, 1:] = 0.0
    c[np.asarray(numpy.array([0, 4]))] = 7.0
    out.append(c)
    x = np.asarray(numpy.arange(40.0))
    total = np.zeros(5)
    for i in range(0, 30, 5):
        total = total + x[i:i + 5]
    out.append(total)
    return out


def test_op_by_op_gives_numpys_values(xla, monkeypatch):
    la.set_tier("opbyop")
    got = _programs(la)
    for value, expected in zip(got, _programs(numpy)):
        value = numpy.asarray(value)
        assert value.dtype == expected.dtype and value.shape == expected.shape
        numpy.testing.assert_allclose(value, expected, rtol=1e-12, atol=1e-12)
    assert la.stats()["op_by_op_runs"] >= 1 and la.stats()["compiles"] == 0


def test_op_by_op_raises_checks_with_the_users_line(xla, monkeypatch):
    la.set_tier("opbyop")
    x = la.arange(5.0)
    index = la.asarray(numpy.array([1, 2])) * la.asarray(numpy.array([1, 4]))
    with pytest.raises(IndexError, match="out of bounds") as info:
        numpy.asarray(x[index])
    assert "test_engine_opbyop.py" in "\n".join(getattr(info.value, "__notes__", ()))
    with pytest.raises(numpy.linalg.LinAlgError):
        numpy.asarray(la.linalg.inv(la.asarray(numpy.ones((3, 3))) * 1.0))
