"""Strict primitive rules (issue 15): a node that lazyarr itself builds wrong fails where
it is built, with a PrimitiveError naming the primitive, and the ufunc table is checked
against NumPy's loops when it loads. Each bad node here is built directly with
`_graph.apply`, as a mistake inside a public function would build it; each is paired
with the good node it was changed from, so the check is seen to accept what it should."""

from __future__ import annotations

import numpy as np
import pytest

import lazyarr as la
from lazyarr import _ops
from lazyarr._graph import apply, leaf
from lazyarr._registry import PrimitiveError


def node(shape=(3, 4), dtype=np.float64):
    value = np.zeros(shape, dtype)
    return leaf(value, value.shape, value.dtype)


def idx(values=(0, 1)):
    value = np.asarray(values, np.int64)
    return leaf(value, value.shape, value.dtype)


# (primitive, good build, bad build, words the error must hold)
CASES = [
    ("reduce_sum", lambda: apply("reduce_sum", node(), axes=(0, 1)),
     lambda: apply("reduce_sum", node(), axes=(0, 0)), "repeat an axis"),
    ("reduce_max", lambda: apply("reduce_max", node(), axes=(1,)),
     lambda: apply("reduce_max", node(), axes=(2,)), "not axes of a 2-d"),
    ("reduce_any", lambda: apply("reduce_any", node(dtype=bool), axes=(0,)),
     lambda: apply("reduce_any", node(), axes=(0,)), "not of kind b"),
    ("argmax", lambda: apply("argmax", node(), axis=1),
     lambda: apply("argmax", node(), axis=-1), "not an axis"),
    ("cumsum", lambda: apply("cumsum", node(), axis=0),
     lambda: apply("cumsum", node(), axis=2), "not an axis"),
    ("add", lambda: apply("add", node(), node()),
     lambda: apply("add", node(), node(dtype=np.float32)), "NumPy's loop"),
    ("add", lambda: apply("add", node(), node()),
     lambda: apply("add", node()), "takes 2 operand"),
    ("bitwise_and", lambda: apply("bitwise_and", node(dtype=np.int32), node(dtype=np.int32)),
     lambda: apply("bitwise_and", node(), node()), "not of kind b/i/u"),
    ("sin", lambda: apply("sin", node()),
     lambda: apply("sin", node(dtype=np.int64)), "NumPy's loop"),
    ("frexp", lambda: apply("frexp", node(), out=1),
     lambda: apply("frexp", node(), out=2), "no output"),
    ("real", lambda: apply("real", node(dtype=np.complex128)),
     lambda: apply("real", node()), "not of kind c"),
    ("complex", lambda: apply("complex", node(), node()),
     lambda: apply("complex", node(), node(dtype=np.float32)), "different dtypes"),
    ("select", lambda: apply("select", node(dtype=bool), node(), node()),
     lambda: apply("select", node(), node(), node()), "condition"),
    ("convert", lambda: apply("convert", node(), dtype=np.dtype(np.int8)),
     lambda: apply("convert", node(), dtype=np.int8), "not a dtype"),
    ("bitcast", lambda: apply("bitcast", node(), dtype=np.dtype(np.int32), shape=(3, 8)),
     lambda: apply("bitcast", node(), dtype=np.dtype(np.int32), shape=(24,)),
     "every axis but the last"),
    ("strided", lambda: apply("strided", node((12,)), shape=(4,), strides=(3,), offset=0),
     lambda: apply("strided", node((12,)), shape=(4,), strides=(3,), offset=3),
     "outside its 12 elements"),
    ("broadcast_to", lambda: apply("broadcast_to", node((1, 4)), shape=(3, 4)),
     lambda: apply("broadcast_to", node((2, 4)), shape=(3, 4)), "cannot broadcast"),
    ("reshape", lambda: apply("reshape", node(), shape=(12,)),
     lambda: apply("reshape", node(), shape=(11,)), "cannot reshape"),
    ("transpose", lambda: apply("transpose", node(), axes=(1, 0)),
     lambda: apply("transpose", node(), axes=(1, 1)), "not a permutation"),
    ("slice", lambda: apply("slice", node(), starts=(0, 0), stops=(3, 4), steps=(1, 1)),
     lambda: apply("slice", node(), starts=(0,), stops=(3,), steps=(1,)), "nonzero steps"),
    ("concatenate", lambda: apply("concatenate", node((3, 4)), node((2, 4)), axis=0),
     lambda: apply("concatenate", node((3, 4)), node((3, 2)), axis=0), "differ off axis"),
    ("concatenate", lambda: apply("concatenate", node(), node(), axis=1),
     lambda: apply("concatenate", node(), node(dtype=np.float32), axis=1),
     "different dtypes"),
    ("iota", lambda: apply("iota", shape=(3,), dtype=np.dtype(np.int64), axis=0),
     lambda: apply("iota", shape=(3,), dtype=np.dtype(np.int64), axis=1), "not an axis"),
    ("take", lambda: apply("take", node(), idx(), axis=1),
     lambda: apply("take", node(), node((2,)), axis=1), "indices"),
    ("boolean_index", lambda: apply("boolean_index", node(), node((3,), bool), count=2),
     lambda: apply("boolean_index", node(), node((4,), bool), count=2), "leading shape"),
    ("boolean_index", lambda: apply("boolean_index", node(), node((3, 4), bool), count=12),
     lambda: apply("boolean_index", node(), node((3, 4), bool), count=13), "count 13"),
    ("boolean_index", lambda: apply("boolean_index", node(), node((3,), bool), count=0),
     lambda: apply("boolean_index", node(), node((3,)), count=0), "not of kind b"),
    ("correlate", lambda: apply("correlate", node((5,)), node((3,)), mode=0),
     lambda: apply("correlate", node((3,)), node((5,)), mode=0), "len(a) >= len(v)"),
    ("normalize_index", lambda: apply("normalize_index", idx(), size=3, axis=0),
     lambda: apply("normalize_index", node((2,)), size=3, axis=0), "indices"),
    ("einsum", lambda: apply("einsum", node((3, 4)), node((4, 2)), subscripts="ij,jk->ik"),
     lambda: apply("einsum", node((3, 4)), node((3, 2)), subscripts="ij,jk->ik"),
     "has sizes"),
    ("einsum", lambda: apply("einsum", node((3, 4)), subscripts="ij->ji"),
     lambda: apply("einsum", node((3, 4)), subscripts="ij->ii"), "repeats a letter"),
    ("sort", lambda: apply("sort", node(), axis=1),
     lambda: apply("sort", node(), axis=2), "not an axis"),
    ("argsort", lambda: apply("argsort", node(), node(), axis=0),
     lambda: apply("argsort", node(), node((4, 3)), axis=0), "keys of shapes"),
    ("searchsorted", lambda: apply("searchsorted", node((4,)), node((2,)), side="left"),
     lambda: apply("searchsorted", node((4,)), node((2,), np.float32), side="left"),
     "different dtypes"),
    ("fft", lambda: apply("fft", node(dtype=np.complex128), kind="fft", axis=1, n=4, fct=1),
     lambda: apply("fft", node(), kind="fft", axis=1, n=4, fct=1), "fft of float64"),
    ("linalg_inv", lambda: apply("linalg_inv", node((3, 3)), checked=True),
     lambda: apply("linalg_inv", node((3, 4)), checked=True), "not square"),
    ("linalg_det", lambda: apply("linalg_det", node((3, 3))),
     lambda: apply("linalg_det", node((3, 3), np.float32)), "float64 or all complex128"),
    ("linalg_solve", lambda: apply("linalg_solve", node((3, 3)), node((3, 2))),
     lambda: apply("linalg_solve", node((3, 3)), node((4, 2))), "cannot solve"),
    ("update_slice", lambda: apply("update_slice", node(), node((2, 2)), idx(), steps=(1, 1)),
     lambda: apply("update_slice", node(), node((2, 2), np.int64), idx(), steps=(1, 1)),
     "values into"),
    ("scatter", lambda: apply("scatter", node((4,)), idx(), node((2,)), unique=True),
     lambda: apply("scatter", node((4,)), node((2,)), node((2,)), unique=True), "positions"),
]


@pytest.mark.parametrize("name, good, bad, words", CASES,
                         ids=[f"{c[0]}-{i}" for i, c in enumerate(CASES)])
def test_a_bad_node_fails_where_it_is_built_naming_its_primitive(name, good, bad, words):
    good()
    with pytest.raises(PrimitiveError, match=f"internal error: primitive '{name}'") as info:
        bad()
    assert words in str(info.value)


def test_user_errors_stay_numpys():
    """The public functions still raise NumPy's own errors, before any rule runs."""
    with pytest.raises(ValueError, match="could not be broadcast|shape mismatch"):
        la.add(la.ones(3), la.ones(4))
    with pytest.raises(TypeError):
        la.bitwise_and(la.ones(3), la.ones(3))
    with pytest.raises(np.exceptions.AxisError):
        la.sum(la.ones((2, 3)), axis=2)
    with pytest.raises(ValueError, match="duplicate value in 'axis'"):
        la.sum(la.ones((2, 3)), axis=(0, 0))
    np.testing.assert_array_equal(la.sum(la.ones((2, 3)), axis=(0, 1)), 6.0)


@pytest.mark.parametrize("entry, category", [("sin", "real"), ("add", "integer"),
                                             ("gcd", "real"), ("absolute", "any"),
                                             ("equal", "integer"), ("hypot", "reals")])
def test_the_ufunc_table_is_checked_when_it_loads(monkeypatch, entry, category):
    _ops.validate_ufunc_table()
    monkeypatch.setitem(_ops.UFUNCS, entry, category)
    with pytest.raises(RuntimeError, match=f"UFUNCS entry '{entry}'"):
        _ops.validate_ufunc_table()


def test_the_table_check_knows_the_multi_output_ufuncs(monkeypatch):
    monkeypatch.delitem(_ops.MULTI_OUTPUT, "modf")
    with pytest.raises(RuntimeError, match="'modf': 2 outputs"):
        _ops.validate_ufunc_table()
