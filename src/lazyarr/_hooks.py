"""Registering lazyarr with an optional library when (and only if) it is imported: a
meta-path finder that runs a callback once the library's package has executed, or at
once when it is already imported. lazyarr itself never imports numba or (outside the
XLA backend) jax."""

from __future__ import annotations

import sys

_pending: dict[str, list] = {}


class _AfterImport:
    """A meta-path finder (the protocol is `find_spec` alone: importlib.abc's base
    class, with the importlib.resources it imports, was 55 ms of `import lazyarr`)."""

    def find_spec(self, name, path=None, target=None):
        callbacks = _pending.pop(name, None)
        if callbacks is None:
            return None
        if not _pending:
            sys.meta_path.remove(self)
        import importlib.util  # noqa: PLC0415  (only as a hooked library is imported)
        try:
            spec = importlib.util.find_spec(name)
        except (ImportError, ValueError):
            return None
        if spec is None or spec.loader is None or not hasattr(spec.loader, "exec_module"):
            return spec
        execute = spec.loader.exec_module

        def exec_module(module):
            execute(module)
            for callback in callbacks:
                callback()
        spec.loader.exec_module = exec_module
        return spec


_finder = _AfterImport()


def when_imported(name: str, callback) -> None:
    """Run `callback()` once module `name` is imported (now, if it already is)."""
    if name in sys.modules:
        callback()
        return
    _pending.setdefault(name, []).append(callback)
    if _finder not in sys.meta_path:
        sys.meta_path.insert(0, _finder)
