"""XLA's out of memory (issue 14): an allocation that cannot fit, where the size was not
caught at the call (each array fits in this machine's memory, all of them do not), is a
MemoryError (`BackendMemoryError`), never SIGABRT and never a wait without end; a failed
program poisons nothing that shares work with it.

Each case runs in a new process under an address-space limit (RLIMIT_AS, 2 GiB), so
the allocation fails there and the test cannot take this machine's memory."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from lazyarr import _backend

ROOT = Path(__file__).resolve().parents[3]

SCRIPT = """
import json, resource, sys, time
limit = 2 << 30
resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
import numpy
import lazyarr as la
la.set_backend("xla")
case = sys.argv[1]
a = la.arange(10.0)
kept = a * 3                       # computed before: must stay usable
float(kept.sum())
shared = kept + 1                  # pending, and shares work with the failing program
out = {}
start = time.monotonic()
try:
    if case == "elementwise":      # a 3.2 GB result of a small program
        big = la.ones((20000, 20000)) * a[1]
        out["value"] = float(big[0, 0] + shared.sum())
    elif case == "scan":           # XLA's CPU runtime fails after the call returned
        big = la.cumsum(la.ones(400_000_000) * a[1])
        out["value"] = float(big[-1] + shared.sum())
    elif case == "matmul":         # inputs of 24 MB, a 7.2 GB product
        big = (la.ones((30000, 100)) * a[1]) @ la.ones((100, 30000))
        out["value"] = float(big[0, 0] + shared.sum())
    elif case == "eval":           # computed without a read, then read
        big = la.cumsum(la.ones(400_000_000) * a[1])
        la.eval(big, shared)
        out["value"] = float(big[-1])
except MemoryError as exc:
    out["error"] = [type(exc).__name__, isinstance(exc, RuntimeError), str(exc)]
out["seconds"] = time.monotonic() - start
out["kept"] = float(kept.sum())
out["shared"] = numpy.asarray(shared).tolist()
out["again"] = float((la.arange(5.0) * 2).sum())
if "big" not in globals():          # raised where it was built (a flush at a size bound)
    out["retry"] = "raised at the call"
else:
    try:                           # the failed array itself: the same error again
        float(big[0] if big.ndim == 1 else big[0, 0])
        out["retry"] = "no error"
    except MemoryError as exc:
        out["retry"] = type(exc).__name__
print(json.dumps(out))
"""


pytestmark = pytest.mark.skipif("xla" not in _backend.available(), reason="jax not installed")


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="RLIMIT_AS as on Linux")
@pytest.mark.parametrize("case", ["elementwise", "scan", "matmul", "eval"])
def test_xla_out_of_memory_is_a_memory_error_that_poisons_nothing(case):
    env = dict(os.environ, LAZYARR_TIER="compile", LAZYARR_CACHE_DIR="off")
    env.pop("LAZYARR_BACKEND", None)
    paths = [str(ROOT / "src"), str(ROOT / "backends" / "xla" / "src")]
    env["PYTHONPATH"] = os.pathsep.join(paths + [env.get("PYTHONPATH", "")])
    done = subprocess.run([sys.executable, "-c", textwrap.dedent(SCRIPT), case], env=env,
                          capture_output=True, text=True, timeout=240)
    assert done.returncode == 0, done.stderr[-4000:]  # -6 would be XLA's abort
    got = json.loads(done.stdout.strip().splitlines()[-1])
    kind, is_backend_failure, message = got["error"]
    assert kind == "BackendMemoryError" and is_backend_failure, got
    assert "Out of memory" in message and "created at" in message, message
    assert "No array was changed" in message, message
    assert got["seconds"] < 60, got
    assert got["kept"] == 135.0 and got["shared"] == [3.0 * i + 1 for i in range(10)]
    assert got["again"] == 20.0
    assert got["retry"] in ("BackendMemoryError", "raised at the call"), got
