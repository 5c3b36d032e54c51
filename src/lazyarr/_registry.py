"""The primitive registry: `Op` (a primitive's name, reference, shape and dtype rules
and runtime checks) and `OPS`, filled by the `_ops*` modules through `primitive`.

It imports nothing of lazyarr's, so each primitive family (`_ops`, `_ops_sort`,
`_ops_linalg`, `_ops_fft`, `_ops_mutation`) registers into it without importing
another; `_ops` loads them all.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

import numpy as np

Shape = tuple[int, ...]


@dataclass(frozen=True, eq=False)
class Op:
    name: str
    ref: Callable[..., np.ndarray]
    shape_rule: Callable[..., Shape]
    dtype_rule: Callable[..., np.dtype]
    # The runtime errors it may raise: checks(input_dtypes, **attrs) -> ((error type,
    # message), ...); None for none. Programs list them (`backend_api.Check`).
    checks: Callable[..., tuple] | None = None

    def __repr__(self) -> str:
        return f"<primitive {self.name}>"


OPS: dict[str, Op] = {}


def register(op: Op) -> Op:
    """Add `op` to the registry; a name is registered once."""
    if op.name in OPS:
        raise ValueError(f"primitive {op.name!r} is registered twice")
    OPS[op.name] = op
    return op


def primitive(name: str, shape_rule, dtype_rule, checks=None):
    """Register the decorated NumPy function as the reference of primitive `name`."""
    def decorate(ref):
        register(Op(name, ref, shape_rule, dtype_rule, checks))
        return ref
    return decorate
