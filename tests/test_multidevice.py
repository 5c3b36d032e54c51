"""Several devices and several processes (docs/multi-device.md), checked against NumPy.

XLA shows four CPU devices in a process started with
XLA_FLAGS=--xla_force_host_platform_device_count=4 (read when jax starts), so each check
runs a small script in a fresh Python process and reads back what it printed. The
multi-process checks run two such processes on 127.0.0.1 through gloo, each with two
CPU devices: a global mesh of four. Every subprocess has a bounded timeout.
"""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest


ROOT = Path(__file__).resolve().parents[1]
TIMEOUT = 240  # seconds per subprocess: generous for two shared, loaded cores

# These checks start their own processes: run once, under XLA (skipped where it is not
# installed, see conftest's `_once`), not once per backend.
pytestmark = pytest.mark.once("xla")


def _env(devices: int, **extra) -> dict:
    env = dict(os.environ)
    paths = [str(ROOT / "src"), str(ROOT / "backends" / "xla" / "src")]
    env["PYTHONPATH"] = os.pathsep.join(paths + [env.get("PYTHONPATH", "")])
    env["XLA_FLAGS"] = f"--xla_force_host_platform_device_count={devices}"
    env.pop("LAZYARR_BACKEND", None)
    env.pop("LAZYARR_TIER", None)
    env.setdefault("LAZYARR_CACHE_DIR", "off")
    env.update(extra)
    return env


def run(code: str, devices: int = 4, **env) -> dict:
    """Run `code` in a new process with `devices` CPU devices; the JSON it prints last."""
    done = subprocess.run([sys.executable, "-c", textwrap.dedent(code)], env=_env(devices, **env),
                          capture_output=True, text=True, timeout=TIMEOUT)
    assert done.returncode == 0, done.stderr[-4000:]
    return json.loads(done.stdout.strip().splitlines()[-1])


def test_the_switch_and_its_errors():
    out = run("""
        import json, os, numpy
        import lazyarr as la
        from lazyarr import _backend
        from lazyarr_xla import Signature, ShardedSignature
        out = {"default": la.devices()}
        la.set_backend("xla", devices="all"); out["all"] = la.devices()
        la.set_backend("xla", devices=2); out["two"] = la.devices()
        la.set_backend("xla", devices=["cpu:1", "cpu:3"]); out["list"] = la.devices()
        la.set_backend("xla", devices=1); out["one"] = la.devices()
        from lazyarr._flush import linearize
        from lazyarr._graph import topological_order
        x = la.asarray(numpy.arange(12.0)) * 2
        program, inputs = linearize(topological_order([x._node]), [x._node])
        one = _backend.current().signature(program, inputs)
        la.set_backend("xla")
        plain = _backend.current().signature(program, inputs)
        out["one_signature"] = [type(one).__name__, one == plain]
        with la.use_backend("xla", devices=4):
            out["use"] = la.devices()
            out["device"] = (la.asarray(numpy.ones(8)) + 1).device
        errors = {}
        for label, call in [("count", lambda: la.set_backend("xla", devices=5)),
                            ("platform", lambda: la.set_backend("xla", device="gpu",
                                                                devices="all")),
                            ("name", lambda: la.set_backend("xla", devices=["cpu:7"])),
                            ("word", lambda: la.set_backend("xla", devices="most"))]:
            try:
                call()
            except ValueError as exc:
                errors[label] = str(exc)
        out["errors"] = errors
        print(json.dumps(out))
    """)
    assert out["default"] == ["cpu"]  # no switch: one device, as before
    assert out["all"] == ["cpu", "cpu:1", "cpu:2", "cpu:3"] == out["use"]
    assert out["two"] == ["cpu", "cpu:1"] and out["list"] == ["cpu:1", "cpu:3"]
    assert out["one"] == ["cpu"] and out["one_signature"] == ["Signature", True]
    assert out["device"] == "cpu*4"
    assert "4 available" in out["errors"]["count"] and "4 cpu" in out["errors"]["count"]
    assert "no 'gpu' devices" in out["errors"]["platform"]
    assert "available: 4 cpu" in out["errors"]["platform"]
    assert "available ids [0, 1, 2, 3]" in out["errors"]["name"]
    assert "'all', a count or a list" in out["errors"]["word"]


def test_environment_variable_form():
    out = run("""
        import json, numpy, lazyarr as la
        x = la.asarray(numpy.arange(16.0).reshape(4, 4))
        print(json.dumps({"devices": la.devices(), "sum": float((x * 2).sum()),
                          "spec": str((x * 2).sharding.spec)}))
    """, LAZYARR_BACKEND="xla:cpu*4", LAZYARR_SHARD_MIN_BYTES="0")
    assert out == {"devices": ["cpu", "cpu:1", "cpu:2", "cpu:3"], "sum": 240.0,
                   "spec": "P('devices',)"}
    assert run("import json, lazyarr as la; print(json.dumps({'d': la.devices()}))",
               LAZYARR_BACKEND="xla:cpu*") == {"d": ["cpu", "cpu:1", "cpu:2", "cpu:3"]}


def test_placement_policy_overrides_and_cache_keys():
    out = run("""
        import json, numpy
        import lazyarr as la
        la.set_backend("xla", devices="all")
        small = la.asarray(numpy.ones((8, 8)))             # 512 bytes: replicated
        big = la.asarray(numpy.ones((256, 1024)))          # 2 MiB: split along axis 1
        odd = la.asarray(numpy.ones((1023, 257)))          # no axis divides 4: replicated
        out = {"small": str(small.sharding.spec), "big": str(big.sharding.spec),
               "odd": str(odd.sharding.spec)}
        y = big * 3 + 1
        out["result"] = str(y.sharding.spec)
        rows = la.shard(big, axis=0)
        out["rows"] = str(rows.sharding.spec)
        out["neg"] = str(la.shard(big, axis=-1).sharding.spec)
        out["replicated"] = str(la.replicate(big).sharding.spec)
        def f(a):
            return float((a * 2.5).sum())
        before = la.stats()["compiles"]
        values = [f(big), f(rows), f(la.replicate(big)), f(big), f(rows)]
        out["compiles"] = la.stats()["compiles"] - before
        out["values"] = values
        errors = {}
        try:
            la.shard(big, axis=2)
        except numpy.exceptions.AxisError as exc:
            errors["axis"] = str(exc)
        try:
            la.shard(odd, axis=0)
        except ValueError as exc:
            errors["divide"] = str(exc)
        out["errors"] = errors
        print(json.dumps(out))
    """)
    assert out["small"] == "P()" and out["odd"] == "P()"
    assert out["big"] == "P(None, 'devices')" == out["result"] == out["neg"]
    assert out["rows"] == "P('devices',)"
    assert out["replicated"] == "P()"
    # One program per input sharding: the cache key holds the shardings.
    assert out["compiles"] == 3 and out["values"] == [256 * 1024 * 2.5] * 5
    assert "axis 2 is out of bounds for array of dimension 2" in out["errors"]["axis"]
    assert "1023 is not a multiple of 4" in out["errors"]["divide"]


SEMANTICS = """
    import json, numpy
    import lazyarr as la
    if DEVICES > 1:
        la.set_backend("xla", devices=DEVICES)
    rng = numpy.random.default_rng(7)
    host = rng.standard_normal((64, 48))
    out = {}
    a = la.asarray(host)
    out["asarray"] = numpy.asarray(a).tolist()
    out["ufuncs"] = numpy.asarray(numpy.exp(a) * 2 - la.sin(a).T.T).tolist()
    out["sum_axis"] = numpy.asarray(a.sum(axis=0)).tolist()
    out["matmul"] = numpy.asarray(a @ a.T).tolist()
    out["mask"] = numpy.asarray(a[a > 1.0]).tolist()          # data-dependent shape
    out["nonzero"] = [i.tolist() for i in la.nonzero(a > 2.0)]
    out["unique"] = numpy.asarray(la.unique(la.round(a))).tolist()
    out["sort"] = numpy.asarray(la.sort(a, axis=0)).tolist()
    b = a.copy()
    b[3] = 7.0                                                 # mutation
    b[:, 5] += 1.0
    view = b[10:20, ::2]                                       # write-through view
    view[:] = -1.0
    out["mutated"] = numpy.asarray(b).tolist()
    out["element"] = float(b[3, 0]) + float(b[15, 2])
    out["repr"] = repr(b[:3, :4]) + str(b[0, :5])
    g = la.random.default_rng(3)                               # drawn on the host, placed
    r = g.standard_normal((32, 8))
    out["random"] = numpy.asarray(r * 2).tolist()
    out["cumsum"] = numpy.asarray(la.cumsum(a, axis=1)).tolist()
    out["fft"] = numpy.abs(numpy.asarray(la.fft.fft(a, axis=0))).tolist()
    out["solve"] = numpy.asarray(la.linalg.solve(a[:48] + 10 * la.eye(48), a[:48, :4])).tolist()
    out["stats"] = [float(a.mean()), float(a.std()), float(la.median(a))]
    x = la.zeros((64, 32))                                     # a loop keeps one program
    for i in range(5):
        x = x * 0.5 + a[:, :32]
    out["loop"] = numpy.asarray(x).tolist()
    out["spec"] = str(x.sharding.spec) if DEVICES > 1 else ""
    print(json.dumps(out))
"""


def _numpy_semantics():
    import numpy
    rng = numpy.random.default_rng(7)
    a = rng.standard_normal((64, 48))
    b = a.copy()
    b[3] = 7.0
    b[:, 5] += 1.0
    b[10:20, ::2] = -1.0
    x = numpy.zeros((64, 32))
    for _ in range(5):
        x = x * 0.5 + a[:, :32]
    return {"asarray": a, "ufuncs": numpy.exp(a) * 2 - numpy.sin(a), "sum_axis": a.sum(axis=0),
            "matmul": a @ a.T, "mask": a[a > 1.0], "nonzero": numpy.nonzero(a > 2.0),
            "unique": numpy.unique(numpy.round(a)), "sort": numpy.sort(a, axis=0),
            "mutated": b, "element": float(b[3, 0]) + float(b[15, 2]),
            "repr": repr(b[:3, :4]) + str(b[0, :5]),
            "random": numpy.random.default_rng(3).standard_normal((32, 8)) * 2,
            "cumsum": numpy.cumsum(a, axis=1), "fft": numpy.abs(numpy.fft.fft(a, axis=0)),
            "solve": numpy.linalg.solve(a[:48] + 10 * numpy.eye(48), a[:48, :4]),
            "stats": [a.mean(), a.std(), numpy.median(a)], "loop": x}


def test_results_equal_numpy_and_one_device():
    import numpy
    four = run(SEMANTICS.replace("DEVICES", "4"), LAZYARR_SHARD_MIN_BYTES="0")
    one = run(SEMANTICS.replace("DEVICES", "1"), devices=1)
    expected = _numpy_semantics()
    assert four["spec"] == "P('devices',)"
    for name, want in expected.items():
        if name == "repr":
            assert four[name] == one[name] == want
            continue
        for got in (four[name], one[name]):
            if name == "nonzero":
                assert got == [i.tolist() for i in want]
            elif name in ("mask", "unique", "mutated", "asarray", "random", "sort"):
                assert numpy.array_equal(numpy.array(got), want), name  # exact: no arithmetic
            else:
                # Sums may run in another order over the devices (docs/multi-device.md).
                numpy.testing.assert_allclose(numpy.array(got), want, rtol=1e-12, atol=1e-12,
                                              err_msg=name)


def test_reduction_deviation_is_within_the_documented_bound():
    """docs/multi-device.md: a float64 sum over four devices differs from NumPy's by at
    most a few ulps of the sum of magnitudes; float32 likewise at its precision."""
    out = run("""
        import json, numpy, lazyarr as la
        la.set_backend("xla", devices="all")
        rng = numpy.random.default_rng(0)
        out = {}
        for dtype in ("float64", "float32"):
            host = rng.standard_normal(1 << 20).astype(dtype)
            got = float(la.asarray(host).sum())
            want = float(host.sum())
            scale = float(numpy.abs(host).astype("float64").sum())
            out[dtype] = float(abs(got - want) / (scale * float(numpy.finfo(dtype).eps)))
        print(json.dumps(out))
    """)
    assert out["float64"] <= 4 and out["float32"] <= 4, out


def test_disk_cache_across_processes_holds_the_sharded_programs(tmp_path):
    code = """
        import json, numpy, lazyarr as la
        la.set_backend("xla", devices="all")
        a = la.asarray(numpy.arange(4096.0).reshape(64, 64))
        v = float((la.sin(a) * 2 + a.T).sum())
        s = la.stats()
        print(json.dumps({"v": v, "compiles": s["compiles"], "hits": s["disk_cache_hits"]}))
    """
    first = run(code, LAZYARR_SHARD_MIN_BYTES="0", LAZYARR_CACHE_DIR=str(tmp_path))
    second = run(code, LAZYARR_SHARD_MIN_BYTES="0", LAZYARR_CACHE_DIR=str(tmp_path))
    assert first["compiles"] >= 1 and second["compiles"] == 0 and second["hits"] >= 1
    assert first["v"] == second["v"]


# ---------------------------------------------------------------------------------
# Two processes on localhost.

WORKER = """
import json, os, sys
import numpy
import lazyarr as la
pid, port, mode = int(sys.argv[1]), sys.argv[2], sys.argv[3]
la.distributed.initialize(f"127.0.0.1:{port}", 2, pid, heartbeat_timeout_seconds=HEARTBEAT,
                          initialization_timeout=60,
                          on_peer_failure="abort" if mode == "die" else "raise")
if mode == "die" and pid == 1:
    os._exit(3)  # a crash after joining
host = numpy.random.default_rng(0).standard_normal((64, 32))
a = la.asarray(host)
if mode == "die":
    import time
    time.sleep(HEARTBEAT * 4)  # the coordinator notices the missing heartbeats meanwhile
b = (la.sin(a) * 2 + a.T.sum(axis=1).mean()).sum(axis=0)
m = a[a > 0.5]
order = la.eval(la.argsort(a[:, 0]))  # a computed index, split over the processes
picked = a[order]
a[0] = 7.0
print(json.dumps({"picked": numpy.asarray(picked).tolist(), "devices": la.devices(), "process": [la.distributed.process_index(),
                  la.distributed.process_count()], "b": numpy.asarray(b).tolist(),
                  "mask": numpy.asarray(m).tolist(), "total": float(a.sum()),
                  "row": a[0, :3].tolist(), "repr": repr(a[1, :3]),
                  "spec": str(a.sharding.spec)}))
"""


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _two_processes(tmp_path, mode: str, heartbeat: int, worker: str = WORKER,
                   stop_after: float | None = None):
    """Run `worker` as processes 0 and 1; (exit code, stdout, stderr, seconds) of each.
    `stop_after`: kill process 1 that many seconds after the start (a frozen one)."""
    script = tmp_path / "worker.py"
    script.write_text(worker.replace("HEARTBEAT", str(heartbeat)))
    port = _free_port()
    env = _env(2, LAZYARR_SHARD_MIN_BYTES="0")
    procs = [subprocess.Popen([sys.executable, str(script), str(i), str(port), mode], env=env,
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
             for i in range(2)]
    start = time.monotonic()
    results = []
    try:
        if stop_after is not None:
            try:
                procs[0].wait(timeout=stop_after)
            except subprocess.TimeoutExpired:
                pass
            procs[1].kill()
        for p in procs:
            out, err = p.communicate(timeout=TIMEOUT)
            results.append((p.returncode, out, err, time.monotonic() - start))
    finally:
        for p in procs:
            if p.poll() is None:
                p.kill()
                p.wait()
    return results


def test_two_processes_give_numpy_results_on_each(tmp_path):
    import numpy
    results = _two_processes(tmp_path, "ok", heartbeat=30)
    host = numpy.random.default_rng(0).standard_normal((64, 32))
    b = (numpy.sin(host) * 2 + host.T.sum(axis=1).mean()).sum(axis=0)
    mask = host[host > 0.5]
    picked = host[numpy.argsort(host[:, 0])]
    host[0] = 7.0
    for code, out, err, _ in results:
        assert code == 0, err[-4000:]
        got = json.loads(out.strip().splitlines()[-1])
        assert got["devices"] == ["cpu", "cpu:1", "cpu:2048", "cpu:2049"]  # the global mesh
        assert got["spec"] == "P('devices',)"
        numpy.testing.assert_allclose(got["b"], b, rtol=1e-12)
        assert numpy.array_equal(got["mask"], mask)
        assert numpy.array_equal(got["picked"], picked)
        numpy.testing.assert_allclose(got["total"], host.sum(), rtol=1e-12)
        assert got["row"] == host[0, :3].tolist() and got["repr"] == repr(host[1, :3])
    assert [json.loads(out.strip().splitlines()[-1])["process"]
            for _, out, _, _ in results] == [[0, 2], [1, 2]]


def test_with_abort_a_dead_process_stops_the_others_within_the_heartbeat_timeout(tmp_path):
    heartbeat = 5
    (code0, out0, err0, seconds0), (code1, _, _, _) = _two_processes(tmp_path, "die", heartbeat)
    assert code1 == 3
    # jax's coordination service declares the silent task dead after the heartbeat
    # timeout and terminates the survivors with this message (a fatal error, not a
    # hang); the survivor never finished its sleep of 4 heartbeat timeouts.
    assert code0 != 0 and "stopped sending heartbeats" in err0, err0[-3000:]
    assert '"devices"' not in out0 and seconds0 < TIMEOUT


# A peer that fails mid-script, under the default on_peer_failure="raise".
PEER = """
import json, os, signal, sys, time
import numpy
import lazyarr as la
pid, port, mode = int(sys.argv[1]), sys.argv[2], sys.argv[3]
la.distributed.initialize(f"127.0.0.1:{port}", 2, pid, heartbeat_timeout_seconds=HEARTBEAT,
                          collective_timeout_seconds=2 * HEARTBEAT, initialization_timeout=60)
host = numpy.random.default_rng(0).standard_normal((64, 32))
a = la.asarray(host)
total = float(a.sum())  # both processes take part
small = la.replicate(la.asarray(host[:4, :4]) * 2)  # a copy on every device
before = numpy.asarray(small).tolist()
if pid == 1:
    # Between two programs: exiting with the last collective's data still unread would
    # reset the connection and fail that collective in process 0 too (also a
    # PeerFailure, but at a line this test does not expect).
    time.sleep(1)
if pid == 1 and mode == "die":
    os._exit(3)  # an abrupt failure, mid-script
if pid == 1 and mode == "freeze":
    os.kill(os.getpid(), signal.SIGSTOP)  # alive but silent, until the test kills it
if pid == 0 and mode == "die0":
    os._exit(3)  # the coordinator
out = {"total": total}
for name, compute in (("first", lambda: float((la.sin(a) * 2).sum())),
                      ("second", lambda: numpy.asarray(a + 1))):
    start = time.monotonic()
    try:
        compute()
        out[name] = "no error"
    except la.distributed.PeerFailure as exc:
        out[name] = [str(exc), list(exc.processes), time.monotonic() - start]
out["small"] = numpy.asarray(small).tolist() == before  # this process's own copy
with la.use_backend("numpy"):  # lazyarr goes on in this process
    out["local"] = float(la.asarray(host).sum() * 2)
out["exiting"] = time.monotonic()
print(json.dumps(out), flush=True)
"""


@pytest.mark.parametrize("mode", ["die", "freeze"])
def test_a_failed_process_is_a_peer_failure_in_the_other(tmp_path, mode):
    import numpy
    heartbeat = 3
    results = _two_processes(tmp_path, mode, heartbeat, PEER,
                             stop_after=60 if mode == "freeze" else None)
    (code0, out0, err0, seconds0), (code1, _, _, _) = results
    assert code1 == (3 if mode == "die" else -9)
    assert code0 == 0, err0[-3000:]
    got = json.loads(out0.strip().splitlines()[-1])
    host = numpy.random.default_rng(0).standard_normal((64, 32))
    numpy.testing.assert_allclose(got["total"], host.sum(), rtol=1e-12)
    message, processes, seconds = got["first"]
    assert processes == [1] and message.startswith("process 1 of this 2-process run failed")
    assert f"after {heartbeat} s without heartbeats" in message, message
    # gloo reports the lost peer, at the latest when the collective times out (2 x
    # heartbeat); lazyarr then asks jax which processes are alive (at most the
    # heartbeat timeout more).
    assert seconds < 2 * heartbeat + heartbeat + 5, got
    message, _, seconds = got["second"]
    assert "every program over its devices fails from here" in message and seconds < 2
    assert got["small"] is True
    assert got["local"] == float(host.sum() * 2)
    assert seconds0 < TIMEOUT


def test_the_coordinators_death_ends_the_others_with_jaxs_message(tmp_path):
    heartbeat = 3
    (code0, _, _, _), (code1, out1, err1, seconds1) = _two_processes(tmp_path, "die0",
                                                                      heartbeat, PEER)
    assert code0 == 3
    # Process 0 hosts jax's coordination service: jax ends the others (SIGABRT), at
    # once, naming it; lazyarr cannot turn that into an exception.
    assert code1 == -6 and "Failed to send RPC to coordination service" in err1, err1[-3000:]
    assert '"first"' not in out1 and seconds1 < TIMEOUT
