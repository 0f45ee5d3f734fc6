"""A class's views as HTML for ``st.html`` (no Streamlit here): the dashboard's cards, the
fact grid with its legend, and the week's most missed facts. Every name and word escaped."""

from __future__ import annotations

import html
from datetime import date
from typing import Any

from trainer.classroom import fact_label, say
from trainer.classroom_views import FactGrid, FactTotal, PupilRow
from trainer.i18n import format_day, format_number, t

__all__ = ["CELL_MARKS", "TOTALS_SHOWN", "dashboard_html", "grid_html", "legend_html",
           "totals_html"]

#: Each cell of the fact grid says its state with a mark as well as a colour.
CELL_MARKS = {"fast": "✓", "early": "✓?", "slow": "…", "wrong": "✗", "missed": "✗?",
              "unseen": "·"}
_CELL_COLOURS = {"fast": ("#c8e6c9", "#1b5e20"), "early": ("#ebf7ec", "#1b5e20"),
                 "slow": ("#fff1b8", "#6d5200"),
                 "wrong": ("#ffcdd2", "#8e0000"), "missed": ("#ffe9ec", "#8e0000"),
                 "unseen": ("#eceff1", "#546e7a")}


# -- the dashboard ----------------------------------------------------------------------------

def _percent(value: float | None) -> str:
    return "" if value is None else f"{round(100 * value)} %"


def _figures(row: PupilRow, lang: str, today: date | None = None
             ) -> list[tuple[str, str, str]]:
    """A pupil's figures on the dashboard: (name, label, value), the labels the CSV's;
    ``today``: the teacher's (a day long ago gets its year)."""
    figures = [
        ("last_active", format_day(row.last_active.date(), lang, today=today)
         if row.last_active is not None else "–"),
        ("week_accuracy", _percent(row.week_accuracy) or "–"),
        ("accuracy", _percent(row.accuracy) or "–"),
        ("quick_facts", str(row.quick_facts)),
        ("puzzles", str(row.puzzles)),
        ("game_turns", str(row.game_turns)),
        # The label says seconds ("median seconds"): "2.77 s" after it said it twice.
        ("median_seconds", "–" if row.median_seconds is None
         else format_number(row.median_seconds, lang)),
        ("fluent_additions", f"{row.fluent_additions} / 55"),
        ("fluent_complements", f"{row.fluent_complements} / {row.complements}"),
        ("lesson_stars", f"⭐ {row.lesson_stars} / {row.lesson_stars_max}"),
        ("assignments_done", f"{row.assignments_done} / {row.assignments}"),
    ]
    return [(name, t(f"csv.{name}", lang, domain="classroom"), value)
            for name, value in figures]


_DASH_STYLE = (
    "<style>"
    ".dash-list { display:grid; gap:0.5rem;"
    " grid-template-columns:repeat(auto-fill, minmax(min(100%, 19rem), 1fr)); }"
    ".dash-card { border:1px solid #cfd8dc; border-radius:0.5rem; padding:0.5rem 0.75rem;"
    " min-width:0; overflow-wrap:anywhere; }"
    ".dash-card.dash-help { border-color:#e0a800; background:#fff8e1; }"
    ".dash-name { font-weight:700; font-size:1.05rem; }"
    ".dash-real { font-weight:400; color:#455a64; }"
    ".dash-why { margin:0.25rem 0 0.25rem 1.1rem; padding:0; color:#5d4037; }"
    ".dash-figs { display:flex; flex-wrap:wrap; gap:0.1rem 0.9rem; margin:0.25rem 0 0;"
    " font-size:0.85rem; color:#37474f; }"
    ".dash-figs dt { display:inline; font-weight:400; }"
    ".dash-figs dd { display:inline; margin:0 0 0 0.3rem; font-weight:700; }"
    ".dash-head { font-weight:700; margin:0.75rem 0 0.25rem; }"
    "</style>")


def dashboard_html(rows: list[PupilRow], lang: str, today: date | None = None) -> str:
    """The dashboard as cards that wrap to the screen (issue 27: a 15-column table
    scrolled sideways on a tablet and cut the reason off): who needs help first, each
    with every reason in full, then everyone else; each card with the pupil's figures.
    Every name and word escaped."""
    def words(key: str, **params: Any) -> str:
        return html.escape(t(key, lang, domain="classroom", **params))

    def card(row: PupilRow) -> str:
        name = html.escape(f"{row.avatar} {row.nickname}")
        real = (f" <span class='dash-real'>({html.escape(row.real_name)})</span>"
                if row.real_name else "")
        group = (f" <span class='dash-real' data-testid='dash-group'>· 👥 "
                 f"{html.escape(row.group)}</span>" if row.group else "")
        # say(): a reason's kind, lesson stage and facts worded, not their keys
        why = "".join(f"<li data-testid='dash-reason'>{html.escape(say(r.key, r.params, lang))}"
                      "</li>"
                      for r in row.help)
        figures = "".join(f"<div data-fig='{key}'><dt>{html.escape(label)}</dt>"
                          f"<dd>{html.escape(value)}</dd></div>"
                          for key, label, value in _figures(row, lang, today))
        return (f"<div class='dash-card{' dash-help' if row.help else ''}' "
                f"data-testid='dash-pupil' data-pupil='{row.profile_id}'>"
                f"<div class='dash-name'>{'⚠️ ' if row.help else ''}{name}{real}{group}</div>"
                + (f"<ul class='dash-why'>{why}</ul>" if why else "")
                + f"<dl class='dash-figs'>{figures}</dl></div>")

    helped = [r for r in rows if r.help]
    others = [r for r in rows if not r.help]
    parts = [_DASH_STYLE, "<div data-testid='dashboard'>"]
    if helped:
        parts.append(f"<div class='dash-head'>{words('dash.help_first')}</div>"
                     f"<div class='dash-list'>{''.join(card(r) for r in helped)}</div>")
    if others:
        head = words("dash.the_others") if helped else words("dash.everyone")
        parts.append(f"<div class='dash-head'>{head}</div>"
                     f"<div class='dash-list'>{''.join(card(r) for r in others)}</div>")
    parts.append("</div>")
    return "".join(parts)



# -- the fact grid --------------------------------------------------------------------------

def _fact_head(fact: str) -> str:
    """A column's short heading: ``3+5``, or ``8+?`` for a complement."""
    return fact_label(fact).split(" = ")[0].replace(" ", "")


def grid_html(grid: FactGrid, facts: tuple[str, ...], lang: str,
              totals: dict[str, FactTotal] | None = None) -> str:
    """The grid as an HTML table (every name and word escaped): a pupil a row, a fact a
    column, each cell coloured and marked (✓ … ✗ ·) and titled with its state and tries;
    the names stay in view while the table scrolls sideways inside its box on a tablet
    (the page itself does not). With ``totals`` a last row gives the class's wrong
    answers of the week per fact ("3/4")."""
    def words(key: str, **params: Any) -> str:
        return t(key, lang, domain="classroom", **params)

    head = "".join(f"<th scope='col' title='{html.escape(fact_label(f))}'>"
                   f"{html.escape(_fact_head(f))}</th>" for f in facts)
    body = []
    for row in grid.rows:
        name = html.escape(f"{row.avatar} {row.nickname}")
        if row.group:  # the pupil's group under the name, small (issue 29)
            name += (f"<br><small data-testid='fg-group'>👥 {html.escape(row.group)}"
                     "</small>")
        cells = []
        for fact in facts:
            cell = row.cells[fact]
            title = words("grid.cell_title", name=f"{row.avatar} {row.nickname}",
                          fact=fact_label(fact), state=words(f"cell.{cell.state}"),
                          right=cell.right, count=cell.tries)
            cells.append(f"<td class='fg-{cell.state}' title='{html.escape(title)}'>"
                         f"{CELL_MARKS[cell.state]}</td>")
        fluent = row.count("fast", facts)
        body.append(f"<tr><th scope='row' class='fg-name'>{name}</th>{''.join(cells)}"
                    f"<td class='fg-sum'>{fluent}/{len(facts)}</td></tr>")
    if totals is not None:
        cells = []
        for fact in facts:
            total = totals[fact]
            text = words("grid.total", fact=fact_label(fact), wrong=total.wrong,
                         count=total.tries) if total.tries else ""
            cls = "fg-total fg-bad" if total.tries and 2 * total.wrong >= total.tries \
                else "fg-total"
            cells.append(f"<td class='{cls}' title='{html.escape(text)}'>"
                         f"{f'{total.wrong}/{total.tries}' if total.tries else ''}</td>")
        body.append(f"<tr data-testid='fact-grid-totals'>"
                    f"<th scope='row' class='fg-name fg-total-head'>"
                    f"{html.escape(words('grid.class_week'))}</th>{''.join(cells)}<td></td></tr>")
    colours = "".join(f".fg td.fg-{state} {{ background:{bg}; color:{fg}; }}"
                      for state, (bg, fg) in _CELL_COLOURS.items())
    style = (
        "<style>"
        ".fg-wrap { overflow:auto; max-height:70vh; border:1px solid #cfd8dc; }"
        ".fg { border-collapse:collapse; font-size:0.95rem; }"
        ".fg th, .fg td { border:1px solid #cfd8dc; text-align:center; padding:0; }"
        ".fg td { min-width:1.9rem; height:1.9rem; font-weight:700; }"
        ".fg thead th { position:sticky; top:0; background:#eceff1; color:#263238;"
        " font-size:0.72rem; padding:2px; white-space:nowrap; z-index:1; }"
        ".fg th.fg-name { position:sticky; left:0; background:#f5f7f9; color:#263238;"
        " text-align:left; padding:0 6px; white-space:nowrap; z-index:2; }"
        ".fg thead th.fg-name { z-index:3; }"
        ".fg td.fg-sum { background:#f5f7f9; color:#263238; padding:0 6px; font-weight:400; }"
        ".fg td.fg-total { font-size:0.72rem; font-weight:400; padding:0 2px;"
        " white-space:nowrap; background:#f5f7f9; color:#263238; }"
        ".fg td.fg-total.fg-bad { font-weight:700; color:#8e0000; }"
        # The totals row's long heading wraps, so it does not widen the names' column.
        ".fg th.fg-total-head { white-space:normal; max-width:9rem; font-size:0.75rem; }"
        f"{colours}</style>")
    return (f"{style}<div class='fg-wrap'><table class='fg' data-testid='fact-grid'>"
            f"<thead><tr><th scope='col' class='fg-name'>{html.escape(words('grid.pupil'))}"
            f"</th>{head}<th scope='col'>{html.escape(words('grid.fluent'))}</th></tr></thead>"
            f"<tbody>{''.join(body)}</tbody></table></div>")


#: At most this many facts in the list of the week's most missed (the rest in the grid).
TOTALS_SHOWN = 10


def totals_html(totals: dict[str, FactTotal], lang: str) -> str:
    """The class's most missed facts of the week, in full sentences that wrap ("8 + ? = 15:
    3 of 4 wrong this week"), the most wrong first: what tomorrow's lesson is about."""
    missed = sorted((x for x in totals.values() if x.wrong),
                    key=lambda x: (-x.wrong, -x.wrong / x.tries, x.fact))[:TOTALS_SHOWN]
    if not missed:
        return (f"<p data-testid='fact-totals'>"
                f"{html.escape(t('grid.totals_none', lang, domain='classroom'))}</p>")
    items = "".join(
        "<li>" + html.escape(t("grid.total", lang, domain="classroom",
                               fact=fact_label(x.fact), wrong=x.wrong, count=x.tries))
        + " · " + html.escape(t("grid.total_pupils", lang, domain="classroom",
                                wrong=x.pupils_wrong, count=x.pupils)) + "</li>"
        for x in missed)
    return f"<ul data-testid='fact-totals' style='margin-top:0'>{items}</ul>"


def legend_html(lang: str) -> str:
    """The grid's legend: each state's mark in its colours, with its word."""
    items = "".join(
        f"<span style='display:inline-block;margin:2px 10px 2px 0'>"
        f"<span style='display:inline-block;min-width:1.6rem;text-align:center;"
        f"font-weight:700;background:{bg};color:{fg};border:1px solid #cfd8dc'>"
        f"{CELL_MARKS[state]}</span> "
        f"{html.escape(t(f'cell.{state}', lang, domain='classroom'))}</span>"
        for state, (bg, fg) in _CELL_COLOURS.items())
    return f"<div data-testid='fact-grid-legend'>{items}</div>"

