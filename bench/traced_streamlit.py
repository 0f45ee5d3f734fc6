"""``streamlit`` under tracemalloc: what a running replica's Python heap holds, over time.

    python bench/traced_streamlit.py OUT_DIR run app.py --server.port ...

Starts tracemalloc (one frame a block: its cost stays small) before Streamlit, and a
daemon thread that every ``ESCOBA_TRACE_EVERY`` seconds (default 60) writes
``OUT_DIR/snapshot-NNN.pickle`` (``tracemalloc.Snapshot.dump``) with the replica's RSS in
``OUT_DIR/rss.txt``: the snapshots are taken inside the process, by a thread of its own,
so the replica goes on answering (a snapshot taken in a signal handler stopped it).
``bench/replica_memory.py --traced OUT_DIR`` runs its replica this way; compare two
snapshots with ``python bench/traced_streamlit.py --compare A B``: how much Python's heap
grew between them and the source lines whose blocks grew most (``rss.txt`` beside them
says how much the RSS grew).
"""

from __future__ import annotations

import os
import sys
import threading
import time
import tracemalloc
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.classroom_load import rss_mb


def _keep_snapshots(out: Path, every: float) -> None:
    number = 0
    while True:
        time.sleep(every)
        snapshot = tracemalloc.take_snapshot()
        snapshot.dump(str(out / f"snapshot-{number:03d}.pickle"))
        traced, _peak = tracemalloc.get_traced_memory()
        with open(out / "rss.txt", "a") as rss:
            rss.write(f"{number} {time.time():.0f} rss_mb={rss_mb(os.getpid()):.1f} "
                      f"traced_mb={traced / 2**20:.1f}\n")
        number += 1


def compare(first: str, second: str, top: int = 25) -> None:
    """The lines whose live blocks grew most from ``first`` to ``second``."""
    old, new = tracemalloc.Snapshot.load(first), tracemalloc.Snapshot.load(second)
    ignore = [tracemalloc.Filter(False, tracemalloc.__file__)]
    old, new = old.filter_traces(ignore), new.filter_traces(ignore)
    grown = new.compare_to(old, "lineno")
    total = sum(s.size_diff for s in grown)
    print(f"Python heap grew {total / 2**20:.1f} MB; the lines that grew most:")
    for stat in grown[:top]:
        frame = stat.traceback[0]
        print(f"{stat.size_diff / 2**20:8.2f} MB {stat.count_diff:+9d} blocks  "
              f"{frame.filename}:{frame.lineno}")


def main() -> None:
    if sys.argv[1:2] == ["--compare"]:
        compare(sys.argv[2], sys.argv[3])
        return
    out = Path(sys.argv.pop(1))
    out.mkdir(parents=True, exist_ok=True)
    tracemalloc.start(1)
    every = float(os.environ.get("ESCOBA_TRACE_EVERY", "60"))
    threading.Thread(target=_keep_snapshots, args=(out, every), daemon=True,
                     name="tracemalloc-snapshots").start()
    sys.argv[0] = "streamlit"
    from streamlit.web.cli import main as streamlit_main

    streamlit_main()


if __name__ == "__main__":
    main()
