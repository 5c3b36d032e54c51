"""Ctrl-C during lazyarr's own work (a flush: loading a backend, compiling, running,
storing the results): deferred to the end of that work, then raised once.

Python raises KeyboardInterrupt at whatever bytecode runs when the signal arrives: in
the middle of importing jax (which leaves `jax` half-initialized for the rest of the
process), between a compile and the cache that records it, or between a run that
consumed donated buffers and the arrays that take its results. Within `deferred()`
the main thread's SIGINT handler only notes the interrupt; the KeyboardInterrupt is
raised when the outermost block ends, with every structure whole, so the interrupted
statement can simply be run again. A second Ctrl-C within the same block raises at
once (the escape from a block that takes long). Python's C code (an XLA run, a NumPy
loop) is not interruptible either way: the signal is seen when it returns.

lazyarr's handler replaces Python's default one at the first flush (once: setting a
handler costs microseconds, too much per flush) and outside lazyarr's blocks acts as
it does, raising KeyboardInterrupt at once. A user's own SIGINT handler is left alone:
lazyarr installs its handler only over Python's default, and one set later replaces it.
"""

from __future__ import annotations

import _signal as signal  # signal.py's enums (IntEnum of every signal) cost 0.7-1.6 ms
import threading

_MAIN = threading.main_thread().ident


class _Deferral:
    """`with deferred():` (re-entrant: the outermost block in the main thread raises)."""

    __slots__ = ("depth", "pending", "installed")

    def __init__(self):
        self.depth = 0
        self.pending = False
        self.installed = False

    def handler(self, signum, frame):
        """lazyarr's SIGINT handler: Python's default outside a block; inside, the
        first Ctrl-C is noted and a second one raises at once."""
        if self.depth == 0 or self.pending:
            self.pending = False
            raise KeyboardInterrupt
        self.pending = True

    def _install(self) -> None:
        self.installed = True
        try:
            if signal.getsignal(signal.SIGINT) is signal.default_int_handler:
                signal.signal(signal.SIGINT, self.handler)
        except ValueError:  # not the main interpreter's main thread
            pass

    def __enter__(self):
        if not self.installed:
            self._install()
        self.depth += 1
        return self

    def __exit__(self, kind, value, traceback):
        self.depth -= 1
        if self.depth == 0 and self.pending:
            self.pending = False
            raise KeyboardInterrupt
        return False


class _Nothing:
    __slots__ = ()

    def __enter__(self):
        return self

    def __exit__(self, kind, value, traceback):
        return False


_deferral = _Deferral()
_NOTHING = _Nothing()


def deferred():
    """A block in which Ctrl-C is raised only at its end (in the main thread)."""
    return _deferral if threading.get_ident() == _MAIN else _NOTHING
