"""The package's shape (issue 8): no import cycle, and `server.py` imports no feature.

Imports are read with `ast` (every `import`/`from … import` of an `aintern_ls` module,
including imports inside functions, except under `if TYPE_CHECKING:`), so a cycle
hidden behind a lazy import counts too.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1] / "aintern_ls"


def _modules() -> dict[str, Path]:
    mods: dict[str, Path] = {}
    for path in ROOT.rglob("*.py"):
        parts = list(path.relative_to(ROOT.parent).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts = parts[:-1]
        mods[".".join(parts)] = path
    return mods


def _is_type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def import_graph() -> dict[str, set[str]]:
    """Module -> the `aintern_ls` modules it imports."""
    mods = _modules()

    def resolve(name: str) -> str | None:
        while name and name not in mods:
            name = name.rpartition(".")[0]
        return name or None

    graph: dict[str, set[str]] = {}
    for module, path in mods.items():
        package = module if path.name == "__init__.py" else module.rpartition(".")[0]
        deps: set[str | None] = set()

        def visit(node: ast.AST, deps: set[str | None] = deps, package: str = package) -> None:
            if isinstance(node, ast.If) and _is_type_checking(node.test):
                for child in node.orelse:
                    visit(child)
                return
            if isinstance(node, ast.Import):
                for alias in node.names:
                    if alias.name.startswith("aintern_ls"):
                        deps.add(resolve(alias.name))
            elif isinstance(node, ast.ImportFrom):
                if node.level:
                    base = package.split(".")[: len(package.split(".")) - node.level + 1]
                    name = ".".join(base + ([node.module] if node.module else []))
                else:
                    name = node.module or ""
                if name.startswith("aintern_ls"):
                    for alias in node.names:
                        full = f"{name}.{alias.name}"
                        deps.add(full if full in mods else resolve(name))
            for child in ast.iter_child_nodes(node):
                visit(child)

        visit(ast.parse(path.read_text(encoding="utf-8")))
        graph[module] = {d for d in deps if d is not None and d != module}
    return graph


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected components with more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def connect(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(graph.get(v, ())):
            if w not in index:
                connect(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for v in sorted(graph):
        if v not in index:
            connect(v)
    return found


def test_the_checker_sees_a_cycle() -> None:
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert cycles({"a": {"b"}, "b": set()}) == []


def test_server_imports_no_feature() -> None:
    graph = import_graph()
    assert "aintern_ls.server" in graph
    features = sorted(d for d in graph["aintern_ls.server"] if d.startswith("aintern_ls.features"))
    assert features == []
    assert "aintern_ls.app" not in graph["aintern_ls.server"]


def test_features_import_no_cycle_and_app_lists_them() -> None:
    graph = import_graph()
    feature_cycles = [c for c in cycles(graph) if any("features" in m or "server" in m for m in c)]
    assert feature_cycles == []
    from aintern_ls import app

    listed = {m.__name__ for m in app.FEATURES}
    on_disk = {m for m in graph if m.startswith("aintern_ls.features.")} - {
        "aintern_ls.features.arguments"  # argument parsing, not a feature
    }
    assert listed == on_disk


def _safety_split_landed() -> bool:
    return not any(m.startswith("aintern_ls.safety.") for c in cycles(import_graph()) for m in c)


@pytest.mark.xfail(
    not _safety_split_landed(),
    reason="safety/rules.py <-> knowledge modules: the registry split (issue 8) is in progress",
    strict=True,
)
def test_no_import_cycle_anywhere() -> None:
    assert cycles(import_graph()) == []


def test_no_import_cycle_outside_the_safety_rules() -> None:
    rest = [
        c for c in cycles(import_graph()) if not all(m.startswith("aintern_ls.safety.") for m in c)
    ]
    assert rest == []
