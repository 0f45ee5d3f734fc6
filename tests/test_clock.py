"""The app's one clock (trainer.clock): ESCOBA_NOW moves every clock of the app alike.

Issue 25: only the practice pages honoured ESCOBA_NOW; a demo stored attempt days from
the fake clock and created_at, locks and presence from the real one.
"""

from __future__ import annotations

import ast
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

import sqlalchemy as sa

from trainer import clock
from trainer.classroom import utc_now
from trainer.storage import Storage
from trainer.storage.schema import now as row_now
from trainer.tables import Tables
from ui.practice import now_utc

ROOT = Path(__file__).resolve().parent.parent
FIXED = datetime(2031, 5, 4, 9, 30, tzinfo=UTC)


def test_every_clock_of_the_app_is_on_the_time_line_escoba_now_sets(monkeypatch, tmp_path):
    monkeypatch.setenv("ESCOBA_NOW", "2031-05-04T09:30:00Z")
    store = Storage(sa.create_engine(f"sqlite:///{tmp_path / 'c.db'}"))
    readings = {"clock": clock.now(), "rows": row_now(), "classroom": utc_now(),
                "tables": Tables(store).clock(), "practice pages": now_utc()}
    for name, at in readings.items():
        assert abs(at - FIXED) < timedelta(seconds=5), name
    # What is stored is on it too: a profile's created_at, a teacher's lock.
    assert abs(store.create_profile("Ana", "🦊").created_at - FIXED) < timedelta(seconds=5)


def test_the_set_clock_runs_on_at_the_real_pace(monkeypatch):
    monkeypatch.setenv("ESCOBA_NOW", "2031-05-04T09:30:00Z")
    first = clock.now()
    time.sleep(0.05)
    later = clock.now()
    assert timedelta(seconds=0.04) < later - first < timedelta(seconds=5)


def test_without_escoba_now_it_is_the_real_time(monkeypatch):
    monkeypatch.delenv("ESCOBA_NOW", raising=False)
    assert abs(clock.now() - datetime.now(UTC)) < timedelta(seconds=2)
    monkeypatch.setenv("ESCOBA_NOW", "not a date")  # a typo: logged, the real time
    assert abs(clock.now() - datetime.now(UTC)) < timedelta(seconds=2)


def _clock_reads(path: Path) -> list[str]:
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and (
                node.func.attr in {"now", "utcnow", "today"}) and isinstance(
                node.func.value, ast.Name) and node.func.value.id in {"datetime", "date"}:
            found.append(f"{path.relative_to(ROOT)}:{node.lineno}")
    return found


def test_no_other_clock_is_read_in_the_app():
    """datetime.now() / date.today() anywhere in the app but trainer/clock.py would be a
    second clock that ESCOBA_NOW does not move."""
    files = [ROOT / "app.py", *ROOT.glob("app_pages/*.py"), *ROOT.glob("ui/**/*.py"),
             *ROOT.glob("trainer/**/*.py")]
    reads = [where for path in files if path.name != "clock.py"
             for where in _clock_reads(path)]
    assert reads == []
