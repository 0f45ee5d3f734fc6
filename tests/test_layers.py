"""The layers point one way: app_pages -> ui -> trainer -> puzzles -> escoba.

``trainer/`` (the app's sessions, storage, charts' data, card pictures, the
catalogs) must work without Streamlit, so that sessions are tested directly
and a future front end can reuse them; the engine is checked in
``test_engine_isolation.py``.
"""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TRAINER = ROOT / "trainer"

BLOCKER = r"""
import sys, importlib.abc, pkgutil, importlib
BLOCKED = {"streamlit", "app_pages", "ui"}
class Block(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path=None, target=None):
        if name.split(".")[0] in BLOCKED:
            raise ImportError(f"blocked: {name}")
sys.meta_path.insert(0, Block())
import trainer
names = [m.name for m in pkgutil.walk_packages(trainer.__path__, "trainer.")]
for name in names:
    importlib.import_module(name)
loaded = sorted({m.split(".")[0] for m in sys.modules} & BLOCKED)
assert not loaded, loaded
print("imported", len(names))
"""


def test_every_trainer_module_imports_with_streamlit_blocked():
    done = subprocess.run([sys.executable, "-c", BLOCKER], capture_output=True, text=True,
                          cwd=ROOT)
    assert done.returncode == 0, done.stderr
    assert "imported" in done.stdout


def _imports(path: Path) -> set[str]:
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            names.update(a.name.split(".")[0] for a in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names.add(node.module.split(".")[0])
    return names


def test_trainer_never_imports_streamlit_or_the_widgets_even_lazily():
    for path in TRAINER.rglob("*.py"):
        bad = _imports(path) & {"streamlit", "ui", "app_pages"}
        assert not bad, f"{path.relative_to(ROOT)} imports {sorted(bad)}"


def test_puzzles_never_import_the_app_layers():
    for path in (ROOT / "puzzles").rglob("*.py"):
        bad = _imports(path) & {"streamlit", "ui", "app_pages", "trainer"}
        assert not bad, f"{path.relative_to(ROOT)} imports {sorted(bad)}"


def test_widgets_never_import_pages():
    for path in (ROOT / "ui").rglob("*.py"):
        assert "app_pages" not in _imports(path), path.name


def _our_modules_imported(path: Path, root: Path = ROOT) -> set[str]:
    """The dotted modules (or packages) ``path`` imports, relative imports resolved."""
    package = list(path.relative_to(root).with_suffix("").parts)[:-1]
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom):
            anchor = package[: len(package) - node.level + 1] if node.level else []
            base = ".".join(anchor + ([node.module] if node.module else []))
            found.update(f"{base}.{a.name}" for a in node.names)
    return found


def _teacher_part_imports(root: Path = ROOT) -> list[str]:
    """Where ui/teacher/ imports one of its parts other than in the registry."""
    teacher = root / "ui" / "teacher"
    return sorted(f"{path.relative_to(root)} imports {name}"
                  for path in teacher.rglob("*.py")
                  if path.name != "__init__.py" and path != teacher / "registry.py"
                  for name in _our_modules_imported(path, root)
                  if name.startswith("ui.teacher.parts."))


def test_the_teachers_parts_are_reached_through_the_registry_alone():
    """Issue 29: the page draws whichever part is chosen from ui/teacher/registry.py and
    knows none by name; a part imports no other (what two share has its own module)."""
    assert _teacher_part_imports() == []


def test_the_part_import_check_finds_a_part_imported_elsewhere(tmp_path):
    parts = tmp_path / "ui" / "teacher" / "parts"
    parts.mkdir(parents=True)
    (parts / "grid.py").write_text("from .dashboard import show\n", encoding="utf-8")
    (tmp_path / "ui" / "teacher" / "page.py").write_text(
        "from .parts import grid\nfrom .registry import PARTS\n", encoding="utf-8")
    assert _teacher_part_imports(tmp_path) == [
        "ui/teacher/page.py imports ui.teacher.parts.grid",
        "ui/teacher/parts/grid.py imports ui.teacher.parts.dashboard.show"]


def test_every_teachers_part_is_registered_once():
    from ui.teacher.registry import PARTS

    modules = {p.stem for p in (ROOT / "ui" / "teacher" / "parts").glob("*.py")} - {"__init__"}
    assert sorted(part.render.__module__ for part in PARTS) == sorted(
        f"ui.teacher.parts.{name}" for name in modules)
    assert len({part.key for part in PARTS}) == len(PARTS)


def test_lessons_import_only_the_engine_and_the_standard_library():
    """lessons/ is data and its schema: the runner (trainer.lessons) and the page sit above."""
    ours = {"escoba", "lessons", "puzzles", "trainer", "ui", "app_pages", "commands", "locales"}
    for path in (ROOT / "lessons").rglob("*.py"):
        names = _imports(path)
        assert not names & {"streamlit", "ui", "app_pages", "trainer", "puzzles"}, path.name
        assert names & ours <= {"escoba"}, f"{path.name} imports {sorted(names & ours)}"
        third_party = names - ours - set(sys.stdlib_module_names) - {"__future__"}
        assert not third_party, f"{path.name} imports {sorted(third_party)}"


def _view_modules() -> list[Path]:
    return [ROOT / "app.py", *sorted((ROOT / "app_pages").glob("*.py")),
            *sorted((ROOT / "ui").rglob("*.py"))]


#: Fragments kept for Streamlit's own timer alone, drawing nothing (so no words, no
#: language): the page's wake after its server restarted (ui.ticker).
_TIMER_ONLY = {"ui/ticker.py": "_wake_timer"}


def _bare_fragments(path: Path, root: Path = ROOT) -> list[str]:
    """Where ``path`` makes a fragment other than through ui.errors.friendly_fragment:
    ``st.fragment`` / ``streamlit.fragment`` used, or ``fragment`` imported from
    streamlit, outside that one helper (and the page's wake after a restart,
    :data:`_TIMER_ONLY`)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    allowed: set[int] = set()
    owner = {root / "ui" / "errors.py": "friendly_fragment",
             **{root / where: name for where, name in _TIMER_ONLY.items()}}.get(path)
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef) and node.name == owner:
            allowed |= {id(inner) for inner in ast.walk(node)}
    found = []
    for node in ast.walk(tree):
        if id(node) in allowed:
            continue
        if isinstance(node, ast.Attribute) and node.attr == "fragment" and isinstance(
                node.value, ast.Name) and node.value.id in {"st", "streamlit"}:
            found.append(f"{path.relative_to(root)}:{node.lineno}")
        if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("streamlit") \
                and any(alias.name == "fragment" for alias in node.names):
            found.append(f"{path.relative_to(root)}:{node.lineno}")
    return found


def test_every_fragment_is_made_by_the_one_helper_that_sets_the_language():
    """A fragment's rerun (a tap in it, its run_every timer) does not pass through app.py:
    only ui.errors.friendly_fragment sets the run's language at each of its runs (the
    class's open tables, a bare fragment, turned English after the first tick)."""
    assert [where for path in _view_modules() for where in _bare_fragments(path)] == []
    for where, name in _TIMER_ONLY.items():  # draws nothing: only its docstring
        (timer,) = [node for node in ast.walk(ast.parse((ROOT / where).read_text()))
                    if isinstance(node, ast.FunctionDef) and node.name == name]
        assert len(timer.body) == 1 and isinstance(timer.body[0], ast.Expr), where


def test_the_fragment_check_finds_a_bare_fragment(tmp_path):
    (tmp_path / "ui").mkdir()
    probe = tmp_path / "ui" / "lobby.py"
    probe.write_text("import streamlit as st\nfrom streamlit import fragment\n\n"
                     "@st.fragment(run_every=2)\ndef tick():\n    pass\n", encoding="utf-8")
    assert sorted(_bare_fragments(probe, tmp_path)) == ["ui/lobby.py:2", "ui/lobby.py:4"]


def _storage_writes() -> set[str]:
    """The Storage methods that write: each opens a transaction or changes rows itself."""
    import inspect

    from trainer.storage import Storage

    sources = {name: inspect.getsource(method)
               for name, method in inspect.getmembers(Storage, inspect.isfunction)
               if name not in {"transaction", "migrate", "__init__"}}
    writes = {name for name, source in sources.items()
              if any(mark in source for mark in ("self.transaction(", ".insert(", ".update(",
                                                 ".delete(", "engine.begin("))}
    while True:  # ... or calls one that does (record_daily_answer: _record_daily_answer)
        more = {name for name, source in sources.items() if name not in writes
                and any(f"self.{writer}(" in source for writer in writes)}
        if not more:
            return {name for name in writes if not name.startswith("_")}
        writes |= more


def _storage_calls(path: Path) -> list[tuple[str, int]]:
    """Every method called on ``storage()`` in ``path``, directly (``storage().m(...)``) or
    through a name bound to it (``store = storage()`` then ``store.m(...)``)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))

    def is_storage_call(node: ast.AST) -> bool:
        return isinstance(node, ast.Call) and isinstance(node.func, ast.Name) \
            and node.func.id == "storage"

    bound = {target.id for node in ast.walk(tree) if isinstance(node, ast.Assign)
             and is_storage_call(node.value) for target in node.targets
             if isinstance(target, ast.Name)}
    calls = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and (
                is_storage_call(node.value)
                or (isinstance(node.value, ast.Name) and node.value.id in bound)):
            calls.append((node.attr, node.lineno))
    return calls


def test_no_view_writes_to_the_storage():
    """Issue 25: domain writes live in trainer/ (session objects: GameSession, Tables,
    LessonRunner, the classroom's, ProfileBook); the pages and ui/ only read through
    storage(). Counted over every storage() call of app.py, app_pages/ and ui/."""
    writes = _storage_writes()
    assert {"create_profile", "record_attempt", "record_daily_answer", "save_review",
            "update_settings", "abandon_game", "set_pin", "delete_profile"} <= writes
    calls = [(f"{path.relative_to(ROOT)}:{line}", name) for path in _view_modules()
             for name, line in _storage_calls(path)]
    assert len(calls) > 30  # the views do read through it: the count sees them
    assert [(where, name) for where, name in calls if name in writes] == []


def test_the_storage_count_sees_a_write_made_either_way(tmp_path):
    probe = tmp_path / "page.py"
    probe.write_text("store = storage()\nstore.create_profile('Ana', 'x')\n"
                     "storage().record_attempt(1, None)\nstorage().get_profile(1)\n",
                     encoding="utf-8")
    assert sorted(_storage_calls(probe)) == [("create_profile", 2), ("get_profile", 4),
                                             ("record_attempt", 3)]
