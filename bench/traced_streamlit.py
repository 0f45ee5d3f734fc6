"""``streamlit`` under tracemalloc: what a running server's memory grows by.

    python bench/traced_streamlit.py OUT.txt run app.py --server.port ...

tracemalloc starts before Streamlit (10 frames an allocation). The first ``SIGUSR1``
takes the reference snapshot; each later one writes to ``OUT.txt`` the 30 places
(tracebacks) that grew most since the reference, with their sizes and counts.
``bench/replica_memory.py --tracemalloc`` runs its replica this way and signals it at
the "5 minutes" mark and at the end.
"""

from __future__ import annotations

import gc
import signal
import sys
import tracemalloc
from typing import Any

_reference: list[tracemalloc.Snapshot] = []


def _snapshot(out: str) -> None:
    gc.collect()
    snap = tracemalloc.take_snapshot().filter_traces((
        tracemalloc.Filter(False, tracemalloc.__file__),
        tracemalloc.Filter(False, "<frozen importlib._bootstrap*>")))
    if not _reference:
        _reference.append(snap)
        return
    stats = snap.compare_to(_reference[0], "traceback")
    total = sum(s.size_diff for s in stats)
    with open(out, "a") as f:
        f.write(f"== grown since the reference: {total / 1e6:.1f} MB "
                f"(traced now {tracemalloc.get_traced_memory()[0] / 1e6:.1f} MB)\n")
        for stat in stats[:30]:
            f.write(f"{stat.size_diff / 1e6:+.2f} MB {stat.count_diff:+d} blocks\n")
            for line in stat.traceback.format()[-12:]:
                f.write(f"    {line}\n")
        f.flush()


def main() -> None:
    out = sys.argv.pop(1)
    tracemalloc.start(10)

    def on_signal(signum: int, frame: Any) -> None:
        _snapshot(out)

    signal.signal(signal.SIGUSR1, on_signal)
    sys.argv[0] = "streamlit"
    from streamlit.web.cli import main as streamlit_main

    streamlit_main()


if __name__ == "__main__":
    main()
