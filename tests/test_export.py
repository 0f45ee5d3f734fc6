"""The one CSV writer (trainer.export): a Spanish or German spreadsheet opens its files
as the family or the school wrote them (issue 33)."""

from __future__ import annotations

import csv
import io
from datetime import UTC, datetime
from zoneinfo import ZoneInfo

from trainer.export import csv_separator, table_csv


def _read(data: bytes, lang: str) -> list[list[str]]:
    assert data.startswith(b"\xef\xbb\xbf")
    return list(csv.reader(io.StringIO(data.decode("utf-8-sig")), delimiter=csv_separator(lang)))


def test_cells_a_spreadsheet_would_misread_are_kept_as_text() -> None:
    when = datetime(2026, 12, 1, 15, 4, 59, 123456, tzinfo=UTC)
    row = ["3/4", "15-5", "=1+2", "+34", "-1", "@x", "5 + 10", 12.49, 7, True, False, None, when]
    de = _read(table_csv(["a"] * len(row), [row], "de", ZoneInfo("Europe/Madrid")), "de")[1]
    assert de == ["'3/4", "'15-5", "'=1+2", "'+34", "'-1", "'@x", "5 + 10", "12,49", "7",
                  "ja", "nein", "", "2026-12-01 16:04"]
    en = _read(table_csv(["a"] * len(row), [row], "en"), "en")[1]
    assert en[7] == "12.49" and en[9] == "yes" and en[12] == "2026-12-01 15:04"
    assert csv_separator("es") == ";" and csv_separator("zh") == ","
