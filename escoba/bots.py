"""Computer players. Every player sees only an :class:`~escoba.game.Observation`.

A player is anything with ``choose(observation, rng) -> Move`` and
``claim_renuncio(observation, rng) -> Renuncio | None``; it never receives
the full state, so it cannot peek at hidden cards.
"""

from __future__ import annotations

import random
from typing import Protocol, runtime_checkable

from .cards import CARDS, cards_of
from .game import Move, Observation, Renuncio

__all__ = ["Player", "RandomPlayer", "make_player", "PLAYER_LEVELS"]


@runtime_checkable
class Player(Protocol):
    """What a computer player must do. ``name`` is its level, e.g. ``"random"``."""

    name: str

    def choose(self, observation: Observation, rng: random.Random) -> Move:
        """A legal move for ``observation.seat``, whose turn it is."""
        ...

    def claim_renuncio(self, observation: Observation, rng: random.Random) -> Renuncio | None:
        """A renuncio claim to make before playing, or ``None``."""
        ...

# A player may also offer ``choose_pair(observation, rng) -> (card index, take
# mask)``, the same decision in the inner form; simulations use it when present.


class RandomPlayer:
    """Any legal move, uniformly at random; claims a renuncio whenever it can."""

    name = "random"

    def choose(self, observation: Observation, rng: random.Random) -> Move:
        card, take = self.choose_pair(observation, rng)
        return Move(CARDS[card], frozenset(cards_of(take)))

    def choose_pair(self, observation: Observation, rng: random.Random) -> tuple[int, int]:
        """:meth:`choose` in the inner form (card index, take mask): no objects built."""
        pairs = observation.legal_move_pairs()
        return pairs[rng.randrange(len(pairs))]

    def claim_renuncio(self, observation: Observation, rng: random.Random) -> Renuncio | None:
        claims = observation.renuncio_claims()
        return claims[rng.randrange(len(claims))] if claims else None


PLAYER_LEVELS: dict[str, type] = {"random": RandomPlayer}


def make_player(level: str) -> Player:
    """A computer player by level name (``random``, ...)."""
    try:
        return PLAYER_LEVELS[level]()
    except KeyError:
        raise ValueError(f"unknown player {level!r} (choose one of "
                         f"{', '.join(PLAYER_LEVELS)})") from None
