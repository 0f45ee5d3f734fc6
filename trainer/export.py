"""Tables a family or a school opens in a spreadsheet, in their language (issue 33; the
school's issue 27 asks the same of the teacher's files).

One writer for every CSV the app offers: UTF-8 with a BOM (Excel then reads the accents),
the separator the language's spreadsheets expect (``;`` where the decimal sign is a
comma: German and Spanish Excel split a comma-separated file at every decimal), numbers
with the language's decimal sign, yes and no in words, times in the viewer's time zone
to the minute, and no cell a spreadsheet would turn into a formula (``=``, ``+``, ``-``,
``@``) or a date ("15-5", "3/4").
"""

from __future__ import annotations

import csv
import io
import re
from collections.abc import Sequence
from datetime import UTC, date, datetime, tzinfo
from typing import Any

from babel.numbers import format_decimal, get_decimal_symbol

from .i18n import DEFAULT, LANGUAGES, t

__all__ = ["table_csv", "csv_separator", "BOM"]

BOM = "\ufeff"
_FORMULA_START = ("=", "+", "-", "@", "\t", "\r")
# "15-5", "3/4", "12.3", "1-2-3": a spreadsheet reads them as dates (or a formula)
_DATE_LIKE = re.compile(r"^\d{1,4}([-/.])\d{1,2}(\1\d{1,4})?$")


def csv_separator(lang: str) -> str:
    """``;`` where the language writes decimals with a comma, else ``,``."""
    return ";" if get_decimal_symbol(_locale(lang)) == "," else ","


def _locale(lang: str) -> str:
    return lang if lang in LANGUAGES else DEFAULT


def _cell(value: Any, lang: str, zone: tzinfo | None) -> str:
    if value is None:
        return ""
    if isinstance(value, bool):
        return t("csv.yes" if value else "csv.no", lang, domain="classroom")
    if isinstance(value, datetime):
        when = value if value.tzinfo is not None else value.replace(tzinfo=UTC)
        return when.astimezone(zone or UTC).strftime("%Y-%m-%d %H:%M")
    if isinstance(value, date):
        return value.isoformat()
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        return format_decimal(round(value, 3), locale=_locale(lang), group_separator=False)
    text = str(value)
    if text.startswith(_FORMULA_START) or _DATE_LIKE.match(text):
        return "'" + text  # shown as typed: the apostrophe is Excel's "this is text"
    return text


def table_csv(header: Sequence[str], rows: Sequence[Sequence[Any]], lang: str = DEFAULT,
              zone: tzinfo | None = None) -> bytes:
    """A table as a CSV file for a spreadsheet in ``lang`` (``zone``: the viewer's)."""
    buf = io.StringIO()
    writer = csv.writer(buf, delimiter=csv_separator(lang), lineterminator="\r\n")
    writer.writerow([_cell(h, lang, zone) for h in header])
    writer.writerows([[_cell(v, lang, zone) for v in row] for row in rows])
    return (BOM + buf.getvalue()).encode("utf-8")
