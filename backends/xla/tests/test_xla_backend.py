"""What the XLA backend promises beyond values (those are the differential suite's):
jax's own configuration untouched, programs cached by structure in memory and on disk
(across processes), bounded compile units, devices, and clear failures."""

import os
import pickle
import subprocess
import sys
import textwrap

import ml_dtypes
import numpy
import pytest

import lazyarr as np
from lazyarr import _backend, _cuts

pytestmark = pytest.mark.skipif("xla" not in _backend.available(), reason="jax not installed")


def _platform() -> str:
    """The default XLA device's platform ("cpu", "gpu", "tpu"), jax imported only here."""
    if "xla" not in _backend.available():
        return "cpu"
    import jax
    return jax.default_backend()


# What some tests need of the machine: float64 programs compiled (a TPU's float64 is
# computed on the host: `XlaBackend.unfaithful`), the CPU as the default device, a
# second process able to use the device (a TPU chip serves one process at a time).
float64_compiles = pytest.mark.skipif(
    _platform() == "tpu", reason="a TPU's float64 programs run on the NumPy interpreter")
on_the_cpu = pytest.mark.skipif(_platform() != "cpu", reason="the default device is not the CPU")
shared_device = pytest.mark.skipif(
    _platform() == "tpu", reason="a TPU chip serves one process at a time: no child process")


@pytest.fixture(autouse=True)
def backend(monkeypatch):
    """These tests are about the XLA backend itself: they run on it alone, every program
    compiled (lazyarr's tiers would interpret programs seen once; see test_tiers)."""
    pytest.importorskip("jax")
    monkeypatch.setenv("LAZYARR_TIER", "compile")  # (for the scripts a test runs)
    with np.use_tier("compile"), np.use_backend("xla"):
        np.reset_stats()
        yield "xla"


def run_script(source: str, cache_dir, **env) -> dict:
    """Run `source` in a fresh interpreter; it prints lazyarr.stats() last."""
    script = textwrap.dedent(source) + "\nimport lazyarr; print(repr(lazyarr.stats()))\n"
    environment = {**os.environ, "LAZYARR_BACKEND": "xla", "LAZYARR_CACHE_DIR": str(cache_dir),
                   **env}
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                          env=environment, timeout=300)
    assert done.returncode == 0, done.stderr
    return eval(done.stdout.strip().splitlines()[-1])  # noqa: S307  (our own output)


def test_jax_configuration_is_untouched():
    import jax
    x = np.arange(10, dtype=np.int64) * 3
    assert int(x.sum()) == 135 and x.dtype == numpy.int64
    assert jax.numpy.ones(2).dtype == numpy.float32
    assert not jax.config.jax_enable_x64


@float64_compiles
def test_python_scalars_that_change_are_runtime_inputs():
    """A scalar is compiled in until its value changes; then one more program runs
    every later value."""
    x = np.asarray(numpy.ones(1000))
    (x * 0.99).sum().item()
    compiles = np.stats()["compiles"] + np.stats()["disk_cache_hits"]
    (x * 0.99).sum().item()
    assert np.stats()["memory_cache_hits"] == 1
    (x * 0.98).sum().item()
    assert np.stats()["compiles"] + np.stats()["disk_cache_hits"] == compiles + 1
    seven, less = (x * 7.0).sum().item(), (x * -2.5).sum().item()
    assert (seven, less) == (7000.0, -2500.0)
    stats = np.stats()
    assert stats["compiles"] + stats["disk_cache_hits"] == compiles + 1
    assert stats["memory_cache_hits"] == 3


@on_the_cpu
@pytest.mark.parametrize("dtype", [numpy.float32, ml_dtypes.bfloat16, numpy.float16])
def test_the_tpu_division_scales_large_divisors(dtype):
    """The TPU's divide lowering (which scales divisors of 2**96 or more, and their
    dividends, by 2**-64: lowering._divide_tpu), run on the CPU, whose division is
    correctly rounded: the scaling is exact, so its quotients are the plain lowering's,
    with infinities, NaNs and zeros in place. (On a TPU the plain one's are wrong:
    test_quotients_by_divisors_near_the_largest_float.)"""
    import jax.numpy as jnp  # noqa: PLC0415
    from lazyarr.backend_api import op  # noqa: PLC0415
    from lazyarr_xla import registry  # noqa: PLC0415
    divide = registry.lowering(op("divide"), "tpu").fn
    huge = 2.0 ** numpy.arange(90, 128, 0.5) if dtype != numpy.float16 else []
    b = numpy.array([*huge, 1.0, -3.0, 0.0, numpy.inf, numpy.nan], numpy.float32)
    for dividend in (1024.0, -1e30, 3e38, numpy.inf, 0.0):
        a = numpy.full(b.shape, dividend, numpy.float32)
        a, b_ = a.astype(dtype), b.astype(dtype)
        with numpy.errstate(all="ignore"):
            expected = numpy.asarray(registry.lowering(op("divide")).fn(
                jnp.asarray(a), jnp.asarray(b_)))
        got = numpy.asarray(divide(jnp.asarray(a), jnp.asarray(b_)))
        numpy.testing.assert_array_equal(got, expected)
        assert got.dtype == expected.dtype == a.dtype


@on_the_cpu
def test_the_tpu_complex_division_scales_large_divisors():
    """The same lowering for complex64, whose divisor is scaled where its larger part
    is 2**96 or more, run on the CPU: NumPy's quotients within 2**-21 (XLA's complex
    division is not correctly rounded), their subnormal parts flushed. (XLA's own
    complex64 division on the CPU gave 0 for 1024+341j over (2**125 - 2**126 j) and
    larger, where NumPy gives 1.6e-36+1.1e-35j: left to the CPU's plain lowering.)"""
    import jax.numpy as jnp  # noqa: PLC0415
    from lazyarr.backend_api import op  # noqa: PLC0415
    from lazyarr_xla import registry  # noqa: PLC0415
    divide = registry.lowering(op("divide"), "tpu").fn
    huge = 2.0 ** numpy.arange(60, 127.5, 0.5)
    b = numpy.concatenate([huge / 2 - 1j * huge, -huge + 1j * huge / 3, [0.5 - 4j, 3j]])
    b = b.astype(numpy.complex64)
    # (A dividend near the largest float overflows inside XLA's complex division, on
    # the CPU too: 3e38+1e38j over 2**60-2**61 j gave an infinite imaginary part.)
    for dividend in (1024.0, -1e30):
        a = numpy.full(b.shape, dividend + 1j * dividend / 3, numpy.complex64)
        got = numpy.asarray(divide(jnp.asarray(a), jnp.asarray(b)))
        assert got.dtype == numpy.complex64
        exact = a.astype(numpy.complex128) / b.astype(numpy.complex128)
        parts = [numpy.where(abs(v) < 2.0 ** -126, 0.0, v) for v in (exact.real, exact.imag)]
        expected = parts[0] + 1j * parts[1]  # (subnormal parts flushed, as a TPU does)
        numpy.testing.assert_allclose(got, expected, rtol=2.0 ** -21, atol=2.0 ** -126)


def test_a_reduction_of_a_masks_selection_gathers_nothing():
    """`y[y > 0].sum()` (and max, min, any, all) is lowered as a reduction over y where
    the mask holds, `where(mask, y, identity)`: no gather of the selected elements,
    which XLA's CPU code makes 20 times slower. The selection alone is gathered."""
    data = numpy.random.default_rng(3).normal(size=(40, 3))
    with np.use_eager(False):
        y = np.asarray(data) * 2
        gathered = str(np.explain(y[y[:, 0] > 0], lowered=True))
        for name in ("sum", "max", "min", "any", "all"):
            x, host = (y > 1, data * 2 > 1) if name in ("any", "all") else (y, data * 2)
            reduced = getattr(x[y[:, 0] > 0], name)(axis=0)  # (the selection not kept)
            text = str(np.explain(reduced, lowered=True))
            assert "gather" not in text and "stablehlo.select" in text, name
            numpy.testing.assert_allclose(numpy.asarray(reduced),
                                          getattr(host[data[:, 0] > 0], name)(axis=0),
                                          rtol=1e-15)
        # Elementwise functions of the selection (with scalars) are taken over y: a
        # power, an integer sum's conversion, the truth of a float selection for any.
        ints = (y * 10).astype(numpy.int32)
        for reduced, expected in (
                ((y[y > 0] ** 2 - 1.0).sum(), ((data * 2)[data > 0] ** 2 - 1.0).sum()),
                (np.abs(y[y < 0]).max(), numpy.abs((data * 2)[data < 0]).max()),
                (ints[y > 0].sum(), ((data * 20).astype(numpy.int32)[data > 0]).sum()),
                (y[y > 0].any(), True)):
            text = str(np.explain(reduced, lowered=True))
            assert "gather" not in text, text
            numpy.testing.assert_allclose(numpy.asarray(reduced), expected, rtol=1e-14)
    assert "gather" in gathered


def test_a_grid_read_by_several_slices_is_computed_whole():
    """A stencil's grid (a result two or more slices read) is kept whole by an
    optimization barrier: else XLA folds the slices back into the step that wrote the
    grid and computes a program's steps again and again. Values are NumPy's."""
    from lazyarr_xla import _stencil_sources  # noqa: PLC0415
    data = numpy.random.default_rng(2).normal(size=(30, 30))
    z, expected = np.asarray(data), data.copy()
    with np.use_eager(False):  # (recorded, not computed at once: they are small)
        for a, xp in ((z, np), (expected, numpy)):
            for _ in range(3):
                inner = 0.25 * (a[:-2, 1:-1] + a[2:, 1:-1] + a[1:-1, :-2] + a[1:-1, 2:])
                a[1:-1, 1:-1] = xp.where(inner > 0, inner, 0.5 * inner)
        text = np.explain(z, lowered=True)
    assert text.count("stablehlo.optimization_barrier") == 2  # steps 1 and 2's grids
    numpy.testing.assert_allclose(numpy.asarray(z), expected, rtol=1e-14, atol=1e-15)
    # Read by one slice only (or by none), a result is XLA's to fuse.
    from lazyarr._flush import linearize  # noqa: PLC0415
    from lazyarr._graph import topological_order  # noqa: PLC0415
    with np.use_eager(False):
        y = np.asarray(data) * 2
        once = y[1:] + 1
        program = linearize(topological_order([once._node]), [once._node])[0]
    assert _stencil_sources(program) == frozenset()


@pytest.mark.parametrize("dtype", ["int64", "float32", "bool", "complex64"])
def test_a_write_into_a_filled_buffer_is_the_values_padded(dtype):
    """Game of Life's `z[...] = 0; z[1:-1, 1:-1][alive] = 1`: a write at known starts
    into a buffer that is one value broadcast (`zeros`, `full`, `z[...] = c`) is the
    values padded with that value, not a select over the buffer, whose mask XLA computed
    again at every slice the next step read (life's programs ran 3x slower). A write
    into a buffer that is not one value, and one at starts only known at run time, are
    left as they were. NumPy's values, regions drawn at random."""
    from lazyarr_xla import _fill_writes  # noqa: PLC0415
    from lazyarr import _flush  # noqa: PLC0415
    from lazyarr._graph import topological_order  # noqa: PLC0415
    rng = numpy.random.default_rng(len(dtype))
    for shape in ((7, 9), (4, 5, 3), (12,)):
        for _ in range(4):
            lows = [int(rng.integers(0, n)) for n in shape]
            sizes = [int(rng.integers(1, n - low + 1)) for n, low in zip(shape, lows)]
            region = tuple(slice(low, low + n) for low, n in zip(lows, sizes))
            values = (rng.normal(size=sizes) * 3).astype(dtype)
            fill = numpy.array(rng.integers(-2, 3)).astype(dtype)
            expected = numpy.full(shape, fill)
            expected[region] = values
            _flush._programs.clear()  # (a structure's first flush compiles its starts in)
            with np.use_eager(False):
                z = np.zeros(shape, dtype)
                z[...] = fill
                z[region] = np.asarray(values)
                program = _flush.linearize(topological_order([z._node]), [z._node])[0]
                assert len(_fill_writes(program)) == 1
                text = np.explain(z, lowered=True)
            assert "stablehlo.pad" in text and "stablehlo.select" not in text
            assert "dynamic_update_slice" not in text
            numpy.testing.assert_array_equal(numpy.asarray(z), expected)
            # Seen again at other starts, the write's starts are a runtime input: as it was.
            moved = tuple(slice(n - m, n) for n, m in zip(shape, sizes))
            with np.use_eager(False):
                z = np.zeros(shape, dtype)
                z[...] = fill
                z[moved] = np.asarray(values)
                program = _flush.linearize(topological_order([z._node]), [z._node])[0]
            assert len(_fill_writes(program)) == (moved == region)
            expected = numpy.full(shape, fill)
            expected[moved] = values
            numpy.testing.assert_array_equal(numpy.asarray(z), expected)
    with np.use_eager(False):
        z = np.asarray(numpy.arange(12).astype(dtype)) * np.asarray(numpy.ones((), dtype))
        z[2:5] = np.asarray(numpy.zeros(3, dtype))  # into computed values: unchanged
        program = _flush.linearize(topological_order([z._node]), [z._node])[0]
        assert _fill_writes(program) == {}


def test_chains_of_transcendental_functions_are_cut_on_the_cpu():
    """On the CPU no fused loop chains two transcendental functions: before a second,
    the values carrying the chain are computed whole (returned, unread); a program's
    result ends a chain. Values are NumPy's."""
    from lazyarr_xla import CHAINED_TRANSCENDENTALS, _chain_breaks  # noqa: PLC0415
    from lazyarr._flush import linearize  # noqa: PLC0415
    from lazyarr._graph import topological_order  # noqa: PLC0415
    assert CHAINED_TRANSCENDENTALS == 1
    data = numpy.linspace(-2.0, 2.0, 50)
    x, expected = np.asarray(data) * 1.0, data.copy()
    with np.use_eager(False):
        for _ in range(6):
            x = 0.99 * x + 0.01 * np.tanh(x)
            expected = 0.99 * expected + 0.01 * numpy.tanh(expected)
        program = linearize(topological_order([x._node]), [x._node])[0]
    breaks = _chain_breaks(program, "cpu")
    # before every tanh but the first: the x of steps 1 to 5
    assert [program.instructions[k].op.name for k in breaks] == ["add"] * 5
    tanh = [k for k, ins in enumerate(program.instructions) if ins.op.name == "tanh"]
    base = len(program.input_specs)
    assert all(base + k in program.instructions[tanh[i + 1]].inputs
               for i, k in enumerate(breaks))
    assert _chain_breaks(program, "gpu") == ()
    numpy.testing.assert_allclose(numpy.asarray(x), expected, rtol=1e-14)
    with np.use_eager(False):  # side by side, not chained: no break
        y = np.asarray(data) * 1.0
        z = np.exp(y) * np.tanh(y)
        program = linearize(topological_order([z._node]), [z._node])[0]
    assert _chain_breaks(program, "cpu") == ()


@float64_compiles
def test_a_long_loop_runs_from_the_cache():
    x = np.linspace(-1.0, 1.0, 1000)
    expected = numpy.linspace(-1.0, 1.0, 1000)
    for _ in range(1000):
        x = 0.99 * x + 0.01 * np.tanh(x)
        expected = 0.99 * expected + 0.01 * numpy.tanh(expected)
    numpy.testing.assert_allclose(numpy.asarray(x), expected, rtol=1e-12)
    stats = np.stats()
    # Each iteration adds 3 to the pending depth (4 nodes); a cut waits at most another
    # MAX_PENDING_DEPTH for the loop body's cut point, so no program is large.
    assert stats["flushes"]["size"] >= 3 * 1000 // (2 * _cuts.MAX_PENDING_DEPTH)
    assert stats["nodes_evaluated"] <= stats["flushes_total"] * 2 * _cuts.MAX_PENDING_DEPTH
    assert stats["memory_cache_misses"] <= 4  # a handful of program shapes, then hits only
    assert stats["memory_cache_hits"] >= stats["flushes_total"] - 4


@shared_device
def test_a_second_process_compiles_nothing(tmp_path):
    source = """
        import lazyarr as np
        x = np.linspace(0.0, 1.0, 500)
        for _ in range(50):
            x = np.sin(x) * 0.5 + np.cos(x).sum() / 500
        print(float(x.sum()))
    """
    first = run_script(source, tmp_path)
    assert first["compiles"] >= 1 and first["disk_cache_misses"] == first["compiles"]
    assert first["disk_cache_hits"] == 0
    second = run_script(source, tmp_path)
    assert second["compiles"] == 0
    assert second["disk_cache_hits"] == first["disk_cache_misses"]


@shared_device
def test_processes_can_share_the_cache_directory(tmp_path):
    source = """
        import lazyarr as np
        print(float((np.arange(1000.0) ** 2).sum()))
    """
    script = textwrap.dedent(source) + "\nimport lazyarr; print(repr(lazyarr.stats()))\n"
    env = {**os.environ, "LAZYARR_BACKEND": "xla", "LAZYARR_CACHE_DIR": str(tmp_path)}
    running = [subprocess.Popen([sys.executable, "-c", script], env=env, text=True,
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE) for _ in range(3)]
    for proc in running:
        out, err = proc.communicate(timeout=300)
        assert proc.returncode == 0, err
        assert out.splitlines()[0] == "332833500.0"
    assert not [p for p in tmp_path.iterdir() if p.name.startswith(".tmp-")]
    assert run_script(source, tmp_path)["compiles"] == 0


@shared_device
def test_a_damaged_cache_entry_is_a_miss(tmp_path):
    source = "import lazyarr as np; print(float(np.arange(7.0).sum()))"
    run_script(source, tmp_path)
    for entry in tmp_path.iterdir():
        entry.write_bytes(b"not a program")
    again = run_script(source, tmp_path)
    assert again["compiles"] == 1 and again["disk_cache_hits"] == 0
    assert run_script(source, tmp_path)["compiles"] == 0  # rewritten


@shared_device
def test_the_disk_cache_can_be_switched_off(tmp_path):
    stats = run_script("import lazyarr as np; print(np.arange(3.0).sum())", tmp_path,
                       LAZYARR_CACHE_DIR="off")
    assert stats["compiles"] == 1 and stats["disk_cache_misses"] == 1
    assert not list(tmp_path.iterdir())


@on_the_cpu
def test_devices():
    x = np.arange(4.0) + 1
    assert x.device == "cpu"
    assert x.to_device("cpu") is x
    assert x.to_device("cpu:0").device == "cpu"
    with pytest.raises(ValueError):
        np.set_backend("xla", device="no-such-platform")
    with pytest.raises(ValueError):
        x.to_device("cpu:99")
    with np.use_backend("xla", device="cpu"):
        numpy.testing.assert_array_equal(numpy.asarray(x * 2), [2.0, 4.0, 6.0, 8.0])


@shared_device
def test_backend_from_the_environment(tmp_path):
    stats = run_script("import lazyarr as np; print(np.ones(2).sum())", tmp_path,
                       LAZYARR_BACKEND="xla:cpu")
    assert stats["memory_cache_misses"] == 1


def test_results_are_shared_writable_host_buffers():
    """DESIGN: `numpy.asarray(x)` shares a writable host buffer with `x`, as for an
    ndarray: no copy per read on CPU, and a write through it is seen by `x`."""
    x = np.arange(6.0) * 2
    first, second = numpy.asarray(x), numpy.asarray(x)
    assert numpy.shares_memory(first, second)
    assert first.flags.writeable
    first[0] = 7.0
    assert float(x[0]) == 7.0


def test_user_arrays_are_not_aliased():
    data = numpy.arange(5.0)
    x = np.asarray(data) * 1
    y = np.asarray(data)
    data[:] = -1
    numpy.testing.assert_array_equal(numpy.asarray(x), numpy.arange(5.0))
    numpy.testing.assert_array_equal(numpy.asarray(y + 0), numpy.arange(5.0))


def _break_lowering(monkeypatch, name):
    from lazyarr.backend_api import op
    from lazyarr_xla import registry

    def broken(*args, **attrs):
        raise RuntimeError("lowering exploded")

    monkeypatch.setitem(registry.LOWERINGS, (op(name), None), registry.Lowering(broken))


@float64_compiles
def test_a_compile_failure_names_the_operation_and_line(monkeypatch):
    _break_lowering(monkeypatch, "arcsinh")
    monkeypatch.setenv("LAZYARR_CACHE_DIR", "off")
    x = np.arange(3.0) + 1
    y = np.arcsinh(x); line = sys._getframe().f_lineno  # noqa: E702
    with pytest.raises(np.BackendFailure) as info:
        y.item(0)
    message = str(info.value)
    assert "arcsinh" in message and f"{__file__}, line {line}" in message
    assert "lowering exploded" in message
    with np.use_backend("numpy"):  # nothing was half-updated: the arrays still work
        numpy.testing.assert_allclose(numpy.asarray(y), numpy.arcsinh([1.0, 2.0, 3.0]))


def test_running_out_of_memory_is_a_clear_error():
    """An allocation that cannot fit is NumPy's MemoryError at the call, with NumPy's
    message, and nothing else is affected."""
    with pytest.raises(MemoryError, match=r"Unable to allocate 7.28 TiB .* \(1000000, 1000000\)"):
        np.ones((10 ** 6, 10 ** 6))
    assert float((np.ones(3) + 1).sum()) == 6.0


@float64_compiles
def test_loop_buffers_are_donated_to_the_next_program():
    """A flush that waits (here `eval` every 20 steps) gives the program the buffer it
    replaces. A size cut, which does not wait, donates nothing (so that a run failing
    after it returned leaves its inputs whole: tests/test_engine_async.py)."""
    x = np.asarray(numpy.linspace(0.0, 1.0, 1000)) * 1
    np.eval(x)
    for step in range(600):
        x = 0.99 * x + 0.01 * np.tanh(x)
        if step % 20 == 19:
            np.eval(x)
    x.sum().item()
    stats = np.stats()
    assert stats["donated_buffers"] >= stats["flushes"]["explicit"] - 2 >= 25


def test_buffers_that_others_can_see_are_never_donated():
    x = np.asarray(numpy.arange(1000.0)) * 2
    view = numpy.asarray(x)  # a NumPy view of lazyarr's buffer
    kept = x * 1
    np.eval(kept)
    held = kept              # a second handle on a buffer
    for _ in range(250):
        x = x + 1
        kept = kept + 1
    numpy.testing.assert_array_equal(view, numpy.arange(1000.0) * 2)
    numpy.testing.assert_array_equal(numpy.asarray(held), numpy.arange(1000.0) * 2)
    numpy.testing.assert_array_equal(numpy.asarray(x), numpy.arange(1000.0) * 2 + 250)
    numpy.testing.assert_array_equal(numpy.asarray(kept), numpy.arange(1000.0) * 2 + 250)


@pytest.mark.parametrize("dtype", ["float64", "float32"])
def test_arithmetic_chains_round_each_operation_as_numpy(dtype):
    """Random chains of +, -, *, /, maximum, negative and abs, compiled: bitwise NumPy's.
    Each product is rounded before the sum that reads it (on this CPU, LLVM contracted
    them into FMAs: 17 of 300 such chains differed unrounded); sums, differences and the
    other exact operations are not rounded (no rewrite reaches through them), which made
    diffusion's compiled run 40% faster. (A TPU's float32 division is not correctly
    rounded, a documented deviation: division is left out there.)"""
    import random
    from lazyarr import _tiers
    pick, rng = random.Random(7), numpy.random.default_rng(7)
    binary = [lambda m, a, b: a + b, lambda m, a, b: a - b, lambda m, a, b: a * b,
              lambda m, a, b: m.maximum(a, b), lambda m, a, b: -a * b,
              lambda m, a, b: abs(a) - b]
    if _tiers.platform(_backend.current()) != "tpu":
        binary.append(lambda m, a, b: a / b)
    for _ in range(60):
        leaves = [(rng.normal(size=64) * 10.0 ** float(rng.integers(-3, 4))).astype(dtype)
                  for _ in range(4)]
        steps, n = [], 4
        for _ in range(pick.randint(3, 10)):
            steps.append((pick.choice(binary), pick.randrange(n), pick.randrange(n)))
            n += 1

        def run(m, values):
            values = list(values)
            for f, i, j in steps:
                values.append(f(m, values[i], values[j]))
            return values[-1]
        with numpy.errstate(all="ignore"):
            expected = run(numpy, leaves)
        got = numpy.asarray(run(np, [np.asarray(x) for x in leaves]))
        numpy.testing.assert_array_equal(got, expected)


def test_every_primitive_has_a_lowering():
    """The registry test of DESIGN.md: a primitive XLA cannot run fails here, not in a
    user's program."""
    from lazyarr.backend_api import OPS
    from lazyarr_xla.lowering import lowerable
    missing = sorted(set(OPS) - {o.name for o in lowerable()} - {"input"})
    assert not missing, f"primitives without an XLA lowering: {missing}"


def test_the_sorts_are_named_slower_compiled_on_the_cpu_alone():
    """`slower_ops`: XLA's CPU sort and argsort ran 3-39x slower than NumPy's (see
    lowering.SLOWER_ON_CPU), so the tiers interpret a program holding one there; its
    convolution is faster than NumPy's since jax 0.10, and compiles."""
    from lazyarr.backend_api import op
    from lazyarr_xla import XlaBackend
    from lazyarr_xla.lowering import lowerable
    named = XlaBackend.slower_ops("cpu")
    assert named == {op("sort"), op("argsort")} and named <= lowerable("cpu")
    assert XlaBackend.slower_ops("gpu") == frozenset() == XlaBackend.slower_ops("tpu")
    assert _backend.current().slower_ops("cpu") == named


def test_what_a_platform_computes_unfaithfully_runs_on_the_host(monkeypatch):
    """`unfaithful`: a TPU's float64, complex128 and float8 are not NumPy's, nor its
    floating remainders and floored quotients, nor has it an int64 product, so a program
    holding one runs on the NumPy interpreter, whatever the tier, taking its inputs
    from the device (here the CPU made to play the TPU's part)."""
    from lazyarr import _tiers
    from lazyarr.backend_api import op
    from lazyarr_xla import XlaBackend
    tpu = XlaBackend.unfaithful("tpu")
    assert {(None, numpy.dtype("float64")), (None, numpy.dtype("complex128")),
            (op("einsum"), numpy.dtype("int64"))} <= tpu
    assert XlaBackend.unfaithful("cpu") == frozenset()
    monkeypatch.setattr(XlaBackend, "unfaithful", staticmethod(lambda platform: tpu))
    monkeypatch.setattr(_tiers, "_UNFAITHFUL", {})

    def xla_runs():
        stats = np.stats()
        return stats["compiles"] + stats["memory_cache_hits"] + stats["disk_cache_hits"]

    data = numpy.arange(12, dtype=numpy.float32).reshape(3, 4)
    x = np.asarray(data) * 2  # float32: compiled, a device buffer
    numpy.asarray(x)
    assert xla_runs() >= 1
    ran, interpreted = xla_runs(), np.stats()["interpreted_runs"]
    y = np.exp(x.astype(np.float64))[::-1] + 1j  # float64 and complex128
    assert "the NumPy interpreter, whatever the tier" in str(np.explain(y))
    expected = numpy.exp((data * 2).astype(numpy.float64))[::-1] + 1j
    numpy.testing.assert_array_equal(numpy.asarray(y), expected)
    assert np.stats()["interpreted_runs"] > interpreted and xla_runs() == ran
    assert (numpy.asarray(x * 3) == data * 6).all()  # float32 again: compiled
    assert xla_runs() > ran
    ran, interpreted = xla_runs(), np.stats()["interpreted_runs"]
    k = np.arange(12).reshape(3, 4)
    numpy.testing.assert_array_equal(numpy.asarray(k @ k.T + 1), data @ data.T + 1)
    assert np.stats()["interpreted_runs"] > interpreted and xla_runs() == ran
    numpy.asarray(k + 1)  # int64 without a product: compiled
    assert xla_runs() > ran
    ran, interpreted = xla_runs(), np.stats()["interpreted_runs"]
    big = numpy.full(3, 12631199.0, numpy.float32)  # the TPU's remainder gave 1
    for name in ("remainder", "fmod", "floor_divide"):
        assert (op(name), numpy.dtype(numpy.float32)) in tpu
        got = getattr(np, name)(np.asarray(big) * 1, numpy.float32(3))
        numpy.testing.assert_array_equal(numpy.asarray(got),
                                         getattr(numpy, name)(big, numpy.float32(3)))
    assert np.stats()["interpreted_runs"] >= interpreted + 3 and xla_runs() == ran
    ran, interpreted = xla_runs(), np.stats()["interpreted_runs"]
    eight = numpy.full(3, -85.0, ml_dtypes.float8_e4m3fn)  # the TPU's -85 + -85 was NaN
    for dtype in (ml_dtypes.float8_e4m3fn, ml_dtypes.float8_e5m2):
        assert (None, numpy.dtype(dtype)) in tpu
    numpy.testing.assert_array_equal(numpy.asarray(np.asarray(eight) + eight), eight + eight)
    assert np.stats()["interpreted_runs"] > interpreted and xla_runs() == ran


@float64_compiles
def test_integer_index_loops_compile_a_few_programs(monkeypatch):
    """A read at a Python int (`a[i]`, `a[i, j]`) takes its position at run time: a
    loop over i runs the same program at every cut, whatever i is."""
    monkeypatch.setattr(_cuts, "_last_cut", None)
    host = numpy.arange(6000.0).reshape(600, 10)
    a, s, expected = np.asarray(host), np.zeros(10), numpy.zeros(10)
    for i in range(600):
        s = s + a[i]
        expected = expected + host[i]
        if i % 100 == 99:
            np.eval(s)  # a flush that waits: it donates (a size cut does not)
    numpy.testing.assert_array_equal(numpy.asarray(s), expected)
    stats = np.stats()
    assert stats["flushes"]["size"] >= 5 and stats["memory_cache_misses"] <= 3
    explicit = stats["flushes"]["explicit"]
    assert explicit - 1 <= stats["donated_buffers"] <= explicit  # s's, never an index

    np.reset_stats()
    host = numpy.arange(400.0).reshape(20, 20)
    a, total = np.asarray(host), 0.0
    for i in range(20):
        for j in range(20):
            total = total + a[i, j]
    assert float(total) == host.sum()
    assert np.stats()["memory_cache_misses"] <= 3


@float64_compiles
def test_moving_windows_share_one_program(monkeypatch):
    """A slice whose start moves at one line of code (`x[s:s+k]` in a loop) takes its
    start at run time once it has been seen to move: two programs, not one per offset.
    A slice whose start stays put keeps static offsets."""
    monkeypatch.setenv("LAZYARR_CACHE_DIR", "off")
    host = numpy.random.default_rng(0).normal(size=5000)
    x = np.asarray(host)
    means = [float(x[s:s + 256].mean()) for s in range(0, 5000 - 256, 100)]
    numpy.testing.assert_allclose(means, [host[s:s + 256].mean()
                                          for s in range(0, 5000 - 256, 100)], rtol=1e-12)
    assert np.stats()["compiles"] == 2
    reversed_means = [float(x[s + 255:s - 1 if s else None:-2].sum())
                      for s in range(0, 1000, 100)]
    numpy.testing.assert_allclose(reversed_means, [host[s + 255:s - 1 if s else None:-2].sum()
                                                   for s in range(0, 1000, 100)], rtol=1e-12)
    np.reset_stats()
    for _ in range(3):
        float((x[1:-1] - x[:-2]).sum())
    assert np.stats()["compiles"] == 1 and np.stats()["memory_cache_hits"] == 2


@float64_compiles
def test_a_failing_index_read_names_its_line(monkeypatch):
    _break_lowering(monkeypatch, "dynamic_slice")
    monkeypatch.setenv("LAZYARR_CACHE_DIR", "off")
    a = np.arange(12.0).reshape(3, 4) + 1
    y = a[2] * 2; line = sys._getframe().f_lineno  # noqa: E702
    with pytest.raises(np.BackendFailure) as info:
        y.item(0)
    assert "dynamic_slice" in str(info.value) and f"{__file__}, line {line}" in str(info.value)
    with np.use_backend("numpy"):  # nothing was half-updated
        numpy.testing.assert_array_equal(numpy.asarray(y), [18.0, 20.0, 22.0, 24.0])


# ---------------------------------------------------------------------------------
# A cache that cannot lie: every entry carries its full key and a checksum.

def _two_programs():
    from lazyarr._flush import linearize
    from lazyarr._graph import topological_order
    x = np.asarray(numpy.arange(5.0))
    made = []
    for y in (x * 2 + 1, (x - 3) * 4):  # the same inputs' shapes: swappable executables
        made.append(linearize(topological_order([y._node]), [y._node]))
    return made


def _entry(program, inputs, backend):
    from lazyarr_xla import disk_cache
    key = (program.key, backend.signature(program, inputs))
    return disk_cache.directory() / disk_cache.entry_name(key, backend.jax_device)


def _fresh_run(program, inputs):
    """Run on a new backend instance: an empty memory cache, so the disk decides."""
    from lazyarr_xla import XlaBackend
    outputs, events, _ = XlaBackend("cpu").run(program, inputs)
    return numpy.asarray(outputs[0]), events


@pytest.fixture
def cache_dir(tmp_path, monkeypatch):
    monkeypatch.setenv("LAZYARR_CACHE_DIR", str(tmp_path))
    return tmp_path


def test_swapped_cache_entries_are_misses(cache_dir):
    (pa, ia), (pb, ib) = _two_programs()
    expected_a, _ = _fresh_run(pa, ia)
    expected_b, _ = _fresh_run(pb, ib)
    from lazyarr_xla import XlaBackend
    backend = XlaBackend("cpu")
    file_a, file_b = _entry(pa, ia, backend), _entry(pb, ib, backend)
    blob_a, blob_b = file_a.read_bytes(), file_b.read_bytes()
    assert _fresh_run(pa, ia)[1].disk_cache_hits == 1  # intact entries are hits
    file_a.write_bytes(blob_b)
    file_b.write_bytes(blob_a)
    for program, inputs, expected in ((pa, ia, expected_a), (pb, ib, expected_b)):
        value, events = _fresh_run(program, inputs)
        numpy.testing.assert_array_equal(value, expected)
        assert events.disk_cache_hits == 0 and events.compiles == 1
    assert _fresh_run(pa, ia)[1].disk_cache_hits == 1  # rewritten under its own key
    numpy.testing.assert_array_equal(expected_a, numpy.arange(5.0) * 2 + 1)


def test_truncated_and_foreign_cache_entries_are_misses(cache_dir):
    from lazyarr_xla import XlaBackend, disk_cache
    (pa, ia), _ = _two_programs()
    _fresh_run(pa, ia)
    entry = _entry(pa, ia, XlaBackend("cpu"))
    intact = entry.read_bytes()
    foreign = [
        intact[: len(intact) // 2],                       # truncated
        intact[:-1] + bytes([intact[-1] ^ 1]),            # one bit flipped
        disk_cache._encode("some other key", ("x", None, None, ())),  # another key's entry
        pickle.dumps(("not", "an", "entry")),             # a foreign file
        b"",
    ]
    for blob in foreign:
        entry.write_bytes(blob)
        value, events = _fresh_run(pa, ia)
        numpy.testing.assert_array_equal(value, numpy.arange(5.0) * 2 + 1)
        assert events.disk_cache_hits == 0 and events.compiles == 1, blob[:40]
        assert entry.read_bytes() != blob  # rewritten


def test_the_cache_directory_is_private(cache_dir, monkeypatch):
    import stat
    root = cache_dir / "fresh"
    monkeypatch.setenv("LAZYARR_CACHE_DIR", str(root))
    (pa, ia), _ = _two_programs()
    _fresh_run(pa, ia)
    assert stat.S_IMODE(root.stat().st_mode) & 0o077 == 0


def test_compiles_run_on_background_threads(cache_dir, monkeypatch):
    """The contract's compile step: thread-safe, one executable for threads compiling
    the same program at once, found by `lookup` afterwards, never compiled by it."""
    from concurrent.futures import ThreadPoolExecutor
    from lazyarr_xla import XlaBackend
    monkeypatch.setenv("LAZYARR_CACHE_DIR", "off")
    (pa, ia), _ = _two_programs()
    backend = XlaBackend("cpu")
    signature = backend.signature(pa, ia)
    assert backend.lookup(pa, signature).compiled is None
    with ThreadPoolExecutor(4) as pool:
        made = list(pool.map(lambda _: backend.compile(pa, signature), range(4)))
    compiled, events = backend.lookup(pa, signature)
    assert all(m is compiled for m in made) and events.memory_cache_hits == 1
    assert sum(m.events.compiles for m in set(made)) == 1
    outputs, ran, deferred = compiled.run(ia)
    assert deferred is None  # a blocking run read its checks
    numpy.testing.assert_array_equal(numpy.asarray(outputs[0]), numpy.arange(5.0) * 2 + 1)
    assert ran.run_seconds > 0 and ran.compiles == 0


def test_plane_writes_that_touch_every_cache_line_are_selects():
    """On the CPU, a write of one index along axes whose block is a cache line or two
    (a plane `f[:, :, i]` of a (n, m, 9) array) lowers to a select XLA fuses with its
    neighbours; one touching few of the target's lines stays an in-place
    dynamic_update_slice, as every write does elsewhere (on a TPU v5e the select was
    slower)."""
    import jax.numpy as jnp  # noqa: PLC0415
    from lazyarr.backend_api import op  # noqa: PLC0415
    from lazyarr_xla import lowering_mutation, registry  # noqa: PLC0415
    from lazyarr_xla.lowering_mutation import _strided_write  # noqa: PLC0415
    write = op("update_slice")
    assert registry.lowering(write, "cpu").fn is lowering_mutation._update_slice_cpu
    assert registry.lowering(write, "tpu").fn is lowering_mutation._update_slice
    f = jnp.zeros((400, 400, 9), "float32")
    assert _strided_write(f, jnp.zeros((400, 400, 1)))    # 36-byte blocks
    assert not _strided_write(f, jnp.zeros((400, 1, 1)))  # f[:, j, i]: one line in 225
    assert not _strided_write(f, jnp.zeros((400, 1, 9)))  # f[:, j]
    assert not _strided_write(f, jnp.zeros((1, 400, 9)))  # f[j]: contiguous
    assert not _strided_write(f, jnp.zeros((400, 400, 2)))  # two planes: not one index
    assert not _strided_write(jnp.zeros((40, 40)), jnp.zeros((40, 1)))  # a column
    assert _strided_write(jnp.zeros((40, 4)), jnp.zeros((40, 1)))
    assert _strided_write(jnp.zeros((40, 2, 3)), jnp.zeros((40, 1, 1)))  # 24-byte blocks
    assert not _strided_write(f, f)  # the whole array: nothing to select


@pytest.mark.parametrize("shape", [(9, 8), (6, 5, 4), (40,)])
def test_writes_over_most_of_their_target_are_selects(shape):
    """On the CPU, a write at starts known when the program is built that covers at least
    half of its target is a select over the whole target (XLA fuses it with the values
    it writes; jacobi's `center[:] = work` as an in-place dynamic_update_slice made the
    step 20% slower); a smaller one stays a dynamic_update_slice. NumPy's values."""
    import jax
    from lazyarr_xla.lowering_mutation import _update_slice_cpu
    rng = numpy.random.default_rng(sum(shape))
    x = rng.normal(size=shape).astype(numpy.float32)  # (jax's own default precision)
    for _ in range(12):
        lows = [int(rng.integers(0, n // 4 + 1)) for n in shape]
        sizes = [int(rng.integers(max(1, n - n // 4 - low), n - low + 1))
                 for n, low in zip(shape, lows)]
        if rng.random() < 0.3:  # one axis at one index: broadcast along it
            axis = int(rng.integers(len(shape)))
            sizes[axis] = 1
        values = rng.normal(size=sizes).astype(numpy.float32)
        region = tuple(slice(low, low + n) for low, n in zip(lows, sizes))
        expected = x.copy()
        expected[region] = values
        starts = numpy.array(lows, numpy.int32)
        steps = (1,) * len(shape)

        def write(x, values, starts, at=tuple(lows)):
            return _update_slice_cpu(x, values, starts, steps, at=at)
        text = jax.jit(write).lower(x, values, starts).as_text()
        assert ("dynamic_update_slice" in text) == (2 * values.size < x.size), (lows, sizes)
        numpy.testing.assert_array_equal(numpy.asarray(jax.jit(write)(x, values, starts)),
                                         expected)


@float64_compiles
def test_a_stencil_step_donates_only_what_nothing_reads_later():
    """jacobi's step (the convergence test reads the previous interior, which the new
    interior does not depend on): the grid is donated to the new grid, the previous
    interior to nothing (donated, XLA copied it twice a step). NumPy's values."""
    def run(xp, steps):
        u = xp.zeros((30, 30))
        u[0] = 1.0
        center, deltas = u[1:-1, 1:-1], []
        for _ in range(steps):
            work = 0.25 * (u[:-2, 1:-1] + u[2:, 1:-1] + u[1:-1, :-2] + u[1:-1, 2:])
            delta = xp.abs(work - center).max()
            center[:] = work
            deltas.append(float(delta))
        return numpy.asarray(u), deltas
    np.reset_stats()
    mine = run(np, 40)
    stats = np.stats()
    theirs = run(numpy, 40)
    # (sums of four neighbours in NumPy's order, products rounded as NumPy's: exact)
    numpy.testing.assert_array_equal(mine[0], theirs[0])
    numpy.testing.assert_array_equal(mine[1], theirs[1])
    # one buffer a step at most (the grid), after the first few steps found their program
    assert 30 <= stats["donated_buffers"] <= 40


@pytest.mark.parametrize("dtype", ["float64", "float32", "int8", "bool", "complex128"])
def test_plane_writes_match_numpy(dtype):
    """Planes written one after another, each computed from planes written before
    (lbm's streaming), at positions given at run time: NumPy's values, one program."""
    rng = numpy.random.default_rng(1)
    host = (rng.normal(size=(7, 6, 5)) * 4).astype(dtype)
    mine, theirs = np.asarray(host), host.copy()
    for k in range(5):
        for a in (mine, theirs):
            xp = np if a is mine else numpy
            a[:, :, k] = xp.roll(a[:, :, k - 1], 1, axis=0)
            a[:, 2, k] = a[:, 3, (k + 2) % 5]
    numpy.testing.assert_array_equal(numpy.asarray(mine), theirs)
    assert np.asarray(mine).dtype == theirs.dtype
    small, expected = np.zeros((9, 3), dtype), numpy.zeros((9, 3), dtype)
    small[:, 1] = np.asarray(host[:, 0, :3].T[1].repeat(3)[:9])
    expected[:, 1] = host[:, 0, :3].T[1].repeat(3)[:9]
    numpy.testing.assert_array_equal(numpy.asarray(small), expected)


def test_sinh_and_expm1_keep_a_zeros_sign_where_jax_does_not(monkeypatch):
    """A TPU v5e's sinh(-0.0) and expm1(-0.0) were 0.0 (and complex64 sin, cos, sinh and
    cosh took wrong zeros from them): the lowerings keep a zero as it is, whatever jnp
    gives for it (here jnp's made to lose the sign, as there)."""
    import jax.numpy as jnp
    from lazyarr_xla import lowering_common
    for name in ("sinh", "expm1"):
        real = getattr(jnp, name)
        monkeypatch.setattr(lowering_common.jnp, name,
                            lambda x, real=real: jnp.where(x == 0, jnp.abs(x), real(x)))
    monkeypatch.setenv("LAZYARR_CACHE_DIR", "off")
    zeros = numpy.array([-0.0, 0.0], numpy.float32)
    for name in ("sinh", "expm1"):
        got = numpy.asarray(getattr(np, name)(np.asarray(zeros)))
        numpy.testing.assert_array_equal(numpy.signbit(got), [True, False])
    z = numpy.array([complex(-0.0, 0.5), complex(0.0, -0.0), complex(-0.0, -0.0)],
                    numpy.complex64)
    for name in ("sinh", "cosh", "sin", "cos"):
        got, expected = numpy.asarray(getattr(np, name)(np.asarray(z))), getattr(numpy, name)(z)
        for part in ("real", "imag"):
            numpy.testing.assert_array_equal(
                numpy.signbit(getattr(got, part)), numpy.signbit(getattr(expected, part)),
                err_msg=f"{name} {part}")


def test_the_disk_cache_loads_an_executable_on_its_devices_client(cache_dir, monkeypatch):
    """jax deserializes on the default platform's client unless told: a CPU program on
    a TPU host was never loaded from disk (a miss every time). The devices' own client
    is passed."""
    from jax.experimental import serialize_executable
    clients = []
    load = serialize_executable.deserialize_and_load
    monkeypatch.setattr(serialize_executable, "deserialize_and_load",
                        lambda *args, backend=None, **kwargs: (
                            clients.append(backend), load(*args, backend=backend, **kwargs))[1])
    (pa, ia), _ = _two_programs()
    _fresh_run(pa, ia)
    value, events = _fresh_run(pa, ia)
    assert events.disk_cache_hits == 1
    from lazyarr_xla import XlaBackend
    assert clients == [XlaBackend("cpu").jax_device.client]
