"""Asynchronous dispatch (DESIGN: "Flushes that are not host reads do not wait for the
device"): a size cut runs without waiting for the backend, only a flush that reads
waits, and a runtime check that fails in an asynchronous step (an index out of bounds,
a singular matrix) raises NumPy's error at the first read, naming the user's line, and
again at every read of what it computed."""

import numpy
import pytest

import lazyarr as la
from lazyarr import _backend, _flush, backend_api


@pytest.fixture
def compiled(backend, monkeypatch):
    """XLA with every program compiled (the backend that returns futures)."""
    if backend != "xla":
        pytest.skip("the numpy backend finishes every run before it returns")
    la.set_tier("compile")  # (which also turns eager execution off)
    monkeypatch.setattr(_flush, "_last_cut", None)
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
    x = _loop(la.arange(4.0))
    assert calls and not any(calls)  # the cuts so far: none waited
    expected = _loop(numpy.arange(4.0))
    numpy.testing.assert_allclose(numpy.asarray(x), expected)
    assert calls[-1] is True  # the read's flush waited


def _bad_gather(np, size):
    """A gather whose index goes out of bounds only at run time, then a chain long
    enough to be cut, so the gather runs in an asynchronous step."""
    x = np.arange(10.0)
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
    a = la.asarray(numpy.ones((3, 3))) * 1.0
    inverse = la.linalg.inv(a)
    z = _loop(inverse)
    with pytest.raises(numpy.linalg.LinAlgError) as info:
        numpy.asarray(z)
    assert "test_engine_async.py" in "\n".join(getattr(info.value, "__notes__", ()))


def test_unread_steps_are_bounded(compiled):
    x = la.asarray(numpy.arange(10.0))
    index = la.asarray(numpy.array([0, 1])) * 1
    values = []
    for _ in range(20):
        values.append(_loop(x[index], 70))
        assert len(_flush._in_flight) <= _flush.MAX_IN_FLIGHT
    numpy.testing.assert_allclose(numpy.asarray(values[-1]), _loop(numpy.arange(2.0), 70))


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
