"""The backend protocol, and backend discovery through the `lazyarr.backends` entry points.

A backend runs a `Program` (see `backend_api`, the whole contract) on input buffers and
returns output buffers with the events. Every backend, the core's own NumPy reference
included, is registered through packaging metadata, and a backend module is imported
only when it is first selected: `import lazyarr` imports no backend. A plugin that
cannot be imported, breaks the contract or shares its name with another fails when it
is selected, with an error naming it and its entry point; the others stay usable.

Selection, most specific first: `with use_backend(...)`, `set_backend(...)`, the
`LAZYARR_BACKEND` environment variable ("name" or "name:device"; for the XLA backend
"xla:cpu*4" or "xla:gpu*" select a mesh of 4 or of all devices, docs/multi-device.md),
then the first built-in that loads (xla, then numpy).
"""

from __future__ import annotations

import contextlib
import functools
import os
import sys
import threading
import warnings
from typing import Any

import numpy as np

from . import _interrupts, _settings, backend_api
from ._metadata import entry_points  # importlib.metadata's, read without importing it

ENTRY_POINT_GROUP = "lazyarr.backends"
DEFAULT_ORDER = ("xla", "numpy")
# Accelerator plugins of jax: with one installed, the default device may not be the CPU.
ACCELERATOR_MODULES = ("jax_cuda12_plugin", "jax_cuda13_plugin", "jax_rocm60_plugin",
                       "jax_rocm7_plugin", "libtpu", "jax_plugins")


# The protocol itself is the public backend API's (`lazyarr.backend_api.Backend`).
Backend = backend_api.Backend


class BackendError(RuntimeError):
    """A backend could not be found or loaded, or breaks the contract."""


def available() -> dict[str, Any]:
    """Entry points of the installed backends, by name (a name that two distributions
    register is listed once; selecting it is an error naming both)."""
    return {ep.name: ep for ep in entry_points(group=ENTRY_POINT_GROUP)}


def _describe(ep) -> str:
    dist = getattr(ep, "dist", None)
    where = f" (distribution {dist.name} {dist.version})" if dist is not None else ""
    return f"entry point {ep.name} = {ep.value}{where}"


def _entry_point(name: str):
    """The one entry point registering backend `name`; BackendError naming the plugins
    when there is none or more than one."""
    found = [ep for ep in entry_points(group=ENTRY_POINT_GROUP) if ep.name == name]
    distinct = {(ep.value, getattr(getattr(ep, "dist", None), "name", None)) for ep in found}
    if not found:
        known = ", ".join(sorted(available())) or "none (is lazyarr installed?)"
        raise BackendError(f"no lazyarr backend named {name!r}; installed: {known}")
    if len(distinct) > 1:
        raise BackendError(f"the lazyarr backend name {name!r} is registered twice, by "
                           + " and by ".join(_describe(ep) for ep in found)
                           + "; uninstall one of them")
    return found[0]


def _create(name: str, options: dict):
    """Import, check and instantiate backend `name`: every failure is a BackendError
    naming the plugin and its entry point (an ImportError stays one, so the default
    can fall through to the next backend)."""
    ep = _entry_point(name)
    where = _describe(ep)
    try:
        factory = ep.load()
    except ImportError as exc:
        raise BackendImportError(f"lazyarr backend {name!r} could not be imported: {where}: "
                                 f"{type(exc).__name__}: {exc}") from exc
    except Exception as exc:
        raise BackendError(f"lazyarr backend {name!r} could not be imported: {where}: "
                           f"{type(exc).__name__}: {exc}") from exc
    declared = getattr(factory, "contract_version", None)
    if not backend_api.compatible(declared):
        raise BackendError(
            f"lazyarr backend {name!r} ({where}) implements backend contract version "
            f"{declared!r}, but this lazyarr implements version "
            f"{backend_api.CONTRACT_VERSION!r}; install a matching version of the plugin")
    required = backend_api.REQUIRED + (backend_api.REQUIRED_FOR_COMPILING
                                       if getattr(factory, "compiles", False) else ())
    missing = [m for m in required if not callable(getattr(factory, m, None))]
    missing += [a for a in ("name", "compiles", "donates") if not hasattr(factory, a)]
    if missing:
        raise BackendError(f"lazyarr backend {name!r} ({where}) lacks what the backend "
                           f"contract requires: {', '.join(missing)}")
    instance = factory(**options)
    if getattr(instance, "name", None) != name:
        raise BackendError(f"lazyarr backend {name!r} ({where}) calls itself "
                           f"{getattr(instance, 'name', None)!r}")
    return instance


class BackendImportError(BackendError, ImportError):
    """A backend's module could not be imported (a missing dependency, such as jax)."""


_instances: dict[tuple, Backend] = {}
_lock = threading.Lock()


def instance_key(name: str, options: dict) -> tuple:
    """A backend instance's key (in `_instances`, and the tiers' background loads): its
    name and sorted options."""
    return (name, tuple(sorted((k, tuple(v) if isinstance(v, list) else v)
                               for k, v in options.items())) if options else ())


def load(name: str, **options) -> Backend:
    """The backend `name` with `options` (e.g. device="gpu"), created once and reused."""
    key = instance_key(name, options)
    instance = _instances.get(key)  # (created: no lock; the tiers ask at every flush)
    if instance is not None:
        return instance
    with _lock, _interrupts.deferred():  # Ctrl-C mid-import would leave jax half-made
        if key not in _instances:
            # Importing a backend's libraries (jax) draws from NumPy's global
            # RandomState; the user's stream must continue as if nothing happened.
            # (Where numpy.random is not imported yet, the global state does not
            # exist: nothing to keep, and importing numpy.random was 7 ms.)
            state = np.random.get_state() if "numpy.random" in sys.modules else None
            try:
                _instances[key] = _create(name, options)
            finally:
                if state is not None:
                    np.random.set_state(state)
            _settings.changed()  # a decision made before it loaded (see _eager) is stale
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


def selected() -> tuple[str | None, dict]:
    """(name, options) of the backend the next flush uses, without loading it; the name
    is None when that is the default and it has not been chosen yet."""
    if _selection.stack:
        return _selection.stack[-1]
    choice = _global or _from_environment()
    if choice is not None:
        return choice
    if _default.cache_info().currsize:
        return _default().name, {}
    return None, {}


def loaded() -> Backend | None:
    """The backend the next flush uses if it is loaded already, else None (nothing is
    loaded here)."""
    return instance(*selected())


def instance(name: str | None, options: dict) -> Backend | None:
    """Backend `name` with `options` if it is loaded already, else None (as `loaded`,
    for a selection read already: each reads LAZYARR_BACKEND, a microsecond)."""
    return None if name is None else _instances.get(instance_key(name, options))


def load_selected(name: str | None, options: dict) -> Backend:
    """Load what `selected()` named (from any thread: the selection is per thread)."""
    return _default() if name is None else load(name, **options)


@functools.cache
def _default() -> Backend:
    """The first built-in backend that loads (looked up once: reading the installed
    packages' entry points costs milliseconds)."""
    installed = available()
    errors = []
    for name in DEFAULT_ORDER:
        if name in installed:
            try:
                chosen = load(name)
            except (ImportError, BackendError) as exc:  # a broken plugin: the next one
                errors.append(f"{name}: {exc}")
                continue
            if errors:  # an installed default that does not load is worth knowing
                warnings.warn("; ".join(errors) + f"; lazyarr uses the {name!r} backend",
                              RuntimeWarning, stacklevel=2)
            return chosen
    raise BackendError("no lazyarr backend could be loaded: " + "; ".join(errors))


def set_backend(name: str, **options) -> None:
    """Select the backend (and its options, e.g. device="gpu") for this process."""
    global _global
    load(name, **options)  # fail now, at the caller's line, if it cannot load
    _global = (name, options)
    _settings.changed()


@contextlib.contextmanager
def use_backend(name: str, **options):
    """Within the block, flushes in this thread run on backend `name`."""
    load(name, **options)
    _selection.stack.append((name, options))
    _settings.changed()
    try:
        yield load(name, **options)
    finally:
        _selection.stack.pop()
        _settings.changed()


def default_is_cpu() -> bool:
    """Whether the default device of a backend selected without one is the CPU:
    JAX_PLATFORMS=cpu, or no accelerator plugin of jax installed."""
    if os.environ.get("JAX_PLATFORMS", "").strip().lower() == "cpu":
        return True
    return not accelerator_installed()


@functools.cache
def accelerator_installed() -> bool:
    """Whether a jax accelerator plugin is installed (looked up once: each lookup scans
    sys.path, 0.1-0.5 ms for the six names, which every flush paid while XLA was not
    loaded)."""
    return any(_findable(m) for m in ACCELERATOR_MODULES)


def _findable(name: str) -> bool:
    """Whether top-level module `name` is imported or importable: what
    `importlib.util.find_spec(name) is not None` says, asking the meta-path finders
    as it does, without importing importlib.util (with importlib.abc: 1 ms of
    `import lazyarr`)."""
    return name in sys.modules or _spec(name) is not None


def _spec(name: str):
    """The module spec of top-level module `name` from the meta-path finders, or None."""
    for finder in sys.meta_path:
        find = getattr(finder, "find_spec", None)
        spec = find(name, None) if find is not None else None
        if spec is not None:
            return spec
    return None


def likely_name(name: str | None) -> str | None:
    """`name`, or where None (the default, not chosen yet) the first built-in installed:
    the one the default will be unless it fails to load."""
    return _first_installed() if name is None else name


@functools.cache
def _first_installed() -> str | None:
    """(Looked up once: reading the entry points took 1.3 ms, and the tiers ask at the
    first flush of every new program while the backend is not loaded.)"""
    installed = available()
    return next((n for n in DEFAULT_ORDER if n in installed), None)


def source_folders(name: str) -> list[str]:
    """The folders holding the code of backend `name`, found through its entry point
    without importing it: what dates a record of how its programs ran (`_ledger`).
    Empty where it is not installed."""
    ep = available().get(name)
    if ep is None:
        return []
    spec = _spec(ep.value.partition(":")[0].partition(".")[0])
    if spec is None:
        return []
    if spec.submodule_search_locations:
        return list(spec.submodule_search_locations)
    return [os.path.dirname(spec.origin)] if spec.origin else []


def device_of(node) -> str:
    """Where `node`'s value lives: its buffer's device once a backend computed it, else
    the device of the backend that will compute it (NumPy data is placed on use)."""
    backend = current()
    if node.is_computed and not isinstance(node.value, np.ndarray):
        return backend.device_of(node.value)
    return backend.device
