"""``streamlit`` with the live round's polling intervals changed, to measure what they
cost (bench/live_round_load.py's ``sqlite1@SECONDS`` configuration) without editing
the app:

    python bench/polling_streamlit.py SECONDS run app.py --server.port ...

Before the app is imported, :func:`ui.errors.friendly_fragment` (the app's one way to
make a fragment) is wrapped so that the two fragments a live round waits on run every
``SECONDS`` instead of their own intervals: the projector's round
(``ui.teacher.parts.projector._screen``, ``REFRESH_SECONDS``) and a pupil's look at the
round on My class (``ui.my_class_view._live_watch``, ``LIVE_WATCH_SECONDS``). Every
other fragment keeps its interval.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
#: The fragments whose interval the first argument replaces.
POLLERS = ("ui.teacher.parts.projector._screen", "ui.my_class_view._live_watch")


def patch(seconds: float) -> None:
    """Wrap :func:`ui.errors.friendly_fragment` (before any page imports it)."""
    sys.path.insert(0, str(ROOT))
    import ui.errors as errors

    original = errors.friendly_fragment

    def friendly_fragment(fn: Any = None, /, *, run_every: float | None = None) -> Any:
        def make(body: Any) -> Any:
            name = f"{body.__module__}.{body.__qualname__}"
            every = seconds if name in POLLERS and run_every is not None else run_every
            return original(run_every=every)(body)

        return make(fn) if fn is not None else make

    errors.friendly_fragment = friendly_fragment


def main() -> None:
    patch(float(sys.argv.pop(1)))
    sys.argv[0] = "streamlit"
    from streamlit.web.cli import main as streamlit_main

    streamlit_main()


if __name__ == "__main__":
    main()
