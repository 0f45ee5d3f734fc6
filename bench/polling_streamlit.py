"""``streamlit`` with the live round's polling intervals changed, to measure what they
cost (bench/live_round_load.py's ``sqlite1@SECONDS`` configuration) without editing
the app:

    python bench/polling_streamlit.py PROJECTOR[/TABLET] run app.py --server.port ...

Before the app is imported, :func:`ui.errors.friendly_fragment` (the app's one way to
make a fragment) is wrapped so that the two fragments a live round waits on run at
other intervals: the projector's round (``ui.teacher.parts.projector._screen``,
``REFRESH_SECONDS``) every ``PROJECTOR`` seconds, and the round's block on a pupil's
My class (``ui.my_class_view._live_watch``, ``LIVE_WATCH_SECONDS``) every ``TABLET``
seconds (the same as the projector's when not given). Every other fragment keeps its
interval.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
#: The fragments whose interval the first argument replaces (projector, tablet).
POLLERS = ("ui.teacher.parts.projector._screen", "ui.my_class_view._live_watch")


def intervals(spec: str) -> dict[str, float]:
    """``"0.5"`` or ``"0.5/2"``: each poller's new interval."""
    projector, _, tablet = spec.partition("/")
    return dict(zip(POLLERS, (float(projector), float(tablet or projector)), strict=True))


def patch(spec: str) -> None:
    """Wrap :func:`ui.errors.friendly_fragment` (before any page imports it)."""
    sys.path.insert(0, str(ROOT))
    import ui.errors as errors

    original = errors.friendly_fragment
    chosen = intervals(spec)

    def friendly_fragment(fn: Any = None, /, *, run_every: float | None = None) -> Any:
        def make(body: Any) -> Any:
            name = f"{body.__module__}.{body.__qualname__}"
            every = chosen.get(name, run_every) if run_every is not None else None
            return original(run_every=every)(body)

        return make(fn) if fn is not None else make

    errors.friendly_fragment = friendly_fragment


def main() -> None:
    patch(sys.argv.pop(1))
    sys.argv[0] = "streamlit"
    from streamlit.web.cli import main as streamlit_main

    streamlit_main()


if __name__ == "__main__":
    main()
