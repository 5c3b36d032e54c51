"""Printing against NumPy: repr, str, format and the formatting functions give NumPy's
text for the same values and dtype, under every print option (lazyarr's are NumPy's);
the floating-point error state is NumPy's, and the modes lazy computations cannot
honour warn."""

import warnings

import numpy as np
import pytest
from hypothesis import given, strategies as st

import lazyarr as la
from lazyarr._api.printing import FloatingPointCheckWarning

from differential import check
from strategies import BOOL, COMPLEX, FLOAT, INTEGER, NUMERIC, arrays
from test_io import pending

OPTIONS = [{}, {"precision": 3}, {"threshold": 5, "edgeitems": 1}, {"suppress": True},
           {"linewidth": 20}, {"sign": "+"}, {"floatmode": "fixed", "precision": 2},
           {"floatmode": "unique"}, {"legacy": "1.13"}, {"legacy": "1.25"},
           {"nanstr": "NaN", "infstr": "Inf"}, {"formatter": {"all": lambda v: f"<{v}>"}}]


def option_id(options: dict) -> str:
    return ",".join(options) or "default"


@pytest.fixture(autouse=True)
def restore_printoptions():
    saved = np.get_printoptions()
    yield
    np.set_printoptions(**saved)


def assert_prints_alike(x: la.Array, a) -> None:
    """`x` (lazyarr) prints as `a` (NumPy, array or scalar) does."""
    assert repr(x) == repr(a)
    assert str(x) == str(a)
    assert format(x) == format(a)


@pytest.mark.parametrize("options", OPTIONS, ids=option_id)
@given(a=arrays())
def test_arrays_and_scalars_print_as_numpys(options, a):
    with la.printoptions(**options):
        assert_prints_alike(pending(a), a)
        if a.size:
            index = tuple(side - 1 for side in a.shape)
            assert_prints_alike(pending(a)[index], a[index])  # a NumPy scalar's text


@given(a=st.sampled_from(FLOAT + COMPLEX).flatmap(lambda dtype: arrays(dtype, shape=())))
def test_format_specs_are_numpys(a):
    scalar = pending(a.reshape(1))[0]
    for spec in ("", ".3f", "10.2e", "+g", "^12"):
        try:
            expected = format(a[()], spec)
        except (TypeError, ValueError) as exc:
            with pytest.raises(type(exc)):
                format(scalar, spec)
        else:
            assert format(scalar, spec) == expected


def test_set_printoptions_is_numpys_and_governs_lazyarr():
    assert la.set_printoptions is np.set_printoptions
    assert la.get_printoptions is np.get_printoptions and la.printoptions is np.printoptions
    x = la.linspace(0.0, 1.0, 7) * 1e-9
    la.set_printoptions(precision=2, suppress=True, linewidth=30)
    assert np.get_printoptions()["precision"] == 2
    assert repr(x) == repr(np.linspace(0.0, 1.0, 7) * 1e-9)
    assert str(la.sum(x)) == str(np.sum(np.linspace(0.0, 1.0, 7) * 1e-9))
    with np.printoptions(threshold=3, edgeitems=1):  # NumPy's context: lazyarr's too
        assert str(la.arange(100)) == "[ 0 ... 99]"


ARRAY2STRING = [{}, {"max_line_width": 10}, {"precision": 2, "suppress_small": True},
                {"separator": ", ", "prefix": "x = ", "suffix": ";"},
                {"formatter": {"int": hex, "float": "{:+.1e}".format, "bool": str}},
                {"threshold": 4, "edgeitems": 1}, {"sign": " ", "floatmode": "maxprec_equal"},
                {"legacy": "1.13"}]


@pytest.mark.parametrize("kwargs", ARRAY2STRING, ids=option_id)
@given(a=arrays())
def test_array2string_is_numpys(kwargs, a):
    expected = np.array2string(a, **kwargs)
    assert la.array2string(pending(a), **kwargs) == expected
    assert np.array2string(pending(a), **kwargs) == expected  # through NEP 18


@pytest.mark.parametrize("kwargs", [{}, {"max_line_width": 12}, {"precision": 1},
                                    {"suppress_small": True, "precision": 3}], ids=option_id)
@given(a=arrays())
def test_array_repr_and_array_str_are_numpys(kwargs, a):
    for name in ("array_repr", "array_str"):
        expected = getattr(np, name)(a, **kwargs)
        assert getattr(la, name)(pending(a), **kwargs) == expected
        assert getattr(np, name)(pending(a), **kwargs) == expected


def test_printing_functions_of_scalars_are_numpys():
    x, a = la.sum(la.arange(3.0)), np.sum(np.arange(3.0))
    assert la.array_repr(x) == np.array_repr(a) == "float64(3.)"  # NumPy's own quirk
    assert la.array2string(x) == np.array2string(a)
    check(np.array_str, lambda s: la.array_str(x), a)  # NumPy: TypeError for a scalar


def test_printing_functions_reject_what_numpy_rejects():
    x = la.arange(3)
    with pytest.raises(TypeError):
        la.array2string(x, style=repr)  # not an argument in NumPy 2
    with pytest.raises(ValueError):
        la.array2string(x, floatmode="bogus")
    with pytest.raises(ValueError):
        la.array2string(x, sign="x")
    with pytest.raises(ValueError):
        la.set_printoptions(floatmode="bogus")


FLOAT_OPTIONS = [{}, {"precision": 3}, {"unique": False, "precision": 5}, {"trim": "-"},
                 {"sign": True, "pad_left": 4}, {"min_digits": 3}]


@pytest.mark.parametrize("kwargs", FLOAT_OPTIONS, ids=option_id)
@given(a=st.sampled_from(FLOAT + INTEGER + BOOL).flatmap(lambda dtype: arrays(dtype, shape=())))
def test_format_float_is_numpys(kwargs, a):
    for name in ("format_float_positional", "format_float_scientific"):
        np_func, la_func = getattr(np, name), getattr(la, name)
        # NumPy formats a 0-d array as a Python float, a scalar in its own dtype.
        assert la_func(pending(a), **kwargs) == np_func(a, **kwargs)
        expected = np_func(a[()], **kwargs)
        assert la_func(pending(a.reshape(1))[0], **kwargs) == expected  # a scalar handle
        assert la_func(a[()], **kwargs) == expected


@pytest.mark.parametrize("dtype", NUMERIC, ids=str)
def test_format_float_errors_are_numpys(dtype):
    for name in ("format_float_positional", "format_float_scientific"):
        check(getattr(np, name), getattr(la, name), np.ones(2, dtype))  # not 0-d
        check(getattr(np, name), getattr(la, name), np.ones((), dtype), precision=-1)


# ----- floating-point errors ----------------------------------------------------------

def test_lazy_computations_raise_no_floating_point_warnings():
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        x = la.asarray([1.0, -1.0, 0.0])
        values = np.asarray(x / 0), np.asarray(la.log(x)), np.asarray(la.exp(x * 1e3))
    with np.errstate(all="ignore"):
        expected = (np.array([1.0, -1.0, 0.0]) / 0, np.log([1.0, -1.0, 0.0]),
                    np.exp(np.array([1.0, -1.0, 0.0]) * 1e3))
    for value, want in zip(values, expected):
        np.testing.assert_array_equal(value, want)


def test_errstate_sets_numpys_state():
    before = np.geterr()
    assert issubclass(la.errstate, np.errstate)
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # "ignore" and "warn" are honoured: no warning
        with la.errstate(divide="ignore", over="warn"):
            assert np.geterr()["divide"] == "ignore" and np.geterr()["over"] == "warn"
            assert la.geterr() == np.geterr()
            np.asarray(la.asarray([1.0]) / 0)

        @la.errstate(invalid="ignore")
        def state():
            return np.geterr()["invalid"]

        assert state() == "ignore"
    assert np.geterr() == before


def test_seterr_returns_and_sets_numpys_state():
    old = la.seterr(divide="ignore", under="warn")
    try:
        assert old == {"divide": "warn", "over": "warn", "under": "ignore", "invalid": "warn"}
        assert np.geterr()["divide"] == "ignore" and la.geterr()["under"] == "warn"
    finally:
        np.seterr(**old)
    assert la.seterrcall is np.seterrcall and la.geterrcall is np.geterrcall


@pytest.mark.parametrize("mode", ["raise", "call", "print", "log"])
def test_modes_lazy_computations_cannot_honour_warn(mode):
    with pytest.warns(FloatingPointCheckWarning, match=f"divide='{mode}'") as record:
        state = la.errstate(divide=mode, call=print)
    assert record[0].filename == __file__
    with state:
        assert np.geterr()["divide"] == mode
        result = la.asarray([1.0, 0.0]) / 0  # lazy: NumPy's values, no error
        np.testing.assert_array_equal(np.asarray(result) == np.inf, [True, False])
        if mode == "raise":  # what NumPy runs obeys it
            with pytest.raises(FloatingPointError):
                np.divide(np.ones(1), 0)
    with pytest.warns(FloatingPointCheckWarning) as record:
        old = la.seterr(all=mode)
    np.seterr(**old)
    assert record[0].filename == __file__


def test_invalid_modes_are_numpys_errors():
    with pytest.raises(ValueError):
        la.seterr(over="bogus")
    with pytest.raises(ValueError):
        with la.errstate(all="bogus"):  # NumPy checks on entering
            pass
    with pytest.raises(TypeError):
        la.errstate("ignore")  # keyword-only, as NumPy's
