"""numpy.random: every draw is made on the host by NumPy itself, so the streams are
bit-identical to NumPy's for the same seed, and the result enters the graph as a
computed leaf.

The legacy module functions (`normal`, `seed`, `get_state`, ...) call NumPy's own
module-level functions, i.e. NumPy's global RandomState, so a script mixing
`lazyarr.random` with third-party code drawing from `numpy.random` sees the stream it
would see under plain NumPy. `Generator` and `RandomState` wrap NumPy's; the seeding
classes and BitGenerators are NumPy's own.

All of it is one table (`METHODS`) and one wrapper (`_draw`): lazyarr arrays among the
arguments are computed first (cause "read"); NumPy's arrays come back as lazyarr arrays,
its scalars (size=None) unchanged. What NumPy writes in place (`shuffle`'s array, `out=`)
is, for a lazyarr array, a writable host copy that the handle is then rebound to.
"""

from __future__ import annotations

import functools
import inspect

import numpy as np

from .. import _dtypes
from . import export
from .common import Array, leaf, write_out

# Every public method of NumPy's RandomState and Generator and every legacy function of
# numpy.random; each owner (module, RandomState, Generator) gets the ones NumPy gives it.
METHODS = (
    "beta", "binomial", "bytes", "chisquare", "choice", "dirichlet", "exponential", "f",
    "gamma", "geometric", "get_bit_generator", "get_state", "gumbel", "hypergeometric",
    "integers", "laplace", "logistic", "lognormal", "logseries", "multinomial",
    "multivariate_hypergeometric", "multivariate_normal", "negative_binomial",
    "noncentral_chisquare", "noncentral_f", "normal", "pareto", "permutation", "permuted",
    "poisson", "power", "rand", "randint", "randn", "random", "random_integers",
    "random_sample", "ranf", "rayleigh", "sample", "seed", "set_bit_generator", "set_state",
    "shuffle", "spawn", "standard_cauchy", "standard_exponential", "standard_gamma",
    "standard_normal", "standard_t", "tomaxint", "triangular", "uniform", "vonmises",
    "wald", "weibull", "zipf",
)
# NumPy's own seeding and bit-generator classes, re-exported unchanged.
NUMPY_CLASSES = ("BitGenerator", "SeedSequence", "MT19937", "PCG64", "PCG64DXSM",
                 "Philox", "SFC64")


def _host(value, targets: dict):
    """A lazyarr array as the host value NumPy will see: its computed value (cause
    "read"), or the writable buffer NumPy writes in its place. Arrays nested in lists
    reach NumPy through `__array__`, which computes them the same way."""
    if isinstance(value, Array):
        return targets[id(value)] if id(value) in targets else value._value("read")
    return value


def _lazy(value):
    """NumPy's result as lazyarr's: numeric arrays as computed leaves, Generators (from
    `spawn`) wrapped; scalars, bytes, states and non-numeric arrays unchanged."""
    if isinstance(value, np.ndarray) and _dtypes.is_numeric(value.dtype):
        if not value.flags.c_contiguous:
            value = value.copy(order="C")
        return Array(leaf(value, value.shape, value.dtype), scalar=False)
    if isinstance(value, np.random.Generator):
        return Generator._from_numpy(value)
    if isinstance(value, list):
        return [_lazy(v) for v in value]
    return value


def _written(name: str, out, out_index, args: tuple, kwargs: dict):
    """The lazyarr array NumPy would write in place (shuffle's x, out=) and the writable
    host buffer it writes instead; (None, None) when there is none."""
    if name == "shuffle":
        x = args[0] if args else kwargs.get("x")
        return (x, np.array(x._value("read"))) if isinstance(x, Array) else (None, None)
    if not isinstance(out, Array):
        return None, None
    others = [a for i, a in enumerate(args) if i != out_index]
    others += [v for k, v in kwargs.items() if k != "out"]
    if any(a is out for a in others):  # permuted(x, out=x) reads what it writes
        return out, np.array(out._value("read"))
    return out, np.empty(out.shape, out.dtype)


def _draw(owner, name: str, out_index, args: tuple, kwargs: dict):
    """Call NumPy's `owner.name` on host values and return its result as lazyarr's."""
    out = args[out_index] if out_index is not None and len(args) > out_index \
        else kwargs.get("out")
    target, buf = _written(name, out, out_index, args, kwargs)
    targets = {} if target is None else {id(target): buf}
    result = getattr(owner, name)(*[_host(a, targets) for a in args],
                                  **{k: _host(v, targets) for k, v in kwargs.items()})
    if target is not None:
        write_out(target, Array(leaf(buf, buf.shape, buf.dtype), scalar=False), name)
    if out is not None:
        return out  # NumPy returns out= itself (an ndarray, or our rebound handle)
    return result if name == "shuffle" else _lazy(result)


@functools.cache  # (at the first call with positional arguments, not at import)
def _out_index(numpy_func, method: bool):
    """Where `out` sits among the positional arguments (after self), or None."""
    try:
        params = list(inspect.signature(numpy_func).parameters.values())
    except (TypeError, ValueError):
        return None
    for i, p in enumerate(params[method:]):
        if p.name == "out" and p.kind is p.POSITIONAL_OR_KEYWORD:
            return i
    return None


def _describe(func, name: str, numpy_func, doc: str):
    """`func` named as NumPy's `numpy_func`, whose signature `inspect.signature` reads
    through `__wrapped__` when asked (reading the 170 signatures at import was 6 ms of
    importing lazyarr.random's 7)."""
    func.__name__ = func.__qualname__ = name
    func.__module__ = "lazyarr.random"
    func.__doc__ = doc
    func.__wrapped__ = numpy_func
    return func


def _legacy_function(name: str):
    """numpy.random.`name`, looked up at each call (NumPy's global RandomState)."""
    numpy_func = getattr(np.random, name)

    def function(*args, **kwargs):
        index = _out_index(numpy_func, False) if args else None
        return _draw(np.random, name, index, args, kwargs)
    return _describe(function, name, numpy_func,
                     f"numpy.random.{name}, drawn by NumPy's global RandomState (the "
                     "stream numpy.random itself draws from); arrays come back lazy.")


def _method(cls, name: str):
    """NumPy's `cls.name`, called on the wrapped NumPy object."""
    numpy_func = getattr(cls._numpy_class, name)

    def method(self, *args, **kwargs):
        index = _out_index(numpy_func, True) if args else None
        return _draw(self._np, name, index, args, kwargs)
    method = _describe(method, name, numpy_func,
                       f"numpy.random.{cls.__name__}.{name}, drawn by the wrapped NumPy "
                       "object (the same stream); arrays come back lazy.")
    method.__qualname__ = f"{cls.__name__}.{name}"
    return method


class _Wrapped:
    """A NumPy RandomState or Generator, held in `_np`; its draws come back lazy."""

    __slots__ = ("_np",)
    _numpy_class: type

    @classmethod
    def _from_numpy(cls, numpy_object):
        wrapped = cls.__new__(cls)
        wrapped._np = numpy_object
        return wrapped

    def __repr__(self) -> str:
        # NumPy's "Generator(PCG64) at 0x...", with our own address.
        return f"{repr(self._np).rsplit(' at 0x', 1)[0]} at 0x{id(self):X}"

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        cls.__module__ = "lazyarr.random"
        for name in METHODS:
            if hasattr(cls._numpy_class, name):
                setattr(cls, name, _method(cls, name))


class RandomState(_Wrapped):
    """numpy.random.RandomState (legacy Mersenne Twister draws), with lazyarr results."""

    __slots__ = ()
    _numpy_class = np.random.RandomState

    def __init__(self, seed=None):
        self._np = np.random.RandomState(_host(seed, {}))


class Generator(_Wrapped):
    """numpy.random.Generator over a BitGenerator, with lazyarr results."""

    __slots__ = ()
    _numpy_class = np.random.Generator

    def __init__(self, bit_generator):
        self._np = np.random.Generator(bit_generator)

    @property
    def bit_generator(self):
        return self._np.bit_generator


export(RandomState, namespace="random")
export(Generator, namespace="random")
for _name in METHODS:
    if hasattr(np.random, _name):
        export(_legacy_function(_name), namespace="random")
for _name in NUMPY_CLASSES:
    export(getattr(np.random, _name), namespace="random")


@export(namespace="random")
def default_rng(seed=None):
    """numpy.random.default_rng as a lazyarr Generator (the same stream for the same
    seed); a lazyarr Generator is returned unaltered, as NumPy returns a Generator."""
    if isinstance(seed, Generator):
        return seed
    return Generator._from_numpy(np.random.default_rng(_host(seed, {})))
