"""Games between computer players: the loop behind ``escoba simulate``.

The loop hands each player only its :class:`~escoba.observation.Observation`.
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
    fast = [getattr(p, "choose_pair", None) for p in players]
    simple = not renuncio and None not in fast
    while not game.is_over and len(game.rounds) < MAX_ROUNDS:
        round_ = game.start_round()
        scores = tuple(game.totals)
        number = len(game.rounds)
        # The game's scores are brought up to date once, when the round ends. The
        # engine checks every move (``_play_chosen`` is ``play_pair`` given the pair).
        if simple:  # every player answers in the inner form; no renuncio to claim
            round_._advance(choosers=fast, scores=scores, number=number,  # type: ignore[arg-type]
                            rng=rng)
        observe, play_chosen, play = round_.observation, round_._play_chosen, round_.play
        while not round_._over:
            seat = round_._to_move
            obs = observe(seat, scores, number)
            if renuncio and obs.renuncio_card is not None:
                claim = players[seat].claim_renuncio(obs, rng)
                if claim is not None:
                    round_.claim_renuncio(claim)
                    obs = observe(seat, scores, number)
            choose_pair = fast[seat]
            if choose_pair is not None:
                play_chosen(choose_pair(obs, rng))
            else:
                play(players[seat].choose(obs, rng))
        game.round_finished()
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
