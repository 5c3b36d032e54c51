"""The persistent program cache: compiled XLA executables on disk, keyed by structure.

A second process running the same script finds each program here and loads it instead
of tracing, lowering and compiling it again. The key is the program's structural key
(never data) and its signature, together with everything that changes the executable:
the source of lazyarr's core and of this backend (hashes of their files), jax's and
jaxlib's versions, and the device it was compiled for.

The directory is `$LAZYARR_CACHE_DIR`, else `$XDG_CACHE_HOME/lazyarr`, else
`~/.cache/lazyarr` (`backend_api.cache_directory`); `LAZYARR_CACHE_DIR=off` disables
it. Entries are written to a temporary file and renamed into place
(`backend_api.write_atomically`), so processes that share the directory never see
half-written entries.

An entry cannot lie about what it holds: it carries its full key (the text the file
name is a hash of) and a SHA-256 checksum of its contents, and both are checked before
anything in it is used. A truncated or damaged entry, one stored under another key
(files swapped or renamed), or a foreign file is a miss, compiled again and rewritten.
The checksum guards against accidents, not against an attacker: entries hold
executables (and are pickles, as jax's own compilation cache is), so the directory
must be one that only the user can write (it is created with mode 0700;
docs/writing-a-backend.md says more).

Next to an entry, a note (`<name>.tier`, JSON) keeps what the scheduler's tiers measured
of the program (its best interpreted and compiled run times, and whether the compiled
one was slower), so that another process does not start on the slower tier.
"""

from __future__ import annotations

import functools
import hashlib
import json
import pickle
import warnings
from pathlib import Path

import jax
from jax.experimental import serialize_executable

from lazyarr.backend_api import cache_directory, core_digest, write_atomically

MAGIC = b"lazyarr-xla-entry-1\n"
_DIGEST = 32  # bytes of a SHA-256 checksum


def directory() -> Path | None:
    """Where entries live (`backend_api.cache_directory`), or None when the cache is
    disabled."""
    root = cache_directory()
    return None if root is None else Path(root)


@functools.cache
def _code_digest() -> str:
    """A hash of lazyarr's core and of this backend's source: a changed rule or
    lowering must not run a stale program."""
    digest = hashlib.sha256(core_digest().encode())
    root = Path(__file__).parent
    for path in sorted(root.rglob("*.py")):
        digest.update(path.relative_to(root).as_posix().encode() + path.read_bytes())
    return digest.hexdigest()


_last_text: list = [None, None]  # the last key and its text (load follows entry_name)
_dtype_text: dict = {}


def _program_text(key: tuple) -> str:
    """The key as text: one line per input spec and instruction. As repr(key) would
    say it, four times faster (repr of NumPy's dtypes and of named tuples is Python
    code): the text of a 200-instruction program took 6 ms, and the tiers ask the disk
    cache once for every new structure (each step of a loop whose shapes shrink)."""
    program_key, signature = key
    specs, instructions, outputs = program_key
    lines = [f"{shape!r} {_dtype(dtype)}" for shape, dtype in specs]
    for ins in instructions:
        lines.append(f"{ins.op.name} {ins.inputs!r} {ins.attrs!r} {ins.shape!r} "
                     f"{_dtype(ins.dtype)}")
    lines.append(f"{outputs!r} {signature!r}")
    return "\n".join(lines)


def _dtype(dtype) -> str:
    text = _dtype_text.get(dtype)
    if text is None:
        text = _dtype_text[dtype] = repr(dtype)
    return text


def _key_text(key: tuple, device) -> str | None:
    """The full text of an entry's key; None when it is not stable across processes
    (an attribute whose repr shows an object's address)."""
    if _last_text[0] is key:
        text = _last_text[1]
    else:
        try:
            text = _program_text(key)
        except (TypeError, ValueError, AttributeError):  # not a linearized program's key
            text = repr(key)
        _last_text[:] = [key, text]
    if " at 0x" in text:
        return None
    if isinstance(device, tuple):  # a mesh: its devices are in the key's signature
        if jax.process_count() > 1:
            return None  # each process's executable differs: not cached on disk
        device = device[0]
    context = (_code_digest(), jax.__version__, jax.lib.__version__, device.platform,
               device.device_kind)
    return repr(context) + "\n" + text


def entry_name(key: tuple, device) -> str | None:
    """The file name of a program's entry (a hash of its key text), or None."""
    text = _key_text(key, device)
    return None if text is None else hashlib.sha256(text.encode()).hexdigest() + ".xla"


def _encode(key_text: str, payload) -> bytes:
    body = pickle.dumps((key_text, payload))
    return MAGIC + hashlib.sha256(body).digest() + body


def _decode(blob: bytes, key_text: str):
    """The payload stored under `key_text` in `blob`, or None if the blob is not an
    intact entry for exactly that key."""
    head = len(MAGIC) + _DIGEST
    if len(blob) <= head or not blob.startswith(MAGIC):
        return None
    body = blob[head:]
    if hashlib.sha256(body).digest() != blob[len(MAGIC):head]:
        return None  # truncated or damaged: never unpickled
    stored_key, payload = pickle.loads(body)
    return payload if stored_key == key_text else None


def load(name: str, key: tuple, device):
    """The entry stored under `name` for `key`: (executable, checked), or None.
    `device` is a jax device, or a tuple of them for a program over a mesh."""
    root = directory()
    key_text = _key_text(key, device)
    if root is None or key_text is None:
        return None
    try:
        blob = (root / name).read_bytes()
    except OSError:
        return None
    try:
        payload = _decode(blob, key_text)
        if payload is None:
            return None
        serialized, in_tree, out_tree, checked = payload
        devices = list(device) if isinstance(device, tuple) else [device]
        # (the devices' own client: jax's default is the default platform's, so a CPU
        # program on a TPU host was never loaded, a miss every time)
        executable = serialize_executable.deserialize_and_load(
            serialized, in_tree, out_tree, backend=devices[0].client,
            execution_devices=devices)
    except Exception:  # a stale or damaged entry: compile again and overwrite it
        return None
    return executable, tuple(checked)


_warned = False


def store(name: str, key: tuple, entry: tuple) -> None:
    """Write an entry atomically. A failure to write (a read-only home, a full disk, an
    executable jax cannot serialize) only costs the next process a compile; it is
    reported once per process."""
    global _warned
    root = directory()
    if root is None:
        return
    try:
        executable, checked, device = entry
        text = _key_text(key, device)
        if text is None:
            return
        serialized, in_tree, out_tree = serialize_executable.serialize(executable)
        write_atomically(root / name,
                         _encode(text, (serialized, in_tree, out_tree, tuple(checked))))
    except Exception as exc:  # noqa: BLE001
        if not _warned:
            _warned = True
            warnings.warn(f"lazyarr could not write its program cache in {root}: {exc}",
                          RuntimeWarning, stacklevel=2)


def _note_path(name: str) -> Path | None:
    root = directory()
    return None if root is None else root / (name[:-len(".xla")] + ".tier")


def load_note(name: str) -> dict | None:
    """The note kept next to entry `name` (see the module's doc), or None."""
    path = _note_path(name)
    try:
        note = json.loads(path.read_text()) if path is not None else None
    except (OSError, ValueError):
        return None
    return note if isinstance(note, dict) else None


def store_note(name: str, note: dict) -> None:
    """Write the note of entry `name` atomically; a failure to write costs nothing but
    the note."""
    path = _note_path(name)
    if path is None:
        return
    try:
        write_atomically(path, json.dumps(note).encode())
    except OSError:
        pass
