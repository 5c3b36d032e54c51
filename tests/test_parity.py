"""Exception parity as data: wrong calls, each written once for both libraries, that
NumPy rejects. NumPy's exception type is found by running NumPy here (never written
down); lazyarr must raise that type at the call itself, before anything is read.

Rows cover shapes, axes, dtypes, out-of-range static and array indices, non-numeric
objects, ragged lists, wrong keywords and keyword values, negative and overflowing
sizes, huge allocations (which both libraries refuse before allocating), casting= and
out= violations and writes into read-only views.
"""

import warnings

import numpy
import pytest

import lazyarr

from differential import PUBLIC_EXCEPTIONS

PUBLIC = PUBLIC_EXCEPTIONS + (MemoryError, AttributeError)


def public_type(exc: BaseException) -> type:
    """The exception class a user would catch: the first public one in its MRO
    (NumPy's _ArrayMemoryError is a MemoryError, UFuncTypeError a TypeError)."""
    return next((cls for cls in type(exc).__mro__ if cls in PUBLIC), type(exc))


def _set(x, key, value):
    x[key] = value


def _iop(x, op, y):
    ns = {"x": x, "y": y}
    exec(f"x {op}= y", ns)


def _a(m):
    return m.arange(6.0).reshape(2, 3)


def _i(m):
    return m.arange(6).reshape(2, 3)


def _v(m):
    return m.arange(4.0)


ROWS = {}


def row(name, call):
    assert name not in ROWS, name
    ROWS[name] = call


# ----- shapes and broadcasting ---------------------------------------------------------
for op in ("add", "subtract", "multiply", "divide", "maximum", "power", "equal", "less",
           "arctan2", "hypot", "logical_and", "bitwise_and", "floor_divide", "remainder"):
    row(f"{op} of unbroadcastable shapes",
        lambda m, op=op: getattr(m, op)(m.ones((2, 3), int), m.ones((4,), int)))
row("binary operator shapes", lambda m: _a(m) + m.ones(4))
row("matmul inner sizes", lambda m: m.matmul(_a(m), _a(m)))
row("matmul of 0-d", lambda m: m.matmul(m.ones(()), _a(m)))
row("dot inner sizes", lambda m: m.dot(_a(m), _v(m)))
row("reshape to a wrong size", lambda m: _a(m).reshape(4, 2))
row("reshape with two -1", lambda m: _a(m).reshape(-1, -1))
row("concatenate ranks", lambda m: m.concatenate([_a(m), _v(m)]))
row("concatenate sizes", lambda m: m.concatenate([_a(m), m.ones((2, 2))], axis=0))
row("concatenate nothing", lambda m: m.concatenate([]))
row("stack shapes", lambda m: m.stack([_a(m), m.ones((3, 2))]))
row("stack nothing", lambda m: m.stack([]))
row("vstack shapes", lambda m: m.vstack([_a(m), m.ones((2, 2))]))
row("hstack shapes", lambda m: m.hstack([_a(m), m.ones((3, 2))]))
row("broadcast_to smaller", lambda m: m.broadcast_to(_a(m), (3,)))
row("broadcast_to incompatible", lambda m: m.broadcast_to(_a(m), (2, 4)))
row("broadcast_to negative", lambda m: m.broadcast_to(_v(m), (-1,)))
row("where shapes", lambda m: m.where(_a(m) > 1, m.ones(4), 0))
row("outer out shape", lambda m: m.multiply.outer(_v(m), _v(m), out=m.zeros(3)))
row("in-place broadcast into a smaller array", lambda m: _iop(_v(m), "+", m.ones((2, 4))))
row("setitem shape mismatch", lambda m: _set(_a(m), slice(None), m.ones(4)))
row("setitem fancy shape mismatch", lambda m: _set(_v(m), [0, 1], m.ones(3)))
row("inner sizes", lambda m: m.inner(_a(m), m.ones(4)))
row("cross of length 4", lambda m: m.cross(m.ones(4), m.ones(4)))
row("einsum operands", lambda m: m.einsum("ij,jk", _a(m), _a(m)))
row("tensordot axes sizes", lambda m: m.tensordot(_a(m), _a(m), axes=([1], [1, 0])))
row("split unequal", lambda m: m.split(m.arange(5), 2))
row("diff of 0-d", lambda m: m.diff(m.ones(())))
row("trace of 1-d", lambda m: m.trace(_v(m)))
row("diagonal of 1-d", lambda m: m.diagonal(_v(m)))
row("diag of 3-d", lambda m: m.diag(m.ones((2, 2, 2))))
row("tril of 0-d", lambda m: m.tril(m.ones(())))
row("squeeze a longer axis", lambda m: m.squeeze(_a(m), axis=0))
row("linalg.inv of non-square", lambda m: m.linalg.inv(_a(m)))
row("linalg.solve shapes", lambda m: m.linalg.solve(m.eye(3), m.ones(4)))
row("linalg.det of 1-d", lambda m: m.linalg.det(_v(m)))
row("convolve of empty", lambda m: m.convolve(m.ones(0), _v(m)))
row("interp lengths", lambda m: m.interp(_v(m), m.ones(3), m.ones(4)))
row("bincount of 2-d", lambda m: m.bincount(m.ones((2, 2), int)))
row("bincount negative", lambda m: m.bincount(m.array([1, -1])))
row("bincount weights length", lambda m: m.bincount(m.array([0, 1]), m.ones(3)))
row("take_along_axis ranks", lambda m: m.take_along_axis(_a(m), m.zeros(3, int), 0))
row("put_along_axis ranks", lambda m: m.put_along_axis(_a(m), m.zeros(3, int), 1, 0))
row("choose shapes", lambda m: m.choose(m.zeros(3, int), [m.ones(2), m.ones(2)]))
row("select lengths", lambda m: m.select([_v(m) > 1], [_v(m), _v(m)]))
row("compress long condition", lambda m: m.compress([True] * 9, _v(m), axis=0))
row("polyfit lengths", lambda m: m.polyfit(m.ones(3), m.ones(4), 1))

# ----- axes --------------------------------------------------------------------------
for f in ("sum", "prod", "mean", "std", "var", "max", "min", "argmax", "argmin", "any",
          "all", "cumsum", "cumprod", "ptp", "median", "nansum", "nanmean", "count_nonzero",
          "sort", "argsort", "flip", "expand_dims", "squeeze", "diff", "average"):
    row(f"{f} axis out of range", lambda m, f=f: getattr(m, f)(_a(m), axis=2)
        if f != "expand_dims" else m.expand_dims(_a(m), 5))
    row(f"{f} negative axis out of range", lambda m, f=f: getattr(m, f)(_a(m), axis=-3)
        if f != "expand_dims" else m.expand_dims(_a(m), -4))
row("sum repeated axis", lambda m: m.sum(_a(m), axis=(0, 0)))
row("sum float axis", lambda m: m.sum(_a(m), axis=1.5))
row("concatenate axis", lambda m: m.concatenate([_a(m), _a(m)], axis=2))
row("stack axis", lambda m: m.stack([_a(m), _a(m)], axis=4))
row("moveaxis out of range", lambda m: m.moveaxis(_a(m), 0, 2))
row("moveaxis repeated", lambda m: m.moveaxis(_a(m), [0, 0], [0, 1]))
row("swapaxes", lambda m: m.swapaxes(_a(m), 0, 2))
row("transpose axes length", lambda m: m.transpose(_a(m), (0,)))
row("transpose repeated axes", lambda m: m.transpose(_a(m), (1, 1)))
row("roll axis", lambda m: m.roll(_a(m), 1, axis=3))
row("take axis", lambda m: m.take(_a(m), [0], axis=2))
row("diagonal same axes", lambda m: m.diagonal(_a(m), 0, 1, 1))
row("cumsum axis on 0-d", lambda m: m.cumsum(m.ones(()), axis=1))
row("linalg.norm axis", lambda m: m.linalg.norm(_a(m), axis=2))
row("unique axis", lambda m: m.unique(_a(m), axis=2))
row("delete axis", lambda m: m.delete(_a(m), 0, axis=2))
row("insert axis", lambda m: m.insert(_a(m), 0, 1, axis=2))
row("apply_along_axis axis", lambda m: m.apply_along_axis(m.sum, 2, _a(m)))

# ----- dtypes and casting ----------------------------------------------------------------
row("bitwise_and of floats", lambda m: m.bitwise_and(_v(m), 1))
row("invert of floats", lambda m: m.invert(_v(m)))
row("left_shift of floats", lambda m: m.left_shift(_v(m), 1))
row("float array >> int", lambda m: _v(m) >> 1)
row("gcd of floats", lambda m: m.gcd(_v(m), 2))
row("floor of complex", lambda m: m.floor(m.ones(2, complex)))
row("remainder of complex", lambda m: m.remainder(m.ones(2, complex), 2))
row("maximum of complex and str", lambda m: m.maximum(_v(m), "a"))
row("isnan of str", lambda m: m.isnan("a"))
row("unknown dtype name", lambda m: m.zeros(3, dtype="float99"))
row("dtype not a type", lambda m: m.ones(3, dtype=3.5))
row("astype unknown", lambda m: _v(m).astype("notadtype"))
row("astype casting safe", lambda m: _v(m).astype(int, casting="safe"))
row("astype casting no", lambda m: _v(m).astype(numpy.float32, casting="no"))
row("astype casting bogus", lambda m: _v(m).astype(int, casting="bogus"))
row("astype order bogus", lambda m: _v(m).astype(int, order="X"))
row("add casting bogus", lambda m: m.add(_v(m), 1, casting="bogus"))
row("add out int same_kind", lambda m: m.add(_v(m), 1.5, out=m.zeros(4, int)))
row("in-place float into int", lambda m: _iop(m.arange(3), "+", 1.5))
row("in-place float array into int", lambda m: _iop(m.arange(3), "*", m.ones(3)))
row("in-place complex into float", lambda m: _iop(_v(m), "+", 1j))
row("in-place true divide of ints", lambda m: _iop(m.arange(3), "/", 2))
row("out of the wrong shape", lambda m: m.negative(_v(m), out=m.zeros(3)))
row("out not an array", lambda m: m.negative(_v(m), out=[0, 0, 0, 0]))
row("out tuple length", lambda m: m.negative(_v(m), out=(m.zeros(4), m.zeros(4))))
row("sum dtype bogus", lambda m: m.sum(_v(m), dtype="bogus"))
row("round of bools", lambda m: m.round(m.ones(2, bool), 1))
row("mean of str dtype", lambda m: m.mean(_v(m), dtype=str))
row("can_cast of a Python int", lambda m: m.can_cast(3, m.int8))
row("result_type of nothing", lambda m: m.result_type())
row("iinfo of float", lambda m: m.iinfo(m.float64))
row("finfo of int", lambda m: m.finfo(m.int64))
row("full of str into float", lambda m: m.full(3, "abc", dtype=float))
row("full of an int too large for uint8", lambda m: m.full(3, 300, dtype=m.uint8))
row("full of -1 into uint8", lambda m: m.full(3, -1, dtype=m.uint8))
row("add Python int out of int8 range", lambda m: m.add(m.ones(2, m.int8), 300))
row("uint8 array + -1", lambda m: m.ones(2, m.uint8) + (-1))
row("maximum of uint8 and -3", lambda m: m.maximum(m.ones(2, m.uint8), -3))
row("int64 array + 2**64", lambda m: m.ones(2, int) + 2**64)
row("where of 2**64 into uint8", lambda m: m.where(m.ones(2, bool), m.ones(2, m.uint8),
                                                   2**64))
row("clip with a max below int8", lambda m: m.clip(m.ones(2, m.int8), -1000, -999))
row("int array ** -1", lambda m: m.arange(3) ** -1)
row("power with a negative int64 scalar", lambda m: m.power(m.arange(3), m.int64(-2)))
row("int array ** negative int array", lambda m: m.arange(3) ** m.array([1, -1, 2]))
row("array(copy=False) cast", lambda m: m.array(_v(m), dtype=m.float32, copy=False))
row("array(copy=False) of a scalar result", lambda m: m.array(_v(m).sum(), copy=False))
row("asarray(copy=False) cast", lambda m: m.asarray(m.asarray([1.0]), dtype=int, copy=False))

# ----- static and array indices ---------------------------------------------------------
for key in (4, -5, (0, 3), (2, 0), (0, 0, 0), [4], [0, -5], [[0, 9]], (slice(None), [3]),
            (Ellipsis, 3), ([0, 1], [0, 5])):
    row(f"read {key!r}", lambda m, key=key: (_a(m) if isinstance(key, tuple) or
                                            isinstance(key, list) and key and
                                            isinstance(key[0], list) else _v(m))[key])
    row(f"write {key!r}", lambda m, key=key: _set((_a(m) if isinstance(key, tuple) or
                                             isinstance(key, list) and key and
                                             isinstance(key[0], list) else _v(m)
                                             ), key, 1))
row("index with a float", lambda m: _v(m)[1.0])
row("index with a str", lambda m: _v(m)["a"])
row("index with None list", lambda m: _v(m)[[None]])
row("two ellipses", lambda m: _a(m)[..., ...])
row("boolean mask of the wrong length", lambda m: _v(m)[m.array([True, False])])
row("boolean mask of the wrong shape", lambda m: _a(m)[m.ones((3, 2), bool)])
row("index a 0-d array", lambda m: m.ones(())[0])
row("index a scalar result", lambda m: _v(m).sum()[0])
row("float index array", lambda m: _v(m)[m.array([0.0, 1.0])])
row("known index array out of bounds", lambda m: _v(m)[m.asarray(numpy.array([1, 7]))])
row("take out of bounds", lambda m: m.take(_v(m), [9]))
row("take mode bogus", lambda m: m.take(_v(m), [1], mode="bogus"))
row("put out of bounds", lambda m: m.put(_v(m), [9], 1.0))
row("delete out of bounds", lambda m: m.delete(_v(m), 9))
row("insert out of bounds", lambda m: m.insert(_v(m), 9, 1.0))
row("ravel_multi_index out of bounds", lambda m: m.ravel_multi_index(([3], [0]), (2, 2)))
row("unravel_index out of bounds", lambda m: m.unravel_index(9, (2, 2)))
row("item out of bounds", lambda m: _v(m).item(9))
row("scalar item assignment", lambda m: _set(_v(m).sum(), 0, 1))
row("iterate a 0-d array", lambda m: iter(m.ones(())))
row("len of a 0-d array", lambda m: len(m.ones(())))
row("choose out of bounds", lambda m: m.choose(m.array([0, 5]), [m.ones(2), m.ones(2)]))
row("integer value overflow with a bad index", lambda m: _set(m.zeros(3, m.int16),
    [-1, 9], 2**63))
row("complex value into float with a bad index", lambda m: _set(_v(m), [9], 1j))

# ----- non-numeric objects and ragged lists -------------------------------------------
row("array of a ragged list", lambda m: m.array([[1, 2], [3]]))
row("asarray of a ragged list", lambda m: m.asarray([[1.0], [2.0, 3.0]]))
row("add a ragged list", lambda m: m.add(_v(m), [[1], [2, 3]]))
row("sum of a ragged list", lambda m: m.sum([[1, 2], [3]]))
row("array of a dict as float", lambda m: m.array({"a": 1}, dtype=float))
row("add None", lambda m: _v(m) + None)
row("multiply a str", lambda m: m.multiply(_v(m), "x"))
row("less than a str", lambda m: _v(m) < "x")
row("less than None", lambda m: _v(m) < None)
row("negative of None", lambda m: m.negative(None))
row("sqrt of a str", lambda m: m.sqrt("4"))
row("exp of an object", lambda m: m.exp(object()))
row("float of a 2-element array", lambda m: float(_v(m)))
row("int of a 1-d array", lambda m: int(m.ones(1)))
row("int of a complex 0-d array", lambda m: int(m.array(1 + 2j)))
row("bool of an array", lambda m: bool(_v(m)))
row("bool of an empty array", lambda m: bool(m.ones(0)))
row("index of a float array", lambda m: [0, 1][m.array(1.0)])
row("int of nan", lambda m: int(m.array([numpy.nan]).sum()))
row("zeros with a str shape", lambda m: m.zeros("3"))
row("zeros with a float shape", lambda m: m.zeros(3.5))
row("zeros with a None in shape", lambda m: m.zeros((2, None)))
row("arange of a str", lambda m: m.arange("3"))
row("linspace num float", lambda m: m.linspace(0, 1, 2.5))
row("concatenate of a non-sequence", lambda m: m.concatenate(3))
row("stack of a generator", lambda m: m.stack(x for x in [m.ones(2)]))

# ----- keywords and keyword values -----------------------------------------------------
row("sum unknown keyword", lambda m: m.sum(_v(m), bogus=1))
row("mean unknown keyword", lambda m: m.mean(_v(m), axes=0))
row("zeros unknown keyword", lambda m: m.zeros(3, shape=3))
row("reshape order bogus", lambda m: _a(m).reshape(3, 2, order="X"))
row("ravel order bogus", lambda m: m.ravel(_a(m), order="X"))
row("sort kind bogus", lambda m: m.sort(_v(m), kind="bogus"))
row("argsort stable and kind", lambda m: m.argsort(_v(m), kind="quicksort", stable=True))
row("searchsorted side bogus", lambda m: m.searchsorted(_v(m), 1.0, side="middle"))
row("pad mode bogus", lambda m: m.pad(_v(m), 1, mode="bogus"))
row("pad negative width", lambda m: m.pad(_v(m), -1))
row("percentile above 100", lambda m: m.percentile(_v(m), 101))
row("quantile below 0", lambda m: m.quantile(_v(m), -0.5))
row("quantile method bogus", lambda m: m.quantile(_v(m), 0.5, method="bogus"))
row("histogram negative bins", lambda m: m.histogram(_v(m), bins=-1))
row("linalg.norm ord bogus", lambda m: m.linalg.norm(_a(m), ord="bogus"))
row("einsum subscripts bogus", lambda m: m.einsum("ij->k", _a(m)))
row("clip with both spellings", lambda m: m.clip(_v(m), 1, 2, min=1))
row("clip with None bounds and min=", lambda m: m.clip(_v(m), None, None, min=1))
row("round decimals float", lambda m: m.round(_v(m), 1.5))
row("std ddof str", lambda m: m.std(_v(m), ddof="x"))
row("keepdims of a str", lambda m: m.sum(_v(m), keepdims="x", where=1.5))
row("cumsum dtype bogus", lambda m: m.cumsum(_v(m), dtype="bogus"))
row("ones order bogus", lambda m: m.ones(3, order="X"))
row("array ndmin str", lambda m: m.array([1], ndmin="2"))
row("eye k float", lambda m: m.eye(3, k=1.5))
row("full shape negative", lambda m: m.full((-2,), 1.0))
row("repeat negative", lambda m: m.repeat(_v(m), -1))
row("repeat float counts", lambda m: m.repeat(_v(m), m.array([1.0, 2.0, 1.0, 1.0])))
row("tile negative", lambda m: m.tile(_v(m), -1))
row("split zero sections", lambda m: m.split(_v(m), 0))
row("array_split zero sections", lambda m: m.array_split(_v(m), 0))
row("random seed negative", lambda m: m.random.default_rng(-1))
row("random normal negative scale", lambda m: m.random.default_rng(0).normal(0, -1, 3))
row("random integers low >= high", lambda m: m.random.default_rng(0).integers(5, 1, 3))

# ----- sizes: negative, overflowing, huge (refused before allocating) --------------------
for f in ("zeros", "ones", "empty"):
    row(f"{f} negative", lambda m, f=f: getattr(m, f)(-1))
    row(f"{f} negative in a tuple", lambda m, f=f: getattr(m, f)((2, -3)))
    row(f"{f} of 10**13", lambda m, f=f: getattr(m, f)(10**13))
    row(f"{f} of (2**63,)", lambda m, f=f: getattr(m, f)((2**63,)))
    row(f"{f} of (2**40, 2**40)", lambda m, f=f: getattr(m, f)((2**40, 2**40)))
    row(f"{f} of (2**62, 4)", lambda m, f=f: getattr(m, f)((2**62, 4)))
row("full of 10**13", lambda m: m.full(10**13, 1.0))
row("full of 2**63", lambda m: m.full((2**63,), 1))
row("arange of 10**13", lambda m: m.arange(10**13))
row("asarray of arange(10**13)", lambda m: m.asarray(m.arange(10**13)))
row("arange of 10**13 then read", lambda m: m.ones(10**13)[0])
row("linspace of 10**13", lambda m: m.linspace(0, 1, 10**13))
row("eye of 10**7", lambda m: m.eye(10**7))
row("identity of 10**7", lambda m: m.identity(10**7))
row("tile to 10**13", lambda m: m.tile(m.ones(10), 10**12))
row("repeat to 10**13", lambda m: m.repeat(m.ones(10), 10**12))
row("outer of 10**7 by 10**7", lambda m: m.outer(m.ones(10**7), m.ones(10**7)))
row("zeros_like of a huge broadcast", lambda m: m.zeros_like(
    m.broadcast_to(m.ones(1), (10**7, 10**7))))
row("broadcast_to beyond intp", lambda m: m.broadcast_to(m.ones(1), (2**40, 2**40)))
row("ones of 10**7 squared then sum", lambda m: m.ones((10**7, 10**7)).sum())
row("reshape beyond the size", lambda m: m.ones(4).reshape(2**40, 2**40))
row("linspace negative num", lambda m: m.linspace(0, 1, -1))

# ----- read-only views ---------------------------------------------------------------
row("write into diagonal", lambda m: _set(m.diagonal(_a(m)), 0, 1))
row("write into ndarray.diagonal", lambda m: _set(_a(m).diagonal(), 0, 1))
row("write into diag of 2-d", lambda m: _set(m.diag(_a(m)), 0, 1))
row("write into broadcast_to", lambda m: _set(m.broadcast_to(_v(m), (2, 4)), 0, 1))
row("in-place into broadcast_to", lambda m: _iop(m.broadcast_to(_v(m), (2, 4)), "+", 1))
row("write into imag of a real array", lambda m: _set(m.imag(_v(m)), 0, 1))
row("write into a read-only array", lambda m: _set(_readonly(m), 0, 1))
row("in-place into a read-only array", lambda m: _iop(_readonly(m), "*", 2))
row("out= a read-only array", lambda m: m.add(_v(m), 1, out=_readonly(m)))
row("fill a read-only array", lambda m: _readonly(m).fill(0))
row("sort a read-only array", lambda m: _readonly(m).sort())
row("view of a read-only array", lambda m: _set(_readonly(m)[1:], 0, 1))
row("writeable flag back on a view", lambda m: _set_writeable(_readonly(m)[1:]))
row("put into a read-only array", lambda m: m.put(_readonly(m), [0], 1.0))
row("copyto a read-only array", lambda m: m.copyto(_readonly(m), 1.0))


def _readonly(m):
    x = m.arange(4.0)
    x.flags.writeable = False
    return x


def _set_writeable(x):
    x.flags.writeable = True


def _outcome(call, module):
    with numpy.errstate(all="ignore"), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            call(module)
        except Exception as exc:  # noqa: BLE001  (compared)
            return exc
    return None


def test_the_table_has_at_least_200_wrong_calls():
    assert len(ROWS) >= 200, len(ROWS)


@pytest.mark.parametrize("name", sorted(ROWS))
def test_lazyarr_raises_numpys_exception_at_the_call(name, backend):
    call = ROWS[name]
    expected = _outcome(call, numpy)
    assert expected is not None, f"NumPy accepts {name!r}: not a wrong call"
    with lazyarr.count_flushes():
        actual = _outcome(call, lazyarr)
    assert actual is not None, (f"NumPy raised {type(expected).__name__}({expected}); "
                                f"lazyarr accepted the call")
    assert isinstance(actual, public_type(expected)), (
        f"NumPy raised {type(expected).__name__}({expected}); lazyarr raised "
        f"{type(actual).__name__}({actual})")
