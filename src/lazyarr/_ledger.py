"""What earlier processes learned of each program's tiers, read before the compiling
backend is loaded (DESIGN: "Tiered execution").

Whether compiling a program pays is known once it has run on both tiers. The backend
keeps that with the program's disk-cache entry (its `remember`), but reading it there
means loading the backend first: importing jax took 1.5 s here, and on two cores it
slowed the script's own thread by 0.6-0.8 s (NumPy's jacobi, 1.88 s alone, took 2.66 s
while jax imported beside it). So a process learned only after that load whether the
load had been worth it: jacobi, whose compiled step is slower than the interpreter's,
loaded jax again in every process, and lbm, whose programs are in the disk cache,
interpreted for seconds (the policy's rent) before loading it.

This ledger keeps each verdict where the core reads it without the backend: one JSON
file in the cache directory (`backend_api.cache_directory`), per backend and platform,
dated by the size and modification time of the core's and the backend's source files
(a changed lowering may change the verdict). A program is known by a fingerprint of its
structure: its length and last user line (checked first, in constant time, so a loop of
ever-new programs pays nothing), then a checksum of its ops, wiring, attributes, shapes
and dtypes. A fingerprint that two programs share only misleads a load decision, never
a result: the backend's own cache is keyed by the whole structure.
"""

from __future__ import annotations

import os
import threading

from .backend_api import cache_directory, compiled_in, write_atomically

FILE = "tiers.json"
MAX_ENTRIES = 4096
COMPILED = "compiled"  # compiled (and kept on disk), not yet compared with the interpreter
FASTER = "faster"      # compared: compiled runs were faster
SLOWER = "slower"      # compared: compiled runs were slower (or far slower at once)
VERDICTS = (COMPILED, FASTER, SLOWER)

_lock = threading.Lock()
_book: dict = {}       # label -> {"stamp": ..., "entries": {fingerprint: verdict}}
_coarse: dict = {}     # label -> set of the entries' coarse keys


def _coarse_key(program) -> str:
    site = program.sites[-1] if program.sites else None
    where = f"{site[0]}:{site[1]}" if site else "?"
    return f"{program.operations()}@{where}"


def fingerprint(program) -> str:
    """The program's coarse key and a checksum of its structure (stable across
    processes, unlike `hash`), whatever values its scalars take: a verdict on a loop's
    body holds for its first flush, whose scalars are compiled in, as for the later
    ones, where the scalars that change are runtime inputs (`_flush._Known`)."""
    import zlib  # noqa: PLC0415  (json and zlib: 2 ms of `import lazyarr`, needed later)
    parts = [f"{shape}{dtype.char}" for shape, dtype in program.input_specs]
    _, instructions, outputs = compiled_in(program)
    for ins in instructions:
        parts.append(f"{ins.op.name}{ins.inputs}{ins.attrs}{ins.shape}{ins.dtype.char}")
    parts.append(str(outputs))
    return f"{_coarse_key(program)}#{zlib.crc32(';'.join(parts).encode()):08x}"


def _stamp(folders: list[str]) -> str:
    """The size and modification time of every Python file under `folders`."""
    import zlib  # noqa: PLC0415
    crc = 0
    for folder in folders:
        for root, dirs, files in os.walk(folder):
            dirs[:] = sorted(d for d in dirs if d != "__pycache__")
            for name in sorted(files):
                if name.endswith(".py"):
                    try:
                        info = os.stat(os.path.join(root, name))
                    except OSError:  # (removed meanwhile: the stamp differs anyway)
                        continue
                    crc = zlib.crc32(f"{name}{info.st_size}{info.st_mtime_ns}".encode(), crc)
    return f"{crc:08x}"


def _path() -> str | None:
    root = cache_directory()
    return None if root is None else os.path.join(root, FILE)


def _read(path: str) -> dict:
    try:
        f = open(path)
    except OSError:  # (no file yet: json is not imported for it)
        return {}
    import json  # noqa: PLC0415
    try:
        with f:
            data = json.load(f)
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


def _entries(found, stamp: str) -> dict:
    """The verdicts of a page read from the file, if it has `stamp` (else none)."""
    if not isinstance(found, dict) or found.get("stamp") != stamp:
        return {}
    entries = found.get("entries")
    if not isinstance(entries, dict):
        return {}
    return {k: v for k, v in entries.items() if isinstance(k, str) and v in VERDICTS}


def _page(label: str, folders) -> dict:
    """This process's page of `label`, read from the file once (folders: the code whose
    stamp dates it; a page of another stamp is empty). The stamp is made only where the
    file has a page to date, or once a verdict is recorded (`_dated`): finding the
    folders and stating their files took 3 ms of a first flush."""
    page = _book.get(label)
    if page is None:
        path = _path()
        found = _read(path).get(label) if path else None
        stamp = _stamp(folders()) if found is not None else None
        entries = _entries(found, stamp) if found is not None else {}
        page = _book[label] = {"stamp": stamp, "entries": entries}
        _coarse[label] = {k.partition("#")[0] for k in entries}
    return page


def _dated(page: dict, folders) -> str:
    """The page's stamp, made now if it was not needed before."""
    if page["stamp"] is None:
        page["stamp"] = _stamp(folders())
    return page["stamp"]


def verdict(program, label: str, folders) -> str | None:
    """What an earlier process found of `program` on the backend and platform `label`
    (`folders()`: that backend's and the core's source folders), or None."""
    with _lock:
        page = _page(label, folders)
        if not page["entries"] or _coarse_key(program) not in _coarse[label]:
            return None
        return page["entries"].get(fingerprint(program))


def record(program, label: str, folders, found: str) -> None:
    """Keep `found` (COMPILED, FASTER or SLOWER) for `program`, in this process and in
    the file (merged with what other processes wrote since; written atomically; a
    failure to write costs the next process nothing but the hint)."""
    if found not in VERDICTS:
        raise ValueError(f"not a verdict of the ledger: {found!r}")
    with _lock:
        page = _page(label, folders)
        key = fingerprint(program)
        if page["entries"].get(key) == found:
            return
        page["entries"][key] = found
        _coarse[label].add(key.partition("#")[0])
        path = _path()
        if path is None:
            return
        book = _read(path)
        stamp = _dated(page, folders)
        entries = _entries(book.get(label), stamp)
        entries[key] = found
        while len(entries) > MAX_ENTRIES:  # the oldest first (dicts keep their order)
            del entries[next(iter(entries))]
        book[label] = {"stamp": stamp, "entries": entries}
        import json  # noqa: PLC0415
        try:
            write_atomically(path, json.dumps(book).encode())
        except OSError:
            pass


def forget() -> None:
    """Drop what this process read (tests: the next lookup reads the file again)."""
    with _lock:
        _book.clear()
        _coarse.clear()
