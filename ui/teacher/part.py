"""What a part of a class's view is (the dashboard, the fact grid, ...): the registry
(:mod:`ui.teacher.registry`) lists them and the page draws the one chosen."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from .snapshot import OpenClass

__all__ = ["Part"]


@dataclass(frozen=True, slots=True)
class Part:
    #: The option's value on the parts' control, kept in the session under ``tc_part``.
    key: str
    #: Its label's key in the ``classroom`` catalog.
    label: str
    #: Draws the part of the class open.
    render: Callable[[OpenClass], None]
    #: Drawn alone on the screen (issue 29: the projector, read from the back of the
    #: room): no sidebar, no title, no parts' control; a small button leaves it.
    presentation: bool = False
