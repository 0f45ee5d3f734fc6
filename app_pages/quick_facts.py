"""Quick facts: short rounds of "8 + ? = 15", answered by tapping a number.

The time of each answer is recorded privately (for fluency in the progress
charts); nothing on screen counts down and no one else's results are shown.
"""

from __future__ import annotations

import streamlit as st

from puzzles import CAPTURE_SUMS, LEVELS
from puzzles.practice import for_me_quick_facts, quick_facts_set
from trainer.i18n import t
from trainer.practice_sessions import QuickRound
from ui.errors import friendly_fragment, safe_callback, show_error_flash
from ui.layout import require_profile, show_flash
from ui.practice import attempt_row, keep, kept, mastery, record_attempt
from ui.quick_round_view import show_quick_round
from ui.session import new_seed

ROUND = 5
KEY = "qf_round"

profile = require_profile()
st.title(t("qf_title"))  # what to do: the round says it in its first answer's place
show_flash()


def _new_round(mode: str, capture_sum: int) -> QuickRound:
    if mode == "for-me":
        puzzles = for_me_quick_facts(mastery(profile.id, capture_sum), capture_sum, ROUND)
    else:
        puzzles = quick_facts_set(int(mode), ROUND, new_seed(), capture_sum)
    return QuickRound(mode, capture_sum, puzzles)


@safe_callback
def _answer(value: int) -> None:
    rnd: QuickRound | None = st.session_state.get(KEY)
    if rnd is None:
        return
    with rnd.kept_only_if_saved():  # an answer not saved is not shown as given
        answered = rnd.answer(value)
        if answered is not None:
            puzzle, result, seconds = answered
            record_attempt(profile.id, attempt_row(puzzle, result, seconds, [value], "quick"))


@safe_callback
def _again() -> None:
    st.session_state.pop(KEY, None)


# The choices as the child left them (drawn under the round: see the end of the page).
kept_mode, kept_sum = kept("qf_mode", "for-me"), kept("qf_sum", 15)
mode = st.session_state.get("qf_mode") or kept_mode
capture_sum = int(st.session_state.get("qf_sum") or kept_sum)


@friendly_fragment
def _round() -> None:
    """The round: a tap reruns only this (issue 32: the router, the sidebar and the
    choosers under it are not drawn again for each answer), which draws one element
    once the round has drawn in the browser (ui/quick_round_view.py)."""
    show_error_flash()
    rnd = st.session_state.get(KEY)
    if rnd is None or (rnd.mode, rnd.capture_sum) != (mode, capture_sum):
        rnd = _new_round(mode, capture_sum)
        st.session_state[KEY] = rnd
    show_quick_round(rnd, on_answer=_answer, on_again=_again)


_round()
# The choices under the round, not above it: on a phone the question's last numbers sat
# below the screen when the page opened (found trying it as a child); a child starts
# answering at once, a grown-up scrolls to choose.
modes = ["for-me", *[str(lv) for lv in LEVELS]]
st.segmented_control(t("qf_mode"), modes, key="qf_mode", default=kept_mode,
                     required=True, on_change=keep, args=("qf_mode",),
                     format_func=lambda m: t("pz_mode_for-me") if m == "for-me"
                     else t("level_n", n=m))
st.segmented_control(t("capture_sum"), list(CAPTURE_SUMS), key="qf_sum",
                     default=kept_sum, required=True, on_change=keep,
                     args=("qf_sum",))
