"""The simulation's loop against the step-by-step API, turn by turn.

``escoba.match.play_game`` plays each round in one frame (``Round._advance`` given
the players' choosers), with the observation and the legal pairs written out there
rather than called, for speed (docs/BENCHMARKS.md, issue 17). These tests replay
the same seeded games turn by turn through ``Round.observation`` and
``Round.play_pair`` and require every observation each seat was shown, every
event and every score to be identical, over every variant the loop plays.
"""

from __future__ import annotations

import random

import pytest
from helpers import any_rules
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from escoba import Game, IllegalMoveError, Rules
from escoba.bots import GentlePlayer, GreedyPlayer, RandomPlayer
from escoba.match import MAX_ROUNDS, play_game
from escoba.movegen import legal_move_pairs
from escoba.observation import Observation


class Recorder:
    """A player that keeps every observation it is shown, then lets ``player`` choose."""

    def __init__(self, player: RandomPlayer | GreedyPlayer | GentlePlayer) -> None:
        self.player = player
        self.name = player.name
        self.shown: list[Observation] = []

    def choose_pair(self, observation: Observation, rng: random.Random) -> tuple[int, int]:
        self.shown.append(observation)
        return self.player.choose_pair(observation, rng)

    def choose(self, observation, rng):  # pragma: no cover - the loop asks choose_pair
        raise AssertionError("the simulation loop asks choose_pair")


def step_by_step(rules: Rules, players: list, seed: int) -> tuple[Game, list[list[Observation]]]:
    """The same game as ``play_game(rules, players, Random(seed))``, one public call a turn."""
    rng = random.Random(seed)
    game = Game(rules, rng=rng)
    shown: list[list[Observation]] = [[] for _ in players]
    while not game.is_over and len(game.rounds) < MAX_ROUNDS:
        round_ = game.start_round()
        scores, number = tuple(game.totals), len(game.rounds)
        while not round_.is_over:
            seat = round_.to_move
            observation = round_.observation(seat, scores, number)
            assert observation.legal == tuple(legal_move_pairs(
                rules, observation.hand_mask, observation.table_mask))
            shown[seat].append(observation)
            round_.play_pair(*players[seat].choose_pair(observation, rng))
        game.round_finished()
    return game, shown


def record(game: Game) -> tuple:
    return (tuple(tuple(r.history) for r in game.rounds), tuple(r.deck for r in game.rounds),
            tuple(game.totals), game.winner, tuple(r.pile_masks for r in game.rounds))


LOOP_RULES = any_rules().filter(lambda rules: rules.capture_rule != "renuncio")
PLAYERS = {"random": RandomPlayer, "greedy": GreedyPlayer, "gentle": GentlePlayer}


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(rules=LOOP_RULES, seed=st.integers(0, 2**32 - 1),
       kinds=st.lists(st.sampled_from(sorted(PLAYERS)), min_size=4, max_size=4))
def test_the_loop_shows_and_plays_exactly_what_the_step_by_step_api_does(rules, seed, kinds):
    kinds = kinds[:rules.players]
    recorders = [Recorder(PLAYERS[k]()) for k in kinds]
    fast = play_game(rules, recorders, random.Random(seed))
    slow, shown = step_by_step(rules, [PLAYERS[k]() for k in kinds], seed)
    assert record(fast) == record(slow)
    for seat, recorder in enumerate(recorders):
        assert recorder.shown == shown[seat]
        assert all(type(o) is Observation for o in recorder.shown)


def test_classic_random_games_match_for_many_seeds():
    rules = Rules.preset("classic")
    for seed in range(25):
        recorders = [Recorder(RandomPlayer()), Recorder(RandomPlayer())]
        fast = play_game(rules, recorders, random.Random(seed))
        slow, shown = step_by_step(rules, [RandomPlayer(), RandomPlayer()], seed)
        assert record(fast) == record(slow)
        assert [r.shown for r in recorders] == shown


def state(round_) -> tuple:
    return (round_.table_mask, tuple(round_.hand_mask(s) for s in range(round_.rules.players)),
            round_.pile_masks, round_.escobas, round_.to_move, round_.history, round_.stock,
            round_.last_capturer, round_.is_over)


@pytest.mark.parametrize("seed", range(12))
def test_a_refused_answer_in_the_loop_changes_nothing(seed):
    """A made-up answer (another card, the whole table) is judged in full and refused
    mid-round; the round is as it was before the answer, and plays on from there."""
    rules = Rules.preset("relaxed" if seed % 2 else "classic")
    game = Game(rules, rng=random.Random(seed))
    round_ = game.start_round()
    turn, before = random.Random(seed).randrange(1, 30), []

    def chooser(observation: Observation, rng: random.Random) -> tuple[int, int]:
        if len(round_.history) >= turn:
            before.append(state(round_))
            hand = observation.hand_mask
            other = next(i for i in range(40) if not hand >> i & 1
                         and not observation.table_mask >> i & 1)
            return other, 0  # a card the seat does not hold
        return observation.legal[int(rng.random() * len(observation.legal))]

    with pytest.raises(IllegalMoveError) as refused:
        round_._advance(choosers=[chooser] * rules.players, rng=random.Random(seed))
    assert refused.value.code == "not_in_hand"
    assert state(round_) == before[0]
    pairs = round_.legal_move_pairs()
    round_.play_pair(*pairs[0])  # the round plays on from the state it was in
    assert len(round_.history) == len(before[0][5]) + 1


def test_the_loop_refuses_the_renuncio_rule():
    rules = Rules.preset("classic", capture_rule="renuncio")
    round_ = Game(rules, rng=random.Random(1)).start_round()
    with pytest.raises(ValueError, match="renuncio"):
        round_._advance(choosers=[RandomPlayer().choose_pair] * 2, rng=random.Random(1))
