"""Games between computer players: the loop behind ``escoba simulate``.

The loop hands each player only its :class:`~escoba.game.Observation`.
"""

from __future__ import annotations

import random
import time
from collections.abc import Sequence
from dataclasses import dataclass

from .bots import Player
from .game import Game
from .rules import Rules

__all__ = ["play_game", "SimulationResult", "simulate"]

#: A game that has not ended after this many rounds is stopped (ties can repeat).
MAX_ROUNDS = 200


def play_game(rules: Rules, players: Sequence[Player], rng: random.Random,
              *, dealer: int | None = None) -> Game:
    """Play one whole game between ``players`` (one per seat) and return it."""
    if len(players) != rules.players:
        raise ValueError(f"{rules.players} players needed, got {len(players)}")
    game = Game(rules, dealer=dealer, rng=rng)
    renuncio = rules.capture_rule == "renuncio"
    while not game.is_over and len(game.rounds) < MAX_ROUNDS:
        round_ = game.start_round()
        while not round_.is_over:
            seat = round_.to_move
            player = players[seat]
            if renuncio:
                obs = game.observation(seat)
                if obs.renuncio_card is not None:
                    claim = player.claim_renuncio(obs, rng)
                    if claim is not None:
                        game.claim_renuncio(claim)
                        obs = game.observation(seat)
            else:
                obs = round_.observation(seat, scores=tuple(game.totals),
                                         round_number=len(game.rounds))
            game.play(player.choose(obs, rng))
    return game


@dataclass(frozen=True)
class SimulationResult:
    games: int
    rounds: int
    elapsed: float
    wins: tuple[int, ...]
    unfinished: int

    @property
    def rounds_per_second(self) -> float:
        return self.rounds / self.elapsed if self.elapsed > 0 else float("inf")

    def to_json(self) -> dict[str, object]:
        return {"games": self.games, "rounds": self.rounds, "elapsed": round(self.elapsed, 4),
                "rounds_per_second": round(self.rounds_per_second, 1),
                "wins": list(self.wins), "unfinished": self.unfinished}


def simulate(rules: Rules, players: Sequence[Player], games: int, seed: int | None = None,
             on_game: object = None) -> SimulationResult:
    """Play ``games`` games; ``on_game(index, game)`` is called after each."""
    rng = random.Random(seed)
    wins = [0] * rules.sides
    rounds = unfinished = 0
    start = time.perf_counter()
    for i in range(games):
        game = play_game(rules, players, rng)
        rounds += len(game.rounds)
        if game.winner is None:
            unfinished += 1
        else:
            wins[game.winner] += 1
        if callable(on_game):
            on_game(i, game)
    return SimulationResult(games, rounds, time.perf_counter() - start, tuple(wins), unfinished)
