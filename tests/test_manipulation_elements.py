"""NumPy's array manipulation routines that join arrays, add or remove elements and roll
axes, against NumPy: block, delete, insert, resize, trim_zeros and rollaxis, on
generated dtypes and shapes (0-d and size-0 included), plus bad input."""

import numpy as np
import pytest
from hypothesis import given, strategies as st
from hypothesis.extra import numpy as hnp

from differential import check_function, clean
from strategies import NUMERIC, arrays

SMALL = dict(max_dims=3, max_side=4)


pytestmark = pytest.mark.usefixtures("quiet_warnings")


def some_array(data, dtypes=NUMERIC, **kwargs):
    return clean(data.draw(arrays(data.draw(st.sampled_from(dtypes)), **{**SMALL, **kwargs})))


# ----- joining --------------------------------------------------------------------

@given(data=st.data())
def test_block(data):
    dtype = data.draw(st.sampled_from(NUMERIC))
    a = some_array(data, [dtype], min_dims=0, max_dims=2, min_side=1, max_side=2)
    b = some_array(data, NUMERIC, shape=a.shape)
    check_function("block", [a, b])
    check_function("block", [[a, b], [b, a]])
    check_function("block", [[a], [b]])
    check_function("block", a)


def test_block_bad_input():
    a = np.ones((2, 2))
    for arrays_ in ([], [[]], [a, [a]], (a, a), [[a, a], a], [a, np.ones((3, 3))]):
        check_function("block", arrays_)
    check_function("block", [1, 2.5, 3])
    check_function("block", [[1, 2], [3, 4]])



# ----- adding and removing elements --------------------------------------------------

def array_axis_length(data):
    """An array, an axis for delete/insert (None, in range or not), and the length of
    what that axis indexes."""
    x = some_array(data, min_dims=0)
    axis = data.draw(st.one_of(st.none(), st.integers(-x.ndim - 1, x.ndim)))
    n = x.size if axis is None or x.ndim == 0 else x.shape[axis % max(x.ndim, 1)]
    return x, axis, n


@given(data=st.data())
def test_delete(data):
    x, axis, n = array_axis_length(data)
    obj = data.draw(st.one_of(
        st.integers(-n - 1, n),
        st.builds(slice, st.none() | st.integers(-5, 5), st.none() | st.integers(-5, 5),
                  st.none() | st.integers(-2, 2).filter(bool)),
        st.lists(st.integers(-n - 1, n), max_size=4),
        hnp.arrays(bool, n),
        st.just([])))
    check_function("delete", x, obj, axis)


@given(data=st.data())
def test_insert(data):
    x, axis, n = array_axis_length(data)
    obj = data.draw(st.one_of(
        st.integers(-n - 1, n + 1),
        st.builds(slice, st.none() | st.integers(-5, 5), st.none() | st.integers(-5, 5)),
        st.lists(st.integers(-n, n), max_size=3),
        st.just([])))
    values = data.draw(st.one_of(st.integers(-3, 3), st.floats(-3, 3),
                                 st.lists(st.integers(-3, 3), min_size=1, max_size=3)))
    check_function("insert", x, obj, values, axis)


def test_insert_delete_lazy_obj_and_errors():
    x = np.arange(12.0).reshape(3, 4)
    check_function("insert", x, np.array([1, 1]), np.array([[7.0], [8.0], [9.0]]), 1)
    check_function("insert", x, 2, np.array([5, 6, 7, 8]), 0)
    check_function("delete", x, np.array([0, 2]), 1)
    check_function("delete", x, np.array([True, False, True]), 0)
    check_function("delete", x, np.array([True, False]), 0)
    check_function("delete", x, np.array([0.5]), 0)
    check_function("insert", x, np.ones((2, 2), int), 1, 0)


@pytest.mark.parametrize("obj", [2, [5, 1], [0, 1], slice(0, 9)])
def test_insert_checks_indices_before_converting_values(obj):
    """NumPy reports a bad index before a value its dtype cannot hold."""
    for a in (np.array(0, np.uint8), np.arange(3, dtype=np.uint8)):
        check_function("insert", a, obj, -1)
        check_function("insert", a, obj, 7)


@given(data=st.data())
def test_resize(data):
    x = some_array(data, min_dims=0)
    shape = data.draw(st.one_of(st.integers(-1, 7), st.lists(st.integers(-1, 4), max_size=3)))
    check_function("resize", x, shape)


@given(data=st.data())
def test_trim_zeros(data):
    dtype = data.draw(st.sampled_from(NUMERIC))
    x = data.draw(hnp.arrays(dtype, data.draw(hnp.array_shapes(min_dims=0, max_dims=2,
                                                               min_side=0, max_side=5)),
                             elements=st.sampled_from([0, 0, 1, 2]).map(dtype.type)))
    trim = data.draw(st.sampled_from(["fb", "f", "b", "BF", "x"]))
    axis = data.draw(st.one_of(st.none(), st.integers(-x.ndim - 1, x.ndim)))
    check_function("trim_zeros", x, trim, axis)



# ----- transpose-like --------------------------------------------------------------

@given(data=st.data())
def test_rollaxis(data):
    x = some_array(data, min_dims=0)
    n = x.ndim
    check_function("rollaxis", x, data.draw(st.integers(-n - 1, n)),
                   data.draw(st.integers(-n - 2, n + 1)))

