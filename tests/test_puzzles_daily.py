"""The daily puzzle: golden dates, numbering, rising levels, share text, bad dates."""

from __future__ import annotations

import itertools
import json
import re
from datetime import date
from pathlib import Path

import pytest

from escoba.cards import Card
from puzzles import PuzzleError, daily_number, daily_set, share_text

GOLDEN = json.loads((Path(__file__).parent / "data" / "daily_golden.json").read_text("utf-8"))


def pinned(p) -> dict:
    d = p.to_dict()
    out = {k: v for k, v in d.items() if k in ("id", "kind", "level", "capture_sum", "table",
                                               "hand", "solutions")}
    out["solutions"] = [{k: v for k, v in s.items() if k != "facts"} for s in out["solutions"]]
    return out


@pytest.mark.parametrize("day", sorted(GOLDEN["days"]))
def test_golden_dates_never_change(day):
    expected = GOLDEN["days"][day]
    daily = daily_set(day)
    assert daily.number == expected["number"]
    assert [pinned(p) for p in daily.puzzles] == expected["puzzles"]


@pytest.mark.parametrize("day", sorted(GOLDEN["days"]))
def test_golden_solutions_are_right(day):
    """The pinned answers themselves are checked by brute force: no wrong answer is pinned."""
    for p in GOLDEN["days"][day]["puzzles"]:
        table = [Card.parse(c) for c in p["table"]]
        played = [Card.parse(c) for c in p.get("hand", [])] or [None]
        found = set()
        for card in played:
            need = p["capture_sum"] - (card.value if card else 0)
            for r in range(1 if card else 2, len(table) + 1):
                for combo in itertools.combinations(table, r):
                    if sum(c.value for c in combo) == need:
                        found.add((str(card) if card else None, tuple(sorted(map(str, combo)))))
        assert found == {(s.get("card"), tuple(sorted(s["take"]))) for s in p["solutions"]}


def test_golden_other_capture_sum():
    for day, expected in GOLDEN["days_sum10"].items():
        daily = daily_set(day, 10)
        assert [{"id": p.id, "table": [str(c) for c in p.table],
                 "hand": [str(c) for c in p.hand]} for p in daily.puzzles] == expected["puzzles"]


def test_numbering_starts_on_the_first_of_december_2026():
    assert daily_number("2026-12-01") == 1
    assert daily_number(date(2026, 12, 31)) == 31
    assert daily_number("2027-12-01") == 366
    with pytest.raises(PuzzleError, match="no daily puzzle before 2026-12-01"):
        daily_number("2026-11-30")


def test_five_puzzles_of_rising_level_the_same_for_everyone():
    a, b = daily_set("2027-05-05"), daily_set(date(2027, 5, 5))
    assert a == b
    assert [p.level for p in a.puzzles] == [1, 2, 3, 4, 5]
    difficulty = [p.stats.difficulty for p in a.puzzles]
    assert difficulty == sorted(difficulty)
    assert daily_set("2027-05-06").puzzles != a.puzzles


@pytest.mark.parametrize("text", ["2026-13-01", "yesterday", "2026-02-30", "20261201", ""])
def test_bad_dates_are_clear_errors(text):
    with pytest.raises(PuzzleError, match="not a date"):
        daily_set(text)


def test_share_text_is_spoiler_free():
    daily = daily_set("2026-12-09")
    text = share_text(daily, [3, 3, 2, 1, None])
    assert text.startswith("Escoba daily #9 ")
    assert "9/15" in text and text.splitlines()[1] == "🟩🟩🟨🟧⬜"
    cards = {str(c) for p in daily.puzzles for c in (*p.table, *p.hand)}
    assert not any(re.search(rf"\b{re.escape(c)}\b", text) for c in cards)
    assert share_text(9, [3, 3, 2, 1, None]) == text
    with pytest.raises(PuzzleError):
        share_text(daily, [3, 3])
    with pytest.raises(PuzzleError):
        share_text(daily, [4, 3, 3, 3, 3])
