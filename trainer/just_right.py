"""The "just right" computer level (issue 30): each child's strength, estimated from their
games, is the strength the computer plays at (:class:`escoba.bots.JustRightPlayer`).

The estimate is a pure function of what storage already keeps for every finished game
(its seats, with each computer's level, and each round's points per side), so nothing
new is stored and no migration is needed: it is read again, the same, whenever asked.

**Scale.** A strength in [0, 1] on the "just right" player's own scale: 0 is its
beginner end, 1 the expert. A child's strength *c* is the strength of the computer they
would beat in half of the rounds. The fixed levels sit on the same scale
(:data:`LEVEL_STRENGTH`, measured against the simulated children of
bench/simulated_children.py: the strength at which the "just right" player scores as
each fixed level does; docs/BENCHMARKS.md, "Just right (issue 30)").

**Update**, one per round the child played against computers only (Elo's, bounded, with
a step that shrinks as evidence grows, as Glicko's does):
``c += step(n) * (result - expected)``, where *n* is the rounds counted before it,
``step(n) = max(STEP_MIN, STEP / sqrt(1 + n / STEP_ROUNDS))`` (big steps while little is
known, so a child's first games move it across the scale; small ones later, so it
wanders less around the child's strength), where *result* is 1 for a round the child's side
won on points, ½ for a tie, 0 for a loss, and ``expected = 1 / (1 + exp(-(c - o) / SCALE))``
against an opponent of strength *o* (the mean of the computers' strengths; a "just
right" computer's is stored in its seat). Against "just right" itself *o* = *c*, so a
round won moves it up by half a step and a round lost down by as much: the child's win
rate is pulled to one half. Then it is kept within [0, 1]. The player's easing while
it leads a game is not counted as a weaker opponent: a child who wins those rounds
is judged a little stronger, which is the direction the next game should go.

Only the rounds' points are read, not the review's mistakes (missed captures, escobas
given away): those are already in the points, and a review exists only for the
first child of a game.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from escoba import Rules
from escoba.bots import JustRightPlayer

__all__ = ["LEVEL", "LEVEL_STRENGTH", "START", "STEP", "STEP_MIN", "STEP_ROUNDS", "SCALE",
           "DEFAULT_AFTER_GAMES", "StrengthEstimate", "expected_result", "step_for",
           "update_strength", "opponent_strength",
           "estimate_strength", "strength_trend", "default_level", "JustRightSummary",
           "just_right_summary"]

#: The level's name, as PLAYER_LEVELS and the catalogs (``level_just_right``) spell it.
LEVEL = "just_right"
#: Where the fixed levels sit on the "just right" scale (see the module's docstring).
LEVEL_STRENGTH: Mapping[str, float] = {"random": 0.0, "gentle": 0.2, "greedy": 0.6,
                                       "expert": 1.0}
#: A child with no games yet: a beginner's strength, a little above the bottom.
START = 0.25
#: How far the first round moves the estimate at most (half of it against "just right").
STEP = 0.15
#: The step once the estimate rests on many rounds (a child who gets better is followed).
STEP_MIN = 0.04
#: The rounds over which the step shrinks: about 0.08 after 25 rounds (five games).
STEP_ROUNDS = 10
#: The strength difference at which the stronger side wins about 73% of rounds (e^1 : 1).
SCALE = 0.5
#: Finished games after which "just right" is the new-game form's default level: by then
#: the estimate rests on some ten to twenty rounds, enough for the steps to have carried it
#: across the scale from START, and the first games were played at the fixed level a
#: parent chose, so the estimate starts from real evidence rather than from START.
DEFAULT_AFTER_GAMES = 3


@dataclass(frozen=True)
class StrengthEstimate:
    """A child's estimated strength and what it rests on."""

    strength: float = START
    rounds: int = 0
    games: int = 0


def expected_result(strength: float, opponent: float) -> float:
    """The share of rounds a child of ``strength`` is expected to win against ``opponent``."""
    return 1.0 / (1.0 + math.exp(-(strength - opponent) / SCALE))


def step_for(rounds: int) -> float:
    """The step of the update when the estimate already rests on ``rounds`` rounds."""
    return max(STEP_MIN, STEP / math.sqrt(1 + rounds / STEP_ROUNDS))


def update_strength(strength: float, opponent: float, result: float, rounds: int = 0
                    ) -> float:
    """The estimate after one round (``result``: 1 won, 0.5 tied, 0 lost) when it rested
    on ``rounds`` rounds before, within [0, 1]."""
    moved = strength + step_for(rounds) * (result - expected_result(strength, opponent))
    return min(1.0, max(0.0, moved))


def opponent_strength(seats: Sequence[Mapping[str, Any]], child_side: int,
                      rules: Rules) -> float | None:
    """The strength the child's side faced: the mean of the computers' on the other sides;
    ``None`` when another child (or an unknown level) sat there."""
    faced: list[float] = []
    for seat, spec in enumerate(seats):
        if rules.side_of(seat) == child_side:
            continue
        if spec.get("kind") != "bot":
            return None
        level = str(spec.get("level", ""))
        if level == LEVEL:  # a seat without a strength (a table's) played at the default
            faced.append(float(spec.get("strength", JustRightPlayer.default_strength)))
        elif level in LEVEL_STRENGTH:
            faced.append(LEVEL_STRENGTH[level])
        else:
            return None
    return sum(faced) / len(faced) if faced else None


def estimate_strength(games: Iterable[tuple[Any, Sequence[Any]]],
                      before: datetime | None = None) -> StrengthEstimate:
    """The estimate from finished games (``GameStore.finished_games``: oldest first, each
    a :class:`~trainer.storage.GameRow` and its :class:`~trainer.storage.RoundResult`\\ s),
    counting only games finished before ``before`` when it is given."""
    strength, rounds, counted = START, 0, 0
    for game, results in games:
        if before is not None and game.updated_at is not None and game.updated_at >= before:
            continue
        try:
            rules = Rules.from_dict(game.rules)
        except Exception:  # an old or odd record says nothing about the child
            continue
        seats = game.seats
        first_human = next((i for i, s in enumerate(seats) if s.get("kind") == "human"), 0)
        seat = game.viewer_seat if game.viewer_seat is not None else first_human
        side = rules.side_of(seat)
        opponent = opponent_strength(seats, side, rules)
        if opponent is None or not results:
            continue
        counted += 1
        for result in results:
            if side >= len(result.points):
                continue
            mine = result.side_points(side)
            theirs = max(result.side_points(s) for s in range(len(result.points)) if s != side)
            outcome = 1.0 if mine > theirs else 0.5 if mine == theirs else 0.0
            strength = update_strength(strength, opponent, outcome, rounds)
            rounds += 1
    return StrengthEstimate(strength, rounds, counted)


def strength_trend(games: Sequence[tuple[Any, Sequence[Any]]], now: datetime,
                   days: int = 7) -> tuple[StrengthEstimate, StrengthEstimate]:
    """The estimate ``days`` ago and now: what My progress compares ("the computer plays a
    bit better than last week")."""
    return estimate_strength(games, before=now - timedelta(days=days)), estimate_strength(games)


def default_level(finished_games: int, levels: Sequence[str]) -> str:
    """The new-game form's first choice: "just right" once the child has finished
    :data:`DEFAULT_AFTER_GAMES` games, else the easiest fixed level (the first)."""
    if finished_games >= DEFAULT_AFTER_GAMES and LEVEL in levels:
        return LEVEL
    return next((lv for lv in levels if lv != LEVEL), levels[0])


@dataclass(frozen=True)
class JustRightSummary:
    """What the app shows and uses: the estimate a week ago and now."""

    week_ago: StrengthEstimate
    now: StrengthEstimate

    @property
    def strength(self) -> float:
        """The strength a new "just right" game is played at."""
        return self.now.strength

    def default_level(self, levels: Sequence[str]) -> str:
        """The new-game form's first choice (:func:`default_level`)."""
        return default_level(self.now.games, levels)

    def reading(self) -> tuple[str, dict[str, int]] | None:
        """The sentence for a parent (a catalog key and its parameters, strengths out of
        100): the computer plays better, more gently or as last week; only where it
        stands when there was nothing a week ago; ``None`` before any round against the
        computer. A change under 3 of 100 (a round or so) is "as last week"."""
        if not self.now.rounds:
            return None
        after = round(100 * self.now.strength)
        if not self.week_ago.rounds:
            return "jr_strength_now", {"after": after}
        before = round(100 * self.week_ago.strength)
        if after - before >= 3:
            return "jr_strength_up", {"before": before, "after": after}
        if before - after >= 3:
            return "jr_strength_down", {"before": before, "after": after}
        return "jr_strength_same", {"after": after}


def just_right_summary(games: Sequence[tuple[Any, Sequence[Any]]], now: datetime
                       ) -> JustRightSummary:
    """:class:`JustRightSummary` from a profile's finished games (oldest first)."""
    week_ago, current = strength_trend(games, now)
    return JustRightSummary(week_ago, current)
