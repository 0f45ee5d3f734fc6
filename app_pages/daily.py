"""Daily: today's five puzzles (the same for everyone), stars, streak, a share text."""

from __future__ import annotations

from datetime import date, timedelta

import streamlit as st

from puzzles import share_text
from puzzles.daily import EPOCH
from puzzles.practice import streaks
from trainer.i18n import format_day, t
from trainer.practice_sessions import DailyFlow, PuzzleKeeper
from ui.errors import safe_callback
from ui.i18n import current_language
from ui.layout import require_profile, show_flash
from ui.practice import (
    attempt_row,
    cached_daily,
    record_attempt,
    record_daily,
    timezone_unknown,
    today,
)
from ui.practice_view import reset, show_puzzle, stars_text, state_of
from ui.session import storage

profile = require_profile()
st.title(t("daily_title"))
show_flash()

day = today()
if timezone_unknown():  # a browser's odd time zone: said, never an error
    st.caption(t("timezone_unknown"))
if day < EPOCH:
    st.info(t("daily_not_yet", date=format_day(EPOCH)), icon="📅")
    st.page_link("app_pages/puzzles.py", label=t("go_puzzles"), icon="🧩")
    st.stop()

daily = cached_daily(day)
result = storage().daily_result(profile.id, day.isoformat())
stars: list[int | None] = list(result.stars) if result else [None] * len(daily.puzzles)
completed = bool(result and result.completed)
st.markdown(t("daily_heading", number=daily.number, date=format_day(day, weekday=True)))

# Streak: days whose daily was completed (today's not played yet keeps yesterday's run).
done_days = [date.fromisoformat(r.day) for r in storage().daily_results(profile.id)
             if r.completed]
current, best = streaks(done_days, day)
cols = st.columns(3)
cols[0].metric(t("daily_stars"), f"{sum(s or 0 for s in stars)} / {3 * len(stars)}")
cols[1].metric(t("daily_streak"), t("days_n", count=current))
cols[2].metric(t("daily_best"), t("days_n", count=best))

tiles = " · ".join(f"**{i + 1}** {stars_text(s) if s else '⬜'}" for i, s in enumerate(stars))
st.markdown(tiles)

yesterday = storage().daily_result(profile.id, (day - timedelta(days=1)).isoformat())
if day - timedelta(days=1) >= EPOCH:
    if yesterday is None:
        st.caption(t("daily_yesterday_none"))
    else:
        st.caption(t("daily_yesterday", stars=yesterday.total, count=yesterday.total,
                     squares=share_text(yesterday.number, list(yesterday.stars),
                                        current_language())
                     .splitlines()[-1]))

FLOW = "dy_flow"
flow: DailyFlow | None = st.session_state.get(FLOW)
if flow is None or flow.day != day:
    flow = DailyFlow(day)
    st.session_state[FLOW] = flow


@safe_callback
def _replay(index: int) -> None:
    st.session_state[FLOW].replay(index)
    reset(f"dyr{index}", None)  # a replay starts afresh


@safe_callback
def _next() -> None:
    st.session_state[FLOW].next()


# The puzzle just answered stays on screen (its stars, what was missed) until the
# child asks for the next one, even when it completed the day.
view = flow.view(stars, completed,
                 lambda i: getattr(state_of(f"dy{i}"), "result", None) is not None)
if view.view in ("summary", "replay"):
    assert result is not None
    st.success(t("daily_complete", stars=result.total, count=result.total), icon="🎉")
    st.markdown(f"**{t('daily_share')}**")
    st.code(share_text(daily, list(stars), current_language()), language=None)
    st.caption(t("daily_share_help"))
    st.markdown(f"**{t('daily_again')}**")
    with st.container(horizontal=True, key="dy_again"):
        for i in range(len(daily.puzzles)):
            st.button(str(i + 1), key=f"dy_again_{i}", on_click=_replay, args=(i,))
    if view.index is None:
        st.stop()
    st.caption(t("daily_replay_note"))

index = view.index
assert index is not None
puzzle = daily.puzzles[index]
st.subheader(t("daily_puzzle_n", n=index + 1, level=puzzle.level))


def _record(p, res, seconds, answer) -> None:
    row = attempt_row(p, res, seconds, answer, view.mode)
    if view.mode == "daily":
        record_daily(profile.id, daily, index, row)
    else:
        # Playing a finished day again never changes its result: an attempt only.
        record_attempt(profile.id, row)


# Sets found are kept as they are found: a restart resumes the day's puzzle.
state = show_puzzle(view.slot, puzzle, _record, PuzzleKeeper(storage(), profile.id, view.slot))
if state.result is not None and view.mode == "daily":
    st.button(t("daily_next") if None in stars else t("daily_see_result"), key="dy_next",
              type="primary", on_click=_next, use_container_width=True)
