"""The tappable board as a Streamlit component (``st.components.v2``), and its fallback.

The component's HTML is built in the browser from the data
:mod:`trainer.board_view` makes (``ui/board_assets/board.js`` and ``board.css``,
inlined at import: no build step, nothing fetched). Its two outputs:

- ``ready`` (state): set once by the browser when the board has drawn. Until a
  board of this session has said so, the page also offers the text choosers
  (pills) in a collapsed "cards don't respond?" section: that is how a browser
  where the component cannot load (blocked scripts, a very old browser, an
  error in our script) is detected, and AppTest (which runs no JavaScript)
  plays through the same fallback. Once ready, the fallback is gone for the
  session: there is one way to play.
- ``action`` (trigger): Play, Add or ¡Renuncio!, with the selection and the
  position it was made in; handed to the page's ``on_action`` callback, which
  reads it with :func:`trainer.board_view.read_action` before anything else.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import streamlit as st

from .errors import safe_callback
from .speaker import save_sound

__all__ = ["show_board_component", "board_loaded", "KEY_READY"]

_ASSETS = Path(__file__).with_name("board_assets")
#: Session-state flag: a board of this session has drawn in the browser.
KEY_READY = "board_component_ok"
#: How many actions this session's boards have sent and the server has answered: sent
#: with the data, so that a refused move (same position, same cards) still redraws the
#: board and gives the Play button back.
KEY_ANSWERED = "board_answered"

def _asset(*names: str) -> str:
    return "\n".join((_ASSETS / name).read_text(encoding="utf-8") for name in names)


# voice.js (speech and sounds, issue 23) goes first: board.js calls its voiceBoard().
_BOARD = st.components.v2.component(
    "escoba_board",
    html="",
    css=_asset("board.css", "voice.css"),
    js=_asset("voice.js", "board.js"),
)


def board_loaded() -> bool:
    """Whether a board has drawn in this browser session (then no fallback is offered)."""
    return bool(st.session_state.get(KEY_READY))


@safe_callback
def _on_ready() -> None:
    st.session_state[KEY_READY] = True


def _on_sound(key: str) -> None:
    """The board's mute switch: kept in the profile's settings like the one in Settings."""
    state = st.session_state.get(key)
    value = state.get("sound") if hasattr(state, "get") else None
    if isinstance(value, bool):
        save_sound(value)


def show_board_component(data: dict[str, Any], *, key: str,
                         on_action: Callable[[Any], None]) -> None:
    """Draw the board for ``data``; a Play/Add/¡Renuncio! calls ``on_action(raw)`` first
    thing in the next run (a callback: the page then draws the new position)."""

    @safe_callback
    def _action() -> None:
        state = st.session_state.get(key)
        raw = state.get("action") if hasattr(state, "get") else None
        st.session_state[KEY_ANSWERED] = st.session_state.get(KEY_ANSWERED, 0) + 1
        if raw is not None:
            on_action(raw)

    data = {**data, "ready": board_loaded(), "answered": st.session_state.get(KEY_ANSWERED, 0)}
    _BOARD(key=key, data=data, on_ready_change=_on_ready,
           on_action_change=_action, on_sound_change=safe_callback(lambda: _on_sound(key)),
           width="stretch", height="content")
