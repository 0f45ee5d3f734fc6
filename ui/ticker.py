"""A part of the page that looks again by itself: the timer of
:func:`ui.errors.friendly_fragment` ``(run_every=...)``.

Streamlit's own fragment timer (``st.fragment(run_every=...)``) asks the server for the
part's run on a fixed beat, whatever the page is doing. When that run came just behind
a run answering a child's tap, Streamlit 1.67 could lose the tap's answer on the
screen: the server had recorded the quick fact and drawn the next question, or the next
puzzle, but the tablet kept showing the old one (reproduced with the pupil's timers at
0.3 s: 1-2 taps lost a minute for six tablets, none without the timers; seen once in
CI by ``tests/test_classroom_load.py``). A child who taps again then answers a question
they cannot see.

So the beat is kept in the page (``board_assets/ticker.js``, an invisible
``st.components.v2`` component drawn at the end of each of the part's runs): it asks for
the part's run only when the app has no run under way and nobody has touched the page
for 1.5 s. A tap's answer is never overtaken by a look, and a child tapping away is not
slowed by the parts' looks; an untouched tablet looks on the same beat as before.
"""

from __future__ import annotations

from pathlib import Path

import streamlit as st

__all__ = ["look_again_every"]

_JS = (Path(__file__).with_name("board_assets") / "ticker.js").read_text(encoding="utf-8")
# Nothing to see: its element is taken out of the page's flow (no gap where it stands).
_HTML = ('<span class="escoba-ticker" hidden></span><style>'
         '[data-testid="stElementContainer"]:has(.escoba-ticker){display:none}</style>')
_TICKER = st.components.v2.component("escoba_ticker", html=_HTML, js=_JS,
                                     isolate_styles=False)  # never the page's first isolated


def _looked() -> None:
    """The look's run: nothing to do first (the part draws itself again)."""


def look_again_every(seconds: float, *, key: str) -> None:
    """Draw the timer of the fragment this runs in: that fragment runs again every
    ``seconds`` once the page is idle (see the module doc). Call it in each of the
    fragment's runs; ``key`` unique on the page."""
    _TICKER(key=key, data={"every_ms": round(seconds * 1000)}, on_tick_change=_looked,
            width="content", height="content")
