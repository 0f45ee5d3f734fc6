"""Python's collector tuned for a long-running replica (ui.gc_tuning, issue 32): after
the freeze, cyclic garbage made on every run (as Streamlit's per-read classes) is freed
by Python's own collections, where with a large heap of long-lived objects it piled up."""

from __future__ import annotations

import subprocess
import sys

from tests.conftest import ROOT

#: A process with a large heap of long-lived objects (the libraries', the engine's), then
#: many runs each making a class that lives a while (kept by the run) and is garbage
#: after: prints how many of those classes are still in memory at the end.
_PROBE = """
import collections, gc, sys, weakref
sys.path.insert(0, {root!r})
long_lived = [[None] for _ in range(200_000)]
gc.collect()
# Python's own thresholds scaled down (the same for both runs), so that a short loop
# meets as many collections as a replica's hour does.
gc.set_threshold(100, 5, 5)
if {freeze}:
    from ui.gc_tuning import freeze_long_lived, frozen
    freeze_long_lived()
    freeze_long_lived()  # once per process: the second call does nothing
    assert frozen() and gc.get_freeze_count() >= len(long_lived)
refs, kept = [], collections.deque(maxlen={kept})
for n in range({runs}):
    class PerRead(dict):
        pass
    kept.append(PerRead(n=n))
    refs.append(weakref.ref(PerRead))
    for _ in range(20):
        [{{}}]
print(sum(r() is not None for r in refs))
"""

KEPT = 1000
RUNS = 6000


def _alive(freeze: bool) -> int:
    out = subprocess.run([sys.executable, "-c", _PROBE.format(root=str(ROOT), freeze=freeze,
                                                              kept=KEPT, runs=RUNS)],
                         capture_output=True, text=True, check=True, timeout=120)
    return int(out.stdout.split()[-1])


def test_per_run_garbage_is_freed_after_the_freeze_not_left_to_pile_up() -> None:
    unfrozen, frozen = _alive(False), _alive(True)
    # Without the freeze every class made is still there (none reached a full
    # collection); with it, most of the garbage (what is not kept) is gone.
    assert unfrozen == RUNS
    assert frozen >= KEPT and frozen - KEPT < 0.3 * (unfrozen - KEPT), (unfrozen, frozen)
