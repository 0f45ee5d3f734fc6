"""Quick facts: short rounds of "8 + ? = 15", answered by tapping a number.

The time of each answer is recorded privately (for fluency in the progress
charts); nothing on screen counts down and no one else's results are shown.
"""

from __future__ import annotations

import html
import time
from dataclasses import dataclass, field

import streamlit as st

from puzzles import CAPTURE_SUMS, LEVELS, Puzzle, check, generate
from puzzles.practice import for_me_quick_facts
from trainer.cards import cards_row_html
from trainer.i18n import t
from ui.board import deck_of, safe_callback
from ui.layout import require_profile, show_flash
from ui.practice import attempt_row, keep, kept, mastery, record_attempt
from ui.session import new_seed, settings

ROUND = 5
KEY = "qf_round"

profile = require_profile()
st.title(t("qf_title"))
st.caption(t("qf_intro"))
show_flash()


@dataclass
class QuickRound:
    mode: str
    capture_sum: int
    puzzles: list[Puzzle]
    index: int = 0
    shown_for: int = -1
    shown_at: float = 0.0
    results: list[tuple[Puzzle, bool]] = field(default_factory=list)
    feedback: tuple[str, str] | None = None


def _new_round(mode: str, capture_sum: int) -> QuickRound:
    if mode == "for-me":
        puzzles = for_me_quick_facts(mastery(profile.id, capture_sum), capture_sum, ROUND)
    else:
        puzzles = [generate("quick-facts", int(mode), new_seed(), capture_sum)
                   for _ in range(ROUND)]
    return QuickRound(mode, capture_sum, puzzles)


def _question(p: Puzzle) -> str:
    return " + ".join(str(a) for a in p.addends) + f" + ? = {p.capture_sum}"


@safe_callback
def _answer(value: int) -> None:
    rnd: QuickRound | None = st.session_state.get(KEY)
    if rnd is None or rnd.index >= len(rnd.puzzles):
        return
    puzzle = rnd.puzzles[rnd.index]
    seconds = round(time.monotonic() - rnd.shown_at, 2)
    result = check(puzzle, value)
    record_attempt(profile.id, attempt_row(puzzle, result, seconds, [value], "quick"))
    right = puzzle.solutions[0].value
    expr = " + ".join(str(a) for a in [*puzzle.addends])
    if result.solved:
        rnd.feedback = ("success", t("qf_right", expr=expr, value=value, sum=puzzle.capture_sum))
    else:
        rnd.feedback = ("error", t("qf_wrong", expr=expr, value=value,
                                   total=sum(puzzle.addends) + value, sum=puzzle.capture_sum,
                                   right=right))
    rnd.results.append((puzzle, result.solved))
    rnd.index += 1


@safe_callback
def _again() -> None:
    st.session_state.pop(KEY, None)


modes = ["for-me", *[str(lv) for lv in LEVELS]]
st.segmented_control(t("qf_mode"), modes, key="qf_mode", default=kept("qf_mode", "for-me"),
                     required=True, on_change=keep, args=("qf_mode",),
                     format_func=lambda m: t("pz_mode_for-me") if m == "for-me"
                     else t("level_n", n=m))
st.segmented_control(t("capture_sum"), list(CAPTURE_SUMS), key="qf_sum",
                     default=kept("qf_sum", 15), required=True, on_change=keep,
                     args=("qf_sum",))
mode = st.session_state.get("qf_mode") or "for-me"
capture_sum = int(st.session_state.get("qf_sum") or 15)

rnd = st.session_state.get(KEY)
if rnd is None or (rnd.mode, rnd.capture_sum) != (mode, capture_sum):
    rnd = _new_round(mode, capture_sum)
    st.session_state[KEY] = rnd

if rnd.feedback is not None:
    kind, text = rnd.feedback
    (st.success if kind == "success" else st.error)(text)

if rnd.index >= len(rnd.puzzles):
    right = sum(1 for _, ok in rnd.results if ok)
    st.markdown(f"### {t('qf_round_done', right=right, total=len(rnd.results))}")
    st.markdown("\n".join(
        f"- {'✅' if ok else '🔁'} "
        f"{html.escape(_question(p).replace('?', str(p.solutions[0].value)))}"
        for p, ok in rnd.results))
    st.button(t("qf_again"), key="qf_again", type="primary", on_click=_again,
              use_container_width=True)
    st.stop()

puzzle = rnd.puzzles[rnd.index]
if rnd.shown_for != rnd.index:
    rnd.shown_for, rnd.shown_at = rnd.index, time.monotonic()
st.caption(t("qf_progress", n=rnd.index + 1, total=len(rnd.puzzles)))
st.html(cards_row_html(puzzle.table, deck_of(), bool(settings().get("show_values", True)),
                       width=72, names=False)
        + f"<div style='font-size:3rem;font-weight:700;margin:8px 0' data-testid='qf-question'>"
          f"{html.escape(_question(puzzle))}</div>")
with st.container(horizontal=True, key="qf_numbers"):
    for n in range(1, 11):
        st.button(str(n), key=f"qf_n_{n}", on_click=_answer, args=(n,), type="secondary")
