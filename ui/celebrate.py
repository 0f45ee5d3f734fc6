"""A right move played out before the next lesson level (issue 23).

The runner (:class:`trainer.lessons.LessonRunner`, ``auto_advance=False`` on this page)
stops on ``level_done`` when a level is finished. :func:`after_action` then keeps what
the board showed at that moment (the finished position: the child's cards on their
pile, an escoba's empty table) with its praise, and moves the runner on at once, so
that the progress is the runner's as before (and saved). While that is kept, the
Lessons page draws the finished position with the celebration on the board: the cards
fly to the pile, an escoba shows the empty table with a broom and "¡Escoba!", the praise
says the sum ("8 + 7 = 15! ⭐⭐⭐"), and the board itself sends ``advance`` on a tap or
after :data:`AUTO_MS` (:func:`handle`). The celebration lives in the board: a browser
where the board cannot load (and AppTest) gets the praise line above the next level,
as before.
"""

from __future__ import annotations

import html
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import streamlit as st

from escoba import Rules
from trainer.board_view import BoardRefusal, read_action
from trainer.i18n import t
from trainer.lessons import CHILD, LessonRunner, LessonView, Message, Outcome
from trainer.praise import Praise, praise_for, stars_text
from trainer.words import sweep_word_key

__all__ = ["Celebration", "after_action", "current", "handle", "board_data",
           "praise_message", "counters", "AUTO_MS", "KEY_CELEBRATION"]

#: Session-state key of the finished level being played out.
KEY_CELEBRATION = "lesson_celebration"
#: The next level comes by itself this long after the movement is over (ms).
AUTO_MS = 2000


@dataclass(frozen=True)
class Celebration:
    """A finished level as the board shows it while it is played out."""

    view: LessonView
    praise: Praise


def praise_message(outcome: Outcome, rules: Rules | None) -> Message | None:
    """A right action's praise with the sum the child made ("8 + 7 = 15!"; under a Scopa
    level's ``rules`` "3 + 4 = 7!"), or the level's own words when there is no capture to
    repeat; a wrong one keeps its feedback."""
    if not outcome.ok or outcome.feedback is None or rules is None:  # None: no level
        return outcome.feedback
    praise = praise_for(outcome.events, CHILD, otherwise=outcome.feedback.key, rules=rules)
    if praise.kind == "right":
        return outcome.feedback
    return Message(praise.key, praise.params)


def after_action(runner: LessonRunner | None, outcome: Outcome, board_drawn: bool) -> None:
    """After any action: a level just finished is kept to be played out (when the board
    can do it and the finished level is drawn on one: never for a whole-game level, whose
    end has its own score table, nor for a question about a finished round, which has no
    board), and the runner goes on at once."""
    if runner is None or runner.status != "level_done":
        return
    view = runner.view()
    if board_drawn and view.game is None and view.has_board and outcome.result is not None:
        praise = praise_for(outcome.events, CHILD, stars=outcome.result.stars,
                            otherwise=outcome.feedback.key if outcome.feedback else "fb.right",
                            rules=runner.level.rules)
        st.session_state[KEY_CELEBRATION] = Celebration(view, praise)
    else:
        st.session_state.pop(KEY_CELEBRATION, None)
    runner.advance()


def current() -> Celebration | None:
    """The finished level being played out, if any."""
    held = st.session_state.get(KEY_CELEBRATION)
    return held if isinstance(held, Celebration) else None


def handle(raw: Any) -> bool:
    """Whether the board's action was the celebration's ``advance`` (then it is over and
    the next level is drawn). A stale or forged one changes nothing; any other action
    ends a celebration too (it belongs to a board already left)."""
    held = current()
    if not (hasattr(raw, "get") and raw.get("kind") == "advance"):
        if held is not None:
            st.session_state.pop(KEY_CELEBRATION, None)
        return False
    if held is not None:
        action = read_action(raw, held.view.position, kinds=("advance",))
        if not isinstance(action, BoardRefusal):
            st.session_state.pop(KEY_CELEBRATION, None)
    return True


def board_data(data: dict[str, Any], held: Celebration,
               say: Callable[[Message], str]) -> dict[str, Any]:
    """The board of the finished level with its celebration (``say`` words a message in
    the child's language). An escoba's banner has "¡Escoba!" as its title, so its line
    is the sum alone."""
    praise = held.praise
    key = "praise.sum" if praise.escoba else praise.key
    words = say(Message(key, praise.params))
    # The banner's title is the sweep in the game's word ("¡Escoba!", "Scopa!").
    title = t(sweep_word_key("board_escoba_title", praise.variant))
    return {**data, "celebrate": {
        "text": words, "stars": praise.stars, "stars_text": stars_text(praise.stars),
        "escoba": praise.escoba, "kind": praise.kind, "title": title,
        "next": t("board_next"), "auto_ms": AUTO_MS}}


def counters(words: str, level: int, levels: int, plays: int, check: bool = False) -> None:
    """A lesson level's counters as icons with numbers: the path's dots (this level
    larger), the plays so far as 👆; ``words`` ("Level 2 of 7 · Plays: 0 …") name them
    for a screen reader and show on hover."""
    dots = "".join("●" if n < level else ("◉" if n == level else "○")
                   for n in range(1, levels + 1))
    st.html(f'<div class="lesson-counters" role="img" aria-label="{html.escape(words)}" '
            f'title="{html.escape(words)}"><span aria-hidden="true">'
            f'{"🏁 " if check else ""}{dots}</span>'
            f'<span aria-hidden="true">👆 {plays}</span></div>')
