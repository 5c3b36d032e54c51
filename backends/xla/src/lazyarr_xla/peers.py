"""A failed process in a multi-process run (lazyarr.distributed), seen by the others as
a `PeerFailure` exception instead of jax's process abort.

By default jax's coordination service ends every process when one stops sending
heartbeats (its "fate sharing": a fatal error, SIGABRT, after the heartbeat timeout).
With `on_peer_failure="raise"` lazyarr turns on jax's own `jax_enable_recoverability`
(the survivors keep running) and bounds the collectives that wait on a dead or frozen
peer with XLA's `--xla_cpu_collective_timeout_seconds`; then:

- a program or host read that needs a failed process fails in XLA (gloo reports the
  closed connection at once; a frozen peer is a timeout after the collective timeout);
- lazyarr asks jax which processes are alive (`jax.experimental.multihost_utils.
  live_devices`, which counts a process as dead once it missed heartbeats for the
  heartbeat timeout), and raises `PeerFailure` naming them;
- every later program over the failed processes' devices raises it at once.

Process 0 hosts the coordination service: its death still ends the others (jax's
design; their message is jax's "Failed to send RPC to coordination service"). Since
recoverable processes skip jax's shutdown barrier, each process waits at exit for the
others (at most the shutdown timeout), so that process 0 does not end the run early.
"""

from __future__ import annotations

import atexit
import os
import threading
import time

import jax
from jax.experimental import multihost_utils

from lazyarr.backend_api import PeerFailure

MODES = ("raise", "abort")


class _Settings:
    mode = "abort"  # jax's default until `configure` says otherwise
    heartbeat = 100
    collective = 1800  # XLA's own CPU collective timeout: 30 minutes
    shutdown = 300
    failed: dict[int, float] = {}  # process id -> time it was found dead (monotonic)
    detail = ""


SETTINGS = _Settings()
_lock = threading.Lock()


def configure(mode: str, heartbeat: int, collective: int, shutdown: int) -> None:
    """Before `jax.distributed.initialize`: choose what a failed peer does to the others."""
    if mode not in MODES:
        raise ValueError(f"on_peer_failure must be one of {MODES}, not {mode!r}")
    if collective is not None and collective < 1:
        raise ValueError(f"collective_timeout_seconds must be at least 1, not {collective}")
    SETTINGS.mode, SETTINGS.heartbeat, SETTINGS.shutdown = mode, heartbeat, shutdown
    if mode == "abort":
        return
    jax.config.update("jax_enable_recoverability", True)
    if collective is not None:
        SETTINGS.collective = collective
        flags = os.environ.get("XLA_FLAGS", "")
        if "xla_cpu_collective_timeout_seconds" not in flags:  # read when XLA starts
            os.environ["XLA_FLAGS"] = f"{flags} --xla_cpu_collective_timeout_seconds={collective}".strip()
    atexit.register(_wait_for_the_others)


def active() -> bool:
    """Whether failures are raised (a recoverable multi-process run)."""
    return SETTINGS.mode == "raise" and jax.process_count() > 1


def _processes(devices) -> set[int]:
    return {d.process_index for d in devices}


def alive(timeout: float) -> set[int] | None:
    """The processes jax counts as alive, agreed by every live process (the
    `live_devices` barrier: it returns once every live process has asked, and counts
    one that missed heartbeats for the heartbeat timeout as dead). None if no answer
    came within `timeout` seconds (a live process that does not ask)."""
    answer: dict = {}

    def ask():
        everyone = jax.devices()
        seen = None
        try:
            with multihost_utils.live_devices(everyone) as devices:
                seen = _processes(devices)
            answer["alive"] = seen
        except multihost_utils.ProcessFailureError as exc:
            answer["alive"] = (seen if seen is not None else _processes(everyone)) - \
                _processes(exc.failed_devices)
        except Exception as exc:  # noqa: BLE001  (reported as "could not tell")
            answer["error"] = exc

    thread = threading.Thread(target=ask, daemon=True, name="lazyarr-live-processes")
    thread.start()
    thread.join(timeout)
    return answer.get("alive")


def check(devices) -> None:
    """PeerFailure at once if a process owning one of `devices` is known to have failed."""
    if SETTINGS.failed and _processes(devices) & SETTINGS.failed.keys():
        raise _failure(sorted(SETTINGS.failed), SETTINGS.detail, again=True)


def translate(exc: BaseException, devices, what: str) -> BaseException:
    """The exception to raise for `exc`, which running or reading on `devices` raised: a
    PeerFailure naming the failed processes when other processes are gone, else `exc`."""
    if not active() or isinstance(exc, (PeerFailure, MemoryError)):
        return exc
    involved = _processes(devices)
    if involved <= {jax.process_index()}:
        return exc  # a program of this process's devices alone
    with _lock:
        if not SETTINGS.failed:
            started = time.monotonic()
            live = alive(SETTINGS.heartbeat * 2 + 10)
            if live is None:
                return PeerFailure(
                    f"{what} failed in a run of {jax.process_count()} processes, and the "
                    f"live processes did not agree on which are alive within "
                    f"{SETTINGS.heartbeat * 2 + 10} s: {_first_line(exc)}")
            dead = sorted(involved - live)
            if not dead:
                return exc  # every process is alive: an error of the program itself
            now = time.monotonic()
            SETTINGS.failed = {p: now for p in dead}
            SETTINGS.detail = (f"{_first_line(exc)} (found in {now - started:.1f} s)")
        return _failure(sorted(SETTINGS.failed), SETTINGS.detail)


def _failure(dead: list[int], detail: str, again: bool = False) -> PeerFailure:
    names = ", ".join(str(p) for p in dead)
    which = "process" if len(dead) == 1 else "processes"
    message = (f"{which} {names} of this {jax.process_count()}-process run failed "
               f"(jax counts a process as dead after {SETTINGS.heartbeat} s without "
               f"heartbeats; a collective waits at most {SETTINGS.collective} s for a peer)")
    message += (": every program over its devices fails from here" if again
                else f": {detail}")
    error = PeerFailure(message)
    error.processes = tuple(dead)
    return error


def _first_line(exc: BaseException) -> str:
    lines = str(exc).strip().splitlines() or [""]
    return f"{type(exc).__name__}: {lines[0][:300]}"


def _wait_for_the_others() -> None:
    """At exit: meet the other live processes (bounded by the shutdown timeout), so that
    process 0, which hosts the coordination service, is the last to leave: the others
    disconnect, and its second `live_devices` barrier returns once they are gone
    (measured: it waited 2.0 s for a process that took 2 s to disconnect)."""
    try:
        if jax.process_count() < 2:
            return
        alive(SETTINGS.shutdown)
        if jax.process_index() != 0:
            jax.distributed.shutdown()  # disconnect while process 0's service is up
        else:  # until the others have disconnected (they no longer count as alive)
            alive(SETTINGS.shutdown)
    except Exception:  # noqa: BLE001  (at exit: nothing left to report to)
        pass
