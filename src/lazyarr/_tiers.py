"""Tiered execution: where each flush's program runs (DESIGN: "Tiered execution").

On the CPU a program first runs on the NumPy interpreter (the reference backend
running the `Program` instruction by instruction: nothing to compile, so a program
seen once, such as a step of a loop whose shapes shrink, never waits for XLA). A
program is compiled by the backend on a background thread, while the interpreter keeps
running it, once compiling pays: its structure has run `HOT` times and the time spent
interpreting it adds up to what compiling it is estimated to cost (`compile_estimate`:
seconds per instruction, measured on this machine by the compiles made so far), or,
once the backend is loaded, one interpreted run took at least `LONG_RUN_S` and that
estimate; but never where copying its host inputs into the compiled program's runtime
alone would take longer than its interpreted run (`Policy.copy_pays`). (Renting until
the rent paid equals the price: a program whose runs take microseconds, or that
repeats only a few times, is never worth seconds of compiling.) Once the executable is ready, later runs use it. The engine
keeps measuring: where the compiled program is slower than the interpreter was for
the same structure (`SLOWER` times its best, over `TRIALS` runs, or `FAR_SLOWER` times
it from the first run on), it goes back to interpreting. A program holding an op that
the backend says it compiles to something slower than the interpreter runs (its
optional `slower_ops(platform)`: XLA's CPU sort) is never compiled. A
program already compiled (memory) or found in the disk cache runs compiled at once;
after its first timed run the interpreter runs it once, to measure it, so a cached
program slower than the interpreter goes back as well. What was measured (the
interpreted best, the timed compiled runs, the verdict) is kept with the disk-cache
entry (the backend's optional `remember`), so the next process takes up from there: a
program found slower compiled is interpreted from its first run. A program holding
what the backend does not compute as NumPy does on its platform (its optional
`unfaithful(platform)`: a TPU's float64) runs on the NumPy interpreter, whatever the
tier. A background compile that fails leaves the program on the interpreter and is
counted once in `stats()` ("compile_failures", with its line and message under
"tier_failures").

Off the CPU (a GPU, a TPU) the first tier is op-by-op execution instead (the backend's
`op_by_op()`: each primitive a small executable cached by primitive, shapes, dtypes and
attributes, so values never leave the device); the policy is the same. Until the
device is up, programs run on the NumPy interpreter, on the host: starting a TPU takes
10 s or more, which a script NumPy runs in seconds would wait for, so the backend is
loaded (on a background thread) only once the repeating programs' interpreted time
pays for it (`backend_for_flush`). A backend that does not compile, or that offers no
first tier off the CPU, runs every program itself.
`LAZYARR_TIER=interpret|compile|auto|opbyop` (or `lazyarr.set_tier`, see `_settings`) forces the
interpreter, forces compiling before the first run (the behaviour without tiers), lets
this policy choose (the default), or forces op-by-op execution (on the CPU too: tests).
The first tier's runs are counted as "interpreted_runs" or "op_by_op_runs".
"""

from __future__ import annotations

import os
import threading
import time

import numpy as np

from . import _backend, _ledger, _settings
from .backend_api import Events, RunResult, asynchronous

TIERS = _settings.TIERS
HOT = 2             # runs of one structure before it is compiled
LONG_RUN_S = 1.0    # an interpreted run this long (and past the compile estimate) is
                    # worth compiling at once: a program seen once pays for it only then
# The compile estimate: seconds per program plus seconds per instruction (the latter's
# prior, then the average of the compiles measured in this process, less the seconds
# per program), and the seconds loading a compiling backend (importing jax) costs.
# Background compiles measured on the 2-core benchmark machine, others' work running:
# jacobi 13 instructions 0.19 s, lbm 71 in 0.52 s and 227 in 1.73 s, life 165 in
# 0.39 s, nbody 74 in 1.03 s: past 0.1 s a program, 2.3-12.6 ms an instruction (median
# 6.7). (The average of seconds / instructions counted a small program's fixed cost as
# if each instruction had it: jacobi's came to 14 ms an instruction.)
COMPILE_BASE_S = 0.1
COMPILE_PER_INSTRUCTION_S = 0.007
LOAD_S = 1.0
# Where the backend runs on an accelerator, loading it also starts the device: on a TPU
# v5e, importing jax and starting it took 10.3 s on the background thread (while the
# interpreter ran on); a process that loaded it at its first flush took 15.1 s for a
# script NumPy ran in 1.1 s, and one that began loading it 0.5 s in and ended 3 s
# later took 11.2 s against NumPy's 4.2 (its exit waits for the device to stop).
ACCELERATOR_LOAD_S = 10.0
# A compiled run on the CPU first copies each host (NumPy) input into XLA's buffers
# (the backend passes the NumPy array to the executable, which copies it: jax's default
# device_put, 0.86 s for 960 MB here, not the may_alias one of 0.23-0.31 s). Compared
# like with like, jax.jit's run on monte_carlo_pi's 960 MB input took 0.61 s from the
# host against 0.19 s from a device buffer: 0.42 s of copying, 2.3e9 bytes a second
# (with others' work running, 0.9 s against 0.2 s).
HOST_COPY_BYTES_PER_S = 2.3e9
SLOWER = 1.25       # compiled slower than this times the interpreter's best: go back
TRIALS = 3          # compiled runs measured before that comparison
# One compiled run slower than FAR_SLOWER times the interpreter's best plus FAR_MARGIN_S
# goes back at once: hist_sort's sort, interpreted in 26-39 ms, ran 0.67-0.71 s a run
# compiled, and waiting for TRIALS runs lost 2 s. The margin keeps one run's accidents
# from deciding alone (a program losing less than it a run waits for the TRIALS): an
# executable's first run costs 0.7-4.7 ms more than the next ones here (a 5-instruction
# sum of 1e5 values: 5.1 ms, then 2.5 ms), and a 0.2 ms program once took past 5 ms
# more (the suite, on the shared 2-core machine).
FAR_SLOWER = 2.0
FAR_MARGIN_S = 0.02
MAX_STATES = 20_000  # structures remembered (forgotten all at once past this)
# What stats() reports of the tiers: runs per tier, compiles started in the background
# (their compiles and seconds count in "compiles" and "background_compile_seconds"),
# their failures, and structures sent back to the interpreter.
COUNTERS = ("interpreted_runs", "op_by_op_runs", "compiled_runs", "background_compiles",
            "background_compile_seconds", "compile_failures", "tier_returns_to_interpreter")


def tier() -> str:
    """The forced tier (`_settings`: LAZYARR_TIER or `set_tier`; "auto" by default);
    ValueError for an unknown one."""
    return _settings.tier()


class State:
    """What the policy knows about one program structure (key and signature); made with
    keyword arguments for any field, as the tests make them. (A plain class: a
    dataclass's generated code cost 0.6 ms of `import lazyarr`.)"""

    def __init__(self, **fields):
        self.runs = 0
        self.interpreted_best = float("inf")
        self.interpreted_clean = float("inf")  # the best of the runs nothing competed with
        self.interpreted_total = 0.0  # seconds of the first tier's timed runs, summed
        self.compiled_times: list = []
        self.looked_up = False        # the disk cache was asked once
        self.compiled = None          # the backend's Compiled, once ready
        self.future = None            # the Future of a background compile under way
        self.failed = False           # its compile failed: interpret for good
        self.slower = False           # compiled measured (or said, see `new`) slower: interpret
        self.probed = False           # a compiled-first program interpreted once, to compare
        # (before the compiling backend loads, see `backend_for_flush`:)
        self.ledger = None            # the ledger's verdict from an earlier process
        self.host_bytes = 0           # the bytes of host inputs its last run read
        self.surplus = 0.0            # its part of `_surplus`
        for name, value in fields.items():
            if name not in vars(self):
                raise TypeError(f"State has no field {name!r}")
            setattr(self, name, value)

    def __eq__(self, other):
        return vars(self) == vars(other) if type(other) is State else NotImplemented

    __hash__ = None  # (mutable)

    def __repr__(self):
        return "State(" + ", ".join(f"{k}={v!r}" for k, v in vars(self).items()) + ")"


class Policy:
    """The decisions alone, on a `State` (no backend, no clock): unit-testable."""

    @staticmethod
    def new(program, slower_ops) -> State:
        """The state of a structure seen for the first time. One holding an op among
        `slower_ops` (the backend's, see `slower_ops`) is interpreted for good: neither
        compiled nor looked up in the disk cache. (hist_sort's 3-instruction sort of 1e6
        float64, interpreted in 26-39 ms, ran 0.67-0.71 s compiled: no count of runs
        pays for compiling it.)"""
        state = State()
        if slower_ops and any(ins.op in slower_ops for ins in program.instructions):
            state.slower = state.looked_up = True
        return state

    @staticmethod
    def use_compiled(state: State) -> bool:
        return state.compiled is not None and not state.slower

    @staticmethod
    def start_compile(state: State, interpreted_seconds: float, estimate: float) -> bool:
        """After an interpreted run of `interpreted_seconds`: whether to start compiling
        in the background, compiling being estimated to take `estimate` seconds."""
        if state.failed or state.slower or state.compiled is not None or state.future:
            return False
        return Policy.pays(state.runs, state.interpreted_total, interpreted_seconds, estimate)

    @staticmethod
    def pays(runs: int, total: float, last: float, estimate: float) -> bool:
        """Whether compiling pays for a structure run `runs` times, interpreted for
        `total` seconds in all, its last run `last` seconds."""
        if last >= LONG_RUN_S and last >= estimate:
            return True
        return runs >= HOT and total >= estimate

    @staticmethod
    def copy_pays(state: State, host_bytes: int) -> bool:
        """Whether a compiled run can beat the interpreter's best at all, where it must
        first copy `host_bytes` of host inputs into the compiled program's runtime (the
        interpreter reads them where they are): monte_carlo_pi's 960 MB of points,
        interpreted in 0.16-0.22 s, took 0.48-0.58 s a run compiled. Every timed run
        bounds the interpreter's time from above, so the copy is compared with the best;
        but a run that something competed with (a backend loading, a background
        compile: see `interpreted`) may be inflated past the copy, so a program with
        host inputs is compiled only once one run was timed alone (until then it asks
        again at its next run). Timed while jax imported beside it, monte_carlo_pi's
        best was 0.22-0.37 s: past the copy estimate, so it compiled and ran 0.5-2.4 s a
        run before the trials sent it back. Only the host inputs others hold count
        (`_host_bytes`): one that only lazyarr holds (a loop's carried state, such as
        jacobi's grid, which the interpreter writes in place) is an output of the
        compiled program from its first run on, so it is copied once, not every run."""
        if not host_bytes:
            return True
        return (state.interpreted_clean != float("inf")
                and host_bytes / HOST_COPY_BYTES_PER_S < state.interpreted_best)

    @staticmethod
    def interpreted(state: State, seconds: float, contended: bool) -> None:
        """Record a timed run on the first tier; `contended` if a backend load or a
        background compile ran beside it (on a machine of few cores it took a core)."""
        state.interpreted_best = min(state.interpreted_best, seconds)
        state.interpreted_total += seconds
        if not contended:
            state.interpreted_clean = min(state.interpreted_clean, seconds)

    @staticmethod
    def probe(state: State) -> bool:
        """Whether the next run of a compiled program goes to the interpreter once, to
        measure it: the program ran compiled from its first run (the disk cache), so
        there is nothing to compare its timed runs with. After the first of them, so
        that one far slower than the interpreter goes back at once (`judge`)."""
        return (not state.probed and bool(state.compiled_times)
                and state.interpreted_best == float("inf"))

    @staticmethod
    def after_probe(state: State, seconds: float) -> None:
        """Record the interpreter's run of a compiled program; go back to interpreting
        if the compiled runs so far were slower (`judge`)."""
        state.probed = True
        state.interpreted_best = min(state.interpreted_best, seconds)
        Policy.judge(state)

    @staticmethod
    def judge(state: State) -> None:
        """Send a compiled program back to the interpreter (`slower`) where its best
        timed run is past `FAR_SLOWER` times the interpreter's best plus `FAR_MARGIN_S`
        (from its first run on), or past `SLOWER` times it once `TRIALS` runs are timed.
        Without an interpreted time there is nothing to compare with (see `probe`)."""
        times, best = state.compiled_times, state.interpreted_best
        if not times or best == float("inf"):
            return
        fastest = min(times)
        if (fastest > FAR_SLOWER * best + FAR_MARGIN_S
                or (len(times) >= TRIALS and fastest > SLOWER * best)):
            state.slower = True

    @staticmethod
    def from_note(state: State, note) -> None:
        """Take in what an earlier process measured of a program found compiled in the
        disk cache (`note`, see `note`): its interpreted best (so no probe is needed),
        its timed compiled runs (so the trials go on from there) and whether compiled
        was slower (so it is interpreted at once: monte_carlo_pi's program, compiled,
        ran 3 times slower than interpreted, 0.6 s against 0.3 s, most of it copying
        its 960 MB input to XLA's buffer)."""
        if not isinstance(note, dict):
            return
        best = note.get("interpreted")
        if isinstance(best, (int, float)) and best > 0:
            state.interpreted_best = min(state.interpreted_best, float(best))
            state.probed = True
        times = note.get("compiled")
        if isinstance(times, list) and all(isinstance(t, (int, float)) for t in times):
            state.compiled_times = [float(t) for t in times[:TRIALS]]
        if note.get("slower") is True:
            state.slower = True
        else:
            Policy.judge(state)

    @staticmethod
    def note(state: State) -> dict:
        """What to keep with a program's disk-cache entry for the next process."""
        best = state.interpreted_best
        return {"interpreted": best if best != float("inf") else None,
                "compiled": list(state.compiled_times), "slower": state.slower}

    @staticmethod
    def verdict(state: State) -> str:
        """What the ledger keeps of a compiled program (`_ledger`): slower, faster
        (its `TRIALS` timed runs were not slower), or compiled and not judged yet."""
        if state.slower:
            return _ledger.SLOWER
        return _ledger.FASTER if len(state.compiled_times) >= TRIALS else _ledger.COMPILED

    @staticmethod
    def may_submit(in_flight: int) -> bool:
        """One background compile at a time: a loop of ever-new structures must not queue
        compiles that outlive it (and hold the process at exit); a structure passed over
        here asks again at its next run."""
        return in_flight == 0

    @staticmethod
    def timing(state: State, compiling: bool = False) -> bool:
        """Whether the next compiled run is one of the `TRIALS` timed ones (it waits
        for the device, even where the flush need not). Not while a background compile
        is `compiling`: on a machine of few cores it takes one, and lbm's compiled runs
        timed then took 40-110 ms against 9-14 ms once it had finished (it was sent
        back to an interpreter that ran it in 20 ms)."""
        return len(state.compiled_times) < TRIALS and not compiling

    @staticmethod
    def after_compiled_run(state: State, seconds: float) -> None:
        """Record a timed compiled run; go back to interpreting if the compiled program
        is slower than the interpreter's best (`judge`: far slower at once, else after
        `TRIALS` runs)."""
        times = state.compiled_times
        if len(times) < TRIALS:
            times.append(seconds)
            Policy.judge(state)


_states: dict[tuple, State] = {}
_lock = threading.RLock()  # guards _states and each State's fields
_pool: "_Compiler | None" = None
FAILURES: list[str] = []   # background compile failures, one line each
_submitted: list[State] = []  # states whose compile was submitted (not yet adopted)


_measured = [0, 0.0]  # compiles adopted, and their seconds per instruction summed


def compile_estimate(program) -> float:
    """The seconds compiling `program` is estimated to take."""
    count, rates = _measured
    rate = rates / count if count else COMPILE_PER_INSTRUCTION_S
    return COMPILE_BASE_S + rate * program.operations()


def load_seconds() -> float:
    """What loading the selected backend is estimated to cost: importing jax on the
    CPU, that and starting the device on an accelerator."""
    return LOAD_S if _cpu_only(_backend.selected()[1]) else ACCELERATOR_LOAD_S


def state_of(program, signature) -> State | None:
    """What the tiers know of a program's structure with `signature` (for explain)."""
    with _lock:
        return _states.get((program.key, signature))


class _Compiler:
    """The background compiles, run one at a time in order on a thread that exists
    while any is queued. Once the main thread has ended (the script is done), the
    queued ones are dropped: the process waits for the compile under way only (XLA's
    cannot be interrupted, and a daemon thread inside one aborts the process at exit),
    not for every queued one, as a ThreadPoolExecutor would (on a TPU, a script done in
    20 s waited 100 s more for compiles of programs it would never run again)."""

    def __init__(self):
        self._queue: list = []
        self._guard = threading.Lock()  # (not `_lock`: a flush may hold it and wait)
        self._thread: threading.Thread | None = None

    def submit(self, fn, *args) -> "Future":
        from concurrent.futures import Future  # noqa: PLC0415  (16 ms of `import lazyarr`)
        future = Future()
        with self._guard:
            self._queue.append((future, fn, args))
            if self._thread is None:
                self._thread = threading.Thread(target=self._work, name="lazyarr-compile")
                self._thread.start()
        return future

    def _work(self) -> None:
        while True:
            with self._guard:
                if not self._queue or not threading.main_thread().is_alive():
                    for future, _, _ in self._queue:
                        future.cancel()
                    self._queue.clear()
                    self._thread = None
                    return
                future, fn, args = self._queue.pop(0)
            if not future.set_running_or_notify_cancel():
                continue
            try:
                result = fn(*args)
            except BaseException as exc:  # noqa: BLE001  (the future carries it)
                future.set_exception(exc)
            else:
                future.set_result(result)


def _executor() -> _Compiler:
    global _pool
    with _lock:
        if _pool is None:
            _pool = _Compiler()
        return _pool


def interpreter():
    return _backend.load("numpy")


def interprets_first(backend) -> bool:
    """Whether the auto tier's first tier is the NumPy interpreter: a compiling backend
    running on one CPU device (on a mesh, "cpu*4", every program is compiled)."""
    return getattr(backend, "compiles", False) and _where(backend) == ("cpu", False)


_loading: dict[tuple, threading.Thread] = {}
_running_loads: list[threading.Thread] = []  # those of _loading not seen finished (busy)
DEFERRED_FLUSHES = 0  # flushes run on the interpreter while the backend was loading


# program key -> its State on the interpreter while the backend was not loaded (runs,
# seconds, best and best uncontended, host bytes, and what the ledger said of it)
_unloaded_runs: dict = {}
# While nothing is loaded: the seconds by which the repeating structures' interpreted
# runs exceed what compiling each is estimated to cost (`compile_estimate`), summed
# over those whose compiled runs could beat the interpreter's (`Policy.copy_pays`).
# Once it reaches what loading costs, the rent paid has bought the load as well.
_surplus = [0.0]


def backend_for_flush(program=None):
    """The backend to run the next flush (of `program`) on. Under "auto", while the
    selected compiling backend is not loaded yet (importing jax takes a second or more,
    starting a TPU 10 s or more), this flush runs on the interpreter, and the backend
    is loaded on a background thread only once a compile is likely: `program`'s runs so
    far pay for compiling it, and the repeating programs' interpreted runs together
    pay for loading the backend and compiling them (`_surplus`, against
    `load_seconds()`: starting an accelerator takes far longer than importing jax).
    One long run of a structure not seen before buys no load: the load holds the GIL
    for about a second of CPU (jaxlib's import), which the interpreter's next runs
    wait for, and a structure seen once may never come back (nbody's two 1.2-2 s size
    cuts are two structures: when a busy machine stretched the first past the
    estimate, the load it started made the process 3.9-4.7 s, against 2.5-3.0 s
    without it). A script of one-off programs (a loop whose shapes shrink) never
    imports jax, a short script never starts a TPU (nor waits at
    exit for it to stop), and no flush waits for the load (the process's exit does, for
    one under way). Under "interpret" on the CPU, where every program is interpreted,
    the backend is not loaded at all.
    Returns the backend and whether it is the interpreter standing in for the selected
    backend, not loaded (its runs are the policy's to time: `interpreted_before_load`)."""
    name, options = _backend.selected()
    backend = _backend.instance(name, options)
    if backend is not None:
        return backend, False
    if name == "numpy":
        return _backend.current(), False
    forced = tier()
    if forced == "interpret" and _cpu_only(options):
        return interpreter(), True  # (every program is interpreted there: nothing to load)
    if forced != "auto":
        return _backend.current(), False
    key = _backend.instance_key(name, options)
    fallback = interpreter()  # before the load below holds the backends' lock
    global DEFERRED_FLUSHES
    with _lock:
        thread = _loading.get(key)
        if thread is None and not _compile_likely(program):
            DEFERRED_FLUSHES += 1
            return fallback, True
        if thread is None:
            # Not a daemon: the process's exit waits for a load under way. A daemon
            # thread still inside jax's import when Python finalizes is stopped there,
            # in C++ code, and took the process down: a segmentation fault in 2 of 60
            # scripts ending 0.1-0.7 s into the load (0 of 60 with this thread), and
            # the benchmarks' nbody once ("terminate called ...", exit -6).
            thread = _loading[key] = threading.Thread(
                target=_load_quietly, args=(name, options), name="lazyarr-backend-load")
            thread.start()
            _running_loads.append(thread)
    if not thread.is_alive():  # it finished (or failed) without being found: load here
        return _backend.current(), False
    DEFERRED_FLUSHES += 1
    return fallback, True


def _compile_likely(program) -> bool:
    """Whether to start loading the compiling backend (see `backend_for_flush`): at
    once for a program an earlier process compiled and did not find slower (`_ledger`:
    it is in the disk cache), never for one it found slower compiled, else once the
    program's runs pay for its compile, a compiled run could beat the interpreter's
    at all (`Policy.copy_pays`: monte_carlo_pi's call reads its 960 MB of points, which
    the user holds, every run), and the repeating programs' runs together pay for the load
    and their compiles (`_surplus`). The load is paid once for all the programs that
    would be compiled: it is bought once the rent paid on them covers it and their
    compiles, which for one program is its runs paying for both."""
    if program is None:
        return True
    seen = _unloaded_runs.get(program.key)
    if seen is None:
        if len(_unloaded_runs) >= MAX_STATES:  # (the surplus with them: a structure
            _unloaded_runs.clear()              # seen again would count twice)
            _surplus[0] = 0.0
        seen = _unloaded_runs[program.key] = State(ledger=_ledger_verdict(program))
    if seen.ledger is not None:
        return seen.ledger != _ledger.SLOWER
    likely = (Policy.pays(seen.runs, seen.interpreted_total, 0.0, compile_estimate(program))
              and Policy.copy_pays(seen, seen.host_bytes)
              and _surplus[0] >= load_seconds())
    seen.runs += 1
    return likely


def _ledger_page(name, options) -> tuple:
    """The ledger's label for backend `name` with `options` (its platform or device),
    and the folders whose code dates its verdicts."""
    where = options.get("device") or ("cpu" if _cpu_only(options) else "accelerator")
    name = _backend.likely_name(name)
    return (f"{name}:{where}",
            lambda: [os.path.dirname(__file__)] + _backend.source_folders(name))


def _ledger_verdict(program):
    return _ledger.verdict(program, *_ledger_page(*_backend.selected()))


def interpreted_before_load(program, seconds: float, contended: bool, inputs,
                            owned: frozenset[int] = frozenset()) -> None:
    """An interpreted run of `program` on `inputs` (`owned`: those only lazyarr holds)
    made while the compiling backend was not loaded took `seconds` (`contended`: the
    backend was loading meanwhile, see `busy`): once the repeating programs' runs pay for loading the backend and
    compiling them, the next flush starts loading it."""
    seen = _unloaded_runs.get(program.key)
    if seen is None:  # (the load is under way, or was found likely: nothing to decide)
        return
    Policy.interpreted(seen, seconds, contended)
    seen.host_bytes = _host_bytes(inputs, owned)
    if seen.ledger == _ledger.SLOWER:
        return
    surplus = 0.0
    if seen.runs >= HOT and Policy.copy_pays(seen, seen.host_bytes):
        surplus = max(0.0, seen.interpreted_total - compile_estimate(program))
    _surplus[0] += surplus - seen.surplus
    seen.surplus = surplus


def _load_quietly(name, options) -> None:
    try:
        _backend.load_selected(name, options)
    except BaseException:  # noqa: BLE001  (the flush that needs it loads it and raises)
        pass


def _cpu_only(options: dict) -> bool:
    device = str(options.get("device") or "")
    if device:
        return device.split(":")[0] == "cpu"
    return _backend.default_is_cpu()


def run(backend, program, inputs, owned, stats, block: bool = True) -> RunResult:
    """Run `program` on the tier the policy picks; `stats` (the scheduler's Stats) gets
    the tier counters. Raises what the program raises, on either tier. Without `block`
    a run may return futures (see `backend_api.Backend.run`), except while the policy
    times it."""
    if unfaithful(backend, program):  # (owned device buffers are not written on the host)
        return _first_run(interpreter(), program, inputs, frozenset(), stats, True)
    forced = tier()
    first = None if forced == "compile" else first_for(backend, forced)
    if first is None:
        return _run(backend, program, inputs, donating(backend, owned, block), block)
    if forced != "auto":
        return _first_run(first, program, inputs, donating(first, owned, block), stats, block)
    signature = backend.signature(program, inputs, donating(backend, owned, block))
    key = (program.key, signature)
    with _lock:
        state = _states.get(key)
        if state is None:
            if len(_states) >= MAX_STATES:
                _states.clear()
            state = _states[key] = Policy.new(program, slower_ops(backend))
            before = _unloaded_runs.pop(program.key, None)  # run before the backend loaded
            if before is not None:
                (state.runs, state.interpreted_total, state.interpreted_best,
                 state.interpreted_clean) = (before.runs, before.interpreted_total,
                                             before.interpreted_best, before.interpreted_clean)
        state.runs += 1
        _adopt(state, stats)
        compiled = state.compiled if Policy.use_compiled(state) else None
        ask_disk = compiled is None and not state.looked_up and not state.failed
        state.looked_up = True
        probe = compiled is not None and Policy.probe(state)
    events = None  # (made only where the disk cache was asked: most runs add none)
    if ask_disk:  # a program compiled in an earlier process runs compiled at once,
        found, events = backend.lookup(program, signature, disk=True)
        if found is not None:  # unless it measured the interpreter faster there
            with _lock:
                state.compiled = found
                Policy.from_note(state, getattr(found, "tier_note", None))
                compiled = found if Policy.use_compiled(state) else None
    if probe:  # compiled from the first run: the interpreter's time, once, to compare
        _wait(backend, inputs)
        start = time.perf_counter()
        result = _first_run(first, program, inputs, owned, stats, True)
        with _lock:
            Policy.after_probe(state, time.perf_counter() - start)
            if state.slower:
                stats.backend_events["tier_returns_to_interpreter"] += 1
        _remember(backend, program, signature, state)
        return _with(events, result)
    if compiled is not None:
        with _lock:
            timed = Policy.timing(state, _in_flight() > 0)
        if timed:
            _wait(backend, inputs)
        start = time.perf_counter()
        ran = _run(compiled, None, inputs, None, timed or block, backend)
        if timed:  # (less a reload's compile after an eviction: not the program's time)
            seconds = time.perf_counter() - start - ran.events.compile_seconds
            with _lock:
                Policy.after_compiled_run(state, seconds)
                if state.slower:
                    stats.backend_events["tier_returns_to_interpreter"] += 1
            _remember(backend, program, signature, state)
        stats.backend_events["compiled_runs"] += 1
        return _with(events, ran)
    # The first tier's time counts only where the run waited for its results (the
    # interpreter always does; op by op, a size cut need not).
    timed = block or first is interpreter() or state.interpreted_best == float("inf")
    if timed:
        _wait(backend, inputs)
    contended = busy()
    start = time.perf_counter()
    result = _first_run(first, program, inputs, donating(first, owned, timed), stats, timed)
    seconds = time.perf_counter() - start if timed else 0.0
    with _lock:
        if timed:
            Policy.interpreted(state, seconds, contended or busy())
        elif state.runs > 1:  # not waited for: counts as the timed runs took on average
            state.interpreted_total += state.interpreted_total / (state.runs - 1)
        if (Policy.start_compile(state, seconds, compile_estimate(program))
                and Policy.may_submit(_in_flight())
                and (first is not interpreter()
                     or Policy.copy_pays(state, _host_bytes(inputs, owned)))):
            state.future = _executor().submit(_compile, backend, program, signature,
                                              Policy.note(state))
            state.future.site = _site(program)
            state.future.instructions = program.operations()
            _submitted[:] = [st for st in _submitted if st.future is not None] + [state]
            stats.backend_events["background_compiles"] += 1
    return _with(events, result)


def _with(events: Events | None, result: RunResult) -> RunResult:
    """`result` with `events` (the disk cache's, where it was asked) added to its own."""
    if events is None:
        return result
    return RunResult(result.outputs, events.add(result.events), result.deferred)


def first_tier(backend):
    """Where the auto policy runs a program before it is compiled (and where a program
    that is never compiled stays): the NumPy interpreter on the CPU, the backend's
    op-by-op runner (`op_by_op()`: cached single-primitive executables on its device)
    elsewhere; None where the backend runs every program itself (it does not compile,
    or offers no first tier off the CPU)."""
    if not getattr(backend, "compiles", False):
        return None
    place, mesh = _where(backend)
    if place == "cpu":  # a CPU mesh ("cpu*4") has none: XLA partitions it all
        return None if mesh else interpreter()
    return _op_by_op(backend)


def platform(backend) -> str:
    """The platform of a backend's device name: "cpu", "gpu", "tpu", ... ("cpu*4": cpu)."""
    return _where(backend)[0]


# id(backend) -> (backend, its device name, the platform, whether a mesh: "cpu*4")
_PLATFORMS: dict[int, tuple] = {}


def _where(backend) -> tuple[str, bool]:
    """(platform, whether a mesh) of `backend`'s device, parsed once per device name
    (the tiers ask at every flush)."""
    device = backend.device
    known = _PLATFORMS.get(id(backend))
    if known is None or known[0] is not backend or known[1] is not device:
        text = str(device)
        known = _PLATFORMS[id(backend)] = (backend, device,
                                           text.partition(":")[0].partition("*")[0],
                                           "*" in text)
    return known[2], known[3]


def slower_ops(backend) -> frozenset:
    """The ops `backend` compiles, on its platform, to something slower than the first
    tier runs them (its optional `slower_ops(platform)`); none where it does not say."""
    named = getattr(backend, "slower_ops", None)
    return frozenset(named(platform(backend))) if named is not None else frozenset()


# id(backend) -> (backend, its device, dtypes, {op: dtypes})
_UNFAITHFUL: dict[int, tuple] = {}


def unfaithful(backend, program) -> bool:
    """Whether `program` holds what `backend` does not compute as NumPy does on its
    platform (its optional `unfaithful(platform)`): a value of an unfaithful dtype, or
    an instruction of an op unfaithful at its result's dtype. Asked once per device,
    as `_where` parses it (a backend the tests made a GPU and gave back its TPU then
    compiled float64 on the TPU, its GPU answer kept)."""
    device = backend.device
    known = _UNFAITHFUL.get(id(backend))
    if known is None or known[0] is not backend or known[1] is not device:
        named = getattr(backend, "unfaithful", None)
        pairs = named(platform(backend)) if named is not None else ()
        ops: dict = {}
        for op, d in pairs:
            ops[op] = ops.get(op, frozenset()) | {np.dtype(d)}
        known = _UNFAITHFUL[id(backend)] = (backend, device, ops.pop(None, frozenset()), ops)
    _, _, dtypes, ops = known
    if not (dtypes or ops):
        return False
    return (any(dtype in dtypes for _, dtype in program.input_specs)
            or any(ins.dtype in dtypes or ins.dtype in ops.get(ins.op, ())
                   for ins in program.instructions))


def _op_by_op(backend):
    make = getattr(backend, "op_by_op", None)
    return make() if make is not None else None


def first_for(backend, forced: str):
    """The first tier under LAZYARR_TIER=`forced` (not "compile")."""
    if not getattr(backend, "compiles", False):
        return None
    if forced == "interpret":  # where the interpreter is a first tier (one CPU device)
        return interpreter() if interprets_first(backend) else None
    if forced == "opbyop":
        return _op_by_op(backend)
    return first_tier(backend)


def donating(runner, owned: frozenset, block: bool) -> frozenset:
    """The `owned` inputs a run on `runner` may reuse: none where it may return before
    it has finished (without `block`, unless it is `synchronous`), so that a run that
    fails afterwards leaves its inputs whole and the scheduler can make its outputs
    pending again (a donated buffer is gone even when the run fails)."""
    if block or getattr(runner, "synchronous", False):
        return owned
    return frozenset()


def _run(runner, program, inputs, owned, block: bool, backend=None) -> RunResult:
    """`runner.run` (a backend's, or with `owned` None a Compiled's), passing `block`
    only where the contract (1.1) has it."""
    if owned is None:
        if not block and asynchronous(backend):
            return runner.run(inputs, block=False)
        return runner.run(inputs)
    if not block and asynchronous(runner):
        return runner.run(program, inputs, owned, block=False)
    return runner.run(program, inputs, owned)


def _first_run(first, program, inputs, owned, stats, block: bool) -> RunResult:
    """A run on the first tier: the interpreter (which writes into `owned` inputs'
    buffers in place) or op by op."""
    name = "interpreted_runs" if first is interpreter() else "op_by_op_runs"
    stats.backend_events[name] += 1
    return _run(first, program, inputs, owned, block)


def _wait(backend, inputs) -> None:
    """Wait until `inputs` (`backend`'s buffers among them) are computed, where the
    backend can say (its optional `wait`): a timed run must not count the time spent
    finishing the earlier asynchronous runs that compute its inputs (lbm's second
    program, timed while its first one still ran, took 5 ms, then 20-37 ms)."""
    wait = getattr(backend, "wait", None)
    if wait is not None:
        wait(inputs)


def _host_bytes(inputs, owned: frozenset[int]) -> int:
    """The bytes of the NumPy arrays among a program's inputs but the `owned` ones (see
    `Policy.copy_pays`)."""
    return sum([x.nbytes for i, x in enumerate(inputs)
                if type(x) is np.ndarray and i not in owned])


def busy() -> bool:
    """Whether a backend load or a background compile is running (it takes a core)."""
    if _running_loads:  # (asked twice a flush: a finished load is dropped from the list)
        _running_loads[:] = [t for t in _running_loads if t.is_alive()]
        if _running_loads:
            return True
    return _in_flight() > 0


def _in_flight() -> int:
    """Background compiles submitted and not yet adopted or finished."""
    if not _submitted:
        return 0
    return sum(1 for st in _submitted if st.future is not None and not st.future.done())


def _compile(backend, program, signature, note: dict):
    """A background compile; the program's interpreted best goes with its disk-cache
    entry (the process may end before the executable is ever run)."""
    compiled = backend.compile(program, signature)
    remember = getattr(backend, "remember", None)
    if remember is not None:
        remember(program, signature, note)
    return compiled


def _remember(backend, program, signature, state: State) -> None:
    """Keep what the policy measured of `program` with its disk-cache entry (the
    backend's optional `remember`), for the next process (`Policy.from_note`), and its
    verdict in the ledger, which the next process reads before it loads the backend."""
    with _lock:
        note = Policy.note(state)
        found = Policy.verdict(state)
    remember = getattr(backend, "remember", None)
    if remember is not None:
        remember(program, signature, note)
    _ledger.record(program, *_ledger_page(*_backend.selected()), found)


def _adopt(state: State, stats) -> None:
    """Take a finished background compile's executable (or its failure) into `state`;
    its events are counted here, on the flushing thread."""
    future = state.future
    if future is None or not future.done():
        return
    state.future = None
    try:
        compiled = future.result()
    except BaseException as exc:  # noqa: BLE001  (a failed compile must never crash a flush)
        state.failed = True
        stats.backend_events["compile_failures"] += 1
        FAILURES.append(f"{future.site}: {type(exc).__name__}: {str(exc).splitlines()[0]}"
                        if str(exc) else f"{future.site}: {type(exc).__name__}")
        return
    state.compiled = compiled
    made = getattr(compiled, "events", None)
    if made is not None:
        stats.backend_events["compiles"] += made.compiles
        stats.backend_events["background_compile_seconds"] += made.compile_seconds
        if made.compiles and future.instructions:
            _measured[0] += 1
            _measured[1] += (max(0.0, made.compile_seconds - COMPILE_BASE_S)
                             / future.instructions)


def _site(program) -> str:
    """The user's line of the program's last instruction, for failure reports."""
    for site in reversed(program.sites or ()):
        if site:
            return f"{site[0]}:{site[1]}"
    return "<unknown line>"


def wait() -> None:
    """Block until the background compiles submitted so far have finished (tests)."""
    with _lock:
        pool = _pool
    if pool is not None:
        pool.submit(lambda: None).result()


def reset() -> None:
    """Forget every structure's state (tests): the next flushes start from scratch."""
    wait()
    with _lock:
        _states.clear()
        FAILURES.clear()
        _unloaded_runs.clear()
        _surplus[0] = 0.0
        _measured[:] = [0, 0.0]
    _ledger.forget()
