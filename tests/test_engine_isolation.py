"""The engine needs nothing but the standard library and imports nothing of ours;
no module of ours takes part in an import cycle."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

ENGINE = Path(__file__).resolve().parent.parent / "escoba"

BLOCKER = r"""
import sys, importlib.abc
BLOCKED = {"streamlit", "pandas", "plotly", "numpy", "sqlalchemy", "fpdf", "app_pages", "ui",
           "trainer", "puzzles", "commands", "lessons", "app"}
class Block(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path=None, target=None):
        if name.split(".")[0] in BLOCKED:
            raise ImportError(f"blocked: {name}")
sys.meta_path.insert(0, Block())
import pkgutil, importlib
import escoba
for module in pkgutil.walk_packages(escoba.__path__, "escoba."):
    importlib.import_module(module.name)
from escoba import cli, cli_arena
parser = cli.build_parser([cli.register, cli_arena.register])
code = cli.run(parser, ["simulate", "--games", "2", "--seed", "1", "--json"])
assert code == 0, code
loaded = sorted({m.split(".")[0] for m in sys.modules} & BLOCKED)
assert not loaded, loaded
print("isolated")
"""


def test_engine_runs_with_app_libraries_blocked():
    done = subprocess.run([sys.executable, "-c", BLOCKER], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert "isolated" in done.stdout


def test_no_engine_module_imports_the_app_or_third_party_code():
    stdlib = set(sys.stdlib_module_names)
    for path in ENGINE.glob("*.py"):
        tree = ast.parse(path.read_text())
        for node in ast.walk(tree):
            names = []
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                names = [node.module]
            for name in names:
                top = name.split(".")[0]
                assert top in stdlib or top == "escoba", f"{path.name}: {name}"


ROOT = ENGINE.parent
OURS = ("escoba", "commands", "puzzles", "lessons", "trainer", "ui", "app_pages")


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _import_graph() -> dict[str, set[str]]:
    """Our modules and the modules of ours each imports, lazily (in a function) or not.

    ``from package import name`` counts as importing ``package.name`` when that
    is a module. A package's ``__init__`` being run first is Python's doing,
    not an edge.
    """
    files = {_module_name(p): p for top in OURS for p in (ROOT / top).rglob("*.py")}
    files["app"] = ROOT / "app.py"
    graph: dict[str, set[str]] = {}
    for name, path in files.items():
        package = name if path.name == "__init__.py" else name.rpartition(".")[0]
        edges: set[str] = set()
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Import):
                edges.update(a.name for a in node.names)
            elif isinstance(node, ast.ImportFrom):
                base = node.module or ""
                if node.level:
                    anchor = package.split(".")
                    anchor = anchor[: len(anchor) - node.level + 1]
                    base = ".".join(anchor + ([node.module] if node.module else []))
                for alias in node.names:
                    edges.add(f"{base}.{alias.name}" if f"{base}.{alias.name}" in files
                              else base)
        graph[name] = {e for e in edges if e in files and e != name}
    return graph


def _cycle(graph: dict[str, set[str]]) -> list[str] | None:
    """One import cycle (its modules in order), or None."""
    state: dict[str, int] = {}  # 1: on the current path, 2: done
    path: list[str] = []

    def visit(node: str) -> list[str] | None:
        state[node] = 1
        path.append(node)
        for nxt in sorted(graph[node]):
            if state.get(nxt) == 1:
                return path[path.index(nxt):] + [nxt]
            if nxt not in state and (found := visit(nxt)):
                return found
        path.pop()
        state[node] = 2
        return None

    for start in sorted(graph):
        if start not in state and (found := visit(start)):
            return found
    return None


def test_no_import_cycle_among_our_modules():
    graph = _import_graph()
    assert {"escoba.game", "escoba.record", "escoba.cli", "commands", "puzzles.cli"} <= set(graph)
    assert _cycle(graph) is None, " -> ".join(_cycle(graph) or [])


def test_the_cycle_finder_finds_a_cycle():
    # The test above can fail: a lazy import back from game to record is a cycle.
    graph = _import_graph()
    graph["escoba.game"] = graph["escoba.game"] | {"escoba.record"}
    assert _cycle(graph) is not None


def test_the_engine_imports_nothing_of_ours_outside_it():
    graph = _import_graph()
    for name, edges in graph.items():
        if name.startswith("escoba"):
            assert all(e.split(".")[0] == "escoba" for e in edges), (name, edges)
