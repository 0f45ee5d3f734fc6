"""Unfinished puzzles: what a page's puzzle slot holds, saved as the child goes.

One row per (profile, slot): the puzzle, the sets given and hints taken so far, and the
page's choices (trainer.practice_sessions.PuzzleSession.progress writes the JSON).
Saved after every set; removed once the puzzle is checked (its attempt is the record
then). A restart, a new tab or another replica resumes from it.
"""

from __future__ import annotations

import json
from typing import Any

import sqlalchemy as sa

from .schema import Database, now, puzzle_progress

__all__ = ["ProgressStore"]


class ProgressStore(Database):
    """Unfinished puzzles over the database."""

    def save_puzzle_progress(self, profile_id: int, slot: str, puzzle_id: str,
                             data: dict[str, Any]) -> None:
        """Keep ``data`` as ``slot``'s unfinished puzzle (replacing what was there)."""
        text = json.dumps(data, separators=(",", ":"), sort_keys=True)
        key = (puzzle_progress.c.profile_id == profile_id) & (puzzle_progress.c.slot == slot)
        with self.transaction() as conn:
            updated = conn.execute(puzzle_progress.update().where(key).values(
                puzzle_id=puzzle_id, data=text, updated_at=now())).rowcount
            if not updated:
                conn.execute(puzzle_progress.insert().values(
                    profile_id=profile_id, slot=slot, puzzle_id=puzzle_id, data=text,
                    updated_at=now()))

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
            conn.execute(puzzle_progress.delete().where(
                (puzzle_progress.c.profile_id == profile_id)
                & (puzzle_progress.c.slot == slot)))
