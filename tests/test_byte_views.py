"""Views that NumPy makes over an array's memory, against NumPy (issue 11): setting
`shape` reshapes an owner in place and its earlier views stay views of it;
`view(dtype)` and `as_strided`/`sliding_window_view(writeable=True)` are views that
write through to their owner, overlapping strides included; bad input raises NumPy's
exception type."""

import numpy as np
import pytest

import lazyarr as la

ST = {np: np.lib.stride_tricks, la: la.lib.stride_tricks}


def _values(x):
    return np.array(np.asarray(x))


def _check(program):
    """Run `program(module)` with NumPy and lazyarr; each snapshot must match (value,
    shape and dtype, or the same Python value)."""
    expected, got = program(np), program(la)
    assert len(expected) == len(got)
    for e, g in zip(expected, got):
        if isinstance(e, np.ndarray):
            g = _values(g)
            assert (e.shape, e.dtype) == (g.shape, g.dtype)
            np.testing.assert_array_equal(g, e)
        else:
            assert e == g


def test_views_of_an_owner_whose_shape_is_set():
    def program(m):
        a = m.arange(12.0)
        v, w = a[2:8], a[::3]
        a.shape = (3, 4)
        out = [_values(v), a.strides, v.base is a, w.base is a, a.base is None]
        v[0] = -1  # through an old view, after the shape change
        out.append(_values(a))
        a[1, :] = 100  # through the owner, seen by the old views
        out += [_values(v), _values(w)]
        u = a[:, 1]
        a.shape = (2, 6)  # again: views of both shapes stay views
        u[:] = 7
        w[...] = 0
        out += [_values(a), _values(v), _values(w), _values(u), bool(np.shares_memory(u, a))]
        a.shape = (12,)
        a += 1
        out += [_values(u), _values(v)]
        return out
    _check(program)


def test_setting_shape_keeps_flags_and_refuses_copies():
    def program(m):
        a = m.arange(6)
        a.flags.writeable = False
        a.shape = (2, 3)
        out = [a.flags.writeable]
        f = m.asfortranarray(m.arange(6.0).reshape(2, 3))
        f.shape = (2, 3, 1)
        out += [f.flags.f_contiguous, f.strides, _values(f)]
        for bad in (lambda: setattr(f, "shape", (6,)), lambda: setattr(m.arange(4), "shape", (3,))):
            with pytest.raises((AttributeError, ValueError)) as info:
                bad()
            out.append(info.type)
        return out
    _check(program)


@pytest.mark.parametrize("dtype, new", [
    ("float64", "int64"), ("float64", "float32"), ("int16", "uint8"), ("int8", "int32"),
    ("float64", "complex128"), ("complex64", "float32"), ("complex128", "int32"),
    ("uint8", "bool"), ("int32", "float32")])
def test_view_dtype_writes_through(dtype, new):
    def program(m):
        a = m.arange(16).astype(dtype)
        if new == "bool":  # bytes 0 and 1 (docs/semantics.md: other bytes as bools)
            a = a % 2
        v = a.view(new)
        out = [_values(v), v.base is a, v.strides]
        v[1] = v[0]
        out.append(_values(a))
        a[-1] = 3  # the owner's write shows through the view
        out.append(_values(v))
        w = a.reshape(4, 4)[1:3].view(new)  # a view of a view of rows
        w[0] = w[1]
        out += [_values(a), w.shape, _values(w.view(dtype))]
        return out
    _check(program)


def test_bool_view_of_other_bytes():
    """The documented deviation: a bool view reads bytes other than 0 and 1 as True
    (as NumPy does), and a write through it keeps the bytes whose truth it leaves."""
    a = la.asarray(np.array([0, 2, 7, 0], np.uint8))
    v = a.view(bool)
    np.testing.assert_array_equal(_values(v), [False, True, True, False])
    v[:] = [True, True, False, True]
    np.testing.assert_array_equal(_values(a), [1, 2, 0, 1])


def test_view_dtype_bad_input():
    for make in (lambda m: m.arange(3.0).view("V3"),  # itemsize does not divide
                 lambda m: m.arange(6.0).reshape(2, 3).T.view(np.int32),  # last axis strided
                 lambda m: m.arange(3.0)[::2].view(np.int32),
                 lambda m: m.asarray(1.0).view(np.int32)):  # a 0-d array of another size
        with pytest.raises(ValueError):
            make(np)
        with pytest.raises(ValueError):
            make(la)


def test_as_strided_writes_through():
    def program(m):
        st = ST[m]
        x = m.arange(10.0)
        s = st.as_strided(x, (4,), (16,))
        s[1] = -5
        out = [_values(x)]
        x[4] = 44
        out.append(_values(s))
        y = m.arange(12.0).reshape(3, 4)
        d = st.as_strided(y, (3,), (40,))  # the diagonal
        d += 100
        out += [_values(y), d.strides, bool(np.shares_memory(d, y)), d.flags.writeable]
        t = st.as_strided(y.T, (2, 3), (8, 32))  # from a transposed view
        t[1] = 0
        out.append(_values(y))
        f = m.asfortranarray(m.arange(6.0).reshape(2, 3))
        g = st.as_strided(f, (3,), (16,))  # a Fortran-ordered owner's memory order
        g[:] = -1
        out += [_values(f), _values(g)]
        b = m.arange(8, dtype=np.int32)
        c = st.as_strided(b.view(np.int16), (4,), (8,))  # a view of view(dtype)
        c[:] = 1
        out.append(_values(b))
        r = st.as_strided(x, (3,), (8,), writeable=False)
        with pytest.raises(ValueError):
            r[0] = 1
        return out
    _check(program)


def test_overlapping_strides_alias_as_numpy():
    def program(m):
        st = ST[m]
        x = m.arange(10.0)
        win = st.as_strided(x, (4, 3), (8, 8))  # rows overlap
        win[1, 1] = 1000  # every alias of x[2] sees it
        out = [_values(x), _values(win)]
        win[:, 0] = 7
        out.append(_values(x))
        sw = st.sliding_window_view(x, 3, writeable=True)
        sw[0, 2] = -1
        out += [_values(x), _values(sw), sw.flags.writeable,
                st.sliding_window_view(x, 3).flags.writeable]
        z = m.zeros(3)
        rep = st.as_strided(z, (3, 4), (8, 0))  # a zero stride
        rep[:, 2] = [1.0, 2.0, 3.0]
        out += [_values(z), _values(rep)]
        return out
    _check(program)


def test_as_strided_bad_input():
    x = la.arange(10.0)
    with pytest.raises(ValueError):
        la.lib.stride_tricks.as_strided(x, (10,), (16,))  # past the buffer's end
    with pytest.raises(ValueError):
        la.lib.stride_tricks.as_strided(x, (3,), (8, 8))  # NumPy's length mismatch
    with pytest.raises(ValueError):
        np.lib.stride_tricks.as_strided(np.arange(10.0), (3,), (8, 8))
    with pytest.raises(ValueError):
        la.lib.stride_tricks.sliding_window_view(x, 11)  # NumPy's: window too large
    with pytest.raises(ValueError):
        np.lib.stride_tricks.sliding_window_view(np.arange(10.0), 11)


@pytest.mark.filterwarnings("ignore::DeprecationWarning")
def test_setting_strides_of_a_view_is_a_view():
    def program(m):
        a = m.arange(25.0).reshape(5, 5)
        e = a.ravel()[:5]
        e.strides = (48,)  # the diagonal, as a view
        e[:] = -1
        return [_values(a), _values(e), e.strides]
    _check(program)


def test_views_of_an_exported_array_are_views():
    x = la.arange(4.0)
    h = np.asarray(x)
    t = x.reshape(2, 2).T
    assert t.base is x
    t[0, 1] = 9
    assert h[2] == 9 and float(x[2]) == 9
