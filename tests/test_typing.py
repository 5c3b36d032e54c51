"""Types (issue 11): lazyarr ships `py.typed` and stubs of its namespaces, generated
by tools/stubs.py from the namespaces themselves. The stubs in the tree must be what
the script writes now, and mypy must accept user code written against them and find
the errors in code that is wrong."""

import importlib.util
import os
import pathlib
import subprocess
import sys
import textwrap

import pytest

from conftest import BACKENDS

ROOT = pathlib.Path(__file__).resolve().parent.parent
SRC = ROOT / "src"


@pytest.fixture(autouse=True)
def _once(backend):
    """Types do not depend on the backend: run each test once."""
    if backend != BACKENDS[0]:
        pytest.skip("typing tests run once, whatever the harness backend")


def _generator():
    spec = importlib.util.spec_from_file_location("lazyarr_stubs", ROOT / "tools" / "stubs.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_stubs_are_current():
    """Regenerating the stubs gives the checked-in text (else: tools/stubs.py --write)."""
    for path, text in _generator().stubs().items():
        assert path.exists(), f"{path} is missing: run python tools/stubs.py --write"
        assert path.read_text() == text, f"{path} is stale: run python tools/stubs.py --write"


def test_py_typed_ships_with_the_stubs():
    assert (SRC / "lazyarr" / "py.typed").exists()
    pyproject = (ROOT / "pyproject.toml").read_text()
    assert '"py.typed"' in pyproject and '"*.pyi"' in pyproject


def _mypy(tmp_path, code: str):
    script = tmp_path / "user.py"
    script.write_text(textwrap.dedent(code))
    env = {k: v for k, v in os.environ.items() if k not in ("MYPYPATH", "PYTHONPATH")}
    env["MYPYPATH"] = str(SRC)  # lazyarr as a checker finds it: the stubs win over the source
    result = subprocess.run(
        [sys.executable, "-m", "mypy", "--cache-dir", str(tmp_path / "cache"),
         "--no-error-summary", "--hide-error-context", "--no-pretty", str(script)],
        capture_output=True, text=True, env=env, cwd=tmp_path, timeout=300)
    errors = [line.split(": error: ", 1)[1] for line in result.stdout.splitlines()
              if ": error: " in line]
    return result.returncode, errors, result.stdout + result.stderr


USER_CODE = """
    import numpy
    import lazyarr
    import lazyarr as np

    a = np.zeros(3)
    b: np.ndarray = a + 1.0
    c: np.ndarray = numpy.zeros(3)  # NumPy's own arrays are np.ndarray too
    m = np.eye(3) * 2.0
    x = np.linalg.solve(m, np.ones(3))
    q, r = np.linalg.qr(m)
    total: float = float(x.sum())
    n: int = a.ndim
    shape: tuple[int, ...] = a.shape
    a.shape = (3, 1)
    v = np.exp(a).reshape(-1)[1:]
    frac, whole = np.modf(v)
    spectrum = np.fft.rfft(v)
    g = np.random.default_rng(0).normal(size=3)
    h = np.random.rand(3)
    windows = np.lib.stride_tricks.sliding_window_view(v, 2)
    np.testing.assert_allclose(x, np.ones(3) / 2.0)
    print(np.pi, np.float64(1.0), np.sum([1, 2]), isinstance(b, np.ndarray), np.add.reduce(v))
    d: numpy.dtype = a.dtype
    with np.errstate(all="ignore"):
        z = np.where(a > 0, a, -a)
    k = np.r_[1:3, 5]
    y = np.concatenate([a, a]).T @ a
    if a.any():
        a.sort()
    for row in m:
        row.max()
    values: list = a.tolist()
    err: type[Exception] = np.linalg.LinAlgError
    lazyarr.set_backend("numpy")
"""


def test_mypy_accepts_user_code(tmp_path):
    code, errors, output = _mypy(tmp_path, USER_CODE)
    assert (code, errors) == (0, []), output


def test_mypy_finds_the_errors_in_wrong_code(tmp_path):
    code, errors, output = _mypy(tmp_path, """
        import lazyarr as np
        a = np.zeros(3)
        n: int = np.sum(a)
        np.linalg.solve(a)
        np.not_a_function(3)
        a.not_a_method()
        np.zeros(3, dtyp=float)
        s: str = a.shape
        r: int = np.fft.fft(a)
    """)
    assert code == 1, output
    assert errors == [
        'Incompatible types in assignment (expression has type "Array", variable has type '
        '"int")  [assignment]',
        'Missing positional argument "b" in call to "solve"  [call-arg]',
        'Module has no attribute "not_a_function"  [attr-defined]',
        '"Array" has no attribute "not_a_method"  [attr-defined]',
        'Unexpected keyword argument "dtyp" for "zeros"; did you mean "dtype"?  [call-arg]',
        'Incompatible types in assignment (expression has type "tuple[int, ...]", variable '
        'has type "str")  [assignment]',
        'Incompatible types in assignment (expression has type "Array", variable has type '
        '"int")  [assignment]',
    ], output
