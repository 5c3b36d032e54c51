"""lazyarr.random against numpy.random: the same seed gives identical numbers, dtypes,
shapes and result types, through the legacy global functions, RandomState and
Generator; parameters may be lazyarr arrays; bad input raises NumPy's exception type at
the call; NumPy's in-place writes (shuffle, out=) rebind lazyarr handles."""

from __future__ import annotations

import pickle
import warnings

import numpy as np
import pytest
from differential import public_type
from hypothesis import given
from hypothesis import strategies as st

import lazyarr
import lazyarr.random as lr


def _seeded_global(seed):
    np.random.seed(seed)
    return np.random


def _seeded_lazy_global(seed):
    lr.seed(seed)
    return lr


# Each API as (NumPy's object for a seed, lazyarr's object for a seed).
APIS = {
    "legacy": (_seeded_global, _seeded_lazy_global),
    "RandomState": (np.random.RandomState, lr.RandomState),
    "Generator": (np.random.default_rng, lr.default_rng),
}
OWNERS = {"legacy": np.random, "RandomState": np.random.RandomState,
          "Generator": np.random.Generator}

# Positional parameters (before size=) valid for every NumPy owner of the name.
PARAMS = {
    "beta": (0.5, 2.0), "binomial": (10, 0.3), "chisquare": (3.0,),
    "choice": (7,), "dirichlet": ([0.5, 1.0, 2.0],), "exponential": (2.0,),
    "f": (3.0, 5.0), "gamma": (2.0, 1.5), "geometric": (0.3,), "gumbel": (0.5, 2.0),
    "hypergeometric": (7, 5, 4), "integers": (3, 40), "laplace": (0.5, 2.0),
    "logistic": (0.5, 2.0), "lognormal": (0.5, 0.7), "logseries": (0.6,),
    "multinomial": (10, [0.2, 0.3, 0.5]), "multivariate_hypergeometric": ([4, 3, 5], 6),
    "multivariate_normal": ([0.0, 1.0], [[2.0, 0.3], [0.3, 1.0]]),
    "negative_binomial": (5, 0.4), "noncentral_chisquare": (3.0, 1.5),
    "noncentral_f": (3.0, 5.0, 1.5), "normal": (0.5, 2.0), "pareto": (3.0,),
    "poisson": (4.0,), "power": (2.5,), "randint": (3, 40), "random": (),
    "random_integers": (3, 40), "random_sample": (), "ranf": (), "rayleigh": (1.5,),
    "sample": (), "standard_cauchy": (), "standard_exponential": (),
    "standard_gamma": (2.5,), "standard_normal": (), "standard_t": (4.0,),
    "tomaxint": (), "triangular": (0.0, 0.3, 1.0), "uniform": (-1.0, 3.0),
    "vonmises": (0.5, 2.0), "wald": (1.0, 2.0), "weibull": (1.5,), "zipf": (2.5,),
}
# Calls beyond the PARAMS table: (name, args, kwargs), for every API that has the name.
CALLS = [
    ("rand", (), {}), ("rand", (2, 3), {}), ("rand", (0,), {}),
    ("randn", (), {}), ("randn", (3,), {}), ("randn", (2, 0, 2), {}),
    ("bytes", (0,), {}), ("bytes", (13,), {}),
    ("choice", (np.arange(10.0), 4), {"replace": False}),
    ("choice", (np.arange(12).reshape(3, 4),), {}),
    ("choice", (np.arange(12).reshape(3, 4), 2), {}),
    ("choice", (["a", "b", "c"], 5), {}),
    ("choice", (5, (2, 2)), {"p": [0.1, 0.2, 0.3, 0.4, 0.0]}),
    ("choice", (np.arange(12).reshape(3, 4), 3), {"axis": 1, "shuffle": False}),
    ("permutation", (9,), {}), ("permutation", (np.arange(12.0).reshape(4, 3),), {}),
    ("permutation", (np.arange(12).reshape(4, 3),), {"axis": 1}),
    ("permutation", ([1.5, 2.5, 3.5],), {}),
    ("permuted", (np.arange(12).reshape(3, 4),), {}),
    ("permuted", (np.arange(12).reshape(3, 4),), {"axis": 1}),
    ("dirichlet", ([1.0, 2.0],), {"size": (2, 3)}),
    ("multinomial", (np.array([5, 10]), [0.5, 0.5]), {}),
    ("multivariate_normal", ([0.0, 1.0], [[2.0, 0.3], [0.3, 1.0]]), {"size": (2, 2)}),
    ("multivariate_normal", ([0.0, 1.0], [[2.0, 0.3], [0.3, 1.0]]), {"method": "cholesky"}),
    ("multivariate_hypergeometric", ([4, 3, 5], 6), {"method": "count", "size": 3}),
    ("standard_exponential", (), {"size": 4, "method": "inv"}),
    ("standard_exponential", (4,), {"dtype": np.float32}),
    ("standard_normal", (4,), {"dtype": np.float32}),
    ("standard_gamma", (2.0, 4), {"dtype": np.float32}),
    ("random", (4,), {"dtype": np.float32}),
    ("integers", (-5, 5), {"size": 6, "endpoint": True}),
    ("integers", (10,), {"size": 3}), ("integers", (10,), {}),
    ("uniform", (np.zeros((2, 1)), np.ones(3)), {}),
    ("normal", (np.arange(3.0),), {"size": (2, 3)}),
    ("get_state", (), {}), ("get_state", (), {"legacy": False}),
] + [("randint", (-3, 90), {"size": 4, "dtype": dt}) for dt in
     (np.bool_, np.int8, np.uint8, np.int16, np.uint16, np.int32, np.uint32, np.int64,
      np.uint64)] \
  + [("integers", (0, 2), {"size": 4, "dtype": dt}) for dt in
     (np.bool_, np.int8, np.uint8, np.int32, np.uint64)]
# Bad input: NumPy must raise, lazyarr the same type at the call.
BAD = [
    ("normal", (0.0, -1.0), {}), ("normal", (0.0, np.array([1.0, -1.0])), {}),
    ("normal", (), {"size": -1}), ("normal", (), {"size": "a"}),
    ("uniform", (), {"size": 2.5}), ("beta", (-1.0, 1.0), {}), ("binomial", (-1, 0.5), {}),
    ("binomial", (10, 1.5), {}), ("poisson", (np.array([-1.0]),), {}),
    ("dirichlet", ([-1.0, 1.0],), {}), ("choice", (0,), {}),
    ("choice", (5,), {"p": [0.5, 0.6, 0.0, 0.0, 0.0]}),
    ("choice", (3,), {"size": 5, "replace": False}), ("randint", (5, 1), {}),
    ("integers", (5, 1), {}), ("integers", (5,), {"dtype": np.float64}),
    ("random", (), {"dtype": np.int32}), ("hypergeometric", (5, 5, 20), {}),
    ("multivariate_normal", ([0.0], [[1.0, 0.0]]), {}),
    ("multinomial", (10, [0.6, 0.6, 0.1]), {}), ("seed", (-1,), {}),
    ("set_state", (("bad",),), {}), ("permutation", (np.array(5.0),), {}),
    ("shuffle", (np.array(5.0),), {}), ("zipf", (0.5,), {}),
    ("standard_normal", (), {"out": np.zeros(3, np.int64)}),
    ("standard_normal", (4,), {"out": np.zeros(3)}),
    ("multivariate_hypergeometric", ([4, 3], 9), {}),
]

SEEDS = st.integers(0, 2**32 - 1)
SIZES = st.sampled_from([None, (), 0, (0,), 3, (2, 3), (2, 0, 1)])


def _cases(table):
    """(api, name, ...) for each API whose NumPy owner has the name."""
    return [pytest.param(api, *row, id=f"{api}-{row[0]}-{k}")
            for k, row in enumerate(table) for api in APIS if hasattr(OWNERS[api], row[0])]


def pending(value):
    """`value` as a lazyarr array that still has to be computed."""
    return lazyarr.asarray(np.asarray(value)) * 1


def to_lazy(value):
    """NumPy arrays among the arguments as pending lazyarr arrays."""
    if isinstance(value, np.ndarray):
        return pending(value)
    if isinstance(value, tuple):
        return tuple(to_lazy(v) for v in value)
    if isinstance(value, dict):
        return {k: to_lazy(v) for k, v in value.items()}
    return value


def assert_identical(expected, actual, where="result", top=True):
    """lazyarr's draw is NumPy's exactly: a numeric array result as a lazyarr array with
    the same dtype, shape and bits; everything else (scalars, bytes, states, with the
    arrays inside them) of the same type and equal."""
    if isinstance(expected, np.ndarray) and expected.dtype.kind in "biufc" and top:
        assert isinstance(actual, lazyarr.Array), f"{where}: {type(actual)} is not lazy"
        assert (actual.shape, actual.dtype) == (expected.shape, expected.dtype), where
        np.testing.assert_array_equal(np.asarray(actual), expected, err_msg=where,
                                      strict=True)
    elif isinstance(expected, np.ndarray):
        assert type(actual) is np.ndarray, f"{where}: {type(actual)} is not NumPy's"
        np.testing.assert_array_equal(actual, expected, err_msg=where, strict=True)
    elif isinstance(expected, (tuple, list)):
        assert type(actual) is type(expected) and len(actual) == len(expected), where
        for k, (e, a) in enumerate(zip(expected, actual)):
            assert_identical(e, a, f"{where}[{k}]", top=False)
    elif isinstance(expected, dict):
        assert actual.keys() == expected.keys(), where
        for k in expected:
            assert_identical(expected[k], actual[k], f"{where}[{k!r}]", top=False)
    else:
        assert type(actual) is type(expected), f"{where}: {type(actual)} != {type(expected)}"
        assert actual == expected or (actual != actual and expected != expected), where


def compare(api, seed, name, args, kwargs, lazy_args=None, lazy_kwargs=None):
    """Draw `name` from NumPy's and from lazyarr's object for `api`, seeded alike, and
    demand identical results, or NumPy's exception type raised by lazyarr's call."""
    make_np, make_la = APIS[api]
    lazy_args = args if lazy_args is None else lazy_args
    lazy_kwargs = kwargs if lazy_kwargs is None else lazy_kwargs
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)  # random_integers
        try:
            expected = getattr(make_np(seed), name)(*args, **kwargs)
        except Exception as exc:
            with pytest.raises(public_type(exc)):
                getattr(make_la(seed), name)(*lazy_args, **lazy_kwargs)
            return None
        actual = getattr(make_la(seed), name)(*lazy_args, **lazy_kwargs)
    assert_identical(expected, actual)
    return actual


@pytest.mark.parametrize("api,name", [(api, name) for api in APIS for name in PARAMS
                                      if hasattr(OWNERS[api], name)])
@given(seed=SEEDS, size=SIZES)
def test_draw_matches_numpy(api, name, seed, size):
    compare(api, seed, name, PARAMS[name], {"size": size})


@pytest.mark.parametrize("api,name", [(api, name) for api in APIS for name in PARAMS
                                      if hasattr(OWNERS[api], name) and PARAMS[name]])
@pytest.mark.usefixtures("lazy_graph")
@given(seed=SEEDS, size=st.sampled_from([None, 2, (3, 2)]))
def test_lazy_parameters(api, name, seed, size):
    """Parameters as pending lazyarr arrays (scalars as 2-vectors) are computed (cause
    "read") and drawn from exactly as NumPy draws from the same arrays."""
    params = tuple(np.asarray(p) if isinstance(p, list) else np.array([p, p])
                   for p in PARAMS[name])
    with lazyarr.count_flushes() as flushes:
        compare(api, seed, name, params, {"size": size}, to_lazy(params), {"size": size})
    assert flushes.causes["read"] >= 1


@pytest.mark.parametrize("api,name,args,kwargs", _cases(CALLS))
@given(seed=SEEDS)
def test_call_matches_numpy(api, name, args, kwargs, seed):
    compare(api, seed, name, args, kwargs, to_lazy(args), to_lazy(kwargs))


@pytest.mark.parametrize("api,name,args,kwargs", _cases(BAD))
def test_bad_input_raises_numpys_error(api, name, args, kwargs):
    make_np, _ = APIS[api]
    with pytest.raises(Exception):  # the case is bad input for NumPy too
        getattr(make_np(0), name)(*args, **kwargs)
    compare(api, 0, name, args, kwargs, to_lazy(args), to_lazy(kwargs))


@pytest.mark.parametrize("api", list(APIS))
@pytest.mark.parametrize("shape", [(0,), (1,), (7,), (4, 3), (3, 0), (2, 3, 2)])
def test_shuffle_in_place(api, shape):
    """shuffle(x) on a lazyarr array rebinds x to NumPy's shuffle of its value; a
    reader built before keeps the old value."""
    make_np, make_la = APIS[api]
    base = np.arange(np.prod(shape), dtype=np.float32).reshape(shape)
    expected = base.copy()
    make_np(5).shuffle(expected)
    x = pending(base)
    before = x + 0
    assert make_la(5).shuffle(x) is None
    assert_identical(expected, x)
    assert_identical(base, before)


def test_shuffle_axis_list_and_ndarray():
    x = pending(np.arange(12).reshape(3, 4))
    expected = np.arange(12).reshape(3, 4)
    np.random.default_rng(2).shuffle(expected, axis=1)
    lr.default_rng(2).shuffle(x, axis=1)
    assert_identical(expected, x)
    for make_np, make_la in APIS.values():  # NumPy's own objects shuffled in place
        for container in (list, np.array):
            expected, actual = container(range(9)), container(range(9))
            make_np(4).shuffle(expected)
            assert make_la(4).shuffle(actual) is None
            assert list(actual) == list(expected)


@pytest.mark.parametrize("name,args", [("random", ()), ("standard_normal", ()),
                                       ("standard_exponential", ()),
                                       ("standard_gamma", (2.0,))])
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_generator_out(name, args, dtype):
    """out= a lazyarr array is rebound to NumPy's draw and returned; out= an ndarray
    is filled and returned as NumPy does; positional out= too."""
    expected = np.zeros((2, 3), dtype)
    getattr(np.random.default_rng(3), name)(*args, dtype=dtype, out=expected)
    out = pending(np.ones((2, 3), dtype))
    assert getattr(lr.default_rng(3), name)(*args, dtype=dtype, out=out) is out
    assert_identical(expected, out)
    host = np.zeros((2, 3), dtype)
    assert getattr(lr.default_rng(3), name)(*args, dtype=dtype, out=host) is host
    np.testing.assert_array_equal(host, expected, strict=True)
    if name == "random":
        out = lazyarr.zeros((2, 3), dtype)
        assert lr.default_rng(3).random(None, dtype, out) is out
        assert_identical(expected, out)


def test_permuted_out_is_x():
    expected = np.arange(12.0).reshape(3, 4)
    np.random.default_rng(1).permuted(expected, axis=1, out=expected)
    x = pending(np.arange(12.0).reshape(3, 4))
    assert lr.default_rng(1).permuted(x, axis=1, out=x) is x
    assert_identical(expected, x)


def test_scalar_draws_have_numpys_types():
    for name, args in [("normal", ()), ("randint", (5,)), ("integers", (5,)),
                       ("random", ()), ("choice", (np.arange(3.0),)), ("binomial", (3, .5))]:
        for api in APIS:
            if hasattr(OWNERS[api], name):
                compare(api, 11, name, args, {}, to_lazy(args), {})


def test_global_stream_is_numpys():
    """lazyarr.random and numpy.random draw from one stream, as under plain NumPy."""
    np.random.seed(42)
    expected = [np.random.normal(size=3), np.random.rand(2), np.random.randint(9, size=4),
                np.random.normal()]
    lr.seed(42)
    actual = [lr.normal(size=3), np.random.rand(2), lr.randint(9, size=4),
              np.random.normal()]
    assert_identical(expected[0], actual[0])
    np.testing.assert_array_equal(actual[1], expected[1], strict=True)
    assert_identical(expected[2], actual[2])
    assert actual[3] == expected[3]
    state = lr.get_state()
    first = lr.standard_normal(5)
    np.random.set_state(state)
    assert_identical(np.random.standard_normal(5), first)
    lr.set_state(state)
    assert_identical(np.asarray(first), lr.standard_normal(5))


def test_bit_generator_swap_and_get():
    saved = np.random.get_bit_generator()
    try:
        lr.set_bit_generator(np.random.PCG64(7))
        assert isinstance(lr.get_bit_generator(), np.random.PCG64)
        drawn = lr.random(4)
        np.random.set_bit_generator(np.random.PCG64(7))
        assert_identical(np.random.random(4), drawn)
    finally:
        np.random.set_bit_generator(saved)


@pytest.mark.parametrize("name", ["MT19937", "PCG64", "PCG64DXSM", "Philox", "SFC64"])
def test_generator_and_randomstate_on_each_bit_generator(name):
    bitgen = getattr(lr, name)
    assert bitgen is getattr(np.random, name)
    assert_identical(np.random.Generator(bitgen(9)).normal(size=5),
                     lr.Generator(bitgen(9)).normal(size=5))
    assert_identical(np.random.RandomState(bitgen(9)).normal(size=5),
                     lr.RandomState(bitgen(9)).normal(size=5))


def test_generator_objects():
    rng = lr.default_rng(lr.SeedSequence(123))
    assert type(rng) is lr.Generator and lr.default_rng(rng) is rng
    assert isinstance(rng.bit_generator, np.random.PCG64)
    assert repr(rng).startswith("Generator(PCG64) at 0x")
    expected = np.random.default_rng(np.random.SeedSequence(123)).spawn(2)
    children = rng.spawn(2)
    assert all(type(c) is lr.Generator for c in children)
    for e, c in zip(expected, children):
        assert_identical(e.integers(100, size=5), c.integers(100, size=5))
    clone = pickle.loads(pickle.dumps(rng))
    assert_identical(np.asarray(rng.random(3)), clone.random(3))
    seed = pending(np.array([1, 2, 3]))
    assert_identical(np.random.default_rng([1, 2, 3]).random(3),
                     lr.default_rng(seed).random(3))
    assert repr(lr.RandomState(0)).startswith("RandomState(MT19937) at 0x")


def test_draws_compose_lazily():
    expected = np.random.default_rng(8).normal(size=(3, 4)) * 2.0 + 1.0
    actual = lr.default_rng(8).normal(size=(3, 4)) * 2.0 + 1.0
    assert_identical(expected, actual)


def test_every_public_callable_is_present():
    """Every public callable of numpy.random (except NumPy's test runner) is in
    lazyarr.random, and every public method of Generator and RandomState is on
    lazyarr's."""
    missing = [name for name in dir(np.random) if not name.startswith("_")
               and callable(getattr(np.random, name)) and name != "test"
               and not hasattr(lr, name)]
    assert not missing
    for cls in ("Generator", "RandomState"):
        public = [n for n in dir(getattr(np.random, cls)) if not n.startswith("_")]
        assert [n for n in public if not hasattr(getattr(lr, cls), n)] == []
    assert set(lr.__all__) <= set(dir(lr))
    assert lazyarr.random is lr
