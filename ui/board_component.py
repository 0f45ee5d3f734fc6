"""The tappable board as a Streamlit component (``st.components.v2``), and its fallback.

The component's HTML is built in the browser from the data
:mod:`trainer.board_view` makes (``ui/board_assets/board.js`` and ``board.css``,
inlined at import: no build step, nothing fetched). Its two outputs:

- ``ready`` (state): set by the browser when the board has drawn, once for each
  server session (the data carries the session's own token, ``session``). Until a
  board of this session has said so, the page also offers the text choosers
  (pills) in a collapsed "cards don't respond?" section (:func:`fallback_choosers`):
  that is how a browser where the component cannot load (blocked scripts, a very
  old browser, an error in our script) is detected, and AppTest (which runs no
  JavaScript) plays through the same fallback. Once ready, the fallback is gone for
  the session: there is one way to play.

  Issue 31: right after a failover the page offered the choosers and the hint panel's
  text list beside a board that worked, until a reload. The new replica's session had
  never heard the board, which had said so once per mount (the same board, still on
  the page, stayed quiet). Now the board says it to each session that draws it, the
  state the browser still holds counts too, and the fallback's section stays out of
  sight for its first seconds in the browser (``board-late`` in ui/page_style.py): a
  working board's word removes it before a child sees it; a board that never loads
  leaves it there. The section is drawn closed, its title alone: its choosers are drawn
  only once it is opened (a rerun of its part), and then open on every page of the
  session (a child whose board does not work needs them everywhere). A new page draws
  less: Play's board about 12 ms sooner (docs/BENCHMARKS.md, issue 32).
- ``action`` (trigger): Play, Add or ¡Renuncio!, with the selection and the
  position it was made in; handed to the page's ``on_action`` callback, which
  reads it with :func:`trainer.board_view.read_action` before anything else.

A move the engine refused is said on the board, beside Play, until the child's next
tap (:func:`say_refusal`): a message above the board stayed on screen while the right
move was being built, and on a phone it was out of sight anyway (issue 31).
"""

from __future__ import annotations

import secrets
from collections.abc import Callable
from typing import Any

import streamlit as st

from trainer.i18n import t
from trainer.speech import speakable

from .assets import asset_text
from .errors import safe_callback
from .i18n import current_language
from .session import flash, flash_again
from .speaker import save_sound

__all__ = ["show_board_component", "board_loaded", "board_in_use", "say_refusal",
           "fallback_choosers", "KEY_READY", "component_state", "session_token", "readiness"]

#: Session-state flag: a board of this session has drawn in the browser.
KEY_READY = "board_component_ok"
#: The text choosers' section is open in this session (:func:`fallback_choosers`).
KEY_FALLBACK_OPEN = "fallback_open"
#: The text choosers' section was opened once in this session (:func:`board_in_use`).
KEY_FALLBACK_USED = "fallback_used"
#: Session-state key: this server session's token, sent with the board's data; the board
#: says it drew to each new token (a new session after a failover or a restart).
KEY_SESSION = "board_session"
#: How many actions this session's boards have sent and the server has answered: sent
#: with the data, so that a refused move (same position, same cards) still redraws the
#: board and gives the Play button back.
KEY_ANSWERED = "board_answered"
#: The last move the engine refused: (the answer it came with, catalog key, params). Sent
#: to the board with that answer only; the board drops it at the child's next tap.
KEY_REFUSED = "board_refused"

#: The board's script and style as the component runs them (a browser test mounts them
#: on a page of its own). say_alone.js and voice.js go first: board.js calls them.
BOARD_SCRIPT = asset_text("say_alone.js", "voice.js", "board.js")
BOARD_STYLE = asset_text("board.css", "voice.css")
_BOARD = st.components.v2.component("escoba_board", html="", css=BOARD_STYLE,
                                    js=BOARD_SCRIPT)


def board_loaded() -> bool:
    """Whether a board has drawn in this browser session (then no fallback is offered)."""
    return bool(st.session_state.get(KEY_READY))


def board_in_use() -> bool:
    """Whether this session plays on a board that drew, or on the text choosers (their
    section opened once): until one of them is, a page opened anew draws its board alone
    and leaves what sits beside it (the hint switch, a new game) to the board's word a
    moment later, so that the board is drawn sooner (docs/BENCHMARKS.md, issue 32)."""
    return board_loaded() or bool(st.session_state.get(KEY_FALLBACK_USED))


def component_state(key: str, name: str) -> Any:
    """The value ``name`` of the component under ``key`` as the browser holds it (its
    state, or the trigger of this run), or ``None``."""
    state = st.session_state.get(key)
    return state.get(name) if hasattr(state, "get") else None


def session_token() -> str:
    """This server session's token, sent with a component's data: a component says it
    drew to each new token (a new session after a failover or a restart)."""
    return st.session_state.setdefault(KEY_SESSION, secrets.token_hex(6))


def readiness(key: str, flag: str) -> Callable[[], None]:
    """The ``ready`` word of the component under ``key`` (it drew in this browser): sets
    the session flag ``flag`` now if the browser still holds the word (a new session
    after a failover), and returns the callback that sets it when the word comes."""
    if component_state(key, "ready"):
        st.session_state[flag] = True

    @safe_callback
    def _ready() -> None:
        # The component's word is no tap: a message the last run showed (the welcome
        # after a new child's skip, a game saved) stays on screen for the run it causes.
        flash_again()
        if component_state(key, "ready"):
            st.session_state[flag] = True

    return _ready


def fallback_choosers(draw: Callable[[], None], key: str = "board_fallback",
                      title: str = "") -> None:
    """The text choosers' section, for a browser where the board did not load
    (``title``: another component's, as Quick facts' round): closed, its title alone;
    ``draw`` draws the choosers in it once it is open (:data:`KEY_FALLBACK_OPEN`: opened
    once, open on every page of the session). Its keyed container is hidden by the
    page's style for its first seconds (the component's word usually takes it away
    before that): only a component that failed leaves it shown."""
    opened = bool(st.session_state.get(KEY_FALLBACK_OPEN))
    with st.container(key=key):
        # Its own key does not start as the container's: the page's style hides a
        # "board_fallback*" element for its first 4 s, and Streamlit draws the section
        # anew when ``expanded`` changes (a tap on its title hid it for 4 s).
        section = st.expander(title or t("board_fallback_title"), expanded=opened,
                              key=f"open_{key}", on_change=_fallback_toggled,
                              args=(f"open_{key}",))
    if section.open:
        # Closed again later, the tools beside the board stay: the choosers are this
        # session's board (board_in_use).
        st.session_state[KEY_FALLBACK_USED] = True
        with section:
            draw()


@safe_callback
def _fallback_toggled(key: str) -> None:
    st.session_state[KEY_FALLBACK_OPEN] = bool(st.session_state.get(key))


def say_refusal(key: str, **params: Any) -> None:
    """A move the engine refused (``key``: its catalog message, e.g. ``wrong_sum``): said
    on the board beside Play until the child's next tap; where no board has drawn, as the
    page's message above the text choosers (which have no place for it)."""
    if board_loaded():
        st.session_state[KEY_REFUSED] = (st.session_state.get(KEY_ANSWERED, 0), key, params)
    else:
        flash("error", key, **params)


def _refused(answered: int) -> dict[str, Any] | None:
    """The refusal the board is to say with this answer, if the last action was refused."""
    refused = st.session_state.get(KEY_REFUSED)
    if not refused or refused[0] != answered:
        return None
    _answer, key, params = refused
    # The board shows text, never markup: the catalog's words as they are.
    return {"id": answered, "text": t(key, **params)}


def _on_sound(key: str) -> None:
    """The board's mute switch: kept in the profile's settings like the one in Settings."""
    value = component_state(key, "sound")
    if isinstance(value, bool):
        save_sound(value)


def show_board_component(data: dict[str, Any], *, key: str,
                         on_action: Callable[[Any], None],
                         said: tuple[str, str] | None = None) -> None:
    """Draw the board for ``data``; a Play/Add/¡Renuncio! calls ``on_action(raw)`` first
    thing in the next run (a callback: the page then draws the new position). ``said``:
    ``(id, text)`` of the page's latest word on the last try (a puzzle's wrong set), shown
    in the bar beside the button until the next tap, as a refused move is (on a phone the
    page's own message is under the board, out of sight)."""

    @safe_callback
    def _action() -> None:
        raw = component_state(key, "action")
        st.session_state[KEY_ANSWERED] = st.session_state.get(KEY_ANSWERED, 0) + 1
        if raw is not None:
            on_action(raw)

    _ready = readiness(key, KEY_READY)
    session = session_token()
    answered = st.session_state.get(KEY_ANSWERED, 0)
    refused = _refused(answered)
    if refused is not None and data.get("speech"):
        # Said aloud by itself once, and on a 🔊 beside it: a child who reads slowly
        # hears why the move was refused (voice.js).
        refused["spoken"] = speakable(refused["text"], current_language())
    if refused is None and said is not None:  # the page says it aloud itself
        refused = {"id": said[0], "text": said[1]}
    data = {**data, "ready": board_loaded(), "session": session, "answered": answered,
            "refused": refused}
    _BOARD(key=key, data=data, on_ready_change=_ready,
           on_action_change=_action, on_sound_change=safe_callback(lambda: _on_sound(key)),
           width="stretch", height="content")
