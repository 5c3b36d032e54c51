"""Start-up: what `import lazyarr`, a first flush and `python -m lazyarr` leave unimported
(each was milliseconds of every process: -X importtime in the commits that deferred
them), and that what is deferred is still there when asked for; the allocator's policy
`import lazyarr` sets. Module sets and page-fault counts only; no timings."""

import os
import platform
import subprocess
import sys

import pytest

import lazyarr
from lazyarr import _deferred

# Never at `import lazyarr`: its own rarely used submodules, and standard-library or
# NumPy modules that only some paths need.
NOT_AT_IMPORT = ("lazyarr.array_api", "lazyarr.distributed", "lazyarr.random",
                 "lazyarr.testing", "lazyarr.fft", "lazyarr.linalg", "lazyarr._api.fft",
                 "lazyarr._api.linalg",
                 *(f"lazyarr._api.{chapter}" for chapter in _deferred.CHAPTERS), "logging", "importlib.metadata", "zipfile", "string",
                 "concurrent.futures", "numpy.random", "numpy.testing", "ml_dtypes", "jax",
                 "signal")
# Nor at the first flush on the NumPy interpreter (the backend's entry point is read
# without importlib.metadata; NumPy's global RandomState is kept only once it exists;
# the Ctrl-C deferral installs its handler through _signal, without signal.py's enums).
NOT_AT_FIRST_FLUSH = ("importlib.metadata", "numpy.random", "logging", "jax", "signal")


@pytest.fixture(autouse=True)
def backend():
    """Fresh processes only: once."""
    yield None


def _imported(code: str, names, *args, env=None) -> list[str]:
    check = f"import sys; print([m for m in {tuple(names)!r} if m in sys.modules])"
    done = subprocess.run([sys.executable, *args, "-c", code + "\n" + check],
                          capture_output=True, text=True, timeout=120, env=env)
    assert done.returncode == 0, done.stderr
    return eval(done.stdout.strip().splitlines()[-1])


def test_import_lazyarr_defers_what_few_scripts_use():
    assert _imported("import lazyarr", NOT_AT_IMPORT) == []


def test_a_first_flush_on_the_interpreter_imports_no_more():
    env = dict(os.environ, LAZYARR_TIER="interpret", LAZYARR_BACKEND="numpy")
    code = ("import numpy, lazyarr\n"
            "x = lazyarr.asarray(numpy.arange(100_000.0))\n"
            "assert float((lazyarr.cos(x) * 2 + x).sum()) == "
            "float((numpy.cos(numpy.arange(100_000.0)) * 2 + numpy.arange(100_000.0)).sum())\n"
            "assert lazyarr.stats()['flushes_total'] >= 1")
    assert _imported(code, NOT_AT_FIRST_FLUSH, env=env) == []


def test_python_m_lazyarr_imports_no_zipfile():
    assert _imported("import numpy", ("zipfile",), "-m", "lazyarr") == []


def test_the_deferred_submodules_are_there_when_asked_for():
    assert "array_api" in dir(lazyarr) and "distributed" in dir(lazyarr)
    from lazyarr import array_api, distributed
    assert lazyarr.array_api is array_api and lazyarr.distributed is distributed
    assert lazyarr.arange(3.0).__array_namespace__() is array_api
    assert lazyarr.arange(3.0).__array_namespace__(api_version="2023.12") is array_api
    with pytest.raises(ValueError, match="unsupported Array API version"):
        lazyarr.arange(3.0).__array_namespace__(api_version="1999.01")


def test_the_array_namespace_is_found_before_array_api_is_imported():
    code = ("import sys, lazyarr\n"
            "assert 'lazyarr.array_api' not in sys.modules\n"
            "xp = lazyarr.ones(2).__array_namespace__()\n"
            "assert xp is sys.modules['lazyarr.array_api']\n"
            "assert type(xp.ones(2)).__name__ == 'StandardArray'")
    assert _imported(code, ()) == []


def test_logging_is_set_up_at_the_first_record():
    code = ("import sys, lazyarr, numpy\n"
            "assert 'logging' not in sys.modules\n"
            "lazyarr.set_log('flush')\n"
            "float(lazyarr.asarray(numpy.arange(100_000.0)).sum())")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=120)
    assert done.returncode == 0, done.stderr
    assert "lazyarr: flush" in done.stderr


def test_the_deferred_table_is_what_the_chapters_register():
    code = ("import lazyarr, importlib\n"
            "from lazyarr import _deferred\n"
            "from lazyarr._api import NAMESPACES\n"
            "core = set(NAMESPACES[''])\n"
            "for chapter, names in _deferred.CHAPTERS.items():\n"
            "    before = set(NAMESPACES[''])\n"
            "    importlib.import_module('lazyarr._api.' + chapter)\n"
            "    assert set(names) <= set(NAMESPACES['']) - before, chapter\n"
            "assert set(NAMESPACES['']) - core == set(_deferred.OWNER)\n"
            "assert not core & set(_deferred.OWNER)")
    assert _imported(code, ()) == []


_DESCRIBE = ("import lazyarr, types\n"
             "def describe(v):\n"
             "    return (type(v).__name__, getattr(v, '__module__', None),\n"
             "            getattr(v, '__qualname__', getattr(v, '__name__', None)),\n"
             "            (getattr(v, '__doc__', None) or '')[:200])\n")


def _namespace(first: str) -> dict:
    code = (_DESCRIBE + first + "\n"
            "print(repr({n: describe(getattr(lazyarr, n)) for n in dir(lazyarr)}))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=120)
    assert done.returncode == 0, done.stderr
    return eval(done.stdout.strip().splitlines()[-1])


def test_the_namespace_is_the_same_whether_the_chapters_load_first_or_on_use():
    on_use = _namespace("")
    first = _namespace("from lazyarr import _deferred; _deferred.load_all()")
    assert on_use == first
    assert set(_deferred.OWNER) | {"fft", "linalg"} <= set(on_use)


def test_a_deferred_name_is_one_object_documented_and_dispatched():
    code = ("import sys, numpy, lazyarr\n"
            "assert 'lazyarr._api.sets' not in sys.modules\n"
            "u = numpy.unique(lazyarr.asarray([3, 1, 3]))\n"  # NEP 18 finds it unloaded
            "assert isinstance(u, lazyarr.ndarray) and u.tolist() == [1, 3]\n"
            "assert lazyarr.unique is lazyarr.unique is vars(lazyarr)['unique']\n"
            "assert lazyarr.unique.__doc__.startswith(numpy.unique.__doc__)\n"
            "assert isinstance(numpy.fft.fft(lazyarr.ones(4)), lazyarr.ndarray)\n"
            "assert lazyarr.linalg.LinAlgError is numpy.linalg.LinAlgError\n"
            "assert lazyarr.linalg.norm.__doc__.startswith(numpy.linalg.norm.__doc__)\n"
            "assert lazyarr.fft.test is numpy.fft.test\n"
            "from lazyarr.linalg import solve\n"
            "from lazyarr import histogram\n"
            "assert histogram is lazyarr.histogram and solve is lazyarr.linalg.solve")
    assert _imported(code, ()) == []


def test_star_import_gives_the_deferred_names():
    code = ("from lazyarr import *\n"
            "assert unique(asarray([2, 2])).tolist() == [2] and callable(loadtxt)\n"
            "assert linalg.norm(ones(4)) == 2.0 and fft.fft(ones(2)).shape == (2,)")
    assert _imported(code, ()) == []


# A NumPy stencil loop (benchmarks' diffusion, smaller): temporaries of 8 MB allocated
# and freed every step. Prints whether lazyarr set the allocator's policy, and the page
# faults of the loop's second call.
_STENCIL_FAULTS = """
import resource
import numpy
import lazyarr

def steps(u):
    for _ in range(10):
        u[1:-1, 1:-1] = u[1:-1, 1:-1] + 0.1 * (u[2:, 1:-1] + u[:-2, 1:-1] + u[1:-1, 2:]
                                               + u[1:-1, :-2] - 4 * u[1:-1, 1:-1])

u = numpy.random.default_rng(0).random((1000, 1000))
steps(u)
before = resource.getrusage(resource.RUSAGE_SELF).ru_minflt
steps(u)
print(lazyarr._allocator.TUNED, resource.getrusage(resource.RUSAGE_SELF).ru_minflt - before)
"""


def _stencil_faults(**variables) -> tuple[bool, int]:
    env = {k: v for k, v in os.environ.items()
           if k != "LAZYARR_MALLOC" and not k.startswith("MALLOC_")}
    done = subprocess.run([sys.executable, "-c", _STENCIL_FAULTS], capture_output=True,
                          text=True, timeout=120, env={**env, **variables})
    assert done.returncode == 0, done.stderr
    tuned, faults = done.stdout.split()
    return tuned == "True", int(faults)


@pytest.mark.skipif(not (sys.platform.startswith("linux")
                         and platform.libc_ver()[0] == "glibc"),
                    reason="lazyarr sets an allocator policy only with glibc on Linux "
                           "(glibc's mallopt); elsewhere there is none to check")
def test_a_loop_of_large_temporaries_reuses_their_memory():
    """With lazyarr imported, the temporaries of a NumPy loop come back from the heap:
    its second call faults (almost) no page in, where glibc's own policy faulted in
    8,080-13,190 on the 2-core machine (a temporary is 1,950 pages). LAZYARR_MALLOC=
    system leaves glibc's policy alone."""
    tuned, faults = _stencil_faults()
    assert tuned and faults < 500
    tuned, _ = _stencil_faults(LAZYARR_MALLOC="system")
    assert not tuned
