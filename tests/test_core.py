"""The lazy core: nothing computed until read, nothing computed twice, graphs released
once computed, iterative walks, the materialization protocol, printing, promotion."""

import gc
import os
import subprocess
import sys
import weakref

import numpy as np
import pytest

import lazyarr as la
from benchmarks.scripts import gauss, life
from lazyarr import _dtypes, _eager
from lazyarr._flush import linearize
from lazyarr.backend_api import compiled_in
from lazyarr._graph import topological_order

from differential import check
from strategies import NUMERIC


def test_building_a_graph_computes_nothing():
    with la.count_flushes() as flushes:
        x = la.asarray(np.arange(12.0).reshape(3, 4))
        y = (la.exp(x) * 2 + 1)[1:, ::2].sum(axis=0)
        z = la.where(y > 3, y, -y)
        assert z.shape == (2,) and z.dtype == np.float64
    assert flushes.count == 0


@pytest.mark.usefixtures("lazy_graph")
def test_counter_counts_materializations_by_cause():
    x = la.asarray(np.arange(5))
    with la.count_flushes() as flushes:
        y = x * 2
        np.asarray(y)          # read
        bool((x + 1)[0] > 0)   # control flow
        x[(x * 3) > 3]         # data-dependent shape
        la.eval(x - 1)         # explicit
    assert flushes.count == 4
    assert dict(flushes.causes) == {"read": 1, "control": 1, "shape": 1, "explicit": 1}


def test_computed_node_replaces_its_graph_and_releases_it():
    a = la.asarray(np.ones(4))
    b = a + 1
    c = b * 2
    intermediate = weakref.ref(b._node)
    del b
    la.eval(c)
    gc.collect()
    assert intermediate() is None
    assert c._node.is_computed and c._node.inputs == ()


@pytest.mark.usefixtures("lazy_graph")
def test_nothing_is_computed_twice():
    x = la.asarray(np.linspace(0, 1, 1000))
    t = la.exp(x)
    y, z = t + 1, t * 2
    del t
    la.reset_stats()
    np.asarray(y)  # z shares exp(x) with y, so it is computed in the same flush
    first = la.stats()["nodes_evaluated"]
    np.asarray(z)
    assert la.stats()["nodes_evaluated"] == first
    assert la.stats()["flushes_total"] == 1
    np.testing.assert_allclose(np.asarray(z), 2 * np.exp(np.linspace(0, 1, 1000)))


@pytest.mark.usefixtures("lazy_graph")
def test_unrelated_pending_work_is_left_alone():
    x = la.asarray(np.arange(3.0))
    y, z = x + 1, x * 5
    la.eval(y)
    assert y._node.is_computed and not z._node.is_computed


@pytest.mark.usefixtures("lazy_graph")
def test_long_chain_materializes_without_recursion_error(monkeypatch, backend):
    """Every walk is iterative: a 100,000-node graph (the size bounds switched off)."""
    if backend != "numpy":
        pytest.skip("one 100,000-node program is the reference backend's test; "
                    "compiled backends see the bounded chain below")
    monkeypatch.setattr(la._cuts, "MAX_PENDING_DEPTH", None)
    monkeypatch.setattr(la._cuts, "MAX_PENDING_NODES", None)
    x = la.asarray(np.zeros(3))
    for _ in range(100_000):
        x = x + 1.0
    assert x._node.depth == 100_000 and sys.getrecursionlimit() < 100_000
    np.testing.assert_array_equal(np.asarray(x), np.full(3, 100_000.0))


def test_long_loops_are_cut_into_repeating_programs(compile_tier):
    x = la.asarray(np.linspace(-1, 1, 5))
    expected = np.linspace(-1, 1, 5)
    la.reset_stats()
    for _ in range(1000):
        x = 0.99 * x + 0.01 * la.tanh(x)
        expected = 0.99 * expected + 0.01 * np.tanh(expected)
    np.testing.assert_allclose(np.asarray(x), expected, rtol=1e-12)
    stats = la.stats()
    assert stats["flushes"]["size"] >= 10  # each iteration adds 3 to the chain's depth
    if stats["memory_cache_misses"]:  # a compiling backend: a few programs, then hits
        assert stats["memory_cache_misses"] <= 4 and stats["memory_cache_hits"] >= 10



@pytest.mark.usefixtures("lazy_graph")
def test_a_size_cut_at_a_view_computes_the_array_it_views(monkeypatch):
    """The depth bound reached at a view (`x[1:]`, `.T`): the viewed array is computed,
    and the view stays a pending view of it (it was made an output: a copy on XLA, and
    on the interpreter a NumPy view that the next program took as one more input).
    Values, later writes and earlier readers are NumPy's."""
    monkeypatch.setattr(la._cuts, "MAX_PENDING_DEPTH", None)
    monkeypatch.setattr(la._cuts, "_last_cut", None)  # (no place to wait for)
    monkeypatch.setattr(la._cuts, "_cheapest", None)
    x = la.asarray(np.arange(12.0).reshape(3, 4))
    expected = np.arange(12.0).reshape(3, 4)
    for _ in range(9):
        x = x * 1.5 + 1.0
        expected = expected * 1.5 + 1.0
    monkeypatch.setattr(la._cuts, "MAX_PENDING_DEPTH", 10)
    la.reset_stats()
    v = x[1:]  # depth 19 > 10: the cut is here
    t = x.T
    assert la.stats()["flushes"].get("size", 0) == 1
    assert x._node.is_computed
    assert not v._node.is_computed and not t._node.is_computed
    assert v._node.depth == 1 and t._node.depth == 1
    w = v * 2.0  # the next operations are within the bound again
    assert la.stats()["flushes"].get("size", 0) == 1
    x[1, 1] = -1.0  # a write through the owner: the view shows it, w does not
    e_w = expected[1:] * 2.0
    expected[1, 1] = -1.0
    np.testing.assert_array_equal(np.asarray(v), expected[1:])
    np.testing.assert_array_equal(np.asarray(t), expected.T)
    np.testing.assert_array_equal(np.asarray(w), e_w)

@pytest.mark.usefixtures("lazy_graph")
def test_loop_cuts_land_where_the_iteration_keeps_little_live(monkeypatch):
    """A loop whose body keeps its temporaries live into the next iteration (n, birth
    and survive here) is cut, past the depth bound, where a cut computes the fewest of
    them as extra outputs (the rule's mask), at the same place every iteration: the
    cuts run one program with few outputs, not one with every partial sum live."""
    from lazyarr import _cuts, _flush
    cuts = []
    linearize_ = _flush.linearize

    def recording(order, outputs, *learn):
        program, inputs = linearize_(order, outputs, *learn)
        cuts.append((len(outputs), program.key))
        return program, inputs
    monkeypatch.setattr(_flush, "linearize", recording)
    monkeypatch.setattr(_cuts, "_last_cut", None)
    monkeypatch.setattr(_cuts, "_cheapest", None)
    host = (np.random.default_rng(0).random((16, 16)) < 0.3).astype(np.int64)
    np.testing.assert_array_equal(np.asarray(life(la, la.asarray(host), 40)),
                                  life(np, host, 40))
    steady = cuts[2:-1]  # (after the first window's cuts; before the final read)
    assert len(steady) >= 4, cuts
    assert {outputs for outputs, _ in steady} == {4}, cuts  # the mask, birth, survive, n
    assert len({key for _, key in steady}) == 1


def _gauss_cuts(monkeypatch, n: int, what) -> list:
    """`what(node)` of each node a size cut is made at while Gaussian elimination of an
    n x n matrix runs from a clean slate (no cut place remembered); its result checked
    against NumPy's."""
    from lazyarr import _cuts
    seen = []
    cut_at = _cuts._cut_at

    def recording(node):
        seen.append(what(node))
        return cut_at(node)
    monkeypatch.setattr(_cuts, "_cut_at", recording)
    monkeypatch.setattr(_cuts, "_last_cut", None)
    monkeypatch.setattr(_cuts, "_loose_cut", None)
    monkeypatch.setattr(_cuts, "_cheapest", None)
    host = np.random.default_rng(0).random((n, n)) + n * np.eye(n)
    np.testing.assert_allclose(np.asarray(gauss(la, la.asarray(host))), gauss(np, host),
                               rtol=1e-12)
    return seen


@pytest.mark.usefixtures("lazy_graph")
def test_loops_whose_shapes_shrink_are_cut_at_one_place(monkeypatch):
    """Gaussian elimination's trailing block shrinks every iteration, so no node of a
    later iteration has the signature of the place the last cut was made at: after a
    cut forced at twice the depth bound, the next cuts take that place whatever its
    shapes, within an iteration of the bound, rather than each waiting (and weighing
    every node) until it is forced."""
    from lazyarr import _cuts
    depths = _gauss_cuts(monkeypatch, 80, lambda node: node.depth)
    bound = _cuts.MAX_PENDING_DEPTH
    assert len(depths) >= 6 and max(depths) > 2 * bound, depths  # (one forced cut)
    forced = [k for k, depth in enumerate(depths) if depth > 2 * bound]
    assert max(depths[forced[0] + 1:]) <= bound + 10, depths


@pytest.mark.usefixtures("lazy_graph")
def test_loops_whose_shapes_shrink_are_cut_at_their_writes(monkeypatch):
    """Gaussian elimination, cut where its iteration keeps least live although no place
    repeats with its shapes: at the write `a[c:, c-1:] = ...` (the array alone is
    live), not at the subtraction giving the block's new values, which a cut made an
    output of its own, computed beside `a` and copied into it by the next program,
    instead of computed into `a`'s region (in process, 1.16-1.37 s a run against
    1.07-1.11 s at the writes)."""
    ops = _gauss_cuts(monkeypatch, 120, lambda node: node.op.name)
    assert len(ops) >= 8 and ops[-5:] == ["update_slice"] * 5, ops


@pytest.mark.usefixtures("lazy_graph")
def test_python_scalars_are_constants_until_their_value_changes():
    """A structure's host scalars are compiled in while they keep the value of its first
    flush; a scalar that takes another is a runtime input from then on: one program for
    every later value (one more than before, as for a moving slice)."""
    x = la.asarray(np.arange(4.0))
    keys, constants = [], []
    for factor in (0.99, 0.99, 0.98, 0.97, 0.99):
        y = x * factor + 2.0
        program, inputs = linearize(topological_order([y._node]), [y._node])
        keys.append(program.key)
        constants.append(sorted(ins.op.ref(**dict(ins.attrs)).item()
                                for ins in program.instructions if ins.op.name == "constant"))
        assert program.operations() == 2
        assert any(np.ndim(v) == 0 and v == factor for v in inputs)
        np.testing.assert_array_equal(np.asarray(y), np.arange(4.0) * factor + 2.0)
    # 2.0 never changes: always compiled in; the factor only until it changed.
    assert constants == [[0.99, 2.0], [0.99, 2.0], [2.0], [2.0], [2.0]]
    assert keys[0] == keys[1] and keys[2] == keys[3] == keys[4] and keys[1] != keys[2]


@pytest.mark.usefixtures("lazy_graph")
def test_constants_keep_their_bits():
    """A compiled-in scalar is its bytes: NaN is one value (its structure's program is
    kept), and -0.0 is not 0.0."""
    x = la.asarray(np.arange(1.0, 4.0))
    keys = []
    for value in (float("nan"), float("nan"), -0.0, 0.0):
        y = x * value
        keys.append(linearize(topological_order([y._node]), [y._node])[0].key)
        with np.errstate(divide="ignore"):
            np.testing.assert_array_equal(1 / np.asarray(y), 1 / (np.arange(1.0, 4.0) * value))
    assert keys[0] == keys[1] and keys[1] != keys[2] and keys[2] == keys[3]


def test_user_numpy_arrays_are_not_aliased():
    data = np.arange(3.0)
    x = la.asarray(data)
    y = x + 0
    data[0] = 100.0
    assert np.asarray(y)[0] == 0.0


def test_asarray_shares_a_writable_buffer_and_array_copies():
    """As for an ndarray: np.asarray(x) is x's buffer (writable, writes seen by x),
    np.array(x) a copy (see test_interop for the interplay with pending results)."""
    x = la.asarray(np.arange(3)) + 1
    view = np.asarray(x)
    assert view.flags.writeable and np.asarray(x) is view
    copy = np.array(x)
    copy[0] = 7
    assert np.asarray(x)[0] == 1
    view[1] = 9
    assert x.tolist() == [1, 9, 3]


@pytest.mark.parametrize("dtype", ["int16", "float32", "complex64", "bool"])
def test_array_protocol_dtype_and_copy(dtype):
    x = la.asarray(np.arange(3))
    assert np.asarray(x, dtype=dtype).dtype == np.dtype(dtype)
    with pytest.raises(ValueError):
        x.__array__(dtype=np.float32, copy=False)


def test_scalar_conversions_match_numpy():
    for value in (np.array([2.5]), np.array(3), np.array(True), np.array(1 + 2j)):
        x = la.asarray(value)
        for convert in (bool, int, float, complex):
            check(convert, convert, value)
        assert x.item() == value.item()
        assert x.tolist() == value.tolist()
    check(bool, bool, np.arange(3))       # ambiguous truth value
    check(bool, bool, np.zeros((0,)))     # empty
    check(int, int, np.arange(3))
    assert [1, 2, 3][la.asarray(np.array(1))] == 2
    with pytest.raises(TypeError):
        [1, 2, 3][la.asarray(np.array(1.0))]
    with pytest.raises(TypeError):
        [1, 2, 3][la.asarray(np.array([1]))]


def test_python_control_flow_on_values_just_works():
    x = la.asarray(np.array([3.0, -1.0, 2.0]))
    total = 0.0
    while x.sum() > 0:
        x = x - 1
        total += float(x.max())
    assert total == pytest.approx(2.0 + 1.0 + 0.0)


PRINTED = [np.arange(5) * 2, np.linspace(0, 1, 7), np.array([1e-10, 1e10]),
           np.arange(6, dtype=np.int32).reshape(2, 3), np.array([], np.float32),
           np.array(3.0), np.array([True, False]), np.array([1 + 2j, np.nan, np.inf]),
           np.arange(2000.0), np.zeros((2, 0, 3), np.uint8), np.float16([0.1, 2.5])]


@pytest.mark.parametrize("value", PRINTED, ids=range(len(PRINTED)))
def test_printing_matches_numpy(value):
    x = la.asarray(value)
    assert repr(x) == repr(value)
    assert str(x) == str(value)
    assert f"{x}" == f"{value}"


def test_zero_d_results_print_like_numpy_scalars():
    a = np.arange(4.0)
    x = la.asarray(a)
    assert repr(x.sum()) == repr(a.sum()) == "np.float64(6.0)"
    assert str(x.sum()) == str(a.sum())
    assert repr(x[1]) == repr(a[1])
    assert repr(la.asarray(np.arange(3, dtype=np.int8))[0] + 1) == repr(np.int8(0) + 1)
    assert f"{x.mean():.3f}" == f"{a.mean():.3f}"
    assert f"{x[2]:>8.2e}" == f"{a[2]:>8.2e}"
    assert repr(la.zeros(())) == repr(np.zeros(()))
    with pytest.raises(TypeError):
        f"{x:.2f}"  # NumPy rejects format specs on n-d arrays too


def test_metadata_is_known_without_computing():
    with la.count_flushes() as flushes:
        x = la.asarray(np.zeros((2, 3), np.float32)) + 1
        assert x.shape == (2, 3) and x.ndim == 2 and x.size == 6
        assert x.dtype == np.float32 and x.itemsize == 4 and x.nbytes == 24
        assert x.T.shape == (3, 2) and x.mT.shape == (3, 2)
        # ("cpu" where the backend computes on the host, as NumPy says; "tpu:0", ...)
        assert len(x) == 2 and x.device == la._backend.current().device
    assert flushes.count == 0
    assert [r.tolist() for r in x] == [[1.0] * 3] * 2
    with pytest.raises(TypeError):
        len(la.zeros(()))
    with pytest.raises(TypeError):
        iter(la.zeros(()))


@pytest.mark.parametrize("a", NUMERIC)
@pytest.mark.parametrize("b", NUMERIC)
def test_result_type_matches_numpy(a, b):
    assert _dtypes.result_type(a, b) == np.result_type(a, b)
    for scalar in (True, 1, 1.0, 1j):
        assert _dtypes.result_type(a, scalar) == np.result_type(a, scalar)


def test_can_cast_matches_numpy():
    for a in NUMERIC:
        for b in NUMERIC:
            for casting in ("no", "safe", "same_kind", "unsafe"):
                assert la.can_cast(a, b, casting) == np.can_cast(a, b, casting)
    with pytest.raises(TypeError):
        la.can_cast(1, np.int8)


def test_import_does_not_import_jax():
    code = "import sys, lazyarr; assert 'jax' not in sys.modules, 'jax imported'"
    subprocess.run([sys.executable, "-c", code], check=True)


def test_quickstart_line_prints_like_numpy():
    # (on the CPU: where this process holds an accelerator, its child cannot open it)
    out = subprocess.run([sys.executable, "-c",
                          "import lazyarr as np; print(np.arange(5) * 2)"],
                         check=True, capture_output=True, text=True,
                         env={**os.environ, "JAX_PLATFORMS": "cpu"}).stdout
    assert out == "[0 2 4 6 8]\n"


def test_errors_are_raised_at_the_call_not_at_materialization():
    x = la.asarray(np.ones((2, 3)))
    with pytest.raises(ValueError):
        x + la.ones((4,))
    with pytest.raises(IndexError):
        x[5]
    with pytest.raises(TypeError):
        x + "text"
    with pytest.raises(TypeError):
        la.zeros(3, dtype="not a dtype")


def test_backend_selection():
    with la.use_backend("numpy") as backend:
        assert backend.name == "numpy"
    with pytest.raises(la._backend.BackendError):
        la.set_backend("no-such-backend")


@pytest.mark.parametrize("dtype", [">f8", ">i4", ">c8", "<u2", ">f2"])
def test_non_native_byte_order_inputs(dtype):
    """Big-endian (or other non-native) NumPy arrays are read in host order: the values
    and the results of arithmetic are NumPy's (lazyarr's own dtypes are native)."""
    a = np.array([1, 2, 3], dtype)
    check(lambda x: x + 1, lambda x: x + 1, a)
    check(lambda x: x.sum(), lambda x: x.sum(), a)
    assert la.asarray(a).dtype == a.dtype.newbyteorder("=")


@pytest.mark.parametrize("dtype,op,value", [("int64", "__iadd__", 1.5),
                                            ("int8", "__ifloordiv__", 2.5),
                                            ("float32", "__imul__", 1j),
                                            ("uint8", "__isub__", -1.0)])
def test_in_place_cast_error_is_numpys(dtype, op, value):
    """An in-place operator whose result cannot be cast back (same_kind) raises NumPy's
    own exception class (a UFuncTypeError), not just a TypeError."""
    with pytest.raises(TypeError) as expected:
        getattr(np.ones(3, dtype), op)(value)
    with pytest.raises(TypeError) as actual:
        getattr(la.ones(3, dtype), op)(value)
    assert type(actual.value) is type(expected.value)
    assert str(actual.value) == str(expected.value)


def test_pickle_round_trip():
    """Arrays pickle as their values (as NumPy's do; a view as a copy), pending or not,
    keeping their class and scalar-ness."""
    import pickle
    import lazyarr.array_api as xp
    base = la.arange(6.0).reshape(2, 3)
    cases = [base, base * 2, base[:, 1], la.sum(base), xp.asarray([1.0, 2.0]) + 1]
    for x in cases:
        y = pickle.loads(pickle.dumps(x))
        assert type(y) is type(x) and repr(y) == repr(x) and y.dtype == x.dtype
        assert y.base is None


def test_fallback_warning_names_the_callers_line():
    """A counted fallback (here a ufunc method without a lazy implementation, reached
    through NumPy's dispatch) warns at the user's line, however deep lazyarr's stack."""
    x = la.asarray([1.0, 3.0, 2.0])
    with pytest.warns(la._dispatch.FallbackWarning) as record:
        np.subtract.accumulate(x)
    assert record[0].filename == __file__


# ---------------------------------------------------------------------------------
# Integer-index reads (`a[i]`, `a[:, j]`, `a[i, j]`) are "dynamic_slice" instructions
# whose position is a runtime input: a loop over `i` runs one program.

from hypothesis import given, strategies as st  # noqa: E402

from strategies import arrays  # noqa: E402


def _program(y):
    return linearize(topological_order([y._node]), [y._node])


@pytest.mark.usefixtures("lazy_graph")
def test_integer_index_reads_do_not_put_the_index_in_the_key():
    a = la.asarray(np.arange(60.0).reshape(6, 10))
    same = [(a[3] * 2, a[-1] * 2), (a[:, 2], a[:, 7]), (a[1, 2] + 1, a[4, 9] + 1),
            (a[::-1][1], a[::-1][4]), (a[5:0:-2, 1], a[5:0:-2, 3])]
    for x, y in same:
        (px, ix), (py, iy) = _program(x), _program(y)
        assert px.key == py.key
        assert "dynamic_slice" in [ins.op.name for ins in px.instructions]
        assert any(not np.array_equal(u, v) for u, v in zip(ix, iy))
    differ = [(a[2, :5], a[2, :6]), (a[5:0:-2, 1], a[4:0:-2, 1]), (a[0:6:2, 1], a[0:3, 1]),
              (a[1], a[:, 1])]
    for x, y in differ:
        assert _program(x)[0].key != _program(y)[0].key
    program, inputs = _program(a[5:0:-2, 1])  # rows 5, 3, 1: the lowest read is row 1
    assert [v.tolist() for v in inputs if isinstance(v, np.ndarray) and v.ndim == 1] == [[1, 1]]
    # Other slices keep static offsets, unless their start moves at one line of code
    # (see test_xla_backend's moving windows): these two are at two lines.
    stencil = _program(a[1:-1] * 2)[0]
    shifted = _program(a[2:] * 2)[0]
    assert stencil.key != shifted.key
    rolled = _program(la.roll(a, 1, axis=0))[0]
    edge = _program(a[2:3])[0]
    for program in (stencil, rolled, edge):
        assert "dynamic_slice" not in [ins.op.name for ins in program.instructions]


@pytest.mark.usefixtures("lazy_graph")
def test_a_stencil_line_keeps_static_offsets_wherever_a_program_starts():
    """A line taking several slices alike (a stencil) is not a moving window when one
    program takes fewer of its slices than another (a cut fell inside a step, or the
    first step read a computed buffer as views); a window that moves still moves."""
    a = la.asarray(np.arange(40.0))

    def stencil(x, k):
        return [x[0:-2], x[1:-1], x[2:]][k:]  # one line of code, one site

    def ops(program):
        return [ins.op.name for ins in program.instructions]
    whole = stencil(a, 0)
    assert "dynamic_slice" not in ops(_program(whole[0] + whole[1] + whole[2])[0])
    part = stencil(a, 1)
    assert "dynamic_slice" not in ops(_program(part[0] + part[1])[0])
    assert "dynamic_slice" not in ops(_program(stencil(a, 2)[0] * 2)[0])
    window = [_program(a[i:i + 5] * 2)[0] for i in (3, 7, 11)]  # one line: it moves
    assert "dynamic_slice" in ops(window[1])
    assert window[1].key == window[2].key


@pytest.mark.usefixtures("lazy_graph")
def test_a_stencil_line_on_a_buffer_shared_with_numpy_keeps_static_offsets():
    """The first step of a stencil on `asarray(ndarray)` computes each operation that
    reads the shared buffer at once (cause "shared"), each np.roll a program of its
    own: those programs do not make the line a moving window, so the later steps'
    programs keep static offsets."""
    data = np.arange(40_000.0).reshape(200, 200)  # past the eager size: shared

    def step(u):
        return la.roll(u, 1, axis=0) + la.roll(u, -1, axis=0)  # one line of code
    with la.count_flushes() as counter:
        u = step(la.asarray(data))
    # (off the host's CPU, asarray copies: nothing is shared)
    assert counter.causes["shared"] == (2 if _eager.on_host() else 0)
    later = step(step(u))
    program = _program(later)[0]
    assert "dynamic_slice" not in [ins.op.name for ins in program.instructions]
    expected = data
    for _ in range(3):
        expected = np.roll(expected, 1, axis=0) + np.roll(expected, -1, axis=0)
    np.testing.assert_array_equal(np.asarray(later), expected)


@pytest.mark.usefixtures("lazy_graph")
def test_a_write_is_compiled_for_its_position_until_it_moves():
    """`x[a:b] = v` whose position stays put carries it in the program (`at`: XLA makes
    such a write a pad fused with its values); a write whose position moves from one
    flush of its structure to the next takes it as a runtime input: every later
    position, one program. The position compiled in is not part of what the program
    is (`compiled_in`), as a scalar compiled in is not."""
    def written(x, i):
        y = x.copy()
        y[i:i + 3] = x[:3] * 2  # one line of code, one site
        return y

    def write(program):
        (ins,) = [ins for ins in program.instructions if ins.op.name == "update_slice"]
        return dict(ins.attrs).get("at")
    data = np.arange(12.0)
    x = la.asarray(data)
    still = [_program(written(x, 4))[0] for _ in range(3)]
    assert [write(p) for p in still] == [(4,)] * 3 and still[0].key == still[2].key
    moving = [_program(written(x, i))[0] for i in (5, 6, 8)]
    assert [write(p) for p in moving] == [None] * 3
    assert moving[0].key == moving[1].key == moving[2].key != still[0].key
    assert compiled_in(still[0])[1:] == compiled_in(moving[0])[1:]
    assert [v for v in compiled_in(still[0])[0].values() if type(v) is tuple] == [(4,)]
    for i in (4, 5, 6, 8):  # either way, NumPy's values
        expected = data.copy()
        expected[i:i + 3] = data[:3] * 2
        np.testing.assert_array_equal(np.asarray(written(x, i)), expected)


@pytest.mark.usefixtures("lazy_graph")
def test_writes_from_one_line_keep_their_positions_in_a_repeating_structure():
    """Positions are compiled in per structure, not per line: one line writing several
    places, split between two programs (lbm's `f[:, :, i] = ...` for its nine channels,
    a size cut within the loop), gives each write its own `at`, flush after flush; only
    a position that differs from its structure's first flush's is taken at run time."""
    def part(x, first, more):
        y = x.copy()
        for i in range(first, first + 3):
            y[:, i] = x[:, i] * 2  # one line, six places in all
        return y + 1 if more else y

    def positions(program):
        return [dict(ins.attrs).get("at") for ins in program.instructions
                if ins.op.name == "update_slice"]
    data = np.arange(24.0).reshape(4, 6)
    x = la.asarray(data)
    for _ in range(3):
        first, second = _program(part(x, 0, False))[0], _program(part(x, 3, True))[0]
        assert positions(first) == [(0, 0), (0, 1), (0, 2)]
        assert positions(second) == [(0, 3), (0, 4), (0, 5)]
    moved = _program(part(x, 1, False))[0]  # the first structure, other places
    assert positions(moved) == [None] * 3 and moved.key != first.key
    for start, more in ((0, False), (3, True), (1, False)):  # either way, NumPy's values
        expected = data.copy()
        expected[:, start:start + 3] *= 2
        np.testing.assert_array_equal(np.asarray(part(x, start, more)),
                                      expected + 1 if more else expected)


@st.composite
def _integer_reads(draw):
    """An array, whether to read it reversed first, and a basic key of integers and
    slices (negative steps included)."""
    a = draw(arrays(min_dims=1, max_dims=3))
    key = tuple(draw(st.integers(-n, n - 1) if n and draw(st.booleans()) else st.slices(n))
                for n in a.shape)
    return a, draw(st.booleans()), key


@given(case=_integer_reads())
def test_integer_index_reads_match_numpy(case):
    a, flipped, key = case

    def read(x):
        return (x[::-1] if flipped else x)[key]

    check(read, read, a)


def test_integer_index_reads_with_negative_steps():
    a = np.arange(120).reshape(6, 4, 5)
    for i in range(-4, 4):
        for read in (lambda x: x[::-1][i % 6], lambda x: x[5:0:-2, i],
                     lambda x: x[::-1, i, ::-2] * 2, lambda x: x[1, ::-3, i]):
            check(read, read, a)
    check(lambda x: x[1], lambda x: x[1], np.zeros((3, 0, 2)))


def test_ndarray_is_the_array_kind():
    """`isinstance(x, lazyarr.ndarray)` holds for lazyarr's arrays and NumPy's own, not
    for the 0-d results that stand for NumPy scalars; the constructor makes zeros or
    wraps a buffer as NumPy's does."""
    assert isinstance(la.zeros(3), la.ndarray) and isinstance(np.zeros(3), la.ndarray)
    assert isinstance(la.asarray(2.0), la.ndarray) and not isinstance(la.sum(la.ones(2)), la.ndarray)
    assert not isinstance([1.0], la.ndarray) and issubclass(np.ndarray, la.ndarray)
    check(lambda: np.zeros((2, 3), np.int16), lambda: la.ndarray((2, 3), np.int16))
    buffer = np.arange(4, dtype=np.int32)
    check(lambda: np.ndarray((2,), np.int32, buffer, 8), lambda: la.ndarray((2,), np.int32, buffer, 8))
    assert la.ndarray.sum is la.Array.sum


def test_reads_of_computed_arrays_do_not_flush():
    """float(x[i]), rows, iteration and tolist of a computed array read its buffer."""
    host = np.arange(12.0).reshape(3, 4)
    x = la.eval(la.asarray(host) * 2.0)
    with la.count_flushes() as counter:
        values = [float(x[i, j]) for i in range(3) for j in range(4)]
        rows = [np.asarray(row) for row in x]
        column = np.asarray(x[:, 1])
        listed = x.tolist()
    assert counter.count == 0
    assert values == (host * 2.0).ravel().tolist()
    np.testing.assert_array_equal(np.array(rows), host * 2.0)
    np.testing.assert_array_equal(column, host[:, 1] * 2.0)
    assert listed == (host * 2.0).tolist()


def test_contains_is_numpys():
    host = np.array([[1.0, np.nan], [3.0, 4.0]])
    x = la.asarray(host) + 0.0
    for value in (1.0, 2.0, np.nan, 4, [3.0, 4.0], [1.0, 5.0]):
        assert (value in x) == (value in host)


def test_a_flush_visits_only_the_handles_that_share_its_work():
    """`results.append(x.mean())` in a loop: each flush looks at the handles of its own
    group of pending work, not at every live result (issue 14: it was quadratic)."""
    from lazyarr import _flush
    x = la.asarray(np.arange(10.0))
    results, visited = [], []
    for k in range(300):
        results.append(x.mean() + k)       # kept alive, pending
        y = x * k
        before = _flush.HANDLES_VISITED
        float(y.sum())                     # a flush of unrelated work
        visited.append(_flush.HANDLES_VISITED - before)
    assert max(visited) <= 2, visited
    np.testing.assert_allclose([float(r) for r in results], 4.5 + np.arange(300))


@pytest.mark.usefixtures("lazy_graph")
def test_a_dead_handles_id_does_not_hide_a_live_handle():
    """Group registries are keyed by handle id, and CPython reuses a dead handle's id:
    merging groups kept the stale entry over the live handle of the same id, so a flush
    computed that array's node without keeping its value (fuzzer, seed 551 on XLA: run
    again later from an input buffer the flush had donated, "Array has been deleted")."""
    class Gone:
        pass
    for live_in_larger in (True, False):
        x = la.arange(4.0) * 2
        y = la.arange(3.0) + 1
        extra = [x + k for k in range(3)]  # x's group holds more handles than y's
        big, small = (x, y) if live_in_larger else (y, x)
        live = la.sin(big)                 # the live handle, in `big`'s group
        small._node.group.root().handles[id(live)] = weakref.ref(Gone())  # a dead one
        both = x.sum() + y.sum()           # merges the two groups
        float(both)
        assert live._node.is_computed, live_in_larger
        np.testing.assert_allclose(np.asarray(live), np.sin(np.asarray(big)))
        del extra


@pytest.mark.usefixtures("lazy_graph")
def test_a_flush_still_evaluates_every_live_array_sharing_its_work():
    a = la.arange(6.0) * 2
    b, c = a + 1, a.sum()
    d = la.arange(3.0) + 1                 # another group: stays pending
    with la.count_flushes() as counter:
        float(c)
        np.asarray(b)
    assert counter.count == 1
    assert not d._node.is_computed and b._node.is_computed


@pytest.mark.usefixtures("lazy_graph")
def test_wide_graphs_are_cut_into_bounded_programs(monkeypatch):
    """Many independent pending results joined by one node (np.array of a list of
    results) are computed in batches: no program much over the node bound."""
    from lazyarr import _cuts, _flush
    sizes = []
    linearize_ = _flush.linearize

    def recording(order, outputs, *learn):
        program, inputs = linearize_(order, outputs, *learn)
        sizes.append(len(program.instructions))
        return program, inputs
    monkeypatch.setattr(_flush, "linearize", recording)
    monkeypatch.setattr(_cuts, "MAX_PENDING_NODES", 100)
    host = np.linspace(0.1, 1.0, 50)
    x = la.asarray(host)
    results = [la.tanh(x * (0.01 * (i + 1))).sum() for i in range(120)]
    stacked = la.array(results)
    np.testing.assert_allclose(np.asarray(stacked),
                               [np.tanh(host * (0.01 * (i + 1))).sum() for i in range(120)],
                               rtol=1e-12)
    assert len(sizes) >= 5 and max(sizes) <= 2 * 100, str(sizes)


@pytest.mark.usefixtures("lazy_graph")
def test_group_counts_pending_nodes_and_bytes():
    x = la.asarray(np.ones((10, 10)))
    y = (x + 1) * 2
    group = y._node.group.root()
    assert group.nodes == 2 and group.nbytes == 2 * 800
    z = y.sum() + (x - 1).sum()
    assert z._node.group.root().nodes == 6
    # and the computed operands' bytes, per read (the scalars' too; `x`, a NumPy
    # array's shared buffer, is read through a pending leaf of its own: see _shared)
    w = la.eval(la.ones((10, 10)))
    v = (w + 1) * (w - 1)
    assert v._node.group.root().pinned == 2 * 800 + 2 * 8


def _sums(steps, keep=None):
    """`total = total + y.sum()` over computed `y`s (kept in `keep`, if given), and
    weak references to their buffers."""
    total, buffers = 0.0, []
    for i in range(steps):
        y = la.eval(la.arange(2048.0) * (i + 1))  # 16 KiB, computed
        total = total + y.sum()
        buffers.append(weakref.ref(y._node.value))
        if keep is not None:
            keep.append(y)
    return total, buffers


_SUMS = sum(np.arange(2048.0).sum() * (i + 1) for i in range(20))


@pytest.mark.usefixtures("lazy_graph")
@pytest.mark.parametrize("bound", [2**15, None])
def test_buffers_only_pending_work_holds_are_bounded(backend, bound, monkeypatch):
    """`total = total + y.sum()` in a loop: a pending sum holds each step's computed
    `y`, which NumPy would have freed; past the bound on such buffers the scheduler
    computes `total`, and they are freed. (None: no bound, every one kept.) masking's
    `y[y > 0].sum()` is the same, with the mask's indices as well."""
    from lazyarr import _cuts
    monkeypatch.setattr(_cuts, "MAX_PINNED_BYTES", bound)
    with la.count_flushes() as counter:
        total, buffers = _sums(20)
    alive = sum(ref() is not None for ref in buffers)
    if bound is None:
        assert alive == 20 and counter.causes["size"] == 0
    else:  # past 32 KiB and 4 times the largest (16 KiB): a cut every few steps
        assert alive <= 8 and counter.causes["size"] >= 2, (alive, counter.causes)
    assert float(total) == _SUMS


@pytest.mark.usefixtures("lazy_graph")
def test_buffers_a_live_array_holds_are_not_cut_for(backend, monkeypatch):
    """A buffer an array still holds stays whatever a cut does: none is made for it."""
    from lazyarr import _cuts
    monkeypatch.setattr(_cuts, "MAX_PINNED_BYTES", 2**15)
    kept: list = []
    with la.count_flushes() as counter:
        total, buffers = _sums(20, kept)
    assert counter.causes["size"] == 0 and all(ref() is not None for ref in buffers)
    assert float(total) == _SUMS


@pytest.mark.parametrize("convert", [float, int, complex, bool])
@pytest.mark.parametrize("make", [
    lambda m: m.array([1 + 2j]).sum(),          # a complex NumPy scalar: its real part
    lambda m: m.complex64(3j),
    lambda m: m.array(1 + 2j),                  # a 0-d complex array: TypeError
    lambda m: m.array([1 + 2j]),                # 1-d: only 0-d arrays convert
    lambda m: m.array([2.5]).mean(),
    lambda m: m.array([np.nan]).sum(),          # int(nan): ValueError
])
def test_python_conversions_of_results_are_numpys(make, convert):
    """Fuzzer class 1: float(np.array([1+2j]).sum()) is 1.0 with a ComplexWarning."""
    import warnings
    outcomes = []
    for module in (np, la):
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            try:
                outcomes.append((convert(make(module)), None))
            except Exception as exc:  # noqa: BLE001  (compared)
                outcomes.append((None, type(exc)))
        outcomes[-1] += (sorted({w.category.__name__ for w in caught}),)
    assert outcomes[0] == outcomes[1] or (
        outcomes[0][0] != outcomes[0][0] and outcomes[1][0] != outcomes[1][0])


@pytest.mark.parametrize("other", ["x", b"x", None, object()])
@pytest.mark.parametrize("make", [lambda m: m.ones(3), lambda m: m.ones(3).sum(),
                                  lambda m: m.zeros((2, 0))])
def test_equality_with_non_numeric_objects_is_elementwise(make, other):
    """Fuzzer class 10: `x == "x"` is an array of False (a NumPy scalar's answer is
    np.False_ for a string, False for other objects)."""
    for op in ("__eq__", "__ne__"):
        expected = getattr(make(np), op)(other)
        actual = getattr(make(la), op)(other)
        if isinstance(expected, (np.ndarray, np.generic)):
            check(lambda: expected, lambda: actual)
        else:
            assert type(actual) is type(expected) and actual == expected


@pytest.mark.parametrize("kwargs", [
    {"casting": "safe"}, {"casting": "same_kind"}, {"casting": "no"}, {"casting": "equiv"},
    {"casting": "unsafe"}, {"casting": "bogus"}, {"order": "F"}, {"order": "C"},
    {"order": "A"}, {"order": "K"}, {"order": "X"}, {"copy": False, "order": "F"},
    {"casting": "same_value"}, {"subok": False}])
@pytest.mark.parametrize("dtype", ["int8", "float32", "complex64", "bool"])
def test_astype_casting_and_order_are_numpys(kwargs, dtype):
    """Fuzzer class 10: astype(casting=, order=) are checked as NumPy checks them."""
    host = np.arange(6.0).reshape(2, 3)
    result = check(lambda x: x.astype(dtype, **kwargs), lambda x: x.astype(dtype, **kwargs),
                   host)
    if result is not None:
        expected = host.astype(dtype, **kwargs)
        assert result.flags.f_contiguous == expected.flags.f_contiguous
        assert result.flags.c_contiguous == expected.flags.c_contiguous


@pytest.mark.parametrize("op", ["+=", "-=", "*=", "/=", "**=", "//=", "&="])
@pytest.mark.parametrize("other", [np.ones((2, 2)), np.ones((2,), np.int8), np.zeros((2, 0))])
def test_in_place_operators_check_the_cast_before_the_shapes(op, other):
    """Fuzzer class 7: `a += np.ones((2, 2))` into a shape-(3,) int array is NumPy's
    UFuncTypeError (the cast is checked first), not the broadcast ValueError."""
    def run(module, host):
        a = module.asarray(host.copy())
        b = module.asarray(other)
        exec(f"a {op} b")
        return a
    check(lambda h: run(np, h), lambda h: run(la, h), np.arange(3))


@pytest.mark.usefixtures("lazy_graph")
def test_a_deferred_error_names_the_operation_and_the_users_line():
    """Issue 14 part 6: an error found only when computing (a pending exponent's
    negative values) names the operation and the file:line that built it."""
    import inspect
    x = la.arange(3)
    line = inspect.currentframe().f_lineno + 1
    y = x ** ((x * 1) - 2)
    with pytest.raises(ValueError, match="negative integer powers") as info:
        np.asarray(y)
    assert info.value.__notes__ == [
        f"lazyarr: raised when computing power, created at {__file__}, line {line}"]


@pytest.mark.usefixtures("lazy_graph")
def test_an_error_in_one_array_poisons_nothing_that_shares_work_with_it():
    """A pending array whose computation fails (kept alive, say by a traceback) does
    not make the reads of the arrays sharing its work fail; it raises when read."""
    x = la.arange(4) * 1
    bad = x ** (x - 5)
    good = x + 1
    np.testing.assert_array_equal(np.asarray(good), np.arange(4) + 1)
    with pytest.raises(ValueError):
        np.asarray(bad)
    np.testing.assert_array_equal(np.asarray(x), np.arange(4))
