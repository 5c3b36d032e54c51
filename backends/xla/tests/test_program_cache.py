"""The XLA backend's in-memory program cache is bounded (LAZYARR_PROGRAM_CACHE_SIZE,
least recently used out), and an evicted program seen again still runs, correctly."""

import numpy
import pytest

jax = pytest.importorskip("jax")

import lazyarr as np
from lazyarr import _backend

pytestmark = pytest.mark.skipif("xla" not in _backend.available(), reason="jax not installed")


@pytest.fixture(autouse=True)
def xla():
    pytest.importorskip("jax")
    with np.use_tier("compile"), np.use_eager(False), np.use_backend("xla"):
        yield


def _program(n: int):
    """A program of its own structure for each `n` (the length decides the shape)."""
    from lazyarr._flush import linearize
    from lazyarr._graph import topological_order
    x = np.asarray(numpy.arange(float(n)))
    y = np.exp(x * 2 + 1) - x
    return linearize(topological_order([y._node]), [y._node]), numpy.exp(
        numpy.arange(float(n)) * 2 + 1) - numpy.arange(float(n))


@pytest.mark.parametrize("disk", ["off", "on"])
def test_more_programs_than_the_bound(disk, monkeypatch, tmp_path):
    from lazyarr_xla import XlaBackend
    monkeypatch.setenv("LAZYARR_PROGRAM_CACHE_SIZE", "3")
    monkeypatch.setenv("LAZYARR_CACHE_DIR", "off" if disk == "off" else str(tmp_path))
    backend = XlaBackend("cpu")
    made = [_program(n) for n in range(2, 10)]
    for (program, inputs), expected in made:
        outputs, _, _ = backend.run(program, inputs)
        numpy.testing.assert_allclose(numpy.asarray(outputs[0]), expected, rtol=1e-12)
        assert len(backend._compiled) <= 3
    assert backend._compiled.evictions == len(made) - 3
    # seen again after eviction: found on disk, or compiled again; the same values
    (program, inputs), expected = made[0]
    outputs, events, _ = backend.run(program, inputs)
    numpy.testing.assert_allclose(numpy.asarray(outputs[0]), expected, rtol=1e-12)
    assert (events.disk_cache_hits, events.compiles) == ((0, 1) if disk == "off" else (1, 0))
    assert len(backend._compiled) == 3


def test_a_held_executable_comes_back_after_its_eviction(monkeypatch):
    """The tiers keep the `Compiled` they were given: evicted, it drops its executable
    (the memory goes) and fetches it again at its next run, counting that compile."""
    from lazyarr_xla import XlaBackend
    monkeypatch.setenv("LAZYARR_PROGRAM_CACHE_SIZE", "2")
    monkeypatch.setenv("LAZYARR_CACHE_DIR", "off")
    backend = XlaBackend("cpu")
    (program, inputs), expected = _program(3)
    held = backend.compile(program, backend.signature(program, inputs))
    for n in (4, 5):
        (other, other_inputs), _ = _program(n)
        backend.compile(other, backend.signature(other, other_inputs))
    assert held._executable is None and len(backend._compiled) == 2
    outputs, events, _ = held.run(inputs)
    numpy.testing.assert_allclose(numpy.asarray(outputs[0]), expected, rtol=1e-12)
    assert events.compiles == 1
    assert backend.lookup(program, held.signature).compiled is held
    assert held.run(inputs).events.compiles == 0


def test_through_lazyarr_and_the_tiers(monkeypatch):
    """Whole programs through the scheduler, forced to compile and under the auto tier
    (whose records hold executables): the cache stays within its bound, every result
    right, the first programs again after their eviction."""
    monkeypatch.setenv("LAZYARR_PROGRAM_CACHE_SIZE", "4")
    monkeypatch.setenv("LAZYARR_CACHE_DIR", "off")
    backend = _backend.load("xla")
    for tier in ("compile", "auto"):
        np.set_tier(tier)  # (the fixture restores the tier)
        for n in list(range(3, 13)) * 3:  # every program thrice: auto compiles the repeats
            x = np.arange(float(n))
            assert float((np.sin(x) * n).sum()) == pytest.approx(
                float((numpy.sin(numpy.arange(float(n))) * n).sum()), rel=1e-12, abs=1e-12)
            from lazyarr import _tiers
            _tiers.wait()
            assert len(backend._compiled) <= 4


def test_byte_bound_and_the_knob(monkeypatch):
    from lazyarr_xla.memory_cache import ProgramCache, limits
    monkeypatch.setenv("LAZYARR_PROGRAM_CACHE_SIZE", "10")
    monkeypatch.setenv("LAZYARR_PROGRAM_CACHE_BYTES", "250")
    dropped = []
    cache = ProgramCache(size_of=len, evicted=dropped.append)
    for k in range(5):
        assert cache.put(k, "x" * 100) == "x" * 100
    assert cache.keys() == [3, 4] and cache.nbytes() == 200 and dropped == ["x" * 100] * 3
    assert cache.get(3) is not None and cache.keys() == [4, 3]  # used: last out
    cache.put(5, "y" * 100)
    assert cache.keys() == [3, 5]
    cache.put(6, "z" * 1000)  # larger than the bound alone: kept, alone
    assert cache.keys() == [6]
    for bad in ("0", "-3", "many"):
        monkeypatch.setenv("LAZYARR_PROGRAM_CACHE_SIZE", bad)
        with pytest.raises(ValueError, match="LAZYARR_PROGRAM_CACHE_SIZE"):
            limits()


def test_jax_caches_are_cleared_once_per_cache_of_evictions(monkeypatch):
    """jax keeps state per traced function that dropping an executable does not free:
    a cache that has evicted as many programs as it keeps calls `churned` (the backend:
    jax.clear_caches), and a held executable survives it."""
    from lazyarr_xla import XlaBackend
    from lazyarr_xla.memory_cache import ProgramCache
    monkeypatch.setenv("LAZYARR_PROGRAM_CACHE_SIZE", "3")
    calls = []
    cache = ProgramCache(churned=lambda: calls.append(len(calls)))
    for k in range(3 + 7):
        cache.put(k, object())
    assert cache.evictions == 7 and len(calls) == 2  # after 3 and 6 evictions
    monkeypatch.setenv("LAZYARR_CACHE_DIR", "off")
    backend = XlaBackend("cpu")
    (program, inputs), expected = _program(3)
    kept = backend.compile(program, backend.signature(program, inputs))
    cleared = []
    monkeypatch.setattr(backend._compiled, "_churned", lambda: (jax.clear_caches(),
                                                                 cleared.append(1)))
    for n in range(4, 8):  # two evictions, kept's first
        (other, other_inputs), _ = _program(n)
        backend.compile(other, backend.signature(other, other_inputs))
    assert backend._compiled.evictions == 2 and not cleared
    for n in range(8, 10):
        (other, other_inputs), _ = _program(n)
        backend.compile(other, backend.signature(other, other_inputs))
    assert backend._compiled.evictions == 4 and cleared == [1]
    (last, last_inputs), last_expected = _program(9)
    outputs, events, _ = backend.run(last, last_inputs)  # cached: jax's clearing kept it
    numpy.testing.assert_allclose(numpy.asarray(outputs[0]), last_expected, rtol=1e-12)
    assert events.compiles == 0
