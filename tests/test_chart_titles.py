"""Charts a parent reads on a phone (issue 33): titles that fit in every language (Plotly
does not wrap a title, so trainer.charts wraps it; Chinese has no spaces to wrap at) and
counts in whole numbers."""

from __future__ import annotations

import unicodedata

import pytest

from trainer.charts import TITLE_WIDTH, _title
from trainer.i18n import t


def _columns(line: str) -> int:
    return sum(2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in line)


@pytest.mark.parametrize("lang", ["en", "es", "de", "it", "zh"])
@pytest.mark.parametrize("key", ["ch_additions", "ch_daily_title", "ch_puzzles_title",
                                 "ch_stars_title", "ch_streak_title", "ch_wins_title"])
def test_every_title_line_fits_a_phone_and_nothing_is_lost(lang: str, key: str) -> None:
    text = t(key, lang)
    lines = _title(text).split("<br>")
    assert all(_columns(line) <= TITLE_WIDTH + 2 for line in lines), lines  # + a closing mark
    assert "".join(lines).replace(" ", "") == text.replace(" ", "")


def test_a_chinese_title_wraps_and_no_line_starts_with_a_closing_mark() -> None:
    text = t("ch_additions", "zh")
    lines = _title(text).split("<br>")
    assert len(lines) >= 2 and text.startswith(lines[0])
    assert not [line for line in lines[1:] if line[0] in "，。、：；！？）》"]
    assert not [line for line in lines[:-1] if line[-1] in "（《"]
    assert _title("短标题") == "短标题"


def test_the_mistakes_axis_counts_in_whole_numbers() -> None:
    """Seen on a phone in German: one mistake a game drew 0 0,2 0,4 … 1 mistakes."""
    import pandas as pd

    from trainer import charts

    frame = pd.DataFrame({"mistakes": [1, 1, 1, 1], "when": ["2026-12-03"] * 4})
    chart = charts.mistakes_chart(frame, lambda k, **p: t(k, "de", **p))
    assert chart.figure.layout.yaxis.dtick == 1


@pytest.mark.parametrize(("lang", "most"), [("de", 8), ("zh", 5)])
def test_a_phone_fits_the_day_labels(lang: str, most: int) -> None:
    """Two weeks of practice: German labels every other day, Chinese ones (twice as
    wide) fewer, the latest day always labelled."""
    import plotly.graph_objects as go

    from trainer import charts

    days = [f"2026-11-{d:02d}" for d in range(20, 31)] + ["2026-12-01", "2026-12-02",
                                                           "2026-12-03"]
    fig = go.Figure(go.Bar(x=days, y=[1] * len(days)))
    charts._day_axis(fig, days, lambda k, **p: t(k, lang, **p))
    shown = list(fig.layout.xaxis.tickvals)
    assert len(shown) <= most and shown[-1] == "2026-12-03"
    assert len(shown) >= most - 2


@pytest.mark.parametrize("lang", ["en", "es", "zh"])
def test_the_grids_titles_start_at_the_left_edge(lang: str) -> None:
    """Centred over the grid, whose colour bar sits beside it, the wrapped additions title
    ran past the chart's left edge on a phone: "ʃumas: primer número" (found trying My
    progress as a child's parent). Both titles start at the left edge."""
    from trainer.charts import mastery_chart

    chart = mastery_chart({}, 15, lambda k, **p: t(k, lang, **p))
    titles = list(chart.figure.layout.annotations)
    assert len(titles) == 2
    assert all((a.x, a.xanchor, a.xref) == (0, "left", "paper") for a in titles)
