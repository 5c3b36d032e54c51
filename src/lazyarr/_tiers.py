"""Tiered execution: where each flush's program runs (DESIGN: "Tiered execution").

On the CPU a program first runs on the NumPy interpreter (the reference backend
running the `Program` instruction by instruction: nothing to compile, so a program
seen once, such as a step of a loop whose shapes shrink, never waits for XLA). A
program whose structure repeats (seen `HOT` times) or whose interpreted run took at
least `LONG_RUN_S` is compiled by the backend on a background thread while the
interpreter keeps running it; once the executable is ready, later runs use it. The
engine keeps measuring: where the compiled program is slower than the interpreter
was for the same structure (`SLOWER` times its best, over `TRIALS` runs), it goes back
to interpreting. A program already compiled (memory) or found in the disk cache runs
compiled at once. A background compile that fails leaves the program on the
interpreter and is counted once in `stats()` ("compile_failures", with its line and
message under "tier_failures").

Off the CPU (a GPU, a TPU) the first tier is op-by-op execution instead (the backend's
`op_by_op()`: each primitive a small executable cached by primitive, shapes, dtypes and
attributes, so values never leave the device); the policy is the same. A backend that
does not compile, or that offers no first tier off the CPU, runs every program itself.
`LAZYARR_TIER=interpret|compile|auto|opbyop` (read at every flush) forces the
interpreter, forces compiling before the first run (the behaviour without tiers), lets
this policy choose (the default), or forces op-by-op execution (on the CPU too: tests).
The first tier's runs are counted as "interpreted_runs" or "op_by_op_runs".
"""

from __future__ import annotations

import os
import threading
import time
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass, field

from . import _backend
from .backend_api import Events, RunResult, asynchronous

TIERS = ("interpret", "compile", "auto", "opbyop")
HOT = 2             # runs of one structure before it is compiled
LONG_RUN_S = 1.0    # an interpreted run this long is worth compiling at once (about
                    # what a compile costs: a program seen once pays for it only then)
SLOWER = 1.25       # compiled slower than this times the interpreter's best: go back
TRIALS = 3          # compiled runs measured before that comparison
MAX_STATES = 20_000  # structures remembered (forgotten all at once past this)
# What stats() reports of the tiers: runs per tier, compiles started in the background
# (their compiles and seconds count in "compiles" and "background_compile_seconds"),
# their failures, and structures sent back to the interpreter.
COUNTERS = ("interpreted_runs", "op_by_op_runs", "compiled_runs", "background_compiles",
            "background_compile_seconds", "compile_failures", "tier_returns_to_interpreter")


def tier() -> str:
    """The forced tier, from LAZYARR_TIER ("auto" when unset); ValueError otherwise."""
    value = os.environ.get("LAZYARR_TIER", "auto").strip().lower() or "auto"
    if value not in TIERS:
        raise ValueError(f"LAZYARR_TIER must be one of {', '.join(TIERS)}, not {value!r}")
    return value


@dataclass
class State:
    """What the policy knows about one program structure (key and signature)."""
    runs: int = 0
    interpreted_best: float = float("inf")
    compiled_times: list = field(default_factory=list)
    looked_up: bool = False       # the disk cache was asked once
    compiled: object = None       # the backend's Compiled, once ready
    future: Future | None = None  # a background compile under way
    failed: bool = False          # its compile failed: interpret for good
    slower: bool = False          # compiled measured slower: interpret for good


class Policy:
    """The decisions alone, on a `State` (no backend, no clock): unit-testable."""

    @staticmethod
    def use_compiled(state: State) -> bool:
        return state.compiled is not None and not state.slower

    @staticmethod
    def start_compile(state: State, interpreted_seconds: float) -> bool:
        """After an interpreted run: whether to start compiling in the background."""
        if state.failed or state.slower or state.compiled is not None or state.future:
            return False
        return state.runs >= HOT or interpreted_seconds >= LONG_RUN_S

    @staticmethod
    def may_submit(in_flight: int) -> bool:
        """One background compile at a time: a loop of ever-new structures must not queue
        compiles that outlive it (and hold the process at exit); a structure passed over
        here asks again at its next run."""
        return in_flight == 0

    @staticmethod
    def timing(state: State) -> bool:
        """Whether the next compiled run is one of the `TRIALS` timed ones (it waits
        for the device, even where the flush need not)."""
        return len(state.compiled_times) < TRIALS

    @staticmethod
    def after_compiled_run(state: State, seconds: float) -> None:
        """Record a compiled run; past `TRIALS` runs, go back to interpreting if the
        compiled program is slower than the interpreter's best."""
        times = state.compiled_times
        if len(times) < TRIALS:
            times.append(seconds)
            if len(times) == TRIALS and min(times) > SLOWER * state.interpreted_best:
                state.slower = True


_states: dict[tuple, State] = {}
_lock = threading.RLock()  # guards _states and each State's fields
_pool: ThreadPoolExecutor | None = None
FAILURES: list[str] = []   # background compile failures, one line each
_submitted: list[State] = []  # states whose compile was submitted (not yet adopted)


def state_of(program, signature) -> State | None:
    """What the tiers know of a program's structure with `signature` (for explain)."""
    with _lock:
        return _states.get((program.key, signature))


def _executor() -> ThreadPoolExecutor:
    global _pool
    with _lock:
        if _pool is None:
            _pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="lazyarr-compile")
        return _pool


def interpreter():
    return _backend.load("numpy")


def interprets_first(backend) -> bool:
    """Whether the auto tier's first tier is the NumPy interpreter: a compiling backend
    running on one CPU device (on a mesh, "cpu*4", every program is compiled)."""
    return (getattr(backend, "compiles", False) and platform(backend) == "cpu"
            and "*" not in str(backend.device))


# Accelerator plugins of jax: with one installed, the default device may not be the CPU.
ACCELERATOR_MODULES = ("jax_cuda12_plugin", "jax_cuda13_plugin", "jax_rocm60_plugin",
                       "jax_rocm7_plugin", "libtpu", "jax_plugins")
_loading: dict[tuple, threading.Thread] = {}
DEFERRED_FLUSHES = 0  # flushes run on the interpreter while the backend was loading


_unloaded_runs: dict = {}  # program key -> runs on the interpreter before any load
_long_run = [False]        # an interpreted run took LONG_RUN_S while nothing was loaded


def backend_for_flush(program=None):
    """The backend to run the next flush (of `program`) on. Under "auto", while the
    selected compiling backend is not loaded yet (importing jax takes a second or more)
    and will run on the CPU, this flush runs on the interpreter, and the backend is
    loaded on a background thread only once a compile is likely: `program`'s structure
    has run `HOT` times, or an interpreted run took `LONG_RUN_S`. A script of one-off
    programs (a loop whose shapes shrink) never imports jax; no flush waits for it."""
    backend = _backend.loaded()
    if backend is not None:
        return backend
    name, options = _backend.selected()
    if name == "numpy" or tier() != "auto" or not _cpu_only(options):
        return _backend.current()
    key = (name, tuple(sorted(options.items())))
    fallback = interpreter()  # before the load below holds the backends' lock
    global DEFERRED_FLUSHES
    with _lock:
        thread = _loading.get(key)
        if thread is None and not _compile_likely(program):
            DEFERRED_FLUSHES += 1
            return fallback
        if thread is None:
            thread = _loading[key] = threading.Thread(
                target=_load_quietly, args=(name, options), daemon=True,
                name="lazyarr-backend-load")
            thread.start()
    if not thread.is_alive():  # it finished (or failed) without being found: load here
        return _backend.current()
    DEFERRED_FLUSHES += 1
    return fallback


def _compile_likely(program) -> bool:
    """Whether to start loading the compiling backend (see `backend_for_flush`)."""
    if program is None or _long_run[0]:
        return True
    if len(_unloaded_runs) >= MAX_STATES:
        _unloaded_runs.clear()
    runs = _unloaded_runs[program.key] = _unloaded_runs.get(program.key, 0) + 1
    return runs >= HOT


def interpreted_before_load(seconds: float) -> None:
    """An interpreted run made while the compiling backend was not loaded took
    `seconds`: a long one makes the next flush start loading it."""
    if seconds >= LONG_RUN_S:
        _long_run[0] = True


def _load_quietly(name, options) -> None:
    try:
        _backend.load_selected(name, options)
    except BaseException:  # noqa: BLE001  (the flush that needs it loads it and raises)
        pass


def _cpu_only(options: dict) -> bool:
    import importlib.util
    device = str(options.get("device") or "")
    if device:
        return device.split(":")[0] == "cpu"
    if os.environ.get("JAX_PLATFORMS", "").strip().lower() == "cpu":
        return True
    return not any(importlib.util.find_spec(m) for m in ACCELERATOR_MODULES)


def run(backend, program, inputs, owned, stats, block: bool = True) -> RunResult:
    """Run `program` on the tier the policy picks; `stats` (the scheduler's Stats) gets
    the tier counters. Raises what the program raises, on either tier. Without `block`
    a run may return futures (see `backend_api.Backend.run`), except while the policy
    times it."""
    forced = tier()
    first = None if forced == "compile" else first_for(backend, forced)
    if first is None:
        return _run(backend, program, inputs, owned, block)
    if forced != "auto":
        return _first_run(first, program, inputs, owned, stats, block)
    signature = backend.signature(program, inputs, owned)
    key = (program.key, signature)
    with _lock:
        state = _states.get(key)
        if state is None:
            if len(_states) >= MAX_STATES:
                _states.clear()
            state = _states[key] = State()
        state.runs += 1
        _adopt(state, stats)
        compiled = state.compiled if Policy.use_compiled(state) else None
        ask_disk = compiled is None and not state.looked_up and not state.failed
        state.looked_up = True
    events = Events()
    if ask_disk:  # a program compiled in an earlier process runs compiled at once
        found, events = backend.lookup(program, signature, disk=True)
        if found is not None:
            with _lock:
                state.compiled = compiled = found
    if compiled is not None:
        with _lock:
            timed = Policy.timing(state)
        start = time.perf_counter()
        ran = _run(compiled, None, inputs, None, timed or block, backend)
        if timed:
            with _lock:
                Policy.after_compiled_run(state, time.perf_counter() - start)
                if state.slower:
                    stats.backend_events["tier_returns_to_interpreter"] += 1
        stats.backend_events["compiled_runs"] += 1
        return RunResult(ran.outputs, events.add(ran.events), ran.deferred)
    # The first tier's time counts only where the run waited for its results (the
    # interpreter always does; op by op, a size cut need not).
    timed = block or first is interpreter() or state.interpreted_best == float("inf")
    start = time.perf_counter()
    result = _first_run(first, program, inputs, owned, stats, timed)
    seconds = time.perf_counter() - start if timed else 0.0
    with _lock:
        if timed:
            state.interpreted_best = min(state.interpreted_best, seconds)
        if Policy.start_compile(state, seconds) and Policy.may_submit(_in_flight()):
            state.future = _executor().submit(backend.compile, program, signature)
            state.future.site = _site(program)
            _submitted[:] = [st for st in _submitted if st.future is not None] + [state]
            stats.backend_events["background_compiles"] += 1
    return RunResult(result.outputs, events.add(result.events), result.deferred)


def first_tier(backend):
    """Where the auto policy runs a program before it is compiled (and where a program
    that is never compiled stays): the NumPy interpreter on the CPU, the backend's
    op-by-op runner (`op_by_op()`: cached single-primitive executables on its device)
    elsewhere; None where the backend runs every program itself (it does not compile,
    or offers no first tier off the CPU)."""
    if not getattr(backend, "compiles", False):
        return None
    if platform(backend) == "cpu":  # a CPU mesh ("cpu*4") has none: XLA partitions it all
        return interpreter() if "*" not in str(backend.device) else None
    return _op_by_op(backend)


def platform(backend) -> str:
    """The platform of a backend's device name: "cpu", "gpu", "tpu", ... ("cpu*4": cpu)."""
    return str(backend.device).partition(":")[0].partition("*")[0]


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


def _in_flight() -> int:
    """Background compiles submitted and not yet adopted or finished."""
    return sum(1 for st in _submitted if st.future is not None and not st.future.done())


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
