"""The arena: two computer players over many paired deals, with honest statistics.

Each deal (a shuffled deck and a dealer) is played twice with the seats
swapped, so luck of the cards cancels out within a pair. Seats alternate
between the two bots: ``A B`` (2 players), ``A B A`` (3), ``A B A B`` (4;
with teams, A's team is seats 0+2). In the swapped round every seat gets the
other bot.

Per round the score is *A's points minus B's points*, where a bot's points
are the mean over the seats (or the team) it plays; the pair's score is the
mean of its two rounds. :func:`run_arena` reports the mean of the pair scores
with a 95% confidence interval (normal approximation over independent
pairs), the share of rounds each bot won (ties count half), the points per
round of each bot, and how long each bot took per move (median and 95th
percentile, in milliseconds; timing only measures, it never steers a bot).
"""

from __future__ import annotations

import math
import random
import statistics
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from .bots import Player, make_player
from .cards import CARDS
from .errors import DeckError
from .round import Round
from .rules import Rules

__all__ = ["ArenaResult", "run_arena", "play_round", "percentile", "shuffled_deck",
           "mean_ci95"]


def percentile(values: Sequence[float], q: float) -> float:
    """The ``q`` quantile (0-1) by linear interpolation; 0 for no values."""
    if not values:
        return 0.0
    ordered = sorted(values)
    pos = (len(ordered) - 1) * q
    lo = math.floor(pos)
    hi = min(lo + 1, len(ordered) - 1)
    return ordered[lo] + (ordered[hi] - ordered[lo]) * (pos - lo)


def mean_ci95(values: Sequence[float]) -> tuple[float, float]:
    """The mean of paired-deal values with its 95% interval (normal approximation; the
    mean alone for fewer than two values)."""
    if not values:
        return (0.0, 0.0)
    mean = statistics.fmean(values)
    if len(values) < 2:
        return (mean, mean)
    half = 1.96 * statistics.stdev(values) / math.sqrt(len(values))
    return (mean - half, mean + half)


@dataclass
class _Timing:
    ms: list[float] = field(default_factory=list)

    def summary(self) -> dict[str, float]:
        return {"median": round(percentile(self.ms, 0.5), 3),
                "p95": round(percentile(self.ms, 0.95), 3),
                "moves": len(self.ms)}


def play_round(rules: Rules, deck: Sequence[Any], dealer: int, players: Sequence[Player],
               rng: random.Random, timings: Sequence[list[float]] | None = None) -> Round:
    """Play one round between ``players`` (one per seat); optionally time each decision.

    ``timings[seat]`` collects that seat's milliseconds per move. Each player
    sees only its own observation.
    """
    round_ = Round(rules, deck, dealer)
    renuncio = rules.capture_rule == "renuncio"
    clock = time.perf_counter
    while not round_.is_over:
        seat = round_.to_move
        player = players[seat]
        obs = round_.observation(seat)
        start = clock()
        if renuncio and obs.renuncio_card is not None:
            claim = player.claim_renuncio(obs, rng)
            if claim is not None:
                round_.claim_renuncio(claim)
                obs = round_.observation(seat)
        fast = getattr(player, "choose_pair", None)
        if fast is not None:
            card, take = fast(obs, rng)
            if timings is not None:
                timings[seat].append((clock() - start) * 1000.0)
            round_.play_pair(card, take)
        else:
            move = player.choose(obs, rng)
            if timings is not None:
                timings[seat].append((clock() - start) * 1000.0)
            round_.play(move)
    return round_


@dataclass(frozen=True)
class ArenaResult:
    """What :func:`run_arena` measured; :meth:`to_json` is the ``--json`` output."""

    bots: tuple[str, str]
    rules: Rules
    deals: int
    seed: int
    pair_diffs: tuple[float, ...]
    points: tuple[float, float]
    wins: int
    losses: int
    ties: int
    timing: tuple[dict[str, float], dict[str, float]]
    elapsed: float

    @property
    def rounds(self) -> int:
        return 2 * self.deals

    @property
    def mean_diff(self) -> float:
        return statistics.fmean(self.pair_diffs) if self.pair_diffs else 0.0

    @property
    def ci95(self) -> tuple[float, float]:
        return mean_ci95(self.pair_diffs)

    @property
    def win_rate(self) -> float:
        """Share of rounds bot A won (ties count half)."""
        total = self.wins + self.losses + self.ties
        return (self.wins + 0.5 * self.ties) / total if total else 0.0

    def to_json(self) -> dict[str, Any]:
        lo, hi = self.ci95
        a, b = self.bots
        return {
            "bots": list(self.bots),
            "rules": self.rules.to_dict(),
            "seed": self.seed,
            "deals": self.deals,
            "rounds": self.rounds,
            "mean_diff": round(self.mean_diff, 4),
            "ci95": [round(lo, 4), round(hi, 4)],
            "points_per_round": [round(self.points[0], 4), round(self.points[1], 4)],
            "win_rate": [round(self.win_rate, 4), round(1 - self.win_rate, 4)],
            "wins": self.wins, "losses": self.losses, "ties": self.ties,
            "ms_per_move": [self.timing[0], self.timing[1]],
            "elapsed": round(self.elapsed, 2),
            "summary": f"{a} vs {b}: {self.mean_diff:+.3f} points per round "
                       f"(95% CI {lo:+.3f} to {hi:+.3f})",
        }


def shuffled_deck(rules: Rules, rng: random.Random, dealer: int) -> list[Any]:
    """A shuffled deck the rules accept (redrawn while ``redeal`` refuses its table)."""
    deck = list(CARDS[: rules.deck_size])
    for _ in range(1000):
        rng.shuffle(deck)
        try:
            Round(rules, deck, dealer)
        except DeckError:
            continue
        return deck
    raise ValueError("could not deal a round these rules accept")  # pragma: no cover


def run_arena(rules: Rules, bots: Sequence[str | Player], deals: int, seed: int = 0,
              on_pair: Callable[[int], None] | None = None) -> ArenaResult:
    """Play ``deals`` paired deals (``2 * deals`` rounds) between two bot levels (or two
    players already made: the simulated children of bench/just_right_bench.py).

    ``seed`` fixes the decks and every bot's random choices: the same call
    gives the same result (the timings aside).
    """
    if len(bots) != 2:
        raise ValueError(f"the arena takes two bots, got {len(bots)}")
    if deals < 1:
        raise ValueError("the arena needs at least one deal")
    n = rules.players
    instances = [make_player(b) if isinstance(b, str) else b for b in bots]
    names = (instances[0].name, instances[1].name)
    deck_rng = random.Random(seed)
    times: tuple[list[float], list[float]] = ([], [])
    diffs: list[float] = []
    points = [0.0, 0.0]
    wins = losses = ties = 0
    start = time.perf_counter()
    for i in range(deals):
        dealer = i % n
        deck = shuffled_deck(rules, deck_rng, dealer)
        pair = 0.0
        for swap in (0, 1):
            who = [(s + swap) % 2 for s in range(n)]  # which bot (0 = A) sits at each seat
            players = [instances[w] for w in who]
            seat_times: list[list[float]] = [[] for _ in range(n)]
            bot_rng = random.Random(seed * 1_000_003 + i)  # the same for both halves
            round_ = play_round(rules, deck, dealer, players, bot_rng, seat_times)
            totals = round_.score().totals
            got = [[], []]  # type: list[list[float]]
            for s in range(n):
                if not rules.teams or s < 2:
                    got[who[s]].append(totals[rules.side_of(s)])
                times[who[s]].extend(seat_times[s])
            a, b = statistics.fmean(got[0]), statistics.fmean(got[1])
            points[0] += a
            points[1] += b
            pair += (a - b) / 2
            if a > b:
                wins += 1
            elif a < b:
                losses += 1
            else:
                ties += 1
        diffs.append(pair)
        if on_pair is not None:
            on_pair(i)
    rounds = 2 * deals
    return ArenaResult(
        bots=names, rules=rules, deals=deals, seed=seed,
        pair_diffs=tuple(diffs), points=(points[0] / rounds, points[1] / rounds),
        wins=wins, losses=losses, ties=ties,
        timing=(_Timing(times[0]).summary(), _Timing(times[1]).summary()),
        elapsed=time.perf_counter() - start)
