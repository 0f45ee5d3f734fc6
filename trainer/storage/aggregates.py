"""What the teacher's views need of every attempt, kept at write time (issue 32).

The dashboard and the fact grid used to read every attempt of every pupil on each
refresh, a cost that grew with the school year. Each attempt now also adds to small
aggregate tables, in the transaction that inserts it (:func:`insert_attempts`, the one
way attempts are written), so a refresh reads rows whose number does not grow with the
answers given:

- ``fact_progress`` (pupil, fact): tries, right, the latest try's time and the fact's
  last :data:`KEPT_FACT_TRIES` tries and last :data:`KEPT_FACT_TRIES` timed-or-wrong
  tries (the fact grid's cell, :func:`kept_fact_tries`; migration 24); the fact's
  Leitner box after every try (what a *weakest* assignment chooses by, migration 23),
  and the last try folded into it;
- ``fact_days`` (pupil, day, fact): tries and wrong ones (the class's totals per fact
  over the last days);
- ``attempt_totals`` (pupil): puzzles, quick facts, game turns, puzzles and quick facts
  solved, the latest attempt's time;
- ``attempt_days`` (pupil, day): puzzles and quick facts, solved ones (the week);
- ``quick_fact_times`` (pupil, hundredths of a second): right quick facts answered in
  that time (their median, exact for times kept to the hundredth, as the app keeps them);
- ``quick_fact_seconds`` (pupil, whole seconds): the same counted per second (migration
  22), so that the median is found in the one or two seconds that hold it and only their
  hundredths are read, not a year of distinct times;
- ``puzzle_streaks`` (pupil, kind, level, sum): the latest attempt's id and the last
  :data:`KEPT_PUZZLES` results (whether a pupil is stuck at a level).

The order of tries is the views' order: by ``created_at``, then by attempt id, then by
the answer's place in its attempt; a batch written out of time order (a bulk import)
still keeps each fact's latest tries, but the box, which depends on the order of every
try, is then unknown (null: the reader weighs the attempts themselves). Deleting a
profile deletes its aggregates (:func:`trainer.storage.profiles.delete_profiles`);
migration 16 computes them for the attempts written before it, migration 23 the boxes.
"""

from __future__ import annotations

import functools
import json
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any, NamedTuple

import sqlalchemy as sa
from sqlalchemy.engine import Connection

from puzzles.mastery import leitner_step, normalise, stored_answers

from .dialects import insert_for

__all__ = ["KEPT_FACT_TRIES", "KEPT_PUZZLES", "QUICK_FACTS", "GAME_TURN", "AggregateTables",
           "Tally", "insert_attempts", "write_tally", "centiseconds", "whole_seconds",
           "fold_box", "kept_fact_tries"]

#: A fact's last tries, and its last tries with a time or wrong, kept per pupil: the fact
#: grid's cell reads the last three of each (``trainer.classroom_views.LAST_TRIES``).
KEPT_FACT_TRIES = 3
#: The last results kept per pupil and puzzle kind, level and sum: "stuck" reads five
#: (``trainer.classroom_views.STUCK_WINDOW``).
KEPT_PUZZLES = 5
QUICK_FACTS = "quick-facts"
#: A game's turn kept as an attempt (``trainer.evidence.TURN_KIND``; a test checks they
#: agree: the engine is not imported by storage).
GAME_TURN = "game-turn"


class AggregateTables(NamedTuple):
    """The tables, as the app's schema has them or as a migration built them."""

    fact_progress: sa.Table
    fact_days: sa.Table
    attempt_totals: sa.Table
    attempt_days: sa.Table
    quick_fact_times: sa.Table
    puzzle_streaks: sa.Table
    #: Migration 22's: None in migration 16, which wrote the six before it.
    quick_fact_seconds: sa.Table | None = None


def centiseconds(seconds: float) -> int:
    """A time in hundredths of a second, the key of ``quick_fact_times``."""
    return round(seconds * 100)


def whole_seconds(centis: int) -> int:
    """The key of ``quick_fact_seconds``: the whole second a time in hundredths is in."""
    return centis // 100


def _stamp(when: datetime) -> str:
    # In UTC and one fixed width, so that the kept tries sort as their instants do
    # (PostgreSQL hands times back in the server's zone).
    return when.astimezone(UTC).isoformat(timespec="microseconds")


@dataclass
class Tally:
    """What a batch of attempts adds to the aggregates, per key."""

    #: pupil -> [puzzles, quick facts, game turns, solved, latest id, its created_at]
    totals: dict[int, list[Any]] = field(default_factory=dict)
    #: (pupil, day) -> [puzzles and quick facts, solved]
    days: dict[tuple[int, str], list[int]] = field(default_factory=dict)
    #: (pupil, centiseconds) -> right quick facts
    times: dict[tuple[int, int], int] = field(default_factory=dict)
    #: (pupil, day, fact) -> [tries, wrong]
    fact_days: dict[tuple[int, str, str], list[int]] = field(default_factory=dict)
    #: (pupil, fact) -> [tries, right, latest created_at, kept tries, the tries in the
    #: box's order: [((at, attempt id, place), right, pace), ...]]
    facts: dict[tuple[int, str], list[Any]] = field(default_factory=dict)
    #: (pupil, kind, level, sum) -> [latest id, [[id, correct], ...]]
    streaks: dict[tuple[int, str, int, int], list[Any]] = field(default_factory=dict)

    def add(self, row: Mapping[str, Any], answers: Sequence[Sequence[Any]]) -> None:
        """One stored attempt: ``row`` has its columns (``id``, ``profile_id``,
        ``created_at`` aware, ``day``, ``kind``, ``level``, ``capture_sum``, ``correct``,
        ``seconds``) and ``answers`` its parsed ``answers``. Rows come in id order."""
        pid, kind, when, day = row["profile_id"], row["kind"], row["created_at"], row["day"]
        correct = bool(row["correct"])
        total = self.totals.setdefault(pid, [0, 0, 0, 0, 0, None])
        total[4], total[5] = row["id"], when
        if kind == GAME_TURN:
            total[2] += 1
        else:
            total[0 if kind != QUICK_FACTS else 1] += 1
            total[3] += correct
            days = self.days.setdefault((pid, day), [0, 0])
            days[0] += 1
            days[1] += correct
            if kind == QUICK_FACTS and correct:
                key = (pid, centiseconds(row["seconds"]))
                self.times[key] = self.times.get(key, 0) + 1
            if kind != QUICK_FACTS:
                streak = self.streaks.setdefault(
                    (pid, kind, row["level"], row["capture_sum"]), [0, []])
                streak[0] = row["id"]
                streak[1] = (streak[1] + [[row["id"], correct]])[-KEPT_PUZZLES:]
        facts = row.get("facts")
        facts = json.loads(facts) if isinstance(facts, str) else (facts or [])
        mastery = stored_answers(kind, facts, row["seconds"], answers, when)
        for index, ((fact, right, seconds), answer) in enumerate(
                zip(answers, mastery, strict=True)):
            key_fact = normalise(fact)
            if key_fact is None:
                continue
            right = bool(right)
            per_day = self.fact_days.setdefault((pid, day, key_fact), [0, 0])
            per_day[0] += 1
            per_day[1] += not right
            mine = self.facts.setdefault((pid, key_fact), [0, 0, None, [], []])
            mine[0] += 1
            mine[1] += right
            if mine[2] is None or when >= mine[2]:
                mine[2] = when
            mine[3] = kept_fact_tries([*mine[3], [_stamp(when), row["id"], index, right,
                                                  seconds]])
            mine[4].append(((_stamp(when), row["id"], index), right, answer.pace))


def fold_box(tries: Sequence[tuple[tuple[str, int, int], bool, float | None]],
             box: int = 1, after: Sequence[Any] | None = None
             ) -> tuple[int | None, tuple[str, int, int] | None]:
    """A fact's box after ``tries`` (``((at, attempt id, place), right, pace)``, any
    order), from ``box`` after the try ``after`` (None: before the first): the box and
    the last try's key; (None, None) if a try comes before ``after`` (its box is unknown:
    the order of every try decides it)."""
    ordered = sorted(tries)
    if after is not None and ordered and ordered[0][0] <= tuple(after):
        return None, None
    for _key, right, pace in ordered:
        box = leitner_step(box, right, pace)
    return box, (ordered[-1][0] if ordered else (tuple(after) if after else None))


def kept_fact_tries(tries: Iterable[list[Any]]) -> list[list[Any]]:
    """Of a fact's tries (``[time stamp, attempt id, place, right, seconds]``, any order),
    the ones its cell reads, oldest first: the last :data:`KEPT_FACT_TRIES`, and the last
    :data:`KEPT_FACT_TRIES` with a time or wrong (``trainer.classroom_views``' rule: a
    right answer without a time counts against "mostly wrong", not toward "fast")."""
    ordered = sorted(tries, key=lambda entry: entry[:3])
    timed_or_wrong = [e for e in ordered if e[4] is not None or not e[3]][-KEPT_FACT_TRIES:]
    keep = {tuple(e[:3]) for e in (*ordered[-KEPT_FACT_TRIES:], *timed_or_wrong)}
    return [e for e in ordered if tuple(e[:3]) in keep]


def _latest(kept: list[list[Any]], new: list[list[Any]], count: int,
            order: int) -> list[list[Any]]:
    """The ``count`` latest entries of both, oldest first, by their first ``order``
    items (a try: its time, attempt id and place; a result: its attempt id)."""
    return sorted(kept + new, key=lambda entry: entry[:order])[-count:]


def _upsert(conn: Connection, table: sa.Table, rows: list[dict[str, Any]],
            keys: Sequence[str], *, add: Sequence[str] = (),
            replace: Sequence[str] = ()) -> None:
    """Insert ``rows``; where a key is there already, add the ``add`` columns to it and
    replace the ``replace`` ones."""
    if not rows:
        return
    conn.execute(_upsert_statement(conn.dialect.name, table, tuple(keys), tuple(add),
                                   tuple(replace)), rows)


@functools.lru_cache(maxsize=64)
def _upsert_statement(dialect: str, table: sa.Table, keys: tuple[str, ...],
                      add: tuple[str, ...], replace: tuple[str, ...]) -> Any:
    """:func:`_upsert`'s statement, built once per table and dialect: building it (and its
    cache key) at every answer was a third of the aggregates' CPU (issue 32)."""
    stmt = insert_for(dialect)(table)
    changes = {name: table.c[name] + stmt.excluded[name] for name in add}
    changes.update({name: stmt.excluded[name] for name in replace})
    return stmt.on_conflict_do_update(index_elements=list(keys), set_=changes)


def write_tally(conn: Connection, tally: Tally, tables: AggregateTables) -> None:
    """Add ``tally`` to the aggregates in ``conn``'s transaction. The pupils' totals rows
    are written first, in id order: on PostgreSQL their row locks make two writers of one
    pupil take turns before the kept tries are read and merged."""
    t = tables
    _upsert(conn, t.attempt_totals, [
        {"profile_id": pid, "puzzles": v[0], "quick_facts": v[1], "game_turns": v[2],
         "solved": v[3], "last_attempt_id": v[4], "last_at": v[5]}
        for pid, v in sorted(tally.totals.items())],
        ["profile_id"], add=["puzzles", "quick_facts", "game_turns", "solved"],
        replace=["last_attempt_id", "last_at"])
    _upsert(conn, t.attempt_days, [
        {"profile_id": pid, "day": day, "practice": v[0], "solved": v[1]}
        for (pid, day), v in tally.days.items()],
        ["profile_id", "day"], add=["practice", "solved"])
    _upsert(conn, t.quick_fact_times, [
        {"profile_id": pid, "centiseconds": cs, "answers": n}
        for (pid, cs), n in tally.times.items()],
        ["profile_id", "centiseconds"], add=["answers"])
    if t.quick_fact_seconds is not None:
        seconds: dict[tuple[int, int], int] = {}
        for (pid, cs), n in tally.times.items():
            key = (pid, whole_seconds(cs))
            seconds[key] = seconds.get(key, 0) + n
        _upsert(conn, t.quick_fact_seconds, [
            {"profile_id": pid, "seconds": whole, "answers": n}
            for (pid, whole), n in seconds.items()],
            ["profile_id", "seconds"], add=["answers"])
    _upsert(conn, t.fact_days, [
        {"profile_id": pid, "day": day, "fact": fact, "tries": v[0], "wrong": v[1]}
        for (pid, day, fact), v in tally.fact_days.items()],
        ["profile_id", "day", "fact"], add=["tries", "wrong"])
    _merge_facts(conn, tally, t.fact_progress)
    _merge_streaks(conn, tally, t.puzzle_streaks)


def _existing(conn: Connection, table: sa.Table, pids: Iterable[int], column: str,
              values: Iterable[Any]) -> dict[tuple[Any, ...], Any]:
    query = sa.select(table).where(table.c.profile_id.in_(sorted(set(pids)))
                                   & table.c[column].in_(sorted(set(values))))
    if conn.dialect.name == "postgresql":
        query = query.with_for_update()
    return {tuple(r[:len(table.primary_key.columns)]): r for r in conn.execute(query)}


def _merge_facts(conn: Connection, tally: Tally, table: sa.Table) -> None:
    if not tally.facts:
        return
    old = _existing(conn, table, (k[0] for k in tally.facts), "fact",
                    (k[1] for k in tally.facts))
    boxes = "box" in table.c  # migration 16 wrote the table before the box (23)
    rows = []
    for (pid, fact), (tries, right, last_at, kept, folds) in tally.facts.items():
        before = old.get((pid, fact))
        if before is None:
            box, box_key = fold_box(folds)
        else:
            tries += before.tries
            right += before.right
            earlier = before.last_at if before.last_at.tzinfo is not None \
                else before.last_at.replace(tzinfo=last_at.tzinfo)
            last_at = max(last_at, earlier)
            kept = kept_fact_tries([*json.loads(before.recent), *kept])
            if boxes:
                box, box_key = (None, None) if before.box is None or before.box_key is None \
                    else fold_box(folds, before.box, json.loads(before.box_key))
        row = {"profile_id": pid, "fact": fact, "tries": tries, "right": right,
               "last_at": last_at, "recent": json.dumps(kept)}
        if boxes:
            row.update(box=box, box_key=json.dumps(box_key) if box_key is not None else None)
        rows.append(row)
    _upsert(conn, table, rows, ["profile_id", "fact"],
            replace=["tries", "right", "last_at", "recent", *(("box", "box_key") if boxes
                                                                else ())])


def _merge_streaks(conn: Connection, tally: Tally, table: sa.Table) -> None:
    if not tally.streaks:
        return
    old = _existing(conn, table, (k[0] for k in tally.streaks), "kind",
                    (k[1] for k in tally.streaks))
    rows = []
    for (pid, kind, level, total), (last_id, kept) in tally.streaks.items():
        before = old.get((pid, kind, level, total))
        if before is not None:
            kept = _latest(json.loads(before.recent), kept, KEPT_PUZZLES, 1)
            last_id = max(last_id, before.last_id)
        rows.append({"profile_id": pid, "kind": kind, "level": level, "capture_sum": total,
                     "last_id": last_id, "recent": json.dumps(kept)})
    _upsert(conn, table, rows, ["profile_id", "kind", "level", "capture_sum"],
            replace=["last_id", "recent"])


def insert_attempts(conn: Connection, attempts: sa.Table, rows: Sequence[Mapping[str, Any]],
                    tables: AggregateTables) -> list[int]:
    """Insert attempt rows (``practice.attempt_values``) and add them to the aggregates,
    in ``conn``'s transaction; their ids, in order."""
    if not rows:
        return []
    ids = list(conn.execute(attempts.insert().returning(attempts.c.id,
                                                        sort_by_parameter_order=True),
                            [dict(r) for r in rows]).scalars())
    tally = Tally()
    for new_id, row in zip(ids, rows, strict=True):
        tally.add({**row, "id": new_id}, json.loads(row["answers"]))
    write_tally(conn, tally, tables)
    return ids
