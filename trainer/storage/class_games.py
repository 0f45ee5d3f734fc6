"""A class's games against the computer (issue 29, migration 20): the game on the
projector and the pupils' votes.

A class has one game at a time that is not closed: starting one closes the one before.
The game's row holds its ``escoba-record/1`` (replayed by :mod:`trainer.class_game`), the
class's turn the votes are for, and what the last close of a vote did (``last``, JSON).
A vote is one row per pupil per turn, replaced while the turn is open; it is taken only
while the game waits for votes at that turn, from a pupil of the game's class. A turn is
saved at the revision read (two teacher's tabs closing the same vote: one wins, the
other is refused ``class_game.moved``; a vote moves the revision too, so a close that
counted the votes before a last one came is refused rather than played without it),
with the pupils' evidence (their votes as game
turns, :mod:`trainer.evidence`) in the same transaction.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

import sqlalchemy as sa

from puzzles.practice import Attempt

from .activity_answers import note_vote
from .practice import add_attempts, attempt_values
from .schema import (
    Database,
    StorageError,
    aware,
    class_games,
    class_members,
    class_votes,
    live_rounds,
    now,
)
from .versions import bump_class, bump_profiles

__all__ = ["ClassGameRow", "ClassGameStore", "CLASS_GAME_STATES"]

#: Where a class's game is: waiting for the class's votes, between rounds, over (its
#: result on the projector), ended by the teacher before its end (the points so far on the
#: projector, issue 29), closed (gone from every screen).
CLASS_GAME_STATES: tuple[str, ...] = ("voting", "round_over", "over", "ended", "closed")


@dataclass(frozen=True, slots=True)
class ClassGameRow:
    id: int
    class_id: int
    level: str
    target: int
    seed: int
    record: dict[str, Any]
    state: str
    turn: int
    last: dict[str, Any] | None
    revision: int
    created_at: datetime
    updated_at: datetime


def _row(row: Any) -> ClassGameRow:
    created, updated = aware(row.created_at), aware(row.updated_at)
    assert created is not None and updated is not None
    return ClassGameRow(row.id, row.class_id, row.level, row.target, int(row.seed),
                        json.loads(row.record), row.state, row.turn,
                        json.loads(row.last) if row.last else None, row.revision, created,
                        updated)


class ClassGameStore(Database):
    def start_class_game(self, class_id: int, *, level: str, target: int, seed: int,
                         record: dict[str, Any], state: str, turn: int,
                         last: dict[str, Any] | None = None) -> ClassGameRow:
        """A new game of the class; the one before it, if any, is closed, and so is a live
        round left open: the teacher has moved on, and a tablet shows a live round before
        the class's game (the pupils could not vote while it stayed). ``last``: what the
        computer played before the class's first vote, if it led."""
        stamp = now()
        with self.transaction() as conn:
            bump_class(conn, class_id)  # the class's row first: starts of two tabs queue
            conn.execute(class_games.update().where(
                (class_games.c.class_id == class_id) & (class_games.c.state != "closed"))
                .values(state="closed", updated_at=stamp))
            conn.execute(live_rounds.update().where(
                (live_rounds.c.class_id == class_id) & (live_rounds.c.state != "closed"))
                .values(state="closed"))
            new_id = conn.execute(class_games.insert().values(
                class_id=class_id, level=level, target=target, seed=seed,
                record=json.dumps(record), state=state, turn=turn,
                last=None if last is None else json.dumps(last, ensure_ascii=False), revision=0,
                created_at=stamp, updated_at=stamp)).inserted_primary_key[0]
            return _row(conn.execute(sa.select(class_games)
                                     .where(class_games.c.id == new_id)).one())

    def class_game(self, class_id: int) -> ClassGameRow | None:
        """The class's game that is not closed (one lookup by the class's index)."""
        with self.engine.connect() as conn:
            row = conn.execute(sa.select(class_games).where(
                (class_games.c.class_id == class_id) & (class_games.c.state != "closed"))
                .order_by(class_games.c.id.desc()).limit(1)).first()
        return None if row is None else _row(row)

    def class_game_pulse(self, class_id: int) -> tuple[int, str, int, datetime] | None:
        """(id, state, turn, updated_at) of the class's game that is not closed: what a
        tablet's timer reads to know the game moved on (no record read)."""
        with self.engine.connect() as conn:
            row = conn.execute(sa.select(class_games.c.id, class_games.c.state,
                                         class_games.c.turn, class_games.c.updated_at).where(
                (class_games.c.class_id == class_id) & (class_games.c.state != "closed"))
                .order_by(class_games.c.id.desc()).limit(1)).first()
        if row is None:
            return None
        updated = aware(row.updated_at)
        assert updated is not None
        return int(row.id), str(row.state), int(row.turn), updated

    def save_class_turn(self, class_id: int, game_id: int, *, revision: int,
                        record: dict[str, Any], state: str, turn: int,
                        last: dict[str, Any] | None,
                        evidence: Sequence[tuple[int, Attempt]] = ()) -> ClassGameRow:
        """The game after a close of the vote (or a new round, or its end), saved at the
        ``revision`` it was read at, with the pupils' evidence, in one transaction.
        Refused (``class_game.moved``) when it changed meanwhile or is closed, or is not
        this class's: then nothing is written."""
        if state not in CLASS_GAME_STATES:
            raise ValueError(f"a class's game is {CLASS_GAME_STATES}, not {state!r}")
        stamp = now()
        with self.transaction() as conn:
            bump_class(conn, class_id)
            moved = conn.execute(class_games.update().where(
                (class_games.c.id == game_id) & (class_games.c.class_id == class_id)
                & (class_games.c.revision == revision) & (class_games.c.state != "closed"))
                .values(record=json.dumps(record), state=state, turn=turn,
                        last=None if last is None else json.dumps(last, ensure_ascii=False),
                        revision=revision + 1, updated_at=stamp)).rowcount
            if not moved:
                raise StorageError("class_game.moved")
            if evidence:
                add_attempts(conn, [attempt_values(profile_id, attempt, stamp)
                                    for profile_id, attempt in evidence])
                bump_profiles(conn, [profile_id for profile_id, _a in evidence])
            return _row(conn.execute(sa.select(class_games)
                                     .where(class_games.c.id == game_id)).one())

    def close_class_game(self, class_id: int, game_id: int) -> None:
        """The teacher ends the game: it leaves every screen (``class_game.gone``: it was
        not this class's, or was closed already)."""
        with self.transaction() as conn:
            bump_class(conn, class_id)
            moved = conn.execute(class_games.update().where(
                (class_games.c.id == game_id) & (class_games.c.class_id == class_id)
                & (class_games.c.state != "closed"))
                .values(state="closed", updated_at=now())).rowcount
            if not moved:
                raise StorageError("class_game.gone")

    # -- votes -------------------------------------------------------------------------------
    def record_class_vote(self, game_id: int, turn: int, profile_id: int, move: str,
                          evidence: Attempt | None = None) -> None:
        """A pupil's vote at the class's ``turn`` (replacing theirs of that turn), with the
        evidence of a refused try if any. Refused (``StorageError``), nothing written, when
        the game is not their class's (``class_game.gone``) or the turn is closed
        (``class_game.closed``)."""
        stamp = now()
        with self.transaction() as conn:
            row = conn.execute(sa.select(class_games.c.state, class_games.c.turn).where(
                (class_games.c.id == game_id) & class_games.c.class_id.in_(
                    sa.select(class_members.c.class_id)
                    .where(class_members.c.profile_id == profile_id)))).first()
            if row is None or row.state == "closed":
                raise StorageError("class_game.gone")
            if row.state != "voting" or row.turn != turn:
                raise StorageError("class_game.closed")
            if evidence is not None:
                add_attempts(conn, [attempt_values(profile_id, evidence, stamp)])
                bump_profiles(conn, [profile_id])
                return
            # The game's revision moves with each vote: a close that read the votes
            # before this one came is refused (class_game.moved), never played without it.
            conn.execute(class_games.update().where(class_games.c.id == game_id)
                         .values(revision=class_games.c.revision + 1))
            moved = conn.execute(class_votes.update().where(
                (class_votes.c.game_id == game_id) & (class_votes.c.turn == turn)
                & (class_votes.c.profile_id == profile_id))
                .values(move=move, created_at=stamp)).rowcount
            if not moved:
                conn.execute(class_votes.insert().values(
                    game_id=game_id, turn=turn, profile_id=profile_id, move=move,
                    created_at=stamp))
            note_vote(conn, profile_id, stamp)  # the teacher's live view: not stuck

    def class_votes(self, game_id: int, turn: int) -> list[tuple[int, str]]:
        """Every vote of the turn: (pupil, move), in the pupils' order (for the tally and
        the evidence: the projector is shown counts only)."""
        with self.engine.connect() as conn:
            return [(int(r.profile_id), str(r.move)) for r in conn.execute(
                sa.select(class_votes.c.profile_id, class_votes.c.move).where(
                    (class_votes.c.game_id == game_id) & (class_votes.c.turn == turn))
                .order_by(class_votes.c.profile_id))]

    def class_vote_counts(self, game_id: int, turn: int) -> dict[str, int]:
        """How many voted each move at the turn (the projector's bars: counts only)."""
        with self.engine.connect() as conn:
            return {str(r.move): int(r.n) for r in conn.execute(
                sa.select(class_votes.c.move, sa.func.count().label("n")).where(
                    (class_votes.c.game_id == game_id) & (class_votes.c.turn == turn))
                .group_by(class_votes.c.move))}

    def class_vote_of(self, game_id: int, turn: int, profile_id: int) -> str | None:
        with self.engine.connect() as conn:
            return conn.execute(sa.select(class_votes.c.move).where(
                (class_votes.c.game_id == game_id) & (class_votes.c.turn == turn)
                & (class_votes.c.profile_id == profile_id))).scalar()
