"""The aggregates of the attempts (issue 32, trainer/storage/aggregates.py) always equal
what every attempt of the pupil says, computed here again the plain way: after the API's
writes (an answer, a daily's answer, a game's turns, a bulk import out of time order),
after migration 16 computes them for attempts written before it, and after a profile is
deleted. Each fact's Leitner box (migration 23) is the one every answer of the pupil gives
(``puzzles.mastery.fact_stats``), or unknown (null) after a try written out of time order.
SQLite and PostgreSQL."""

from __future__ import annotations

import json
import random
from collections.abc import Iterable
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
import sqlalchemy as sa

from puzzles import check, generate
from puzzles.mastery import fact_stats, normalise
from puzzles.practice import Attempt, answers_from_rows, quick_fact_for
from trainer.evidence import TURN_KIND
from trainer.storage import SCHEMA_VERSION, Storage, configure_sqlite
from trainer.storage.aggregates import GAME_TURN, KEPT_FACT_TRIES, KEPT_PUZZLES, centiseconds
from trainer.storage.practice import add_attempts, attempt_values
from trainer.storage.schema import AGGREGATES, assignment_progress, attempts, fact_progress

START = datetime(2026, 12, 7, 8, 30, tzinfo=UTC)
FACTS = ("3+8", "7+8", "15-8", "15-6", "5+5", "2+9")


def _quick(rng: random.Random, day: datetime) -> Attempt:
    puzzle = quick_fact_for(rng.choice(FACTS))
    value = puzzle.solutions[0].value if rng.random() < 0.7 else puzzle.solutions[0].value % 10 + 1
    # Times to the hundredth, as the app keeps them; some the same, for the median's ties.
    seconds = rng.choice((1.5, 2.25, 3.0, round(rng.uniform(1, 9), 2)))
    return Attempt.of(puzzle, check(puzzle, value), seconds, [value], "quick", day.date())


def _puzzle(rng: random.Random, day: datetime) -> Attempt:
    puzzle = generate(rng.choice(("captures", "fifteens")), rng.randint(1, 2),
                      f"agg-{rng.randrange(1000)}")
    answer = [{"card": str(s.card), "take": [str(c) for c in s.take]}
              for s in puzzle.solutions if s.card is not None and rng.random() < 0.8]
    return Attempt.of(puzzle, check(puzzle, answer or ["none"]), 30.0, answer or ["none"],
                      "practice", day.date())


def _turn(rng: random.Random, day: datetime) -> Attempt:
    fact = rng.choice(FACTS)
    right = rng.random() < 0.6
    return Attempt(day=day.date().isoformat(), mode="game", puzzle_id=f"game-1-{rng.random()}",
                   kind=TURN_KIND, level=0, capture_sum=15, facts=(fact,),
                   answers=((fact, right, None),), answer=(), correct=right, found=1,
                   missed=0, wrong=0 if right else 1, seconds=4.0, hints=0, stars=0)


def _history(store: Storage, pupils: list[int], seed: int) -> None:
    """Answers through every way the app writes one, and a bulk import out of time order."""
    rng = random.Random(seed)
    for n in range(40):
        pid = rng.choice(pupils)
        day = START + timedelta(days=rng.randrange(10))
        kind = rng.random()
        if kind < 0.5:
            store.record_attempt(pid, _quick(rng, day))
        elif kind < 0.7:
            store.record_attempt(pid, _puzzle(rng, day))
        elif kind < 0.85:
            store.record_daily_answer(pid, day.date().isoformat(), 1, n % 5, _puzzle(rng, day))
        else:
            with store.transaction() as conn:  # a game's turns, as save_progress adds them
                add_attempts(conn, [attempt_values(pid, _turn(rng, day), START)
                                    for _ in range(rng.randint(1, 3))])
    with store.transaction() as conn:  # a bulk import, times shuffled (some equal)
        rows = []
        for _ in range(60):
            make = rng.choice((_quick, _quick, _puzzle, _turn))
            when = START + timedelta(minutes=rng.randrange(30) * 7)
            rows.append(attempt_values(rng.choice(pupils), make(rng, when), when))
        add_attempts(conn, rows)


def _expected(history: dict[int, list[Attempt]]) -> dict[str, set[tuple[Any, ...]]]:
    """The tables' rows, from every attempt, the plain way."""
    out: dict[str, set[tuple[Any, ...]]] = {t.name: set() for t in AGGREGATES}
    for pid, mine in history.items():
        if not mine:
            continue
        practice = [a for a in mine if a.kind != TURN_KIND]
        out["attempt_totals"].add((
            pid, sum(a.kind != "quick-facts" for a in practice),
            sum(a.kind == "quick-facts" for a in practice), len(mine) - len(practice),
            sum(a.correct for a in practice), mine[-1].id, mine[-1].created_at))
        for day in {a.day for a in practice}:
            that = [a for a in practice if a.day == day]
            out["attempt_days"].add((pid, day, len(that), sum(a.correct for a in that)))
        times = [centiseconds(a.seconds) for a in practice if a.kind == "quick-facts" and a.correct]
        out["quick_fact_times"] |= {(pid, cs, times.count(cs)) for cs in set(times)}
        seconds = [cs // 100 for cs in times]
        out["quick_fact_seconds"] |= {(pid, s, seconds.count(s)) for s in set(seconds)}
        tries = sorted(((a.created_at, a.id, i, normalise(f), right, secs, a.day)
                        for a in mine for i, (f, right, secs) in enumerate(a.answers)
                        if normalise(f) is not None), key=lambda t: t[:3])
        for fact in {t[3] for t in tries}:
            its = [t for t in tries if t[3] == fact]
            # its last tries, and its last tries with a time or wrong (the cell's two)
            timed_or_wrong = [t for t in its if t[5] is not None or not t[4]]
            cell_reads = {*its[-KEPT_FACT_TRIES:], *timed_or_wrong[-KEPT_FACT_TRIES:]}
            kept = [[w.astimezone(UTC).isoformat(timespec="microseconds"), i, k, r, s]
                    for w, i, k, _, r, s, _ in (t for t in its if t in cell_reads)]
            out["fact_progress"].add((pid, fact, len(its), sum(t[4] for t in its),
                                      max(t[0] for t in its), json.dumps(kept)))
            for day in {t[6] for t in its}:
                that = [t for t in its if t[6] == day]
                out["fact_days"].add((pid, day, fact, len(that), sum(not t[4] for t in that)))
        puzzles = [a for a in practice if a.kind != "quick-facts"]
        for key in {(a.kind, a.level, a.capture_sum) for a in puzzles}:
            same = [a for a in puzzles if (a.kind, a.level, a.capture_sum) == key]
            out["puzzle_streaks"].add((pid, *key, same[-1].id, json.dumps(
                [[a.id, a.correct] for a in same[-KEPT_PUZZLES:]])))
    return out


def _stored(store: Storage) -> dict[str, set[tuple[Any, ...]]]:
    def value(v: Any) -> Any:
        if isinstance(v, datetime) and v.tzinfo is None:
            return v.replace(tzinfo=UTC)
        return json.dumps(json.loads(v)) if isinstance(v, str) and v.startswith("[") else v

    def columns(table: sa.Table) -> list[sa.Column]:  # the boxes: _boxes
        return [c for c in table.c if c.name not in ("box", "box_key")]

    with store.engine.connect() as conn:
        return {t.name: {tuple(value(v) for v in row)
                         for row in conn.execute(sa.select(*columns(t)))}
                for t in AGGREGATES}


def _boxes(store: Storage) -> dict[tuple[int, str], tuple[int | None, list[Any] | None]]:
    """Each pupil's kept box per fact, and the last try folded into it."""
    with store.engine.connect() as conn:
        return {(r.profile_id, r.fact): (r.box, json.loads(r.box_key) if r.box_key else None)
                for r in conn.execute(sa.select(fact_progress))}


def assert_boxes_agree(store: Storage, history: dict[int, list[Attempt]], *,
                       all_known: bool = False) -> int:
    """Every box kept is the one all the pupil's answers give, with its last try's key;
    ``all_known``: none is unknown. How many are known."""
    kept = _boxes(store)
    expected: dict[tuple[int, str], tuple[int, list[Any]]] = {}
    for pid, mine in history.items():
        for fact, stats in fact_stats(answers_from_rows(mine)).items():
            last = max((a.created_at.astimezone(UTC).isoformat(timespec="microseconds"),
                        a.id, i) for a in mine for i, (f, _r, _s) in enumerate(a.answers)
                       if normalise(f) == fact)
            expected[(pid, fact)] = (stats.box, list(last))
    assert set(kept) == set(expected)
    known = {key: box for key, box in kept.items() if box[0] is not None}
    assert all(box[1] is None for box in kept.values() if box[0] is None)
    assert known == {key: expected[key] for key in known}
    if all_known:
        assert len(known) == len(kept)
    return len(known)


def _history_of(store: Storage, pupils: Iterable[int]) -> dict[int, list[Attempt]]:
    return {pid: store.attempts(pid) for pid in pupils}


def test_a_game_turn_is_the_kind_the_evidence_writes() -> None:
    assert GAME_TURN == TURN_KIND


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_the_aggregates_equal_every_attempt_counted_again(make_store, seed: int) -> None:
    store = make_store()
    pupils = [store.create_profile(name, "🦊").id for name in ("Ana", "Leo", "Mia")]
    _history(store, pupils, seed)
    history = _history_of(store, pupils)
    assert sum(map(len, history.values())) > 100
    assert _stored(store) == _expected(history)
    assert assert_boxes_agree(store, history) > 0
    # Deleting a profile takes its aggregates with it; the others' stay as they were.
    store.delete_profile(pupils[0])
    assert _stored(store) == _expected({pid: history[pid] for pid in pupils[1:]})


def undo_groups(conn: sa.Connection) -> None:
    """Undo migrations 23 (the facts' boxes), 22 (quick facts' times per second, the
    games' index), 21 (the live view), 20 (class games), 19 (live rounds) and 18 (groups,
    issue 29) of a database without them, for a test that takes a database back to an
    older version and upgrades it again."""
    undo_boxes(conn)
    conn.exec_driver_sql("DROP TABLE IF EXISTS quick_fact_seconds")
    conn.exec_driver_sql("DROP INDEX ix_games_profile_updated")
    for table in ("pupil_activity", "class_votes", "class_games", "class_presence",
                  "live_answers", "live_rounds"):
        conn.exec_driver_sql(f"DROP TABLE {table}")
    for column in ("group_id", "profile_id"):
        conn.exec_driver_sql(f"ALTER TABLE assignments DROP COLUMN {column}")
    conn.exec_driver_sql("DROP TABLE group_members")
    conn.exec_driver_sql("DROP TABLE class_groups")


def undo_boxes(conn: sa.Connection) -> None:
    """Undo migration 23 (the facts' boxes), where ``fact_progress`` is there."""
    if sa.inspect(conn).has_table("fact_progress"):
        for column in ("box", "box_key"):
            conn.exec_driver_sql(f"ALTER TABLE fact_progress DROP COLUMN {column}")


@pytest.mark.parametrize("since", [16, 22, 23])
def test_a_migration_computes_the_aggregates_of_the_attempts_before_it(
        make_store, since: int) -> None:
    """Migration 16 computes the six tables; migration 22 the counts per second from
    ``quick_fact_times`` (and adds the games' index); migration 23 every fact's box (all
    known then: every try is read in its order)."""
    store = make_store()
    url = store.engine.url
    pupils = [store.create_profile(name, "🦊").id for name in ("Ana", "Leo")]
    _history(store, pupils, 7)
    history = _history_of(store, pupils)
    with store.engine.begin() as conn:
        if since == 16:
            # The database as it was at version 15: no aggregates (nor assignments'
            # progress, migration 17, nor groups, 18), the same attempts.
            for table in (*AGGREGATES, assignment_progress):
                table.drop(conn)
            undo_groups(conn)
        elif since == 22:  # as it was before migration 22
            conn.exec_driver_sql("DROP TABLE quick_fact_seconds")
            conn.exec_driver_sql("DROP INDEX ix_games_profile_updated")
            undo_boxes(conn)
        else:
            undo_boxes(conn)
        conn.exec_driver_sql(f"DELETE FROM schema_version WHERE version >= {since}")
    engine = sa.create_engine(url)
    configure_sqlite(engine)
    try:
        upgraded = Storage(engine)
        assert upgraded.schema_version() == SCHEMA_VERSION
        stored = _stored(upgraded)
        assert stored == _expected(history) and len(stored["quick_fact_seconds"]) > 2
        assert assert_boxes_agree(upgraded, history, all_known=True)
        with engine.connect() as conn:
            assert conn.execute(sa.select(sa.func.count()).select_from(attempts)).scalar() \
                == sum(map(len, history.values()))
    finally:
        engine.dispose()
