"""What lazyarr did, and at which line of the user's code: the event log, per-line
statistics, recompile reasons, the long-compile warning and `report()`.

The scheduler calls the hooks here (`flushed`, `compiled`, `fell_back`, `transferred`)
once per event. Each hook finds the user's line (the innermost frame outside lazyarr
and NumPy, as errors do), adds to that line's counters in the `Stats` it is given, and
writes one line through the `logging` logger "lazyarr" when the event's category is on
(`LAZYARR_LOG=flush,compile,cut,fallback,transfer` or `all`, or `set_log`). When no
category is on, a hook costs a frame walk and a few dictionary updates: nothing
against a flush (see benchmarks/observe_overhead.py).

A compile is compared with the programs compiled earlier for the same line; the
nearest one's difference (a shape, a dtype, an operation, an attribute, a new scalar
kind) is the recompile reason, kept per line and printed by `report()`.
"""

from __future__ import annotations

import os
import sys
import types
import warnings
from collections import Counter
from itertools import zip_longest

from ._errors import user_site
from .backend_api import compiled_in

CATEGORIES = ("flush", "compile", "cut", "fallback", "transfer")
CUT_CAUSES = frozenset({"size"})  # flushes the scheduler made itself, to bound a graph
PROGRAMS_KEPT = 8  # per line: the compiled programs a new compile is compared with

# logging's levels; logging itself (2 ms of `import lazyarr` with what it imports:
# traceback, string) is imported at the first record or `set_log`, by `_logger`.
INFO, WARNING = 20, 30

_enabled: frozenset = frozenset()
_long_compile_seconds: float | None = 2.0
_handler = None  # lazyarr's stderr handler on the "lazyarr" logger, once installed
_KEEP = object()


# ----- configuration ----------------------------------------------------------------

def parse_categories(spec) -> frozenset:
    """The categories named by `spec`: a comma-separated string or an iterable of
    names; "all" means every category, "", "off", "none" or None none."""
    if spec is None or spec is False:
        return frozenset()
    if isinstance(spec, str):
        words = [w.strip().lower() for w in spec.replace(" ", ",").split(",") if w.strip()]
    else:
        words = []
        for w in spec:
            if not isinstance(w, str):
                raise TypeError(f"lazyarr log categories are strings, not {type(w).__name__}")
            words.append(w.strip().lower())
    if words in ([], ["off"], ["none"], ["0"]):
        return frozenset()
    if "all" in words:
        words = [w for w in words if w != "all"] + list(CATEGORIES)
    unknown = sorted(set(words) - set(CATEGORIES))
    if unknown:
        raise ValueError(f"unknown lazyarr log categor{'y' if len(unknown) == 1 else 'ies'} "
                         f"{', '.join(map(repr, unknown))}: the categories are "
                         f"{', '.join(CATEGORIES)}, or 'all' (or 'off' for none)")
    return frozenset(words)


def parse_seconds(spec) -> float | None:
    """A long-compile threshold: seconds (> 0), or None / "off" for no warning."""
    if spec is None or (isinstance(spec, str) and spec.strip().lower() in ("off", "none", "")):
        return None
    try:
        seconds = float(spec)
    except (TypeError, ValueError):
        raise ValueError(f"the long-compile threshold is a number of seconds or 'off', "
                         f"not {spec!r}") from None
    if not seconds > 0:
        raise ValueError(f"the long-compile threshold must be positive seconds, not {spec!r}")
    return seconds


def _stderr_handler():
    """A logging handler that writes to whatever `sys.stderr` is at the time (as
    logging's last resort does), and only while the application has configured no
    handler of its own on the root logger: then lazyarr's records go to the
    application's handlers alone."""
    import logging  # noqa: PLC0415  (the standard library; see INFO)

    class StderrHandler(logging.StreamHandler):
        def __init__(self):
            super().__init__()
            self.setFormatter(logging.Formatter("lazyarr: %(message)s"))

        @property
        def stream(self):
            return sys.stderr

        @stream.setter
        def stream(self, _):
            pass

        def emit(self, record):
            if not logging.getLogger().handlers:
                super().emit(record)

    return StderrHandler()


def set_log(categories=_KEEP, *, long_compile_seconds=_KEEP):
    """Log lazyarr's events: `categories` is a comma-separated string or a list of
    "flush", "compile", "cut", "fallback", "transfer", or "all"; None or "off" stops the
    log. `long_compile_seconds` (default 2; None for never) is the compile time past
    which a warning names the line and the program. Returns the previous settings as
    a dict, which `set_log(**previous)` restores."""
    global _enabled, _long_compile_seconds
    previous = {"categories": tuple(c for c in CATEGORIES if c in _enabled),
                "long_compile_seconds": _long_compile_seconds}
    enabled = _enabled if categories is _KEEP else parse_categories(categories)
    seconds = (_long_compile_seconds if long_compile_seconds is _KEEP
               else parse_seconds(long_compile_seconds))
    _enabled, _long_compile_seconds = enabled, seconds
    if enabled:
        logger = _logger()
        if logger.level == 0 or logger.level > INFO:  # NOTSET, or above INFO
            logger.setLevel(INFO)
    return previous


def _logger():
    """The "lazyarr" logger, with lazyarr's stderr handler installed on first use."""
    global _handler
    import logging  # noqa: PLC0415  (the standard library; see INFO)
    logger = logging.getLogger("lazyarr")
    if _handler is None:
        _handler = _stderr_handler()
        logger.addHandler(_handler)
    return logger


def log_categories() -> tuple[str, ...]:
    """The categories being logged now."""
    return tuple(c for c in CATEGORIES if c in _enabled)


def configure_from_environment() -> None:
    """`LAZYARR_LOG` and `LAZYARR_LONG_COMPILE` at import: a bad value warns (naming
    the valid ones) and is ignored, rather than making `import lazyarr` fail. The
    stderr handler is installed with the first record (the long-compile warning)."""
    for variable, keyword in (("LAZYARR_LOG", "categories"),
                              ("LAZYARR_LONG_COMPILE", "long_compile_seconds")):
        value = os.environ.get(variable)
        if value is None:
            continue
        try:
            set_log(**{keyword: value})
        except ValueError as exc:
            warnings.warn(f"{variable}={value!r} ignored: {exc}", RuntimeWarning, stacklevel=2)


# ----- per-line counters ------------------------------------------------------------

class LineStats:
    """What happened at one line of the user's code."""
    __slots__ = ("flushes", "seconds", "compiles", "compile_seconds", "fallbacks",
                 "transfers", "transfer_bytes", "programs", "reasons")

    def __init__(self):
        self.flushes: Counter = Counter()
        self.seconds = 0.0          # flushing: compiling and running
        self.compiles = 0
        self.compile_seconds = 0.0
        self.fallbacks: Counter = Counter()
        self.transfers = 0
        self.transfer_bytes = 0
        self.programs: list = []    # the last PROGRAMS_KEPT programs compiled here
        self.reasons: list[str] = []  # why each compile after the first one happened

    def as_dict(self) -> dict:
        return {"flushes": dict(self.flushes), "seconds": self.seconds,
                "compiles": self.compiles, "compile_seconds": self.compile_seconds,
                "fallbacks": dict(self.fallbacks), "transfers": self.transfers,
                "transfer_bytes": self.transfer_bytes, "recompile_reasons": list(self.reasons)}


def site_name(site) -> str:
    """A user site as "file:line" ("<unknown>" when lazyarr was called from no frame)."""
    return "<unknown>" if site is None else f"{site[0]}:{site[1]}"


def short_name(site) -> str:
    """A site as the log and the report print it: the file relative to the working
    directory when it is inside it."""
    if site is None:
        return "<unknown>"
    path = site[0]
    try:
        relative = os.path.relpath(path)
        if not relative.startswith(os.pardir):
            path = relative
    except ValueError:  # another drive, or not a path ("<stdin>")
        pass
    return f"{path}:{site[1]}"


def _line(stats, site) -> LineStats:
    line = stats.lines.get(site)
    if line is None:
        line = stats.lines[site] = LineStats()
    return line


def _duration(seconds: float) -> str:
    return f"{seconds:.3f} s" if seconds >= 0.1 else f"{seconds * 1e3:.2f} ms"


def _program_size(program) -> str:
    n, k = program.operations(), len(program.input_specs)
    return (f"{n} operation{'s' if n != 1 else ''}, {k} input{'s' if k != 1 else ''}")


def _emit(category: str, site, message: str, level: int = INFO) -> None:
    _logger().log(level, message, extra={"lazyarr_event": category,
                                      "lazyarr_site": site_name(site)})


# ----- hooks --------------------------------------------------------------------------

def flushed(stats, cause: str, program, seconds: float, compiles: int = 0,
            compile_seconds: float = 0.0, background_seconds: float = 0.0) -> None:
    """A flush with `cause` ran `program` in `seconds`, of which `compile_seconds`
    compiling `compiles` programs (as the backend counted them). A compile finished in
    the background (the tiers, see `_tiers`) is counted at the flush that first runs its
    program, with its `background_seconds`, which the flush did not wait for."""
    site = user_site()
    line = stats.lines.get(site)
    if line is None:
        line = stats.lines[site] = LineStats()
    flushes = line.flushes
    flushes[cause] = flushes.get(cause, 0) + 1
    line.seconds += seconds
    if compiles:
        compiled(stats, program, compile_seconds + background_seconds, site, count=compiles,
                 background=compile_seconds == 0 and background_seconds > 0)
    category = "cut" if cause in CUT_CAUSES else "flush"
    if category in _enabled:
        what = f"cut ({cause} bound)" if category == "cut" else f"flush ({cause})"
        _emit(category, site, f"{what} at {short_name(site)}: {_program_size(program)}, "
                              f"{_duration(seconds)}"
                              + (f" (compile {_duration(compile_seconds)})" if compiles else ""))


def compiled(stats, program, seconds: float, site=None, count: int = 1,
             background: bool = False) -> None:
    """A backend compiled `program` in `seconds` for the user's line `site` (found now
    when None): counted, compared with the line's earlier programs, logged, and
    warned about when it took longer than the long-compile threshold (unless it was
    compiled in the `background`, while the program ran on the interpreter)."""
    if site is None:
        site = user_site()
    line = _line(stats, site)
    reason = nearest_difference(line.programs, program) if line.programs else None
    line.compiles += count
    line.compile_seconds += seconds
    if reason is not None:
        line.reasons.append(reason)
    line.programs.append(program)
    del line.programs[:-PROGRAMS_KEPT]
    if "compile" in _enabled:
        what = "compile (in the background)" if background else "compile"
        _emit("compile", site, f"{what} at {short_name(site)}: {_program_size(program)}, "
                               f"{_duration(seconds)}"
                               + (f"; recompile: {reason}" if reason else "; first for this line"))
    threshold = _long_compile_seconds
    if threshold is not None and seconds > threshold and not background:
        _emit("compile", site, f"compiling a program of {_program_size(program)} for "
                               f"{short_name(site)} took {seconds:.1f} s (the pause was "
                               f"lazyarr's; threshold {threshold:g} s, see set_log)",
              WARNING)


def fell_back(stats, name: str) -> None:
    """NumPy's function `name` (its full name) ran eagerly, not lazily."""
    site = user_site()
    _line(stats, site).fallbacks[name] += 1
    if "fallback" in _enabled:
        _emit("fallback", site, f"fallback at {short_name(site)}: {name} has no lazy "
                                "implementation; it ran eagerly through NumPy")


def transferred(stats, nbytes: int, shape, dtype, where: str = "to the host") -> None:
    """A computed buffer of `nbytes` was copied between the backend and the host."""
    site = user_site()
    line = _line(stats, site)
    line.transfers += 1
    line.transfer_bytes += nbytes
    if "transfer" in _enabled:
        _emit("transfer", site, f"transfer {where} at {short_name(site)}: shape {shape} "
                                f"{dtype}, {nbytes} bytes")


_ufunc_modules: dict = {}


def public_module(obj, name: str) -> str | None:
    """The public module that offers `obj` as `name` (for a ufunc, which does not say:
    `scipy.special.expit` is a NumPy ufunc): among the imported modules holding it, a
    module without private parts, the shortest name first. Found once per object."""
    try:
        known = _ufunc_modules.get(obj)
    except TypeError:  # unhashable
        return None
    if known is None:
        holders = []
        for module_name, module in list(sys.modules.items()):
            namespace = getattr(module, "__dict__", None)
            if not isinstance(namespace, dict):
                continue
            value = namespace.get(name)
            # A function wrapping it counts (functools.wraps): scipy.special.expit under
            # SCIPY_ARRAY_API=1 wraps the ufunc.
            if value is obj or (isinstance(value, types.FunctionType)
                                and value.__dict__.get("__wrapped__") is obj):
                holders.append(module_name)
        public = [m for m in holders if not any(p.startswith("_") for p in m.split("."))]
        known = _ufunc_modules[obj] = min(public or holders or [""],
                                          key=lambda m: (m.count("."), len(m), m))
    return known or None


def function_name(func, method: str = "__call__") -> str:
    """The name a user calls `func` (a function, a ufunc, or a ufunc's `method`) by:
    "numpy.median", "numpy.add.reduceat", "scipy.special.expit"."""
    owner = getattr(func, "__self__", None)
    if method == "__call__" and hasattr(owner, "nin"):  # a bound ufunc method: add.reduce
        func, method = owner, func.__name__
    name = getattr(func, "__name__", None) or repr(func)
    module = getattr(func, "__module__", None)
    if not isinstance(module, str) or hasattr(func, "nin"):  # ufuncs name no module
        module = public_module(func, name)
    qualified = f"{module}.{name}" if module else name
    return qualified if method == "__call__" else f"{qualified}.{method}"


# ----- recompile reasons ---------------------------------------------------------------

def _spec_differences(k: int, old, new, out: list) -> None:
    (old_shape, old_dtype), (new_shape, new_dtype) = old, new
    if old_shape == () and new_shape == () and old_dtype != new_dtype:
        out.append(("scalar kind", f"new scalar kind: input {k} is a {new_dtype} scalar, "
                                   f"was {old_dtype}"))
        return
    if old_shape != new_shape:
        out.append(("shape", f"new shape: input {k} is {new_shape}, was {old_shape}"))
    if old_dtype != new_dtype:
        out.append(("dtype", f"new dtype: input {k} is {new_dtype}, was {old_dtype}"))


def _instruction_differences(k: int, old, new, out: list) -> None:
    if old.op is not new.op:
        out.append(("op", f"new operation: {new.op.name} where it was {old.op.name} "
                          f"(operation {k})"))
        return
    if old.attrs != new.attrs:
        before, after = dict(old.attrs), dict(new.attrs)
        changed = [name for name in sorted(set(before) | set(after))
                   if before.get(name, None) != after.get(name, None)]
        shown = ", ".join(f"{name}={after.get(name)!r} (was {before.get(name)!r})"
                          for name in changed[:2])
        out.append(("attribute", f"new attribute: {new.op.name} {shown}"))
    if old.shape != new.shape:
        out.append(("shape", f"new shape: {new.op.name} gives {new.shape}, was {old.shape}"))
    if old.dtype != new.dtype:
        out.append(("dtype", f"new dtype: {new.op.name} gives {new.dtype}, was {old.dtype}"))
    if old.inputs != new.inputs:
        out.append(("wiring", f"{new.op.name} (operation {k}) reads other operands"))


def differences(old, new) -> list[tuple[str, str]]:
    """How program `new` differs from `old`, as (kind, description) pairs, inputs first:
    a shape, a dtype, an operation, an attribute, a new scalar kind, a size; else a
    scalar compiled in that took another value."""
    out: list = []
    (old_values, old_body, _), (new_values, new_body, _) = compiled_in(old), compiled_in(new)
    before, after = Counter(old.input_specs), Counter(new.input_specs)
    if before != after:
        differing = [k for k, (a, b) in enumerate(zip(old.input_specs, new.input_specs))
                     if a != b]
        if len(old.input_specs) == len(new.input_specs) and len(differing) <= 3:
            for k in differing:  # the same inputs but a few: name them by position
                _spec_differences(k, old.input_specs[k], new.input_specs[k], out)
        else:  # inputs added, removed or reordered: say which kinds are new or gone
            for (shape, dtype), n in (after - before).items():
                many = f"{n} x " if n > 1 else ""
                out.append(("shape", f"new input{'s' if n > 1 else ''}: {many}{shape} {dtype}"))
            for (shape, dtype), n in (before - after).items():
                many = f"{n} x " if n > 1 else ""
                out.append(("inputs", f"input{'s' if n > 1 else ''} gone: {many}{shape} "
                                      f"{dtype}"))
    for k, (a, b) in enumerate(zip_longest(old_body, new_body)):
        if a is None:
            out.append(("op", f"new operation: {b.op.name} (operation {k}, "
                              f"{len(new_body)} operations, was {len(old_body)})"))
        elif b is None:
            out.append(("op", f"fewer operations: {len(new_body)}, was {len(old_body)}"))
            break
        else:
            _instruction_differences(k, a, b, out)
    if old.outputs != new.outputs and len(old.outputs) != len(new.outputs):
        out.append(("outputs", f"{len(new.outputs)} results, was {len(old.outputs)}"))
    if not out:  # (the scalars compiled in: named only where nothing else differs)
        for i in sorted(old_values.keys() | new_values.keys()):
            was, now = old_values.get(i), new_values.get(i)
            if now is None:
                out.append(("constant", f"input {i}, a scalar compiled in as {was!r}, took "
                                        "another value: a runtime input from now on"))
            elif was is None or repr(was) != repr(now):
                out.append(("constant", f"input {i} compiled in as {now!r}"
                                        + (f", was {was!r}" if was is not None else "")))
    return out


def nearest_difference(earlier: list, program) -> str:
    """The recompile reason: how `program` differs from the nearest of the `earlier`
    programs compiled for its line (the first differences, and how many more)."""
    best = None
    for old in reversed(earlier):  # the latest first, among equally near ones
        found = differences(old, program)
        if best is None or len(found) < len(best):
            best = found
        if not found:
            break
    if not best:
        return ("the same structure again (the backend compiled it anew: other inputs "
                "donated, or its cache was dropped)")
    # Say what differs first, of each kind: an input's new shape, not every operation
    # whose shape follows from it.
    kinds, shown = [], []
    for kind, text in best:
        if kind not in kinds:
            kinds.append(kind)
            shown.append(text)
    return "; ".join(shown[:3]) + ("; ..." if len(shown) > 3 else "")


# ----- the report -----------------------------------------------------------------------

def _causes(flushes: dict) -> str:
    return ", ".join(f"{cause} {n}" for cause, n in sorted(flushes.items(),
                                                           key=lambda kv: (-kv[1], kv[0])))


def format_report(stats: dict, top: int = 10) -> str:
    """The lines of `stats()["lines"]` that cost most (seconds flushing, then events) as
    a table, and the recompile reasons of the lines that compiled more than once."""
    lines = stats.get("lines", {})
    if not lines:
        return "lazyarr report: no flush, compile, fallback or transfer was recorded"

    def cost(item):
        name, row = item
        events = sum(row["flushes"].values()) + row["compiles"] + sum(row["fallbacks"].values())
        return (-row["seconds"], -events, -row["transfers"], name)

    ranked = sorted(lines.items(), key=cost)
    shown = ranked[:top]
    width = max(len(_short(name)) for name, _ in shown)
    header = (f"{'line':<{width}}  {'flushes':>7}  {'seconds':>8}  {'compiles':>8}  "
              f"{'compile s':>9}  {'fallbacks':>9}  {'transfers':>9}  causes / fallbacks")
    out = [f"lazyarr report: {len(lines)} line{'s' if len(lines) != 1 else ''} of your code "
           f"caused work" + (f"; the top {len(shown)}:" if len(shown) < len(lines) else ":"),
           header, "-" * len(header)]
    for name, row in shown:
        notes = _causes(row["flushes"])
        if row["fallbacks"]:
            notes += ("; " if notes else "") + ", ".join(
                f"{f} {n}" for f, n in sorted(row["fallbacks"].items()))
        out.append(f"{_short(name):<{width}}  {sum(row['flushes'].values()):>7}  "
                   f"{row['seconds']:>8.3f}  {row['compiles']:>8}  "
                   f"{row['compile_seconds']:>9.3f}  {sum(row['fallbacks'].values()):>9}  "
                   f"{row['transfers']:>9}  {notes}")
    recompiled = [(name, row) for name, row in ranked if row["compiles"] > 1]
    if recompiled:
        out.append("recompiles (each compile after a line's first, and what was new):")
        for name, row in recompiled[:top]:
            reasons = Counter(row["recompile_reasons"])
            out.append(f"  {_short(name)}: {row['compiles']} compiles")
            for reason, n in reasons.most_common(5):
                out.append(f"    {n} x {reason}")
            if len(reasons) > 5:
                out.append(f"    ... and {len(reasons) - 5} other reasons")
    return "\n".join(out)


def _short(name: str) -> str:
    path, _, line = name.rpartition(":")
    return short_name((path, line)) if path else name
