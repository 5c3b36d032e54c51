"""How much of NumPy lazyarr implements: `python -m lazyarr.coverage [--list]`.

For `numpy`, `numpy.linalg`, `numpy.fft` and `numpy.random`, every public callable
that is not a type (functions and ufuncs) is either lazyarr's own (it runs lazily; for
numpy.random, NumPy's numbers drawn on the host) or reached through the counted
fallback (NumPy runs it on materialized arrays). "Array functions" are the ufuncs and
the functions NumPy dispatches through NEP 18; the others are utilities (printing,
errstate, file I/O, dtype helpers). Types and constants are not counted.
"""

from __future__ import annotations

import argparse
import types

import numpy

import lazyarr  # noqa: F401
from . import _deferred
from ._api import NAMESPACES

_deferred.load_all()  # registers every chapter

MODULES = {"numpy": "", "numpy.linalg": "linalg", "numpy.fft": "fft", "numpy.random": "random"}
# Not part of the array API a script uses: NumPy's own test runner and config helpers.
_EXCLUDED = {"test", "show_config", "show_runtime", "get_include"}


# Why each name that falls back does (`--list` prints them; a test fails on a fallback
# without its reason).
FALLBACK_REASONS = {
    ("busday_count", "busday_offset", "is_busday", "datetime_as_string", "datetime_data",
     "isnat"): "datetime64 data is NumPy's own array (lazyarr computes on bool and numeric "
               "dtypes)",
    ("asmatrix", "bmat"): "np.matrix is an ndarray subclass of NumPy's (deprecated), not "
                          "a lazy array",
    ("frompyfunc",): "it makes a ufunc of Python callables on object arrays, NumPy's own",
    ("fromregex",): "text parsed by regular expressions into structured arrays, NumPy's own",
    ("getbufsize", "setbufsize"): "the size of NumPy's ufunc buffers: nothing of lazyarr's "
                                  "programs",
    ("info",): "it prints NumPy's documentation",
    ("nested_iters",): "NumPy's nditer objects iterate over NumPy's arrays",
}


def fallback_reason(name: str) -> str | None:
    return next((why for names, why in FALLBACK_REASONS.items() if name in names), None)


def public_callables(module) -> list[str]:
    """The public callables of `module` that are not types, modules or excluded names."""
    names = []
    for name in dir(module):
        if name.startswith("_") or name in _EXCLUDED:
            continue
        value = getattr(module, name)
        if callable(value) and not isinstance(value, (type, types.ModuleType)):
            names.append(name)
    return sorted(names)


def _implemented(namespace: str, name: str) -> bool:
    """lazyarr has its own `name` (exported by a chapter, or defined at the top level,
    like result_type), not NumPy's object passed through."""
    if name in NAMESPACES[namespace]:
        return True
    module = lazyarr if not namespace else getattr(lazyarr, namespace)
    ours = getattr(module, name, None)
    theirs = getattr(numpy if not namespace else getattr(numpy, namespace), name)
    return ours is not None and ours is not theirs


def is_array_function(value) -> bool:
    """A ufunc, or a function NumPy dispatches through NEP 18 (`__array_function__`)."""
    return isinstance(value, (numpy.ufunc, _DISPATCHER))


_DISPATCHER = type(numpy.concatenate)


def table() -> dict[str, dict[str, tuple[list[str], list[str]]]]:
    """For each NumPy module and each kind ("all" callables, "array" functions): the
    names lazyarr implements and the names that fall back."""
    result = {}
    for module_name, namespace in MODULES.items():
        module = numpy if not namespace else getattr(numpy, namespace)
        names = public_callables(module)
        kinds = {"all": names,
                 "array": [n for n in names if is_array_function(getattr(module, n))]}
        result[module_name] = {
            kind: ([n for n in chosen if _implemented(namespace, n)],
                   [n for n in chosen if not _implemented(namespace, n)])
            for kind, chosen in kinds.items()}
    return result


def _share(part: list, rest: list) -> str:
    total = len(part) + len(rest)
    return f"{len(part)}/{total} ({100.0 * len(part) / total if total else 100.0:.1f}%)"


def markdown(coverage: dict, listing: bool = False) -> str:
    lines = ["| namespace | array functions (ufuncs and NEP 18) in lazyarr | all public "
             "callables in lazyarr |", "|---|---|---|"]
    for module_name, kinds in coverage.items():
        lines.append(f"| {module_name} | {_share(*kinds['array'])} | {_share(*kinds['all'])} |")
    if listing:
        for module_name, kinds in coverage.items():
            array_missing = set(kinds["array"][1])
            missing = [n + ("" if n in array_missing else "*") for n in kinds["all"][1]]
            lines += ["", f"Fallback in {module_name} ({len(missing)}; * not an array "
                      "function): " + (", ".join(missing) or "none")]
            reasons: dict[str, list[str]] = {}
            for name in kinds["all"][1]:
                reasons.setdefault(fallback_reason(name) or "no reason recorded", []).append(name)
            lines += [f"- {', '.join(names)}: {why}" for why, names in reasons.items()]
    return "\n".join(lines)


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(prog="python -m lazyarr.coverage", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--list", action="store_true", help="list the fallback names")
    args = parser.parse_args(argv)
    print(f"NumPy {numpy.__version__}, lazyarr {lazyarr.__version__}\n")
    print(markdown(table(), args.list))


if __name__ == "__main__":
    main()
