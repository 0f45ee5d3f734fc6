"""Progress: what the child has mastered and what still needs practice (for a parent too)."""

from __future__ import annotations

from datetime import date

import streamlit as st

from puzzles import CAPTURE_SUMS
from puzzles.practice import streaks
from trainer import charts
from trainer.i18n import t
from ui.layout import require_profile
from ui.practice import attempts, keep, kept, mastery, today
from ui.session import storage

profile = require_profile()
st.title(t("progress_title"))

_CONFIG = {"displayModeBar": False, "responsive": True}


def show(chart: charts.Chart | None, key: str, empty: str) -> None:
    """A chart with its one-line reading, or a friendly empty state."""
    if chart is None:
        st.info(t(empty), icon="🌱")
        return
    st.markdown(f"**{t(chart.key, **chart.params)}**")
    st.plotly_chart(chart.figure, key=key, config=_CONFIG)


rows = attempts(profile.id)
games_played = storage().finished_games(profile.id)
if not rows and not games_played:
    # A new child: one friendly sentence and where to start, not a page of empty charts.
    st.info(t("ch_empty_new"), icon="🌱")
    st.page_link("app_pages/puzzles.py", label=t("nav_puzzles"), icon="🧩")
    st.page_link("app_pages/daily.py", label=t("nav_daily"), icon="📅")
    st.page_link("app_pages/quick_facts.py", label=t("nav_quick_facts"), icon="⚡")
    st.stop()
frame = charts.attempts_frame(rows)
day = today()

st.header(t("progress_practice"))
show(charts.daily_chart(frame, t), "ch_daily", "ch_empty_daily")

st.header(t("progress_facts"))
capture_sum = st.segmented_control(t("capture_sum"), list(CAPTURE_SUMS), key="pr_sum",
                                   default=kept("pr_sum", 15), required=True,
                                   on_change=keep, args=("pr_sum",)) or 15
stats = mastery(profile.id, int(capture_sum))
show(charts.mastery_chart(stats, int(capture_sum), t) if rows else None, "ch_mastery",
     "ch_empty_mastery")

st.header(t("progress_puzzles"))
show(charts.puzzles_chart(frame, t), "ch_puzzles", "ch_empty_puzzles")
show(charts.stars_chart(frame, t), "ch_stars", "ch_empty_stars")
results = storage().daily_results(profile.id)
current, best = streaks([date.fromisoformat(r.day) for r in results if r.completed], day)
show(charts.streak_chart(results, day, current, best, t), "ch_streak", "ch_empty_streak")

st.header(t("progress_games"))
games = charts.games_frame(games_played)
show(charts.wins_chart(games, t), "ch_wins", "ch_empty_games")
if not games.empty:
    show(charts.escobas_chart(games, t), "ch_escobas", "ch_empty_games")
    show(charts.points_chart(games, t), "ch_points", "ch_empty_games")
    show(charts.mistakes_chart(games, t), "ch_mistakes", "ch_empty_review")

if rows:
    st.download_button(t("ch_download"), lambda: charts.attempts_csv(attempts(profile.id)),
                       file_name=f"escoba-attempts-{profile.id}.csv", mime="text/csv",
                       key="ch_csv", icon="⬇️")
