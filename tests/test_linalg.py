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

@pytest.mark.usefixtures("lazy_graph")
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


# =================================================================================
# numpy.linalg: solvers, decompositions, norms (lazyarr.linalg).
#
# NumPy computes in double precision and casts to its result type, so float32 results
# agree to an ulp and float64 ones to LAPACK's rounding: values are compared with
# tolerances of that size. Inputs are small integers, made diagonally dominant (so
# well conditioned and never singular) where a function needs an invertible matrix.
# Decompositions that are unique only up to signs or phases (eigenvectors, singular
# vectors, Q) are checked by their dtypes, shapes and reconstructions.

from numpy.linalg import LinAlgError  # noqa: E402

from lazyarr import _flush  # noqa: E402

LINALG_DTYPES = [np.bool_, np.int8, np.uint8, np.int64, np.float16, np.float32, np.float64,
                 np.complex64, np.complex128]
BATCHES = hnp.array_shapes(min_dims=0, max_dims=2, min_side=0, max_side=2)


def tolerance(*arrays):
    """(rtol, atol) for results of these inputs: single precision or double."""
    single = all(np.dtype(a.dtype) in (np.float32, np.complex64)
                 for a in arrays if np.dtype(a.dtype).kind in "fc")
    single = single and any(np.dtype(a.dtype).kind in "fc" for a in arrays)
    return (2e-5, 2e-5) if single else (1e-9, 1e-9)


def small_ints(draw, shape, dtype, low=-3, high=3):
    values = draw(hnp.arrays(np.int8, shape, elements=st.integers(low, high)))
    result = values.astype(np.float64)
    if np.dtype(dtype).kind == "c":
        result = result + 1j * draw(hnp.arrays(np.int8, shape, elements=st.integers(low, high)))
    return result


def cast(values, dtype):
    dtype = np.dtype(dtype)
    if dtype.kind == "b":
        return np.broadcast_to(np.eye(*values.shape[-2:], dtype=bool), values.shape).copy()
    return (np.abs(values) if dtype.kind == "u" else values).astype(dtype)


@st.composite
def matrices(draw, square=True, dtypes=LINALG_DTYPES, dominant=True, max_side=4):
    """Stacks of matrices; square ones diagonally dominant when asked (invertible)."""
    dtype = draw(st.sampled_from(dtypes))
    n = draw(st.integers(0, max_side))
    m = n if square else draw(st.integers(0, max_side))
    values = small_ints(draw, draw(BATCHES) + (n, m), dtype)
    if square and dominant:
        values = values + (4 * n + 1) * np.eye(n)
    return cast(values, dtype)


@st.composite
def hermitian_pd(draw, dtypes=LINALG_DTYPES, max_side=4):
    """Hermitian positive definite stacks: b b^H + I with small integers."""
    dtype = draw(st.sampled_from(dtypes))
    n = draw(st.integers(0, max_side))
    b = small_ints(draw, draw(BATCHES) + (n, n), dtype, -2, 2)
    return cast(b @ np.conj(np.swapaxes(b, -1, -2)) + np.eye(n), dtype)


def plain(func):
    """`func` with namedtuple results as plain tuples (the harness rebuilds sequences
    by their type, which a namedtuple does not take; test_result_types checks them)."""
    def call(*args, **kwargs):
        result = func(*args, **kwargs)
        return tuple(result) if isinstance(result, tuple) else result
    return call


def lcheck(name, *args, **kwargs):
    """`check` for numpy.linalg's function `name` and lazyarr.linalg's (keywords go to
    both functions as given)."""
    rtol, atol = tolerance(*[a for a in args if isinstance(a, np.ndarray)])
    np_func, la_func = getattr(np.linalg, name), getattr(la.linalg, name)
    return check(plain(lambda *a: np_func(*a, **kwargs)), plain(lambda *a: la_func(*a, **kwargs)),
                 *args, rtol=rtol, atol=atol)


def host(x):
    return np.asarray(x)


# ----- solvers and determinants -------------------------------------------------

@given(a=matrices())
def test_inv_det_slogdet(a):
    for name in ("inv", "det", "slogdet"):
        lcheck(name, a)


@given(a=matrices(), data=st.data())
def test_solve(a, data):
    n, batch = a.shape[-1], a.shape[:-2]
    b_shape = data.draw(st.sampled_from([(n,), batch + (n, 2), batch[1:] + (n, 1),
                                         (n, 3), (n + 1,), batch + (n + 1, 2), ()]))
    b = cast(small_ints(data.draw, b_shape, np.float64), data.draw(st.sampled_from(
        [np.int16, np.float32, np.float64, np.complex64])))
    lcheck("solve", a, b)


@given(a=hermitian_pd(), upper=st.booleans())
def test_cholesky(a, upper):
    lcheck("cholesky", a, upper=upper)
    # Only one triangle is read: garbage in the other changes nothing.
    if a.shape[-1] > 1 and a.dtype.kind in "fc":
        junk = np.triu(np.full(a.shape[-2:], 7, a.dtype), 1)
        lcheck("cholesky", a + (junk.T if upper else junk), upper=upper)


def test_solver_errors_at_the_call():
    for name, args in [("inv", (np.ones((2, 3)),)), ("inv", (np.ones(3),)),
                       ("det", (np.ones((3, 2)),)), ("slogdet", (np.float64(2),)),
                       ("cholesky", (np.ones((2, 1)),)), ("solve", (np.eye(2), np.ones(3))),
                       ("solve", (np.ones((2, 3)), np.ones(2))),
                       ("solve", (np.ones((2, 2, 2)), np.ones((3, 2, 1)))),
                       ("inv", (np.eye(2, dtype=np.float16),)),
                       ("solve", (np.eye(2), np.ones(2, np.float16)))]:
        check(getattr(np.linalg, name), getattr(la.linalg, name), *args)
    with pytest.raises(LinAlgError):
        la.linalg.inv(np.ones((2, 3)))
    with pytest.raises(TypeError, match="float16"):
        la.linalg.det(np.eye(2, dtype=np.float16))


@pytest.mark.usefixtures("lazy_graph")
def test_value_errors_are_raised_at_materialization():
    """A singular matrix (inv, solve), one that is not positive definite (cholesky), NaN
    in an SVD: NumPy's LinAlgError, once the values are known."""
    singular = np.array([[[1.0, 2.0], [2.0, 4.0]], [[1.0, 0.0], [0.0, 1.0]]])
    cases = [lambda: la.linalg.inv(singular), lambda: la.linalg.solve(singular, np.ones(2)),
             lambda: la.linalg.cholesky(np.array([[1.0, 2.0], [2.0, 1.0]])),
             lambda: la.linalg.cholesky(-np.eye(2), upper=True),
             lambda: la.linalg.svd(np.array([[1.0, np.nan], [0.0, 1.0]]))[1],
             lambda: la.linalg.pinv(np.array([[1.0, np.nan], [0.0, 1.0]])),
             lambda: la.linalg.eigvals(np.array([[1j, np.inf], [0.0, 1.0]])),
             lambda: la.linalg.matrix_power(singular, -2),
             lambda: la.linalg.cond(singular, "nuc")]
    for make in cases:
        with _flush.count_flushes() as counter:
            result = make()
        assert counter.count == 0
        with pytest.raises(LinAlgError):
            host(result)
    # Real eig decides its result dtype from the values, so it raises at the call.
    with pytest.raises(LinAlgError):
        la.linalg.eig(np.array([[1.0, np.nan], [0.0, 1.0]]))
    # A NaN corner alone is no failure of the Cholesky factorization (OpenBLAS's potrf).
    nan_corner = np.array([[np.nan, 0.0], [0.0, 1.0]])
    np.testing.assert_array_equal(host(la.linalg.cholesky(nan_corner)),
                                  np.linalg.cholesky(nan_corner))


@pytest.mark.usefixtures("lazy_graph")
def test_failures_leave_other_work_usable():
    x = la.linalg.inv(np.zeros((2, 2)))
    with pytest.raises(LinAlgError):
        host(x)
    assert host(la.linalg.inv(np.eye(2)) + 1).tolist() == [[2.0, 1.0], [1.0, 2.0]]


# ----- decompositions -------------------------------------------------------------

def _ht(x):
    return np.conj(np.swapaxes(x, -1, -2))


def _assert_close(actual, expected, rtol, atol):
    np.testing.assert_allclose(actual, expected, rtol=rtol, atol=atol)


def _reference_types(np_result, la_result):
    """Same kind of result (namedtuple class), shapes and dtypes as NumPy's."""
    assert type(la_result) is type(np_result)
    for e, a in zip(np_result, la_result):
        assert isinstance(a, la.Array)
        assert (a.shape, a.dtype) == (e.shape, e.dtype)


@given(a=matrices(square=False, dominant=False), full=st.booleans())
def test_svd(a, full):
    if a.dtype == np.float16:
        return check(np.linalg.svd, la.linalg.svd, a)
    rtol, atol = tolerance(a)
    expected = np.linalg.svd(a, full_matrices=full)
    u, s, vh = result = la.linalg.svd(a, full_matrices=full)
    _reference_types(expected, result)
    u, s, vh = host(u), host(s), host(vh)
    _assert_close(s, expected.S, rtol, atol)
    k = s.shape[-1]
    _assert_close((u[..., :, :k] * s[..., None, :]) @ vh[..., :k, :], a, rtol, 10 * atol)
    for q in (u, _ht(vh)):
        _assert_close(_ht(q) @ q, np.broadcast_to(np.eye(q.shape[-1]), q.shape[:-2] +
                                                    (q.shape[-1],) * 2), rtol, 10 * atol)
    lcheck("svd", a, compute_uv=False)
    lcheck("svdvals", a)


@given(a=matrices(square=False, dominant=False), mode=st.sampled_from(["reduced", "complete"]))
def test_qr(a, mode):
    if a.dtype == np.float16:
        return check(np.linalg.qr, la.linalg.qr, a)
    rtol, atol = tolerance(a)
    expected = np.linalg.qr(a, mode=mode)
    q, r = result = la.linalg.qr(a, mode=mode)
    _reference_types(expected, result)
    q, r = host(q), host(r)
    _assert_close(q @ r, a, rtol, 10 * atol)
    np.testing.assert_array_equal(r, np.triu(r))
    _assert_close(_ht(q) @ q, np.broadcast_to(np.eye(q.shape[-1]), q.shape[:-2] +
                                                (q.shape[-1],) * 2), rtol, 10 * atol)


@pytest.mark.filterwarnings("ignore::DeprecationWarning")
@pytest.mark.parametrize("shape,dtype", [((4, 3), np.float64), ((3, 5), np.complex128),
                                         ((2, 3, 3), np.float32), ((2, 4, 2), np.complex64),
                                         ((0, 2), np.float64), ((2, 0), np.int64)])
def test_qr_r_raw_economic_match_lapack(shape, dtype):
    """R, and the Householder reflectors of mode="raw", are LAPACK's exactly (geqrf's
    conventions), not only up to signs."""
    values = np.random.default_rng(1).standard_normal(shape + (2,)) @ [1, 1j]
    a = (values if np.dtype(dtype).kind == "c" else values.real * 4).astype(dtype)
    for mode in ("r", "raw", "economic", "full"):
        lcheck("qr", a, mode=mode)
    check(np.linalg.qr, la.linalg.qr, a, "bogus")


@given(a=hermitian_pd(), data=st.data())
def test_eigh_eigvalsh(a, data):
    uplo = data.draw(st.sampled_from(["L", "U", "l"]))
    a = a - 2 * np.eye(a.shape[-1], dtype=a.dtype) if a.dtype.kind in "fc" else a
    lcheck("eigvalsh", a, uplo)
    if a.dtype == np.float16:
        return
    rtol, atol = tolerance(a)
    expected = np.linalg.eigh(a, uplo)
    w, v = result = la.linalg.eigh(a, uplo)
    _reference_types(expected, result)
    w, v = host(w), host(v)
    _assert_close(w, expected.eigenvalues, rtol, atol)
    _assert_close((v * w[..., None, :]) @ _ht(v), a, rtol, 10 * atol)


def test_eigh_reads_one_triangle():
    a = np.array([[2.0, 100.0], [1.0, 3.0]])
    for uplo in ("L", "U"):
        lcheck("eigvalsh", a, uplo)
    check(np.linalg.eigh, la.linalg.eigh, a, "X")


@pytest.mark.parametrize("dtype", [np.float64, np.float32, np.complex64, np.int8])
@pytest.mark.parametrize("kind", ["symmetric", "rotation", "stack", "empty"])
def test_eig_eigvals(dtype, kind):
    """Real input gives real results when every eigenvalue is real, else complex."""
    a = {"symmetric": np.array([[2.0, 1.0], [1.0, 3.0]]),
         "rotation": np.array([[0.0, -1.0], [1.0, 0.0]]),
         "stack": np.array([[[1.0, 2.0, 0.0], [0.0, 3.0, 1.0], [1.0, 0.0, 2.0]],
                            [[2.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 5.0]]]),
         "empty": np.zeros((2, 0, 0))}[kind]
    a = (a * (1 + 1j) if np.dtype(dtype).kind == "c" else a).astype(dtype)
    rtol, atol = tolerance(a)
    expected = np.linalg.eig(a)
    w, v = result = la.linalg.eig(a)
    _reference_types(expected, result)
    w, v = host(w), host(v)
    _assert_close(np.sort_complex(w.ravel()), np.sort_complex(expected.eigenvalues.ravel()),
                  rtol, atol)
    _assert_close(a @ v, v * w[..., None, :], rtol, 10 * atol)
    _assert_close(np.linalg.norm(v, axis=-2), np.ones(w.shape), rtol, 10 * atol)
    values = la.linalg.eigvals(a)
    assert values.dtype == np.linalg.eigvals(a).dtype
    _assert_close(np.sort_complex(host(values).ravel()), np.sort_complex(w.ravel()), rtol, atol)


def test_result_types():
    """NumPy's own namedtuple classes."""
    a = np.array([[2.0, 1.0], [1.0, 3.0]])
    for name in ("slogdet", "svd", "qr", "eigh", "eig"):
        expected, result = getattr(np.linalg, name)(a), getattr(la.linalg, name)(a)
        _reference_types(expected, result)
        assert result._fields == expected._fields


def test_decomposition_errors():
    for name in ("eig", "eigvals", "eigh", "eigvalsh"):
        check(getattr(np.linalg, name), getattr(la.linalg, name), np.ones((2, 3)))
        check(getattr(np.linalg, name), getattr(la.linalg, name), np.eye(2, dtype=np.float16))
    for name in ("svd", "qr", "svdvals"):
        check(getattr(np.linalg, name), getattr(la.linalg, name), np.ones(3))
    with pytest.raises(ValueError, match="UPLO"):
        la.linalg.eigvalsh(np.eye(2), "Q")


def test_hermitian_svd():
    a = np.array([[[2.0, 1.0, 0.0], [1.0, -3.0, 0.5], [0.0, 0.5, 1.0]],
                  [[1.0, 0.0, 0.0], [0.0, -1.0, 0.0], [0.0, 0.0, 0.5]]])
    expected = np.linalg.svd(a, hermitian=True)
    u, s, vh = result = la.linalg.svd(a, hermitian=True)
    _reference_types(expected, result)
    _assert_close(host(s), expected.S, 1e-12, 1e-12)
    _assert_close((host(u) * host(s)[..., None, :]) @ host(vh), a, 1e-12, 1e-12)
    lcheck("svd", a, compute_uv=False, hermitian=True)
    lcheck("pinv", a, hermitian=True)
    lcheck("matrix_rank", a, hermitian=True)


# ----- least squares, pseudo-inverse, rank, condition -------------------------------

@given(a=matrices(square=False, dominant=False), data=st.data())
def test_pinv_matrix_rank(a, data):
    lcheck("pinv", a)
    lcheck("matrix_rank", a)
    lcheck("svdvals", a)
    if a.ndim >= 2 and a.dtype.kind in "fc" and a.dtype != np.float16:
        lcheck("pinv", a, rtol=None)
        lcheck("pinv", a, 0.1)
        lcheck("matrix_rank", a, rtol=0.5)
        lcheck("matrix_rank", a, 1.5)
    with pytest.raises(ValueError):
        la.linalg.pinv(a, 0.1, rtol=0.1)


def test_matrix_rank_of_vectors_and_scalars_is_a_python_int():
    for a in (np.zeros(3), np.array([0.0, 1.0]), np.float64(2.0), np.array([], int)):
        lcheck("matrix_rank", a)


@pytest.mark.parametrize("shape_a,shape_b,dtype,rank_deficient", [
    ((5, 3), (5,), np.float64, False), ((5, 3), (5, 2), np.complex128, False),
    ((5, 3), (5,), np.float32, True), ((3, 5), (3,), np.int32, False),
    ((4, 4), (4, 1), np.complex64, True), ((3, 0), (3,), np.float64, False),
    ((0, 3), (0, 2), np.float64, False), ((4, 2), (4, 0), np.float64, False)])
def test_lstsq(shape_a, shape_b, dtype, rank_deficient):
    """Residuals are empty unless the rank is full and there are more rows than columns."""
    rng = np.random.default_rng(2)
    a = rng.integers(-4, 5, shape_a) + (1j * rng.integers(-4, 5, shape_a)
                                        if np.dtype(dtype).kind == "c" else 0)
    if rank_deficient:
        a[:, -1] = a[:, 0]
    a = a.astype(dtype)
    b = rng.integers(-4, 5, shape_b).astype(dtype)
    lcheck("lstsq", a, b)
    lcheck("lstsq", a, b, rcond=0.5)


def test_lstsq_errors():
    for a, b in [(np.ones((3, 2)), np.ones(2)), (np.ones((2, 3, 2)), np.ones(3)),
                 (np.ones(3), np.ones(3)), (np.ones((3, 2), np.float16), np.ones(3))]:
        check(np.linalg.lstsq, la.linalg.lstsq, a, b)


@given(a=matrices(dominant=False), p=st.sampled_from([None, 2, -2, 1, -1, np.inf, -np.inf,
                                                        "fro", "nuc", 3]))
def test_cond(a, p):
    if p == "nuc" and a.dtype.kind != "b":
        # A singular matrix's NaN inverse fails NumPy's SVD at the call; here when the
        # result is read (test_value_errors_are_raised_at_materialization).
        n = a.shape[-1]
        a = (a + (4 * n + 1) * np.eye(n)).astype(a.dtype)
    lcheck("cond", a, p)


def test_cond_of_singular_matrices_is_inf_unless_nan():
    a = np.array([[[1.0, 2.0], [2.0, 4.0]], [[np.nan, 0.0], [0.0, 1.0]], [[2.0, 0], [0, 1]]])
    for p in (1, "fro", -np.inf):
        lcheck("cond", a, p)
    for p in (None, 2, -2):  # from singular values: NaN is the SVD's LinAlgError
        lcheck("cond", a[::2], p)


# ----- norms ----------------------------------------------------------------------

NORM_ORDERS = [None, 0, 1, -1, 2, -2, 3, 0.5, np.inf, -np.inf, "fro", "nuc", "f", "bogus"]


@st.composite
def norm_inputs(draw):
    dtype = draw(st.sampled_from(NUMERIC))
    shape = draw(shapes(max_dims=3, max_side=3))
    specials = [np.nan, np.inf, -np.inf, -0.0] if np.dtype(dtype).kind in "fc" else []
    elements = st.one_of(SMALL.map(float), st.sampled_from(specials)) if specials else \
        exact_elements(np.dtype(dtype), False)
    if np.dtype(dtype).kind == "c":
        elements = st.builds(complex, SMALL, st.one_of(SMALL.map(float), st.just(np.nan)))
    return draw(hnp.arrays(dtype, shape, elements=elements))


@given(x=norm_inputs(), ord=st.sampled_from(NORM_ORDERS), data=st.data())
def test_norm(x, ord, data):
    axis = data.draw(st.one_of(st.none(), st.integers(-3, 2),
                               st.tuples(st.integers(-3, 2), st.integers(-3, 2)),
                               st.just(()), st.just((0, 1, 2))))
    keepdims = data.draw(st.booleans())
    rtol = 2e-3 if x.dtype == np.float16 else None
    svd_based = ord in (2, -2, "nuc") and isinstance(axis, tuple) and len(axis) == 2
    if svd_based or (axis is None and x.ndim == 2 and ord in (2, -2, "nuc")):
        x = np.nan_to_num(x) if x.dtype.kind in "fc" else x  # NaN: LinAlgError at materialization
        rtol = 1e-9 if x.dtype.itemsize >= 8 else 2e-5
    check(np.linalg.norm, la.linalg.norm, x, ord, axis, keepdims, rtol=rtol,
          atol=rtol or 0.0)


@given(x=norm_inputs(), ord=st.sampled_from([2, 1, np.inf, -np.inf, 0, 3]), data=st.data())
def test_vector_and_matrix_norm(x, ord, data):
    axis = data.draw(st.one_of(st.none(), st.integers(-2, 1), st.just((0, -1)), st.just((0,))))
    keepdims = data.draw(st.booleans())
    rtol = 2e-3 if x.dtype == np.float16 else None
    check(np.linalg.vector_norm, la.linalg.vector_norm, x, axis=axis, keepdims=keepdims,
          ord=ord, rtol=rtol, atol=rtol or 0.0)
    mord = data.draw(st.sampled_from(["fro", 1, -1, np.inf, -np.inf]))
    check(np.linalg.matrix_norm, la.linalg.matrix_norm, x, keepdims=keepdims, ord=mord,
          rtol=rtol, atol=rtol or 0.0)


# ----- products and tensors -------------------------------------------------------

@given(a=matrices(dominant=True, max_side=3), n=st.integers(-5, 9))
def test_matrix_power(a, n):
    if n < 0 and a.dtype.kind in "iub":
        a = a.astype(np.float64)  # integer inverses are not exact: compare in floats
    rtol, atol = tolerance(a)
    check(np.linalg.matrix_power, la.linalg.matrix_power, a, n, rtol=1e-9 if n < 0 else rtol,
          atol=atol)


def test_matrix_power_errors():
    for a, n in [(np.eye(2), 1.5), (np.ones((2, 3)), 2), (np.ones(3), 2)]:
        check(np.linalg.matrix_power, la.linalg.matrix_power, a, n)


@given(data=st.data())
def test_multi_dot(data):
    count = data.draw(st.integers(1, 5))
    dims = data.draw(st.lists(st.integers(1, 4), min_size=count + 1, max_size=count + 1))
    shapes_ = [(dims[k], dims[k + 1]) for k in range(count)]
    if data.draw(st.booleans()):
        shapes_[0] = shapes_[0][1:]
    if data.draw(st.booleans()):
        shapes_[-1] = shapes_[-1][:1]
    arrays = operands(data.draw, shapes_, specials=False)
    check(np.linalg.multi_dot, la.linalg.multi_dot, arrays)


def test_multi_dot_out_and_errors():
    a, b, c = np.ones((2, 3)), np.arange(12.0).reshape(3, 4), np.ones((4, 2))
    out = la.zeros((2, 2))
    assert la.linalg.multi_dot([a, b, c], out=out) is out
    np.testing.assert_array_equal(host(out), np.linalg.multi_dot([a, b, c]))
    for arrays in ([a], [a, b.T, c], [a, np.ones((3, 4, 1)), c]):
        check(np.linalg.multi_dot, la.linalg.multi_dot, arrays)


@pytest.mark.parametrize("shape,ind", [((4, 6, 8, 3), 2), ((24, 8, 3), 1), ((2, 3, 6), 2),
                                       ((4, 6, 8, 3), 0), ((2, 3), 1)])
def test_tensorinv(shape, ind):
    rng = np.random.default_rng(3)
    a = rng.standard_normal(shape)
    if math_prod(shape[:ind]) == math_prod(shape[ind:]) and ind > 0:
        a = a + 3 * np.eye(math_prod(shape[:ind])).reshape(shape)
    check(np.linalg.tensorinv, la.linalg.tensorinv, a, ind, rtol=1e-9, atol=1e-9)


@pytest.mark.parametrize("shape_a,shape_b,axes", [((2, 3, 6), (2, 3), None),
                                                  ((3, 6, 2), (2, 3), (0, 2)),
                                                  ((6, 6), (6,), None), ((2, 3, 4), (2, 3), None)])
def test_tensorsolve(shape_a, shape_b, axes):
    rng = np.random.default_rng(4)
    a, b = rng.standard_normal(shape_a), rng.standard_normal(shape_b)
    check(np.linalg.tensorsolve, la.linalg.tensorsolve, a, b, axes, rtol=1e-8, atol=1e-8)


def math_prod(shape):
    return int(np.prod(shape))


# ----- the Array API functions of numpy.linalg -------------------------------------

def test_array_api_functions():
    rng = np.random.default_rng(5)
    v, w = rng.integers(-3, 4, 3).astype(float), rng.integers(-3, 4, (2, 3)).astype(np.int8)
    m = rng.integers(-3, 4, (2, 3, 3))
    for name, args, kwargs in [("outer", (v, v), {}), ("outer", (v, w), {}),
                               ("cross", (v, w), {}), ("cross", (w, w), {"axis": 0}),
                               ("cross", (v[:2], v[:2]), {}), ("diagonal", (m,), {"offset": 1}),
                               ("diagonal", (v,), {}), ("trace", (m,), {"offset": -1}),
                               ("trace", (m,), {"dtype": np.float32}), ("matmul", (m, v), {}),
                               ("tensordot", (m, m), {"axes": 1}), ("vecdot", (w, v), {}),
                               ("vecdot", (m, m), {"axis": 0}), ("matrix_transpose", (m,), {}),
                               ("matrix_transpose", (v,), {}), ("svdvals", (m,), {})]:
        check(getattr(np.linalg, name), getattr(la.linalg, name), *args, **kwargs)


def test_namespace_is_numpys():
    public = {n for n in dir(np.linalg) if not n.startswith("_") and n != "test"}
    assert public <= set(dir(la.linalg))
    assert la.linalg.LinAlgError is np.linalg.LinAlgError


def test_numpy_linalg_dispatches_lazily():
    """NEP 18: numpy.linalg's functions on lazyarr arrays build lazy results."""
    a = la.asarray(np.array([[4.0, 1.0], [1.0, 3.0]]))
    with _flush.count_flushes() as counter, warnings.catch_warnings():
        warnings.simplefilter("error")
        results = [np.linalg.norm(a), np.linalg.inv(a), np.linalg.det(a),
                   np.linalg.solve(a, np.ones(2)), np.linalg.eigh(a).eigenvalues,
                   np.linalg.svd(a).S, np.linalg.cholesky(a), np.linalg.qr(a).R,
                   np.linalg.pinv(a), np.linalg.matrix_power(a, 3), np.linalg.cond(a),
                   np.linalg.vector_norm(a), np.linalg.slogdet(a).logabsdet]
    assert counter.count == 0
    assert all(isinstance(r, la.Array) for r in results)
    value = np.array([[4.0, 1.0], [1.0, 3.0]])
    assert repr(results[0]) == repr(np.linalg.norm(value))
    assert repr(results[2]).startswith("np.float64(")


def test_decomposition_runs_once():
    """U, S and Vh share one SVD node: one decomposition however many are used."""
    from lazyarr._graph import topological_order
    u, s, vh = la.linalg.svd(la.asarray(np.eye(3)))
    nodes = topological_order([u._node, s._node, vh._node])
    assert sum(n.op.name == "linalg_svd" for n in nodes) == 1
