"""Indexing against NumPy: every kind of key, generated; masks; take; bounds errors."""

import math

import numpy as np
import pytest
from hypothesis import given, strategies as st
from hypothesis.extra import numpy as hnp

import lazyarr as la
from lazyarr._api import indexing

from differential import assert_same, check, check_function, la_setitem, np_setitem
from strategies import NUMERIC, arrays
from threads import in_threads


def getitem(x, key):
    return x[key]


def lazy_key(key):
    """The same key with its NumPy arrays as lazyarr arrays."""
    if isinstance(key, tuple):
        return tuple(lazy_key(k) for k in key)
    return la.asarray(key) if isinstance(key, np.ndarray) else key


@given(a=arrays(max_dims=4), data=st.data())
def test_basic_indices(a, data):
    key = data.draw(hnp.basic_indices(a.shape, allow_newaxis=True, allow_ellipsis=True))
    check(getitem, getitem, a, key)


@given(a=arrays(min_dims=1, max_dims=3, min_side=1), data=st.data())
def test_integer_array_indices(a, data):
    key = data.draw(hnp.integer_array_indices(a.shape, result_shape=hnp.array_shapes(
        min_dims=0, max_dims=2, max_side=3)))
    check(getitem, getitem, a, key)
    assert_same(a[key], la.asarray(a)[lazy_key(key)])  # lazy index arrays too


MIXED_KEYS = [
    (slice(None), [0, 2], [1, 3]), ([0, 2], slice(None), [1, 3]), (0, slice(None), [1, 3]),
    (slice(None), 0, [1, 3]), (Ellipsis, [1, -1]), ([[0, 1], [2, 0]],), (1, None, [0, 1]),
    ([0, 1], None, [0, 1]), (None, [0, 2], Ellipsis, None), (slice(1, None, -1), [3, 0], 2),
    ([], slice(None)), ([0, 0, 1], [1, 1, 1], [4, 3, 2]), (True,), (False, 0),
    (slice(None), True, [1, 2]), (np.array([True, False, True]),),
    (Ellipsis, np.array([True, False, True, True, False])), (0, np.arange(20).reshape(4, 5) > 7),
]


@pytest.mark.parametrize("key", MIXED_KEYS, ids=range(len(MIXED_KEYS)))
@pytest.mark.parametrize("dtype", ["float32", "int64", "bool", "complex64"])
def test_mixed_advanced_and_basic(key, dtype):
    a = np.arange(60).reshape(3, 4, 5).astype(dtype)
    check(getitem, getitem, a, key)
    assert_same(a[key], la.asarray(a)[lazy_key(key)])


@given(a=arrays(min_dims=1, max_dims=3), data=st.data())
def test_boolean_masks(a, data):
    mask = data.draw(hnp.arrays(np.bool_, a.shape))
    check(getitem, getitem, a, mask)
    x = la.asarray(a)
    assert_same(a[mask], x[la.asarray(mask)])


@pytest.mark.usefixtures("lazy_graph")
def test_mask_of_a_lazy_comparison_flushes_once():
    x = la.asarray(np.arange(-5.0, 5.0))
    with la.count_flushes() as flushes:
        y = x[x > 0].sum()
    assert flushes.count == 1 and flushes.causes["shape"] == 1
    assert float(y) == 10.0


@pytest.mark.parametrize("name", [None, "sum", "max", "min", "any", "all", "mean", "prod"])
@given(a=arrays(min_dims=1, max_dims=3), data=st.data())
def test_the_selection_of_a_pending_mask(name, a, data):
    """`x[mask]`, and reductions of it, for a mask not computed yet over x's leading
    axes (a `boolean_index` node, which XLA reduces over x where the mask holds):
    NumPy's values, dtypes and errors (max of nothing selected raises at the call)."""
    k = data.draw(st.integers(1, a.ndim))
    u = data.draw(hnp.arrays(np.float64, a.shape[:k], elements=st.floats(0, 1)))
    threshold = data.draw(st.sampled_from([-1.0, 0.3, 0.7, 2.0]))  # all, some, none
    ndim = 1 + a.ndim - k
    axis = data.draw(st.sampled_from([None, 0, -1, tuple(range(ndim))]))

    def select(xp):
        def run(a, u):
            chosen = a[u > threshold]
            return chosen if name is None else getattr(xp, name)(chosen, axis=axis)
        return run
    with la.use_eager(False):  # (the mask recorded, not computed at once: it is small)
        check(select(np), select(la), a, u)


def test_a_pending_mask_is_counted_not_searched(monkeypatch):
    """A mask not computed yet is computed and counted, not searched for its indices on
    the host; its selection is one `boolean_index` node."""
    searched = []
    real = indexing._index_leaves
    monkeypatch.setattr(indexing, "_index_leaves", lambda m: searched.append(1) or real(m))
    a = np.random.default_rng(1).normal(size=(30, 4))
    with la.use_eager(False):
        x = la.asarray(a) * 2
        selected = x[x[:, 0] > 0]
        assert selected._node.op.name == "boolean_index"
        assert_same((a * 2)[a[:, 0] * 2 > 0], selected)
        assert_same(((a * 2)[a * 2 > 0]).sum(), x[x > 0].sum())
    assert searched == []


def test_a_fixed_mask_is_searched_once(monkeypatch):
    """A computed mask used at every step of a loop (an obstacle, a boundary) is
    searched once for its reads and writes; a write into the mask, and NumPy's writes
    into a mask it shares (as `asarray` of a NumPy array does), are seen."""
    searched = []
    real = indexing._index_leaves
    monkeypatch.setattr(indexing, "_index_leaves", lambda m: searched.append(1) or real(m))
    rng = np.random.default_rng(0)
    a, m = rng.random((40, 50, 3)), rng.random((40, 50)) < 0.3
    x, mask = la.asarray(a), la.asarray(m)
    for step in range(4):
        kept = a[m, :][:, ::-1]
        a = a * 0.5 + step
        a[m, :] = kept
        kept = x[mask, :][:, ::-1]
        x = x * 0.5 + step
        x[mask, :] = kept
    assert_same(a, x)
    assert len(searched) == 1
    m[0, :] = True
    mask[0, :] = True  # a new value: searched again once computed (a pending mask is
    la.eval(mask)      # counted, not searched: test_a_pending_mask_is_counted_not_searched)
    assert_same(a[m], x[mask])
    assert len(searched) == 2
    shared = np.asarray(mask)  # NumPy's writes into it are unseen: compared each time
    assert_same(a[m], x[mask])
    searches = len(searched)
    assert_same(a[m], x[mask])
    assert len(searched) == searches
    shared[1, :] = m[1, :] = True
    assert_same(a[m], x[mask])
    assert len(searched) == searches + 1


def test_a_mask_too_large_to_keep_is_searched_each_time(monkeypatch):
    """The indices kept live as long as the mask: past `MAX_MASK_BYTES` they are not
    kept, and each read searches the mask, as NumPy does."""
    searched = []
    real = indexing._index_leaves
    monkeypatch.setattr(indexing, "_index_leaves", lambda m: searched.append(1) or real(m))
    m = np.arange(1000) % 3 == 0
    a, mask = np.arange(1000.0), la.asarray(m)
    monkeypatch.setattr(indexing, "MAX_MASK_BYTES", 8 * int(m.sum()) - 1)
    for _ in range(3):
        assert_same(a[m], la.asarray(a)[mask])
    assert len(searched) == 3
    monkeypatch.setattr(indexing, "MAX_MASK_BYTES", 8 * int(m.sum()))
    for _ in range(3):
        assert_same(a[m], la.asarray(a)[mask])
    assert len(searched) == 4


def test_masks_searched_in_threads_at_once():
    """Threads reading through more computed masks than are kept, evicting each other's:
    every read equals NumPy's."""
    rng = np.random.default_rng(1)
    a = rng.random((300, 4))
    masks = [rng.random(300) < p for p in np.linspace(0.1, 0.9, 3 * indexing._MAX_MASKS)]
    x, lazy = la.asarray(a), [la.asarray(m) for m in masks]

    def read(offset):
        ks = [(offset + 7 * step) % len(masks) for step in range(40)]
        return [k for k in ks if not np.array_equal(np.asarray(x[lazy[k], :]), a[masks[k], :])]
    assert in_threads(read, 4) == [[]] * 4


BAD_KEYS = [5, -4, (0, 9), [3], (0, 0, 0, 0), 1.5, [0.5], "a", (Ellipsis, Ellipsis),
            ([0, 1], [0, 1, 2]), np.array([True, False]), (slice(None), [[0, 5]])]


@pytest.mark.parametrize("key", BAD_KEYS, ids=range(len(BAD_KEYS)))
def test_bad_keys(key):
    check(getitem, getitem, np.arange(12).reshape(3, 4), key)


@pytest.mark.usefixtures("lazy_graph")
def test_lazy_out_of_bounds_index_raises_at_materialization():
    x = la.asarray(np.arange(12).reshape(3, 4))
    y = x[0, la.asarray(np.array([0, 7])) + 0]  # an index known only once computed
    with pytest.raises(IndexError, match="out of bounds"):
        np.asarray(y)
    assert x.sum() == 66  # the array stays usable


def test_zero_d_results_are_scalars_unless_ellipsis():
    a = np.arange(6.0).reshape(2, 3)
    x = la.asarray(a)
    assert repr(x[1, 2]) == repr(a[1, 2])
    assert repr(x[1, 2, ...]) == repr(a[1, 2, ...])
    assert repr(la.asarray(np.array(5))[()]) == repr(np.array(5)[()])


@pytest.mark.parametrize("mode", ["raise", "wrap", "clip"])
@pytest.mark.parametrize("axis", [None, 0, 1, -1, 2])
@given(data=st.data())
def test_take(mode, axis, data):
    dt = data.draw(st.sampled_from(NUMERIC))
    a = data.draw(arrays(dtype=dt, shape=(3, 4)))
    idx = data.draw(hnp.arrays(np.int64, hnp.array_shapes(min_dims=0, max_dims=2),
                               elements=st.integers(-6, 6)))
    check_function("take", a, idx, axis=axis, mode=mode)


@pytest.mark.parametrize("axis", [0, 1, -1, None])
def test_take_along_axis(axis):
    a = np.array([[10, 30, 20], [60, 40, 50]])
    idx = np.argsort(a, axis=axis)
    if axis is None:
        check_function("take_along_axis", a, idx, None)
    else:
        check_function("take_along_axis", a, idx, axis)
        check_function("take_along_axis", a, idx[:1] if axis == 0 else idx[:, :1], axis)
    check_function("take_along_axis", a, np.array([[3]]), 1)
    check_function("take_along_axis", a, np.array([0]), 1)


@given(a=arrays(max_dims=3))
def test_nonzero_argwhere_flatnonzero(a):
    check_function("nonzero", a)
    check_function("argwhere", a)
    check_function("flatnonzero", a)
    check(lambda x: np.where(x), lambda x: la.where(x), a)


def test_compress_and_extract():
    a = np.arange(12).reshape(3, 4)
    check_function("compress", [True, False, True], a, axis=0)
    check_function("compress", np.array([0, 1, 1, 0]), a, axis=1)
    check_function("compress", [True, False], a)
    check_function("compress", [[True]], a)
    check_function("extract", a % 3 == 0, a)


@pytest.mark.parametrize("shape", [(0, 3), (2, 3)])
def test_nothing_selected_checks_no_index(shape):
    """Index arrays that broadcast to no element select nothing, and NumPy then checks
    none of their values (getitem, setitem and take_along_axis alike)."""
    a = np.arange(math.prod(shape), dtype=float).reshape(shape)
    for key in [(np.array([[5]]), np.zeros((1, 0), int)), (np.array([9]), np.zeros(0, int)),
                (np.zeros((0, 1), int), slice(None))]:
        check(lambda x, k=key: x[k], lambda x, k=key: x[k], a)
        check(np_setitem, la_setitem, a, key, 1.0)
    check(np.take_along_axis, la.take_along_axis, np.zeros((0, 3)), np.array([[5]]), 1)



@pytest.mark.parametrize("mask_shape", [(0,), (0, 2), (3, 0), (0, 0), (0, 5), (2, 0)])
def test_empty_mask_axes_match_any_length(mask_shape):
    """A boolean mask's axis of length 0 matches an axis of any length (NumPy's rule);
    other lengths must match (IndexError)."""
    a = np.arange(24.0).reshape(3, 2, 4)
    mask = np.zeros(mask_shape, bool)
    key = mask if mask.ndim == 2 else (slice(None), mask)
    check(lambda x: x[key], lambda x: x[key], a)
    check(np_setitem, la_setitem, a, key, 5.0)


@pytest.mark.parametrize("start", [-9, -5, -4, -3, -1, 0, 2, 3, 5, None])
@pytest.mark.parametrize("stop", [-9, -4, -1, 0, 2, 5, None])
@pytest.mark.parametrize("stride", [-3, -1, 1, 2])
def test_slices_with_out_of_range_bounds_read_and_write_as_numpy(start, stop, stride):
    """Fuzzer class 4: np.arange(3)[-5::-1] is empty (it was [2 1 0] on XLA and broke
    the numpy backend's rule check); writes through such views change nothing."""
    key = slice(start, stop, stride)
    check(lambda x: x[key], lambda x: x[key], np.arange(3.0))
    check(lambda x: x[key, ::-1], lambda x: x[key, ::-1], np.arange(12).reshape(3, 4))

    def write(module, host):
        x = module.asarray(host.copy()) + 0
        view = x[key]
        view[...] = -1
        return x
    check(lambda h: write(np, h), lambda h: write(la, h), np.arange(4))


@pytest.mark.parametrize("key, value", [
    ([5], 2**63), ([5, 6], np.ones(3)), ([5], 1j), ([-9], np.ones(2)), ([9], 1),
    (9, 2**70), ([1, 9], np.ones((2, 2))), (np.array([1, 9]), 2**64), ((0, [7]), 2**40)])
def test_setitem_checks_the_value_before_out_of_bounds_indices(key, value):
    """Fuzzer class 7: `v[[5]] = 2**63` into int16 is NumPy's OverflowError (the value is
    converted and broadcast before the indices are checked), not the IndexError."""
    shape = (2, 3) if isinstance(key, tuple) else (3,)
    check(np_setitem, la_setitem, np.zeros(shape, np.int16), key, value)


@pytest.mark.parametrize("dtype", ["bool", "uint8", "float64", "complex128"])
@pytest.mark.parametrize("value", [np.array([3.0]), np.ones(3), np.ones((1, 1)), np.ones(0)])
@pytest.mark.parametrize("key", [0, (), -1])
def test_one_element_set_from_an_array_as_numpy(dtype, value, key):
    """Found by the fuzzer: NumPy sets one bool element from a one-element array (its
    truth value), refuses any array for a complex element (TypeError) and a sequence
    for others (ValueError)."""
    host = np.zeros(() if key == () else (2,), dtype)
    check(np_setitem, la_setitem, host, key, value)


def test_complex_values_written_into_a_bool_array_are_true_where_either_part_is():
    """Found by the fuzzer: b[:] = np.array([3j, 0j]) makes b [True, False] (the real
    part alone was cast)."""
    check(np_setitem, la_setitem, np.zeros(4, bool), slice(-1, -3, -2),
          np.array([3j], np.complex64))
    check(np_setitem, la_setitem, np.zeros(2, bool), slice(None), np.array([3j, 0j]))


def raises_index_error_by_the_read(write) -> None:
    """NumPy's IndexError for `write(np)`; lazyarr's for `write(la)`, at the call or,
    for a pending index array (docs/semantics.md), when the result is read."""
    with pytest.raises(IndexError):
        write(np)
    with pytest.raises(IndexError, match="out of bounds"):
        np.asarray(write(la))


@pytest.mark.parametrize("shape, start, count", [
    ((1, 0), -2, 2), ((2, 0), -4, 2), ((0, 0), 0, 4), ((0,), -3, 1), ((3, 0), 1, 3)])
def test_a_pending_index_into_an_empty_selection_is_still_checked(shape, start, count):
    """Fuzzer (22 programs): `v[np.arange(2) - 2] = 3` into a (1, 0) array selects no
    element, yet NumPy checks every index (IndexError); a pending index array's check
    ran only when something was written, so nothing raised."""
    def write(module):
        x = module.zeros(shape)
        x[module.arange(count) + start] = 3
        return x
    raises_index_error_by_the_read(write)
    check(lambda x: x.__setitem__(np.arange(2) - 1, 3) or x,
          lambda x: x.__setitem__(la.arange(2) - 1, 3) or x, np.zeros((2, 0)))


def test_a_view_written_through_a_pending_index_from_itself():
    """Fuzzer (7 programs): `v[np.arange(2) - 4] = v` into a view of size 1 is NumPy's
    IndexError; it was taken for an in-place operator's write-back (the value is the
    view itself) and skipped."""
    def write(module):
        v = module.full(1, -1.0)[0::2][:-2:-2]
        v[module.arange(2) - 4] = v
        return v
    raises_index_error_by_the_read(write)

    def fine(module, host):
        w = module.asarray(host.copy())[::-1]
        w[module.arange(2) + 0] = w + 1
        w[module.arange(2) + 0] = w
        return w
    check(lambda h: fine(np, h), lambda h: fine(la, h), np.arange(3.0))


@pytest.mark.parametrize("key", [[], (slice(None), []), [0, 1]])
@pytest.mark.parametrize("vshape", [(2, 0), (5, 1, 0), (2, 1), (1, 3, 0), (5, 1, 1), (0,),
                                    (2, 0, 1)])
def test_values_of_more_dimensions_reshape_into_an_advanced_index(key, vshape):
    """Fuzzer (12 programs): `a[[]] = zeros((2, 0))` is accepted by NumPy, which reshapes
    a value of more dimensions than the indexing result to its last dimensions where
    the sizes agree (so an empty value of any leading shape fits an empty selection)."""
    check(np_setitem, la_setitem, np.zeros((3, 0)), key, np.zeros(vshape))
    check(np_setitem, la_setitem, np.zeros(3), key if key != (slice(None), []) else [],
          np.zeros(vshape))


@pytest.mark.parametrize("dtype", ["int8", "uint32", "int64", "bool"])
@pytest.mark.parametrize("value", [np.complex128(complex(np.inf, 1)), np.float64("nan"),
                                   np.float32(1e20), float("nan"), 2**40])
@pytest.mark.parametrize("key", [[0], [], 0, slice(0, 1), "pending", "pending empty"])
def test_numpy_scalars_are_cast_as_arrays_into_an_advanced_index(dtype, value, key,
                                                                 quiet_warnings):
    """Fuzzer (10 programs): `a[[0]] = np.float64(nan)` into ints is an unsafe array
    cast in NumPy (no error), `a[0] = np.float64(nan)` and any Python nan a ValueError."""
    def write(module, host):
        x = module.asarray(host.copy())
        k = {"pending": module.arange(1) + 0, "pending empty": module.arange(0) - 3}.get(
            key, key) if isinstance(key, str) else key
        x[k] = value
        return x
    check(lambda h: write(np, h), lambda h: write(la, h), np.zeros(3, dtype))


_bound = st.one_of(st.none(), st.integers(-7, 7))
_entry = st.one_of(st.integers(-7, 7), st.builds(slice, _bound, _bound,
                                                 st.one_of(st.none(), st.integers(-3, 3)
                                                           .filter(bool))),
                   st.sampled_from([None, Ellipsis]))


@given(shape=hnp.array_shapes(min_dims=1, max_dims=3, min_side=0, max_side=5),
       key=st.one_of(_entry, st.lists(_entry, min_size=1, max_size=3).map(tuple)))
def test_plain_keys_translate_as_the_general_path_does(shape, key):
    """The direct translation of keys of ints, slices and None (moving windows,
    `q[:, None]`) gives the general path's view steps, NumPy stand-in key and write
    target, or leaves the key to it (an int out of bounds, too many entries, `...`)."""
    plain = indexing._plain(shape, key)
    x = la.zeros(shape)
    try:
        entries, _ = indexing._expand(x, key)
        steps, out_shape, probe_key = indexing._basic_steps(x, entries)
    except IndexError:
        assert plain is None
        return
    if plain is None:
        return
    ints = all(kind == "int" for kind, _ in entries)
    assert plain == (steps, probe_key, True, indexing.Target(steps, out_shape, None, True, ints))
    assert np.zeros(shape)[plain[1]].shape == out_shape
