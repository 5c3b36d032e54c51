"""The in-memory cache of compiled executables: least recently used first out, bounded.

Each executable holds its machine code in memory for as long as it is kept (on the CPU,
about ten memory mappings of its own: a process that keeps every program it ever
compiled runs out of mappings after a few thousand, and LLVM then fails with "Cannot
allocate memory"). So the cache keeps at most `LAZYARR_PROGRAM_CACHE_SIZE` executables
(default `DEFAULT_SIZE`) and, where jax's `Compiled.memory_analysis()` reports the size
of the generated code (on GPUs; the CPU reports 0), at most
`LAZYARR_PROGRAM_CACHE_BYTES` bytes of it (default `DEFAULT_BYTES`). Both are read at
each insertion. A program evicted and seen again is loaded from the disk cache (or
compiled again), never wrong: evicting only drops an executable.

jax keeps state of its own for every function it traced and compiled (about 1.4 MB per
distinct program, measured with jax 0.10 on the CPU: 1,400 distinct `jax.jit(f).lower(...)
.compile()` grew the process from 206 to 2,239 MB, with the executables dropped), which
dropping the executable does not free. So each time a cache has evicted as many
programs as it may keep, it calls `churned` (the XLA backend: `jax.clear_caches()`, jax's
public call, which leaves every compiled executable intact; the user's own jitted
functions trace again once). A process whose programs fit the cache never clears them.
"""

from __future__ import annotations

import os
import threading
from collections import OrderedDict
from typing import Callable, Hashable

DEFAULT_SIZE = 512
DEFAULT_BYTES = 1 << 30


def _setting(name: str, default: int) -> int:
    """A positive integer from the environment variable `name`; ValueError otherwise."""
    text = os.environ.get(name, "").strip()
    if not text:
        return default
    try:
        value = int(text)
    except ValueError:
        value = 0
    if value < 1:
        raise ValueError(f"{name} must be a positive integer, not {text!r}")
    return value


def limits() -> tuple[int, int]:
    """(executables, bytes of generated code) the cache may keep, from the environment."""
    return (_setting("LAZYARR_PROGRAM_CACHE_SIZE", DEFAULT_SIZE),
            _setting("LAZYARR_PROGRAM_CACHE_BYTES", DEFAULT_BYTES))


def code_bytes(executable) -> int:
    """The generated code's size of a jax `Compiled`, where jax reports it (else 0)."""
    try:
        stats = executable.memory_analysis()
        return int(getattr(stats, "generated_code_size_in_bytes", 0) or 0) + \
            int(getattr(stats, "host_generated_code_size_in_bytes", 0) or 0)
    except Exception:  # noqa: BLE001  (a backend without the analysis: count only)
        return 0


class ProgramCache:
    """A thread-safe LRU mapping keys to compiled programs; `evicted(value)` is called
    for each one dropped (outside the lock)."""

    def __init__(self, size_of: Callable[[object], int] = lambda value: 0,
                 evicted: Callable[[object], None] = lambda value: None,
                 churned: Callable[[], None] = lambda: None):
        self._items: OrderedDict = OrderedDict()
        self._sizes: dict = {}
        self._bytes = 0
        self._size_of = size_of
        self._evicted = evicted
        self._churned = churned
        self._since_churn = 0
        self._lock = threading.Lock()
        self.evictions = 0

    def get(self, key: Hashable):
        with self._lock:
            value = self._items.get(key)
            if value is not None:
                self._items.move_to_end(key)
            return value

    def put(self, key: Hashable, value, replace: bool = False):
        """Keep `value` under `key` (most recently used) and return what the cache holds
        there: an entry already present wins unless `replace`."""
        size = self._size_of(value)
        count, nbytes = limits()
        dropped = []
        with self._lock:
            held = self._items.get(key)
            if held is not None and not replace:
                self._items.move_to_end(key)
                return held
            if held is not None:
                self._bytes -= self._sizes.pop(key)
                del self._items[key]
            self._items[key] = value
            self._sizes[key] = size
            self._bytes += size
            while len(self._items) > 1 and (len(self._items) > count or self._bytes > nbytes):
                old_key, old = self._items.popitem(last=False)
                self._bytes -= self._sizes.pop(old_key)
                self.evictions += 1
                dropped.append(old)
            self._since_churn += len(dropped)
            churn = self._since_churn >= count
            if churn:
                self._since_churn = 0
        for old in dropped:
            if old is not value:
                self._evicted(old)
        if churn:
            self._churned()
        return value

    def __contains__(self, key) -> bool:
        with self._lock:
            return key in self._items

    def __len__(self) -> int:
        return len(self._items)

    def keys(self) -> list:
        with self._lock:
            return list(self._items)

    def nbytes(self) -> int:
        """Bytes of generated code held (0 where jax does not report it)."""
        return self._bytes
