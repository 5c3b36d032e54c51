"""The precision a value's transcendental functions ran in, for the XLA tolerance.

docs/semantics.md documents XLA's last-ulp differences in transcendental functions
(`exp`, `log`, `tanh`, `power`, ..., real and complex) at the precision they are computed
in; a value computed from such a result carries that difference, also once it is
widened (a float32 `expm1` minus an int64 is float64 with float32's last-ulp
difference). So the fuzzer compares each variable at the tolerance of the narrowest
float precision of the transcendental results its value was computed from, where that
is narrower than its own: the precision of each transcendental call or power is
NumPy's, as the program runs under NumPy (the branch of an `if` that NumPy takes), and
it follows assignments (a variable reassigned without one loses it).

The same pass finds the variables computed from a subnormal float32 or float64 value (a
value read, a sub-expression's result or the result itself, under NumPy): XLA's CPU
runtime reads and writes those as zero (FTZ/DAZ, documented in docs/semantics.md), so a
difference in such a variable on a backend that flushes subnormals is that deviation.
"""

from __future__ import annotations

import ast
import re
import warnings

import numpy

TRANSCENDENTAL = frozenset(("exp", "exp2", "expm1", "log", "log2", "log10", "log1p", "sin",
                            "cos", "tan", "tanh", "arctan", "arctan2", "cbrt", "power",
                            "angle"))
_NAME = re.compile(r"\bv\d+\b")


def _width(value) -> int | None:
    """Bytes of a real part of an inexact value's dtype, else None."""
    dtype = numpy.asarray(value).dtype
    if dtype.kind == "f":
        return dtype.itemsize
    if dtype.kind == "c":
        return dtype.itemsize // 2
    return None


def _transcendentals(statement: ast.stmt):
    """The transcendental sub-expressions of one simple statement (calls of NumPy's
    functions, `**`, the target of `**=`)."""
    for node in ast.walk(statement):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and \
                isinstance(node.func.value, ast.Name) and node.func.value.id == "np" and \
                node.func.attr in TRANSCENDENTAL and not any(k.arg == "out" for k in node.keywords):
            yield node
        elif isinstance(node, ast.BinOp) and isinstance(node.op, ast.Pow):
            yield node
        elif isinstance(node, ast.AugAssign) and isinstance(node.op, ast.Pow):
            yield ast.BinOp(ast.Name(node.target.id, ast.Load()) if isinstance(
                node.target, ast.Name) else node.target, ast.Pow(), node.value)


def _targets(statement: ast.stmt) -> list[tuple[str, bool]]:
    """The variables a simple statement assigns: (name, whole) where `whole` is False
    for a write into part of it (`v[i] = ...`, `v += ...` keep what it held)."""
    found = []
    targets = statement.targets if isinstance(statement, ast.Assign) else \
        [statement.target] if isinstance(statement, ast.AugAssign | ast.AnnAssign) else []
    for target in targets:
        for node in ast.walk(target):
            if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
                found.append((node.id, not isinstance(statement, ast.AugAssign)))
            elif isinstance(node, ast.Subscript | ast.Attribute) and \
                    isinstance(node.value, ast.Name):
                found.append((node.value.id, False))
    return found


def widths(program: list[str]) -> dict[str, int]:
    """For each variable at the end of `program` (run with NumPy): the narrowest
    precision, in bytes, of a transcendental result its value was computed from."""
    return _follow(program)[0]


def subnormal(program: list[str]) -> set[str]:
    """The variables at the end of `program` computed from a subnormal float32 or
    float64 value (under NumPy)."""
    return _follow(program)[1]


def _has_subnormal(value) -> bool:
    try:
        array = numpy.asarray(value)
    except Exception:  # noqa: BLE001  (not array-like: holds no subnormal)
        return False
    if array.dtype.kind == "c":
        array = numpy.concatenate([array.real.ravel(), array.imag.ravel()])
    if array.dtype not in (numpy.float32, numpy.float64):
        return False
    tiny = numpy.finfo(array.dtype).smallest_normal
    magnitude = numpy.abs(array)
    return bool(numpy.any((magnitude > 0) & (magnitude < tiny)))


def _follow(program: list[str]) -> tuple[dict[str, int], set[str]]:
    ns: dict = {"np": numpy}
    taint: dict[str, int] = {}
    flushed: set[str] = set()
    with numpy.errstate(all="ignore"), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for text in program:
            try:
                pending = list(ast.parse(text).body)
            except SyntaxError:
                continue
            while pending:  # the statements NumPy runs, branches as it takes them
                statement = pending.pop(0)
                try:
                    if isinstance(statement, ast.If):
                        taken = eval(compile(ast.Expression(statement.test), "<fuzz>",  # noqa: S307
                                             "eval"), ns)
                        pending[:0] = statement.body if taken else statement.orelse
                        continue
                    _step(statement, ns, taint, flushed)
                except Exception:  # noqa: BLE001  (NumPy raised: the rest is not run)
                    break
    return taint, flushed


def _evaluated(expression: ast.expr, ns: dict):
    return eval(compile(ast.fix_missing_locations(ast.Expression(expression)),  # noqa: S307
                        "<fuzz>", "eval"), ns)


def _step(statement: ast.stmt, ns: dict, taint: dict[str, int], flushed: set[str]) -> None:
    found = []
    for expression in _transcendentals(statement):
        try:
            result = _evaluated(expression, ns)
        except Exception:  # noqa: BLE001  (the statement raises it too)
            continue
        width = _width(result)
        if width is not None:
            found.append(width)
    value = getattr(statement, "value", None)  # what is written: its reads pass theirs on
    source = ast.unparse(statement if value is None else value)
    reads = _NAME.findall(source)
    found += [taint[n] for n in reads if n in taint]
    tiny = any(n in flushed or _has_subnormal(ns.get(n)) for n in reads)
    if isinstance(statement, ast.AugAssign) and not tiny:
        try:  # the target as it is read (a `v[i]` included)
            target = ast.parse(ast.unparse(statement.target), mode="eval").body
            tiny = _has_subnormal(_evaluated(target, ns))
        except Exception:  # noqa: BLE001  (the statement raises it too)
            pass
    for node in ast.walk(statement if value is None else value):
        if tiny:
            break
        if isinstance(node, ast.Call | ast.BinOp | ast.UnaryOp | ast.Subscript) and \
                not any(k.arg == "out" for k in getattr(node, "keywords", ())):
            try:
                tiny = _has_subnormal(_evaluated(node, ns))
            except Exception:  # noqa: BLE001  (the statement raises it too)
                continue
    exec(compile(ast.Module([statement], []), "<fuzz>", "exec"), ns)  # noqa: S102
    for name, whole in _targets(statement):
        if tiny or _has_subnormal(ns.get(name)):
            flushed.add(name)
        elif whole:
            flushed.discard(name)
    narrowest = min(found, default=None)
    for name, whole in _targets(statement):
        if narrowest is not None:
            taint[name] = min(narrowest, taint.get(name, narrowest)) if not whole else narrowest
        elif whole:
            taint.pop(name, None)
