"""`lazyarr.explain(*arrays, lowered=False)`: what a flush of `arrays` would run.

It builds the same program the next flush would (the arrays, plus every live pending
array sharing work with them, see `_flush.evaluate`) without running it or changing
any state, and describes it: one line per operation with its operands, shape, dtype
and the user's line that recorded it (a shared operand is listed once and referred to
by its slot), then the program's inputs (arrays, runtime scalars, offsets), whether the
backend has it compiled, and on request the backend's lowered program text.
"""

from __future__ import annotations

from . import _backend, _flush, _tiers
from ._array import Array
from ._graph import topological_order
from ._observe import short_name
from .backend_api import compiled_in

_ATTR_WIDTH = 48


class Explanation(str):
    """The text of `explain`; shown as it is (not quoted) at the interactive prompt."""
    __slots__ = ()

    def __repr__(self) -> str:
        return str(self)


def _attrs(attrs: tuple) -> str:
    parts = []
    for name, value in attrs:
        text = repr(value)
        if len(text) > _ATTR_WIDTH:
            text = text[:_ATTR_WIDTH - 3] + "..."
        parts.append(f"{name}={text}")
    return " ".join(parts)


def _nbytes(shape, dtype) -> int:
    n = dtype.itemsize
    for d in shape:
        n *= d
    return n


def _plural(n: int, word: str) -> str:
    return f"{n} {word}{'' if n == 1 else 's'}"


def explain(*arrays, lowered: bool = False) -> Explanation:
    """The pending graph behind `arrays` and the program a flush would make of it.

    One line per operation (slot, primitive, operands, attributes, shape, dtype, the
    user's file:line), then the program: its size, its inputs (which are runtime
    scalars and offsets, so that other values run the same compiled program), whether
    the current backend has it compiled (in memory or on disk) and how it would run it;
    with `lowered=True`, the backend's lowered program text too."""
    if not arrays:
        raise TypeError("explain() takes one or more lazyarr arrays")
    for a in arrays:
        if not isinstance(a, Array):
            raise TypeError(f"explain() takes lazyarr arrays, not {type(a).__name__}")
    if not isinstance(lowered, bool):
        raise TypeError(f"explain(lowered=...) takes True or False, not {lowered!r}")
    nodes = [a._node for a in arrays]
    out = []
    for k, (a, node) in enumerate(zip(arrays, nodes)):
        if node.is_computed:
            name = f"array {k}" if len(arrays) > 1 else "the array"
            out.append(f"{name} ({a.shape} {a.dtype}) is computed: nothing is pending "
                       f"(its value is a buffer on {a.device})")
    pending = []
    for k, (a, node) in enumerate(zip(arrays, nodes)):
        if node.is_computed:
            continue
        if _host_view(node):
            name = f"array {k}" if len(arrays) > 1 else "the array"
            out.append(f"{name} ({a.shape} {a.dtype}) is a view of a computed buffer on the "
                       "CPU: reading it takes NumPy's view of the buffer, without a program")
        else:
            pending.append(node)
    if not pending:
        return Explanation("\n".join(out))
    roots = _flush._sharing_roots(pending)
    program, inputs = _flush.linearize(topological_order(roots), roots)
    out += _graph_lines(program, inputs, arrays, nodes, roots)
    out += _program_lines(program, inputs)
    if lowered:
        backend = _backend.current()
        text = getattr(backend, "lowered_text", None)
        out.append(f"lowered program ({backend.name} backend):")
        if text is None:
            out.append(f"  the {backend.name} backend does not show its lowered programs")
        else:
            out += ["  " + line for line in text(program, inputs).rstrip().splitlines()]
    return Explanation("\n".join(out))


def _host_view(node) -> bool:
    """Whether a flush reads `node` on the host without a program (as `_flush`'s host
    views do: slices, reshapes and transposes of one computed buffer on the CPU)."""
    ops = getattr(_flush, "HOST_VIEW_OPS", ())
    while not node.is_computed:
        if node.op not in ops:
            return False
        node = node.inputs[0]
    return type(node.value).__module__ == "numpy" or _backend.device_of(node) == "cpu"


def _graph_lines(program, inputs, arrays, nodes, roots) -> list[str]:
    n_in, n_ops = len(program.input_specs), program.operations()
    extra = len(roots) - len({id(n) for n in nodes if not n.is_computed})
    head = f"pending graph: {_plural(n_ops, 'operation')} on {_plural(n_in, 'input')}"
    if extra:
        head += (f"; the flush also computes {_plural(extra, 'other live array')} "
                 "sharing this work")
    lines = [head + ":"]
    offsets = _offset_slots(program)
    # Which results the arrays asked about (or other live arrays) are.
    results: dict[int, list[str]] = {}
    names = {id(n): k for k, n in enumerate(nodes)}
    for slot, root in zip(program.outputs, roots):
        k = names.get(id(root))
        label = (f"array {k}" if len(arrays) > 1 else "the array") if k is not None \
            else "a live array"
        results.setdefault(slot, []).append(label)
    rows = []
    compiled = compiled_in(program)[0]
    for i, ((shape, dtype), value) in enumerate(zip(program.input_specs, inputs)):
        if i in offsets:
            what = f"offsets {list(map(int, value))} (a runtime input)"
        elif i in compiled and shape == ():
            what = f"scalar {compiled[i]!r} (compiled in as a constant, below)"
        elif i in compiled:
            what = f"write position {list(compiled[i])} (compiled in as its `at`, below)"
        elif type(value).__module__ == "numpy" and getattr(value, "ndim", None) == 0:
            what = f"scalar {value.item()!r} (a runtime input)"
        else:
            what = "data" + (" on the host" if type(value).__module__ == "numpy" else "")
        rows.append((f"%{i}", "input", "", f"{shape} {dtype}", what))
    for k, ins in enumerate(program.instructions):
        slot = n_in + k
        operands = " ".join(f"%{i}" for i in ins.inputs)
        attrs = _attrs(ins.attrs)
        site = program.sites[k] if k < len(program.sites) else None
        where = f"at {short_name(site)}" if site else ""
        if ins.op is _flush.CONSTANT:  # (its value, not its bytes)
            attrs = repr(ins.op.ref(**dict(ins.attrs)).item())
            where = (f"the value of %{dict(ins.attrs)['input']} while it stays the same "
                     "(then a runtime input)")
        rows.append((f"%{slot}", ins.op.name, (operands + " " + attrs).strip(),
                     f"{ins.shape} {ins.dtype}", where))
    widths = [max(len(r[c]) for r in rows) for c in range(4)]
    for index, row in enumerate(rows):
        text = "  " + "  ".join(cell.ljust(w) for cell, w in zip(row[:4], widths)) + "  " + row[4]
        labels = results.get(index)
        if labels:
            text += "  => " + ", ".join(labels)
        lines.append(text.rstrip())
    return lines


def _offset_slots(program) -> set[int]:
    """Inputs that are the start offsets of a dynamic slice (`a[i]`)."""
    return {ins.inputs[-1] for ins in program.instructions
            if ins.op is _flush.DYNAMIC_SLICE}


def _program_lines(program, inputs) -> list[str]:
    offsets, unread = _offset_slots(program), compiled_in(program)[0]
    at = [i for i in unread if program.input_specs[i][0] != ()]
    scalars = [i for i, (shape, _) in enumerate(program.input_specs)
               if shape == () and type(inputs[i]).__module__ == "numpy" and i not in offsets
               and i not in unread]
    arrays = [i for i in range(len(inputs)) if i not in offsets and i not in scalars
              and i not in unread]
    data = sum(_nbytes(*program.input_specs[i]) for i in arrays)
    scalar_kinds = sorted({str(program.input_specs[i][1]) for i in scalars})
    lines = [f"program: {_plural(program.operations(), 'operation')}, "
             f"{_plural(len(program.outputs), 'result')}; inputs: "
             f"{_plural(len(arrays), 'array')} ({data} bytes), "
             f"{_plural(len(scalars), 'runtime scalar')}"
             + (f" ({', '.join(scalar_kinds)})" if scalar_kinds else "")
             + f", {_plural(len(offsets), 'runtime offset')}"
             + (f", {_plural(len(unread) - len(at), 'scalar')} compiled in"
                if len(unread) > len(at) else "")
             + (f", {_plural(len(at), 'write position')} compiled in" if at else ""),
             "  (runtime scalars and offsets are inputs: other values run the same program; "
             "a value compiled in is made one once it changes; other shapes, "
             "dtypes or operations make another)"]
    backend = _backend.current()
    state = getattr(backend, "cache_state", None)
    where = f"{backend.name} backend on {backend.device}"
    if state is None:
        lines.append(f"  {where}: it does not report its program cache")
    else:
        lines.append(f"  {where}: {state(program, inputs)}")
    tier = _tier_line(backend, program, inputs)
    if tier:
        lines.append(f"  tier: {tier}")
    return lines


def _tier_line(backend, program, inputs) -> str | None:
    """Which tier (see `_tiers`) the next flush would run the program on, when the
    tiers apply to `backend` (a compiling backend on the CPU)."""
    try:
        forced = _tiers.tier()
    except ValueError as exc:
        return str(exc)
    if _tiers.unfaithful(backend, program):
        return (f"the NumPy interpreter, whatever the tier: {backend.name} does not compute "
                f"all of it as NumPy does on {_tiers.platform(backend)} (its `unfaithful`)")
    if forced == "opbyop" and _tiers.first_for(backend, forced) is not None:
        return "op by op, each primitive's cached executable on the device (LAZYARR_TIER=opbyop)"
    if not _tiers.interprets_first(backend):
        return None
    if forced == "compile":
        return "compiled before it runs (LAZYARR_TIER=compile)"
    if forced == "interpret":
        return "the NumPy interpreter (LAZYARR_TIER=interpret)"
    known = _tiers.state_of(program, backend.signature(program, inputs, frozenset()))
    if known is not None and _tiers.Policy.use_compiled(known):
        return "its compiled program (LAZYARR_TIER=auto)"
    runs = known.runs if known is not None else 0
    spent = known.interpreted_total if known is not None else 0.0
    if known is not None and (known.failed or known.slower):
        return ("the NumPy interpreter, for good: its compiled program "
                + ("failed" if known.failed else "ran slower"))
    return (f"the NumPy interpreter (LAZYARR_TIER=auto; run {runs + 1} of this structure, "
            f"{spent:.3g} s interpreted so far), unless compiled in memory or on disk; "
            f"compiled in the background from run {_tiers.HOT} on once the interpreted "
            f"seconds reach the compile estimate ({_tiers.compile_estimate(program):.2g} s), "
            f"or at once after an interpreted run of {_tiers.LONG_RUN_S:g} s and that "
            f"estimate")
