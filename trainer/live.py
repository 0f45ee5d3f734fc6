"""The class plays together (issue 29): a live puzzle round on the projector, answered on
every pupil's tablet. Plain classes, no Streamlit.

- :class:`LiveClass` is the teacher's side, over a :class:`~trainer.classroom.Classroom`
  (its access checks): start a "find all the 15s" round of a level, reveal it, close it,
  and :meth:`LiveClass.board`, what one refresh of the projector draws.
- :class:`PupilLive` is a pupil's: the open round of their class, their answer (written
  with its attempt, evidence for their facts like any puzzle), and "I am here".
- :func:`summarise` is the projector's reveal, computed by the puzzle checker (the only
  judge) from the answers: how many answered, each right set with how many found it, and
  the most common wrong sum with its arithmetic. It holds counts only: no profile id,
  no name, no order of children, so the projector cannot show who got what wrong.
"""

from __future__ import annotations

import secrets
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date, datetime, timedelta
from typing import Any

from escoba.cards import Card
from puzzles import Puzzle, check, generate, regenerate
from puzzles.checker import CheckResult
from puzzles.practice import Attempt

from .classroom import Classroom
from .classroom_views import ClassroomError
from .clock import now as clock_now
from .storage import LiveAnswerRow, LiveRoundRow, Storage, StorageError

__all__ = ["LIVE_KINDS", "LIVE_MODE", "PRESENT_MINUTES", "STALE_HOURS", "LiveRound", "RightSet",
           "WrongSum", "LiveSummary", "LiveBoard", "LiveClass", "PupilLive", "summarise"]

#: The kinds of live round (the first slice: "find all the 15s").
LIVE_KINDS: tuple[str, ...] = ("fifteens",)
#: The mode of a live answer's attempt (evidence like any other; My progress counts it).
LIVE_MODE = "live"
#: A pupil seen on My class within these minutes counts as signed in on the projector.
PRESENT_MINUTES = 5
#: A round left open longer than this (the teacher went home without closing it) is no
#: longer put before the pupils: My class would otherwise show only it, the next morning.
#: The projector still shows it, to close.
STALE_HOURS = 3


@dataclass(frozen=True, slots=True)
class LiveRound:
    """A round and the puzzle every tablet shows (regenerated from its id: the same cards
    on every replica)."""

    id: int
    class_id: int
    state: str  # open | revealed | closed
    puzzle: Puzzle
    created_at: datetime

    @classmethod
    def of(cls, row: LiveRoundRow) -> LiveRound:
        return cls(row.id, row.class_id, row.state, regenerate(str(row.spec["puzzle"])),
                   row.created_at)


@dataclass(frozen=True, slots=True)
class RightSet:
    """A set that makes the sum, and how many pupils found it."""

    cards: tuple[Card, ...]
    total: int
    found_by: int


@dataclass(frozen=True, slots=True)
class WrongSum:
    """The wrong set most often given: its values, their sum, the sum asked, and how many
    gave it. ``off`` > 0: too many; < 0: too few."""

    values: tuple[int, ...]
    total: int
    capture_sum: int
    count: int

    @property
    def off(self) -> int:
        return self.total - self.capture_sum

    @property
    def arithmetic(self) -> str:
        """``7 + 9 = 16``: digits and signs, the same in every language."""
        return f"{' + '.join(map(str, self.values))} = {self.total}"


@dataclass(frozen=True, slots=True)
class LiveSummary:
    """What the projector shows of a round: counts only (see the module doc)."""

    answered: int
    all_right: int
    sets: tuple[RightSet, ...]
    common_wrong: WrongSum | None


@dataclass(frozen=True, slots=True)
class LiveBoard:
    """One refresh of the projector: the pupils in (their pictures, never a name), the
    round if any, and its summary (the count while open, everything once revealed)."""

    present: tuple[str, ...]
    round: LiveRound | None
    summary: LiveSummary | None


def summarise(puzzle: Puzzle, answers: Sequence[LiveAnswerRow]) -> LiveSummary:
    """The reveal of ``puzzle`` from its answers, each checked again by the checker."""
    found: Counter[frozenset[Card]] = Counter()
    wrong: Counter[tuple[int, ...]] = Counter()
    right = 0
    for row in answers:
        result = check(puzzle, row.answer)
        right += result.solved
        for solution in result.found:
            found[frozenset(solution.take)] += 1
        for miss in result.wrong:
            if miss.key == "wrong_sum":
                wrong[tuple(sorted(int(v) for v in miss.params["values"]))] += 1
    sets = tuple(RightSet(tuple(s.take), sum(c.value for c in s.take),
                          found[frozenset(s.take)]) for s in puzzle.solutions)
    common = None
    if wrong:
        # The most given; among equals the smallest values, so every replica says the same.
        values, count = min(wrong.items(), key=lambda item: (-item[1], item[0]))
        common = WrongSum(values, sum(values), puzzle.capture_sum, count)
    return LiveSummary(len(answers), right, sets, common)


class LiveClass:
    """The teacher's side of a class's live rounds; every call checks the class is theirs."""

    def __init__(self, room: Classroom) -> None:
        self.room = room
        self.storage: Storage = room.storage

    def start(self, class_id: int, level: int, seed: str | None = None) -> LiveRound:
        """A new "find all the 15s" round of ``level`` at the class's capture sum (the
        round before, if any, closes)."""
        info = self.room.class_info(class_id, write=True)
        try:
            puzzle = generate("fifteens", int(level), seed or secrets.token_hex(4),
                              info.capture_sum)
        except ValueError as err:
            raise ClassroomError("live.bad_level") from err
        row = self.storage.start_live_round(class_id, "fifteens", {"puzzle": puzzle.id})
        return LiveRound.of(row)

    def current(self, class_id: int, *, touch: bool = True) -> LiveRound | None:
        """The round on the projector (open or revealed), if any."""
        self.room.class_info(class_id, touch=touch)
        row = self.storage.live_round(class_id)
        return None if row is None else LiveRound.of(row)

    def reveal(self, class_id: int, round_id: int) -> LiveRound:
        return self._move(class_id, round_id, "revealed")

    def close(self, class_id: int, round_id: int) -> LiveRound:
        return self._move(class_id, round_id, "closed")

    def _move(self, class_id: int, round_id: int, state: str) -> LiveRound:
        self.room.class_info(class_id)
        try:
            return LiveRound.of(self.storage.set_live_round_state(class_id, round_id, state))
        except StorageError as err:
            raise ClassroomError(err.key) from None

    def board(self, class_id: int, *, at: datetime | None = None,
              touch: bool = True) -> LiveBoard:
        """What one refresh of the projector draws (``touch=False`` from its timer). While a
        round is open only its count is read; the answers are read once it is revealed."""
        info = self.room.class_info(class_id, touch=touch)
        at = at or clock_now()
        since = at - timedelta(minutes=PRESENT_MINUTES)
        if info.signed_out_at is not None and info.signed_out_at > since:
            since = info.signed_out_at  # "Sign out every tablet" signed them out
        present_ids = set(self.storage.present_pupils(class_id, since))
        pictures = tuple(m.avatar for m in self.storage.members(class_id)
                         if m.profile_id in present_ids)
        row = self.storage.live_round(class_id)
        if row is None:
            return LiveBoard(pictures, None, None)
        live = LiveRound.of(row)
        if live.state == "open":
            summary = LiveSummary(self.storage.live_answer_count(live.id), 0, (), None)
        else:
            summary = summarise(live.puzzle, self.storage.live_answers(live.id))
        return LiveBoard(pictures, live, summary)


class PupilLive:
    """A pupil's side: the open round of their class and their one answer to it."""

    def __init__(self, storage: Storage, profile_id: int) -> None:
        self.storage = storage
        self.profile_id = profile_id

    def _class_id(self) -> int | None:
        member = self.storage.membership(self.profile_id)
        return None if member is None else member.class_id

    def current(self) -> LiveRound | None:
        """Their class's round (open or revealed), or None (not a pupil, no round)."""
        class_id = self._class_id()
        row = self.storage.live_round(class_id) if class_id is not None else None
        if row is None or row.created_at < clock_now() - timedelta(hours=STALE_HOURS):
            return None
        return LiveRound.of(row)

    def mine(self, live: LiveRound) -> LiveAnswerRow | None:
        """Their answer to the round, if they gave one."""
        return self.storage.live_answer_of(live.id, self.profile_id)

    def answer(self, live: LiveRound, result: CheckResult, seconds: float,
               answer: Sequence[Any], day: date) -> LiveAnswerRow:
        """Their answer, as the board's checker judged it, written with its attempt
        (``live.closed``, ``live.answered``, ``live.gone``: refused, nothing written)."""
        attempt = Attempt.of(live.puzzle, result, seconds, list(answer), LIVE_MODE, day)
        try:
            return self.storage.record_live_answer(live.id, self.profile_id, list(answer),
                                                   attempt)
        except StorageError as err:
            raise ClassroomError(err.key) from None

    def here(self) -> None:
        """They are on My class now: their picture shows on the projector."""
        class_id = self._class_id()
        if class_id is not None:
            self.storage.touch_presence(class_id, self.profile_id)

    def leave(self) -> None:
        """"Not you? Switch": their picture goes from the projector."""
        self.storage.leave_presence(self.profile_id)
