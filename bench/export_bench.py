"""A class's every answer as a CSV, on a school year, beside another checkout's (issue 32).

    .venv/bin/python bench/school_year.py --database /tmp/sy_year.db     # once
    git archive <base> | tar -x -C /tmp/base_export && ln -s $PWD/.venv /tmp/base_export/.venv
    .venv/bin/python bench/export_bench.py --database /tmp/sy_year.db --base /tmp/base_export

Reads the class's snapshot (every attempt) and writes "every answer of the class" as
the teacher's export does (``trainer.classroom_print.attempts_csv``), in English and in
Spanish, in this checkout and in ``--base``, each in a fresh process, turn about, on the
same database; prints each one's seconds and the files' digests (they must be equal).
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

_RUN = """
import hashlib, json, sys, time
sys.path.insert(0, {root!r})
import sqlalchemy as sa
from trainer.storage import Storage, configure_sqlite
from trainer.classroom import Classroom, TeacherAuth
from trainer.classroom_print import attempts_csv
engine = sa.create_engine({url!r}); configure_sqlite(engine)
store = Storage(engine, migrate=False)
room = Classroom(store, TeacherAuth(store).sign_in("Ms Load", "chalk and thirty tablets"))
start = time.perf_counter()
snap = room.snapshot(room.classes()[0].id)
read = time.perf_counter() - start
out = {{"snapshot_s": read}}
for lang in ("en", "es"):
    start = time.perf_counter()
    data = attempts_csv(snap, lang)
    out[lang] = [time.perf_counter() - start, hashlib.md5(data).hexdigest(), len(data)]
print(json.dumps(out))
"""


def _once(root: Path, url: str) -> dict:
    python = root / ".venv" / "bin" / "python"
    done = subprocess.run([str(python), "-c", _RUN.format(root=str(root), url=url)],
                          capture_output=True, text=True, check=True, cwd=root)
    return json.loads(done.stdout.strip().splitlines()[-1])


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--database", required=True, help="a bench/school_year.py file")
    parser.add_argument("--base", type=Path, help="another checkout, run beside this one")
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args(argv)
    url = f"sqlite:///{Path(args.database).resolve()}"
    roots = {"this": ROOT, **({"base": args.base.resolve()} if args.base else {})}
    found: dict[str, list[dict]] = {name: [] for name in roots}
    for _ in range(args.runs):
        for name, root in roots.items():
            found[name].append(_once(root, url))
    for name, runs in found.items():
        line = [f"{name:>5}: snapshot {statistics.median(r['snapshot_s'] for r in runs):.2f} s"]
        for lang in ("en", "es"):
            line.append(f"{lang} CSV {statistics.median(r[lang][0] for r in runs):.2f} s "
                        f"({runs[0][lang][2]:,} bytes, {runs[0][lang][1][:8]})")
        print("; ".join(line))
    if args.base:
        for lang in ("en", "es"):
            assert found["this"][0][lang][1] == found["base"][0][lang][1], f"{lang} differs"
        print("the same files, byte for byte")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
