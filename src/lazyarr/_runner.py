"""`python -m lazyarr`: run an unmodified NumPy program with `numpy` meaning lazyarr in
the user's own code only.

`sys.modules["numpy"]` stays the real NumPy. A hook on `builtins.__import__` (and on
`importlib.import_module`) looks at the importing module's globals: when that module is
the program's `__main__` or a file under the program's own directory (its "roots"),
`import numpy`, `from numpy import ...`, `import numpy.linalg as la` and the like get a
facade module instead. Everything else (the standard library, site-packages, lazyarr and
NumPy themselves) gets the real NumPy, and converts lazyarr arrays through `__array__`.

The facade answers an attribute with lazyarr's version where lazyarr has one and NumPy
has the same name, and with NumPy's own otherwise (NumPy's functions then dispatch
lazyarr arrays through NEP 18, or count a fallback). `numpy.linalg`, `numpy.fft`,
`numpy.random` and `numpy.testing` are facades of the same kind over `lazyarr.<name>`;
every other submodule (`numpy.typing`, `numpy.lib`, `numpy.core`, ...) is NumPy's own.

The program runs as plain `python` runs it: a fresh `__main__` module, `sys.argv`,
`sys.path[0]`, SystemExit codes, and an uncaught exception printed through
`sys.excepthook` with the runner's own frames removed, exit code 1.
"""

from __future__ import annotations

import atexit
import builtins
import importlib
import importlib.machinery
import importlib.util
import io
import os
import signal
import sys
import sysconfig
import types
import zipimport

import numpy

import lazyarr
from lazyarr._facade import MISSING as _MISSING, NumpyFacade
from lazyarr._observe import format_report


LAZY_SUBMODULES = ("linalg", "fft", "random", "testing")


_FACADES: dict[str, NumpyFacade] = {}


def _top_lookup(name: str):
    if name in LAZY_SUBMODULES:
        return facade(f"numpy.{name}")
    if name.startswith("_"):
        return _MISSING
    value = getattr(lazyarr, name, _MISSING)
    if isinstance(value, types.ModuleType) or not hasattr(numpy, name):
        return _MISSING  # lazyarr's internals and extras are not NumPy names
    return value


def _submodule_lookup(sub: str):
    def lookup(name: str):
        if name.startswith("_"):
            return _MISSING
        value = getattr(getattr(lazyarr, sub), name, _MISSING)
        if isinstance(value, types.ModuleType) or not hasattr(getattr(numpy, sub), name):
            return _MISSING
        return value
    return lookup


def facade(name: str):
    """What `name` (numpy or one of its submodules, already imported) is in user code."""
    if name not in _FACADES:
        if name == "numpy":
            _FACADES[name] = NumpyFacade(numpy, _top_lookup)
        elif name.partition(".")[2] in LAZY_SUBMODULES:
            sub = name.partition(".")[2]
            _FACADES[name] = NumpyFacade(importlib.import_module(name), _submodule_lookup(sub))
        else:
            return sys.modules[name]
    return _FACADES[name]


# ----- whose imports get the facade -------------------------------------------------

def _real(path: str) -> str:
    return os.path.normcase(os.path.realpath(path))


def _inside(path: str, directory: str) -> bool:
    return path.startswith(directory.rstrip(os.sep) + os.sep)


class UserCode:
    """Decides, from an importing module's globals, whether it is the user's own code:
    the `__main__` globals, or a file under one of `roots` that is not in an installed
    location (site-packages, a virtual environment or Python itself inside a root) nor
    part of lazyarr or NumPy."""

    def __init__(self, roots, main_globals: dict):
        self.roots = [_real(r) for r in roots]
        self.main_globals = main_globals
        system = {sys.prefix, sys.exec_prefix, sys.base_prefix, sys.base_exec_prefix,
                  *sysconfig.get_paths().values()}
        self.excluded = [d for d in map(_real, system) if any(_inside(d, r) for r in self.roots)]
        self.excluded += [_real(os.path.dirname(m.__file__)) for m in (lazyarr, numpy)]
        self._cache: dict[str, bool] = {}

    def __call__(self, module_globals) -> bool:
        if module_globals is self.main_globals:
            return True
        filename = module_globals.get("__file__") if module_globals else None
        if not isinstance(filename, str):
            return False
        known = self._cache.get(filename)
        if known is None:
            known = self._cache[filename] = self._is_user_file(_real(filename))
        return known

    def _is_user_file(self, path: str) -> bool:
        if any(_inside(path, d) for d in self.excluded):
            return False
        for root in self.roots:
            if _inside(path, root):
                parts = path[len(root):].split(os.sep)
                return "site-packages" not in parts and "dist-packages" not in parts
        return False


def _is_numpy(name) -> bool:
    return isinstance(name, str) and (name == "numpy" or name.startswith("numpy."))


class ImportHook:
    """Installed on `builtins.__import__` and `importlib.import_module`."""

    def __init__(self, user: UserCode):
        self.user = user
        self.original_import = builtins.__import__
        self.original_import_module = importlib.import_module

    def install(self) -> None:
        builtins.__import__ = self.import_
        importlib.import_module = self.import_module

    def import_(self, name, globals=None, locals=None, fromlist=(), level=0):
        if level == 0 and _is_numpy(name):
            if globals is None:  # a bare __import__("numpy") call: its caller decides
                globals = sys._getframe(1).f_globals
            if self.user(globals):
                self.original_import(name, None, None, fromlist, 0)  # NumPy's errors
                return facade(name) if fromlist else facade("numpy")
        return self.original_import(name, globals, locals, fromlist, level)

    def import_module(self, name, package=None):
        module = self.original_import_module(name, package)
        if _is_numpy(module.__name__) and self.user(sys._getframe(1).f_globals):
            return facade(module.__name__)
        return module


# ----- running the program ----------------------------------------------------------

def _runner_frame(tb) -> bool:
    return tb.tb_frame.f_code.co_filename == __file__


def _strip_runner_frames(exc: BaseException) -> None:
    """Unlink the runner's frames from the tracebacks of `exc` and the exceptions it
    chains or groups, so a traceback reads as under plain `python`."""
    seen, stack = set(), [exc]
    while stack:
        e = stack.pop()
        if e is None or id(e) in seen:
            continue
        seen.add(id(e))
        kept, tb = [], e.__traceback__
        while tb is not None:
            if not _runner_frame(tb):
                kept.append(tb)
            tb = tb.tb_next
        for before, after in zip(kept, kept[1:] + [None]):
            before.tb_next = after
        e.__traceback__ = kept[0] if kept else None
        stack += [e.__cause__, e.__context__, *getattr(e, "exceptions", ())]


def _report_uncaught(exc: BaseException) -> None:
    """What the interpreter does with an uncaught exception: sys.excepthook, then exit
    code 1 (or death by SIGINT for KeyboardInterrupt, after the exit handlers)."""
    _strip_runner_frames(exc)
    sys.last_type, sys.last_value, sys.last_traceback = type(exc), exc, exc.__traceback__
    sys.excepthook(type(exc), exc, exc.__traceback__)
    if isinstance(exc, KeyboardInterrupt):
        for stream in (sys.stdout, sys.stderr):
            stream.flush()
        atexit._run_exitfuncs()
        signal.signal(signal.SIGINT, signal.SIG_DFL)
        os.kill(os.getpid(), signal.SIGINT)
    raise SystemExit(1)


def _fresh_main() -> types.ModuleType:
    main = types.ModuleType("__main__")
    main.__dict__.update(__builtins__=builtins, __spec__=None, __package__=None,
                         __annotations__={})
    sys.modules["__main__"] = main
    return main


def _find_spec(name: str):
    try:
        return importlib.util.find_spec(name)
    except ImportError as exc:
        _fail(f"Error while finding module specification for {name!r} "
              f"({type(exc).__name__}: {exc})")


def _module_main(name: str):
    """The spec of module `name` (or of a package's `__main__`), as `python -m` finds it."""
    spec = _find_spec(name)
    if spec is None:
        _fail(f"No module named {name}")
    if spec.submodule_search_locations is not None:
        spec = _find_spec(f"{name}.__main__")
        if spec is None:
            _fail(f"No module named {name}.__main__; {name!r} is a package and cannot be "
                  "directly executed")
    if spec.loader is None or not hasattr(spec.loader, "get_code"):
        _fail(f"No code object available for {name}")
    return spec


def _archive_main(path: str):
    """The spec of `__main__.py` in a directory or zip at sys.path[0]."""
    saved = sys.modules.pop("__main__")
    try:
        spec = importlib.util.find_spec("__main__")
    finally:
        sys.modules["__main__"] = saved
    if spec is None or spec.loader is None:
        _fail(f"can't find '__main__' module in {os.path.abspath(path)!r}")
    return spec


def _fail(message: str, code: int = 1):
    """Report a failure to start the program as the interpreter does."""
    print(f"{sys.executable}: {message}", file=sys.stderr)
    raise SystemExit(code)


def _package_roots(name: str) -> list[str]:
    """The directories of the top-level package holding module `name` (for -m)."""
    try:
        spec = importlib.util.find_spec(name.partition(".")[0])
    except (ImportError, ValueError):
        return []
    return list(spec.submodule_search_locations or ()) if spec is not None else []


def _is_zip(path: str) -> bool:
    """Whether `path` is a zip archive, as the interpreter asks (zipimport, which it
    has loaded already; zipfile was 5 ms of `python -m lazyarr`'s start-up)."""
    try:
        zipimport.zipimporter(path)
    except (zipimport.ZipImportError, OSError):
        return False
    return True


def _read_source(path: str) -> bytes:
    with io.open_code(path) as f:
        return f.read()


def run(*, path: str | None = None, code: str | None = None, module: str | None = None,
        args: list[str] = ()) -> None:
    """Run a script (`path`: a file, a directory or zip with `__main__.py`, or "-" for
    stdin), a command string (`code`) or a module (`module`), or else stdin or an
    interactive console, with `args` as sys.argv[1:]."""
    if _summary_wanted():
        atexit.register(print_summary)  # first registered, so it runs last
    cwd, main = os.getcwd(), _fresh_main()
    if path not in (None, "-"):
        kind = "archive" if os.path.isdir(path) or _is_zip(path) else "file"
        real_path = os.path.realpath(path)
        root = real_path if kind == "archive" else os.path.dirname(real_path)
        argv0, path0 = path, os.path.abspath(path) if kind == "archive" else root
    elif module is not None:
        kind, argv0, root, path0 = "module", "-m", cwd, cwd
    elif code is not None:
        kind, argv0, root, path0 = "code", "-c", cwd, ""
    else:
        kind = "stdin" if path == "-" or not sys.stdin.isatty() else "console"
        argv0, root, path0 = path or "", cwd, ""
    sys.argv[:] = [argv0, *args]
    if not sys.flags.safe_path:
        sys.path[0] = path0  # replaces the cwd that `python -m lazyarr` put there
    elif kind == "archive":
        sys.path.insert(0, path0)  # as the interpreter does, even under -P
    hook = ImportHook(UserCode([root], main.__dict__))
    hook.install()
    try:
        _execute(kind, {"module": module, "code": code}.get(kind, path), main, hook)
    except SystemExit:
        raise
    except BaseException as exc:  # noqa: BLE001  (the interpreter's top level)
        _report_uncaught(exc)


def _execute(kind: str, what, main: types.ModuleType, hook: ImportHook) -> None:
    namespace = main.__dict__
    if kind == "file":
        filename = os.path.abspath(what)
        namespace.update(__file__=filename, __cached__=None,
                         __loader__=importlib.machinery.SourceFileLoader("__main__", filename))
        try:
            source = _read_source(filename)
        except OSError as exc:
            _fail(f"can't open file {filename!r}: [Errno {exc.errno}] {exc.strerror}", code=2)
        exec(compile(source, filename, "exec", dont_inherit=True), namespace)
    elif kind in ("module", "archive"):
        if kind == "module":
            hook.user.roots += [_real(r) for r in _package_roots(what)]
            spec = _module_main(what)
            sys.argv[0] = spec.origin
        else:
            spec = _archive_main(what)
        namespace.update(__file__=spec.origin, __cached__=spec.cached, __loader__=spec.loader,
                         __package__=spec.parent, __spec__=spec)
        exec(spec.loader.get_code(spec.name), namespace)
    elif kind in ("code", "stdin"):
        namespace["__loader__"] = importlib.machinery.BuiltinImporter
        if kind == "code":
            source, filename = what, "<string>"
        else:
            source, filename = sys.stdin.read(), "<stdin>"
            namespace.update(__file__=filename, __cached__=None)
        exec(compile(source, filename, "exec", dont_inherit=True), namespace)
    else:
        import code as console
        console.interact(local=namespace, exitmsg="", banner=(
            f"Python {sys.version.split()[0]} with lazyarr {lazyarr.__version__}: "
            "`numpy` is lazyarr in this console"))


# ----- LAZYARR_SUMMARY --------------------------------------------------------------

def _summary_wanted() -> bool:
    return os.environ.get("LAZYARR_SUMMARY", "").strip().lower() not in ("", "0", "false",
                                                                          "no", "off")


def _counts(mapping) -> str:
    return ", ".join(f"{k} {v}" for k, v in sorted(mapping.items(), key=lambda kv: str(kv[0])))


def _entry(key: str, value) -> str:
    if isinstance(value, dict):
        return f"{key.replace('_', ' ')}: {_counts(value)}"
    if isinstance(value, float):
        value = f"{value:.3f}" + (" s" if key.endswith("_seconds") else "")
    return f"{key.replace('_seconds', '').replace('_', ' ')}: {value}"


def format_summary(stats: dict) -> str:
    """lazyarr.stats() as a few lines: flushes by cause, compiles and the compile cache,
    fallbacks by function, whatever else the counters hold, then `lazyarr.report()`'s
    table of the user's lines that caused the most work."""
    stats = dict(stats)
    lines_table = stats.pop("lines", None)
    flushes = stats.pop("flushes", {})
    total = stats.pop("flushes_total", sum(flushes.values()))
    fallbacks = stats.pop("fallbacks", {})
    compiles = f"compiles: {stats.pop('compiles', 0)}"
    if "compile_seconds" in stats:
        compiles += f" ({stats.pop('compile_seconds'):.3f} s)"
    cache = [f"{k.replace('_cache', '').replace('_', ' ')} {stats.pop(k)}"
             for k in list(stats) if "cache" in k]
    fallback_total = sum(v for v in fallbacks.values() if isinstance(v, int))
    lines = [f"lazyarr summary: {total} flushes" + (f" ({_counts(flushes)})" if flushes else ""),
             f"  {compiles}" + (f"; cache: {', '.join(cache)}" if cache else ""),
             f"  fallbacks: {fallback_total}" + (f" ({_counts(fallbacks)})" if fallbacks else "")]
    if stats:
        lines.append("  " + "; ".join(_entry(k, v) for k, v in stats.items()))
    if lines_table:
        lines.append(format_report({"lines": lines_table}))
    return "\n".join(lines)


def print_summary() -> None:
    sys.stdout.flush()
    print(format_summary(lazyarr.stats()), file=sys.stderr, flush=True)
