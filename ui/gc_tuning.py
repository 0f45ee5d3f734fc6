"""Python's garbage collector tuned for a long-running server process (issue 32).

The app turns off Streamlit's full collection after every run (``runner.postScriptGC``
in .streamlit/config.toml: with a class of 30 it cost about 120 ms of CPU a tap). Python's
own collector then makes a full collection only once the objects promoted to its oldest
generation since the last one reach a quarter of all the long-lived ones; with the
imported libraries' objects counted among those, cyclic garbage made on every run
(Streamlit 1.67 makes a new class each time a component's state is read:
``components/v2/presentation.py``) piled up between full collections, and a replica's
memory grew with every tap (docs/BENCHMARKS.md, "A replica's memory over a class hour").

:func:`freeze_long_lived`, once a process has run its first page: one full collection,
then every object alive moves to the permanent generation (:func:`gc.freeze`). Full
collections then neither walk those objects nor wait for a quarter of them: they come
sooner and cost less, and the garbage made by each run goes with them.
"""

from __future__ import annotations

import gc
import threading

__all__ = ["freeze_long_lived", "frozen"]

_lock = threading.Lock()
_frozen = False


def freeze_long_lived() -> None:
    """Collect once and freeze what is alive, the first time in this process (cheap
    afterwards: a flag read)."""
    global _frozen
    if _frozen:
        return
    with _lock:
        if _frozen:
            return
        gc.collect()
        gc.freeze()
        # Once more, now cheap: the collector measures "a quarter of the long-lived"
        # against what its last full collection left, which the freeze does not reset.
        gc.collect()
        _frozen = True


def frozen() -> bool:
    """Whether this process froze its long-lived objects."""
    return _frozen
