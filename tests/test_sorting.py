"""Sorting, searching, sets and counting against NumPy: sort, argsort, lexsort,
partition, argpartition, sort_complex, searchsorted, the unique family, isin and the
1-d set operations, digitize, bincount and histograms, on generated dtypes, shapes
(0-d and size-0 included) and values (NaN, infinities, signed zeros, ties)."""


import numpy as np
import pytest
from hypothesis import assume, given, strategies as st
from hypothesis.extra import numpy as hnp

import lazyarr as la

from differential import assert_same, check, check_function, clean
from strategies import BOOL, COMPLEX, FLOAT, INTEGER, NUMERIC, REAL, arrays, elements

SMALL = dict(max_dims=3, max_side=4)
KINDS = [None, "quicksort", "mergesort", "heapsort", "stable"]


pytestmark = pytest.mark.usefixtures("quiet_warnings")


def some_array(draw, dtypes=NUMERIC, **shape_kwargs):
    return clean(draw(arrays(draw(st.sampled_from(dtypes)), **{**SMALL, **shape_kwargs})))


def axis_for(draw, ndim, none=True):
    choices = [st.integers(-ndim - 1, ndim)]
    if none:
        choices.append(st.none())
    return draw(st.one_of(*choices))


def with_ties(draw, dtype, shape):
    """Values drawn from a few, so that ties (and repeated NaNs) are common."""
    pool = draw(st.lists(elements(np.dtype(dtype)), min_size=1, max_size=3))
    return clean(draw(hnp.arrays(dtype, shape, elements=st.sampled_from(pool))))


# ----- sort, argsort, lexsort ---------------------------------------------------------

@given(data=st.data())
def test_sort(data):
    x = some_array(data.draw)
    axis = axis_for(data.draw, x.ndim)
    check_function("sort", x, axis=axis, kind=data.draw(st.sampled_from(KINDS)))


@given(data=st.data())
def test_sort_with_ties(data):
    dtype = data.draw(st.sampled_from(NUMERIC))
    x = with_ties(data.draw, dtype, data.draw(hnp.array_shapes(max_dims=2, max_side=6)))
    check_function("sort", x, axis=-1)
    check_function("sort_complex", x)


@given(data=st.data())
def test_argsort_stable(data):
    """kind="stable" fixes the order of ties: lazyarr's must be NumPy's exactly."""
    dtype = data.draw(st.sampled_from(NUMERIC))
    x = with_ties(data.draw, dtype, data.draw(hnp.array_shapes(min_dims=0, max_dims=2,
                                                               max_side=6)))
    axis = axis_for(data.draw, max(x.ndim, 1))
    check_function("argsort", x, axis=axis, kind="stable")
    check_function("argsort", x, axis=axis, stable=True)


@given(data=st.data())
def test_argsort_default_kind(data):
    """NumPy's default kind (introsort, or AVX-512 sorts here) is not stable: on ties
    its order differs from any stable sort, and lazyarr always sorts stably. Without
    ties the order is unique and must be NumPy's; with ties the result must still
    sort the array."""
    dtype = data.draw(st.sampled_from(REAL + COMPLEX))
    shape = data.draw(hnp.array_shapes(max_dims=2, max_side=5))
    distinct = clean(data.draw(hnp.arrays(dtype, shape, elements=elements(dtype),
                                          unique=True)))
    flat_unique = np.unique(distinct.ravel(), equal_nan=False)
    assume(flat_unique.size == distinct.size or distinct.size == 0)
    check_function("argsort", distinct, axis=-1)
    tied = with_ties(data.draw, dtype, shape)
    order = np.asarray(la.argsort(tied, axis=-1))
    assert order.dtype == np.intp and order.shape == tied.shape
    np.testing.assert_array_equal(np.sort(order, axis=-1),
                                  np.broadcast_to(np.arange(shape[-1]), shape))
    np.testing.assert_array_equal(np.take_along_axis(tied, order, axis=-1),
                                  np.sort(tied, axis=-1, kind="stable"))


def _descending_order(lane: np.ndarray) -> np.ndarray:
    """The Array API's stable descending argsort of a 1-d array, built from NumPy's
    stable ascending order: runs of equal values (NaNs equal) in reverse order, each
    run keeping its original order."""
    order = np.argsort(lane, kind="stable")
    values = lane[order]
    same = (values[1:] == values[:-1]) | (np.isnan(values[1:]) & np.isnan(values[:-1]))
    runs = np.split(order, np.flatnonzero(~same) + 1) if lane.size else []
    return np.concatenate(runs[::-1] or [np.zeros(0, np.intp)]).astype(np.intp)


def _np_argsort_descending(x, axis=-1):
    x = x.reshape(1) if x.ndim == 0 else x
    if axis is None:
        return _descending_order(x.ravel())
    return np.apply_along_axis(_descending_order, axis, x) if x.size else \
        np.zeros(x.shape, np.intp)


def _np_sort_descending(x, axis=-1):
    flat = x.ravel() if axis is None else x
    order = _np_argsort_descending(flat, -1 if axis is None else axis)
    return np.take_along_axis(flat, order, -1 if axis is None else axis)


@given(data=st.data())
def test_descending(data):
    """The Array API's `descending=True` (an extension of NumPy's sort and argsort):
    largest first, ties in their original order, NaNs first."""
    dtype = data.draw(st.sampled_from(REAL))
    x = with_ties(data.draw, dtype, data.draw(hnp.array_shapes(min_dims=1, max_dims=2,
                                                               min_side=0, max_side=6)))
    axis = data.draw(st.sampled_from([None, 0, -1]))
    check(lambda a, axis: _np_argsort_descending(a, axis),
          lambda a, axis: la.argsort(a, axis=axis, descending=True), x, axis)
    check(lambda a, axis: _np_sort_descending(a, axis),
          lambda a, axis: la.sort(a, axis=axis, descending=True), x, axis)


@given(data=st.data())
def test_lexsort(data):
    shape = data.draw(hnp.array_shapes(min_dims=0, max_dims=2, max_side=5))
    keys = [with_ties(data.draw, data.draw(st.sampled_from(NUMERIC)), shape)
            for _ in range(data.draw(st.integers(1, 3)))]
    axis = data.draw(st.integers(-len(shape) - 1, max(len(shape) - 1, 0)))
    check_function("lexsort", keys, axis=axis)
    if len(shape) and all(k.dtype == keys[0].dtype for k in keys):
        check_function("lexsort", np.stack(keys), axis=axis)


@pytest.mark.parametrize("args", [([],), ([np.zeros(3), np.zeros(4)],),
                                  ([np.zeros(3)], None), (np.zeros((0, 3)),)])
def test_lexsort_errors(args):
    check_function("lexsort", *args)


@pytest.mark.parametrize("name", ["sort", "argsort"])
@pytest.mark.parametrize("kwargs", [dict(kind="foo"), dict(kind=3), dict(order="f0"),
                                    dict(kind="stable", stable=True), dict(axis=1.0),
                                    dict(axis=2)])
def test_sort_errors(name, kwargs):
    check_function(name, np.arange(5.0), **kwargs)


def test_zero_dimensional():
    for name in ("sort", "argsort", "sort_complex"):
        check_function(name, np.array(3.0))
        check_function(name, np.array(3.0), axis=None)
    check_function("argsort", np.array(3.0), axis=0)
    check_function("argsort", np.array(3.0), axis=1)


# ----- partition --------------------------------------------------------------------

def assert_partitioned(values: np.ndarray, original: np.ndarray, kth, axis):
    """NumPy leaves the order inside the parts unspecified (lazyarr returns the sorted
    array, a valid partition), so test the definition: each kth element is the one
    of the sorted array, the elements before it are the smaller ones and those after
    it the larger ones (as multisets, in NumPy's order with NaN last)."""
    ordered = np.sort(original, axis=axis)
    n = original.shape[axis]
    for k in np.atleast_1d(kth):
        k = int(k) % n
        np.testing.assert_array_equal(np.take(values, [k], axis), np.take(ordered, [k], axis))
        for part in (slice(0, k), slice(k + 1, n)):
            index = [slice(None)] * original.ndim
            index[axis] = part
            np.testing.assert_array_equal(np.sort(values[tuple(index)], axis=axis),
                                          ordered[tuple(index)])


@given(data=st.data())
def test_partition_and_argpartition(data):
    dtype = data.draw(st.sampled_from(REAL + COMPLEX))
    x = with_ties(data.draw, dtype, data.draw(hnp.array_shapes(max_dims=3, max_side=5)))
    axis = data.draw(st.integers(-x.ndim, x.ndim - 1))
    n = x.shape[axis]
    kth = data.draw(st.one_of(st.integers(-n, n - 1),
                              st.lists(st.integers(-n, n - 1), min_size=1, max_size=3)))
    part = la.partition(x, kth, axis=axis)
    assert part.shape == x.shape and part.dtype == x.dtype
    assert_partitioned(np.asarray(part), x, kth, axis)
    order = np.asarray(la.argpartition(x, kth, axis=axis))
    assert order.dtype == np.intp and order.shape == x.shape
    assert_partitioned(np.take_along_axis(x, order, axis), x, kth, axis)
    flat = np.asarray(la.partition(x, 0, axis=None))
    assert_partitioned(flat, x.ravel(), 0, 0)


@pytest.mark.parametrize("name", ["partition", "argpartition"])
@pytest.mark.parametrize("kth", [5, -6, True, 1.0, [[1, 2]], []])
def test_partition_errors(name, kth):
    check_function(name, np.arange(5.0), kth)


def test_partition_error_kinds():
    check_function("partition", np.arange(5.0), 1, kind="foo")
    check_function("partition", np.array(5.0), 0)
    check_function("argpartition", np.array(5.0), 1)
    check_function("partition", np.zeros(0), 0)


# ----- searchsorted, digitize -------------------------------------------------------

@given(data=st.data())
def test_searchsorted(data):
    a = np.sort(some_array(data.draw, REAL + COMPLEX, min_dims=1, max_dims=1, max_side=8))
    v = some_array(data.draw, REAL + COMPLEX)
    side = data.draw(st.sampled_from(["left", "right"]))
    check_function("searchsorted", a, v, side=side)
    if a.size:
        check_function("searchsorted", a, a, side=side)
        shuffled = data.draw(st.permutations(list(range(a.size))))
        check_function("searchsorted", a[shuffled], v, side=side,
                       sorter=np.argsort(a[shuffled], kind="stable"))


def test_searchsorted_scalars_and_errors():
    a = np.array([1, 2, 3], np.int8)
    check_function("searchsorted", a, 300)
    check_function("searchsorted", np.array([1.0, 2.0], np.float32), 1.1)
    check_function("searchsorted", np.arange(5.0), 1j)
    for args, kwargs in [((np.ones((2, 2)), 1), {}), ((np.array(1.0), 1), {}),
                         ((np.arange(5.0), 1), dict(side="foo")),
                         ((np.arange(5.0), 1), dict(sorter=[0, 1])),
                         ((np.arange(5.0), 1), dict(sorter=[0, 1, 2, 3, 4.0])),
                         ((np.arange(5.0), 1), dict(sorter=[[0, 1, 2, 3, 4]]))]:
        check_function("searchsorted", *args, **kwargs)


@given(data=st.data())
def test_digitize(data):
    x = some_array(data.draw, REAL)
    bins = np.sort(clean(data.draw(arrays(data.draw(st.sampled_from(REAL)), shape=(
        data.draw(st.integers(0, 6)),)))))
    if data.draw(st.booleans()):
        bins = bins[::-1].copy()
    check_function("digitize", x, bins, right=data.draw(st.booleans()))


@pytest.mark.parametrize("args", [([1.5], [[1, 2]]), ([1.5], 1), ([1j], [1]),
                                  ([1.5], [2, 1, 3]), ([1.5], []), (1.5, [1, 2]),
                                  ([1.5], [np.nan, 1, 2]), ([1.5], [1, 1, np.nan, 3])])
def test_digitize_cases(args):
    check_function("digitize", *[np.asarray(a) for a in args])


# ----- unique and sets --------------------------------------------------------------

@given(data=st.data())
def test_unique(data):
    dtype = data.draw(st.sampled_from(NUMERIC))
    x = with_ties(data.draw, dtype, data.draw(hnp.array_shapes(min_dims=0, max_dims=3,
                                                               max_side=4)))
    options = dict(return_index=data.draw(st.booleans()),
                   return_inverse=data.draw(st.booleans()),
                   return_counts=data.draw(st.booleans()),
                   equal_nan=data.draw(st.booleans()))
    axis = data.draw(st.one_of(st.none(), st.integers(-x.ndim - 1, x.ndim)))
    check_function("unique", x, axis=axis, **options)


@given(data=st.data())
def test_unique_array_api(data):
    dtype = data.draw(st.sampled_from(NUMERIC))
    x = with_ties(data.draw, dtype, data.draw(hnp.array_shapes(min_dims=0, max_dims=2)))
    name = data.draw(st.sampled_from(["unique_all", "unique_counts", "unique_inverse"]))
    result = getattr(la, name)(x)
    assert type(result).__name__ == type(getattr(np, name)(x)).__name__
    assert result._fields == getattr(np, name)(x)._fields
    check(lambda v: tuple(getattr(np, name)(v)), lambda v: tuple(getattr(la, name)(v)), x)
    # NumPy returns unique_values (and unique(sorted=False)) in its hash table's
    # order, which is unspecified; lazyarr's are sorted.
    expected = np.sort(np.unique_values(x))
    assert_same(expected, la.unique_values(x))
    assert_same(np.sort(np.unique(x, sorted=False)), la.unique(x, sorted=False))


def test_unique_complex_nan_representative():
    """NumPy's hash-based unique keeps the first NaN of the input; its sort-based one
    (with return_*) the first in sorted order."""
    c = np.array([complex(np.nan, 1), complex(1, np.nan), complex(np.nan, np.nan), 1 + 1j,
                  complex(np.nan, 2), 0j, complex(-0.0, 0)])
    check_function("unique", c)
    check_function("unique", c, return_index=True)
    check_function("unique", c, equal_nan=False)


def test_unique_laziness(lazy_graph):
    """Only the count of unique values is read (one flush with cause "shape"). (Of a
    pending graph: eager execution, which reads views of computed buffers too, computes
    the count without a flush.)"""
    x = la.asarray(np.array([3.0, 1.0, 3.0, np.nan, 2.0])) * 2
    with la.count_flushes() as flushes:
        values, counts = la.unique(x, return_counts=True)
    assert dict(flushes.causes) == {"shape": 1}
    assert_same(np.unique(np.array([3.0, 1.0, 3.0, np.nan, 2.0]) * 2, return_counts=True),
                (values, counts))


def set_pair(draw, same_dtype=False):
    """Two arrays that share values; integer dtypes whose common type would be float64
    (a signed integer with uint64) are avoided: NumPy compares those exactly by one
    algorithm and in float64 by another, depending on sizes and values."""
    d1 = draw(st.sampled_from(NUMERIC))
    d2 = d1 if same_dtype else draw(st.sampled_from(NUMERIC))
    assume(not (d1.kind in "iu" and d2.kind in "iu" and np.result_type(d1, d2).kind == "f"))
    pool = draw(st.lists(elements(d1), min_size=1, max_size=4))
    shape = st.integers(0, 6)
    a = draw(hnp.arrays(d1, draw(shape), elements=st.sampled_from(pool)))
    b = draw(hnp.arrays(d1, draw(shape), elements=st.sampled_from(pool)))
    return clean(a), clean(b.astype(d2))


@given(data=st.data())
def test_isin(data):
    a, b = set_pair(data.draw)
    if data.draw(st.booleans()) and a.size:
        a = a.reshape(data.draw(st.sampled_from([(1, a.size), (a.size, 1), ()][:2 + (
            a.size == 1)])))
    check_function("isin", a, b, invert=data.draw(st.booleans()),
                   kind=data.draw(st.sampled_from([None, "sort"])))


def test_isin_kinds():
    check_function("isin", np.array([1]), np.array([1]), kind="foo")
    check_function("isin", np.array([1.0]), np.array([1]), kind="table")
    check_function("isin", np.array([1, 5, 3]), np.array([3, 1, 1]), kind="table")


@pytest.mark.parametrize("name", ["intersect1d", "union1d", "setdiff1d", "setxor1d"])
@given(data=st.data())
def test_set_operations(name, data):
    a, b = set_pair(data.draw)
    kwargs = {}
    if name != "union1d" and data.draw(st.booleans()):
        # assume_unique promises unique input; NumPy's result is undefined otherwise.
        a, b = np.unique(a, equal_nan=False), np.unique(b, equal_nan=False)
        kwargs["assume_unique"] = True
    if name == "intersect1d":
        kwargs["return_indices"] = data.draw(st.booleans())
    check_function(name, a, b, **kwargs)


# ----- bincount and histograms ------------------------------------------------------

@given(data=st.data())
def test_bincount(data):
    dtype = data.draw(st.sampled_from(BOOL + INTEGER))
    n = data.draw(st.integers(0, 8))
    x = data.draw(hnp.arrays(dtype, n, elements=st.integers(0, 1 if dtype == np.bool_ else 9)))
    kwargs = dict(minlength=data.draw(st.integers(0, 12)))
    if data.draw(st.booleans()):
        kwargs["weights"] = clean(data.draw(arrays(data.draw(st.sampled_from(REAL)),
                                                   shape=(n,))))
    check_function("bincount", x, **kwargs)


@pytest.mark.parametrize("args,kwargs", [
    ((np.array([-1, 2]),), {}), ((np.array([1.0]),), {}), ((np.array(1),), {}),
    ((np.array([[1]]),), {}), ((np.array([1]),), dict(minlength=-1)),
    ((np.array([1]),), dict(minlength=None)), ((np.array([1, 2]),), dict(weights=[1])),
    ((np.array([1, 2]),), dict(weights=[1j, 2])), ((np.array([1], np.uint64),), {}),
    ((np.array([1, 2]),), dict(weights=np.array([[1, 2]])))])
def test_bincount_cases(args, kwargs):
    check_function("bincount", *args, **kwargs)


def test_bincount_reads_only_the_extremes(lazy_graph):
    x = la.asarray(np.array([1, 3, 1])) + 1
    with la.count_flushes() as flushes:
        counts = la.bincount(x)
    assert dict(flushes.causes) == {"shape": 1}
    assert_same(np.bincount(np.array([2, 4, 2])), counts)


def histogram_values(draw):
    dtype = draw(st.sampled_from(REAL))
    return clean(draw(arrays(dtype, **{**SMALL, "max_dims": 2})))


@pytest.mark.parametrize("name", ["histogram", "histogram_bin_edges"])
@given(data=st.data())
def test_histogram(name, data):
    a = histogram_values(data.draw)
    bins = data.draw(st.one_of(
        st.integers(1, 6),
        st.sampled_from(["auto", "fd", "doane", "scott", "stone", "rice", "sturges",
                         "sqrt"]),
        st.lists(st.floats(-10, 10), min_size=1, max_size=5).map(sorted).map(clean)))
    kwargs = dict(bins=bins)
    if data.draw(st.booleans()):
        low = data.draw(st.floats(-5, 5))
        kwargs["range"] = (low, low + data.draw(st.floats(0, 10)))
    if data.draw(st.booleans()):
        kwargs["weights"] = clean(data.draw(arrays(data.draw(st.sampled_from(REAL + COMPLEX)),
                                                   shape=a.shape, finite=True)))
    if name == "histogram":
        kwargs["density"] = data.draw(st.booleans())
    check_function(name, a, **kwargs)


@pytest.mark.parametrize("kwargs", [dict(bins=0), dict(bins=2.5), dict(bins="foo"),
                                    dict(bins=[3, 1]), dict(bins=[[1, 2]]),
                                    dict(range=(2, 1)), dict(range=(0, np.inf)),
                                    dict(weights=np.ones(3)), dict(bins="auto",
                                                                   weights=np.ones(4))])
def test_histogram_errors(kwargs):
    check_function("histogram", np.array([1.0, 2.0, np.nan, 4.0]), **kwargs)
    check_function("histogram", np.array([1.0, 2.0, 3.0, 4.0]), **kwargs)


def test_histogram_blocks():
    """NumPy counts in blocks of 65536 values and adds the block sums in order."""
    rng = np.random.default_rng(0)
    a = rng.normal(size=70000)
    w = rng.normal(size=70000).astype(np.float32)
    check_function("histogram", a, bins=7, weights=w)
    check_function("histogram", a, bins=[-1, 0, 0.5, 2], weights=w)


def test_histogram_of_equal_bins_is_one_primitive():
    """Unweighted counts into equal bins are one `histogram_counts` instruction (NumPy's
    blockwise counting, not hundreds of recorded operations), with NumPy's counts for
    each kind of values and outer edges: from the data, a range of Python floats or
    ints, NumPy scalars, and a range a uint8 cannot hold (counted as before)."""
    rng = np.random.default_rng(0)
    cases = [
        (rng.normal(size=70000), dict(bins=100), True),
        (rng.normal(size=1000).astype(np.float32), dict(bins=7, range=(-1.1, 0.7)), True),
        (rng.normal(size=1000).astype(np.float16), dict(bins=5), True),
        (rng.integers(-50, 50, 1000).astype(np.int8), dict(bins=9), True),
        (rng.integers(0, 200, 1000), dict(bins=4, range=(10, 150)), True),
        (rng.normal(size=500), dict(bins=3, range=(np.float32(-0.5), np.float64(0.5))), True),
        (rng.integers(0, 200, 1000).astype(np.uint8), dict(bins=6, range=(-5, 300)), False),
        (np.linspace(-1.0, 1.0, 1001), dict(bins=10), True),  # values on every edge
        (np.array([np.nan, -np.inf, np.inf, -0.5, 0.0, 0.5, 0.25, 1e-310, -0.0]),
         dict(bins=4, range=(-0.5, 0.5)), True),  # outside, on the edges, subnormal
    ]
    for values, kwargs, one in cases:
        check_function("histogram", values, **kwargs)
        with la.use_eager(False):
            counts, _ = la.histogram(la.array(values), **kwargs)
            assert ("histogram_counts" in str(la.explain(counts))) == one, kwargs


@given(data=st.data())
def test_histogramdd(data):
    dims = data.draw(st.integers(1, 3))
    n = data.draw(st.integers(0, 6))
    dtype = data.draw(st.sampled_from(INTEGER + FLOAT))
    points = clean(data.draw(hnp.arrays(dtype, (n, dims),
                                        elements=elements(dtype, finite=True))))
    bins = [data.draw(st.one_of(st.integers(1, 4), st.lists(
        st.floats(-10, 10), min_size=1, max_size=4).map(sorted).map(clean)))
        for _ in range(dims)]
    kwargs = dict(bins=bins if data.draw(st.booleans()) else 3,
                  density=data.draw(st.booleans()))
    if data.draw(st.booleans()):
        kwargs["range"] = [None if data.draw(st.booleans()) else (-1.0, 2.5)
                           for _ in range(dims)]
    if data.draw(st.booleans()):
        kwargs["weights"] = data.draw(hnp.arrays(np.float64, n, elements=st.floats(0, 4)))
    check_function("histogramdd", points, **kwargs)
    if dims == 2:
        check_function("histogram2d", points[:, 0], points[:, 1], **kwargs)
    else:
        check_function("histogramdd", [points[:, i] for i in range(dims)], **kwargs)


@pytest.mark.parametrize("kwargs", [dict(bins=[2]), dict(bins=[0, 2]), dict(bins=[2.5, 2]),
                                    dict(bins=[[[1]], 2]), dict(bins=[[2, 1], 2]),
                                    dict(range=[(0, 1)]), dict(range=[(2, 1), None]),
                                    dict(weights=np.ones(2) * 1j)])
def test_histogramdd_errors(kwargs):
    check_function("histogramdd", np.arange(6.0).reshape(3, 2), **kwargs)
    check_function("histogramdd", np.ones((2, 2, 2)))
    check_function("histogram2d", np.ones(3), np.ones(2))


def test_lazy_where_the_shape_is_known():
    """Sorting, searching, membership and histograms with given bins and range build
    the graph without computing anything."""
    base = np.array([[3.0, np.nan, 1.0], [2.0, 2.0, -0.0]])
    x = la.asarray(base) * 2
    with la.count_flushes() as flushes:
        results = [la.sort(x), la.argsort(x, axis=0), la.partition(x, 1),
                   la.searchsorted(la.sort(x.ravel()), x), la.isin(x, [4.0, 0.0]),
                   la.digitize(x, [0.0, 2.0, 5.0]), la.histogram(x, 3, range=(0, 6))[0],
                   la.lexsort([x[0], x[1]])]
    assert flushes.count == 0
    assert_same(np.argsort(base * 2, axis=0, kind="stable"), results[1])
    assert_same(np.histogram(base * 2, 3, range=(0, 6))[0], results[6])
