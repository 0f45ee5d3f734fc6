"""Build the optional compiled core: the engine's hot modules through mypyc, in place.

    python bench/compile_engine.py          # build (needs mypy and a C compiler)
    python bench/compile_engine.py --clean  # remove the build: pure Python again

Each compiled module (``escoba/round.cpython-311-....so``) sits next to its
``.py`` and Python imports it first; mypyc's shared runtime goes inside the
package too (``escoba/engine__mypyc...so``), so nothing is added outside
``escoba/``. Pure Python stays the default: without this build, or for another
Python version (the file names carry the version tag), the ``.py`` files are
imported as always. A failed build removes what it made and says so: the
engine keeps working in pure Python (docs/BENCHMARKS.md, issue 17).

Rebuild after changing any of these modules: a stale build shadows the edit
(tests/test_compiled_core.py fails on a build older than its source).
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
#: The hot modules (docs/BENCHMARKS.md): what a simulated round runs, minus the bots
#: (``bots.Player`` is a runtime-checkable Protocol, which mypyc cannot compile).
MODULES = ["escoba/cards.py", "escoba/rules.py", "escoba/scoring.py", "escoba/solver.py",
           "escoba/moves.py", "escoba/movegen.py", "escoba/observation.py", "escoba/deck.py",
           "escoba/round.py", "escoba/game.py", "escoba/variants/base.py",
           "escoba/variants/escoba.py", "escoba/variants/scopa.py"]
#: The shared runtime's module name: ``escoba.engine__mypyc``.
GROUP = "escoba.engine"

SETUP = """
from setuptools import setup
from mypyc.build import mypycify
setup(name="escoba-compiled-core", packages=[], py_modules=[],
      ext_modules=mypycify({modules!r}, group_name={group!r}, opt_level="3",
                           target_dir="build/mypyc"))
"""


def built_files() -> list[Path]:
    """Every compiled file of ours now in the package, subpackages (variants) included."""
    return sorted((ROOT / "escoba").rglob("*.so")) + sorted((ROOT / "escoba").rglob("*.pyd"))


def clean() -> None:
    for path in built_files():
        path.unlink()
    shutil.rmtree(ROOT / "build" / "mypyc", ignore_errors=True)


def build() -> bool:
    """Compile in place; on failure nothing is left behind (pure Python goes on)."""
    clean()
    with tempfile.TemporaryDirectory(prefix="escoba-mypyc-") as tmp:
        setup_py = Path(tmp) / "setup_compiled_core.py"
        setup_py.write_text(SETUP.format(modules=MODULES, group=GROUP))
        done = subprocess.run(
            [sys.executable, str(setup_py), "build_ext", "--inplace",
             # All under build/mypyc, which --clean removes (by default setuptools also
             # leaves a copy of every built module in build/lib.*/).
             "--build-temp", str(ROOT / "build" / "mypyc"),
             "--build-lib", str(ROOT / "build" / "mypyc" / "lib")],
            cwd=ROOT, capture_output=True, text=True,
            env={**os.environ, "MYPY_FORCE_COLOR": "0"})
    if done.returncode != 0 or not built_files():
        clean()
        tail = "\n".join((done.stdout + done.stderr).strip().splitlines()[-15:])
        print(f"compiled core not built; the engine runs in pure Python.\n{tail}")
        return False
    print("compiled core built: " + ", ".join(p.name for p in built_files()))
    return True


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--clean", action="store_true", help="remove the compiled core")
    parser.add_argument("--strict", action="store_true",
                        help="exit 1 when the build fails (CI's compiled run)")
    args = parser.parse_args()
    if args.clean:
        clean()
        print("compiled core removed; the engine runs in pure Python.")
        return 0
    return 0 if build() or not args.strict else 1


if __name__ == "__main__":
    sys.exit(main())
