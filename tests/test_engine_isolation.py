"""The engine needs nothing but the standard library, and never imports the app."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

ENGINE = Path(__file__).resolve().parent.parent / "escoba"

BLOCKER = r"""
import sys, importlib.abc
BLOCKED = {"streamlit", "pandas", "plotly", "numpy", "sqlalchemy", "fpdf", "app_pages", "ui"}
class Block(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path=None, target=None):
        if name.split(".")[0] in BLOCKED:
            raise ImportError(f"blocked: {name}")
sys.meta_path.insert(0, Block())
import escoba, escoba.cli, escoba.record, escoba.match, escoba.bots
for name in ("escoba.coach", "escoba.cli_arena"):
    try:
        __import__(name)
    except ModuleNotFoundError as exc:
        if exc.name != name:
            raise
code = escoba.cli.main(["simulate", "--games", "2", "--seed", "1", "--json"])
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
