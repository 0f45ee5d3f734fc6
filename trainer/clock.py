"""The app's one clock: every instant the app reads or stores comes from :func:`now`.

``ESCOBA_NOW`` (ISO 8601, e.g. ``2026-12-02T23:30:00Z``) sets the clock for tests and
demos: the first time the process reads that value, the clock is put at that instant,
and from there it runs on at the real pace. So a demo's attempt days, a game's
``created_at``, a teacher's lock and a table seat's presence all come from one time
line (issue 25: only the practice pages honoured ``ESCOBA_NOW``, and a demo stored
attempt days from the fake clock and everything else from the real one), and the
things that wait for time to pass (a lock ending, a seat away) still see it pass.

No Streamlit here: storage, sessions and views import it alike
(``tests/test_clock.py`` fails on any other ``datetime.now``).
"""

from __future__ import annotations

import functools
import logging
import os
import time
from collections.abc import Callable
from datetime import UTC, datetime, timedelta

__all__ = ["Clock", "now", "ENV"]

log = logging.getLogger(__name__)

#: What a clock is, for the classes that take one (a test passes its own).
Clock = Callable[[], datetime]
#: The environment variable that sets the clock.
ENV = "ESCOBA_NOW"


@functools.lru_cache(maxsize=8)
def _offset(fixed: str) -> timedelta:
    """How far ``fixed`` is from the real clock, taken once per value (the value read
    first puts the clock there; it runs on from it)."""
    try:
        value = datetime.fromisoformat(fixed.replace("Z", "+00:00"))
    except ValueError:
        log.warning("ignoring %s=%r (not an ISO date and time)", ENV, fixed)
        return timedelta(0)
    if value.tzinfo is None:
        value = value.replace(tzinfo=UTC)
    return value - datetime.fromtimestamp(time.time(), UTC)


def now() -> datetime:
    """The current instant, in UTC: the real one, or ``ESCOBA_NOW``'s time line."""
    real = datetime.fromtimestamp(time.time(), UTC)
    fixed = os.environ.get(ENV)
    return real + _offset(fixed) if fixed else real
