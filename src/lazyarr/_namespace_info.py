"""The Array API inspection utilities (`lazyarr.__array_namespace_info__()`, standard
2025.12), answering for the selected backend; values match NumPy's own
`np.__array_namespace_info__()` where the two standards agree."""

from __future__ import annotations

import numpy as np

from . import _backend

__array_api_version__ = "2025.12"

_KINDS = {
    "bool": ("bool",),
    "signed integer": ("int8", "int16", "int32", "int64"),
    "unsigned integer": ("uint8", "uint16", "uint32", "uint64"),
    "real floating": ("float32", "float64"),
    "complex floating": ("complex64", "complex128"),
}
_KINDS["integral"] = _KINDS["signed integer"] + _KINDS["unsigned integer"]
_KINDS["numeric"] = _KINDS["integral"] + _KINDS["real floating"] + _KINDS["complex floating"]
_ALL = _KINDS["bool"] + _KINDS["numeric"]


def _backend_devices(backend) -> tuple[str, ...]:
    """The devices `backend` can run on, by lazyarr's names, its default's first (the
    contract's `devices()`)."""
    return tuple(backend.devices())


def _check_device(device, function: str) -> None:
    known = _backend_devices(_backend.current())
    if device is not None and device not in known:
        raise ValueError(f"{function}: device {device!r} not understood; devices are {known}")


class __array_namespace_info__:
    """Array API namespace inspection: capabilities, devices and dtypes of lazyarr on the
    selected backend (as `np.__array_namespace_info__`, devices as a tuple per 2025.12)."""

    __module__ = "lazyarr"

    def capabilities(self) -> dict:
        """Boolean indexing and data-dependent shapes materialize and continue lazily;
        the dimension bound is NumPy's."""
        return {"boolean indexing": True, "data-dependent shapes": True, "max dimensions": 64}

    def default_device(self) -> str:
        """The device the selected backend runs programs on."""
        return _backend.current().device

    def devices(self) -> tuple[str, ...]:
        """The selected backend's devices, usable as `device=` of creation functions."""
        return _backend_devices(_backend.current())

    def default_dtypes(self, *, device=None) -> dict:
        """NumPy's defaults (float64, complex128, int64) on every backend and device."""
        _check_device(device, "default_dtypes")
        return {"real floating": np.dtype(np.float64), "complex floating": np.dtype(np.complex128),
                "integral": np.dtype(np.int64), "indexing": np.dtype(np.intp)}

    def dtypes(self, *, device=None, kind=None) -> dict:
        """The standard's dtypes of `kind` (None, a kind name, or a tuple of them), by
        canonical name; every backend and device supports all of them."""
        _check_device(device, "dtypes")
        if kind is None:
            names = _ALL
        else:
            kinds = kind if isinstance(kind, tuple) else (kind,)
            for k in kinds:
                if k not in _KINDS:
                    raise ValueError(f"dtypes: unsupported kind {k!r}; kinds are {tuple(_KINDS)}")
            wanted = {name for k in kinds for name in _KINDS[k]}
            names = tuple(n for n in _ALL if n in wanted)
        return {name: np.dtype(name) for name in names}
