"""The class against the computer (issue 29): one game on the projector, the class as one
side, each of its moves voted on the pupils' tablets. Plain classes, no Streamlit.

- :class:`ClassGame` is a game as stored (:class:`~trainer.storage.ClassGameRow`) rebuilt
  by replaying its record into a :class:`~trainer.gameplay.GameSession` (seat 0 the class,
  seat 1 the computer): the class's legal moves come from the engine, the computer plays
  from its own observation (it never sees the class's hand, as in every game).
- :class:`ClassGames` is the teacher's side, over a :class:`~trainer.classroom.Classroom`
  (its access checks): start a game (the computer's level, a short target), the tally of
  the open turn (counts per move, never a name), close the vote (the move with most votes
  is played; a tie the teacher breaks among the tied moves; no votes, the teacher picks),
  then the computer's replies; the next round; the end.
- :class:`PupilVote` is a pupil's: the game of their class waiting for votes, their one
  vote per turn (changed until the turn closes). The engine judges a vote: an illegal one
  is refused with its code (the app says why in the child's words) and nothing is voted.

What a close of the vote did is kept in the game's row (:class:`TurnResult`): the move
played, how it was chosen, how many voted it, the coach's reason for it (a message key
of the ``coach.`` family the hints already use) and the move the coach would have made
when it was better, and the computer's replies. Hidden information: the projector and the
tablets draw the class's observation (its own hand and the table); the computer's hand
is a count, and is not in anything this module hands to a view.

A vote is evidence for the pupil's facts like a turn of their own game (see
docs/CLASSROOM.md): each pupil's last vote of a turn, written when the turn closes, in its
transaction, by the rules of :mod:`trainer.evidence` (a capture voted: right for its
additions; a card laid down while a capture was there: a miss), never timed (the class
talks it over); a wrong sum refused by the engine is a wrong answer at once, as in a game.
"""

from __future__ import annotations

import dataclasses
import secrets
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date
from typing import Any

from escoba import Card, Code, IllegalMoveError, Move, Observation, Rules, score_round

from . import hints as hint_mod
from .board_view import move_key
from .classroom import Classroom
from .classroom_views import ClassroomError
from .clock import now as clock_now
from .evidence import TurnContext, turn_evidence
from .gameplay import GameSession, SeatSpec
from .live import STALE_HOURS, ClassPupil, left_open
from .storage import ClassGameRow, Storage, StorageError
from .verdicts import move_message

__all__ = ["CLASS_SEAT", "COMPUTER_SEAT", "CLASS_GAME_LEVELS", "CLASS_GAME_TARGETS",
           "DEFAULT_LEVEL", "DEFAULT_TARGET", "STALE_HOURS", "ClassGame", "ClassGames",
           "PupilVote", "Tally", "TurnResult", "VoteRefused", "move_of"]

CLASS_SEAT, COMPUTER_SEAT = 0, 1
#: The computer's picture: the robot asked for in colour (issue 29: the page's font, Source
#: Sans, has a robot face of its own, drawn small and grey before the emoji font's).
COMPUTER_AVATAR = "🤖\ufe0f"
#: The computer players a class can face, easiest first ("just right" is one child's).
CLASS_GAME_LEVELS: tuple[str, ...] = ("gentle", "random", "greedy", "expert")
DEFAULT_LEVEL = "gentle"
#: Points to win. 1 is "one round" (the side ahead after a round wins; a tie plays on),
#: the default: about 18 votes, a lesson's time.
CLASS_GAME_TARGETS: tuple[int, ...] = (1, 5, 11)
DEFAULT_TARGET = 1


class VoteRefused(ClassroomError):
    """A vote the engine refused: ``key`` and ``params`` are of the game's catalog
    (``wrong_sum``, ``must_capture``... as on the Play page), not the classroom's."""


def move_of(key: str) -> Move:
    """A move from its board name (``"7o|3c.5e"``, :func:`trainer.board_view.move_key`)."""
    card, _bar, take = key.partition("|")
    return Move(Card.parse(card), frozenset(Card.parse(c) for c in take.split(".") if c))


@dataclass(frozen=True, slots=True)
class Tally:
    """The votes of the open turn: how many voted each move (legal moves only, most
    first, then in card order), and how many voted. No pupil is named."""

    counts: tuple[tuple[Move, int], ...]
    voters: int

    @property
    def leaders(self) -> tuple[Move, ...]:
        """The moves with the most votes (several: a tie; none: nobody voted)."""
        if not self.counts:
            return ()
        top = self.counts[0][1]
        return tuple(m for m, n in self.counts if n == top)

    def for_card(self, card: Card) -> int:
        """Votes for moves playing ``card`` (the bar on the card)."""
        return sum(n for m, n in self.counts if m.card == card)


@dataclass(frozen=True, slots=True)
class TurnResult:
    """What a close of the vote did (kept in the game's row as JSON); or, with no
    ``move`` (issue 29), what the computer played before the class's first vote of a game
    or a round, when it led: the projector says it."""

    move: Move | None
    how: str  # "votes" (most votes) | "tie" (the teacher broke it) | "teacher" (no votes)
    votes: int  # how many voted the move played
    voters: int
    reason: tuple[str, dict[str, Any]] | None  # the coach's, ``coach.`` catalog key
    better: Move | None  # the coach's move when it was better than the one played
    escoba: bool
    computer: tuple[tuple[Move | None, bool], ...]  # the computer's replies (move, escoba)

    def to_stored(self) -> dict[str, Any]:
        def key(move: Move | None) -> str | None:
            return None if move is None else move_key(move.card, move.take)

        return {"move": key(self.move), "how": self.how, "votes": self.votes,
                "voters": self.voters,
                "reason": None if self.reason is None else [self.reason[0], self.reason[1]],
                "better": key(self.better), "escoba": self.escoba,
                "computer": [[key(m), e] for m, e in self.computer]}

    @classmethod
    def from_stored(cls, data: dict[str, Any]) -> TurnResult:
        reason = data.get("reason")
        return cls(move_of(data["move"]) if data.get("move") else None, str(data["how"]),
                   int(data["votes"]),
                   int(data["voters"]),
                   (str(reason[0]), dict(reason[1])) if reason else None,
                   move_of(data["better"]) if data.get("better") else None,
                   bool(data.get("escoba")),
                   tuple((move_of(m) if m else None, bool(e)) for m, e in data["computer"]))

    @classmethod
    def opening(cls, replies: Sequence[Any]) -> TurnResult | None:
        """The computer's moves before the class's first vote (``replies``: the
        session's plays), or None when the class leads."""
        moves = _replies(replies)
        if not moves:
            return None
        return cls(None, "opening", 0, 0, None, None, False, moves)


def _replies(plays: Sequence[Any]) -> tuple[tuple[Move | None, bool], ...]:
    """The computer's plays as (move, escoba), in order."""
    return tuple((None if p.card is None else Move(p.card, frozenset(p.take)), bool(p.escoba))
                 for p in plays if p.kind == "play")


def _json_safe(params: dict[str, Any]) -> dict[str, Any]:
    """A coach reason's parameters as JSON keeps them (cards as their codes)."""
    def plain(value: Any) -> Any:
        if isinstance(value, Card):
            return str(value)
        if isinstance(value, (list, tuple, frozenset, set)):
            return [plain(v) for v in value]
        if isinstance(value, (bool, int, float, str)) or value is None:
            return value
        return str(value)

    return {str(k): plain(v) for k, v in params.items()}


def _seats(class_name: str, level: str, computer_name: str = "") -> list[SeatSpec]:
    return [SeatSpec("human", class_name, "🏫"),
            SeatSpec("bot", computer_name, COMPUTER_AVATAR, level)]


@dataclass(frozen=True)
class _Saved:
    """The shape :meth:`GameSession.resume` reads a game from."""

    id: int
    record: dict[str, Any]
    seats: list[dict[str, Any]]
    seed: int
    options: dict[str, Any]
    revision: int = 0
    profile_id: int | None = None


class ClassGame:
    """A class's game as stored, replayed: what the projector and the tablets draw."""

    def __init__(self, row: ClassGameRow, class_name: str = "") -> None:
        self.row = row
        seats = _seats(class_name, row.level)
        self.session = GameSession.resume(_Saved(row.id, row.record,
                                                 [s.to_dict() for s in seats], row.seed, {}))
        # The names drawn are this class's (the record keeps those it was started with).
        self.session.seats = seats

    def name_sides(self, ours: str, computer: str) -> None:
        """The names the views draw for the two sides, in the viewer's words ("Our
        class", "The computer"): a child voting for the class reads who plays plainly,
        not the class's code name and "Computer 2". Drawing only: a close of the vote
        rebuilds the game from its row, and the record keeps the names it started with."""
        self.session.seats = _seats(ours, self.row.level, computer)

    @property
    def id(self) -> int:
        return self.row.id

    @property
    def class_id(self) -> int:
        return self.row.class_id

    @property
    def state(self) -> str:
        return self.row.state

    @property
    def turn(self) -> int:
        return self.row.turn

    @property
    def rules(self) -> Rules:
        return self.session.rules

    @property
    def voting(self) -> bool:
        return self.row.state == "voting"

    @property
    def last(self) -> TurnResult | None:
        return None if self.row.last is None else TurnResult.from_stored(self.row.last)

    def observation(self) -> Observation:
        """The class's view: its hand, the table, the computer's hand as a count."""
        return self.session.observation(CLASS_SEAT)

    def legal_moves(self) -> list[Move]:
        return self.observation().legal_moves() if self.voting else []

    @property
    def totals(self) -> tuple[int, ...]:
        return tuple(self.session.game.totals)

    @property
    def winner(self) -> int | None:
        """The side that won (0: the class, 1: the computer), once it is over."""
        return self.session.game.winner

    @property
    def round_no(self) -> int:
        return len(self.session.game.rounds)

    @property
    def ended(self) -> bool:
        """Ended by the teacher before its end (its points so far on the projector)."""
        return self.row.state == "ended"

    def points_so_far(self) -> tuple[int, ...]:
        """The game's points per side, with the round under way's counted as if it ended
        now (its cards taken, its escobas): what a game ended early shows."""
        totals = list(self.totals)
        round_ = self.session.round
        if round_ is not None and not round_.is_over:
            now_ = score_round(self.rules, round_.pile_masks, round_.escobas).totals
            totals = [a + int(b) for a, b in zip(totals, now_, strict=True)]
        return tuple(totals)

    @property
    def ahead(self) -> int | None:
        """The side ahead by :meth:`points_so_far` (None: level)."""
        mine, theirs = self.points_so_far()[:2]
        return None if mine == theirs else (CLASS_SEAT if mine > theirs else COMPUTER_SEAT)

    def round_points(self) -> tuple[int, ...] | None:
        """The points of the round just ended, per side (between rounds and at the end)."""
        round_ = self.session.round
        if round_ is None or not round_.is_over:
            return None
        return tuple(int(p) for p in round_.score().totals)


def _tally(game: ClassGame, votes: Sequence[tuple[int, str]]) -> Tally:
    legal = set(game.legal_moves())
    counts: Counter[Move] = Counter()
    voters = 0
    for _pupil, key in votes:
        try:
            move = move_of(key)
        except ValueError:
            continue
        if move in legal:
            counts[move] += 1
            voters += 1
    ordered = sorted(counts.items(), key=lambda item: (-item[1], item[0].card,
                                                       sorted(item[0].take)))
    return Tally(tuple(ordered), voters)


def _explain(obs: Observation, move: Move) -> tuple[tuple[str, dict[str, Any]] | None,
                                                    Move | None]:
    """The coach's reason for ``move`` and its own move when that one was better."""
    assessed = hint_mod.assess(obs)
    played = next((a for a in assessed if a.move == move), None)
    if played is None:
        return None, None
    best = assessed[0]
    better = best.move if best.move != move and best.score > played.score + 1e-9 else None
    return (played.reason[0], _json_safe(played.reason[1])), better


class ClassGames:
    """The teacher's side of a class's games; every call checks the class is theirs."""

    def __init__(self, room: Classroom) -> None:
        self.room = room
        self.storage: Storage = room.storage

    def start(self, class_id: int, level: str = DEFAULT_LEVEL, target: int = DEFAULT_TARGET,
              seed: int | None = None) -> ClassGame:
        """A new game against the computer at ``level`` to ``target`` points (the game
        before, if any, closes). The computer plays at once when it leads."""
        info = self.room.class_info(class_id, write=True)
        if level not in CLASS_GAME_LEVELS:
            raise ClassroomError("class_game.bad_level")
        if target not in CLASS_GAME_TARGETS:
            raise ClassroomError("class_game.bad_target")
        seed = secrets.randbits(31) if seed is None else int(seed)
        rules = Rules.preset("classic", target=int(target), capture_sum=info.capture_sum)
        session = GameSession.new(rules, _seats(info.name, level), seed)
        opening = TurnResult.opening(session.run_bots())
        state, turn = self._where(session, 1)
        row = self.storage.start_class_game(
            class_id, level=level, target=int(target), seed=seed, record=session.record(),
            state=state, turn=turn, last=None if opening is None else opening.to_stored())
        return ClassGame(row, info.name)

    @staticmethod
    def _where(session: GameSession, turn: int) -> tuple[str, int]:
        if session.is_over:
            return "over", turn
        if session.round_over:
            return "round_over", turn
        return "voting", turn

    def current(self, class_id: int, *, touch: bool = True) -> ClassGame | None:
        """The class's game that is not closed, if any."""
        info = self.room.class_info(class_id, touch=touch)
        row = self.storage.class_game(class_id)
        return None if row is None else ClassGame(row, info.name)

    def tally(self, game: ClassGame) -> Tally:
        """The open turn's votes, counted (the projector's bars)."""
        counts = self.storage.class_vote_counts(game.id, game.turn)
        return _tally(game, [(0, key) for key, n in counts.items() for _ in range(n)])

    def _game(self, class_id: int, game_id: int) -> ClassGame:
        game = self.current(class_id)
        if game is None or game.id != game_id:
            raise ClassroomError("class_game.gone")
        return game

    def close_vote(self, class_id: int, game_id: int, turn: int,
                   choice: Move | None = None, *, day: date | None = None) -> TurnResult:
        """Close the vote of ``turn``: the move with most votes is played; on a tie the
        teacher's ``choice`` among the tied moves (``class_game.choose_tied`` until
        given); with no votes the teacher's ``choice`` of any legal move
        (``class_game.choose_move``). Then the computer plays; the pupils' votes are
        written as their evidence; all in one save (``class_game.moved``: another tab
        closed it first)."""
        game = self._game(class_id, game_id)
        if not game.voting or game.turn != turn:
            raise ClassroomError("class_game.moved")
        votes = self.storage.class_votes(game.id, turn)
        tally = _tally(game, votes)
        leaders = tally.leaders
        if len(leaders) == 1:
            move, how = leaders[0], "votes"
        elif leaders:
            if choice not in leaders:
                raise ClassroomError("class_game.choose_tied", count=len(leaders))
            assert choice is not None
            move, how = choice, "tie"
        else:
            if choice is None or choice not in game.legal_moves():
                raise ClassroomError("class_game.choose_move")
            move, how = choice, "teacher"
        session = game.session
        obs = game.observation()
        reason, better = _explain(obs, move)
        evidence = self._evidence(game, obs, votes, day or clock_now().date())
        outcome = session.play_human(move.card, sorted(move.take))
        if not outcome.ok or outcome.play is None:  # legal by construction: a bug
            raise ClassroomError("class_game.moved")
        replies = session.run_bots()
        state, _turn = self._where(session, turn)
        result = TurnResult(move, how, dict(tally.counts).get(move, 0), tally.voters, reason,
                            better, bool(outcome.play.escoba), _replies(replies))
        self._save(game, state, turn + 1, result.to_stored(), evidence)
        return result

    def _evidence(self, game: ClassGame, obs: Observation, votes: Sequence[tuple[int, str]],
                  day: date) -> list[tuple[int, Any]]:
        """Each pupil's vote as a turn of their own (trainer.evidence), never timed."""
        round_ = game.session.round
        move_no = len(round_.history) + 1 if round_ is not None else 0
        context = TurnContext(day=day.isoformat(), seconds=None, helped=True)
        legal = set(obs.legal_moves())
        out = []
        for pupil, key in votes:
            try:
                move = move_of(key)
            except ValueError:
                continue
            if move not in legal:
                continue
            attempt = turn_evidence(obs, move, None, context, game_id=game.id,
                                    round_no=game.round_no, move_no=move_no)
            if attempt is not None:
                out.append((pupil, _class_attempt(attempt)))
        return out

    def _save(self, game: ClassGame, state: str, turn: int, last: dict[str, Any] | None,
              evidence: Sequence[tuple[int, Any]] = ()) -> ClassGameRow:
        try:
            return self.storage.save_class_turn(
                game.class_id, game.id, revision=game.row.revision,
                record=game.session.record(), state=state, turn=turn, last=last,
                evidence=evidence)
        except StorageError as err:
            raise ClassroomError(err.key) from None

    def next_round(self, class_id: int, game_id: int) -> ClassGame:
        """Deal the next round (after the round's points were shown)."""
        game = self._game(class_id, game_id)
        if game.state != "round_over":
            raise ClassroomError("class_game.moved")
        game.session.next_round()
        opening = TurnResult.opening(game.session.run_bots())
        state, turn = self._where(game.session, game.turn + 1)
        row = self._save(game, state, turn, None if opening is None else opening.to_stored())
        return ClassGame(row, game.session.seats[CLASS_SEAT].name)

    def stop(self, class_id: int, game_id: int) -> ClassGame:
        """The teacher ends the game before its end (issue 29): the vote closes, and the
        projector shows the points so far and who was ahead, the tablets that it ended,
        until :meth:`end` takes it away. A game already over or ended is left so."""
        game = self._game(class_id, game_id)
        if game.state in ("over", "ended"):
            return game
        row = self._save(game, "ended", game.turn, game.row.last)
        return ClassGame(row, game.session.seats[CLASS_SEAT].name)

    def end(self, class_id: int, game_id: int) -> None:
        """The game leaves the projector and the tablets."""
        self.room.class_info(class_id)
        try:
            self.storage.close_class_game(class_id, game_id)
        except StorageError as err:
            raise ClassroomError(err.key) from None


def _class_attempt(attempt: Any) -> Any:
    """A vote's evidence, named as the class's game (``classgame-12-r1-m5-ok``): counted
    as a game apart from the pupil's own games (``trainer.evidence.game_of``)."""
    return dataclasses.replace(attempt, puzzle_id="class" + attempt.puzzle_id)


class PupilVote(ClassPupil):
    """A pupil's side: their class's game and their vote at its open turn. A game nobody
    moved for :data:`~trainer.live.STALE_HOURS` (left open overnight) is not theirs."""

    def pulse(self) -> tuple[int, str, int] | None:
        """(game, state, turn) of their class's game (None as :meth:`current`): a tablet's
        timer's one small read."""
        class_id = self._class_id()
        found = None if class_id is None else self.storage.class_game_pulse(class_id)
        if found is None or left_open(found[3]):
            return None
        return found[:3]

    def current(self) -> ClassGame | None:
        """Their class's game (not closed, not left from another day), or None."""
        class_id = self._class_id()
        row = self.storage.class_game(class_id) if class_id is not None else None
        if row is None or left_open(row.updated_at):
            return None
        info = self.storage.get_class(row.class_id)
        return ClassGame(row, info.name if info is not None else "")

    def mine(self, game: ClassGame) -> Move | None:
        """Their vote at the open turn, if any."""
        key = self.storage.class_vote_of(game.id, game.turn, self.profile_id)
        return None if key is None else move_of(key)

    def vote(self, game: ClassGame, turn: int, card: Card, take: Sequence[Card],
             day: date) -> Move:
        """Their vote at ``turn``, judged by the engine first. An illegal move is refused
        (:class:`VoteRefused`, the engine's reason; a wrong sum kept as a wrong answer, as
        a game's refused try); a closed turn or a game not their class's is refused
        (``class_game.closed``, ``class_game.gone``); nothing is voted then."""
        move = Move(card, frozenset(take))
        verdict: IllegalMoveError | None = game.session.game.check(move, CLASS_SEAT) \
            if game.voting else None
        if game.voting and verdict is not None:
            evidence = None
            if verdict.code == Code.WRONG_SUM:
                round_ = game.session.round
                attempt = turn_evidence(game.observation(), move, verdict,
                                        TurnContext(day.isoformat(), None, True),
                                        game_id=game.id, round_no=game.round_no,
                                        move_no=len(round_.history) + 1 if round_ else 0)
                evidence = None if attempt is None else _class_attempt(attempt)
            if evidence is not None:
                self._write(game, turn, "", evidence)
            key, params = move_message(verdict)
            raise VoteRefused(key, **params)
        self._write(game, turn, move_key(move.card, move.take))
        return move

    def _write(self, game: ClassGame, turn: int, key: str, evidence: Any = None) -> None:
        try:
            self.storage.record_class_vote(game.id, turn, self.profile_id, key, evidence)
        except StorageError as err:
            raise ClassroomError(err.key) from None
