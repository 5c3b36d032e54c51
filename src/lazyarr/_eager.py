"""Eager execution of small operations on the CPU (DESIGN: "Small arrays on the CPU may
be computed at once (eagerly through NumPy) when that is cheaper than recording them").

When every input of a new operation is a computed NumPy buffer of at most
`MAX_ELEMENTS` elements (or a few pending views of one: the slices `np.roll` and
`z[1:-1, 2:]` make), its result has at most `MAX_ELEMENTS` elements (a ufunc's broadcast
aside, see below), and the flush that would compute it would run on the NumPy
interpreter anyway (the reference backend, or a compiling backend on the CPU under the
"auto" or "interpret" tier), the operation is computed at once and recorded as a
computed leaf: a ufunc on small buffers of NumPy's numeric dtypes and Python floats
and ints is NumPy's own call on them
(`_api/elementwise.eager_call`, and inline in the operators; its result is a
`SmallLeaf`, which the next operation takes without further checks), a plain
reduction (`x.sum()`, `x[s:s + k].mean()`: `_api/reductions.eager_reduction`) and
`np.array` of small results (`_api/common`) the NumPy calls of the steps the
interpreter would run, made at once without building nodes, anything else its
reference implementation (what the interpreter would run); a basic view of a computed
buffer is NumPy's view of it (`_api/indexing._host_view`). Results are NumPy's;
errors are raised at the call; NumPy's floating-point warnings are not raised, as on
every lazy path (docs/semantics.md): the call runs in `ignoring()`'s context. A ufunc
of small operands that broadcast to more than `MAX_ELEMENTS` elements is NumPy's call
at once too (gauss's outer product `q[:, None] * row` of two rows of 1,000): recorded
instead, the interpreter's program made it at the same cost (gauss in one process,
8 runs each, alternating: 1.05-1.31 s a run eager, 1.01-1.30 s recorded).

A write (`x[i:j] = v`, through a view too) into such a buffer is made at once as well,
as its reference makes it (a copy of the owner: cheap at this size), so a loop of writes
and reads, as script-like loops are, stays eager; a write into a buffer shared with
NumPy is left to `_shared`. A write of a scalar or a small computed value at a basic
index (`out[i] = v`, `a[c:, c-1:] = v`) into an array of any size that alone holds its
computed buffer is NumPy's own assignment into that buffer
(`_api/indexing._write_now`).

The bound, 32,768 elements (256 KiB of float64), was measured on the 2-core benchmark
machine (min of 5-6 runs, eager against recorded and interpreted, XLA backend on the
CPU, "auto" tier, a loaded machine): below it, recording and interpreting an operation
costs several us more than NumPy's own call, and eager wins: diffusion on 128x128 (20
steps) 3.3 ms recorded, 2.2 eager (NumPy 0.8); lbm --quick (50x50x9: 22,500 elements)
37 -> 25 ms; masking --quick (10,000) 3.5 -> 1.7 ms. At 200x200 (40,000 elements) it
is a draw (diffusion 5.2-5.5 ms recorded, 6.1-7.4 eager; jacobi --quick 3.5 recorded,
2.8-3.2 eager); from 256x256 (65,536) the interpreter, which reuses the buffers it
owns, matches or beats NumPy's fresh results (diffusion 7-9.5 ms recorded, 9-12
eager), and at 512x512 and 1000x1000 eager execution is 1.5-2x slower (diffusion full
size: 418 ms recorded, 838 eager, NumPy 400-565); loops that repeat are compiled there
besides.

A loop whose shapes change every iteration (gauss's `a[c:, c-1:] = ...`, its trailing
block one row and column smaller each step) records programs that are all new: each
runs once, on the interpreter, which makes the NumPy calls an eager operation makes, so
recording and flushing them is all cost (gauss, 1000 steps: 0.73-0.80 s recorded, every
operation eager 0.59-0.60 s, NumPy 0.51-0.55). `_cuts` tells such a loop by its cuts,
which fall at a place whose shapes moved (a "loose" cut); after `WIDE_AFTER` of them in
a row it calls `widen()`, and the bound is lifted (`bound()`) for the next `WIDE_OPS`
eager operations, or until a large operand's shape has come `WIDE_REPEATS` times (a
loop that repeats, such as one after the loop that widened it), after which recording
resumes: a loop that still changes shapes is widened again `WIDE_AFTER` cuts later,
and one that came to repeat is recorded and compiled as any. (The widening is
process-wide: another thread's operations are computed at once meanwhile, with NumPy's
results as always.)

Switches (`_settings`): `LAZYARR_EAGER=0` or `lazyarr.set_eager(False)` turns it off,
and so does the tier "compile" or "opbyop" (so the suite run compiled tests XLA's
lowerings, and op by op runs on the device). The decision is cached per thread (the
backend selection is per thread) and made again only after a switch or the backend
selection changed (`_settings.TOKEN`): checking it costs two attribute lookups.
`lazyarr.stats()["eager_ops"]` counts the operations computed this way.
"""

from __future__ import annotations

import contextvars
import sys
import threading

import numpy as np

from . import _backend, _settings
from ._graph import INPUT
from ._ops import OPS, size_of
from ._views import VIEW_OPS

MAX_ELEMENTS = 32768  # see the docstring: measured, past this recording pays
COUNT = [0]          # operations computed eagerly (stats()["eager_ops"])
# Widening (see the docstring): the loose cuts in a row that widen the bound, and the
# eager operations it stays widened for. Loops that repeat make at most a few loose
# cuts while their cuts find their place (benchmarks: 1 each, lbm 6 in a row).
WIDE_AFTER = 12
WIDE_OPS = 10_000
WIDE = [0]           # while widened: the COUNT at which the bound narrows again; else 0
# A large operand's shape seen this often while widened narrows the bound at once (see
# `_repeating`): gauss's shrinking blocks are each read two or three times.
WIDE_REPEATS = 64
_SHAPES: dict = {}   # while widened: large operands' shapes -> times seen


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


def on_host() -> bool:
    """Whether the selected backend computes on the host's CPU (the reference, or a
    compiling one on a single CPU device), where NumPy's buffers are its own."""
    return _decide(*_backend.selected())


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



# Pending view primitives an eager operation may read through (their references are
# NumPy views: nothing is copied), as in `np.roll(x, 1)` (two slices of `x`) or
# `z[1:-1, 2:] + z[2:, 1:-1]` on a computed `z`.
_VIEW_CHAIN = frozenset(OPS[name] for name in ("slice", "reshape", "transpose",
                                               "broadcast_to"))
_MAX_CHAIN = 4
_SLICE = OPS["slice"]
_slice = _SLICE.ref


def host_value(node, limit: int):
    """The NumPy value of `node` when it has at most `limit` elements and is a computed
    NumPy buffer, or a chain of at most a few pending view primitives over one of any
    size (computed now by their references: a window `x[s:s + k]` of a large computed
    `x` is read in place); else None."""
    chain = None
    while node.op is not INPUT:
        if node.op not in _VIEW_CHAIN or size_of(node.shape) > limit:  # (a reshape may copy)
            return None
        if chain is None:
            chain = [node]
        elif len(chain) == _MAX_CHAIN:
            return None
        else:
            chain.append(node)
        node = node.inputs[0]
    value = node.value
    if type(value) is not np.ndarray or (chain is None and value.size > limit):
        return None
    if chain is not None:
        for view in reversed(chain):
            attrs = view.attrs
            if view.op is _SLICE:  # (sorted by name: starts, steps, stops)
                value = _slice(value, attrs[0][1], attrs[2][1], attrs[1][1])
            else:
                value = view.op.ref(value, **dict(attrs))
    return value


def host_values(nodes, limit: int | None = None) -> list | None:
    """`host_value` of each of `nodes` (None, a Python scalar's place, stays None), or
    None where one has none; `limit` is `bound()` unless given."""
    if limit is None:
        limit = bound()
    values = []
    for node in nodes:
        if node is None:
            values.append(None)
            continue
        value = host_value(node, limit)
        if value is None:
            return None
        values.append(value)
    if limit > MAX_ELEMENTS:
        _repeating([v.shape for v in values if v is not None and v.size > MAX_ELEMENTS])
    return values


def _repeating(shapes) -> None:
    """While widened: count the large operands' shapes; one seen `WIDE_REPEATS` times
    means a loop whose shapes repeat (a loop after the one that widened the bound), which
    is worth recording again (to be compiled): the bound narrows."""
    for shape in shapes:
        count = _SHAPES[shape] = _SHAPES.get(shape, 0) + 1
        if count >= WIDE_REPEATS:
            WIDE[0] = 0
            _SHAPES.clear()
            return


_VIEW_OPS = frozenset(OPS[name] for name in VIEW_OPS)


def settle(node):
    """Compute pending `node` now, where the eager path applies (`enabled()`): it is no
    view, has at most `MAX_ELEMENTS` elements and reads only small computed NumPy
    buffers or views of them (`host_value`). Its reference (what the interpreter
    would run) computes it and it becomes a computed leaf; NumPy's errors are raised
    here. Returns whether it was computed."""
    if node.op is INPUT or node.op in _VIEW_OPS:
        return False
    limit = bound()
    if size_of(node.shape) > limit or not enabled():
        return False
    values = host_values(node.inputs, limit)
    if values is None:
        return False
    value = call(node.op.ref, *values, **dict(node.attrs))
    if type(value) is not np.ndarray:
        value = np.asarray(value)
    if value.shape != node.shape or value.dtype != node.dtype:
        raise AssertionError(f"lazyarr internal error: eager {node.op.name} gave "
                             f"{value.shape} {value.dtype}; its rules said {node.shape} "
                             f"{node.dtype}")
    COUNT[0] += 1
    node.set_value(value)
    return True


def count() -> int:
    return COUNT[0]


def reset() -> None:
    COUNT[0] = 0
    WIDE[0] = 0


def bound() -> int:
    """The most elements an eager operation's inputs and result may have now:
    `MAX_ELEMENTS`, or no bound while widened (see `widen`)."""
    until = WIDE[0]
    if not until:
        return MAX_ELEMENTS
    if COUNT[0] >= until:
        WIDE[0] = 0
        return MAX_ELEMENTS
    return sys.maxsize


def widen() -> None:
    """Lift the bound for the next `WIDE_OPS` eager operations, or until a large
    operand's shape repeats (`_repeating`): called by `_cuts` for a loop whose shapes
    change every iteration (see the module's docstring)."""
    WIDE[0] = COUNT[0] + WIDE_OPS
    _SHAPES.clear()


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
