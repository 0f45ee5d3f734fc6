"""Progress charts: data shaped with pandas, drawn with plotly (no Streamlit here).

Each ``*_chart`` function takes stored rows (attempts, daily results, finished
games) or mastery stats and returns a :class:`Chart`: the plotly figure and
the one-line reading for a parent (a catalog key and its parameters), or
``None`` when there is nothing to draw yet (the page shows an empty state).
Labels go through ``tr`` (the page passes :func:`trainer.i18n.t`), so the charts
speak the child's language.
"""

from __future__ import annotations

import textwrap
import unicodedata
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import date, timedelta, tzinfo
from typing import Any

import pandas as pd
import plotly.graph_objects as go
from plotly.subplots import make_subplots

from escoba import Rules
from puzzles.mastery import LEVELS, FactStats, addition, all_complements, summary_line
from puzzles.practice import Attempt

from .hints import GameReview
from .i18n import format_number, format_percent
from .storage import GameRow, RoundResult

__all__ = ["Chart", "attempts_frame", "attempt_record", "records_frame", "attempts_table",
           "attempts_csv", "attempts_xlsx",
           "daily_chart", "mastery_chart",
           "puzzles_chart", "stars_chart", "streak_chart", "games_frame", "wins_chart",
           "escobas_chart", "points_chart", "mistakes_chart", "LEVEL_COLOURS", "whole"]

Tr = Callable[..., str]

#: Mastery level colours (colour-blind safe, Okabe-Ito). "attempted" (under 70 % right)
#: is Okabe-Ito's vermillion, the grid's red, worded "often wrong" (issue 27: an orange
#: "tried" next to the yellow "familiar" read as half right).
LEVEL_COLOURS: dict[str, str] = {"new": "#E6E6E6", "attempted": "#D55E00",
                                 "familiar": "#F0E442", "proficient": "#56B4E9",
                                 "fluent": "#009E73"}
KIND_COLOURS: dict[str, str] = {"captures": "#0072B2", "hand": "#E69F00",
                                "fifteens": "#009E73", "best-move": "#CC79A7",
                                "scopa": "#56B4E9"}
# The legend at the foot of the figure, not at a fraction of the plot's height below the
# axis: on a phone the day labels turn slanted and grow taller, and a legend 20 % below
# the axis covered their ends ("21. Nov." read "21. Nov"). The x axis makes room for its
# labels (automargin) above the legend's own margin.
_LAYOUT = {"margin": {"l": 40, "r": 20, "t": 64, "b": 40}, "height": 380,
           "font": {"size": 14},
           "legend": {"orientation": "h", "yref": "container", "y": 0, "yanchor": "bottom",
                      "x": 0, "xanchor": "left"},
           "xaxis": {"automargin": True}}


def _list(values: Any) -> list[Any]:
    """Plain JSON values (plotly would otherwise send numpy arrays as binary blobs, and
    the figure's spec should read as the numbers it shows)."""
    out = []
    for v in list(values):
        if v is None or (isinstance(v, float) and v != v) or v is pd.NA or v is pd.NaT:
            out.append(None)
        elif hasattr(v, "item"):
            item = v.item()
            out.append(None if isinstance(item, float) and item != item else item)
        else:
            out.append(v)
    return out


@dataclass
class Chart:
    """A figure and its one-line reading (``key``, ``params``) for a parent.

    The figure writes numbers as the child's language does (axis ticks, tooltips:
    "2,5" in German), from Babel's symbols for this run's language."""

    figure: go.Figure
    key: str
    params: dict[str, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self.figure.update_layout(separators=separators())


def separators(lang: str | None = None) -> str:
    """Plotly's ``separators`` for a language: its decimal sign, then its group sign
    (".," in English, ",." in German and Spanish)."""
    from babel.numbers import get_decimal_symbol, get_group_symbol

    from .i18n import DEFAULT, run_language

    locale = lang or run_language() or DEFAULT
    return get_decimal_symbol(locale) + get_group_symbol(locale)


# -- attempts ----------------------------------------------------------------------------

_COLUMNS = ["id", "created_at", "day", "mode", "puzzle_id", "kind", "level", "capture_sum",
            "correct", "found", "missed", "wrong", "seconds", "hints", "stars", "fact",
            "fact_seconds", "daily_date", "facts"]


def attempt_record(row: Attempt) -> tuple[Any, ...]:
    """The values of :func:`attempts_frame`'s columns for one attempt (a plain tuple:
    a year of them is a sixth of the attempts' memory; trainer.progress_history keeps
    them)."""
    return tuple(getattr(row, k) for k in _COLUMNS)


def records_frame(records: Sequence[tuple[Any, ...]]) -> pd.DataFrame:
    """:func:`attempts_frame` built from the records of :func:`attempt_record`."""
    frame = pd.DataFrame.from_records(list(records), columns=_COLUMNS)
    if not frame.empty:
        frame["facts"] = frame["facts"].map(lambda f: " ".join(f or []))
        frame["correct"] = frame["correct"].astype(bool)
    return frame


def attempts_frame(rows: Sequence[Attempt]) -> pd.DataFrame:
    """One row per attempt (oldest first); ``facts`` joined with spaces."""
    return records_frame([attempt_record(r) for r in rows])


def attempts_table(rows: Sequence[Attempt], lang: str = "en"
                   ) -> tuple[list[str], list[list[Any]]]:
    """The child's own attempts for a parent's spreadsheet, in ``lang`` (the teacher's
    columns and values, trainer.export): where and what in words, yes/no in words, facts
    written as a child reads them ("15 − 8", "7 + 8"), the day a date."""
    from .export import day_value, facts_text, kind_text, mode_text
    from .i18n import t
    from .text import fact_text

    def ct(key: str) -> str:
        return t(f"csv.{key}", lang, domain="classroom")

    header = [ct(k) for k in ("created_at", "day", "mode", "kind", "level", "capture_sum",
                              "correct", "found", "missed", "wrong", "seconds", "hints",
                              "stars", "fact", "facts")]
    out = [[r.created_at, day_value(r.day), mode_text(r.mode, lang), kind_text(r.kind, lang),
            r.level, r.capture_sum, r.correct, r.found, r.missed, r.wrong, r.seconds, r.hints,
            r.stars, fact_text(r.fact) if r.fact else None, facts_text(r.facts, lang)]
           for r in rows]
    return header, out


def attempts_csv(rows: Sequence[Attempt], lang: str = "en", zone: tzinfo | None = None,
                 style: str | None = None) -> bytes:
    """:func:`attempts_table` as a CSV (times in ``zone``; ``style`` one of
    :data:`trainer.export.CSV_STYLES`, the language's by default)."""
    from .export import table_csv

    return table_csv(*attempts_table(rows, lang), lang, zone, style)


def attempts_xlsx(rows: Sequence[Attempt], lang: str = "en", zone: tzinfo | None = None
                  ) -> bytes:
    """:func:`attempts_table` as an Excel workbook (typed numbers, dates and times)."""
    from .export import table_xlsx
    from .i18n import t

    return table_xlsx(*attempts_table(rows, lang), lang, zone,
                      title=t("file.progress", lang, domain="classroom"))


def daily_chart(frame: pd.DataFrame, tr: Tr) -> Chart | None:
    """Accuracy (bars) and median quick-fact response time (line) per day."""
    if frame.empty:
        return None
    quick = frame[frame["kind"] == "quick-facts"]
    # Accuracy counts answers, not whole puzzles: each set found is one right answer,
    # each set missed or wrong one wrong answer (a quick fact is one answer).
    is_quick = frame["kind"] == "quick-facts"
    right = frame["found"].astype(float)
    tries = (frame["found"] + frame["wrong"]
             + frame["missed"].where(~is_quick, 0)).astype(float)
    empty = tries == 0  # "none" puzzles: right or wrong as a whole
    right = right.where(~empty, frame["correct"].astype(float))
    tries = tries.where(~empty, 1.0)
    counts = pd.DataFrame({"day": frame["day"], "right": right, "tries": tries})
    per_day = counts.groupby("day").agg(right=("right", "sum"), tries=("tries", "sum"))
    per_day["accuracy"] = (100 * per_day["right"] / per_day["tries"]).round(0)
    per_day["median_seconds"] = quick.groupby("day")["fact_seconds"].median().round(1)
    per_day = _every_day(per_day).reset_index()  # a day without practice is a gap
    fig = make_subplots(specs=[[{"secondary_y": True}]])
    fig.add_trace(go.Bar(x=_list(per_day["day"]), y=_list(per_day["accuracy"]),
                         name=tr("ch_accuracy"),
                         marker_color="#56B4E9"), secondary_y=False)
    fig.add_trace(go.Scatter(x=_list(per_day["day"]), y=_list(per_day["median_seconds"]),
                             name=tr("ch_median_seconds"), mode="lines+markers",
                             marker_color="#D55E00", connectgaps=False), secondary_y=True)
    fig.update_layout(title=_title(tr("ch_daily_title")), **_LAYOUT)
    _day_axis(fig, _list(per_day["day"]), tr)
    fig.update_yaxes(title_text="%", range=[0, 100], secondary_y=False)
    # Its own round ticks: synced to the % axis they fell at 0,3 0,6 0,8 1,1 seconds.
    fig.update_yaxes(title_text=tr("ch_seconds"), rangemode="tozero", tickmode="auto",
                     nticks=6, showgrid=False, secondary_y=True)
    last = per_day.dropna(subset=["tries"]).iloc[-1]
    reading = {"day": day_label(last["day"], tr),
               "accuracy": format_percent(last["accuracy"] / 100),
               "right": int(last["right"]), "count": int(last["tries"])}
    if pd.notna(last["median_seconds"]):
        return Chart(fig, "ch_daily_reading",
                     {**reading, "seconds": format_number(float(last["median_seconds"]))})
    return Chart(fig, "ch_daily_reading_untimed", reading)


def mastery_chart(stats: Mapping[str, FactStats], capture_sum: int, tr: Tr) -> Chart:
    """The 10 x 10 grid of additions coloured by level, and a strip of complements."""
    index = {name: i for i, name in enumerate(LEVELS)}
    n = len(LEVELS)
    # A discrete colour scale: level i fills [i/n, (i+1)/n].
    scale = []
    for i, name in enumerate(LEVELS):
        scale += [[i / n, LEVEL_COLOURS[name]], [(i + 1) / n, LEVEL_COLOURS[name]]]

    def level(fact: str) -> str:
        s = stats.get(fact)
        return s.level if s is not None else "new"

    z, text, hover = [], [], []
    for a in range(1, 11):
        z.append([index[level(addition(a, b))] + 0.5 for b in range(1, 11)])
        text.append([str(a + b) for b in range(1, 11)])
        hover.append([f"{a} + {b} = {a + b}: {tr('level_name_' + level(addition(a, b)))}"
                      for b in range(1, 11)])
    comps = all_complements(capture_sum)
    cz = [[index[level(f)] + 0.5 for f in comps]]
    ctext = [[str(capture_sum - int(f.split("-")[1])) for f in comps]]
    chover = [[f"{capture_sum} − {f.split('-')[1]} = {capture_sum - int(f.split('-')[1])}: "
               f"{tr('level_name_' + level(f))}" for f in comps]]
    # Wrapped as every chart title is: on a phone one line ran off both sides.
    grid_title = _title(tr("ch_additions"))
    fig = make_subplots(rows=2, cols=1, row_heights=[0.84, 0.16], vertical_spacing=0.08,
                        subplot_titles=(grid_title,
                                        _title(tr("ch_complements", sum=capture_sum))))
    common = {"zmin": 0, "zmax": n, "colorscale": scale, "xgap": 2, "ygap": 2,
              "hoverinfo": "text", "texttemplate": "%{text}"}
    fig.add_trace(go.Heatmap(z=z, x=list(range(1, 11)), y=list(range(1, 11)), text=text,
                             hovertext=hover, name="additions", showscale=True,
                             colorbar={"tickvals": [i + 0.5 for i in range(n)],
                                       "ticktext": [tr("level_name_" + lv) for lv in LEVELS],
                                       "len": 0.8, "y": 0.6}, **common), row=1, col=1)
    fig.add_trace(go.Heatmap(z=cz, x=[f"{capture_sum} − {f.split('-')[1]}" for f in comps],
                             y=[""], text=ctext, hovertext=chover, name="complements",
                             showscale=False, **common), row=2, col=1)
    fig.update_xaxes(dtick=1, side="top", row=1, col=1)
    fig.update_yaxes(dtick=1, autorange="reversed", row=1, col=1)
    fig.update_xaxes(type="category", row=2, col=1)
    title_lines = grid_title.count("<br>") + 1
    fig.update_layout(**{**_LAYOUT, "height": 650, "margin": {
        "l": 40, "r": 20, "t": max(80, 44 + 18 * title_lines), "b": 40}})
    # The subplot titles sit above the grid's top axis numbers, from the left edge: centred
    # over the grid (the colour bar beside it), a phone cut their first letter off.
    for annotation in fig.layout.annotations:
        annotation.update(yshift=30 if annotation.text == grid_title else 0,
                          x=0, xanchor="left", align="left")
    key, params = summary_line(stats)
    params = dict(params)
    timed = params.pop("timed", False)
    if params.get("slowest"):
        params["slowest"] = str(params["slowest"]).replace("+", " + ")
        return Chart(fig, "ch_mastery_reading", params)
    # Every timed addition fluent: no "slowest" to name (it was a fluent one, green).
    return Chart(fig, "ch_mastery_reading_fast" if timed else "ch_mastery_reading_untimed",
                 params)


def puzzles_chart(frame: pd.DataFrame, tr: Tr) -> Chart | None:
    """Puzzles solved per kind and level (quick facts apart: they have their own chart)."""
    puzzles = frame[frame["kind"] != "quick-facts"] if not frame.empty else frame
    if puzzles.empty:
        return None
    solved = puzzles[puzzles["correct"]]
    table = (solved.groupby(["kind", "level"]).size().rename("solved").reset_index()
             if not solved.empty else pd.DataFrame(columns=["kind", "level", "solved"]))
    fig = go.Figure()
    played = set(puzzles["kind"].unique())
    for kind in [k for k in KIND_COLOURS if k in played]:
        part = table[table["kind"] == kind]
        counts = [int(part[part["level"] == lv]["solved"].sum()) for lv in range(1, 6)]
        fig.add_trace(go.Bar(x=[tr("level_n", n=lv) for lv in range(1, 6)], y=counts,
                             name=tr("pz_mode_" + kind), marker_color=KIND_COLOURS[kind]))
    fig.update_layout(title=_title(tr("ch_puzzles_title")), barmode="stack", **_LAYOUT)
    fig.update_yaxes(rangemode="tozero", range=None if len(solved) > 4 else [0, 5],
                     **_count_ticks(len(solved)))
    return Chart(fig, "ch_puzzles_reading", {"solved": int(len(solved)),
                                             "count": int(len(puzzles))})


def stars_chart(frame: pd.DataFrame, tr: Tr) -> Chart | None:
    """Stars earned per day (puzzles and the daily)."""
    puzzles = frame[frame["kind"] != "quick-facts"] if not frame.empty else frame
    if puzzles.empty:
        return None
    per_day = _every_day(puzzles.groupby("day")["stars"].sum().to_frame()).reset_index()
    played = per_day["stars"].dropna()  # the days drawn that had puzzles
    fig = go.Figure(go.Bar(x=_list(per_day["day"]), y=_list(per_day["stars"]), name=tr("ch_stars"),
                           marker_color="#E69F00"))
    fig.update_layout(title=_title(tr("ch_stars_title")), **_LAYOUT)
    _day_axis(fig, _list(per_day["day"]), tr)
    fig.update_yaxes(rangemode="tozero")
    return Chart(fig, "ch_stars_reading", {"stars": int(played.sum()),
                                           "count": int(len(played))})


def streak_chart(results: Sequence[Any], today: date, current: int, best: int,
                 tr: Tr, weeks: int = 12) -> Chart | None:
    """The daily streak as a calendar: weeks across, Monday to Sunday down, stars as colour."""
    if not results:
        return None
    by_day = {r.day: (r.total if r.completed else None) for r in results}
    # From the week of the first daily played (at least four weeks, at most ``weeks``).
    first = date.fromisoformat(min(by_day))
    # From the week of the first daily, no empty week before it (issue 33).
    since = (today - (first - timedelta(days=first.weekday()))).days // 7 + 1
    weeks = max(1, min(weeks, since))
    start = today - timedelta(days=today.weekday() + 7 * (weeks - 1))
    days_names = [tr(f"weekday_{i}") for i in range(7)]
    z: list[list[float | None]] = [[None] * weeks for _ in range(7)]
    text: list[list[str]] = [[""] * weeks for _ in range(7)]
    for w in range(weeks):
        for d in range(7):
            day = start + timedelta(days=7 * w + d)
            if day > today:
                continue
            value = by_day.get(day.isoformat(), "missing")
            if value == "missing":
                z[d][w] = 0
            elif value is None:  # started, not finished
                z[d][w] = 0.5
                text[d][w] = "…"
            else:
                z[d][w] = value
                text[d][w] = str(value)
    x = [(start + timedelta(days=7 * w)).isoformat() for w in range(weeks)]
    fig = go.Figure(go.Heatmap(z=z, x=x, y=days_names, text=text, texttemplate="%{text}",
                               zmin=0, zmax=15, xgap=3, ygap=3, hoverinfo="x+y+z",
                               colorscale=[[0, "#F2F2F2"], [0.05, "#CDEBDD"], [1, "#009E73"]],
                               colorbar={"title": {"text": "⭐"}}))
    fig.update_yaxes(autorange="reversed")
    _day_axis(fig, x, tr)
    fig.update_xaxes(title_text=tr("ch_week_of"))
    fig.update_layout(title=_title(tr("ch_streak_title")), **{**_LAYOUT, "height": 300})
    return Chart(fig, "ch_streak_reading", {"current": current, "best": best,
                                            "done": sum(1 for r in results if r.completed)})


#: The widest chart title, in characters, that fits a phone held upright; longer titles
#: wrap (Plotly does not wrap them itself: they were cut off).
TITLE_WIDTH = 34


def _count_ticks(largest: float) -> dict[str, Any]:
    """A count axis's ticks: every whole number while there are few (left to Plotly, one
    missed chance drew 0, 0,2 … 1), Plotly's own steps once there are many."""
    return {"dtick": 1} if largest < 12 else {"tickformat": "d"}


def _percent_ticks() -> dict[str, Any]:
    """A share axis's ticks at 0, 25, 50, 75 and 100 %, written as the language writes a
    percentage ("100 %" in German): left to Plotly, an axis laid over another took the
    other's tick places (24,9% … 99,7%)."""
    places = [0, 25, 50, 75, 100]
    return {"tickmode": "array", "tickvals": places,
            "ticktext": [format_percent(place / 100) for place in places]}


#: Marks that close a phrase: never the first sign of a wrapped Chinese line; marks that
#: open one: never its last.
_NO_LINE_START = "，。、：；！？）》」』"
_NO_LINE_END = "（《「『"


def _wide(char: str) -> bool:
    return unicodedata.east_asian_width(char) in "WF"


def _columns(text: str) -> int:
    return sum(2 if _wide(c) else 1 for c in text)


def _title(text: str) -> str:
    """A chart title wrapped onto lines that fit a phone (Plotly's line break is <br>):
    at spaces; a Chinese title (no spaces) between any two signs, a wide sign counting
    as two columns (it was one line, cut at both ends: "…一个数 ↓ + 第二个数 → （颜…")."""
    if not any(_wide(c) for c in text):
        return "<br>".join(textwrap.wrap(text, TITLE_WIDTH)) or text
    lines, line, used = [], "", 0
    for char in text:
        size = 2 if _wide(char) else 1
        if used + size > TITLE_WIDTH and line and char not in _NO_LINE_START:
            carry = line[-1] if line[-1] in _NO_LINE_END else ""
            lines.append(line[:len(line) - len(carry)].rstrip())
            line, used = carry, _columns(carry)
        line += char
        used += size
    return "<br>".join([*lines, line.strip()])


def day_label(day: str, tr: Tr) -> str:
    """"2026-12-03" -> "Dec 3" ("3 dic"): short enough that a phone never cuts it to "2026-"."""
    when = date.fromisoformat(str(day)[:10])
    month = tr("ch_months").split()[when.month - 1]
    return tr("ch_day_short", month=month, day=when.day)


#: Per-day charts draw the last six weeks: a year's 366 days in a phone's width drew a
#: scribble (found trying a year as a child's parent). The weeks before are in the
#: downloads and the other charts.
CHART_DAYS = 42


def _every_day(per_day: pd.DataFrame) -> pd.DataFrame:
    """Rows indexed by ISO day, with every day of the last :data:`CHART_DAYS` up to the
    last day used (a day without use is a row of gaps: the chart shows it as a gap, not
    as nothing)."""
    if per_day.empty:
        return per_day
    last = max(per_day.index)
    first = max(min(per_day.index),
                (date.fromisoformat(last) - timedelta(days=CHART_DAYS - 1)).isoformat())
    days = pd.date_range(first, last, freq="D")
    full = [d.date().isoformat() for d in days]
    return per_day.reindex(full).rename_axis("day")


def _every_nth_with_the_last(values: Sequence[str], most: int) -> list[str]:
    """At most ``most`` of ``values``, evenly spaced, the last always among them: the
    labels an axis names (on a phone more run into each other)."""
    step = max(1, -(-len(values) // most))
    return list(values)[::-1][::step][::-1]


#: The most day labels an axis shows (a phone fits about seven; the rest are ticks).
_DAY_LABELS = 8
_DAY_LABELS_WIDE = 5


def _day_axis(fig: go.Figure, days: Sequence[str], tr: Tr) -> None:
    """Dates on the x axis, kept as ISO values (the data) but labelled short; on a long
    range, every n-th day, so labels never overlap on a phone."""
    # Chinese labels ("11月21日") are about twice as wide as "21. Nov.": fewer of them, or
    # on a phone the slanted labels ran into each other.
    most = _DAY_LABELS_WIDE if days and any(_wide(c) for c in day_label(days[-1], tr)) \
        else _DAY_LABELS
    shown = _every_nth_with_the_last(days, most)
    fig.update_xaxes(type="category", categoryorder="array", categoryarray=list(days),
                     tickvals=shown, ticktext=[day_label(d, tr) for d in shown])


def whole(value: Any, digits: int = 1) -> int | float:
    """A number as a child reads it: 6, not 6.0 (and 2.5 stays 2.5)."""
    rounded = round(float(value), digits)
    return int(rounded) if rounded == int(rounded) else rounded


# -- games -----------------------------------------------------------------------------

def games_frame(games: Sequence[tuple[GameRow, Sequence[RoundResult]]]) -> pd.DataFrame:
    """One row per finished game: when, the opponents' level, won, escobas, points a round,
    and the mistakes named by the coach's review (``None`` when it has no review). "You"
    is the viewing child's seat at a table's game (:attr:`GameRow.viewer_seat`), else the
    first human seat (the device's child)."""
    rows = []
    for game, results in games:
        seats = game.seats
        first_human = next((i for i, s in enumerate(seats) if s.get("kind") == "human"), 0)
        human = game.viewer_seat if game.viewer_seat is not None else first_human
        try:
            rules = Rules.from_dict(game.rules)
            side = rules.side_of(human)
        except Exception:  # an old or odd record: assume seat = side
            side = human
        levels = sorted({s.get("level") or "mixed" for s in seats if s.get("kind") == "bot"})
        level = levels[0] if len(levels) == 1 else ("mixed" if levels else "friends")
        escobas = sum(r.escobas(side) for r in results)
        points = [r.side_points(side) for r in results if side < len(r.points)]
        # A stored review is of the first human seat's child only (ui/endgame.py).
        review = GameReview.from_stored(game.review) if human == first_human else None
        mistakes = review.mistake_count if review is not None else None
        rows.append({"game": game.id, "when": game.updated_at, "level": level,
                     "won": game.winner == side, "escobas": escobas, "rounds": len(results),
                     "points_per_round": round(sum(points) / len(points), 2) if points else 0.0,
                     "mistakes": mistakes})
    return pd.DataFrame(rows, columns=["game", "when", "level", "won", "escobas", "rounds",
                                       "points_per_round", "mistakes"])


def wins_chart(frame: pd.DataFrame, tr: Tr) -> Chart | None:
    if frame.empty:
        return None
    table = frame.groupby("level").agg(won=("won", "sum"), played=("game", "count"))
    computers = ("random", "gentle", "greedy", "expert", "just_right")
    order = {lv: i for i, lv in enumerate((*computers, "mixed", "friends"))}
    table = table.reset_index()
    table = table.sort_values("level", key=lambda col: col.map(lambda v: order.get(v, 9)))
    names = [tr("level_" + lv) if lv in computers else tr("ch_level_" + lv)
             for lv in table["level"]]
    fig = go.Figure([
        go.Bar(x=names, y=_list(table["won"]), name=tr("ch_won"), marker_color="#009E73"),
        go.Bar(x=names, y=_list(table["played"] - table["won"]), name=tr("ch_lost"),
               marker_color="#BBBBBB")])
    fig.update_layout(title=_title(tr("ch_wins_title")), barmode="stack", **_LAYOUT)
    fig.update_yaxes(rangemode="tozero", **_count_ticks(table["played"].max()))
    return Chart(fig, "ch_wins_reading", {"won": int(table["won"].sum()),
                                          "count": int(table["played"].sum())})


#: Per-game charts draw the latest games only: a year's 182 games drew 182 bars, a
#: barcode on a phone, and their labels ran into each other (found trying a year as a
#: parent). Numbered as the child played them ("game 153" ... "game 182").
CHART_GAMES = 30
#: At most this many labels under a chart of games (every second, third... game named):
#: six fit side by side on a phone.
GAME_LABELS = 6


def _latest(frame: pd.DataFrame) -> tuple[pd.DataFrame, int]:
    """The last :data:`CHART_GAMES` rows of ``frame`` (its index from 0) and how many
    came before them."""
    before = max(0, len(frame) - CHART_GAMES)
    return frame.iloc[before:].reset_index(drop=True), before


def _game_axis(frame: pd.DataFrame, tr: Tr, before: int = 0) -> list[str]:
    """Each game's label: its number and, under it, its day ("game 3<br>Dec 9");
    ``before``: the games not drawn before the first."""
    whens = list(frame["when"]) if "when" in frame else [None] * len(frame)
    return [_game_label(before + i, when, tr) for i, when in enumerate(whens)]


def _few_game_labels(fig: go.Figure, x: Sequence[str], tr: Tr, before: int) -> None:
    """Name at most :data:`GAME_LABELS` of the games ``x`` (:func:`_game_axis`, the
    first being game ``before + 1``) under the chart, the last always, level and short:
    the game's number over its day ("154" over "Oct 10"), the axis saying what they are.
    "game 154" beside its day, turned on its side on a phone, read as "Oct 10 | game 154
    | Oct 18", no telling which day was whose (found trying a year as a child); the
    bar's own label ("game 154", its day) stays for its tooltip."""
    place = {label: n for n, label in enumerate(x, start=before + 1)}
    shown = _every_nth_with_the_last(x, GAME_LABELS)
    ticks = ["<br>".join([str(place[label]), *label.split("<br>")[1:]]) for label in shown]
    fig.update_xaxes(tickmode="array", tickvals=shown, ticktext=ticks,
                     tickangle=0, title={"text": tr("ch_games_axis"), "font": {"size": 12}})


def _game_label(index: int, when: Any, tr: Tr) -> str:
    label = tr("ch_game_n", n=index + 1)
    if when is None or (isinstance(when, float) and when != when):
        return label
    return f"{label}<br>{day_label(str(when)[:10], tr)}"


def escobas_chart(frame: pd.DataFrame, tr: Tr) -> Chart | None:
    if frame.empty:
        return None
    frame, before = _latest(frame)
    x = _game_axis(frame, tr, before)
    fig = go.Figure(go.Bar(x=x, y=_list(frame["escobas"]), name=tr("ch_escobas"),
                           marker_color="#0072B2"))
    fig.update_layout(title=_title(tr("ch_escobas_title")), **_LAYOUT)
    _few_game_labels(fig, x, tr, before)
    fig.update_yaxes(rangemode="tozero", **_count_ticks(frame["escobas"].max()))
    return Chart(fig, "ch_escobas_reading", {"escobas": int(frame["escobas"].sum()),
                                             "count": int(len(frame))})


def points_chart(frame: pd.DataFrame, tr: Tr) -> Chart | None:
    if frame.empty:
        return None
    frame, before = _latest(frame)
    x = _game_axis(frame, tr, before)
    fig = go.Figure(go.Scatter(x=x, y=_list(frame["points_per_round"]),
                               mode="lines+markers", name=tr("ch_points"),
                               marker_color="#CC79A7"))
    fig.update_layout(title=_title(tr("ch_points_title")), **_LAYOUT)
    _few_game_labels(fig, x, tr, before)
    fig.update_yaxes(rangemode="tozero")
    return Chart(fig, "ch_points_reading",
                 {"last": format_number(whole(frame["points_per_round"].iloc[-1])),
                  "mean": format_number(whole(frame["points_per_round"].mean()))})


#: Reviewed games it takes to compare the first three with the last three.
TREND_GAMES = 6


def mistakes_chart(frame: pd.DataFrame, tr: Tr) -> Chart | None:
    """Mistakes the coach named per game, with a running mean (the trend)."""
    reviewed = frame[frame["mistakes"].notna()] if not frame.empty else frame
    if reviewed.empty:
        return None
    reviewed, before = _latest(reviewed.reset_index(drop=True))
    values = reviewed["mistakes"].astype(int)
    trend = values.rolling(3, min_periods=1).mean().round(2)
    x = _game_axis(reviewed, tr, before)
    fig = go.Figure([
        go.Bar(x=x, y=_list(values), name=tr("ch_mistakes"), marker_color="#E69F00"),
        go.Scatter(x=x, y=_list(trend), name=tr("ch_trend"), mode="lines", line={"width": 4},
                   marker_color="#D55E00")])
    fig.update_layout(title=_title(tr("ch_mistakes_title")), **_LAYOUT)
    _few_game_labels(fig, x, tr, before)
    # A count in whole numbers: one mistake a game drew 0 0,2 0,4 … 1 (issue 33).
    fig.update_yaxes(rangemode="tozero", **_count_ticks(values.max()))
    count = int(len(reviewed))
    if 1 < count < TREND_GAMES:  # the first three and the last three would overlap
        return Chart(fig, "ch_mistakes_reading_few",
                     {"last": int(values.iloc[-1]), "count": count, "need": TREND_GAMES})
    first = whole(values.head(3).mean())
    last = whole(values.tail(3).mean())
    key = "ch_mistakes_reading_down" if last < first else "ch_mistakes_reading"
    return Chart(fig, key, {"first": format_number(first), "last": format_number(last),
                            "count": count})


def chances_chart(turns: pd.DataFrame, tr: Tr) -> Chart | None:
    """Found in games: per game, the turns with a capture on the table where the child
    took one (found) or laid a card down instead (missed), and the share found."""
    if turns.empty:
        return None
    frame = turns.assign(game=turns["puzzle_id"].str.split("-").str[:2].str.join("-"))
    sums: dict[str, tuple[str, str]] = {"found": ("found", "sum"), "missed": ("missed", "sum")}
    if "day" in frame:
        sums["when"] = ("day", "first")  # the day the game was played, under its number
    per_game = frame.groupby("game", sort=False).agg(**sums).reset_index()
    per_game = per_game[(per_game["found"] + per_game["missed"]) > 0]
    if per_game.empty:
        return None
    per_game, before = _latest(per_game.reset_index(drop=True))
    share = (100 * per_game["found"] / (per_game["found"] + per_game["missed"])).round(0)
    x = _game_axis(per_game, tr, before)  # the game's number and the day it was played
    fig = go.Figure([
        go.Bar(x=x, y=_list(per_game["found"]), name=tr("ch_chances_found"),
               marker_color="#009E73"),
        go.Bar(x=x, y=_list(per_game["missed"]), name=tr("ch_chances_missed"),
               marker_color="#E69F00"),
        go.Scatter(x=x, y=_list(share), name=tr("ch_chances_share"), mode="lines+markers",
                   yaxis="y2", marker_color="#0072B2", line={"width": 3})])
    fig.update_layout(title=_title(tr("ch_chances_title")), barmode="stack", **_LAYOUT,
                      yaxis2={"overlaying": "y", "side": "right", "range": [0, 105],
                              **_percent_ticks(), "showgrid": False})
    _few_game_labels(fig, x, tr, before)
    most = int((per_game["found"] + per_game["missed"]).max())
    # The count axis by name: a selector {"anchor": "x"} matched no axis (none is set so).
    fig.update_layout(yaxis={"rangemode": "tozero", **_count_ticks(most)})
    # One game so far: its share once, not "in the first game, ... in the last".
    key = "ch_chances_reading_one" if len(per_game) == 1 else "ch_chances_reading"
    return Chart(fig, key, {"first": int(share.iloc[0]),
                                             "last": int(share.iloc[-1]),
                                             "count": int(len(per_game))})
