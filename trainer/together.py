"""Whether a pupil's class plays together now, for a pupil on another page than My class
(issue 29): "Your class is playing together! Go to My class". Plain classes, no Streamlit.

A tablet asks on a timer (``ui.together_notice``), so the cost counts (issue 32): one
small indexed read per look, and only for a pupil signed in to a class. The looks take
turns -- the class's live round (:meth:`trainer.live.PupilLive.current`), then the
class's game (:meth:`trainer.class_game.PupilVote.pulse`) -- each the very lookup My
class makes, with the class the tablet already knows (its visit's, which the tablet's
guard checks) instead of reading the pupil's membership again first.
"""

from __future__ import annotations

from dataclasses import dataclass

from .class_game import PupilVote
from .live import ClassPupil, PupilLive
from .storage import Storage

__all__ = ["ClassTogether", "GAME_DONE"]

#: A class's game in these states is not playing together any more: played to its end
#: ("over"), or ended early by the teacher ("ended"); its points stay on the projector.
GAME_DONE = frozenset({"over", "ended"})


class _KnownClass(ClassPupil):
    """A pupil whose class the tablet knows: :class:`ClassPupil`'s lookups, less the
    membership read (the visit's class; ``ui.pupil_guard`` signs the pupil out within
    seconds of a move to another class)."""

    def __init__(self, storage: Storage, profile_id: int, class_id: int) -> None:
        super().__init__(storage, profile_id)
        self.class_id = class_id

    def _class_id(self) -> int | None:
        return self.class_id


class _Live(_KnownClass, PupilLive):
    pass


class _Vote(_KnownClass, PupilVote):
    pass


@dataclass(slots=True)
class ClassTogether:
    """What a tablet knows of its pupil's class playing together: the live round on
    (its id) and the class's game waiting for the class (its id), each as last read."""

    profile_id: int
    class_id: int
    round_id: int | None = None
    game_id: int | None = None
    looks: int = 0

    def look(self, storage: Storage) -> None:
        """One read: the live round, or the class's game, by turns. A game over or ended
        early by the teacher (:data:`GAME_DONE`; its points on the projector) is not
        playing together any more; neither is a round or a game left open overnight
        (:func:`trainer.live.left_open`, in both lookups)."""
        if self.looks % 2 == 0:
            live = _Live(storage, self.profile_id, self.class_id).current()
            self.round_id = None if live is None else live.id
        else:
            pulse = _Vote(storage, self.profile_id, self.class_id).pulse()
            self.game_id = None if pulse is None or pulse[1] in GAME_DONE else pulse[0]
        self.looks += 1

    @property
    def playing(self) -> str | None:
        """``"round"`` (a live round), ``"game"`` (the class's game), or None."""
        if self.round_id is not None:
            return "round"
        return "game" if self.game_id is not None else None
