"""File and buffer I/O against NumPy: what lazyarr writes is NumPy's file byte for byte,
what it reads is NumPy's data as lazyarr arrays, and bad input raises NumPy's error."""

import io
import zipfile

import numpy as np
import pytest
from hypothesis import given, strategies as st

import lazyarr as la

from differential import assert_same, check
from strategies import NUMERIC, arrays


def pending(a: np.ndarray) -> la.Array:
    """`a` as a lazyarr array that is still to be computed."""
    x = la.asarray(a).reshape((1,) + a.shape).reshape(a.shape)
    assert not x._node.is_computed
    return x


def saved(save, *args, **kwargs) -> bytes:
    buffer = io.BytesIO()
    save(buffer, *args, **kwargs)
    return buffer.getvalue()


def outcome(writer, *args, **kwargs):
    """What `writer` writes, or the type of the error it raises."""
    try:
        return saved(writer, *args, **kwargs)
    except Exception as exc:  # noqa: BLE001  (compared with NumPy's)
        return type(exc)


def members(archive: bytes) -> dict:
    """The .npz members by name (the zip's timestamps aside, NumPy's files)."""
    with zipfile.ZipFile(io.BytesIO(archive)) as zf:
        return {name: zf.read(name) for name in zf.namelist()}


# ----- writing ----------------------------------------------------------------------

@given(a=arrays())
def test_save_writes_numpys_npy(a):
    expected = saved(np.save, a)
    assert saved(la.save, pending(a)) == expected
    assert saved(np.save, pending(a)) == expected  # NumPy's save, through NEP 18
    assert saved(la.save, a) == expected


@given(a=arrays(shape=(2, 3)))
def test_save_of_a_scalar_and_of_lists(a):
    assert saved(la.save, pending(a)[1, 2]) == saved(np.save, a[1, 2])
    assert saved(la.save, [pending(a), a]) == saved(np.save, [a, a])


@pytest.mark.parametrize("save", ["savez", "savez_compressed"])
@given(a=arrays(), b=arrays(max_dims=2))
def test_savez_writes_numpys_members(save, a, b):
    expected = members(saved(getattr(np, save), a, b, named=b))
    lazy_b = pending(b)
    assert members(saved(getattr(la, save), pending(a), b, named=lazy_b)) == expected
    assert members(saved(getattr(np, save), pending(a), lazy_b, named=lazy_b)) == expected


@pytest.mark.usefixtures("lazy_graph")
def test_savez_computes_its_arrays_in_one_flush():
    x = la.arange(6.0)
    with la.count_flushes() as flushes:
        la.savez(io.BytesIO(), x * 2, y=la.sin(x), z=[x + 1, x - 1])
    assert flushes.count == 1


FORMATS = [{}, {"fmt": "%d"}, {"fmt": "%.3f", "delimiter": ","}, {"fmt": ["%g", "%.2e"]},
           {"header": "a b", "footer": "end", "comments": "// ", "newline": ";\n"}]


@pytest.mark.parametrize("options", FORMATS, ids=str)
@given(a=st.sampled_from(["int16", "uint8", "float32", "float64", "bool"]).flatmap(
    lambda dtype: arrays(dtype, shape=(3, 2))))
def test_savetxt_writes_numpys_text(options, a):
    expected = outcome(np.savetxt, a, **options)  # "%d" of NaN: NumPy's ValueError
    assert outcome(la.savetxt, pending(a), **options) == expected
    assert outcome(np.savetxt, pending(a), **options) == expected


@given(a=arrays("complex128", shape=(4,)))
def test_savetxt_of_complex_and_1d(a):
    assert saved(la.savetxt, pending(a)) == saved(np.savetxt, a)
    assert saved(la.savetxt, pending(a), fmt="%.2f") == saved(np.savetxt, a, fmt="%.2f")


def test_writers_on_real_files(tmp_path):
    a = np.arange(12, dtype=np.int32).reshape(3, 4)
    for name, suffix in [("save", ".npy"), ("savez", ".npz"), ("savetxt", ".txt")]:
        getattr(np, name)(tmp_path / f"numpy{suffix}", a)
        getattr(la, name)(str(tmp_path / f"lazy{suffix}"), pending(a))
        expected, actual = ((tmp_path / f"{who}{suffix}").read_bytes() for who in ("numpy", "lazy"))
        assert (members(actual) == members(expected)) if suffix == ".npz" else actual == expected
    la.save(tmp_path / "no_suffix", pending(a))  # NumPy adds .npy
    assert (tmp_path / "no_suffix.npy").read_bytes() == (tmp_path / "numpy.npy").read_bytes()


def test_writer_errors_are_numpys():
    lazy = la.arange(3.0)
    for save in ("savez", "savez_compressed"):
        check(lambda f, *a, **k: getattr(np, save)(f, *a, **k),
              lambda f, *a, **k: getattr(la, save)(f, *a, **k),
              io.BytesIO(), object(), allow_pickle=False)
        with pytest.raises(ValueError):
            getattr(la, save)(io.BytesIO(), lazy, arr_0=lazy)  # NumPy's duplicate name
    with pytest.raises(ValueError):
        la.save(io.BytesIO(), np.array([object()]), allow_pickle=False)
    with pytest.raises(ValueError):
        la.savetxt(io.BytesIO(), la.zeros((2, 2, 2)))  # NumPy: 1-D or 2-D only
    with pytest.raises(FileNotFoundError):
        la.save("/no/such/directory/x.npy", lazy)


# ----- reading ----------------------------------------------------------------------

@given(a=arrays())
def test_load_gives_numpys_array_as_lazyarr(a):
    data = saved(np.save, a)
    assert_same(a, la.load(io.BytesIO(data)))


@given(a=arrays(), b=arrays(max_dims=1))
def test_load_npz_is_numpys_npzfile_giving_lazyarr_arrays(a, b):
    data = saved(np.savez, a, b=b)
    with np.load(io.BytesIO(data)) as expected, la.load(io.BytesIO(data)) as actual:
        assert actual.files == expected.files and list(actual) == list(expected)
        assert list(actual.keys()) == list(expected.keys()) and len(actual) == len(expected)
        assert "b" in actual and "b.npy" in actual and "c" not in actual
        assert_same(expected["arr_0"], actual["arr_0"])
        assert_same(expected["b"], actual["b.npy"])
        assert_same(expected["b"], actual.f.b)
        assert_same(list(expected.values()), list(actual.values()))
        assert repr(actual) == repr(expected)
        with pytest.raises(KeyError):
            actual["c"]
    assert actual.zip is None  # closed on leaving the block


def test_load_and_savez_round_trip_on_files(tmp_path):
    x, y = la.linspace(0.0, 1.0, 5), la.arange(6, dtype=la.uint16).reshape(2, 3)
    la.savez_compressed(tmp_path / "both.npz", x=x, y=y)
    with la.load(tmp_path / "both.npz") as loaded:
        assert loaded["y"].dtype == np.uint16 and loaded["y"].shape == (2, 3)
        np.testing.assert_array_equal(loaded["x"], np.linspace(0.0, 1.0, 5))
    la.save(tmp_path / "x.npy", x)
    assert isinstance(la.load(tmp_path / "x.npy"), la.Array)


def test_load_keeps_numpys_objects_for_what_lazyarr_does_not_compute(tmp_path):
    np.save(tmp_path / "strings.npy", np.array(["a", "bc"]))
    assert type(la.load(tmp_path / "strings.npy")) is np.ndarray
    np.save(tmp_path / "objects.npy", np.array([{}, 1], dtype=object))
    assert type(la.load(tmp_path / "objects.npy", allow_pickle=True)) is np.ndarray
    np.save(tmp_path / "numbers.npy", np.arange(4.0))
    mapped = la.load(tmp_path / "numbers.npy", mmap_mode="r+")  # writes reach the file
    assert type(mapped) is np.memmap
    mapped[0] = 7.0
    mapped.flush()
    assert np.load(tmp_path / "numbers.npy")[0] == 7.0


def test_load_errors_are_numpys(tmp_path):
    check(np.load, la.load, str(tmp_path / "missing.npy"))
    with pytest.raises(FileNotFoundError):
        la.load(tmp_path / "missing.npz")
    np.save(tmp_path / "objects.npy", np.array([{}, 1], dtype=object))
    check(np.load, la.load, str(tmp_path / "objects.npy"))  # allow_pickle=False
    (tmp_path / "junk.npy").write_bytes(b"not an array")
    check(np.load, la.load, str(tmp_path / "junk.npy"))
    check(np.load, la.load, str(tmp_path / "junk.npy"), allow_pickle=True)  # UnpicklingError


TEXT = "# comment\n1 2.5 3\n4 -5 6e3\n7 nan inf\n"


@pytest.mark.parametrize("kwargs", [{}, {"dtype": "float32"}, {"dtype": int, "usecols": 0},
                                    {"skiprows": 2}, {"unpack": True}, {"ndmin": 3},
                                    {"skiprows": 1, "max_rows": 1, "usecols": (2, 1)},
                                    {"dtype": "complex64"}], ids=str)
def test_loadtxt_and_genfromtxt_give_numpys_values(tmp_path, kwargs):
    path = tmp_path / "data.txt"
    path.write_text(TEXT)
    check(np.loadtxt, la.loadtxt, str(path), **kwargs)
    gen_kwargs = {k: v for k, v in kwargs.items() if k not in ("skiprows", "dtype")}
    check(np.genfromtxt, la.genfromtxt, str(path), **gen_kwargs)
    check(np.loadtxt, la.loadtxt, TEXT.splitlines(), **kwargs)  # any iterable of lines


def test_text_readers_keep_numpys_objects_for_non_numeric_results(tmp_path):
    path = tmp_path / "table.csv"
    path.write_text("a,b\n1,x\n2,\n")
    records = la.genfromtxt(path, delimiter=",", names=True, dtype=None, encoding="utf-8")
    assert type(records) is np.ndarray and records.dtype.names == ("a", "b")
    masked = la.genfromtxt(path, delimiter=",", skip_header=1, usemask=True)
    assert type(masked) is np.ma.MaskedArray
    assert type(la.loadtxt(path, dtype=str, delimiter=",")) is np.ndarray


def test_text_reader_errors_are_numpys(tmp_path):
    path = tmp_path / "bad.txt"
    path.write_text("1 2\n3 x\n")
    check(np.loadtxt, la.loadtxt, str(path))
    check(np.genfromtxt, la.genfromtxt, str(path), dtype=int, invalid_raise=True)
    check(np.loadtxt, la.loadtxt, str(tmp_path / "missing.txt"))
    check(np.genfromtxt, la.genfromtxt, str(tmp_path / "missing.txt"))


@given(a=arrays(min_dims=1, max_dims=1))
def test_binary_readers_give_numpys_values(tmp_path, a):
    data = a.tobytes()
    check(np.frombuffer, la.frombuffer, data, a.dtype)
    check(np.frombuffer, la.frombuffer, data, a.dtype, count=a.size // 2)
    (tmp_path / "data.bin").write_bytes(data)
    check(np.fromfile, la.fromfile, str(tmp_path / "data.bin"), a.dtype)
    check(np.fromfile, la.fromfile, str(tmp_path / "data.bin"), a.dtype, offset=a.itemsize)
    assert_same(np.fromiter(a, a.dtype), la.fromiter(a.tolist(), a.dtype))


def test_frombuffer_copies_and_reads_any_byte_order(tmp_path):
    buffer = bytearray(np.arange(4, dtype=">i4").tobytes())
    x = la.frombuffer(buffer, ">i4")
    buffer[:4] = b"\xff\xff\xff\xff"  # a copy: lazyarr's array keeps the values read
    assert x.dtype == np.int32 and x.dtype.isnative
    np.testing.assert_array_equal(x, [0, 1, 2, 3])
    assert_same(np.arange(4.0) * 2, la.frombuffer(np.arange(4.0).astype(">f8").tobytes(),
                                                  ">f8") * 2)
    path = tmp_path / "big.bin"
    np.arange(5, dtype=">u2").tofile(path)
    assert_same(np.arange(1, 5, dtype=np.uint16), la.fromfile(path, ">u2", offset=2))


def test_text_readers():
    check(np.fromstring, la.fromstring, "1 2 3.5", sep=" ")
    check(np.fromstring, la.fromstring, "1,2,3", dtype=np.int8, sep=",")
    check(np.fromstring, la.fromstring, b"\x00" * 8)  # NumPy removed binary mode


def test_binary_reader_errors_are_numpys(tmp_path):
    check(np.frombuffer, la.frombuffer, b"\x00" * 3, np.int16)  # not a multiple
    check(np.frombuffer, la.frombuffer, b"\x00" * 4, np.int16, count=5)
    check(np.fromiter, la.fromiter, iter([1, 2]), np.int8, count=3)
    check(np.fromfile, la.fromfile, str(tmp_path / "missing.bin"))


@pytest.mark.parametrize("dtype", NUMERIC, ids=str)
def test_readers_accept_like(dtype):
    like = la.zeros(1)
    assert_same(np.frombuffer(b"\x01" * 16, dtype),
                np.frombuffer(b"\x01" * 16, dtype, like=like))  # NEP 35 dispatch
    assert_same(np.fromiter([1, 0], dtype), la.fromiter([1, 0], dtype, like=like))
    assert_same(np.loadtxt(["1 0"], dtype), np.loadtxt(["1 0"], dtype, like=like))
    assert_same(np.genfromtxt(["1 0"], dtype), np.genfromtxt(["1 0"], dtype, like=like))
