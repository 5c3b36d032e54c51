"""Views against NumPy: which results are views, their `base` and `flags`, memory
overlap, and writes through chains of views (their owner and every other view see
them; earlier readers keep what they read)."""

import numpy as np
import pytest
from hypothesis import given, strategies as st
from hypothesis.extra import numpy as hnp

import lazyarr as la
from lazyarr import _cuts, _eager, _flush

from differential import assert_same, check
from fuzz.runner import compare
from strategies import arrays, elements

# Each view op, written once for both libraries (their methods and indexing agree).
VIEW_OPS = {
    "slice": lambda x: x[1:],
    "step": lambda x: x[::2],
    "reverse": lambda x: x[::-1],
    "int": lambda x: x[0],
    "newaxis": lambda x: x[None],
    "ellipsis": lambda x: x[...],
    "T": lambda x: x.T,
    "transpose": lambda x: x.transpose(*range(x.ndim - 1, -1, -1)),
    "swapaxes": lambda x: x.swapaxes(0, -1),
    "mT": lambda x: x.mT,
    "ravel": lambda x: x.ravel(),
    "ravel_F": lambda x: x.ravel("F"),
    "ravel_K": lambda x: x.ravel("K"),
    "ravel_A": lambda x: x.ravel("A"),
    "reshape": lambda x: x.reshape(-1, 1),
    "reshape_F": lambda x: x.reshape(x.shape[::-1], order="F"),
    "reshape_A": lambda x: x.reshape(x.shape[::-1], order="A"),
    "squeeze": lambda x: x[:1].squeeze(),
    "diagonal": lambda x: x.diagonal(),
    "last_column": lambda x: x[..., -1],
    "real": lambda x: x.real,
    "imag": lambda x: x.imag,
}


def applicable(name: str, x) -> bool:
    if name == "int":  # on a 1-d array: a NumPy scalar, not a view
        return x.ndim >= 2 and x.shape[0] > 0
    if name in ("slice", "step", "reverse", "squeeze", "swapaxes"):
        return x.ndim >= 1 and x.shape[0] > 0
    if name in ("mT", "diagonal"):
        return x.ndim >= 2
    if name == "imag":  # of a real array, read-only zeros (test_function_views_...)
        return x.dtype.kind == "c"
    if name == "last_column":
        return x.ndim >= 1 and x.shape[-1] > 0
    return True


def flags_of(x) -> tuple:
    f = x.flags
    return f.c_contiguous, f.f_contiguous, f.owndata, f.writeable


def same_layout(expected, actual, owner_np, owner_la, where: str) -> None:
    """Same flags, and a view of the owner exactly where NumPy's is one."""
    assert flags_of(actual) == flags_of(expected), where
    assert (actual.base is owner_la) == (expected.base is owner_np), where


@given(a=arrays(min_dims=1, max_dims=3, min_side=1, max_side=4), data=st.data())
def test_chains_of_views_write_through(a, data):
    """A chain of up to three view ops, then a write into the last view: the owner,
    every view of the chain and an earlier reader match NumPy's."""
    names = data.draw(st.lists(st.sampled_from(sorted(VIEW_OPS)), min_size=1, max_size=3))
    owner_np, owner_la = a.copy(), la.asarray(a)
    reader = owner_la.copy()  # an earlier reader
    chain_np, chain_la = [owner_np], [owner_la]
    for name in names:
        if not applicable(name, chain_np[-1]):
            continue
        chain_np.append(VIEW_OPS[name](chain_np[-1]))
        chain_la.append(VIEW_OPS[name](chain_la[-1]))
    for k, (e, v) in enumerate(zip(chain_np, chain_la)):
        assert_same(np.asarray(e), v, where=f"view {k} of {names}")
        same_layout(e, v, owner_np, owner_la, f"view {k} of {names}")
    last_np, last_la = chain_np[-1], chain_la[-1]
    if not last_np.flags.writeable:
        with pytest.raises(ValueError, match="read-only"):
            last_la[...] = 1
        last_np.flags.writeable = last_la.flags.writeable = True
    value = data.draw(elements(last_np.dtype, finite=True))  # (imag of complex: a real)
    last_np[...] = value
    last_la[...] = value
    for k, (e, v) in enumerate(zip(chain_np, chain_la)):
        assert_same(np.asarray(e), v, where=f"after the write, view {k} of {names}")
    assert_same(a, reader, where="earlier reader")


@given(a=arrays(max_dims=3), data=st.data())
def test_basic_index_views(a, data):
    key = data.draw(hnp.basic_indices(a.shape, allow_newaxis=True, allow_ellipsis=True))
    owner_np, owner_la = a.copy(), la.asarray(a)
    view_np, view_la = owner_np[key], owner_la[key]
    if not isinstance(view_np, np.ndarray):  # every index an integer: a NumPy scalar
        assert view_la.base is None
        with pytest.raises(TypeError, match="does not support item assignment"):
            view_la[...] = 0
        return
    same_layout(view_np, view_la, owner_np, owner_la, str(key))
    value = data.draw(hnp.arrays(a.dtype, view_np.shape, elements=elements(a.dtype, True)))
    view_np[...] = value
    view_la[...] = value
    assert_same(owner_np, owner_la)
    assert_same(view_np, view_la)


def test_writes_reach_the_owner_and_every_view():
    a = la.arange(10.0)
    c = a[1:-1]
    before = a + 0
    c[:] = 0
    assert a.tolist() == [0.0] + [0.0] * 8 + [9.0]
    assert before.tolist() == list(range(10))
    Z = la.zeros((5, 5))
    rows = Z[2]
    Z[1:-1, 1:-1][la.ones((3, 3), dtype=bool)] = 1
    assert float(Z.sum()) == 9.0 and rows.tolist() == [0, 1, 1, 1, 0]
    x = la.arange(24).reshape(2, 3, 4)
    v = x[1].T[::2]  # a view of a view of a view
    v[...] = -1
    expected = np.arange(24).reshape(2, 3, 4)
    expected[1].T[::2] = -1
    assert_same(expected, x)


def test_inplace_operators_on_views():
    a_np, a = np.arange(6.0), la.arange(6.0)
    a_np[1:] += 1
    a[1:] += 1
    assert_same(a_np, a)
    m_np, m = np.arange(6).reshape(2, 3), la.arange(6).reshape(2, 3)
    t_np, t = m_np.T, m.T
    t_np *= 2
    t *= 2
    assert_same(m_np, m)
    assert_same(t_np, t)
    col_np, col = m_np[:, 1], m[:, 1]
    np.add(col_np, 10, out=col_np)
    la.add(col, 10, out=col)
    assert_same(m_np, m)
    np.negative(m_np[0], out=m_np[1])
    la.negative(m[0], out=m[1])
    assert_same(m_np, m)
    with pytest.raises(TypeError, match="same_kind"):
        col += 0.5  # float into an int view: NumPy's casting error
    for x in (m, m_np):  # rows of an iteration are views
        for row in x:
            row[0] = 7
    assert_same(m_np, m)


OUT_CASES = [("add", (1.5,), "int64"), ("add", (1,), "int64"), ("sqrt", (), "int64"),
             ("add", (np.ones(4),), "float32"), ("multiply", (2,), "bool"),
             ("negative", (), "uint8"), ("add", (np.ones((2, 3)),), "float64")]


@pytest.mark.parametrize("ufunc,operands,dtype", OUT_CASES, ids=range(len(OUT_CASES)))
def test_out_into_a_view(ufunc, operands, dtype):
    """`out=` a view writes through to the owner, with NumPy's same_kind casting and
    shape errors."""
    def call(module, a, *operands):
        owner = a.copy() if isinstance(a, np.ndarray) else a
        view = owner[1:, ::2]
        getattr(module, ufunc)(view, *operands, out=view)
        return owner
    check(lambda *args: call(np, *args), lambda *args: call(la, *args),
          np.arange(12).reshape(3, 4).astype(dtype), *operands)


def test_scalars_are_not_views():
    x = la.arange(3)
    s = x[1]
    t = s
    s += 10  # a NumPy scalar is immutable: s is bound to a new one
    assert int(s) == 11 and int(t) == 1 and x.tolist() == [0, 1, 2]
    with pytest.raises(TypeError):
        t[...] = 5


def test_flags_and_writeable():
    a = la.arange(12.0).reshape(3, 4)
    owner = a.base
    assert repr(a.flags) == repr(np.arange(12.0).reshape(3, 4).flags)
    assert a.flags["C_CONTIGUOUS"] and a.flags.c_contiguous and not a.flags["OWNDATA"]
    assert owner.flags.owndata and owner.base is None
    d = a.diagonal()
    assert not d.flags.writeable
    with pytest.raises(ValueError, match="read-only"):
        d[0] = 1
    d.flags.writeable = True  # NumPy allows it: the owner is writeable
    d[...] = -1
    assert la.diagonal(a).tolist() == [-1.0] * 3
    owner.flags.writeable = False
    with pytest.raises(ValueError, match="read-only"):
        owner[0] = 1
    with pytest.raises(ValueError, match="read-only"):
        owner += 1
    with pytest.raises(ValueError, match="output array is read-only"):
        la.add(owner, 1, out=owner)
    late = owner[1:]
    assert not late.flags.writeable
    with pytest.raises(ValueError, match="WRITEABLE"):
        late.flags.writeable = True
    a[0, 0] = 5  # a view made while the owner was writeable still writes, as in NumPy
    assert float(owner[0]) == 5.0
    owner.flags["W"] = True
    owner[1] = 6
    assert float(a[0, 1]) == 6.0


def test_reshape_copies_where_numpy_copies():
    m = la.arange(6).reshape(2, 3)
    flat = m.T.reshape(-1)  # NumPy cannot reshape the transpose in place: a copy
    flat[0] = 100
    assert m.tolist() == [[0, 1, 2], [3, 4, 5]] and flat.base is not m.base
    assert not la.shares_memory(flat, m)
    r = m.ravel()
    r[0] = 100
    assert int(m[0, 0]) == 100 and la.shares_memory(r, m)
    f = m.flatten()  # always a copy
    f[1] = 100
    assert int(m[0, 1]) == 1 and f.flags.owndata


PAIRS = [(lambda x: x[:, ::2], lambda x: x[:, 1::2]), (lambda x: x[0], lambda x: x[1]),
         (lambda x: x[0], lambda x: x[:, 0]), (lambda x: x.T, lambda x: x[1:2]),
         (lambda x: x.diagonal(), lambda x: x[:, 1:]), (lambda x: x[::2], lambda x: x[1::2]),
         (lambda x: x.ravel()[5::7], lambda x: x[:, ::3]), (lambda x: x[:0], lambda x: x),
         (lambda x: x, lambda x: x.copy()), (lambda x: x[2:, 2:], lambda x: x.T[:2])]


@pytest.mark.parametrize("pair", PAIRS, ids=range(len(PAIRS)))
def test_shares_memory(pair):
    first, second = pair
    a = np.arange(20.0).reshape(4, 5)
    x = la.asarray(a)
    assert la.shares_memory(first(x), second(x)) == np.shares_memory(first(a), second(a))
    assert la.may_share_memory(first(x), second(x)) == np.may_share_memory(first(a),
                                                                           second(a))
    # NumPy's own functions dispatch to lazyarr's
    assert np.shares_memory(first(x), second(x)) == np.shares_memory(first(a), second(a))
    assert not la.shares_memory(x, a)  # lazyarr copies the NumPy data it is given


def test_views_and_writes_stay_lazy():
    x = la.asarray(np.arange(12.0).reshape(3, 4)) * 2
    with la.count_flushes() as flushes:
        v = x[1:, ::2].T
        v[0] = 1.0
        x[0] += v[1, 0]
        w = x.reshape(4, 3)[::2]
        w *= 3
    assert flushes.count == 0
    expected = np.arange(12.0).reshape(3, 4) * 2
    expected[1:, ::2].T[0] = 1.0
    expected[0] += expected[1:, ::2].T[1, 0]
    expected.reshape(4, 3)[::2] *= 3
    assert_same(expected, x)


def test_view_of_an_array_evaluated_at_once(monkeypatch):
    """The scheduler may evaluate a new node at once (its pending-depth bound): a view
    made so still writes through, and so does a long chain of writes."""
    monkeypatch.setattr(_cuts, "bound", lambda node: _flush.evaluate([node], "size"))
    x = la.asarray(np.arange(6.0)) + 3
    v = x[::2]
    assert v._node.is_computed
    v[:] = 0
    assert x.tolist() == [0.0, 4.0, 0.0, 6.0, 0.0, 8.0]
    for _ in range(10):
        v += 1
    assert x.tolist() == [10.0, 4.0, 10.0, 6.0, 10.0, 8.0]


def test_view_chains_do_not_grow():
    x = la.arange(100.0)
    v = x
    for _ in range(40):
        v = v[1:]
    assert len(v._layout.steps) == 1
    t = x.reshape(10, 10)
    for _ in range(9):
        t = t.T
    assert len(t._layout.steps) == 2


def test_copy_module_copies():
    import copy
    x = la.arange(4.0)
    v = x[1:]
    c = copy.copy(v)
    c[0] = 10
    d = copy.deepcopy(v)
    d[0] = 20
    assert x.tolist() == [0.0, 1.0, 2.0, 3.0] and c.flags.owndata


@pytest.mark.parametrize("view", [lambda s: s[None], lambda s: s[...], lambda s: s.ravel(),
                                  lambda s: s.reshape(1), lambda s: s.reshape(()),
                                  lambda s: s.view()])
def test_views_of_numpy_scalar_results_are_new_writable_arrays(view):
    """Fuzzer class 2: `s = a.sum(); v = s[None]; v[...] = 7` is accepted and leaves
    `s` alone, as NumPy's scalar has no buffer to share."""
    for module in (np, la):
        s = module.array([1.0, 2.0]).sum()
        v = view(s)
        assert v.flags.writeable == (not isinstance(v, np.generic) and
                                     not (isinstance(v, la.Array) and v._scalar))
        if v.flags.writeable:
            v[...] = 7
            v += 1
            assert float(s) == 3.0 and np.asarray(v).ravel()[0] == 8


@pytest.mark.parametrize("make", [lambda m, a: m.imag(a), lambda m, a: a.imag,
                                  lambda m, a: m.diagonal(a), lambda m, a: a.diagonal(),
                                  lambda m, a: m.diag(a), lambda m, a: a.view()])
@pytest.mark.parametrize("dtype", ["float64", "uint8", "complex128"])
def test_function_views_have_numpys_writeable_flag(make, dtype):
    """Fuzzer class 5: np.imag of a real array and np.diagonal/np.diag of a 2-d one are
    read-only as in NumPy; a write into them raises NumPy's ValueError."""
    host = np.arange(6, dtype=dtype).reshape(2, 3)
    expected, actual = make(np, host.copy()), make(la, la.asarray(host))
    assert actual.flags.writeable == expected.flags.writeable
    check(lambda: expected, lambda: actual)
    for target in (expected, actual):
        try:
            target[0] = 1
            outcome = None
        except ValueError:
            outcome = ValueError
        assert outcome is (None if expected.flags.writeable else ValueError)


def test_imag_of_a_real_numpy_scalar_is_a_scalar():
    check(lambda x: np.imag(x.astype(np.uint8).sum()),
          lambda x: la.imag(x.astype(np.uint8).sum()), np.arange(3))


@pytest.mark.parametrize("make", [
    lambda m, a: m.flip(a), lambda m, a: m.flip(a, 0), lambda m, a: m.fliplr(a),
    lambda m, a: m.broadcast_to(a, (2,) + a.shape), lambda m, a: m.atleast_3d(a),
    lambda m, a: m.array(a, copy=False), lambda m, a: m.array(a, copy=None),
    lambda m, a: m.array(a, copy=False, ndmin=4), lambda m, a: m.nan_to_num(a),
    lambda m, a: m.nan_to_num(a, copy=False), lambda m, a: m.diag(a)])
@pytest.mark.parametrize("dtype", ["int64", "float32"])
def test_function_results_alias_their_input_as_in_numpy(make, dtype):
    """Fuzzer class 5: np.flip, np.broadcast_to, np.atleast_*d and np.array(copy=False)
    are views (writes into the input show in them, and writes through them show in the
    input, where writeable); np.nan_to_num of an int array is a copy."""
    def run(module):
        a = module.asarray(np.arange(6, dtype=dtype).reshape(2, 3))
        b = make(module, a)
        a[0, 0] = 9           # seen by a view
        if b.flags.writeable:
            b[(0,) * b.ndim] = -5
            b += 1
        return [np.asarray(a).copy(), np.asarray(b).copy(), b.flags.writeable,
                module.shares_memory(a, b)]
    expected, actual = run(np), run(la)
    for e, a in zip(expected, actual):
        np.testing.assert_array_equal(a, e)


def test_array_copy_false_of_a_scalar_or_a_cast_raises():
    for module in (np, la):
        x = module.arange(3.0)
        with pytest.raises(ValueError):
            module.array(x.sum(), copy=False)
        with pytest.raises(ValueError):
            module.array(x, dtype=np.float32, copy=False)


def test_in_place_operators_into_read_only_views_raise_numpys_error_first():
    """Fuzzer class 7: `d &= f` into a read-only diagonal is "output array is
    read-only" (ValueError) even when the operand types would not combine."""
    for module in (np, la):
        d = module.diagonal(module.zeros((2, 2), np.uint32))
        with pytest.raises(ValueError, match="read-only"):
            d &= module.ones(2, np.float32)
        b = module.broadcast_to(module.arange(3.0).sum(), (2,))
        assert not b.flags.writeable
        with pytest.raises(ValueError):
            b += 1


def test_nan_to_num_of_a_0d_array_is_a_scalar():
    for dtype in ("uint32", "float64"):
        check(np.nan_to_num, la.nan_to_num, np.array(3, dtype=dtype))


def test_broadcast_views_cannot_be_made_writeable():
    """A documented deviation (docs/semantics.md): NumPy lets a broadcast_to view be
    made writeable again (a write then lands in every element sharing the memory);
    lazyarr's view has no inverse for the write, so setting the flag raises."""
    a = np.arange(4.0)
    b = np.broadcast_to(a, (2, 4))
    b.flags.writeable = True        # NumPy: allowed
    x = la.broadcast_to(la.arange(4.0), (2, 4))
    with pytest.raises(ValueError, match="WRITEABLE"):
        x.flags.writeable = True
    assert not x.flags.writeable


# Fuzzer programs (minimized): a write into `real`/`imag` of a complex array, or of a
# view of one, changes the array and every view of it.
PART_PROGRAMS = [
    ["v0 = np.array([[(1+2j), (1+2j)], [3j, 3j]], dtype=np.complex64)",
     "v7 = v0.ravel()", "v5 = v7.real", "v5[[1]] = -1"],
    ["v0 = np.array(3j, dtype=np.complex64)", "v2 = np.where(v0 > 1, v0, 3.0)",
     "v4 = v2.imag", "v8 = np.squeeze(v4)", "v8[None] = 2"],
    ["v1 = np.array([9, 5, 2, 9], dtype=np.uint8)", "v16 = (v1 > 4).astype(np.complex64)",
     "v18 = np.real(v16)", "v16[-4] = v1.prod()", "v19 = np.imag(v16)", "v19 += 3"],
    ["v0 = np.arange(6, dtype=np.complex128).reshape(2, 3)", "v1 = v0.T.imag",
     "v1[1] = -0.0", "v2 = v0.real[:, ::-2]", "v2 *= 10", "v0.real = 7",
     "v0.imag = [[1], [2]]", "v3 = v0.real.flags.writeable"],
    ["v0 = np.zeros((0, 3), dtype=np.complex64)",
     "v1 = np.broadcast_to(v0, (2,) + v0.shape)", "v2 = v1.imag", "v3 = v1.real",
     "v4 = v2.flags.writeable"],
    ["v0 = np.arange(3.0)", "v1 = v0.real", "v1[0] = 7", "v2 = v1 is v0"],
    # an empty array's imaginary parts, read through NumPy (its buffer has no bytes)
    ["v0 = np.array([], dtype=np.complex64)", "v6 = np.cumsum(np.where(v0 > 1, v0, 3))",
     "v9 = v6.imag", "v10 = v0.imag", "v11 = np.asarray(v9)"],
]


@pytest.mark.parametrize("program", PART_PROGRAMS)
def test_real_and_imag_are_write_through_views(program, backend):
    assert compare(program, backend) is None


def test_setting_real_or_imag():
    """`x.real = v` writes the real parts; a real array has no imaginary part to set and
    a NumPy scalar's parts are not writable: NumPy's TypeError and AttributeError."""
    for module in (np, la):
        with pytest.raises(TypeError, match="imaginary part"):
            module.arange(3.0).imag = 1
        with pytest.raises(AttributeError):
            module.array([1j]).sum().real = 1


# A basic view of a computed NumPy buffer, where operations run eagerly (the interpreter
# tier), is NumPy's own view of the buffer (`_api/indexing._host_view`); recorded, it is
# a slice node. Both must give NumPy's values, shape, dtype and view semantics.

@st.composite
def _basic_views(draw):
    a = draw(arrays(min_dims=1, max_dims=3, min_side=1))
    key = tuple(draw(st.integers(-n, n - 1) if draw(st.booleans()) else st.slices(n))
                for n in a.shape[:draw(st.integers(1, a.ndim))])
    if draw(st.booleans()):
        key = key + (Ellipsis,)
    return a, key


@given(_basic_views(), st.booleans())
def test_a_view_of_a_computed_buffer_is_numpys_with_eager_on_or_off(case, eager):
    a, key = case
    with la.use_tier("interpret"), la.use_eager(eager):
        x = la.asarray(a)
        v = x[key]
        expected = a.copy()[key]
        if not isinstance(expected, np.ndarray):  # a NumPy scalar: no view
            assert_same(expected, v)
            return
        # (compared through copies: exporting x's buffer to NumPy would change its path)
        assert v.base is x
        assert_same(expected, v.copy())
        # a write into the owner shows in the view, one into the view in the owner
        ref = a.copy()
        ref_view = ref[key]
        x[...] = 0
        ref[...] = 0
        assert_same(ref_view, v.copy())
        v[...] = a[key]
        ref_view[...] = a[key]
        assert_same(ref, x.copy())
        assert_same(ref_view, v.copy())


def test_a_view_of_a_view_follows_the_owners_writes():
    """`v[i:j]` of a view `v` is taken from `v`'s value as it is now: after writes into
    its owner (an element path once read the view's stale window)."""
    def views(m):
        a = m.arange(10.0)
        v = a[2:8]
        a[:] = 5
        first = v[1:3].tolist()
        b = m.arange(10.0)
        w = b[2:8]
        b += 1
        return first, w[1:3].tolist(), float(w[2:3].sum()), w[::2][1:].tolist()
    expected = views(np)
    assert views(la) == expected  # recorded slices
    with la.use_tier("interpret"), la.use_eager(True):  # the eager path's host views
        assert views(la) == expected


def test_a_moving_window_of_a_computed_buffer_is_read_in_place():
    """(see `_host_view`) where operations are computed eagerly (the CPU), no pending
    node is built for `x[s:s + k]`: it is NumPy's view of the buffer (elsewhere, a TPU,
    a recorded slice); either way the window follows later writes of its owner."""
    a = np.arange(100.0)
    x = la.asarray(a)
    with la.use_tier("interpret"), la.use_eager(True):
        windows = [x[s:s + 10] for s in range(0, 90, 7)]
        computed = [w._n.is_computed for w in windows]
        assert computed == [_eager.enabled()] * len(windows)
        x[:] = x * 2
        for s, w in zip(range(0, 90, 7), windows):
            assert_same(2 * a[s:s + 10], w.copy())
            assert_same((2 * a[s:s + 10]).mean(), w.mean())
