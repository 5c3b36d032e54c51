"""Products and contractions against NumPy: dot, matmul, tensordot, einsum, inner,
outer, vdot, vecdot, matvec, vecmat, kron, cross, diagonal, trace.

The order in which a contraction adds its products is not part of NumPy's contract
(BLAS, einsum's loops and XLA all differ), so float and complex operands hold small
integers (every sum is exact in any order) plus NaN, infinities and -0.0; integer
operands sharing one dtype take their full range (wrapping sums are exact in any
order too). Shapes include 0-d and size-0 ones, and mismatched ones for the errors.

Two NumPy behaviours are implementation accidents, not semantics, and the data avoids
them: complex infinities, also from a float inf promoted to complex (BLAS's zdotc,
NumPy's own complex loops and XLA give different NaN/inf parts for the same
product), and NaN or inf in a contraction with a one-element operand (NumPy's BLAS
path turns that operand into the alpha of ?scal, and OpenBLAS's ?scal with alpha 0
writes 0 where IEEE gives NaN)."""

import warnings

import numpy as np
import pytest
from hypothesis import assume, given, strategies as st
from hypothesis.extra import numpy as hnp

import lazyarr as la
from lazyarr._graph import topological_order

from differential import assert_same, check, check_function
from strategies import NUMERIC, elements, shapes

SPECIALS = [np.nan, np.inf, -np.inf, -0.0]
SMALL = st.integers(-4, 4)
HAS_MATVEC = hasattr(np, "matvec")


def exact_elements(dtype: np.dtype, wide: bool, infinities: bool = True):
    """Values whose sums of products do not depend on the order of the additions."""
    if dtype.kind in "iu" and wide:
        return elements(dtype)
    if dtype.kind == "b":
        return st.booleans()
    if dtype.kind == "u":
        return st.integers(0, 4)
    if dtype.kind == "i":
        return SMALL
    if dtype.kind == "c":
        return st.builds(complex, st.one_of(SMALL.map(float), st.just(np.nan)),
                         SMALL.map(float))
    return st.one_of(SMALL.map(float),
                     st.sampled_from(SPECIALS if infinities else [np.nan, -0.0]))


def operands(draw, shape_list, dtypes=NUMERIC, specials=None):
    """One array per shape: one shared dtype (integers then full range) or one each.
    NaN and inf only when no operand is a single element (see the module docstring),
    unless `specials` says otherwise."""
    if specials is None:
        specials = all(int(np.prod(s)) != 1 for s in shape_list)
    if draw(st.booleans()):
        dts = [draw(st.sampled_from(dtypes))] * len(shape_list)
    else:
        dts = [draw(st.sampled_from(dtypes)) for _ in shape_list]
    wide = len(set(dts)) == 1
    infinities = not any(np.dtype(dt).kind == "c" for dt in dts)
    out = []
    for dt, shape in zip(dts, shape_list):
        elems = exact_elements(np.dtype(dt), wide, infinities)
        if not specials and np.dtype(dt).kind == "f":
            elems = SMALL.map(float)
        elif not specials and np.dtype(dt).kind == "c":
            elems = st.builds(complex, SMALL, SMALL)
        out.append(draw(hnp.arrays(dt, shape, elements=elems, fill=st.nothing())))
    return out


# Mostly non-empty shapes, so that values matter; size-0 ones a third of the time.
SHAPES = st.one_of(shapes(max_dims=3, min_side=1, max_side=3),
                   shapes(max_dims=3, min_side=1, max_side=3), shapes(max_dims=3, max_side=3))


def _patch(shape: tuple, axis: int, size: int) -> tuple:
    return shape[:axis] + (size,) + shape[axis + 1:]


def gufunc_shapes(draw, signature: str):
    """Shapes that fit a gufunc signature, sometimes with one core size changed."""
    found = draw(hnp.mutually_broadcastable_shapes(signature=signature, max_dims=2,
                                                   max_side=3, min_side=0))
    sa, sb = found.input_shapes
    if draw(st.integers(0, 4)) == 0 and sb:
        sb = _patch(sb, len(sb) - 1, draw(st.integers(0, 4)))
    return sa, sb


# ----- dot, inner, vdot, outer, kron --------------------------------------------

@given(data=st.data())
def test_dot(data):
    sa, sb = data.draw(SHAPES), data.draw(SHAPES)
    if sa and sb and data.draw(st.booleans()):
        k = max(len(sb) - 2, 0)
        sb = _patch(sb, k, sa[-1])
    a, b = operands(data.draw, [sa, sb])
    check_function("dot", a, b)
    check(lambda x, y: x.dot(y), lambda x, y: x.dot(y), a, b)


@given(data=st.data())
def test_inner(data):
    sa, sb = data.draw(SHAPES), data.draw(SHAPES)
    if sa and sb and data.draw(st.booleans()):
        sb = _patch(sb, len(sb) - 1, sa[-1])
    check_function("inner", *operands(data.draw, [sa, sb]))


@given(data=st.data())
def test_vdot(data):
    sa = data.draw(SHAPES)
    sb = data.draw(st.sampled_from([sa[::-1], (int(np.prod(sa)),), (1,) + sa]))
    if data.draw(st.integers(0, 4)) == 0:
        sb = data.draw(SHAPES)
    check_function("vdot", *operands(data.draw, [sa, sb]))


@given(data=st.data())
def test_outer(data):
    check_function("outer", *operands(data.draw, [data.draw(SHAPES), data.draw(SHAPES)],
                                     specials=True))


@given(data=st.data())
def test_kron(data):
    check_function("kron", *operands(data.draw, [data.draw(SHAPES), data.draw(SHAPES)],
                                     specials=True))


def test_python_scalars_are_strong():
    """dot and friends convert Python numbers with np.asarray: int64, float64."""
    i8 = np.arange(3, dtype=np.int8)
    f32 = np.arange(3, dtype=np.float32)
    for name in ("dot", "inner", "outer", "kron"):
        check_function(name, 2, i8)
        check_function(name, f32, 2.5)
        check_function(name, True, np.array([True, False]))
    check_function("vdot", 3, np.array([2], np.int8))


def test_bool_operand_keeps_nan_times_zero():
    """False cast to 0.0 times NaN is NaN, as in NumPy (XLA's simplifier must not turn
    convert(bool) * x into select(bool, x, 0))."""
    a, b = np.array([False, False]), np.array([0.0, np.nan], np.float32)
    for name in ("dot", "vdot", "inner", "matmul", "vecdot"):
        check_function(name, a, b)
    check_function("einsum", "i,i", a, b)


@pytest.mark.parametrize("dtypes", [(np.complex128, np.complex128), (np.complex64, np.float32),
                                    (np.float64, np.complex64), (np.int8, np.complex128)])
def test_complex_conjugation(dtypes):
    """vdot, vecdot and vecmat conjugate their first operand; the others never do."""
    def make(values, dtype):
        return (values if np.dtype(dtype).kind == "c" else values.real).astype(dtype)
    a = make(np.arange(6).reshape(2, 3) * (1 - 2j) + 1j, dtypes[0])
    b = make(np.arange(6).reshape(2, 3) * (2 + 1j) - 3, dtypes[1])
    for name, args in [("vdot", (a, b)), ("vecdot", (a, b)), ("inner", (a, b)),
                       ("dot", (a, b.T)), ("matmul", (a, b.T)), ("tensordot", (a, b)),
                       ("einsum", ("ij,ij", a, b)), ("outer", (a, b)), ("kron", (a, b))]:
        check_function(name, *args)
    if HAS_MATVEC:
        check_function("vecmat", a[0], b.T)
        check_function("matvec", a, b[0])


def test_bool_products_are_or_of_ands():
    a = np.array([[True, False], [False, False]])
    b = np.array([[True, True], [True, False]])
    for name in ("dot", "matmul", "inner", "vdot", "tensordot"):
        check_function(name, a, b)


# ----- matmul and the other gufuncs --------------------------------------------------

@given(data=st.data())
def test_matmul(data):
    sa, sb = gufunc_shapes(data.draw, "(n?,k),(k,m?)->(n?,m?)")
    if data.draw(st.integers(0, 9)) == 0:
        sa, sb = data.draw(SHAPES), data.draw(SHAPES)  # 0-d and mismatches
    a, b = operands(data.draw, [sa, sb])
    check_function("matmul", a, b)
    check(lambda x, y: x @ y, lambda x, y: x @ y, a, b)


@given(data=st.data())
def test_vecdot(data):
    sa, sb = gufunc_shapes(data.draw, "(n),(n)->()")
    check_function("vecdot", *operands(data.draw, [sa, sb]))


@given(data=st.data())
def test_vecdot_axis(data):
    sa = data.draw(shapes(min_dims=1, max_dims=3, max_side=3))
    axis = data.draw(st.integers(-4, 3))
    sb = sa[data.draw(st.integers(0, len(sa))):]
    check_function("vecdot", *operands(data.draw, [sa, sb]), axis=axis)


@pytest.mark.skipif(not HAS_MATVEC, reason="numpy.matvec and vecmat are NumPy >= 2.2")
@pytest.mark.parametrize("name,signature", [("matvec", "(m,n),(n)->(m)"),
                                            ("vecmat", "(n),(n,m)->(m)")])
@given(data=st.data())
def test_matvec_vecmat(name, signature, data):
    sa, sb = gufunc_shapes(data.draw, signature)
    if data.draw(st.integers(0, 9)) == 0:
        sa, sb = data.draw(SHAPES), data.draw(SHAPES)
    check_function(name, *operands(data.draw, [sa, sb]))


@pytest.mark.filterwarnings("ignore::numpy.exceptions.ComplexWarning")
@pytest.mark.parametrize("name", ["matmul", "vecdot"] + (["matvec", "vecmat"] if HAS_MATVEC
                                                         else []))
@pytest.mark.parametrize("dtype", [None, np.float32, np.int8, np.complex64, np.bool_])
@pytest.mark.parametrize("casting", ["same_kind", "unsafe", "safe", "no", "bogus"])
def test_gufunc_dtype_and_casting(name, dtype, casting):
    shapes_ = {"matmul": ((2, 3), (3, 2)), "vecdot": ((2, 3), (3,)),
               "matvec": ((2, 3), (3,)), "vecmat": ((3,), (3, 2))}[name]
    a = (np.arange(np.prod(shapes_[0])).reshape(shapes_[0]) % 3).astype(np.int16)
    b = np.arange(np.prod(shapes_[1]), dtype=np.float32).reshape(shapes_[1]) - 2
    check_function(name, a, b, dtype=dtype, casting=casting)


def test_matmul_errors():
    check_function("matmul", np.ones(3), 2.0)
    check_function("matmul", np.array(2.0), np.ones(3))
    check_function("matmul", np.ones((2, 3)), np.ones(4))
    check_function("matmul", np.ones((2, 2, 3)), np.ones((3, 3, 4)))
    check_function("vecdot", np.ones((2, 3)), np.ones(3), axis=5)
    check_function("vecdot", np.ones(3), np.ones(2))


def test_out():
    """out= rebinds the given lazyarr array, with each function's casting rule."""
    a, b = np.arange(6.0).reshape(2, 3), np.arange(6.0).reshape(3, 2)
    for func, args, targets in [
            ("matmul", (a, b), [np.zeros((2, 2)), np.zeros((2, 2), np.float32),
                                np.zeros((2, 2), np.int8)]),
            ("dot", (a, b), [np.zeros((2, 2)), np.zeros((2, 2), np.float32)]),
            ("einsum", ("ij,jk", a, b), [np.zeros((2, 2)), np.zeros((2, 2), np.float32),
                                         np.zeros((2, 2), np.complex64)]),
            ("outer", (a, b), [np.zeros((6, 6)), np.zeros((6, 6), np.int8)]),
            ("trace", (a,), [np.zeros(()), np.zeros((), np.int8)])]:
        for target in targets + [np.zeros(5)]:
            lazy_target = la.asarray(target)

            def la_func(*args, out, func=func, lazy_target=lazy_target):
                return getattr(la, func)(*args, out=lazy_target)

            result = check(getattr(np, func), la_func, *args, out=target.copy())
            assert result is None or result is lazy_target


def test_out_must_be_lazy():
    with pytest.raises(TypeError):
        la.matmul(la.ones((2, 2)), la.ones((2, 2)), out=np.zeros((2, 2)))


# ----- tensordot ------------------------------------------------------------------

@given(data=st.data())
def test_tensordot_int_axes(data):
    sa, sb = data.draw(SHAPES), data.draw(SHAPES)
    n = data.draw(st.integers(-1, 3))
    if data.draw(st.booleans()) and 0 < n <= min(len(sa), len(sb)):
        sb = sa[len(sa) - n:] + sb[n:]
    check_function("tensordot", *operands(data.draw, [sa, sb]), axes=n)


@given(data=st.data())
def test_tensordot_axis_pairs(data):
    sa, sb = data.draw(SHAPES), data.draw(SHAPES)
    ax_a = data.draw(st.lists(st.integers(-3, 3), max_size=3))
    ax_b = data.draw(st.lists(st.integers(-3, 3), max_size=3))
    if data.draw(st.booleans()):  # mostly valid: distinct in-range axes of equal sizes
        ax_a = data.draw(st.permutations(range(len(sa))))[:data.draw(st.integers(0, len(sa)))]
        ax_b = data.draw(st.permutations(range(len(sb))))[:len(ax_a)]
        ax_a = ax_a[:len(ax_b)]
        for i, j in zip(ax_a, ax_b):
            sb = _patch(sb, j, sa[i])
        ax_a = [i - len(sa) if data.draw(st.booleans()) else i for i in ax_a]
    axes = (ax_a, ax_b)
    if len(ax_a) == 1 and len(ax_b) == 1 and data.draw(st.booleans()):
        axes = (ax_a[0], ax_b[0])
    check_function("tensordot", *operands(data.draw, [sa, sb]), axes=axes)


def test_tensordot_bad_axes():
    a, b = np.ones((2, 3)), np.ones((3, 2))
    for axes in [(1,), 1.0, ([0, 0], [0, 1]), ([1], [0, 1]), ([5], [0]), ([1, -1], [0, 1]),
                 (1, 2, 3), 3]:
        check_function("tensordot", a, b, axes=axes)


# ----- einsum ---------------------------------------------------------------------

@st.composite
def einsum_problems(draw):
    """Random subscripts (repeated letters, broadcasting, '...', implicit or explicit
    output, uppercase labels) with shapes that mostly fit them."""
    nops = draw(st.integers(1, 3))
    pool = "abcE"
    sizes = {c: draw(st.integers(0, 3)) for c in pool}
    ellipsis = draw(st.booleans())
    ell_shapes = draw(hnp.mutually_broadcastable_shapes(
        num_shapes=nops, max_dims=2, max_side=3)).input_shapes
    terms, shape_list = [], []
    for k in range(nops):
        letters = "".join(draw(st.lists(st.sampled_from(pool), max_size=3)))
        shape = tuple(1 if draw(st.integers(0, 6)) == 0 else sizes[c] for c in letters)
        if ellipsis:
            pos = draw(st.integers(0, len(letters)))
            letters = letters[:pos] + "..." + letters[pos:]
            shape = shape[:pos] + ell_shapes[k] + shape[pos:]
        terms.append(letters)
        shape_list.append(shape)
    subscripts = ",".join(terms)
    used = sorted(set(subscripts) - set(".,"))
    if draw(st.booleans()):
        out = "".join(draw(st.lists(st.sampled_from(used), unique=True))) if used else ""
        if ellipsis and draw(st.integers(0, 5)):
            pos = draw(st.integers(0, len(out)))
            out = out[:pos] + "..." + out[pos:]
        subscripts += "->" + out
    else:
        out = "".join(c for c in used if subscripts.count(c) == 1)
    # A summed letter missing from an operand lets an implementation factor that
    # operand out of the sum, which changes NaN * 0 and empty sums: NumPy's own
    # einsum differs there between optimize=False and optimize=True.
    factorable = any(c not in t for c in set(used) - set(out) for t in terms)
    return subscripts, shape_list, factorable


def _zero_then_other(subscripts: str, shape_list) -> bool:
    """A repeated letter of one operand with sizes 0 and n: NumPy's single-operand view
    path takes 0 for "not seen yet" and returns a shape-(n,) view of an empty array;
    lazyarr raises ValueError as NumPy's other paths do."""
    for term, shape in zip(subscripts.split("->")[0].split(","), shape_list):
        if "..." in term:
            i = term.index("...")
            term = term[:i] + "." * (len(shape) - len(term) + 3) + term[i + 3:]
        sizes = {}
        for c, n in zip(term, shape):
            sizes.setdefault(c, set()).add(n)
        if any(0 in v and len(v) > 1 for c, v in sizes.items() if c != "."):
            return True
    return False


@given(problem=einsum_problems(), data=st.data())
def test_einsum(problem, data):
    subscripts, shape_list, factorable = problem
    assume(not _zero_then_other(subscripts, shape_list))
    arrays = operands(data.draw, shape_list, specials=False if factorable else None)
    check_function("einsum", subscripts, *arrays)


@pytest.mark.filterwarnings("ignore::numpy.exceptions.ComplexWarning")
@given(data=st.data())
def test_einsum_dtype_and_casting(data):
    subscripts, shape_list = data.draw(st.sampled_from([
        ("ij,jk", [(2, 3), (3, 2)]), ("ij->", [(2, 2)]), ("ij->ji", [(2, 3)]),
        ("ii->i", [(3, 3)]), ("i,i", [(3,), (3,)])]))
    dtype = data.draw(st.sampled_from([None] + NUMERIC))
    casting = data.draw(st.sampled_from(["no", "equiv", "safe", "same_kind", "unsafe"]))
    arrays = operands(data.draw, shape_list, specials=False)
    check_function("einsum", subscripts, *arrays, dtype=dtype, casting=casting)


def test_einsum_python_scalars_and_0d():
    check_function("einsum", "i,->i", np.arange(3, dtype=np.float32), 2.0)
    check_function("einsum", "i,->i", np.arange(3, dtype=np.int8), 2)
    check_function("einsum", "", 3.0)
    check_function("einsum", "->", np.array(3.0))
    check_function("einsum", ",", np.array(2, np.int16), np.array(3, np.int16))


@pytest.mark.parametrize("subscripts,shape_list", [
    ("ij", [(2,)]), ("i", [(2, 2)]), ("i1", [(2, 2)]), ("i$", [(2, 2)]), ("i,i", [(2,)]),
    ("i", [(2,), (2,)]), ("ij->ii", [(2, 2)]), ("ij->k", [(2, 2)]), ("i->i->i", [(2,)]),
    ("i-i", [(2, 2)]), ("..i", [(2, 3)]), ("......", [(2, 3)]), ("...i->i", [(2, 3)]),
    ("ii", [(2, 3)]), ("ii->i", [(1, 3)]), ("i,i", [(2,), (3,)]), ("i...,i...", [(2, 1), (3,)]),
    ("...,...", [(2,), (3,)]), ("i->$", [(3,)]), ("ij,jk", [(2, 3), (1, 4)]),
    ("ii,i->i", [(1, 1), (3,)]), ("...i,...i->...", [(2, 3), (4, 1, 3)]), ("i->...i", [(3,)]),
    (" i j ", [(2, 3)]), ("Ba", [(2, 3)]), ("aB", [(2, 3)]), ("...", [(2, 3)]),
])
def test_einsum_subscripts(subscripts, shape_list):
    arrays = [np.arange(int(np.prod(s)), dtype=np.float64).reshape(s) for s in shape_list]
    check_function("einsum", subscripts, *arrays)


def test_einsum_sublists():
    x, y = np.arange(6.0).reshape(2, 3), np.arange(12.0).reshape(3, 4)
    check_function("einsum", x, [1, 0])
    check_function("einsum", x, [0, 26])
    check_function("einsum", x, [0, 1], y, [1, 2], [0, 2])
    check_function("einsum", x, [Ellipsis, 1], [Ellipsis])
    check_function("einsum", x, [Ellipsis, 1], [1])
    for bad in ([52, 0], [-1, 0], [True, 0], [0.5, 0]):
        check_function("einsum", x, bad)
    check_function("einsum", x, [0, 1], [0, 0])


def test_einsum_single_operand_view_ignores_dtype():
    """NumPy returns a view (its own dtype) when one operand is only rearranged."""
    x = np.arange(4, dtype=np.int8).reshape(2, 2)
    check_function("einsum", "ij->ji", x, dtype=np.float64)
    check_function("einsum", "ii->i", x, dtype=np.float64)
    check_function("einsum", "ij->i", x, dtype=np.float64)
    check_function("einsum", "ij->i", x.astype(float), dtype=np.int8)


# ----- cross ----------------------------------------------------------------------

@given(data=st.data())
def test_cross(data):
    found = data.draw(hnp.mutually_broadcastable_shapes(num_shapes=2, max_dims=2,
                                                        max_side=3))
    sa, sb = found.input_shapes
    da, db = data.draw(st.sampled_from([2, 3, 3, 4])), data.draw(st.sampled_from([2, 3, 3]))
    ia, ib = data.draw(st.integers(0, len(sa))), data.draw(st.integers(0, len(sb)))
    sa, sb = sa[:ia] + (da,) + sa[ia:], sb[:ib] + (db,) + sb[ib:]
    kwargs = {"axisa": ia - data.draw(st.sampled_from([0, len(sa)])),
              "axisb": ib, "axisc": data.draw(st.integers(-4, 3))}
    if data.draw(st.integers(0, 4)) == 0:
        kwargs = {"axis": data.draw(st.integers(-3, 2))}
    arrays = operands(data.draw, [sa, sb], specials=True)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        check_function("cross", *arrays, **kwargs)


def test_cross_2d_vectors_warn_and_errors():
    a, b = np.array([1.0, 2.0]), np.array([4.0, 5.0, 6.0])
    with pytest.warns(DeprecationWarning) as record:
        la.cross(la.asarray(a), la.asarray(b))
    assert record[0].filename == __file__  # reported at the caller's line
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        check_function("cross", a, a)  # the z component, a 0-d array
        assert repr(la.cross(la.asarray(a), la.asarray(a))) == repr(np.cross(a, a))
    check_function("cross", 2.0, b)
    check_function("cross", np.ones(4), b)
    check_function("cross", np.ones(3, bool), np.ones(3, bool))
    check_function("cross", b, b, axisa=3)
    check_function("cross", b, b, axisc=3)
    check_function("cross", np.ones((2, 3)), np.ones((3, 3)))


# ----- diagonal, trace --------------------------------------------------------------

@given(data=st.data())
def test_diagonal(data):
    (x,) = operands(data.draw, [data.draw(shapes(max_dims=4, max_side=4))], specials=True)
    offset = data.draw(st.integers(-5, 5))
    axis1, axis2 = data.draw(st.integers(-4, 3)), data.draw(st.integers(-4, 3))
    check_function("diagonal", x, offset, axis1, axis2)
    check(lambda v: v.diagonal(offset, axis1, axis2),
          lambda v: v.diagonal(offset, axis1, axis2), x)


@pytest.mark.filterwarnings("ignore::numpy.exceptions.ComplexWarning")
@given(data=st.data())
def test_trace(data):
    (x,) = operands(data.draw, [data.draw(shapes(max_dims=4, max_side=4))], specials=True)
    offset = data.draw(st.integers(-5, 5))
    axis1, axis2 = data.draw(st.integers(-3, 2)), data.draw(st.integers(-3, 2))
    # Only dtypes NumPy reaches with same_kind casts: a NaN cast to an integer is
    # undefined behaviour and differs between backends.
    dtype = data.draw(st.sampled_from([None] + [d for d in NUMERIC
                                                if np.can_cast(x.dtype, d, "same_kind")]))
    check_function("trace", x, offset, axis1, axis2, dtype)
    check(lambda v: v.trace(offset, axis1, axis2, dtype),
          lambda v: v.trace(offset, axis1, axis2, dtype), x)


def test_diagonal_and_trace_bad_arguments():
    x = np.ones((2, 3))
    check_function("diagonal", x, 1.5)
    check_function("trace", x, 1.0)
    check_function("diagonal", np.ones(2))
    check_function("trace", np.ones(()))
    check_function("diagonal", x, 0, 1, -1)
    check_function("trace", x, 0, 3, 0)


# ----- laziness, graph shape, dispatch, printing ----------------------------------

def test_everything_is_lazy_and_contractions_are_one_einsum():
    a, b = la.asarray(np.ones((2, 3, 4))), la.asarray(np.ones((2, 4, 5)))
    c = la.asarray(np.ones(3) + 1j)
    with warnings.catch_warnings(), la.count_flushes() as counter:
        warnings.simplefilter("ignore", DeprecationWarning)
        results = [la.dot(a, b), la.matmul(a, b), a @ b, la.tensordot(a, b, ([2], [1])),
                   la.einsum("...ij,...jk", a, b), la.inner(a, a), la.vdot(c, c),
                   la.vecdot(a, a), la.outer(a, b), la.kron(a, b), la.trace(a),
                   la.diagonal(a, 1), la.cross(c, c),
                   la.einsum("ii->i", la.ones((3, 3)))]
    assert counter.count == 0
    for r in results[:5]:
        pending = [n for n in topological_order([r._node]) if not n.is_computed]
        assert [n.op.name for n in pending] == ["einsum"], [n.op.name for n in pending]
    # A broadcast batch axis of size 1 is squeezed away, never materialized by broadcast_to.
    r = la.matmul(a, la.asarray(np.ones((1, 4, 5))))
    pending = [n for n in topological_order([r._node]) if not n.is_computed]
    assert [n.op.name for n in pending] == ["reshape", "einsum"]


def test_numpy_functions_dispatch_lazily():
    a, b = la.asarray(np.arange(6.0).reshape(2, 3)), la.asarray(np.arange(6.0).reshape(3, 2))
    for func, args in [(np.dot, (a, b)), (np.einsum, ("ij,kj", a, a)),
                       (np.tensordot, (a, a, 2)), (np.trace, (a,)), (np.diagonal, (a,)),
                       (np.kron, (a, a)), (np.outer, (a, a)), (np.inner, (a, a))]:
        result = func(*args)
        assert isinstance(result, la.Array), func
        np.testing.assert_array_equal(np.asarray(result),
                                      func(*[np.asarray(x) if isinstance(x, la.Array) else x
                                             for x in args]))


def test_zero_dim_results_print_as_numpy_does():
    v = np.arange(3.0)
    x = la.asarray(v)
    assert repr(la.dot(x, x)) == repr(np.dot(v, v))
    assert repr(la.matmul(x, x)) == repr(np.matmul(v, v))
    assert repr(la.einsum("i,i", x, x)) == repr(np.einsum("i,i", v, v))
    assert repr(la.tensordot(x, x, 1)) == repr(np.tensordot(v, v, 1))
    assert repr(la.trace(la.asarray(np.eye(2)))) == repr(np.trace(np.eye(2)))


@pytest.mark.parametrize("name", ["matmul", "vecdot", "matvec", "vecmat"])
def test_numpy_ufunc_contractions_dispatch_lazily(name):
    """np.matmul and friends are ufuncs: NEP 13 routes them to lazyarr, no fallback."""
    a, b = np.arange(6.0).reshape(2, 3), np.arange(3.0)
    if name == "matmul":
        b = b.reshape(3, 1)
    args = (b, a.T) if name == "vecmat" else (a, b)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        result = getattr(np, name)(la.asarray(args[0]), args[1])
    assert isinstance(result, la.Array)
    assert_same(getattr(np, name)(*args), result)
