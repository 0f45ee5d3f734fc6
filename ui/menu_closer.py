"""The menu closes after a child picks a page, on a narrow screen (issue 29).

Below a tablet's width Streamlit's sidebar (the page menu of ``st.navigation``) lies over
the page when open. Streamlit 1.67 closes it after a pick only when the browser says it
is a phone (its ``deviceType`` from the user agent): on a tablet held upright, or any
narrow window, the menu stayed open over the page just picked, and a child saw nothing
change. Streamlit has no setting for this (``initial_sidebar_state`` is the first
state only), so one invisible component (``st.components.v2``: it runs in the page, not
in a frame) listens for a tap on a menu link and, when the menu covers the page, taps
the menu's own "close" button -- the way a person would. On a wide screen, where the
menu sits beside the page, nothing changes.
"""

from __future__ import annotations

import streamlit as st

from .assets import asset_text

__all__ = ["close_menu_after_pick"]

_JS = asset_text("menu_closer.js")
# No style, and never the page's first isolated component (that stays the board).
_CLOSER = st.components.v2.component("escoba_menu_closer", html="", js=_JS,
                                     isolate_styles=False)


def close_menu_after_pick() -> None:
    """Mount the listener on this page (in the sidebar: it draws nothing)."""
    with st.sidebar:
        _CLOSER(key="escoba_menu_closer", width="content", height="content")
