"""Asynchronous dispatch (DESIGN: "Flushes that are not host reads do not wait for the
device"): a size cut runs without waiting for the backend, only a flush that reads
waits, and a runtime check that fails in an asynchronous step (an index out of bounds,
a singular matrix) raises NumPy's error at the first read, naming the user's line, and
again at every read of what it computed."""

import numpy
import pytest

import lazyarr as la
from lazyarr import _backend, _cuts, _flush, _tiers, backend_api

# float32 throughout: a TPU runs float64 programs on the NumPy interpreter, on the host
# (its float64 is emulated), where nothing is asynchronous.
F32 = numpy.float32


@pytest.fixture
def compiled(backend, monkeypatch):
    """XLA with every program compiled (the backend that returns futures)."""
    if backend != "xla":
        pytest.skip("the numpy backend finishes every run before it returns")
    la.set_tier("compile")  # (which also turns eager execution off)
    monkeypatch.setattr(_cuts, "_last_cut", None)
    _flush.settle()
    yield
    _flush._in_flight.clear()


def _blocks(monkeypatch) -> list:
    """The `block` argument of every backend run, in order."""
    calls = []
    current = _backend.current()
    run = type(current).run

    def recorded(self, program, inputs, owned=frozenset(), *, block=True):
        calls.append(block)
        return run(self, program, inputs, owned, block=block)
    monkeypatch.setattr(type(current), "run", recorded)
    return calls


def _loop(x, steps=150):
    for _ in range(steps):  # past the depth bound: size cuts
        x = x * 0.5 + 1.0
    return x


def test_size_cuts_do_not_wait_and_a_read_does(compiled, monkeypatch):
    calls = _blocks(monkeypatch)
    x = _loop(la.arange(4.0, dtype=F32))
    assert calls and not any(calls)  # the cuts so far: none waited
    expected = _loop(numpy.arange(4.0, dtype=F32))
    numpy.testing.assert_allclose(numpy.asarray(x), expected)
    assert calls[-1] is True  # the read's flush waited


def _bad_gather(np, size):
    """A gather whose index goes out of bounds only at run time, then a chain long
    enough to be cut, so the gather runs in an asynchronous step."""
    x = np.arange(10.0, dtype=F32)
    index = np.asarray(numpy.array([1, 2, 3])) * np.asarray(numpy.array([1, 1, size]))
    y = x[index]  # the line the error must name
    return _loop(y)


def test_a_failed_check_raises_at_the_first_read_with_the_users_line(compiled):
    z = _bad_gather(la, 10)  # index 30: out of bounds
    assert _flush._in_flight, "the step with the check is still unread"
    with pytest.raises(IndexError, match="out of bounds for axis 0 with size 10") as info:
        float(z.sum())
    notes = "\n".join(getattr(info.value, "__notes__", ()))
    assert "normalize_index" in notes and "test_engine_async.py" in notes
    with pytest.raises(IndexError):  # again, at every read of what it computed
        numpy.asarray(z)
    with pytest.raises(IndexError):
        numpy.asarray(z + 1)
    numpy.testing.assert_array_equal(numpy.asarray(la.arange(3.0) + 1), [1.0, 2.0, 3.0])


def test_an_unrelated_read_raises_the_pending_error_once(compiled):
    z = _bad_gather(la, 10)
    other = la.arange(5.0) * 2
    with pytest.raises(IndexError):
        numpy.asarray(other)  # the first read after the failed step
    numpy.testing.assert_array_equal(numpy.asarray(other), numpy.arange(5.0) * 2)
    with pytest.raises(IndexError):
        numpy.asarray(z)


def test_a_step_without_a_failure_gives_numpys_values(compiled):
    z = _bad_gather(la, 2)  # index 6: in bounds
    numpy.testing.assert_allclose(numpy.asarray(z), _bad_gather(numpy, 2))


def test_a_singular_matrix_in_an_asynchronous_step_raises_linalg_error(compiled):
    """The step holding the inverse is a size cut: it does not wait, and the read
    raises NumPy's LinAlgError, naming the user's line. Where the device leaves float64
    to the host's NumPy interpreter (a TPU: NumPy inverts float32 in float64), that
    step runs there, synchronously, and the cut itself raises it, with the same line."""
    backend = _backend.current()
    unfaithful = getattr(backend, "unfaithful", lambda platform: ())
    on_host = (None, numpy.dtype(numpy.float64)) in unfaithful(_tiers.platform(backend))
    a = la.asarray(numpy.ones((3, 3), F32)) * 1.0
    inverse = la.linalg.inv(a)
    if on_host:
        with pytest.raises(numpy.linalg.LinAlgError) as info:
            _loop(inverse)
    else:
        z = _loop(inverse)  # (the cut does not wait: nothing raised here)
        with pytest.raises(numpy.linalg.LinAlgError) as info:
            numpy.asarray(z)
    assert "test_engine_async.py" in "\n".join(getattr(info.value, "__notes__", ()))


def test_unread_steps_are_bounded(compiled):
    x = la.asarray(numpy.arange(10.0, dtype=F32))
    index = la.asarray(numpy.array([0, 1])) * 1
    values = []
    for _ in range(20):
        values.append(_loop(x[index], 70))
        assert len(_flush._in_flight) <= _flush.MAX_IN_FLIGHT
    numpy.testing.assert_allclose(numpy.asarray(values[-1]),
                                  _loop(numpy.arange(2.0, dtype=F32), 70))


def test_the_xla_backend_returns_the_checks_unread_without_block(compiled):
    backend = _backend.current()
    assert backend_api.asynchronous(backend)
    i64 = numpy.dtype("int64")
    specs = (((3,), i64),)
    ins = (backend_api.Instruction(backend_api.op("normalize_index"), (0,),
                                   (("axis", 0), ("size", 3)), (3,), i64),)
    program = backend_api.Program(specs, ins, (1,), (specs, ins, (1,)))
    result = backend.run(program, [numpy.array([0, 5, 1])], block=False)
    assert callable(result.deferred)
    with pytest.raises(IndexError):
        result.deferred()
    with pytest.raises(IndexError):
        backend.run(program, [numpy.array([0, 5, 1])])
    assert backend.run(program, [numpy.array([0, 1, 2])], block=False).deferred is not None


def _fail_runs_once(monkeypatch, times: int = 1) -> list:
    """XLA's runs fail, after they return (as an allocation of XLA's CPU runtime
    fails): the next `times` waits for a run raise XLA's out-of-memory error."""
    import jax
    failures = [1] * times
    wait = jax.block_until_ready

    def failing(x):
        if failures and failures.pop():
            raise RuntimeError("RESOURCE_EXHAUSTED: Out of memory allocating 3200000000 bytes")
        return wait(x)
    monkeypatch.setattr(jax, "block_until_ready", failing)
    return failures


def test_the_wait_for_an_unblocked_run_raises_a_backend_failure(compiled, monkeypatch):
    """No size of program is waited for at once: any run without `block` returns its
    wait, which raises the run's failure as a BackendMemoryError."""
    backend = _backend.current()
    f64 = numpy.dtype("float64")
    specs = (((4,), f64),)
    ins = (backend_api.Instruction(backend_api.op("exp"), (0,), (), (4,), f64),)
    program = backend_api.Program(specs, ins, (1,), (specs, ins, (1,)))
    inputs = [numpy.arange(4.0)]
    backend.run(program, inputs)  # compiled now: the failure below is the run's
    _fail_runs_once(monkeypatch)
    result = backend.run(program, inputs, block=False)
    assert callable(result.deferred)
    with pytest.raises(backend_api.BackendMemoryError, match="Out of memory"):
        result.deferred()


def test_a_size_cut_donates_nothing(compiled, monkeypatch):
    owned = []
    current = _backend.current()
    run = type(current).run

    def recorded(self, program, inputs, owned_=frozenset(), *, block=True):
        owned.append((block, owned_))
        return run(self, program, inputs, owned_, block=block)
    monkeypatch.setattr(type(current), "run", recorded)
    x = _loop(la.asarray(numpy.arange(4.0, dtype=F32)) * 1.0)
    numpy.testing.assert_allclose(numpy.asarray(x), _loop(numpy.arange(4.0, dtype=F32)))
    assert all(not o for block, o in owned if not block) and any(not b for b, _ in owned)


def test_a_step_whose_run_fails_after_it_returned_leaves_every_array_usable(
        compiled, monkeypatch):
    """A size cut's run that fails once it ran (out of memory) raises BackendMemoryError
    at the next read; its inputs are whole (nothing donated) and its outputs pending
    again, so the arrays are computed again at the next read, with NumPy's values."""
    start = la.asarray(numpy.arange(4.0, dtype=F32)) * 1.0
    float(start.sum())
    x = _loop(start, 90)  # one size cut, unread
    assert _flush._in_flight
    failures = _fail_runs_once(monkeypatch)
    with pytest.raises(backend_api.BackendMemoryError, match="No array was changed"):
        numpy.asarray(x)
    assert not failures and not _flush._in_flight
    numpy.testing.assert_allclose(numpy.asarray(x), _loop(numpy.arange(4.0, dtype=F32), 90))
    numpy.testing.assert_array_equal(numpy.asarray(start), numpy.arange(4.0, dtype=F32))


def test_steps_computed_from_a_failed_step_are_pending_again_too(compiled, monkeypatch):
    """Later unread steps took the failed step's outputs (XLA's futures, failed too):
    all of them are pending again, and the read computes the whole chain anew."""
    def unread_loop():
        _flush.settle()
        monkeypatch.setattr(_cuts, "_last_cut", None)
        # several size cuts, unread
        x = _loop(la.asarray(numpy.arange(4.0, dtype=F32)) * 1.0, 400)
        return x, len(_flush._in_flight)

    x, unread = unread_loop()  # as it runs without a failure: the read's own flush
    before = la.stats()["nodes_evaluated"]
    numpy.asarray(x)
    alone = la.stats()["nodes_evaluated"] - before
    x, unread = unread_loop()
    assert unread >= 2
    _fail_runs_once(monkeypatch, unread)
    with pytest.raises(backend_api.BackendMemoryError):
        numpy.asarray(x)
    assert not _flush._in_flight
    before = la.stats()["nodes_evaluated"]
    numpy.testing.assert_allclose(numpy.asarray(x), _loop(numpy.arange(4.0, dtype=F32), 400))
    # the unread steps' operations again, besides the read's own
    # the unread steps' operations again (each cut past the depth bound), and the read's
    assert la.stats()["nodes_evaluated"] - before >= alone + unread * _cuts.MAX_PENDING_DEPTH


def test_reading_a_computed_array_does_not_wait_for_unread_steps(compiled):
    """lbm's `f[obstacle, :]` reads its computed mask every step: the unread steps stay
    unread (Python keeps running ahead of the device); a read of their output waits."""
    mask = la.asarray(numpy.arange(8) % 3 == 0)
    x = _loop(la.arange(8.0, dtype=F32))
    assert _flush._in_flight
    unread = len(_flush._in_flight)
    picked = la.arange(8.0)[mask]  # the mask is read for the result's shape
    assert len(_flush._in_flight) == unread
    done = _flush._in_flight[0][1]
    _flush.evaluate([next(iter(done))], "read")  # an unread step's output: waits
    assert not _flush._in_flight or _flush._in_flight[0][1] is not done
    numpy.testing.assert_array_equal(numpy.asarray(picked), numpy.arange(8.0)[::3])
    numpy.testing.assert_allclose(numpy.asarray(x), _loop(numpy.arange(8.0, dtype=F32)))
