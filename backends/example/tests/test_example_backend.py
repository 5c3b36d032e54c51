"""The example backend, written against the public contract alone: it is found through
its entry point, runs programs op by op from cached plans (counting what it runs),
reports its events, and raises a program's checks as the contract says. The
differential suite's slice on it is in tests/ (conftest's EXAMPLE_SLICE)."""

import ast
from pathlib import Path

import numpy
import pytest

import lazyarr as np
from lazyarr import _backend

pytestmark = pytest.mark.skipif("example" not in _backend.available(),
                                reason="lazyarr-example not installed")


@pytest.fixture(autouse=True)
def backend(monkeypatch):
    """On the example backend, every program compiled (into a plan) before it runs:
    the CPU tiers would otherwise interpret a program's first runs with the reference."""
    monkeypatch.setenv("LAZYARR_TIER", "compile")  # (for the scripts a test runs)
    with np.use_tier("compile"), np.use_backend("example") as chosen:
        np.reset_stats()
        yield chosen


def test_it_imports_only_the_public_backend_api():
    import lazyarr_example
    tree = ast.parse(Path(lazyarr_example.__file__).read_text())
    modules = {n.module for n in ast.walk(tree) if isinstance(n, ast.ImportFrom)}
    modules |= {a.name for n in ast.walk(tree) if isinstance(n, ast.Import) for a in n.names}
    assert {m for m in modules if m.startswith("lazyarr")} == {"lazyarr.backend_api"}


def test_it_counts_and_caches_plans(backend):
    x = np.eval(np.arange(5.0))
    np.reset_stats()
    before = backend.instructions_run
    for k in range(3):
        y = (x * (k + 1.5) + 1).sum()
        assert float(y) == numpy.sum(numpy.arange(5.0) * (k + 1.5) + 1)
    stats = np.stats()
    assert backend.instructions_run - before == stats["nodes_evaluated"] > 0
    assert stats["example_instructions"] == stats["nodes_evaluated"]
    # the scalar compiled in at first, then a runtime input once it changed
    assert stats["compiles"] == 2 and stats["memory_cache_hits"] == 1


def test_checks_are_raised_after_the_program_ran():
    x = np.arange(3)
    index = np.asarray(numpy.array([0, 5])) + 0
    with pytest.raises(IndexError, match="out of bounds"):
        x[index].sum().item()
    singular = np.zeros((2, 2)) + 0
    with pytest.raises(numpy.linalg.LinAlgError, match="Singular matrix"):
        np.linalg.inv(singular).item(0)
    assert float(np.linalg.inv(np.eye(2) * 2)[0, 0]) == 0.5


def test_background_compile_then_lookup(backend):
    """What the scheduler's tiers rely on: compile on another thread, then find the plan
    without compiling."""
    from concurrent.futures import ThreadPoolExecutor
    from lazyarr._flush import linearize
    from lazyarr._graph import topological_order
    y = np.arange(4.0) * 3
    program, inputs = linearize(topological_order([y._node]), [y._node])
    signature = backend.signature(program, inputs)
    assert backend.lookup(program, signature).compiled is None
    with ThreadPoolExecutor(2) as pool:
        plans = list(pool.map(lambda _: backend.compile(program, signature), range(4)))
    found = backend.lookup(program, signature).compiled
    assert all(p is found for p in plans)
    outputs, events, _ = found.run(inputs)
    numpy.testing.assert_array_equal(outputs[0], numpy.arange(4.0) * 3)
    assert events.run_seconds >= 0
