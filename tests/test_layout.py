"""The package's shape, read from its source with `ast` (the README's "Layout").

Rules, each checked over every `import` statement in mcp_lab/ -- module level, inside functions and under
`if TYPE_CHECKING:` alike, since a cycle hidden in a function or a type-only import still ties modules:

0. The feature packages stand on floors (`FLOORS`, the one picture of the house): a package imports only
   packages on lower floors, so the graph between them is acyclic -- every import counted.
1. Records and models never import views (a view draws a record; a record knows nothing of drawing).
2. A view is imported only by another view, a magic, the forms (they are the widgets a person answers in,
   drawn into the live area of the flow view), the top floor (the public API, `mcp_lab.StepperWidget`, and
   `mcp_lab.renderers`, which registers each model's view when mcp_lab is imported), or lazily (inside a
   function or under TYPE_CHECKING) by a module of the same feature that the view does not import back.
   A model that displays itself asks `mcp_lab.view_registry` for its view rather than importing it.
3. No import cycles between modules, none exempted.
4. Modules stay under 400 lines.
5. No package or module directly under mcp_lab/ is named after a stdlib module (`inspect/` shadowed one).
6. No private reach-ins across modules: `x._name` (x not `self`/`cls`) only where this module defines
   `_name` itself, and no `from mcp_lab... import _name` -- other modules get public, named attributes.
7. bench/: no script shadows a stdlib module when run as a script, and none imports from tests/.
8. Tests mirror the package: every feature package has its tests/<package>/.
"""

from __future__ import annotations

import ast
import functools
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import mcp_lab

ROOT = Path(mcp_lab.__file__).parent
MAX_LINES = 400

VIEW_USERS = {"magics", "forms", "mcp_lab", "mcp_lab.renderers"}
"""Features (and the top floor: the public API, the view registrations) that present things: any view."""

FLOORS: list[set[str]] = [
    {"json_types"},  # the one spelling of "a JSON value" in type hints
    {"errors", "markup", "view_registry", "catalogs", "listeners", "background"},  # error types, HTML helpers, view lookup, the screens' translations
    {"given", "bounded_json", "exercise"},  # checking what a user gave; bounded JSON; exercise checks
    {"protocol", "records", "shown_task"},  # the protocol's facts; the records' base; a task shown in a cell
    {"exchanges"},  # the one HTTP exchange record and its recorder
    {"servers"},  # in-process servers, loopback HTTP, connections
    {"flow"},  # the flow and the one engine that drives it
    {"forms"},  # what a person answers with
    {"tokens", "headers"},  # the inspector and tamper lab; header parameters and their labs
    {"replay", "rotation"},  # collections and replay; key rotation across instances
    {"audit", "deployment"},  # spec checks over recorded flows; real processes behind a real proxy
    {"magics"},  # argument parsing -> the features below
    {"lab", "renderers", "record_schema"},  # the Lab; each model's view registered; the records' schema
    {"mcp_lab", "__main__"},  # the public API and `%load_ext`; the command line
]
"""Bottom to top: a package (or top-level module) imports only from floors below its own."""

RECORD_NAMES = {"record", "model", "base"}
"""Module names that hold plain records (pydantic models / dataclasses) only."""

LONG_ALLOWED: set[str] = set()
"""Modules still over MAX_LINES (empty when done)."""


@dataclass(frozen=True)
class Edge:
    importer: str
    imported: str
    line: int
    lazy: bool
    """Inside a function or under `if TYPE_CHECKING:`: loaded later or never, but counted like any import."""


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


MODULES = {module_name(p): p for p in sorted(ROOT.rglob("*.py"))}


def is_view(module: str) -> bool:
    last = module.rsplit(".", 1)[-1]
    return last in {"view", "widget", "live"} or last.endswith("_view")


def is_record(module: str) -> bool:
    return module.rsplit(".", 1)[-1] in RECORD_NAMES


def feature(module: str) -> str:
    parts = module.split(".")
    return parts[1] if len(parts) > 2 else module  # mcp_lab.flow.view -> flow; mcp_lab.lab -> itself


def _resolve(target: str) -> str | None:
    while target and target not in MODULES:
        target = target.rpartition(".")[0]
    return target or None


def _type_checking(node: ast.AST) -> bool:
    return isinstance(node, ast.If) and ast.unparse(node.test).endswith("TYPE_CHECKING")


def _walk(node: ast.AST, lazy: bool) -> Iterator[tuple[ast.Import | ast.ImportFrom, bool]]:
    for child in ast.iter_child_nodes(node):
        if isinstance(child, ast.Import | ast.ImportFrom):
            yield child, lazy
        inner = lazy or isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda) or _type_checking(child)
        yield from _walk(child, inner)


def edges() -> list[Edge]:
    found = []
    for name, path in MODULES.items():
        package = name if path.name == "__init__.py" else name.rpartition(".")[0]
        for node, lazy in _walk(ast.parse(path.read_text()), False):
            targets: list[str] = []
            if isinstance(node, ast.Import):
                targets = [alias.name for alias in node.names]
            else:
                base = node.module or ""
                if node.level:
                    parts = package.split(".")
                    base = ".".join(parts[: len(parts) - node.level + 1] + ([base] if base else []))
                targets = [f"{base}.{alias.name}" for alias in node.names]
            for target in targets:
                resolved = _resolve(target)
                if resolved and resolved not in (name, "mcp_lab"):
                    found.append(Edge(name, resolved, node.lineno, lazy))
    return found


@functools.cache
def all_edges() -> tuple[Edge, ...]:
    """Every import edge, scanned on first use: not at import, since every pytest process of `./dev test`
    imports this module to collect it and only one runs its tests (the scan is ~1 CPU-s)."""
    return tuple(edges())


def is_view_hook(edge: Edge) -> bool:
    """A module reaching its own feature's view lazily (rule 2; rule 3 still counts the edge)."""
    return (
        is_view(edge.imported)
        and not is_view(edge.importer)
        and edge.lazy
        and feature(edge.importer) == feature(edge.imported)
    )


def floor_of(module: str) -> str:
    """The name FLOORS knows a module by: its feature package, or a top-level module's own name."""
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else module


def where(edge: Edge) -> str:
    return f"{MODULES[edge.importer].relative_to(ROOT.parent)}:{edge.line} imports {edge.imported}"


def test_the_scan_sees_the_package() -> None:
    assert "mcp_lab.flow.flow" in MODULES and "mcp_lab.lab" in MODULES
    assert any(e.importer == "mcp_lab.lab" and e.imported == "mcp_lab.flow.history" for e in all_edges())


def test_records_never_import_views() -> None:
    bad = [where(e) for e in all_edges() if is_record(e.importer) and is_view(e.imported)]
    assert not bad, "\n".join(bad)


def test_views_are_reached_only_by_views_magics_or_their_own_features_hook() -> None:
    bad = [
        where(e)
        for e in all_edges()
        if is_view(e.imported)
        and not is_view(e.importer)
        and feature(e.importer) not in VIEW_USERS
        and not is_view_hook(e)
    ]
    assert not bad, "\n".join(bad)


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected components of more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for nxt in sorted(graph.get(node, ())):
            if nxt not in index:
                visit(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in on_stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            component = []
            while True:
                top = stack.pop()
                on_stack.discard(top)
                component.append(top)
                if top == node:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return found


def test_no_import_cycles() -> None:
    graph: dict[str, set[str]] = {}
    for edge in all_edges():
        graph.setdefault(edge.importer, set()).add(edge.imported)
    found = cycles(graph)
    described = []
    for component in found:
        ties = sorted({f"{a} -> {b}" for a in component for b in graph.get(a, ()) if b in component})
        described.append(" | ".join(ties))
    assert not found, "import cycles:\n" + "\n".join(described)


def test_every_package_stands_on_a_floor_and_imports_only_below_it() -> None:
    level = {name: n for n, floor in enumerate(FLOORS) for name in floor}
    tops = {floor_of(m) for m in MODULES}
    assert tops == set(level), f"not on a floor: {sorted(tops - set(level))}; gone: {sorted(set(level) - tops)}"
    upward = [
        f"{where(e)} (floor {level[floor_of(e.importer)]} -> {level[floor_of(e.imported)]})"
        for e in all_edges()
        if floor_of(e.importer) != floor_of(e.imported)
        and level[floor_of(e.importer)] <= level[floor_of(e.imported)]
    ]
    assert not upward, "imports that do not run downward:\n" + "\n".join(upward)


def test_the_feature_graph_is_acyclic() -> None:
    graph: dict[str, set[str]] = {}
    for edge in all_edges():
        if floor_of(edge.importer) != floor_of(edge.imported):
            graph.setdefault(floor_of(edge.importer), set()).add(floor_of(edge.imported))
    assert not cycles(graph), cycles(graph)


def test_the_allow_lists_hold_only_what_is_still_true() -> None:
    long = {name for name, path in MODULES.items() if len(path.read_text().splitlines()) >= MAX_LINES}
    assert long >= LONG_ALLOWED, sorted(LONG_ALLOWED - long)


def test_modules_stay_short() -> None:
    long = {
        f"{path.relative_to(ROOT.parent)}: {len(path.read_text().splitlines())} lines"
        for name, path in MODULES.items()
        if len(path.read_text().splitlines()) >= MAX_LINES and name not in LONG_ALLOWED
    }
    assert not long, "\n".join(sorted(long))


def test_no_name_shadows_the_stdlib() -> None:
    top = {p.stem if p.is_file() else p.name for p in ROOT.iterdir() if p.suffix == ".py" or p.is_dir()}
    shadowing = sorted(name for name in top if name in sys.stdlib_module_names)
    assert not shadowing, shadowing


def _own_private_names(tree: ast.AST) -> set[str]:
    """Private names a module defines: its functions, classes and globals, and what it stores on self/cls."""
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            names.add(node.name)
        elif isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Store):
            if isinstance(node.value, ast.Name) and node.value.id in ("self", "cls"):
                names.add(node.attr)
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            names.add(node.target.id)  # dataclass fields and annotated globals
        elif isinstance(node, ast.Assign):
            names.update(t.id for t in node.targets if isinstance(t, ast.Name))
    return {n for n in names if n.startswith("_") and not n.startswith("__")}


def test_no_private_reach_ins_across_modules() -> None:
    trees = {name: ast.parse(path.read_text()) for name, path in MODULES.items()}
    own = {name: _own_private_names(tree) for name, tree in trees.items()}
    defined_anywhere = set().union(*own.values())
    bad = []
    for name, tree in trees.items():
        where_ = MODULES[name].relative_to(ROOT.parent)
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("mcp_lab"):
                bad += [f"{where_}:{node.lineno} imports {a.name}" for a in node.names if a.name.startswith("_")]
            elif isinstance(node, ast.Attribute) and node.attr.startswith("_") and not node.attr.startswith("__"):
                if isinstance(node.value, ast.Name) and node.value.id in ("self", "cls"):
                    continue
                # Another module's private name (SDK internals are read on purpose: the SDK version is pinned).
                if node.attr in defined_anywhere and node.attr not in own[name]:
                    bad.append(f"{where_}:{node.lineno} {ast.unparse(node)}")
            elif (
                isinstance(node, ast.Subscript)
                and ast.unparse(node.value).endswith(".__dict__")
                and not ast.unparse(node.value).startswith(("self.", "cls."))
            ):
                bad.append(f"{where_}:{node.lineno} {ast.unparse(node)}")
    assert not bad, "\n".join(bad)


BENCH = ROOT.parent / "bench"


def test_bench_scripts_shadow_no_stdlib_module_and_import_nothing_from_tests() -> None:
    scripts = sorted(BENCH.glob("*.py"))
    assert scripts
    shadowing = [p.name for p in scripts if p.stem in sys.stdlib_module_names]
    assert not shadowing, shadowing
    from_tests = []
    for path in scripts:
        for node in ast.walk(ast.parse(path.read_text())):
            modules = []
            if isinstance(node, ast.Import):
                modules = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom):
                modules = [node.module or ""]
            from_tests += [f"{path.name}:{node.lineno}" for m in modules if m == "tests" or m.startswith("tests.")]
    assert not from_tests, from_tests


def test_tests_mirror_the_feature_packages() -> None:
    tests = ROOT.parent / "tests"
    packages = sorted(p.name for p in ROOT.iterdir() if (p / "__init__.py").is_file())
    missing = [name for name in packages if not list((tests / name).glob("test_*.py"))]
    assert not missing, f"no tests/<package>/test_*.py for {missing}"
