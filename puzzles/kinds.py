"""Puzzle generators: one per kind, each deterministic from (kind, level, capture sum, seed).

Generation is *sample and grade*: draw a random position whose size suits
the level, compute its solver statistics (:mod:`puzzles.grading`), and keep
it when its difficulty falls in the level's band. A level is therefore a
statement about the puzzle's statistics, never a guess from its size.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Sequence
from itertools import product

from escoba.cards import CARDS, Card, cards_of
from escoba.solver import sort_key
from escoba.variants import variant_for

from .grading import (
    BANDS,
    LEVEL5_CAP,
    QUICK_BANDS,
    capture_solutions,
    capture_stats,
    fifteens_masks,
    fifteens_stats,
    level_of,
    quick_difficulty,
    quick_stats,
    scopa_stats,
)
from .model import (
    LEVELS,
    SCOPA_RULES,
    Puzzle,
    PuzzleError,
    Solution,
    Stats,
    addition_facts,
    capture_facts,
    check_kind_level_sum,
    variant_capture_facts,
)
from .rng import Rng

__all__ = ["generate", "regenerate", "from_cards", "facts_by_answer", "TABLE_SIZES",
           "NONE_SHARE"]

#: Table sizes tried first for each kind and level (a level's band decides).
TABLE_SIZES: dict[str, dict[int, tuple[int, int]]] = {
    "captures": {1: (3, 4), 2: (4, 5), 3: (5, 6), 4: (6, 7), 5: (7, 8)},
    "hand": {1: (2, 3), 2: (3, 4), 3: (4, 5), 4: (5, 6), 5: (6, 7)},
    "fifteens": {1: (3, 4), 2: (4, 5), 3: (5, 6), 4: (6, 7), 5: (7, 9)},
    "scopa": {1: (3, 4), 2: (4, 5), 3: (5, 7), 4: (6, 8), 5: (8, 10)},
}
#: Share of captures puzzles at levels 1-2 drawn to have no capture ("none" is the answer).
NONE_SHARE = (1, 6)
#: Candidates tried with the level's sizes before any size 2-10 is allowed.
_TRIES = 400
_MAX_TRIES = 4000


def _band(level: int) -> tuple[int, int]:
    low = BANDS[level - 1]
    high = BANDS[level] - 1 if level < len(BANDS) else LEVEL5_CAP
    return low, high


def _mask(indices: Sequence[int]) -> int:
    m = 0
    for i in indices:
        m |= 1 << i
    return m


def _search(rng: Rng, level: int, sizes: tuple[int, int],
            candidate: Callable[[int], tuple[object, Stats] | None]) -> tuple[object, Stats]:
    """Draw candidates until one's difficulty is in the level's band.

    ``candidate(n)`` draws a position with ``n`` table cards and returns it
    with its stats, or ``None`` when it breaks a rule of the kind. After
    ``_TRIES`` misses any size 2-10 is allowed; should even ``_MAX_TRIES``
    miss (never seen in testing), the closest candidate is used.
    """
    low, high = _band(level)
    best: tuple[int, object, Stats] | None = None
    for attempt in range(_MAX_TRIES):
        n = rng.between(*sizes) if attempt < _TRIES else rng.between(2, 10)
        found = candidate(n)
        if found is None:
            continue
        position, stats = found
        score = stats.difficulty
        if low <= score <= high:
            return position, stats
        distance = low - score if score < low else score - high
        if best is None or distance < best[0]:
            best = (distance, position, stats)
    if best is None:  # pragma: no cover - every kind has plenty of valid positions
        raise PuzzleError("could not generate this puzzle")
    return best[1], best[2]


def _capture_puzzle(kind: str, level: int, capture_sum: int, seed: str, rng: Rng) -> Puzzle:
    hand_size = 1 if kind == "captures" else 3
    want_none = (kind == "captures" and level <= 2
                 and rng.chance(*NONE_SHARE))

    def candidate(n: int) -> tuple[object, Stats] | None:
        drawn = rng.sample(range(40), n + hand_size)
        table, hand = _mask(drawn[:n]), sorted(drawn[n:])
        sols = capture_solutions(table, hand, capture_sum)
        if want_none == bool(sols):
            return None
        return (table, hand, sols), capture_stats(table, hand, capture_sum, sols)

    position, stats = _search(rng, level, TABLE_SIZES[kind][level], candidate)
    table, hand, sols = position  # type: ignore[misc]
    return _assemble_captures(kind, level, capture_sum, seed, table, hand, sols, stats)


def _assemble_captures(kind: str, level: int, capture_sum: int, seed: str, table: int,
                       hand: Sequence[int], sols: Sequence[tuple[int, int]],
                       stats: Stats) -> Puzzle:
    ordered = sorted(sols, key=lambda p: (p[0], sort_key(p[1])))
    solutions = tuple(
        Solution(take=cards_of(t), card=CARDS[c],
                 facts=capture_facts(cards_of(t), CARDS[c], capture_sum))
        for c, t in ordered)
    return Puzzle(kind, level, capture_sum, seed, table=cards_of(table),
                  hand=tuple(CARDS[c] for c in sorted(hand)), solutions=solutions, stats=stats)


def scopa_captures(table: int, card: int) -> list[int]:
    """Every set of ``table`` cards ``card`` may take by Scopa's rule: the variant's
    answer (:meth:`escoba.variants.ScopaVariant.capture_sets`), never a copy of it."""
    return variant_for(SCOPA_RULES).capture_sets(SCOPA_RULES, table, card)


def _scopa_puzzle(level: int, capture_sum: int, seed: str, rng: Rng) -> Puzzle:
    # Like captures: one card in six at levels 1-2 is drawn to have no capture.
    want_none = level <= 2 and rng.chance(*NONE_SHARE)

    def candidate(n: int) -> tuple[object, Stats] | None:
        drawn = rng.sample(range(40), n + 1)
        table, card = _mask(drawn[:n]), drawn[n]
        sets = scopa_captures(table, card)
        if want_none == bool(sets):
            return None
        return (table, card, sets), scopa_stats(table, card, sets)

    position, stats = _search(rng, level, TABLE_SIZES["scopa"][level], candidate)
    table, card, sets = position  # type: ignore[misc]
    return _assemble_scopa(level, capture_sum, seed, table, card, sets, stats)


def _assemble_scopa(level: int, capture_sum: int, seed: str, table: int, card: int,
                    sets: Sequence[int], stats: Stats) -> Puzzle:
    played = CARDS[card]
    solutions = tuple(
        Solution(take=cards_of(s), card=played,
                 facts=variant_capture_facts(SCOPA_RULES, played, cards_of(s)))
        for s in sorted(sets, key=sort_key))
    return Puzzle("scopa", level, capture_sum, seed, table=cards_of(table), hand=(played,),
                  solutions=solutions, stats=stats)


def _fifteens_puzzle(level: int, capture_sum: int, seed: str, rng: Rng) -> Puzzle:
    def candidate(n: int) -> tuple[object, Stats] | None:
        table = _mask(rng.sample(range(40), n))
        groups = fifteens_masks(table, capture_sum)
        if not groups:
            return None
        return (table, groups), fifteens_stats(table, capture_sum, groups)

    position, stats = _search(rng, level, TABLE_SIZES["fifteens"][level], candidate)
    table, groups = position  # type: ignore[misc]
    return _assemble_fifteens(level, capture_sum, seed, table, groups, stats)


def _assemble_fifteens(level: int, capture_sum: int, seed: str, table: int,
                       groups: Sequence[int], stats: Stats) -> Puzzle:
    solutions = tuple(Solution(take=cards_of(g), facts=capture_facts(cards_of(g), None,
                                                                     capture_sum))
                      for g in sorted(groups, key=sort_key))
    return Puzzle("fifteens", level, capture_sum, seed, table=cards_of(table),
                  solutions=solutions, stats=stats)


_QUICK_CACHE: dict[tuple[int, int], list[tuple[int, ...]]] = {}


def quick_facts_of_level(level: int, capture_sum: int) -> list[tuple[int, ...]]:
    """Every quick fact (known addends, 1-3 of them, each 1-10) of a level, in a fixed order."""
    key = (level, capture_sum)
    if key not in _QUICK_CACHE:
        bands = QUICK_BANDS[capture_sum]
        for lvl in LEVELS:
            _QUICK_CACHE[(lvl, capture_sum)] = []
        for k in (1, 2, 3):
            for addends in product(range(1, 11), repeat=k):
                if 1 <= capture_sum - sum(addends) <= 10:
                    lvl = level_of(quick_difficulty(addends, capture_sum)[0], bands)
                    _QUICK_CACHE[(lvl, capture_sum)].append(addends)
    return _QUICK_CACHE[key]


@functools.cache  # five levels and three capture sums: fifteen small dicts
def facts_by_answer(level: int, capture_sum: int) -> dict[int, list[tuple[int, ...]]]:
    """A level's quick facts grouped by their answer (the missing value)."""
    grouped: dict[int, list[tuple[int, ...]]] = {}
    for addends in quick_facts_of_level(level, capture_sum):
        grouped.setdefault(capture_sum - sum(addends), []).append(addends)
    return grouped


def _quick_puzzle(level: int, capture_sum: int, seed: str, rng: Rng) -> Puzzle:
    # The answer first, then a fact with it: a level whose facts mostly miss a 5 (ten of
    # level 1's fifteen: 10 + ?, 1 + 4 + ?, 2 + 3 + ? ...) would otherwise teach a child
    # to tap 5 (issue 33). Every answer of the level is as likely.
    grouped = facts_by_answer(level, capture_sum)
    addends = rng.choice(grouped[rng.choice(sorted(grouped))])
    missing = capture_sum - sum(addends)
    # show each addend as a card; equal values get different suits
    suits = rng.sample(range(4), 4)
    seen: dict[int, int] = {}
    shown = []
    for v in addends:
        k = seen.get(v, 0)
        seen[v] = k + 1
        shown.append(CARDS[(v - 1) * 4 + suits[k]])
    facts = addition_facts([*addends, missing]) + (f"{capture_sum}-{sum(addends)}",)
    return Puzzle("quick-facts", level, capture_sum, seed, table=tuple(shown),
                  solutions=(Solution(value=missing, facts=facts),),
                  stats=quick_stats(addends, capture_sum), addends=tuple(addends))


_SEED = re.compile(r"[A-Za-z0-9._-]{1,64}")


def normalise_seed(seed: int | str) -> str:
    """Seeds are kept as text (ids and daily seeds are text); ints are written in decimal."""
    if isinstance(seed, bool) or not isinstance(seed, int | str):
        raise PuzzleError(f"a seed is a whole number or a short text, got {seed!r}")
    text = str(seed)
    # ids, file names and the PDF's core fonts all take these characters as they are
    if not _SEED.fullmatch(text):
        raise PuzzleError(f"a seed is 1-64 letters, digits, '.', '_' or '-', got {text!r}")
    return text


def generate(kind: str, level: int, seed: int | str = 0, capture_sum: int = 15) -> Puzzle:
    """The puzzle of ``kind`` and ``level`` for ``seed``: always the same one.

    Raises :class:`~puzzles.model.PuzzleError` (a ``ValueError``) for an
    unknown kind, a level outside 1-5, a capture sum other than 10/15/20 or
    a bad seed.
    """
    check_kind_level_sum(kind, level, capture_sum)
    seed_text = normalise_seed(seed)
    if kind == "scopa":
        # Scopa has no capture sum (a set makes the played card's value): the cards
        # depend on level and seed only; the sum is kept as the child's setting.
        return _scopa_puzzle(level, capture_sum, seed_text,
                             Rng("escoba-puzzle/1", kind, level, seed_text))
    rng = Rng("escoba-puzzle/1", kind, level, capture_sum, seed_text)
    if kind in ("captures", "hand"):
        return _capture_puzzle(kind, level, capture_sum, seed_text, rng)
    if kind == "fifteens":
        return _fifteens_puzzle(level, capture_sum, seed_text, rng)
    if kind == "quick-facts":
        return _quick_puzzle(level, capture_sum, seed_text, rng)
    from .bestmove import best_move_puzzle  # needs the coach: imported only here

    return best_move_puzzle(level, capture_sum, seed_text, rng)


def from_cards(kind: str, table: Sequence[Card], hand: Sequence[Card] = (),
               capture_sum: int = 15) -> Puzzle:
    """A captures, hand, fifteens or scopa puzzle on given cards (lessons, a teacher's own
    puzzle).

    The level is graded from the cards' statistics like any generated puzzle.
    Its seed (and so its id) starts with ``custom-`` and names the cards; such
    an id cannot be regenerated with :func:`regenerate`, the puzzle is
    kept with :meth:`~puzzles.model.Puzzle.to_dict`.
    """
    check_kind_level_sum(kind, 1, capture_sum)
    if kind not in ("captures", "hand", "fifteens", "scopa"):
        raise PuzzleError(f"from_cards makes captures, hand, fifteens or scopa puzzles, "
                          f"not {kind!r}")
    table_mask, hand_idx = _mask([c.index for c in table]), sorted(c.index for c in hand)
    if table_mask.bit_count() != len(table) or len(set(hand_idx)) != len(hand_idx) \
            or table_mask & _mask(hand_idx):
        raise PuzzleError("a card is given twice")
    if any(c.is_joker for c in [*table, *hand]):
        raise PuzzleError("puzzles are played without jokers")
    if kind == "fifteens" and hand:
        raise PuzzleError("a fifteens puzzle has no hand")
    if kind in ("captures", "scopa") and len(hand_idx) != 1:
        raise PuzzleError(f"a {kind} puzzle plays exactly one card")
    if kind == "hand" and not hand_idx:
        raise PuzzleError("a hand puzzle needs a hand")
    seed = "custom-" + ".".join(str(c) for c in cards_of(table_mask))
    if hand_idx:
        seed += "-" + ".".join(str(CARDS[i]) for i in hand_idx)
    if kind == "scopa":
        sets = scopa_captures(table_mask, hand_idx[0])
        stats = scopa_stats(table_mask, hand_idx[0], sets)
        return _assemble_scopa(level_of(stats.difficulty), capture_sum, seed, table_mask,
                               hand_idx[0], sets, stats)
    if kind == "fifteens":
        groups = fifteens_masks(table_mask, capture_sum)
        stats = fifteens_stats(table_mask, capture_sum, groups)
        return _assemble_fifteens(level_of(stats.difficulty), capture_sum, seed, table_mask,
                                  groups, stats)
    sols = capture_solutions(table_mask, hand_idx, capture_sum)
    stats = capture_stats(table_mask, hand_idx, capture_sum, sols)
    return _assemble_captures(kind, level_of(stats.difficulty), capture_sum, seed, table_mask,
                              hand_idx, sols, stats)


def regenerate(puzzle_id: str) -> Puzzle:
    """The puzzle of an id such as ``"captures:3:15:9"``."""
    from .model import parse_id

    kind, level, capture_sum, seed = parse_id(puzzle_id)
    return generate(kind, level, seed, capture_sum)
