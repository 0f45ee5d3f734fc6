"""How often each simulated child wins against each computer level, "just right" included
(issue 30).

For every simulated child (bench/simulated_children.py) and every opponent: the share
of rounds the child wins (ties count half) over paired deals (each deal played twice,
seats swapped, the same random numbers for both halves: escoba.arena), with a 95%
interval (normal approximation over the pairs' win shares). Gentle as it was before
issue 30 made it gentler (``gentle_before``) is the baseline in the same run.

"Just right" is measured as the app plays it: the child first plays five whole games
against it, the strength estimate (trainer.just_right) updated from each finished
game's rounds and the next game played at the new estimate; then the measured pairs,
the estimate still updated after each pair (both rounds of a pair at the same
strength). Goals (issue 30): against "just right" every child wins 40-60% of rounds
with the 95% interval inside 35-65%; against Gentle the weakest child wins at least 40%.

    PYTHONPATH=. python bench/just_right_bench.py --deals 200 --seed 1
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.simulated_children import CHILDREN, make_child
from escoba import Rules
from escoba.arena import mean_ci95, play_round, shuffled_deck
from escoba.bots import GentlePlayer, JustRightPlayer, Player, _is_escoba, make_player
from escoba.cards import VALUE
from escoba.match import play_game
from escoba.observation import Observation
from trainer.just_right import LEVEL, START, update_strength

__all__ = ["WinRate", "paired_win_rate", "warm_up", "just_right_win_rate", "run", "main"]

#: Gentle as it played before issue 30 changed it: the baseline the new one is measured
#: against, in the same run.
GENTLE_BEFORE = "gentle_before"
FIXED_LEVELS = ("gentle", GENTLE_BEFORE, "random", "greedy", "expert")
WARM_UP_GAMES = 5


@dataclass(frozen=True)
class WinRate:
    """The child's share of rounds won (ties half) over paired deals, with a 95% interval."""

    pair_shares: tuple[float, ...]
    strength: float | None = None  # "just right": the estimate at the end

    @property
    def rate(self) -> float:
        return statistics.fmean(self.pair_shares) if self.pair_shares else 0.0

    @property
    def ci95(self) -> tuple[float, float]:
        return mean_ci95(self.pair_shares)

    def to_json(self) -> dict[str, object]:
        lo, hi = self.ci95
        out: dict[str, object] = {"win_rate": round(self.rate, 3),
                                  "ci95": [round(lo, 3), round(hi, 3)],
                                  "rounds": 2 * len(self.pair_shares)}
        if self.strength is not None:
            out["strength"] = round(self.strength, 3)
        return out


def _round_share(totals: Sequence[int], child_side: int) -> float:
    mine = totals[child_side]
    theirs = max(p for s, p in enumerate(totals) if s != child_side)
    return 1.0 if mine > theirs else 0.5 if mine == theirs else 0.0


def paired_win_rate(rules: Rules, child: Player, opponent: Callable[[], Player], deals: int,
                    seed: int, after_pair: Callable[[float, float], None] | None = None,
                    strength: Callable[[], float | None] = lambda: None) -> WinRate:
    """The child's win share over ``deals`` paired deals (two players); ``opponent()``
    makes the computer for each pair and ``after_pair(share of round 1, of round 2)``
    hears each pair's results (the "just right" estimate's update)."""
    deck_rng = random.Random(seed)
    shares = []
    for i in range(deals):
        dealer = i % 2
        deck = shuffled_deck(rules, deck_rng, dealer)
        bot = opponent()
        results = []
        for child_seat in (0, 1):
            players = [child, bot] if child_seat == 0 else [bot, child]
            round_ = play_round(rules, deck, dealer, players,
                                random.Random(seed * 1_000_003 + i))
            results.append(_round_share(round_.score().totals, rules.side_of(child_seat)))
        shares.append((results[0] + results[1]) / 2)
        if after_pair is not None:
            after_pair(results[0], results[1])
    return WinRate(tuple(shares), strength())


def warm_up(rules: Rules, child: Player, games: int, seed: int) -> tuple[float, int]:
    """The estimate after the child's first ``games`` whole games against "just right",
    each game at the estimate its previous games left (as the app does), and the rounds
    it rests on."""
    rng = random.Random(seed)
    strength, rounds = START, 0
    for g in range(games):
        bot = JustRightPlayer(strength)
        players = [child, bot] if g % 2 == 0 else [bot, child]
        child_side = rules.side_of(g % 2)
        game = play_game(rules, players, rng)
        for round_ in game.rounds:
            share = _round_share(round_.score().totals, child_side)
            strength = update_strength(strength, strength, share, rounds)
            rounds += 1
    return strength, rounds


def just_right_win_rate(rules: Rules, child: Player, deals: int, seed: int,
                        warm_up_games: int = WARM_UP_GAMES) -> WinRate:
    """The child's win share against "just right" after ``warm_up_games`` games."""
    strength, rounds = warm_up(rules, child, warm_up_games, seed)
    state = {"strength": strength, "rounds": rounds}

    def after_pair(first: float, second: float) -> None:
        s, n = state["strength"], int(state["rounds"])
        state["strength"] = update_strength(update_strength(s, s, first, n), s, second, n + 1)
        state["rounds"] = n + 2

    return paired_win_rate(rules, child, lambda: JustRightPlayer(state["strength"]), deals,
                           seed, after_pair, lambda: state["strength"])


class GentleBeforePlayer(GentlePlayer):
    """Gentle before issue 30, kept here word for word as the baseline: every escoba it
    has, otherwise the capture taking the fewest cards, otherwise its lowest card laid
    down (under optional rules the same slips as today's)."""

    name = GENTLE_BEFORE

    def choose_pair(self, observation: Observation, rng: random.Random) -> tuple[int, int]:
        obs = observation
        pairs = obs.legal_move_pairs()
        table = obs.table_mask
        captures = [(c, t) for c, t in pairs if t]
        if captures and obs.rules.capture_rule != "forced" and rng.random() < self.slip:
            capturing_cards = {c for c, _ in captures}
            slips = [(c, t) for c, t in pairs if not t and c in capturing_cards]
            if slips:
                return slips[rng.randrange(len(slips))]
        if captures:
            escobas = [(c, t) for c, t in captures if _is_escoba(obs, table, c, t)]
            if escobas:
                return escobas[rng.randrange(len(escobas))]
            fewest = min(t.bit_count() for _, t in captures)
            simple = [(c, t) for c, t in captures if t.bit_count() == fewest]
            return simple[rng.randrange(len(simple))]
        return min(pairs, key=lambda p: (VALUE[p[0]], p[0]))


def fixed_opponent(level: str) -> Player:
    """A fixed level by name, or ``just_right@0.5``: "just right" held at a strength (how
    the fixed levels' places on the estimate's scale are read)."""
    if level.startswith(LEVEL + "@"):
        return JustRightPlayer(float(level.split("@", 1)[1]))
    if level == GENTLE_BEFORE:
        return GentleBeforePlayer()
    return make_player(level)


def _level_name(text: str) -> str:
    if text in (*FIXED_LEVELS, LEVEL):
        return text
    try:
        fixed_opponent(text)
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"{text!r}: one of {', '.join((*FIXED_LEVELS, LEVEL))} or just_right@S "
            "(S from 0 to 1)") from None
    return text


def run(rules: Rules, children: Sequence[str], levels: Sequence[str], deals: int, seed: int,
        on_result: Callable[[str, str, WinRate], None] | None = None
        ) -> dict[str, dict[str, WinRate]]:
    """Every child against every level (``just_right`` measured after its warm-up)."""
    table: dict[str, dict[str, WinRate]] = {}
    for name in children:
        child = make_child(name)
        row: dict[str, WinRate] = {}
        for level in levels:
            if level == LEVEL:
                result = just_right_win_rate(rules, child, deals, seed)
            else:
                bot = fixed_opponent(level)
                result = paired_win_rate(rules, child, lambda b=bot: b, deals, seed)
            row[level] = result
            if on_result is not None:
                on_result(name, level, result)
        table[name] = row
    return table


def goals(table: dict[str, dict[str, WinRate]], weakest: str) -> dict[str, bool]:
    """Issue 30's goals, met or not."""
    out = {}
    if all(LEVEL in row for row in table.values()):
        out["just_right_40_60"] = all(0.40 <= row[LEVEL].rate <= 0.60 for row in table.values())
        out["just_right_ci_35_65"] = all(row[LEVEL].ci95[0] >= 0.35 and row[LEVEL].ci95[1] <= 0.65
                                         for row in table.values())
    if weakest in table and "gentle" in table[weakest]:
        out["weakest_vs_gentle_40"] = table[weakest]["gentle"].rate >= 0.40
    return out


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--deals", type=int, default=200,
                        help="paired deals per child and opponent (rounds: twice as many)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--preset", default="classic", help="the rules' preset (classic)")
    parser.add_argument("--children", nargs="*", default=list(CHILDREN),
                        choices=list(CHILDREN), help="simulated children (all)")
    parser.add_argument("--levels", nargs="*", default=[*FIXED_LEVELS, LEVEL],
                        type=_level_name, metavar="LEVEL",
                        help="opponents: gentle gentle_before random greedy expert just_right "
                             "(all), or "
                             "just_right@S, held at strength S")
    parser.add_argument("--json", action="store_true", help="print JSON")
    args = parser.parse_args(argv)
    rules = Rules.preset(args.preset)
    start = time.perf_counter()

    def show(child: str, level: str, result: WinRate) -> None:
        if not args.json:
            lo, hi = result.ci95
            extra = f"  (strength {result.strength:.2f})" if result.strength is not None else ""
            print(f"{child:>13} vs {level:<10} {result.rate:6.1%}  [{lo:.1%}, {hi:.1%}]{extra}",
                  flush=True)

    table = run(rules, args.children, args.levels, args.deals, args.seed, show)
    met = goals(table, args.children[0])
    if args.json:
        print(json.dumps({"preset": args.preset, "deals": args.deals, "seed": args.seed,
                          "results": {c: {lv: r.to_json() for lv, r in row.items()}
                                      for c, row in table.items()},
                          "goals": met, "elapsed": round(time.perf_counter() - start, 1)},
                         indent=2))
    else:
        for goal, ok in met.items():
            print(f"goal {goal}: {'met' if ok else 'MISSED'}")
        print(f"elapsed {time.perf_counter() - start:.0f} s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
