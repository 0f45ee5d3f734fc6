"""What a child has mastered: addition facts, their levels, and Leitner boxes.

A *fact* is one addition a child does while playing, ``a + b`` with a and b
from 1 to 10 (cards are added one at a time: 3 + 5 = 8, then 8 + 7 = 15), or
one *complement* to the capture sum (15 − 8 = 7). Additions are unordered —
3 + 5 and 5 + 3 are one fact — so there are 55 of them; complements are one
per card value. Fact keys are strings:

- ``"3+5"`` (smaller addend first; see :func:`addition`),
- ``"15-7"`` (the capture sum, then the card whose complement is asked).

Puzzles name the facts their solutions exercise in the same notation
(:func:`puzzles.model.capture_facts`); running totals above 10 (12 + 3) are
not part of the 1-10 grid and are left out here (:func:`normalise`).

Levels, in the style of Khan Academy, from a fact's answers in time order
(:func:`fact_level`):

``new``         never answered;
``attempted``   fewer than 70 % of its last 10 answers correct;
``familiar``    at least 70 % correct, but not the last three in a row;
``proficient``  its last three answers (at least three) all correct;
``fluent``      answered right within the time limit in at least two of its
                last three tries that were timed or wrong (quick facts time one
                fact exactly; a puzzle's right answer has no time of its own).
                The limit is 3 seconds, the usual fluency bar for addition facts,
                or a pupil's class's (3, 6 or 12 s): this is the rule of the
                teacher's fact grid (``trainer.classroom_views``), so a teacher,
                a parent and a child read one count of fluent facts (issue 32's
                try-out found three). :func:`fluent_in_time` is the rule.

A fluent fact need not be proficient: like XtraMath, one slip in three does not
undo fluency, two do.

Spaced practice is Leitner's: every fact sits in a box 1-5 (:func:`leitner_box`).
A right answer moves it up one box when it shows the fact is known by heart: a
quick fact answered within the fluency time (in a longer quick fact,
``3 + 5 + ? = 15``, every fact's pace is the question's time per step, the
complement asked too), or a set found in a puzzle (untimed). A right
answer slower than that was most likely counted, not remembered: the fact moves
down one box. A wrong quick fact sends the fact back to box 1; a set missed or
wrong in a puzzle moves it down one box only (overlooking a set on the table is
not an arithmetic error). Each box has its review interval (:data:`REVIEW_DAYS`:
box 1 every session, then 1, 2, 4 and 8 days). :func:`weakest_facts` orders
facts for "for me": facts in box 1 (least recently practised first), then new
facts, then the facts due for review (lowest box first), and only then facts not
yet due. docs/LEARNING.md measures what this buys on simulated children.

Pure Python: the app shapes these into pandas frames and plotly charts.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from datetime import datetime
from typing import Any

__all__ = [
    "LEVELS",
    "FLUENT_SECONDS",
    "REVIEW_DAYS",
    "Answer",
    "FactStats",
    "stats_of_fact",
    "addition",
    "complement",
    "normalise",
    "all_additions",
    "all_complements",
    "fact_level",
    "fluent_in_time",
    "timed_tail",
    "FLUENT_TRIES",
    "FLUENT_IN",
    "leitner_step",
    "leitner_box",
    "stored_answers",
    "fact_stats",
    "weakest_facts",
    "summary_line",
]

LEVELS: tuple[str, ...] = ("new", "attempted", "familiar", "proficient", "fluent")
FLUENT_SECONDS = 3.0
#: "Fluent": of a fact's last FLUENT_TRIES tries with a time or wrong, FLUENT_IN right in time.
FLUENT_TRIES = 3
FLUENT_IN = 2
RECENT = 10          # answers that count towards accuracy
PROFICIENT_RUN = 3   # correct answers in a row for proficient
FAMILIAR_ACCURACY = 0.7
BOXES = 5
#: Days between reviews of a fact in box 1, 2, ... 5 (Leitner's expanding intervals).
REVIEW_DAYS: tuple[int, ...] = (0, 1, 2, 4, 8)

_ADDITION = re.compile(r"^\s*(\d+)\s*\+\s*(\d+)\s*$")
_COMPLEMENT = re.compile(r"^\s*(\d+)\s*-\s*(\d+)\s*$")


def addition(a: int, b: int) -> str:
    """The key of the fact a + b (unordered): ``addition(8, 3) == "3+8"``."""
    if not (1 <= a <= 10 and 1 <= b <= 10):
        raise ValueError(f"addition facts use 1-10, got {a} + {b}")
    return f"{min(a, b)}+{max(a, b)}"


def complement(capture_sum: int, value: int) -> str:
    """The key of "what makes ``capture_sum`` with ``value``": ``"15-7"``."""
    if not 1 <= value <= 10 or not value < capture_sum:
        raise ValueError(f"no complement of {value} to {capture_sum}")
    return f"{capture_sum}-{value}"


def normalise(fact: str) -> str | None:
    """A fact key in canonical form, or ``None`` if it is outside the facts tracked.

    ``"8+3"`` -> ``"3+8"``; ``"12+3"`` -> ``None`` (a running total past 10);
    ``"15-7"`` stays; anything unreadable -> ``None``.
    """
    if not isinstance(fact, str):
        return None
    return _normalise_text(fact)


@functools.lru_cache(maxsize=4096)
def _normalise_text(fact: str) -> str | None:
    # Cached: a year of answers names a few hundred distinct keys, and mastery reads
    # every answer's key each time it is computed.
    m = _ADDITION.match(fact)
    if m:
        a, b = int(m.group(1)), int(m.group(2))
        return addition(a, b) if 1 <= a <= 10 and 1 <= b <= 10 else None
    m = _COMPLEMENT.match(fact)
    if m:
        total, value = int(m.group(1)), int(m.group(2))
        return f"{total}-{value}" if total in (10, 15, 20) and 1 <= value <= 10 \
            and value < total else None
    return None


def all_additions() -> list[str]:
    """The 55 addition facts, 1+1 ... 10+10."""
    return [addition(a, b) for a in range(1, 11) for b in range(a, 11)]


def all_complements(capture_sum: int = 15) -> list[str]:
    """The complement facts of a capture sum: ``15-5`` ... ``15-10`` for 15.

    Only values whose complement is a card value (1-10) are a fact a child
    meets at the table: with 15, a 4 needs 11, which is never one card.
    """
    return [complement(capture_sum, v) for v in range(1, 11)
            if 1 <= capture_sum - v <= 10]


@dataclass(frozen=True, slots=True)
class Answer:
    """One answer that exercised a fact: right or wrong, and how long it took.

    ``seconds`` is set only when the answer timed this one fact (quick facts);
    a puzzle's time covers many facts and does not count towards fluency.
    ``step_seconds`` is set for a step of a longer quick fact (the ``3 + 5`` of
    ``3 + 5 + ? = 15``): the question's time per step. It is no fluency evidence
    (which step was slow?), but it is how :func:`leitner_box` tells a step worked out
    quickly from one counted. ``steps`` is how many steps the question that timed this
    answer had: the complement asked in ``3 + 5 + ? = 15`` is timed by the whole
    question (fluency evidence as before), but its pace is the time per step.

    ``weighs``: counted in the level's accuracy, the Leitner box and the figures;
    ``fluency``: read by the fluent rule (:func:`fluent_in_time`). A game gives each of
    its turns' answers for the fluent rule only (the teacher's fact grid reads every
    turn) and one right and one wrong answer per fact that weigh only
    (``trainer.evidence.game_answers``: a game weighs like one puzzle).
    """

    fact: str
    correct: bool
    when: datetime
    seconds: float | None = None
    step_seconds: float | None = None
    steps: int = 1
    weighs: bool = True
    fluency: bool = True

    @property
    def pace(self) -> float | None:
        """The time this answer took for the fact: its question's time per step (one step:
        its own time), else the untimed step's share."""
        if self.seconds is not None:
            return self.seconds / max(1, self.steps)
        return self.step_seconds


@dataclass(frozen=True)
class FactStats:
    """Everything the charts and "for me" need about one fact."""

    fact: str
    level: str
    box: int
    answers: int
    correct: int
    accuracy: float | None
    median_seconds: float | None
    last_seen: datetime | None
    history: tuple[bool, ...] = field(default=(), repr=False)
    #: What the level is read at: the fluency time limit, the fact's last tries with a
    #: time or wrong (right, seconds), and its level without the speed (so
    #: :meth:`at_limit` reads it again at a class's limit without the answers).
    limit: float = FLUENT_SECONDS
    timed_tail: tuple[tuple[bool, float | None], ...] = field(default=(), repr=False)
    untimed_level: str = "new"

    def at_limit(self, limit: float) -> FactStats:
        """These stats with "fluent" read at another time limit (a pupil's class's)."""
        if limit == self.limit:
            return self
        fluent = fluent_in_time(self.timed_tail, limit)
        return replace(self, level="fluent" if fluent else self.untimed_level, limit=limit)


def timed_tail(tries: Iterable[tuple[bool, float | None]]) -> list[tuple[bool, float | None]]:
    """The last :data:`FLUENT_TRIES` of ``tries`` ``(right, seconds)``, oldest first, that
    say anything of speed: timed, or wrong (a right answer without a time, a set found in
    a puzzle, is passed over)."""
    return [(right, seconds) for right, seconds in tries
            if seconds is not None or not right][-FLUENT_TRIES:]


def fluent_in_time(tries: Sequence[tuple[bool, float | None]], limit: float) -> bool:
    """Whether a fact is fluent from its tries ``(right, seconds)``, oldest first (all of
    them, or at least the last :data:`FLUENT_TRIES` with a time or wrong): at least
    :data:`FLUENT_IN` of its last :data:`FLUENT_TRIES` tries that were timed or wrong
    were right within ``limit`` seconds. A right answer without a time (a set found in a
    puzzle) says nothing of speed and is passed over; a wrong one counts wherever."""
    return sum(1 for right, seconds in timed_tail(tries)
               if right and seconds is not None and seconds <= limit) >= FLUENT_IN


def fact_level(answers: Sequence[Answer], limit: float = FLUENT_SECONDS) -> str:
    """The level of one fact from its answers in time order (see the module doc)."""
    weighed = [a for a in answers if a.weighs]
    if not weighed:
        return "new"
    if fluent_in_time([(a.correct, a.seconds) for a in answers if a.fluency], limit):
        return "fluent"
    return _untimed_level(weighed)


def _untimed_level(answers: Sequence[Answer]) -> str:
    """The level without the speed: attempted, familiar or proficient (new: none)."""
    if not answers:
        return "new"
    run = answers[-PROFICIENT_RUN:]
    if len(run) == PROFICIENT_RUN and all(a.correct for a in run):
        return "proficient"
    recent = answers[-RECENT:]
    accuracy = sum(a.correct for a in recent) / len(recent)
    return "familiar" if accuracy >= FAMILIAR_ACCURACY else "attempted"


def stored_answers(kind: str, facts: Sequence[str], seconds: float,
                   answers: Iterable[Sequence[Any]], when: datetime) -> list[Answer]:
    """The mastery answers of one stored attempt (its ``kind``, ``facts``, ``seconds``
    and ``answers`` as ``[fact, correct, seconds|None]``). The untimed steps of a quick
    fact with several addends (``3+5`` in ``3 + 5 + ? = 15``) carry the question's time
    per step (``step_seconds``)."""
    steps = max(1, sum(1 for f in facts if "+" in f)) if kind == "quick-facts" else 0
    return [Answer(fact, bool(correct), when, secs,
                   seconds / steps if steps and secs is None else None, max(1, steps))
            for fact, correct, secs in answers]


def leitner_step(box: int, correct: bool, pace: float | None) -> int:
    """The Leitner box after one more answer (see the module doc): up one when right
    within the fluency time (or untimed: a puzzle), down one when right but slower (it
    was counted) or wrong in a puzzle; a wrong quick fact sends the fact back to 1.
    Kept at write time too (``trainer.storage.aggregates``: a fact's box per pupil)."""
    if correct and (pace is None or pace <= FLUENT_SECONDS):
        return min(BOXES, box + 1)
    if correct or pace is None:
        return max(1, box - 1)
    return 1


def leitner_box(answers: Sequence[Answer]) -> int:
    """The Leitner box 1-5 after these answers, in time order (:func:`leitner_step`)."""
    box = 1
    for answer in answers:
        box = leitner_step(box, answer.correct, answer.pace)
    return box


def _median(values: list[float]) -> float | None:
    if not values:
        return None
    ordered = sorted(values)
    mid = len(ordered) // 2
    return ordered[mid] if len(ordered) % 2 else (ordered[mid - 1] + ordered[mid]) / 2


def fact_stats(answers: Iterable[Answer], facts: Iterable[str] = (),
               limit: float = FLUENT_SECONDS) -> dict[str, FactStats]:
    """Stats per fact from every answer (any order); ``facts`` adds facts never answered;
    "fluent" read at ``limit`` seconds."""
    by_fact: dict[str, list[Answer]] = {}
    for answer in answers:
        key = normalise(answer.fact)
        if key is not None:
            by_fact.setdefault(key, []).append(answer)
    for fact in facts:
        key = normalise(fact)
        if key is not None:
            by_fact.setdefault(key, [])
    return {key: stats_of_fact(key, items, limit) for key, items in by_fact.items()}


def stats_of_fact(key: str, answers: Sequence[Answer],
                  limit: float = FLUENT_SECONDS) -> FactStats:
    """:class:`FactStats` of the fact ``key`` (normalised) from its answers, any order
    (sorted by time here; answers at the same time keep their order), "fluent" read
    at ``limit`` seconds."""
    ordered = sorted(answers, key=lambda a: a.when)
    items = [a for a in ordered if a.weighs]
    correct = sum(a.correct for a in items)
    tail = tuple(timed_tail((a.correct, a.seconds) for a in ordered if a.fluency))
    untimed = _untimed_level(items)
    return FactStats(
        fact=key,
        level="fluent" if items and fluent_in_time(tail, limit) else untimed,
        limit=limit, timed_tail=tail, untimed_level=untimed,
        box=leitner_box(items),
        answers=len(items),
        correct=correct,
        accuracy=correct / len(items) if items else None,
        median_seconds=_median([a.seconds for a in items
                                if a.seconds is not None and a.correct]),
        last_seen=items[-1].when if items else None,
        history=tuple(a.correct for a in items),
    )


def weakest_facts(stats: Mapping[str, FactStats], candidates: Iterable[str],
                  count: int = 5, now: datetime | None = None) -> list[str]:
    """The ``count`` facts among ``candidates`` that most need practice now.

    First the facts in box 1 (answered, not yet known: least recently practised first,
    so a round interleaves them rather than repeating the same ones); then facts never
    answered, in the order of ``candidates`` (the caller decides which come first);
    then facts due for review (:data:`REVIEW_DAYS` after they were last seen: lowest
    box first, then the longest overdue); last, facts not due yet (lowest box, least
    recently seen). ``now`` defaults to the latest answer in ``stats``.
    """
    order: dict[str, int] = {}
    for c in candidates:
        f = normalise(c)
        if f is not None:
            order.setdefault(f, len(order))
    if now is None:
        seen = [s.last_seen for s in stats.values() if s.last_seen is not None]
        now = max(seen) if seen else None

    def key(fact: str) -> tuple:
        s = stats.get(fact)
        if s is None or s.answers == 0 or s.last_seen is None:
            return (1, 0, float(order[fact]), fact)
        seen = s.last_seen.timestamp()
        if s.box == 1:
            return (0, 0, seen, fact)
        days = (now.date() - s.last_seen.date()).days if now is not None else 0
        overdue = days - REVIEW_DAYS[s.box - 1]
        if overdue >= 0:
            return (2, s.box, -overdue, fact)
        return (3, s.box, seen, fact)

    return sorted(order, key=key)[:count]


def summary_line(stats: Mapping[str, FactStats]) -> tuple[str, dict[str, object]]:
    """The parent's one-line reading, as a message key and parameters.

    ``("mastery_summary", {"fluent": 41, "total": 55, "slowest": "6+9", "limit": "3",
    "timed": True})``; ``slowest`` is the addition not fluent with the highest median
    correct time, if any (``timed``: whether any addition was timed at all); ``limit``
    the seconds "fluent" was read at (the stats' own: 3, or a pupil's class's).
    """
    additions = [s for k, s in stats.items() if "+" in k]
    fluent = sum(1 for s in additions if s.level == "fluent")
    timed = [s for s in additions if s.median_seconds is not None]
    # The slowest of those not fluent: a fact slow over a year but fluent now read as a
    # contradiction beside its colour ("timed": whether any was timed at all).
    slow = [s for s in timed if s.level != "fluent"]
    slowest = max(slow, key=lambda s: s.median_seconds or 0.0).fact if slow else None
    limit = next(iter(stats.values())).limit if stats else FLUENT_SECONDS
    return ("mastery_summary", {"fluent": fluent, "total": 55, "slowest": slowest,
                                "limit": f"{limit:g}", "timed": bool(timed)})
