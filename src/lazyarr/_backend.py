"""The backend protocol, and backend discovery through the `lazyarr.backends` entry points.

A backend runs a `Program` (a linearized graph, see `_flush`) on input buffers and
returns output buffers. Built-in backends are registered in lazyarr's own packaging
metadata exactly as a third party's would be, and a backend module is imported only
when it is first selected: `import lazyarr` imports no backend.

Selection, most specific first: `with use_backend(...)`, `set_backend(...)`, the
`LAZYARR_BACKEND` environment variable ("name" or "name:device"), then the first
built-in that loads (xla, then numpy).
"""

from __future__ import annotations

import contextlib
import functools
import os
import threading
from importlib.metadata import entry_points
from typing import Any, Protocol, Sequence

import numpy as np

ENTRY_POINT_GROUP = "lazyarr.backends"
DEFAULT_ORDER = ("xla", "numpy")


class Backend(Protocol):
    name: str
    device: str  # where its programs run: "cpu", "gpu:0", ...

    def run(self, program, inputs: Sequence[Any], owned: frozenset[int] = frozenset()) -> list:
        """Evaluate `program` on `inputs` (buffers or NumPy arrays); return its outputs,
        buffers that `np.asarray` converts to NumPy arrays. A backend with a true
        `donates` attribute is told which inputs' buffers nothing else can see
        (`owned` positions): it may reuse them for outputs."""

    def transfer(self, buffer, device: str) -> Any:
        """`buffer` placed on `device`; ValueError for a device it does not have."""

    def device_of(self, buffer) -> str:
        """The device holding `buffer`, one of its results."""


class BackendError(RuntimeError):
    """A backend could not be found or loaded."""


def available() -> dict[str, Any]:
    """Entry points of the installed backends, by name."""
    return {ep.name: ep for ep in entry_points(group=ENTRY_POINT_GROUP)}


_instances: dict[tuple, Backend] = {}
_lock = threading.Lock()


def load(name: str, **options) -> Backend:
    """The backend `name` with `options` (e.g. device="gpu"), created once and reused."""
    key = (name, tuple(sorted(options.items())))
    with _lock:
        if key not in _instances:
            eps = available()
            if name not in eps:
                known = ", ".join(sorted(eps)) or "none (is lazyarr installed?)"
                raise BackendError(f"no lazyarr backend named {name!r}; installed: {known}")
            _instances[key] = eps[name].load()(**options)
        return _instances[key]


class _Selection(threading.local):
    def __init__(self):
        self.stack: list[tuple[str, dict]] = []


_selection = _Selection()
_global: tuple[str, dict] | None = None


def _from_environment() -> tuple[str, dict] | None:
    spec = os.environ.get("LAZYARR_BACKEND", "").strip()
    if not spec:
        return None
    name, _, device = spec.partition(":")
    return name, ({"device": device} if device else {})


def current() -> Backend:
    """The backend that the next flush will use."""
    if _selection.stack:
        name, options = _selection.stack[-1]
        return load(name, **options)
    choice = _global or _from_environment()
    if choice is not None:
        return load(choice[0], **choice[1])
    return _default()


@functools.cache
def _default() -> Backend:
    """The first built-in backend that loads (looked up once: reading the installed
    packages' entry points costs milliseconds)."""
    installed = available()
    errors = []
    for name in DEFAULT_ORDER:
        if name in installed:
            try:
                return load(name)
            except ImportError as exc:  # e.g. jax missing: fall through to numpy
                errors.append(f"{name}: {exc}")
    raise BackendError("no lazyarr backend could be loaded: " + "; ".join(errors))


def set_backend(name: str, **options) -> None:
    """Select the backend (and its options, e.g. device="gpu") for this process."""
    global _global
    load(name, **options)  # fail now, at the caller's line, if it cannot load
    _global = (name, options)


@contextlib.contextmanager
def use_backend(name: str, **options):
    """Within the block, flushes in this thread run on backend `name`."""
    load(name, **options)
    _selection.stack.append((name, options))
    try:
        yield load(name, **options)
    finally:
        _selection.stack.pop()


def device_of(node) -> str:
    """Where `node`'s value lives: its buffer's device once a backend computed it, else
    the device of the backend that will compute it (NumPy data is placed on use)."""
    backend = current()
    if node.is_computed and not isinstance(node.value, np.ndarray):
        return backend.device_of(node.value)
    return backend.device
