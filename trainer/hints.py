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

__all__ = ["Assessment", "SweepRisk", "assess", "captures_per_card", "review"]

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


def review(record: dict[str, Any], seat: int) -> list[dict[str, Any]] | None:
    """The coach's post-game review for ``seat`` as plain dicts (``None`` if it failed)."""
    try:
        items = coach.review(record, seat)
    except Exception:
        log.exception("coach.review failed")
        return None
    out = []
    for item in items:
        out.append({
            "round": item.round, "move_no": item.move_number,
            "move": item.played, "best": item.best, "lost": float(item.value_lost),
            "mistakes": [(str(k), dict(p or {})) for k, p in item.mistakes],
        })
    return out
