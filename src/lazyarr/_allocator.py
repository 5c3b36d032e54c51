"""How the C library's malloc serves buffers of a few MB (glibc, on Linux): set once,
when lazyarr is imported.

A loop over large arrays allocates and frees buffers of the same few sizes every step:
NumPy's temporaries on the interpreter tier, XLA's outputs on the compiled one. glibc
maps a buffer above its mmap threshold afresh, and trims the freed top of its heap
back to the system past its trim threshold; either way the next buffer's pages are
faulted in (and zeroed) by the kernel again, page by page. NumPy's Jacobi benchmark
took 63,000 page faults a call on this project's 2-core machine and none with the
settings below (`benchmarks` jacobi, 2000x2000 float64: 1.58 s against 1.12 s), and
on the TPU host's CPU, whose faults cost more, 5.1 s against 1.2 s; a `jax.jit` Game
of Life step of 2000x2000 int64 ran 50 steps in 359-362 ms, and in 143 ms so.

lazyarr fixes the mmap threshold at glibc's largest (32 MiB: smaller buffers come from
the heap, reused once freed) and keeps `TOP_PAD` bytes at the top of the heap when it
trims, so at most that much more stays resident after large temporaries are freed
(the peaks of NumPy's benchmarks on the TPU host grew by 0-2 MiB: jacobi, nbody,
shallow_water, diffusion, masking, life, monte_carlo_pi). Variables the user set
(`MALLOC_MMAP_THRESHOLD_`, `MALLOC_TOP_PAD_`) are left as set, and
`LAZYARR_MALLOC=system` leaves glibc's own policy alone.
"""

from __future__ import annotations

import ctypes
import os
import sys

MMAP_THRESHOLD = 32 << 20  # glibc's upper limit for it on a 64-bit system
TOP_PAD = 64 << 20
_M_TOP_PAD, _M_MMAP_THRESHOLD = -2, -3  # mallopt's parameters (malloc.h)
_SETTINGS = ((_M_MMAP_THRESHOLD, MMAP_THRESHOLD, "MALLOC_MMAP_THRESHOLD_"),
             (_M_TOP_PAD, TOP_PAD, "MALLOC_TOP_PAD_"))


def tune() -> bool:
    """Set glibc's large-buffer policy as the module says; whether anything was set (not
    on another C library or system, nor with LAZYARR_MALLOC=system)."""
    if os.environ.get("LAZYARR_MALLOC", "").strip().lower() == "system":
        return False
    if not sys.platform.startswith("linux"):
        return False
    try:
        libc = ctypes.CDLL(None)  # the C library the interpreter is linked against
        libc.gnu_get_libc_version  # (the parameters below are glibc's)
        mallopt = libc.mallopt
    except (OSError, AttributeError):
        return False
    done = False
    for parameter, value, variable in _SETTINGS:
        if variable not in os.environ:
            done = bool(mallopt(parameter, value)) or done
    return done


TUNED = tune()
