"""Eager execution of small operations on the CPU (DESIGN: "Small arrays on the CPU may
be computed at once (eagerly through NumPy) when that is cheaper than recording them").

When every input of a new operation is a computed NumPy buffer, its result has at most
`MAX_ELEMENTS` elements, and the flush that would compute it would run on the NumPy
interpreter anyway (the reference backend, or a compiling backend on the CPU under the
"auto" or "interpret" tier), the operation is computed at once and recorded as a
computed leaf: a ufunc on small buffers of NumPy's numeric dtypes and Python floats and
ints is NumPy's own call on them (`_api/elementwise.eager_call`, and inline in the
operators; its result is a `SmallLeaf`, which the next operation takes without
further checks), anything else its reference implementation (what the interpreter
would run). Results are NumPy's; errors are raised at the call; NumPy's floating-point
warnings are not raised, as on every lazy path (docs/semantics.md): the call runs in
`ignoring()`'s context.

Switches (`_settings`): `LAZYARR_EAGER=0` or `lazyarr.set_eager(False)` turns it off,
and so does the tier "compile" or "opbyop" (so the suite run compiled tests XLA's
lowerings, and op by op runs on the device). The decision is cached per thread (the
backend selection is per thread) and made again only after a switch or the backend
selection changed (`_settings.TOKEN`): checking it costs two attribute lookups.
`lazyarr.stats()["eager_ops"]` counts the operations computed this way.
"""

from __future__ import annotations

import contextvars
import threading

import numpy as np

from . import _backend, _settings

MAX_ELEMENTS = 4096  # past this, fusing (and compiling a repeating loop) may pay
COUNT = [0]          # operations computed eagerly (stats()["eager_ops"])


class _Decision(threading.local):
    # (the _settings.TOKEN it was made under, whether eager execution applies, this
    # thread's `ignoring()`): one tuple, as each attribute read of a thread-local
    # object costs 30-40 ns.
    state = (None, False, None)


DECISION = _Decision()


def enabled() -> bool:
    """Whether a small operation on computed host inputs is computed at once now."""
    state = DECISION.state
    if state[0] is not _settings.TOKEN[0]:
        state = refresh()
    return state[1]


def refresh() -> tuple:
    """Decide again for this thread (after `_settings.changed()`); the new state."""
    token = _settings.TOKEN[0]  # read first: a change during the decision stays seen
    name, options = _backend.selected()
    on = _settings.eager() and _tier_allows() and _decide(name, options)
    run = DECISION.state[2] or ignoring()
    state = DECISION.state = (token, on, run)
    return state


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
    return _backend.default_is_cpu()


def _interprets(backend) -> bool:
    """The reference backend, or a compiling one on a single CPU device."""
    if not getattr(backend, "compiles", False):
        return backend.name == "numpy" if hasattr(backend, "name") else False
    return str(getattr(backend, "device", "")) == "cpu"



def count() -> int:
    return COUNT[0]


def reset() -> None:
    COUNT[0] = 0


def call(fn, *args, **kwargs):
    """`fn(*args, **kwargs)` with NumPy's floating-point errors ignored."""
    state = DECISION.state
    if state[2] is None:
        state = refresh()
    return state[2](fn, *args, **kwargs)


def ignoring():
    """A `run(fn, *args)` that calls `fn` with NumPy's floating-point errors ignored,
    for this thread: `Context.run` of a context of its own in which
    `np.errstate(all="ignore")` was entered (and never left). Measured on 10 elements
    (best of 40 x 100,000): `np.add(v, w)` 0.46 µs, the same through this 0.45-0.48 µs;
    setting and resetting NumPy's error-state variable around the call 0.74 µs (each set
    makes NumPy's next read of its state miss the variable's cache), `with
    np.errstate(all="ignore")` 1.7 µs. A context runs in one thread at a time, hence one
    per thread; only NumPy's own call runs in it, so no other variable's value matters."""
    context = contextvars.Context()
    context.run(np.errstate(all="ignore").__enter__)
    return context.run
