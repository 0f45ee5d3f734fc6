"""My progress's charts, built once per profile and data version, for every session.

A year of daily use is some 7,000 attempts: reading them, shaping them with
pandas and building nine plotly figures takes over a second, and the page was
doing it on every visit and every tap. The figures are built once per
:func:`ui.practice.data_version` (a new attempt or game changes it), language
and day, and shared by every session. They are kept as they are, not copied
(``st.cache_resource``): plotly re-validates a whole figure when it is copied
(unpickled), which costs more than building it; the page only reads them.
"""

from __future__ import annotations

from datetime import date

import streamlit as st

from puzzles.practice import streaks
from trainer import charts
from trainer.i18n import t

from .practice import DataVersion, fact_stats_of, game_turns, history
from .session import storage

__all__ = ["practice_charts", "games_charts", "mastery_chart"]

Charts = dict[str, charts.Chart | None]

# ``lang`` is in each cache key and nowhere else: the labels come from ``t``, which
# speaks this run's language (ui.i18n.start_run), the same one the page passes.


@st.cache_resource(max_entries=16, show_spinner=False)
def practice_charts(version: DataVersion, lang: str, day: date) -> Charts:
    """Practice (answers a day) and puzzles (solved, stars, the daily streak), by key."""
    frame = history(version)[0]
    results = storage().daily_results(version.profile_id)
    current, best = streaks([date.fromisoformat(r.day) for r in results if r.completed], day)
    return {"ch_daily": charts.daily_chart(frame, t),
            "ch_puzzles": charts.puzzles_chart(frame, t),
            "ch_stars": charts.stars_chart(frame, t),
            "ch_streak": charts.streak_chart(results, day, current, best, t)}


@st.cache_resource(max_entries=16, show_spinner=False)
def games_charts(version: DataVersion, lang: str) -> Charts:
    """Finished games: won per opponent, escobas, points a round, the coach's mistakes;
    empty when there is no finished game."""
    games = charts.games_frame(storage().finished_games(version.profile_id))
    chances = charts.chances_chart(game_turns(version), t)
    if games.empty:
        return {"ch_chances": chances} if chances is not None else {}
    return {"ch_chances": chances, "ch_wins": charts.wins_chart(games, t),
            "ch_escobas": charts.escobas_chart(games, t),
            "ch_points": charts.points_chart(games, t),
            "ch_mistakes": charts.mistakes_chart(games, t)}


@st.cache_resource(max_entries=32, show_spinner=False)
def mastery_chart(version: DataVersion, lang: str, capture_sum: int) -> charts.Chart:
    """The grid of additions and the strip of complements of ``capture_sum``."""
    return charts.mastery_chart(fact_stats_of(version, capture_sum), capture_sum, t)


def show_lessons_table(profile_id: int) -> None:
    """Each lesson stage: levels done and stars (the same numbers as the lesson map)."""
    import pandas as pd

    from lessons import load_stages
    from trainer.lessons import stage_summaries

    from .session import storage

    summaries = stage_summaries(storage().lesson_results(profile_id))
    if not any(s.done for s in summaries.values()):
        st.info(t("ch_empty_lessons"), icon="🌱")
        st.page_link("app_pages/lessons.py", label=t("nav_lessons"), icon="🎓")
        return
    rows = [{t("lp_stage"): f"{n}. {t(stage.title, domain='lessons')}",
             t("lp_levels"): f"{summaries[stage.key].done} / {summaries[stage.key].total}",
             t("lp_stars"): f"⭐ {summaries[stage.key].stars} / {summaries[stage.key].max_stars}"}
            for n, stage in enumerate(load_stages(), 1)]
    done = sum(s.done for s in summaries.values())
    stars = sum(s.stars for s in summaries.values())
    st.markdown(f"**{t('lp_reading', levels=done, stars=stars)}**")
    st.dataframe(pd.DataFrame(rows), hide_index=True, use_container_width=True)
