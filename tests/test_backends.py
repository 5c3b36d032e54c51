"""Backends as plugins: the contract (`lazyarr.backend_api`), discovery through entry
points, contract versions, and bad plugins (which fail when selected, naming the plugin
and its entry point, never at `import lazyarr`, and leave the other backends usable).
Fake plugins are real distributions: a dist-info directory on sys.path."""

import ast
import subprocess
import sys
import textwrap
from pathlib import Path

import numpy
import pytest

import lazyarr as la
from lazyarr import _backend, backend_api
from lazyarr.numpy_backend import NumpyBackend

SRC = Path(la.__file__).parent


@pytest.fixture(autouse=True)
def backend():
    """These tests are about plugins, not a backend's values: run once."""
    yield None


def _plugin(root: Path, dist: str, entries: dict[str, str], module: str = "", name=None):
    """A distribution `dist` in `root` registering `entries` (name -> "module:attr") in
    the lazyarr.backends group, with module `name` holding `module`'s source."""
    info = root / f"{dist}-0.1.dist-info"
    info.mkdir(parents=True)
    (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {dist}\nVersion: 0.1\n")
    lines = "\n".join(f"{k} = {v}" for k, v in entries.items())
    (info / "entry_points.txt").write_text(f"[lazyarr.backends]\n{lines}\n")
    if name:
        (root / f"{name}.py").write_text(textwrap.dedent(module))


GOOD = """
    from lazyarr.backend_api import CONTRACT_VERSION, RunResult, Events
    from lazyarr.numpy_backend import NumpyBackend

    class Good(NumpyBackend):
        name = "{name}"
        contract_version = {version}

    class NoDevices:
        name = "nodevices"
        contract_version = CONTRACT_VERSION
        compiles = donates = False
        device = "cpu"
        def run(self, program, inputs, owned=frozenset()): ...
        def transfer(self, buffer, device): ...
        def device_of(self, buffer): ...

    class CompilesWithoutCompile(Good):
        name = "nocompile"
        compiles = True
"""


@pytest.fixture
def plugins(tmp_path, monkeypatch):
    """Installs fake plugins for one test; returns a function adding one."""
    monkeypatch.syspath_prepend(str(tmp_path))
    made = []

    def add(dist, entries, module="", name=None):
        _plugin(tmp_path, dist, entries, module, name)
        made.append(name)
    yield add
    for name in made:
        sys.modules.pop(name, None)
    for key in [k for k in _backend._instances if k[0] not in ("numpy", "xla", "example")]:
        del _backend._instances[key]


def test_builtin_backends_are_entry_points():
    eps = _backend.available()
    assert eps["numpy"].value == "lazyarr.numpy_backend:NumpyBackend"
    if "xla" in eps:
        assert eps["xla"].value == "lazyarr_xla:XlaBackend"


def test_the_core_never_imports_a_backend():
    """No core module imports a plugin, and backends import only the public API."""
    plugins = {"lazyarr_xla", "lazyarr_example", "jax", "jaxlib"}
    for path in SRC.rglob("*.py"):
        tree = ast.parse(path.read_text())
        for node in ast.walk(tree):
            names = ([a.name for a in node.names] if isinstance(node, ast.Import) else
                     [node.module or ""] if isinstance(node, ast.ImportFrom) else [])
            for name in names:
                assert name.partition(".")[0] not in plugins, f"{path} imports {name}"
    for path in SRC.parent.parent.glob("backends/*/src/*/*.py"):
        tree = ast.parse(path.read_text())
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("lazyarr"):
                if not node.module.startswith("lazyarr_"):
                    assert node.module == "lazyarr.backend_api", f"{path}: {node.module}"
            if isinstance(node, ast.Import):
                assert all(a.name.partition(".")[0] != "lazyarr" for a in node.names), path
    # The reference backend is core code but a plugin all the same.
    tree = ast.parse((SRC / "numpy_backend.py").read_text())
    imported = {n.module for n in ast.walk(tree) if isinstance(n, ast.ImportFrom)}
    assert {m for m in imported if m and "lazyarr" in m} == {"lazyarr.backend_api"}


def test_import_lazyarr_loads_no_backend():
    code = ("import sys, lazyarr; print(sorted(m for m in sys.modules if m.startswith("
            "('jax', 'lazyarr_', 'lazyarr.numpy_backend'))))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "[]"


def test_a_good_third_party_plugin_runs(plugins):
    plugins("fine-plugin", {"fine": "fine_mod:Good"},
            GOOD.format(name="fine", version="CONTRACT_VERSION"), "fine_mod")
    assert "fine" in _backend.available()
    with la.use_backend("fine") as chosen:
        assert chosen.name == "fine"
        assert float((la.arange(4.0) * 2).sum()) == 12.0


def test_a_plugin_that_fails_to_import(plugins):
    plugins("broken-plugin", {"broken": "broken_mod:Backend"},
            "raise ImportError('needs libfoo, which is missing')", "broken_mod")
    with pytest.raises(_backend.BackendError) as info:
        la.set_backend("broken")
    message = str(info.value)
    assert "'broken'" in message and "broken = broken_mod:Backend" in message
    assert "broken-plugin" in message and "needs libfoo" in message
    with la.use_backend("numpy"):  # the others stay usable
        assert float(la.ones(3).sum()) == 3.0


def test_a_plugin_whose_module_raises_something_else(plugins):
    plugins("bad-plugin", {"bad": "bad_mod:Backend"}, "1 / 0", "bad_mod")
    with pytest.raises(_backend.BackendError, match="bad = bad_mod:Backend.*ZeroDivisionError"):
        la.set_backend("bad")


def test_a_name_registered_twice(plugins):
    module = GOOD.format(name="twice", version="CONTRACT_VERSION")
    plugins("first-plugin", {"twice": "twice_a:Good"}, module, "twice_a")
    plugins("second-plugin", {"twice": "twice_b:Good"}, module, "twice_b")
    with pytest.raises(_backend.BackendError) as info:
        la.set_backend("twice")
    message = str(info.value)
    assert "registered twice" in message
    assert "twice_a:Good" in message and "twice_b:Good" in message
    assert "first-plugin" in message and "second-plugin" in message
    with la.use_backend("numpy"):
        assert float(la.ones(2).sum()) == 2.0


def test_a_plugin_that_lacks_a_required_method(plugins):
    plugins("partial-plugin", {"nodevices": "partial_mod:NoDevices",
                               "nocompile": "partial_mod:CompilesWithoutCompile"},
            GOOD.format(name="x", version="CONTRACT_VERSION"), "partial_mod")
    with pytest.raises(_backend.BackendError, match="nodevices.*lacks.*devices"):
        la.set_backend("nodevices")
    with pytest.raises(_backend.BackendError,
                       match="nocompile.*lacks.*signature, lookup, compile"):
        la.set_backend("nocompile")


@pytest.mark.parametrize("version", ["(0, 9)", "(2, 0)", "(1, 99)", "'1.0'", "None"])
def test_an_incompatible_contract_version_is_refused(plugins, version):
    plugins("old-plugin", {"old": "old_mod:Good"}, GOOD.format(name="old", version=version),
            "old_mod")
    with pytest.raises(_backend.BackendError) as info:
        la.set_backend("old")
    message = str(info.value)
    assert f"contract version {eval(version)!r}" in message
    assert f"implements version {backend_api.CONTRACT_VERSION!r}" in message
    assert "old = old_mod:Good" in message


def test_a_compatible_older_minor_version_loads(plugins):
    major = backend_api.CONTRACT_VERSION[0]
    plugins("minor-plugin", {"minor": "minor_mod:Good"},
            GOOD.format(name="minor", version=f"({major}, 0)"), "minor_mod")
    with la.use_backend("minor"):
        assert float(la.ones(2).sum()) == 2.0


def test_bad_plugins_do_not_break_import_or_the_default(tmp_path):
    _plugin(tmp_path, "broken-plugin", {"broken": "broken_mod:Backend"},
            "raise ImportError('no')", "broken_mod")
    code = "import lazyarr; print(float(lazyarr.ones(3).sum()))"
    env = {"PYTHONPATH": str(tmp_path) + ":" + ":".join(sys.path)}
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          env=env, timeout=300)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "3.0"


# ---------------------------------------------------------------------------------
# The program format.

def _program(*arrays):
    from lazyarr._flush import linearize
    from lazyarr._graph import topological_order
    nodes = [a._node for a in arrays]
    return linearize(topological_order(nodes), nodes)


@pytest.mark.usefixtures("lazy_graph")  # programs of small arrays
def test_programs_carry_their_runtime_checks():
    index = la.asarray(numpy.array([0, 4])) + 0
    x = la.arange(3.0)[index]
    program, _ = _program(x)
    checks = program.checks
    assert [c.error for c in checks] == [IndexError]
    assert program.instructions[checks[0].instruction].op is backend_api.op("normalize_index")
    assert "out of bounds for axis 0 with size 3" in checks[0].message
    program, _ = _program(la.linalg.inv(la.eye(2) + 0), la.arange(3) ** (la.arange(3) + 0))
    assert [c.error for c in program.checks] == [numpy.linalg.LinAlgError, ValueError]
    program, _ = _program(la.arange(3.0) ** 2.0)  # float powers cannot fail
    assert program.checks == ()


@pytest.mark.usefixtures("lazy_graph")  # programs of small arrays
def test_results_must_have_the_promised_shape_and_dtype():
    program, inputs = _program(la.arange(3.0) + 1)
    ins = program.instructions[-1]
    backend_api.check_result(ins, numpy.zeros(ins.shape, ins.dtype))
    with pytest.raises(AssertionError, match="rules said"):
        backend_api.check_result(ins, numpy.zeros(ins.shape, numpy.float32))
    with pytest.raises(AssertionError, match="rules said"):
        backend_api.check_result(ins, numpy.zeros((4,), ins.dtype))


def test_the_release_plan_frees_each_intermediate_after_its_last_reader():
    """backend_api.frees/last_uses: what a backend running a program instruction by
    instruction may release (the NumPy, example and op-by-op runners share it)."""
    f64 = numpy.dtype("float64")
    spec = ((3,), f64)
    I = backend_api.Instruction  # noqa: E741
    add, neg = backend_api.op("add"), backend_api.op("negative")
    # slots: 0, 1 inputs; 2 = 0 + 1; 3 = -2; 4 = 2 + 2 (an operand twice); 5 = 3 + 4
    ins = (I(add, (0, 1), (), *spec), I(neg, (2,), (), *spec), I(add, (2, 2), (), *spec),
           I(add, (3, 4), (), *spec))
    program = backend_api.Program((spec, spec), ins, (5, 3), ((spec, spec), ins, (5, 3)))
    assert backend_api.last_uses(program) == {0: 0, 1: 0, 2: 2, 3: 3, 4: 3}
    # inputs are never freed, nor outputs (3 is one); slot 2 once, after its last reader
    assert backend_api.frees(program) == ((), (), (2,), (4,))
    out = NumpyBackend().run(program, [numpy.arange(3.0), numpy.ones(3)]).outputs
    numpy.testing.assert_array_equal(out[0], -(numpy.arange(3.0) + 1) + 2 * (numpy.arange(3.0) + 1))
    numpy.testing.assert_array_equal(out[1], -(numpy.arange(3.0) + 1))


def test_an_input_is_consumed_by_an_output_only_if_nothing_reads_it_past_it():
    """Program.consumed_by: the inputs only the output and what it depends on read (a
    backend may write the output over them). A jacobi step: the new grid reads the old
    one (through the new interior, too), the convergence test reads the old interior,
    which the new interior does not depend on."""
    step = backend_api.Instruction
    add, sub, neg = (backend_api.op(name) for name in ("add", "subtract", "negative"))
    spec = ((3,), numpy.dtype("float64"))
    # slots: 0 the grid, 1 the old interior, 2 unread; 3 = -0 (the new interior);
    # 4 = 0 + 3 (the new grid); 5 = 3 - 1 (the change)
    ins = (step(neg, (0,), (), *spec), step(add, (0, 3), (), *spec),
           step(sub, (3, 1), (), *spec))
    program = backend_api.Program((spec,) * 3, ins, (3, 4, 5), ((spec,) * 3, ins, (3, 4, 5)))
    assert program.consumed_by(4) == {0, 2}  # not 1: the change reads it
    assert program.consumed_by(3) == {2}     # not 0: the new grid reads it too
    assert program.consumed_by(5) == {1, 2}  # 0 is read by the new grid
    assert program.consumed_by(4) is program.consumed_by(4)  # computed once


def test_unknown_primitive_names_are_key_errors():
    assert backend_api.op("add") is backend_api.OPS["add"]
    with pytest.raises(KeyError, match="no primitive named 'nope'"):
        backend_api.op("nope")


def test_events_add_and_count():
    a = backend_api.Events(compiles=1, compile_seconds=0.5, extra={"k": 1})
    a.add(backend_api.Events(memory_cache_hits=2, run_seconds=0.1, extra={"k": 2}))
    assert a.counts() == {"compiles": 1, "compile_seconds": 0.5, "memory_cache_hits": 2,
                          "k": 3}
    assert a.run_seconds == 0.1


@pytest.mark.parametrize("name", ["numpy", "xla", "example"])
def test_installed_backends_implement_the_protocol(name):
    if name not in _backend.available():
        pytest.skip(f"{name} not installed")
    chosen = _backend.load(name)
    assert isinstance(chosen, backend_api.Backend)
    assert backend_api.compatible(chosen.contract_version)
    assert chosen.device in chosen.devices()
    program, inputs = _program(la.arange(5.0) * 2)
    result = chosen.run(program, inputs)
    numpy.testing.assert_array_equal(numpy.asarray(result.outputs[0]), numpy.arange(5.0) * 2)
    assert isinstance(result.events, backend_api.Events)
    assert result.deferred is None  # a blocking run has read its checks
    if backend_api.asynchronous(chosen):  # contract 1.1: a run that need not wait
        later = chosen.run(program, inputs, block=False)
        numpy.testing.assert_array_equal(numpy.asarray(later.outputs[0]),
                                         numpy.arange(5.0) * 2)
    if chosen.compiles:
        assert isinstance(chosen, backend_api.CompilingBackend)
        signature = chosen.signature(program, inputs)
        compiled, _ = chosen.lookup(program, signature)
        assert isinstance(compiled, backend_api.Compiled)  # run above kept it
        again = compiled.run(inputs)
        numpy.testing.assert_array_equal(numpy.asarray(again.outputs[0]),
                                         numpy.arange(5.0) * 2)


def test_a_broken_default_falls_back_with_a_warning(plugins, monkeypatch):
    plugins("broken-plugin", {"broken": "broken_mod:Backend"},
            "raise ImportError('needs libfoo')", "broken_mod")
    monkeypatch.setattr(_backend, "DEFAULT_ORDER", ("broken", "numpy"))
    with pytest.warns(RuntimeWarning, match="broken = broken_mod:Backend.*needs libfoo.*"
                                            "uses the 'numpy' backend"):
        chosen = _backend._default.__wrapped__()
    assert chosen.name == "numpy"
