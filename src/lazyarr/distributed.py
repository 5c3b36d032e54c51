"""Several processes, one program: `lazyarr.distributed.initialize(...)` joins this
process to a multi-process run (`jax.distributed.initialize`, through the XLA backend)
and selects the XLA backend over a global mesh of every process's devices.

The same script then runs on every process (SPMD). Host data (`lazyarr.asarray` of a
NumPy array, `lazyarr.random`) must be the same on every process; each device is given
its part of it. Host reads (`print`, `float(x)`, `numpy.asarray(x)`) return the same
global value on every process: a sharded result is gathered by XLA first.

Failures: each process sends heartbeats to the coordinator (process 0); one that sends
none for `heartbeat_timeout_seconds` is declared dead and the coordination service
stops the other processes with an error naming it, so a crash never hangs the rest.
docs/multi-device.md gives the details.
"""

from __future__ import annotations

import os

from . import _backend

# Shorter than jax's defaults (300 s to connect, 100 s without heartbeats): a lost
# process is reported within a minute.
INITIALIZATION_TIMEOUT = 120
HEARTBEAT_TIMEOUT = 30
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
               shutdown_timeout_seconds: int = SHUTDOWN_TIMEOUT) -> None:
    """Join a multi-process run and select the XLA backend on `devices` of the global
    mesh ("all" of `platform`'s devices over every process by default).

    The coordinator address ("host:port" of process 0), process count and id come from
    the arguments, else from JAX_COORDINATOR_ADDRESS, JAX_NUM_PROCESSES and
    JAX_PROCESS_ID, else from the cluster (Slurm, Open MPI, Cloud TPU) as jax detects
    it. Must run before anything is computed on the XLA backend. `cpu_collectives` is
    how CPU devices of different processes talk ("gloo"; None keeps jax's setting)."""
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
        shutdown_timeout_seconds=shutdown_timeout_seconds)
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
