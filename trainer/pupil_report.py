"""The report a teacher sends home (issue 29): one page per pupil, each in the family's
language, as one PDF for the class (no Streamlit).

A page says what the child can do and what comes next, never how they compare with
classmates: the facts the child knows (answered right within the class's time, the
grid's "fast" cells), the facts being practised (tried, not quick or not sure yet),
the answers of each of the last :data:`REPORT_DAYS` days as a small chart, the lesson
levels done, and a sentence of what to practise at home (the facts
:func:`trainer.classroom_views.weak_facts` puts first). The name on the page is the real
name only when the teacher entered one, else the child's nickname. Everything comes
from the class's snapshot (:class:`trainer.storage.ClassSnapshot`, read with at least
:data:`REPORT_DAYS` days), its fact grid and its dashboard rows, so a report costs what
a dashboard refresh costs.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import date, timedelta
from typing import TYPE_CHECKING

from puzzles.worksheet import use_fonts

from .classroom import DOMAIN
from .classroom_views import PRACTISING_STATES, FactGrid, GridRow, PupilRow, weak_facts
from .i18n import format_day, t
from .storage import ClassSnapshot
from .text import fact_text

if TYPE_CHECKING:  # pragma: no cover
    from fpdf import FPDF

__all__ = ["REPORT_DAYS", "HOME_FACTS", "PupilReport", "pupil_reports", "class_report_pdf"]

#: The days the report's chart shows, ending today (this month's progress).
REPORT_DAYS = 30
#: Facts named in the sentence of what to practise at home.
HOME_FACTS = 3
#: Facts listed by name as being practised (more are counted, not listed).
LISTED_FACTS = 12

_KNOWN = "fast"
_INK = (20, 20, 20)
_COLOURS = {"known": (46, 125, 50), "practising": (255, 179, 0), "unseen": (255, 255, 255)}


@dataclass(frozen=True)
class PupilReport:
    """What one pupil's page says (its words are chosen when it is drawn)."""

    profile_id: int
    name: str  # the real name if the teacher entered one, else the nickname
    capture_sum: int
    facts: tuple[str, ...]  # the grid's facts: the 55 additions, then the complements
    known: frozenset[str]
    practising: tuple[str, ...]  # in the order they are taught, the weakest first
    home: tuple[str, ...]  # what to practise at home
    #: The last REPORT_DAYS days, oldest first: (day, answers, right).
    days: tuple[tuple[date, int, int], ...]
    lesson_levels: int
    lesson_stars: int
    lesson_stars_max: int

    @property
    def answers(self) -> int:
        return sum(n for _, n, _ in self.days)

    @property
    def tried(self) -> bool:
        return bool(self.known or self.practising)


def _report(row: GridRow, pupil: PupilRow | None, grid: FactGrid, real_name: str | None,
            day_totals: Mapping[str, tuple[int, int]], today: date) -> PupilReport:
    known = frozenset(f for f in grid.facts if row.cells[f].state == _KNOWN)
    weakest = weak_facts(row, len(grid.facts), grid.capture_sum)
    practising = tuple(f for f in weakest if row.cells[f].state in PRACTISING_STATES)
    days = []
    for back in range(REPORT_DAYS - 1, -1, -1):
        day = today - timedelta(days=back)
        answers, right = day_totals.get(day.isoformat(), (0, 0))
        days.append((day, answers, right))
    return PupilReport(
        row.profile_id, real_name or row.nickname, grid.capture_sum, grid.facts, known,
        practising, tuple(weakest[:HOME_FACTS]) if practising else (), tuple(days),
        pupil.lesson_levels if pupil else 0, pupil.lesson_stars if pupil else 0,
        pupil.lesson_stars_max if pupil else 0)


def pupil_reports(snapshot: ClassSnapshot, grid: FactGrid, rows: Sequence[PupilRow],
                  today: date, only: Sequence[int] | None = None) -> list[PupilReport]:
    """A report per pupil of the grid (in its order), or of ``only`` these pupils."""
    by_id = {r.profile_id: r for r in rows}
    names = {m.profile_id: m.real_name for m in snapshot.members}
    out = []
    for row in grid.rows:
        if only is not None and row.profile_id not in only:
            continue
        aggregates = snapshot.aggregates.get(row.profile_id)
        days = aggregates.days if aggregates is not None else {}
        out.append(_report(row, by_id.get(row.profile_id), grid, names.get(row.profile_id),
                           days, today))
    return out


# -- the PDF ---------------------------------------------------------------------------


def _tr(lang: str, key: str, **params: object) -> str:
    return t(f"report.{key}", lang, domain=DOMAIN, **params)


def _facts_line(facts: Sequence[str], lang: str) -> str:
    listed = ", ".join(fact_text(f) for f in facts[:LISTED_FACTS])
    more = len(facts) - LISTED_FACTS
    return listed if more <= 0 else _tr(lang, "and_more", facts=listed, count=more)


def _home_sentence(report: PupilReport, lang: str) -> str:
    if not report.tried:
        return _tr(lang, "home_start")
    if not report.home:
        return _tr(lang, "home_keep")
    facts = [fact_text(f) for f in report.home]
    return _tr(lang, "home_facts", facts=", ".join(facts), count=len(facts))


def _page_texts(report: PupilReport, class_name: str, lang: str) -> list[str]:
    """Every text drawn on ``report``'s page, in order (also what picks the fonts)."""
    first, last = report.days[0][0], report.days[-1][0]
    right = sum(r for _, _, r in report.days)
    return [
        _tr(lang, "title", name=report.name),
        _tr(lang, "subtitle", name=class_name, start=format_day(first, lang),
            end=format_day(last, lang)),
        _tr(lang, "known", count=len(report.known), total=len(report.facts)),
        _tr(lang, "legend_known"), _tr(lang, "legend_practising"), _tr(lang, "legend_unseen"),
        _tr(lang, "practising", count=len(report.practising)),
        _facts_line(report.practising, lang) if report.practising else _tr(lang, "none_yet"),
        _tr(lang, "month", count=report.answers, right=right),
        _tr(lang, "lessons", count=report.lesson_levels, stars=report.lesson_stars,
            max=report.lesson_stars_max),
        _tr(lang, "home_title"),
        _home_sentence(report, lang),
        _tr(lang, "footer"),
    ]


def class_report_pdf(reports: Sequence[PupilReport], class_name: str,
                     languages: Mapping[int, str], default_lang: str = "en") -> bytes:
    """One A4 page per report, each in its pupil's language (``languages``, else
    ``default_lang``). Raises ``ValueError`` when there is no report to print."""
    from fpdf import FPDF  # heavy: only loaded when a report is made

    if not reports:
        raise ValueError("no pupil to print a report for")
    langs = {r.profile_id: languages.get(r.profile_id, default_lang) for r in reports}
    pages = [(r, langs[r.profile_id], _page_texts(r, class_name, langs[r.profile_id]))
             for r in reports]
    pdf = FPDF(orientation="P", unit="mm", format="A4")
    # One set of fonts for the whole file: a Chinese page needs the CJK face (which has
    # Latin letters too), any other page a Unicode face when a name is not Latin-1.
    every_text = [x for _, _, texts in pages for x in texts]
    font_lang = next((lang for lang in langs.values() if lang == "zh"), default_lang)
    font, plain = use_fonts(pdf, font_lang, every_text)
    pdf.set_auto_page_break(False)
    pdf.set_margins(15, 15, 15)
    pdf.set_creator("escoba classroom")
    pdf.set_title(class_name if not plain else class_name.encode("latin-1", "replace")
                  .decode("latin-1"))
    for report, lang, texts in pages:
        _draw_page(pdf, font, plain, report, lang, texts)
    return bytes(pdf.output())


def _draw_page(pdf: FPDF, font: str, plain: bool, report: PupilReport, lang: str,
               texts: list[str]) -> None:
    """``report``'s page: ``texts`` are :func:`_page_texts` in ``lang``."""
    (title, subtitle, known, legend_known, legend_practising, legend_unseen, practising,
     practising_list, month, lessons, home_title, home, footer) = texts

    def text(value: str) -> str:
        return value.encode("latin-1", "replace").decode("latin-1") if plain else value

    def line(y: float, value: str, size: float, bold: bool = False, h: float = 7) -> float:
        pdf.set_font(font, "B" if bold else "", size)
        pdf.set_xy(15, y)
        pdf.multi_cell(180, h * size / 14, text(value))
        return pdf.get_y()

    pdf.add_page()
    pdf.set_text_color(*_INK)
    pdf.set_draw_color(*_INK)
    y = line(15, title, 20, bold=True, h=9)
    y = line(y + 1, subtitle, 11)
    # the facts: the additions as a 10 x 10 square (a + b and b + a are one fact), then
    # the complements in a strip, coloured known / being practised / not tried yet
    y = line(y + 4, known, 13, bold=True)
    state = {f: ("known" if f in report.known else
                 "practising" if f in report.practising else "unseen") for f in report.facts}
    cell, left, top = 6.0, 22.0, y + 6
    pdf.set_font(font, "", 7)
    for n in range(1, 11):
        pdf.set_xy(left + (n - 1) * cell, top - 5)
        pdf.cell(cell, 5, str(n), align="C")
        pdf.set_xy(left - 6, top + (n - 1) * cell)
        pdf.cell(5, cell, str(n), align="R")
    pdf.set_line_width(0.2)
    for a in range(1, 11):
        for b in range(1, 11):
            fact = f"{min(a, b)}+{max(a, b)}"
            pdf.set_fill_color(*_COLOURS[state.get(fact, "unseen")])
            pdf.rect(left + (b - 1) * cell, top + (a - 1) * cell, cell, cell, style="DF")
    complements = [f for f in report.facts if "+" not in f]
    strip_x = left + 10 * cell + 12
    pdf.set_font(font, "", 8)
    for i, fact in enumerate(complements):
        pdf.set_fill_color(*_COLOURS[state[fact]])
        pdf.rect(strip_x, top + i * (cell + 2), cell, cell, style="DF")
        pdf.set_xy(strip_x + cell + 2, top + i * (cell + 2))
        pdf.cell(30, cell, text(fact_text(fact)))
    legend_x = strip_x + 40
    for i, (key, label) in enumerate((("known", legend_known),
                                      ("practising", legend_practising),
                                      ("unseen", legend_unseen))):
        pdf.set_fill_color(*_COLOURS[key])
        pdf.rect(legend_x, top + i * 8, 5, 5, style="DF")
        pdf.set_xy(legend_x + 7, top + i * 8 - 0.5)
        pdf.cell(70, 6, text(label))
    y = top + 10 * cell + 6
    y = line(y, practising, 13, bold=True)
    y = line(y + 1, practising_list, 11)
    # this month: answers a day, right ones dark, the others light
    y = line(y + 5, month, 13, bold=True)
    chart_top, chart_h, bar_w = y + 3, 30.0, 180 / len(report.days)
    most = max([n for _, n, _ in report.days] + [1])
    pdf.set_line_width(0.3)
    pdf.line(15, chart_top + chart_h, 195, chart_top + chart_h)
    for i, (_, answers, right) in enumerate(report.days):
        x = 15 + i * bar_w + 0.4
        h_all, h_right = chart_h * answers / most, chart_h * right / most
        if answers:
            pdf.set_fill_color(200, 200, 200)
            pdf.rect(x, chart_top + chart_h - h_all, bar_w - 0.8, h_all, style="F")
        if right:
            pdf.set_fill_color(*_COLOURS["known"])
            pdf.rect(x, chart_top + chart_h - h_right, bar_w - 0.8, h_right, style="F")
    pdf.set_font(font, "", 8)
    first, last = report.days[0][0], report.days[-1][0]
    pdf.set_xy(15, chart_top + chart_h + 0.5)
    pdf.cell(60, 4, text(format_day(first, lang)))
    pdf.set_xy(135, chart_top + chart_h + 0.5)
    pdf.cell(60, 4, text(format_day(last, lang)), align="R")
    y = chart_top + chart_h + 8
    y = line(y, lessons, 12)
    y = line(y + 5, home_title, 13, bold=True)
    line(y + 1, home, 12)
    pdf.set_font(font, "", 8)
    pdf.set_xy(15, 282)
    pdf.cell(180, 5, text(footer), align="C")

