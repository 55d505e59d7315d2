"""No import cycle between yk's modules at run time: every import counts (module level, in functions, in classes)
except those under `if TYPE_CHECKING:`. A package's __init__ is not counted as imported by its submodules."""

from __future__ import annotations

import ast
from pathlib import Path

import networkx as nx

from tests.helpers.paths import ROOT

PACKAGE = ROOT / "yk_cli"


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _imports(tree: ast.AST, modules: set[str]) -> set[str]:
    """The yk modules a module imports at run time."""
    found: set[str] = set()

    def visit(nodes: list[ast.stmt]) -> None:
        for node in nodes:
            if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
                visit(node.orelse)
                continue
            if isinstance(node, ast.Import):
                found.update(alias.name for alias in node.names if alias.name in modules)
            elif isinstance(node, ast.ImportFrom) and node.module:
                for alias in node.names:
                    full = f"{node.module}.{alias.name}"
                    target = full if full in modules else node.module
                    if target in modules:
                        found.add(target)
            for child in ast.iter_child_nodes(node):
                if isinstance(child, ast.stmt):
                    visit([child])
                elif isinstance(child, ast.ExceptHandler):
                    visit(child.body)

    visit(tree.body if isinstance(tree, ast.Module) else [])
    return found


def import_graph() -> nx.DiGraph:
    """Module -> the yk modules it imports."""
    paths = {_module_name(p): p for p in PACKAGE.rglob("*.py")}
    graph = nx.DiGraph()
    for name, path in paths.items():
        graph.add_node(name)
        for target in _imports(ast.parse(path.read_text(encoding="utf-8")), set(paths)):
            if target != name:
                graph.add_edge(name, target)
    return graph


def test_no_import_cycle() -> None:
    cycles = [sorted(c) for c in nx.strongly_connected_components(import_graph()) if len(c) > 1]
    assert cycles == []


def test_the_graph_sees_imports_in_functions() -> None:
    """The check would pass vacuously if it missed imports: cli imports the registry inside main()."""
    assert ("yk_cli.cli", "yk_cli.commands.registry") in import_graph().edges
