"""Choosing values by condition or function, against NumPy: choose, select, piecewise,
apply_along_axis, apply_over_axes, array_equal, array_equiv, sinc, i0, unwrap,
real_if_close and einsum_path, on generated dtypes and shapes (0-d and size-0
included), NaN and infinities, plus bad input."""


import numpy as np
import pytest
from hypothesis import given, strategies as st
from hypothesis.extra import numpy as hnp

import lazyarr as la

from differential import check, check_function, clean
from strategies import FLOAT, INTEGER, NUMERIC, REAL, arrays

SMALL = dict(max_dims=3, max_side=4)


pytestmark = pytest.mark.usefixtures("quiet_warnings")


def some_array(data, dtypes=NUMERIC, **kwargs):
    return clean(data.draw(arrays(data.draw(st.sampled_from(dtypes)), **{**SMALL, **kwargs})))


@given(data=st.data())
def test_choose(data):
    shape = data.draw(hnp.array_shapes(min_dims=0, max_dims=2, min_side=0, max_side=3))
    n = data.draw(st.integers(1, 3))
    dtype = data.draw(st.sampled_from(INTEGER + FLOAT[2:]))
    a = data.draw(hnp.arrays(dtype, shape, elements=st.integers(-(dtype.kind != "u"), n)))
    choices = [some_array(data, shape=data.draw(st.sampled_from([shape, shape[1:], ()])))
               for _ in range(n)]
    mode = data.draw(st.sampled_from(["raise", "wrap", "clip", "bad"]))
    check_function("choose", a, choices, mode=mode)


@given(data=st.data())
def test_select(data):
    shape = data.draw(hnp.array_shapes(min_dims=0, max_dims=2, min_side=0, max_side=3))
    n = data.draw(st.integers(0, 3))
    conds = [data.draw(hnp.arrays(data.draw(st.sampled_from([np.bool_] * 3 + [np.int8])),
                                  shape)) for _ in range(n)]
    choices = [data.draw(st.one_of(st.integers(-3, 3), st.floats(-3, 3),
                                   arrays(data.draw(st.sampled_from(NUMERIC)),
                                          shape=data.draw(st.sampled_from([shape, ()])))))
               for _ in range(n + data.draw(st.sampled_from([0, 0, 1])))]
    default = data.draw(st.one_of(st.integers(-3, 3), st.just(np.float32(1.5))))
    check_function("select", conds, clean(choices), default)


@given(data=st.data())
def test_piecewise(data):
    x = some_array(data, REAL, min_dims=0, max_dims=2)
    conds = [x > 0, x < 0] if x.dtype != bool else [x]
    funcs = [lambda v: v * 2, 7, lambda v: v - v][:len(conds) + data.draw(st.integers(0, 1))]
    check(np.piecewise, la.piecewise, x, conds, funcs)
    check(np.piecewise, la.piecewise, x, conds, funcs[:1])


@given(data=st.data())
def test_apply_along_axis(data):
    x = some_array(data, REAL, min_dims=0)
    axis = data.draw(st.integers(-x.ndim - 1, x.ndim))
    for np_f, la_f in [(np.sum, la.sum), (np.sort, la.sort),
                       (lambda v: np.outer(v, v), lambda v: la.outer(v, v))]:
        check(lambda *a: np.apply_along_axis(np_f, *a),
              lambda *a: la.apply_along_axis(la_f, *a), axis, x)


@given(data=st.data())
def test_apply_over_axes(data):
    x = some_array(data, REAL, min_dims=1)
    axes = data.draw(st.one_of(st.integers(-x.ndim, x.ndim - 1),
                               st.lists(st.integers(-x.ndim, x.ndim - 1), max_size=3)))
    check(lambda a, ax: np.apply_over_axes(np.sum, a, ax),
          lambda a, ax: la.apply_over_axes(la.sum, a, ax), x, axes)


@given(data=st.data())
def test_array_equal_equiv(data):
    x = some_array(data)
    y = data.draw(st.sampled_from([x, x.copy(), x.reshape(-1)[:1], x.astype(np.complex128)]))
    if data.draw(st.booleans()) and x.size:
        y = y.copy()
        y.flat[0] = 1
    equal_nan = data.draw(st.booleans())
    check_function("array_equal", x, y, equal_nan)
    check_function("array_equiv", x, y)
    check_function("array_equiv", x, np.ones((7, 6)))


@pytest.mark.parametrize("name", ["sinc", "i0"])
@given(data=st.data())
def test_sinc_i0(name, data):
    x = some_array(data, NUMERIC, min_dims=0)
    check_function(name, x, rtol=1e-5 if x.dtype.itemsize >= 8 else None)


@given(data=st.data())
def test_i0_moderate_values(data):
    x = data.draw(hnp.arrays(np.float64, data.draw(hnp.array_shapes(max_dims=2)),
                             elements=st.floats(-30, 30)))
    check_function("i0", x)


@given(data=st.data())
def test_unwrap(data):
    x = some_array(data, REAL, min_dims=0, max_side=6)
    axis = data.draw(st.integers(-x.ndim - 1, x.ndim))
    discont = data.draw(st.none() | st.floats(0, 10))
    period = data.draw(st.sampled_from([2 * np.pi, 4, 5, 1.5]))
    check_function("unwrap", x, discont, axis, period=period, rtol=1e-9)


@given(data=st.data())
def test_real_if_close(data):
    x = some_array(data, NUMERIC, min_dims=0)
    if x.dtype.kind == "c" and data.draw(st.booleans()):
        x = (x.real + 1e-20j).astype(x.dtype)
    check_function("real_if_close", x, data.draw(st.sampled_from([100, 1e-3, 1])))


@given(data=st.data())
def test_einsum_path(data):
    n = data.draw(st.integers(1, 4))
    a, b, c = (np.ones(s) for s in [(n, 2), (2, 3), (3, n)])
    optimize = data.draw(st.sampled_from(["greedy", "optimal", True]))
    check_function("einsum_path", "ij,jk,kl->il", a, b, c, optimize=optimize)
    check_function("einsum_path", "ij,jk->ik", a, a)


def test_choose_scalars_out_and_bad_input():
    check_function("choose", np.array([0, 1], np.int8), [np.float32(1), 2.5])
    check_function("choose", [0, 1, 1], [1, 2.5])
    check_function("choose", [0, 1], [[1, 2], [3, 4]], out=[0, 0])
    check_function("choose", [0, 1], [[1, 2], [3, 4]], out=np.zeros(3))
    check_function("choose", [0, 1], [])
    out = la.zeros(2, int)
    result = la.choose(la.asarray([0, 1]), [[1.5, 2.0], [3.0, 4.0]], out=out)
    assert result is out and out.tolist() == [1, 4]
