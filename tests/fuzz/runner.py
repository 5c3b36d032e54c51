"""Run a generated program on NumPy and on lazyarr and compare them.

Each statement is executed on its own, so an exception is attributed to its statement:
lazyarr must raise NumPy's exception type at the same statement (never later, when a
result is read), and a statement NumPy accepts must not raise. At the end every
variable is compared: value, dtype and shape, and whether NumPy holds an array or a
NumPy scalar there (lazyarr's 0-d results say which they stand for). Python values
(from `float()`, `tolist()`, `.shape`...) must be equal and of the same type.
A difference is summarized by a signature (which kind of statement, what differs) so
that many programs with one cause count once, and `minimize` removes statements
while the same signature remains.
"""

from __future__ import annotations

import builtins
import re
import warnings
from dataclasses import dataclass

import numpy

import lazyarr

from lazyarr._errors import BackendFailure

from . import precision

# Relative tolerances by float precision (as tests/differential.py): integers and bools
# must match exactly.
RTOL = {2: 2e-3, 4: 2e-5, 8: 1e-12}
# lazyarr's own failures (a backend error, a broken rule check) are differences too:
# they are named by their class, never folded into a public type.
_PUBLIC = (numpy.exceptions.AxisError, IndexError, ValueError, TypeError, OverflowError,
           ZeroDivisionError, KeyError, MemoryError, NameError, AttributeError)


_NAME = re.compile(r"\bv\d+\b")
_DTYPE = re.compile(r"np\.(bool|u?int\d+|float\d+|complex\d+)\b")
_NUMBER = re.compile(r"(?<![\w.])\d+(\.\d*)?(e[-+]?\d+)?")


@dataclass
class Difference:
    signature: str
    detail: str
    program: list[str]

    def report(self) -> str:
        lines = "\n".join(self.program)
        return f"{self.signature}\n  {self.detail}\nprogram:\n{lines}"


def _kind(exc: BaseException | None) -> str | None:
    if exc is None:
        return None
    if isinstance(exc, BackendFailure):
        return "BackendFailure"
    for cls in type(exc).__mro__:
        if cls in _PUBLIC:
            return cls.__name__
    return type(exc).__name__


def execute(program: list[str], module) -> tuple[list, dict]:
    """Run `program` with `np` bound to `module`: the exception of each statement (or
    None) and the namespace at the end."""
    ns: dict = {"np": module, "__name__": "fuzzprogram"}
    outcomes = []
    for k, statement in enumerate(program):
        try:
            with numpy.errstate(all="ignore"), warnings.catch_warnings():
                warnings.simplefilter("ignore")
                exec(compile(statement, f"<fuzz statement {k}>", "exec"), ns)  # noqa: S102
            outcomes.append(None)
        except Exception as exc:  # noqa: BLE001  (compared with NumPy's)
            outcomes.append(exc)
    return outcomes, ns


def compare(program: list[str], backend: str) -> Difference | None:
    """The first difference between NumPy and lazyarr (on `backend`) running
    `program`, or None."""
    expected_outcomes, expected = execute(program, numpy)
    with lazyarr.use_backend(backend):
        actual_outcomes, actual = execute(program, lazyarr)
        for k, (e, a) in enumerate(zip(expected_outcomes, actual_outcomes)):
            ek, ak = _kind(e), _kind(a)
            late = None
            if ek in ("IndexError", "ValueError") and ak is None:
                late = _deferred_error(program[:k + 1], backend)
                if late == ek and (ek == "IndexError" or _NEGATIVE_POWER in str(e)):
                    # Out-of-bounds values of a pending index array, negative values of
                    # a pending integer exponent, are found when the result is computed
                    # (docs/semantics.md): the rest of the program cannot be compared,
                    # what came before can.
                    return compare(program[:k], backend)
            if ek == ak == "ValueError" and _NEGATIVE_POWER in str(e) and \
                    re.search(r"^\s*v\d+\s*\*\*=", program[k], re.M):
                # NumPy's in-place power raised from inside its loop, after writing
                # part of the target through its casting buffer (unspecified values);
                # lazyarr's target is unchanged (docs/semantics.md).
                return compare(program[:k], backend)
            if ek != ak:
                head = program[k].split("\n")[0]
                later = f" (read later: {late})" if late else ""
                return Difference(f"statement [{_shape_of(head)}]: NumPy {ek}, lazyarr {ak}"
                                  + later,
                                  f"statement {k}: {program[k]!r}: NumPy {e!r}, lazyarr {a!r}",
                                  program)
        for name in sorted(expected):
            if name.startswith("__") or name == "np":
                continue
            problem = _differs(expected[name], actual.get(name), backend)
            if problem is not None and backend != "numpy" and "value" in problem[0]:
                # XLA's last-ulp differences at the precision the value's
                # transcendental functions ran in (docs/semantics.md)
                problem = _differs(expected[name], actual.get(name), backend,
                                   precision.widths(program).get(name))
            if problem is not None and _flushes_subnormals(backend) and \
                    name in precision.subnormal(program):
                # computed from a subnormal value, which XLA's CPU runtime reads and
                # writes as zero (docs/semantics.md)
                continue
            if problem is not None and not _documented(expected[name], actual.get(name),
                                                       program, name):
                blas = _blas_special(program)
                if blas is not None:
                    # NumPy's product ran through BLAS on infinities, NaNs or a zero
                    # scalar, where the BLAS kernel decides (docs/semantics.md): what
                    # came before it can be compared.
                    return compare(program[:blas], backend)
                what, detail = problem
                origin = _last_assignment(program, name)
                return Difference(f"final [{origin}]: {what}", f"{name}: {detail}", program)
    return None


def _flushes_subnormals(backend: str) -> bool:
    return getattr(lazyarr._backend.load(backend), "flushes_subnormals", False)


_NEGATIVE_POWER = "Integers to negative integer powers are not allowed."


def _deferred_error(program: list[str], backend: str) -> str | None:
    """For a one-line last statement: the exception its target raises when read right
    after it (None if it reads)."""
    statement = program[-1]
    if "\n" in statement:
        return None
    with lazyarr.use_backend(backend):
        _, ns = execute(program, lazyarr)
        target = ns.get(re.split(r"[\s\[=]", statement, maxsplit=1)[0])
        if not isinstance(target, lazyarr.Array):
            return None
        try:
            numpy.asarray(target)
        except Exception as exc:  # noqa: BLE001  (compared by the caller)
            return _kind(exc)
    return None


_PRODUCT = re.compile(r"^(v\d+) = (np\.(dot|vdot|matmul|inner)\(|v\d+ @ )")
_ZERO_SCALAR = re.compile(r"np\.dot\(.*, -?0(\.0)?\)$|np\.dot\(-?0(\.0)?,")


def _blas_special(program: list[str]) -> int | None:
    """The first statement that is a NumPy product BLAS computes on special values:
    inexact operands with an infinity or a NaN in the result, or a zero scalar."""
    ns: dict = {"np": numpy}
    for k, statement in enumerate(program):
        operands = re.match(r"^v\d+ = np\.dot\((v\d+), (v\d+)\)$", statement)
        zero = operands is not None and any(
            numpy.ndim(ns.get(name)) == 0 and ns.get(name) == 0 for name in operands.groups())
        try:
            with numpy.errstate(all="ignore"), warnings.catch_warnings():
                warnings.simplefilter("ignore")
                exec(compile(statement, "<fuzz statement>", "exec"), ns)  # noqa: S102
        except Exception:  # noqa: BLE001  (compared statement by statement elsewhere)
            continue
        match = _PRODUCT.match(statement)
        if match is None:
            continue
        result = numpy.asarray(ns.get(match.group(1)))
        if result.dtype.kind in "fc" and (not numpy.all(numpy.isfinite(result))
                                          or _ZERO_SCALAR.search(statement) or zero):
            return k
    return None


def _documented(expected, actual, program: list[str], name: str) -> bool:
    """Whether a difference in `name` is one that docs/semantics.md documents (and a
    test there shows): NumPy's out-of-range float-to-uint32 casts, whose values depend
    on the element's position and layout (0 or 2**31 from its SIMD loop); a Python
    complex compared with a float64 result (Python's bool, where lazyarr's result is
    a NumPy bool of the same value)."""
    if isinstance(expected, numpy.ndarray | numpy.generic) and expected.dtype == numpy.uint32 \
            and "np.uint32" in "\n".join(program) and isinstance(actual, lazyarr.Array):
        e = numpy.asarray(expected).ravel()
        a = numpy.asarray(actual).ravel()
        if a.shape == e.shape and a.dtype == e.dtype:
            differ = e != a
            simd = numpy.isin(e, (0, 2**31)) | numpy.isin(a, (0, 2**31))
            return bool(numpy.all(simd[differ]))
    if type(expected) is builtins.bool and isinstance(actual, lazyarr.Array) and \
            actual._scalar and actual.dtype == numpy.bool_ and bool(actual) == expected:
        origin = _last_assignment(program, name)
        return bool(re.fullmatch(r"v=(complex\(.*\)|\(?-?N?[+-]?Nj\)?)(==|!=)v", origin))
    return False


def _shape_of(statement: str) -> str:
    """A statement's template: variable names and numbers replaced, for grouping."""
    text = _DTYPE.sub("np.T", _NAME.sub("v", statement.replace(" ", "")))
    return _NUMBER.sub("N", text)[:80]


def _last_assignment(program: list[str], name: str) -> str:
    for statement in reversed(program):
        for line in statement.split("\n"):
            line = line.strip()
            if line.startswith(name + " ") or line.startswith(name + "["):
                return _shape_of(line)
    return "?"


def _differs(expected, actual, backend: str, width: int | None = None):
    """None when `actual` (lazyarr's) matches `expected` (NumPy's), else (what, detail).
    `width`: bytes of the narrowest float precision of the transcendental results the
    value was computed from, on XLA (its tolerance is that precision's where narrower)."""
    if isinstance(expected, numpy.ndarray) and expected.dtype.kind not in "biufc":
        # non-numeric data (object arrays from huge Python ints) is NumPy's own array
        if type(actual) is not numpy.ndarray or actual.dtype != expected.dtype:
            return "type", f"NumPy {expected.dtype} array, lazyarr {type(actual).__name__}"
        return None if numpy.array_equal(expected, actual) else ("value", "object array")
    if isinstance(expected, (numpy.ndarray, numpy.generic)):
        if not isinstance(actual, lazyarr.Array):
            return "type", f"NumPy {type(expected).__name__}, lazyarr {type(actual).__name__}"
        try:
            value = numpy.asarray(actual)
        except Exception as exc:  # noqa: BLE001
            return f"read raised {_kind(exc)}", repr(exc)
        if value.shape != expected.shape:
            return "shape", f"{value.shape} != {expected.shape}"
        if value.dtype != expected.dtype:
            return f"dtype {value.dtype} != {expected.dtype}", ""
        if actual._scalar != isinstance(expected, numpy.generic):
            return "scalar kind", f"NumPy {type(expected).__name__}, lazyarr 0-d array"
        if isinstance(expected, numpy.ndarray) and \
                actual.flags.writeable != expected.flags.writeable:
            return "writeable flag", f"NumPy {expected.flags.writeable}"
        if not _values_equal(numpy.asarray(expected), value, backend, width):
            return "value", f"NumPy {expected!r}, lazyarr {value!r}"
        return None
    if isinstance(expected, (list, tuple)):
        if type(actual) is not type(expected) or len(actual) != len(expected):
            return "sequence", f"NumPy {expected!r}, lazyarr {actual!r}"
        for e, a in zip(expected, actual):
            problem = _differs(e, a, backend, width)
            if problem is not None:
                return problem
        return None
    if isinstance(expected, (builtins.bool, builtins.int, builtins.float, builtins.complex)):
        if type(actual) is not type(expected):
            return "python type", f"NumPy {type(expected).__name__}, lazyarr {type(actual)}"
        if not _values_equal(numpy.asarray(expected), numpy.asarray(actual), backend, width):
            return "python value", f"NumPy {expected!r}, lazyarr {actual!r}"
        return None
    if isinstance(expected, (str, numpy.dtype)):
        return None if actual == expected else ("value", f"{expected!r} != {actual!r}")
    if type(expected).__name__ == "module":
        return None
    return None if actual is not None else ("missing", "lazyarr has no such variable")


def _values_equal(expected: numpy.ndarray, value: numpy.ndarray, backend: str,
                  width: int | None = None) -> bool:
    if expected.dtype.kind in "biu" or value.dtype.kind in "biu":
        return numpy.array_equal(expected, value)
    e = expected.astype(numpy.complex128)
    v = value.astype(numpy.complex128)
    nan_e, nan_v = numpy.isnan(e), numpy.isnan(v)
    if not numpy.array_equal(nan_e, nan_v):
        return False
    finite = numpy.isfinite(e)
    if not numpy.array_equal(e[~finite & ~nan_e], v[~finite & ~nan_e]):
        return False
    itemsize = expected.dtype.itemsize // (2 if expected.dtype.kind == "c" else 1)
    if width is not None and backend != "numpy":
        itemsize = min(itemsize, width)
    # The interpreter computes as NumPy does; XLA within its documented ulp deviations.
    rtol = RTOL.get(itemsize, 1e-2) if backend != "numpy" else min(RTOL.get(itemsize, 1e-2),
                                                                   1e-6)
    with numpy.errstate(all="ignore"):
        return bool(numpy.allclose(v[finite], e[finite], rtol=rtol, atol=1e-30))


def minimize(difference: Difference, backend: str, compare=compare) -> Difference:
    """Remove statements (halves, quarters, ... then one at a time) while the program
    still shows a difference of the same signature (`compare(program, backend)`)."""
    program = list(difference.program)
    best = difference
    chunk = max(1, len(program) // 2)
    while True:
        removed_any = False
        start = 0
        while start < len(program):
            trial = program[:start] + program[start + chunk:]
            found = compare(trial, backend) if trial else None
            if found is not None and found.signature == best.signature:
                program, best, removed_any = trial, found, True
            else:
                start += chunk
        if chunk == 1 and not removed_any:
            return best
        chunk = max(1, chunk // 2) if not removed_any or chunk > 1 else 1
