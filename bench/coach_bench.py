"""The coach's first advice against a deeper search (issue 26).

    .venv/bin/python bench/coach_bench.py --positions 400 --seed 1 --before 67d9af8

Positions are sampled from expert-vs-expert games of every set-up the app offers
(each preset, teams of four, three players, 7-card hands, jokers + renuncio +
primera + mesa abierta): every ``--every``-th decision, ``--positions`` per set-up.
In each, a deeper search (:class:`escoba.bots.ExpertPlayer`'s determinized search at
``--scale`` times its sample and work budgets) values every legal play, and the
benchmark reports, for the coach as it is (``after``) and the coach of git revision
``--before`` (its ``escoba/coach.py`` run on today's engine):

* agreement: how often the coach's first advice is the deep search's best play
  (``exact``), or a play the search values as highly (``as good``);
* points lost: the mean, over advised moves, of the search's value of its best play
  minus its value of the advice (points of the round);
* plain twin laid: how often the advice lays down an oro, a seven or the siete de
  oros while a card of the same value that scores less is in hand (the same table
  would be left): must be 0.

The expert at its own budget is reported the same way, as a reference. Prints a
Markdown table, then one JSON line.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import platform
import random
import statistics
import subprocess
import sys
import time
from pathlib import Path
from types import ModuleType

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from escoba import coach as after_coach  # noqa: E402
from escoba.bots import ExpertPlayer, _Search  # noqa: E402
from escoba.cards import CARDS, JOKER_MASK, VALUE  # noqa: E402
from escoba.observation import Observation  # noqa: E402
from escoba.round import Round  # noqa: E402
from escoba.rules import Rules  # noqa: E402

#: The set-ups: a name and the rules (every preset, and the tables the issue tried).
SETUPS: dict[str, Rules] = {
    "classic": Rules.preset("classic"),
    "setenta": Rules.preset("setenta"),
    "relaxed": Rules.preset("relaxed"),
    "escova": Rules.preset("escova"),
    "teams of four": Rules.preset("classic", players=4, teams=True),
    "three players": Rules.preset("classic", players=3),
    "7-card hands": Rules.preset("classic", hand_size=7),
    "jokers+renuncio+primera+open": Rules.preset("classic", jokers=True,
                                                 capture_rule="renuncio", primera=True,
                                                 open_hand=True),
}


def coach_at(revision: str) -> ModuleType:
    """``escoba/coach.py`` as it was at git ``revision``, run on today's engine."""
    source = subprocess.run(["git", "-C", str(ROOT), "show", f"{revision}:escoba/coach.py"],
                            check=True, capture_output=True, text=True).stdout
    spec = importlib.util.spec_from_loader("escoba._coach_before", loader=None)
    assert spec is not None
    module = importlib.util.module_from_spec(spec)
    module.__package__ = "escoba"
    sys.modules[spec.name] = module  # dataclasses look their module up
    exec(compile(source, f"{revision}:escoba/coach.py", "exec"), module.__dict__)
    return module


def positions(rules: Rules, wanted: int, every: int, seed: int) -> list[Observation]:
    """``wanted`` decisions of expert-vs-expert rounds, every ``every``-th one."""
    rng = random.Random(seed)
    expert = ExpertPlayer()
    out: list[Observation] = []
    count = 0
    while len(out) < wanted:
        round_ = _deal(rules, rng)
        while not round_.is_over and len(out) < wanted:
            obs = round_.observation(round_.to_move)
            claim = expert.claim_renuncio(obs, rng)
            if claim is not None:
                round_.claim_renuncio(claim)
                obs = round_.observation(round_.to_move)
            count += 1
            if count % every == 0 and len(obs.legal_move_pairs()) > 1:
                out.append(obs)
            round_.play(expert.choose(obs, rng))
    return out


def _deal(rules: Rules, rng: random.Random) -> Round:
    """A shuffled round (shuffled again while ``redeal`` refuses the table)."""
    deck = list(CARDS[: rules.deck_size])
    dealer = rng.randrange(rules.players)
    while True:
        rng.shuffle(deck)
        try:
            return Round(rules, deck, dealer)
        except ValueError:
            continue


def deep_values(obs: Observation, scale: int, seed: int) -> dict[tuple[int, int], float]:
    """The deeper search's mean value of every legal play."""
    base = ExpertPlayer()
    pairs = obs.legal_move_pairs()
    search = _Search(obs, base.depth, base.node_budget * scale)
    samples = search.plan(len(pairs), base.samples * scale, base.work_budget * scale)
    totals = search.play_values(pairs, samples, random.Random(seed))
    return {p: v / max(1, search.drawn) for p, v in zip(pairs, totals, strict=True)}


def keep_weight(card: int) -> int:
    return after_coach.keep_weight(card)


def laid_scoring_twin(obs: Observation, pair: tuple[int, int]) -> bool:
    """The play lays down a scoring card while a same-value card scoring less is in hand."""
    card, take = pair
    if take or card >= 40:
        return False
    for c in range(40):
        if obs.hand_mask >> c & 1 and c != card and not (1 << c) & JOKER_MASK \
                and VALUE[c] == VALUE[card] and keep_weight(c) < keep_weight(card):
            return True
    return False


def advice(module: ModuleType, obs: Observation) -> tuple[int, int]:
    best = module.analyse(obs)[0].move
    mask = 0
    for c in best.take:
        mask |= 1 << c.index
    return best.card.index, mask


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--positions", type=int, default=400, help="per set-up")
    parser.add_argument("--every", type=int, default=3)
    parser.add_argument("--scale", type=int, default=8)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--before", default="main")
    parser.add_argument("--setups", nargs="*", default=list(SETUPS))
    args = parser.parse_args()
    before = coach_at(args.before)
    advisers = {"before": lambda o: advice(before, o), "after": lambda o: advice(after_coach, o),
                "expert 1x": lambda o: ExpertPlayer().choose_pair(o, random.Random(args.seed))}
    started = time.time()
    load = os.getloadavg()[0]
    rows = []
    overall: dict[str, dict[str, list[float]]] = {
        k: {"exact": [], "good": [], "lost": [], "twin": []} for k in advisers}
    for name in args.setups:
        rules = SETUPS[name]
        sample = positions(rules, args.positions, args.every, args.seed)
        stats = {k: {"exact": [], "good": [], "lost": [], "twin": []} for k in advisers}
        for i, obs in enumerate(sample):
            values = deep_values(obs, args.scale, args.seed * 100003 + i)
            top = max(values.values())
            # Among plays the search values alike: a strong player's tie-break (the
            # coach's), so that "exact" does not hang on the order of card indices.
            best_pair = max(values, key=lambda p: (values[p], p[1].bit_count(),
                                                   keep_weight(p[0]) if p[1]
                                                   else -keep_weight(p[0]), -p[0]))
            for key, adviser in advisers.items():
                pair = adviser(obs)
                stats[key]["exact"].append(float(pair == best_pair))
                stats[key]["good"].append(float(values[pair] >= top - 1e-9))
                stats[key]["lost"].append(top - values[pair])
                stats[key]["twin"].append(float(laid_scoring_twin(obs, pair)))
        for key in advisers:
            for metric, got in stats[key].items():
                overall[key][metric] += got
        rows.append((name, len(sample), stats))
    print(f"{sum(r[1] for r in rows)} positions, deep search = expert at {args.scale}x its "
          f"samples and budgets; before = coach at {args.before}")
    print()
    print("| set-up | positions | adviser | agrees (exact) | agrees (as good) "
          "| points lost per move | plain twin laid |")
    print("|---|---:|---|---:|---:|---:|---:|")
    for name, n, stats in [*rows, ("all", sum(r[1] for r in rows), overall)]:
        for key in advisers:
            s = stats[key]
            print(f"| {name} | {n} | {key} | {100 * statistics.fmean(s['exact']):.1f}% "
                  f"| {100 * statistics.fmean(s['good']):.1f}% "
                  f"| {statistics.fmean(s['lost']):.4f} | {int(sum(s['twin']))} |")
    print()
    print(f"wall {time.time() - started:.0f} s, load {load:.2f} -> {os.getloadavg()[0]:.2f}, "
          f"{platform.python_version()}")
    print(json.dumps({k: {m: statistics.fmean(v) if m != "twin" else int(sum(v))
                          for m, v in overall[k].items()} for k in advisers}))


if __name__ == "__main__":
    main()
