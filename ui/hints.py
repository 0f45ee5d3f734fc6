"""Hints for the overlay: captures per hand card, the best move, sweep risks.

The coach (:mod:`escoba.coach`) is the authority when it is installed; its
message keys are translated through our catalog (``coach.<key>``). Until then
(and if it ever fails) a small built-in assessment from the engine's solver
gives the same shape, so the overlay always works. Both only ever see an
:class:`~escoba.game.Observation`: a hint never peeks at hidden cards.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, field
from functools import lru_cache
from math import comb
from typing import Any

from escoba import Card, Move, Observation
from escoba.cards import CARDS, SIETE_DE_OROS, VALUE, cards_of, value_sum
from escoba.solver import capture_masks

__all__ = ["Assessment", "SweepRisk", "assess", "captures_per_card", "coach_available",
           "review"]

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


def coach_available() -> bool:
    try:
        from escoba import coach  # noqa: F401
    except Exception:
        return False
    return hasattr(coach, "analyse")


def captures_per_card(obs: Observation) -> dict[Card, int]:
    """How many different captures each hand card has on this table."""
    return {card: len(capture_masks(obs.table_mask, card.index, obs.rules.capture_sum))
            for card in obs.hand}


def _from_coach(item: Any) -> Assessment:
    """The coach's ``MoveAssessment`` in our shape (``captured`` is a card set there)."""
    risk = getattr(item, "sweep_risk", None)
    sweep = None
    if risk is not None:
        known = tuple(getattr(risk, "known_sweepers", ()) or ())
        sweep = SweepRisk(int(risk.total), float(risk.chance), known,
                          item.move is not None and bool(known))
    captured = getattr(item, "captured", item.move.take)
    count = len(captured) if not isinstance(captured, int) else captured
    reason = getattr(item, "reason", None) or ("", {})
    return Assessment(item.move, float(getattr(item, "score", 0.0)), count,
                      bool(getattr(item, "escoba", False)),
                      int(getattr(item, "table_total_after", 0)), sweep,
                      (str(reason[0]), dict(reason[1] or {})),
                      tuple((str(k), dict(p or {})) for k, p in getattr(item, "warnings", ())))


def _next_seat(obs: Observation) -> int:
    return (obs.seat + 1) % obs.rules.players


def _sweep_risk(obs: Observation, table_after: int) -> SweepRisk | None:
    rules = obs.rules
    low, high = rules.sweep_risk_range
    total = value_sum(table_after)
    if not table_after or not low <= total <= high:
        return None
    need = rules.capture_sum - total
    nxt = _next_seat(obs)
    if rules.teams and rules.side_of(nxt) == rules.side_of(obs.seat):
        return None
    if obs.open_hands is not None:
        hand = obs.open_hands[nxt]
        sweepers = tuple(c for c in cards_of(hand) if c.is_joker or VALUE[c.index] == need)
        return SweepRisk(total, 1.0 if sweepers else 0.0, sweepers, True)
    unseen = obs.unseen
    k = sum(1 for c in unseen if c.is_joker or c.value == need)
    h = obs.hand_counts[nxt]
    n = len(unseen)
    chance = 0.0 if n == 0 or h == 0 else 1 - comb(n - k, h) / comb(n, h)
    return SweepRisk(total, chance)


def _builtin(obs: Observation) -> list[Assessment]:
    out = []
    for move in obs.legal_moves():
        take = move.take_mask
        table_after = (obs.table_mask & ~take) if take else obs.table_mask | move.card.bit
        escoba = bool(take) and not table_after
        won = take | move.card.bit if take else 0
        risk = _sweep_risk(obs, table_after)
        siete = bool(won >> SIETE_DE_OROS.index & 1)
        oros = sum(1 for c in cards_of(won) if c.suit is not None and c.suit.value == 0)
        score = (won.bit_count() + 4 * escoba + 2 * siete + 0.5 * oros
                 - (3 * risk.chance if risk and risk.chance else 0))
        if escoba:
            reason = ("reason_escoba", {})
        elif siete:
            reason = ("reason_siete", {})
        elif take:
            reason = ("reason_capture", {"count": won.bit_count()})
        elif risk is None:
            reason = ("reason_safe", {})
        else:
            reason = ("reason_lay_low", {})
        warnings = []
        if risk is not None:
            warnings.append(("warn_sweep", {"total": risk.total}))
        out.append(Assessment(move, score, won.bit_count(), escoba, value_sum(table_after),
                              risk, reason, tuple(warnings)))
    out.sort(key=lambda a: -a.score)
    return out


@lru_cache(maxsize=128)
def assess(obs: Observation) -> list[Assessment]:
    """Every legal move judged, best first (the coach's verdict when available).

    Cached per observation: choosing cards reruns the page on the same position.
    The list is shared: callers must not change it.
    """
    if not obs.is_my_turn:
        return []
    if coach_available():
        try:
            from escoba import coach

            return [_from_coach(item) for item in coach.analyse(obs)]
        except Exception:
            log.exception("coach.analyse failed; using the built-in hints")
    return _builtin(obs)


def review(record: dict[str, Any], seat: int) -> list[dict[str, Any]] | None:
    """The coach's post-game review for ``seat`` as plain dicts (``None``: no coach)."""
    if not coach_available():
        return None
    try:
        from escoba import coach

        if not hasattr(coach, "review"):
            return None
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


def card_of(index: int) -> Card:
    return CARDS[index]
