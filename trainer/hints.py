"""Hints for the overlay: captures per hand card, the best move, sweep risks.

The coach (:mod:`escoba.coach`) is the only judge; this module puts its
verdict in the overlay's shape, and its message keys are translated through
our catalog (``coach.<key>``). It only ever sees an
:class:`~escoba.game.Observation`: a hint never peeks at hidden cards. Should
the coach ever fail, the failure is logged and the overlay shows no hint
rather than breaking the board.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from escoba import Card, Move, Observation, coach
from escoba.solver import capture_masks

__all__ = ["Assessment", "SweepRisk", "assess", "captures_per_card", "review", "GameReview",
           "ReviewedMove"]

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class SweepRisk:
    total: int  # the table total left for the next player
    chance: float | None  # chance the next player can sweep (None: unknown)
    sweeping_cards: tuple[Card, ...] = ()  # in open hand: the cards that would do it
    known: bool = False


@dataclass(frozen=True)
class Assessment:
    """One move judged for a child; ``reason`` and ``warnings`` are message keys."""

    move: Move
    score: float
    captured: int
    escoba: bool
    table_total_after: int
    sweep_risk: SweepRisk | None
    reason: tuple[str, dict[str, Any]]
    warnings: tuple[tuple[str, dict[str, Any]], ...] = field(default_factory=tuple)


def captures_per_card(obs: Observation) -> dict[Card, int]:
    """How many different captures each hand card has on this table."""
    return {card: len(capture_masks(obs.table_mask, card.index, obs.rules.capture_sum))
            for card in obs.hand}


def _from_coach(item: coach.MoveAssessment) -> Assessment:
    """The coach's ``MoveAssessment`` in the overlay's shape."""
    risk = item.sweep_risk
    sweep = None
    if risk is not None:
        known = tuple(risk.known_sweepers)
        sweep = SweepRisk(int(risk.total), float(risk.chance), known, bool(known))
    key, params = item.reason
    return Assessment(item.move, float(item.score), len(item.captured), bool(item.escoba),
                      int(item.table_total_after), sweep, (str(key), dict(params or {})),
                      tuple((str(k), dict(p or {})) for k, p in item.warnings))


@lru_cache(maxsize=128)
def assess(obs: Observation) -> list[Assessment]:
    """Every legal move judged, best first (the coach's verdict when available).

    Cached per observation: choosing cards reruns the page on the same position.
    The list is shared: callers must not change it.
    """
    if not obs.is_my_turn:
        return []
    try:
        return [_from_coach(item) for item in coach.analyse(obs)]
    except Exception:
        log.exception("coach.analyse failed; no hint shown")
        return []


@dataclass(frozen=True)
class ReviewedMove:
    """One move of the reviewed child: what was played, the coach's best, the value lost
    and the mistakes named (message keys). Moves are :class:`~escoba.Move` in a fresh
    review, ``None`` in one read back from storage (only counts are read back)."""

    round: int
    move_no: int
    move: Move | None
    best: Move | None
    lost: float
    mistakes: tuple[tuple[str, dict[str, Any]], ...] = ()

    @property
    def is_mistake(self) -> bool:
        """A move the coach would have played otherwise: one definition for the review
        at the end of the game and for My progress's "Mistakes"."""
        return bool(self.mistakes) or self.lost > 0

    def to_dict(self) -> dict[str, Any]:
        return {"round": self.round, "move_no": self.move_no, "move": _text(self.move),
                "best": _text(self.best), "lost": self.lost,
                "mistakes": [[k, dict(p)] for k, p in self.mistakes]}

    @staticmethod
    def from_dict(data: dict[str, Any]) -> ReviewedMove:
        return ReviewedMove(int(data.get("round") or 0), int(data.get("move_no") or 0), None,
                            None, float(data.get("lost") or 0.0),
                            tuple((str(k), dict(p or {})) for k, p in data.get("mistakes") or ()))


def _text(move: Move | None) -> str | None:
    return None if move is None else str(move)


@dataclass(frozen=True)
class GameReview:
    """The coach's review of one child's game, in the one shape the end of the game shows,
    storage keeps (:meth:`to_stored`) and the progress charts count (:meth:`from_stored`)."""

    moves: tuple[ReviewedMove, ...]

    @property
    def mistakes(self) -> list[ReviewedMove]:
        """The moves to learn from, in the order they were played."""
        return sorted((m for m in self.moves if m.is_mistake),
                      key=lambda m: (m.round, m.move_no))

    @property
    def mistake_count(self) -> int:
        return len(self.mistakes)

    def biggest(self, limit: int) -> list[ReviewedMove]:
        """The ``limit`` costliest mistakes (a long list discourages more than it teaches),
        shown in the order they were played."""
        chosen = sorted(self.mistakes, key=lambda m: -m.lost)[:limit]
        return sorted(chosen, key=lambda m: (m.round, m.move_no))

    def to_stored(self) -> list[dict[str, Any]]:
        return [m.to_dict() for m in self.moves]

    @staticmethod
    def from_stored(data: Any) -> GameReview | None:
        """A stored review (``None`` when the game has none or it is not a list)."""
        if not isinstance(data, list):
            return None
        return GameReview(tuple(ReviewedMove.from_dict(d) for d in data if isinstance(d, dict)))


def review(record: dict[str, Any], seat: int) -> GameReview | None:
    """The coach's post-game review for ``seat`` (``None`` if it failed)."""
    try:
        items = coach.review(record, seat)
    except Exception:
        log.exception("coach.review failed")
        return None
    return GameReview(tuple(
        ReviewedMove(int(item.round), int(item.move_number), item.played, item.best,
                     float(item.value_lost),
                     tuple((str(k), dict(p or {})) for k, p in item.mistakes))
        for item in items))
