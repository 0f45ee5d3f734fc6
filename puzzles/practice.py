"""Practice "for me": which facts an attempt exercised, and puzzles that target weak facts.

Pure Python on top of :mod:`puzzles` and :mod:`puzzles.mastery` (no Streamlit,
no database): the app stores what :func:`attempt_answers` returns and feeds
it back to :func:`puzzles.mastery.fact_stats`.

How an attempt counts for the facts (our reading of issue 6):

- a fact of a solution the child **found** is answered right;
- a fact only of solutions the child **missed** is answered wrong (a found
  solution using the same fact wins: the child did that addition);
- a **wrong set** answers wrong the complement it got wrong: what the played
  card needed (``15-7`` for a wrong set with the 7), or for a fifteens group
  what its largest card needed;
- saying "none" when there was something to find, or answering nothing on a
  "none" puzzle, exercises no fact (the attempt still counts as wrong);
- **quick facts** time one fact exactly: the complement asked (``8 + ? = 15``
  is ``15-8``, the same act as the addition ``7+8``, which gets the same
  time). The running additions before it (``2+6`` in ``2 + 6 + ? = 15``) are
  right with a right answer, but timed only when the whole answer came
  within :data:`~puzzles.mastery.FLUENT_SECONDS` (then each step surely did);
  a wrong answer counts against the complement asked only.

Puzzle answers are never timed per fact: a puzzle's time covers many facts.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import date, datetime, timedelta
from typing import Any

from escoba.cards import CARDS

from .checker import CheckResult
from .grading import QUICK_BANDS, level_of, quick_difficulty, quick_stats
from .kinds import facts_by_answer, generate, normalise_seed
from .mastery import (
    FLUENT_SECONDS,
    Answer,
    FactStats,
    all_additions,
    all_complements,
    normalise,
    stored_answers,
    weakest_facts,
)
from .model import Puzzle, Solution, addition_facts
from .pool import POOL_PREFIX, POOL_SIZE, offset_of, pool_facts
from .rng import Rng

__all__ = ["Attempt", "FactAnswer", "attempt_answers", "answers_from_rows", "quick_fact",
           "quick_facts_set", "quick_question_text", "quick_fact_addends",
           "quick_fact_for", "quick_fact_key", "puzzle_for", "for_me_quick_facts", "for_me_puzzle",
           "practice_candidates", "askable_facts", "assignable_facts", "one_per_question",
           "weakest_questions", "puzzle_candidates", "suggested_level",
           "streaks", "FOR_ME_KINDS", "for_me_kinds", "ForMePath", "LevelWalk"]

#: The kinds "for me" draws puzzles from (best-move exercises judgement, not facts).
FOR_ME_KINDS: tuple[str, ...] = ("captures", "fifteens", "hand")
#: Joins the turns once the child has practised it (:func:`for_me_kinds`).
SCOPA_KIND = "scopa"
#: Seeds a "for me" puzzle is chosen among.
FOR_ME_TRIES = 40


#: One fact an attempt answered: ``(fact, correct, seconds or None)``.
FactAnswer = tuple[str, bool, float | None]


@dataclass(frozen=True, slots=True)
class Attempt:
    """One puzzle or quick-fact attempt, as the app records it and storage keeps it.

    Built by :meth:`of` from a puzzle and its :class:`~puzzles.checker.CheckResult`;
    ``id`` and ``created_at`` are set by storage when it is read back.
    """

    day: str  # the child's local date, YYYY-MM-DD
    mode: str  # practice | for-me | daily | daily-replay | quick
    puzzle_id: str
    kind: str
    level: int
    capture_sum: int
    facts: tuple[str, ...]  # the puzzle's facts (what its solutions add)
    answers: tuple[FactAnswer, ...]  # the facts this attempt answered (attempt_answers)
    answer: tuple[Any, ...]  # what the child gave (JSON-ready)
    correct: bool  # solved: nothing missed, nothing wrong
    found: int
    missed: int
    wrong: int
    seconds: float  # time taken
    hints: int
    stars: int
    fact: str | None = None  # quick facts: the one fact asked ("15-8")
    daily_date: str | None = None  # a daily puzzle's date
    id: int | None = field(default=None, compare=False)
    created_at: datetime | None = field(default=None, compare=False)

    def __post_init__(self) -> None:
        # Lists from JSON or a caller become tuples: an attempt is a value.
        set_ = object.__setattr__
        set_(self, "facts", tuple(str(f) for f in self.facts))
        set_(self, "answers", tuple(_fact_answer(a) for a in self.answers))
        set_(self, "answer", tuple(self.answer))
        set_(self, "correct", bool(self.correct))

    @property
    def fact_seconds(self) -> float | None:
        """A quick fact's response time: its whole time (one fact is asked)."""
        return self.seconds if self.kind == "quick-facts" else None

    @classmethod
    def of(cls, puzzle: Puzzle, result: CheckResult, seconds: float, answer: Sequence[Any],
           mode: str, day: date) -> Attempt:
        """The attempt a child made at ``puzzle`` on ``day`` (their local date)."""
        timed = seconds if puzzle.kind == "quick-facts" else None
        return cls(
            day=day.isoformat(), mode=mode, puzzle_id=puzzle.id, kind=puzzle.kind,
            level=puzzle.level, capture_sum=puzzle.capture_sum, facts=puzzle.facts,
            answers=tuple(attempt_answers(puzzle, result, timed)),
            answer=tuple(a if isinstance(a, str | int) else dict(a) for a in answer),
            correct=result.solved, found=len(result.found),
            missed=len(result.missed) + int(result.missed_none), wrong=len(result.wrong),
            seconds=float(seconds), hints=result.hints, stars=result.stars,
            fact=quick_fact_key(puzzle) if puzzle.kind == "quick-facts" else None)


def _fact_answer(item: Sequence[Any]) -> FactAnswer:
    fact, correct, secs = (list(item) + [None, None, None])[:3]
    return (str(fact), bool(correct), float(secs) if secs is not None else None)


def quick_fact_key(puzzle: Puzzle) -> str:
    """The one fact a quick-facts puzzle asks: ``8 + ? = 15`` -> ``"15-8"``."""
    return f"{puzzle.capture_sum}-{sum(puzzle.addends)}"


def attempt_answers(puzzle: Puzzle, result: CheckResult,
                    seconds: float | None = None) -> list[tuple[str, bool, float | None]]:
    """The facts an attempt answered: ``[(fact, correct, seconds or None), ...]``.

    Facts are canonical (:func:`~puzzles.mastery.normalise`); facts outside
    the tracked ones (running totals past 10) are left out. See the module doc.
    """
    out: dict[str, tuple[bool, float | None]] = {}

    def put(fact: str, correct: bool, secs: float | None = None) -> None:
        key = normalise(fact)
        if key is not None and key not in out:  # the first word on a fact stands
            out[key] = (correct, secs)

    if puzzle.kind == "quick-facts":
        solution = puzzle.solutions[0]
        asked = quick_fact_key(puzzle)
        final = solution.facts[-2] if len(solution.facts) >= 2 else None  # "8+7"
        if result.solved:
            put(asked, True, seconds)
            if final:
                put(final, True, seconds)
            fast = seconds is not None and seconds <= FLUENT_SECONDS
            for fact in solution.facts:
                put(fact, True, seconds if fast else None)
        else:
            put(asked, False, seconds)
            if final and len(puzzle.addends) == 1:
                put(final, False, seconds)
        return [(f, c, s) for f, (c, s) in out.items()]

    wrong_facts: list[str] = []
    for wrong in result.wrong:
        # A refused Scopa sum (3 + 2 for a 6) is no wrong complement: Scopa has none
        # (as trainer/evidence.py reads a refused sum in a Scopa game).
        if wrong.key != "wrong_sum" or puzzle.kind == "scopa":
            continue
        if wrong.card is not None:
            wrong_facts.append(f"{puzzle.capture_sum}-{wrong.card.value}")
        elif wrong.take:
            wrong_facts.append(f"{puzzle.capture_sum}-{max(c.value for c in wrong.take)}")
    found = [f for sol in result.found for f in sol.facts]
    missed = [f for sol in result.missed for f in sol.facts]
    # A wrong set's complement is wrong even if a found set used it; a found fact is
    # right even if a missed set used it too.
    for fact in wrong_facts:
        put(fact, False)
    for fact in found:
        put(fact, True)
    for fact in missed:
        put(fact, False)
    return [(f, c, s) for f, (c, s) in out.items()]


def answers_from_rows(rows: Iterable[Attempt]) -> list[Answer]:
    """Mastery answers from stored attempts, in their order
    (:func:`puzzles.mastery.stored_answers`)."""
    return [answer for row in rows for answer in
            stored_answers(row.kind, row.facts, row.seconds, row.answers, row.created_at)]


# -- quick facts for a fact ----------------------------------------------------------------

def quick_question_text(addends: Sequence[int], capture_sum: int,
                        answer: int | None = None) -> str:
    """A quick fact as a child reads it, digits and signs only: ``"3 + 4 + ? = 15"`` (or,
    with the answer, ``"3 + 4 + 8 = 15"``). The one way it is written: the round, the
    teacher's picker and the grid's history say the same question the same way."""
    blank = "?" if answer is None else str(answer)
    return " + ".join(map(str, addends)) + f" + {blank} = {capture_sum}"


def quick_fact_addends(puzzle_id: str) -> tuple[int, ...] | None:
    """The addends a :func:`quick_fact`'s id names (its seed ``custom-3.4``), or None for
    any other id: what an attempt, which keeps the id, was asked."""
    kind, _sep, seed = puzzle_id.rpartition(":")
    if not kind.startswith("quick-facts:") or not seed.startswith(_QUICK_SEED):
        return None
    try:
        return tuple(int(n) for n in seed.removeprefix(_QUICK_SEED).split("."))
    except ValueError:
        return None


_QUICK_SEED = "custom-"


def quick_fact(addends: Sequence[int], capture_sum: int = 15) -> Puzzle:
    """The quick-facts puzzle ``a + b + ? = capture_sum`` for these known addends.

    Graded like generated quick facts. Its seed is ``custom-2.6`` (the addends),
    like :func:`puzzles.from_cards`: kept with ``to_dict``, not regenerated.
    """
    values = tuple(int(a) for a in addends)
    missing = capture_sum - sum(values)
    if not 1 <= len(values) <= 3 or not all(1 <= v <= 10 for v in values) \
            or not 1 <= missing <= 10:
        raise ValueError(f"no quick fact {' + '.join(map(str, values))} + ? = {capture_sum}")
    shown, seen = [], {}
    for v in values:  # equal values get different suits
        k = seen.get(v, 0)
        seen[v] = k + 1
        shown.append(CARDS[(v - 1) * 4 + k])
    facts = addition_facts([*values, missing]) + (f"{capture_sum}-{sum(values)}",)
    level = level_of(quick_difficulty(values, capture_sum)[0], QUICK_BANDS[capture_sum])
    seed = _QUICK_SEED + ".".join(map(str, values))
    return Puzzle("quick-facts", level, capture_sum, seed, table=tuple(shown),
                  solutions=(Solution(value=missing, facts=facts),),
                  stats=quick_stats(values, capture_sum), addends=values)


#: How much more often than its share one answer may come in a set of quick facts (the
#: price of not repeating a question in a level with few facts for some answers).
ANSWER_SPREAD = 1.8


def quick_facts_set(level: int, count: int, seed: int | str = 0,
                    capture_sum: int = 15) -> list[Puzzle]:
    """``count`` quick facts of a level for one round or one worksheet, the same for the
    same seed: the answers spread over the level's answers (none more than
    ``ANSWER_SPREAD`` times its share), and no question twice (the same addends in any
    order) while the level has one not yet asked (issue 33: level 1's facts mostly miss
    a 5; a sheet drawn at random had twelve answers of 5 in twenty)."""
    rng = Rng("quick-set", normalise_seed(seed), level, capture_sum)
    grouped = facts_by_answer(level, capture_sum)
    uses = dict.fromkeys(grouped, 0)
    asked: dict[tuple[int, ...], int] = {}

    def times(addends: tuple[int, ...]) -> int:
        return asked.get(tuple(sorted(addends)), 0)

    out: list[Puzzle] = []
    for n in range(1, count + 1):
        # A new question while its answer stays under ANSWER_SPREAD times its share so
        # far; else (the level has no other) the least used answer again, a repeat.
        limit = max(1, math.ceil(ANSWER_SPREAD * n / len(grouped)))
        fresh = [a for a in sorted(grouped) if uses[a] < limit
                 and any(times(f) == 0 for f in grouped[a])]
        if fresh:
            answer = rng.choice([a for a in fresh if uses[a] == min(uses[b] for b in fresh)])
            addends = rng.choice([f for f in grouped[answer] if times(f) == 0])
        else:  # a repeat: the least used answer first (a spread of answers matters
            # more than a question seen again), its least asked question
            fewest = min(uses.values())
            answer = rng.choice([a for a in sorted(grouped) if uses[a] == fewest])
            least = min(times(f) for f in grouped[answer])
            addends = rng.choice([f for f in grouped[answer] if times(f) == least])
        uses[answer] += 1
        asked[tuple(sorted(addends))] = times(addends) + 1
        out.append(quick_fact(addends, capture_sum))
    return out


@functools.lru_cache(maxsize=1024)
def quick_fact_for(fact: str, capture_sum: int = 15) -> Puzzle | None:
    """A quick fact that exercises ``fact`` with this capture sum, or ``None`` if none can.

    ``"15-8"`` -> ``8 + ? = 15``; ``"7+8"`` (a pair making the sum) -> ``7 + ? = 15``;
    ``"3+5"`` -> ``3 + 5 + ? = 15``; ``"1+1"`` -> ``1 + 1 + 3 + ? = 15`` (a third
    addend brings the total within ten of the sum). Cached: every "for me" round asks
    it of every candidate fact, and a puzzle is an immutable value.
    """
    key = normalise(fact)
    if key is None:
        return None
    if "-" in key:
        total, value = map(int, key.split("-"))
        if total != capture_sum or not 1 <= capture_sum - value <= 10:
            return None
        return quick_fact([value], capture_sum)
    a, b = map(int, key.split("+"))
    if a + b == capture_sum:
        return quick_fact([a], capture_sum)
    if a + b >= capture_sum:
        return None
    if capture_sum - (a + b) <= 10:
        return quick_fact([a, b], capture_sum)
    third = capture_sum - 10 - (a + b)
    return quick_fact([a, b, third], capture_sum) if 1 <= third <= 10 else None


@functools.cache
def askable_facts(capture_sum: int = 15) -> tuple[str, ...]:
    """The facts a quick fact with this sum can ask, in the order new facts are taught
    (a teacher's *facts* and *weakest* assignments choose among them)."""
    return tuple(f for f in practice_candidates(capture_sum)
                 if quick_fact_for(f, capture_sum) is not None)


def practice_candidates(capture_sum: int = 15) -> list[str]:
    """Facts "for me" practises, in the order new ones are introduced: the capture sum's
    complements (the heart of the game), then the 55 additions, easiest first (by the
    level of the quick fact that asks them, then by their sum)."""
    return list(_candidates(capture_sum))


@functools.lru_cache(maxsize=4)
def _candidates(capture_sum: int) -> tuple[str, ...]:
    def order(fact: str) -> tuple[int, int]:
        quick = quick_fact_for(fact, capture_sum)
        a, b = map(int, fact.split("+"))
        return (quick.level if quick is not None else 9, a + b)

    return tuple(all_complements(capture_sum)) + tuple(sorted(all_additions(), key=order))


def puzzle_candidates(capture_sum: int = 15) -> list[str]:
    """The facts a puzzle of this capture sum can exercise: every complement, and the
    additions whose sum is at most the capture sum (8 + 9 never happens on the way to
    15: a "for me" puzzle aimed at it would be aimed at nothing)."""
    return [f for f in practice_candidates(capture_sum)
            if "-" in f or sum(map(int, f.split("+"))) <= capture_sum]


def one_per_question(facts: Iterable[str], capture_sum: int = 15) -> list[str]:
    """``facts`` in their order, each quick question once: two facts can be one question
    (``15-7`` and ``7+8`` are both ``7 + ? = 15``), and the first of them stands for it.
    A child asked it twice in a row read it as a mistake; a teacher who picked "7 + 8"
    beside "7 + ? = 15" saw the same question asked twice and the assignment done early
    (one answer counted for both). Facts no quick fact asks are left out."""
    seen: set[str] = set()
    out: list[str] = []
    for fact in facts:
        puzzle = quick_fact_for(fact, capture_sum)
        if puzzle is not None and puzzle.id not in seen:
            seen.add(puzzle.id)
            out.append(fact)
    return out


@functools.cache
def assignable_facts(capture_sum: int = 15) -> tuple[str, ...]:
    """The facts a teacher's quick-facts assignment offers: :func:`askable_facts`, one
    per question (the complements first, so ``15-7`` stands for ``7 + ? = 15``)."""
    return tuple(one_per_question(askable_facts(capture_sum), capture_sum))


def weakest_questions(stats: Mapping[str, FactStats], capture_sum: int = 15,
                      count: int = 5) -> list[str]:
    """The child's ``count`` weakest facts that a quick fact can ask, each question once
    (a *weakest* assignment's facts, a "for me" round's)."""
    usable = askable_facts(capture_sum)
    return one_per_question(weakest_facts(stats, usable, count=len(usable)),
                            capture_sum)[:count]


def for_me_quick_facts(stats: Mapping[str, FactStats], capture_sum: int = 15,
                       count: int = 5) -> list[Puzzle]:
    """A round of quick facts for the child's weakest facts that a quick fact can ask,
    each question once (:func:`one_per_question`), those last answered wrong first: the
    next round started with the same facts in the same order (the least recently
    practised first is the order they were answered in), the one missed in the middle
    (found trying it as a child)."""
    facts = weakest_questions(stats, capture_sum, count)

    def right_last(fact: str) -> bool:
        history = stats[fact].history if fact in stats else ()
        return not history or history[-1]

    return [puzzle for fact in sorted(facts, key=right_last)
            if (puzzle := quick_fact_for(fact, capture_sum)) is not None]


# -- puzzles for facts ---------------------------------------------------------------------

def puzzle_for(targets: Sequence[str], kind: str, level: int, capture_sum: int = 15, *,
               prefix: str = POOL_PREFIX, tries: int = 40, start: int = 0) -> Puzzle:
    """The puzzle among seeds ``prefix-start`` .. ``prefix-(start+tries-1)`` of a kind and
    level whose facts cover the most ``targets`` (earlier targets weigh more).

    With the pool's prefix (the default) the seeds wrap round at the pool's end and
    their facts are read from the pool (:mod:`puzzles.pool`): only the puzzle kept is
    generated; any other prefix generates each seed. Always returns a puzzle (the first
    seed if none covers a target).
    """
    wanted = [f for f in (normalise(t) for t in targets) if f is not None]
    weights = {f: len(wanted) - i for i, f in enumerate(wanted)}
    in_pool = prefix == POOL_PREFIX
    pooled = pool_facts(kind, level, capture_sum) if in_pool else None
    best: tuple[int, str] | None = None
    for i in range(start, start + tries):
        index = i % POOL_SIZE if in_pool else i
        seed = f"{prefix}-{index}"
        if pooled is not None:
            facts = pooled[index]
        else:  # another prefix, or no pool file: the same seeds, generated
            facts = frozenset(normalise(f) for f in generate(kind, level, seed,
                                                              capture_sum).facts)
        score = sum(w for f, w in weights.items() if f in facts)
        if best is None or score > best[0]:
            best = (score, seed)
        if weights and score == sum(weights.values()):
            break
    assert best is not None
    return generate(kind, level, best[1], capture_sum)


@dataclass(frozen=True, slots=True)
class LevelWalk:
    """Where :func:`suggested_level` stands after some of a kind's history: the level and
    the runs of 3-star solves and of unsolved at it."""

    level: int = 1
    run_good: int = 0
    run_bad: int = 0

    def step(self, level: int, stars: int, solved: bool) -> LevelWalk:
        """After one more attempt ``(level, stars, solved)``: three 3-star solves in a row
        at the current level go one up, two unsolved in a row one down; an attempt at
        another level changes nothing."""
        if level != self.level:
            return self
        good, bad = self.run_good, self.run_bad
        if solved and stars == 3:
            good, bad = good + 1, 0
        elif not solved:
            good, bad = 0, bad + 1
        else:
            good = bad = 0
        if good >= 3 and self.level < 5:
            return LevelWalk(self.level + 1, 0, bad)
        if bad >= 2 and self.level > 1:
            return LevelWalk(self.level - 1, good, 0)
        return LevelWalk(self.level, good, bad)


def suggested_level(history: Sequence[tuple[int, int, bool]]) -> int:
    """The level to offer next from ``(level, stars, solved)`` of one kind, oldest first.

    Start at 1; after three 3-star solves in a row at the current level, one up;
    after two unsolved in a row, one down.
    """
    walk = LevelWalk()
    for lvl, stars, solved in history:
        walk = walk.step(lvl, stars, solved)
    return walk.level


def for_me_kinds(history: Sequence[Attempt]) -> tuple[str, ...]:
    """The kinds "for me" takes turns with: :data:`FOR_ME_KINDS`, and Scopa once the
    child has answered a Scopa puzzle. A child learning Escoba is not handed another
    game's rule unasked (a 7 that must take the 7 contradicts the 15 they practise);
    a child who chose Scopa puzzles has that game's additions to practise too."""
    return ForMePath.of(history).kinds()


@dataclass(frozen=True, slots=True)
class ForMePath:
    """What "for me" reads of a child's history, kept as it grows (issue 32): the number
    of "for me" puzzles answered, whether a Scopa puzzle was, and each kind's
    :class:`LevelWalk` per capture sum. :meth:`add` continues it with newer attempts, so
    the next puzzle is chosen without reading a year of attempts again (about 0.2 s on
    SQLite for a child's year, at every puzzle)."""

    answered: int = 0
    scopa_seen: bool = False
    walks: tuple[tuple[tuple[str, int], LevelWalk], ...] = ()

    @classmethod
    def of(cls, history: Sequence[Attempt]) -> ForMePath:
        return cls().add(history)

    def add(self, rows: Iterable[Attempt]) -> ForMePath:
        """This path continued by ``rows`` (attempts newer than any it has, oldest first)."""
        answered, scopa_seen, walks = self.answered, self.scopa_seen, dict(self.walks)
        for r in rows:
            answered += r.mode == "for-me"
            scopa_seen = scopa_seen or r.kind == SCOPA_KIND
            key = (r.kind, r.capture_sum)
            walks[key] = walks.get(key, LevelWalk()).step(r.level, r.stars, r.correct)
        return ForMePath(answered, scopa_seen, tuple(walks.items()))

    def kinds(self) -> tuple[str, ...]:
        """:func:`for_me_kinds` of the history."""
        return (*FOR_ME_KINDS, SCOPA_KIND) if self.scopa_seen else FOR_ME_KINDS

    def level(self, kind: str, capture_sum: int) -> int:
        """:func:`suggested_level` of the history's attempts of ``kind`` at ``capture_sum``."""
        return dict(self.walks).get((kind, capture_sum), LevelWalk()).level


def for_me_puzzle(stats: Mapping[str, FactStats], history: Sequence[Attempt] | ForMePath,
                  capture_sum: int = 15, number: int = 0, *,
                  prefix: str = POOL_PREFIX) -> tuple[Puzzle, list[str]]:
    """The next "for me" puzzle and the weak facts it was chosen for.

    ``history`` are stored attempts, oldest first, or their :class:`ForMePath`; kinds take
    turns (``number``, over :func:`for_me_kinds`), each at :func:`suggested_level`. The
    puzzle is the best of :data:`FOR_ME_TRIES` seeds of the kind's pool
    (:mod:`puzzles.pool`), from ``prefix``'s offset and :data:`FOR_ME_TRIES` further at
    each puzzle of the kind (the app gives each profile its own prefix, so children do
    not all start with the same puzzles).
    """
    path = history if isinstance(history, ForMePath) else ForMePath.of(history)
    kinds = path.kinds()
    kind = kinds[number % len(kinds)]
    level = path.level(kind, capture_sum)
    targets = weakest_facts(stats, puzzle_candidates(capture_sum), count=3)
    # The kind's pool from the child's own offset, 40 seeds further at each puzzle of the
    # kind: every seed of it is read before one comes back (stepping by the puzzles of
    # every kind, four kinds with Scopa came back to the same 40 seeds every 20 puzzles).
    start = (offset_of(prefix) + number // len(kinds) * FOR_ME_TRIES) % POOL_SIZE
    return puzzle_for(targets, kind, level, capture_sum, start=start,
                      tries=FOR_ME_TRIES), targets


def streaks(days: Iterable[date], today: date) -> tuple[int, int]:
    """(current, best) runs of consecutive days. The current run may end yesterday:
    today's daily not played yet does not break it."""
    ordered = sorted(set(days))
    best = run = 0
    prev: date | None = None
    for d in ordered:
        run = run + 1 if prev is not None and d - prev == timedelta(days=1) else 1
        best = max(best, run)
        prev = d
    current = 0
    if ordered and ordered[-1] >= today - timedelta(days=1) and ordered[-1] <= today:
        current = run
    return current, best

