"""The execution switches: the forced tier (see `_tiers`) and eager execution of small
operations (see `_eager`).

Both start from the environment, read once when lazyarr is imported:
`LAZYARR_TIER=interpret|compile|auto|opbyop` (default auto) and `LAZYARR_EAGER=0`
(or off/false/no) to record small operations instead of computing them at once. At run
time `set_tier`/`use_tier` and `set_eager`/`use_eager` change them for the whole
process (the context managers restore the previous value on exit). Reading them is an
attribute lookup: the eager check runs at every operation, where `os.environ.get`
alone costs about what NumPy takes for a whole small ufunc call (1 µs).
"""

from __future__ import annotations

import contextlib
import os

TIERS = ("interpret", "compile", "auto", "opbyop")
_OFF = ("0", "off", "false", "no")


def _tier_text(value) -> str:
    return str(value).strip().lower() or "auto"


# An unknown LAZYARR_TIER is kept as given: `tier()` raises at the flush that reads it
# (an import must not fail on a typo; set_tier refuses one at the call).
_state = {"tier": _tier_text(os.environ.get("LAZYARR_TIER", "auto")),
          "eager": os.environ.get("LAZYARR_EAGER", "").strip().lower() not in _OFF}
# Replaced at every change of a switch or of the backend selection: a decision cached
# from them (`_eager`) is valid while its token is this one.
TOKEN = [object()]


def changed() -> None:
    """Invalidate decisions made from the switches or the backend selection."""
    TOKEN[0] = object()


def tier() -> str:
    """The forced tier ("auto" lets the policy choose); ValueError for an unknown
    LAZYARR_TIER."""
    value = _state["tier"]
    if value not in TIERS:
        raise ValueError(f"LAZYARR_TIER must be one of {', '.join(TIERS)}, not {value!r}")
    return value


def eager() -> bool:
    """Whether eager execution of small operations is switched on (the tier and the
    backend decide the rest: see `_eager`)."""
    return _state["eager"]


def set_tier(tier: str) -> None:
    """Force where every program runs, for this process: "interpret" (the NumPy
    interpreter), "compile" (compiled before its first run, no eager execution),
    "opbyop" (each primitive's cached executable), or "auto" (the default policy).
    Starts from LAZYARR_TIER."""
    value = _tier_text(tier) if isinstance(tier, str) else tier
    if value not in TIERS:
        raise ValueError(f"tier must be one of {', '.join(TIERS)}, not {tier!r}")
    _state["tier"] = value
    changed()


def set_eager(on: bool) -> None:
    """Switch eager execution of small operations on the CPU on or off, for this
    process (on by default; LAZYARR_EAGER=0 starts it off)."""
    _state["eager"] = bool(on)
    changed()


@contextlib.contextmanager
def _switched(key: str, setter, value):
    before = _state[key]
    setter(value)
    try:
        yield
    finally:
        _state[key] = before
        changed()


def use_tier(tier: str):
    """Within the block, `set_tier(tier)`; the previous tier afterwards."""
    return _switched("tier", set_tier, tier)


def use_eager(on: bool):
    """Within the block, `set_eager(on)`; the previous setting afterwards."""
    return _switched("eager", set_eager, on)
