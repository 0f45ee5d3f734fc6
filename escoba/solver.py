"""Every capture: subset sums over the table, on bitmasks.

The friendly functions take and return :class:`~escoba.cards.Card` values::

    >>> from escoba.cards import parse_cards, Card
    >>> [sorted(map(str, s)) for s in captures(parse_cards("3o 5c 8e 10b"), Card.parse("7o"))]
    [['8e'], ['3o', '5c']]

Underneath, ``*_masks`` functions work on int masks (see :mod:`escoba.cards`).
Because card indices are value-major, walking a mask from its lowest bit meets
cards in ascending value: the search breaks off as soon as a card is larger
than what is still needed, and prunes a branch when the cards left cannot add
up to it. Work is thus proportional to the answers, not to the 2^n subsets.

Jokers are wild (RULES.md): in a capture each counts as whatever value 1-10
makes the total exact, whether played or on the table.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable

from .caches import Generations
from .cards import (
    JOKER_MASK,
    VALUE,
    Card,
    CardError,
    cards_of,
    indices_of,
    mask_of,
    value_sum,
)
from .errors import Code

__all__ = [
    "captures",
    "hand_captures",
    "subsets_totalling",
    "capture_masks",
    "has_capture",
    "subset_masks_in_range",
    "is_capture",
    "sort_key",
    "sum_terms",
    "signature",
    "exact_subsets",
    "solution_row",
    "SIGNATURE_OF_BYTE",
    "NIBBLE_SUBSETS",
    "SOLUTION_ROWS",
    "value_counts",
    "solution_cell",
    "new_cell_row",
    "table_row",
    "counts_key",
    "COUNTS_OF_BYTE",
    "CELL_ROWS",
    "NO_SOLUTIONS",
]


def _items(mask: int) -> tuple[list[int], list[int]]:
    """Values and bits of the non-joker cards of ``mask``, ascending by value."""
    values: list[int] = []
    bits: list[int] = []
    mask &= ~JOKER_MASK
    while mask:
        low = mask & -mask
        values.append(VALUE[low.bit_length() - 1])
        bits.append(low)
        mask ^= low
    return values, bits


def subset_masks_in_range(mask: int, low: int, high: int) -> list[int]:
    """Every subset of the non-joker cards in ``mask`` whose value sum is in [low, high].

    Includes the empty subset when ``low <= 0``. Jokers in ``mask`` are ignored.
    """
    values, bits = _items(mask)
    n = len(values)
    out: list[int] = [0] if low <= 0 <= high else []
    if high <= 0 or n == 0:
        return out
    suffix = [0] * (n + 1)
    for i in range(n - 1, -1, -1):
        suffix[i] = suffix[i + 1] + values[i]
    if suffix[0] < low:
        return out
    stack = [(0, 0, low, high)]
    pop, push, emit = stack.pop, stack.append, out.append
    while stack:
        start, chosen, need_low, need_high = pop()
        for j in range(start, n):
            v = values[j]
            if v > need_high or suffix[j] < need_low:
                break  # ascending values / shrinking suffix: nothing further fits
            taken = chosen | bits[j]
            if v >= need_low:
                emit(taken)
            if v < need_high and j + 1 < n:
                push((j + 1, taken, need_low - v, need_high - v))
    return out


# -- the hot path: value-level solutions, cached by the table's value signature --
#
# A table's *signature* counts its cards of each value, 3 bits per value
# (value-major indices make each value a 4-bit nibble of the mask). Which
# *values* can make a sum depends only on the signature, so those solutions
# are computed once per (signature, target) and cached; turning them into
# card masks for a given table is then one AND per solution in the common
# case where a solution takes every card of each value it uses.
#
# The public tables below let the engine's hottest loop
# (:func:`escoba.movegen.legal_move_pairs`) inline :func:`signature` and the
# expansion of a solution row; treat them as read-only.

_NIBBLE_COUNT = [bin(n).count("1") for n in range(16)]
#: SIGNATURE_OF_BYTE[b]: the signature of the two values whose nibbles make byte ``b``
#: (6 bits); :func:`signature` ORs five of them, shifted by 6 per byte.
SIGNATURE_OF_BYTE: list[int] = [_NIBBLE_COUNT[b & 15] | _NIBBLE_COUNT[b >> 4] << 3
                                for b in range(256)]
#: NIBBLE_SUBSETS[nibble][k]: the sub-nibbles of ``nibble`` holding exactly k cards
#: (the ways to take k of the cards of one value present on a table).
NIBBLE_SUBSETS: list[list[list[int]]] = [
    [[s for s in range(16) if s & ~n == 0 and _NIBBLE_COUNT[s] == k] for k in range(5)]
    for n in range(16)]
#: _value_solutions by ``signature << 5 | target`` (exact_subsets, has_capture, the
#: expert's search); the limit and its bytes: docs/BENCHMARKS.md, "The engine's caches".
_CACHE: Generations[int, list[tuple[int, tuple[tuple[int, int], ...]]]] = Generations(60_000)
_CACHE_GET = _CACHE.get  # bound once, as _CELL_GETS below


def signature(table: int) -> int:
    """Per-value card counts of a (joker-free) mask, 3 bits per value."""
    return (SIGNATURE_OF_BYTE[table & 255] | SIGNATURE_OF_BYTE[table >> 8 & 255] << 6
            | SIGNATURE_OF_BYTE[table >> 16 & 255] << 12
            | SIGNATURE_OF_BYTE[table >> 24 & 255] << 18
            | SIGNATURE_OF_BYTE[table >> 32 & 255] << 24)


def _value_solutions(sig: int, target: int) -> list[tuple[int, tuple[tuple[int, int], ...]]]:
    """Ways to make ``target`` from the values counted in ``sig``.

    Each way is ``(full_values_mask, partial)``: the nibbles of the values it
    takes completely, and ``(shift, count)`` for values it takes only some of.
    """
    counts = [0] + [sig >> (3 * (v - 1)) & 7 for v in range(1, 11)]
    found: list[tuple[int, tuple[tuple[int, int], ...]]] = []

    def search(value: int, need: int, full: int, partial: tuple[tuple[int, int], ...],
               below: int) -> None:
        # ``below``: total value of all cards of value <= ``value``
        if need == 0:
            found.append((full, partial))
            return
        if value == 0 or below < need:
            return
        available = counts[value]
        rest = below - available * value
        shift = 4 * (value - 1)
        for k in range(min(available, need // value), -1, -1):
            if k == 0:
                search(value - 1, need, full, partial, rest)
            elif k == available:
                search(value - 1, need - k * value, full | 15 << shift, partial, rest)
            else:
                search(value - 1, need - k * value, full, partial + ((shift, k),), rest)

    if target > 0:
        total = sum(v * counts[v] for v in range(1, 11))
        search(10, target, 0, (), total)
    return found


# -- solution cells: the legal-move generator's cache (issue 17) -------------------
#
# The hot loop keys its cache by the table's *value counts*: the number of cards
# of each value kept in that value's own nibble (0-4). As an int they are
# :func:`value_counts` (two SWAR steps); as a dict key, :func:`counts_key`: the
# mask's five bytes translated byte by byte (two C calls, cheaper than any
# arithmetic on a 40-bit int). For each counts it keeps a *row* of twenty cells,
# one per target, filled only for the targets asked (a card of value v asks
# ``capture_sum - v``), since a table met for the first time is asked for a few
# only. A cell is ``(full masks, partial solutions, every solution)``, as in
# :func:`solution_cell`; a target that cannot be made has :data:`NO_SOLUTIONS`,
# and so has cell 0 (a card worth the capture sum or more).
#
# The cells themselves come from a memoised recursion on the highest value
# present (:func:`solution_cell`): the cells of the lower values are shared by
# every table that has them, so a new table costs a few lookups. Rows are keyed
# by the value counts (five bytes, found from the mask in two C calls); cells by
# the table's *signature* (3 bits a value, 30 bits: one-digit ints).

_COUNT_M1 = 0x5555555555  # the low bit of each 2-bit pair of 40 bits
_COUNT_M2 = 0x3333333333  # the low 2 bits of each nibble of 40 bits
#: _LOWER_SIG[t]: the signature bits of the values a target ``t`` can use (1..min(t, 10)).
_LOWER_SIG = [(1 << 3 * min(t, 10)) - 1 for t in range(20)]
#: A cell, ``(full masks, partial solutions)``, typed as a tuple of any length: a
#: mypyc-compiled build keeps it one Python object (NO_SOLUTIONS is compared by ``is``).
_Cell = tuple[tuple, ...]


#: Cells the cells' caches dropped that a row may still hold, per target, by ``id``
#: (kept alive here until the rows are walked, so an ``id`` is not reused meanwhile).
_DROPPED: list[dict[int, _Cell]] = [{} for _ in range(20)]
#: The rows are walked for the dropped cells only once these add up to this share of
#: the rows kept: a walk at every turnover of a target's cells cost the quick moves'
#: p99 at small limits (docs/BENCHMARKS.md, "The price of the cells' fix").
DROPPED_SHARE = 0.25
#: How many times the rows were walked (the tests and the benchmark read it).
ROW_WALKS = [0]


def _forget_cells(cells: Generations[int, _Cell], target: int) -> None:
    """Note the cells ``_CELLS[target]`` is about to drop; once those of every target
    add up to :data:`DROPPED_SHARE` of the rows, take them out of the rows holding them
    (:func:`forget_dropped_cells`).

    A row keeps the cells it was given; without this a row would keep a cell the
    cache has dropped, and the next table needing it would get a copy: rows x 20
    cells at most, growing with every turnover. Meanwhile a row keeps using the dropped
    cell it holds (a cell never changes); at most that share of the rows' cells wait.
    """
    dropped = _DROPPED[target]
    # Copies of the generations walked here and in _unlink_rows (see
    # forget_dropped_cells): another thread's game promotes a cell out of the old one,
    # or adds a row, between two steps of a walk over the dict itself.
    for cell in list(cells.old.values()):
        if cell is not NO_SOLUTIONS:
            dropped[id(cell)] = cell
    waiting = 0
    for kept in _DROPPED:
        waiting += len(kept)
    if waiting >= DROPPED_SHARE * (len(CELL_ROWS) + len(CELL_ROWS.old)):
        forget_dropped_cells()


def forget_dropped_cells() -> None:
    """Take every dropped cell out of the rows holding it, in one walk over the rows."""
    # The cells walked for, as they are now: another thread's turnover may note more
    # during the walk; those wait for the next walk instead of being forgotten unwalked
    # (a row would keep them, a bounded leak). dict() of a dict is made without letting
    # another thread in, as list() of its values is.
    pending = [(target, dict(dropped)) for target, dropped in enumerate(_DROPPED) if dropped]
    if not pending:
        return
    ROW_WALKS[0] += 1
    for rows in (CELL_ROWS, CELL_ROWS.old):
        # A copy of the rows: the app plays sessions in threads, and another game adding
        # a row during the walk ended it with "dictionary changed size during iteration"
        # (seen once in CI, in tests/test_properties.py's threads).
        for row in list(rows.values()):
            for target, walked in pending:
                cell = row[target]
                if cell is not None and id(cell) in walked:
                    row[target] = None
    for target, walked in pending:
        dropped = _DROPPED[target]
        for key in walked:
            dropped.pop(key, None)


#: _CELLS[target][signature restricted to the values it can use]: the cell (see
#: :func:`solution_cell`). Signatures are 30 bits: one-digit ints, whose arithmetic
#: CPython does fastest. Bounded per target (docs/BENCHMARKS.md, "The engine's caches").
_CELLS: list[Generations[int, _Cell]] = [
    Generations(3_000, retire=functools.partial(_forget_cells, target=target))
    for target in range(20)]
#: Each target's ``_CELLS[target].get``, bound once: a dict subclass's ``get`` called
#: as a method is not specialised by CPython 3.11 (about 1 % of a simulated round),
#: a bound one is (as ``dict.get``'s). A cache keeps its identity when it turns over.
_CELL_GETS = [cells.get for cells in _CELLS]
#: The solutions of a target already made: one, taking nothing more.
_ONLY_EMPTY: tuple[tuple[int, tuple[tuple[int, int], ...]], ...] = ((0, ()),)
#: A cell with no solution.
NO_SOLUTIONS: _Cell = ((), (), ())


def _unlink_rows(rows: dict[bytes, list]) -> None:
    """Forget the links of the rows of the generation about to become old.

    A row links the rows one card further (slots 21-30), and the usual tables' rows
    stay young: without this a row dropped from the cache would stay alive behind a
    link, with every row it links in turn. Once this is done every link points into
    the young generation (a row met again makes its links again), so a dropped
    generation is freed but for the rows a round in play still holds.
    """
    for row in list(rows.values()):
        row[21:] = _NO_LINKS


_NO_LINKS = [None] * 10
#: CELL_ROWS[counts_key(table)]: the table's row (see :func:`table_row`): twenty
#: cells (``None`` where not computed yet), the table's :func:`signature`, then the
#: rows one card further. The hot loop reads a cell as ``row[target]``, then
#: :func:`solution_cell` (``row[20]``, target) for a ``None`` cell. At most
#: ``CELL_ROWS.limit`` rows in two generations (:class:`~escoba.caches.Generations`):
#: :func:`table_row` reads the young one, a miss goes through :func:`new_cell_row`.
CELL_ROWS: Generations[bytes, list] = Generations(40_000, retire=_unlink_rows)
_CELL_ROWS_GET = CELL_ROWS.get  # bound once, as _CELL_GETS


def value_counts(table: int) -> int:
    """Cards of each value in a joker-free mask, each count in its value's nibble.

    ``value_counts(mask_of(parse_cards("3o 3c 5e")))`` is ``0x10200`` (two threes,
    one five). Two SWAR steps: each 2-bit pair, then each nibble, holds its count.
    """
    pairs = table - (table >> 1 & _COUNT_M1)
    return (pairs & _COUNT_M2) + (pairs >> 2 & _COUNT_M2)


_NIBBLE_BITS = [bin(n).count("1") for n in range(16)]
#: COUNTS_OF_BYTE[b]: the two nibble counts of byte ``b``, as a byte (bytes.translate).
COUNTS_OF_BYTE = bytes(_NIBBLE_BITS[b & 15] | _NIBBLE_BITS[b >> 4] << 4 for b in range(256))
#: _SIGNATURE_OF_COUNTS[c]: a byte of two value counts (as in :func:`counts_key`) as
#: their six signature bits.
_SIGNATURE_OF_COUNTS = [(c & 15) | (c >> 4) << 3 for c in range(256)]


def counts_key(table: int) -> bytes:
    """:func:`value_counts` of a joker-free mask as five bytes (little-endian): a dict key."""
    return table.to_bytes(5, "little").translate(COUNTS_OF_BYTE)


def solution_cell(sig: int, target: int) -> _Cell:
    """``(full masks, partial solutions, every solution)`` making ``target`` (1..19)
    from the values counted in ``sig`` (a table's :func:`signature`).

    Every solution is a ``(full, partial)`` pair: the nibbles (in a card mask) of
    the values it takes whole, and ``(nibble shift, count)`` for each value it
    takes only some cards of, highest value first. They come in the order of
    :func:`solution_row`: by how many cards of the highest value they take
    (fewest first), then of the next value, and so on. The first two parts split
    them for the legal-move generator: the full masks of the solutions that take
    every card of the values they use (the captures are ``table & mask``), then
    the others, expanded with :data:`NIBBLE_SUBSETS`; the third, all of them in
    order, is what the recursion builds on. A target that cannot be made has
    :data:`NO_SOLUTIONS`.

    Memoised by target and the counts of the values it can use, and computed
    from the cells of the values below the highest present, so tables that
    differ only in cards too big for the target share the cell, and a new table
    shares the cells of its lower values.
    """
    if target <= 0:
        return NO_SOLUTIONS
    sig &= _LOWER_SIG[target]  # values above the target cannot be used
    cell = _CELL_GETS[target](sig)
    if cell is not None:
        return cell
    memo = _CELLS[target]
    # Generations.promote and .put inlined: two calls on each miss would cost 1 % of a
    # simulated round (docs/BENCHMARKS.md, "The engine's caches").
    cell = memo.old.pop(sig, None)
    if cell is not None:
        if len(memo) >= memo.generation:
            memo.turn_over()
        memo[sig] = cell
        return cell
    merged: list[tuple[int, tuple[tuple[int, int], ...]]] = []
    if sig:
        top = (sig.bit_length() + 2) // 3  # the highest value present
        shift = 3 * (top - 1)
        available = sig >> shift
        lower = sig & ((1 << shift) - 1)
        nibble = 4 * (top - 1)
        most = target // top
        for k in range((most if most < available else available) + 1):
            need = target - k * top
            if need:
                below = lower & _LOWER_SIG[need]
                if not below:
                    continue
                below_cell = _CELL_GETS[need](below)  # the memo read here: no call on a hit
                if below_cell is None:
                    below_cell = solution_cell(below, need)
                rest = below_cell[2]
            else:
                rest = _ONLY_EMPTY
            if k == 0:
                merged += rest
            elif k == available:
                whole = 15 << nibble
                for full, partial in rest:
                    merged.append((full | whole, partial))
            else:
                part = ((nibble, k),)
                for full, partial in rest:
                    merged.append((full, part + partial))
    if not merged:
        cell = NO_SOLUTIONS
    else:
        fulls: list[int] = []
        partials: list[tuple[int, tuple[tuple[int, int], ...]]] = []
        for solution in merged:
            if solution[1]:
                partials.append(solution)
            else:
                fulls.append(solution[0])
        cell = (tuple(fulls), tuple(partials) if partials else (), tuple(merged))
    if len(memo) >= memo.generation:
        memo.turn_over()
    memo[sig] = cell
    return cell


def new_cell_row(key: bytes) -> list:
    """The row of :data:`CELL_ROWS` for ``key`` after a miss in its young generation:
    the old generation's, or a fresh one (no cell computed yet)."""
    # Generations.promote and .put inlined, as in solution_cell.
    row = CELL_ROWS.old.pop(key, None)
    if row is None:
        row = [None] * 31
        row[0] = NO_SOLUTIONS  # a card worth the sum or more captures nothing
        of = _SIGNATURE_OF_COUNTS
        row[20] = (of[key[0]] | of[key[1]] << 6 | of[key[2]] << 12 | of[key[3]] << 18
                   | of[key[4]] << 24)  # the table's signature, for solution_cell
    if len(CELL_ROWS) >= CELL_ROWS.generation:
        CELL_ROWS.turn_over()
    CELL_ROWS[key] = row
    return row


def table_row(table: int) -> list:
    """The :data:`CELL_ROWS` row of a joker-free ``table`` (made when first met).

    A row is twenty cells (``None`` until asked: :func:`solution_cell` of
    ``row[20]``, the table's signature, and the target), then, at ``20 + v``,
    the row of the same table with one more card of value ``v`` once it has been
    looked up: a card laid down moves to the next row without a lookup.
    """
    key = table.to_bytes(5, "little").translate(COUNTS_OF_BYTE)  # counts_key(table)
    row = _CELL_ROWS_GET(key)
    if row is None:
        row = new_cell_row(key)
    return row


#: The cache of :func:`solution_row`, keyed ``signature << 5 | limit``.
SOLUTION_ROWS: Generations[int, tuple[_Cell, ...]] = Generations(4_000)


def solution_row(sig: int, limit: int = 19) -> tuple[_Cell, ...]:
    """Every target's solutions (1..``limit``) for a table signature.

    ``limit`` is the largest target wanted (``capture_sum - 1``: the played card
    is worth at least 1); the row still has 20 cells, the ones above it empty.
    Each cell is :func:`solution_cell`'s ``(full masks, partial solutions)``,
    in the order of a search that decides, from the highest value down, how
    many cards of each value to take (fewest first).
    """
    key = sig << 5 | limit
    row = SOLUTION_ROWS.lookup(key)
    if row is not None:
        return row
    row = tuple(solution_cell(sig, t) if t <= limit else NO_SOLUTIONS for t in range(20))
    SOLUTION_ROWS.put(key, row)
    return row


def _solutions(key: int, target: int) -> list[tuple[int, tuple[tuple[int, int], ...]]]:
    """:data:`_CACHE`'s value of ``key`` after a miss in its young generation."""
    solutions = _CACHE.promote(key)
    if solutions is None:
        solutions = _value_solutions(key >> 5, target)
        _CACHE.put(key, solutions)
    return solutions


def exact_subsets(table: int, target: int, sig: int = -1) -> list[int]:
    """Non-empty subsets (masks) of the joker-free ``table`` summing exactly to ``target``.

    ``sig`` may pass ``signature(table)`` when the caller already has it. This
    is :func:`capture_masks` without the joker handling, for hot loops that
    know the table holds no joker.
    """
    if target <= 0:
        return []
    key = (signature(table) if sig < 0 else sig) << 5 | target
    solutions = _CACHE_GET(key)
    if solutions is None:
        solutions = _solutions(key, target)
    out: list[int] = []
    for full, partial in solutions:
        base = table & full
        if not partial:
            out.append(base)
            continue
        masks = [base]
        for shift, count in partial:
            options = NIBBLE_SUBSETS[table >> shift & 15][count]
            masks = [m | o << shift for m in masks for o in options]
        out.extend(masks)
    return out


def _exact_exists(table: int, target: int) -> bool:
    if target <= 0:
        return False
    key = signature(table) << 5 | target
    solutions = _CACHE_GET(key)
    if solutions is None:
        solutions = _solutions(key, target)
    return bool(solutions)


def _joker_subsets(mask: int) -> tuple[int, ...]:
    """Every subset (as a mask) of the jokers in ``mask``, the empty one first."""
    present = mask & JOKER_MASK
    j1, j2 = present & 1 << 40, present & 1 << 41
    return tuple(dict.fromkeys((0, j1, j2, present)))


def capture_masks(table: int, card: int, capture_sum: int = 15) -> list[int]:
    """Every set of table cards (as masks) that card index ``card`` captures."""
    table &= ~(1 << card)
    if card < 40 and not table & JOKER_MASK:
        return exact_subsets(table, capture_sum - VALUE[card])
    played_value = VALUE[card]
    played_jokers = 1 if card >= 40 else 0
    plain = table & ~JOKER_MASK
    out: list[int] = []
    for jokers in _joker_subsets(table):
        k = played_jokers + jokers.bit_count()
        need = capture_sum - played_value
        low, high = (need, need) if k == 0 else (need - 10 * k, need - k)
        for subset in subset_masks_in_range(plain, low, high):
            if subset | jokers:
                out.append(subset | jokers)
    return out


def has_capture(table: int, card: int, capture_sum: int = 15) -> bool:
    """Whether ``card`` captures anything (no enumeration of the sets)."""
    if card >= 40 or table & JOKER_MASK:
        return bool(capture_masks(table, card, capture_sum))
    return _exact_exists(table & ~(1 << card), capture_sum - VALUE[card])


def is_capture(table: int, card: int, take: int, capture_sum: int = 15) -> bool:
    """Whether ``take`` (a non-empty subset of ``table``) is a capture for ``card``."""
    if not take or take & ~table or take >> card & 1:
        return False
    k = (take & JOKER_MASK).bit_count() + (1 if card >= 40 else 0)
    need = capture_sum - VALUE[card] - value_sum(take)  # jokers are worth 0 here
    return need == 0 if k == 0 else k <= need <= 10 * k


def sum_terms(card: int, take: int) -> tuple[list[int | str], int, int]:
    """The sum of a capture as a child writes it: the table cards, then the card played.

    Returns the values (a joker, wild, is ``"JK"``), the total of the plain
    cards and how many jokers there are: ``([3, 4, 7], 14, 0)``.
    """
    values: list[int | str] = [VALUE[i] if i < 40 else "JK" for i in indices_of(take)]
    values.append(VALUE[card] if card < 40 else "JK")
    return values, value_sum((take | 1 << card) & ~JOKER_MASK), (
        (take | 1 << card) & JOKER_MASK).bit_count()


def sort_key(mask: int) -> tuple[int, tuple[int, ...]]:
    """Display order of capture sets: fewer cards first, then by card."""
    indices = tuple(indices_of(mask))
    return (len(indices), indices)


def _as_sets(masks: Iterable[int]) -> list[frozenset[Card]]:
    return [frozenset(cards_of(mask)) for mask in sorted(masks, key=sort_key)]


def _card(card: Card | str) -> Card:
    """``card`` itself, or (given notation such as ``"7o"``) the card it names."""
    if isinstance(card, Card):
        return card
    if isinstance(card, str):
        return Card.parse(card)
    raise TypeError(f"expected a Card or card notation such as '7o', got "
                    f"{type(card).__name__} {card!r} (build cards with Card.parse)")


def _table_mask(table: Iterable[Card | str]) -> int:
    if isinstance(table, str):
        raise TypeError(f"expected a list of cards, got the string {table!r} "
                        "(use parse_cards to read several cards from one string)")
    cards = [_card(c) for c in table]
    mask = mask_of(cards)
    if mask.bit_count() != len(cards):
        twice = next(c for i, c in enumerate(cards) if c in cards[:i])
        raise CardError(f"the table lists {twice} twice", Code.CARD_TWICE, card=str(twice))
    return mask


def captures(table: Iterable[Card | str], card: Card | str,
             capture_sum: int = 15) -> list[frozenset[Card]]:
    """Every distinct set of ``table`` cards that ``card`` captures.

    Equal values of different suits make different captures (suits matter
    for oros and the siete de oros). Sets come fewest cards first. Cards may
    be given as notation: ``captures(["3o", "5c"], "7o")``.
    """
    mask = _table_mask(table)
    card = _card(card)
    if mask >> card.index & 1:
        raise CardError(f"{card} cannot be both played and on the table", Code.CARD_TWICE,
                        card=str(card))
    return _as_sets(capture_masks(mask, card.index, capture_sum))


def hand_captures(
    table: Iterable[Card | str], hand: Iterable[Card | str], capture_sum: int = 15
) -> dict[Card, list[frozenset[Card]]]:
    """The captures of every card of a hand, keyed by card, in hand order."""
    mask = _table_mask(table)
    out: dict[Card, list[frozenset[Card]]] = {}
    if isinstance(hand, str):
        raise TypeError(f"expected a list of cards, got the string {hand!r} "
                        "(use parse_cards to read several cards from one string)")
    for card in map(_card, hand):
        if mask >> card.index & 1:
            raise CardError(f"{card} cannot be both in the hand and on the table",
                            Code.CARD_TWICE, card=str(card))
        out[card] = _as_sets(capture_masks(mask, card.index, capture_sum))
    return out


def subsets_totalling(
    cards: Iterable[Card | str], total: int = 15, *, min_size: int = 1
) -> list[frozenset[Card]]:
    """Every set of ``cards`` whose values add up to ``total`` (jokers wild).

    This is the "find all the 15s" question with no card played.
    """
    mask = _table_mask(cards)
    plain = mask & ~JOKER_MASK
    found: list[int] = []
    for jokers in _joker_subsets(mask):
        k = jokers.bit_count()
        low, high = (total, total) if k == 0 else (total - 10 * k, total - k)
        for subset in subset_masks_in_range(plain, low, high):
            full = subset | jokers
            if full and full.bit_count() >= min_size:
                found.append(full)
    return _as_sets(found)
