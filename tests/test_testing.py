"""lazyarr.testing against numpy.testing: the assertions pass and fail, with the same
messages, exactly when NumPy's do on the same values; everything else is NumPy's own;
`numpy.testing` in a program run by `python -m lazyarr` is lazyarr.testing."""

import operator
import os
import subprocess
import sys
import textwrap
import warnings

import numpy as np
import numpy.testing
import pytest
from hypothesis import given, strategies as st
from hypothesis.extra import numpy as hnp

import lazyarr as la
import lazyarr.testing
from lazyarr import _runner

from strategies import arrays, elements
from test_io import pending

COMPARING = ["assert_allclose", "assert_almost_equal", "assert_approx_equal",
             "assert_array_almost_equal", "assert_array_almost_equal_nulp",
             "assert_array_compare", "assert_array_equal", "assert_array_less",
             "assert_array_max_ulp", "assert_equal", "build_err_msg", "print_assert_equal"]

# Each comparing assertion on (actual, desired), with some of its options.
CALLS = {
    "assert_allclose": lambda t, x, y: t.assert_allclose(x, y, rtol=1e-3, err_msg="m"),
    "assert_allclose_strict": lambda t, x, y: t.assert_allclose(x, y, atol=1, strict=True),
    "assert_almost_equal": lambda t, x, y: t.assert_almost_equal(x, y, decimal=2),
    "assert_approx_equal": lambda t, x, y: t.assert_approx_equal(x, y, significant=3),
    "assert_array_almost_equal": lambda t, x, y: t.assert_array_almost_equal(x, y),
    "assert_array_almost_equal_nulp":
        lambda t, x, y: t.assert_array_almost_equal_nulp(x, y, nulp=2),
    "assert_array_compare":
        lambda t, x, y: t.assert_array_compare(operator.__le__, x, y, header="le"),
    "assert_array_equal": lambda t, x, y: t.assert_array_equal(x, y),
    "assert_array_equal_strict": lambda t, x, y: t.assert_array_equal(x, y, strict=True),
    "assert_array_less": lambda t, x, y: t.assert_array_less(x, y, verbose=False),
    "assert_array_max_ulp": lambda t, x, y: t.assert_array_max_ulp(x, y, maxulp=4),
    "assert_equal": lambda t, x, y: t.assert_equal(x, y),
    "assert_equal_nested": lambda t, x, y: t.assert_equal({"k": [x, 1], "t": (y,)},
                                                           {"k": [y, 1], "t": (x,)}),
    "print_assert_equal": lambda t, x, y: t.print_assert_equal("values", [x], [y]),
}


def outcome(call, *args):
    """None if `call` passes; else the type and message of what it raised."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            call(*args)
        except Exception as exc:  # noqa: BLE001  (compared with NumPy's)
            return type(exc), str(exc)
    return None


def nudged(x: np.ndarray) -> np.ndarray:
    """`x` with every other element moved by about 1e-7 of itself (and 1e-7)."""
    with np.errstate(all="ignore"):
        step = np.where(np.arange(x.size).reshape(x.shape) % 2 == 0, 0.0, 1e-7)
        return (x + x * step + step).astype(x.dtype)


def others(a: np.ndarray):
    """Arrays to compare `a` with: a copy, a nudged copy (floats), any array of its
    dtype and shape, and any array at all."""
    close = st.just(nudged(a) if a.dtype.kind in "fc" else a.copy())
    return st.one_of(st.just(a.copy()), close,
                     hnp.arrays(a.dtype, a.shape, elements=elements(a.dtype)), arrays())


@pytest.mark.parametrize("name", CALLS)
@given(data=st.data(), a=arrays(max_side=3))
def test_assertions_fail_exactly_when_numpys_do(name, data, a):
    b = data.draw(others(a))
    call = CALLS[name]
    expected = outcome(call, numpy.testing, a, b)
    assert outcome(call, lazyarr.testing, pending(a), pending(b)) == expected
    assert outcome(call, lazyarr.testing, pending(a), b) == expected
    if a.size and b.size:  # scalar handles are the NumPy scalars they stand for
        i, j = (0,) * a.ndim, (-1,) * b.ndim
        expected = outcome(call, numpy.testing, a[i], b[j])
        assert outcome(call, lazyarr.testing, pending(a)[i], pending(b)[j]) == expected


@given(a=arrays(max_side=3), b=arrays(max_side=3))
def test_build_err_msg_is_numpys(a, b):
    for kwargs in ({}, {"precision": 2, "names": ("x", "y")}, {"verbose": False}):
        assert (lazyarr.testing.build_err_msg([pending(a), pending(b)], "msg", **kwargs)
                == numpy.testing.build_err_msg([a, b], "msg", **kwargs))


@pytest.mark.usefixtures("lazy_graph")  # counts flushes of small arrays
def test_assertions_compute_their_arguments_in_one_flush():
    x = la.arange(5.0)
    with la.count_flushes() as flushes:
        la.testing.assert_allclose(x * 2, x + x, err_msg="no")
    assert flushes.count == 1
    with la.count_flushes() as flushes:
        la.testing.assert_equal({"a": [la.sin(x), 2]}, {"a": [np.sin(np.arange(5.0)), 2]})
    assert flushes.count == 1


def test_bad_arguments_are_numpys_errors():
    x = la.arange(3.0)
    with pytest.raises(TypeError):
        la.testing.assert_allclose(x, x, rtol_typo=1)
    with pytest.raises(TypeError):
        la.testing.assert_array_equal(x)
    with pytest.raises(TypeError):
        la.testing.assert_array_max_ulp(x, x, 1, np.float64, "extra")


def test_every_numpy_testing_name_is_there():
    names = set(numpy.testing.__all__) | {"overrides"}
    assert set(lazyarr.testing.__all__) == set(numpy.testing.__all__)
    for name in names:
        ours, theirs = getattr(lazyarr.testing, name), getattr(numpy.testing, name)
        if name in COMPARING:
            assert ours is not theirs and ours.__wrapped__ is theirs, name
            assert ours.__name__ == name and ours.__module__ == "lazyarr.testing"
        else:
            assert ours is theirs, name
    assert la.testing is lazyarr.testing


def test_numpys_other_helpers_work_on_lazyarr_arrays():
    x = la.arange(4)
    la.testing.assert_raises(ValueError, la.reshape, x, (3, 3))
    with la.testing.assert_raises_regex(TypeError, "0-d"):
        iter(la.sum(x))
    la.testing.assert_(la.all(x < 4))
    la.testing.assert_string_equal(str(x), "[0 1 2 3]")


# ----- `numpy.testing` under `python -m lazyarr` ----------------------------------------

def test_facade_of_numpy_testing_is_lazyarr_testing():
    facade = _runner.facade("numpy.testing")
    assert facade.__name__ == "numpy.testing" and _runner.facade("numpy").testing is facade
    assert facade.assert_allclose is lazyarr.testing.assert_allclose
    assert facade.assert_raises is numpy.testing.assert_raises
    assert facade.overrides is numpy.testing.overrides


SCRIPT = """\
    import numpy as np
    import numpy.testing
    import numpy.testing as npt
    from numpy.testing import assert_allclose, assert_array_equal
    from numpy.testing import *
    x = np.linspace(0.0, 1.0, 5)
    print(type(x).__module__, npt is np.testing is numpy.testing, npt.__name__)
    print(assert_allclose is npt.assert_allclose, assert_allclose.__module__,
          assert_equal.__module__, assert_raises is npt.assert_raises)
    assert_allclose(x * 2, [0.0, 0.5, 1.0, 1.5, 2.0])
    assert_array_equal(np.sum(x), 2.5)
    try:
        npt.assert_array_less(x, x)
    except AssertionError as exc:
        print(str(exc).splitlines()[1])
    """


def test_numpy_testing_in_a_program_is_lazyarr_testing(tmp_path, backend):
    (tmp_path / "uses_testing.py").write_text(textwrap.dedent(SCRIPT))
    env = {k: v for k, v in os.environ.items() if not k.startswith("LAZYARR_")}
    done = subprocess.run([sys.executable, "-m", "lazyarr", "uses_testing.py"], cwd=tmp_path,
                          env={**env, "LAZYARR_BACKEND": backend, "LAZYARR_FALLBACK": "raise"},
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout == textwrap.dedent("""\
        lazyarr._array True numpy.testing
        True lazyarr.testing lazyarr.testing True
        Arrays are not strictly ordered `x < y`
        """)
