"""Tables a family or a school opens in a spreadsheet, in their language (issue 33; the
school's issue 27 asks the same of the teacher's files).

One writer for every table the app offers, as a CSV and as an ``.xlsx`` workbook.

The CSV: UTF-8 with a BOM (Excel then reads the accents); one of two *styles*, ``;``
between cells with a decimal comma (what German and Spanish Excel expect: they split a
comma-separated file at every decimal) or ``,`` with a decimal point (English, Chinese),
the language's by default and the other one a choice on the page; yes and no in words;
times in the viewer's time zone to the minute; and no cell a spreadsheet would turn
into a formula (``=``, ``+``, ``-``, ``@``) or a date ("15-5", "3/4").

The workbook (openpyxl) needs no guessing at all: numbers are numbers, dates and times
are typed cells, text is text (never a formula), under a bold, frozen header row with
columns as wide as their contents.
"""

from __future__ import annotations

import csv
import functools
import io
import re
import unicodedata
from collections.abc import Sequence
from datetime import UTC, date, datetime, tzinfo
from typing import Any

from babel.numbers import get_decimal_symbol

from .i18n import DEFAULT, LANGUAGES, format_list, has_key, t
from .text import fact_text

__all__ = ["table_csv", "table_xlsx", "csv_separator", "BOM", "CSV_STYLES", "csv_style",
           "default_csv_style", "file_name", "CSV_MIME", "XLSX_MIME", "mode_text", "kind_text",
           "facts_text", "day_value"]

BOM = "\ufeff"
CSV_MIME = "text/csv"
XLSX_MIME = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
#: The two CSV conventions: (cell separator, decimal sign).
CSV_STYLES: dict[str, tuple[str, str]] = {"semicolon": (";", ","), "comma": (",", ".")}
_FORMULA_START = ("=", "+", "-", "@", "\t", "\r")
# "15-5", "3/4", "12.3", "1-2-3": a spreadsheet reads them as dates (or a formula)
_DATE_LIKE = re.compile(r"^\d{1,4}([-/.])\d{1,2}(\1\d{1,4})?$")
# What a file name may not hold on Windows, macOS or Linux (and what a shell trips on).
_UNSAFE_NAME = re.compile(r"[\\/:*?\"<>|\x00-\x1f\x7f]+")
# Characters an .xlsx cannot hold (XML 1.0 forbids them): dropped.
_XML_ILLEGAL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f]")
_TIME_FORMAT = "yyyy-mm-dd hh:mm"
_DATE_FORMAT = "yyyy-mm-dd"


def _locale(lang: str) -> str:
    return lang if lang in LANGUAGES else DEFAULT


def default_csv_style(lang: str) -> str:
    """``"semicolon"`` where the language writes decimals with a comma (de, es, it), else
    ``"comma"`` (en, zh)."""
    return "semicolon" if get_decimal_symbol(_locale(lang)) == "," else "comma"


def csv_style(choice: Any, lang: str) -> str:
    """The style chosen on the page if it is one, else the language's (a stale or
    tampered choice changes nothing)."""
    return choice if isinstance(choice, str) and choice in CSV_STYLES else \
        default_csv_style(lang)


def csv_separator(lang: str, style: str | None = None) -> str:
    """The cell separator of ``style`` (default: the language's)."""
    return CSV_STYLES[csv_style(style, lang)][0]


def _local(value: datetime, zone: tzinfo | None) -> datetime:
    when = value if value.tzinfo is not None else value.replace(tzinfo=UTC)
    return when.astimezone(zone or UTC)


@functools.lru_cache(maxsize=16)
def _yes_no(lang: str) -> tuple[str, str]:
    """"no" and "yes" in ``lang``, looked up once (a year's export has 700,000 of them)."""
    return (t("csv.no", lang, domain="classroom"), t("csv.yes", lang, domain="classroom"))


def _cell(value: Any, lang: str, zone: tzinfo | None, decimal: str) -> str:
    if value is None:
        return ""
    if isinstance(value, bool):
        return _yes_no(lang)[value]
    if isinstance(value, datetime):
        return _local(value, zone).strftime("%Y-%m-%d %H:%M")
    if isinstance(value, date):
        return value.isoformat()
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        # no thousands separator: "1234,5" is read as a number in both conventions
        return f"{round(value, 3):f}".rstrip("0").rstrip(".").replace(".", decimal)
    text = str(value)
    if text.startswith(_FORMULA_START) or _DATE_LIKE.match(text):
        return "'" + text  # shown as typed: the apostrophe is Excel's "this is text"
    return text


def table_csv(header: Sequence[str], rows: Sequence[Sequence[Any]], lang: str = DEFAULT,
              zone: tzinfo | None = None, style: str | None = None) -> bytes:
    """A table as a CSV file for a spreadsheet in ``lang`` (``zone``: the viewer's;
    ``style``: one of :data:`CSV_STYLES`, the language's when ``None`` or unknown)."""
    separator, decimal = CSV_STYLES[csv_style(style, lang)]
    buf = io.StringIO()
    writer = csv.writer(buf, delimiter=separator, lineterminator="\r\n")
    writer.writerow([_cell(h, lang, zone, decimal) for h in header])
    writer.writerows([[_cell(v, lang, zone, decimal) for v in row] for row in rows])
    return (BOM + buf.getvalue()).encode("utf-8")


def _xlsx_value(value: Any, lang: str, zone: tzinfo | None) -> Any:
    """A cell's value as openpyxl types it: numbers and dates as they are (a datetime
    in the viewer's zone, without one: Excel has no time zones), yes/no in words."""
    if isinstance(value, bool):
        return _yes_no(lang)[value]
    if isinstance(value, datetime):
        return _local(value, zone).replace(tzinfo=None, second=0, microsecond=0)
    if isinstance(value, float):
        return round(value, 3)
    if value is None or isinstance(value, int | date):
        return value
    return _XML_ILLEGAL.sub("", str(value))


def _shown_width(value: Any) -> int:
    if isinstance(value, datetime):
        return 16
    if isinstance(value, date):
        return 10
    text = "" if value is None else str(value)
    # a Chinese character takes two columns' width
    return sum(2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in text)


def table_xlsx(header: Sequence[str], rows: Sequence[Sequence[Any]], lang: str = DEFAULT,
               zone: tzinfo | None = None, title: str = "") -> bytes:
    """A table as an Excel workbook: one sheet (named ``title``), a bold header row that
    stays in view, typed numbers, dates and times, text never read as a formula."""
    from openpyxl import Workbook  # only loaded when a workbook is made
    from openpyxl.styles import Alignment, Font
    from openpyxl.utils import get_column_letter

    book = Workbook()
    sheet = book.active
    name = _UNSAFE_NAME.sub(" ", title).replace("[", "(").replace("]", ")").strip()
    sheet.title = name[:31] or "1"
    sheet.append([_xlsx_value(str(h), lang, zone) for h in header])
    for row in rows:
        sheet.append([_xlsx_value(v, lang, zone) for v in row])
    for cells in sheet.iter_rows(min_row=2):
        for cell in cells:
            if isinstance(cell.value, str):
                cell.data_type = "s"  # "=1+2" typed by a child stays text, never a formula
            elif isinstance(cell.value, datetime):  # a datetime is a date too: first
                cell.number_format = _TIME_FORMAT
            elif isinstance(cell.value, date):
                cell.number_format = _DATE_FORMAT
    bold = Font(bold=True)
    for head in sheet[1]:
        head.font = bold
        head.data_type = "s"
        head.alignment = Alignment(wrap_text=True, vertical="top")
    for c, column in enumerate(sheet.iter_cols(), start=1):
        width = max(_shown_width(cell.value) for cell in column)
        sheet.column_dimensions[get_column_letter(c)].width = min(max(width + 2, 8), 60)
    sheet.freeze_panes = "A2"
    out = io.BytesIO()
    book.save(out)
    return out.getvalue()


def file_name(stem: str, *parts: str, ext: str) -> str:
    """A download's name from the catalog's words and its parts ("intentos-K7QX.csv",
    "答题记录-K7QX.xlsx"): letters of any script kept, what a file system refuses
    (``/ \\ : * ? " < > |``, control characters) and spaces made ``-``."""
    words = [unicodedata.normalize("NFC", str(p)) for p in (stem, *parts) if str(p).strip()]
    name = "-".join(_UNSAFE_NAME.sub("-", w).strip() for w in words)
    name = re.sub(r"[\s-]+", "-", name).strip("-.") or "escoba"
    return f"{name[:120]}.{ext}"


# -- values in words: the same in the teacher's files and the parent's ---------------------

def mode_text(mode: str, lang: str) -> str:
    """Where an answer was given, in words ("practice" -> "práctica")."""
    key = f"csv.mode_{mode}"
    return t(key, lang, domain="classroom") if has_key(key, "classroom") else mode


def kind_text(kind: str, lang: str) -> str:
    """The kind of puzzle (or a game's turn) as the teacher's pages name it
    ("quick-facts" -> "Cuentas rápidas")."""
    key = f"kind.{kind}"
    return t(key, lang, domain="classroom") if has_key(key, "classroom") else kind


def facts_text(facts: Sequence[str], lang: str) -> str:
    """Facts as a child reads them, listed as the language lists them ("7 + 8 y 15 − 8")."""
    return _facts_text(tuple(facts), lang)


@functools.lru_cache(maxsize=4096)
def _facts_text(facts: tuple[str, ...], lang: str) -> str:
    # A class's year repeats a few thousand lists of facts 200,000 times.
    return format_list([fact_text(f) for f in facts], lang)


def day_value(value: str | date | None) -> str | date | None:
    """An attempt's day as a date (a typed cell; "2026-12-01" as text would be turned
    into a date by some spreadsheets and not by others); a text that is no day is kept
    as it is (written as text)."""
    if value is None or isinstance(value, date):
        return value
    try:
        return date.fromisoformat(value)
    except ValueError:
        return value
