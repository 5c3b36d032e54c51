"""Benchmark runner: `python -m benchmarks [--quick] [--only NAME] [--repeats N]`.

For each workload, each variant (numpy, lazyarr on XLA, jax-jit, jax-fori) first runs
twice in fresh subprocesses sharing a new, empty program cache (cold, then warm: whole
process time, imports and compiles included, and peak RSS; `--processes` such pairs,
the least times kept), every workload's before
any runs in this process; then all variants run in this process, interleaved, for the
steady-state median (after `--warmup` untimed calls, and `--settle` more of
lazyarr's own: its tiers compile a program once interpreting it has cost what the
compile would) and the early one (the calls right after the first). Microbenchmarks
follow. Every result is checked against NumPy's; any difference or error is reported
and makes the exit status 1. See benchmarks/README.md for what each column means.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
import traceback
from pathlib import Path

import numpy

from .workloads import WORKLOADS

VARIANTS = ("numpy", "lazyarr", "jax-jit", "jax-fori")
CHILD_TIMEOUT_S = 900
SETTLE_S = 20.0  # the most time lazyarr's settling calls take (see `_settle`)


def _to_host(result) -> tuple:
    return tuple(numpy.asarray(r) for r in (result if isinstance(result, tuple) else (result,)))


def make_runner(variant: str, workload):
    """A callable taking the host inputs and returning the results as NumPy arrays
    (inputs converted and results brought back inside it, so inside the timing),
    or None when the variant does not apply."""
    fn = workload.fn
    if variant == "numpy":
        return lambda args: _to_host(fn(numpy, *args))
    if variant == "lazyarr":
        import lazyarr
        # Selected as a user's script selects it (the environment), not by set_backend,
        # which loads the backend at once: lazyarr loads it when its tiers need it.
        os.environ["LAZYARR_BACKEND"] = "xla"
        return lambda args: _to_host(fn(lazyarr, *[
            lazyarr.asarray(a) if isinstance(a, numpy.ndarray) else a for a in args]))
    import jax
    import jax.numpy as jnp
    from . import jax_versions
    table = jax_versions.JIT if variant == "jax-jit" else jax_versions.FORI
    jax_fn = table.get(workload.name)
    if jax_fn is None:
        return None

    def run(args):
        with jax.enable_x64(True):
            return _to_host(jax_fn(*[
                jnp.asarray(a) if isinstance(a, numpy.ndarray) else a for a in args]))
    return run


def _peak_rss_mib() -> float:
    """This process's peak resident set size, in MiB. On Linux, VmHWM: ru_maxrss is kept
    across execve, so a child forked from this (large) runner would report the runner's
    size; VmHWM belongs to the child's own address space. Elsewhere ru_maxrss."""
    try:
        with open("/proc/self/status") as status:
            for line in status:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1]) / 1024  # kB
    except OSError:
        pass
    maxrss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return maxrss / 2**20 if sys.platform == "darwin" else maxrss / 1024  # bytes / KiB


# --float32 (passed to the fresh processes in the environment): every float64 input
# array made float32, for an accelerator whose float64 is not native (a TPU's is
# emulated, and lazyarr runs float64 programs on the host there); outputs are then
# compared at float32's accuracy.
FLOAT32 = "LAZYARR_BENCH_FLOAT32"
FLOAT32_RTOL = 1e-3


def inputs(workload, quick: bool) -> tuple:
    args = workload.inputs(quick)
    if os.environ.get(FLOAT32) != "1":
        return args
    return tuple(a.astype(numpy.float32) if isinstance(a, numpy.ndarray)
                 and a.dtype == numpy.float64 else a for a in args)


def child(name: str, variant: str, quick: bool) -> None:
    """Fresh-process run: print {first, peak, base, setup} as JSON (or {error}, or {na}).
    `setup` is the time spent making the inputs, which the parent takes out of the
    whole-process time."""
    start = time.perf_counter()
    workload = WORKLOADS[name]
    args = inputs(workload, quick)
    setup = time.perf_counter() - start
    try:
        run = make_runner(variant, workload)  # imports and backend start-up
        if run is None:
            print(json.dumps({"na": True}))
            return
        base = _peak_rss_mib()
        start = time.perf_counter()
        run(args)
        first = time.perf_counter() - start
        print(json.dumps({"first": first, "peak": _peak_rss_mib(), "base": base,
                          "setup": setup}))
    except Exception as exc:  # reported by the parent, in the table
        print(json.dumps({"error": f"{type(exc).__name__}: {exc}"}))


def compile_bytecode() -> None:
    """Write the byte code of lazyarr, its backends and these benchmarks, as `pip
    install` does at install time, so that a fresh process reads it instead of compiling
    the sources. Without it, an editable install under PYTHONDONTWRITEBYTECODE=1 (set on
    the machine these figures come from) compiles about 100 modules at each start-up,
    which measured 0.10 s of lazyarr's 0.19 s `import lazyarr`: a cost no installed
    user pays. NumPy and jax, installed from wheels, already have theirs."""
    import compileall
    import importlib.util
    for name in ("lazyarr", "lazyarr_xla", "benchmarks"):
        spec = importlib.util.find_spec(name)
        for folder in (spec.submodule_search_locations or []) if spec else []:
            compileall.compile_dir(folder, quiet=2)


def whole_process(name: str, variant: str, quick: bool, cache_dir: str) -> dict:
    """One fresh process running the workload once, lazyarr's program cache in
    `cache_dir`: its figures, with `whole` the process's wall time (interpreter start,
    imports, compiles, the run and exit) less the time spent making the inputs."""
    cmd = [sys.executable, "-m", "benchmarks", "--child", name, variant] + ["--quick"] * quick
    env = dict(os.environ, LAZYARR_CACHE_DIR=cache_dir)
    start = time.perf_counter()
    try:
        proc = subprocess.run(cmd, capture_output=True, text=True, timeout=CHILD_TIMEOUT_S,
                              cwd=Path(__file__).resolve().parent.parent, env=env)
    except subprocess.TimeoutExpired:
        return {"error": f"timeout: first call over {CHILD_TIMEOUT_S} s"}
    wall = time.perf_counter() - start
    lines = proc.stdout.strip().splitlines()
    if proc.returncode or not lines:
        return {"error": f"child exited {proc.returncode}: {proc.stderr.strip()[-500:]}"}
    row = json.loads(lines[-1])
    if "setup" in row:
        row["whole"] = wall - row.pop("setup")
    return row


def fastest(rows: list[dict]) -> dict:
    """The figures of several `first_call`s of one variant: the least cold, warm and
    first-call times (a fresh process's time varies with the machine: NumPy's own cold
    norm took 0.14 to 1.03 s in six processes here, from first-touch page faults), the
    greatest peak; an error or a variant that does not apply as it is."""
    for row in rows:
        if "error" in row or row.get("na"):
            return row
    peak = max(rows, key=lambda r: r["peak"])
    return {"first": min(r["first"] for r in rows), "peak": peak["peak"],
            "base": peak["base"], "cold": min(r["cold"] for r in rows),
            "warm": min(r["warm"] for r in rows),
            "warm_first": min(r["warm_first"] for r in rows)}


def first_call(name: str, variant: str, quick: bool) -> dict:
    """Cold then warm: two fresh processes sharing a new, empty program cache, after an
    untimed one of the same variant with a cache of its own. The machine's state is
    then the variant's own for both: a process started just after another's large one
    exited paid for it (NumPy's cold norm, just after a jax-jit process: 0.78-0.85 s;
    just after its own: 0.15 s; 0.30-0.39 s either way with NUMPY_MADVISE_HUGEPAGE=0,
    so the huge pages NumPy asks for are what the kernel had to make again)."""
    with tempfile.TemporaryDirectory(prefix="lazyarr-bench-") as primer_dir:
        whole_process(name, variant, quick, primer_dir)
    with tempfile.TemporaryDirectory(prefix="lazyarr-bench-") as cache_dir:
        cold = whole_process(name, variant, quick, cache_dir)
        if "error" in cold or cold.get("na"):
            return cold
        warm = whole_process(name, variant, quick, cache_dir)
    if "error" in warm:
        return {"error": "warm run: " + warm["error"]}
    return {"first": cold["first"], "peak": cold["peak"], "base": cold["base"],
            "cold": cold["whole"], "warm": warm["whole"], "warm_first": warm["first"]}


def check(workload, expected: tuple, actual: tuple) -> None:
    """assert_allclose on every output; atol scaled to the output's magnitude so that
    entries that cancel to near zero are held to the same absolute accuracy."""
    if expected is None:
        raise RuntimeError("no NumPy result to check against")
    assert len(expected) == len(actual), f"{len(actual)} outputs, expected {len(expected)}"
    rtol = max(workload.rtol, FLOAT32_RTOL) if os.environ.get(FLOAT32) == "1" else workload.rtol
    for e, a in zip(expected, actual):
        scale = float(numpy.max(numpy.abs(e))) if e.size else 0.0
        numpy.testing.assert_allclose(a, e, rtol=rtol, atol=rtol * scale)


def bench(name: str, quick: bool, repeats: int, failures: list, rows: dict,
          warmup: int = 1, settle: int = 0) -> dict:
    """Figures for one workload: {variant: {first, peak, base, steady, early} | {error} |
    {na}}, given each variant's fresh-process `rows` (`first_call`): steady, the median
    of the last `repeats` of `warmup + repeats` in-process calls, lazyarr's after
    `settle` more untimed calls of its own (at most `SETTLE_S` seconds of them) before
    them; early, the median of the `repeats` calls after the first."""
    workload = WORKLOADS[name]
    runners = {}
    for v, row in rows.items():
        if "error" in row:
            failures.append(f"{name} / {v}, first call in a fresh process: {row['error']}")
        elif not row.get("na"):
            runners[v] = make_runner(v, workload)
    args = inputs(workload, quick)
    expected = None
    times = {v: [] for v in runners}
    for rep in range(max(warmup, 1) + repeats):  # round 0 compiles: never counted
        if rep == max(warmup, 1) and "lazyarr" in runners:
            _settle(runners["lazyarr"], args, settle)
        for v in list(runners):
            try:
                start = time.perf_counter()
                result = runners[v](args)
                elapsed = time.perf_counter() - start
                if v == "numpy":
                    expected = result
                else:
                    check(workload, expected, result)
            except Exception as exc:
                wrong = isinstance(exc, AssertionError)
                rows[v]["error"] = "WRONG" if wrong else type(exc).__name__
                detail = str(exc).strip() if wrong else traceback.format_exc(limit=-3)
                failures.append(f"{name} / {v}, in-process run {rep}: {detail}")
                del runners[v]
                continue
            if rep:
                times[v].append(elapsed)
    for v in runners:
        if times[v]:
            rows[v]["steady"] = statistics.median(times[v][-repeats:])
            rows[v]["early"] = statistics.median(times[v][:repeats])
    return rows


def _settle(run, args, calls: int) -> None:
    """lazyarr's untimed calls before its steady ones: its tiers compile a program once
    its interpreted runs have paid for the compile, and for importing jax first (in one
    process, convolve's program ran compiled from its 17th call; black_scholes' from
    its 10th to 15th)."""
    start = time.perf_counter()
    for _ in range(calls):
        if time.perf_counter() - start > SETTLE_S:
            break
        run(args)


def _fmt_time(s):
    return f"{s * 1e3:.3g} ms" if s < 1 else f"{s:.3g} s"


def _cell(row: dict, key: str) -> str:
    if key in row:
        if key == "peak":
            return f"{row['peak']:.0f} (+{row['peak'] - row['base']:.0f})"
        return _fmt_time(row[key])
    if "error" in row:
        return "WRONG" if row["error"] == "WRONG" else "error"
    return "—"


def _ratio(rows, key: str, variant: str, over: str = "numpy", over_key: str = "") -> str:
    """`over`'s time for `over_key` (by default `key`) / `variant`'s time for `key`:
    above 1, `variant` is faster."""
    a, b = rows[over].get(over_key or key), rows[variant].get(key)
    return f"{a / b:.2f}" if a and b else "—"


SHORT = dict(zip(VARIANTS, ("np", "lz", "jit", "fori")))


def table(results: dict) -> str:
    """Two markdown tables: the times and peak memory, then the ratios to NumPy."""
    head = (["workload"] + [f"{k} {SHORT[v]}" for k in ("cold", "warm", "steady")
                            for v in VARIANTS] + ["early lz"]
            + [f"peak MiB {SHORT[v]}" for v in VARIANTS])
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for name, rows in results.items():
        cells = ([name] + [_cell(rows[v], k) for k in ("cold", "warm", "steady")
                           for v in VARIANTS] + [_cell(rows["lazyarr"], "early")]
                 + [_cell(rows[v], "peak") for v in VARIANTS])
        lines.append("| " + " | ".join(cells) + " |")
    head = (["workload"] + [f"{k} np/{SHORT[v]}" for k in ("cold", "warm", "steady")
                            for v in VARIANTS[1:]] + ["steady jit/lz", "early jit/lz"])
    lines += ["", "| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for name, rows in results.items():
        cells = ([name] + [_ratio(rows, k, v) for k in ("cold", "warm", "steady")
                           for v in VARIANTS[1:]]
                 + [_ratio(rows, "steady", "lazyarr", "jax-jit"), _ratio(rows, "early", "lazyarr", "jax-jit", "steady")])
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks",
                                     description=__doc__.split("\n")[0])
    parser.add_argument("--quick", action="store_true", help="small sizes, 1 repeat (smoke run)")
    parser.add_argument("--only", metavar="NAME", action="append", choices=list(WORKLOADS),
                        help="run only this workload (repeatable)")
    parser.add_argument("--repeats", type=int, default=None,
                        help="timed in-process repeats per variant (default 5, 1 with --quick)")
    parser.add_argument("--warmup", type=int, default=None,
                        help="untimed in-process calls per variant before the timed "
                             "ones (default 5, 1 with --quick)")
    parser.add_argument("--settle", type=int, default=None,
                        help="lazyarr's own untimed calls after the warm-up ones, before "
                             "its steady ones (default 15, 0 with --quick; at most "
                             f"{SETTLE_S:.0f} s of them)")
    parser.add_argument("--processes", type=int, default=None,
                        help="cold and warm process pairs per variant, the least time "
                             "kept (default 3, 1 with --quick)")
    parser.add_argument("--float32", action="store_true",
                        help="float64 inputs made float32 (accelerators: a TPU's float64 "
                             "runs on the host), results compared at rtol 1e-3")
    parser.add_argument("--no-micro", action="store_true",
                        help="skip the per-operation, per-flush and per-read microbenchmarks")
    parser.add_argument("--child", nargs=2, metavar=("NAME", "VARIANT"), help=argparse.SUPPRESS)
    opts = parser.parse_args(argv)
    if opts.child:
        child(*opts.child, opts.quick)
        return 0
    repeats = opts.repeats or (1 if opts.quick else 5)
    warmup = opts.warmup or (1 if opts.quick else 5)
    settle = opts.settle if opts.settle is not None else (0 if opts.quick else 15)
    if opts.float32:
        os.environ[FLOAT32] = "1"  # (the fresh processes inherit it)
    compile_bytecode()
    failures: list[str] = []
    names = opts.only or list(WORKLOADS)
    # Every fresh process runs before this one loads jax: on a machine of one
    # accelerator (a TPU chip) only one process at a time may hold it.
    first = {}
    pairs = opts.processes or (1 if opts.quick else 3)
    for name in names:
        print(f"running {name} in fresh processes ...", file=sys.stderr, flush=True)
        rows: dict = {v: [] for v in VARIANTS}
        for _ in range(pairs):  # (each pair after a primer of its own: `first_call`)
            for v in VARIANTS:
                rows[v].append(first_call(name, v, opts.quick))
        first[name] = {v: fastest(runs) for v, runs in rows.items()}
    results = {}
    for name in names:
        print(f"running {name} in this process ...", file=sys.stderr, flush=True)
        results[name] = bench(name, opts.quick, repeats, failures, first[name], warmup,
                              settle)
        # each row as it is done (stderr): a run stopped at a time limit keeps its rows
        print(table({name: results[name]}), file=sys.stderr, flush=True)
    print(table(results))
    if not opts.no_micro:
        from . import micro
        print("running microbenchmarks ...", file=sys.stderr, flush=True)
        print("\n" + micro.table(micro.run(opts.quick)))
    if failures:
        print("\nFAILURES:", file=sys.stderr)
        for f in failures:
            print(" - " + f, file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
