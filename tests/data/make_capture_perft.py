"""Regenerate capture_perft.txt with a brute-force enumeration (not the solver).

    python tests/data/make_capture_perft.py > tests/data/capture_perft.txt

Each line: ``capture_sum ; table ; played card ; expected sets`` where sets
are separated by ``|`` and ``-`` means no capture. Jokers are wild: a set
with k jokers (played or taken) is a capture when the other values leave
between k and 10k to make the sum.
"""

import itertools
import random

SUITS = "oceb"
DECK = [f"{v}{s}" for v in range(1, 11) for s in SUITS] + ["JK1", "JK2"]


def value(c: str) -> int:
    return 0 if c.startswith("JK") else int(c[:-1])


def brute(table: list[str], played: str, capture_sum: int) -> list[list[str]]:
    out = []
    for k in range(1, len(table) + 1):
        for combo in itertools.combinations(table, k):
            group = list(combo) + [played]
            jokers = sum(c.startswith("JK") for c in group)
            rest = capture_sum - sum(value(c) for c in group)
            if (jokers == 0 and rest == 0) or (jokers and jokers <= rest <= 10 * jokers):
                out.append(sorted(combo, key=DECK.index))
    return sorted(out, key=lambda s: (len(s), [DECK.index(c) for c in s]))


def main() -> None:
    rng = random.Random(20261201)
    print(__doc__.strip().replace("\n", "\n# ").join(["# ", ""]))
    fixed = [  # the seeds' worked examples
        (15, "3o 5c 8e 10b", "7o"), (15, "8e 10b", "9b"), (15, "8e 10b 9b", "6c"),
        (15, "2c 3c", "10o"), (15, "5o", "10b"), (15, "10o 4c", "1b"),
        (15, "7c 2e 5b", "8o"), (10, "10o 2c", "8b"), (20, "10o 5c 5e", "10b"),
        (15, "JK1 3o", "7c"), (15, "5o 5c", "JK2"), (15, "JK1 JK2", "10o"),
    ]
    cases = list(fixed)
    for i in range(400):
        jokers = i % 5 == 0
        pool = DECK if jokers else DECK[:40]
        n = rng.randint(1, 10)
        picked = rng.sample(pool, n + 1)
        cases.append((rng.choice((10, 15, 15, 15, 20)), " ".join(picked[:-1]), picked[-1]))
    for capture_sum, table, played in cases:
        sets = brute(table.split(), played, capture_sum)
        shown = " | ".join(" ".join(s) for s in sets) or "-"
        print(f"{capture_sum} ; {table} ; {played} ; {shown}")


if __name__ == "__main__":
    main()
