"""Ctrl-C at any moment of a flush (loading the backend, which imports jax; compiling;
running; the interpreter) raises KeyboardInterrupt once, and lazyarr and every array
stay usable: the interrupted read, run again, gives NumPy's result (issue 14).

Each case runs a script in a new process (the first backend load happens once per
process) whose watcher thread sends SIGINT to the process the moment the main thread
is inside the named step."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from lazyarr import _backend, _interrupts

ROOT = Path(__file__).resolve().parents[1]

SCRIPT = """
import json, os, signal, sys, threading, time
import numpy
# Python's own Ctrl-C handling, as in a terminal: a shell's background job (a suite run
# with `&`) starts its processes with SIGINT ignored, and Python then installs none.
signal.signal(signal.SIGINT, signal.default_int_handler)
where = sys.argv[1]
main = threading.get_ident()

def inside():
    frame, steps = sys._current_frames().get(main), []
    while frame is not None:
        steps.append((frame.f_code.co_filename, frame.f_code.co_name))
        frame = frame.f_back
    return steps

STEP = {
    "import": lambda steps: any(f"{os.sep}jax{os.sep}" in f for f, _ in steps),
    "compile": lambda steps: any(n == "_compile" and "lazyarr_xla" in f for f, n in steps),
    "run": lambda steps: any(n == "run" and "lazyarr_xla" in f for f, n in steps),
    "flush": lambda steps: any(n == "_evaluate" for _, n in steps),
}[where]
sent = threading.Event()

def watch():
    while not sent.is_set():
        if STEP(inside()):
            os.kill(os.getpid(), signal.SIGINT)
            sent.set()
        time.sleep(0.0002)

threading.Thread(target=watch, daemon=True).start()
import lazyarr as la
host = numpy.linspace(0, 1, 3_000_000)
a = la.array(host)  # (a copy: what reads a shared `asarray(host)` is computed at once)
b = la.cumsum(la.sin(a) * 2 + 1)
c = (a * 3).sum()
interrupts, at_interrupt = 0, None
for attempt in range(3):
    try:
        last = float(b[-1])
        break
    except KeyboardInterrupt:
        interrupts += 1
        # What the interrupted flush left: it must have finished (the backend loaded,
        # the program compiled and run, b computed), so the retry runs nothing.
        at_interrupt = {"flushes": la.stats()["flushes_total"],
                        "compiles": la.stats()["compiles"],
                        "loaded": la._backend.loaded() is not None}
retry = {"flushes": la.stats()["flushes_total"], "compiles": la.stats()["compiles"]}
fired = sent.is_set()
sent.set()
print(json.dumps({
    "fired": fired, "interrupts": interrupts, "attempts": attempt + 1,
    "b": bool(numpy.allclose(numpy.asarray(b), numpy.cumsum(numpy.sin(host) * 2 + 1),
                             rtol=1e-12, atol=0)),
    "last": last, "c": float(c), "c_want": float((host * 3).sum()),
    "later": float((la.asarray(host[:7]) ** 2).sum()), "later_want": float((host[:7] ** 2).sum()),
    "backend": la.stats()["compiles"] > 0, "at_interrupt": at_interrupt, "retry": retry}))
"""


# These checks start their own processes: run once, not once per backend.
pytestmark = pytest.mark.once("xla")


@pytest.mark.parametrize("where, tier, name", [
    ("import", "compile", "xla"),    # the first backend load: jax's import, in the flush
    ("compile", "compile", "xla"),
    ("run", "compile", "xla"),
    ("flush", "auto", "xla"),        # on the interpreter while jax loads in the background
    ("flush", "compile", "numpy"),
])
def test_ctrl_c_raises_once_and_leaves_everything_usable(tmp_path, where, tier, name):
    if name == "xla" and "xla" not in _backend.available():
        pytest.skip("the xla backend is not installed")
    env = dict(os.environ, LAZYARR_TIER=tier,
               LAZYARR_CACHE_DIR=str(tmp_path))  # an empty cache: this process compiles
    env.pop("LAZYARR_BACKEND", None)
    if name != "xla":  # xla is the default: the first flush loads it
        env["LAZYARR_BACKEND"] = name
    paths = [str(ROOT / "src"), str(ROOT / "backends" / "xla" / "src")]
    env["PYTHONPATH"] = os.pathsep.join(paths + [env.get("PYTHONPATH", "")])
    done = subprocess.run([sys.executable, "-c", textwrap.dedent(SCRIPT), where], env=env,
                          capture_output=True, text=True, timeout=240)
    assert done.returncode == 0, done.stderr[-4000:]
    assert "could not be imported" not in done.stderr, done.stderr[-4000:]
    got = json.loads(done.stdout.strip().splitlines()[-1])
    assert got["fired"], "the watcher never saw the main thread in that step"
    assert got["interrupts"] == 1 and got["attempts"] == 2, got  # raised once, not swallowed
    # The interrupt came after the flush had finished, whole: the backend was loaded
    # (not cut off in the middle of jax's import), and the retry ran no flush.
    if tier == "compile":  # under "auto" jax loads on a thread of its own
        assert got["at_interrupt"]["loaded"], got
    assert got["retry"]["flushes"] == got["at_interrupt"]["flushes"], got
    assert got["retry"]["compiles"] == got["at_interrupt"]["compiles"], got
    assert got["b"] and abs(got["c"] - got["c_want"]) <= 1e-9 * abs(got["c_want"]), got
    assert got["later"] == pytest.approx(got["later_want"], rel=1e-15)
    if name == "xla" and tier == "compile":
        assert got["backend"], "lazyarr fell back from XLA after the interrupt"


@pytest.fixture
def python_sigint():
    """Python's default SIGINT handler for the test (see SCRIPT), which lazyarr's next
    block replaces with its own; then the handler and lazyarr's state from before."""
    before = signal.signal(signal.SIGINT, signal.default_int_handler)
    installed, _interrupts._deferral.installed = _interrupts._deferral.installed, False
    yield
    signal.signal(signal.SIGINT, before)
    _interrupts._deferral.installed = installed


@pytest.mark.usefixtures("python_sigint")
def test_the_deferral_raises_at_the_end_and_a_second_ctrl_c_at_once():
    ran = []
    with pytest.raises(KeyboardInterrupt):
        with _interrupts.deferred():
            os.kill(os.getpid(), signal.SIGINT)
            ran.append("after the first")  # the block goes on
    assert ran == ["after the first"]
    with pytest.raises(KeyboardInterrupt):
        with _interrupts.deferred():
            os.kill(os.getpid(), signal.SIGINT)
            os.kill(os.getpid(), signal.SIGINT)
            ran.append("not reached")
    assert ran == ["after the first"]
    with _interrupts.deferred():  # nothing pending: nothing raised
        pass
    if signal.getsignal(signal.SIGINT) == _interrupts._deferral.handler:
        with pytest.raises(KeyboardInterrupt):  # outside a block: Python's default
            os.kill(os.getpid(), signal.SIGINT)
            for _ in range(1000):  # the handler runs at the next bytecodes
                pass
