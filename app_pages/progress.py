"""Progress: what the child has mastered and what still needs practice (for a parent too)."""

from __future__ import annotations

import streamlit as st

from puzzles import CAPTURE_SUMS
from trainer import charts
from trainer.i18n import t
from ui import progress
from ui.i18n import current_language
from ui.layout import require_profile
from ui.practice import attempts, data_version, keep, kept, mastery, today

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


version = data_version(profile.id)
counts = version.data
if not counts.attempts and not counts.finished_games and not counts.lessons:
    # A new child: one friendly sentence and where to start, not a page of empty charts.
    st.info(t("ch_empty_new"), icon="🌱")
    st.page_link("app_pages/lessons.py", label=t("nav_lessons"), icon="🎓")
    st.page_link("app_pages/puzzles.py", label=t("nav_puzzles"), icon="🧩")
    st.page_link("app_pages/daily.py", label=t("nav_daily"), icon="📅")
    st.page_link("app_pages/quick_facts.py", label=t("nav_quick_facts"), icon="⚡")
    st.stop()
# Built once per profile, language, day and data version (see ui/progress.py).
lang = current_language()

# One part at a time: the browser drawing nine plotly charts at once took seconds on a
# tablet (docs/BENCHMARKS.md, "My progress in the browser"); a part is one to four.
SECTIONS = ("facts", "practice", "puzzles", "games", "lessons")
section = st.segmented_control(t("progress_title"), SECTIONS, key="pr_view",
                               format_func=lambda s: t(f"progress_{s}"),
                               default=kept("pr_view", "facts"), required=True,
                               label_visibility="collapsed",
                               on_change=keep, args=("pr_view",)) or "facts"

capture_sum = int(kept("pr_sum", 15))
if section == "facts":
    capture_sum = int(st.segmented_control(t("capture_sum"), list(CAPTURE_SUMS), key="pr_sum",
                                           default=capture_sum, required=True,
                                           on_change=keep, args=("pr_sum",)) or 15)
mastery(profile.id, capture_sum)  # this session's mastery, as "for me" reads it

if section == "facts":
    show(progress.mastery_chart(version, lang, capture_sum) if counts.attempts else None,
         "ch_mastery", "ch_empty_mastery")
elif section == "practice":
    practice = progress.practice_charts(version, lang, today())
    show(practice["ch_daily"], "ch_daily", "ch_empty_daily")
elif section == "puzzles":
    practice = progress.practice_charts(version, lang, today())
    show(practice["ch_puzzles"], "ch_puzzles", "ch_empty_puzzles")
    show(practice["ch_stars"], "ch_stars", "ch_empty_stars")
    show(practice["ch_streak"], "ch_streak", "ch_empty_streak")
elif section == "lessons":
    progress.show_lessons_table(profile.id)
else:
    games = progress.games_charts(version, lang)
    if games.get("ch_chances") is not None:
        show(games["ch_chances"], "ch_chances", "ch_empty_games")  # found in games
    show(games.get("ch_wins"), "ch_wins", "ch_empty_games")
    if games.get("ch_wins") is not None:
        show(games["ch_escobas"], "ch_escobas", "ch_empty_games")
        show(games["ch_points"], "ch_points", "ch_empty_games")
        show(games["ch_mistakes"], "ch_mistakes", "ch_empty_review")

if counts.attempts:
    st.download_button(t("ch_download"), lambda: charts.attempts_csv(attempts(profile.id)),
                       file_name=f"escoba-attempts-{profile.id}.csv", mime="text/csv",
                       key="ch_csv", icon="⬇️")
