"""Runs a part of the suite in a second pytest process, for settings that must hold
before lazyarr (or jax) is imported: a forced execution tier, simulated devices."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def run(files: list[str], env_updates: dict, minimum: int, timeout: int = 1200) -> str:
    """Run pytest on `files` (paths under the repository) with `env_updates`; assert it
    passed with at least `minimum` tests, and return its output."""
    env = dict(os.environ)
    paths = [str(ROOT / "src"), str(ROOT / "backends" / "xla" / "src")]
    env.update(PYTHONPATH=os.pathsep.join(paths + [env.get("PYTHONPATH", "")]), **env_updates)
    for name in ("LAZYARR_BACKEND", "LAZYARR_TIER", "PYTEST_XDIST_WORKER"):
        env.pop(name, None)
    command = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-p",
               "no:xdist", *files]
    done = subprocess.run(command, cwd=ROOT, env=env, capture_output=True, text=True,
                          timeout=timeout)
    tail = done.stdout[-6000:] + done.stderr[-2000:]
    assert done.returncode == 0, tail
    passed = re.search(r"(\d+) passed", done.stdout)
    assert passed and int(passed.group(1)) >= minimum, tail
    return done.stdout
