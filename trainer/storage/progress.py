"""Unfinished puzzles: what a page's puzzle slot holds, saved as the child goes.

One row per (profile, slot): the puzzle, the sets given and hints taken so far, and the
page's choices (trainer.practice_sessions.PuzzleSession.progress writes the JSON).
Saved after every set; removed once the puzzle is checked (its attempt is the record
then). A restart, a new tab or another replica resumes from it. Quick facts keeps its
unfinished round in a slot too (``qf``: QuickRound.progress), written with each
answer's attempt in one transaction.
"""

from __future__ import annotations

import json
from typing import Any, NamedTuple

import sqlalchemy as sa

from .dialects import insert_for
from .schema import Database, now, puzzle_progress

__all__ = ["ProgressStore", "SlotProgress", "write_progress"]


class SlotProgress(NamedTuple):
    """What a page's slot holds after a write: ``data`` for ``puzzle_id`` (replacing what
    was there), or nothing (``data`` None: cleared). Written beside an attempt in its
    transaction (:meth:`.practice.PracticeStore.record_attempt`), so that an answer and
    the place it leaves the child at are kept together or not at all."""

    slot: str
    puzzle_id: str
    data: dict[str, Any] | None


def write_progress(conn: sa.Connection, profile_id: int, progress: SlotProgress) -> None:
    """``progress`` written in ``conn``'s transaction: the one way a slot is written."""
    key = (puzzle_progress.c.profile_id == profile_id) & (puzzle_progress.c.slot == progress.slot)
    if progress.data is None:
        conn.execute(puzzle_progress.delete().where(key))
        return
    text = json.dumps(progress.data, separators=(",", ":"), sort_keys=True)
    # One statement: the slot's first write from two tabs at once (the answer's
    # transaction now) must not fail the second on the key, taking its answer with it.
    stmt = insert_for(conn.dialect.name)(puzzle_progress).values(
        profile_id=profile_id, slot=progress.slot, puzzle_id=progress.puzzle_id, data=text,
        updated_at=now())
    conn.execute(stmt.on_conflict_do_update(
        index_elements=["profile_id", "slot"],
        set_={"puzzle_id": stmt.excluded.puzzle_id, "data": stmt.excluded.data,
              "updated_at": stmt.excluded.updated_at}))


class ProgressStore(Database):
    """Unfinished puzzles over the database."""

    def save_puzzle_progress(self, profile_id: int, slot: str, puzzle_id: str,
                             data: dict[str, Any]) -> None:
        """Keep ``data`` as ``slot``'s unfinished puzzle (replacing what was there)."""
        with self.transaction() as conn:
            write_progress(conn, profile_id, SlotProgress(slot, puzzle_id, data))

    def puzzle_progress(self, profile_id: int, slot: str) -> dict[str, Any] | None:
        """``slot``'s unfinished puzzle, or None (a row that no longer reads: None)."""
        with self.engine.connect() as conn:
            text = conn.execute(sa.select(puzzle_progress.c.data).where(
                (puzzle_progress.c.profile_id == profile_id)
                & (puzzle_progress.c.slot == slot))).scalar()
        if text is None:
            return None
        try:
            data = json.loads(text)
        except ValueError:
            return None
        return data if isinstance(data, dict) else None

    def clear_puzzle_progress(self, profile_id: int, slot: str) -> None:
        """The puzzle was checked (or left for another): nothing to resume."""
        with self.transaction() as conn:
            write_progress(conn, profile_id, SlotProgress(slot, "", None))
