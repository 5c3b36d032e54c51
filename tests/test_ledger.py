"""The tiers' ledger (lazyarr._ledger): verdicts on programs kept across processes where
the core reads them without loading the compiling backend, and what the auto tier does
with them."""

import json
import os
import subprocess
import sys
import textwrap

import numpy
import pytest

import lazyarr as la
from lazyarr import _flush, _ledger, _tiers
from lazyarr._graph import topological_order
from lazyarr._tiers import Policy, State


@pytest.fixture
def ledger(tmp_path, monkeypatch, lazy_graph):
    """An empty cache directory, and folders of "code" whose files date the verdicts;
    operations recorded (`lazy_graph`), so that `_program` makes a program under every
    tier (the eager path computes its 8 elements at once: an empty program)."""
    monkeypatch.setenv("LAZYARR_CACHE_DIR", str(tmp_path / "cache"))
    code = tmp_path / "code"
    code.mkdir()
    (code / "lowering.py").write_text("x = 1\n")
    _ledger.forget()
    yield lambda: [str(code)]
    _ledger.forget()


def _program(n=8, factor=2.0, start=0.0):
    x = la.asarray(numpy.arange(start, start + n))
    y = x * factor + 1.0  # (one line: the program's last user line)
    program, _ = _flush.linearize(topological_order([y._node]), [y._node])
    return program


def test_verdicts_outlive_the_process_that_found_them(ledger):
    one, other = _program(8), _program(9)
    assert _ledger.verdict(one, "xla:cpu", ledger) is None
    _ledger.record(one, "xla:cpu", ledger, _ledger.SLOWER)
    _ledger.forget()  # as a new process: read from the file
    assert _ledger.verdict(one, "xla:cpu", ledger) == _ledger.SLOWER
    assert _ledger.verdict(_program(8, start=5.0), "xla:cpu", ledger) == _ledger.SLOWER  # data
    # a scalar that changed: a runtime input from then on (another program, compiled in
    # no more), the same structure and verdict
    changed = _program(8, 3.0)
    assert changed.key != one.key
    assert _ledger.verdict(changed, "xla:cpu", ledger) == _ledger.SLOWER
    assert _ledger.verdict(other, "xla:cpu", ledger) is None  # another shape
    assert _ledger.verdict(one, "xla:gpu", ledger) is None    # another platform
    _ledger.record(one, "xla:cpu", ledger, _ledger.FASTER)
    _ledger.forget()
    assert _ledger.verdict(one, "xla:cpu", ledger) == _ledger.FASTER


def test_the_code_is_dated_only_where_a_page_needs_it(ledger, tmp_path):
    """Without a page of the label in the file (a first process), a verdict is looked up
    without finding the backend's folders or stating their files, and the json module
    is not imported for a file that is not there; a verdict recorded then is dated."""
    asked = []

    def folders():
        asked.append(1)
        return ledger()
    program = _program()
    code = ("import sys; from lazyarr import _ledger; _ledger._read(sys.argv[1]); "
            "print('json' in sys.modules)")
    done = subprocess.run([sys.executable, "-c", code, str(tmp_path / "none.json")],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "False"
    assert _ledger.verdict(program, "xla:cpu", folders) is None
    assert asked == []
    _ledger.record(program, "xla:cpu", folders, _ledger.FASTER)
    assert asked == [1]
    _ledger.forget()
    assert _ledger.verdict(program, "xla:cpu", folders) == _ledger.FASTER
    assert asked == [1, 1]  # (the file has the page: dated to compare)
    assert _ledger.verdict(program, "xla:gpu", folders) is None  # no page of that label
    assert asked == [1, 1]


def test_a_changed_source_file_drops_the_verdicts(ledger):
    program = _program()
    _ledger.record(program, "xla:cpu", ledger, _ledger.FASTER)
    (open(os.path.join(ledger()[0], "lowering.py"), "a")).write("y = 2\n")
    _ledger.forget()
    assert _ledger.verdict(program, "xla:cpu", ledger) is None


def test_programs_unlike_every_entry_are_told_apart_in_constant_time(ledger, monkeypatch):
    """Only a program of an entry's length and last line is fingerprinted: a loop of
    ever-new programs (gauss's shrinking slices) pays one set lookup a flush."""
    _ledger.record(_program(8), "xla:cpu", ledger, _ledger.FASTER)
    _ledger.forget()

    def refuse(program):
        raise AssertionError("fingerprinted a program no entry is like")
    monkeypatch.setattr(_ledger, "fingerprint", refuse)
    x = la.asarray(numpy.arange(8.0))
    y = x * 2.0 - 1.0 + x
    longer, _ = _flush.linearize(topological_order([y._node]), [y._node])
    assert _ledger.verdict(longer, "xla:cpu", ledger) is None


def test_the_ledger_is_off_with_the_cache_and_never_fails_to_write(ledger, monkeypatch,
                                                                   tmp_path):
    program = _program()
    monkeypatch.setenv("LAZYARR_CACHE_DIR", "off")
    _ledger.record(program, "xla:cpu", ledger, _ledger.SLOWER)  # this process only
    assert _ledger.verdict(program, "xla:cpu", ledger) == _ledger.SLOWER
    assert not (tmp_path / "cache").exists()
    _ledger.forget()
    blocked = tmp_path / "file"
    blocked.write_text("")
    monkeypatch.setenv("LAZYARR_CACHE_DIR", str(blocked / "below"))  # cannot be made
    _ledger.record(program, "xla:cpu", ledger, _ledger.SLOWER)
    assert _ledger.verdict(program, "xla:cpu", ledger) == _ledger.SLOWER


def test_a_damaged_or_foreign_file_is_an_empty_ledger(ledger, tmp_path):
    program = _program()
    path = tmp_path / "cache" / _ledger.FILE
    _ledger.record(program, "xla:cpu", ledger, _ledger.FASTER)
    stamp = json.loads(path.read_text())["xla:cpu"]["stamp"]
    for text in ("{not json", "[1, 2]", json.dumps({"xla:cpu": {"stamp": 1, "entries": 3}}),
                 json.dumps({"xla:cpu": {"stamp": stamp, "entries": [3]}}),
                 json.dumps({"xla:cpu": {"stamp": stamp, "entries": {
                     _ledger.fingerprint(program): "nonsense"}}})):
        path.write_text(text)
        _ledger.forget()
        assert _ledger.verdict(program, "xla:cpu", ledger) is None
        _ledger.record(program, "xla:cpu", ledger, _ledger.SLOWER)  # written over it
        _ledger.forget()
        assert _ledger.verdict(program, "xla:cpu", ledger) == _ledger.SLOWER
    with pytest.raises(ValueError):
        _ledger.record(program, "xla:cpu", ledger, "nonsense")


def test_the_ledger_keeps_the_latest_entries(ledger, monkeypatch):
    monkeypatch.setattr(_ledger, "MAX_ENTRIES", 3)
    programs = [_program(n) for n in range(4, 9)]
    for program in programs:
        _ledger.record(program, "xla:cpu", ledger, _ledger.COMPILED)
    _ledger.forget()
    kept = [_ledger.verdict(p, "xla:cpu", ledger) for p in programs]
    assert kept == [None, None] + [_ledger.COMPILED] * 3


def test_the_policys_verdict_on_a_compiled_program():
    assert Policy.verdict(State(slower=True, compiled_times=[1.0] * 3)) == _ledger.SLOWER
    assert Policy.verdict(State(compiled_times=[0.1])) == _ledger.COMPILED
    assert Policy.verdict(State(compiled_times=[0.1] * _tiers.TRIALS)) == _ledger.FASTER


@pytest.mark.parametrize("found", ["faster", "slower"])
def test_the_next_process_loads_the_backend_as_the_ledger_says(backend, tmp_path, found):
    """A process that compiled a program and judged it keeps the verdict; the next one
    (the same script) loads the compiling backend at the first flush of a program found
    faster, without renting the interpreter first, and never for one found slower, even
    where its runs would pay for the load."""
    if backend != "xla":
        pytest.skip("its subprocesses select the default backend (XLA) themselves, and the "
                    "ledger serves only a compiling backend not loaded yet: under this "
                    "backend parameter the same scripts would run again")
    script = textwrap.dedent(f"""
        import sys, numpy, lazyarr
        from lazyarr import _tiers
        a = lazyarr.asarray(numpy.arange(400.0).reshape(20, 20))

        def step(k):
            return float((a * k).sum())

        if sys.argv[1] == "first":
            _tiers.compile_estimate = lambda program: 0.0  # a free compile
            _tiers.load_seconds = lambda: 0.0  # and a free load
            _tiers.Policy.verdict = staticmethod(lambda state: {found!r})
            for k in range(40):
                step(k)
            for thread in list(_tiers._loading.values()):
                thread.join()
            step(1)
            _tiers.wait()
            for k in range(_tiers.TRIALS + 1):
                step(k)
            print(lazyarr.stats()["compiled_runs"] > 0)
        else:
            if {found!r} == "slower":
                _tiers.compile_estimate = lambda program: 0.0
                _tiers.load_seconds = lambda: 0.0  # and a free load
            step(1)
            at_once = bool(_tiers._loading)
            for k in range(40):
                step(k)
            print(at_once, "jax" in sys.modules or bool(_tiers._loading))
    """)
    env = {**os.environ, "LAZYARR_TIER": "auto", "LAZYARR_CACHE_DIR": str(tmp_path),
           "LAZYARR_EAGER": "0", "JAX_PLATFORMS": "cpu"}
    env.pop("LAZYARR_BACKEND", None)
    runs = [subprocess.run([sys.executable, "-c", script, which], capture_output=True,
                           text=True, env=env, timeout=300) for which in ("first", "next")]
    for done in runs:
        assert done.returncode == 0, done.stderr
    assert runs[0].stdout.split() == ["True"]
    expected = ["True", "True"] if found == "faster" else ["False", "False"]
    assert runs[1].stdout.split() == expected, runs[1].stdout


def test_files_that_outlive_a_process_are_written_whole_in_a_private_folder(tmp_path,
                                                                           monkeypatch):
    """`backend_api.write_atomically` (the ledger's file, the XLA cache's entries and
    notes) and `cache_directory` (where they live)."""
    from lazyarr.backend_api import cache_directory, write_atomically
    monkeypatch.setenv("LAZYARR_CACHE_DIR", str(tmp_path / "new" / "cache"))
    root = cache_directory()
    path = os.path.join(root, "entry")
    write_atomically(path, b"first")
    write_atomically(path, b"second")
    assert open(path, "rb").read() == b"second" and os.listdir(root) == ["entry"]
    assert os.stat(root).st_mode & 0o777 == 0o700 & ~_umask()
    blocked = tmp_path / "file"
    blocked.write_text("")
    with pytest.raises(OSError):
        write_atomically(str(blocked / "below" / "entry"), b"x")
    for off in ("off", "None", "0"):
        monkeypatch.setenv("LAZYARR_CACHE_DIR", off)
        assert cache_directory() is None
    monkeypatch.delenv("LAZYARR_CACHE_DIR")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    assert cache_directory() == os.path.join(str(tmp_path / "xdg"), "lazyarr")


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask
