"""The first tap, heard on every page (issue 23): a component that draws nothing.

Browsers (iOS Safari above all) let a page speak or play a sound only after a tap on it,
and ``ui/board_assets/voice.js`` unlocks both at the first one it sees. The boards load
that script, but the tap that opens a lesson ("Start here", on the map) comes before
any board is on the page; so every page loads it once, in the sidebar, where it takes
no room. It speaks and plays nothing itself: it only listens.
"""

from __future__ import annotations

import streamlit as st

from .assets import asset_text

__all__ = ["listen_for_first_tap"]

_VOICE_JS = asset_text("voice.js")

# Not style-isolated: it has no style, and a page's first isolated component stays the
# board (what the browser tests, and anyone scripting the page, look for first).
_LISTENER = st.components.v2.component(
    "escoba_voice_listener", html="", js=_VOICE_JS + "\nexport default function () {}\n",
    isolate_styles=False)


def listen_for_first_tap() -> None:
    """Load the voice script on this page (in the sidebar: nothing to see)."""
    with st.sidebar:
        _LISTENER(key="escoba_voice_listener", width="content", height="content")
