"""The practice sessions without Streamlit: a puzzle, a quick-facts round, the daily's flow.

Each is a plain class the pages keep in session state and draw; every decision
(what a set adds up to, whether a hint adds something, which daily puzzle comes
next) is made here and tested directly. Messages are catalog keys with their
parameters (card codes, not names): the page words them in the child's language and
the chosen deck.
"""

from __future__ import annotations

import contextlib
import secrets
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from datetime import date
from typing import Any

from escoba import Card
from puzzles import CheckResult, Puzzle, check, hint
from puzzles.checker import Hint
from puzzles.model import ONE_CARD_KINDS
from puzzles.practice import quick_question_text

__all__ = ["Feedback", "PuzzleSession", "SetSum", "QuickRound", "DailyFlow", "DailyView",
           "quick_question", "PuzzleKeeper", "QUICK_FACTS_SLOT"]


@dataclass(frozen=True)
class Feedback:
    """One line of feedback: ``kind`` (success, error, info), a catalog key, parameters."""

    kind: str
    key: str
    params: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class SetSum:
    """The set being put together: its values, their total, the sum the puzzle asks for."""

    values: tuple[int, ...]
    total: int
    need: int

    @property
    def right(self) -> bool:
        return self.total == self.need

    @property
    def expr(self) -> str:
        return " + ".join(str(v) for v in self.values)


class _KeptOnlyIfSaved:
    """A session whose last step is taken back when saving it fails (issue 25: the
    database could not be written, and the answer must not be shown as made)."""

    @contextlib.contextmanager
    def kept_only_if_saved(self) -> Iterator[None]:
        """Inside: one step and its save. If anything raises (the save failed), the
        session is as it was before the step (lists copied, so appends are undone)."""
        before = {k: list(v) if isinstance(v, list) else v for k, v in vars(self).items()}
        try:
            yield
        except Exception:
            vars(self).clear()
            vars(self).update(before)
            raise


class PuzzleSession(_KeptOnlyIfSaved):
    """One puzzle being solved: the sets given so far, hints, the final check.

    The child builds one set at a time; each gets feedback at once. "I've found them
    all" (or every set found) checks the whole answer. Hints are graduated (a nudge, a
    card of the set, the whole set) and a hint that adds nothing new costs nothing.
    """

    def __init__(self, puzzle: Puzzle, *, clock: Callable[[], float] = time.monotonic) -> None:
        self.puzzle = puzzle
        self._clock = clock
        self.started = clock()
        self.items: list[dict[str, Any]] = []  # {"card", "take"} given, card codes
        self.feedback: list[Feedback] = []  # newest last
        self.hints_given: list[Hint] = []
        self.said_none = False
        self.result: CheckResult | None = None
        self.seconds = 0.0

    @property
    def hints(self) -> int:
        """Hints that cost a star (each one that told something new)."""
        return len(self.hints_given)

    @property
    def done(self) -> bool:
        return self.result is not None

    def item(self, card: str | None, take: list[str]) -> dict[str, Any]:
        """The set put together (card codes) as a checker item; the card of a captures
        puzzle is always its one hand card."""
        if self.puzzle.kind in ONE_CARD_KINDS:
            card = str(self.puzzle.hand[0])
        elif self.puzzle.kind not in ("hand", "best-move"):
            card = None
        return {"card": card, "take": list(take)}

    def set_sum(self, card: str | None, take: list[str]) -> SetSum:
        """The arithmetic of the set put together: table cards, then the card played
        (Scopa: the table cards alone, to make the played card's value)."""
        item = self.item(card, take)
        values, need = self.puzzle.terms(
            Card.parse(item["card"]) if item["card"] else None,
            sorted(Card.parse(c) for c in item["take"]))
        return SetSum(values, sum(values), need)

    def add(self, card: str | None, take: list[str]) -> Feedback | None:
        """Give one set; its feedback (also kept in :attr:`feedback`). ``None`` once done."""
        if self.done:
            return None
        item = {k: v for k, v in self.item(card, take).items() if v}
        if any(i == item for i in self.items):
            return self._say(Feedback("info", "pz_already"))
        self.items.append(item)
        alone = check(self.puzzle, [item])
        said: Feedback | None = None
        if alone.found:
            said = self._say(Feedback("success", "found", {"solution": alone.found[0]}))
        elif alone.wrong:
            # A best move is one answer: no "try another" once it is given.
            said = self._say(Feedback("error", "wrong", {
                "wrong": alone.wrong[0], "again": self.puzzle.kind != "best-move"}))
        if self.puzzle.kind == "best-move" or (
                self.puzzle.solutions
                and len(check(self.puzzle, self.items).found) == len(self.puzzle.solutions)):
            self.finish()  # every set found: done at once, no extra tap needed
        return said

    def ask_hint(self) -> Hint | None:
        """The next hint: the weakest that says something not said yet (it costs a star),
        or ``None`` when every hint has been given (that costs nothing)."""
        if self.done:
            return None
        said = {(h.key, repr(sorted(h.params.items()))) for h in self.hints_given}
        for strength in (1, 2, 3):
            h = hint(self.puzzle, self.items or None, strength=strength)
            if h.key == "all_found":
                return None
            if (h.key, repr(sorted(h.params.items()))) not in said:
                self.hints_given.append(h)
                return h
        return None

    def finish(self, said_none: bool = False) -> CheckResult | None:
        """Check the whole answer ("I've found them all", or ``said_none``: "there is none")."""
        if self.done:
            return None
        self.said_none = self.said_none or said_none
        self.result = check(self.puzzle, self.answer, hints=self.hints)
        self.seconds = round(self._clock() - self.started, 2)
        return self.result

    def progress(self, **extra: Any) -> dict[str, Any]:
        """What resumes this unfinished puzzle after a restart (JSON-ready): the puzzle,
        the sets given, the hints taken, the time so far, and ``extra`` (the page's
        choices). Saved after every set (trainer.storage.progress)."""
        return {"puzzle": self.puzzle.to_dict(), "items": [dict(i) for i in self.items],
                "hints": [{"key": h.key, "params": dict(h.params), "message": h.message}
                          for h in self.hints_given],
                "said_none": self.said_none,
                "elapsed": round(self._clock() - self.started, 2), **extra}

    @classmethod
    def resume(cls, data: dict[str, Any], *,
               clock: Callable[[], float] = time.monotonic) -> PuzzleSession | None:
        """The puzzle :meth:`progress` saved, as it was: the same sets given (their
        feedback said again), the same hints, the clock going on from the time so far.
        None when ``data`` does not read as an unfinished puzzle."""
        try:
            session = cls(Puzzle.from_dict(data["puzzle"]), clock=clock)
            items = [{"card": i.get("card"), "take": [str(c) for c in i.get("take", [])]}
                     for i in data.get("items", [])]
            for item in items:  # only cards that exist (a row is data, not trusted)
                for code in ([item["card"]] if item["card"] else []) + item["take"]:
                    Card.parse(code)
            hints = [Hint(str(h["key"]), dict(h.get("params") or {}), str(h.get("message", "")))
                     for h in data.get("hints", [])]
            elapsed = float(data.get("elapsed", 0.0))
        except (KeyError, TypeError, ValueError, AttributeError):
            return None
        session.hints_given = hints
        for item in items:
            session.add(item["card"], item["take"])
        if session.done:  # every set was found already: nothing left to resume
            return None
        session.said_none = bool(data.get("said_none"))
        session.started = clock() - max(0.0, elapsed)
        return session

    @property
    def answer(self) -> list[Any]:
        """The answer as stored with the attempt."""
        return list(self.items) + (["none"] if self.said_none else [])

    def _say(self, feedback: Feedback) -> Feedback:
        self.feedback.append(feedback)
        return feedback


class PuzzleKeeper:
    """One page slot's unfinished puzzle in the database, for one child (issue 25: a
    restart lost the sets found, the "for me" puzzle and the choices). ``extra`` is
    what the page needs to draw that puzzle again (its choices, its targets). Quick
    facts' slot holds a :meth:`QuickRound.progress`, written with each answer's attempt
    (``record_attempt(..., progress=...)``); read and cleared here."""

    def __init__(self, storage: Any, profile_id: int, slot: str,
                 extra: dict[str, Any] | None = None) -> None:
        self.storage = storage
        self.profile_id = profile_id
        self.slot = slot
        self.extra = dict(extra or {})

    def saved(self) -> dict[str, Any] | None:
        """What was saved for the slot (the page reads its choices from it), or None."""
        return self.storage.puzzle_progress(self.profile_id, self.slot)

    def load(self, puzzle_id: str | None = None) -> PuzzleSession | None:
        """The slot's unfinished puzzle (``puzzle_id``'s only, when given), or None."""
        data = self.saved()
        if data is None:
            return None
        session = PuzzleSession.resume(data)
        if session is None or (puzzle_id is not None and session.puzzle.id != puzzle_id):
            return None
        return session

    def save(self, session: PuzzleSession) -> None:
        """The sets found so far, as they are found (a checked puzzle is cleared)."""
        if session.done:
            self.clear()
            return
        self.storage.save_puzzle_progress(self.profile_id, self.slot, session.puzzle.id,
                                          session.progress(**self.extra))

    def clear(self) -> None:
        self.storage.clear_puzzle_progress(self.profile_id, self.slot)


#: Quick facts' slot in the database: the unfinished round (:meth:`QuickRound.progress`).
QUICK_FACTS_SLOT = "qf"


def quick_question(puzzle: Puzzle, answer: int | None = None) -> str:
    """``"8 + ? = 15"`` (or, with the answer, ``"8 + 7 = 15"``)."""
    return quick_question_text(puzzle.addends, puzzle.capture_sum, answer)


class QuickRound(_KeptOnlyIfSaved):
    """A short round of quick facts ("8 + ? = 15"), each answer timed privately."""

    def __init__(self, mode: str, capture_sum: int, puzzles: list[Puzzle], *,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.mode = mode
        self.capture_sum = capture_sum
        self.puzzles = list(puzzles)
        #: Names this round to the browser: a tap sent for another round is not answered.
        self.token = secrets.token_hex(6)
        self.index = 0
        self.results: list[tuple[Puzzle, bool]] = []
        #: The numbers tapped, one per question answered (what :meth:`progress` keeps).
        self.values: list[int] = []
        self.feedback: Feedback | None = None
        self._clock = clock
        self._shown_for = -1
        self._shown_at = 0.0

    @property
    def done(self) -> bool:
        return self.index >= len(self.puzzles)

    @property
    def current(self) -> Puzzle | None:
        return None if self.done else self.puzzles[self.index]

    @property
    def right(self) -> int:
        return sum(1 for _, ok in self.results if ok)

    def shown(self) -> Puzzle | None:
        """The current question is on screen: its clock starts (once per question)."""
        if not self.done and self._shown_for != self.index:
            self._shown_for, self._shown_at = self.index, self._clock()
        return self.current

    def answer(self, value: int, heard: float = 0.0) -> tuple[Puzzle, CheckResult, float] | None:
        """The child tapped ``value``: (puzzle, result, seconds), or ``None`` when the
        round is over. The feedback says the whole sum, right or wrong. ``heard``: the
        seconds the voice spoke while this question waited (the last answer's
        correction, said by itself), taken off its time: the child's, not the voice's."""
        puzzle = self.current
        if puzzle is None:
            return None
        waited = self._clock() - self._shown_at if self._shown_for == self.index else 0.0
        seconds = round(max(0.0, waited - max(0.0, heard)), 2)
        result = check(puzzle, value)
        expr = " + ".join(str(a) for a in puzzle.addends)
        if result.solved:
            self.feedback = Feedback("success", "qf_right",
                                     {"expr": expr, "value": value, "sum": puzzle.capture_sum})
        else:
            self.feedback = Feedback("error", "qf_wrong", {
                "expr": expr, "value": value, "total": sum(puzzle.addends) + value,
                "sum": puzzle.capture_sum, "right": puzzle.solutions[0].value})
        self.results.append((puzzle, result.solved))
        self.values.append(value)
        self.index += 1
        return puzzle, result, seconds

    def progress(self) -> dict[str, Any] | None:
        """What resumes this round after a reload or a restart (JSON-ready): its choices,
        its questions and the numbers tapped so far; ``None`` once it is over (nothing
        to resume). Kept with each answer's attempt (the Quick facts page's slot)."""
        if self.done:
            return None
        return {"mode": self.mode, "capture_sum": self.capture_sum,
                "puzzles": [p.to_dict() for p in self.puzzles], "values": list(self.values)}

    @classmethod
    def resume(cls, data: dict[str, Any], *,
               clock: Callable[[], float] = time.monotonic) -> QuickRound | None:
        """The round :meth:`progress` kept, as it was: the same questions, the numbers
        tapped answered again (so the last answer's feedback shows again, judged as
        before), the next question on screen. None when ``data`` does not read as an
        unfinished round (a row is data, not trusted)."""
        try:
            mode, capture_sum = str(data["mode"]), int(data["capture_sum"])
            puzzles = [Puzzle.from_dict(p) for p in data["puzzles"]]
            values = list(data["values"])
        except (KeyError, TypeError, ValueError, AttributeError):  # PuzzleError is a ValueError
            return None
        if not puzzles or len(values) >= len(puzzles) or any(
                type(v) is not int for v in values) or any(
                p.kind != "quick-facts" or p.capture_sum != capture_sum for p in puzzles):
            return None
        rnd = cls(mode, capture_sum, puzzles, clock=clock)
        for value in values:
            rnd.answer(value)
        return rnd


@dataclass(frozen=True)
class DailyView:
    """What the Daily page shows: ``puzzle`` (to answer), ``answered`` (just answered:
    its result stays until "next"), ``summary`` (the day is complete) or ``replay``
    (complete, and a puzzle played again), with the puzzle's index."""

    view: str
    index: int | None = None

    @property
    def slot(self) -> str:
        """The session-state slot of the puzzle (a replay starts afresh in its own)."""
        return f"dyr{self.index}" if self.view == "replay" else f"dy{self.index}"

    @property
    def mode(self) -> str:
        """How an attempt here is stored: a replay never changes the day's result."""
        return "daily-replay" if self.view == "replay" else "daily"


class DailyFlow:
    """Today's five puzzles in order: the first unanswered one, the one just answered
    (until the child asks for the next), then the summary with puzzles to play again."""

    def __init__(self, day: date) -> None:
        self.day = day
        self.showing: int | None = None
        self.replaying: int | None = None

    def view(self, stars: list[int | None], completed: bool,
             answered_here: Callable[[int], bool]) -> DailyView:
        """The view for the day's ``stars`` (``None``: not answered yet); ``answered_here``
        says whether a puzzle was checked in this session (its result is on screen)."""
        if self.showing is not None and stars[self.showing] is not None \
                and answered_here(self.showing):
            return DailyView("answered", self.showing)
        if completed or None not in stars:
            if self.replaying is None:
                return DailyView("summary")
            return DailyView("replay", self.replaying)
        self.showing = stars.index(None)
        return DailyView("puzzle", self.showing)

    def next(self) -> None:
        """The child asked for the next puzzle (or the day's result)."""
        self.showing = None

    def replay(self, index: int) -> None:
        self.replaying = index
