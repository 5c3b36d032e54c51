"""The Array API inspection utilities, against the 2025.12 standard's required keys and
NumPy's own `np.__array_namespace_info__()`."""

import numpy
import pytest

import lazyarr
import lazyarr as np

KINDS = ["bool", "signed integer", "unsigned integer", "integral", "real floating",
         "complex floating", "numeric"]


@pytest.fixture
def info():
    return np.__array_namespace_info__()


@pytest.fixture
def ref():
    return numpy.__array_namespace_info__()


def test_version():
    assert np.__array_api_version__ == "2025.12"


def test_capabilities(info, ref):
    caps = info.capabilities()
    assert caps == ref.capabilities()
    assert set(caps) == {"boolean indexing", "data-dependent shapes", "max dimensions"}


def test_devices_follow_the_selected_backend(info, backend):
    devices = info.devices()
    assert isinstance(devices, tuple) and devices
    assert info.default_device() == np._backend.current().device == devices[0]
    if backend == "numpy":
        assert devices == tuple(numpy.__array_namespace_info__().devices())
    # every listed device is a valid creation `device=` and reported back by the array
    x = np.zeros(2, device=info.default_device())
    assert x.device == info.default_device()


def test_default_dtypes(info, ref):
    assert info.default_dtypes() == ref.default_dtypes()
    assert info.default_dtypes(device=info.default_device()) == ref.default_dtypes()
    assert set(info.default_dtypes()) == {"real floating", "complex floating", "integral",
                                          "indexing"}


@pytest.mark.parametrize("kind", [None, *KINDS, ("bool", "real floating"),
                                  ("signed integer", "complex floating")])
def test_dtypes_match_numpy(info, ref, kind):
    got = info.dtypes(kind=kind)
    want = ref.dtypes(kind=kind)
    assert list(got) == list(want)
    for name, dt in got.items():
        assert dt == want[name] == numpy.dtype(name)
        assert np.zeros(1, dtype=dt).dtype == dt


def test_dtypes_device(info):
    assert info.dtypes(device=info.default_device()) == info.dtypes()


@pytest.mark.parametrize("call", [
    lambda i: i.dtypes(kind="floating"),
    lambda i: i.dtypes(kind=("bool", "strings")),
    lambda i: i.dtypes(device="no-such-device"),
    lambda i: i.default_dtypes(device="no-such-device"),
])
def test_bad_arguments(info, ref, call):
    with pytest.raises(ValueError):
        call(ref)
    with pytest.raises(ValueError):
        call(info)


@pytest.mark.parametrize("kind", ["bool", "signed integer", "unsigned integer", "integral",
                                  "real floating", "complex floating", "numeric",
                                  ("integral", "bool"), np.float32])
def test_isdtype_matches_numpy(kind):
    for dtype in (np.bool_, np.int8, np.uint16, np.int64, np.float16, np.float32,
                  np.float64, np.complex64, np.complex128):
        expected = numpy.isdtype(numpy.dtype(dtype), kind)
        assert lazyarr.isdtype(numpy.dtype(dtype), kind) is expected
        assert lazyarr.isdtype(dtype, kind) is expected  # the Array API passes types


def test_isdtype_knows_bfloat16_and_rejects_bad_input():
    bf16 = numpy.dtype(lazyarr.bfloat16)
    assert lazyarr.isdtype(bf16, "real floating") and not lazyarr.isdtype(bf16, "integral")
    with pytest.raises(ValueError):
        lazyarr.isdtype(numpy.dtype("f8"), "no such kind")
    with pytest.raises(TypeError):
        lazyarr.isdtype(3, "integral")
