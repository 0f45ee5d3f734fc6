"""Each pupil's progress on the class's assignments, kept at write time (issue 32).

The teacher's dashboard used to read, at every refresh, every attempt the class's
assignments count: for a *weakest facts* assignment as old as the school year, every quick
fact of the year. Now a row of ``assignment_progress`` per assignment and pupil holds what
``trainer.classroom_views.pupil_task`` shows, and is kept in the transaction of every
attempt (:func:`add_to_assignments`, called by ``practice.add_attempts``):

- ``facts``: the pupil's facts (a *facts* assignment's own; a *weakest* one's chosen from
  the pupil's answers before the assignment was made, by the rule of
  :func:`chosen_facts`);
- ``tried``, ``solved``, ``stars``: the attempts that counted, the puzzles solved among
  them and their stars;
- ``marks``: a *puzzles* assignment's first ``count`` counted attempts ``[[id, day], ...]``
  (the day its count was reached), a facts one's ``{fact: [first id, its day, latest id,
  its attempt right]}``.

The results are the full-history rule's, whatever order attempts arrive in: the first and
latest are kept by attempt id, as the views ordered them. An attempt written after the
assignment but stamped before it (a bulk import, a tab that answered as the teacher made
it) changes the answers a *weakest* assignment's facts are chosen from: that one pupil's
row is then computed again from their attempts (:func:`build`). The rows are made with the
assignment (for its class's pupils, from what they answered so far: a *weakest* one chooses
from each fact's Leitner box kept at write time, :func:`boxed_states`, and reads a pupil's
every answer, ahead of its transaction, only where a box is unknown, :func:`read_ahead`),
with a pupil who joins later, and by migration 17 for the assignments made before it; they
go with the assignment, the pupil, the profile or the class.

No attempt is missed or counted twice when an assignment is made (or a pupil joins) as
an answer is written: each of them locks the class's row before reading the other's
rows (:func:`lock_classes`; the assignment's maker and the pupils' adder by bumping the
class's version first, which an answer's transaction does at its end anyway), so the one
waits for the other and reads what it committed (PostgreSQL; SQLite has one writer at a
time, and each reads after its first write).
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

from puzzles.mastery import FactStats, fact_stats, normalise
from puzzles.practice import answers_from_rows, askable_facts, quick_fact_for, weakest_questions

__all__ = ["COUNTED_KINDS", "TaskTables", "TaskProgress", "Task", "TaskAttempt",
           "chosen_facts", "build", "fold", "question_facts", "lock_classes", "start_progress",
           "read_ahead", "boxed_states", "recount_facts",
           "add_to_assignments", "read_progress"]

#: The assignment kinds whose progress comes from attempts (a lesson's from its results).
COUNTED_KINDS = ("puzzles", "facts", "weakest")
_QUICK = "quick-facts"
#: The attempts' columns the progress reads.
_COLUMNS = ("id", "profile_id", "created_at", "day", "kind", "level", "capture_sum",
            "correct", "stars", "seconds", "facts", "answers")


class TaskTables(NamedTuple):
    """The tables the progress reads and writes, as the app's schema has them or as a
    migration built them."""

    assignment_progress: sa.Table
    assignments: sa.Table
    attempts: sa.Table
    classes: sa.Table
    class_members: sa.Table
    #: The aggregates a *weakest* assignment chooses from (``.aggregates``; None in
    #: migration 17, written before them: then the attempts are read).
    fact_progress: sa.Table | None = None
    attempt_totals: sa.Table | None = None


class Task(NamedTuple):
    """An assignment, as its progress reads it."""

    id: int
    kind: str
    spec: Mapping[str, Any]
    created_at: datetime


class TaskAttempt(NamedTuple):
    """What the progress reads of an attempt (also what ``answers_from_rows`` reads)."""

    id: int
    profile_id: int
    created_at: datetime
    day: str
    kind: str
    level: int
    capture_sum: int
    correct: bool
    stars: int
    seconds: float
    facts: list[str]
    answers: list[list[Any]]


@dataclass
class _State:
    facts: list[str]
    tried: int = 0
    solved: int = 0
    stars: int = 0
    marks: Any = None


@dataclass(frozen=True)
class TaskProgress:
    """One pupil's progress on one assignment, as the views read it."""

    facts: tuple[str, ...] = ()  # facts and weakest: the pupil's facts
    tried: int = 0  # attempts that counted
    solved: int = 0  # puzzles: solved among them
    stars: int = 0  # puzzles: their stars
    #: puzzles: the days of the first ``count`` counted attempts, in order
    first_days: tuple[str, ...] = ()
    #: facts: each answered fact's first day and whether its latest attempt was right
    fact_marks: dict[str, tuple[str, bool]] = field(default_factory=dict)


def _aware(value: datetime) -> datetime:
    return value if value.tzinfo is not None else value.replace(tzinfo=UTC)


def _task_attempt(row: Mapping[str, Any]) -> TaskAttempt:
    return TaskAttempt(
        row["id"], row["profile_id"], _aware(row["created_at"]), row["day"], row["kind"],
        row["level"], row["capture_sum"], bool(row["correct"]), row["stars"], row["seconds"],
        json.loads(row["facts"]), json.loads(row["answers"]))


def chosen_facts(task: Task, before: Sequence[TaskAttempt]) -> list[str]:
    """A pupil's facts: a *facts* assignment's; a *weakest* one's, the mastery model's
    weakest among the facts a quick fact can ask, from the pupil's attempts made before
    the assignment (``before``, in id order), so they stay put while the pupil works."""
    spec = task.spec
    if task.kind == "facts":
        return list(spec["facts"])
    if task.kind == "weakest":
        usable = askable_facts(spec["capture_sum"])
        return _weakest(task, fact_stats(answers_from_rows(before), usable))  # type: ignore[arg-type]
    return []


def _weakest(task: Task, stats: Mapping[str, FactStats]) -> list[str]:
    """A *weakest* assignment's facts for a pupil with these stats (the rule of
    :func:`chosen_facts`, whether the stats come from the attempts or the boxes kept)."""
    return weakest_questions(stats, task.spec["capture_sum"], task.spec["count"])


@functools.lru_cache(maxsize=4096)
def question_facts(fact: str, capture_sum: int) -> frozenset[str] | None:
    """The facts of the quick question a child is asked for ``fact`` (``quick_fact_for``),
    as an attempt at it stores them; None where no quick fact asks it."""
    puzzle = quick_fact_for(fact, capture_sum)
    return None if puzzle is None else frozenset(normalise(f) for f in puzzle.facts)


def fold(task: Task, state: _State, attempt: TaskAttempt) -> bool:
    """Count an attempt made at or after the assignment, if it matches it: a *puzzles*
    assignment's kind, level and sum; a facts one's quick facts with its sum that are the
    question of one of the pupil's facts (wherever it was asked: the task, Quick facts).
    Whether it counted."""
    spec = task.spec
    if task.kind == "puzzles":
        if (attempt.kind, attempt.level, attempt.capture_sum) \
                != (spec["kind"], spec["level"], spec["capture_sum"]):
            return False
        state.tried += 1
        state.solved += attempt.correct
        state.stars += attempt.stars
        # The count's day is its count-th attempt by id: keep the lowest ids.
        state.marks = sorted([*state.marks, [attempt.id, attempt.day]])[:spec["count"]]
        return True
    if attempt.kind != _QUICK or attempt.capture_sum != spec["capture_sum"]:
        return False
    # The facts whose question it answered, not every fact it exercised: "3 + 4 + ? = 15"
    # exercises 15 − 7 too, and one wrong answer to it counted against the task's
    # "7 + ? = 15" as well (the child's round said 3 of 4 right, the task 2; found trying
    # it as a teacher).
    asked = frozenset(normalise(f) for f in attempt.facts)
    hit = [f for f in state.facts if question_facts(f, spec["capture_sum"]) == asked]
    if not hit:
        return False
    state.tried += 1
    for fact in hit:
        mark = state.marks.get(fact)
        if mark is None:
            state.marks[fact] = [attempt.id, attempt.day, attempt.id, attempt.correct]
            continue
        if attempt.id < mark[0]:
            mark[0], mark[1] = attempt.id, attempt.day
        if attempt.id > mark[2]:
            mark[2], mark[3] = attempt.id, attempt.correct
    return True


def build(task: Task, attempts: Sequence[TaskAttempt]) -> _State:
    """A pupil's progress from their attempts (every one, or at least every one made at
    or after the assignment for a *puzzles* or *facts* one), in id order."""
    return _counted(task, chosen_facts(
        task, [a for a in attempts if a.created_at < task.created_at]), attempts)


def _counted(task: Task, facts: list[str], attempts: Sequence[TaskAttempt]) -> _State:
    """The progress of a pupil with these ``facts`` from their attempts made at or after
    the assignment (:func:`fold`)."""
    state = _State(facts, marks=[] if task.kind == "puzzles" else {})
    for attempt in attempts:
        if attempt.created_at >= task.created_at:
            fold(task, state, attempt)
    return state


def recount_facts(conn: Connection, t: TaskTables) -> int:
    """Every pupil's progress on the *facts* and *weakest* assignments counted again from
    their attempts since each assignment, with the facts they have (a *weakest* one's
    were chosen when it was made, and stay), in ``conn``'s transaction: for a schema
    whose answers counted for every fact they exercised (migration 25). The rows
    counted again."""
    p, a = t.assignment_progress, t.assignments
    rows = conn.execute(
        sa.select(p.c.assignment_id, p.c.profile_id, p.c.facts, a.c.kind, a.c.spec,
                  a.c.created_at.label("task_created"))
        .join(a, a.c.id == p.c.assignment_id)
        .where(a.c.kind.in_(("facts", "weakest")))).all()
    if not rows:
        return 0
    since = min(_aware(r.task_created) for r in rows)
    attempts = _attempts_of(conn, t, [r.profile_id for r in rows], since)
    changed: dict[tuple[int, int], _State] = {}
    for r in rows:
        task = Task(r.assignment_id, r.kind, json.loads(r.spec), _aware(r.task_created))
        changed[(task.id, r.profile_id)] = _counted(task, json.loads(r.facts),
                                                    attempts.get(r.profile_id, []))
    _write_states(conn, p, changed)
    return len(changed)


def _write_states(conn: Connection, p: sa.Table,
                  states: Mapping[tuple[int, int], _State]) -> None:
    """The progress rows of these (assignment, pupil) pairs updated to their states."""
    conn.execute(p.update().where((p.c.assignment_id == sa.bindparam("key_task"))
                                  & (p.c.profile_id == sa.bindparam("key_pupil")))
                 .values(facts=sa.bindparam("facts"), tried=sa.bindparam("tried"),
                         solved=sa.bindparam("solved"), stars=sa.bindparam("stars"),
                         marks=sa.bindparam("marks")),
                 [{**_values(task_id, pid, state), "key_task": task_id, "key_pupil": pid}
                  for (task_id, pid), state in states.items()])


def _values(task_id: int, profile_id: int, state: _State) -> dict[str, Any]:
    return {"assignment_id": task_id, "profile_id": profile_id,
            "facts": json.dumps(state.facts), "tried": state.tried, "solved": state.solved,
            "stars": state.stars, "marks": json.dumps(state.marks)}


def _state(row: Any) -> _State:
    return _State(json.loads(row.facts), row.tried, row.solved, row.stars,
                  json.loads(row.marks))


def lock_classes(conn: Connection, t: TaskTables, profile_ids: Iterable[int]) -> None:
    """On PostgreSQL, lock the rows of the classes of these profiles, in id order (the
    answer's transaction updates them at its end anyway: ``versions.bump_profiles``)."""
    ids = sorted(set(profile_ids))
    if ids and conn.dialect.name == "postgresql":
        theirs = sa.select(t.class_members.c.class_id).where(
            t.class_members.c.profile_id.in_(ids))
        conn.execute(sa.select(t.classes.c.id).where(t.classes.c.id.in_(theirs))
                     .order_by(t.classes.c.id).with_for_update())


def _attempts_of(conn: Connection, t: TaskTables, profile_ids: Sequence[int],
                 since: datetime | None) -> dict[int, list[TaskAttempt]]:
    a = t.attempts
    where = a.c.profile_id.in_(sorted(set(profile_ids)))
    if since is not None:
        where = where & (a.c.created_at >= since)
    out: dict[int, list[TaskAttempt]] = {pid: [] for pid in profile_ids}
    query = sa.select(*(a.c[name] for name in _COLUMNS)).where(where).order_by(a.c.id)
    for row in conn.execute(query).mappings():
        out.setdefault(row["profile_id"], []).append(_task_attempt(row))
    return out


#: Each pupil's progress computed ahead, and how many attempts it was computed from.
ReadAhead = dict[int, tuple[int, _State]]


def boxed_states(conn: Connection, t: TaskTables, task: Task,
                 profile_ids: Sequence[int]) -> dict[int, _State]:
    """A *weakest* assignment's progress, at its making, for the pupils whose facts can
    be chosen from the boxes kept at write time (``fact_progress``: each fact's tries,
    latest try and Leitner box; what :func:`chosen_facts` weighs every answer for): every
    pupil but one with a box unknown (a try written out of time order) or a try stamped
    at or after the assignment (another server's clock). A few rows a pupil, whatever
    their history."""
    if t.fact_progress is None or t.attempt_totals is None or not profile_ids:
        return {}
    wanted = sorted(set(profile_ids))
    totals, facts = t.attempt_totals, t.fact_progress
    out_of_reach = {pid for pid, last_at in conn.execute(
        sa.select(totals.c.profile_id, totals.c.last_at).where(
            totals.c.profile_id.in_(wanted))) if _aware(last_at) >= task.created_at}
    stats: dict[int, dict[str, FactStats]] = {pid: {} for pid in wanted}
    for row in conn.execute(sa.select(facts.c.profile_id, facts.c.fact, facts.c.tries,
                                      facts.c.right, facts.c.last_at, facts.c.box)
                            .where(facts.c.profile_id.in_(wanted))):
        if row.box is None:
            out_of_reach.add(row.profile_id)
            continue
        stats[row.profile_id][row.fact] = FactStats(
            fact=row.fact, level="", box=row.box, answers=row.tries, correct=row.right,
            accuracy=row.right / row.tries if row.tries else None, median_seconds=None,
            last_seen=_aware(row.last_at))
    return {pid: _State(_weakest(task, mine), marks={})
            for pid, mine in stats.items() if pid not in out_of_reach}


def read_ahead(conn: Connection, t: TaskTables, task: Task,
               profile_ids: Sequence[int]) -> ReadAhead:
    """A *weakest* assignment's progress for each pupil whose boxes are not all kept
    (:func:`boxed_states`), from their every attempt so far, read before the assignment's
    transaction (a year of a pupil's answers takes a moment to read and weigh: no writer of
    the class, or of a SQLite file, waits for it meanwhile); :func:`start_progress` then
    reads again only the pupils with attempts since."""
    boxed = boxed_states(conn, t, task, profile_ids)
    rest = [pid for pid in profile_ids if pid not in boxed]
    if not rest:
        return {}
    mine = _attempts_of(conn, t, rest, None)
    return {pid: (len(rows), build(task, rows)) for pid, rows in mine.items()}


def start_progress(conn: Connection, t: TaskTables, tasks: Sequence[Task],
                   profile_ids: Sequence[int], *, new_pupils: bool = False,
                   ahead: ReadAhead | None = None) -> None:
    """The progress rows of these assignments and pupils, from the pupils' attempts stored
    so far (``new_pupils``: pupils just made, who have none), in ``conn``'s transaction.
    A *weakest* assignment reads the pupils' every attempt (once, when it is made: given
    ``ahead``, computed before the transaction, only the pupils whose attempts are not as
    many as then); the others only those made since."""
    tasks = [task for task in tasks if task.kind in COUNTED_KINDS]
    if not tasks or not profile_ids:
        return
    known: dict[int, _State] = {}
    if ahead:
        a = t.attempts
        # Attempts are never deleted but with their profile: the same count, the same rows.
        counts = dict(conn.execute(
            sa.select(a.c.profile_id, sa.func.count()).where(
                a.c.profile_id.in_(sorted(set(profile_ids)))).group_by(a.c.profile_id)).all())
        known = {pid: state for pid, (read, state) in ahead.items()
                 if pid in profile_ids and counts.get(pid, 0) == read}
    if not new_pupils and len(tasks) == 1 and tasks[0].kind == "weakest":
        # The boxes kept at write time, read in this transaction (a few rows a pupil).
        known.update(boxed_states(conn, t, tasks[0],
                                  [pid for pid in profile_ids if pid not in known]))
    rest = [pid for pid in profile_ids if pid not in known]
    if new_pupils or not rest:
        mine: dict[int, list[TaskAttempt]] = {}
    else:
        since = None if any(task.kind == "weakest" for task in tasks) \
            else min(task.created_at for task in tasks)
        mine = _attempts_of(conn, t, rest, since)
    conn.execute(t.assignment_progress.insert(), [
        _values(task.id, pid, known[pid] if pid in known else build(task, mine.get(pid, [])))
        for task in tasks for pid in profile_ids])


def add_to_assignments(conn: Connection, t: TaskTables, rows: Sequence[Mapping[str, Any]],
                       ids: Sequence[int]) -> None:
    """Add newly inserted attempts (their rows and ids, in id order) to their pupils'
    progress on their class's assignments, in ``conn``'s transaction."""
    p, a = t.assignment_progress, t.assignments
    pids = sorted({row["profile_id"] for row in rows})
    lock_classes(conn, t, pids)
    found = conn.execute(
        sa.select(p, a.c.kind, a.c.spec, a.c.created_at.label("task_created"))
        .join(a, a.c.id == p.c.assignment_id).where(p.c.profile_id.in_(pids))).all()
    if not found:  # not a pupil, or a class without such assignments
        return
    new: dict[int, list[TaskAttempt]] = {}
    for new_id, row in zip(ids, rows, strict=True):
        attempt = _task_attempt({**row, "id": new_id})
        new.setdefault(attempt.profile_id, []).append(attempt)
    changed: dict[tuple[int, int], _State] = {}
    again: list[tuple[Task, int]] = []
    for r in found:
        task = Task(r.assignment_id, r.kind, json.loads(r.spec), _aware(r.task_created))
        state = _state(r)
        for attempt in new.get(r.profile_id, ()):
            if attempt.created_at < task.created_at:
                if task.kind == "weakest":  # an answer the facts are chosen from
                    again.append((task, r.profile_id))
                    break
                continue
            if fold(task, state, attempt):
                changed[(task.id, r.profile_id)] = state
    if again:
        everything = _attempts_of(conn, t, [pid for _, pid in again], None)
        for task, pid in again:
            changed[(task.id, pid)] = build(task, everything[pid])
    if changed:
        _write_states(conn, p, changed)


def read_progress(conn: Connection, t: TaskTables, task_ids: Sequence[int],
                  pupils: Any) -> dict[int, dict[int, TaskProgress]]:
    """Assignment id -> pupil -> :class:`TaskProgress`, for these assignments and the
    pupils ``pupils`` selects: one query, one row per assignment and pupil."""
    p = t.assignment_progress
    out: dict[int, dict[int, TaskProgress]] = {task_id: {} for task_id in task_ids}
    if not task_ids:
        return out
    rows = conn.execute(sa.select(p).where(p.c.assignment_id.in_(list(task_ids))
                                           & p.c.profile_id.in_(pupils)))
    for r in rows:
        marks = json.loads(r.marks)
        out[r.assignment_id][r.profile_id] = TaskProgress(
            tuple(json.loads(r.facts)), r.tried, r.solved, r.stars,
            tuple(day for _, day in marks) if isinstance(marks, list) else (),
            {fact: (m[1], bool(m[3])) for fact, m in marks.items()}
            if isinstance(marks, dict) else {})
    return out
