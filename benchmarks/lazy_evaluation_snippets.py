"""The before/after snippets of docs/lazy-evaluation.md's checklist, timed:
`python -m benchmarks.lazy_evaluation_snippets`.

The snippets are the page's ```python notest blocks, read from the page itself, so the
page shows the code that was measured. Each function `NAME_before(np)` / `NAME_after(np)`
runs as NumPy, then as lazyarr on the XLA backend twice in this process (the first call
compiles; the disk cache is off, so it compiles every time the script runs), checked
against NumPy's result. Prints a markdown table.
"""

from __future__ import annotations

import os
import re
import sys
import time
from pathlib import Path

import numpy

PAGE = Path(__file__).resolve().parent.parent / "docs" / "lazy-evaluation.md"


def snippets() -> dict:
    """The functions the page's notest blocks define, by name."""
    namespace: dict = {}
    for code in re.findall(r"^```python notest\n(.*?)^```", PAGE.read_text(), re.S | re.M):
        exec(compile(code, str(PAGE), "exec"), namespace)
    return {k: v for k, v in namespace.items() if k.endswith(("_before", "_after"))}


def _timed(fn, np):
    start = time.perf_counter()
    result = fn(np)
    return time.perf_counter() - start, result


def main() -> int:
    os.environ.setdefault("LAZYARR_CACHE_DIR", "off")
    import lazyarr
    lazyarr.set_backend("xla")
    print("| snippet | numpy | lazyarr first call | flushes | compiles | lazyarr second call |")
    print("|---|---|---|---|---|---|")
    for name, fn in snippets().items():
        t_numpy, expected = _timed(fn, numpy)
        lazyarr.reset_stats()
        t_first, result = _timed(fn, lazyarr)
        stats = lazyarr.stats()
        t_second, _ = _timed(fn, lazyarr)
        numpy.testing.assert_allclose(result, expected, rtol=1e-12)
        print(f"| `{name}` | {t_numpy:.3f} s | {t_first:.2f} s | {stats['flushes_total']} | "
              f"{stats['compiles']} ({stats['compile_seconds']:.2f} s) | {t_second:.3f} s |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
