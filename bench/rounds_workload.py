"""A fixed simulation workload for instruction counting (see rounds_instructions.sh).

    python bench/rounds_workload.py GAMES

Plays 20 seeded warm-up games (filling the solver's cache), then GAMES more,
random vs random, classic, and prints how many rounds those GAMES had.
"""

import random
import sys

from escoba import Rules
from escoba.bots import RandomPlayer
from escoba.match import play_game

rules = Rules.preset("classic")
players = [RandomPlayer(), RandomPlayer()]
rng = random.Random(1)
for _ in range(20):
    play_game(rules, players, rng)
rounds = sum(len(play_game(rules, players, rng).rounds) for _ in range(int(sys.argv[1])))
print("rounds", rounds)
