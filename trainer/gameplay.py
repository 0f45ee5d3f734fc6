"""A game as the app plays it: seats (children and computer players), moves, saving.

Pure Python over the engine and :mod:`trainer.storage`: no Streamlit here, so the
whole flow (a child's move, the computer's replies, the round's end, saving
and resuming) is tested directly, and the pages stay thin.

Resuming is replaying: the database keeps the ``escoba-record/1`` of the game
so far, and :meth:`GameSession.resume` rebuilds the exact position with
:func:`escoba.record.replay`. Random choices (shuffles, computer moves) are
seeded from the game's seed and the position, so a resumed game goes on as
the uninterrupted one would have.
"""

from __future__ import annotations

import contextlib
import logging
import random
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

import sqlalchemy as sa

from escoba import (
    Attempt,
    Card,
    Game,
    IllegalMoveError,
    Move,
    Observation,
    Play,
    Renuncio,
    Round,
    Rules,
    game_to_record,
)
from escoba.bots import PLAYER_LEVELS, JustRightPlayer, Player, make_player
from escoba.record import replay, round_moves

from .evidence import TurnContext, turn_evidence
from .storage import GameChanged, RoundResult, Storage
from .storage.trouble import UNAVAILABLE, storage_trouble, trouble_line
from .verdicts import move_message
from .words import seat_name

log = logging.getLogger(__name__)

__all__ = ["SeatSpec", "Outcome", "GameSession", "bot_levels"]

#: A game that has not ended after this many rounds is stopped (ties can repeat).
MAX_ROUNDS = 60


def bot_levels() -> list[str]:
    """The computer player levels the engine offers, easiest first."""
    order = ["gentle", "random", "greedy", "expert", "just_right"]
    return [lvl for lvl in order if lvl in PLAYER_LEVELS] + sorted(
        lvl for lvl in PLAYER_LEVELS if lvl not in order)


#: The pictures of computer players, seat by seat (1-based: seat 1 has the first).
BOT_AVATARS: tuple[str, ...] = ("🤖", "👾", "🦉")


def bot_avatar(seat: int) -> str:
    """The picture of the computer player in ``seat`` (1-based)."""
    return BOT_AVATARS[(seat - 1) % len(BOT_AVATARS)]


@dataclass(frozen=True)
class SeatSpec:
    """Who sits in a seat: a child (``human``) or a computer player of a ``level``."""

    kind: str  # "human" | "bot"
    name: str
    avatar: str = "🙂"
    level: str = ""
    #: A computer player that took over a child's seat at a table: the child's name
    #: (shown as "Computer for Leo", trainer.words.seat_name).
    stands_in: str = ""
    #: A "just right" computer's strength (0-1), the child's estimate when the game
    #: began (trainer.just_right): kept in the seat, so a resumed game plays on at it
    #: and the estimate knows what the child faced.
    strength: float | None = None

    @property
    def is_human(self) -> bool:
        return self.kind == "human"

    def to_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = {"kind": self.kind, "name": self.name, "avatar": self.avatar,
                                "level": self.level}
        if self.stands_in:
            data["stands_in"] = self.stands_in
        if self.strength is not None:  # unrounded: a resumed game plays on exactly as before
            data["strength"] = self.strength
        return data

    def player(self) -> Player:
        """The computer player of this seat (a "just right" one at its strength)."""
        if self.level == "just_right" and self.strength is not None:
            return JustRightPlayer(self.strength)
        return make_player(self.level)

    @staticmethod
    def from_dict(data: dict[str, Any]) -> SeatSpec:
        strength = data.get("strength")
        return SeatSpec(str(data.get("kind", "bot")), str(data.get("name", "?")),
                        str(data.get("avatar", "🙂")), str(data.get("level", "")),
                        str(data.get("stands_in", "")),
                        float(strength) if isinstance(strength, (int, float)) else None)


@dataclass(frozen=True)
class Outcome:
    """What a child's action did: ``ok`` or not, a message key and its parameters."""

    ok: bool
    key: str
    params: dict[str, Any] = field(default_factory=dict)
    play: Play | None = None
    #: The engine refused the move itself (a wrong sum, a capture that must be made):
    #: nothing was played and the child tries again at the same position. The board says
    #: it beside Play until the next tap (issue 31), unlike the session's own refusals.
    move_refused: bool = False


class GameSession:
    """One game being played in the app, saved to storage after every action."""

    def __init__(self, rules: Rules, seats: Sequence[SeatSpec], seed: int, game: Game, *,
                 storage: Storage | None = None, game_id: int | None = None,
                 options: dict[str, Any] | None = None, revision: int = 0,
                 profile_id: int | None = None) -> None:
        self.rules = rules
        #: The profile whose game this is: the child at the first human seat, whose
        #: turns are evidence for their facts (trainer.evidence).
        self.profile_id = profile_id
        #: Evidence of the child's turns not saved yet: written with the move they
        #: belong to, in the same transaction.
        self._evidence: list[Any] = []
        #: At a table (trainer.tables) each device's child is the profile of its own seat:
        #: ``(seat, profile id)`` whose turns are evidence, instead of the first child's.
        self.evidence_owner: tuple[int, int] | None = None
        self.seats = list(seats)
        self.seed = seed
        self.game = game
        self.storage = storage
        self.game_id = game_id
        self.options = dict(options or {})
        self.players = {i: s.player() for i, s in enumerate(self.seats) if not s.is_human}
        #: The game's revision in the database this session extends (see save()).
        self.revision = revision
        #: Why this session no longer matches the database (``game_stale`` or
        #: ``game_closed``): set when a save was refused; the app then reloads.
        self.conflict: str | None = None
        self._defer_save = False
        # What the database holds already: the moves per round, finished rounds' results.
        self._saved_per_round = {n: len(round_moves(r)) for n, r in enumerate(game.rounds, 1)}
        self._saved_results = sum(1 for r in game.rounds if r.is_over)
        self._record_rounds = len(game.rounds)
        #: The coach's review per human seat, once the game is over (see review_for).
        self._reviews: dict[int, Any] = {}

    # -- creation ---------------------------------------------------------------
    @classmethod
    def new(cls, rules: Rules, seats: Sequence[SeatSpec], seed: int, *,
            storage: Storage | None = None, profile_id: int | None = None,
            options: dict[str, Any] | None = None) -> GameSession:
        if len(seats) != rules.players:
            raise ValueError(f"{rules.players} seats needed, got {len(seats)}")
        game = Game(rules, rng=random.Random(seed))
        session = cls(rules, seats, seed, game, storage=storage, options=options,
                      profile_id=profile_id)
        session._start_round()
        if storage is not None and profile_id is not None:
            session.game_id = storage.create_game(
                profile_id, rules=rules.to_dict(only_changes=True),
                seats=[s.to_dict() for s in seats], seed=seed, record=session.record(),
                options=options)
        return session

    @staticmethod
    def give_up(row: Any, storage: Storage) -> None:
        """Mark a saved game (a :class:`trainer.storage.GameRow`) abandoned: one that no
        longer replays must not lock its child out of playing."""
        storage.abandon_game(row.id)

    @classmethod
    def resume(cls, row: Any, storage: Storage | None = None) -> GameSession:
        """Rebuild a saved game (a :class:`trainer.storage.GameRow`) by replaying its record."""
        record = storage.complete_record(row) if storage is not None else row.record
        result = replay(record)
        # The record's rules carry every option, open_hand included.
        game = result.game
        rules = game.rules
        seats = [SeatSpec.from_dict(s) for s in row.seats]
        session = cls(rules, seats, row.seed, game, storage=storage, game_id=row.id,
                      options=row.options, revision=row.revision, profile_id=row.profile_id)
        if game.round is None:
            session._start_round()
        return session

    @property
    def recent(self) -> list[Play]:
        """What just happened, shown one at a time on the board: the round's public
        history from the last move a child made (or the round's start) to now. Rebuilt
        from the history each time, so a move, a bot's reply, a renuncio, a refresh and a
        restart all agree without anyone keeping a second list."""
        history = list(self.game.round.history) if self.game.round is not None else []
        start = 0
        for i in range(len(history) - 1, -1, -1):
            event = history[i]
            if (event.kind in ("play", "miscount") and 0 <= event.seat < len(self.seats)
                    and self.seats[event.seat].is_human):
                start = i
                break
        return history[start:]

    # -- reading ------------------------------------------------------------------
    @property
    def round(self) -> Round | None:
        return self.game.round

    @property
    def to_move(self) -> int:
        return self.game.round.to_move

    @property
    def round_over(self) -> bool:
        return self.game.round.is_over

    @property
    def is_over(self) -> bool:
        return self.game.is_over or (self.round_over and len(self.game.rounds) >= MAX_ROUNDS)

    def why_more_rounds(self) -> str | None:
        """Why the game goes on after this round, when a child could wonder: ``"tie"``
        when sides reached the target with the same points (the engine's rule: the
        game ends only when one side leads, escoba.Game.round_finished), ``"no_score"``
        when nobody reached it in a "first to score" game; else None."""
        if not self.round_over or self.is_over:
            return None
        target = self.rules.target
        totals = self.game.totals
        reached = [points for points in totals if points >= target]
        if reached and reached.count(max(reached)) > 1:
            return "tie"
        if not reached and target == 1:
            return "no_score"
        return None

    @property
    def human_seats(self) -> list[int]:
        return [i for i, s in enumerate(self.seats) if s.is_human]

    @property
    def is_human_turn(self) -> bool:
        return not self.round_over and self.seats[self.to_move].is_human

    def observation(self, seat: int) -> Observation:
        return self.game.observation(seat)

    def side_name(self, side: int) -> str:
        seats = self.rules.seats_of(side)
        return " + ".join(seat_name(self.seats[s], s) for s in seats)

    def record(self) -> dict[str, Any]:
        """The game so far as an ``escoba-record/1`` document: the one serialisation of a
        game, which :meth:`save` writes from too."""
        return game_to_record(self.game, [s.name for s in self.seats])

    # -- actions ------------------------------------------------------------------
    def check(self, card: Card, take: Sequence[Card]) -> IllegalMoveError | None:
        """The engine's verdict on a child's choice, changing nothing (``None``: legal)."""
        return self.game.check(Move(card, frozenset(take)), self.to_move)

    def play_human(self, card: Card, take: Sequence[Card],
                   context: TurnContext | None = None) -> Outcome:
        """A child's move, judged by the engine (which also applies ``miscount=penalty``),
        played and saved; a refusal says why in catalog terms. With a ``context`` (the
        app's turns), the turn's evidence for the child's facts is saved too: with the
        move, in its transaction, or alone when the engine refused the move."""
        if self.conflict is not None:
            return self._refused()
        if not self.is_human_turn:
            return Outcome(False, "not_your_turn")
        seat = self.to_move
        move = Move(card, frozenset(take))
        before = self.observation(seat) if context is not None else None
        evidence = None
        if before is not None and seat == self._evidence_seat:
            # Judged first without changing anything: the evidence of a refused try too.
            verdict = self.game.check(move, seat)
            round_ = self.game.round
            evidence = turn_evidence(before, move, verdict, context,
                                     game_id=self.game_id, round_no=len(self.game.rounds),
                                     move_no=len(round_.history) + 1 if round_ else 0)
            if evidence is not None and verdict is not None:
                self._save_evidence_alone(evidence)
                evidence = None
        if evidence is not None:
            self._evidence.append(evidence)
        attempt = self._attempt(move, seat=seat)
        if self.conflict is not None:
            return self._refused()
        played = attempt.play
        if attempt.verdict is None and played is not None:
            return Outcome(True, "escoba" if played.escoba else "played", {}, played)
        key, params = move_message(attempt.verdict)
        if played is not None:  # the engine laid the card down: a miscount's penalty
            return Outcome(False, "penalty", params, played)
        return Outcome(False, key, params, move_refused=True)

    @contextlib.contextmanager
    def saved_together(self) -> Iterator[None]:
        """Nothing played inside is saved until it ends; then one :meth:`save` (the
        caller's) keeps it all in one transaction: a child's move and the replies."""
        self._defer_save = True
        try:
            yield
        finally:
            self._defer_save = False

    def play_human_then_bots(self, card: Card, take: Sequence[Card],
                             context: TurnContext | None = None) -> Outcome:
        """A child's move and the computer's replies, saved in one transaction."""
        with self.saved_together():
            outcome = self.play_human(card, take, context)
            if outcome.play is not None:
                self.run_bots()
        if self.conflict is None:
            self.save()
        return self._refused() if self.conflict is not None else outcome

    @property
    def _evidence_seat(self) -> int | None:
        """The seat whose turns are the profile's evidence: the first child's (at a table,
        this device's own seat)."""
        if self.evidence_owner is not None:
            return self.evidence_owner[0]
        humans = self.human_seats
        return humans[0] if humans and self.profile_id is not None else None

    @property
    def _evidence_profile(self) -> int | None:
        """Whose facts the evidence is for."""
        return self.evidence_owner[1] if self.evidence_owner is not None else self.profile_id

    def _save_evidence_alone(self, evidence: Any) -> None:
        """A refused try's evidence (no move to save it with): its own transaction."""
        owner = self._evidence_profile
        if self.storage is not None and owner is not None:
            self.storage.record_attempt(owner, evidence)

    def _refused(self) -> Outcome:
        """The outcome of an action the database refused (:attr:`conflict` says why)."""
        return Outcome(False, self.conflict or "game_stale")

    def claim_renuncio(self, take: Sequence[Card] = ()) -> Outcome:
        """The child calls *¡renuncio!* and takes the set they chose (``take``, the table
        cards tapped); with one possible set, that one. With several and none chosen
        (or one that is not a set the card could have taken), nothing happens and the
        child is asked to tap the set first (``renuncio_choose``)."""
        if self.conflict is not None:
            return self._refused()
        if not self.is_human_turn:
            return Outcome(False, "not_your_turn")
        claims = self.observation(self.to_move).renuncio_claims()
        if not claims:
            return Outcome(False, "renuncio_nothing")
        chosen = frozenset(take)
        matching = [c for c in claims if c.take == chosen]
        if matching:
            claim = matching[0]
        elif len(claims) == 1 and not chosen:
            claim = claims[0]
        else:
            return Outcome(False, "renuncio_choose", {"count": len(claims)})
        played = self.game.claim_renuncio(claim)
        self.save()
        if self.conflict is not None:
            return self._refused()
        return Outcome(True, "renuncio_ok", {"count": len(claim.take) + 1}, played)

    def bot_step(self) -> list[Play]:
        """One computer player's turn (a renuncio claim first, if it makes one)."""
        if self.conflict is not None or self.round_over or self.seats[self.to_move].is_human:
            return []
        seat = self.to_move
        player = self.players[seat]
        rng = self._rng("bot")
        events: list[Play] = []
        obs = self.observation(seat)
        if obs.renuncio_card is not None:
            claim: Renuncio | None = player.claim_renuncio(obs, rng)
            if claim is not None:
                events.append(self.game.claim_renuncio(claim))
                obs = self.observation(seat)
        events.append(self._play(player.choose(obs, rng), save=False))
        self.save()
        return events

    def run_bots(self) -> list[Play]:
        """Computer turns until a child is to move or the round ends."""
        events: list[Play] = []
        while (self.conflict is None and not self.round_over
               and not self.seats[self.to_move].is_human):
            events.extend(self.bot_step())
        return events

    def next_round(self) -> None:
        """Deal the next round (after the score table)."""
        if self.conflict is not None or not self.round_over or self.is_over:
            return
        self._start_round()
        self.save()

    # -- internals --------------------------------------------------------------------
    def _rng(self, purpose: str) -> random.Random:
        position = (len(self.game.rounds), len(self.game.round.history) if self.game.round
                    else 0)
        return random.Random(f"{self.seed}:{purpose}:{position}")

    def _start_round(self) -> None:
        self.game.rng = self._rng("deal")
        self.game.start_round()

    def _play(self, move: Move, *, save: bool = True) -> Play:
        """A computer player's move: the engine raises if it is illegal (a bug)."""
        played = self._attempt(move, save=save).play
        assert played is not None  # Game.play raises on an illegal move
        return played

    def _attempt(self, move: Move, *, seat: int | None = None, save: bool = True) -> Attempt:
        """Try ``move`` through the engine (a child's under the miscount rule, a computer
        player's strictly) and save what was played."""
        human = self.seats[self.to_move].is_human
        attempt = self.game.attempt(move, seat) if human else Attempt(self.game.play(move), None)
        if attempt.play is None:
            return attempt
        if save:
            self.save()
        return attempt

    @property
    def review_seat(self) -> int | None:
        """The seat whose review the game's row keeps (the game's own child: the first
        human seat, at a table the opener's), or None with no child at the table."""
        return self.human_seats[0] if self.human_seats else None

    def review_for(self, seat: int) -> Any:
        """The coach's review (:func:`trainer.hints.review`) of ``seat``'s game, once it
        is over; made once per seat. The review of :attr:`review_seat` is made and saved
        by the save that finishes the game, in its transaction (a game finished on any
        page, or at a table, has it); the end screen only shows it."""
        if seat not in self._reviews:
            from .hints import review  # the coach's, only when a game ends

            self._reviews[seat] = review(self.record(), seat)
        return self._reviews[seat]

    def save(self) -> None:
        """Write new moves, finished rounds' points (and, when a round was dealt or the
        game ended, the record and the coach's review of :attr:`review_seat`) in one
        transaction, at the revision this session holds.

        The moves are the record's own entries (``escoba.record.round_moves``, which
        :meth:`record` is made of): one serialisation of a game.
        When the database refuses (another tab moved first, or the game was left),
        :attr:`conflict` says why and nothing more is played or saved here.
        """
        if self.storage is None or self.game_id is None or self._defer_save \
                or self.conflict is not None:
            return
        # Only the current round, and the one before it when it was just dealt, can have
        # new moves (rounds before them were saved when they ended): no walk over the
        # whole game per move.
        rounds = self.game.rounds
        new_moves: list[tuple[int, int, dict[str, Any]]] = []
        for number in range(max(1, len(rounds) - 1), len(rounds) + 1):
            saved = self._saved_per_round.get(number, 0)
            new_moves += [(number, m, move) for m, move in
                          enumerate(round_moves(rounds[number - 1], saved), start=saved + 1)]
        finished = sum(1 for r in rounds if r.is_over)
        new_results = [RoundResult(number, [dict(b) for b in rounds[number - 1].score().breakdown])
                       for number in range(self._saved_results + 1, finished + 1)]
        # The whole record only when a round was dealt or the game ends; moves
        # alone otherwise (they are rows of their own): less to write per move.
        rewrite = len(rounds) != self._record_rounds or self.is_over
        if not new_moves and not new_results and not rewrite:
            return
        review = None
        if self.is_over and self.review_seat is not None:
            made = self.review_for(self.review_seat)
            # Stored for the progress charts of the profile's child: the same count.
            review = made.to_stored() if made is not None else None
        try:
            self.revision = self.storage.save_progress(
                self.game_id, self.record() if rewrite else None, revision=self.revision,
                new_moves=new_moves, new_results=new_results, winner=self.game.winner,
                finished=self.is_over, evidence=self._evidence,
                evidence_profile=self._evidence_profile if self._evidence else None,
                review=review)
        except GameChanged as refused:
            self.conflict = refused.key
            self._evidence.clear()  # a move not saved: its evidence is not either
            return
        except sa.exc.DBAPIError as failed:
            if storage_trouble(failed) != UNAVAILABLE:
                raise  # a damaged database (a grown-up's page), or a bug
            # The database cannot be written now (a read-only file, a full disk, the
            # server gone): nothing was saved, and this session says so instead of
            # drawing the move as made. Its owner reads the game again from storage.
            log.warning("could not save game %s: %s", self.game_id, trouble_line(failed))
            self.conflict = UNAVAILABLE
            self._evidence.clear()
            return
        self._evidence.clear()
        for number, move_no, _entry in new_moves:
            self._saved_per_round[number] = move_no
        self._saved_results = finished
        self._record_rounds = len(rounds)
