"""Does "for me" teach faster? Simulated children practise 10 minutes a day, two ways.

A simulated learner (docs/LEARNING.md: the model, its parameters and where each
number comes from) answers the app's own questions:

- **adaptive** arm: "for me" exactly as the app chooses it. Quick-facts rounds come from
  :func:`puzzles.practice.for_me_quick_facts`, puzzles from
  :func:`puzzles.practice.for_me_puzzle`, both fed the mastery the app computes
  (:func:`puzzles.mastery.fact_stats` over every answer so far); each answer is checked
  by :func:`puzzles.check` and recorded as the app records it
  (:meth:`puzzles.practice.Attempt.of`), so the evidence rules are the app's too.
- **random** arm: the same amount of practice, chosen without looking at the child:
  puzzles of a random kind at the child's level (:func:`puzzles.practice.suggested_level`,
  the same rule "for me" uses) and random seeds; quick facts drawn at random from the
  very facts "for me" can ask.

Every evening a silent check (it teaches nothing and changes nothing) asks each of the
55 additions and the 6 complements to 15 three times: a fact is **fluent** when at least
two of the three answers are right within 6 seconds, XtraMath's default fluency
threshold and its "2 of the last 3" rule. We also report a stricter bar, "the app's"
(the last three timed answers right within 3 s: ``fluent`` in :mod:`puzzles.mastery`
until 2026-12-05, which now reads 2 of 3 at 3 s, or at a pupil's class's limit).

    .venv/bin/python bench/learning_sim.py                 # 40 children per arm, 40 days
    .venv/bin/python bench/learning_sim.py --days 60       # long enough for the app's bar
    .venv/bin/python bench/learning_sim.py --children 8 --days 20 --no-plot
    .venv/bin/python bench/learning_sim.py --days 60 --oracle  # a third arm: a bound

The oracle arm (:class:`Oracle`) is not the app: it reads the simulated child's memory
and asks the facts least likely to pass the app's check, to show what any choice of
facts could do for this learner.

Prints both arms' days to 80 % fluent (median and IQR), the line
``adaptive: N% fewer days to 80% fluent`` and writes docs/learning-sim.png (the curves;
plotly, drawn to PNG by the Debian Chromium through Playwright when kaleido is absent).
The figures are recorded in docs/BENCHMARKS.md ("Does “for me” teach faster?").
"""

from __future__ import annotations

import abc
import argparse
import dataclasses
import math
import random
import statistics
import sys
import time
from collections.abc import Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from functools import lru_cache
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from puzzles import Puzzle, check  # noqa: E402
from puzzles import practice as app_practice  # noqa: E402
from puzzles.mastery import (  # noqa: E402
    Answer,
    FactStats,
    all_additions,
    all_complements,
    fact_stats,
    normalise,
)
from puzzles.practice import (  # noqa: E402
    FOR_ME_KINDS,
    Attempt,
    answers_from_rows,
    for_me_kinds,
    for_me_puzzle,
    for_me_quick_facts,
    practice_candidates,
    puzzle_candidates,
    puzzle_for,
    quick_fact_for,
    suggested_level,
)

CAPTURE_SUM = 15
ADDITIONS: tuple[str, ...] = tuple(all_additions())
COMPLEMENTS: tuple[str, ...] = tuple(all_complements(CAPTURE_SUM))
TRACKED: tuple[str, ...] = ADDITIONS + COMPLEMENTS
GOAL_SHARE = 0.8
START = datetime(2027, 1, 4, 17, 0)  # a Monday, 5 pm: when the simulated children practise
CHECK_AT = 0.2  # the evening check, in days after the session starts (about 9:45 pm)
DOCS = ROOT / "docs"


# -- the learner ---------------------------------------------------------------------------

@dataclass(frozen=True)
class LearnerParams:
    """The simulated learner's parameters; docs/LEARNING.md says where each comes from.

    Knowing (retrieving) a fact is Bayesian Knowledge Tracing (Corbett & Anderson 1995)
    with forgetting (Qiu et al. 2011; Khajah, Lindsey & Mozer 2016) whose speed falls
    with spaced successful retrievals (half-life regression, Settles & Meeder 2016; the
    spacing effect, Cepeda et al. 2006). A fact not retrieved is counted (the "min"
    strategy, Groen & Parkman 1972; Siegler 1987): right most of the time, but slow.
    """

    learn_quick: float = 0.15       # BKT P(T) per quick fact answered with feedback
    learn_puzzle: float = 0.08      # P(T) per step of a set found or tried in a puzzle
    slip: float = 0.03              # BKT P(S): wrong although retrieved
    count_error: float = 0.02       # chance of a slip per count when counting
    count_base: float = 3.0         # s: read, start counting, tap the answer
    count_rate: tuple[float, float] = (0.7, 1.2)   # s per count, per child (uniform)
    count_sigma: float = 0.25       # lognormal spread of a counted answer's time
    rt_floor: float = 1.3           # s: a practised retrieval, tap included
    rt_gain: float = 1.5            # s added to the floor on the first retrieval
    rt_exponent: float = 0.5        # power law of practice (Newell & Rosenbloom 1981)
    rt_sigma: float = 0.3           # lognormal spread of a retrieval's time
    half_life_new: float = 2.0      # days: a fact never retrieved before
    half_life_growth: float = 1.0   # each retrieval a day or more after the last: x2
    half_life_max: float = 365.0    # days: a fact retrieved often stays (a year at most)
    prior_retrievals: float = 8.0   # past retrievals of a fact known for sure (p0 = 1)
    child_prior_sd: float = 0.7     # spread of children's prior knowledge (logit)
    child_learn_sd: float = 0.3     # spread of children's learning rate (log)
    fluent_seconds: float = 6.0     # XtraMath's default fluency threshold
    app_fluent_seconds: float = 3.0  # the app's own bar (puzzles.mastery.FLUENT_SECONDS)


def prior_logit(fact: str) -> float:
    """How well a child of 7-8 knows ``fact`` before practising, as a logit (before the
    child's own shift): the problem-size effect (larger sums are known later; Ashcraft
    1982), ties and +1 facts known early, ten-plus facts easy; complements to 15 are new
    to nearly everyone."""
    if "-" in fact:
        value = int(fact.split("-")[1])
        return -3.0 + 0.3 * (value - 5)
    a, b = map(int, fact.split("+"))
    return 2.2 - 0.45 * (a + b - 2) + 1.5 * (a == b) + 1.5 * (a == 1) + 1.0 * (b == 10)


def _logistic(x: float) -> float:
    return 1.0 / (1.0 + math.exp(-x))


@dataclass
class FactMemory:
    """One fact in one child's memory: ``p`` is the probability of retrieving it at
    ``last`` (it decays with half-life ``half_life`` days after that)."""

    p: float
    half_life: float
    retrievals: float
    last: float                      # days since START of the last practice
    last_retrieved: float = -math.inf


@dataclass(frozen=True)
class Step:
    """One thing the child works out: a fact (``keys``: the facts that answer it, e.g.
    ``("15-8", "7+8")`` for 8 + ? = 15) and how many counts it takes without them."""

    keys: tuple[str, ...]
    counts: int


EASY = Step((), 0)  # a step outside the 61 facts (12 + 3): counted as right and quick


@dataclass(frozen=True)
class StepResult:
    correct: bool
    seconds: float
    retrieved: tuple[bool, ...]   # per key of the step


class Learner:
    """A simulated child: per fact a probability of knowing it and a response time,
    rising with practice, falling with time (see :class:`LearnerParams`)."""

    def __init__(self, params: LearnerParams, traits: random.Random) -> None:
        self.params = params
        self.prior_shift = traits.gauss(0.0, params.child_prior_sd)
        self.learn_factor = math.exp(traits.gauss(0.0, params.child_learn_sd))
        self.count_rate = traits.uniform(*params.count_rate)
        self.memory: dict[str, FactMemory] = {}
        for fact in TRACKED:
            p0 = _logistic(prior_logit(fact) + self.prior_shift)
            past = params.prior_retrievals * p0 * p0
            half_life = params.half_life_new * (1 + params.half_life_growth) ** past
            self.memory[fact] = FactMemory(p=p0, half_life=min(params.half_life_max, half_life),
                                           retrievals=past, last=0.0)

    # knowing and timing ------------------------------------------------------------------

    def knowing(self, fact: str, t: float) -> float:
        """The probability of retrieving ``fact`` at time ``t`` (days): forgetting is
        exponential with the fact's half-life since it was last practised."""
        m = self.memory[fact]
        return m.p * 2.0 ** (-max(0.0, t - m.last) / m.half_life)

    def retrieval_median(self, fact: str) -> float:
        m = self.memory[fact]
        p = self.params
        return p.rt_floor + p.rt_gain * (1.0 + m.retrievals) ** -p.rt_exponent

    def count_median(self, counts: int) -> float:
        return self.params.count_base + self.count_rate * counts

    def respond(self, step: Step, t: float, rng: random.Random) -> StepResult:
        """Answer one step (no learning): retrieved by any of its facts, else counted."""
        if not step.keys:
            return StepResult(True, 1.5, ())
        p = self.params
        retrieved = tuple(rng.random() < self.knowing(k, t) for k in step.keys)
        if any(retrieved):
            median = min(self.retrieval_median(k) for k, r in zip(step.keys, retrieved,
                                                                   strict=True) if r)
            correct = rng.random() >= p.slip
            seconds = median * math.exp(rng.gauss(0.0, p.rt_sigma))
        else:
            correct = rng.random() < (1.0 - p.count_error) ** step.counts
            seconds = self.count_median(step.counts) * math.exp(rng.gauss(0.0, p.count_sigma))
        return StepResult(correct, seconds, retrieved)

    def app_check_chance(self, fact: str, t: float) -> float:
        """The chance that ``fact`` passes the evening check at the app's bar at time ``t``
        (three answers, each right within 3 s): retrieved by any of the step's facts (the
        quickest one answers), not slipped, and within the time. Only the oracle reads it."""
        p = self.params
        step = probe_step(fact)
        if not step.keys:
            return 1.0
        knowing = [self.knowing(k, t) for k in step.keys]
        ranked = sorted(range(len(step.keys)),
                        key=lambda i: self.retrieval_median(step.keys[i]))
        one_try, none_before = 0.0, 1.0
        for i in ranked:   # the quickest fact retrieved answers the step
            median = self.retrieval_median(step.keys[i])
            in_time = 0.5 * (1.0 + math.erf(math.log(p.app_fluent_seconds / median)
                                            / (p.rt_sigma * math.sqrt(2.0))))
            one_try += none_before * knowing[i] * (1.0 - p.slip) * in_time
            none_before *= 1.0 - knowing[i]
        return one_try ** 3

    def practise(self, step: Step, result: StepResult, t: float, rate: float) -> None:
        """The feedback after a step: BKT learning (P(T)), and a retrieval a day or more
        after the last one makes the memory last longer (spacing)."""
        p = self.params
        for key, retrieved in zip(step.keys, result.retrieved, strict=True):
            m = self.memory[key]
            now = self.knowing(key, t)
            if retrieved:
                spacing = min(1.0, max(0.0, t - m.last_retrieved))
                m.half_life = min(p.half_life_max,
                                  m.half_life * (1.0 + p.half_life_growth * spacing))
                m.retrievals += 1
                m.last_retrieved = t
            learn = min(1.0, rate * self.learn_factor)
            m.p = now + (1.0 - now) * learn
            m.last = t

    def attempt(self, step: Step, t: float, rng: random.Random, rate: float) -> StepResult:
        result = self.respond(step, t, rng)
        self.practise(step, result, t, rate)
        return result


def addition_step(fact: str) -> Step:
    """``a + b = ?``: retrieved, or counted on from the larger addend (min(a, b) counts)."""
    a, b = map(int, fact.split("+"))
    return Step((fact,), min(a, b))


def complement_step(value: int, capture_sum: int = CAPTURE_SUM, *, missing: bool) -> Step:
    """What makes ``capture_sum`` with ``value``: answered by the complement fact
    (``15-8``) or the addition that makes the sum (``7+8``), whichever the child knows.
    Counting: up from ``value`` when the other number is missing (quick facts), else the
    shorter way (both numbers are on the table)."""
    other = capture_sum - value
    keys = tuple(k for k in (normalise(f"{capture_sum}-{value}"),
                             normalise(f"{other}+{value}") if 1 <= other <= 10 else None)
                 if k in TRACKED_SET)
    if not keys:
        return EASY
    return Step(keys, other if missing else min(value, other))


TRACKED_SET = frozenset(TRACKED)


def solution_steps(facts: Sequence[str], capture_sum: int, *, missing: bool) -> list[Step]:
    """The steps of one solution from the facts the app lists for it
    (:func:`puzzles.model.capture_facts`): the running additions, then the last
    addition and the complement to the sum, which are one act (``8 + 7`` = ``15 - 7``)."""
    steps: list[Step] = []
    complement = facts[-1] if facts and "-" in facts[-1] else None
    additions = list(facts[:-1] if complement else facts)
    if complement:
        additions = additions[:-1]   # the last addition is the complement's act
    for fact in additions:
        key = normalise(fact)
        steps.append(addition_step(key) if key in TRACKED_SET else EASY)
    if complement:
        value = int(complement.split("-")[1])
        steps.append(complement_step(value, capture_sum, missing=missing))
    return steps


def probe_step(fact: str) -> Step:
    """The evening check's question for a fact: ``a + b = ?`` or ``x + ? = 15``."""
    if "-" in fact:
        return complement_step(int(fact.split("-")[1]), missing=True)
    return addition_step(fact)


# -- the app's mastery, kept up to date as the app computes it ------------------------------

class Mastery:
    """:func:`puzzles.mastery.fact_stats` over every answer so far, as the app's
    ``mastery(profile, 15)`` returns it when it chooses the next round or puzzle.

    Only the facts answered since the last reading are recomputed (fact_stats treats
    each fact on its own, so the dict is the same; a test checks it against the full
    recomputation the app does)."""

    def __init__(self, capture_sum: int = CAPTURE_SUM) -> None:
        self.capture_sum = capture_sum
        self.by_fact: dict[str, list[Answer]] = {}
        self._stats: dict[str, FactStats] = fact_stats([], practice_candidates(capture_sum))
        self._dirty: set[str] = set()
        self._pending: list[Attempt] = []   # recorded, not yet read (random practice never reads)
        self.rows: list[Attempt] = []

    def record(self, attempt: Attempt) -> None:
        self.rows.append(attempt)
        self._pending.append(attempt)

    @property
    def stats(self) -> dict[str, FactStats]:
        for answer in answers_from_rows(self._pending):
            key = normalise(answer.fact)
            if key is not None:
                self.by_fact.setdefault(key, []).append(answer)
                self._dirty.add(key)
        self._pending.clear()
        for key in self._dirty:
            self._stats[key] = fact_stats(self.by_fact[key])[key]
        self._dirty.clear()
        return self._stats


# -- one child, one arm ---------------------------------------------------------------------

@dataclass
class Clock:
    """The session's time in days since START, advanced by the child's answers."""

    t: float

    def advance(self, seconds: float) -> None:
        self.t += seconds / 86400.0

    @property
    def when(self) -> datetime:
        return START + timedelta(days=self.t)


@dataclass
class Practice(abc.ABC):
    """What one arm asks and records. Subclasses pick the questions."""

    learner: Learner
    rng: random.Random
    params: LearnerParams
    mastery: Mastery = field(default_factory=Mastery)
    puzzle_rows: list[Attempt] = field(default_factory=list)
    mode_puzzle: str = "practice"
    mode_quick: str = "quick"

    @abc.abstractmethod
    def quick_round(self) -> list[Puzzle]:
        """The next round of quick facts this arm asks."""

    @abc.abstractmethod
    def next_puzzle(self, in_session: int) -> Puzzle:
        """The next puzzle this arm asks (``in_session``: puzzles done today)."""

    # the child answers ---------------------------------------------------------------------

    def _record(self, puzzle: Puzzle, answer: list, seconds: float, mode: str,
                clock: Clock, result=None) -> Attempt:
        result = result if result is not None else check(puzzle, answer)
        when = clock.when
        row = dataclasses.replace(
            Attempt.of(puzzle, result, round(seconds, 2), answer, mode, when.date()),
            created_at=when)
        self.mastery.record(row)
        return row

    def answer_quick(self, puzzle: Puzzle, clock: Clock) -> float:
        """One quick fact: the steps a + b (+ c) then the complement; returns seconds."""
        solution = puzzle.solutions[0]
        steps = solution_steps(solution.facts, puzzle.capture_sum, missing=True)
        seconds, correct = 0.0, True
        for step in steps:
            res = self.learner.attempt(step, clock.t, self.rng, self.params.learn_quick)
            seconds += res.seconds
            correct = correct and res.correct
        value = solution.value if correct else _wrong_value(solution.value, self.rng)
        clock.advance(seconds)
        self._record(puzzle, [value], seconds, self.mode_quick, clock,
                     check(puzzle, value))
        clock.advance(1.0)   # the feedback line, then the next question
        return seconds + 1.0

    def answer_puzzle(self, puzzle: Puzzle, clock: Clock) -> float:
        """One puzzle: each set is seen or overlooked, its steps worked out; sets found
        are given, a slip gives a wrong set half the time; "none" when nothing was found."""
        rng = self.rng
        seconds = 5.0 + 2.0 * len(puzzle.table) + 1.0 * len(puzzle.hand)
        items: list[dict] = []
        overlook = min(0.3, 0.02 * len(puzzle.table))
        for solution in puzzle.solutions:
            if rng.random() < overlook:
                continue
            ok = True
            for step in solution_steps(solution.facts, puzzle.capture_sum, missing=False):
                res = self.learner.attempt(step, clock.t, rng, self.params.learn_puzzle)
                seconds += res.seconds
                ok = ok and res.correct
            take = [str(c) for c in solution.take]
            card = str(solution.card) if solution.card is not None else None
            if not ok:
                take = _wrong_take(puzzle, solution, rng) if rng.random() < 0.5 else None
                if take is None:
                    continue
            item = {"take": take} if card is None else {"card": card, "take": take}
            if item not in items:
                items.append(item)
                seconds += 0.8 * (len(take) + (card is not None))
        answer: list = list(items) if items else ["none"]
        seconds += 2.0
        clock.advance(seconds)
        row = self._record(puzzle, answer, seconds, self.mode_puzzle, clock)
        self.puzzle_rows.append(row)
        clock.advance(2.0)   # reading the result, "next"
        return seconds + 2.0

    def day(self, day: int, minutes: float, quick_share: float) -> None:
        """One day's session: quick-facts rounds and puzzles interleaved, each taking
        its share of the minutes, until the time is used."""
        clock = Clock(day + 0.0)
        budget = minutes * 60.0
        quick_time = puzzle_time = 0.0
        in_session = 0
        while quick_time + puzzle_time < budget:
            if quick_share > 0 and quick_time <= quick_share * (quick_time + puzzle_time):
                for puzzle in self.quick_round():
                    quick_time += self.answer_quick(puzzle, clock)
                quick_time += 2.0  # "again"
                clock.advance(2.0)
            else:
                puzzle_time += self.answer_puzzle(self.next_puzzle(in_session), clock)
                in_session += 1


@dataclass
class Adaptive(Practice):
    """"for me": the app's own choices from the app's own mastery."""

    mode_puzzle: str = "for-me"

    def quick_round(self) -> list[Puzzle]:
        return for_me_quick_facts(self.mastery.stats, CAPTURE_SUM, 5)

    def next_puzzle(self, in_session: int) -> Puzzle:
        # app_pages/puzzles.py: number = "for me" attempts so far + puzzles "next"-ed in
        # this session; the seeds' prefix is shared by the simulated children.
        number = len(self.puzzle_rows) + in_session
        puzzle, _targets = for_me_puzzle(self.mastery.stats, self.puzzle_rows, CAPTURE_SUM,
                                         number, prefix="forme-sim")
        return puzzle


@dataclass
class Oracle(Adaptive):
    """Not the app: a bound on what any choice of facts could do for this learner. It
    reads the simulated child's memory and asks the facts least likely to pass the app's
    3-second check right now (quick facts, and the targets of the puzzles, found as "for
    me" finds them); the same sessions, kinds and levels as "for me". Run with
    ``--oracle``; docs/LEARNING.md uses it to show what the learner model allows."""

    mode_puzzle: str = "for-me"
    now: float = 0.0

    def _least_ready(self, facts: Sequence[str], count: int) -> list[str]:
        return sorted(facts, key=lambda f: self.learner.app_check_chance(f, self.now))[:count]

    def quick_round(self) -> list[Puzzle]:
        return [p for p in (quick_fact_for(f, CAPTURE_SUM)
                            for f in self._least_ready(_quick_usable(CAPTURE_SUM), 5))
                if p is not None]

    def next_puzzle(self, in_session: int) -> Puzzle:
        number = len(self.puzzle_rows) + in_session
        kinds = for_me_kinds(self.puzzle_rows)
        kind = kinds[number % len(kinds)]
        level = suggested_level([(r.level, r.stars, r.correct) for r in self.puzzle_rows
                                 if r.kind == kind])
        targets = self._least_ready(puzzle_candidates(CAPTURE_SUM), 3)
        return puzzle_for(targets, kind, level, CAPTURE_SUM, prefix="forme-sim",
                          start=number * 40)

    def answer_quick(self, puzzle: Puzzle, clock: Clock) -> float:
        self.now = clock.t
        return super().answer_quick(puzzle, clock)

    def answer_puzzle(self, puzzle: Puzzle, clock: Clock) -> float:
        self.now = clock.t
        return super().answer_puzzle(puzzle, clock)

    def day(self, day: int, minutes: float, quick_share: float) -> None:
        self.now = float(day)
        super().day(day, minutes, quick_share)


@lru_cache(maxsize=4)
def _quick_usable(capture_sum: int) -> tuple[str, ...]:
    return tuple(f for f in practice_candidates(capture_sum)
                 if quick_fact_for(f, capture_sum) is not None)


@lru_cache(maxsize=4)
def random_pool(capture_sum: int = CAPTURE_SUM) -> tuple[Puzzle, ...]:
    """The quick facts "for me" can ask (one per fact it can ask at this sum)."""
    out = []
    for fact in practice_candidates(capture_sum):
        puzzle = quick_fact_for(fact, capture_sum)
        if puzzle is not None:
            out.append(puzzle)
    return tuple(out)


@dataclass
class RandomPractice(Practice):
    """Random practice: puzzles of a random kind at the child's level, random seeds;
    quick facts drawn at random from the facts "for me" can ask."""

    def quick_round(self) -> list[Puzzle]:
        pool = random_pool(CAPTURE_SUM)
        return [self.rng.choice(pool) for _ in range(5)]

    def next_puzzle(self, in_session: int) -> Puzzle:
        kind = self.rng.choice(FOR_ME_KINDS)
        level = suggested_level([(r.level, r.stars, r.correct) for r in self.puzzle_rows
                                 if r.kind == kind])
        return app_practice.generate(kind, level, f"rand-{self.rng.randrange(10**9)}",
                                     CAPTURE_SUM)


def _wrong_value(right: int, rng: random.Random) -> int:
    options = [v for v in (right - 2, right - 1, right + 1, right + 2) if 1 <= v <= 10]
    return rng.choice(options)


def _wrong_take(puzzle: Puzzle, solution, rng: random.Random) -> list[str] | None:
    """A set that does not make the sum: the solution's cards with one swapped for
    another table card (or one left out)."""
    take = list(solution.take)
    others = [c for c in puzzle.table if c not in take]
    rng.shuffle(others)
    need = puzzle.capture_sum - (solution.card.value if solution.card else 0)
    for i in range(len(take)):
        for other in others:
            trial = take[:i] + [other] + take[i + 1:]
            if sum(c.value for c in trial) != need:
                return [str(c) for c in trial]
    if len(take) >= 2:
        return [str(c) for c in take[:-1]]
    return None


# -- measuring -----------------------------------------------------------------------------

@dataclass(frozen=True)
class DayCheck:
    """The evening check of one day: fluent facts at XtraMath's bar and the app's."""

    additions: int
    complements: int
    additions_app: int
    complements_app: int


def evening_check(learner: Learner, t: float, rng: random.Random) -> DayCheck:
    """Each fact asked three times, silently (no learning, no forgetting in between):
    fluent when at least 2 of 3 answers are right within 6 s; the app's bar: all three
    right within 3 s."""
    p = learner.params
    fluent: dict[str, tuple[bool, bool]] = {}
    for fact in TRACKED:
        step = probe_step(fact)
        tries = [learner.respond(step, t, rng) for _ in range(3)]
        xtra = sum(r.correct and r.seconds <= p.fluent_seconds for r in tries) >= 2
        app = all(r.correct and r.seconds <= p.app_fluent_seconds for r in tries)
        fluent[fact] = (xtra, app)
    return DayCheck(
        additions=sum(fluent[f][0] for f in ADDITIONS),
        complements=sum(fluent[f][0] for f in COMPLEMENTS),
        additions_app=sum(fluent[f][1] for f in ADDITIONS),
        complements_app=sum(fluent[f][1] for f in COMPLEMENTS))


@dataclass(frozen=True)
class ChildRun:
    """One simulated child in one arm: the evening checks, day 0 (before any practice)
    to the last day."""

    arm: str
    child: int
    checks: tuple[DayCheck, ...]
    #: Per evening, the chance that the check finds the goal met at the app's bar
    #: (:func:`app_goal_chance`): what the check's luck is averaged over.
    app_goal_chances: tuple[float, ...] = ()

    def days_to(self, share: float = GOAL_SHARE, which: str = "both",
                app_bar: bool = False) -> int | None:
        """Days of practice until ``share`` of the additions and/or complements are
        fluent (``None``: not within the days simulated)."""
        need_a = math.ceil(share * len(ADDITIONS) - 1e-9)
        need_c = math.ceil(share * len(COMPLEMENTS) - 1e-9)
        for day, c in enumerate(self.checks):
            adds = c.additions_app if app_bar else c.additions
            comps = c.complements_app if app_bar else c.complements
            ok_a, ok_c = adds >= need_a, comps >= need_c
            if (which == "additions" and ok_a) or (which == "complements" and ok_c) or (
                    which == "both" and ok_a and ok_c):
                return day
        return None


ARMS: dict[str, type[Practice]] = {"adaptive": Adaptive, "random": RandomPractice}
#: Arms run only when asked (``--oracle``): a bound, not a way to practise.
EXTRA_ARMS: dict[str, type[Practice]] = {"oracle": Oracle}


_GENERATED = lru_cache(maxsize=100_000)(app_practice.generate)


@contextmanager
def memoised_generate() -> Iterator[None]:
    """Puzzle generation is a pure function of (kind, level, seed, sum): memoise it while
    simulating (for_me_puzzle tries up to 40 seeds per puzzle, and the simulated children
    share the seeds, so most are generated once per process)."""
    original = app_practice.generate
    app_practice.generate = _GENERATED
    try:
        yield
    finally:
        app_practice.generate = original


def new_child(arm: str, child: int, seed: int = 1, params: LearnerParams | None = None
              ) -> tuple[Learner, Practice, random.Random]:
    """A simulated child, the arm it practises in, and the random stream of its evening
    checks. The child itself (prior knowledge, speed of learning and of counting)
    depends only on ``seed`` and ``child``: the same child practises in both arms."""
    params = params or LearnerParams()
    learner = Learner(params, random.Random(f"{seed}:child:{child}"))
    practice = (ARMS | EXTRA_ARMS)[arm](learner, random.Random(f"{seed}:{arm}:{child}"),
                                        params)
    return learner, practice, random.Random(f"{seed}:check:{arm}:{child}")


def simulate_child(arm: str, child: int, days: int = 40, seed: int = 1, minutes: float = 10.0,
                   quick_share: float = 0.5, params: LearnerParams | None = None) -> ChildRun:
    """One child practising ``minutes`` a day for ``days`` days in ``arm``, checked every
    evening (and once before the first day)."""
    learner, practice, probe_rng = new_child(arm, child, seed, params)
    checks = [evening_check(learner, 0.0, probe_rng)]
    chances = [app_goal_chance(learner, 0.0)]
    with memoised_generate():
        for day in range(days):
            practice.day(day, minutes, quick_share)
            checks.append(evening_check(learner, day + CHECK_AT, probe_rng))
            chances.append(app_goal_chance(learner, day + CHECK_AT))
    return ChildRun(arm, child, tuple(checks), tuple(chances))


def _at_least(chances: Sequence[float], need: int) -> float:
    """The chance that at least ``need`` of independent events with these chances happen."""
    dist = [1.0]   # dist[k]: the chance that exactly k happened so far
    for c in chances:
        dist = [a * (1.0 - c) + b * c for a, b in zip([*dist, 0.0], [0.0, *dist], strict=True)]
    return sum(dist[need:])


def app_goal_chance(learner: Learner, t: float, share: float = GOAL_SHARE) -> float:
    """The chance that an evening check at ``t`` finds ``share`` of the additions and of the
    complements fluent at the app's bar (each fact's chance: :meth:`Learner.app_check_chance`)."""
    need_a = math.ceil(share * len(ADDITIONS) - 1e-9)
    need_c = math.ceil(share * len(COMPLEMENTS) - 1e-9)
    return (_at_least([learner.app_check_chance(f, t) for f in ADDITIONS], need_a)
            * _at_least([learner.app_check_chance(f, t) for f in COMPLEMENTS], need_c))


def expected_reached(runs: Sequence[ChildRun]) -> list[float]:
    """Per day, the expected share of these children who have met the goal at the app's
    bar on some evening so far: the checks' luck averaged out (the check changes nothing,
    so each evening's chance depends only on the practice before it)."""
    if not runs:
        return []
    out = []
    for day in range(len(runs[0].app_goal_chances)):
        share = 0.0
        for r in runs:
            never = 1.0
            for c in r.app_goal_chances[:day + 1]:
                never *= 1.0 - c
            share += 1.0 - never
        out.append(share / len(runs))
    return out


def expected_median_day(runs: Sequence[ChildRun]) -> float:
    """The first day by which half of these children are expected to have met the goal at
    the app's bar (:func:`expected_reached`); infinite if not within the days simulated."""
    return next((float(d) for d, s in enumerate(expected_reached(runs)) if s >= 0.5),
                math.inf)


def _simulate(job: tuple) -> ChildRun:
    return simulate_child(*job)


def run(children: int = 40, days: int = 40, seed: int = 1, workers: int = 2,
        minutes: float = 10.0, quick_share: float = 0.5,
        params: LearnerParams | None = None,
        arms: Sequence[str] = tuple(ARMS)) -> list[ChildRun]:
    """Every child in every arm (in ``workers`` processes; the result does not depend on
    how many)."""
    jobs = [(arm, c, days, seed, minutes, quick_share, params)
            for c in range(children) for arm in arms]
    if workers <= 1:
        return [_simulate(j) for j in jobs]
    with ProcessPoolExecutor(workers) as pool:
        return list(pool.map(_simulate, jobs, chunksize=1))


# -- reporting -----------------------------------------------------------------------------

def quantiles(values: Sequence[int | None]) -> tuple[float, float, float]:
    """Median and quartiles, ``None`` (not reached) counting as infinitely late."""
    ordered = sorted(math.inf if v is None else float(v) for v in values)
    if not ordered:
        return (math.nan,) * 3

    def q(f: float) -> float:
        pos = f * (len(ordered) - 1)
        lo, hi = math.floor(pos), math.ceil(pos)
        if math.isinf(ordered[lo]) or math.isinf(ordered[hi]):
            return ordered[hi] if pos - lo else ordered[lo]
        return ordered[lo] + (ordered[hi] - ordered[lo]) * (pos - lo)

    return q(0.25), q(0.5), q(0.75)


def _fmt(x: float, horizon: int) -> str:
    return f">{horizon}" if math.isinf(x) else f"{x:g}"


@dataclass(frozen=True)
class Summary:
    """Per arm and measure: quartiles, children who got there, mean days (a child not
    there counted as one day past the end); the saving on the medians."""

    rows: dict[str, dict[str, tuple[float, float, float]]]
    reached: dict[str, dict[str, int]]
    saving: float | None
    children: int
    days: int
    means: dict[str, dict[str, float]] = field(default_factory=dict)
    #: Per arm, :func:`expected_median_day` (the app's bar, the checks' luck averaged out).
    expected_days: dict[str, float] = field(default_factory=dict)


def arms_of(runs: Sequence[ChildRun]) -> list[str]:
    """The arms these runs practised, in the order first run."""
    return list(dict.fromkeys(r.arm for r in runs))


def summarise(runs: Sequence[ChildRun], days: int) -> Summary:
    rows: dict[str, dict[str, tuple[float, float, float]]] = {}
    reached: dict[str, dict[str, int]] = {}
    means: dict[str, dict[str, float]] = {}
    for arm in arms_of(runs):
        mine = [r for r in runs if r.arm == arm]
        rows[arm], reached[arm], means[arm] = {}, {}, {}
        for which, app_bar in (("additions", False), ("complements", False), ("both", False),
                               ("both_app", True)):
            values = [r.days_to(GOAL_SHARE, "both" if which == "both_app" else which,
                                app_bar) for r in mine]
            rows[arm][which] = quantiles(values)
            reached[arm][which] = sum(v is not None for v in values)
            means[arm][which] = statistics.fmean(days + 1 if v is None else v for v in values)
    a, r = rows["adaptive"]["both"][1], rows["random"]["both"][1]
    saving = None
    if not (math.isinf(a) or math.isinf(r)) and r > 0:
        saving = 1.0 - a / r
    children = len([r for r in runs if r.arm == "adaptive"])
    expected = {arm: expected_median_day([r for r in runs if r.arm == arm])
                for arm in arms_of(runs)}
    return Summary(rows, reached, saving, children, days, means, expected)


def report(summary: Summary) -> str:
    lines = [f"{summary.children} simulated children per arm, {summary.days} days of "
             f"10 minutes; fluent: right within 6 s in 2 of 3 tries (XtraMath)",
             "days to 80% fluent: median [IQR]  (reached within the days simulated)  mean"]
    labels = {"additions": "55 additions", "complements": "complements to 15",
              "both": "both", "both_app": "both, app's bar (3 s, 3 of 3)"}
    for arm in summary.rows:
        for which, label in labels.items():
            lo, med, hi = summary.rows[arm][which]
            n = summary.reached[arm][which]
            lines.append(f"{arm:9} {label:31} {_fmt(med, summary.days):>5} "
                         f"[{_fmt(lo, summary.days)}-{_fmt(hi, summary.days)}]  "
                         f"({n}/{summary.children})  {summary.means[arm][which]:.1f}")
    if summary.saving is None:
        lines.append("adaptive: saving unknown (a median is beyond the days simulated)")
    else:
        lines.append(f"adaptive: {round(100 * summary.saving)}% fewer days to 80% fluent")
    for arm in summary.rows:
        saving = app_bar_saving(summary, arm)
        if arm != "random" and saving is not None:
            lines.append(f"{arm}: {round(100 * saving)}% fewer days than random to 80% "
                         f"fluent at the app's bar (medians)")
    control = summary.expected_days.get("random", math.inf)
    for arm, day in summary.expected_days.items():
        line = (f"{arm}: half the children at the app's bar by day {_fmt(day, summary.days)}, "
                f"the checks' luck averaged out")
        if arm != "random" and not (math.isinf(day) or math.isinf(control)) and control > 0:
            line += f" ({round(100 * (1.0 - day / control))}% fewer days than random)"
        lines.append(line)
    return "\n".join(lines)


def app_bar_saving(summary: Summary, arm: str) -> float | None:
    """``arm``'s saving on random practice's median days at the app's bar (3 s, 3 of 3);
    ``None`` when a median is beyond the days simulated."""
    mine, control = summary.rows[arm]["both_app"][1], summary.rows["random"]["both_app"][1]
    if math.isinf(mine) or math.isinf(control) or control <= 0:
        return None
    return 1.0 - mine / control


def curves(runs: Sequence[ChildRun]) -> dict[str, dict[str, list[float]]]:
    """Per arm and day: the mean share of additions and of complements fluent (XtraMath's
    bar and the app's), and the share of children with 80 % of both fluent."""
    out: dict[str, dict[str, list[float]]] = {}
    for arm in arms_of(runs):
        mine = [r for r in runs if r.arm == arm]
        n_days = len(mine[0].checks)
        reach = [r.days_to() for r in mine]
        reach_app = [r.days_to(app_bar=True) for r in mine]

        def mean(attr: str, total: int, day: int, mine=mine) -> float:
            return statistics.fmean(getattr(r.checks[day], attr) / total for r in mine)

        out[arm] = {
            "additions": [mean("additions", len(ADDITIONS), d) for d in range(n_days)],
            "complements": [mean("complements", len(COMPLEMENTS), d) for d in range(n_days)],
            "additions_app": [mean("additions_app", len(ADDITIONS), d) for d in range(n_days)],
            "complements_app": [mean("complements_app", len(COMPLEMENTS), d)
                                for d in range(n_days)],
            "reached": [sum(1 for v in reach if v is not None and v <= d) / len(mine)
                        for d in range(n_days)],
            "reached_app": [sum(1 for v in reach_app if v is not None and v <= d) / len(mine)
                            for d in range(n_days)],
        }
    return out


def figure(runs: Sequence[ChildRun], summary: Summary):
    """The curves as a plotly figure: facts fluent per day at XtraMath's bar and at the
    app's, and the children who have 80 % of both fluent."""
    import plotly.graph_objects as go
    from plotly.subplots import make_subplots

    data = curves(runs)
    colours = {"adaptive": "#0072B2", "random": "#D55E00", "oracle": "#009E73"}  # Okabe-Ito
    fig = make_subplots(rows=1, cols=3, horizontal_spacing=0.07, subplot_titles=(
        "Facts fluent: right within 6 s, 2 of 3", "Facts fluent at the app's bar: 3 s, 3 of 3",
        "Children with 80% of both fluent"))
    reachable = sum(1 for f in ADDITIONS if sum(map(int, f.split("+"))) <= CAPTURE_SUM)
    for arm, series in data.items():
        days = list(range(len(series["additions"])))
        colour = colours[arm]
        for col, suffix in ((1, ""), (2, "_app")):
            fig.add_trace(go.Scatter(x=days, y=series["additions" + suffix],
                                     name=f"{arm}: additions", legendgroup=arm + "a",
                                     showlegend=col == 1, line={"color": colour}), 1, col)
            fig.add_trace(go.Scatter(x=days, y=series["complements" + suffix],
                                     name=f"{arm}: complements to 15", legendgroup=arm + "c",
                                     showlegend=col == 1,
                                     line={"color": colour, "dash": "dot"}), 1, col)
        fig.add_trace(go.Scatter(x=days, y=series["reached"], name=f"{arm}: children, 6 s bar",
                                 line={"color": colour, "width": 3}), 1, 3)
        fig.add_trace(go.Scatter(x=days, y=series["reached_app"],
                                 name=f"{arm}: children, app's bar",
                                 line={"color": colour, "width": 2, "dash": "dash"}), 1, 3)
    for col in (1, 2):
        fig.add_hline(y=GOAL_SHARE, line={"color": "grey", "dash": "dash"}, row=1, col=col)
        fig.add_hline(y=reachable / len(ADDITIONS), line={"color": "grey", "dash": "dot"},
                      row=1, col=col)
    fig.add_annotation(x=0.99, xref="x domain", y=reachable / len(ADDITIONS), yref="y",
                       text=f"{reachable} of 55 can be asked at 15", showarrow=False,
                       yshift=9, xanchor="right", font={"size": 11, "color": "grey"})
    saving = ("" if summary.saving is None
              else f" — adaptive: {round(100 * summary.saving)}% fewer days to 80% fluent")
    fig.update_layout(
        title=f"Does “for me” teach faster? {summary.children} simulated children per arm, "
              f"10 minutes a day{saving}",
        width=1500, height=560, template="plotly_white",
        legend={"orientation": "h", "y": -0.2})
    fig.update_xaxes(title_text="days of practice")
    fig.update_yaxes(range=[0, 1.02], tickformat=".0%")
    return fig


def save_png(fig, path: Path, chromium: str = "/usr/bin/chromium") -> str:
    """Write ``fig`` as a PNG: plotly's ``to_image`` when kaleido works, otherwise the
    figure's offline HTML (plotly.js inlined) drawn by Chromium through Playwright.
    Returns how it was drawn."""
    try:
        path.write_bytes(fig.to_image(format="png", scale=1))
        return "plotly to_image (kaleido)"
    except Exception:  # kaleido absent or unable to start a browser offline
        pass
    import tempfile

    from playwright.sync_api import sync_playwright

    with tempfile.TemporaryDirectory() as tmp:
        html = Path(tmp) / "figure.html"
        fig.write_html(html, include_plotlyjs=True, full_html=True,
                       config={"staticPlot": True})
        width, height = int(fig.layout.width or 1500), int(fig.layout.height or 560)
        with sync_playwright() as pw:
            browser = pw.chromium.launch(executable_path=chromium,
                                         args=["--headless", "--no-sandbox"])
            page = browser.new_page(viewport={"width": width, "height": height})
            page.goto(html.as_uri())
            page.wait_for_selector(".main-svg")
            page.locator(".plotly-graph-div").screenshot(path=str(path))
            browser.close()
    return "plotly HTML drawn by Chromium (Playwright)"


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--children", type=int, default=40, help="children per arm")
    parser.add_argument("--days", type=int, default=40)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--minutes", type=float, default=10.0, help="practice per day")
    parser.add_argument("--quick-share", type=float, default=0.5,
                        help="share of the time spent on quick facts (the rest: puzzles)")
    parser.add_argument("--plot", type=Path, default=DOCS / "learning-sim.png")
    parser.add_argument("--no-plot", action="store_true")
    parser.add_argument("--oracle", action="store_true",
                        help="also run the oracle arm (reads the simulated memory: a bound)")
    args = parser.parse_args(argv)

    start = time.perf_counter()
    arms = (*ARMS, *EXTRA_ARMS) if args.oracle else tuple(ARMS)
    runs = run(args.children, args.days, args.seed, args.workers, args.minutes,
               args.quick_share, arms=arms)
    summary = summarise(runs, args.days)
    print(report(summary))
    print(f"simulated in {time.perf_counter() - start:.1f} s")
    if not args.no_plot:
        how = save_png(figure(runs, summary), args.plot)
        shown = args.plot.relative_to(ROOT) if args.plot.is_relative_to(ROOT) else args.plot
        print(f"curves: {shown} ({how})")


if __name__ == "__main__":
    main()
