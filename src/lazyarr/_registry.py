"""The primitive registry: `Op` (a primitive's name, reference, shape and dtype rules
and runtime checks) and `OPS`, filled by the `_ops*` modules through `primitive`.

It imports only `_dtypes`, so each primitive family (`_ops`, `_ops_sort`,
`_ops_linalg`, `_ops_fft`, `_ops_mutation`) registers into it without importing
another; `_ops` loads them all.
"""

from __future__ import annotations

from typing import Callable

import numpy as np

from ._dtypes import kind as _kind

Shape = tuple[int, ...]


class Op:
    """A primitive: its name, its NumPy reference, its shape and dtype rules, and the
    runtime errors it may raise (`checks(input_dtypes, **attrs) -> ((error type,
    message), ...)`, None for none; programs list them as `backend_api.Check`s).
    Immutable, equal only to itself. (A plain class: a frozen dataclass's generated
    methods were 0.7 ms of `import lazyarr`.)"""

    __slots__ = ("name", "ref", "shape_rule", "dtype_rule", "checks")
    name: str
    ref: Callable[..., np.ndarray]
    shape_rule: Callable[..., Shape]
    dtype_rule: Callable[..., np.dtype]
    checks: Callable[..., tuple] | None

    def __init__(self, name: str, ref: Callable[..., np.ndarray],
                 shape_rule: Callable[..., Shape], dtype_rule: Callable[..., np.dtype],
                 checks: Callable[..., tuple] | None = None) -> None:
        for field, value in (("name", name), ("ref", ref), ("shape_rule", shape_rule),
                             ("dtype_rule", dtype_rule), ("checks", checks)):
            object.__setattr__(self, field, value)

    def __setattr__(self, name, value):
        raise AttributeError(f"cannot assign to field {name!r} of a primitive")

    def __delattr__(self, name):
        raise AttributeError(f"cannot delete field {name!r} of a primitive")

    def __repr__(self) -> str:
        return f"<primitive {self.name}>"


OPS: dict[str, Op] = {}


# ---------------------------------------------------------------------------------
# Strict rules. The public functions check the user's arguments (NumPy's errors); a
# primitive's rules then check what lazyarr itself built, so a mistake inside lazyarr
# fails where the node is built instead of producing a wrong program. A rule raises
# `RuleError(message)`; `_graph.apply` re-raises it as a `PrimitiveError` naming the
# primitive, its operands and its attributes. The checks are cheap comparisons; what is
# costly (the ufunc loop check) is cached per dtype combination.

class RuleError(Exception):
    """What a primitive's rule found wrong with the operands or attributes it got."""


class PrimitiveError(AssertionError):
    """lazyarr's internal error: a node was built that its primitive does not accept."""


def require(condition, message: str) -> None:
    if not condition:
        raise RuleError(message)


def axis_in(axis, ndim: int, what: str = "axis") -> int:
    """`axis`, which must be an int in [0, ndim) (primitives take normalized axes)."""
    if not isinstance(axis, (int, np.integer)) or not 0 <= axis < ndim:
        raise RuleError(f"{what} {axis!r} is not an axis of a {ndim}-d operand")
    return axis


def axes_in(axes, shape: tuple) -> tuple:
    """`shape`, when `axes` is a tuple of distinct ints in [0, len(shape)) (jax's
    reductions reject repeats)."""
    ndim = len(shape)
    if type(axes) is not tuple:
        raise RuleError(f"axes {axes!r} are not a tuple")
    for a in axes:
        if not isinstance(a, (int, np.integer)) or not 0 <= a < ndim:
            raise RuleError(f"axes {axes!r} are not axes of a {ndim}-d operand")
    if len(axes) > 1 and len(set(axes)) != len(axes):
        raise RuleError(f"axes {axes!r} repeat an axis")
    return shape


def same_dtypes(dtypes, what: str = "operands") -> np.dtype:
    """The one dtype of all `dtypes`."""
    first = dtypes[0]
    for d in dtypes:
        if d != first:
            raise RuleError(f"{what} have different dtypes {tuple(map(str, dtypes))}")
    return first


def kind_in(dtype, kinds: str, what: str = "operand") -> np.dtype:
    """`dtype`, whose kind must be one of `kinds` ("b", "i", "u", "f", "c"; ml_dtypes'
    floats are "f")."""
    if _kind(dtype) not in kinds:
        raise RuleError(f"{what} dtype {dtype} is not of kind {'/'.join(kinds)}")
    return dtype


def operand_count(items, n: int) -> None:
    if len(items) != n:
        raise RuleError(f"takes {n} operand(s), got {len(items)}")


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
