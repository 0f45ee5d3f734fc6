"""Simulated children for measuring computer levels (issue 30): six strengths, from a
child who has just learned the game to one who plays like the greedy computer and
blocks sweeps.

Each is an :class:`escoba.bots.ChildLikePlayer`: it sees only its observation, and its
choices are drawn from the ``rng`` it is given, so a run is seeded. ``see`` is the
chance of noticing each capture, ``best`` the chance of taking the most valuable one
noticed (else any), ``block`` the chance of laying a card down that leaves no sweep.
"""

from __future__ import annotations

from escoba.bots import ChildLikePlayer

__all__ = ["CHILDREN", "make_child"]

#: Name -> (see, best, block), weakest first.
CHILDREN: dict[str, tuple[float, float, float]] = {
    "just_learned": (0.4, 0.0, 0.0),
    "beginner": (0.6, 0.3, 0.0),
    "learning": (0.8, 0.5, 0.2),
    "steady": (0.9, 0.8, 0.4),
    "greedy_child": (1.0, 1.0, 0.0),
    "careful": (1.0, 1.0, 0.8),
}


def make_child(name: str) -> ChildLikePlayer:
    """The simulated child ``name`` of :data:`CHILDREN`."""
    see, best, block = CHILDREN[name]
    return ChildLikePlayer(see=see, best=best, block=block, name=name)
