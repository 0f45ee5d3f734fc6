"""A sign that a tapped button is working (issue 29).

The teacher's "Close the vote" and "Start a game against the computer" take a moment
when the server is busy with a class of tablets (3-4 s were seen), and nothing on the
screen said so: a second tap was easy, and a teacher wondered whether it worked. A
server-side spinner cannot help with the wait before the server runs the tap at all, so
the sign is drawn in the browser at the tap: one invisible component
(``st.components.v2``, in the page itself, ``board_assets/busy.js``) marks a tapped
button of the keys it watches as busy at once (its words covered by "⏳ Working…", a
second tap ignored, ``aria-busy``), until the server's answer to the tap has drawn the
part again.

"Answered" is a counter the watched buttons' callbacks move on (:func:`answered`):
the part's own timer (the projector's refresh) draws the part again too, and must not
take the sign away before the tap's answer.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from typing import Any, TypeVar

import streamlit as st

from .assets import asset_text
from .classroom import ct_text

__all__ = ["busy_buttons", "answered", "KEY_ANSWERED"]

#: Session key: how many taps of watched buttons the server has answered.
KEY_ANSWERED = "busy_answered"

F = TypeVar("F", bound=Callable[..., Any])

_BUSY = st.components.v2.component(
    "escoba_busy", html="",
    js=asset_text("busy.js"),
    isolate_styles=False)  # nothing of its own to style; the board stays the first isolated


def answered(fn: F) -> F:
    """A watched button's callback: the tap counts as answered (the sign goes when this
    run has drawn the part), whatever the callback does."""

    @functools.wraps(fn)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        st.session_state[KEY_ANSWERED] = st.session_state.get(KEY_ANSWERED, 0) + 1
        return fn(*args, **kwargs)

    return wrapper  # type: ignore[return-value]


def busy_buttons(keys: Sequence[str], *, key: str) -> None:
    """Watch the buttons of ``keys`` (a key ending in ``*``: every key it begins) and
    show "Working…" on one as soon as it is tapped. Drawn after them, in the same run."""
    _BUSY(key=key, data={"keys": list(keys), "text": ct_text("class_game.working"),
                         "answered": st.session_state.get(KEY_ANSWERED, 0)},
          width="content", height="content")
