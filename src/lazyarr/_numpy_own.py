"""The names of NumPy's namespace that are NumPy's own objects in lazyarr's: what has
nothing to compute on lazyarr's arrays. Each group says why. Everything else NumPy
names is lazyarr's own (lazy) function; tests/test_surface.py checks both."""

from __future__ import annotations

import importlib

import numpy as np

# Scalar types, abstract types and classes: dtypes are NumPy's, and instances of the
# classes (matrix, memmap, poly1d, vectorize, nditer, ...) hold NumPy's data, reading
# lazyarr arrays through __array__.
# Read from NumPy's own module dictionary: `getattr` on every name of `dir(numpy)` would
# import each submodule NumPy loads on first use (f2py, ma, testing: 90 ms).
TYPES = tuple(sorted(n for n, v in vars(np).items()
                     if not n.startswith("_") and isinstance(v, type)))

# Submodules: dtype classes, exceptions and typing have nothing to compute; char,
# strings and rec work on string and record arrays (NumPy's own data); ma, emath,
# ctypeslib, core and f2py compute through NumPy on materialized values.
MODULES = ("char", "core", "ctypeslib", "dtypes", "emath", "exceptions", "f2py", "ma",
           "rec", "strings", "typing")

# Constants and index-expression helpers.
CONSTANTS = ("False_", "True_", "ScalarType", "little_endian", "sctypeDict", "typecodes",
             "index_exp", "s_")

# Helpers: dates and business days (datetime64 data is NumPy's own), matrices, a
# ufunc made of a Python function, a regex reader, build and configuration queries.
HELPERS = ("asmatrix", "bmat", "busday_count", "busday_offset", "is_busday",
           "datetime_as_string", "datetime_data", "isnat", "frompyfunc", "fromregex",
           "get_include", "getbufsize", "setbufsize", "info", "show_config", "show_runtime",
           "test", "nested_iters")

# Per submodule: NumPy's own objects there (test runners, the legacy generator modules).
SUBMODULES = {"linalg": ("test",), "fft": ("test",), "random": ("bit_generator", "mtrand", "test"),
              "testing": ("extbuild", "test")}


def module(name: str):
    """NumPy's submodule `name`, imported when first asked for, as NumPy does (with
    NumPy's DeprecationWarning for `core`)."""
    if name not in MODULES:
        raise AttributeError(f"module 'lazyarr' has no attribute {name!r}")
    return getattr(np, name)


def install(package, namespace: dict, functions: dict = ()) -> None:
    """Add NumPy's own objects for the names above that `namespace` lacks (the modules
    come through `module`, from the namespace's __getattr__); `package` is the module
    whose submodules already imported (lazyarr.linalg, ...) get NumPy's remaining
    names (the others, lazyarr.random and lazyarr.testing, call `install_submodule`
    when they are first imported)."""
    for name in (*TYPES, *CONSTANTS, *HELPERS):
        if name not in namespace and name not in functions and hasattr(np, name):
            namespace[name] = getattr(np, name)
    for sub in SUBMODULES:
        module = vars(package).get(sub)
        if module is not None:
            install_submodule(module, sub)


def install_submodule(module, sub: str) -> None:
    """NumPy's own objects of `numpy.<sub>` (SUBMODULES) on lazyarr's `module`."""
    for name in SUBMODULES[sub]:
        if not hasattr(module, name):
            value = getattr(getattr(np, sub), name, None)
            if value is None:
                value = importlib.import_module(f"numpy.{sub}.{name}")
            setattr(module, name, value)
