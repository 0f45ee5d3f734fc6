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
from trainer.i18n import format_list, format_number, format_percent, t
from trainer.progress_summary import TREND_ANSWERS, ParentSummary, parent_summary
from trainer.speech import speakable
from trainer.text import md_escape

from .practice import (
    PROGRESS_CACHE_PROFILES,
    PROGRESS_CACHE_SUMS,
    DataVersion,
    data_version,
    fact_stats_of,
    fact_text,
    fluency_limit,
    game_turns,
    history_view,
    just_right_of,
    practice_frame,
    progress_contents,
    start_quick_facts,
)
from .session import deck_of, storage
from .speaker import speaker_button

__all__ = ["practice_charts", "games_charts", "mastery_chart", "show_chart", "show_part",
           "SECTIONS", "show_lessons_table", "summary_of", "show_summary"]

Charts = dict[str, charts.Chart | None]

# ``lang`` is in each cache key and nowhere else: the labels come from ``t``, which
# speaks this run's language (ui.i18n.start_run), the same one the page passes.


@st.cache_resource(max_entries=PROGRESS_CACHE_PROFILES, show_spinner=False)
def practice_charts(version: DataVersion, lang: str, day: date) -> Charts:
    """Practice (answers a day) and puzzles (solved, stars, the daily streak), by key."""
    frame = practice_frame(version)
    results = storage().daily_results(version.profile_id)
    current, best = streaks([date.fromisoformat(r.day) for r in results if r.completed], day)
    return {"ch_daily": charts.daily_chart(frame, t),
            "ch_puzzles": charts.puzzles_chart(frame, t),
            "ch_stars": charts.stars_chart(frame, t),
            "ch_streak": charts.streak_chart(results, day, current, best, t)}


@st.cache_resource(max_entries=PROGRESS_CACHE_PROFILES, show_spinner=False)
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


@st.cache_resource(max_entries=PROGRESS_CACHE_SUMS, show_spinner=False)
def mastery_chart(version: DataVersion, lang: str, capture_sum: int,
                  limit: float) -> charts.Chart:
    """The grid of additions and the strip of complements of ``capture_sum``, "fluent"
    read at ``limit`` seconds."""
    return charts.mastery_chart(fact_stats_of(version, capture_sum, limit), capture_sum, t)


#: My progress's parts, one at a time: the browser drawing nine plotly charts at once took
#: seconds on a tablet (docs/BENCHMARKS.md, "My progress in the browser"); a part is one
#: to four.
SECTIONS = ("facts", "practice", "puzzles", "games", "lessons")
_CONFIG = {"displayModeBar": False, "responsive": True}


@st.cache_resource(max_entries=PROGRESS_CACHE_SUMS, show_spinner=False)
def summary_of(version: DataVersion, capture_sum: int, limit: float) -> ParentSummary:
    """The parent's three answers (trainer.progress_summary), once per data version."""
    return parent_summary(fact_stats_of(version, capture_sum, limit),
                          history_view(version).quick, capture_sum)


def _percent(value: float) -> str:
    return format_percent(value / 100)


def show_summary(profile_id: int, capture_sum: int, practise: bool = True) -> None:
    """What the child knows, what to practise next (with "practise these": a quick-facts
    round on exactly those facts), whether it is getting better; at the top of My
    progress, one sentence each (issue 33)."""
    summary = summary_of(data_version(profile_id), capture_sum, fluency_limit(profile_id))
    knows = t("ps_knows", known=summary.known_additions, total=summary.additions,
              complements=summary.known_complements, complements_total=summary.complements,
              sum=capture_sum)
    lines = [f"🧠 {knows}"]
    if summary.practise:
        # a fact never broken over two lines ("2 +" / "8." on a phone)
        facts = format_list(fact_text(f).replace(" ", "\u00a0") for f in summary.practise)
        lines.append(f"🎯 {t('ps_practise', facts=facts)}")
    else:
        lines.append(f"🎯 {t('ps_practise_none')}")
    if summary.trend == "too_early":
        trend = t("ps_trend_too_early", count=summary.answers, need=TREND_ANSWERS)
    else:
        assert summary.before is not None and summary.after is not None
        trend = t(f"ps_trend_{summary.trend}", before=_percent(summary.before[0]),
                  after=_percent(summary.after[0]), n=summary.answers // 3)
        if summary.before[1] is not None and summary.after[1] is not None:
            trend += " " + t("ps_trend_time", before=format_number(round(summary.before[1], 1)),
                             after=format_number(round(summary.after[1], 1)))
    lines.append(f"📈 {trend}")
    with st.container(border=True, key="ps_summary"):
        st.markdown(f"**{t('ps_title')}**")
        st.markdown("  \n".join(md_escape(line) for line in lines))
        # Said aloud for a child who reads slowly (the facts as a child says them).
        speaker_button(speakable(f"{t('ps_title')}. " + " ".join(lines), deck=deck_of()),
                       key="ps_speaker")
        if practise and summary.practise and st.button(
                t("ps_practise_button"), key="ps_practise", icon="⚡", type="primary"):
            start_quick_facts(list(summary.practise), capture_sum)


def show_chart(chart: charts.Chart | None, key: str, empty: str) -> None:
    """A chart with its one-line reading, or a friendly empty state."""
    if chart is None:
        st.info(t(empty), icon="🌱")
        return
    st.markdown(f"**{t(chart.key, **chart.params)}**")
    st.plotly_chart(chart.figure, key=key, config=_CONFIG)


def show_part(profile_id: int, section: str, lang: str, day: date, capture_sum: int,
              prefix: str = "", links: bool = True) -> None:
    """One part of a profile's My progress, read only: the child's own page, and a
    teacher's look at a pupil (``prefix`` keeps the charts' keys apart; ``links=False``
    leaves out the child's links to the pages)."""
    version = data_version(profile_id)
    counts = progress_contents(version)
    if section == "facts":
        show_chart(mastery_chart(version, lang, capture_sum, fluency_limit(profile_id))
                   if counts.attempts else None,
                   f"{prefix}ch_mastery", "ch_empty_mastery")
    elif section == "practice":
        practice = practice_charts(version, lang, day)
        show_chart(practice["ch_daily"], f"{prefix}ch_daily", "ch_empty_daily")
    elif section == "puzzles":
        practice = practice_charts(version, lang, day)
        show_chart(practice["ch_puzzles"], f"{prefix}ch_puzzles", "ch_empty_puzzles")
        show_chart(practice["ch_stars"], f"{prefix}ch_stars", "ch_empty_stars")
        show_chart(practice["ch_streak"], f"{prefix}ch_streak", "ch_empty_streak")
    elif section == "lessons":
        show_lessons_table(profile_id, links=links)
    else:
        # How hard the "just right" computer now plays, against a week ago (issue 30):
        # a parent's sentence, and a teacher's, who reads this same part.
        reading = just_right_of(version, day).reading()
        if reading is not None:
            st.markdown(f"🎚️ {md_escape(t(reading[0], **reading[1]))}")
        games = games_charts(version, lang)
        if games.get("ch_chances") is not None:  # found in games
            show_chart(games["ch_chances"], f"{prefix}ch_chances", "ch_empty_games")
        # With the chances of a game under way above, what finishing one adds (the
        # page said both "100 % in the first game" and "finish a game" to a child).
        show_chart(games.get("ch_wins"), f"{prefix}ch_wins",
                   "ch_empty_wins" if games.get("ch_chances") is not None
                   else "ch_empty_games")
        if games.get("ch_wins") is not None:
            show_chart(games["ch_escobas"], f"{prefix}ch_escobas", "ch_empty_games")
            show_chart(games["ch_points"], f"{prefix}ch_points", "ch_empty_games")
            show_chart(games["ch_mistakes"], f"{prefix}ch_mistakes", "ch_empty_review")


def show_lessons_table(profile_id: int, links: bool = True) -> None:
    """Each lesson stage: levels done and stars (the same numbers as the lesson map)."""
    import pandas as pd

    from lessons import load_stages
    from trainer.lessons import stage_summaries

    from .session import storage

    summaries = stage_summaries(storage().lesson_results(profile_id))
    if not any(s.done for s in summaries.values()):
        st.info(t("ch_empty_lessons"), icon="🌱")
        if links:
            st.page_link("app_pages/lessons.py", label=t("nav_lessons"), icon="🎓")
        return
    # "10. …" read as a Markdown list: its two digits were cut to "l0." on a phone.
    # No break inside a figure: "⭐ 16 /" and "21" on two lines read as two figures.
    nb = "\u00a0"
    rows = [{t("lp_stage"): f"{n} · {t(stage.title, domain='lessons')}",
             t("lp_levels"): f"{summaries[stage.key].done}{nb}/{nb}{summaries[stage.key].total}",
             t("lp_stars"): f"⭐{nb}{summaries[stage.key].stars}{nb}/{nb}"
                            f"{summaries[stage.key].max_stars}"}
            for n, stage in enumerate(load_stages(), 1)]
    done = sum(s.done for s in summaries.values())
    stars = sum(s.stars for s in summaries.values())
    st.markdown(f"**{t('lp_reading', levels=done, stars=stars)}**")
    # A plain table: a data grid's tool bar (columns, download, search, full screen) stayed
    # on a phone's touch screen over the line above, and its last column was cut off
    # (found trying My progress as a parent); twelve short rows need none of it.
    st.table(pd.DataFrame(rows), hide_index=True)
