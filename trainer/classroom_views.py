"""What a teacher sees of a class, computed from one :class:`~trainer.storage.ClassSnapshot`.

Pure functions, no database and no Streamlit: the dashboard's rows, the class's fact
grid, each assignment's completion and results per pupil, and what a pupil has to do.
docs/CLASSROOM.md states the rules; in short:

**A try** at a fact is one entry of an attempt's ``answers`` (``[fact, right,
seconds]``, :func:`puzzles.practice.attempt_answers`): a quick fact times the fact it
asks; a puzzle's answer has no time of its own.

**A cell of the fact grid** (the XtraMath rule, with the class's time limit of 3, 6 or
12 seconds) looks at the fact's last three tries: ``fast`` when at least two of its
last three tries with a time or wrong were right within the limit (the fact is
*fluent*: a puzzle's *right* answer has no time of its own, so it neither makes a fact
fluent nor undoes it); ``wrong`` when more of its last three tries of any kind were
wrong than right and at least two were wrong (one answer is too little to call a fact
"mostly wrong": a single wrong try is ``missed``; a puzzle solved right counts as
right, so a fact a pupil now gets right in puzzles is no longer "mostly wrong" for
wrong answers months old); ``early`` when each of those tries with a time was right
within the limit but they are too few to call it fluent (one fast answer so far; also
a fact only ever answered right in puzzles, whose speed is not known); ``slow``
otherwise (mostly right, and a right answer over the limit or a wrong one among its
timed tries); ``unseen`` without a try. A *wrong* answer counts wherever it was given.

**An attempt counts toward an assignment** when it was recorded at or after the
assignment's creation and matches it: a *puzzles* assignment counts attempts of its
kind, level and capture sum (done when ``count`` of them are recorded, solved or not);
a *facts* assignment counts quick-fact attempts with its capture sum whose puzzle
exercises a chosen fact (done when every chosen fact has one); a *weakest* assignment
is a facts assignment on each pupil's own weakest facts, chosen by the mastery model
(:func:`puzzles.mastery.weakest_facts`) from the pupil's answers *before* the
assignment was made, so they do not move while the pupil works on them. A *lesson*
assignment is done when every level of its stage has a result, whenever it was earned
(lesson results keep each level's best, not each play). Late: completed on a day (the
pupil's local date) after the due date; overdue: not complete and the due date passed.
What each pupil's attempts add up to under these rules is kept at write time, in the
attempt's transaction (``trainer.storage.assignment_progress``, issue 32): the views read
one row per assignment and pupil, never the attempts.
"""

from __future__ import annotations

import statistics
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from datetime import date, datetime, timedelta
from typing import Any

from lessons import Stage, load_stages
from puzzles import Puzzle, generate
from puzzles.mastery import (
    FLUENT_TRIES,
    all_additions,
    all_complements,
    fluent_in_time,
    normalise,
    timed_tail,
)
from puzzles.model import PuzzleError, check_kind_level_sum
from puzzles.practice import (
    Attempt,
    askable_facts,
    assignable_facts,
    one_per_question,
    quick_fact_addends,
    quick_fact_for,
    quick_question_text,
)

from .lessons import stage_summaries
from .storage import (
    AssignmentRow,
    ClassInfo,
    ClassSnapshot,
    LessonBest,
    LessonGo,
    PupilAggregates,
    TaskProgress,
)
from .storage.aggregates import KEPT_FACT_TRIES, KEPT_PUZZLES

__all__ = ["ClassroomError", "FLUENCY_LIMITS", "DEFAULT_FLUENCY", "CELL_STATES",
           "PRACTISING_STATES",
           "ASSIGNMENT_KINDS", "TASK_STATUSES", "FactTry", "Cell", "GridRow", "FactGrid",
           "HelpReason", "PupilRow", "PupilTask", "AssignmentProgress", "fact_tries",
           "fact_cell", "grid_facts", "fact_grid", "cell_history", "dashboard", "weak_facts",
           "asked_question", "facts_in_question_order",
           "check_assignment", "pupil_task", "assignments_progress", "task_puzzles",
           "askable_facts", "assignable_facts", "HELP_ACCURACY", "HELP_MIN_TRIES",
           "STUCK_WINDOW", "STUCK_MISSES",
           "STUCK_LESSON_WRONG", "STUCK_LESSON_TIMES", "stuck_lesson_threshold",
           "WRONG_MIN", "FactTotal", "fact_totals", "task_words", "WEEK_DAYS", "of_group",
           "group_names"]


class ClassroomError(ValueError):
    """Something the classroom refuses; ``key`` is a message of the ``classroom`` catalog
    (``t(err.key, domain="classroom", **err.params)``)."""

    def __init__(self, key: str, **params: Any) -> None:
        super().__init__(key)
        self.key = key
        self.params = params


#: The fluency time limits a teacher chooses from (seconds): strong, usual, youngest.
FLUENCY_LIMITS: tuple[int, ...] = (3, 6, 12)
DEFAULT_FLUENCY = 6
CELL_STATES: tuple[str, ...] = ("unseen", "missed", "wrong", "slow", "early", "fast")
#: The cells of facts being practised, the most in need first: what to practise on paper
#: (:func:`weak_facts`) and a pupil's report list them in this order.
PRACTISING_STATES: tuple[str, ...] = ("wrong", "missed", "slow", "early")
#: Wrong answers among the last three before a cell says "mostly wrong" (issue 27: one
#: wrong try was told "mostly wrong"); fewer, and more wrong than right, is ``missed``.
WRONG_MIN = 2
ASSIGNMENT_KINDS: tuple[str, ...] = ("lesson", "puzzles", "facts", "weakest")
#: ``done``, ``late`` (done after the due date), ``open``, ``overdue``.
TASK_STATUSES: tuple[str, ...] = ("done", "late", "open", "overdue")
#: The dashboard's week and the fact totals' days: 7 days up to today.
WEEK_DAYS = 7
#: "Needs help": under 70 % right this week (7 days up to today), with at least 5 attempts.
HELP_ACCURACY = 0.7
HELP_MIN_TRIES = 5
#: "Stuck": of the last 5 attempts at the kind, level and sum of the latest puzzle, 4 missed
#: (storage keeps that many per pupil, kind, level and sum: trainer.storage.aggregates).
STUCK_WINDOW = KEPT_PUZZLES
STUCK_MISSES = 4
#: A fact's cell looks at its last three tries, and its last three with a time or wrong
#: (storage keeps both; "fast" is puzzles.mastery's fluent, which reads that many).
LAST_TRIES = KEPT_FACT_TRIES
assert KEPT_FACT_TRIES >= FLUENT_TRIES
MAX_PUZZLES = 50
MAX_FACTS = 20
#: "Stuck on a lesson level": the go at a level not finished yet has at least this many
#: wrong tries, or STUCK_LESSON_TIMES times the level's target plays if that is more,
#: and its latest try is of this week (docs/CLASSROOM.md says why).
STUCK_LESSON_WRONG = 6
STUCK_LESSON_TIMES = 3


# -- the fact grid ---------------------------------------------------------------------

@dataclass(frozen=True)
class FactTry:
    """One answer that exercised a fact: when, right or not, its time if it was timed."""

    when: datetime
    correct: bool
    seconds: float | None
    kind: str
    day: str
    attempt_id: int | None = None
    #: A quick fact's question as the pupil saw it ("3 + 4 + ? = 15"), None for others:
    #: the grid's history files its answer under the fact it timed (15 − 7), and a
    #: teacher who assigned "3 + 4 + ? = 15" looked for it under 3 + 4.
    question: str | None = None


def asked_question(attempt: Attempt) -> str | None:
    """A quick-fact attempt's question as the pupil saw it, else None."""
    addends = quick_fact_addends(attempt.puzzle_id)
    return None if addends is None else quick_question_text(addends, attempt.capture_sum)


def fact_tries(attempts: Iterable[Attempt]) -> dict[str, list[FactTry]]:
    """Every fact's tries (canonical keys, :func:`puzzles.mastery.normalise`), in order."""
    out: dict[str, list[FactTry]] = {}
    for attempt in attempts:
        question = asked_question(attempt)
        for fact, correct, seconds in attempt.answers:
            key = normalise(fact)
            if key is not None and attempt.created_at is not None:
                out.setdefault(key, []).append(FactTry(attempt.created_at, correct, seconds,
                                                       attempt.kind, attempt.day, attempt.id,
                                                       question))
    for tries in out.values():
        tries.sort(key=lambda t: t.when)
    return out


def fact_cell(tries: Sequence[FactTry], limit: float) -> str:
    """The cell of one fact from its tries in time order (see the module doc)."""
    if not tries:
        return "unseen"
    return _cell_state([(t.correct, t.seconds) for t in tries], limit)


def _cell_state(tries: Sequence[tuple[bool, float | None]], limit: float) -> str:
    """The cell of a fact tried at least once, from its tries (right, seconds), oldest
    first: all of them, or at least the last :data:`LAST_TRIES` and the last
    :data:`LAST_TRIES` with a time or wrong (what storage keeps). "Fast" is the fact
    being fluent (:func:`puzzles.mastery.fluent_in_time`, the rule My progress reads
    too); "mostly wrong" is read from the last tries of any kind (a puzzle solved right
    counts)."""
    if fluent_in_time(tries, limit):
        return "fast"
    last = tries[-LAST_TRIES:]
    right = sum(1 for correct, _ in last if correct)
    if len(last) - right > right:
        return "wrong" if len(last) - right >= WRONG_MIN else "missed"
    if all(correct and seconds is not None and seconds <= limit
           for correct, seconds in timed_tail(tries)):
        # Right in time each time it was timed, but not yet often enough to call it
        # fluent (one fast answer read "right, not yet fast": found trying it as a
        # teacher, who would have taken the pupil for slow).
        return "early"
    return "slow"


@dataclass(frozen=True)
class Cell:
    state: str  # one of CELL_STATES
    tries: int
    right: int
    last: datetime | None


@dataclass(frozen=True)
class GridRow:
    profile_id: int
    nickname: str
    avatar: str
    cells: dict[str, Cell]
    group: str | None = None  # the pupil's group's name (issue 29), None: in none

    def count(self, state: str, facts: Iterable[str]) -> int:
        return sum(1 for f in facts if self.cells[f].state == state)


@dataclass(frozen=True)
class FactGrid:
    """Pupils × facts: the 55 additions, then the complements to the class's sum."""

    facts: tuple[str, ...]
    limit: int
    capture_sum: int
    rows: tuple[GridRow, ...]

    @property
    def additions(self) -> tuple[str, ...]:
        return tuple(f for f in self.facts if "+" in f)

    @property
    def complements(self) -> tuple[str, ...]:
        return tuple(f for f in self.facts if "-" in f)

    def row(self, profile_id: int) -> GridRow | None:
        return next((r for r in self.rows if r.profile_id == profile_id), None)


def grid_facts(capture_sum: int) -> tuple[str, ...]:
    return tuple(all_additions()) + tuple(all_complements(capture_sum))


def fact_grid(snapshot: ClassSnapshot, limit: int | None = None) -> FactGrid:
    """The class's fact grid with the class's time limit (or ``limit``)."""
    info = snapshot.info
    limit = limit if limit is not None else info.fluency_seconds
    facts = grid_facts(info.capture_sum)
    groups = group_names(snapshot)
    rows = []
    unseen = Cell("unseen", 0, 0, None)
    for member in snapshot.members:
        records = _aggregates(snapshot, member.profile_id).facts
        cells = {}
        for fact in facts:
            record = records.get(fact)
            cells[fact] = unseen if record is None else Cell(
                _cell_state(record.recent, limit), record.tries, record.right, record.last_at)
        rows.append(GridRow(member.profile_id, member.nickname, member.avatar, cells,
                            groups.get(member.group_id)))
    return FactGrid(facts, limit, info.capture_sum, tuple(rows))


def cell_history(snapshot: ClassSnapshot, profile_id: int, fact: str) -> list[FactTry]:
    """A cell's history: every try of the pupil at the fact, oldest first (empty for a
    profile that is not a pupil of this class). The snapshot must hold every attempt."""
    if not snapshot.every_attempt:
        raise ValueError("a cell's history needs every attempt of the pupil")
    key = normalise(fact)
    if key is None or snapshot.member(profile_id) is None:
        return []
    return fact_tries(snapshot.attempts.get(profile_id, ())).get(key, [])


def facts_in_question_order(capture_sum: int) -> list[str]:
    """The facts a teacher can assign (:func:`assignable_facts`), in the order she scans
    them for a question: the one-number questions first (5 + ? = 15 ... 10 + ? = 15),
    then the others by their numbers (1 + 1 + 3 + ? ... 3 + 4 + ? ... 7 + 7 + ?). In
    teaching order the same first number came in two places (found re-checking as a
    teacher)."""
    facts = assignable_facts(capture_sum)
    asked = {f: quick_fact_for(f, capture_sum).addends for f in facts}
    return sorted(facts, key=lambda f: (len(asked[f]), asked[f]))


def weak_facts(row: GridRow, count: int, capture_sum: int) -> list[str]:
    """A pupil's facts to practise on paper: the grid's wrong cells, then the slow ones,
    then those right so far (each in the order new facts are taught, complements first),
    then untried ones."""
    order = [f for f in askable_facts(capture_sum) if f in row.cells]
    return [f for state in (*PRACTISING_STATES, "unseen") for f in order
            if row.cells[f].state == state][:count]


@dataclass(frozen=True)
class FactTotal:
    """The whole class's answers to one fact over the last days: the figure a teacher
    plans the next lesson from ("8 + ? = 15: 3 of 4 wrong this week")."""

    fact: str
    tries: int
    wrong: int
    pupils: int  # pupils who answered it
    pupils_wrong: int  # of them, pupils with at least one wrong answer


def fact_totals(grid: FactGrid, snapshot: ClassSnapshot, today: date,
                days: int = WEEK_DAYS) -> dict[str, FactTotal]:
    """Each fact of ``grid``'s class totals over ``days`` days up to ``today`` (the
    pupils' local dates), every answer counted, puzzles' too."""
    since, until = _days(snapshot, today, days)
    counts = {f: [0, 0, 0, 0] for f in grid.facts}
    for row in grid.rows:
        mine: dict[str, list[int]] = {}
        for day, facts in _aggregates(snapshot, row.profile_id).fact_days.items():
            if since <= day <= until:
                for fact, (tries, wrong) in facts.items():
                    both = mine.setdefault(fact, [0, 0])
                    both[0] += tries
                    both[1] += wrong
        for fact, (tries, wrong) in mine.items():
            if fact not in counts:
                continue
            total = counts[fact]
            total[0] += tries
            total[1] += wrong
            total[2] += 1
            total[3] += 1 if wrong else 0
    return {f: FactTotal(f, *c) for f, c in counts.items()}


def _aggregates(snapshot: ClassSnapshot, profile_id: int) -> PupilAggregates:
    return snapshot.aggregates.get(profile_id) or PupilAggregates()


def _days(snapshot: ClassSnapshot, today: date, days: int) -> tuple[str, str]:
    """The first and last local day of the ``days`` up to ``today``; ValueError if the
    snapshot did not read that far back (a caller's bug: it would count too few)."""
    since = (today - timedelta(days=days - 1)).isoformat()
    if snapshot.days_from is not None and since < snapshot.days_from:
        raise ValueError(f"the snapshot has the days from {snapshot.days_from}, not {since}")
    return since, today.isoformat()


# -- the dashboard ---------------------------------------------------------------------

@dataclass(frozen=True)
class HelpReason:
    """Why a pupil needs help: a ``classroom`` catalog key and its parameters."""

    key: str
    params: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class PupilRow:
    """One pupil on the dashboard."""

    profile_id: int
    nickname: str
    avatar: str
    real_name: str | None
    last_active: datetime | None
    lesson_stars: int
    lesson_stars_max: int
    lesson_levels: int  # levels done
    puzzles: int  # puzzle attempts (every kind but quick facts and game turns)
    quick_facts: int  # quick-fact attempts
    accuracy: float | None  # practice attempts (puzzles, quick facts) solved / made, 0-1
    week_accuracy: float | None  # the same over the last 7 days
    median_seconds: float | None  # of right quick facts
    fluent_additions: int  # of 55
    fluent_complements: int
    complements: int  # complements to the class's sum (6 for 15)
    assignments_done: int
    assignments: int
    help: tuple[HelpReason, ...] = ()
    game_turns: int = 0  # turns of games that asked a fact (docs/GAME-EVIDENCE.md)
    group: str | None = None  # the pupil's group's name (issue 29), None: in none

    @property
    def needs_help(self) -> bool:
        return bool(self.help)


def _median(values: list[float]) -> float | None:
    return round(statistics.median(values), 2) if values else None


def stuck_lesson_threshold(target: int) -> int:
    """The wrong tries at an unfinished level that make a pupil "stuck" on it: a level
    whose three stars need more plays allows more wrong ones before."""
    return max(STUCK_LESSON_WRONG, STUCK_LESSON_TIMES * target)


def _stuck_lesson(goes: Mapping[tuple[str, str], LessonGo], stages: Sequence[Stage],
                  today: date) -> HelpReason | None:
    """The latest level tried this week, not finished, with too many wrong tries."""
    since = today - timedelta(days=6)
    for go in sorted(goes.values(), key=lambda g: g.updated_at, reverse=True):
        if go.updated_at.date() < since:
            break
        stage = next((s for s in stages if s.key == go.stage), None)
        level = next((lv for lv in stage.levels if lv.key == go.level), None) \
            if stage is not None else None
        if level is None:  # a level since removed from the path
            continue
        if go.wrong >= stuck_lesson_threshold(level.target):
            return HelpReason("help.stuck_lesson", {"stage": go.stage, "level": level.index,
                                                    "tries": go.tries, "wrong": go.wrong})
    return None


def _week(mine: PupilAggregates, since: str, until: str) -> tuple[int, int]:
    """Puzzles and quick facts made from ``since`` to ``until``, and solved."""
    days = [counts for day, counts in mine.days.items() if since <= day <= until]
    return sum(made for made, _ in days), sum(solved for _, solved in days)


def _help(mine: PupilAggregates, today: date, week: tuple[int, int],
          goes: Mapping[tuple[str, str], LessonGo] | None = None,
          stages: Sequence[Stage] | None = None) -> tuple[HelpReason, ...]:
    reasons = []
    made, solved = week
    if made >= HELP_MIN_TRIES:
        share = solved / made
        if share < HELP_ACCURACY:
            reasons.append(HelpReason("help.accuracy_week", {
                "percent": round(100 * share), "count": made}))
    if mine.latest_puzzles is not None:
        kind, level, total, results = mine.latest_puzzles
        last = results[-STUCK_WINDOW:]
        misses = sum(1 for solved_it in last if not solved_it)
        if len(last) >= STUCK_WINDOW and misses >= STUCK_MISSES:
            reasons.append(HelpReason("help.stuck_level", {
                "kind": kind, "level": level, "sum": total,
                "misses": misses, "tries": len(last)}))
    if goes:
        stuck = _stuck_lesson(goes, stages if stages is not None else load_stages(), today)
        if stuck is not None:
            reasons.append(stuck)
    return tuple(reasons)


def dashboard(snapshot: ClassSnapshot, today: date, grid: FactGrid | None = None,
              progress: Sequence[AssignmentProgress] | None = None) -> list[PupilRow]:
    """The dashboard's rows, one per pupil, by nickname. Accuracy and "needs help" are
    about puzzles and quick facts: a game's turns feed the fact grid, but a game is not a
    test. Read from the pupils' aggregates (the snapshot's days must reach ``today``'s
    week)."""
    grid = grid if grid is not None else fact_grid(snapshot)
    progress = progress if progress is not None else assignments_progress(snapshot, today)
    stages = load_stages()
    since, until = _days(snapshot, today, WEEK_DAYS)
    groups = group_names(snapshot)
    rows = []
    for member in snapshot.members:
        pid = member.profile_id
        mine = _aggregates(snapshot, pid)
        lessons = snapshot.lessons.get(pid, {})
        summaries = stage_summaries(lessons, stages).values()
        week = _week(mine, since, until)
        practice = mine.puzzles + mine.quick_facts
        times = [a for a in [mine.last_at]
                 + [b.updated_at for b in lessons.values()]
                 + [g.updated_at for g in snapshot.lesson_goes.get(pid, {}).values()]
                 + [snapshot.last_game.get(pid)] if a is not None]
        grid_row = grid.row(pid)
        assert grid_row is not None
        rows.append(PupilRow(
            profile_id=pid, nickname=member.nickname, avatar=member.avatar,
            real_name=member.real_name, last_active=max(times) if times else None,
            lesson_stars=sum(s.stars for s in summaries),
            lesson_stars_max=sum(s.max_stars for s in summaries),
            lesson_levels=sum(s.done for s in summaries),
            puzzles=mine.puzzles, quick_facts=mine.quick_facts,
            accuracy=mine.solved / practice if practice else None,
            week_accuracy=week[1] / week[0] if week[0] else None,
            median_seconds=_median(list(mine.quick_middle)),
            fluent_additions=grid_row.count("fast", grid.additions),
            fluent_complements=grid_row.count("fast", grid.complements),
            complements=len(grid.complements),
            # Only the assignments for the pupil (the class's, their group's, their own).
            assignments_done=sum(1 for p in progress
                                 if pid in p.pupils and p.pupils[pid].complete),
            assignments=sum(1 for p in progress if pid in p.pupils),
            help=_help(mine, today, week, snapshot.lesson_goes.get(pid, {}), stages),
            game_turns=mine.game_turns, group=groups.get(member.group_id)))
    return rows


# -- assignments -----------------------------------------------------------------------

def check_assignment(kind: str, spec: Mapping[str, Any], capture_sum: int) -> dict[str, Any]:
    """An assignment's parameters, checked and in their stored shape, or
    :class:`ClassroomError` saying what is wrong (``task.*`` keys).

    - ``lesson``: ``{"stage": key}``;
    - ``puzzles``: ``{"kind", "level", "count", "capture_sum"}`` (count 1-50);
    - ``facts``: ``{"facts": [...], "capture_sum"}`` (1-20 facts a quick fact can ask);
    - ``weakest``: ``{"count", "capture_sum"}`` (1-20 facts per pupil).
    """
    if kind not in ASSIGNMENT_KINDS:
        raise ClassroomError("task.kind_unknown", name=kind)
    total = int(spec.get("capture_sum", capture_sum))
    if total not in (10, 15, 20):
        raise ClassroomError("class.capture_sum")
    if kind == "lesson":
        stage = str(spec.get("stage", ""))
        if stage not in {s.key for s in load_stages()}:
            raise ClassroomError("task.stage_unknown", stage=stage)
        return {"stage": stage}
    if kind == "puzzles":
        count = _count(spec.get("count"), MAX_PUZZLES)
        try:
            puzzle_kind, level = str(spec.get("kind")), int(spec.get("level", 0))
            check_kind_level_sum(puzzle_kind, level, total)
        except (PuzzleError, TypeError, ValueError):
            raise ClassroomError("task.puzzles_bad") from None
        if puzzle_kind == "quick-facts":
            raise ClassroomError("task.puzzles_bad")
        return {"kind": puzzle_kind, "level": level, "count": count, "capture_sum": total}
    if kind == "facts":
        facts: list[str] = []
        for raw in spec.get("facts") or ():
            fact = normalise(str(raw))
            if fact is None:
                raise ClassroomError("task.fact_unknown", fact=str(raw))
            if quick_fact_for(fact, total) is None:
                raise ClassroomError("task.fact_not_askable", fact=fact, sum=total)
            if fact not in facts:
                facts.append(fact)
        # One per question: "7+8" beside "15-7" is "7 + ? = 15" again (and one answer
        # would count for both).
        facts = one_per_question(facts, total)
        if not facts:
            raise ClassroomError("task.no_facts")
        if len(facts) > MAX_FACTS:
            raise ClassroomError("task.count", low=1, high=MAX_FACTS)
        return {"facts": facts, "capture_sum": total}
    return {"count": _count(spec.get("count"), MAX_FACTS), "capture_sum": total}


def _count(value: Any, high: int) -> int:
    try:
        count = int(value)
    except (TypeError, ValueError):
        raise ClassroomError("task.count", low=1, high=high) from None
    if isinstance(value, bool) or not 1 <= count <= high:
        raise ClassroomError("task.count", low=1, high=high)
    return count


@dataclass(frozen=True)
class PupilTask:
    """One assignment as one pupil stands with it."""

    assignment: AssignmentRow
    done: int  # puzzles recorded / facts answered / lesson levels done
    total: int
    tried: int  # attempts that counted (lesson: levels done)
    right: int | None  # puzzles solved / facts whose latest try was right
    stars: int | None  # puzzles' or the lesson's stars
    status: str  # one of TASK_STATUSES
    completed_day: str | None
    facts: tuple[str, ...] = ()  # facts and weakest: the pupil's facts to answer
    facts_left: tuple[str, ...] = ()

    @property
    def complete(self) -> bool:
        return self.done >= self.total

    @property
    def all_right(self) -> bool:
        """Every puzzle solved / every fact's latest answer right (a lesson: its levels
        done, each with its stars, so always)."""
        return self.right is None or self.right >= self.total


def task_words(task: PupilTask) -> tuple[str, dict[str, Any]]:
    """How far a pupil is with a task, done told apart from right (issue 27: "Task done!
    Well played." after 1 of 4 right): a ``classroom`` key and its parameters."""
    if not task.complete:
        return "mc.task_progress", {"done": task.done, "count": task.total}
    if task.all_right:
        return "mc.task_done", {}
    return "mc.task_done_some", {"count": task.total, "done": task.done,
                                 "right": min(task.right or 0, task.total)}


@dataclass(frozen=True)
class AssignmentProgress:
    assignment: AssignmentRow
    pupils: dict[int, PupilTask]

    @property
    def completed(self) -> int:
        return sum(1 for p in self.pupils.values() if p.complete)

    @property
    def completed_right(self) -> int:
        """Of the pupils done, those with every answer right."""
        return sum(1 for p in self.pupils.values() if p.complete and p.all_right)


def _status(complete: bool, completed_day: str | None, due: str | None, today: date) -> str:
    if complete:
        return "late" if due is not None and completed_day is not None \
            and completed_day > due else "done"
    return "overdue" if due is not None and today.isoformat() > due else "open"


def pupil_task(assignment: AssignmentRow, progress: TaskProgress | None,
               lessons: Mapping[tuple[str, str], LessonBest], today: date) -> PupilTask:
    """Where one pupil stands with one assignment (see the module doc for what counts),
    from the pupil's progress kept at write time (None: nothing counted yet)."""
    spec, kind = assignment.spec, assignment.kind
    if kind == "lesson":
        stage = next((s for s in load_stages() if s.key == spec["stage"]), None)
        keys = stage.level_keys if stage is not None else ()
        best = [lessons[(spec["stage"], k)] for k in keys if (spec["stage"], k) in lessons]
        complete = bool(keys) and len(best) == len(keys)
        day = max(b.created_at for b in best).date().isoformat() if complete else None
        return PupilTask(assignment, len(best), len(keys), len(best), None,
                         sum(b.stars for b in best),
                         _status(complete, day, assignment.due, today), day)
    if progress is None:
        progress = TaskProgress(facts=tuple(spec.get("facts", ())))
    if kind == "puzzles":
        total = spec["count"]
        complete = progress.tried >= total
        day = progress.first_days[total - 1] if complete else None
        return PupilTask(assignment, min(progress.tried, total), total, progress.tried,
                         progress.solved, progress.stars,
                         _status(complete, day, assignment.due, today), day)
    facts = progress.facts
    latest = {f: progress.fact_marks[f] for f in facts if f in progress.fact_marks}
    complete = bool(facts) and len(latest) == len(facts)
    day = max(first for first, _ in latest.values()) if complete else None
    return PupilTask(assignment, len(latest), len(facts), progress.tried,
                     sum(1 for _, right in latest.values() if right), None,
                     _status(complete, day, assignment.due, today), day, facts,
                     tuple(f for f in facts if f not in latest))


def assignments_progress(snapshot: ClassSnapshot, today: date) -> list[AssignmentProgress]:
    """Every assignment of the class with the :class:`PupilTask` of each of its pupils
    (the class's, a group's or one: ``AssignmentRow.is_for``), newest first."""
    out = []
    for assignment in sorted(snapshot.assignments, key=lambda a: a.id, reverse=True):
        out.append(AssignmentProgress(assignment, {
            m.profile_id: pupil_task(assignment,
                                     snapshot.progress.get(assignment.id, {}).get(m.profile_id),
                                     snapshot.lessons.get(m.profile_id, {}), today)
            for m in snapshot.members if assignment.is_for(m)}))
    return out


# -- groups (issue 29) -----------------------------------------------------------------

def group_names(snapshot: ClassSnapshot) -> dict[int | None, str]:
    """Group id -> its name, for the class's groups."""
    return {g.id: g.name for g in snapshot.groups}


def of_group(snapshot: ClassSnapshot, group_id: int | None) -> ClassSnapshot:
    """The snapshot with only the pupils of one group (None: every pupil), for the views'
    filter: the dashboard, the grid and the assignments drawn from it show that group."""
    if group_id is None:
        return snapshot
    return replace(snapshot, members=tuple(m for m in snapshot.members
                                           if m.group_id == group_id))


def task_puzzles(task: PupilTask, info: ClassInfo | None = None) -> list[Puzzle]:
    """What the pupil plays next for a task: the puzzles still to do (the assignment's own
    seeds, the same for every pupil), or a quick fact for each fact not answered yet (then
    the answered ones again, for practice). A lesson is played on the lessons page
    (``task.assignment.spec["stage"]``): no puzzles."""
    assignment, spec = task.assignment, task.assignment.spec
    if assignment.kind == "lesson":
        return []
    if assignment.kind == "puzzles":
        return [generate(spec["kind"], spec["level"], f"class-{assignment.id}-{i}",
                         spec["capture_sum"])
                for i in range(min(task.done, spec["count"]), spec["count"])]
    order = list(task.facts_left) + [f for f in task.facts if f not in task.facts_left]
    puzzles = [quick_fact_for(f, spec["capture_sum"]) for f in order]
    return [p for p in puzzles if p is not None]
