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
    ns: dict = {"np": numpy}
    taint: dict[str, int] = {}
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
                    _step(statement, ns, taint)
                except Exception:  # noqa: BLE001  (NumPy raised: the rest is not run)
                    break
    return taint


def _step(statement: ast.stmt, ns: dict, taint: dict[str, int]) -> None:
    found = []
    for expression in _transcendentals(statement):
        try:
            value = eval(compile(ast.fix_missing_locations(ast.Expression(expression)),  # noqa: S307
                                 "<fuzz>", "eval"), ns)
        except Exception:  # noqa: BLE001  (the statement raises it too)
            continue
        width = _width(value)
        if width is not None:
            found.append(width)
    value = getattr(statement, "value", None)  # what is written: its reads pass theirs on
    source = ast.unparse(statement if value is None else value)
    found += [taint[n] for n in _NAME.findall(source) if n in taint]
    exec(compile(ast.Module([statement], []), "<fuzz>", "exec"), ns)  # noqa: S102
    narrowest = min(found, default=None)
    for name, whole in _targets(statement):
        if narrowest is not None:
            taint[name] = min(narrowest, taint.get(name, narrowest)) if not whole else narrowest
        elif whole:
            taint.pop(name, None)
