"""Microbenchmarks of lazyarr's own overheads (issue 10, part 5), each beside NumPy's
time for the same thing, in microseconds per operation:

- **build**: `x + x` on a small computed array (10 float64), recording the node only
  (eager execution switched off: `lazyarr.use_eager(False)`); and per operation of a
  chain `y = y * 0.99 + 0.001` from it (pending operands and Python scalars, as a
  loop body records them);
- **eager**: the same `x + x` computed at once (lazyarr._eager, the default on the CPU),
  on the array above and on an eager result (whose node says it may be taken at once);
- **eager step**: one step of the small_loop workload, `x = x + 1e-4 * (cos(x) - x)`
  (four operations), on 10 elements;
- **flush**: `lazyarr.eval(x + 1.0)` of a program seen before (run where the tiers put
  it: on the CPU, the NumPy interpreter), and lazyarr's own part of it: the flush less
  the node's build and less the backend's run, as the backend times it
  (`Events.run_seconds`), so the tiers' choice counts as lazyarr's; eager execution off;
- **read**: `float(y[i])` of every element of a computed array (1,000 float64);
- **iterate**, **tolist**, **contains**: `for v in y`, `y.tolist()`, `0.5 in y`;
- **write**: `out[i] = 0.5` at 1,000 places of a computed array of 1e5 float64 (a loop
  filling a preallocated result).
"""

from __future__ import annotations

import time

import numpy


def _best_batch(fn, count: int, total=lambda: 0.0) -> tuple[float, float]:
    """Microseconds per call of `fn` in the best of 15 batches of `count / 5` calls (the
    minimum of many short batches: the machine may be shared), and per call of the
    running total of seconds that `total()` reads, over that batch."""
    best = (float("inf"), 0.0)
    count = max(1, count // 5)
    for _ in range(15):
        before = total()
        start = time.perf_counter()
        for _ in range(count):
            fn()
        wall = time.perf_counter() - start
        if wall < best[0]:
            best = (wall, total() - before)
    return best[0] / count * 1e6, best[1] / count * 1e6


def _per_call(fn, count: int) -> float:
    return _best_batch(fn, count)[0]


def run(quick: bool) -> list[tuple[str, float, float]]:
    """(name, lazyarr µs, numpy µs) per microbenchmark, on lazyarr's XLA backend."""
    import lazyarr
    from lazyarr import _flush
    lazyarr.set_backend("xla")
    count = 300 if quick else 3000
    host = numpy.linspace(0.0, 1.0, 10)
    with lazyarr.use_eager(False):  # operations recorded, not computed at once
        x = lazyarr.eval(lazyarr.asarray(host) * 1.0)  # a computed array, the backend's buffer
        rows = [("build: x + x (10 elements)", _per_call(lambda: x + x, count),
                 _per_call(lambda: host + host, count))]

        def chain(a):  # 50 operations on pending arrays and Python scalars: no cut
            for _ in range(25):
                a = a * 0.99 + 0.001
            return a
        rows.append(("build in a chain: y = y * 0.99 + 0.001, per operation",
                     _per_call(lambda: chain(x), count // 10) / 50,
                     _per_call(lambda: chain(host), count // 10) / 50))
    # (x above may be the backend's buffer, as from a disk-cache hit: eager execution
    # takes NumPy buffers, so its inputs are made from the host array.)
    computed = lazyarr.asarray(host)
    rows.append(("eager: x + x (10 elements)", _per_call(lambda: computed + computed, count),
                 rows[0][2]))
    small = computed * 1.0  # an eager result
    rows.append(("eager: x + x, x an eager result", _per_call(lambda: small + small, count),
                 rows[0][2]))

    def step(np, x):
        return x + 1e-4 * (np.cos(x) - x)
    rows.append(("eager step: x + 1e-4 * (cos(x) - x)", _per_call(lambda: step(lazyarr, small),
                                                                  count),
                 _per_call(lambda: step(numpy, host), count)))
    with lazyarr.use_eager(False):
        lazyarr.eval(x + 1.0)  # its structure seen once
        flush, backend = _best_batch(lambda: lazyarr.eval(x + 1.0), count,
                                     lambda: _flush.STATS.backend_seconds)
        own = flush - backend - rows[0][1]  # less the backend's run and the node's build
    rows.append(("flush: eval(x + 1.0), cached", flush, _per_call(lambda: host + 1.0, count)))
    rows.append(("flush: lazyarr's own time", own, float("nan")))

    ys = numpy.linspace(0.0, 1.0, 1000)
    y = lazyarr.eval(lazyarr.asarray(ys) * 1.0)
    n = ys.shape[0]
    reads = max(1, count // 300)

    def read_all(a):
        return lambda: [float(a[i]) for i in range(n)]
    rows.append(("read: float(y[i]) per element", _per_call(read_all(y), reads) / n,
                 _per_call(read_all(ys), reads) / n))
    rows.append(("iterate: for v in y, per element", _per_call(lambda: list(y), reads) / n,
                 _per_call(lambda: list(ys), reads) / n))
    rows.append(("tolist: y.tolist(), per element", _per_call(y.tolist, reads) / n,
                 _per_call(ys.tolist, reads) / n))
    rows.append(("contains: 0.5 in y", _per_call(lambda: 0.5 in y, reads),
                 _per_call(lambda: 0.5 in ys, reads)))

    big = numpy.zeros(100_000)
    out = lazyarr.eval(lazyarr.asarray(big) + 1.0)  # computed, its buffer its own

    def write_all(a):
        return lambda: [a.__setitem__(i, 0.5) for i in range(n)]
    rows.append(("write: out[i] = 0.5 into 1e5 elements, per write",
                 _per_call(write_all(out), reads) / n, _per_call(write_all(big), reads) / n))
    return rows


def table(rows) -> str:
    lines = ["| microbenchmark | lazyarr µs | numpy µs |", "|---|---|---|"]
    for name, lazy, ref in rows:
        lines.append(f"| {name} | {lazy:.3g} | {'—' if ref != ref else f'{ref:.3g}'} |")
    return "\n".join(lines)
