"""Writes made in place by the interpreter (the NumPy reference backend): a write whose
target buffer the run owns (an intermediate nothing reads afterwards, or an `owned`
input) costs the region written, as in NumPy, and never changes a value that anything
else can see. Checked on programs built by hand (is the buffer reused or not) and on
NumPy code whose arrays alias in every way a write could leak through, on each tier."""

import numpy
import pytest

import lazyarr as la
from lazyarr import backend_api
from lazyarr.backend_api import Instruction, Program, op
from lazyarr.numpy_backend import NumpyBackend

F64, I64 = numpy.dtype("float64"), numpy.dtype("int64")


def _write_program(checked: bool = False) -> Program:
    """out = x with x[2:4] = v; with `checked`, also an index checked against bounds."""
    specs = (((6,), F64), ((2,), F64), ((1,), I64))
    ins = [Instruction(op("update_slice"), (0, 1, 2), (("steps", (1,)),), (6,), F64)]
    outputs = (3,)
    if checked:  # an index checked against bounds
        specs += (((2,), I64),)
        ins.append(Instruction(op("normalize_index"), (3,), (("axis", 0), ("size", 6)),
                               (2,), I64))
        outputs = (4, 5)
    return Program(specs, tuple(ins), outputs, (specs, tuple(ins), outputs))


def _inputs():
    return [numpy.arange(6.0), numpy.array([-1.0, -2.0]), numpy.array([2])]


def test_an_owned_input_is_written_in_place():
    inputs = _inputs()
    out, = NumpyBackend().run(_write_program(), inputs, frozenset([0])).outputs
    assert out is inputs[0]
    assert out.tolist() == [0, 1, -1, -2, 4, 5]


def test_an_input_not_owned_is_copied():
    inputs = _inputs()
    out, = NumpyBackend().run(_write_program(), inputs).outputs
    assert out is not inputs[0] and inputs[0].tolist() == list(range(6))
    assert out.tolist() == [0, 1, -1, -2, 4, 5]


def test_an_owned_input_read_through_a_view_in_the_program_is_copied():
    """y = x[1:] (a NumPy view) is an output: writing x in place would change it."""
    specs = (((6,), F64), ((2,), F64), ((1,), I64))
    ins = (Instruction(op("slice"), (0,), (("starts", (1,)), ("steps", (1,)), ("stops", (6,))),
                       (5,), F64),
           Instruction(op("update_slice"), (0, 1, 2), (("steps", (1,)),), (6,), F64))
    program = Program(specs, ins, (3, 4), (specs, ins, (3, 4)))
    inputs = _inputs()
    view, out = NumpyBackend().run(program, inputs, frozenset([0])).outputs
    assert view.tolist() == [1, 2, 3, 4, 5] and out.tolist() == [0, 1, -1, -2, 4, 5]


def test_an_owned_view_is_copied():
    base = numpy.arange(8.0)
    inputs = [base[1:7]] + _inputs()[1:]
    out, = NumpyBackend().run(_write_program(), inputs, frozenset([0])).outputs
    assert base.tolist() == list(range(8)) and out.tolist() == [1, 2, -1, -2, 5, 6]


def test_an_owned_view_of_a_buffer_nothing_else_holds_is_written_in_place():
    """A view whose buffer only it holds (np.tensordot's product is a reshape of the one
    it computed) is the program's to write, by a write or an elementwise result."""
    inputs = [numpy.arange(8.0)[1:7]] + _inputs()[1:]  # (the buffer: the view's alone)
    out, = NumpyBackend().run(_write_program(), inputs, frozenset([0])).outputs
    assert out is inputs[0] and out.tolist() == [1, 2, -1, -2, 5, 6]
    specs = (((6,), F64), ((6,), F64))
    ins = (Instruction(op("add"), (0, 1), (), (6,), F64),)
    program = Program(specs, ins, (2,), (specs, ins, (2,)))
    inputs = [numpy.arange(12.0).reshape(2, 6)[1], numpy.ones(6)]
    out, = NumpyBackend().run(program, inputs, frozenset([0])).outputs
    assert out is inputs[0] and out.tolist() == [7, 8, 9, 10, 11, 12]


def test_a_matrix_products_result_is_reused_by_the_next_program(backend):
    """mlp's `np.tanh(x @ w + b)`, its product computed by a flush of its own (`w`
    shares NumPy's memory): the next program adds and takes the tanh in the product's
    buffer, as NumPy's temporaries are reused (it made two new arrays, 110 against
    NumPy's 67 ms a forward pass)."""
    # Under the XLA backend, the interpreter tier that runs its programs first on the
    # CPU (the suite otherwise forces XLA's parameter to compile).
    if backend == "xla":
        la.set_tier("interpret")
    rng = numpy.random.default_rng(0)
    # (past the eager bound: small operations are NumPy's own, temporaries and all)
    x, w, b = rng.random((256, 256)), rng.random((256, 256)), rng.random(256)
    p = la.asarray(x) @ la.asarray(w)
    la.eval(p)
    before = p._node.value.__array_interface__["data"][0]
    h = la.tanh(p + la.asarray(b))
    del p
    la.eval(h)
    assert h._node.value.__array_interface__["data"][0] == before
    numpy.testing.assert_allclose(numpy.asarray(h), numpy.tanh(x @ w + b), rtol=1e-12)


def test_a_program_with_runtime_checks_leaves_owned_inputs_as_they_were():
    program = _write_program(checked=True)
    assert program.checks
    inputs = _inputs() + [numpy.array([0, 9])]  # 9 is out of bounds
    with pytest.raises(IndexError):
        NumpyBackend().run(program, inputs, frozenset([0]))
    assert inputs[0].tolist() == list(range(6))


def _count_writes_in_place(monkeypatch) -> list:
    """The ids of the buffers the interpreter's in-place update_slice writes into."""
    calls = []
    write = backend_api.WRITES_IN_PLACE[op("update_slice")]

    def counted(x, *args, **kwargs):
        calls.append(id(x))
        return write(x, *args, **kwargs)
    monkeypatch.setitem(backend_api.WRITES_IN_PLACE, op("update_slice"), counted)
    return calls


def test_intermediates_are_written_in_place(monkeypatch):
    """A chain of writes into a fresh array writes into one buffer."""
    calls = _count_writes_in_place(monkeypatch)
    specs = (((6,), F64), ((2,), F64), ((1,), I64))
    ins = (Instruction(op("add"), (0, 0), (), (6,), F64),
           Instruction(op("update_slice"), (3, 1, 2), (("steps", (1,)),), (6,), F64),
           Instruction(op("update_slice"), (4, 1, 2), (("steps", (2,)),), (6,), F64))
    program = Program(specs, ins, (5,), (specs, ins, (5,)))
    inputs = _inputs()
    out, = NumpyBackend().run(program, inputs).outputs
    assert len(calls) == 2 and len(set(calls)) == 1
    assert out.tolist() == [0, 2, -1, -2, -2, 10] and inputs[0].tolist() == list(range(6))


def test_a_chain_of_writes_into_an_owned_input_is_made_in_place(monkeypatch):
    """Gaussian elimination's cut programs: write after write into the owned matrix.
    The first write made the input's buffer the result's; the next ones went to a copy
    (one 8 MB copy per flush, 57 a run); now every write is made in place, and what
    else holds a view of the result still makes a copy."""
    calls = _count_writes_in_place(monkeypatch)
    specs = (((6,), F64), ((2,), F64), ((1,), I64))
    ins = (Instruction(op("update_slice"), (0, 1, 2), (("steps", (1,)),), (6,), F64),
           Instruction(op("update_slice"), (3, 1, 2), (("steps", (2,)),), (6,), F64),
           Instruction(op("update_slice"), (4, 1, 2), (("steps", (1,)),), (6,), F64))
    program = Program(specs, ins, (5,), (specs, ins, (5,)))
    inputs = _inputs()
    inputs[2] = numpy.array([1])
    out, = NumpyBackend().run(program, inputs, frozenset([0])).outputs
    assert len(calls) == 3 and len(set(calls)) == 1 and out is inputs[0]
    assert out.tolist() == [0, -1, -2, -2, 4, 5]
    # The first write's result also read through a view that is an output: the second
    # write may not go into it.
    view = Instruction(op("slice"), (3,), (("starts", (1,)), ("steps", (1,)), ("stops", (6,))),
                       (5,), F64)
    ins = (ins[0], view, Instruction(op("update_slice"), (3, 1, 2), (("steps", (1,)),),
                                     (6,), F64))
    program = Program(specs, ins, (4, 5), (specs, ins, (4, 5)))
    calls.clear()
    inputs = _inputs()
    seen, out = NumpyBackend().run(program, inputs, frozenset([0])).outputs
    assert len(calls) == 1
    assert seen.tolist() == [1, -1, -2, 4, 5] and out.tolist() == [0, 1, -1, -2, 4, 5]
    assert out is not inputs[0]



def _difference_program(n: int) -> Program:
    """m[1:] - p * q for an (n + 1, n) matrix m: the subtraction's operands are a view
    of m (first) and the dying temporary p * q, as in gauss's step."""
    m, row = ((n + 1, n), F64), ((n, n), F64)
    specs = (m, row, row)
    ins = (Instruction(op("multiply"), (1, 2), (), *row),
           Instruction(op("slice"), (0,), (("starts", (1, 0)), ("steps", (1, 1)),
                                           ("stops", (n + 1, n))), *row),
           Instruction(op("subtract"), (4, 3), (), *row))
    return Program(specs, ins, (5,), (specs, ins, (5,)))


def test_an_elementwise_result_takes_any_dying_operand_not_only_the_first():
    """`m[1:] - t`: the first dying operand is a view of m (not its own buffer), the
    second the temporary t: the result is written into t's buffer, as NumPy's own
    elision does (before, a new array was made once the view was turned down)."""
    import tracemalloc
    backend = NumpyBackend()
    n = 300
    program = _difference_program(n)
    inputs = [numpy.arange((n + 1) * n, dtype=F64).reshape(n + 1, n).copy(),
              numpy.full((n, n), 2.0), numpy.full((n, n), 3.0)]
    backend.run(program, inputs)  # warm
    tracemalloc.start()
    try:
        out, = backend.run(program, inputs).outputs
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak < 1.5 * n * n * 8  # one array: t's, not t's and then another
    numpy.testing.assert_array_equal(out, inputs[0][1:] - 6.0)
    assert not any(numpy.shares_memory(out, x) for x in inputs)


def test_an_elementwise_result_takes_an_owned_input_that_dies():
    """An owned input read last by an elementwise instruction gives it its buffer; one
    not owned never does."""
    spec = ((3, 3), F64)
    specs = (spec, spec)
    ins = (Instruction(op("slice"), (0,), (("starts", (0, 0)), ("steps", (1, 1)),
                                           ("stops", (3, 3))), *spec),
           Instruction(op("subtract"), (2, 1), (), *spec))
    program = Program(specs, ins, (3,), (specs, ins, (3,)))
    for owned in (frozenset([1]), frozenset()):
        inputs = [numpy.ones((3, 3)), numpy.full((3, 3), 4.0)]
        out, = NumpyBackend().run(program, inputs, owned).outputs
        assert (out is inputs[1]) == bool(owned)
        assert out.tolist() == [[-3.0] * 3] * 3 and inputs[0].tolist() == [[1.0] * 3] * 3


def test_an_owned_matrix_whose_views_are_owned_inputs_is_written_in_place(monkeypatch):
    """gauss after a cut: the next step reads `a[c:, c-1:]` of the computed matrix, a
    NumPy view of it that is one more input of the program. The scheduler owns the
    matrix with its view, and the write into it is made in place (before, a copy of
    the whole matrix per cut), once the view is read by nothing after: the difference
    is computed into the written rows (`_computed_writes`)."""
    calls = _count_writes_in_place(monkeypatch)
    m, row = ((4, 3), F64), ((3, 3), F64)
    specs = (m, row, row, ((2,), I64))
    ins = (Instruction(op("subtract"), (1, 2), (), *row),
           Instruction(op("update_slice"), (0, 4, 3), (("steps", (1, 1)),), *m))
    program = Program(specs, ins, (5,), (specs, ins, (5,)))
    matrix = numpy.arange(12.0).reshape(4, 3).copy()
    inputs = [matrix, matrix[1:], numpy.full((3, 3), 2.0), numpy.array([1, 0])]
    out, = NumpyBackend().run(program, inputs, frozenset([0, 1, 2])).outputs
    assert out is matrix and not calls  # the difference computed into its rows
    assert out.tolist() == [[0, 1, 2], [1, 2, 3], [4, 5, 6], [7, 8, 9]]
    # The view read after the write: the write goes to a copy, the view keeps its values.
    ins = ins + (Instruction(op("multiply"), (1, 1), (), *row),)
    program = Program(specs, ins, (5, 6), (specs, ins, (5, 6)))
    matrix = numpy.arange(12.0).reshape(4, 3).copy()
    inputs = [matrix, matrix[1:], numpy.full((3, 3), 2.0), numpy.array([1, 0])]
    out, squares = NumpyBackend().run(program, inputs, frozenset([0, 1, 2])).outputs
    assert out is not matrix and matrix.tolist() == numpy.arange(12.0).reshape(4, 3).tolist()
    assert squares.tolist() == (numpy.arange(3.0, 12.0).reshape(3, 3) ** 2).tolist()


def _computed_write(shape, region_starts, region) -> Program:
    """x = in0 + in0 (an intermediate), then x[region] = x[region] - in1, as gauss's
    step writes its block: the difference is read only by the write."""
    xspec, vspec = (shape, F64), (region, F64)
    specs = (xspec, vspec, ((len(shape),), I64))
    stops = tuple(s + n for s, n in zip(region_starts, region))
    ones = (1,) * len(shape)
    ins = (Instruction(op("add"), (0, 0), (), *xspec),
           Instruction(op("slice"), (3,), (("starts", region_starts), ("steps", ones),
                                           ("stops", stops)), *vspec),
           Instruction(op("subtract"), (4, 1), (), *vspec),
           Instruction(op("update_slice"), (3, 5, 2), (("steps", ones),), *xspec))
    return Program(specs, ins, (6,), (specs, ins, (6,)))


def test_a_write_computes_its_values_into_the_written_region():
    """The difference is computed into the block of x it is written to: no block-sized
    temporary is made (NumPy makes one and copies it), and the values are NumPy's."""
    import tracemalloc
    from lazyarr.numpy_backend import _plan
    program = _computed_write((400, 300), (100, 50), (300, 250))
    steps = _plan(program)
    assert steps[2].into == () and steps[3].into[1] is numpy.subtract
    host = numpy.arange(120000.0).reshape(400, 300)
    inputs = [host, numpy.full((300, 250), 3.0), numpy.array([100, 50])]
    NumpyBackend().run(program, inputs)  # warm
    tracemalloc.start()
    try:
        out, = NumpyBackend().run(program, inputs).outputs
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak < 400 * 300 * 8 + 300 * 250 * 8 / 2  # x, and no block beside it
    expected = host + host
    expected[100:, 50:] = expected[100:, 50:] - 3.0
    numpy.testing.assert_array_equal(out, expected)


def _write_beside_a_view(view_stop: int) -> Program:
    """x = in0 + in0; v = x[0:view_stop] (a NumPy view of x), x[2:4] = in1, then v * v:
    v must keep x's values from before the write."""
    specs = (((6,), F64), ((2,), F64), ((1,), I64))
    ins = (Instruction(op("add"), (0, 0), (), (6,), F64),
           Instruction(op("slice"), (3,), (("starts", (0,)), ("steps", (1,)),
                                           ("stops", (view_stop,))), (view_stop,), F64),
           Instruction(op("update_slice"), (3, 1, 2), (("steps", (1,)),), (6,), F64),
           Instruction(op("multiply"), (4, 4), (), (view_stop,), F64))
    return Program(specs, ins, (5, 6), (specs, ins, (5, 6)))


def test_a_small_view_still_read_is_copied_instead_of_the_buffer_written(monkeypatch):
    """lbm's `np.roll(f[:, :, i], 0)` is a view of f's plane, read after the plane's
    write: the view (here a third of x) is copied and x written in place, as NumPy
    copies a plane; a view of most of x leaves the write to a copy of x. The values
    are NumPy's either way."""
    for view_stop, in_place in ((2, True), (5, False)):
        calls = _count_writes_in_place(monkeypatch)
        program = _write_beside_a_view(view_stop)
        out, squares = NumpyBackend().run(program, _inputs()).outputs
        assert bool(calls) is in_place
        assert out.tolist() == [0, 2, -1, -2, 8, 10]
        assert squares.tolist() == [(2.0 * i) ** 2 for i in range(view_stop)]


def test_an_owned_input_with_a_small_view_still_read_is_written_in_place(monkeypatch):
    """lbm's step starts by writing the owned f while `np.roll(f[:, :, i], 0)` (a view
    of f's plane) is still to be read: the view is copied and f written in place, where
    it copied all of f; a view of most of f leaves the write to a copy, and the input
    as it was. The values are NumPy's either way."""
    specs = (((6,), F64), ((2,), F64), ((1,), I64))
    for view_stop, in_place in ((2, True), (5, False)):
        calls = _count_writes_in_place(monkeypatch)
        ins = (Instruction(op("slice"), (0,), (("starts", (0,)), ("steps", (1,)),
                                               ("stops", (view_stop,))), (view_stop,), F64),
               Instruction(op("update_slice"), (0, 1, 2), (("steps", (1,)),), (6,), F64),
               Instruction(op("multiply"), (3, 3), (), (view_stop,), F64))
        program = Program(specs, ins, (4, 5), (specs, ins, (4, 5)))
        inputs = _inputs()
        out, squares = NumpyBackend().run(program, inputs, frozenset([0])).outputs
        assert bool(calls) is in_place and (out is inputs[0]) is in_place
        assert out.tolist() == [0, 1, -1, -2, 4, 5]
        assert squares.tolist() == [float(i * i) for i in range(view_stop)]
        if not in_place:
            assert inputs[0].tolist() == list(range(6))


def test_a_write_into_a_reshape_with_a_small_view_still_read_goes_in_place(monkeypatch):
    """The bounce-back's scatter, reshaped back, is written by the next step's first
    plane while a view of that plane is still to be read: the view is copied, and the
    reshape (a NumPy view of a buffer nothing else holds) written in place."""
    calls = _count_writes_in_place(monkeypatch)
    specs = (((6,), F64), ((1, 3), F64), ((2,), I64))
    ins = (Instruction(op("add"), (0, 0), (), (6,), F64),
           Instruction(op("reshape"), (3,), (("shape", (2, 3)),), (2, 3), F64),
           Instruction(op("slice"), (3,), (("starts", (0,)), ("steps", (1,)),
                                           ("stops", (2,))), (2,), F64),
           Instruction(op("update_slice"), (4, 1, 2), (("steps", (1, 1)),), (2, 3), F64),
           Instruction(op("multiply"), (5, 5), (), (2,), F64))
    program = Program(specs, ins, (6, 7), (specs, ins, (6, 7)))
    inputs = [numpy.arange(6.0), numpy.array([[-1.0, -2.0, -3.0]]), numpy.array([1, 0])]
    out, squares = NumpyBackend().run(program, inputs).outputs
    assert len(calls) == 1 and out.tolist() == [[0, 2, 4], [-1, -2, -3]]
    assert squares.tolist() == [0, 4] and inputs[0].tolist() == list(range(6))


def test_a_write_into_a_reshape_of_a_buffer_nothing_else_holds_goes_in_place(monkeypatch):
    """lbm's bounce-back writes `f.reshape(-1, 9)` (a NumPy view of the step's new f):
    nothing else holds f's buffer, so the write goes into it (it copied all of f)."""
    calls = _count_writes_in_place(monkeypatch)
    specs = (((6,), F64), ((1, 3), F64), ((2,), I64))
    ins = (Instruction(op("add"), (0, 0), (), (6,), F64),
           Instruction(op("reshape"), (3,), (("shape", (2, 3)),), (2, 3), F64),
           Instruction(op("update_slice"), (4, 1, 2), (("steps", (1, 1)),), (2, 3), F64))
    program = Program(specs, ins, (5,), (specs, ins, (5,)))
    inputs = [numpy.arange(6.0), numpy.array([[-1.0, -2.0, -3.0]]), numpy.array([1, 0])]
    out, = NumpyBackend().run(program, inputs).outputs
    assert len(calls) == 1 and out.tolist() == [[0, 2, 4], [-1, -2, -3]]
    assert inputs[0].tolist() == list(range(6))


def _overlapping_writes(np):
    """Writes whose values are computed from the buffer they are written into, at
    shifted, reversed and strided places, and from views read after the write."""
    x = np.arange(12.0) * 1.0
    x[1:] = x[:-1] + 1.0
    y = np.arange(12.0) * 1.0
    y[:-2] = y[2:] * y[:-2]
    z = np.arange(12.0).reshape(3, 4) * 1.0
    z[:, ::-1] = z - 1.0
    w = np.arange(12.0) * 1.0
    v = w[3:8]
    kept = w[2:7]
    w[:5] = kept * 2.0
    u = np.arange(12.0) * 1.0
    u[::2] = u[1::2] - u[::2]
    t = np.arange(16.0).reshape(4, 4) * 1.0
    t[1:, :] = t[:-1, :] - t.T[1:, :]
    s = np.arange(12.0) * 1.0
    early = s[4:9] * 3.0  # pending, reading s before the write
    s[:6] = s[:6] + 100.0
    return x, y, z, w, v * 1.0, kept + 0.0, u, t, s, early


@pytest.mark.parametrize("tier", ["interpret", "compile"])
def test_writes_computed_from_what_they_overwrite_match_numpy(backend, lazy_graph, tier):
    """A ufunc computed into the region it is written to reads its operands as they
    were before the write, as NumPy's assignment of a computed right-hand side does."""
    la.set_tier(tier)
    for expected, value in zip(_overlapping_writes(numpy), _overlapping_writes(la)):
        numpy.testing.assert_array_equal(numpy.asarray(value), expected)


def test_the_scheduler_owns_a_matrix_with_its_views_in_the_program(backend, lazy_graph,
                                                                   unbounded):
    """`_sole_owner_inputs`: a computed buffer held besides its leaf only by NumPy views
    that are themselves sole-owned inputs of the program is owned; one viewed by
    anything else (a view kept by a user's array) is not."""
    from lazyarr import _flush
    from lazyarr._graph import topological_order

    def positions(keep_view):
        a = la.asarray(numpy.arange(12.0).reshape(4, 3)) * 1.0
        la.eval(a)
        r = a[1:]
        la.eval(r)  # (the interpreter's NumPy view of a's buffer)
        kept = r if keep_view else None
        a[1:] = r - 1.0
        del r
        roots = [a._node]
        order = topological_order(roots)
        program, inputs = _flush.linearize(order, roots)
        found = _flush._sole_owner_inputs(order, inputs, program)
        del kept
        shapes = [n.shape for n in order if n.op is _flush.INPUT]
        return shapes.index((4, 3)) in found

    la.set_tier("interpret")
    assert positions(keep_view=False)
    assert not positions(keep_view=True)

def _aliasing(np):
    """Writes next to every kind of alias: views, earlier pending readers, a kept
    copy, a scatter, ufunc.at, a shared buffer and a loop of shrinking writes."""
    a = np.arange(24.0).reshape(4, 6)
    b = a * 1.0
    v = b[1:]                     # a view: sees b's writes
    before = b + 0.0              # read before the write: must not see it
    b[0] = 7.0
    b[1, 2:4] = -1.0
    kept = b.copy()
    b[2] = b[3]
    c = b[:, ::2]
    c[1:, 0] = 100.0
    idx = np.array([0, 2, 2])
    s = a + 0.0
    s[idx] = np.array([[1.0] * 6, [2.0] * 6, [3.0] * 6])
    np.add.at(s, idx, 1.0)
    g = a + numpy.eye(4, 6) * 50
    for k in range(1, 4):
        g[k:, k - 1:] = g[k:, k - 1:] - (g[k:, k - 1] / g[k - 1, k - 1])[:, None] * g[k - 1, k - 1:]
    return a, b, v, before, kept, c, s, g


@pytest.mark.parametrize("eager", ["0", "1"])
@pytest.mark.parametrize("tier", ["interpret", "auto", "compile"])
def test_writes_match_numpy_whatever_aliases_them(backend, monkeypatch, tier, eager):
    la.set_tier(tier)
    la.set_eager(eager == "1")
    for _ in range(3):  # auto: interpreted, then compiled
        got = _aliasing(la)
        for expected, value in zip(_aliasing(numpy), got):
            numpy.testing.assert_array_equal(numpy.asarray(value), expected)


def test_a_shared_host_buffer_sees_writes_and_is_never_written_by_a_program(backend,
                                                                            monkeypatch):
    la.set_tier("interpret")
    la.set_eager(False)
    x = la.arange(6.0) * 2
    h = numpy.asarray(x)
    y = x + 1.0
    x[1:3] = 0.0
    assert h.tolist() == [0, 0, 0, 6, 8, 10]
    assert numpy.asarray(y).tolist() == [1, 3, 5, 7, 9, 11]
    h[0] = 5.0
    assert float(x[0]) == 5.0


def _chain_program() -> Program:
    """0.25 * (a + b + c + d) - e, then abs: each elementwise result after the first
    can take the buffer of the temporary it reads last."""
    spec = ((1000,), F64)
    add, mul, sub = op("add"), op("multiply"), op("subtract")
    scalar = ((), F64)
    specs = (spec,) * 5 + (scalar,)
    ins = (Instruction(add, (0, 1), (), *spec), Instruction(add, (6, 2), (), *spec),
           Instruction(add, (7, 3), (), *spec), Instruction(mul, (5, 8), (), *spec),
           Instruction(sub, (9, 4), (), *spec), Instruction(op("absolute"), (10,), (), *spec))
    return Program(specs, ins, (9, 11), (specs, ins, (9, 11)))


def test_elementwise_results_reuse_the_temporaries_they_consume():
    """NumPy's temporary elision on the interpreter: `0.25 * (a + b + c + d)` makes one
    array (the first sum's, written in place by the next operations), never an input's
    and never one that is an output or read later; the values are NumPy's."""
    rng = numpy.random.default_rng(0)
    inputs = [rng.normal(size=1000) for _ in range(5)] + [numpy.array(0.25)]
    copies = [x.copy() for x in inputs]
    work, result = NumpyBackend().run(_chain_program(), inputs).outputs
    a, b, c, d, e, q = copies
    expected_work = q * (a + b + c + d)
    numpy.testing.assert_array_equal(work, expected_work)
    numpy.testing.assert_array_equal(result, numpy.abs(expected_work - e))
    for x, y in zip(inputs, copies):  # inputs are never written
        numpy.testing.assert_array_equal(x, y)
    assert work is not result  # `work` is an output: its buffer is not reused
    assert not any(numpy.shares_memory(result, x) for x in inputs + [work])


def test_elementwise_chains_allocate_one_temporary():
    """The buffers the chain's run allocates, traced: with the elision one array for
    the four operations of the sum and scaling, one for `- e` and its abs."""
    import tracemalloc
    inputs = [numpy.ones(100_000) for _ in range(5)] + [numpy.array(0.25)]
    program = _chain_program_sized(100_000)
    backend = NumpyBackend()
    backend.run(program, inputs)  # warm
    tracemalloc.start()
    try:
        backend.run(program, inputs)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    one = 100_000 * 8
    assert peak < 2.5 * one  # without the elision: 3 arrays at once (work, t, abs(t))


def _chain_program_sized(n: int) -> Program:
    base = _chain_program()
    spec = ((n,), F64)
    specs = tuple(spec if s[0] else s for s in base.input_specs)
    ins = tuple(Instruction(i.op, i.inputs, i.attrs, (n,), F64) for i in base.instructions)
    return Program(specs, ins, base.outputs, (specs, ins, base.outputs))


def _reads_after_writes(np):
    """Reads of a buffer after writes into it: of planes written before (lbm's nine
    `f[:, :, i] = np.roll(f[:, :, i], ...)`), of exactly the region just written, of
    regions that overlap it in part, with negative steps, empty, as an integer index,
    and of values converted to the buffer's dtype."""
    f = np.arange(60.0).reshape(3, 4, 5) * 1.0
    for i in range(5):
        f[:, :, i] = np.roll(f[:, :, i], i, axis=1)
        f[:, :, i] = np.roll(f[:, :, i], 1, axis=0)
    plane = f[:, :, 2]
    g = np.arange(20.0) * 1.0
    g[2:6] = -1.0
    g[12:4:-2] = np.arange(4.0) + 50
    reads = [g[4:8] * 1, g[6:10] * 1, g[2:6] * 1, g[9::-3] * 1, g[5:5] * 1, g[12:4:-2] + 0,
             g[11:3:-2] + 0]
    h = np.zeros(10, dtype=np.int64)
    h[1:3] = np.array([1.7, -2.2])
    k = np.arange(10.0) * 2
    k[3] = 5.0
    return f, plane, g, h[1:3] * 1, k[3] * 1, k[4] * 1, *reads


@pytest.mark.parametrize("tier", ["interpret", "compile"])
def test_reads_after_writes_match_numpy(backend, lazy_graph, tier):
    la.set_tier(tier)
    for expected, value in zip(_reads_after_writes(numpy), _reads_after_writes(la)):
        assert numpy.asarray(value).dtype == numpy.asarray(expected).dtype
        numpy.testing.assert_array_equal(numpy.asarray(value), expected)


@pytest.fixture
def unbounded(monkeypatch):
    """No size cut: the graph built is the program looked at (a cut's place depends on
    the cuts made before, in other tests)."""
    from lazyarr import _cuts
    monkeypatch.setattr(_cuts, "MAX_PENDING_DEPTH", None)
    monkeypatch.setattr(_cuts, "MAX_PENDING_NODES", None)


def test_a_read_of_a_written_buffer_skips_the_writes_it_cannot_see(backend, lazy_graph,
                                                                   unbounded):
    """lbm's streaming: no slice in the program reads the result of a write of a region
    disjoint from its own, or of exactly its own (that read is the written values):
    XLA copied the whole buffer for each such write."""
    from lazyarr._flush import linearize
    from lazyarr._graph import topological_order
    f = la.asarray(numpy.arange(60.0).reshape(3, 4, 5)) * 1.0
    for i in range(5):
        f[:, :, i] = la.roll(f[:, :, i], 1, axis=1)
        f[:, :, i] = la.roll(f[:, :, i], 1, axis=0)
    program, _ = linearize(topological_order([f._node]), [f._node])
    base = len(program.input_specs)
    writes = {base + k for k, ins in enumerate(program.instructions)
              if ins.op is op("update_slice")}
    assert len(writes) == 10
    assert not [ins for ins in program.instructions
                if ins.op in (op("slice"), op("dynamic_slice")) and ins.inputs[0] in writes]


def _read_past_a_write(read_before: bool) -> Program:
    """x[0:2] = v, then (x[3:5]) ** 2 read from the input past the write, as `linearize`
    forwards it; with `read_before`, the program says the read was of the written x."""
    specs = (((6,), F64), ((2,), F64), ((1,), I64))
    ins = (Instruction(op("update_slice"), (0, 1, 2), (("steps", (1,)),), (6,), F64),
           Instruction(op("slice"), (0,), (("starts", (3,)), ("steps", (1,)),
                                           ("stops", (5,))), (2,), F64),
           Instruction(op("multiply"), (4, 4), (), (2,), F64))
    outputs = (3, 5)
    return Program(specs, ins, outputs, (specs, ins, outputs),
                   read_before=((1, 3),) if read_before else ())


def test_a_read_forwarded_past_a_write_lets_the_interpreter_write_in_place():
    """The earlier version a forwarded slice reads is still to be read when the write
    comes: the interpreter copied the buffer (lbm: 11.5 MB a step). It reads the version
    the user's code read instead (`Program.read_before`), where the write left the same
    values, so the owned input is written in place; the values are the same."""
    for read_before, in_place in ((False, False), (True, True)):
        inputs = [numpy.arange(6.0), numpy.array([-1.0, -2.0]), numpy.array([0])]
        out, squares = NumpyBackend().run(_read_past_a_write(read_before), inputs,
                                          frozenset([0])).outputs
        assert (out is inputs[0]) is in_place
        assert out.tolist() == [-1, -2, 2, 3, 4, 5] and squares.tolist() == [9, 16]


def test_linearize_records_the_version_a_forwarded_read_read(backend, lazy_graph, unbounded):
    """lbm's streaming, linearized: each plane's read is forwarded to the step's input
    past the other planes' writes, and `read_before` names the write the user's code
    read it after; run, every write goes in place on the interpreter, with NumPy's
    values."""
    from lazyarr._flush import linearize
    from lazyarr._graph import topological_order
    from lazyarr.numpy_backend import _plan

    def stream(np, f):
        for i in range(5):
            f[:, :, i] = np.roll(f[:, :, i], 1, axis=1)
        return f

    host = numpy.arange(60.0).reshape(3, 4, 5)
    f = la.asarray(host) * 1.0
    la.eval(f)
    f = stream(la, f)
    program, _ = linearize(topological_order([f._node]), [f._node])
    base = len(program.input_specs)
    kinds = [ins.op.name for ins in program.instructions]
    assert len(program.read_before) == 4  # planes 1-4 (plane 0 reads the input itself)
    for k, slot in program.read_before:
        assert kinds[k] in ("slice", "dynamic_slice")
        assert program.instructions[k].inputs[0] < base  # forwarded to the input
        assert kinds[slot - base] == "update_slice"  # the write before it
    steps = _plan(program)
    assert all(st.target is not None for st in steps if st.ins.op is op("update_slice"))
    numpy.testing.assert_array_equal(numpy.asarray(f), stream(numpy, host.copy()))


def test_a_read_of_computed_values_written_reads_the_write(backend, lazy_graph, unbounded):
    """life's step: the rule's values written into the interior and read back as the
    next step's `z[1:-1, 1:-1]` are read from the write, not forwarded (XLA would fuse
    the arithmetic into both readers and compute it twice); the values match NumPy."""
    from lazyarr._flush import linearize
    from lazyarr._graph import topological_order

    def steps(np, z):
        for _ in range(3):
            n = z[:-2, 1:-1] + z[2:, 1:-1] + z[1:-1, :-2] + z[1:-1, 2:]
            inner = (n == 2) | (z[1:-1, 1:-1] == 1)
            z = np.zeros_like(z)
            z[1:-1, 1:-1] = inner
        return z

    start = (numpy.arange(36).reshape(6, 6) % 3 == 0).astype(numpy.int64)
    z = steps(la, la.asarray(start))
    program, _ = linearize(topological_order([z._node]), [z._node])
    base = len(program.input_specs)
    writes = {base + k for k, ins in enumerate(program.instructions)
              if ins.op is op("update_slice")}
    assert len(writes) == 3
    reads = [ins for ins in program.instructions
             if ins.op in (op("slice"), op("dynamic_slice")) and ins.inputs[0] in writes]
    assert len(reads) == 2 * 5  # each later step's five slices read the write before it
    numpy.testing.assert_array_equal(numpy.asarray(z), steps(numpy, start))


def test_a_read_forwarded_to_a_buffer_held_elsewhere_does_not_donate_it(backend, lazy_graph,
                                                                        unbounded):
    """A slice that now reads a leaf directly (past a disjoint write into it) is one more
    reader in the program than the graph has: the leaf is still someone else's."""
    from lazyarr import _flush
    from lazyarr._graph import topological_order
    a = la.asarray(numpy.arange(12.0)) * 1.0
    la.eval(a)  # (not numpy.asarray: a buffer shared with NumPy is never donated)
    leaf = a._node  # held here, besides the graph
    a[0:3] = 1.0
    r = a[6:9] * 2.0
    roots = [a._node, r._node]
    order = topological_order(roots)
    program, inputs = _flush.linearize(order, roots)
    assert _flush._gained()  # the read of a[6:9] was forwarded to the leaf
    position = [n for n in order if n.op is _flush.INPUT].index(leaf)
    assert position not in _flush._sole_owner_inputs(order, inputs, program)
    del leaf
    assert position in _flush._sole_owner_inputs(order, inputs, program)


def _count_program(source, target, reads_twice=False) -> Program:
    """sum(convert(x)) over axis 0 of a (1000, 3) array; with `reads_twice`, the
    converted values are also an output."""
    from numpy import dtype
    specs = (((1000, 3), dtype(source)),)
    ins = (Instruction(op("convert"), (0,), (("dtype", dtype(target)),), (1000, 3),
                       dtype(target)),
           Instruction(op("reduce_sum"), (1,), (("axes", (0,)),), (3,), dtype(target)))
    outputs = (2, 1) if reads_twice else (2,)
    return Program(specs, ins, outputs, (specs, ins, outputs))


@pytest.mark.parametrize("source, target, fused", [
    ("bool", "int64", True), ("int8", "int16", True), ("uint8", "uint64", True),
    ("int32", "int64", True), ("int64", "int32", False), ("bool", "float64", False),
    ("int16", "uint32", False)])
def test_a_sum_of_converted_integers_converts_as_it_adds(source, target, fused):
    """np.sum of booleans (a count) on the interpreter: the sum converts as it adds, as
    NumPy's does, instead of materializing the converted array; exact, so the same."""
    from lazyarr import numpy_backend
    rng = numpy.random.default_rng(0)
    x = (rng.random((1000, 3)) < 0.5 if source == "bool" else
         rng.integers(numpy.iinfo(source).min, numpy.iinfo(source).max, (1000, 3),
                      dtype=source, endpoint=True))
    for reads_twice in (False, True):
        program = _count_program(source, target, reads_twice)
        outputs = NumpyBackend().run(program, [x]).outputs
        expected = x.astype(target).sum(axis=0, dtype=target)
        assert outputs[0].dtype == expected.dtype
        numpy.testing.assert_array_equal(outputs[0], expected)
        if reads_twice:
            numpy.testing.assert_array_equal(outputs[1], x.astype(target))
        steps = numpy_backend._plan(program)
        assert (steps[0].ref is numpy_backend._identity) == (fused and not reads_twice)


def _slab_writes(np):
    """Buffers rewritten slab by slab: lbm's equilibrium planes (one plane written
    twice), rows of width two, a chain one of whose steps is read, one with a gap, and
    one whose last slab overlaps another in part."""
    base = np.arange(24.0).reshape(2, 3, 4) * 1.0
    feq = np.zeros((2, 3, 4))
    for i in range(4):
        feq[:, :, i] = base[:, :, i] * (i + 1)
    feq[:, :, 1] = -base[:, :, 1]
    rows = np.ones((6, 3))
    for r in range(0, 6, 2):
        rows[r:r + 2] = base.reshape(6, 4)[r:r + 2, :3] + r
    seen = np.zeros((2, 3))
    seen[:, 0] = 1.0
    middle = seen * 1.0  # reads the chain's first step
    seen[:, 1] = 2.0
    seen[:, 2] = 3.0
    gap = np.zeros((4, 2))
    gap[0] = 1.0
    gap[2:] = 3.0
    over = np.zeros((5, 2))
    over[0:3] = 1.0
    over[2:5] = 2.0
    return feq, rows, seen, middle, gap, over


@pytest.mark.parametrize("tier", ["interpret", "compile"])
def test_a_buffer_rewritten_slab_by_slab_matches_numpy(backend, lazy_graph, tier):
    la.set_tier(tier)
    for expected, value in zip(_slab_writes(numpy), _slab_writes(la)):
        numpy.testing.assert_array_equal(numpy.asarray(value), expected)


def test_a_buffer_rewritten_slab_by_slab_is_one_concatenate(backend, lazy_graph, unbounded):
    from lazyarr._flush import linearize
    from lazyarr._graph import topological_order
    base = la.asarray(numpy.arange(24.0).reshape(2, 3, 4)) * 1.0
    feq = la.zeros((2, 3, 4))
    for i in range(4):
        feq[:, :, i] = base[:, :, i] * (i + 1)
    program, _ = linearize(topological_order([feq._node]), [feq._node])
    ops = [ins.op.name for ins in program.instructions]
    assert "update_slice" not in ops and ops.count("concatenate") == 1
