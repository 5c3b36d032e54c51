"""Dtype, scalar and memory-order helpers against NumPy: promote_types, issubdtype,
isscalar, iterable, typename, base_repr, binary_repr, min_scalar_type, common_type,
mintypecode, isfortran, asfortranarray, require and asarray_chkfinite, on every dtype,
0-d and size-0 arrays, views of every layout, and bad input."""

import functools
import itertools

import ml_dtypes
import numpy as np
import pytest
from hypothesis import given, strategies as st

import lazyarr as la

from differential import check
from strategies import NUMERIC, arrays

ABSTRACT = [np.generic, np.number, np.integer, np.signedinteger, np.unsignedinteger,
            np.inexact, np.floating, np.complexfloating, np.bool_]


def both(func):
    """`func(np, ...)` and `func(la, ...)`: one test body for NumPy and lazyarr."""
    return functools.partial(func, np), functools.partial(func, la)


@pytest.mark.parametrize("first", NUMERIC)
def test_promote_types(first):
    for second in NUMERIC + ["i4", np.float32, "bogus"]:
        check(np.promote_types, la.promote_types, first, second)
    check(np.promote_types, la.promote_types, np.zeros(2, first), first)  # not a dtype


@pytest.mark.parametrize("first", NUMERIC + [np.float32, "f8", "int"])
def test_issubdtype(first):
    for second in ABSTRACT + NUMERIC + ["f8"]:
        check(np.issubdtype, la.issubdtype, first, second)
    check(np.issubdtype, la.issubdtype, np.zeros(2, first), np.floating)  # not a dtype


def test_ml_dtypes_floats_are_floating():
    for dtype in (ml_dtypes.bfloat16, ml_dtypes.float8_e4m3fn, np.dtype(ml_dtypes.float8_e5m2)):
        for kind, expected in ((np.floating, True), (np.inexact, True), (np.number, True),
                               (np.generic, True), (np.integer, False), (np.float32, False),
                               (dtype, True)):
            assert la.issubdtype(dtype, kind) is expected, (dtype, kind)
    assert la.promote_types(ml_dtypes.bfloat16, np.float32) == np.float32


SCALARS = [np.float64(1.5), np.int8(3), 1, 2.5, 1j, True, "a", b"b", None, [1], (1,),
           np.array(1.0), np.array([1, 2]), np.zeros((0, 2))]


@pytest.mark.parametrize("value", SCALARS, ids=range(len(SCALARS)))
def test_isscalar_and_iterable(value):
    check(np.isscalar, la.isscalar, value)
    check(np.iterable, la.iterable, value)


@given(a=arrays(max_dims=3))
def test_isscalar_of_lazy_results(a):
    """A 0-d reduction or integer index result is a NumPy scalar; arrays are not."""
    def results(m, a):
        picked = a[(0,) * a.ndim] if a.size else a
        reduced = m.max(a) if a.size and a.ndim else a
        return (m.isscalar(a), m.isscalar(reduced), m.isscalar(picked), m.iterable(a),
                m.iterable(picked))
    check(*both(results), a)


@pytest.mark.parametrize("char", sorted(set(np.typecodes["All"])) + ["?", "S1", "Z"])
def test_typename(char):
    check(np.typename, la.typename, char)


@given(number=st.integers(-2 ** 70, 2 ** 70), base=st.integers(0, 40),
       padding=st.integers(0, 3), width=st.none() | st.integers(0, 80))
def test_base_and_binary_repr(number, base, padding, width):
    check(np.base_repr, la.base_repr, number, base, padding)
    check(np.binary_repr, la.binary_repr, number, width)
    if -2 ** 63 <= number < 2 ** 63:  # as 0-d arrays (lazyarr's value read once)
        check(np.base_repr, la.base_repr, np.array(number), base, padding)
        check(np.binary_repr, la.binary_repr, np.array(number), width)


def test_repr_functions_reject_floats():
    for value in (1.5, np.array(1.5)):
        check(np.binary_repr, la.binary_repr, value)
    check(np.base_repr, la.base_repr, np.array(-2.5), 3)  # NumPy truncates


@pytest.mark.usefixtures("lazy_graph")
@given(a=arrays(max_dims=2))
def test_min_scalar_type(a):
    """Arrays keep their dtype; 0-d arrays and scalars give the smallest dtype that
    holds their value (read from a lazy 0-d array: one flush)."""
    check(np.min_scalar_type, la.min_scalar_type, a)
    if a.ndim == 0:
        check(np.min_scalar_type, la.min_scalar_type, a[()])
    x = la.asarray(a) + 0 if a.dtype != np.bool_ else la.asarray(a) | False
    with la.count_flushes() as flushes:
        assert la.min_scalar_type(x) == np.min_scalar_type(a)
    assert flushes.count == (a.ndim == 0)


@pytest.mark.parametrize("value", [300, -1, 2.5, 1e300, 1j, True, 2 ** 64, -2 ** 63])
def test_min_scalar_type_of_python_scalars(value):
    check(np.min_scalar_type, la.min_scalar_type, value)


@pytest.mark.parametrize("dtypes", [(), ("int8",), ("float16",), ("float32", "int8"),
                                    ("complex64",), ("complex64", "float64"),
                                    ("float16", "complex64"), ("bool",), ("uint64", "float32")])
def test_common_type(dtypes):
    arrays_ = [np.ones((2,) * k, dt) for k, dt in enumerate(dtypes)]
    check(np.common_type, la.common_type, *arrays_)
    with la.count_flushes() as flushes:
        la.common_type(*(la.asarray(a) * 1 for a in arrays_ if a.dtype != np.bool_))
    assert flushes.count == 0


def test_common_type_needs_arrays():
    check(np.common_type, la.common_type, [1.0, 2.0])


@pytest.mark.parametrize("typeset", ["GDFgdf", "fd", "bhi"])
def test_mintypecode(typeset):
    for combo in itertools.combinations(["f", "d", "F", np.ones(2, np.float32),
                                         np.ones(2, np.complex128), np.ones((), np.int8),
                                         np.zeros(2, np.float16)], 2):
        check(np.mintypecode, la.mintypecode, list(combo), typeset)
        check(np.mintypecode, la.mintypecode, list(combo), typeset, "q")


# ----- memory order ------------------------------------------------------------------

VIEWS = {"owner": lambda m, a: a, "T": lambda m, a: a.T,
         "strided": lambda m, a: a[:, ::2], "column": lambda m, a: a[:, :1],
         "reversed": lambda m, a: a[::-1], "fortran": lambda m, a: m.asfortranarray(a),
         "fortran_T": lambda m, a: m.asfortranarray(a).T, "row": lambda m, a: a[1],
         "scalar": lambda m, a: a[0, 0], "0-d": lambda m, a: m.asarray(a[0, 0])}


def layout(x):
    return (bool(x.flags.c_contiguous), bool(x.flags.f_contiguous), bool(x.flags.owndata),
            bool(x.flags.writeable))


@pytest.mark.parametrize("view", VIEWS, ids=list(VIEWS))
@pytest.mark.parametrize("shape", [(3, 4), (1, 4), (3, 1), (0, 4)])
def test_isfortran_and_asfortranarray(view, shape):
    if shape[0] == 0 and view in ("row", "scalar", "0-d"):
        return

    def run(m, a, dtype):
        v = VIEWS[view](m, a)
        result = m.asfortranarray(v, dtype)
        return (m.isfortran(v) if m is np or not isinstance(v, np.generic) else None,
                result is v, layout(result), result)
    a = np.arange(np.prod(shape), dtype=np.float64).reshape(shape).copy()  # an owner
    for dtype in (None, np.float64, np.int8):
        check(*both(run), a, dtype)


REQUIREMENTS = [None, [], "C", "F", ["C", "F"], "W", "O", "A", "E", ["F", "W"],
                ["C_CONTIGUOUS", "owndata"], ["FORTRAN"], ["aligned", "E"], ["X"],
                ("ENSUREARRAY", "F"), "FO", "CW"]


@pytest.mark.parametrize("view", VIEWS, ids=list(VIEWS))
@pytest.mark.parametrize("requirements", REQUIREMENTS, ids=range(len(REQUIREMENTS)))
def test_require(view, requirements):
    def run(m, a, dtype):
        v = VIEWS[view](m, a)
        result = m.require(v, dtype, requirements)
        return result is v, layout(result), result
    a = np.arange(12.0).reshape(3, 4).copy()  # an owner, as lazyarr's copy of it is
    for dtype in (None, np.float32):
        check(*both(run), a, dtype)


def test_require_read_only():
    def run(m, a):
        a = m.asarray(a).copy()
        a.flags.writeable = False
        return [layout(m.require(a, requirements=r)) for r in (None, "C", "W", "FW")]
    check(*both(run), np.arange(6.0).reshape(2, 3))


def test_copies_are_new_owners():
    x = la.arange(6.0).reshape(2, 3)
    f = la.asfortranarray(x)
    f[0, 0] = 9
    assert x.tolist() == [[0, 1, 2], [3, 4, 5]] and f.base is None
    r = la.require(x.T, requirements="C")
    r[0, 0] = 7
    assert float(x[0, 0]) == 0


@pytest.mark.filterwarnings("ignore::numpy.exceptions.ComplexWarning")  # dtype=float32
@given(a=arrays(max_dims=3))
def test_asarray_chkfinite(a):
    check(np.asarray_chkfinite, la.asarray_chkfinite, a)
    check(np.asarray_chkfinite, la.asarray_chkfinite, a, np.float32)
    x = la.asarray(a)
    with la.count_flushes() as flushes:
        try:
            result = la.asarray_chkfinite(x)
        except ValueError:
            result = None
    assert flushes.count <= (a.dtype.kind in "fc")  # integers are not checked
    assert result is None or result is x


@pytest.mark.usefixtures("lazy_graph")
def test_asarray_chkfinite_reads_the_data_once():
    x = la.asarray(np.array([1.0, 2.0])) * 2
    with la.count_flushes() as flushes:
        assert la.asarray_chkfinite(x) is x
    assert flushes.count == 1 and flushes.causes["control"] == 1
    assert x.tolist() == [2.0, 4.0]


@pytest.mark.parametrize("value", [[1.0, np.inf], [np.nan], [1, 2], 3.5, np.float64(np.nan),
                                   [[1, 2], [3]], [1 + 1j, complex(0, np.inf)]])
def test_asarray_chkfinite_values(value):
    check(np.asarray_chkfinite, la.asarray_chkfinite, value)


def test_bfloat16_is_checked_as_a_float():
    with pytest.raises(ValueError, match="infs or NaNs"):
        la.asarray_chkfinite(la.asarray(np.array([1.0, np.inf], ml_dtypes.bfloat16)))


def test_numpy_dispatches_the_array_functions():
    x = la.asarray(np.arange(6).reshape(2, 3)) * 2
    with la.count_flushes() as flushes:
        assert np.min_scalar_type(x) == np.int64
        assert np.common_type(x, la.ones(2, np.float32)) is np.float64
    assert flushes.count == 0
    assert np.min_scalar_type(x[0, 1]) == np.uint8
