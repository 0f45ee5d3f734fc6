"""Grading: solver statistics of a puzzle, one difficulty score, five level bands.

The formula is documented in puzzles/README.md; keep the two in step. Every
statistic comes from the engine's solver on masks, so grading a candidate
costs a few microseconds and generation can try many candidates per puzzle.
"""

from __future__ import annotations

from collections.abc import Sequence

from escoba.cards import VALUE, value_sum
from escoba.solver import capture_masks, subset_masks_in_range

from .model import LEVELS, Stats

__all__ = [
    "BANDS",
    "QUICK_BANDS",
    "LEVEL5_CAP",
    "MOVE_BANDS",
    "level_of",
    "difficulty",
    "capture_stats",
    "fifteens_stats",
    "fifteens_masks",
    "quick_stats",
    "scopa_stats",
]

#: Lowest difficulty of levels 1..5 for captures, hand and fifteens puzzles.
BANDS: tuple[int, ...] = (0, 13, 19, 26, 34)
#: Highest difficulty a generated level-5 puzzle may have: beyond it a puzzle is a
#: chore (twenty answers to list), not a harder puzzle.
LEVEL5_CAP = 60
#: Lowest quick-fact difficulty of levels 1..5, per capture sum (the scale of a
#: single fact is short, and a sum of 10 has no ten to cross).
QUICK_BANDS: dict[int, tuple[int, ...]] = {10: (0, 2, 3, 4, 5), 15: (0, 4, 5, 6, 7),
                                           20: (0, 5, 6, 7, 8)}
#: The same for best-move puzzles (see :func:`puzzles.bestmove.move_difficulty`).
MOVE_BANDS: tuple[int, ...] = (0, 9, 12, 15, 19)


def level_of(score: int, bands: Sequence[int] = BANDS) -> int:
    """The level whose band holds ``score``."""
    level = 1
    for lvl, low in zip(LEVELS, bands, strict=True):
        if score >= low:
            level = lvl
    return level


def difficulty(stats: Stats) -> int:
    """The difficulty score of a captures, hand or fifteens puzzle (README: "Grading").

    More cards to scan, more answers to find, longer additions, cards shared
    between answers (a child who finds one tends to stop), distractor sets
    one off the sum, big addends and (Scopa) sums an equal card forbids all make
    a puzzle harder. ``traps`` is 0 for every Escoba kind: their scores are as before.
    """
    longest = max(stats.max_cards - 2, 0)
    return (2 * stats.table_size + 3 * stats.solutions + 2 * longest + stats.extra_cards
            + 2 * stats.shared + min(stats.near_misses, 8)
            + (1 if stats.largest_addend >= 9 else 0) + min(stats.traps, 4))


def _with_score(stats: Stats) -> Stats:
    return Stats(**{**stats.to_dict(), "difficulty": difficulty(stats)})


def _near_misses(table: int, need: int, min_size: int = 1) -> int:
    """Subsets of ``table`` totalling ``need - 1`` or ``need + 1`` (distractors)."""
    count = 0
    for m in subset_masks_in_range(table, need - 1, need + 1):
        if m and m.bit_count() >= min_size and value_sum(m) != need:
            count += 1
    return count


def _shape(sets: Sequence[int], played: Sequence[int]) -> tuple[int, int, int, int]:
    """max cards, extra cards, largest addend, shared table cards of solution masks."""
    max_cards = extra = largest = 0
    seen = shared = 0
    for take, card in zip(sets, played, strict=True):
        n = take.bit_count() + (1 if card >= 0 else 0)
        max_cards = max(max_cards, n)
        extra += n - 2
        top = (take.bit_length() - 1) if take else -1
        largest = max(largest, VALUE[top] if top >= 0 else 0,
                      VALUE[card] if card >= 0 else 0)
        shared |= seen & take
        seen |= take
    return max_cards, extra, largest, shared.bit_count()


def capture_solutions(table: int, hand: Sequence[int], capture_sum: int) -> list[tuple[int, int]]:
    """Every (card index, take mask) of the hand's cards on the table, hand order."""
    out = []
    for card in hand:
        for take in capture_masks(table, card, capture_sum):
            out.append((card, take))
    return out


def capture_stats(table: int, hand: Sequence[int], capture_sum: int,
                  solutions: Sequence[tuple[int, int]] | None = None) -> Stats:
    """Statistics of a captures or hand puzzle (cards as indices, table as a mask)."""
    if solutions is None:
        solutions = capture_solutions(table, hand, capture_sum)
    max_cards, extra, largest, shared = _shape([t for _, t in solutions],
                                               [c for c, _ in solutions])
    near = sum(_near_misses(table, capture_sum - VALUE[c]) for c in hand)
    return _with_score(Stats(table_size=table.bit_count(), solutions=len(solutions),
                             max_cards=max_cards, extra_cards=extra, largest_addend=largest,
                             shared=shared, near_misses=near))


def scopa_stats(table: int, card: int, sets: Sequence[int]) -> Stats:
    """Statistics of a Scopa puzzle: ``card`` played on ``table``, ``sets`` its captures
    (the variant's answer). Scopa adds table cards only (3 + 4 makes the 7), so a set's
    cards added are its table cards: an equal card taken is one card and no addition,
    two cards are one addition like Escoba's 8 + 7. With an equal card on the table,
    every set of two or more making the value is a trap (``traps``: the rule forbids it,
    the arithmetic invites it) and nothing else distracts; without one, sets one off
    the value are near misses."""
    value = VALUE[card]
    max_cards = max((s.bit_count() for s in sets), default=0)
    extra = sum(max(s.bit_count() - 2, 0) for s in sets)
    _, _, largest, shared = _shape(list(sets), [card] * len(sets))
    sums = [m for m in subset_masks_in_range(table, value, value) if m]
    equal = any(s.bit_count() == 1 and VALUE[s.bit_length() - 1] == value for s in sets)
    traps = sum(1 for m in sums if m.bit_count() >= 2) if equal else 0
    return _with_score(Stats(table_size=table.bit_count(), solutions=len(sets),
                             max_cards=max_cards, extra_cards=extra, largest_addend=largest,
                             shared=shared,
                             near_misses=0 if equal else _near_misses(table, value),
                             traps=traps))


def fifteens_masks(table: int, capture_sum: int) -> list[int]:
    """Groups of two or more table cards totalling the capture sum."""
    return [m for m in subset_masks_in_range(table, capture_sum, capture_sum)
            if m.bit_count() >= 2]


def fifteens_stats(table: int, capture_sum: int, groups: Sequence[int] | None = None) -> Stats:
    """Statistics of a fifteens puzzle."""
    if groups is None:
        groups = fifteens_masks(table, capture_sum)
    max_cards, extra, largest, shared = _shape(list(groups), [-1] * len(groups))
    return _with_score(Stats(table_size=table.bit_count(), solutions=len(groups),
                             max_cards=max_cards, extra_cards=extra, largest_addend=largest,
                             shared=shared, near_misses=_near_misses(table, capture_sum, 2)))


def _crosses(total: int, add: int) -> bool:
    """Whether ``total + add`` passes a ten without landing on it (8 + 7: yes; 5 + 5: no)."""
    return total // 10 != (total + add) // 10 and (total + add) % 10 != 0


def quick_difficulty(addends: Sequence[int], capture_sum: int) -> tuple[int, int]:
    """(difficulty, crossings) of a quick fact "a + b + ? = sum" (README: "Quick facts")."""
    missing = capture_sum - sum(addends)
    crossings = 0
    total = addends[0]
    for v in [*addends[1:], missing]:
        crossings += _crosses(total, v)
        total += v
    score = (2 * (len(addends) - 1) + 2 * crossings + (1 if missing >= 6 else 0)
             + (1 if max(addends) >= 6 else 0))
    return score, crossings


def quick_stats(addends: Sequence[int], capture_sum: int) -> Stats:
    """Statistics of a quick fact with known ``addends``."""
    score, crossings = quick_difficulty(addends, capture_sum)
    missing = capture_sum - sum(addends)
    return Stats(solutions=1, max_cards=len(addends) + 1, choices=len(addends),
                 largest_addend=max([*addends, missing]), crossings=crossings,
                 difficulty=score)
