"""Products and contractions of the main namespace: dot, matmul, tensordot, einsum,
inner, outer, vdot, vecdot, matvec, vecmat, kron, cross and trace (the
`numpy.linalg` submodule lives elsewhere; matrix_transpose is in manipulation).

Every contraction resolves NumPy's result dtype, casts its operands to it and builds a
single `einsum` primitive with explicit subscripts, so a backend sees one contraction
(one dot_general on XLA). An operand's broadcast axes of size 1 are squeezed out (or,
for a summed letter, broadcast), so the primitive's operands agree on every letter's size.
Products without a sum (outer, kron, a 0-d operand of dot) are NumPy's `multiply`.
"""

from __future__ import annotations

import operator
import warnings

import numpy as np

from .._errors import user_stacklevel
from .. import _dtypes
from .._ops import broadcast_shapes
from . import export
from .common import (apply, Array, as_array, astype, normalize_axis, reshape_node,
                     transpose_node, wrap, write_out)
from .elementwise import check_weak_operands, multiply, negative, subtract
from .shapes import diagonal

# einsum's 52 labels (string.ascii_letters; the string module was 0.4 ms of `import
# lazyarr`), and in NumPy's sublist order below
LETTERS = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
_SUBLIST_LETTERS = LETTERS[26:] + LETTERS[:26]
_CASTINGS = ("no", "equiv", "safe", "same_kind", "unsafe")


# ----- shared helpers -------------------------------------------------------------

def _broadcast(shapes, func: str) -> tuple[int, ...]:
    try:
        return broadcast_shapes(*shapes)
    except ValueError:
        raise ValueError(f"{func}: operands could not be broadcast together with shapes "
                         + " ".join(map(str, shapes))) from None


def _fresh_letters(count: int, used: str, func: str) -> str:
    free = [c for c in LETTERS if c not in used]
    if count > len(free):
        raise ValueError(f"{func}: too many dimensions ({count + len(used)}) for the 52 "
                         "einsum labels")
    return "".join(free[:count])


def _operand(x: Array, dtype, conj: bool = False):
    """`x`'s node cast to `dtype` (and conjugated when asked and complex)."""
    node = astype(x, dtype)._node
    return apply("conjugate", node) if conj and _dtypes.is_complex(dtype) else node


def _unbroadcast(node, term: str, sizes: dict, output: str):
    """An operand whose size-1 axes meet a larger size: squeezed away when the letter is
    in the output (exact), broadcast when it is summed, so every product NumPy adds
    is added (no sum is factored out, which would change NaN * 0 and empty sums)."""
    shape = tuple(sizes[c] if c not in output else n for c, n in zip(term, node.shape))
    node = apply("broadcast_to", node, shape=shape) if shape != node.shape else node
    keep = [i for i, (c, n) in enumerate(zip(term, shape)) if n == sizes[c]]
    if len(keep) == len(term):
        return node, term
    return reshape_node(node, tuple(shape[i] for i in keep)), "".join(term[i] for i in keep)


def _einsum(operands, out: str, sizes: dict | None = None, scalar: bool = True) -> Array:
    """One einsum node over (node, term) pairs, all already in the result dtype."""
    if sizes is not None:
        operands = [_unbroadcast(n, t, sizes, out) for n, t in operands]
    subscripts = ",".join(t for _, t in operands) + "->" + out
    return wrap(apply("einsum", *(n for n, _ in operands), subscripts=subscripts), scalar)


def _resolve_dtype(func: str, arrays, dtype, casting: str):
    """`dtype`, or NumPy's result type of `arrays`, once each input casts to it."""
    if casting not in _CASTINGS:
        raise ValueError(f"{func}: casting must be one of {', '.join(map(repr, _CASTINGS))} "
                         f"(got {casting!r})")
    dtype = _dtypes.result_type(*arrays) if dtype is None else _dtypes.as_dtype(dtype)
    for k, x in enumerate(arrays):
        if not np.can_cast(x.dtype, dtype, casting):
            raise TypeError(f"{func}: cannot cast input {k} from {x.dtype!r} to {dtype!r} "
                            f"with casting rule {casting!r}")
    return dtype


def _move_last(node, axis: int):
    """`node` with its last axis moved to position `axis` (NumPy's moveaxis(x, -1, axis))."""
    order = list(range(len(node.shape) - 1))
    order.insert(axis, len(node.shape) - 1)
    return transpose_node(node, tuple(order))


def _to_last(node, axis: int):
    """`node` with axis `axis` moved to the end."""
    nd = len(node.shape)
    return transpose_node(node, tuple(i for i in range(nd) if i != axis) + (axis,))


def _product(a: Array, b: Array, shape_a: tuple, shape_b: tuple) -> Array:
    """NumPy's `multiply` of `a` and `b` viewed with the given shapes."""
    return multiply(wrap(reshape_node(a._node, shape_a), False),
                    wrap(reshape_node(b._node, shape_b), False))


def _not_aligned(a: Array, b: Array, dim_a: int, dim_b: int, func: str):
    return ValueError(f"{func}: shapes {a.shape} and {b.shape} not aligned: "
                      f"{a.shape[dim_a]} (dim {dim_a}) != {b.shape[dim_b]} (dim {dim_b})")


# ----- dot, inner, vdot, outer, kron --------------------------------------------

@export
def dot(a, b, out=None):
    """NumPy's dot: a product for 0-d operands, else the sum over `a`'s last axis and
    `b`'s second-to-last (its only one when 1-d)."""
    a, b = as_array(a), as_array(b)
    if a.ndim == 0 or b.ndim == 0:
        result = multiply(a, b)
    else:
        k = max(b.ndim - 2, 0)
        if a.shape[-1] != b.shape[k]:
            raise _not_aligned(a, b, a.ndim - 1, k, "dot")
        dtype = _dtypes.result_type(a, b)
        ta = LETTERS[:a.ndim]
        tb = LETTERS[a.ndim:a.ndim + b.ndim - 1]
        tb = tb[:k] + ta[-1] + tb[k:]
        result = _einsum([(_operand(a, dtype), ta), (_operand(b, dtype), tb)],
                         ta[:-1] + tb[:k] + tb[k + 1:])
    if out is not None and (not isinstance(out, Array) or out.dtype != result.dtype
                            or out.shape != result.shape):
        raise ValueError("dot: output array is not acceptable (must have the right "
                         "datatype, number of dimensions, and be a C-Array)")
    return write_out(out, result, "dot")


@export
def inner(a, b, /):
    """NumPy's inner: the sum over the last axes of both (a product for 0-d operands)."""
    a, b = as_array(a), as_array(b)
    if a.ndim == 0 or b.ndim == 0:
        return multiply(a, b)
    if a.shape[-1] != b.shape[-1]:
        raise _not_aligned(a, b, a.ndim - 1, b.ndim - 1, "inner")
    dtype = _dtypes.result_type(a, b)
    ta = LETTERS[:a.ndim]
    tb = LETTERS[a.ndim:a.ndim + b.ndim - 1] + ta[-1]
    return _einsum([(_operand(a, dtype), ta), (_operand(b, dtype), tb)], ta[:-1] + tb[:-1])


@export
def vdot(a, b, /):
    """NumPy's vdot: both flattened, the first conjugated, then their dot product."""
    a, b = as_array(a), as_array(b)
    if a.size != b.size:
        raise ValueError(f"vdot: the inputs have different sizes ({a.size} and {b.size})")
    dtype = _dtypes.result_type(a, b)
    flat = (a.size,)
    return _einsum([(reshape_node(_operand(a, dtype, conj=True), flat), "i"),
                    (reshape_node(_operand(b, dtype), flat), "i")], "")


@export
def outer(a, b, out=None):
    """NumPy's outer: every product of the flattened inputs, shape (a.size, b.size)."""
    a, b = as_array(a), as_array(b)
    return write_out(out, _product(a, b, (a.size, 1), (1, b.size)), "outer")


@export
def kron(a, b):
    """NumPy's Kronecker product: blocks of `b` scaled by the elements of `a`."""
    a, b = as_array(a), as_array(b)
    nd = max(a.ndim, b.ndim)
    if nd == 0 or b.ndim == 0:
        return multiply(a, b)
    sa = (1,) * (nd - a.ndim) + a.shape
    sb = (1,) * (nd - b.ndim) + b.shape
    # a's axes at the even positions, b's at the odd ones, then each pair merged.
    spread = _product(a, b, sum(((n, 1) for n in sa), ()), sum(((1, n) for n in sb), ()))
    return wrap(reshape_node(spread._node, tuple(m * n for m, n in zip(sa, sb))), False)


# ----- tensordot ------------------------------------------------------------------

def _axis_list(axes) -> list:
    try:
        return list(axes)
    except TypeError:
        return [axes]


@export
def tensordot(a, b, axes=2):
    """NumPy's tensordot: the sum over `axes` (an int N: the last N of `a` with the
    first N of `b`; or a pair of axis sequences). Free axes of `a`, then of `b`."""
    try:
        iter(axes)
    except TypeError:
        n = operator.index(axes)
        axes_a, axes_b = list(range(-n, 0)), list(range(n))
    else:
        axes_a, axes_b = axes
        axes_a, axes_b = _axis_list(axes_a), _axis_list(axes_b)
    if len(set(axes_a)) != len(axes_a) or len(set(axes_b)) != len(axes_b):
        raise ValueError("tensordot: duplicate axes are not allowed")
    a, b = as_array(a), as_array(b)
    if len(axes_a) != len(axes_b):
        raise ValueError(f"tensordot: shape-mismatch for sum: {len(axes_a)} axes of a, "
                         f"{len(axes_b)} of b")
    pairs = []
    for i, j in zip(axes_a, axes_b):
        i, j = operator.index(i), operator.index(j)
        if not (-a.ndim <= i < a.ndim and -b.ndim <= j < b.ndim):
            raise IndexError(f"tensordot: axis pair ({i}, {j}) is out of range for shapes "
                             f"{a.shape} and {b.shape}")
        if a.shape[i] != b.shape[j]:
            raise ValueError(f"tensordot: shape-mismatch for sum: axis {i} of a has size "
                             f"{a.shape[i]}, axis {j} of b has {b.shape[j]}")
        pairs.append((i % a.ndim, j % b.ndim))
    if len({i for i, _ in pairs}) != len(pairs) or len({j for _, j in pairs}) != len(pairs):
        raise ValueError("tensordot: repeated axis after normalizing negative axes")
    dtype = _dtypes.result_type(a, b)
    ta = LETTERS[:a.ndim]
    tb = list(LETTERS[a.ndim:a.ndim + b.ndim])
    for i, j in pairs:
        tb[j] = ta[i]
    tb = "".join(tb)
    summed = {ta[i] for i, _ in pairs}
    out = "".join(c for c in ta + tb if c not in summed)
    return _einsum([(_operand(a, dtype), ta), (_operand(b, dtype), tb)], out, scalar=False)


# ----- generalized ufuncs: matmul, vecdot, matvec, vecmat ---------------------------

def _gufunc(func: str, signature: str, x1: Array, x2: Array, cores: tuple[str, str, str],
            dtype, casting: str, conj_first: bool = False) -> Array:
    """A contraction with NumPy's gufunc rules: core axes last (letters in `cores`, as
    in "ij", "jk", "ik"), the other axes broadcast together in front."""
    arrays = (x1, x2)
    sizes: dict[str, int] = {}
    for k, (x, core) in enumerate(zip(arrays, cores)):
        if x.ndim < len(core):
            raise ValueError(f"{func}: Input operand {k} does not have enough dimensions "
                             f"(has {x.ndim}, gufunc core with signature {signature} "
                             f"requires {len(core)})")
        for c, n in zip(core, x.shape[x.ndim - len(core):]):
            if sizes.setdefault(c, n) != n:
                raise ValueError(f"{func}: Input operand {k} has a mismatch in its core "
                                 f"dimension {core.index(c)}, with gufunc signature "
                                 f"{signature} (size {n} is different from {sizes[c]})")
    batches = [x.shape[:x.ndim - len(core)] for x, core in zip(arrays, cores)]
    batch = _broadcast(batches, func)
    letters = _fresh_letters(len(batch), "".join(cores), func)
    sizes.update(zip(letters, batch))
    dtype = _resolve_dtype(func, arrays, dtype, casting)
    operands = [(_operand(x, dtype, conj=conj_first and k == 0),
                 letters[len(batch) - len(s):] + core)
                for k, (x, s, core) in enumerate(zip(arrays, batches, cores))]
    return _einsum(operands, letters + cores[2], sizes)


@export
def matmul(x1, x2, /, out=None, *, casting="same_kind", dtype=None):
    """NumPy's matmul: matrix products over broadcast batch axes; a 1-d operand is a
    row (first) or column (second) vector whose axis is removed from the result."""
    check_weak_operands(np.matmul, (x1, x2), dtype)  # NumPy converts scalars first
    a, b = (x if type(x) in (bool, int, float, complex) else as_array(x) for x in (x1, x2))
    for k, x in enumerate((a, b)):
        if np.ndim(x) == 0:
            raise ValueError(f"matmul: Input operand {k} does not have enough dimensions "
                             "(has 0, gufunc core with signature (n?,k),(k,m?)->(n?,m?) "
                             "requires 1)")
    cores = ("ij" if a.ndim > 1 else "j", "jk" if b.ndim > 1 else "j",
             ("i" if a.ndim > 1 else "") + ("k" if b.ndim > 1 else ""))
    result = _gufunc("matmul", "(n?,k),(k,m?)->(n?,m?)", a, b, cores, dtype, casting)
    return write_out(out, result, "matmul", casting)


@export
def vecdot(x1, x2, /, out=None, *, casting="same_kind", dtype=None, axis=None):
    """NumPy 2's vecdot (the Array API's): sum of conj(x1) * x2 over `axis` (default
    the last), other axes broadcast."""
    a, b = as_array(x1), as_array(x2)
    if axis is not None:  # move each operand's core axis last (0-d ones are reported below)
        a, b = (wrap(_to_last(x._node, normalize_axis(axis, x.ndim, "vecdot")), False)
                if x.ndim else x for x in (a, b))
    result = _gufunc("vecdot", "(n),(n)->()", a, b, ("i", "i", ""), dtype, casting,
                     conj_first=True)
    return write_out(out, result, "vecdot", casting)


@export
def matvec(x1, x2, /, out=None, *, casting="same_kind", dtype=None):
    """NumPy 2.2's matvec: matrix-vector products over broadcast batch axes."""
    result = _gufunc("matvec", "(m,n),(n)->(m)", as_array(x1), as_array(x2),
                     ("ij", "j", "i"), dtype, casting)
    return write_out(out, result, "matvec", casting)


@export
def vecmat(x1, x2, /, out=None, *, casting="same_kind", dtype=None):
    """NumPy 2.2's vecmat: conj(vector)-matrix products over broadcast batch axes."""
    result = _gufunc("vecmat", "(n),(n,m)->(m)", as_array(x1), as_array(x2),
                     ("j", "jk", "k"), dtype, casting, conj_first=True)
    return write_out(out, result, "vecmat", casting)


# ----- einsum ---------------------------------------------------------------------

def _parse_term(term: str, where: str) -> tuple[str, bool]:
    """A term's letters (with "." marking the ellipsis position) and whether it has one."""
    if "." in term.replace("...", "", 1):
        raise ValueError(f"einsum: subscripts {term!r} contain a '.' that is not part of "
                         f"one ellipsis ('...') in {where}")
    letters = term.replace("...", ".")
    for c in letters:
        if c != "." and c not in LETTERS:
            raise ValueError(f"einsum: invalid subscript {c!r} in {where}, subscripts must "
                             "be letters")
    return letters, "." in letters


def _from_sublists(operands: tuple) -> tuple[str, tuple]:
    """The interleaved form einsum(op0, sublist0, op1, sublist1, ..., [sublistout])."""
    def term(sublist):
        out = []
        for s in sublist:
            if s is Ellipsis:
                out.append("...")
                continue
            if isinstance(s, bool) or not isinstance(s, (int, np.integer)):
                raise TypeError("einsum: each subscript must be either an integer or an "
                                f"ellipsis, not {s!r}")
            if not 0 <= s < 52:
                raise ValueError(f"einsum: subscript {s} is not within the valid range "
                                 "[0, 52)")
            out.append(_SUBLIST_LETTERS[s])
        return "".join(out)
    pairs = len(operands) // 2
    subscripts = ",".join(term(s) for s in operands[1:2 * pairs:2])
    if len(operands) % 2:
        subscripts += "->" + term(operands[-1])
    return subscripts, operands[0:2 * pairs:2]


def _einsum_plan(subscripts: str, shapes):
    """Parse NumPy's einsum subscripts against the operand shapes.

    Returns (terms, output, sizes): explicit terms with the ellipsis replaced by fresh
    letters, the output term, and each letter's (broadcast) size.
    """
    subscripts = subscripts.replace(" ", "")
    ins, arrow, out = subscripts.partition("->")
    if "-" in ins + out or ">" in ins + out:
        raise ValueError(f"einsum: subscripts {subscripts!r} have a '-' or '>' that is not "
                         "part of one '->'")
    terms = ins.split(",")
    if len(terms) != len(shapes):
        raise ValueError(f"einsum: subscripts {subscripts!r} name {len(terms)} operands, "
                         f"{len(shapes)} were given")
    parsed = [_parse_term(t, f"operand {k}") for k, t in enumerate(terms)]
    ell_shapes = []
    for k, ((letters, has_ell), shape) in enumerate(zip(parsed, shapes)):
        named = len(letters) - has_ell
        if named > len(shape) or (named < len(shape) and not has_ell):
            raise ValueError(f"einsum: operand {k} has {len(shape)} dimensions, subscripts "
                             f"{terms[k]!r} give {named} and no '...' for the others")
        if has_ell:
            start = letters.index(".")
            ell_shapes.append(shape[start:start + len(shape) - named])
    ell_shape = _broadcast(ell_shapes, "einsum") if ell_shapes else ()
    used = "".join(letters for letters, _ in parsed)
    ell = _fresh_letters(len(ell_shape), used, "einsum")
    # Each operand's ellipsis axes take the last of the broadcast ellipsis letters.
    expanded = [letters.replace(".", ell[len(ell) - len(shape) + len(letters) - has_ell:])
                for (letters, has_ell), shape in zip(parsed, shapes)]

    if arrow:
        out_letters, out_ell = _parse_term(out, "the output")
        for c in out_letters.replace(".", ""):
            if c not in used:
                raise ValueError(f"einsum: output subscript {c!r} never appears in an input")
            if out_letters.count(c) > 1:
                raise ValueError(f"einsum: output subscript {c!r} appears more than once")
        if ell and not out_ell:
            raise ValueError("einsum: output has more dimensions than subscripts given, but "
                             "no '...' ellipsis provided to broadcast the extra dimensions")
        output = out_letters.replace(".", ell)
    else:
        once = sorted(c for c in set(used) if used.count(c) == 1 and c != ".")
        output = ell + "".join(once)

    sizes: dict[str, int] = {}
    for k, (term, shape) in enumerate(zip(expanded, shapes)):
        own: dict[str, int] = {}
        for c, n in zip(term, shape):
            if own.setdefault(c, n) != n:
                raise ValueError(f"einsum: dimensions in operand {k} for collapsing index "
                                 f"{c!r} don't match ({own[c]} != {n})")
        for c, n in own.items():  # sizes of 1 broadcast against the others
            if sizes.get(c, 1) == 1:
                sizes[c] = n
            elif n not in (1, sizes[c]):
                raise ValueError(f"einsum: operand {k} has size {n} for index {c!r}, "
                                 f"another operand has {sizes[c]}")
    return expanded, output, sizes


@export
def einsum(*operands, out=None, dtype=None, order="K", casting="safe", optimize=False):
    """NumPy's einsum with optimize=False semantics: string or interleaved subscripts,
    implicit or explicit output, '...' broadcasting, repeated indices (diagonals) and
    sums over indices absent from the output. `order` and `optimize` do not change the
    result; the contraction is one einsum node whatever its shape."""
    if not operands:
        raise TypeError("einsum: at least one operand is required")
    subscripts, arrays = operands[0], operands[1:]
    if not isinstance(subscripts, str):
        subscripts, arrays = _from_sublists(operands)
    arrays = [as_array(x) for x in arrays]
    terms, output, sizes = _einsum_plan(subscripts, [x.shape for x in arrays])
    # NumPy returns a view, ignoring dtype and casting, for one operand with no sum.
    if len(arrays) == 1 and out is None and set(terms[0]) <= set(output):
        dtype = arrays[0].dtype
    dtype = _resolve_dtype("einsum", arrays, dtype, casting)
    result = _einsum([(_operand(x, dtype), t) for x, t in zip(arrays, terms)], output, sizes)
    return write_out(out, result, "einsum", casting)


# ----- cross ----------------------------------------------------------------------

def _component(node, k: int) -> Array:
    """Component `k` of the vectors along `node`'s last axis."""
    shape = node.shape
    part = apply("slice", node, starts=(0,) * (len(shape) - 1) + (k,),
                 stops=shape[:-1] + (k + 1,), steps=(1,) * len(shape))
    return wrap(reshape_node(part, shape[:-1]), False)


@export
def cross(a, b, axisa=-1, axisb=-1, axisc=-1, axis=None):
    """NumPy's cross product of 3-vectors (or 2-vectors, deprecated as in NumPy 2) along
    `axisa`/`axisb`, placed along `axisc`; two 2-vectors give the z component only."""
    if axis is not None:
        axisa = axisb = axisc = axis
    a, b = as_array(a), as_array(b)
    if a.ndim < 1 or b.ndim < 1:
        raise ValueError("cross: at least one array has zero dimension")
    axisa = normalize_axis(axisa, a.ndim, "cross: axisa")
    axisb = normalize_axis(axisb, b.ndim, "cross: axisb")
    da, db = a.shape[axisa], b.shape[axisb]
    if da not in (2, 3) or db not in (2, 3):
        raise ValueError(f"cross: incompatible dimensions for cross product (dimension must "
                         f"be 2 or 3), got {da} and {db}")
    if da == 2 or db == 2:
        warnings.warn("Arrays of 2-dimensional vectors are deprecated. Use arrays of "
                      "3-dimensional vectors instead. (deprecated in NumPy 2.0)",
                      DeprecationWarning, stacklevel=user_stacklevel())
    shape = _broadcast([a.shape[:axisa] + a.shape[axisa + 1:],
                        b.shape[:axisb] + b.shape[axisb + 1:]], "cross")
    if da == 3 or db == 3:
        axisc = normalize_axis(axisc, len(shape) + 1, "cross: axisc")
    dtype = _dtypes.result_type(a, b)
    na = _to_last(astype(a, dtype)._node, axisa)
    nb = _to_last(astype(b, dtype)._node, axisb)
    a0, a1, b0, b1 = (_component(na, 0), _component(na, 1), _component(nb, 0),
                      _component(nb, 1))
    # NumPy's own formulas: a missing third component is never multiplied (0 * inf).
    z = subtract(multiply(a0, b1), multiply(a1, b0))
    if da == 2 and db == 2:
        return wrap(z._node, False)
    if da == 2:
        b2 = _component(nb, 2)
        x, y = multiply(a1, b2), negative(multiply(a0, b2))
    elif db == 2:
        a2 = _component(na, 2)
        x, y = negative(multiply(a2, b1)), multiply(a2, b0)
    else:
        a2, b2 = _component(na, 2), _component(nb, 2)
        x = subtract(multiply(a1, b2), multiply(a2, b1))
        y = subtract(multiply(a2, b0), multiply(a0, b2))
    parts = [apply("broadcast_to", c._node, shape=shape) if c.shape != shape else c._node
             for c in (x, y, z)]
    stacked = apply("concatenate", *(reshape_node(p, shape + (1,)) for p in parts),
                    axis=len(shape))
    return wrap(_move_last(stacked, axisc), False)


# ----- trace -------------------------------------------------------------------

def _sum_dtype(dtype: np.dtype) -> np.dtype:
    """The accumulator NumPy's sum uses by default: bool and small ints widen."""
    if _dtypes.is_bool(dtype) or (dtype.kind == "i" and dtype.itemsize < 8):
        return _dtypes.int64
    if dtype.kind == "u" and dtype.itemsize < 8:
        return _dtypes.uint64
    return dtype


@export
def trace(a, offset=0, axis1=0, axis2=1, dtype=None, out=None):
    """NumPy's trace: the sum along `diagonal(a, offset, axis1, axis2)`, in NumPy's sum
    dtype (int64/uint64 for bool and small ints) or `dtype`."""
    diag = diagonal(a, offset, axis1, axis2)
    dtype = _sum_dtype(diag.dtype) if dtype is None else _dtypes.as_dtype(dtype)
    node = apply("reduce_sum", astype(diag, dtype)._node, axes=(diag.ndim - 1,))
    return write_out(out, wrap(node), "trace", "unsafe")
