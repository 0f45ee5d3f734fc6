"""Every part of a class's view, in the order of the parts' control. A new part (the
projector, the live view, groups) is a module in ``ui/teacher/parts/`` that declares its
``PART``, and one entry here; the page draws whichever is chosen, knowing none by name."""

from __future__ import annotations

from .part import Part
from .parts import (
    assignments,
    class_game,
    dashboard,
    export,
    grid,
    groups,
    live_view,
    printing,
    projector,
    pupils,
    settings,
)

__all__ = ["PARTS", "PART_KEYS"]

PARTS: tuple[Part, ...] = (dashboard.PART, grid.PART, pupils.PART, groups.PART,
                           assignments.PART, projector.PART, class_game.PART,
                           live_view.PART, printing.PART, export.PART, settings.PART)
#: The parts' keys: the control's options (a class opens at the first).
PART_KEYS = tuple(part.key for part in PARTS)
