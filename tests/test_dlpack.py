"""DLPack, the Array API's interchange protocol, both ways."""

import numpy
import pytest

import lazyarr as la
from differential import assert_same


@pytest.mark.parametrize("dtype", ["bool", "int8", "uint32", "int64", "float32", "float64",
                                   "complex128"])
def test_numpy_reads_lazyarr_arrays(dtype):
    data = (numpy.arange(6) % 3).astype(dtype).reshape(2, 3)
    x = la.asarray(data) * 1 if dtype != "bool" else la.asarray(data) | False
    exported = numpy.from_dlpack(x)
    numpy.testing.assert_array_equal(exported, data)
    assert exported.dtype == data.dtype
    assert x.__dlpack_device__()[0] == 1  # kDLCPU
    numpy.testing.assert_array_equal(numpy.from_dlpack(la.asarray(data)), data)


def test_lazyarr_reads_numpy_arrays_with_numpy_semantics():
    data = numpy.arange(5.0)
    copied = la.from_dlpack(data)
    shared = la.from_dlpack(data, copy=False)
    data[0] = 100.0
    assert_same(numpy.arange(5.0), copied)
    assert float(shared[0]) == 100.0  # copy=False shares the exporter's memory
    assert_same(numpy.arange(5.0) * 2, la.from_dlpack(la.arange(5.0) * 2))
    assert la.from_dlpack(data, device="cpu").device == "cpu"


def test_bad_input():
    with pytest.raises(AttributeError):  # as NumPy: a list has no __dlpack__
        la.from_dlpack([1, 2, 3])
    with pytest.raises(ValueError):
        la.from_dlpack(numpy.arange(3), device="no-such-device")


def test_old_dlpack_versions_are_served():
    x = la.arange(3.0) + 1
    capsule = x.__dlpack__(max_version=(0, 0))  # jax alone refuses versions below 0.5
    assert type(capsule).__name__ == "PyCapsule"
