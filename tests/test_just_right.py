"""The "just right" computer (issue 30): the adaptive player (legal, fair, takes its
escobas, eases when ahead), the strength estimate from stored games, the simulated
children, and the benchmark's direction on a small seeded run."""

from __future__ import annotations

import random
from datetime import UTC, datetime, timedelta
from types import SimpleNamespace

import pytest
import sqlalchemy as sa
from helpers import any_rules, card, cards, dealable_deck, random_walk, stacked_round
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_bots import Checked, redealt_round, walked_round

from escoba import Move, Round, Rules
from escoba.arena import play_round
from escoba.bots import ChildLikePlayer, ExpertPlayer, JustRightPlayer, leaves_sweep
from escoba.match import play_game
from trainer import just_right
from trainer.gameplay import GameSession, SeatSpec
from trainer.just_right import (
    LEVEL_STRENGTH,
    START,
    STEP,
    JustRightSummary,
    StrengthEstimate,
    default_level,
    estimate_strength,
    just_right_summary,
    step_for,
    update_strength,
)
from trainer.storage import RoundResult, Storage

#: A small search: the expert's part of "just right" is as legal and as fair at any budget.
QUICK_EXPERT = ExpertPlayer(samples=4, depth=1, work_budget=800, node_budget=300)
STRENGTHS = (0.0, 0.3, 0.6, 0.9, 1.0)

scopa_rules = st.builds(
    lambda preset, napola, asso, open_hand: Rules.preset(
        preset, napola=napola, asso_piglia_tutto=asso, open_hand=open_hand),
    st.sampled_from(["scopa", "scopone"]), st.booleans(), st.booleans(), st.booleans())


def quick(strength: float) -> JustRightPlayer:
    return JustRightPlayer(strength, expert=QUICK_EXPERT)


# -- the adaptive player -----------------------------------------------------------------


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(rules=st.one_of(any_rules(miscount="retry"), scopa_rules), seed=st.integers(0, 10**6),
       strengths=st.lists(st.sampled_from(STRENGTHS), min_size=4, max_size=4))
def test_just_right_plays_only_legal_moves_under_escoba_and_scopa_rules(rules, seed, strengths):
    rng = random.Random(seed)
    dealer = rng.randrange(rules.players)
    deck = dealable_deck(rules, rng, dealer)
    players = [Checked(quick(strengths[s])) for s in range(rules.players)]
    round_ = play_round(rules, deck, dealer, players, rng)  # Checked checks every move
    assert round_.is_over
    assert sum(p.moves for p in players) == sum(1 for e in round_.history if e.kind == "play")


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(rules=st.one_of(any_rules(miscount="retry"), scopa_rules), seed=st.integers(0, 10**6),
       steps=st.integers(0, 25))
def test_just_right_never_changes_its_move_when_hidden_cards_are_redealt(rules, seed, steps):
    walked = walked_round(rules, seed, steps)
    if walked is None:
        return
    round_, dealer = walked
    seat = round_.to_move
    original = round_.observation(seat)
    players = [quick(s) for s in STRENGTHS] + [ChildLikePlayer(0.5, 0.5, 0.5)]
    decisions = [(p.claim_renuncio(original, random.Random(seed)),
                  p.choose(original, random.Random(seed))) for p in players]
    for k in range(4):
        obs = redealt_round(round_, dealer, seat, random.Random(seed * 7 + k)).observation(seat)
        assert obs == original
        got = [(p.claim_renuncio(obs, random.Random(seed)), p.choose(obs, random.Random(seed)))
               for p in players]
        assert got == decisions


@pytest.mark.parametrize("strength", [0.0, 0.2, 0.5])
def test_just_right_always_takes_the_escoba_it_has(strength):
    rules = Rules.preset("relaxed")  # optional captures: a lay-down would be legal
    round_ = stacked_round(rules, ["5c 1e 2e", "1b 2b 3b"], "3c 4c 2o 1o", dealer=1)
    obs = round_.observation(0)
    sweep = Move(card("5c"), frozenset(cards("3c 4c 2o 1o")))
    assert {JustRightPlayer(strength).choose(obs, random.Random(seed))
            for seed in range(60)} == {sweep}
    # a child who misses captures does not always see it
    child = ChildLikePlayer(see=0.3, best=0.0)
    assert {child.choose(obs, random.Random(seed)) for seed in range(60)} != {sweep}


def test_just_right_eases_while_it_leads_the_game():
    rules = Rules.preset("classic")
    round_ = stacked_round(rules, ["5c 1e 2e", "1b 2b 3b"], "3c 4c 2o 1o", dealer=1)
    obs = round_.observation(1)._replace(scores=(4, 10))  # seat 1 leads by 6
    player = JustRightPlayer(0.6)
    assert player.effective_strength(obs) == pytest.approx(0.6 - 6 * JustRightPlayer.ease)
    assert player.effective_strength(obs._replace(scores=(10, 4))) == 0.6  # behind: no ease
    assert JustRightPlayer(0.1).effective_strength(obs) == 0.0  # never below the bottom


def test_strength_moves_between_a_beginner_and_the_expert():
    assert JustRightPlayer.expert_share(0.4) == 0.0
    assert JustRightPlayer.expert_share(1.0) == 1.0
    assert JustRightPlayer(3.0).strength == 1.0 and JustRightPlayer(-1).strength == 0.0
    # at full strength every move is the expert's own
    rules = Rules.preset("classic")
    rng = random.Random(4)
    round_ = Round(rules, dealable_deck(rules, rng, 0), 0)
    random_walk(round_, rng, 5)
    obs = round_.observation(round_.to_move)
    assert JustRightPlayer(1.0, QUICK_EXPERT).choose(obs, random.Random(2)) == \
        QUICK_EXPERT.choose(obs, random.Random(2))


def test_a_careful_child_avoids_leaving_a_sweep():
    rules = Rules.preset("classic")
    # the table is empty: a 6 or a 9 laid down could be swept by one unseen card, a 4 not
    round_ = stacked_round(rules, ["4o 6e 9e", "1b 2b 3b"], "1c 2c 4c 8c", dealer=1)
    obs = round_.observation(0)
    assert obs.table_mask == 0
    assert leaves_sweep(obs, card("6e").index) and not leaves_sweep(obs, card("4o").index)
    careful = ChildLikePlayer(block=1.0)
    assert {careful.choose(obs, random.Random(s)) for s in range(20)} == {Move(card("4o"))}
    careless = ChildLikePlayer(block=0.0)
    assert len({careless.choose(obs, random.Random(s)) for s in range(40)}) == 3


# -- the strength estimate -------------------------------------------------------------


def _game(level: str, results: list[tuple[int, int]], *, strength: float | None = None,
          when: datetime | None = None, human_opponent: bool = False):
    """A finished game as GameStore.finished_games gives it: the child at seat 0."""
    bot = {"kind": "human" if human_opponent else "bot", "name": "B", "level": level}
    if strength is not None:
        bot["strength"] = strength
    row = SimpleNamespace(rules=Rules.preset("classic").to_dict(only_changes=True),
                          seats=[{"kind": "human", "name": "Ana"}, bot], viewer_seat=None,
                          updated_at=when or datetime(2026, 12, 1, tzinfo=UTC))
    return row, [RoundResult(n, [{"cards": mine}, {"cards": theirs}])
                 for n, (mine, theirs) in enumerate(results, 1)]


def test_a_child_who_always_wins_moves_the_estimate_up_to_the_top():
    strengths = [estimate_strength([_game("gentle", [(6, 2)] * n)]).strength
                 for n in range(0, 40, 4)]
    assert strengths[0] == START
    assert strengths == sorted(strengths) and strengths[1] > START
    assert strengths[-1] == 1.0  # bounded


def test_a_losing_streak_moves_it_down_to_the_bottom():
    strengths = [estimate_strength([_game("expert", [(1, 5)] * n)]).strength
                 for n in range(0, 40, 4)]
    assert strengths == sorted(strengths, reverse=True) and strengths[1] < START
    assert strengths[-1] == 0.0


def test_against_just_right_a_round_moves_it_half_a_step():
    assert update_strength(0.4, 0.4, 1.0) == pytest.approx(0.4 + STEP / 2)
    assert update_strength(0.4, 0.4, 0.0) == pytest.approx(0.4 - STEP / 2)
    # the step shrinks as the rounds behind the estimate grow, never below STEP_MIN
    steps = [step_for(n) for n in (0, 10, 25, 100, 10_000)]
    assert steps == sorted(steps, reverse=True) and steps[0] == STEP
    assert steps[-1] == just_right.STEP_MIN
    assert update_strength(0.4, 0.4, 1.0, rounds=100) < update_strength(0.4, 0.4, 1.0)
    assert update_strength(0.4, 0.4, 0.5) == pytest.approx(0.4)
    # a win against an easier level says less than a win against a harder one
    assert update_strength(0.4, LEVEL_STRENGTH["random"], 1.0) < \
        update_strength(0.4, LEVEL_STRENGTH["expert"], 1.0)
    estimate = estimate_strength([_game("just_right", [(5, 3)], strength=0.4)])
    assert estimate.strength == pytest.approx(START + STEP * (1 - just_right.expected_result(
        START, 0.4)))


def test_games_against_other_children_and_unknown_levels_say_nothing():
    assert estimate_strength([_game("", [(6, 2)] * 5, human_opponent=True)]) == \
        StrengthEstimate(START, 0, 0)
    assert estimate_strength([_game("wizard", [(6, 2)] * 5)]).rounds == 0


def test_the_parent_reads_better_gentler_or_the_same_as_last_week():
    now = datetime(2026, 12, 10, tzinfo=UTC)
    old = _game("gentle", [(3, 3)] * 4, when=now - timedelta(days=9))
    won = _game("gentle", [(6, 1)] * 4, when=now - timedelta(days=1))
    lost = _game("gentle", [(0, 6)] * 4, when=now - timedelta(days=1))
    assert just_right_summary([old, won], now).reading()[0] == "jr_strength_up"
    assert just_right_summary([old, lost], now).reading()[0] == "jr_strength_down"
    assert just_right_summary([old], now).reading()[0] == "jr_strength_same"
    key, params = just_right_summary([won], now).reading()
    assert key == "jr_strength_now" and 0 <= params["after"] <= 100
    assert just_right_summary([], now).reading() is None


def test_just_right_is_the_default_after_a_few_games():
    levels = ["gentle", "random", "greedy", "expert", "just_right"]
    assert default_level(0, levels) == "gentle"
    assert default_level(just_right.DEFAULT_AFTER_GAMES - 1, levels) == "gentle"
    assert default_level(just_right.DEFAULT_AFTER_GAMES, levels) == "just_right"
    games = [_game("gentle", [(2, 3)]) for _ in range(just_right.DEFAULT_AFTER_GAMES)]
    summary = JustRightSummary(StrengthEstimate(), estimate_strength(games))
    assert summary.default_level(levels) == "just_right"


def _play_to_end(session: GameSession, seed: int) -> None:
    rng = random.Random(seed)
    while not session.is_over:
        if session.round_over:
            session.next_round()
        elif session.is_human_turn:
            move = rng.choice(session.observation(session.to_move).legal_moves())
            assert session.play_human(move.card, move.take).ok
        else:
            session.bot_step()


def test_the_estimate_is_read_back_from_storage_the_same(tmp_path):
    url = f"sqlite:///{tmp_path / 'store.db'}"
    store = Storage(sa.create_engine(url))
    ana = store.create_profile("Ana", "🦊")
    rules = Rules.preset("classic", target=5)
    seats = [SeatSpec("human", "Ana"), SeatSpec("bot", "B", level="just_right", strength=0.37)]
    session = GameSession.new(rules, seats, 3, storage=store, profile_id=ana.id)
    assert session.players[1].strength == 0.37  # the seat's strength, not the default
    _play_to_end(session, 1)
    games = store.finished_games(ana.id)
    (row, results), = games
    assert row.seats[1]["strength"] == 0.37
    again = GameSession.resume(row, store)
    assert isinstance(again.players[1], JustRightPlayer) and again.players[1].strength == 0.37
    estimate = estimate_strength(games)
    assert estimate.rounds == len(results) > 0 and estimate.games == 1
    # the same, read by another process from the same database
    reread = Storage(sa.create_engine(url)).finished_games(ana.id)
    assert estimate_strength(reread) == estimate
    expected = START
    for n, result in enumerate(results):
        mine, theirs = result.side_points(0), result.side_points(1)
        expected = update_strength(expected, 0.37,
                                   1.0 if mine > theirs else 0.5 if mine == theirs else 0.0, n)
    assert estimate.strength == pytest.approx(expected)


# -- the simulated children and the benchmark ---------------------------------------------


def test_simulated_children_play_whole_scopa_games_legally():
    from bench.simulated_children import CHILDREN, make_child

    assert len(CHILDREN) >= 5
    rules = Rules.preset("scopa")
    for name in CHILDREN:
        game = play_game(rules, [make_child(name), JustRightPlayer(0.2)], random.Random(1))
        assert game.is_over or len(game.rounds) > 0


def test_the_weakest_child_wins_more_against_just_right_than_against_expert():
    """The benchmark's direction on a small seeded run (the figures: docs/BENCHMARKS.md)."""
    from bench.just_right_bench import just_right_win_rate, paired_win_rate
    from bench.simulated_children import CHILDREN, make_child

    rules = Rules.preset("classic")
    weakest = make_child(next(iter(CHILDREN)))
    expert = ExpertPlayer(samples=8, work_budget=4000)
    against_expert = paired_win_rate(rules, weakest, lambda: expert, 12, seed=3)
    against_just_right = just_right_win_rate(rules, weakest, 12, seed=3)
    assert against_just_right.rate > against_expert.rate + 0.1
    assert against_just_right.strength is not None and against_just_right.strength < 0.5


def test_a_seats_strength_comes_back_exactly_so_a_resumed_game_plays_on_the_same():
    import json

    spec = SeatSpec("bot", "B", level="just_right", strength=1 / 3)
    again = SeatSpec.from_dict(json.loads(json.dumps(spec.to_dict())))
    assert again == spec and again.player().strength == 1 / 3
    assert "strength" not in SeatSpec("bot", "B", level="gentle").to_dict()
