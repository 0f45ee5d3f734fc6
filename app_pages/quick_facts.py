"""Quick facts: short rounds of "8 + ? = 15", answered by tapping a number.

The time of each answer is recorded privately (for fluency in the progress
charts); nothing on screen counts down and no one else's results are shown.
"""

from __future__ import annotations

import streamlit as st

from puzzles import CAPTURE_SUMS, LEVELS
from puzzles.practice import for_me_quick_facts, quick_facts_set
from trainer.i18n import t
from trainer.practice_sessions import QUICK_FACTS_SLOT, PuzzleKeeper, QuickRound
from trainer.storage import SlotProgress
from ui.errors import friendly_fragment, safe_callback, show_error_flash
from ui.layout import require_profile, show_flash
from ui.practice import attempt_row, keep, kept, mastery, record_attempt
from ui.quick_round_view import show_quick_round
from ui.session import new_seed, storage

ROUND = 5
KEY = "qf_round"
MODES = ["for-me", *[str(lv) for lv in LEVELS]]

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
def _answer(value: int, heard: float = 0.0) -> None:
    rnd: QuickRound | None = st.session_state.get(KEY)
    if rnd is None:
        return
    with rnd.kept_only_if_saved():  # an answer not saved is not shown as given
        answered = rnd.answer(value, heard)
        if answered is not None:
            puzzle, result, seconds = answered
            # The round's place is kept with the answer: a reload, a restart or the
            # tablet's browser closed mid-round brings back this round, not a new one.
            record_attempt(profile.id, attempt_row(puzzle, result, seconds, [value], "quick"),
                           progress=SlotProgress(QUICK_FACTS_SLOT, puzzle.id,
                                                 rnd.progress()))


@safe_callback
def _again() -> None:
    st.session_state.pop(KEY, None)


def _resume_after_restart() -> None:
    """A new session (a reload, a restart, another tab): the round this child left
    unfinished comes back with its choices and the answers given."""
    if KEY in st.session_state:
        return
    data = PuzzleKeeper(storage(), profile.id, QUICK_FACTS_SLOT).saved()
    rnd = QuickRound.resume(data) if data is not None else None
    if rnd is None or rnd.mode not in MODES or rnd.capture_sum not in CAPTURE_SUMS:
        return
    st.session_state["keep_qf_mode"] = rnd.mode
    st.session_state["keep_qf_sum"] = rnd.capture_sum
    st.session_state[KEY] = rnd


_resume_after_restart()
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
        if rnd is not None and rnd.values and not rnd.done:
            # Left for another choice: a reload must not bring the old round back.
            PuzzleKeeper(storage(), profile.id, QUICK_FACTS_SLOT).clear()
        rnd = _new_round(mode, capture_sum)
        st.session_state[KEY] = rnd
    show_quick_round(rnd, on_answer=_answer, on_again=_again)


_round()
# The choices under the round, not above it: on a phone the question's last numbers sat
# below the screen when the page opened (found trying it as a child); a child starts
# answering at once, a grown-up scrolls to choose.
st.segmented_control(t("qf_mode"), MODES, key="qf_mode", default=kept_mode,
                     required=True, on_change=keep, args=("qf_mode",),
                     format_func=lambda m: t("pz_mode_for-me") if m == "for-me"
                     else t("level_n", n=m))
st.segmented_control(t("capture_sum"), list(CAPTURE_SUMS), key="qf_sum",
                     default=kept_sum, required=True, on_change=keep,
                     args=("qf_sum",))
