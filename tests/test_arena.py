"""The arena: paired deals, statistics, and the ``escoba arena`` command."""

from __future__ import annotations

import json
import statistics

import pytest

from commands import main
from escoba.arena import percentile, run_arena
from escoba.rules import Rules


def test_a_bot_against_itself_scores_exactly_zero_in_every_pair():
    # Each deck is played twice with the seats swapped and the same random
    # numbers, so identical bots play identical rounds: every pair cancels.
    for level in ("greedy", "random"):
        result = run_arena(Rules.preset("classic"), [level, level], 30, seed=2)
        assert result.pair_diffs == (0.0,) * 30
        assert result.wins == result.losses


def test_pairs_swap_seats_so_the_seat_advantage_cancels():
    result = run_arena(Rules.preset("classic", players=3), ["greedy", "random"], 40, seed=5)
    assert result.rounds == 80
    assert result.wins + result.losses + result.ties == 80
    assert result.mean_diff == pytest.approx(statistics.fmean(result.pair_diffs))
    lo, hi = result.ci95
    assert lo < result.mean_diff < hi
    assert result.mean_diff > 0.5  # greedy beats random clearly
    assert result.points[0] - result.points[1] == pytest.approx(result.mean_diff)


def test_the_same_seed_gives_the_same_result():
    rules = Rules.preset("relaxed", players=4, teams=True, capture_rule="renuncio")
    a = run_arena(rules, ["gentle", "expert"], 6, seed=9)
    b = run_arena(rules, ["gentle", "expert"], 6, seed=9)
    assert a.pair_diffs == b.pair_diffs
    assert a.timing[1]["moves"] == b.timing[1]["moves"] > 0
    assert run_arena(rules, ["gentle", "expert"], 6, seed=10).pair_diffs != a.pair_diffs


def test_percentile():
    assert percentile([], 0.5) == 0.0
    assert percentile([3.0, 1.0, 2.0], 0.5) == 2.0
    assert percentile(list(range(101)), 0.95) == pytest.approx(95.0)
    assert percentile([1.0, 2.0], 0.5) == pytest.approx(1.5)


def test_arena_errors():
    with pytest.raises(ValueError, match="two bots"):
        run_arena(Rules.preset("classic"), ["greedy"], 3)
    with pytest.raises(ValueError, match="unknown player"):
        run_arena(Rules.preset("classic"), ["greedy", "wizard"], 3)


def test_cli_arena_json(capsys):
    code = main(["arena", "--bots", "greedy", "random", "--rounds", "20", "--seed", "1",
                 "--json"])
    assert code == 0
    data = json.loads(capsys.readouterr().out)
    assert data["bots"] == ["greedy", "random"]
    assert data["deals"] == 20 and data["rounds"] == 40
    lo, hi = data["ci95"]
    assert lo <= data["mean_diff"] <= hi
    assert set(data["ms_per_move"][0]) == {"median", "p95", "moves"}
    assert data["ms_per_move"][0]["moves"] > 0
    assert 0 <= data["win_rate"][0] <= 1
    assert data["win_rate"][0] + data["win_rate"][1] == pytest.approx(1)


@pytest.mark.parametrize("extra", [["--players", "3"], ["--teams"],
                                   ["--rules", "setenta", "--set", "jokers=true"]])
def test_cli_arena_player_counts_and_options(capsys, extra):
    code = main(["arena", "--bots", "gentle", "greedy", "--rounds", "5", *extra])
    assert code == 0
    out = capsys.readouterr().out
    assert "gentle - greedy" in out and "95% CI" in out


@pytest.mark.parametrize(("args", "message"), [
    (["--bots", "greedy", "wizard"], "unknown bot 'wizard'"),
    (["--bots", "greedy", "random", "--rounds", "0"],
     "--rounds must be a whole number from 1 to 100,000"),
    (["--bots", "greedy", "random", "--teams", "--players", "3"], "teams need 4 players"),
    (["--bots", "greedy", "random", "--set", "capture_rule=sometimes"], "capture_rule"),
])
def test_cli_arena_errors_are_one_line_exit_2(capsys, args, message):
    assert main(["arena", *args]) == 2
    err = capsys.readouterr().err
    assert err.startswith("error: ") and message in err and err.count("\n") == 1
