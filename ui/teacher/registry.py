"""Every part of a class's view, in the order of the parts' control, and the sections
that hold them. A new part (the projector, the live view, groups) is a module in
``ui/teacher/parts/`` that declares its ``PART``, one entry in :data:`PARTS` and its key in
one of :data:`SECTIONS`; the page draws whichever is chosen, knowing none by name."""

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

__all__ = ["PARTS", "PART_KEYS", "SECTIONS", "SECTION_KEYS", "SECTION_OF", "section_start"]

PARTS: tuple[Part, ...] = (dashboard.PART, grid.PART, pupils.PART, groups.PART,
                           assignments.PART, projector.PART, class_game.PART,
                           live_view.PART, printing.PART, export.PART, settings.PART)
#: The parts' keys (a class opens at the first).
PART_KEYS = tuple(part.key for part in PARTS)

#: The parts by when a teacher reaches for them (issue 29: eleven parts on one control
#: took three rows on a tablet in German or Spanish): during the lesson, after it, and the
#: class's running. A first control chooses the section, a second its part; each fits one
#: row at 1024 px in every language.
SECTIONS: dict[str, tuple[str, ...]] = {
    "lesson": ("projector", "class_game", "live_view"),
    "after": ("dashboard", "grid", "assignments", "print", "export"),
    "class": ("pupils", "groups", "settings"),
}
SECTION_KEYS = tuple(SECTIONS)
#: The section of each part.
SECTION_OF: dict[str, str] = {key: section for section, keys in SECTIONS.items()
                              for key in keys}

_PRESENTING = {part.key for part in PARTS if part.presentation}


def section_start(section: str) -> str:
    """The part a section opens at: its first part drawn on the page, not alone on the
    screen (tapping "During the lesson" shows the lesson's parts, not the big screen)."""
    keys = SECTIONS[section]
    return next((key for key in keys if key not in _PRESENTING), keys[0])
