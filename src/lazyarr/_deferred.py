"""The chapters of lazyarr's namespace that few scripts call, imported when one of their
names is first asked for (PEP 562, from the package's `__getattr__`), as NumPy imports
numpy.fft on first use: together 5-6 ms of the 30 ms `import lazyarr` took, and their
docstrings 1 ms more (perf_counter around the imports, best of 6 fresh processes).

`CHAPTERS` names what each one registers in lazyarr's top namespace;
tests/test_startup.py checks it against what importing the chapter registers. NumPy's
functions dispatched to lazyarr (`np.unique(lazy)`, `HANDLED`) load them all at the
first function not found, as does anything that reads the whole namespace (array_api,
coverage, `from lazyarr import *`).
"""

from __future__ import annotations

import importlib
import sys

import numpy as np

from . import _docs
from ._api import NAMESPACES

CHAPTERS = {
    "sets": ("intersect1d", "isin", "setdiff1d", "setxor1d", "union1d", "unique",
             "unique_all", "unique_counts", "unique_inverse", "unique_values"),
    "histograms": ("bincount", "histogram", "histogram2d", "histogram_bin_edges",
                   "histogramdd"),
    "padding": ("pad",),
    "polynomial": ("poly", "polyadd", "polyder", "polydiv", "polyfit", "polyint", "polymul",
                   "polysub", "polyval", "roots", "vander"),
    "index_arrays": ("diag_indices", "diag_indices_from", "ix_", "mask_indices",
                     "ravel_multi_index", "tril_indices", "tril_indices_from", "triu_indices",
                     "triu_indices_from", "unravel_index"),
    "bit_packing": ("packbits", "unpackbits"),
    "windows": ("bartlett", "blackman", "hamming", "hanning", "kaiser"),
    "dtype_functions": ("asarray_chkfinite", "ascontiguousarray", "asfortranarray",
                        "base_repr", "binary_repr", "common_type", "isfortran", "isscalar",
                        "issubdtype", "iterable", "min_scalar_type", "mintypecode",
                        "promote_types", "require", "typename"),
    "io": ("frombuffer", "fromfile", "fromiter", "fromstring", "genfromtxt", "load",
           "loadtxt", "save", "savetxt", "savez", "savez_compressed"),
    "printing": ("array2string", "array_repr", "array_str", "errstate",
                 "format_float_positional", "format_float_scientific", "get_printoptions",
                 "geterr", "geterrcall", "printoptions", "set_printoptions", "seterr",
                 "seterrcall"),
}
SUBMODULES = ("fft", "linalg")  # lazyarr.fft, lazyarr.linalg: imported on first use too
OWNER = {name: chapter for chapter, names in CHAPTERS.items() for name in names}
_PACKAGE = __name__.rpartition(".")[0]


def load(chapter: str) -> None:
    """Import `chapter` (which registers its functions) and put the names of every
    deferred chapter imported so far in the package's namespace, with NumPy's
    docstrings; names the package already has (`_api.namespace.NAMES`) stay."""
    importlib.import_module(f"{_PACKAGE}._api.{chapter}")
    package = vars(sys.modules[_PACKAGE])
    registered = NAMESPACES[""]
    new = {name: registered[name] for name in OWNER
           if name not in package and name in registered}
    _docs.install(new, np)
    for name, value in new.items():
        package.setdefault(name, value)


_done = []  # [True] once load_all has run


def load_all() -> bool:
    """Every deferred chapter and submodule (for what reads the whole namespace); False
    where that was already done."""
    if _done:
        return False
    for chapter in CHAPTERS:
        load(chapter)
    for sub in SUBMODULES:
        importlib.import_module(f"{_PACKAGE}.{sub}")
    _done.append(True)
    return True
