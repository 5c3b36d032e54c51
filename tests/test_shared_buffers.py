"""Host buffers shared with NumPy (`numpy.asarray(x)`, `x.__array__()`; see
lazyarr/_shared.py): writes on either side are seen on the other, results recorded
before a write keep NumPy's values, and the common case on the CPU copies nothing.

Each program runs on NumPy and on lazyarr and returns what it saw."""

import tracemalloc

import numpy
import pytest

import lazyarr as la
from lazyarr import _eager

N = 5000  # past lazyarr._eager's bound: the operations are recorded, not run at once


def _values(a):
    return numpy.array(a).tolist()


def _both_ways(m):
    x = m.arange(12.0)
    h = numpy.asarray(x)
    rows = x.reshape(3, 4)          # views of x made before and after the export
    t = rows.T
    y = x * 2                       # recorded before the writes through h
    c = x.copy()
    f = rows.flatten()
    h[1] = 50.0                     # through the exported buffer
    seen = [_values(x), _values(rows), _values(t), _values(y), _values(c), _values(f)]
    x[0] = -1.0                     # lazy writes: into x, into a view, through a gather
    rows[2, 1:3] = 7.0
    t[3] += 100.0
    x[[4, 5]] = 3.0
    x[x > 60] = 0.0
    seen.append(_values(h))         # seen through the exported buffer
    v = numpy.asarray(t[1:, :2])    # an exported view writes into x too
    v[...] = -9.0
    seen += [_values(x), _values(h), numpy.shares_memory(h, v), h.flags.writeable]
    z = m.zeros(3)
    z[:] = x[:3]                    # a write reading the buffer, before it changes
    h[:3] = 1.0
    seen += [_values(z), _values(x[:3])]
    return seen


def test_writes_on_either_side_are_seen_on_the_other():
    assert _both_ways(la) == _both_ways(numpy)


def _reads_between_writes(m):
    x = m.arange(float(N))  # exact sums in any order (XLA's summation order is its own)
    h = numpy.asarray(x)
    seen = []
    for i in range(3):
        s = x.sum()                 # recorded, then the buffer changes under it
        y = (x * i + 1.0)[::7]
        h[::3] += 1.0
        seen += [float(s), _values(y)[:5], float(x[3]), float(x.max())]
        x[i::5] = -float(i)
        seen.append(float(h[i]))
    return seen


def test_results_recorded_before_a_write_keep_numpys_values():
    assert _reads_between_writes(la) == _reads_between_writes(numpy)


def _pandas_edits(m, pd):
    x = m.arange(10.0)
    w = x[2:8]
    s = pd.Series(x, copy=False)    # a Series sharing x's memory
    s[s > 4] = 0.0
    s.iloc[1] = 9.0
    seen = [_values(x), _values(w), float(x.sum())]
    x[3] = -3.0                     # a lazy write shows in the Series
    seen += [s.tolist(), _values(w)]
    return seen


def test_pandas_edits_of_a_series_show_in_the_array_and_its_views():
    pd = pytest.importorskip("pandas")
    assert _pandas_edits(la, pd) == _pandas_edits(numpy, pd)


class _ArrayLike:
    """Any object whose `__array__` shares its memory (as dask's, as lazyarr's)."""

    def __init__(self, data):
        self.data = data

    def __array__(self, dtype=None, copy=None):
        return self.data

    def __len__(self):
        return len(self.data)

    def __iter__(self):
        return iter(self.data)


def test_a_default_series_shares_memory_as_for_any_array_like():
    """pandas copies an ndarray given to Series() (copy-on-write) but takes any other
    array-like's `numpy.asarray` as it is: a lazyarr array is such an array-like, so its
    edits through the Series show in the array, as they do for `_ArrayLike`."""
    pd = pytest.importorskip("pandas")
    data = numpy.arange(10.0)
    x = la.arange(10.0)
    for a in (x, _ArrayLike(data)):
        s = pd.Series(a)
        s[s > 4] = 0.0
    assert _values(x) == data.tolist() == [0, 1, 2, 3, 4, 0, 0, 0, 0, 0]


def test_the_common_case_copies_nothing(backend, compile_tier):
    """An export of a computed host buffer, reads of it, operations recorded on it and
    writes into it (an element, a slice, indices, a mask, pandas' own edits): no copy
    of the buffer (lazyarr.stats()["shared_buffer_copies"]) and one memory throughout.
    Compiled, so that on XLA the exported result is XLA's own buffer (the interpreter's
    results are host buffers, exported without a copy)."""
    pd = pytest.importorskip("pandas")
    la.reset_stats()
    x = la.arange(float(N))
    h = numpy.asarray(x)
    # a compiled XLA result is XLA's own (immutable) buffer: its host copy is shared
    at_export = la.stats()["shared_buffer_copies"]
    assert at_export == (0 if backend == "numpy" else 1)
    first = h.__array_interface__["data"][0]
    total = 0.0
    for i in range(3):
        total += float((x * 2.0 + i).sum())
        x[i] = -1.0
        x[10:20] = float(i)
        x[[30, 31]] = 5.0
        x[x > N - 10] = 0.0
        x += 1.0
        numpy.multiply(x[::2], 0.5, out=x[::2])
        h[40] = 7.0
        assert float(x[40]) == 7.0
    s = pd.Series(x)
    s[s > 4000] = 1.0
    assert float(x.max()) == 4000.0
    assert numpy.shares_memory(numpy.asarray(x), h) and numpy.asarray(x) is h
    assert numpy.asarray(x[5:9]).__array_interface__["data"][0] == first + 5 * 8
    assert la.stats()["shared_buffer_copies"] == at_export
    expected = numpy.arange(float(N))
    e_total = 0.0
    for i in range(3):
        e_total += float((expected * 2.0 + i).sum())
        expected[i] = -1.0
        expected[10:20] = float(i)
        expected[[30, 31]] = 5.0
        expected[expected > N - 10] = 0.0
        expected += 1.0
        numpy.multiply(expected[::2], 0.5, out=expected[::2])
        expected[40] = 7.0
    expected[expected > 4000] = 1.0
    assert total == e_total and _values(x) == expected.tolist()


ROW_KEYS = {"mask, slice": lambda m: (m, slice(None)), "mask, int": lambda m: (m, 1),
            "mask, slice of two": lambda m: (m, slice(1, 3)), "int rows": lambda m: ([1, 5],)}


@pytest.mark.parametrize("key", ROW_KEYS.values(), ids=ROW_KEYS.keys())
def test_writes_at_masked_rows_are_made_in_place(key):
    """`x[mask, :] = v` into a buffer shared with NumPy (lbm's bounce-back) writes the
    rows in place, as NumPy does: no copy of the buffer."""
    rng = numpy.random.default_rng(0)
    a, mask = rng.random((100, 100, 9)), rng.random((100, 100)) < 0.3  # past _eager's bound
    expected = a.copy()
    values = rng.random(expected[key(mask)].shape)
    expected[key(mask)] = values
    la.reset_stats()
    x = la.asarray(a, copy=False)  # shares `a` (on the CPU without copy=False too)
    x[key(la.asarray(mask))] = la.asarray(values)
    assert la.stats()["shared_buffer_copies"] == 0
    assert numpy.shares_memory(numpy.asarray(x), a)
    assert _values(a) == expected.tolist() and _values(x) == expected.tolist()


def test_what_copies_is_counted():
    """A buffer other arrays share is copied at the export; a write that is not a region,
    index, mask or ufunc write (`x.sort()`) is computed and copied into the buffer."""
    la.reset_stats()
    x = la.arange(float(N))
    y = x[::2]                       # a view: x's buffer cannot become the shared one
    h = numpy.asarray(x)
    assert la.stats()["shared_buffer_copies"] == 1
    x[::-1] = x * -1.0               # a region write: in place
    x.sort()                         # computed, then copied in
    assert la.stats()["shared_buffer_copies"] == 2
    assert h[:3].tolist() == [1.0 - N, 2.0 - N, 3.0 - N] and _values(y)[:2] == [1.0 - N,
                                                                               3.0 - N]


def test_a_failed_write_leaves_the_shared_buffer_as_it_was():
    x = la.arange(6.0)
    h = numpy.asarray(x)
    with pytest.raises(IndexError):
        x[la.asarray([1, 9])] = 5.0
    assert h.tolist() == list(range(6)) and _values(x) == list(range(6))
    x[1] = 4.0
    assert h[1] == 4.0


def test_views_and_elements_of_an_exported_array_copy_nothing(backend):
    """Views (indexing, reshapes, transposes) of an exported array are views of its
    buffer, made without computing or copying anything; an element is NumPy's scalar,
    its value at the indexing."""
    x = la.arange(float(N)).reshape(50, 100)
    h = numpy.asarray(x)
    la.reset_stats()
    rows = [x[i] for i in range(3)] + [x[1:3, ::2], x.T[5], x.reshape(-1)[7:9]]
    element = x[0, 4]
    assert la.stats()["flushes_total"] <= 1  # the element's read, at most
    h[0, 4] = -7.0
    h[1] += 1000.0
    assert float(element) == 4.0 and float(rows[0][4]) == -7.0
    assert _values(rows[1])[:2] == [1100.0, 1101.0] and float(rows[4][1]) == 1105.0
    assert _values(rows[3])[0][:2] == [1100.0, 1102.0] and _values(rows[5]) == [7.0, 8.0]
    assert all(numpy.shares_memory(numpy.asarray(r), h) for r in rows)
    assert la.stats()["shared_buffer_copies"] == 0
    big = la.arange(1e6)
    numpy.asarray(big)
    tracemalloc.start()
    try:
        views = [big[1:], big[::2], big.reshape(1000, 1000)[1:], big[None], big[3:][::-1]]
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 400_000, peak  # no copy of the 8 MB buffer, nor of a view's part
    assert [v.shape for v in views] == [(999999,), (500000,), (999, 1000), (1, 10**6),
                                        (999997,)]


def _relayouts(m):
    """In-place layout changes of an exported array. NumPy's `asarray(x)` is `x`
    itself, so the NumPy code here holds a view of it (`[...]`), as for lazyarr."""
    seen = []
    x = m.arange(6.0)
    h = numpy.asarray(x)[...]
    with pytest.raises(ValueError) as info:  # NumPy refuses: its memory is referenced
        x.resize(8)
    seen.append(str(info.value))
    x.shape = (2, 3)
    h[0] = 9.0
    seen.append(_values(x))
    x[1, 2] = -1.0
    seen.append(h.tolist())
    z = m.arange(10.0)
    k = numpy.asarray(z)[...]
    z.shape = (5, 2)
    z[:, 0] = 7.0
    seen.append(k.tolist())
    with pytest.warns(DeprecationWarning):
        o = m.arange(9.0)
        p = numpy.asarray(o)[...]
        o.strides = (0,)                # the owner's own strides
        p[0] = 4.0
        seen.append(_values(o))
        o[0] = -2.0
        seen.append(p.tolist())
        d = m.arange(9.0)
        f = numpy.asarray(d)[...]
        e = d[:3]
        e.strides = (32,)               # a view's strides
        e[:] = -5.0
        seen += [f.tolist(), _values(e)]
    return seen


def test_shape_and_strides_set_in_place_keep_the_memory_shared():
    assert _relayouts(la) == _relayouts(numpy)


def test_resize_without_refcheck_ends_the_sharing():
    x = la.arange(4.0)
    h = numpy.asarray(x)
    x.resize(6, refcheck=False)
    h[0] = 9.0
    assert _values(x) == [0.0, 1.0, 2.0, 3.0, 0.0, 0.0] and h.tolist() == [9.0, 1, 2, 3]


def _in_place_ufuncs(m):
    x = m.arange(12.0).reshape(3, 4)
    h = numpy.asarray(x)
    y = x * 1.0                      # recorded before the in-place writes
    x += 1.0
    x[1] *= x[1]                     # reads what it writes
    m.subtract(x, m.arange(4.0), out=x, where=x > 10)
    x.T[0] /= 2.0
    i = m.arange(4)
    numpy.asarray(i)
    seen = [h.tolist(), _values(x), _values(y)]
    for op in (lambda: i.__iadd__(1.5), lambda: m.add(i, 1, out=x[0, :2])):
        with pytest.raises((TypeError, ValueError)) as info:  # NumPy's cast and shape errors
            op()
        seen.append((type(info.value).__name__, str(info.value)))
    return seen


def test_in_place_ufuncs_write_numpys_values_into_the_buffer():
    assert _in_place_ufuncs(la) == _in_place_ufuncs(numpy)


BIG = 40_000  # past lazyarr._eager.MAX_ELEMENTS: asarray shares the ndarray's memory


def _asarray_of_an_ndarray(m, copy=None):
    a = numpy.arange(float(BIG))
    b = m.asarray(a, copy=copy)     # NumPy's asarray(ndarray) is the ndarray itself
    y = b * 2.0                     # recorded before the writes below
    rows = b.reshape(200, 200)
    a[0] = -5.0                     # the caller's write shows through b and its views
    b[1] = -7.0                     # a write through b shows in the caller's array
    b[200:203] = 9.0
    c = m.asarray(a, copy=True)     # a copy sees no later write
    a[2] = 4.0
    return [_values(y)[:4], _values(b)[:4], a[:4].tolist(), _values(rows[1, :4]),
            _values(c)[:4], float(b.sum()), numpy.shares_memory(numpy.asarray(b), a)]


@pytest.mark.parametrize("copy", [None, False])
def test_asarray_of_an_ndarray_shares_its_memory_as_numpys_does(backend, copy):
    """`asarray(ndarray)` is the ndarray's own memory, as in NumPy (no copy: the input
    of a NumPy script's `np.asarray(data)` is never copied); what was recorded on it
    before a write keeps NumPy's values. On an accelerator, only where copy=False asks
    for it (docs/semantics.md): otherwise a copy, which a later write does not change."""
    la.reset_stats()
    if copy is None and not _eager.on_host():
        a = numpy.arange(float(BIG))
        b = la.asarray(a)
        a[0] = -5.0
        assert _values(b)[:2] == [0.0, 1.0] and not numpy.shares_memory(numpy.asarray(b), a)
        return
    assert _asarray_of_an_ndarray(la, copy) == _asarray_of_an_ndarray(numpy, copy)
    assert la.stats()["shared_buffer_copies"] == 0


def _windows_of_a_shared_buffer(m, copy=None):
    a = numpy.arange(40_000.0)
    x = m.asarray(a, copy=copy)
    windows = [x[s:s + 100] for s in range(0, 1000, 300)]
    before = [float(w.mean()) for w in windows]
    a[:1000] *= -1
    doubled = windows[1] * 2  # recorded between two writes
    a[:1000] += 7
    after = [float(w.sum()) for w in windows] + [float(windows[2][3:9].max())]
    return before, after, _values(doubled)[:3], float(x[5]), x[10:20].shape


def test_windows_of_a_shared_buffer_read_it_as_it_is_then(backend):
    """A moving window `x[s:s + k]` of an `asarray(ndarray)` is NumPy's view of the
    buffer (no node, no copy) and its reductions read the buffer as it is at the call,
    as NumPy's do (`_shared.live_value`)."""
    copy = None if _eager.on_host() else False  # (an accelerator shares when asked)
    expected = _windows_of_a_shared_buffer(numpy, copy)
    la.reset_stats()
    assert _windows_of_a_shared_buffer(la, copy) == expected
    with la.use_tier("interpret"), la.use_eager(True):  # the eager path's windows
        assert _windows_of_a_shared_buffer(la, copy) == expected
        eager = la.stats()["eager_ops"]
    assert la.stats()["shared_buffer_copies"] == 0
    assert eager or not _eager.on_host()


def test_asarray_copies_where_numpy_would_or_sharing_cannot_be_kept():
    """A cast, a read-only or non-contiguous array, and a small one (computed at once
    by the eager path, where watching a shared buffer costs a flush an operation) are
    copied: a later write to the ndarray does not show."""
    a = numpy.arange(float(BIG))
    ro = a.copy()
    ro.flags.writeable = False
    for made in (la.asarray(a, dtype=numpy.float32), la.asarray(ro), la.asarray(a[::2]),
                 la.asarray(a[:10])):
        before = _values(made)[:1]
        a[0] = ro[0] + 1.0
        assert _values(made)[:1] == before
    small = numpy.arange(4.0)
    shared = la.asarray(small, copy=False)  # asked for: shared at any size
    small[0] = 8.0
    assert _values(shared) == [8.0, 1.0, 2.0, 3.0]
    shared[1] = 9.0
    assert small.tolist() == [8.0, 9.0, 2.0, 3.0]
