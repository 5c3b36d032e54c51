"""What lazyarr's per-line counters and event log cost: `python -m
benchmarks.observe_overhead [--repeats N] [-n CALLS]`.

Times, per call: recording one operation on a small computed array, and a small cached
flush (record two operations, flush, read the scalar back) on the numpy and the xla
backend. Three variants, alternating within each process: "no hooks" replaces the
scheduler's observability hooks (`_observe.flushed`, `transferred`, `fell_back`) by
functions that do nothing, which is the code before per-line statistics; "log off" is
lazyarr as shipped with no log category on (only the counters); "log all" turns every
category on, written to a handler that drops the records (what LAZYARR_LOG=all costs,
minus the terminal). Each figure is the best of the rounds in a process, then the
median over the processes.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

CHILD = r"""
import json, logging, sys, time
import numpy
import lazyarr as la
from lazyarr import _observe

HOOKS = ("flushed", "transferred", "fell_back")
real = {name: getattr(_observe, name) for name in HOOKS}
logging.getLogger("lazyarr").addHandler(logging.NullHandler())
logging.getLogger().addHandler(logging.NullHandler())  # lazyarr's stderr handler stays quiet

def variant(name):
    for hook in HOOKS:
        setattr(_observe, hook, real[hook] if name != "no hooks" else lambda *a, **k: None)
    la.set_log("all" if name == "log all" else None)

n, rounds = int(sys.argv[1]), int(sys.argv[2])
x = la.asarray(numpy.arange(10.0))
cases = {"op": (lambda: x + 1.0, n)}
for backend in ("numpy", "xla"):
    def flush(backend=backend):
        with la.use_backend(backend):
            float((x * 0.5 + 1.0).sum())
    cases[f"flush {backend}"] = (flush, n // 4)
names = ("no hooks", "log off", "log all")
best = {(v, c): float("inf") for v in names for c in cases}
for _ in range(rounds):  # the variants alternate, so machine noise hits each alike
    for case, (fn, count) in cases.items():
        for v in names:
            variant(v)
            fn(); fn()
            start = time.perf_counter()
            for _ in range(count):
                fn()
            best[v, case] = min(best[v, case], (time.perf_counter() - start) / count * 1e6)
print(json.dumps({v: {c: best[v, c] for c in cases} for v in names}))
"""


def _measure(n: int, rounds: int) -> dict:
    path = os.pathsep.join(str(ROOT / p) for p in ("src", "backends/xla/src"))
    env = {**os.environ, "PYTHONPATH": path, "LAZYARR_CACHE_DIR": "off",
           "LAZYARR_LOG": "", "JAX_PLATFORMS": os.environ.get("JAX_PLATFORMS", "cpu")}
    done = subprocess.run([sys.executable, "-c", CHILD, str(n), str(rounds)],
                          capture_output=True, text=True, env=env, check=True, timeout=900)
    return json.loads(done.stdout.strip().splitlines()[-1])


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=3, help="fresh processes")
    parser.add_argument("--rounds", type=int, default=7, help="alternations per process")
    parser.add_argument("-n", type=int, default=2000, help="operations per timing")
    args = parser.parse_args(argv)
    runs = [_measure(args.n, args.rounds) for _ in range(args.repeats)]
    variants, columns = list(runs[0]), list(runs[0]["log off"])
    print("| variant | " + " | ".join(f"{c} (µs)" for c in columns) + " |")
    print("|---|" + "---|" * len(columns))
    for name in variants:
        cells = [f"{statistics.median(r[name][c] for r in runs):.1f}" for c in columns]
        print(f"| {name} | " + " | ".join(cells) + " |")
    print(f"\nmedian over {args.repeats} processes of the best of {args.rounds} alternating "
          f"timings of {args.n} (op) or {args.n // 4} (flush) calls", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
