"""Scaling table: the fusion workloads on 1, 2, 4 ... devices of one mesh.

    python -m benchmarks.scaling [--quick] [--devices 1,2,4] [--only NAME] [--repeats N]
    python -m benchmarks.scaling --platform gpu --devices 1,2,4,8      # a real machine

Each device count runs in its own process (`lazyarr.set_backend("xla", devices=n)`).
On the CPU the devices are simulated (XLA_FLAGS=--xla_force_host_platform_device_count,
set in the child before jax starts): they share this machine's cores, so the table
checks the overhead of partitioning and that the results stay NumPy's, not speed-up.
On a GPU or TPU machine the same command (with --platform) measures real scaling.

Columns: steady-state median per call (compiles excluded: one warm-up call first), its
ratio to 1 device, programs compiled, the bytes XLA's collectives move per call (from
the partitioned HLO of every program run, per device; `lazyarr.stats()` reports the
same as "collective_bytes") and the largest relative difference from NumPy. Arrays of
at least LAZYARR_SHARD_MIN_BYTES (here 64 KiB unless set) are split.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time

import numpy

FUSION = ("norm", "black_scholes", "relax", "diffusion", "shallow_water", "mlp",
          "monte_carlo_pi", "nbody", "masking")
CHILD_TIMEOUT_S = 900


def _host(result) -> tuple:
    return tuple(numpy.asarray(r) for r in (result if isinstance(result, tuple) else (result,)))


def _rel_error(got: tuple, want: tuple) -> float:
    worst = 0.0
    for g, w in zip(got, want):
        g, w = numpy.asarray(g, numpy.float64), numpy.asarray(w, numpy.float64)
        scale = numpy.maximum(numpy.abs(w), numpy.finfo(numpy.float64).tiny)
        worst = max(worst, float(numpy.max(numpy.abs(g - w) / scale, initial=0.0)))
    return worst


def child(devices: int, platform: str, names: list[str], quick: bool, repeats: int) -> list:
    import lazyarr
    from benchmarks.workloads import WORKLOADS
    lazyarr.set_backend("xla", device=platform, devices=devices)
    rows = []
    for name in names:
        workload = WORKLOADS[name]
        inputs = workload.inputs(quick)
        want = _host(workload.fn(numpy, *inputs))

        def call():
            return _host(workload.fn(lazyarr, *[lazyarr.asarray(x) if isinstance(x, numpy.ndarray)
                                                else x for x in inputs]))
        lazyarr.reset_stats()
        got = call()  # warm-up: compiles
        compiles = lazyarr.stats()["compiles"]
        times = []
        lazyarr.reset_stats()
        for _ in range(repeats):
            start = time.perf_counter()
            call()
            times.append(time.perf_counter() - start)
        moved = lazyarr.stats().get("collective_bytes", 0) // repeats
        rows.append({"name": name, "devices": devices, "seconds": statistics.median(times),
                     "compiles": compiles, "collective_bytes": moved,
                     "rel_error": _rel_error(got, want), "rtol": workload.rtol})
    return rows


def _run_child(devices: int, most: int, args) -> list:
    env = dict(os.environ)
    if args.platform == "cpu":
        env["XLA_FLAGS"] = (env.get("XLA_FLAGS", "") +
                            f" --xla_force_host_platform_device_count={most}").strip()
    env.setdefault("LAZYARR_SHARD_MIN_BYTES", str(64 << 10))
    env.setdefault("LAZYARR_TIER", "compile")
    command = [sys.executable, "-m", "benchmarks.scaling", "--child", str(devices),
               "--platform", args.platform, "--repeats", str(args.repeats),
               "--only", ",".join(args.names)] + (["--quick"] if args.quick else [])
    done = subprocess.run(command, env=env, capture_output=True, text=True,
                          timeout=CHILD_TIMEOUT_S)
    if done.returncode != 0:
        raise SystemExit(f"the {devices}-device run failed:\n{done.stderr[-4000:]}")
    return json.loads(done.stdout.strip().splitlines()[-1])


def _size(n: int) -> str:
    for unit in ("B", "KiB", "MiB", "GiB"):
        if n < 1024 or unit == "GiB":
            return f"{n:.0f} {unit}" if unit == "B" else f"{n:.1f} {unit}"
        n /= 1024


def table(rows: list) -> str:
    base = {r["name"]: r["seconds"] for r in rows if r["devices"] == min(x["devices"] for x in rows)}
    lines = ["| workload | devices | ms per call | vs 1 device | compiles | moved per call "
             "| max rel. error vs NumPy |", "|---|---:|---:|---:|---:|---:|---:|"]
    for r in rows:
        lines.append(f"| {r['name']} | {r['devices']} | {r['seconds'] * 1e3:.2f} | "
                     f"{r['seconds'] / base[r['name']]:.2f}x | {r['compiles']} | "
                     f"{_size(r['collective_bytes'])} | {r['rel_error']:.1e} |")
    return "\n".join(lines)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--devices", default="1,2,4")
    parser.add_argument("--platform", default="cpu")
    parser.add_argument("--only", default=",".join(FUSION))
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--child", type=int)
    args = parser.parse_args(argv)
    args.names = [n for n in args.only.split(",") if n]
    if args.child is not None:
        print(json.dumps(child(args.child, args.platform, args.names, args.quick,
                               args.repeats)))
        return 0
    counts = [int(c) for c in args.devices.split(",")]
    rows = []
    for n in counts:
        rows.extend(_run_child(n, max(counts), args))
    rows.sort(key=lambda r: (args.names.index(r["name"]), r["devices"]))
    print(table(rows))
    bad = [r for r in rows if r["rel_error"] > max(r["rtol"], 1e-12)]
    for r in bad:
        print(f"DIFFERS from NumPy: {r['name']} on {r['devices']} devices: "
              f"{r['rel_error']:.2e} > rtol {r['rtol']}")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
