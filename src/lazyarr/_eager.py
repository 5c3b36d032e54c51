"""Eager execution of small operations on the CPU (DESIGN: "Small arrays on the CPU may
be computed at once (eagerly through NumPy) when that is cheaper than recording them").

When every input of a new operation is a computed NumPy buffer, its result has at most
`MAX_ELEMENTS` elements, and the flush that would compute it would run on the NumPy
interpreter anyway (the reference backend, or a compiling backend on the CPU under the
"auto" or "interpret" tier), the operation is computed at once with its reference
implementation (what the interpreter would run) and recorded as a computed leaf. Results
are the interpreter's, so NumPy's; errors are raised at the call; NumPy's floating-point
warnings are not raised, as on every lazy path (docs/semantics.md).

Switches: `LAZYARR_EAGER=0` (or off/false/no) turns it off, `LAZYARR_TIER=compile` and
`opbyop` too (so the suite run compiled tests XLA's lowerings, and op by op runs on
the device). Both are read at every operation, as
cheaply as a dictionary lookup: the decision is recomputed only when one of its inputs
(the two variables, `LAZYARR_BACKEND`, the selected backend) changes.
`lazyarr.stats()["eager_ops"]` counts the operations computed this way.
"""

from __future__ import annotations

import importlib.util
import os

import numpy as np

from . import _backend

MAX_ELEMENTS = 4096  # past this, fusing (and compiling a repeating loop) may pay
COUNT = [0]          # operations computed eagerly (stats()["eager_ops"])
_OFF = ("0", "off", "false", "no")
ACCELERATOR_MODULES = ("jax_cuda12_plugin", "jax_cuda13_plugin", "jax_rocm60_plugin",
                       "jax_rocm7_plugin", "libtpu", "jax_plugins")

# os.environ's own table, read without its per-call key encoding (a lookup here costs
# what a dict lookup costs; `os.environ.get` took about 1 µs on the benchmark machine).
_table = getattr(os.environ, "_data", None)
_encode = getattr(os.environ, "encodekey", None)
if _table is None or _encode is None:  # pragma: no cover  (not CPython's os.environ)
    _KEYS = ("LAZYARR_TIER", "LAZYARR_EAGER", "LAZYARR_BACKEND")
    _table = None
else:
    _KEYS = tuple(_encode(k) for k in ("LAZYARR_TIER", "LAZYARR_EAGER", "LAZYARR_BACKEND"))
_TIER, _EAGER, _BACKEND = _KEYS
_selection = _backend._selection
_last: list = [None, False]  # (key, decision) of the last call


def enabled() -> bool:
    """Whether a small operation on computed host inputs is computed at once now."""
    table = _table if _table is not None else os.environ
    stack = _selection.stack
    key = (table.get(_TIER), table.get(_EAGER), table.get(_BACKEND),
           stack[-1] if stack else None, _backend._global)
    last = _last
    if key == last[0]:
        return last[1]
    decision = _decide(*key)
    _last[:] = [key, decision]
    return decision


def _text(raw) -> str:
    if raw is None:
        return ""
    if isinstance(raw, bytes):
        raw = os.fsdecode(raw)
    return raw.strip().lower()


def _decide(tier, eager, backend_env, top, chosen) -> bool:
    if _text(eager) in _OFF or _text(tier) in ("compile", "opbyop"):
        return False
    if top is None:
        top = chosen
    if top is None and _text(backend_env):
        name, _, device = _text(backend_env).partition(":")
        top = (name, {"device": device} if device else {})
    if top is None:  # the default backend: XLA on the best device, unless none loads
        loaded = _backend.loaded()
        if loaded is not None:
            return _interprets(loaded)
        return _no_accelerator()
    name, options = top
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
    return not any(importlib.util.find_spec(m) for m in ACCELERATOR_MODULES)


def count() -> int:
    return COUNT[0]


def reset() -> None:
    COUNT[0] = 0


# NumPy's "ignore all" floating-point error state, entered and left around an eager
# call through NumPy's context variable (np.errstate costs about 1 µs a call).
class _Errstate:
    """np.errstate(all="ignore") as a context variable's set/reset pair (the fallback
    where NumPy keeps its state elsewhere)."""

    @staticmethod
    def set(_state):
        state = np.errstate(all="ignore")
        state.__enter__()
        return state

    @staticmethod
    def reset(state):
        state.__exit__(None, None, None)


try:
    from numpy._core._ufunc_config import _extobj_contextvar as _var
    with np.errstate(all="ignore"):
        ERRSTATE = (_var, _var.get())
except (ImportError, AttributeError):  # pragma: no cover  (another NumPy's layout)
    ERRSTATE = (_Errstate, None)


def call(fn, *args, **kwargs):
    """`fn(*args, **kwargs)` with NumPy's floating-point errors ignored."""
    var, ignore = ERRSTATE
    token = var.set(ignore)
    try:
        return fn(*args, **kwargs)
    finally:
        var.reset(token)
