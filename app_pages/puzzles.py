"""Puzzles: pick a kind and a level (or "for me"), find every capture, get feedback and stars."""

from __future__ import annotations

import streamlit as st

from puzzles import CAPTURE_SUMS, LEVELS, Puzzle, generate
from puzzles.practice import for_me_puzzle
from puzzles.worksheet import worksheet_code, worksheet_pdf
from trainer.export import file_name
from trainer.i18n import format_list, t
from trainer.practice_sessions import PuzzleKeeper
from ui.errors import friendly_fragment, safe_callback, show_error_flash
from ui.i18n import current_language, labels
from ui.layout import require_profile, show_flash
from ui.practice import (
    attempt_row,
    fact_text,
    for_me_path,
    keep,
    kept,
    mastery,
    record_attempt,
)
from ui.practice_view import show_puzzle
from ui.session import new_seed, storage

MODES = ["for-me", "captures", "hand", "fifteens", "best-move", "scopa"]
CURRENT = "pz_current"  # (settings, puzzle, targets)

profile = require_profile()
# Scopa's captures make the played card's value: no "Find all the 15s" over them.
st.title(t("puzzles_title_scopa" if st.session_state.get("pz_mode") == "scopa"
           else "puzzles_title"))
show_flash()


def _settings() -> tuple[str, int, int]:
    mode = st.session_state.get("pz_mode") or "for-me"
    level = st.session_state.get("pz_level") or kept("pz_level", 1)
    # The sum chooser is not drawn for Scopa (it has none): its kept value stands.
    capture_sum = st.session_state.get("pz_sum") or kept("pz_sum", 15)
    return mode, int(level) if mode != "for-me" else 1, int(capture_sum)


@safe_callback
def _next() -> None:
    st.session_state.pop(CURRENT, None)


def _make(mode: str, level: int, capture_sum: int):
    if mode == "for-me":
        path = for_me_path(profile.id)
        # The "for me" puzzles answered so far: one more after each (Next is offered only
        # after an answer), the same after a reload. Adding this session's Next count
        # too walked the pool 80 seeds a puzzle and, after a reload, back over seeds
        # already read (found trying it as a child).
        number = path.answered
        # Seeded by profile: two new children do not get the same first puzzles.
        return for_me_puzzle(mastery(profile.id, capture_sum), path, capture_sum, number,
                             prefix=f"forme-p{profile.id}")
    return generate(mode, level, new_seed(), capture_sum), []


def _resume_after_restart() -> None:
    """A new session (the app restarted, another tab): the unfinished puzzle saved for
    this child comes back with its choices, its "for me" targets and the sets found."""
    if CURRENT in st.session_state:
        return
    saved = PuzzleKeeper(storage(), profile.id, "pz").saved()
    choices = (saved or {}).get("choices")
    if not isinstance(choices, dict) or choices.get("mode") not in MODES:
        return
    try:
        puzzle = Puzzle.from_dict(saved["puzzle"])
        level, capture_sum = int(choices["level"]), int(choices["sum"])
    except (KeyError, TypeError, ValueError):
        return
    for key, value in (("pz_mode", choices["mode"]), ("pz_sum", capture_sum),
                       ("pz_level", level)):
        st.session_state[f"keep_{key}"] = value
        st.session_state[key] = value
    targets = [str(f) for f in saved.get("targets", [])]
    st.session_state[CURRENT] = ((choices["mode"], level if choices["mode"] != "for-me" else 1,
                                  capture_sum), puzzle, targets)


_resume_after_restart()
# The choices are kept when the child visits another page and comes back.
st.segmented_control(t("pz_mode"), MODES, format_func=labels("pz_mode_"), key="pz_mode",
                     default=kept("pz_mode", "for-me"), required=True, on_change=keep,
                     args=("pz_mode",))
if st.session_state.get("pz_mode") != "scopa":  # a Scopa set makes the card's value
    st.segmented_control(t("capture_sum"), list(CAPTURE_SUMS), key="pz_sum",
                         default=kept("pz_sum", 15), required=True, on_change=keep,
                         args=("pz_sum",))
if st.session_state.get("pz_mode", "for-me") != "for-me":
    st.segmented_control(t("level"), list(LEVELS), key="pz_level",
                         default=kept("pz_level", 1), required=True, on_change=keep,
                         args=("pz_level",))

def _record(p, result, seconds, answer) -> None:
    mode = _settings()[0]
    record_attempt(profile.id, attempt_row(p, result, seconds, answer,
                                           "for-me" if mode == "for-me" else "practice"))


@friendly_fragment
def _puzzle() -> None:
    """The puzzle, its board and Next: a set added, a hint, "I've found them all" and
    Next rerun only this (issue 32: not the router, the sidebar, the choosers above or
    the worksheet below)."""
    show_error_flash()
    current = st.session_state.get(CURRENT)
    if current is None or current[0] != _settings():
        puzzle, targets = _make(*_settings())
        current = (_settings(), puzzle, targets)
        st.session_state[CURRENT] = current
    _, puzzle, targets = current
    if targets:
        st.caption(t("pz_for_me_targets", facts=format_list(fact_text(f) for f in targets)))
    st.caption(t("pz_level_is", level=puzzle.level, kind=t("pz_mode_" + puzzle.kind)))
    mode_now, level_now, sum_now = _settings()
    keeper = PuzzleKeeper(storage(), profile.id, "pz", {
        "choices": {"mode": mode_now, "level": level_now, "sum": sum_now},
        "targets": list(targets)})
    state = show_puzzle("pz", puzzle, _record, keeper)
    if state.result is not None:
        st.button(t("pz_next"), key="pz_next", type="primary", on_click=_next,
                  use_container_width=True)


_puzzle()

# For teachers: the printable worksheet of issue 4, the same as `escoba worksheet`.
with st.expander(t("ws_title"), icon="🖨️"):
    st.caption(t("ws_help"))
    ws_cols = st.columns(2)
    ws_kind = ws_cols[0].selectbox(t("pz_mode"), MODES[1:] + ["quick-facts"], key="ws_kind",
                                   format_func=labels("pz_mode_"))
    ws_level = ws_cols[1].selectbox(t("level"), list(LEVELS), key="ws_level")
    ws_count = ws_cols[0].number_input(t("ws_count"), 1, 60, 20, key="ws_count")
    ws_seed = ws_cols[1].number_input(t("ws_seed"), 0, 999_999, 1, key="ws_seed")
    ws_paper = st.segmented_control(t("ws_paper"), ["a4", "letter"], key="ws_paper",
                                    default="a4", required=True,
                                    format_func=lambda p: p.upper() if p == "a4" else "Letter")
    ws_sum = _settings()[2]
    code = worksheet_code(ws_kind, int(ws_level), int(ws_seed), ws_sum)
    st.markdown(t("ws_code", code=code))
    # The PDF is made only when the button is tapped, in the language of the page.
    ws_lang = current_language()
    st.download_button(
        t("ws_download"),
        lambda: worksheet_pdf(ws_kind, int(ws_level), count=int(ws_count), seed=int(ws_seed),
                              capture_sum=ws_sum, paper=ws_paper or "a4", lang=ws_lang),
        file_name=file_name(t("file.worksheet", ws_lang, domain="classroom"), code, ext="pdf"),
        mime="application/pdf", key="ws_pdf", icon="🖨️")
