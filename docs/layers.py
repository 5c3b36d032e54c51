"""The module layers of `src/lazyarr` and of the built-in XLA backend's package
(`backends/xla/src/lazyarr_xla`), read from the real imports (ast, nothing is
imported): `python docs/layers.py` prints them as the tables that docs/architecture.md
holds between its "layers:begin"/"layers:end" and "xla-layers:begin"/"xla-layers:end"
marks; `--write` updates the page. tests/test_layering.py runs it, so the page cannot
drift from the code, and fails on an import cycle or an import of a package inside
one of its own functions.
"""

from __future__ import annotations

import ast
import pathlib
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "src" / "lazyarr"
XLA_PACKAGE = ROOT / "backends" / "xla" / "src" / "lazyarr_xla"
PACKAGES = (PACKAGE, XLA_PACKAGE)
PAGE = ROOT / "docs" / "architecture.md"
MARKS = {PACKAGE: ("<!-- layers:begin (docs/layers.py writes this table) -->",
                   "<!-- layers:end -->"),
         XLA_PACKAGE: ("<!-- xla-layers:begin (docs/layers.py writes this table) -->",
                       "<!-- xla-layers:end -->")}
# The built-in backends are their own distributions (DESIGN.md: the top-level
# backends/ folder); the core never imports them, and they are not layered here.
EXCLUDED = ("lazyarr.backends",)


def modules(package: pathlib.Path = PACKAGE) -> dict[str, pathlib.Path]:
    """Dotted module name -> file, for every module of the package."""
    found = {}
    for path in sorted(package.rglob("*.py")):
        parts = path.relative_to(package.parent).with_suffix("").parts
        name = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
        if not any(name == e or name.startswith(e + ".") for e in EXCLUDED):
            found[name] = path
    return found


def _targets(module: str, is_package: bool, node, known, root: str) -> list[str]:
    """The package modules an import statement names."""
    if isinstance(node, ast.Import):
        names = [alias.name for alias in node.names]
    else:
        if node.level:
            base = module.split(".")
            base = base[:len(base) - node.level + (1 if is_package else 0)]
            base = ".".join(base + ([node.module] if node.module else []))
        else:
            base = node.module
        names = [f"{base}.{a.name}" if f"{base}.{a.name}" in known else base
                 for a in node.names]
    return [n for n in names if n == root or n.startswith(root + ".")]


def imports(package: pathlib.Path = PACKAGE
            ) -> tuple[dict[str, set[str]], list[tuple[str, int, str]]]:
    """Each module's imports of other package modules (any level), and the imports of
    the package made inside a function: (module, line, target)."""
    known = modules(package)
    graph: dict[str, set[str]] = {m: set() for m in known}
    inside: list[tuple[str, int, str]] = []
    for module, path in known.items():
        tree = ast.parse(path.read_text(), str(path))
        is_package = path.name == "__init__.py"
        stack = [(tree, False)]
        while stack:
            node, in_function = stack.pop()
            if isinstance(node, (ast.Import, ast.ImportFrom)):
                for target in _targets(module, is_package, node, known, package.name):
                    if target in known and target != module:
                        graph[module].add(target)
                    if in_function:
                        inside.append((module, node.lineno, target))
            nested = in_function or isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef,
                                                      ast.Lambda))
            stack.extend((child, nested) for child in ast.iter_child_nodes(node))
    return graph, sorted(inside)


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components with more than one module (Tarjan's, with an
    explicit stack)."""
    index, low, on_stack, stack, found, counter = {}, {}, set(), [], [], [0]
    for start in graph:
        if start in index:
            continue
        work = [(start, iter(sorted(graph[start])))]
        index[start] = low[start] = counter[0]
        counter[0] += 1
        stack.append(start)
        on_stack.add(start)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = counter[0]
                    counter[0] += 1
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(graph[child]))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                component = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == node:
                        break
                if len(component) > 1:
                    found.append(sorted(component))
    return found


def layers(graph: dict[str, set[str]]) -> list[tuple[int, str, list[str]]]:
    """(layer, module, what it imports): a module's layer is one more than the highest
    layer among its imports (0 for none); acyclic graphs only."""
    level: dict[str, int] = {}
    for start in sorted(graph):
        stack = [start]
        while stack:
            module = stack[-1]
            pending = [m for m in graph[module] if m not in level]
            if pending:
                stack.extend(pending)
                continue
            stack.pop()
            level[module] = 1 + max((level[m] for m in graph[module]), default=-1)
    return sorted((level[m], m, sorted(graph[m])) for m in graph)


def _short(name: str, root: str) -> str:
    return name.removeprefix(root + ".") if name != root else root


def table(package: pathlib.Path = PACKAGE) -> str:
    graph, _ = imports(package)
    lines = ["| layer | module | imports (package modules) |", "|---|---|---|"]
    for layer, module, deps in layers(graph):
        shown = ", ".join(f"`{_short(d, package.name)}`" for d in deps) or "(none)"
        lines.append(f"| {layer} | `{_short(module, package.name)}` | {shown} |")
    return "\n".join(lines)


def page_with_table(page: str) -> str:
    for package, (begin, end) in MARKS.items():
        head, rest = page.split(begin, 1)
        _, tail = rest.split(end, 1)
        page = f"{head}{begin}\n{table(package)}\n{end}{tail}"
    return page


if __name__ == "__main__":
    failed = False
    for package in PACKAGES:
        graph, inside = imports(package)
        found = cycles(graph)
        for component in found:
            print("cycle:", ", ".join(component), file=sys.stderr)
        for module, line, target in inside:
            print(f"import inside a function: {module}:{line} -> {target}", file=sys.stderr)
        failed = failed or bool(found)
    if failed:
        sys.exit(1)
    if "--write" in sys.argv:
        PAGE.write_text(page_with_table(PAGE.read_text()))
    else:
        for package in PACKAGES:
            print(f"{package.name}:\n{table(package)}\n")
