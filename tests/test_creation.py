"""Creation functions against NumPy: from data, filled, ranges (geomspace included),
grids, triangles, fromfunction."""

import numpy as np
import pytest
from hypothesis import given, strategies as st
from hypothesis.extra import numpy as hnp

import lazyarr as la

from differential import assert_same, check, check_function
from strategies import FLOAT, INTEGER, NUMERIC, arrays, shapes

DTYPE_ARGS = [None, "int8", "uint32", "float16", "float32", "complex64", "bool", int, float]


@given(a=arrays())
def test_array_and_asarray_round_trip(a):
    check_function("array", a)
    check_function("asarray", a)
    check(np.array, la.array, a.tolist())
    check(lambda x: np.array(x, ndmin=3), lambda x: la.array(x, ndmin=3), a)


@pytest.mark.parametrize("dtype", DTYPE_ARGS)
@pytest.mark.parametrize("name", ["zeros", "ones", "empty"])
@given(shape=shapes())
def test_filled(name, dtype, shape):
    if name == "empty":  # NumPy's contents are undefined; lazyarr's are zeros
        assert_same(np.zeros(shape, dtype), la.empty(shape, dtype))
    else:
        check_function(name, shape, dtype)


@pytest.mark.parametrize("fill", [0, 7, -1, 2.5, True, 1 + 2j, np.float32(1.5), np.int8(3)])
@pytest.mark.parametrize("dtype", [None, "int16", "float64", "uint8"])
def test_full(fill, dtype):
    if dtype == "uint8" and fill == -1:
        return check(np.full, la.full, (2, 3), fill, dtype)
    check(np.full, la.full, (2, 3), fill, dtype)
    check(np.full, la.full, 4, np.array([1, 2, 3, 4]), dtype)


@pytest.mark.parametrize("name", ["zeros_like", "ones_like", "empty_like", "full_like"])
@pytest.mark.parametrize("dtype", [None, "float32", "int64"])
@given(a=arrays())
def test_like(name, dtype, a):
    args = (a, 5) if name == "full_like" else (a,)
    if name == "empty_like":
        assert_same(np.zeros_like(a, dtype), la.empty_like(la.asarray(a), dtype))
    else:
        check_function(name, *args, dtype=dtype)
        check_function(name, *args, dtype=dtype, shape=(2, 1))


ARANGES = [(5,), (0,), (-3,), (2, 9), (9, 2), (2, 9, 3), (9, 2, -2), (0.0, 1.0, 0.1),
           (1, 2.5, 0.25), (-1.5, 1.5, 0.3), (np.float32(0.5), 3), (10, 0, -1.5),
           (0, 5, 1, "float32"), (0, 10, 3, "uint8"), (0, 2, 1, "bool"), (3, 3)]


@pytest.mark.parametrize("args", ARANGES, ids=str)
def test_arange(args):
    *bounds, dtype = args if isinstance(args[-1], str) else (*args, None)
    check(np.arange, la.arange, *bounds, dtype=dtype, rtol=1e-15)


def test_arange_bad_input():
    check(np.arange, la.arange, 0, 5, 0)
    check(np.arange, la.arange, 0, 5, 1, dtype="bool")
    check(np.arange, la.arange, "a")


@pytest.mark.parametrize("endpoint", [True, False])
@pytest.mark.parametrize("num", [0, 1, 2, 7, 50])
@pytest.mark.parametrize("bounds", [(0, 1), (2, -3.5), (1, 1), (0, 10)])
@pytest.mark.parametrize("dtype", [None, "float32", "int32"])
def test_linspace(endpoint, num, bounds, dtype):
    check(np.linspace, la.linspace, *bounds, num=num, endpoint=endpoint, dtype=dtype)
    check(lambda *a, **k: np.linspace(*a, **k)[1], lambda *a, **k: la.linspace(*a, **k)[1],
          *bounds, num=num, endpoint=endpoint, retstep=True)


def test_linspace_array_bounds_and_axis():
    start, stop = np.array([0.0, 1.0]), np.array([[1.0, 5.0], [2.0, 3.0]])
    check(np.linspace, la.linspace, start, stop, 5)
    check(np.linspace, la.linspace, start, stop, 4, axis=-1)
    check(np.linspace, la.linspace, np.float32(0), np.float32(1), 3)
    check(np.linspace, la.linspace, 0, 1, -1)


@pytest.mark.parametrize("base", [10.0, 2, np.array([2.0, 3.0])])
def test_logspace(base):
    check(np.logspace, la.logspace, 0, 3, 4, base=base if np.ndim(base) == 0 else 2.0)
    check(np.logspace, la.logspace, np.array([0.0, 1.0]), 3, 4, base=base)
    check(np.logspace, la.logspace, 0, 2, 3, dtype="float32")


@pytest.mark.parametrize("N,M,k", [(3, None, 0), (3, 5, 1), (4, 2, -1), (0, 3, 0), (3, 3, 7)])
@pytest.mark.parametrize("dtype", [float, "int8", bool])
def test_eye_tri_identity(N, M, k, dtype):
    check_function("eye", N, M, k, dtype)
    check_function("tri", N, M, k, dtype)
    check_function("identity", N, dtype)


def test_eye_bad_input():
    check_function("eye", -1)
    check_function("eye", 2.5)


@pytest.mark.parametrize("k", [-2, -1, 0, 1, 3])
@given(a=arrays(dtype=None, min_dims=1, max_dims=4))
def test_tril_triu(k, a):
    check_function("tril", a, k)
    check_function("triu", a, k)


@pytest.mark.parametrize("k", [-2, 0, 1, 3])
@given(data=st.data())
def test_diag_and_diagflat(k, data):
    dt = data.draw(st.sampled_from(NUMERIC))
    v = data.draw(arrays(dtype=dt, min_dims=1, max_dims=1))
    m = data.draw(arrays(dtype=dt, min_dims=2, max_dims=2))
    check_function("diag", v, k)
    check_function("diag", m, k)
    check_function("diagflat", m, k)
    check_function("diag", np.zeros((2, 2, 2)))


@pytest.mark.parametrize("indexing", ["xy", "ij"])
@pytest.mark.parametrize("sparse", [False, True])
def test_meshgrid(indexing, sparse):
    xs = [np.arange(3), np.linspace(0, 1, 4), np.array([5, 6], np.int8)]
    for n in range(4):
        check(np.meshgrid, la.meshgrid, *xs[:n], indexing=indexing, sparse=sparse)
    for empty in range(3):  # a coordinate vector of length 0 empties the grids
        check(np.meshgrid, la.meshgrid, *xs[:empty], np.zeros(0), *xs[empty:2],
              indexing=indexing, sparse=sparse)
    check(np.meshgrid, la.meshgrid, xs[0], indexing="bad")


def test_copy_is_independent():
    x = la.asarray(np.arange(3))
    y = la.copy(x)
    x += 1
    assert y.tolist() == [0, 1, 2]
    check_function("copy", np.arange(4.0))


def test_arrays_from_lazy_elements_stay_lazy():
    a, b = la.arange(3), la.arange(3) * 2
    with la.count_flushes() as flushes:
        m = la.array([a, b])
        n = la.asarray([[a[0], 1.5], [2, b[1]]])
    assert flushes.count == 0
    assert m.tolist() == [[0, 1, 2], [0, 2, 4]]
    assert_same(np.array([[0, 1.5], [2, 2]]), n)


def test_bad_input():
    check_function("zeros", (2, -1))
    check_function("zeros", "abc")
    check(np.asarray, la.asarray, [[1, 2], [3]])


@pytest.mark.filterwarnings("ignore::UserWarning")
def test_non_numeric_data_is_numpys_own_array():
    """Strings, dates, objects and records are NumPy's own arrays (a counted fallback)."""
    la.reset_stats()
    for make in (lambda m: m.full((2,), "text"), lambda m: m.array(["a", "b"]),
                 lambda m: m.zeros(3, dtype="U2"), lambda m: m.array([1, None]),
                 lambda m: m.arange("2024-01-30", "2024-02-02", dtype="datetime64[D]"),
                 lambda m: m.zeros(2, dtype=[("a", "i4"), ("b", "f8")])):
        expected, got = make(np), make(la)
        assert type(got) is np.ndarray and got.dtype == expected.dtype
        np.testing.assert_array_equal(got, expected)
    assert sum(la.stats()["fallbacks"].values()) == 6
    assert la.arange(3.0).astype("U3").tolist() == ["0.0", "1.0", "2.0"]


@given(a=arrays(max_dims=2))
def test_asarray_of_scalars_and_contiguous(a):
    """A scalar (NumPy's, or a lazyarr reduction's) becomes a 0-d array, not a scalar;
    ascontiguousarray gives at least one dimension and C order, copying a strided view."""
    for name in ("asarray", "asanyarray", "ascontiguousarray"):
        check_function(name, a.sum())
        check_function(name, a)
        check(lambda x, f=getattr(np, name): f(np.sum(x)),
              lambda x, f=getattr(la, name): f(la.sum(x)), a)
    check(lambda x: np.ascontiguousarray(x[..., ::2]).flags.c_contiguous,
          lambda x: la.ascontiguousarray(x[..., ::2]).flags.c_contiguous, a)
    x = la.asarray(a)
    assert la.asarray(x) is x and (la.ascontiguousarray(x) is x) == (x.ndim > 0)


def test_asarray_copy_false():
    """copy=False shares host memory (the standard's and NumPy's rule) or raises NumPy's
    ValueError where a copy is unavoidable."""
    a = np.arange(4.0)
    x = la.asarray(a, copy=False)
    a[0] = 7.0
    assert np.asarray(x)[0] == 7.0
    for args in (([1, 2],), (np.arange(3, dtype=np.float32), "f8"), (3.5,)):
        check(lambda *v: np.asarray(*v, copy=False), lambda *v: la.asarray(*v, copy=False),
              *args)
    check(lambda v: np.asarray(v, copy=False), lambda v: la.asarray(v, copy=False),
          np.arange(3.0))
    lazy = la.arange(3.0)
    assert la.asarray(lazy, copy=False) is lazy
    with pytest.raises(ValueError):
        la.asarray(lazy, dtype="f4", copy=False)


@pytest.mark.parametrize("value", [300, -1, 2**63, 2**64, 2**100, 1j, float("nan"), 1e300,
                                   True, -2**63])
@pytest.mark.parametrize("dtype", ["uint8", "int64", "uint64", "float32", "float16", "bool",
                                   "complex64"])
def test_full_converts_python_scalars_as_numpy(value, dtype):
    """Fuzzer: np.full((2,), 2**64, dtype=np.float32) is 1.8e19, not a TypeError; an int
    the integer dtype cannot hold is NumPy's OverflowError."""
    check(np.full, la.full, (2, 3), value, dtype=dtype)


@pytest.mark.parametrize("func", ["tril", "triu"])
def test_triangles_of_0d_raise_numpys_type_error(func):
    check_function(func, np.array(1.5))
    check(lambda x: getattr(np, func)(x.sum()), lambda x: getattr(la, func)(x.sum()),
          np.ones(3))


# ----- from a function, geometric ranges ------------------------------------------

@pytest.mark.usefixtures("quiet_warnings")
@given(dims=st.lists(st.integers(0, 4), max_size=3),
       dtype=st.sampled_from(INTEGER + FLOAT))
def test_fromfunction(dims, dtype):
    check(np.fromfunction, la.fromfunction, lambda *ix: sum(ix) * 2 if ix else 0,
          tuple(dims), dtype=dtype)


@pytest.mark.usefixtures("quiet_warnings")
@given(data=st.data())
def test_geomspace(data):
    dtype = data.draw(st.sampled_from(INTEGER[:4] + FLOAT + [np.dtype(np.complex128)]))
    shape = data.draw(hnp.array_shapes(min_dims=0, max_dims=1, max_side=3))
    nonzero = st.integers(1, 100) | st.integers(-100, -1)
    start = data.draw(hnp.arrays(dtype, shape, elements=nonzero))
    stop = data.draw(hnp.arrays(dtype, shape, elements=nonzero | st.just(0)))
    num = data.draw(st.integers(0, 6))
    out_dtype = data.draw(st.none() | st.sampled_from([np.float32, np.int64]))
    axis = data.draw(st.integers(-1, 1) if shape else st.just(0))
    # float32 arithmetic (float32 inputs, or dtype=float32, in which NumPy computes) is
    # compared at float32's precision: XLA's float32 power may differ in the last ulp.
    single = dtype in (np.float16, np.float32) or out_dtype is np.float32
    check_function("geomspace", start, stop, num, data.draw(st.booleans()), out_dtype, axis,
                   rtol=1e-4 if single else 1e-12)

