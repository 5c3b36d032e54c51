"""Several processes, one program: `lazyarr.distributed.initialize(...)` joins this
process to a multi-process run (`jax.distributed.initialize`, through the XLA backend)
and selects the XLA backend over a global mesh of every process's devices.

The same script then runs on every process (SPMD). Host data (`lazyarr.asarray` of a
NumPy array, `lazyarr.random`) must be the same on every process; each device is given
its part of it. Host reads (`print`, `float(x)`, `numpy.asarray(x)`) return the same
global value on every process: a sharded result is gathered by XLA first.

Failures (docs/multi-device.md): when a process dies, the next program or host read on
the others that needs it raises `PeerFailure` naming it (`on_peer_failure="raise"`,
the default, through jax's `jax_enable_recoverability`); a process that stops without
dying is declared dead after `heartbeat_timeout_seconds` without heartbeats, and a
collective waits for a peer at most `collective_timeout_seconds`. The death of process
0, which hosts jax's coordination service, still ends the others (jax's design).
`on_peer_failure="abort"` keeps jax's default: every process ends when one fails.
"""

from __future__ import annotations

import os

from . import _backend

from ._errors import PeerFailure

__all__ = ["PeerFailure", "initialize", "process_count", "process_index", "shutdown"]

# Shorter than jax's defaults (300 s to connect, 100 s without heartbeats, XLA's 30
# minutes for a CPU collective to wait for its peers): a lost process is reported
# within minutes. A collective's timeout must exceed the longest time one process may
# run ahead of another (a long local computation or compile before a collective).
INITIALIZATION_TIMEOUT = 120
HEARTBEAT_TIMEOUT = 30
COLLECTIVE_TIMEOUT = 300
SHUTDOWN_TIMEOUT = 30


def _from_environment(value, names: tuple[str, ...], convert=str):
    if value is not None:
        return value
    for name in names:
        text = os.environ.get(name, "").strip()
        if text:
            try:
                return convert(text)
            except ValueError:
                raise ValueError(f"{name} must be an integer, not {text!r}") from None
    return None


def initialize(coordinator_address: str | None = None, num_processes: int | None = None,
               process_id: int | None = None, *, devices="all", platform: str | None = None,
               local_device_ids=None, cpu_collectives: str = "gloo",
               initialization_timeout: int = INITIALIZATION_TIMEOUT,
               heartbeat_timeout_seconds: int = HEARTBEAT_TIMEOUT,
               shutdown_timeout_seconds: int = SHUTDOWN_TIMEOUT,
               on_peer_failure: str = "raise",
               collective_timeout_seconds: int | None = COLLECTIVE_TIMEOUT) -> None:
    """Join a multi-process run and select the XLA backend on `devices` of the global
    mesh ("all" of `platform`'s devices over every process by default).

    The coordinator address ("host:port" of process 0), process count and id come from
    the arguments, else from JAX_COORDINATOR_ADDRESS, JAX_NUM_PROCESSES and
    JAX_PROCESS_ID, else from the cluster (Slurm, Open MPI, Cloud TPU) as jax detects
    it. Must run before anything is computed on the XLA backend. `cpu_collectives` is
    how CPU devices of different processes talk ("gloo"; None keeps jax's setting).

    `on_peer_failure` is what another process's failure does here: "raise" (the next
    program or host read that needs it raises PeerFailure; arrays of this process alone
    stay usable) or "abort" (jax's default: this process ends too, after the heartbeat
    timeout). `collective_timeout_seconds` bounds how long a CPU collective waits for a
    peer under "raise" (XLA's --xla_cpu_collective_timeout_seconds; None keeps XLA's 30
    minutes)."""
    coordinator_address = _from_environment(coordinator_address, ("JAX_COORDINATOR_ADDRESS",))
    num_processes = _from_environment(num_processes, ("JAX_NUM_PROCESSES",), int)
    process_id = _from_environment(process_id, ("JAX_PROCESS_ID",), int)
    if num_processes is not None and num_processes < 1:
        raise ValueError(f"num_processes must be at least 1, not {num_processes}")
    if process_id is not None and num_processes is not None and \
            not 0 <= process_id < num_processes:
        raise ValueError(f"process_id must be in 0..{num_processes - 1}, not {process_id}")
    factory = _backend._entry_point("xla").load()
    factory.initialize_distributed(
        coordinator_address=coordinator_address, num_processes=num_processes,
        process_id=process_id, local_device_ids=local_device_ids,
        cpu_collectives=cpu_collectives, initialization_timeout=initialization_timeout,
        heartbeat_timeout_seconds=heartbeat_timeout_seconds,
        shutdown_timeout_seconds=shutdown_timeout_seconds, on_peer_failure=on_peer_failure,
        collective_timeout_seconds=collective_timeout_seconds)
    _backend.set_backend("xla", device=platform, devices=devices)


def process_index() -> int:
    """This process's id in the run (0 when not distributed)."""
    return _backend._entry_point("xla").load().process_index()


def process_count() -> int:
    """How many processes the run has (1 when not distributed)."""
    return _backend._entry_point("xla").load().process_count()


def shutdown() -> None:
    """Leave the run (waits up to the shutdown timeout for the others)."""
    _backend._entry_point("xla").load().shutdown_distributed()
