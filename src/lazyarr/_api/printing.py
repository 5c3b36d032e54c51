"""Printing, and the floating-point error state: settings lazyarr shares with NumPy.

An Array prints through NumPy: its repr, str and format are NumPy's of the computed
values (a scalar handle's, of the NumPy scalar it stands for). So lazyarr has no print
options of its own: `set_printoptions`, `get_printoptions` and `printoptions` are
NumPy's functions, re-exported, and govern lazyarr's printing exactly as NumPy's. The
formatting functions run NumPy's on the values.

The floating-point error state (`seterr`, `errstate`, ...) is NumPy's too, and
functions that NumPy runs (the fallback) obey it. Lazy computations never check
floating-point errors: they run as under `errstate(all="ignore")`, whatever the state
says (docs/semantics.md). Asking for a mode they cannot honour ("raise", "call",
"print", "log") therefore warns with `FloatingPointCheckWarning`.
"""

from __future__ import annotations

import warnings

import numpy as np

from .._errors import user_stacklevel
from . import export
from .io import host

set_printoptions = export(np.set_printoptions)
get_printoptions = export(np.get_printoptions)
printoptions = export(np.printoptions)


@export
def array2string(a, max_line_width=None, precision=None, suppress_small=None, separator=" ",
                 prefix="", *, formatter=None, threshold=None, edgeitems=None, sign=None,
                 floatmode=None, suffix="", legacy=None):
    """NumPy's `array2string` of the values."""
    return np.array2string(host(a), max_line_width, precision, suppress_small, separator,
                           prefix, formatter=formatter, threshold=threshold,
                           edgeitems=edgeitems, sign=sign, floatmode=floatmode,
                           suffix=suffix, legacy=legacy)


@export
def array_repr(arr, max_line_width=None, precision=None, suppress_small=None):
    """NumPy's `array_repr` of the values."""
    return np.array_repr(host(arr), max_line_width, precision, suppress_small)


@export
def array_str(a, max_line_width=None, precision=None, suppress_small=None):
    """NumPy's `array_str` of the values."""
    return np.array_str(host(a), max_line_width, precision, suppress_small)


@export
def format_float_positional(x, precision=None, unique=True, fractional=True, trim="k",
                            sign=False, pad_left=None, pad_right=None, min_digits=None):
    """NumPy's `format_float_positional` of the value (a scalar handle's in its own
    dtype, as NumPy formats its scalars; a 0-d array's as NumPy formats a 0-d array)."""
    return np.format_float_positional(host(x), precision, unique, fractional, trim, sign,
                                      pad_left, pad_right, min_digits)


@export
def format_float_scientific(x, precision=None, unique=True, trim="k", sign=False,
                            pad_left=None, exp_digits=None, min_digits=None):
    """NumPy's `format_float_scientific` of the value (as `format_float_positional`)."""
    return np.format_float_scientific(host(x), precision, unique, trim, sign, pad_left,
                                      exp_digits, min_digits)


# ----- floating-point errors ----------------------------------------------------------

class FloatingPointCheckWarning(UserWarning):
    """A floating-point error mode was set that lazy computations do not honour."""


_UNCHECKED_MODES = ("raise", "call", "print", "log")


def _warn_unchecked(modes: dict) -> None:
    asked = {f"{kind}={mode!r}" for kind, mode in modes.items()
             if isinstance(mode, str) and mode in _UNCHECKED_MODES}
    if asked:
        warnings.warn(f"lazyarr does not check floating-point errors in lazy computations: "
                      f"{', '.join(sorted(asked))} applies only to functions NumPy runs (the "
                      "fallback); lazy results are NumPy's values (inf, nan) with no error",
                      FloatingPointCheckWarning, stacklevel=user_stacklevel())


geterr = export(np.geterr)
seterrcall = export(np.seterrcall)
geterrcall = export(np.geterrcall)


@export
def seterr(all=None, divide=None, over=None, under=None, invalid=None):  # noqa: A002
    """NumPy's `seterr` (the state is NumPy's); warns for the modes that lazy
    computations do not honour."""
    _warn_unchecked({"all": all, "divide": divide, "over": over, "under": under,
                     "invalid": invalid})
    return np.seterr(all=all, divide=divide, over=over, under=under, invalid=invalid)


@export
class errstate(np.errstate):
    """NumPy's `errstate` (a context manager and decorator setting NumPy's state); warns
    for the modes that lazy computations do not honour."""

    def __init__(self, **kwargs):
        _warn_unchecked({k: v for k, v in kwargs.items() if k != "call"})
        super().__init__(**kwargs)
