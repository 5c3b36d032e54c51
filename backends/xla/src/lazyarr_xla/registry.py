"""The XLA backend's lowering table: one entry per lazyarr primitive (`Op` object),
optionally per platform ("cpu", "gpu", "tpu") where a platform needs its own.

The lowering modules register into this table and look each other's lowerings up
through it (`scatter_ufunc` applies a ufunc's lowering), so none imports another.

A lowering is `fn(*operands, **attrs)` returning a jax value. A checked lowering (for
a primitive with `Op.checks`) is `fn(*operands, flags, **attrs)`: it appends one
boolean flag per check of its op, in order, true where that error must be raised (or
none at all when its operands cannot fail, e.g. an empty matrix).
"""

from __future__ import annotations

from typing import Callable, NamedTuple

from lazyarr.backend_api import Op


class Lowering(NamedTuple):
    fn: Callable
    checked: bool = False


# (op, platform or None for every platform) -> lowering
LOWERINGS: dict[tuple[Op, str | None], Lowering] = {}


def register(op: Op, fn: Callable, *, checked: bool = False, platform: str | None = None):
    """Register `fn` as the lowering of `op` (on `platform` alone, if given)."""
    if not isinstance(op, Op):
        raise TypeError(f"lowerings are registered per primitive object, not {op!r}")
    LOWERINGS[(op, platform)] = Lowering(fn, checked)
    return fn


def register_all(table: dict, *, checked: bool = False, platform: str | None = None) -> None:
    for op, fn in table.items():
        register(op, fn, checked=checked, platform=platform)


def lowering(op: Op, platform: str | None = None) -> Lowering:
    """The lowering of `op` on `platform`: its own, else the one for every platform."""
    found = LOWERINGS.get((op, platform)) if platform is not None else None
    if found is None:
        found = LOWERINGS.get((op, None))
    if found is None:
        raise NotImplementedError(f"the xla backend has no lowering of {op!r}")
    return found


def unchecked(op: Op, platform: str | None = None) -> Callable:
    """`op`'s lowering as a plain function of its operands (flags discarded)."""
    fn, checked = lowering(op, platform)
    if not checked:
        return fn
    return lambda *args, **attrs: fn(*args, [], **attrs)


def lowerable(platform: str | None = None) -> set[Op]:
    """The primitives with a lowering on `platform`."""
    return {op for op, where in LOWERINGS if where in (None, platform)}
