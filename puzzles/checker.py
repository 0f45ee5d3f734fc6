"""Checking a child's answer: found, missed and wrong sets, duplicates, malformed input, stars.

:func:`check` never raises on a bad answer: whatever cannot be read is
reported in ``malformed`` with a sentence saying why. Every wrong set comes
with its arithmetic written out ("3 + 5 + 8 = 16, not 15") and a message key
with parameters, so the app can translate it.

Answers (one item per set found; a single string may hold several items
separated by ``;`` or new lines):

- captures: ``"3o 5c"`` or ``["3o", "5c"]`` (the played card may be named too:
  ``"7o: 3o 5c"``, ``"7o takes 3o 5c"``), or ``{"card": "7o", "take": [...]}``;
- hand: the same, naming the played card (the hand card among the cards);
- fifteens: the cards of each group;
- best-move: one move, ``"7o 3o 5c"`` (played card first; ``"7o"`` lays it down),
  a :class:`~escoba.moves.Move` or ``{"card", "take"}``;
- quick-facts: the missing number, ``7`` or ``"7"``;
- ``"none"`` when there is nothing to find.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from escoba.cards import Card, CardError, format_cards, mask_of
from escoba.errors import Code
from escoba.variants import variant_for

from .model import SCOPA_RULES, Puzzle, Solution, unique_facts

__all__ = ["check", "hint", "Hint", "CheckResult", "WrongAnswer", "Malformed", "stars_for"]


@dataclass(frozen=True, slots=True)
class WrongAnswer:
    """A set (or move, or number) that is not a solution, and why.

    ``key`` is a message key (``wrong_sum``, ``not_on_table``, ``two_played``,
    ``group_too_small``, ``not_none``, ``not_best``, ``wrong_value``; best-move:
    ``must_capture`` (a card that captures laid down); Scopa:
    ``must_take_equal``, and ``wrong_sum`` whose ``sum`` is the card's value) and
    ``params`` its parameters; ``message`` is the English sentence.
    """

    take: tuple[Card, ...]
    card: Card | None
    value: int | None
    key: str
    message: str
    params: Mapping[str, Any] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"take": [str(c) for c in self.take], "key": self.key,
                               "message": self.message, "params": dict(self.params)}
        if self.card is not None:
            out["card"] = str(self.card)
        if self.value is not None:
            out["value"] = self.value
        return out


@dataclass(frozen=True, slots=True)
class Malformed:
    """An answer item that could not be read, shown as given, with the reason."""

    given: str
    message: str

    def to_dict(self) -> dict[str, str]:
        return {"given": self.given, "message": self.message}


def stars_for(misses: int, hints: int) -> int:
    """3 stars with no miss and no hint, 2 with one of either, 1 otherwise."""
    slips = misses + hints
    return 3 if slips == 0 else 2 if slips == 1 else 1


@dataclass(frozen=True, slots=True)
class CheckResult:
    """What :func:`check` found. ``solved``: nothing missed and nothing wrong.

    A wrong set counts as a miss for the stars: otherwise listing every set
    on the table would earn three stars.
    """

    puzzle_id: str
    found: tuple[Solution, ...]
    missed: tuple[Solution, ...]
    wrong: tuple[WrongAnswer, ...]
    duplicates: tuple[str, ...]
    malformed: tuple[Malformed, ...]
    said_none: bool
    missed_none: bool
    hints: int

    @property
    def solved(self) -> bool:
        return not self.missed and not self.wrong and not self.missed_none

    @property
    def stars(self) -> int:
        return stars_for(len(self.missed) + len(self.wrong) + self.missed_none, self.hints)

    @property
    def facts(self) -> tuple[str, ...]:
        """Facts of the solutions found (what the child really added)."""
        return unique_facts(self.found)

    def to_dict(self) -> dict[str, Any]:
        return {"id": self.puzzle_id, "solved": self.solved, "stars": self.stars,
                "found": [s.to_dict() for s in self.found],
                "missed": [s.to_dict() for s in self.missed],
                "wrong": [w.to_dict() for w in self.wrong],
                "duplicates": list(self.duplicates),
                "malformed": [m.to_dict() for m in self.malformed],
                "said_none": self.said_none, "missed_none": self.missed_none,
                "hints": self.hints, "facts": list(self.facts)}


_SPLIT_ITEMS = re.compile(r"[;\n]+")
_SPLIT_CARDS = re.compile(r"[\s,+:]+")


def _items(answer: Any) -> list[Any]:
    if answer is None:
        return []
    if isinstance(answer, str):
        return [p for p in _SPLIT_ITEMS.split(answer) if p.strip()]
    if isinstance(answer, int | Mapping) or hasattr(answer, "take"):
        return [answer]
    if isinstance(answer, Iterable):
        items = list(answer)
        # a flat list of card strings for a one-set answer: ["3o", "5c"]
        if items and all(isinstance(i, str | Card) for i in items) and all(
                _looks_like_card(i) for i in items):
            return [items]
        return items
    return [answer]


def _looks_like_card(item: str | Card) -> bool:
    if isinstance(item, Card):
        return True
    try:
        Card.parse(item)
    except CardError:
        return False
    return True


def _is_none(item: Any) -> bool:
    return isinstance(item, str) and item.strip().lower() in ("none", "nothing", "no capture")


def _show(item: Any) -> str:
    text = item if isinstance(item, str) else repr(item)
    return text if len(text) <= 60 else text[:57] + "..."


class _Bad(Exception):
    """An item that cannot be read (becomes a Malformed entry)."""


def _read_cards(item: Any) -> tuple[list[Card], Card | None]:
    """Cards of one item, and the card named as played (dict ``card`` or ``Move.card``)."""
    played: Any = None
    if isinstance(item, Mapping):
        played, raw = item.get("card"), item.get("take", [])
    elif hasattr(item, "take") and hasattr(item, "card"):
        played, raw = item.card, list(item.take)
    else:
        raw = item
    if isinstance(raw, str):
        text = re.sub(r"\btakes\b", " ", raw, flags=re.IGNORECASE)
        raw = [p for p in _SPLIT_CARDS.split(text) if p]
    if not isinstance(raw, Iterable):
        raise _Bad("expected card names such as 3o 5c")
    cards = []
    for x in raw:
        if isinstance(x, Card):
            cards.append(x)
        elif isinstance(x, str):
            try:
                cards.append(Card.parse(x))
            except CardError as exc:
                raise _Bad(str(exc)) from None
        else:
            raise _Bad(f"{x!r} is not a card (a card is written like 7o)")
    card = None
    if played is not None:
        try:
            card = played if isinstance(played, Card) else Card.parse(played)
        except (CardError, AttributeError):
            raise _Bad(f"{played!r} is not a card (a card is written like 7o)") from None
    seen: set[Card] = set()
    for c in cards + ([card] if card else []):
        if c in seen:
            raise _Bad(f"card {c} is named twice")
        seen.add(c)
    return cards, card


def _arithmetic(values: list[int], capture_sum: int) -> str:
    return f"{' + '.join(map(str, values))} = {sum(values)}, not {capture_sum}"


def check(puzzle: Puzzle, answer: Any, hints: int = 0) -> CheckResult:
    """Check ``answer`` against ``puzzle``; never raises on a bad answer.

    ``hints`` is how many hints the child asked for (each costs a star).
    """
    hints = max(int(hints), 0)
    items = _items(answer)
    said_none = any(_is_none(i) for i in items)
    items = [i for i in items if not _is_none(i)]
    if puzzle.kind == "quick-facts":
        return _check_quick(puzzle, items, said_none, hints)
    s = puzzle.capture_sum
    expected = {(sol.card, frozenset(sol.take)): sol for sol in puzzle.solutions}
    table, hand = set(puzzle.table), set(puzzle.hand)
    ranking = {(m.card, frozenset(m.take)): m for m in puzzle.ranking}
    found: dict[tuple[Card | None, frozenset[Card]], Solution] = {}
    wrong: list[WrongAnswer] = []
    seen: set[tuple[Card | None, frozenset[Card]]] = set()
    duplicates: list[str] = []
    malformed: list[Malformed] = []
    for item in items:
        try:
            cards, card = _read_cards(item)
        except _Bad as exc:
            malformed.append(Malformed(_show(item), str(exc)))
            continue
        if puzzle.kind != "fifteens":
            if card is None:
                from_hand = [c for c in cards if c in hand]
                if len(from_hand) > 1:
                    wrong.append(WrongAnswer(tuple(sorted(cards)), None, None, "two_played",
                                             f"only one card is played at a time, not "
                                             f"{' and '.join(map(str, from_hand))}",
                                             {"cards": [str(c) for c in from_hand]}))
                    continue
                if from_hand:
                    card = from_hand[0]
                elif len(puzzle.hand) == 1:
                    card = puzzle.hand[0]
                elif puzzle.kind == "best-move" and cards:
                    card = cards[0]  # "7o 3o 5c": the first card is the one played
                else:
                    malformed.append(Malformed(_show(item), "say which card of your hand you "
                                                            "play, e.g. 7o: 3o 5c"))
                    continue
            cards = [c for c in cards if c != card]
            if card not in hand:
                wrong.append(WrongAnswer(tuple(sorted(cards)), card, None, "not_in_hand",
                                         f"{card} is not in your hand", {"card": str(card)}))
                continue
        if not cards and puzzle.kind != "best-move":
            malformed.append(Malformed(_show(item), "name the table cards of the set, "
                                                    "e.g. 3o 5c"))
            continue
        key = (card, frozenset(cards))
        if key in seen:
            duplicates.append(_show(item))
            continue
        seen.add(key)
        take = tuple(sorted(cards))
        off_table = [c for c in take if c not in table]
        if off_table:
            names = format_cards(off_table)
            verb = "is" if len(off_table) == 1 else "are"
            wrong.append(WrongAnswer(take, card, None, "not_on_table",
                                     f"{names} {verb} not on the table", {"cards": names}))
            continue
        if key in expected:
            found[key] = expected[key]
            continue
        values = [c.value for c in take] + ([card.value] if card is not None else [])
        if puzzle.kind == "scopa":
            assert card is not None
            wrong.append(_scopa_wrong(puzzle, card, take))
        elif puzzle.kind == "best-move" and key in ranking:
            move = ranking[key]
            wrong.append(WrongAnswer(take, card, None, "not_best",
                                     f"{_move_text(card, take)} is allowed, but not the best "
                                     "move", {"reason": move.reason,
                                              "reason_params": dict(move.params)}))
        elif puzzle.kind == "best-move" and card is not None and not take and any(
                m.card == card and m.take for m in puzzle.ranking):
            # A lay-down the rules refuse (the card captures, and a capture is forced):
            # said so, not as the lone card's "sum" ("5 = 5, not 15" tells a child nothing).
            wrong.append(WrongAnswer(take, card, None, "must_capture",
                                     f"{card} can capture, so it may not be laid down",
                                     {"card": str(card)}))
        elif sum(values) == s and puzzle.kind == "fifteens":
            wrong.append(WrongAnswer(take, None, None, "group_too_small",
                                     "a group has at least two cards", {}))
        else:
            wrong.append(WrongAnswer(take, card, None, "wrong_sum", _arithmetic(values, s),
                                     {"values": values, "total": sum(values), "sum": s}))
    if said_none and puzzle.solutions:
        n = len(puzzle.solutions)
        wrong.append(WrongAnswer((), None, None, "not_none",
                                 f"there {'is' if n == 1 else 'are'} {n} to find, not none",
                                 {"count": n}))
    if puzzle.kind == "best-move":
        missed = () if found else puzzle.solutions
    else:
        missed = tuple(sol for k, sol in expected.items() if k not in found)
    found_in_order = tuple(sol for k, sol in expected.items() if k in found)
    missed_none = not puzzle.solutions and not said_none and not wrong
    return CheckResult(puzzle.id, found_in_order, missed, tuple(wrong), tuple(duplicates),
                       tuple(malformed), said_none, missed_none, hints)


def _scopa_wrong(puzzle: Puzzle, card: Card, take: tuple[Card, ...]) -> WrongAnswer:
    """Why a set is no Scopa capture, as the variant refuses it: an equal card lies on
    the table (it must be taken first), or the table cards do not make the card's value
    ("3 + 5 = 8, not 7": Scopa adds the table cards only)."""
    refusal = variant_for(SCOPA_RULES).refusal(SCOPA_RULES, mask_of(puzzle.table),
                                               card.index, mask_of(take))
    values = [c.value for c in take]
    # A set that makes the value is the trap the rule is about; any other set is told
    # by its arithmetic, which is true whatever else lies on the table (also for a
    # stored puzzle whose solutions the rule would not give: never an exception here).
    if (refusal is not None and refusal.code == Code.MUST_TAKE_EQUAL
            and sum(values) == card.value):
        p = refusal.params
        return WrongAnswer(take, card, None, "must_take_equal",
                           f"a {card.value} is on the table: {card} must take it first",
                           {"card": str(card), "value": card.value,
                            "equal": list(p["equal"])})
    return WrongAnswer(take, card, None, "wrong_sum", _arithmetic(values, card.value),
                       {"values": values, "total": sum(values), "sum": card.value,
                        "sum_of": "table"})


def _move_text(card: Card | None, take: tuple[Card, ...]) -> str:
    if not take:
        return f"laying {card} down"
    return f"{card} taking {' '.join(map(str, take))}"


def _check_quick(puzzle: Puzzle, items: list[Any], said_none: bool, hints: int) -> CheckResult:
    s = puzzle.capture_sum
    solution = puzzle.solutions[0]
    found: list[Solution] = []
    wrong: list[WrongAnswer] = []
    duplicates: list[str] = []
    malformed: list[Malformed] = []
    seen: set[int] = set()
    for item in items:
        value: int | None = None
        if isinstance(item, int) and not isinstance(item, bool):
            value = item
        elif isinstance(item, str) and item.strip().lstrip("-").isdigit():
            value = int(item.strip())
        if value is None:
            malformed.append(Malformed(_show(item), "answer with a number, e.g. 7"))
            continue
        if value in seen:
            duplicates.append(_show(item))
            continue
        seen.add(value)
        if value == solution.value:
            found.append(solution)
        else:
            values = [*puzzle.addends, value]
            wrong.append(WrongAnswer((), None, value, "wrong_value", _arithmetic(values, s),
                                     {"values": values, "total": sum(values), "sum": s}))
    if said_none:
        wrong.append(WrongAnswer((), None, None, "not_none", "there is a number to find",
                                 {"count": 1}))
    missed = () if found else (solution,)
    return CheckResult(puzzle.id, tuple(found), missed, tuple(wrong), tuple(duplicates),
                       tuple(malformed), said_none, False, hints)


@dataclass(frozen=True, slots=True)
class Hint:
    """A nudge towards a missed solution: a message key, its parameters, the English text.

    Keys: ``need`` {card, need} (what the table must give the card),
    ``starts_with`` {card, first} (a missed set uses this table card),
    ``group_uses`` {card} (a missed group uses this card), ``count_on``
    {start, sum} (quick facts), ``consider`` {card} (best move), ``check_each``
    {sum} (nothing to find: check every card), ``all_found`` {}, ``the_set`` {card, take}
    (the strongest: the whole set, card codes); Scopa: ``scopa_equal`` {card, value} (a
    card of the same value is there), ``scopa_need`` {card, value} (table cards make
    the value), ``scopa_check_each`` {card, value} (nothing to find).
    """

    key: str
    params: Mapping[str, Any]
    message: str


def hint(puzzle: Puzzle, answer: Any = None, strength: int = 1) -> Hint:
    """A hint for the first solution ``answer`` has not found yet (``strength`` 1 to 3:
    a nudge, a card of the set, then the whole set).

    Each hint given should be passed to :func:`check` as ``hints`` (it costs a star).
    """
    s = puzzle.capture_sum
    if puzzle.kind == "quick-facts":
        start = sum(puzzle.addends)
        return Hint("count_on", {"start": start, "sum": s},
                    f"count on from {start} to {s}")
    if not puzzle.solutions:
        if puzzle.kind == "scopa":
            card = puzzle.hand[0]
            return Hint("scopa_check_each", {"card": str(card), "value": card.value},
                        f"is there a {card.value} on the table, or cards that make "
                        f"{card.value}?")
        return Hint("check_each", {"sum": s}, f"add each table card to yours: is any {s}?")
    missed = check(puzzle, answer).missed if answer is not None else puzzle.solutions
    if not missed:
        return Hint("all_found", {}, "you have found them all")
    target = missed[0]
    # The last step of every kind shows the whole set: a hint after a nudge adds something.
    if strength >= (2 if puzzle.kind in ("best-move", "fifteens") else 3):
        card = str(target.card) if target.card is not None else None
        take = [str(c) for c in target.take]
        return Hint("the_set", {"card": card, "take": take},
                    f"{card or 'a group'}: {' '.join(take) or 'put down'}")
    if puzzle.kind == "best-move":
        return Hint("consider", {"card": str(target.card)},
                    f"think about playing {target.card}")
    if puzzle.kind == "fifteens":
        card = max(target.take, key=lambda c: c.value)
        return Hint("group_uses", {"card": str(card)}, f"one group you have not found uses "
                                                       f"{card}")
    assert target.card is not None
    if strength <= 1 and puzzle.kind == "scopa":
        value = target.card.value
        if len(target.take) == 1 and target.take[0].value == value:
            return Hint("scopa_equal", {"card": str(target.card), "value": value},
                        f"is there a card of the same value as {target.card}, {value}?")
        return Hint("scopa_need", {"card": str(target.card), "value": value},
                    f"which table cards make {value} together?")
    if strength <= 1:
        need = s - target.card.value
        return Hint("need", {"card": str(target.card), "need": need},
                    f"{target.card} needs {need} from the table")
    first = target.take[0]
    return Hint("starts_with", {"card": str(target.card), "first": str(first)},
                f"{target.card} can take a set with {first}")
