"""Observability: the event log (LAZYARR_LOG, set_log) with the user's line, per-line
statistics, recompile reasons, the long-compile warning, report(), explain(), and the
runner's --summary and --log. On the numpy backend nothing is compiled: the tests say
so where it matters."""

import contextlib
import doctest
import io
import logging
import os
import re
import subprocess
import sys
import textwrap

import numpy
import pytest

import lazyarr as la
from lazyarr import _observe, _settings


def here() -> int:
    """The line number of the caller."""
    return sys._getframe(1).f_lineno


def site(line: int) -> str:
    """A line of this file as stats() names it."""
    return f"{__file__}:{line}"


def short(line: int) -> str:
    """A line of this file as the log and the report print it."""
    return f"{os.path.relpath(__file__)}:{line}"


@pytest.fixture(autouse=True)
def fresh(monkeypatch):
    """Counters from zero, no disk cache (a compile is a compile), log settings and
    the fallback policy restored after the test."""
    monkeypatch.setenv("LAZYARR_CACHE_DIR", "off")
    monkeypatch.setenv("LAZYARR_FALLBACK", "warn")
    previous = la.set_log()
    la.reset_stats()
    yield
    la.set_log(**previous)


def events(caplog, category):
    return [r for r in caplog.records
            if r.name == "lazyarr" and getattr(r, "lazyarr_event", None) == category]


def test_a_flush_is_logged_and_counted_at_its_line(caplog, backend, compile_tier):
    caplog.set_level(logging.INFO, logger="lazyarr")
    la.set_log("flush")
    x = la.asarray(numpy.arange(7.0))
    y = x * 2.5 + 1
    line = here() + 1
    total = float(y.sum())
    assert total == float((numpy.arange(7.0) * 2.5 + 1).sum())
    flushes = events(caplog, "flush")
    assert [r.lazyarr_site for r in flushes] == [site(line)]
    message = flushes[0].getMessage()
    assert message.startswith(f"flush (control) at {short(line)}: 3 operations, 3 inputs, ")
    row = la.stats()["lines"][site(line)]
    assert row["flushes"] == {"control": 1}
    assert row["seconds"] > 0
    assert row["compiles"] == (1 if backend == "xla" else 0)


def test_only_the_categories_asked_for_are_logged(caplog):
    caplog.set_level(logging.INFO, logger="lazyarr")
    la.set_log("compile")
    float((la.asarray(numpy.ones(3)) + 1).sum())
    assert events(caplog, "flush") == []
    la.set_log(None)
    float((la.asarray(numpy.ones(3)) + 2).sum())
    assert [r for r in caplog.records if r.name == "lazyarr"
            and r.levelno < logging.WARNING and getattr(r, "lazyarr_event", "") == "flush"] == []
    assert la.set_log("all")["categories"] == ()
    assert _observe.log_categories() == _observe.CATEGORIES


def test_a_new_shape_recompiles_and_is_named_as_the_reason(caplog, backend, compile_tier):
    caplog.set_level(logging.INFO, logger="lazyarr")
    la.set_log("compile")
    line = here() + 3

    def step(n):
        return float((la.asarray(numpy.ones(n)) * 3.25 - 0.5).sum())
    assert step(1013) == 1013 * 2.75
    assert step(1019) == 1019 * 2.75
    assert step(1013) == 1013 * 2.75  # the first program again: from the cache
    row = la.stats()["lines"][site(line)]
    assert row["flushes"] == {"control": 3}
    if backend == "numpy":  # the reference interpreter compiles nothing
        assert row["compiles"] == 0 and row["recompile_reasons"] == []
        assert events(caplog, "compile") == []
        return
    assert row["compiles"] == 2
    assert row["compile_seconds"] > 0
    assert row["recompile_reasons"] == ["new shape: input 0 is (1019,), was (1013,)"]
    logged = [r.getMessage() for r in events(caplog, "compile")]
    assert len(logged) == 2
    assert logged[0].endswith("first for this line")
    assert logged[1].endswith("recompile: new shape: input 0 is (1019,), was (1013,)")
    assert all(m.startswith(f"compile at {short(line)}: 3 operations, 3 inputs, ") for m in logged)
    text = _observe.format_report(la.stats())
    assert f"  {short(line)}: 2 compiles" in text
    assert "    1 x new shape: input 0 is (1019,), was (1013,)" in text


@pytest.mark.usefixtures("lazy_graph")
def test_recompile_reasons_name_dtypes_operations_attributes_and_scalar_kinds():
    from lazyarr._flush import linearize
    from lazyarr._graph import topological_order

    def program(y):
        order = topological_order([y._node])
        return linearize(order, [y._node])[0]

    x = la.asarray(numpy.ones((4, 5)))
    base = program(x.sum(axis=0))
    assert _observe.nearest_difference([base], program(x.sum(axis=1))) == \
        "new attribute: reduce_sum axes=(1,) (was (0,)); new shape: reduce_sum gives (4,), " \
        "was (5,)"
    xf = la.asarray(numpy.ones((4, 5), numpy.float32))
    assert _observe.nearest_difference([base], program(xf.sum(axis=0))).startswith(
        "new dtype: input 0 is float32, was float64")
    assert _observe.nearest_difference([base], program(x.prod(axis=0))) == \
        "new operation: reduce_prod where it was reduce_sum (operation 0)"
    times = program(x * 2.5)
    reason = _observe.nearest_difference([times], program(x * la.asarray(numpy.float32(2))))
    assert reason.startswith("new scalar kind: input 1 is a float32 scalar, was float64")
    # Inputs added or removed are named by their shape and dtype, not their position.
    y = la.asarray(numpy.ones((4, 5)))
    assert _observe.nearest_difference([program(x + 1.0)], program((x + y) * 2.0)).startswith(
        "new input: (4, 5) float64; ")
    # A scalar compiled in that takes another value is named; the structure's program
    # for every later value is then the same. The nearest earlier program is the one named.
    other = program(x * 3.5)
    assert _observe.nearest_difference([base, times], other) == (
        "input 1, a scalar compiled in as 2.5, took another value: a runtime input from now on")
    assert _observe.nearest_difference([base, times, other], program(x * 4.5)) == (
        "the same structure again (the backend compiled it anew: other inputs donated, "
        "or its cache was dropped)")


def test_a_fallback_names_the_function_called_and_its_line(caplog):
    special = pytest.importorskip("scipy.special")
    caplog.set_level(logging.INFO, logger="lazyarr")
    la.set_log("fallback")
    # The ufunc itself: under SCIPY_ARRAY_API=1 (which test_consumers sets) the public
    # scipy.special.expit is a wrapper that dispatches to lazyarr's namespace instead.
    expit = getattr(special.expit, "__wrapped__", special.expit)
    x = la.asarray(numpy.linspace(-2, 2, 9))
    with pytest.warns(la._dispatch.FallbackWarning, match=r"^scipy\.special\.expit has no"):
        line = here() + 1
        y = expit(x)
    numpy.testing.assert_allclose(numpy.asarray(y), special.expit(numpy.linspace(-2, 2, 9)))
    logged = events(caplog, "fallback")
    assert [r.lazyarr_site for r in logged] == [site(line)]
    assert "scipy.special.expit has no lazy implementation" in logged[0].getMessage()
    row = la.stats()["lines"][site(line)]
    assert row["fallbacks"] == {"scipy.special.expit": 1}
    assert la.stats()["fallbacks"] == {"expit": 1}
    report = _observe.format_report(la.stats())
    rows = [r for r in report.splitlines() if r.startswith(f"{short(line)} ")]
    # `x` was computed already: the fallback flushed nothing.
    assert len(rows) == 1 and rows[0].split()[1:] == ["0", "0.000", "0", "0.000", "1", "0",
                                                      "scipy.special.expit", "1"]


def test_fallback_names_of_numpy_functions_and_ufunc_methods():
    assert _observe.function_name(numpy.median) == "numpy.median"
    assert _observe.function_name(numpy.linalg.norm) == "numpy.linalg.norm"
    assert _observe.function_name(numpy.add, "reduceat") == "numpy.add.reduceat"
    assert _observe.function_name(numpy.multiply.accumulate) == "numpy.multiply.accumulate"


@pytest.mark.usefixtures("lazy_graph")
def test_a_size_cut_is_logged_as_a_cut(caplog, monkeypatch):
    from lazyarr import _cuts
    monkeypatch.setattr(_cuts, "_last_cut", None)  # an earlier test's cut point
    caplog.set_level(logging.INFO, logger="lazyarr")
    la.set_log("cut")
    x = la.asarray(numpy.ones(11))
    _cuts._last_cut = None  # an earlier test's loop would make this cut wait for its own
    line = here() + 2
    for _ in range(_cuts.MAX_PENDING_DEPTH + 5):
        x = x * 1.0
    cuts = events(caplog, "cut")
    assert len(cuts) == 1 and cuts[0].lazyarr_site == site(line)
    assert cuts[0].getMessage().startswith(f"cut (size bound) at {short(line)}: ")
    assert la.stats()["lines"][site(line)]["flushes"] == {"size": 1}


def test_host_transfers_are_counted_per_line(caplog, backend, compile_tier):
    caplog.set_level(logging.INFO, logger="lazyarr")
    la.set_log("transfer")
    y = la.asarray(numpy.ones(6)) + 1
    line = here() + 1
    numpy.asarray(y)
    row = la.stats()["lines"][site(line)]
    # The numpy backend's results are host arrays already: nothing is copied.
    expected = 1 if backend == "xla" else 0
    assert row["transfers"] == expected and row["transfer_bytes"] == 48 * expected
    assert len(events(caplog, "transfer")) == expected


def test_a_long_compile_warns_once_with_the_line_and_program_size(caplog, backend, compile_tier):
    caplog.set_level(logging.INFO, logger="lazyarr")
    la.set_log(None, long_compile_seconds=1e-9)
    line = here() + 1
    float((la.asarray(numpy.ones(1021)) * 1.5).sum())
    warned = [r for r in caplog.records if r.name == "lazyarr" and r.levelno == logging.WARNING]
    if backend == "numpy":
        assert warned == []  # nothing is compiled
        return
    assert len(warned) == 1 and warned[0].lazyarr_site == site(line)
    assert warned[0].getMessage().startswith(
        f"compiling a program of 2 operations, 2 inputs for {short(line)} took ")
    la.set_log(long_compile_seconds=None)
    float((la.asarray(numpy.ones(1031)) * 1.5).sum())
    assert len([r for r in caplog.records if r.levelno == logging.WARNING]) == 1


def test_bad_log_settings_are_clear_errors():
    with pytest.raises(ValueError, match=r"unknown lazyarr log category 'nope': the categories "
                                         r"are flush, compile, cut, fallback, transfer"):
        la.set_log("flush,nope")
    with pytest.raises(ValueError, match=r"categories 'a', 'b'"):
        la.set_log(["a", "b"])
    with pytest.raises(TypeError, match="strings, not int"):
        la.set_log(["flush", 3])
    with pytest.raises(ValueError, match="positive seconds"):
        la.set_log(long_compile_seconds=-1)
    with pytest.raises(ValueError, match="number of seconds or 'off'"):
        la.set_log(long_compile_seconds="soon")
    with pytest.raises(ValueError, match="positive number of lines"):
        la.report(top=0)
    assert _observe.log_categories() == ()  # nothing changed by the failures
    assert _observe.parse_categories("FLUSH, cut") == {"flush", "cut"}
    assert _observe.parse_categories("off") == frozenset()


@pytest.mark.usefixtures("lazy_graph")
def test_report_prints_the_lines_that_cost_most(capsys):
    x = la.asarray(numpy.ones(5))
    line = here() + 2
    for k in range(3):
        float((x + k).sum())
    la.report()
    text = capsys.readouterr().out
    first, header = text.splitlines()[:2]
    assert first == "lazyarr report: 1 line of your code caused work:"
    assert header.split()[:7] == ["line", "flushes", "seconds", "compiles", "compile", "s",
                                  "fallbacks"]
    row = [r for r in text.splitlines() if r.startswith(f"{short(line)} ")]
    assert len(row) == 1 and row[0].split()[1] == "3" and row[0].endswith("control 3")
    la.reset_stats()
    assert _observe.format_report(la.stats()).endswith("no flush, compile, fallback or "
                                                       "transfer was recorded")


def test_explain_lists_the_pending_graph_and_its_program(backend, compile_tier):
    x = la.asarray(numpy.arange(8.0))
    line = here() + 1
    a = x * 0.75
    b = a + a[3]  # `a` is used twice: listed once
    with la.count_flushes() as counter:
        text = la.explain(b)
    assert counter.count == 0
    lines = text.splitlines()
    # `a` is live and pending: the flush computes it too, and it is listed as a result.
    assert lines[0] == ("pending graph: 4 operations on 3 inputs; the flush also computes "
                        "1 other live array sharing this work:")
    # The structure's first flush compiles its scalar in; its offsets are runtime inputs.
    assert "scalar 0.75 (compiled in as a constant, below)" in text
    assert "offsets [3] (a runtime input)" in text
    constant = [r for r in lines if " constant " in r]
    assert len(constant) == 1 and constant[0].split()[2] == "0.75"
    multiply = [r for r in lines if " multiply " in r]
    assert len(multiply) == 1 and multiply[0].endswith(f"at {short(line)}  => a live array")
    assert multiply[0].split()[3] == constant[0].split()[0]
    slot = multiply[0].split()[0]
    add = [r for r in lines if " add " in r]
    assert len(add) == 1 and add[0].split()[2] == slot and add[0].endswith("=> the array")
    assert f"at {short(line + 1)}  =>" in add[0]
    assert ("program: 4 operations, 2 results; inputs: 1 array (64 bytes), 0 runtime scalars, "
            "1 runtime offset, 1 scalar compiled in") in text
    if backend == "xla":
        assert text.endswith("  xla backend on cpu: not compiled yet\n"
                             "  tier: compiled before it runs (LAZYARR_TIER=compile)")
    numpy.testing.assert_array_equal(numpy.asarray(b), numpy.arange(8.0) * 0.75 + 2.25)
    # Another value: the scalar is a runtime input of the structure from then on, and a
    # third value runs that same program.
    half = x * 0.5
    again = half + half[6]
    text = la.explain(again)
    assert "scalar 0.5 (a runtime input)" in text and " constant " not in text
    assert ("program: 4 operations, 2 results; inputs: 1 array (64 bytes), 1 runtime scalar "
            "(float64), 1 runtime offset") in text
    numpy.testing.assert_array_equal(numpy.asarray(again), numpy.arange(8.0) * 0.5 + 3.0)
    quarter = x * 0.25
    third = quarter + quarter[5]
    if backend == "xla":
        assert "compiled, in the memory cache" in la.explain(third)
    else:
        assert "interpreted instruction by instruction with NumPy" in text
    numpy.testing.assert_array_equal(numpy.asarray(b), numpy.arange(8.0) * 0.75 + 2.25)
    # A write's position is compiled in likewise (as the write's `at`).
    c = la.asarray(numpy.arange(8.0))
    c[2:5] = x[:3]
    text = la.explain(c)
    assert "write position [2] (compiled in as its `at`, below)" in text
    assert "steps=(1,) at=(2,)" in text and "1 write position compiled in" in text


@pytest.mark.usefixtures("lazy_graph")
def test_explain_says_which_tier_runs_the_program(backend, monkeypatch):
    la.set_tier("auto")
    y = la.asarray(numpy.ones(1033)) * 1.25
    last = la.explain(y).splitlines()[-1]
    if backend == "numpy":  # no tiers: the reference interprets everything
        assert last.endswith("interpreted instruction by instruction with NumPy (nothing is "
                             "compiled)")
        return
    assert last.startswith("  tier: the NumPy interpreter (LAZYARR_TIER=auto; run 1 of this "
                           "structure, 0 s interpreted so far), unless compiled in memory or "
                           "on disk; compiled in the background from run 2 on once the "
                           "interpreted seconds reach the compile estimate (")
    la.set_tier("interpret")
    assert la.explain(y).endswith("  tier: the NumPy interpreter (LAZYARR_TIER=interpret)")
    monkeypatch.setitem(_settings._state, "tier", "sometimes")  # LAZYARR_TIER at import
    assert la.explain(y).endswith("LAZYARR_TIER must be one of interpret, compile, auto, "
                                  "opbyop, not "
                                  "'sometimes'")


@pytest.mark.usefixtures("lazy_graph")
def test_explain_lowered_shows_the_backends_program(backend):
    y = la.asarray(numpy.ones(4)) * 2.0
    text = la.explain(y, lowered=True)
    assert f"lowered program ({backend} backend):" in text
    # (the scalar compiled in: its structure's first flush)
    assert ("stablehlo.multiply" in text) if backend == "xla" else \
        ("%2 = numpy.float64(2.0)" in text and "= numpy.multiply(%0, %2)" in text)
    assert float(y.sum()) == 8.0


@pytest.mark.usefixtures("lazy_graph")
def test_explain_of_computed_arrays_and_bad_arguments():
    x = la.asarray(numpy.ones(3))
    assert la.explain(x) == ("the array ((3,) float64) is computed: nothing is pending "
                             f"(its value is a buffer on {x.device})")
    y = x + 1
    text = la.explain(x, y)
    assert text.startswith("array 0 ((3,) float64) is computed")
    assert "=> array 1" in text
    assert repr(text) == str(text)  # shown as text at the prompt
    assert la.explain(x[1:]) == ("the array ((2,) float64) is a view of a computed buffer on "
                                 "the CPU: reading it takes NumPy's view of the buffer, "
                                 "without a program")
    with la.count_flushes() as counter:
        assert numpy.asarray(x[1:]).tolist() == [1.0, 1.0]
    assert counter.count == 0
    with pytest.raises(TypeError, match="takes one or more lazyarr arrays"):
        la.explain()
    with pytest.raises(TypeError, match="lazyarr arrays, not ndarray"):
        la.explain(numpy.ones(3))
    with pytest.raises(TypeError, match="True or False"):
        la.explain(y, lowered="yes")


def _run(args, backend, **env):
    environment = {**os.environ, "LAZYARR_BACKEND": backend, "LAZYARR_CACHE_DIR": "off",
                   "PYTHONPATH": os.pathsep.join(sys.path), **env}
    return subprocess.run([sys.executable, "-m", "lazyarr", *args], capture_output=True,
                          text=True, env=environment, timeout=300)


def test_runner_summary_and_log(tmp_path, backend, compile_tier):
    script = tmp_path / "slow.py"
    script.write_text(textwrap.dedent("""\
        import numpy as np
        x = np.asarray([0.5] * 100)
        for n in (10, 20):
            print(float(x[:n].sum()))
    """))
    done = _run(["--summary", "--log", "flush,compile", str(script)], backend)
    assert done.returncode == 0, done.stderr
    assert done.stdout == "5.0\n10.0\n"
    err = done.stderr.splitlines()
    flushes = [r for r in err if r.startswith("lazyarr: flush (control) at ")]
    assert len(flushes) == 2 and all("slow.py:4:" in r for r in flushes)
    assert "lazyarr report: 1 line of your code caused work:" in err
    row = [r for r in err if r.split()[:1] and r.split()[0].endswith("slow.py:4")]
    assert len(row) == 1 and row[0].split()[1] == "2"
    if backend == "xla":
        compiles = [r for r in err if r.startswith("lazyarr: compile at ")]
        assert len(compiles) == 2 and all("slow.py:4: 2 operations, 1 input" in r
                                          for r in compiles)
        assert compiles[1].endswith("; recompile: new attribute: slice stops=(20,) (was "
                                    "(10,)); new shape: slice gives (20,), was (10,)")
        assert "    1 x new attribute: slice stops=(20,) (was (10,)); new shape: slice gives " \
            "(20,), was (10,)" in err
    else:
        assert not any(r.startswith("lazyarr: compile") for r in err)


def test_a_bad_log_environment_variable_warns_at_import(backend):
    done = subprocess.run([sys.executable, "-c", "import lazyarr; print('ok')"],
                          capture_output=True, text=True, timeout=300,
                          env={**os.environ, "LAZYARR_LOG": "flush,everything",
                               "LAZYARR_LONG_COMPILE": "soon",
                               "PYTHONPATH": os.pathsep.join(sys.path)})
    assert done.returncode == 0 and done.stdout == "ok\n"
    assert ("RuntimeWarning: LAZYARR_LOG='flush,everything' ignored: unknown lazyarr log "
            "category 'everything': the categories are flush, compile, cut, fallback, "
            "transfer, or 'all'") in done.stderr
    assert ("RuntimeWarning: LAZYARR_LONG_COMPILE='soon' ignored: the long-compile "
            "threshold is a number of seconds or 'off'") in done.stderr
    assert _run(["--log", "nope", "-c", "pass"], backend).returncode == 2


# ----- docs/lazy-evaluation.md runs as shown ---------------------------------------------

PAGE = os.path.join(os.path.dirname(__file__), os.pardir, "docs", "lazy-evaluation.md")
_FENCE = re.compile(r"^```([\w-]*)(?: ([\w-]+))?\n(.*?)^```$", re.S | re.M)


def page_examples():
    """(code, expected output or None, the backend the output is for or None) for each
    ```python block of the page, with the ```text block right after it. Blocks tagged
    `notest` are measured by benchmarks/lazy_evaluation_snippets.py instead."""
    with open(PAGE) as f:
        text = f.read()
    fences = list(_FENCE.finditer(text))
    examples = []
    for k, fence in enumerate(fences):
        if fence.group(1) != "python" or fence.group(2) == "notest":
            continue
        expected = tag = None
        if k + 1 < len(fences):
            after = fences[k + 1]
            if after.group(1) == "text" and not text[fence.end():after.start()].strip():
                expected, tag = after.group(3), after.group(2)
        examples.append((fence.group(3), expected, tag))
    return examples


def test_the_lazy_evaluation_page_runs_as_shown(backend, monkeypatch, tmp_path, compile_tier):
    from lazyarr import _backend
    # A backend of its own, with empty program caches: the page's compiles are compiles.
    monkeypatch.setattr(_backend, "_instances", {})
    monkeypatch.chdir(tmp_path)
    examples = page_examples()
    assert len(examples) >= 5 and sum(e[1] is not None for e in examples) >= 5
    namespace = {"__name__": "example"}
    checker = doctest.OutputChecker()
    flags = doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE
    compared = 0
    with la.use_backend(backend):
        for code, expected, tag in examples:
            out = io.StringIO()
            name = re.match(r"# ([\w.]+)\n", code)
            assert name, f"a runnable example starts with its file name:\n{code}"
            with contextlib.redirect_stdout(out):
                exec(compile(code, name.group(1), "exec"), namespace)  # noqa: S102
            if expected is not None and tag in (None, backend):
                compared += 1
                assert checker.check_output(expected, out.getvalue(), flags), (
                    f"docs/lazy-evaluation.md: the example\n{code}\nprinted\n{out.getvalue()}"
                    f"\ninstead of\n{expected}")
    assert compared >= (5 if backend == "xla" else 2)


def test_the_page_documents_every_flush_cause():
    """Each cause stats() can report has a row in the page's table, and every cause the
    sources pass to the scheduler is one of them."""
    from lazyarr import _flush
    with open(PAGE) as f:
        rows = {m.group(1) for m in re.finditer(r"^\| `(\w+)` \|", f.read(), re.M)}
    assert set(_flush.CAUSES) <= rows
    src = os.path.join(os.path.dirname(la.__file__))
    used = set()
    for folder, _, files in os.walk(src):
        for name in files:
            if name.endswith(".py"):
                with open(os.path.join(folder, name)) as f:
                    source = f.read()
                used |= set(re.findall(
                    r"(?:_value|to_numpy|evaluate|_host)\([^()]*(?:\([^()]*\)[^()]*)*, "
                    r"\"(\w+)\"\)", source))
    assert used and used <= set(_flush.CAUSES), used - set(_flush.CAUSES)


def test_the_docs_link_only_inside_the_repository():
    """No link leaves the repository (or points at a missing file), every page of docs/
    is reachable from the README, and each written page links to another page."""
    docs = os.path.dirname(PAGE)
    readme = os.path.normpath(os.path.join(docs, os.pardir, "README.md"))
    pages = {os.path.normpath(os.path.join(docs, n)) for n in os.listdir(docs)
             if n.endswith(".md")}
    links = {}
    for page in pages | {readme}:
        with open(page) as f:
            text = f.read()
        assert "shared/DESIGN.md" not in text, page
        links[page] = set()
        for target in re.findall(r"\]\(([^)\s]+)\)", text):
            assert "://" not in target and not target.startswith("mailto:"), (page, target)
            path = os.path.normpath(os.path.join(os.path.dirname(page), target.split("#")[0]))
            assert os.path.exists(path), (page, target)
            links[page].add(path)
    reached, stack = set(), [readme]
    while stack:
        page = stack.pop()
        for target in links.get(page, ()):
            if target in pages and target not in reached:
                reached.add(target)
                stack.append(target)
    assert reached == pages, pages - reached
    for page in pages - {os.path.normpath(os.path.join(docs, "coverage.md"))}:  # generated
        assert links[page] & (pages - {page}), f"{page} links to no other page"


def test_the_demo_prints_what_the_readme_says(backend, compile_tier):
    """README: the demo prints its results, then its flushes by cause (most of them size
    cuts, two reads for the prints), how many programs were compiled and how many small
    operations computed at once."""
    demo = os.path.join(os.path.dirname(PAGE), os.pardir, "examples", "demo.py")
    done = subprocess.run([sys.executable, demo], capture_output=True, text=True, timeout=600,
                          env={**os.environ, "LAZYARR_BACKEND": backend,
                               "LAZYARR_CACHE_DIR": "off",
                               "PYTHONPATH": os.pathsep.join(sys.path)})
    assert done.returncode == 0, done.stderr
    last = done.stdout.splitlines()[-1]
    found = re.fullmatch(r"lazyarr: (\d+) recorded operations ran in (\d+) flushes "
                         r"\(2 read, (\d+) size\); (\d+) programs compiled, 0 loaded from "
                         r"the disk cache; (\d+) small operations computed at once", last)
    assert found, last
    operations, flushes, cuts, compiles, _eager_ops = map(int, found.groups())
    assert operations > 3000 and flushes == cuts + 2 and cuts > 10
    # On the CPU the tiers interpret the cuts first and compile the repeating one in the
    # background: how many compiles finish before the end depends on the machine.
    assert compiles == 0 if backend == "numpy" else compiles <= 6


def test_the_long_compile_warning_reaches_stderr_with_the_log_off(backend, compile_tier):
    done = subprocess.run(
        [sys.executable, "-c", "import numpy, lazyarr\n"
                               "print(float((lazyarr.asarray(numpy.ones(5)) * 2).sum()))"],
        capture_output=True, text=True, timeout=300,
        env={**os.environ, "LAZYARR_BACKEND": backend, "LAZYARR_CACHE_DIR": "off",
             "LAZYARR_LONG_COMPILE": "1e-9", "PYTHONPATH": os.pathsep.join(sys.path)})
    assert done.returncode == 0 and done.stdout == "10.0\n", done.stderr
    warned = [r for r in done.stderr.splitlines() if r.startswith("lazyarr: compiling")]
    if backend == "numpy":  # nothing is compiled
        assert warned == []
    else:
        assert len(warned) == 1 and warned[0].startswith(
            "lazyarr: compiling a program of 2 operations, 2 inputs for <string>:2 took ")
