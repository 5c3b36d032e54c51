"""The persistent program cache: compiled XLA executables on disk, keyed by structure.

A second process running the same script finds each program here and loads it instead
of tracing, lowering and compiling it again. The key is a hash of the program's
structural key (never data) together with everything that changes the executable:
lazyarr's source code (a hash of its files), jax's and jaxlib's versions, and the
device it was compiled for.

The directory is `$LAZYARR_CACHE_DIR`, else `$XDG_CACHE_HOME/lazyarr`, else
`~/.cache/lazyarr`; `LAZYARR_CACHE_DIR=off` disables it. Entries are written to a
temporary file and renamed into place, so processes that share the directory never
see half-written entries; an unreadable entry counts as a miss and is rewritten.
Entries are pickles: like jax's own compilation cache, the directory must be one that
only the user can write.
"""

from __future__ import annotations

import functools
import hashlib
import os
import pickle
import tempfile
import warnings
from pathlib import Path

import jax
from jax.experimental import serialize_executable

import lazyarr


def directory() -> Path | None:
    """Where entries live, or None when the cache is disabled."""
    configured = os.environ.get("LAZYARR_CACHE_DIR", "").strip()
    if configured.lower() in ("off", "none", "0"):
        return None
    if configured:
        return Path(configured).expanduser()
    home = os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache"
    return Path(home) / "lazyarr"


@functools.cache
def _code_digest() -> str:
    """A hash of lazyarr's own source: a changed lowering must not run a stale program."""
    digest = hashlib.sha256()
    root = Path(lazyarr.__file__).parent
    for path in sorted(root.rglob("*.py")):
        digest.update(path.relative_to(root).as_posix().encode() + path.read_bytes())
    return digest.hexdigest()


def entry_name(program_key: tuple, device) -> str | None:
    """The file name of a program's entry; None when its key is not stable across
    processes (an attribute whose repr shows an object's address)."""
    text = repr(program_key)
    if " at 0x" in text:
        return None
    context = (_code_digest(), jax.__version__, jax.lib.__version__, device.platform,
               device.device_kind)
    digest = hashlib.sha256(repr(context).encode() + text.encode()).hexdigest()
    return f"{digest}.xla"


def load(name: str, device):
    """The entry stored under `name`: (executable, *payload), or None."""
    root = directory()
    if root is None:
        return None
    try:
        blob = (root / name).read_bytes()
    except OSError:
        return None
    try:
        serialized, in_tree, out_tree, payload = pickle.loads(blob)
        executable = serialize_executable.deserialize_and_load(
            serialized, in_tree, out_tree, execution_devices=[device])
    except Exception:  # a stale or damaged entry: compile again and overwrite it
        return None
    return (executable, *payload)


_warned = False


def store(name: str, entry: tuple) -> None:
    """Write an entry atomically. A failure to write (a read-only home, a full disk, an
    executable jax cannot serialize) only costs the next process a compile; it is
    reported once per process."""
    global _warned
    root = directory()
    if root is None:
        return
    tmp = None
    try:
        executable, *payload = entry
        serialized, in_tree, out_tree = serialize_executable.serialize(executable)
        blob = pickle.dumps((serialized, in_tree, out_tree, tuple(payload)))
        root.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=root, prefix=".tmp-")
        with os.fdopen(fd, "wb") as f:
            f.write(blob)
        os.replace(tmp, root / name)
    except Exception as exc:  # noqa: BLE001
        if tmp is not None and os.path.exists(tmp):
            os.unlink(tmp)
        if not _warned:
            _warned = True
            warnings.warn(f"lazyarr could not write its program cache in {root}: {exc}",
                          RuntimeWarning, stacklevel=2)
