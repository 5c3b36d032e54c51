"""Tiered execution (lazyarr._tiers): the policy's decisions, what the auto tier runs
where on XLA's CPU backend, background compiles and their failures, the disk cache,
LAZYARR_TIER, and two threads flushing at once."""

import os
import subprocess
import sys
import textwrap
import threading
import types

import numpy
import pytest

import lazyarr as la
from lazyarr import _backend, _cuts, _flush, _settings, _tiers, backend_api
from lazyarr._graph import topological_order
from lazyarr._tiers import Policy, State

from threads import in_threads


def test_policy_compiles_what_repeats_or_runs_long():
    state = State(runs=1, interpreted_total=0.001)
    assert not Policy.start_compile(state, 0.001, 0.0)
    assert Policy.start_compile(state, _tiers.LONG_RUN_S, 0.5)
    state.runs = _tiers.HOT
    assert Policy.start_compile(state, 0.001, 0.0)
    assert Policy.may_submit(0) and not Policy.may_submit(1)  # one compile at a time
    for blocked in (State(runs=9, failed=True), State(runs=9, slower=True),
                    State(runs=9, compiled=object())):
        assert not Policy.start_compile(blocked, 1.0, 0.0)


def test_policy_compiles_only_once_the_interpreted_time_pays_for_it():
    """Gaussian elimination's 205-instruction cut programs ran in 0.7 ms interpreted
    and took 3-4 s to compile: repeating is not enough, the time spent must add up."""
    estimate = 3.0
    state = State(runs=50, interpreted_total=50 * 0.0007)
    assert not Policy.start_compile(state, 0.0007, estimate)
    state.interpreted_total = 3.1
    assert Policy.start_compile(state, 0.0007, estimate)
    # One long run: at once only past both LONG_RUN_S and the estimate.
    assert not Policy.start_compile(State(runs=1, interpreted_total=2.0), 2.0, estimate)
    assert Policy.start_compile(State(runs=1, interpreted_total=4.0), 4.0, estimate)


def test_what_is_unfaithful_follows_the_backends_platform(monkeypatch):
    """`unfaithful` asks the backend once per platform: a backend the tests made a GPU
    and then gave back its TPU ran float64 programs on the TPU (whose linalg has no
    float64 there), its GPU answer (nothing) remembered."""
    class Fake:
        device = "gpu:0"

        @staticmethod
        def unfaithful(platform):
            return {(None, numpy.dtype("float64"))} if platform == "tpu" else set()
    monkeypatch.setattr(_tiers, "_UNFAITHFUL", {})
    fake = Fake()
    program = types.SimpleNamespace(input_specs=(((3,), numpy.dtype("float64")),),
                                    instructions=())
    assert not _tiers.unfaithful(fake, program)
    fake.device = "tpu:0"
    assert _tiers.unfaithful(fake, program)


def test_the_compile_estimate_learns_from_the_compiles_made(monkeypatch):
    # (100 operations: the estimate counts them, not the constants before them)
    program = types.SimpleNamespace(instructions=(None,) * 103, operations=lambda: 100)
    monkeypatch.setattr(_tiers, "_measured", [0, 0.0])
    prior = _tiers.compile_estimate(program)
    assert prior == pytest.approx(_tiers.COMPILE_BASE_S + 100 * _tiers.COMPILE_PER_INSTRUCTION_S)
    monkeypatch.setattr(_tiers, "_measured", [2, 0.02 + 0.04])  # 20 and 40 ms/instruction
    assert _tiers.compile_estimate(program) == pytest.approx(_tiers.COMPILE_BASE_S + 3.0)


def test_the_rate_learned_leaves_out_the_fixed_cost_of_a_compile(monkeypatch):
    """A 13-instruction program compiled in 0.19 s is 0.1 s of fixed cost, not 14 ms an
    instruction."""
    from collections import Counter
    from concurrent.futures import Future
    from lazyarr.backend_api import Events
    monkeypatch.setattr(_tiers, "_measured", [0, 0.0])
    compiled = types.SimpleNamespace(events=Events(compiles=1, compile_seconds=(
        _tiers.COMPILE_BASE_S + 0.5)))
    future = Future()
    future.set_result(compiled)
    future.site, future.instructions = "here", 100
    state = State(future=future)
    _tiers._adopt(state, types.SimpleNamespace(backend_events=Counter()))
    assert state.compiled is compiled
    assert _tiers._measured == [1, pytest.approx(0.005)]


def test_policy_probes_the_interpreter_for_programs_compiled_from_the_start():
    """A disk-cache hit runs compiled at once: after its first timed run the interpreter
    runs it once; a compiled program far slower than that goes back at once, one
    slower goes back after its `TRIALS` timed runs."""
    far, slow, fast = State(compiled=object()), State(compiled=object()), State(compiled=object())
    assert not Policy.probe(far)  # nothing timed yet
    Policy.after_compiled_run(far, 0.5)  # (no interpreter time: never "slower" here)
    Policy.after_compiled_run(slow, 0.003)
    Policy.after_compiled_run(fast, 0.001)
    assert Policy.probe(far) and Policy.probe(slow) and Policy.probe(fast)
    for state in (far, slow, fast):
        Policy.after_probe(state, 0.002)
    assert not Policy.probe(far) and not Policy.probe(slow)  # once
    assert not Policy.use_compiled(far)
    for _ in range(_tiers.TRIALS - 1):
        assert Policy.use_compiled(slow) and Policy.use_compiled(fast)
        Policy.after_compiled_run(slow, 0.003)
        Policy.after_compiled_run(fast, 0.001)
    assert not Policy.use_compiled(slow) and Policy.use_compiled(fast)
    late = State(compiled=object(), compiled_times=[0.05] * _tiers.TRIALS)
    assert Policy.probe(late)  # a note's timed runs without an interpreted time
    Policy.after_probe(late, 0.002)
    assert not Policy.use_compiled(late)
    interpreted_first = State(compiled=object(), interpreted_best=0.01,
                              compiled_times=[0.1] * _tiers.TRIALS)
    assert not Policy.probe(interpreted_first)  # it has the interpreter's time already


def test_policy_goes_back_to_the_interpreter_where_compiled_is_slower():
    fast, slow = State(interpreted_best=1.0, compiled=object()), State(interpreted_best=1.0,
                                                                       compiled=object())
    for _ in range(_tiers.TRIALS):
        assert Policy.use_compiled(fast) and Policy.use_compiled(slow)
        Policy.after_compiled_run(fast, 0.5)
        Policy.after_compiled_run(slow, 2.0)
    assert Policy.use_compiled(fast) and not Policy.use_compiled(slow)


def test_compiled_runs_are_not_timed_while_a_compile_takes_a_core():
    state = State(interpreted_best=1.0, compiled=object())
    assert Policy.timing(state) and not Policy.timing(state, compiling=True)
    for _ in range(_tiers.TRIALS):
        Policy.after_compiled_run(state, 0.5)
    assert not Policy.timing(state)


def test_timed_runs_wait_for_their_inputs_first(auto, monkeypatch):
    """The time of a run the policy compares starts once its inputs are computed: an
    earlier asynchronous run still computing them is not counted as this one's."""
    monkeypatch.setattr(_tiers, "FAR_SLOWER", float("inf"))  # all its trials are timed
    backend = _backend.current()
    waited = []
    monkeypatch.setattr(backend, "wait", lambda inputs: waited.append(len(inputs)),
                        raising=False)
    x = la.asarray(numpy.arange(31.0))  # a shape no other test compiled in this process
    for k in range(3):
        float((x * k).sum())
    _tiers.wait()
    for k in range(3, 3 + _tiers.TRIALS):
        float((x * k).sum())
    stats = la.stats()
    assert len(waited) == stats["interpreted_runs"] + _tiers.TRIALS
    assert stats["compiled_runs"] == _tiers.TRIALS


def test_a_note_from_an_earlier_process_decides_where_a_cached_program_starts():
    measured = State(interpreted_best=0.3, compiled=object())
    for seconds in (0.7, 0.6, 0.65):
        Policy.after_compiled_run(measured, seconds)
    note = Policy.note(measured)
    assert note == {"interpreted": 0.3, "compiled": [0.7, 0.6, 0.65], "slower": True}
    later = State(compiled=object())
    Policy.from_note(later, note)
    assert not Policy.use_compiled(later) and not Policy.probe(later)
    # Only the interpreted best (noted when the compile was started): the compiled
    # runs are timed and compared with it, without a probe.
    started = State(compiled=object())
    Policy.from_note(started, Policy.note(State(interpreted_best=0.3)))
    assert Policy.use_compiled(started) and Policy.timing(started)
    for seconds in (0.1, 0.1, 0.1):
        Policy.after_compiled_run(started, seconds)
    assert Policy.use_compiled(started) and not Policy.probe(started)
    for junk in (None, [], {"interpreted": "fast", "compiled": {}, "slower": 1}):
        fresh = State(compiled=object())
        Policy.from_note(fresh, junk)
        assert fresh == State(compiled=fresh.compiled)


def test_the_tier_switch_is_checked(monkeypatch):
    with pytest.raises(ValueError, match="tier must be one of interpret, compile, auto, "
                                         "opbyop, not 'fastest'"):
        la.set_tier("fastest")
    for value in _tiers.TIERS:
        la.set_tier(value.upper())
        assert _tiers.tier() == value
    with la.use_tier("interpret"):
        assert _tiers.tier() == "interpret"
    assert _tiers.tier() == "opbyop"  # restored
    monkeypatch.setitem(_settings._state, "tier", "fastest")  # LAZYARR_TIER at import
    with pytest.raises(ValueError, match="LAZYARR_TIER"):
        _tiers.tier()  # at the flush that reads it, not at import


def test_the_switches_are_read_from_the_environment_at_import(tmp_path):
    script = ("import lazyarr, numpy; from lazyarr import _settings, _tiers; "
              "print(_tiers.tier(), _settings.eager(), "
              "(lazyarr.asarray(numpy.ones(3)) + 1)._node.is_computed)")
    for env, expected in [({"LAZYARR_TIER": " Interpret "}, "interpret True True"),
                          ({"LAZYARR_EAGER": "off"}, "auto False False"),
                          ({"LAZYARR_TIER": "compile", "LAZYARR_EAGER": "1"},
                           "compile True False")]:
        full = {k: v for k, v in os.environ.items() if not k.startswith("LAZYARR_")}
        full.update(env, LAZYARR_BACKEND="numpy", LAZYARR_CACHE_DIR=str(tmp_path))
        out = subprocess.run([sys.executable, "-c", script], env=full, capture_output=True,
                             text=True, timeout=300)
        assert out.stdout.split() == expected.split(), out.stderr


@pytest.fixture
def auto(backend, monkeypatch):
    """The auto tier on XLA's CPU device, from a clean slate."""
    if backend != "xla" or not _tiers.interprets_first(_backend.current()):
        pytest.skip("tiers apply to a compiling backend on the CPU")
    la.set_tier("auto")
    monkeypatch.setenv("LAZYARR_CACHE_DIR", "off")
    la.set_eager(False)  # these small programs are the tiers' to run
    # These programs take microseconds: only a free compile pays (the estimate's own
    # tests are above).
    monkeypatch.setattr(_tiers, "compile_estimate", lambda program: 0.0)
    _tiers.reset()
    la.reset_stats()
    yield
    _tiers.reset()


def _step(x, k):
    return float((la.tanh(x * k) + x).sum())


def test_a_repeating_program_is_interpreted_then_compiled(auto, monkeypatch):
    monkeypatch.setattr(_tiers, "SLOWER", float("inf"))  # keep it compiled (see below)
    monkeypatch.setattr(_tiers, "FAR_SLOWER", float("inf"))
    host = numpy.linspace(0.1, 1.0, 500)
    x = la.asarray(host)
    expected = [float((numpy.tanh(host * k) + host).sum()) for k in range(12)]
    got = [_step(x, k) for k in range(3)]
    _tiers.wait()  # the compile started on the second run is ready
    got += [_step(x, k) for k in range(3, 12)]
    numpy.testing.assert_allclose(got, expected, rtol=1e-12)
    stats = la.stats()
    assert stats["interpreted_runs"] >= 2 and stats["background_compiles"] == 1
    assert stats["compiles"] == 1 and stats["compiled_runs"] >= 8


def test_no_compile_where_copying_the_host_inputs_costs_more_than_interpreting():
    """monte_carlo_pi: 960 MB of host points, a sum interpreted faster than XLA can
    take them in."""
    state = State(runs=9, interpreted_total=9.0, interpreted_best=0.2, interpreted_clean=0.2)
    rate = _tiers.HOST_COPY_BYTES_PER_S
    assert Policy.copy_pays(state, 0) and Policy.copy_pays(state, int(0.1 * rate))
    assert not Policy.copy_pays(state, int(0.3 * rate))
    assert Policy.copy_pays(State(runs=9), 0)  # no host inputs: nothing to wait for
    assert not Policy.copy_pays(State(runs=9), int(0.3 * rate))  # nothing timed yet


def test_the_copy_is_compared_with_interpreted_runs_nothing_competed_with():
    """monte_carlo_pi in the benchmark runner: its interpreted runs timed while jax
    imported beside it (0.22-0.37 s) looked slower than the copy into XLA; the copy is
    compared with the runs timed alone, and waits for one."""
    rate = _tiers.HOST_COPY_BYTES_PER_S
    state = State(runs=3)
    Policy.interpreted(state, 0.4, contended=True)
    assert state.interpreted_best == 0.4 and state.interpreted_total == 0.4
    assert not Policy.copy_pays(state, int(0.3 * rate))  # 0.3 s < 0.4 s, but contended
    Policy.interpreted(state, 0.2, contended=False)
    assert state.interpreted_clean == 0.2 and state.interpreted_total == pytest.approx(0.6)
    assert not Policy.copy_pays(state, int(0.3 * rate))
    assert Policy.copy_pays(state, int(0.1 * rate))
    Policy.interpreted(state, 0.05, contended=True)  # a faster contended run bounds it too
    assert state.interpreted_best == 0.05 and state.interpreted_clean == 0.2
    assert not Policy.copy_pays(state, int(0.1 * rate))


def test_interpreted_runs_made_before_the_backend_loaded_carry_their_timings(auto):
    """The runs made on the interpreter while the compiling backend was not loaded (or
    loading) count in the structure's state once it is: their number, seconds, best
    and best uncontended."""
    x = la.asarray(numpy.linspace(0.0, 1.0, 300))
    y = la.cos(x) * 3.5 - x
    program, _ = _flush.linearize(topological_order([y._node]), [y._node])
    _tiers._unloaded_runs[program.key] = State(runs=2, interpreted_total=0.5,
                                                 interpreted_best=0.2, interpreted_clean=0.3)
    numpy.testing.assert_allclose(numpy.asarray(y), numpy.cos(numpy.linspace(0, 1, 300)) * 3.5
                                  - numpy.linspace(0, 1, 300), rtol=1e-15)
    states = [st for (key, _), st in _tiers._states.items() if key == program.key]
    assert len(states) == 1
    state = states[0]
    assert state.runs == 3 and state.interpreted_total > 0.5
    assert state.interpreted_best <= 0.2 and state.interpreted_clean <= 0.3


def _nothing_loaded_yet(monkeypatch):
    """The policy's state before the backend loads, from scratch: no runs, no surplus."""
    monkeypatch.setattr(_tiers, "_unloaded_runs", {})
    monkeypatch.setattr(_tiers, "_surplus", [0.0])


def test_no_backend_load_for_a_program_whose_host_inputs_cost_more_to_copy(monkeypatch):
    """A program reading a host array the user holds (monte_carlo_pi's 960 MB of
    points) copies it into XLA every compiled run, so where that copy costs more than
    an interpreted run it is never compiled (`Policy.copy_pays`), and its runs, which
    would pay for loading jax and compiling, start no load either. With the copy free,
    or the host inputs lazyarr's alone (`owned`: a loop's carried state becomes the
    compiled program's own output), the same runs do start it."""
    monkeypatch.setattr(_tiers, "compile_estimate", lambda program: 0.0)
    monkeypatch.setattr(_tiers, "load_seconds", lambda: 0.0)
    x = la.asarray(numpy.linspace(0.0, 1.0, 300))
    y = la.cos(x) * 2.5 - x
    program, inputs = _flush.linearize(topological_order([y._node]), [y._node])
    assert any(type(v) is numpy.ndarray for v in inputs)
    hosts = frozenset(i for i, v in enumerate(inputs) if type(v) is numpy.ndarray)
    for rate, owned, loads in ((1.0, frozenset(), False), (1e30, frozenset(), True),
                               (1.0, hosts, True)):
        monkeypatch.setattr(_tiers, "HOST_COPY_BYTES_PER_S", rate)
        _nothing_loaded_yet(monkeypatch)
        likely = []
        for _ in range(4):
            likely.append(_tiers._compile_likely(program))
            _tiers.interpreted_before_load(program, 0.01, False, inputs, owned)
        assert likely == [False, False, loads, loads]  # (HOT runs first)


def test_repeating_programs_pay_for_the_backend_load_together(monkeypatch):
    """black_scholes makes nine programs a call; none of them paid alone for loading
    jax and compiling it within 8 calls, so none was ever compiled. The load is paid
    once for every program that would be compiled: it starts once their runs past
    their compiles' estimates add up to it. One program at 0.2 s a run (compile 0.1 s,
    load 1 s) pays after 6 runs; two such programs after 3 runs each."""
    monkeypatch.setattr(_tiers, "compile_estimate", lambda program: 0.1)
    monkeypatch.setattr(_tiers, "load_seconds", lambda: 1.0)
    monkeypatch.setattr(_tiers, "HOST_COPY_BYTES_PER_S", 1e30)
    la.set_eager(False)  # (two programs, as recorded)
    x = la.asarray(numpy.linspace(0.0, 1.0, 300))
    built = [la.cos(x) * 2.5 - x, la.sin(x) + x * 0.5]
    programs = [_flush.linearize(topological_order([y._node]), [y._node]) for y in built]
    assert programs[0][0].key != programs[1][0].key
    for count, first_likely in ((1, 6), (2, 3)):
        _nothing_loaded_yet(monkeypatch)
        likely = []
        for _ in range(8):
            likely.append([_tiers._compile_likely(p) for p, _ in programs[:count]])
            for program, inputs in programs[:count]:
                _tiers.interpreted_before_load(program, 0.2, False, inputs)
        assert [any(calls) for calls in likely].index(True) == first_likely, likely


def test_one_long_run_of_a_new_structure_buys_no_backend_load(monkeypatch):
    """nbody's size cuts are two structures of 1.2-2 s each: a first one stretched past
    the estimate by a busy machine used to start loading jax, whose import then held
    the GIL beside the next one for nothing (3.9-4.7 s against 2.5-3.0 s a process).
    Neither that run nor another structure's flush after it starts the load; the same
    structure's second run does."""
    monkeypatch.setattr(_tiers, "compile_estimate", lambda program: 0.1)
    monkeypatch.setattr(_tiers, "load_seconds", lambda: 1.0)
    monkeypatch.setattr(_tiers, "HOST_COPY_BYTES_PER_S", 1e30)
    _nothing_loaded_yet(monkeypatch)
    la.set_eager(False)
    x = la.asarray(numpy.linspace(0.0, 1.0, 300))
    built = [la.cos(x) * 2.5 - x, la.sin(x) + x * 0.5]
    (long, inputs), (other, _) = [
        _flush.linearize(topological_order([y._node]), [y._node]) for y in built]
    likely = []
    for program in (long, other, long, long):
        likely.append(_tiers._compile_likely(program))
        if program is long:
            _tiers.interpreted_before_load(long, 5.0, False, inputs)
    assert likely == [False, False, False, True]


def test_the_surplus_is_forgotten_with_the_structures(monkeypatch):
    """Past MAX_STATES structures the unloaded runs are forgotten all at once, and the
    surplus they had paid with them: a structure seen again starts from nothing and
    would otherwise count its runs twice."""
    monkeypatch.setattr(_tiers, "compile_estimate", lambda program: 0.1)
    monkeypatch.setattr(_tiers, "HOST_COPY_BYTES_PER_S", 1e30)
    monkeypatch.setattr(_tiers, "MAX_STATES", 2)
    _nothing_loaded_yet(monkeypatch)
    la.set_eager(False)
    x = la.asarray(numpy.linspace(0.0, 1.0, 300))
    built = [la.cos(x) * 2.5 - x, la.sin(x) + x * 0.5, la.tanh(x) - 1.0]
    programs = [_flush.linearize(topological_order([y._node]), [y._node]) for y in built]
    for program, inputs in programs[:2]:
        for _ in range(3):
            _tiers._compile_likely(program)
            _tiers.interpreted_before_load(program, 0.2, False, inputs)
    assert _tiers._surplus[0] == pytest.approx(2 * (0.6 - 0.1))
    _tiers._compile_likely(programs[2][0])  # a third structure: all forgotten
    assert list(_tiers._unloaded_runs) == [programs[2][0].key]
    assert _tiers._surplus[0] == 0.0


def test_a_program_whose_host_inputs_cost_more_to_copy_stays_interpreted(auto, monkeypatch):
    """The rule above in a run: a repeating program whose host input is copied at one
    byte a second is never compiled; its results are NumPy's. (A structure of its own:
    one compiled by another test would be found in the backend's memory.)"""
    monkeypatch.setattr(_tiers, "HOST_COPY_BYTES_PER_S", 1.0)
    host = numpy.linspace(0.1, 1.0, 500)
    x = la.asarray(host)
    got = [float((la.sin(x * k) - x).max()) for k in range(6)]
    _tiers.wait()
    got += [float((la.sin(x * k) - x).max()) for k in range(6, 9)]
    expected = [float((numpy.sin(host * k) - host).max()) for k in range(9)]
    numpy.testing.assert_allclose(got, expected, rtol=1e-12)
    stats = la.stats()
    assert stats["background_compiles"] == 0 and stats["compiled_runs"] == 0
    assert stats["interpreted_runs"] == 9


def test_a_loop_carrying_host_state_only_lazyarr_holds_is_compiled(auto, monkeypatch):
    """jacobi's grid, interpreted, is a host buffer only lazyarr holds, written in place
    each step: compiled, it is the program's own output after the first run, so the
    copy into XLA is paid once and does not keep the loop interpreted (it did: jacobi
    ran 2.6 times slower interpreted than compiled). NumPy's results."""
    # Copying the 800 KB grid would take 80 ms, far past a run (a host scalar's 8
    # bytes, 1 us: less than one)
    monkeypatch.setattr(_tiers, "HOST_COPY_BYTES_PER_S", 1e7)
    monkeypatch.setattr(_tiers, "SLOWER", float("inf"))  # (which programs run, not speed)
    monkeypatch.setattr(_tiers, "FAR_SLOWER", float("inf"))
    host = numpy.linspace(0.1, 1.0, 100_000)
    x, expected = la.asarray(host).copy(), host.copy()
    for k in range(12):
        x = 0.5 * x + la.sin(x)
        expected = 0.5 * expected + numpy.sin(expected)
        la.eval(x)
        if k == 5:
            _tiers.wait()
    numpy.testing.assert_allclose(numpy.asarray(x), expected, rtol=1e-12)
    stats = la.stats()
    assert stats["background_compiles"] == 1 and stats["compiled_runs"] >= 5, stats


def test_a_loop_is_one_program_whether_its_buffer_is_on_the_host_or_in_xla(auto, monkeypatch):
    """lbm's planes `f[:, :, i]` of a buffer past the eager bound, under "auto": the
    steps interpreted while the buffer is on the host, the first compiled run (its
    input still the host buffer) and the next ones (their input the buffer that run
    left in XLA's) are one program, compiled once. (With the host views of the buffer
    as the first runs' inputs, the compiled program ran once and the next steps were
    another program, to be compiled again.)"""
    la.set_eager(True)  # (the views are made as a script's are)
    # Compiled runs stay compiled: on a loaded machine their timed trials could find them
    # slower and send them back (2 of 8 runs at 9b953fb, 3 of 8 at c8f7f5d failed so, with
    # four busy-looping processes beside; this test is about which programs run)
    monkeypatch.setattr(_tiers, "SLOWER", float("inf"))
    monkeypatch.setattr(_tiers, "FAR_SLOWER", float("inf"))
    # and are compiled whatever copying the host buffer is estimated to cost: on a fast
    # machine the step interpreted in less than copying 2.9 MB (1.3 ms) is estimated to
    # take, and it was never compiled
    monkeypatch.setattr(_tiers, "HOST_COPY_BYTES_PER_S", float("inf"))
    keys = []
    real = _tiers.run
    monkeypatch.setattr(_tiers, "run", lambda backend, program, *args, **kwargs: (
        keys.append(program.key), real(backend, program, *args, **kwargs))[1])
    host = numpy.random.default_rng(0).random((200, 200, 9))
    assert host[:, :, 0].size > la._eager.MAX_ELEMENTS  # (smaller ones are computed at once)
    f, expected = la.asarray(host).copy(), host.copy()  # (as lbm copies its input)
    steps = []  # each step's programs (a size cut may split a step)
    for k in range(6):
        start = len(keys)
        for np_, a in ((la, f), (numpy, expected)):
            for i in range(9):
                a[:, :, i] = np_.roll(a[:, :, i], 1 + i % 2, axis=i % 2)
        la.eval(f)
        steps.append(tuple(keys[start:]))
        if k == 2:
            _tiers.wait()  # (the background compile the runs so far started)
    numpy.testing.assert_array_equal(numpy.asarray(f), expected)
    stats = la.stats()
    # (step 0 also computes the copy)
    assert steps[1:] == [steps[1]] * 5 and len(steps[1]) == 1, steps
    assert stats["compiles"] == 1 and stats["compiled_runs"] == 3, stats


def test_programs_seen_once_are_never_compiled(auto, monkeypatch):
    """Gaussian elimination's shrinking slices: a new shape every step."""
    monkeypatch.setattr(_tiers, "LONG_RUN_S", float("inf"))  # a slow machine's pause
    host = numpy.random.default_rng(0).random((30, 30)) + 30 * numpy.eye(30)
    a, b = la.asarray(host), host.copy()
    for c in range(1, 30):
        a[c:, c - 1:] = a[c:, c - 1:] - (a[c:, c - 1] / a[c - 1, c - 1])[:, None] * a[c - 1, c - 1:]
        b[c:, c - 1:] = b[c:, c - 1:] - (b[c:, c - 1] / b[c - 1, c - 1])[:, None] * b[c - 1, c - 1:]
        float(a[c, c])  # one flush per step
    numpy.testing.assert_array_equal(numpy.asarray(a), b)
    _tiers.wait()
    assert la.stats()["compiles"] == 0 and la.stats()["interpreted_runs"] >= 29


def test_a_failed_background_compile_stays_interpreted_and_is_reported_once(auto, monkeypatch):
    backend = _backend.current()

    def broken(program, signature):
        raise RuntimeError("the compiler exploded")
    monkeypatch.setattr(backend, "compile", broken)
    host = numpy.linspace(0.0, 1.0, 100)
    x = la.asarray(host)
    line = sys._getframe().f_lineno + 2
    for k in range(6):
        value = float((x * k).sum())
        _tiers.wait()
        assert value == float((host * k).sum())
    stats = la.stats()
    assert stats["compile_failures"] == 1 and stats["background_compiles"] == 1
    assert len(stats["tier_failures"]) == 1
    failure = stats["tier_failures"][0]
    assert f"{__file__}:{line}" in failure and "the compiler exploded" in failure


def test_compiled_programs_slower_than_the_interpreter_go_back(auto, monkeypatch):
    monkeypatch.setattr(_tiers, "SLOWER", 0.0)  # every compiled run counts as slower
    monkeypatch.setattr(_tiers, "FAR_SLOWER", float("inf"))  # after the trials (far: below)
    x = la.asarray(numpy.arange(57.0))  # a shape no other test compiled in this process
    for k in range(3):
        float((x + k).sum())
    _tiers.wait()
    for k in range(3, 12):
        value = float((x + k).sum())  # (not inside assert: pytest keeps its temporaries)
        assert value == float((numpy.arange(57.0) + k).sum())
    stats = la.stats()
    assert stats["tier_returns_to_interpreter"] == 1
    assert stats["compiled_runs"] == _tiers.TRIALS and stats["interpreted_runs"] >= 5


def test_a_disk_cache_hit_runs_compiled_at_once(backend, tmp_path):
    if backend != "xla":
        pytest.skip("the disk cache is the XLA backend's")
    script = textwrap.dedent("""
        import numpy, lazyarr
        from lazyarr import _tiers
        lazyarr.set_backend("xla")  # loaded now: no flush runs while it loads
        _tiers.compile_estimate = lambda program: 0.0  # microsecond runs
        x = lazyarr.asarray(numpy.linspace(0.0, 1.0, 100))
        for k in range(3):
            float((lazyarr.cos(x) * 2.5).sum())  # (one program: its scalar never changes)
        _tiers.wait()
        s = lazyarr.stats()
        print(s["interpreted_runs"], s["compiled_runs"], s["disk_cache_hits"])
    """)
    # (the CPU's tiers; and where this process holds an accelerator, its child cannot)
    env = {**os.environ, "LAZYARR_BACKEND": "xla", "LAZYARR_TIER": "auto",
           "LAZYARR_CACHE_DIR": str(tmp_path), "LAZYARR_EAGER": "0", "JAX_PLATFORMS": "cpu"}

    def run():
        done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                              env=env, timeout=300)
        assert done.returncode == 0, done.stderr
        return [int(v) for v in done.stdout.split()]
    first, second = run(), run()
    assert first[0] >= 2 and first[2] == 0
    assert second == [0, 3, 1]


def test_a_cached_program_found_slower_compiled_starts_interpreted_next_time(backend,
                                                                           tmp_path):
    """The first process interprets and compiles; the second finds the executable on
    disk with the first's interpreted time, runs it compiled for its trials and finds
    it slower (SLOWER=0 here); the third interprets from the first run."""
    if backend != "xla":
        pytest.skip("the disk cache is the XLA backend's")
    script = textwrap.dedent("""
        import sys, numpy, lazyarr
        from lazyarr import _tiers
        lazyarr.set_backend("xla")  # loaded now: no flush runs while it loads
        _tiers.compile_estimate = lambda program: 0.0  # microsecond runs
        _tiers.SLOWER = float(sys.argv[1])
        _tiers.FAR_SLOWER = float("inf")  # the trials decide (the far rule: see below)
        host = numpy.linspace(0.0, 1.0, 100)
        x = lazyarr.asarray(host)
        for k in range(int(sys.argv[2])):  # (one program: its scalar never changes)
            got = float((lazyarr.sin(x) * 2.5).sum())
            expected = float((numpy.sin(host) * 2.5).sum())
            assert abs(got - expected) <= 1e-12 * abs(expected)  # (XLA's sin: last bits)
        _tiers.wait()
        s = lazyarr.stats()
        print(s["interpreted_runs"], s["compiled_runs"], s["disk_cache_hits"])
    """)
    # (the CPU's tiers; and where this process holds an accelerator, its child cannot)
    env = {**os.environ, "LAZYARR_BACKEND": "xla", "LAZYARR_TIER": "auto",
           "LAZYARR_CACHE_DIR": str(tmp_path), "LAZYARR_EAGER": "0", "JAX_PLATFORMS": "cpu"}

    def run(slower, runs):
        done = subprocess.run([sys.executable, "-c", script, str(slower), str(runs)],
                              capture_output=True, text=True, env=env, timeout=300)
        assert done.returncode == 0, done.stderr
        return [int(v) for v in done.stdout.split()]
    first = run(1.25, 2)  # compiled in the background at its second run, never run
    assert first[1] == 0 and first[2] == 0
    assert run(0.0, 5) == [2, _tiers.TRIALS, 1]  # no probe: the first's time is noted
    assert run(1.25, 3) == [3, 0, 1]


@pytest.mark.parametrize("tier", ["interpret", "compile"])
def test_two_threads_flushing_at_once_get_single_threaded_results(backend, monkeypatch, tier):
    # A forced tier: under "auto", which tier runs a program depends on when its
    # compile finishes, and the tiers may differ in the last bits (docs/semantics.md).
    la.set_tier(tier)
    rng = numpy.random.default_rng(0)
    hosts = [rng.normal(size=(40, 40)) for _ in range(2)]

    def work(host):
        x, results = la.asarray(host), []
        for i in range(40):
            # (no matmul: BLAS may sum in another order when two threads call it)
            x = 0.9 * x + 0.1 * la.tanh(x * x.T).sum(axis=0) / 40.0
            results.append(float(x[i % 40].sum()))
            results.append(x[i % 40:i % 40 + 3].mean())
        return [float(r) for r in results], numpy.asarray(x)

    def alone(host):  # from no cut point, as each new thread starts
        monkeypatch.setattr(_cuts, "_last_cut", None)
        return work(host)
    expected = [alone(h) for h in hosts]

    def thread(k):
        with la.use_backend(backend):  # a selection made by `with` is per thread
            return work(hosts[k])
    got = in_threads(thread, 2)
    for k in range(2):
        assert got[k][0] == expected[k][0]
        numpy.testing.assert_array_equal(got[k][1], expected[k][1])


@pytest.mark.parametrize("where", ["here", "accelerator"])
def test_the_first_flushes_do_not_wait_for_the_backend_to_load(backend, where):
    """Under "auto", with the XLA backend selected but not loaded, a fresh process's
    first flush runs on the interpreter, and the process exits cleanly even if the
    backend is still loading; also where an accelerator is installed (made to seem so
    here), whose load (importing jax and starting the device) is estimated to cost
    `ACCELERATOR_LOAD_S`. A likely compile starts the load (next test)."""
    if backend != "xla":
        pytest.skip("the XLA backend is the one that takes long to load")
    script = textwrap.dedent(f"""
        import sys, numpy, lazyarr
        from lazyarr import _backend, _tiers
        if {where == "accelerator"}:
            _backend.default_is_cpu = lambda: False
        x = lazyarr.asarray(numpy.arange(10.0))
        assert float((x * 2).sum()) == 90.0
        print(_tiers.DEFERRED_FLUSHES, lazyarr.stats()["interpreted_runs"],
              _tiers.load_seconds())
    """)
    env = {**os.environ, "LAZYARR_TIER": "auto", "LAZYARR_CACHE_DIR": "off",
           "LAZYARR_EAGER": "0"}  # (eager execution would need no flush at all)
    env.pop("LAZYARR_BACKEND", None)
    env.pop("JAX_PLATFORMS", None)
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                          env=env, timeout=300)
    assert done.returncode == 0, done.stderr
    assert "Fatal" not in done.stderr
    # (and stats() counts that run as interpreted)
    load = _tiers.ACCELERATOR_LOAD_S if where == "accelerator" or not _tiers._cpu_only({}) \
        else _tiers.LOAD_S
    assert done.stdout.split() == ["1", "1", str(load)], done.stdout


@pytest.mark.parametrize("where", ["cpu", "accelerator"])
def test_the_interpreter_tier_loads_the_backend_only_where_it_compiles(backend, where):
    """LAZYARR_TIER=interpret with the default backend (XLA) selected: on the CPU every
    program runs on the interpreter, so no flush imports jax (each waited for it: 2 s
    here) until a flush under "compile" needs it; where an accelerator is installed
    (made to seem so, with jax kept on the CPU: this process may hold the real one) the
    interpret tier compiles, so its first flush loads the backend."""
    if backend != "xla":  # (and where the XLA backend is not installed, nothing loads)
        pytest.skip("its subprocess selects the default backend (XLA) itself: under this "
                    "backend parameter the same script would run again")
    script = textwrap.dedent(f"""
        import sys, numpy, lazyarr
        from lazyarr import _backend
        _backend.default_is_cpu = lambda: {where == "cpu"}
        x = lazyarr.asarray(numpy.arange(10.0))
        for k in range(30):
            assert float((x * k).sum()) == 45.0 * k
        interpreted = "jax" in sys.modules, lazyarr.stats()["interpreted_runs"]
        lazyarr.set_tier("compile")
        assert float((x * 3.0).sum()) == 135.0
        print(*interpreted, "jax" in sys.modules)
    """)
    env = {**os.environ, "LAZYARR_TIER": "interpret", "LAZYARR_CACHE_DIR": "off",
           "LAZYARR_EAGER": "0", "JAX_PLATFORMS": "cpu"}
    env.pop("LAZYARR_BACKEND", None)
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                          env=env, timeout=300)
    assert done.returncode == 0, done.stderr
    loaded, runs, compiled = done.stdout.split()
    if where == "cpu":
        assert (loaded, runs, compiled) == ("False", "30", "True"), done.stdout
    else:
        assert (loaded, compiled) == ("True", "True"), done.stdout


def test_jax_is_loaded_only_once_a_compile_is_likely(backend):
    """Under "auto" with XLA selected on the CPU: a script of one-off programs (shapes
    that shrink every step) runs on the interpreter and never imports jax; a structure
    that repeats starts the load, and is compiled once XLA is there."""
    if backend != "xla":
        pytest.skip("the XLA backend is the one that takes long to load")
    script = textwrap.dedent("""
        import sys, numpy, lazyarr
        from lazyarr import _tiers
        a = lazyarr.asarray(numpy.arange(400.0).reshape(20, 20))
        for c in range(1, 12):  # a new shape every step
            float(a[c:, c:].sum())
        for k in range(40):  # microsecond runs: never worth loading jax and compiling
            float((a * k).sum())
        print("jax" in sys.modules)
        _tiers.compile_estimate = lambda program: 0.0  # a free compile
        _tiers.load_seconds = lambda: 0.0  # and a free load
        for k in range(40):  # one structure, again and again: jax loads meanwhile
            float((a * k).sum())
        for thread in list(_tiers._loading.values()):
            thread.join()
        for k in range(3):  # on the loaded backend's tiers: compiled in the background
            float((a * k).sum())
        _tiers.wait()
        for k in range(3):
            float((a * k).sum())
        print("jax" in sys.modules, lazyarr.stats()["compiled_runs"] > 0)
    """)
    env = {**os.environ, "LAZYARR_TIER": "auto", "LAZYARR_CACHE_DIR": "off",
           "LAZYARR_EAGER": "0", "LAZYARR_BACKEND": "xla", "JAX_PLATFORMS": "cpu"}
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                          env=env, timeout=300)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["False", "True", "True"], done.stdout


@pytest.mark.once("xla")  # (its own process selects XLA, the backend loaded on a thread)
def test_a_script_that_ends_while_the_backend_loads_exits_cleanly():
    """The load runs on a thread that is no daemon: a script that ends while jax is
    still importing waits for it. A daemon thread stopped inside jax's import at exit
    took the process down (a segmentation fault in 2 of 60 scripts ending 0.1-0.7 s
    into the load)."""
    script = textwrap.dedent("""
        import sys, threading
        from lazyarr import _tiers
        _tiers.backend_for_flush(None)  # (the interpreter, while XLA loads)
        loading = list(_tiers._loading.values())
        print(len(loading), any(thread.daemon for thread in loading))
    """)  # (and ends at once, the load under way)
    env = {**os.environ, "LAZYARR_TIER": "auto", "LAZYARR_CACHE_DIR": "off",
           "LAZYARR_BACKEND": "xla", "JAX_PLATFORMS": "cpu"}
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                          env=env, timeout=300)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["1", "False"], done.stdout


def test_a_compiled_run_far_slower_than_the_interpreter_goes_back_at_once():
    """hist_sort's sort: 26-39 ms interpreted, 0.67-0.71 s a run compiled. One such run
    is enough; one a little slower, or within the margin, waits for the trials."""
    best = 0.03
    far = State(interpreted_best=best, compiled=object())
    Policy.after_compiled_run(far, 0.7)
    assert not Policy.use_compiled(far) and Policy.note(far)["compiled"] == [0.7]
    slower = State(interpreted_best=best, compiled=object())
    Policy.after_compiled_run(slower, 1.5 * best)
    assert Policy.use_compiled(slower)
    tiny = State(interpreted_best=1e-4, compiled=object())  # 0.2 ms: a first run's cost
    Policy.after_compiled_run(tiny, 1e-4 + 0.9 * _tiers.FAR_MARGIN_S)
    assert Policy.use_compiled(tiny)
    for _ in range(_tiers.TRIALS - 1):
        Policy.after_compiled_run(slower, 1.5 * best)
    assert not Policy.use_compiled(slower)  # SLOWER, over TRIALS runs
    # The best run decides: a far slower run after a fast one is one run's accident.
    fast_first = State(interpreted_best=best, compiled=object())
    Policy.after_compiled_run(fast_first, 0.5 * best)
    Policy.after_compiled_run(fast_first, 0.7)
    assert Policy.use_compiled(fast_first)


def test_a_note_of_one_far_slower_run_keeps_the_next_process_interpreting():
    later = State(compiled=object())
    Policy.from_note(later, {"interpreted": 0.03, "compiled": [0.7], "slower": None})
    assert not Policy.use_compiled(later) and not Policy.probe(later)
    close = State(compiled=object())
    Policy.from_note(close, {"interpreted": 0.03, "compiled": [0.04], "slower": False})
    assert Policy.use_compiled(close) and Policy.timing(close)


def test_a_program_holding_an_op_the_backend_compiles_slower_is_interpreted_for_good():
    """The backend's optional `slower_ops(platform)`: no compile, no disk-cache lookup."""
    sort, add = backend_api.op("sort"), backend_api.op("add")
    program = types.SimpleNamespace(instructions=(
        types.SimpleNamespace(op=add), types.SimpleNamespace(op=sort)))
    held = Policy.new(program, frozenset({sort}))
    assert held.slower and held.looked_up
    assert not Policy.start_compile(held, 10.0, 0.0) and not Policy.use_compiled(held)
    for ops in (frozenset(), frozenset({backend_api.op("argsort")})):
        assert Policy.new(program, ops) == State()


def test_the_slower_ops_are_asked_for_the_backends_platform():
    sort = backend_api.op("sort")
    asked = []

    class Named:
        def __init__(self, device):
            self.device = device

        def slower_ops(self, platform):
            asked.append(platform)
            return [sort] if platform == "cpu" else []
    assert _tiers.slower_ops(Named("cpu")) == {sort}
    assert _tiers.slower_ops(Named("cpu*4")) == {sort}
    assert _tiers.slower_ops(Named("gpu:1")) == frozenset()
    assert asked == ["cpu", "cpu", "gpu"]
    assert _tiers.slower_ops(types.SimpleNamespace(device="cpu")) == frozenset()  # optional


def test_a_repeating_sort_stays_on_the_interpreter(auto, monkeypatch):
    """XLA's CPU sort is slower than NumPy's: a program holding one is never compiled,
    nor looked up in the disk cache, however often it runs."""
    backend = _backend.current()
    # (`auto` runs this on XLA's CPU alone, where it is named: 1e6 float64 sorted in
    # 920 ms against NumPy's 42 ms)
    assert backend_api.op("sort") in _tiers.slower_ops(backend)
    looked = []
    lookup = backend.lookup
    monkeypatch.setattr(backend, "lookup", lambda program, *args, **kwargs: (
        looked.append(program), lookup(program, *args, **kwargs))[1])
    host = numpy.random.default_rng(1).normal(size=211)
    x = la.asarray(host)
    for k in range(8):
        assert float(la.sort(x * k)[100]) == numpy.sort(host * k)[100]
        _tiers.wait()
    stats = la.stats()
    assert stats["background_compiles"] == 0 and stats["compiled_runs"] == 0
    assert stats["interpreted_runs"] == 8
    assert not any(ins.op is backend_api.op("sort") for p in looked for ins in p.instructions)


def test_a_repeating_convolution_is_compiled(auto):
    """XLA's CPU convolution is no longer slower than NumPy's (1e6 by 1000 values: 47 ms
    against 119): a program holding one is compiled once it repeats, as any."""
    backend = _backend.current()
    assert backend_api.op("correlate") not in _tiers.slower_ops(backend)
    host = numpy.random.default_rng(1).normal(size=211)
    x = la.asarray(host)
    for k in range(8):
        numpy.testing.assert_allclose(float(la.convolve(x * k, x[:7])[100]),
                                      numpy.convolve(host * k, host[:7])[100], rtol=1e-12)
        _tiers.wait()
    stats = la.stats()
    assert stats["background_compiles"] == 1 and stats["compiled_runs"] >= 1

def test_a_program_far_slower_compiled_goes_back_after_one_run(auto, monkeypatch):
    monkeypatch.setattr(_tiers, "FAR_SLOWER", 0.0)  # every compiled run is far slower
    monkeypatch.setattr(_tiers, "FAR_MARGIN_S", 0.0)
    x = la.asarray(numpy.arange(59.0))  # a shape no other test compiled in this process
    for k in range(3):
        float((x - k).sum())
    _tiers.wait()
    for k in range(3, 9):
        value = float((x - k).sum())
        assert value == float((numpy.arange(59.0) - k).sum())
    stats = la.stats()
    assert stats["tier_returns_to_interpreter"] == 1 and stats["background_compiles"] == 1
    assert stats["compiled_runs"] == 1 and stats["interpreted_runs"] == 8


@pytest.mark.once  # (its own process drives `_tiers`' compile thread: no backend in it)
def test_a_finished_script_waits_for_the_compile_under_way_only(tmp_path):
    """Once the script's main thread ends, the background compiles still queued are
    dropped: the process waits for the one under way (XLA's compile cannot be
    interrupted), not for every queued one (a ThreadPoolExecutor ran them all first)."""
    marker = tmp_path / "queued-compile-ran"
    script = textwrap.dedent(f"""
        import threading, time
        from lazyarr import _tiers
        started = threading.Event()

        def under_way():
            started.set()
            time.sleep(0.5)

        def queued():
            open({str(marker)!r}, "w").close()

        compiles = _tiers._executor()
        compiles.submit(under_way)
        compiles.submit(queued)
        started.wait()
        print("done")
    """)
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                          timeout=120)
    assert done.returncode == 0 and done.stdout.strip() == "done", done.stderr[-2000:]
    assert not marker.exists()


@pytest.mark.usefixtures("lazy_graph")  # operations recorded: each eval is a flush
def test_the_backends_own_run_time_is_counted_apart_from_the_flush(monkeypatch):
    """The scheduler sums the runs' own times as the backends report them
    (`Events.run_seconds`) in `backend_seconds`: the flush time less it is lazyarr's
    own, which benchmarks/micro reports."""
    x = la.asarray(numpy.arange(4.0)) * 2.0
    backend, flush = _flush.STATS.backend_seconds, _flush.STATS.flush_seconds
    la.eval(x)
    ran = _flush.STATS.backend_seconds - backend
    assert 0.0 < ran <= _flush.STATS.flush_seconds - flush
    real = _tiers.run

    def reporting(*args, **kwargs):
        result = real(*args, **kwargs)
        result.events.run_seconds = 0.25
        return result
    monkeypatch.setattr(_tiers, "run", reporting)
    backend = _flush.STATS.backend_seconds
    numpy.testing.assert_array_equal(numpy.asarray(la.eval(x + 1.0)), numpy.arange(4.0) * 2 + 1)
    assert _flush.STATS.backend_seconds - backend == 0.25
