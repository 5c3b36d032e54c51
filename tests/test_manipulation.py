"""Manipulation functions against NumPy: reshaping, transposing, joining, splitting,
tiling, repeating, flipping, rolling and padding; their errors; and that they stay lazy
and add no node when nothing changes."""

import warnings

import numpy as np
import pytest
from hypothesis import given, strategies as st

import lazyarr as la

from differential import assert_same, check, check_function
from strategies import arrays, dtypes, shapes

A = np.arange(6.0).reshape(2, 3)
B = np.arange(24, dtype=np.int16).reshape(2, 3, 4)


def _axis(data, ndim):
    """An axis for an array of `ndim` dims, sometimes out of range (NumPy must reject
    it too)."""
    return data.draw(st.integers(-ndim - 1, ndim))


# ----- reshaping and transposing (property tests over every dtype and shape) -------

@given(a=arrays(), data=st.data())
def test_reshape_and_ravel(a, data):
    order = data.draw(st.sampled_from(["C", "F", "A"]))
    factors = [n for n in range(1, a.size + 1) if a.size % n == 0] or [0]
    first = data.draw(st.sampled_from(factors))
    target = data.draw(st.sampled_from([(a.size,), (-1,), a.shape[::-1], (first, -1),
                                        (-1, first, 1), (1,) + a.shape, (a.size + 1,)]))
    check_function("reshape", a, target, order=order)
    check(lambda x: x.reshape(target, order=order),
          lambda x: x.reshape(target, order=order), a)
    check(lambda x: x.reshape(*target) if target else x.reshape(()),
          lambda x: x.reshape(*target) if target else x.reshape(()), a)
    for o in ("C", "F", "A", "K"):
        check_function("ravel", a, order=o)
        check(lambda x: x.flatten(o), lambda x: x.flatten(o), a)


@given(a=arrays(), data=st.data())
def test_transpose_family(a, data):
    perm = data.draw(st.permutations(range(a.ndim)))
    check_function("transpose", a)
    check_function("transpose", a, perm)
    check_function("permute_dims", a, perm)
    check(lambda x: x.T, lambda x: x.T, a)
    check(lambda x: x.transpose(*perm) if perm else x.transpose(),
          lambda x: x.transpose(*perm) if perm else x.transpose(), a)
    check(lambda x: x.mT, lambda x: x.mT, a)
    check_function("matrix_transpose", a)
    i, j = _axis(data, a.ndim), _axis(data, a.ndim)
    check_function("swapaxes", a, i, j)
    check(lambda x: x.swapaxes(i, j), lambda x: x.swapaxes(i, j), a)
    k = data.draw(st.integers(0, a.ndim))
    src = data.draw(st.permutations(range(a.ndim)))[:k]
    dst = data.draw(st.permutations(range(-a.ndim, 0)))[:k] if a.ndim else []
    check_function("moveaxis", a, src, dst)
    check_function("moveaxis", a, _axis(data, a.ndim), _axis(data, a.ndim))


@given(a=arrays(), data=st.data())
def test_expand_dims_and_squeeze(a, data):
    check_function("expand_dims", a, _axis(data, a.ndim + 1))
    check_function("expand_dims", a, (_axis(data, a.ndim + 2), _axis(data, a.ndim + 2)))
    b = a.reshape(tuple(n for n in a.shape for n in (1, n)))  # length-1 axes interleaved
    check_function("squeeze", b)
    check(lambda x: x.squeeze(), lambda x: x.squeeze(), b)
    axis = _axis(data, b.ndim)
    check_function("squeeze", b, axis)
    check_function("squeeze", b, (axis, _axis(data, b.ndim)))


@given(a=arrays(max_dims=3), data=st.data())
def test_broadcasting(a, data):
    lead = data.draw(shapes(max_dims=2))
    grown = tuple(n if n != 1 else data.draw(st.integers(0, 3)) for n in a.shape)
    check_function("broadcast_to", a, lead + grown)
    check_function("broadcast_to", a, lead + a.shape)
    b = data.draw(arrays(shape=data.draw(st.sampled_from([grown, (1,) + grown, (2,)]))))
    check_function("broadcast_arrays", a, b)
    check_function("broadcast_shapes", a.shape, b.shape, lead)


# ----- joining --------------------------------------------------------------------

@pytest.mark.filterwarnings("ignore::numpy.exceptions.ComplexWarning")
@pytest.mark.filterwarnings("ignore:overflow encountered in cast:RuntimeWarning")
@given(data=st.data())
def test_join(data):
    base = data.draw(shapes(min_dims=1, max_dims=3))
    axis = _axis(data, len(base))
    other = list(base)
    if -len(base) <= axis < len(base):
        other[axis] = data.draw(st.integers(0, 3))
    a = data.draw(arrays(shape=base))
    b = data.draw(arrays(shape=tuple(other)))
    check_function("concatenate", [a, b], axis=axis)
    check_function("concat", (a, b, a), axis=axis)
    check_function("concatenate", [a, b], axis=None)
    check_function("concatenate", [a], axis=axis)
    dtype = data.draw(dtypes())
    casting = data.draw(st.sampled_from(["no", "equiv", "safe", "same_kind", "unsafe"]))
    check_function("concatenate", [a, b], axis=axis, dtype=dtype, casting=casting)
    check_function("stack", [a, a.astype(b.dtype)], axis=axis)
    for name in ("hstack", "vstack", "dstack", "column_stack"):
        check_function(name, [a, b])
        check_function(name, [a, a])
    check_function("append", a, b)
    check_function("append", a, b, axis=axis)


@given(a=arrays(), data=st.data())
def test_atleast(a, data):
    b = data.draw(arrays())
    for name in ("atleast_1d", "atleast_2d", "atleast_3d"):
        check_function(name, a)
        check_function(name, a, b)


def test_concatenate_out_and_dispatch():
    x = la.zeros((5, 3), dtype=np.int64)
    result = la.concatenate([la.asarray(A), la.ones((3, 3))], out=x, casting="unsafe")
    assert result is x
    assert_same(np.concatenate([A, np.ones((3, 3))]).astype(np.int64), x)
    with pytest.raises(TypeError):  # float into int64 under same_kind
        la.concatenate([la.asarray(A), la.ones((3, 3))], out=x)
    with pytest.raises(ValueError):
        la.concatenate([la.asarray(A)], out=x)
    # NumPy's own functions dispatch to lazyarr and stay lazy.
    y = np.concatenate([la.asarray(A), la.asarray(A)])
    assert isinstance(y, la.Array)
    assert_same(np.concatenate([A, A]), y)
    assert isinstance(np.reshape(la.asarray(A), (3, 2)), la.Array)
    assert isinstance(np.pad(la.asarray(A), 1), la.Array)


# ----- splitting ------------------------------------------------------------------

@given(a=arrays(min_dims=1), data=st.data())
def test_split_family(a, data):
    axis = _axis(data, a.ndim)
    sections = data.draw(st.integers(1, 6))
    check_function("array_split", a, sections, axis=axis)
    check_function("split", a, sections, axis=axis)
    points = data.draw(st.lists(st.integers(-6, 8), max_size=4))
    check_function("array_split", a, points, axis=axis)
    check_function("split", a, np.array(points, dtype=np.int64), axis=axis)
    for name in ("hsplit", "vsplit", "dsplit"):
        check_function(name, a, sections)
        check_function(name, a, points)
    check_function("unstack", a, axis=axis)


# ----- tiling, repeating, flipping, rolling ---------------------------------------

@given(a=arrays(max_dims=3, max_side=3), data=st.data())
def test_tile_and_repeat(a, data):
    reps = data.draw(st.lists(st.integers(0, 3), max_size=4))
    check_function("tile", a, reps)
    check_function("tile", a, data.draw(st.integers(0, 3)))
    count = data.draw(st.integers(0, 3))
    axis = data.draw(st.one_of(st.none(), st.integers(-a.ndim - 1, a.ndim)))
    check_function("repeat", a, count, axis=axis)
    check(lambda x: x.repeat(count, axis), lambda x: x.repeat(count, axis), a)
    n = a.size if axis is None else a.shape[axis] if -a.ndim <= axis < a.ndim else 1
    counts = data.draw(st.lists(st.integers(0, 3), min_size=n, max_size=n))
    check_function("repeat", a, counts, axis=axis)
    check_function("repeat", a, np.array(counts, dtype=np.uint8), axis=axis)


@given(a=arrays(), data=st.data())
def test_flip_roll_rot90(a, data):
    check_function("flip", a)
    check_function("flip", a, _axis(data, a.ndim))
    check_function("flip", a, (_axis(data, a.ndim), _axis(data, a.ndim)))
    check_function("fliplr", a)
    check_function("flipud", a)
    shift = data.draw(st.integers(-7, 7))
    check_function("roll", a, shift)
    check_function("roll", a, shift, axis=_axis(data, a.ndim))
    check_function("roll", a, (shift, 2), axis=(_axis(data, a.ndim), _axis(data, a.ndim)))
    k = data.draw(st.integers(-5, 5))
    check_function("rot90", a, k)
    check_function("rot90", a, k, (_axis(data, a.ndim), _axis(data, a.ndim)))


# ----- padding --------------------------------------------------------------------

PAD_MODES = ["constant", "edge", "reflect", "symmetric", "wrap", "linear_ramp", "maximum",
             "minimum", "mean"]
# Every form of pad_width (valid ones, then ones NumPy rejects); widths past the array's
# length make NumPy's reflect and wrap modes iterate.
PAD_WIDTHS = [0, 1, 5, (0, 7), ((1, 0), (2, 9)), [[1], [2]], {0: 2}, {-1: (1, 3)},
              -1, 1.5, [], (1, 2, 3), [[1, 2], [3, 4], [5, 6]], {0: 1.5}]
PAD_ARRAYS = [A, B, np.array([3.0]), np.zeros((0, 3)), np.zeros((2, 0)), np.float64(2),
              np.array([[1, 200]], np.uint8), np.array([True, False]),
              np.array([1 + 2j, 3 - 1j, -2j]), np.array([np.nan, 1, np.inf], np.float32)]
PAD_KWARGS = {"constant": {"constant_values": (4, 5)}, "reflect": {"reflect_type": "odd"},
              "symmetric": {"reflect_type": "odd"}, "linear_ramp": {"end_values": (2, -3)},
              "maximum": {"stat_length": (1, 2)}, "minimum": {"stat_length": 2},
              "mean": {"stat_length": ((1, 3),)}, "edge": {"stat_length": 1},
              "wrap": {"foo": 1}}


@pytest.mark.parametrize("mode", PAD_MODES)
@pytest.mark.parametrize("array", PAD_ARRAYS, ids=lambda a: f"{a.dtype}{a.shape}")
def test_pad_modes(mode, array):
    for width in PAD_WIDTHS:
        if isinstance(width, dict) and np.ndim(array) < 2:
            continue
        check(np.pad, la.pad, array, width, mode)
    for width in (5, ((1, 0), (2, 9))):
        check(np.pad, la.pad, array, width, mode, **PAD_KWARGS[mode])


@given(a=arrays(max_dims=3, max_side=3), data=st.data())
def test_pad_generated(a, data):
    mode = data.draw(st.sampled_from(PAD_MODES))
    widths = data.draw(st.lists(st.tuples(st.integers(0, 7), st.integers(0, 7)),
                                min_size=a.ndim, max_size=a.ndim))
    check(np.pad, la.pad, a, widths, mode)


@pytest.mark.parametrize("values", [[[1, 2], [3, 4]], -1, [-1, 300], [[-1, 300], [1, 2]],
                                    np.nan, [[np.nan, 1], [1, 1]], None, 2.5, 1 + 1j])
@pytest.mark.parametrize("array", [B[0].astype(np.uint8), A, B[0], A > 2])
@pytest.mark.filterwarnings("ignore::RuntimeWarning")
@pytest.mark.filterwarnings("ignore::numpy.exceptions.ComplexWarning")
def test_pad_constant_values_cast_as_numpy(values, array):
    check(np.pad, la.pad, array, 2, "constant", constant_values=values)
    if values is not None and array.dtype == np.float64:
        # Lazy constant values stay lazy and give the same result.
        lazy = la.asarray(values) + 0
        with la.count_flushes() as flushes:
            padded = la.pad(la.asarray(array), 2, constant_values=lazy)
        assert flushes.count == 0
        assert_same(np.pad(array, 2, constant_values=values), padded)


@pytest.mark.parametrize("ends", [[[1, 2], [3, 4]], 5.5, [[-1, 300], [1, 2]], np.int8(3)])
@pytest.mark.parametrize("dtype", ["uint8", "float64", "int16", "float16", "float32", "bool",
                                   "complex64"])
def test_pad_linear_ramp_dtypes(ends, dtype):
    a = np.array([[0, 1, 5], [7, 2, 0]]).astype(dtype)
    check(np.pad, la.pad, a, 3, "linear_ramp", end_values=ends)


@pytest.mark.parametrize("lengths", [0, 1, (0, 2), 5, None, [[1, 0], [2, 2]], -1, 1.6])
@pytest.mark.parametrize("mode", ["maximum", "minimum", "mean"])
@pytest.mark.parametrize("dtype", ["int32", "float32", "bool", "complex128"])
def test_pad_stat_length(lengths, mode, dtype):
    a = np.array([[4, 1, 6], [np.nan, 2, 0]]).astype(dtype) if dtype != "int32" else B[0]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        check(np.pad, la.pad, a, (2, 1), mode, stat_length=lengths)


def test_pad_empty_median_callable_and_bad_modes(monkeypatch):
    # 'empty' leaves NumPy's padding undefined; lazyarr's is zeros, the inside intact.
    got = la.pad(la.asarray(A), (1, 2), "empty")
    assert_same(np.pad(A, (1, 2)), got)
    monkeypatch.setenv("LAZYARR_FALLBACK", "allow")
    check(np.pad, la.pad, A, 2, "median", stat_length=2)

    def fives(vector, widths, axis, kwargs):
        vector[:widths[0]] = 5

    check(np.pad, la.pad, A, 1, fives)
    for mode, kwargs in [("nope", {}), ("constant", {"end_values": 1}), ("empty", {"x": 1}),
                         ("median", {"reflect_type": "odd"})]:
        check(np.pad, la.pad, A, 1, mode, **kwargs)


# ----- errors and edge cases, each exactly as NumPy --------------------------------

ERROR_CASES = [
    ("reshape", (A, 4), {}), ("reshape", (A, (-1, -1)), {}), ("reshape", (A, (-2, 3)), {}),
    ("reshape", (np.zeros((0, 3)), (-1, 0)), {}), ("reshape", (np.zeros((0, 3)), (5, -1)), {}),
    ("reshape", (A, 6), {"order": "K"}), ("reshape", (A, 6), {"order": "X"}),
    ("reshape", (A, 6.0), {}), ("reshape", (np.zeros(()), (1, -1, 1)), {}),
    ("reshape", (np.ones(1), []), {}), ("reshape", (A, np.int64(6)), {}),
    ("reshape", (A, (2, 3)), {"copy": False}), ("ravel", (A,), {"order": "X"}),
    ("transpose", (A, (0,)), {}), ("transpose", (A, (0, 0)), {}), ("transpose", (A, (0, 2)), {}),
    ("transpose", (A, [1, -2]), {}), ("transpose", (A, (1.0, 0)), {}),
    ("permute_dims", (A,), {}), ("matrix_transpose", (np.zeros(3),), {}),
    ("moveaxis", (A, (0, 1), 0), {}), ("moveaxis", (A, (0, 0), (0, 1)), {}),
    ("moveaxis", (A, 0, 5), {}), ("moveaxis", (np.zeros((2, 3, 4, 5)), [3, 0], [0, 2]), {}),
    ("expand_dims", (A, (0, 0)), {}), ("expand_dims", (A, 3), {}), ("expand_dims", (A, 1.0), {}),
    ("expand_dims", (A, [0, -1]), {}), ("expand_dims", (A, (0, 4)), {}),
    ("squeeze", (A, 0), {}), ("squeeze", (np.zeros((1, 2, 1)), (0, 0)), {}),
    ("squeeze", (np.zeros((1, 2, 1)), [0, 2]), {}), ("squeeze", (np.zeros((1, 2, 1)), 5), {}),
    ("broadcast_to", (A, (-1, 3)), {}), ("broadcast_to", (A, (3,)), {}),
    ("broadcast_to", (A, (4, 3)), {}), ("broadcast_to", (A, 3.0), {}),
    ("broadcast_to", (np.zeros((2, 1)), (0, 2, 0)), {}), ("broadcast_to", (3, (2,)), {}),
    ("broadcast_shapes", ((2,), (3,)), {}), ("broadcast_shapes", ((-1,),), {}),
    ("broadcast_shapes", (3, (2, 1)), {}), ("broadcast_shapes", (), {}),
    ("broadcast_arrays", (), {}), ("broadcast_arrays", (A, np.zeros(4)), {}),
    ("concatenate", ([],), {}), ("concatenate", ([np.zeros(2), np.zeros((2, 2))],), {}),
    ("concatenate", ([np.zeros((2, 2)), np.zeros((3, 3))],), {}),
    ("concatenate", ([np.zeros((2, 2)), np.zeros((3, 3))],), {"axis": 2}),
    ("concatenate", ([A, A],), {"dtype": np.int64}),
    ("concatenate", ([A, A],), {"dtype": np.int64, "casting": "unsafe"}),
    ("concatenate", ([A, A],), {"casting": "bad"}),
    ("concatenate", ([A, A],), {"out": np.zeros((4, 3)), "dtype": float}),
    ("concatenate", (A,), {}), ("concatenate", (A,), {"axis": None}),
    ("concatenate", ([[1, 2], [3]],), {}), ("concatenate", ([np.float64(1), 2.0],), {}),
    ("concatenate", ([B.astype(np.int8), B.astype(np.uint8)],), {"casting": "no"}),
    ("concatenate", ([np.zeros(2, bool), np.zeros(2, np.int8)],), {"dtype": "?"}),
    ("concatenate", ((np.zeros(3),), ), {"axis": 1.0}),
    ("concatenate", ((np.zeros(3), np.float32(3)),), {"axis": None}),
    ("stack", ([],), {}), ("stack", ([A, A[:1]],), {}), ("stack", ([A, A],), {"axis": 3}),
    ("stack", (A,), {}), ("stack", ([1, 2],), {}), ("stack", ((x for x in [A]),), {}),
    ("stack", ([A, A.astype(np.int8)],), {"axis": 1, "dtype": np.float32}),
    ("hstack", ((x for x in [A]),), {}), ("hstack", ([],), {}), ("hstack", ([1, 2],), {}),
    ("vstack", ([A, [1, 2, 3]],), {"dtype": np.int32}),
    ("vstack", ([A, [1, 2, 3]],), {"dtype": np.int32, "casting": "unsafe"}),
    ("dstack", ([1, 2],), {}), ("dstack", ([],), {}), ("column_stack", ([1, 2],), {}),
    ("column_stack", ([],), {}), ("append", (A, 1), {"axis": 0}),
    ("append", (np.float64(2), 1), {}),
    ("split", (A, 2), {"axis": 1}), ("split", (A, 0), {"axis": 1}),
    ("split", (A, 3.0), {"axis": 1}), ("array_split", (A, 0), {"axis": 1}),
    ("array_split", (A, -1), {"axis": 1}), ("array_split", (A, 2.0), {"axis": 1}),
    ("array_split", (A, [1.0]), {"axis": 1}), ("array_split", (A, 2), {"axis": 2}),
    ("array_split", (np.float64(3), 2), {}), ("hsplit", (np.float64(3), 2), {}),
    ("vsplit", (np.zeros(3), 2), {}), ("dsplit", (np.zeros((3, 3)), 2), {}),
    ("unstack", (np.float64(2),), {}), ("unstack", (A,), {"axis": 2}),
    ("tile", (A, -1), {}), ("tile", (A, 1.5), {}), ("tile", (A, ()), {}),
    ("tile", (np.float64(2), ()), {}), ("tile", (A, [2, 1.0]), {}),
    ("tile", (A, np.array([2, 2])), {}), ("tile", (A, 1.0), {}),
    ("repeat", (A, -1), {}), ("repeat", (A, 2.5), {}), ("repeat", (A, [1, 2]), {"axis": 1}),
    ("repeat", (A, [1, 2, -1]), {"axis": 1}), ("repeat", (A, [[1, 2, 1]]), {"axis": 1}),
    ("repeat", (A, [2]), {"axis": 1}), ("repeat", (A, np.uint64(2)), {"axis": 1}),
    ("repeat", (A, True), {"axis": 1}), ("repeat", (A, 2), {"axis": 3}),
    ("repeat", (np.float64(3), 2), {"axis": 0}), ("repeat", (np.float64(3), 2), {"axis": 1}),
    ("repeat", (np.float64(3), [2, 1]), {"axis": 0}), ("repeat", (A, [1.5, 1, 1]), {"axis": 1}),
    ("repeat", (A, np.array([1, 1, 1], np.uint64)), {"axis": 1}), ("repeat", (A, 1 + 0j), {}),
    ("repeat", (A, np.array([])), {"axis": 1}), ("repeat", (np.zeros((2, 0)), []), {"axis": 1}),
    ("repeat", (A, 2), {"axis": 1.0}), ("repeat", (A, None), {}),
    ("flip", (A, (0, 0)), {}), ("flip", (A, 2), {}), ("flip", (A, 1.0), {}),
    ("flip", (np.float64(3),), {}), ("fliplr", (np.zeros(3),), {}),
    ("flipud", (np.float64(3),), {}),
    ("roll", (A, 1.5), {}), ("roll", (A, (1, 2)), {}), ("roll", (A, (1, 2)), {"axis": (0, 1, 1)}),
    ("roll", (A, (1, 2)), {"axis": (0, 0)}), ("roll", (A, [[1]]), {"axis": 0}),
    ("roll", (A, 1), {"axis": 5}), ("roll", (np.float64(3), 1), {}),
    ("roll", (np.float64(3), 1), {"axis": 0}), ("roll", (A, np.int64(-7)), {}),
    ("rot90", (A, 1, (0,)), {}), ("rot90", (A, 1, (0, 0)), {}), ("rot90", (A, 1, (0, -2)), {}),
    ("rot90", (A, 1, (0, 2)), {}), ("rot90", (A, 1.5), {}), ("rot90", (np.zeros(3),), {}),
    ("rot90", (A, 1, (0, 5)), {}), ("rot90", (A, "1"), {}), ("rot90", (B, np.int64(3)), {}),
    ("pad", (A, [1.0, 2.0]), {}), ("pad", (A, np.array([1], np.uint8)), {}),
    ("pad", (A, {0: np.int64(1)}), {}), ("pad", (A, {0: (1, 2, 3)}), {}),
    ("pad", (A, {5: 1}), {}), ("pad", (A, 1, "edge"), {"constant_values": 3}),
    ("pad", (A, 1, ["constant"]), {}), ("pad", (np.float64(1), 2), {}),
    ("pad", (np.float64(1), [1, 2, 3]), {}), ("pad", (A, 1), {"constant_values": [1, 2, 3]}),
    ("pad", (A, 1, "maximum"), {"stat_length": [-1, 2]}),
    ("pad", (A, 1, "maximum"), {"stat_length": []}),
    ("pad", (np.zeros((0, 2)), 1, "edge"), {}), ("pad", (np.zeros((0, 2)), (0, 1), "wrap"), {}),
    ("pad", (np.zeros((2, 0)), ((1, 1), (0, 0)), "mean"), {}),
    ("pad", (A, 1, "linear_ramp"), {"end_values": np.array([[1, 2, 3]])}),
    ("pad", (np.array([True]), 1, "linear_ramp"), {"end_values": False}),
]


@pytest.mark.parametrize("name,args,kwargs", ERROR_CASES,
                         ids=[f"{c[0]}-{i}" for i, c in enumerate(ERROR_CASES)])
def test_edge_cases_and_errors(name, args, kwargs):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        check_function(name, *args, **kwargs)


def test_array_methods_keep_their_signatures():
    x = la.asarray(B)
    assert_same(B.reshape(4, 6), x.reshape(4, 6))
    assert_same(B.reshape((4, 6), order="F"), x.reshape((4, 6), order="F"))
    assert_same(B.transpose(2, 0, 1), x.transpose(2, 0, 1))
    assert_same(B.transpose((2, 0, 1)), x.transpose((2, 0, 1)))
    assert_same(B.transpose(None), x.transpose(None))
    assert_same(B.ravel("F"), x.ravel("F"))
    assert_same(B.swapaxes(0, 2), x.swapaxes(0, 2))
    assert_same(B[:1].squeeze(0), x[:1].squeeze(0))
    assert_same(B.repeat([1, 0, 2], 1), x.repeat([1, 0, 2], 1))
    assert_same(B.T, x.T)
    assert_same(B.mT, x.mT)
    with pytest.raises(ValueError):
        la.asarray(np.arange(3)).mT


# ----- laziness and node economy --------------------------------------------------

@pytest.mark.usefixtures("lazy_graph")
def test_no_op_manipulations_add_no_node():
    x = la.asarray(A) + 1
    node = x._node
    for result in (la.reshape(x, (2, 3)), la.reshape(x, (2, -1), order="F"),
                   la.transpose(x, (0, 1)), la.permute_dims(x, (-2, -1)), la.squeeze(x),
                   la.moveaxis(x, 0, 0), la.swapaxes(x, 1, 1), la.broadcast_to(x, (2, 3)),
                   la.concatenate([x]), la.tile(x, (1, 1)), la.repeat(x, 1, axis=0),
                   la.roll(x, 3, axis=1), la.rot90(x, 4), la.pad(x, 0, "reflect"),
                   la.atleast_2d(x), la.split(x, 1)[0], la.flip(x, ())):
        assert result._node is node
    assert la.ravel(la.asarray(np.ones(4)) + 1)._node.op.name == "add"


@pytest.mark.usefixtures("lazy_graph")
def test_building_manipulations_computes_nothing():
    x = la.asarray(B) * 2
    with la.count_flushes() as flushes:
        parts = [la.reshape(x, (6, -1), order="F"), la.moveaxis(x, 0, -1),
                 la.concatenate([x, x], axis=1), la.stack([x, x], -1), la.hstack([x, x]),
                 la.tile(x, (2, 1, 1, 1)), la.repeat(x, 3, axis=2), la.flip(x),
                 la.roll(x, (1, -5), axis=(0, 2)), la.rot90(x, 3), la.unstack(x)[1],
                 la.array_split(x, 3, axis=2)[2],
                 la.pad(x, ((1, 2), (3, 0), (0, 5)), "reflect", reflect_type="odd"),
                 la.pad(x, 2, "linear_ramp", end_values=7), la.pad(x, 1, "mean"),
                 la.pad(x, 3, "wrap"), la.pad(x, 1, constant_values=la.asarray(5) + 1)]
        assert all(isinstance(p, la.Array) for p in parts)
    assert flushes.count == 0
    # Counts of a repeat and pad widths are data that decide the shape: read, once each.
    with la.count_flushes() as flushes:
        la.repeat(x, la.asarray([1, 2]) + 1, axis=0)
        la.pad(x, la.asarray([1, 2]) - 1)
    assert dict(flushes.causes) == {"shape": 2}


def test_long_pad_and_roll_chains_match_numpy():
    a = np.arange(7.0)
    x = la.asarray(a)
    for k in range(30):
        a = np.roll(np.pad(a, 1, "symmetric")[1:-1], k)
        x = la.roll(la.pad(x, 1, "symmetric")[1:-1], k)
    assert_same(a, x)


@pytest.mark.parametrize("value", [np.zeros(()), np.zeros((2, 0, 3)), np.arange(5.0)])
def test_shape_inspection(value):
    for name in ("ndim", "shape", "size"):
        check_function(name, value)
    if value.ndim:
        check_function("size", value, -1)
        check_function("size", value, value.ndim)


def test_row_stack_is_vstack_with_numpys_warning():
    parts = [np.arange(3.0), np.ones((2, 3), np.int8)]
    with pytest.warns(DeprecationWarning) as record:
        result = la.row_stack(parts)
    assert record[0].filename == __file__
    with pytest.warns(DeprecationWarning):
        check(np.row_stack, la.row_stack, parts)
    np.testing.assert_array_equal(np.asarray(result), np.vstack(parts))
