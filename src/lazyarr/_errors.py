"""lazyarr's own exceptions, and the user's line that created each operation.

Every node records the first frame outside lazyarr (and NumPy, whose functions
dispatch to lazyarr) when it is built, so an error that only a backend can detect,
long after the call, still names the line of the user's code it came from.
"""

from __future__ import annotations

import sys

_INTERNAL = ("lazyarr", "numpy")
# code file name -> inside lazyarr or NumPy (the fast paths look their caller up in it)
INTERNAL_FILES: dict[str, bool] = {}


def _internal(frame) -> bool:
    filename = frame.f_code.co_filename
    known = INTERNAL_FILES.get(filename)
    if known is None:
        module = frame.f_globals.get("__name__", "")
        known = INTERNAL_FILES[filename] = module.partition(".")[0] in _INTERNAL
    return known


def user_site() -> tuple[str, int] | None:
    """(file, line) of the innermost caller outside lazyarr and NumPy. (Called for every
    operation built and every flush: the known files are looked up inline.)"""
    frame = sys._getframe(1)
    known = INTERNAL_FILES
    while frame is not None:
        filename = frame.f_code.co_filename
        internal = known.get(filename)
        if internal is None:
            internal = _internal(frame)
        if not internal:
            return filename, frame.f_lineno
        frame = frame.f_back
    return None


def user_stacklevel() -> int:
    """The `stacklevel` that makes a warning raised by the caller name the user's line
    (the innermost frame outside lazyarr and NumPy), however deep the call is."""
    frame, level = sys._getframe(1), 1
    while frame is not None and _internal(frame):
        frame, level = frame.f_back, level + 1
    return level


class BackendFailure(RuntimeError):
    """A backend failed to compile or run a program (a compiler error, out of memory).

    Nothing was changed: every array keeps its state from before the flush, so the
    program can be retried (on another backend, or after freeing memory)."""

    @classmethod
    def from_program(cls, what: str, program, error: BaseException, instruction=None):
        instructions = program.instructions
        if instruction is None and instructions:  # name the largest result: the likely culprit
            instruction = max(instructions, key=lambda ins: _nbytes(ins.shape, ins.dtype))
        lines = str(error).strip().splitlines() or [""]
        detail = lines[0][:500] + (" [...]" if len(lines) > 1 or len(lines[0]) > 500 else "")
        message = (f"{what} a program of {len(instructions)} operations: "
                   f"{type(error).__name__}: {detail}")
        if instruction is not None:
            k = instructions.index(instruction)
            site = program.sites[k] if k < len(program.sites) else None
            where = f"{site[0]}, line {site[1]}" if site else "an unknown line"
            message += (f"\n  operation: {instruction.op.name} -> shape {instruction.shape}, "
                        f"dtype {instruction.dtype}, created at {where}")
        message += "\n  No array was changed; the pending arrays can still be used."
        if cls is BackendFailure and out_of_memory(error):
            return BackendMemoryError(message)
        return cls(message)


class BackendMemoryError(BackendFailure, MemoryError):
    """A backend could not allocate what a program needs (XLA's RESOURCE_EXHAUSTED):
    NumPy's MemoryError, and a BackendFailure (nothing was changed)."""


def out_of_memory(error: BaseException) -> bool:
    """Whether a backend's error is a failed allocation."""
    if isinstance(error, MemoryError):
        return True
    text = str(error)
    return "RESOURCE_EXHAUSTED" in text or "Out of memory" in text


class PeerFailure(BackendFailure):
    """Another process of a multi-process run (lazyarr.distributed) failed: a program
    or a host read that needs its devices cannot run. `processes` names the failed
    processes. Arrays held by this process alone stay usable."""

    processes: tuple[int, ...] = ()


def _nbytes(shape, dtype) -> int:
    n = dtype.itemsize
    for d in shape:
        n *= d
    return n
