"""Eager execution of small operations on the CPU (DESIGN: "Small arrays on the CPU may
be computed at once (eagerly through NumPy) when that is cheaper than recording them").

When every input of a new operation is a computed NumPy buffer, its result has at most
`MAX_ELEMENTS` elements, and the flush that would compute it would run on the NumPy
interpreter anyway (the reference backend, or a compiling backend on the CPU under the
"auto" or "interpret" tier), the operation is computed at once with its reference
implementation (what the interpreter would run) and recorded as a computed leaf. Results
are the interpreter's, so NumPy's; errors are raised at the call; NumPy's floating-point
warnings are not raised, as on every lazy path (docs/semantics.md).

Switches (`_settings`): `LAZYARR_EAGER=0` or `lazyarr.set_eager(False)` turns it off,
and so does the tier "compile" or "opbyop" (so the suite run compiled tests XLA's
lowerings, and op by op runs on the device). The decision is cached per thread (the
backend selection is per thread) and made again only after a switch or the backend
selection changed (`_settings.TOKEN`): checking it costs two attribute lookups.
`lazyarr.stats()["eager_ops"]` counts the operations computed this way.
"""

from __future__ import annotations

import functools
import importlib.util
import os
import threading

import numpy as np

from . import _backend, _settings

MAX_ELEMENTS = 4096  # past this, fusing (and compiling a repeating loop) may pay
COUNT = [0]          # operations computed eagerly (stats()["eager_ops"])
ACCELERATOR_MODULES = ("jax_cuda12_plugin", "jax_cuda13_plugin", "jax_rocm60_plugin",
                       "jax_rocm7_plugin", "libtpu", "jax_plugins")


class _Decision(threading.local):
    token = None  # the _settings.TOKEN the decision was made under
    on = False


DECISION = _Decision()


def enabled() -> bool:
    """Whether a small operation on computed host inputs is computed at once now."""
    decision = DECISION
    if decision.token is not _settings.TOKEN[0]:
        refresh()
    return decision.on


def refresh() -> None:
    """Decide again for this thread (after `_settings.changed()`)."""
    token = _settings.TOKEN[0]  # read first: a change during the decision stays seen
    name, options = _backend.selected()
    DECISION.on = _settings.eager() and _tier_allows() and _decide(name, options)
    DECISION.token = token


def _tier_allows() -> bool:
    try:
        return _settings.tier() not in ("compile", "opbyop")
    except ValueError:  # an unknown LAZYARR_TIER: its flush raises; record until then
        return False


def _decide(name, options) -> bool:
    """On the reference backend, or on a compiling one on a single CPU device (the
    selected one: loaded, or to be loaded with these options)."""
    if name == "numpy":
        return True
    loaded = _backend.loaded()
    if loaded is not None:
        return _interprets(loaded)
    device = str(options.get("device") or "")
    if device:
        return device.split(":")[0] == "cpu" and "*" not in device
    return _no_accelerator()


def _interprets(backend) -> bool:
    """The reference backend, or a compiling one on a single CPU device."""
    if not getattr(backend, "compiles", False):
        return backend.name == "numpy" if hasattr(backend, "name") else False
    return str(getattr(backend, "device", "")) == "cpu"


def _no_accelerator() -> bool:
    if os.environ.get("JAX_PLATFORMS", "").strip().lower() == "cpu":
        return True
    return not _accelerator_installed()


@functools.cache
def _accelerator_installed() -> bool:
    """Whether a jax accelerator plugin is installed (looked up once: each lookup scans
    sys.path)."""
    return any(importlib.util.find_spec(m) for m in ACCELERATOR_MODULES)


def count() -> int:
    return COUNT[0]


def reset() -> None:
    COUNT[0] = 0


# NumPy's "ignore all" floating-point error state around an eager call, as a
# (context variable, value) pair: `token = var.set(value)` ... `var.reset(token)`.
# NumPy 2 keeps its error state in one context variable, private to it; setting and
# resetting it costs 0.12-0.15 µs, `np.errstate(all="ignore")` entered as a context
# manager 1.2 µs and as a decorator 0.7 µs (benchmark machine, best of 9 x 200,000): at
# four small operations per step of a loop, the public spellings alone would cost
# 1.5-5 µs a step, where NumPy takes 1.2-2.4 µs for the whole step (issue 10's target is
# 3x NumPy). So the private variable is read here, once, and only where it works as
# documented below; anywhere else `_PublicErrstate`, through np.errstate, replaces it.
class _PublicErrstate:
    """np.errstate(all="ignore") as a set/reset pair (NumPy's public API)."""

    @staticmethod
    def set(_value):
        state = np.errstate(all="ignore")
        state.__enter__()
        return state

    @staticmethod
    def reset(state):
        state.__exit__(None, None, None)


def _errstate() -> tuple:
    try:
        from numpy._core._ufunc_config import _extobj_contextvar as var
        with np.errstate(all="ignore"):
            ignore = var.get()
        before = np.geterr()
        token = var.set(ignore)
        try:
            works = set(np.geterr().values()) == {"ignore"}
        finally:
            var.reset(token)
        if works and np.geterr() == before:
            return var, ignore
    except (ImportError, AttributeError, TypeError, ValueError):  # another NumPy's layout
        pass
    return _PublicErrstate, None  # pragma: no cover  (NumPy 2.0-2.4 have the variable)


ERRSTATE = _errstate()


def call(fn, *args, **kwargs):
    """`fn(*args, **kwargs)` with NumPy's floating-point errors ignored."""
    var, ignore = ERRSTATE
    token = var.set(ignore)
    try:
        return fn(*args, **kwargs)
    finally:
        var.reset(token)
