"""The open class's data, read once per change: its snapshot and what the parts compute
from it, kept in this browser session under the class's version
(:meth:`~trainer.classroom.Classroom.version`), so a rerun costs one small query."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import date
from typing import Any

import streamlit as st

from trainer.classroom import Classroom
from trainer.classroom_views import FactGrid, PupilRow
from trainer.storage import ClassInfo, ClassSnapshot

from ..i18n import current_language
from .state import KEY_SNAP

__all__ = ["OpenClass", "class_data"]


@dataclass(frozen=True, slots=True)
class OpenClass:
    """What a part of one class draws from: the teacher's classroom, the class's snapshot,
    the day, and the memo of the views computed from this snapshot (it goes with it)."""

    room: Classroom
    snap: ClassSnapshot
    memo: dict[Any, Any]
    day: date

    @property
    def info(self) -> ClassInfo:
        return self.snap.info

    def kept(self, key: Any, make: Callable[[], Any]) -> Any:
        """``make()``, computed once per snapshot under ``key``."""
        if key not in self.memo:
            self.memo[key] = make()
        return self.memo[key]

    def rows(self) -> list[PupilRow]:
        """The dashboard's rows of the day (the dashboard's and the export's)."""
        rows: list[PupilRow] = self.kept(("dashboard", self.day),
                                         lambda: self.room.dashboard(self.snap, self.day))
        return rows

    def fact_grid(self, limit: int | None = None) -> FactGrid:
        """The fact grid at ``limit`` seconds, or the class's (the grid's and the sheets')."""
        limit = self.info.fluency_seconds if limit is None else limit
        grid: FactGrid = self.kept(("grid", limit),
                                   lambda: self.room.fact_grid(self.snap, limit))
        return grid


def class_data(room: Classroom, class_id: int, day: date) -> OpenClass:
    """The class's snapshot and a memo of its views, kept in this session until the class's
    version moves (every write they draw bumps it: its row, pupils' names, pictures, real
    names, PINs, answers; one lookup by key a run instead of the snapshot's three)."""
    version = room.version(class_id)  # the access check comes first
    # The language too: the snapshot's pupils are in its alphabetical order.
    key = (class_id, version, current_language())
    cached = st.session_state.get(KEY_SNAP)
    if cached is None or cached[0] != key:
        cached = (key, room.snapshot(class_id, day, every_attempt=False), {})
        st.session_state[KEY_SNAP] = cached
    return OpenClass(room, cached[1], cached[2], day)
