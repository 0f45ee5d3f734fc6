"""Hints for the overlay: captures per hand card, the best move, sweep risks.

The coach (:mod:`escoba.coach`) is the only judge; this module puts its
verdict in the overlay's shape, and its message keys are translated through
our catalog (``coach.<key>``). It only ever sees an
:class:`~escoba.observation.Observation`: a hint never peeks at hidden cards. Should
the coach ever fail, the failure is logged and the overlay shows no hint
rather than breaking the board.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from escoba import Card, Move, Observation, coach
from escoba.variants import variant_for

from .verdicts import capture_terms, sum_expression

__all__ = ["Assessment", "SweepRisk", "assess", "captures_per_card", "review", "GameReview",
           "ReviewedMove", "GameHint", "HintLine", "Odds", "game_hint", "HINT_STEPS",
           "ODDS_STYLES", "sweep_warning"]

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
    #: The coach's own assessment (to ask it why one move beats another).
    judged: coach.MoveAssessment | None = field(default=None, compare=False, repr=False)


def captures_per_card(obs: Observation) -> dict[Card, int]:
    """How many different captures each hand card has on this table."""
    variant = variant_for(obs.rules)
    return {card: len(variant.capture_sets(obs.rules, obs.table_mask, card.index))
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
                      tuple((str(k), dict(p or {})) for k, p in item.warnings), item)


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


# -- graduated hints on the board ----------------------------------------------------------

#: How many steps a hint on the board has: a nudge, the cards lit, the arithmetic and move.
HINT_STEPS = 3
#: How odds are said: in words with a meter (young children) or as numbers (older ones).
ODDS_STYLES = ("words", "numbers")


@dataclass(frozen=True)
class HintLine:
    """One line of a hint: ``kind`` (best, warn, info), a catalog key, its parameters
    (cards, moves, a coach message ``why`` and ``odds`` as an :class:`Odds`)."""

    kind: str
    key: str
    params: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class Odds:
    """A chance said for a child: a word key and a meter of 1-3 (or the percentage)."""

    chance: float
    known: bool

    @property
    def level(self) -> int:
        """1 (a little risky), 2 (risky), 3 (very risky or certain)."""
        if self.known or self.chance >= 0.5:
            return 3
        return 2 if self.chance >= 0.2 else 1

    @property
    def word_key(self) -> str:
        return "odds_sure" if self.known else f"odds_{self.level}"

    @property
    def percent(self) -> int:
        return round(100 * self.chance)


@dataclass(frozen=True)
class GameHint:
    """What the hint panel shows at one step: its lines and the cards to light."""

    step: int
    lines: tuple[HintLine, ...]
    lit: tuple[Card, ...] = ()

    @property
    def more(self) -> bool:
        """Whether asking again would tell more."""
        return self.step < HINT_STEPS and any(line.kind == "best" for line in self.lines)


def _risky(a: Assessment) -> bool:
    r = a.sweep_risk
    return r is not None and (r.known or (r.chance or 0.0) > 0)


def _odds(a: Assessment) -> Odds:
    r = a.sweep_risk
    assert r is not None
    return Odds(float(r.chance or 0.0), bool(r.known and r.sweeping_cards))


def _risk_line(a: Assessment, key: str) -> HintLine:
    r = a.sweep_risk
    assert r is not None
    return HintLine("warn", key, {"move": a.move, "total": r.total, "odds": _odds(a),
                                  "cards": tuple(r.sweeping_cards)})


def sweep_warning(a: Assessment) -> HintLine | None:
    """The warning a child sees on the board when they put ``a``'s move together: the
    table it leaves can be swept by one card (known in open hand, else a chance)."""
    if not _risky(a):
        return None
    return _risk_line(a, "warn_sweep_known" if _odds(a).known else "warn_sweep_odds")


def game_hint(obs: Observation, step: int, picked: Card | None = None,
              take: frozenset[Card] = frozenset()) -> GameHint:
    """The hint for the seat to move at ``step`` (1: a nudge, 2: the cards lit, 3: the
    arithmetic and the move, with why), and the sweep risks of the card the child is
    looking at (``picked``, with the table cards ``take`` put together).

    A verdict is never followed by its contradiction: the best move's own risk is said
    as "every move leaves a chance to sweep; this one leaves the smallest" (or "worth
    it" when a safer move exists but gives less), never as a warning against it.
    """
    step = max(1, min(HINT_STEPS, int(step)))
    lines: list[HintLine] = []
    claims = obs.renuncio_claims()
    if claims:
        # The claim comes first: it changes the table, so the best move is chosen after.
        claim = max(claims, key=lambda c: (len(c.take), sorted(c.take)))
        lines.append(HintLine("info", "hint_renuncio"))
        lines.append(HintLine("best", "hint_best_renuncio",
                              {"card": claim.card, "cards": tuple(sorted(claim.take))}))
        return GameHint(HINT_STEPS, tuple(lines), (claim.card, *sorted(claim.take)))
    assessed = assess(obs)
    if not assessed:
        return GameHint(step, ())
    best = assessed[0]
    card = best.move.card
    # The number a capture makes: 15 in Escoba, the card's own value in Scopa; no sum
    # for the ace taking the table by right (its move is said instead).
    terms = capture_terms(obs.rules, best.move) if best.move.take else None
    cs = terms[1] if terms is not None else obs.rules.capture_sum
    # Scopa has no one number to make: its nudges say "take" and "nothing to take".
    scopa = obs.rules.variant == "scopa"
    if best.move.take:
        nudge = ("hint_nudge_escoba" if best.escoba
                 else "hint_nudge_capture_scopa" if scopa else "hint_nudge_capture")
        lines.append(HintLine("best", nudge, {"card": card, "sum": cs}))
    else:
        can_capture = any(a.move.take for a in assessed)
        lay = "hint_nudge_lay_scopa" if scopa else "hint_nudge_lay"
        lines.append(HintLine("best", "hint_nudge_hold" if can_capture else lay,
                              {"sum": cs}))
    lit: tuple[Card, ...] = ()
    if step >= 2:
        lit = (card, *sorted(best.move.take))
        lit_key = ("hint_lit_lay" if not best.move.take
                   else "hint_lit_by_right" if terms is None else "hint_lit")
        lines.append(HintLine("best", lit_key, {"card": card}))
    if step >= 3:
        # A risk is said once, by the risk line below, never as the best move's "why".
        why = None if best.reason[0] == "leaves_sweep" else best.reason
        params: dict[str, Any] = {"move": best.move}
        if why is not None:
            params["why"] = why
        if terms is not None:
            params.update(expr=sum_expression(terms[0]), sum=cs)
            lines.append(HintLine("best", "hint_arith" if why else "hint_arith_plain", params))
        else:
            lines.append(HintLine("best", "hint_move" if why else "hint_move_plain", params))
    picked_best = picked == card and take == best.move.take
    if _risky(best) and (step >= 3 or picked_best):
        if all(_risky(a) for a in assessed):
            safest = min(assessed, key=lambda a: _odds(a).chance)
            if _odds(best).chance <= _odds(safest).chance:
                lines.append(_risk_line(best, "warn_all_risky_smallest"))
            else:
                # Not the smallest chance: say what decides (issue 26).
                line = _risk_line(best, "warn_all_risky_best_why")
                if best.judged is not None and safest.judged is not None:
                    line.params["why"] = coach.why_better(best.judged, safest.judged)
                lines.append(line)
        else:
            lines.append(_risk_line(best, "warn_best_worth_it"))
    # Other moves of the card the child is looking at: the one put together first.
    focus = picked if picked is not None else (card if step >= 3 else None)
    others = [a for a in assessed if a.move.card == focus and a.move != best.move and _risky(a)]
    others.sort(key=lambda a: a.move.take != take)
    # The very warning the board shows on that move (sweep_warning): the same odds.
    lines.extend(line for a in others[:2] if (line := sweep_warning(a)) is not None)
    return GameHint(step, tuple(lines), lit)


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
    #: What decides for the better move (a coach message), when this is a mistake.
    why: tuple[str, dict[str, Any]] | None = None

    @property
    def is_mistake(self) -> bool:
        """A move the coach would have played otherwise, losing more than a hair (a move
        the hint advised, or one valued alike, never is): one definition for the review
        at the end of the game and for My progress's "Mistakes"."""
        return bool(self.mistakes) or self.lost > coach.MISTAKE_MARGIN

    @property
    def missed_capture(self) -> bool:
        """The child laid a card down where the better move was a capture."""
        return (self.move is not None and self.best is not None and not self.move.take
                and bool(self.best.take))

    def to_dict(self) -> dict[str, Any]:
        return {"round": self.round, "move_no": self.move_no, "move": _text(self.move),
                "best": _text(self.best), "lost": self.lost,
                "mistakes": [[k, dict(p)] for k, p in self.mistakes],
                "why": None if self.why is None else [self.why[0], dict(self.why[1])]}

    @staticmethod
    def from_dict(data: dict[str, Any]) -> ReviewedMove:
        why = data.get("why")
        return ReviewedMove(int(data.get("round") or 0), int(data.get("move_no") or 0), None,
                            None, float(data.get("lost") or 0.0),
                            tuple((str(k), dict(p or {})) for k, p in data.get("mistakes") or ()),
                            (str(why[0]), dict(why[1] or {})) if isinstance(why, list)
                            and len(why) == 2 else None)


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
                     tuple((str(k), dict(p or {})) for k, p in item.mistakes),
                     None if item.why is None else (str(item.why[0]), dict(item.why[1])))
        for item in items))
