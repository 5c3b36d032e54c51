"""`python -m lazyarr`: unmodified NumPy programs give plain Python's output; `numpy` is
lazyarr in the program and the modules of its directory and the real NumPy everywhere
else; sys.argv, __main__, sys.path[0], exit codes, tracebacks, -c, -m, stdin, --help and
LAZYARR_SUMMARY behave as under plain `python`. Every test runs subprocesses, which pick
their backend through LAZYARR_BACKEND (numpy, except for one test on xla)."""

import os
import subprocess
import sys
import textwrap
from pathlib import Path

import numpy as np
import pytest

import lazyarr
from lazyarr import _runner

PROGRAMS = Path(__file__).parent / "programs"
# the lazyarr under test (a worktree's src and its backends), not whichever is installed
_ROOT = Path(lazyarr.__file__).resolve().parent.parent
SRC = os.pathsep.join([str(_ROOT), *map(str, sorted(_ROOT.parent.glob("backends/*/src")))])
PROGRAM_NAMES = ["black_scholes", "kmeans", "mandelbrot", "monte_carlo_pi", "nbody",
                 "regression", "heat_equation", "game_of_life", "random_walk",
                 "least_squares", "convolution",
                 # written as people use NumPy with its libraries (issue 11, part 9)
                 "pandas_sales", "matplotlib_figures", "scipy_optimize_fit",
                 "scipy_integrate_ode", "sklearn_pipeline", "word_counts", "datetime_log",
                 "strided_tricks", "inplace_algorithms", "student_records",
                 "image_histogram", "pca_iris_like", "polynomial_fit", "markov_chain",
                 "bootstrap_ci", "fft_spectrum", "prime_sieve", "sensor_masked",
                 "xarray_climate", "dask_blocks", "numba_kernels", "grid_helpers",
                 "binary_io", "scipy_stats_tests", "memory_views"]
# Programs that fail today, each with the lazyarr gap it hits (strict: a fix must
# remove its line).
KNOWN_FAILURES = {
    "binary_io": "memoryview(x) needs the buffer protocol, which a Python class offers only "
                 "from Python 3.12 (__buffer__)",
} if sys.version_info < (3, 12) else {}


pytestmark = pytest.mark.once  # subprocesses choose their own backend


def run(args, *, lazy=True, cwd=None, backend="numpy", env=None, input=None, timeout=120):
    """`python -m lazyarr ARGS` (or plain `python ARGS` when not lazy)."""
    environ = {k: v for k, v in os.environ.items()
               if not k.startswith("LAZYARR_") and k != "PYTHONPATH"}
    environ.update(LAZYARR_BACKEND=backend, LAZYARR_FALLBACK="allow", **(env or {}))
    environ["PYTHONPATH"] = os.pathsep.join(filter(None, [(env or {}).get("PYTHONPATH"), SRC]))
    command = [sys.executable, *(["-m", "lazyarr"] if lazy else []), *map(str, args)]
    return subprocess.run(command, cwd=cwd, env=environ, input=input, capture_output=True,
                          text=True, timeout=timeout)


def write(directory: Path, files: dict) -> Path:
    for name, text in files.items():
        path = directory / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(text))
    return directory


def assert_same_result(expected: Path, actual: Path, rtol: float = 1e-12):
    """Saved arrays: dtype and shape exactly, integers exactly; floats to 1e-12 of the
    array's scale (lazyarr's contractions may sum in another order than BLAS)."""
    a, b = np.load(expected), np.load(actual)
    assert (a.dtype, a.shape) == (b.dtype, b.shape)
    if a.dtype.kind in "biu":
        np.testing.assert_array_equal(b, a)
    else:
        np.testing.assert_allclose(b, a, rtol=rtol, atol=rtol * float(np.max(np.abs(a))))


# Programs whose saved values come from an iterative solver that stops within its own
# tolerance: on XLA, whose transcendental functions differ from NumPy's in the last ulp
# (docs/semantics.md), the solver may stop at another point within that tolerance. The
# printed output must still be identical.
XLA_SOLVER_TOLERANCE = {
    "scipy_optimize_fit": 1.5e-8,  # curve_fit's default xtol (its fit differs by 6e-10)
}


# ----- realistic programs -------------------------------------------------------------

@pytest.mark.parametrize("name", [
    pytest.param(name, marks=pytest.mark.xfail(reason=KNOWN_FAILURES[name], strict=True))
    if name in KNOWN_FAILURES else name for name in PROGRAM_NAMES])
def test_program_output_matches_plain_python(name, tmp_path):
    (tmp_path / "numpy").mkdir()
    (tmp_path / "lazyarr").mkdir()
    plain = run([PROGRAMS / f"{name}.py", tmp_path / "numpy"], lazy=False)
    lazy = run([PROGRAMS / f"{name}.py", tmp_path / "lazyarr"])
    assert plain.returncode == 0, plain.stderr
    assert lazy.returncode == 0, lazy.stderr
    assert lazy.stdout == plain.stdout
    assert plain.stdout.count("\n") >= 4
    assert_same_result(tmp_path / "numpy" / f"{name}.npy", tmp_path / "lazyarr" / f"{name}.npy")


@pytest.mark.skipif("xla" not in lazyarr._backend.available(), reason="no xla backend")
@pytest.mark.parametrize("name", [
    pytest.param(name, marks=pytest.mark.xfail(reason=KNOWN_FAILURES[name], strict=True))
    if name in KNOWN_FAILURES else name for name in PROGRAM_NAMES])
def test_programs_on_xla_match_plain_python(name, tmp_path):
    """Every program of the corpus gives plain Python's output on the XLA backend too
    (the test above runs them on the NumPy reference backend)."""
    (tmp_path / "numpy").mkdir()
    (tmp_path / "xla").mkdir()
    plain = run([PROGRAMS / f"{name}.py", tmp_path / "numpy"], lazy=False)
    lazy = run([PROGRAMS / f"{name}.py", tmp_path / "xla"], backend="xla", timeout=300)
    assert plain.returncode == 0, plain.stderr
    assert lazy.returncode == 0, lazy.stderr
    assert lazy.stdout == plain.stdout
    assert_same_result(tmp_path / "numpy" / f"{name}.npy", tmp_path / "xla" / f"{name}.npy",
                       rtol=XLA_SOLVER_TOLERANCE.get(name, 1e-12))


@pytest.mark.skipif("xla" not in lazyarr._backend.available(), reason="no xla backend")
def test_program_on_xla_matches_numpy_and_compiles(tmp_path):
    (tmp_path / "numpy").mkdir()
    (tmp_path / "xla").mkdir()
    plain = run([PROGRAMS / "black_scholes.py", tmp_path / "numpy"], lazy=False)
    lazy = run([PROGRAMS / "black_scholes.py", tmp_path / "xla"], backend="xla",
               env={"LAZYARR_SUMMARY": "1", "LAZYARR_CACHE_DIR": str(tmp_path / "cache"),
                    "LAZYARR_TIER": "compile"})  # every program compiled (see _tiers)
    assert lazy.returncode == 0, lazy.stderr
    # printed reductions may differ in their last digits (XLA sums in another order)
    assert lazy.stdout.splitlines()[0] == plain.stdout.splitlines()[0]
    assert_same_result(tmp_path / "numpy" / "black_scholes.npy",
                       tmp_path / "xla" / "black_scholes.npy")
    summary = lazy.stderr[lazy.stderr.index("lazyarr summary:"):]
    compiles = int(summary.split("compiles: ")[1].split()[0])
    assert compiles >= 1, summary


# ----- which modules get lazyarr ------------------------------------------------------

IMPORTS_SCRIPT = """\
    import sys, importlib
    import helper_before
    import numpy as np
    import numpy
    import numpy.linalg as la
    import numpy.typing as npt
    import numpy._core.multiarray
    import numpy.lib.stride_tricks as stride_tricks
    from numpy import linalg, fft, float64, ndarray, newaxis
    from numpy.random import default_rng
    from numpy.linalg import norm
    import lazyarr, thirdparty, vendored, pkg.sub
    import helper_after

    real = sys.modules["numpy"]
    lazy = type(lazyarr.zeros(1))
    print("real numpy in sys.modules:", type(real) is type(sys) and real is not np)
    print("main:", type(np.zeros(3)) is lazy, type(numpy.ones(2)) is lazy,
          isinstance(np.ones(2), ndarray), isinstance(real.ones(2), ndarray),
          isinstance(np.sum(np.ones(2)), ndarray))
    print("helpers:", helper_before.kind(), helper_after.kind(), pkg.sub.kind())
    print("third party:", thirdparty.convert(np.arange(4.0)), vendored.kind())
    print("same objects:", float64 is real.float64, newaxis is None,
          npt is real.typing, numpy._core.multiarray is real._core.multiarray,
          stride_tricks is real.lib.stride_tricks)
    print("submodules:", la is linalg is np.linalg, fft is np.fft, la.__name__,
          norm is np.linalg.norm, default_rng is np.random.default_rng)
    print("dynamic:", __import__("numpy") is np, importlib.import_module("numpy") is np,
          importlib.import_module("numpy.linalg") is la)
    ns = {}
    exec("from numpy import *", globals(), ns)
    print("star:", type(ns["arange"](3)) is lazy, ns["sum"] is np.sum, ns["linalg"] is la)
    try:
        from numpy import no_such_name
    except ImportError as exc:
        print("missing:", "no_such_name" in str(exc))
    """


def test_numpy_is_lazyarr_in_user_modules_and_real_elsewhere(tmp_path):
    helper = """\
        import numpy as np
        def kind():
            return type(np.zeros(1)).__module__.split(".")[0]
        """
    script_dir = write(tmp_path / "app", {
        "main.py": IMPORTS_SCRIPT, "helper_before.py": helper, "helper_after.py": helper,
        "pkg/__init__.py": "", "pkg/sub.py": helper,
        # an environment inside the program's directory is not the user's code
        ".venv/lib/site-packages/vendored.py": helper})
    site = write(tmp_path / "site", {"thirdparty/__init__.py": """\
        import numpy as np
        def convert(x):
            arr = np.asarray(x)
            return f"{type(np).__name__} {type(arr).__name__} {arr.sum()}"
        """})
    pythonpath = os.pathsep.join([str(site), str(script_dir / ".venv/lib/site-packages")])
    result = run([script_dir / "main.py"], env={"PYTHONPATH": pythonpath})
    assert result.returncode == 0, result.stderr
    assert result.stdout == textwrap.dedent("""\
        real numpy in sys.modules: True
        main: True True True True False
        helpers: lazyarr lazyarr lazyarr
        third party: module ndarray 6.0 numpy
        same objects: True True True True True
        submodules: True True numpy.linalg True True
        dynamic: True True True
        star: True True True
        missing: True
        """)


def test_scipy_receives_arrays_it_can_use(tmp_path):
    pytest.importorskip("scipy")
    script = write(tmp_path, {"uses_scipy.py": """\
        import numpy as np
        from scipy import integrate, linalg, special
        x = np.linspace(0.0, np.pi, 101)
        print(round(float(integrate.trapezoid(np.sin(x) ** 2, x)), 10))
        print(linalg.det(np.eye(3) * 2.0), special.gamma(np.arange(1.0, 5.0)) * 2)
        """}) / "uses_scipy.py"
    plain, lazy = run([script], lazy=False), run([script])
    assert plain.returncode == lazy.returncode == 0, lazy.stderr
    assert lazy.stdout == plain.stdout == "1.5707963268\n8.0 [ 2.  2.  4. 12.]\n"


def test_submodule_facade_falls_back_to_numpy_for_what_lazyarr_lacks(monkeypatch):
    """A numpy.linalg/fft/random name gives lazyarr's function where lazyarr has one,
    else NumPy's own; names NumPy does not have are not exposed."""
    import types
    import lazyarr
    partial = types.ModuleType("lazyarr.linalg")
    partial.norm, partial.not_numpy = abs, min
    monkeypatch.setattr(lazyarr, "linalg", partial)
    linalg = _runner.NumpyFacade(np.linalg, _runner._submodule_lookup("linalg"))
    assert linalg.norm is abs and linalg.cond is np.linalg.cond
    assert linalg.__name__ == "numpy.linalg"
    with pytest.raises(AttributeError):
        linalg.not_numpy
    with pytest.raises(AttributeError):
        linalg.no_such_function


def test_top_facade_gives_lazyarr_for_numpy_names_only():
    top = _runner.facade("numpy")
    assert top.sum is lazyarr.sum and top.ndarray is lazyarr.ndarray
    assert top.float64 is np.float64 and top.busday_count is np.busday_count and top.pi == np.pi
    assert top.__version__ == np.__version__ and top.linalg.__name__ == "numpy.linalg"
    for name in ("stats", "eval", "creation", "Array", "bfloat16"):  # lazyarr's own extras
        with pytest.raises(AttributeError):
            getattr(top, name)


# ----- plain python's behaviour -------------------------------------------------------

MAIN_REPORT = """\
    import os, pickle, sys
    def f():
        pass
    print("argv", sys.argv)
    print("name", __name__, "path0", sys.path[0])
    print("file", globals().get("__file__"), "package", __package__,
          "spec", getattr(__spec__, "name", None))
    print("cached", globals().get("__cached__", "-"), "loader", type(__loader__).__name__)
    print("main", sys.modules["__main__"].__dict__ is globals(), pickle.loads(pickle.dumps(f)) is f)
    print("doc", __doc__, "builtins", __builtins__ is __import__("builtins"))
    print("globals", sorted(globals()))
    """


def test_script_sees_argv_main_and_path_as_under_python(tmp_path):
    script = write(tmp_path / "dir", {"report.py": MAIN_REPORT}) / "report.py"
    args = ["dir/report.py", "-x", "--flag", "value", ""]
    plain = run(args, lazy=False, cwd=tmp_path)
    lazy = run(args, cwd=tmp_path)
    assert plain.returncode == lazy.returncode == 0, lazy.stderr
    assert lazy.stdout == plain.stdout
    assert f"path0 {script.parent}" in lazy.stdout


def test_command_string_and_stdin(tmp_path):
    write(tmp_path, {"local.py": "import numpy as np\nkind = type(np.ones(1)).__module__\n"})
    code = textwrap.dedent(MAIN_REPORT).replace("def f():\n    pass\n", "f = print\n")
    for args, stdin in ((["-c", code, "a", "-b"], None), (["-", "a"], code)):
        plain = run(args, lazy=False, cwd=tmp_path, input=stdin)
        lazy = run(args, cwd=tmp_path, input=stdin)
        assert plain.returncode == lazy.returncode == 0, lazy.stderr
        assert lazy.stdout == plain.stdout
    lazy = run(["-c", "import local, numpy as np; print(local.kind, type(np.ones(1)).__module__)"],
               cwd=tmp_path)
    assert lazy.stdout == "lazyarr._array lazyarr._array\n", lazy.stderr


def test_module_and_directory_forms(tmp_path):
    write(tmp_path, {"app/__init__.py": "import numpy as np\n",
                     "app/__main__.py": textwrap.dedent(MAIN_REPORT) + textwrap.dedent("""\
                         import numpy as np
                         from . import util
                         print(util.kind(), type(np.zeros(1)).__module__)
                         """),
                     "app/util.py": "import numpy as np\n"
                                    "def kind():\n    return type(np.zeros(1)).__module__\n"})
    plain = run(["-m", "app", "x", "-y"], lazy=False, cwd=tmp_path)
    lazy = run(["-m", "app", "x", "-y"], cwd=tmp_path)
    assert plain.returncode == lazy.returncode == 0, lazy.stderr
    plain_lines, lazy_lines = plain.stdout.splitlines(), lazy.stdout.splitlines()
    assert lazy_lines[:-1] == plain_lines[:-1]
    assert (plain_lines[-1], lazy_lines[-1]) == ("numpy numpy", "lazyarr._array lazyarr._array")
    missing = run(["-m", "no_such_module_here"], cwd=tmp_path)
    assert missing.returncode == 1 and "No module named no_such_module_here" in missing.stderr
    # a directory with __main__.py runs as under `python DIR`
    write(tmp_path, {"bundle/__main__.py": "import numpy as np, util\n"
                                           "print(util.kind(), type(np.ones(1)).__module__)\n"
                                           + textwrap.dedent(MAIN_REPORT),
                     "bundle/util.py": (tmp_path / "app/util.py").read_text()})
    plain = run(["bundle", "z"], lazy=False, cwd=tmp_path)
    lazy = run(["bundle", "z"], cwd=tmp_path)
    assert plain.returncode == lazy.returncode == 0, lazy.stderr
    plain_lines, lazy_lines = plain.stdout.splitlines(), lazy.stdout.splitlines()
    assert lazy_lines[1:] == plain_lines[1:]
    assert (plain_lines[0], lazy_lines[0]) == ("numpy numpy", "lazyarr._array lazyarr._array")


def test_zip_archive_form(tmp_path):
    """A zip with __main__.py runs as under `python app.zip`; a script that is not a
    zip (even one named .zip) runs as a script."""
    import zipfile
    with zipfile.ZipFile(tmp_path / "app.zip", "w") as archive:
        archive.writestr("__main__.py", "import sys, numpy as np, util\n"
                                        "print(util.kind(), type(np.ones(1)).__module__)\n"
                                        "print(sys.argv, sys.path[0].endswith('app.zip'))\n")
        archive.writestr("util.py", "import numpy as np\n"
                                    "def kind():\n    return type(np.zeros(1)).__module__\n")
    plain = run(["app.zip", "z"], lazy=False, cwd=tmp_path)
    lazy = run(["app.zip", "z"], cwd=tmp_path)
    assert plain.returncode == lazy.returncode == 0, lazy.stderr
    assert plain.stdout.splitlines()[1:] == lazy.stdout.splitlines()[1:]
    assert lazy.stdout.splitlines()[0] == "lazyarr._array lazyarr._array"
    (tmp_path / "script.zip").write_text("import numpy as np\nprint(type(np.ones(1)).__module__)\n")
    lazy = run(["script.zip"], cwd=tmp_path)
    assert (lazy.returncode, lazy.stdout) == (0, "lazyarr._array\n"), lazy.stderr


@pytest.mark.parametrize("body, code", [
    ("import sys\nsys.exit(3)\n", 3),
    ("import sys\nsys.exit('failed: reason')\n", 1),
    ("import sys\nsys.exit()\n", 0),
    ("raise SystemExit(0)\n", 0),
    ("import numpy as np\nx = np.arange(3.0)\nprint(float(x.sum()))\n", 0),
])
def test_exit_codes(tmp_path, body, code):
    script = write(tmp_path, {"exits.py": body}) / "exits.py"
    plain, lazy = run([script], lazy=False), run([script])
    assert plain.returncode == lazy.returncode == code
    assert (lazy.stdout, lazy.stderr) == (plain.stdout, plain.stderr)


def test_uncaught_exception_traceback_shows_only_user_frames(tmp_path):
    write(tmp_path, {
        "crash.py": """\
            import numpy as np
            import helper

            def scale(x):
                return helper.check(x * 2.0)

            print("before")
            scale(np.arange(3.0))
            """,
        "helper.py": """\
            import numpy as np

            def check(x):
                if np.any(x > 1.0):
                    raise ValueError(f"too large: {float(np.max(x))}")
                return x
            """,
        "import_crash.py": "import numpy\nimport broken_helper\n",
        "broken_helper.py": "import numpy.no_such_submodule\n",
        "syntax.py": "x = (1,\n",
    })
    for name in ("crash.py", "import_crash.py", "syntax.py"):
        plain, lazy = run([name], lazy=False, cwd=tmp_path), run([name], cwd=tmp_path)
        assert plain.returncode == lazy.returncode == 1
        assert (lazy.stdout, lazy.stderr) == (plain.stdout, plain.stderr)
        assert "_runner" not in lazy.stderr and "runpy" not in lazy.stderr
        if name == "crash.py":
            assert lazy.stdout == "before\n"
            assert 'crash.py", line 8, in <module>' in lazy.stderr
            assert 'helper.py", line 5, in check' in lazy.stderr
    chained = run(["-c", "try:\n import numpy.nope\nexcept ImportError as e:\n"
                   " raise KeyError('k') from e"])
    assert chained.returncode == 1 and "_runner" not in chained.stderr
    assert "direct cause" in chained.stderr and chained.stderr.count("File \"<string>\"") == 2


def test_command_line_errors_and_help(tmp_path):
    assert run(["no_such_script.py"], cwd=tmp_path).returncode == 2
    unknown = run(["--no-such-option"])
    assert unknown.returncode == 2 and "unknown option --no-such-option" in unknown.stderr
    assert run(["-c"]).returncode == 2
    for flag in ("-h", "--help"):
        shown = run([flag])
        assert shown.returncode == 0 and shown.stdout.startswith("usage: python -m lazyarr")
        assert "-c cmd" in shown.stdout and "LAZYARR_SUMMARY" in shown.stdout
    assert run(["--version"]).stdout == f"lazyarr {lazyarr.__version__}\n"
    chosen = run(["--backend", "numpy", "-cimport os; print(os.environ['LAZYARR_BACKEND'])"],
                 backend="xla")
    assert chosen.stdout == "numpy\n", chosen.stderr
    # options after the script belong to the script
    script = write(tmp_path, {"a.py": "import sys; print(sys.argv[1:])"}) / "a.py"
    assert run([script, "--help", "-c", "x"]).stdout == "['--help', '-c', 'x']\n"


def test_summary_reports_flushes_compiles_and_fallbacks(tmp_path):
    script = write(tmp_path, {"work.py": """\
        import numpy as np
        x = np.linspace(0.0, 1.0, 11)
        total = 0.0
        for i in range(3):
            if np.sum(x * i) > 1.0:      # control-flow flushes
                total += float(np.max(x))
        print(total, np.median(x))       # median: a counted fallback
        """}) / "work.py"
    lazy = {"LAZYARR_EAGER": "0"}  # flushes to report, not operations computed at once
    quiet = run([script], env=lazy)
    assert quiet.returncode == 0 and "lazyarr summary" not in quiet.stderr
    for env, args in (({"LAZYARR_SUMMARY": "1"}, [script]), ({}, ["--summary", script])):
        result = run(args, env={**env, **lazy})
        assert result.returncode == 0, result.stderr
        assert result.stdout == quiet.stdout == "2.0 0.5\n"
        summary = result.stderr[result.stderr.index("lazyarr summary:"):].splitlines()
        flushes = int(summary[0].split()[2])
        assert flushes >= 3 and "control" in summary[0]
        assert summary[1].lstrip().startswith("compiles: 0")  # the numpy backend compiles nothing
        expected = "fallbacks: 0" if hasattr(lazyarr, "median") else "fallbacks: 1 (median 1)"
        assert summary[2].strip() == expected


def test_format_summary():
    text = _runner.format_summary({
        "flushes": {"read": 2, "control": 3}, "flushes_total": 5, "nodes_evaluated": 40,
        "run_seconds": 0.5, "fallbacks": {"sort": 2}, "compiles": 4, "compile_seconds": 1.25,
        "memory_cache_hits": 6, "memory_cache_misses": 4})
    assert text.splitlines() == [
        "lazyarr summary: 5 flushes (control 3, read 2)",
        "  compiles: 4 (1.250 s); cache: memory hits 6, memory misses 4",
        "  fallbacks: 2 (sort 2)",
        "  nodes evaluated: 40; run: 0.500 s"]
