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

The same component keeps the page going when Streamlit cannot: the page drawn again
when its main area shows nothing (:func:`page_was_blank`), loaded again when the app
itself has left it (:func:`keep_the_app_on_the_page`), and a whole run asked for after
the server restarted (:func:`wake_after_a_restart`, one Streamlit timer).
"""

from __future__ import annotations

import streamlit as st

from .assets import asset_text

__all__ = ["keep_the_app_on_the_page", "look_again_every", "page_was_blank",
           "wake_after_a_restart"]

# say_alone.js: a look never takes a child's tap along with it (a tap in that instant went
# out as part of the look's rerun, and its own part was not drawn again).
_JS = asset_text("say_alone.js", "ticker.js")
# Nothing to see: its element is taken out of the page's flow (no gap where it stands).
_HTML = ('<span class="escoba-ticker" hidden></span><style>'
         '[data-testid="stElementContainer"]:has(.escoba-ticker){display:none}</style>')
_TICKER = st.components.v2.component("escoba_ticker", html=_HTML, js=_JS,
                                     isolate_styles=False)  # never the page's first isolated


def _looked() -> None:
    """The look's run: nothing to do first (the part draws itself again)."""


#: Session key: the page showed nothing once idle; the part's run draws the whole page.
BLANK_PAGE = "escoba_blank_page"


def _blank_seen() -> None:
    """The page's main area showed nothing (see ticker.js): the part's run that follows
    asks for the whole page (:func:`page_was_blank`)."""
    st.session_state[BLANK_PAGE] = True


def page_was_blank() -> bool:
    """Whether the page said it was blank since the last call (then the caller, a timed
    part's run, draws the whole page again: ``st.rerun(scope="app")``)."""
    return bool(st.session_state.pop(BLANK_PAGE, False))


def look_again_every(seconds: float, *, key: str) -> None:
    """Draw the timer of the fragment this runs in: that fragment runs again every
    ``seconds`` once the page is idle (see the module doc). Call it in each of the
    fragment's runs; ``key`` unique on the page."""
    _TICKER(key=key, data={"every_ms": round(seconds * 1000)}, on_tick_change=_looked,
            on_blank_change=_blank_seen, width="content", height="content")


#: Seconds: Streamlit's own timer that :func:`wake_after_a_restart` keeps. Twelve hours
#: never ring in a visit (and stay below a browser's longest interval, about 24.8 days).
WAKE_TIMER_SECONDS = 12 * 60 * 60


@st.fragment(run_every=WAKE_TIMER_SECONDS)
def _wake_timer() -> None:
    """Draws nothing: only its timer counts (see :func:`wake_after_a_restart`)."""


def keep_the_app_on_the_page() -> None:
    """Load the page again if Streamlit's app leaves it (see ticker.js: a white screen
    after Streamlit fails to apply a part's run). Call it in every whole run."""
    with st.sidebar:
        _TICKER(key="escoba_app_watch", data={"every_ms": 0}, width="content",
                height="content")


def wake_after_a_restart() -> None:
    """Keep the page going on after its server restarted (a crash, an update, a replica
    replaced, a tablet that slept past its session). Call it in every whole run.

    Streamlit's page reconnects by itself to a new server session that knows none of the
    page's parts, so a tap inside one (a quick fact's number, a puzzle's set, the board)
    asks for a run that session cannot do, and the page stayed frozen at its last screen
    until a tap outside every part. At the reconnection Streamlit 1.67's page asks for a
    whole run itself only when it holds one of Streamlit's own fragment timers (or its
    last run was a part's). This is one, on a beat that never comes in a visit: the
    page's own timers (:func:`look_again_every`) do the looking, and Streamlit's never
    rings behind a tap's run."""
    _wake_timer()
